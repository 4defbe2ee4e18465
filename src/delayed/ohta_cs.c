/* Carry-save, register-blocked Ohta modular multiplication (seed 003, Zheng-Ohta-Araki):
 * the three products of Ohta's Algorithm 3 (H = a*b, the truncated H*K, the low half of
 * d*p) are computed on b-bit digits held in 64-bit words, every column accumulated without
 * carries (carry save) and the loops blocked k x k over registers (k = 2, 3, 4; the seed
 * found 3x3 best on a Pentium 4). Each product is followed by one carry pass.
 *
 * The context is the ordinary tabai_ohta (R = 2^(64n), K = floor(R^2/p), n+1 limbs); p, K
 * and the operands are converted to digits on every call (O(n), part of the measured cost).
 *   - digit size b: the largest b <= 32 whose column bound tabai_rd_fits holds for the
 *     largest column of the three products (docs/bounds/delayed.md);
 *   - H = a*b exactly (2nd digits, nd = ceil(bits(p) / b));
 *   - T = the columns c >= c0 of H*K, with c0 chosen so that the dropped columns sum to
 *     less than m 2^(b (c0+1)) <= 2^(128n) = R^2 (m = terms per column); then, as in
 *     docs/bounds/ohta.md, d = floor(T / R^2) is floor(H K / R^2) or one less, and
 *     q - d is in {0, 1, 2};
 *   - f = H - d*p on nd+1 digits (f < 3p < 2^(b(nd+1))), two subtractions of p by masks.
 * Constant time: every branch and address depends on n, bits(p), bits(K) only. */
#include "delayed.h"
#include "../mod/mod.h"

#define CS_MAXD 1024 /* digits of the largest buffer (T columns at 8192 bits: about 920) */

static unsigned cs_lg(size_t m) { return 64u - (unsigned)__builtin_clzll((unsigned long long)m); }

/* the shape of one context: digit size and lengths (all public) */
typedef struct cs_shape {
    unsigned b;
    size_t nd;  /* digits of p, a, b, d */
    size_t ndk; /* digits of K */
} cs_shape;

static size_t cs_max_terms(size_t nd, size_t ndk) {
    size_t t = ndk < 2 * nd ? ndk : 2 * nd; /* columns of H*K */
    return t > nd + 1 ? t : nd + 1;          /* d*p: up to nd+1 terms below column nd+1 */
}

/* m * (2^b - 1) * 2^b < 2^64, as tabai_rd_fits, in 64-bit arithmetic (m < 2^32, b <= 32) */
static inline int cs_fits(size_t m, unsigned b) {
    return (uint64_t)m * ((((uint64_t)1) << b) - 1) < (((uint64_t)1) << (64 - b));
}

static cs_shape cs_shape_compute(const tabai_ohta *ctx) {
    cs_shape s = {0, 0, 0};
    /* K >= 2^(128n - bits) >= 2^(64n), so its top limb k[n] is never 0 */
    size_t kbits = 64 * ctx->n + 64 - (size_t)__builtin_clzll(ctx->k[ctx->n]);
    for (unsigned b = 32; b >= 8; b--) {
        size_t nd = tabai_digits_for(ctx->bits, b), ndk = tabai_digits_for(kbits, b);
        if (cs_fits(cs_max_terms(nd, ndk), b)) {
            s.b = b;
            s.nd = nd;
            s.ndk = ndk;
            return s;
        }
    }
    return s; /* unreachable for n <= 128 (b = 27 always fits) */
}

/* The shape depends on n, bits(p) and bits(K) only (public); a one-entry cache per thread
 * saves the integer divisions on repeated calls with one modulus. */
static cs_shape cs_shape_of(const tabai_ohta *ctx) {
    static __thread struct {
        size_t n, bits;
        uint64_t ktop;
        cs_shape s;
    } cache;
    const uint64_t ktop = ctx->k[ctx->n];
    if (cache.s.b && cache.n == ctx->n && cache.bits == ctx->bits && cache.ktop == ktop) return cache.s;
    cs_shape s = cs_shape_compute(ctx);
    cache.n = ctx->n;
    cache.bits = ctx->bits;
    cache.ktop = ktop;
    cache.s = s;
    return s;
}

unsigned tabai_ohta_cs_bits(const tabai_ohta *ctx) { return cs_shape_of(ctx).b; }

/* c[i+j] += x[i] * y[j] for the k x k blocks of x[nx] * y[ny] (nx, ny multiples of k,
 * zero padded) that reach a column in [clo, chi]; other blocks are skipped (their columns
 * are not used). For each block of k x-digits the 2k-1 columns it touches roll through
 * registers w[0..2k-1] while j walks over y: one load and one store per column and k-block,
 * k^2 multiply-adds per k loads of y. Column sums must fit 64 bits where they are used. */
TABAI_INLINE void cs_cols(uint64_t *c, const uint64_t *x, size_t nx, const uint64_t *y, size_t ny,
                          size_t clo, size_t chi, const size_t k) {
    for (size_t i = 0; i < nx; i += k) {
        if (i > chi) break;
        size_t jlo = 0;
        if (clo > i + 2 * k - 2) jlo = (clo - (i + 2 * k - 2) + k - 1) / k * k;
        size_t jend = (chi - i) / k * k + k;
        if (jend > ny) jend = ny;
        if (jlo >= jend) continue;
        uint64_t xv[4], w[8];
#pragma GCC unroll 4
        for (size_t t = 0; t < k; t++) {
            xv[t] = x[i + t];
            w[t] = c[i + jlo + t];
        }
        size_t j;
        for (j = jlo; j < jend; j += k) {
            uint64_t yv[4];
#pragma GCC unroll 4
            for (size_t t = 0; t < k; t++) {
                w[k + t] = c[i + j + k + t];
                yv[t] = y[j + t];
            }
#pragma GCC unroll 4
            for (size_t u = 0; u < k; u++)
#pragma GCC unroll 4
                for (size_t t = 0; t < k; t++) w[t + u] += xv[t] * yv[u];
#pragma GCC unroll 4
            for (size_t t = 0; t < k; t++) {
                c[i + j + t] = w[t];
                w[t] = w[k + t];
            }
        }
#pragma GCC unroll 4
        for (size_t t = 0; t < k; t++) c[i + j + t] = w[t];
    }
}

/* digits out[lo..hi) of the columns c[lo..hi): one carry pass; returns the carry out */
static inline uint64_t cs_carry(uint64_t *out, const uint64_t *c, size_t lo, size_t hi, unsigned b) {
    const uint64_t mask = (((uint64_t)1) << b) - 1;
    uint64_t cy = 0;
    for (size_t q = lo; q < hi; q++) {
        uint64_t x = c[q] + cy;
        out[q] = x & mask;
        cy = x >> b;
    }
    return cy;
}

/* f[m] = x[m] - y[m] mod 2^(b m) on normalized digits; returns 1 if x < y (borrow out) */
static inline uint64_t cs_sub(uint64_t *f, const uint64_t *x, const uint64_t *y, size_t m, unsigned b) {
    const int64_t mask = (int64_t)((((uint64_t)1) << b) - 1);
    int64_t bw = 0;
    for (size_t q = 0; q < m; q++) {
        int64_t t = (int64_t)x[q] - (int64_t)y[q] + bw;
        f[q] = (uint64_t)(t & mask);
        bw = t >> b; /* 0 or -1 */
    }
    return (uint64_t)(-bw);
}

TABAI_INLINE void ohta_mul_cs(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a, const uint64_t *bb,
                              const size_t k) {
    const cs_shape s = cs_shape_of(ctx);
    const unsigned b = s.b;
    const size_t n = ctx->n, nd = s.nd, ndk = s.ndk;
    const size_t ndp = (nd + 1 + k - 1) / k * k;     /* a, b, p, d padded (>= nd+1) */
    const size_t nh = 2 * nd, nhp = (nh + k - 1) / k * k;
    const size_t nkp = (ndk + k - 1) / k * k;
    uint64_t ad[CS_MAXD / 2], bd[CS_MAXD / 2], pd[CS_MAXD / 2], dd[CS_MAXD / 2];
    uint64_t kd[CS_MAXD / 2], h[CS_MAXD], c[CS_MAXD + 16];
    TABAI_VERIFY_CHECK(b >= 8 && nhp + nkp + 2 * k <= CS_MAXD);
    /* the column bound of docs/bounds/delayed.md for the largest column of the three products */
    TABAI_VERIFY_CHECK(cs_fits(cs_max_terms(nd, ndk), b) && 64 * n <= b * nd + 63);
    TABAI_VERIFY_CHECK(tabai_lt_n(a, ctx->p, n) && tabai_lt_n(bb, ctx->p, n));

    tabai_rd_from_limbs(ad, ndp, a, n, b);
    tabai_rd_from_limbs(bd, ndp, bb, n, b);
    tabai_rd_from_limbs(pd, ndp, ctx->p, n, b);
    tabai_rd_from_limbs(kd, nkp, ctx->k, n + 1, b);

    /* 1. H = a * b: all columns, one carry pass */
    for (size_t q = 0; q < 2 * ndp + 2 * k; q++) c[q] = 0;
    cs_cols(c, ad, ndp, bd, ndp, 0, 2 * ndp, k);
    uint64_t hcy = cs_carry(h, c, 0, nhp, b); /* columns >= 2nd are 0 (a, b < 2^(b nd)) */
    TABAI_VERIFY_CHECK(hcy == 0 && tabai_rd_digits_ok(h, nhp, b));
    (void)hcy;

    /* 2. T = columns >= c0 of H * K, d = floor(T / 2^(128n)) */
    const size_t m = nh < ndk ? nh : ndk;
    const size_t rbits = 128 * n;
    size_t c0 = 0;
    if (rbits > cs_lg(m) + b) c0 = (rbits - cs_lg(m)) / b - 1;
    const size_t ntc = nhp + nkp; /* columns of H*K */
    for (size_t q = 0; q < ntc + 2 * k; q++) c[q] = 0;
    cs_cols(c, h, nhp, kd, nkp, c0, ntc, k);
    cs_carry(c, c, c0, ntc + 1, b); /* digits of T in place, from column c0 */
    {
        const size_t q0 = rbits / b; /* d starts at bit rbits = q0*b + off */
        const unsigned off = (unsigned)(rbits % b);
        const uint64_t mask = (((uint64_t)1) << b) - 1;
        for (size_t j = 0; j < ndp; j++) {
            size_t q = q0 + j;
            uint64_t lo = q < ntc + 1 ? c[q] : 0, hi = q + 1 < ntc + 1 ? c[q + 1] : 0;
            dd[j] = j < nd ? ((lo >> off) | (off ? hi << (b - off) : 0)) & mask : 0;
        }
    }

    /* 3. the low nd+1 digits of d * p */
    for (size_t q = 0; q < 2 * ndp + 2 * k; q++) c[q] = 0;
    cs_cols(c, dd, ndp, pd, ndp, 0, nd, k);
    cs_carry(c, c, 0, nd + 1, b);

    /* 4. f = H - d p mod 2^(b(nd+1)), in [0, 3p); two subtractions of p by masks */
    uint64_t f[CS_MAXD / 2], t[CS_MAXD / 2];
    cs_sub(f, h, c, nd + 1, b);
    for (int round = 0; round < 2; round++) {
        uint64_t bw = cs_sub(t, f, pd, nd + 1, b);
        uint64_t mk = tabai_mask(bw);
        for (size_t q = 0; q <= nd; q++) f[q] = (f[q] & mk) | (t[q] & ~mk);
    }
#ifdef TABAI_VERIFY
    { /* f < 3p before the subtractions is asserted through its limbs; r < p after */
        uint64_t fl[TABAI_MAX_LIMBS + 1], f0[CS_MAXD / 2];
        cs_sub(f0, h, c, nd + 1, b);
        tabai_rd_to_limbs(fl, n + 1, f0, nd + 1, b);
        TABAI_VERIFY_CHECK(tabai_verify_lt_kp(fl, ctx->p, n, 3));
        TABAI_VERIFY_CHECK(f[nd] == 0 && tabai_rd_digits_ok(f, nd, b));
    }
#endif
    tabai_rd_to_limbs(r, n, f, nd, b);
    TABAI_VERIFY_CHECK(tabai_lt_n(r, ctx->p, n));
}

void tabai_ohta_mul_cs2_generic(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a,
                                const uint64_t *b) {
    ohta_mul_cs(ctx, r, a, b, 2);
}
void tabai_ohta_mul_cs3_generic(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a,
                                const uint64_t *b) {
    ohta_mul_cs(ctx, r, a, b, 3);
}
void tabai_ohta_mul_cs4_generic(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a,
                                const uint64_t *b) {
    ohta_mul_cs(ctx, r, a, b, 4);
}

/* ---- the seed's comparison baseline: word-serial Montgomery on the same digits ----------
 * Zheng-Ohta-Araki compared their carry-save Ohta (14-bit digits) with Montgomery on 16-bit
 * digits, carries propagated on every step (their Algorithm 1 / section 2.2). This is that
 * baseline on b-bit digits in 64-bit words, so that the report can put carry save and
 * blocking against Montgomery on equal digits as well as against tabai's 64-bit Montgomery.
 * z[nd] = x y 2^(-b nd) mod p for odd p < 2^(b nd), x, y < p; pinv = -p^-1 mod 2^b.
 * Constant time. */
void tabai_mont_mul_rd_generic(uint64_t *z, const uint64_t *x, const uint64_t *y,
                               const uint64_t *p, uint64_t pinv, size_t nd, unsigned b) {
    const uint64_t mask = (((uint64_t)1) << b) - 1;
    uint64_t t[CS_MAXD / 2 + 2], s[CS_MAXD / 2 + 2];
    TABAI_VERIFY_CHECK(nd >= 1 && nd + 2 <= CS_MAXD / 2 + 2 && b >= 8 && b <= 32);
    for (size_t q = 0; q < nd + 2; q++) t[q] = 0;
    for (size_t i = 0; i < nd; i++) {
        uint64_t c = 0, ec;
        for (size_t j = 0; j < nd; j++) { /* t += y_i x */
            ec = y[i] * x[j] + t[j] + c;
            t[j] = ec & mask;
            c = ec >> b;
        }
        ec = t[nd] + c;
        t[nd] = ec & mask;
        t[nd + 1] += ec >> b;
        const uint64_t u = (t[0] * pinv) & mask; /* t + u p = 0 mod 2^b */
        ec = u * p[0] + t[0];
        c = ec >> b;
        for (size_t j = 1; j < nd; j++) { /* t = (t + u p) / 2^b */
            ec = u * p[j] + t[j] + c;
            t[j - 1] = ec & mask;
            c = ec >> b;
        }
        ec = t[nd] + c;
        t[nd - 1] = ec & mask;
        t[nd] = t[nd + 1] + (ec >> b);
        t[nd + 1] = 0;
    }
    /* t < 2p: subtract p by masks */
    int64_t bw = 0;
    for (size_t q = 0; q <= nd; q++) {
        int64_t d = (int64_t)t[q] - (int64_t)(q < nd ? p[q] : 0) + bw;
        s[q] = (uint64_t)d & mask;
        bw = d >> b;
    }
    uint64_t keep = tabai_mask((uint64_t)(-bw)); /* borrow: t < p, keep t */
    for (size_t q = 0; q < nd; q++) z[q] = (t[q] & keep) | (s[q] & ~keep);
}

uint64_t tabai_rd_pinv(uint64_t p0, unsigned b) {
    uint64_t inv = p0; /* p0 * p0 = 1 mod 8: 3 correct bits, doubled by each step */
    for (int k = 0; k < 5; k++) inv *= 2 - p0 * inv;
    return (0 - inv) & ((((uint64_t)1) << b) - 1);
}

void tabai_mont_mul_n_rd_generic(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                 const uint64_t *p, size_t n, unsigned bits) {
    uint64_t ad[CS_MAXD / 2], bd[CS_MAXD / 2], pd[CS_MAXD / 2], zd[CS_MAXD / 2];
    const size_t nd = tabai_digits_for(tabai_bitlen_vartime(p, n), bits);
    tabai_rd_from_limbs(ad, nd, a, n, bits);
    tabai_rd_from_limbs(bd, nd, b, n, bits);
    tabai_rd_from_limbs(pd, nd, p, n, bits);
    tabai_mont_mul_rd_generic(zd, ad, bd, pd, tabai_rd_pinv(pd[0], bits), nd, bits);
    tabai_rd_to_limbs(r, n, zd, nd, bits);
}
