/* Modular inversion.
 * tabai_mont_inv_prime: Fermat, a^(p-2) mod p with the constant-time powmod.
 * tabai_inv_vartime: any m >= 2. Odd m: safegcd (safegcd.c), with the binary extended
 * Euclid (HAC 14.61, the variant that keeps x1, x2 reduced mod m) behind it for the case
 * safegcd gives up (never seen). Even m = 2^s m': the inverse mod m' as above, the
 * inverse mod 2^s by Newton's iteration y <- y(2 - a y), joined by CRT. */
#include <stdlib.h>

#include "mod.h"

tabai_status tabai_mont_inv_prime(const tabai_mont *ctx, uint64_t *r, const uint64_t *a) {
    if (!ctx || !r || !a) return TABAI_ERR_NULL;
    const size_t n = ctx->n;
    if (!tabai_reduced_public(a, ctx->p, n)) return TABAI_ERR_RANGE; /* public: an error */
    uint64_t z = 0;
    for (size_t i = 0; i < n; i++) z |= a[i];
    /* public: a == 0 has no inverse, the one bit about a this function reveals */
    if (!tabai_declassify(tabai_nonzero(z))) return TABAI_ERR_NOINV;
    uint64_t e[TABAI_MAX_LIMBS], two[TABAI_MAX_LIMBS] = {2};
    tabai_sub_n_generic(e, ctx->p, two, n); /* p >= 3 */
    size_t ebits = tabai_bitlen_vartime(e, n);
    size_t sl = tabai_powmod_scratch_limbs(n, ebits);
    uint64_t *scratch = malloc(sl * sizeof(uint64_t));
    if (!scratch) return TABAI_ERR_ALLOC;
    tabai_status s = tabai_mont_powmod(ctx, r, a, e, ebits, scratch, sl);
    tabai_wipe_free(scratch, sl * sizeof(uint64_t)); /* powers of the secret a */
    return s;
}

/* ---- variable-time helpers on public-length limb arrays ---- */

static int is_zero(const uint64_t *a, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (a[i]) return 0;
    return 1;
}
static int is_one(const uint64_t *a, size_t n) { return a[0] == 1 && is_zero(a + 1, n - 1); }
static void shr1(uint64_t *a, size_t n, uint64_t top) {
    for (size_t i = 0; i < n; i++) {
        uint64_t hi = i + 1 < n ? a[i + 1] : top;
        a[i] = (a[i] >> 1) | (hi << 63);
    }
}
/* x = x/2 mod m (m odd, x < m) */
static void half_mod(uint64_t *x, const uint64_t *m, size_t n) {
    uint64_t cy = 0;
    if (x[0] & 1) cy = tabai_add_n_generic(x, x, m, n);
    shr1(x, n, cy);
}
/* x = x - y mod m (x, y < m) */
static void sub_mod(uint64_t *x, const uint64_t *y, const uint64_t *m, size_t n) {
    if (tabai_sub_n_generic(x, x, y, n)) tabai_add_n_generic(x, x, m, n);
}

/* r = a^-1 mod m, m odd, a < m; returns 0 when gcd(a, m) != 1. By safegcd (safegcd.c;
 * about 10 times faster than the binary algorithm at 2048 bits), the binary extended Euclid
 * kept for safegcd's give-up case. */
static int inv_odd(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n) {
    uint64_t y = m[0]; /* m^-1 mod 2^64 by Newton's iteration: 3, 6, ..., 96 bits */
    for (int i = 0; i < 5; i++) y *= 2 - m[0] * y;
    uint64_t t[TABAI_MAX_LIMBS];
    const int ok = tabai_modinv_safegcd_vartime(t, a, m, 0 - y, tabai_bitlen_vartime(m, n), n);
    if (ok >= 0) {
        if (ok) memcpy(r, t, n * 8);
        return ok;
    }
    return tabai_inv_odd_binary_vartime(r, a, m, n);
}

int tabai_inv_odd_binary_vartime(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n) {
    uint64_t u[TABAI_MAX_LIMBS], v[TABAI_MAX_LIMBS], x1[TABAI_MAX_LIMBS] = {1},
        x2[TABAI_MAX_LIMBS] = {0};
    memcpy(u, a, n * 8);
    memcpy(v, m, n * 8);
    if (is_zero(u, n)) return 0;
    while (!is_one(u, n) && !is_one(v, n)) {
        if (is_zero(u, n) || is_zero(v, n)) return 0;
        while (!(u[0] & 1)) {
            shr1(u, n, 0);
            half_mod(x1, m, n);
        }
        while (!(v[0] & 1)) {
            shr1(v, n, 0);
            half_mod(x2, m, n);
        }
        if (tabai_cmp_n(u, v, n) >= 0) {
            tabai_sub_n_generic(u, u, v, n);
            sub_mod(x1, x2, m, n);
        } else {
            tabai_sub_n_generic(v, v, u, n);
            sub_mod(x2, x1, m, n);
        }
    }
    memcpy(r, is_one(u, n) ? x1 : x2, n * 8);
    return 1;
}

/* r[L] = low s bits of a[L] * b[L], L = ceil(s/64) */
static void mul_lo(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t s) {
    size_t L = (s + 63) / 64;
    uint64_t t[2 * TABAI_MAX_LIMBS];
    tabai_mul_n_generic(t, a, b, L);
    memcpy(r, t, L * 8);
    if (s % 64) r[L - 1] &= ((uint64_t)1 << (s % 64)) - 1;
}

/* y = a^-1 mod 2^s for odd a (a given as L limbs, masked). */
static void inv_pow2(uint64_t *y, const uint64_t *a, size_t s) {
    size_t L = (s + 63) / 64;
    uint64_t t[TABAI_MAX_LIMBS], two[TABAI_MAX_LIMBS] = {2};
    memset(y, 0, L * 8);
    y[0] = 1; /* correct mod 2 */
    for (size_t prec = 1; prec < s; prec *= 2) {
        mul_lo(t, a, y, s);
        tabai_sub_n_generic(t, two, t, L); /* 2 - a*y mod 2^(64L) */
        mul_lo(y, y, t, s);
    }
}

/* r[mn] = a[an] mod m[mn] by binary long division (variable time). */
static void mod_vartime(uint64_t *r, const uint64_t *a, size_t an, const uint64_t *m, size_t mn) {
    uint64_t rem[TABAI_MAX_LIMBS + 1] = {0}, t[TABAI_MAX_LIMBS + 1];
    uint64_t mm[TABAI_MAX_LIMBS + 1] = {0};
    memcpy(mm, m, mn * 8);
    for (size_t bit = 64 * an; bit-- > 0;) {
        uint64_t top = 0;
        for (size_t i = 0; i <= mn; i++) {
            uint64_t x = rem[i];
            rem[i] = (x << 1) | top;
            top = x >> 63;
        }
        rem[0] |= (a[bit / 64] >> (bit % 64)) & 1;
        if (!tabai_sub_n_generic(t, rem, mm, mn + 1)) memcpy(rem, t, (mn + 1) * 8);
    }
    memcpy(r, rem, mn * 8);
}

tabai_status tabai_inv_vartime(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n) {
    if (!r || !a || !m) return TABAI_ERR_NULL;
    if (n == 0 || n > TABAI_MAX_LIMBS) return TABAI_ERR_SIZE;
    size_t mn = tabai_normalized_len_vartime(m, n);
    if (mn == 0 || (mn == 1 && m[0] < 2)) return TABAI_ERR_MODULUS;
    if (tabai_cmp_n(a, m, n) >= 0) return TABAI_ERR_RANGE;
    uint64_t out[TABAI_MAX_LIMBS] = {0};
    if (m[0] & 1) {
        if (!inv_odd(out, a, m, mn)) return TABAI_ERR_NOINV;
    } else {
        if (!(a[0] & 1)) return TABAI_ERR_NOINV;
        size_t s = 0;
        while (!((m[s / 64] >> (s % 64)) & 1)) s++;
        size_t L = (s + 63) / 64;
        /* m' = m >> s */
        uint64_t mo[TABAI_MAX_LIMBS] = {0};
        for (size_t i = 0; i < mn; i++) {
            size_t src = i + s / 64;
            uint64_t lo = src < mn ? m[src] : 0, hi = src + 1 < mn ? m[src + 1] : 0;
            mo[i] = s % 64 ? (lo >> (s % 64)) | (hi << (64 - s % 64)) : lo;
        }
        size_t on = tabai_normalized_len_vartime(mo, mn);
        uint64_t aL[TABAI_MAX_LIMBS] = {0}, x2[TABAI_MAX_LIMBS];
        memcpy(aL, a, L * 8);
        if (s % 64) aL[L - 1] &= ((uint64_t)1 << (s % 64)) - 1;
        inv_pow2(x2, aL, s);
        if (on == 1 && mo[0] == 1) { /* m = 2^s */
            memcpy(out, x2, L * 8);
        } else {
            uint64_t ar[TABAI_MAX_LIMBS] = {0}, x1[TABAI_MAX_LIMBS] = {0};
            mod_vartime(ar, a, mn, mo, on);
            if (!inv_odd(x1, ar, mo, on)) return TABAI_ERR_NOINV;
            /* x = x1 + m' * ((x2 - x1) * m'^-1 mod 2^s) */
            uint64_t c[TABAI_MAX_LIMBS] = {0}, moL[TABAI_MAX_LIMBS] = {0},
                     x1L[TABAI_MAX_LIMBS] = {0}, d[TABAI_MAX_LIMBS] = {0};
            memcpy(moL, mo, (L < on ? L : on) * 8);
            if (s % 64) moL[L - 1] &= ((uint64_t)1 << (s % 64)) - 1;
            inv_pow2(c, moL, s);
            memcpy(x1L, x1, (L < on ? L : on) * 8);
            tabai_sub_n_generic(d, x2, x1L, L);
            mul_lo(d, d, c, s);
            uint64_t t[2 * TABAI_MAX_LIMBS] = {0};
            tabai_mul(t, mo, on, d, L); /* < m' 2^s = m: fits mn limbs */
            tabai_add_n_generic(out, t, x1, mn);
        }
    }
    for (size_t i = 0; i < n; i++) r[i] = i < mn ? out[i] : 0;
    return TABAI_OK;
}

/* x[n] >>= s for 0 < s < 64 */
static void shr_small(uint64_t *x, size_t n, unsigned s) {
    for (size_t i = 0; i + 1 < n; i++) x[i] = (x[i] >> s) | (x[i + 1] << (64 - s));
    x[n - 1] >>= s;
}

tabai_status tabai_jacobi_vartime(int *r, const uint64_t *a, const uint64_t *m, size_t n) {
    if (!r || !a || !m) return TABAI_ERR_NULL;
    if (n == 0 || n > TABAI_MAX_LIMBS) return TABAI_ERR_SIZE;
    size_t mn = tabai_normalized_len_vartime(m, n);
    if (mn == 0 || !(m[0] & 1) || (mn == 1 && m[0] < 3)) return TABAI_ERR_MODULUS;
    if (!tabai_lt_n(a, m, n)) return TABAI_ERR_RANGE;
    if (tabai_jacobi_divsteps_vartime(r, a, m, mn) == 0) return TABAI_OK;
    /* the divsteps' budget ran out (a large gcd(a, m)): the binary algorithm */
    uint64_t x[TABAI_MAX_LIMBS], y[TABAI_MAX_LIMBS];
    memcpy(x, a, mn * sizeof(uint64_t));
    memcpy(y, m, mn * sizeof(uint64_t));
    size_t len = mn; /* both fit in len limbs; len shrinks with y */
    int t = 1;
    for (;;) {
        size_t xl = tabai_normalized_len_vartime(x, len);
        if (xl == 0) break;
        /* x = x / 2^s: (2/y) = -1 exactly when y = 3 or 5 mod 8 */
        size_t zl = 0;
        while (x[zl] == 0) zl++;
        if (zl) {
            memmove(x, x + zl, (len - zl) * sizeof(uint64_t));
            memset(x + len - zl, 0, zl * sizeof(uint64_t));
        }
        unsigned s = (unsigned)__builtin_ctzll(x[0]);
        if (s) shr_small(x, len, s);
        const unsigned y8 = (unsigned)(y[0] & 7);
        if (((64 * zl + s) & 1) && (y8 == 3 || y8 == 5)) t = -t;
        /* x, y odd: make x >= y by reciprocity, then (x/y) = ((x - y)/y) */
        if (tabai_cmp_n(x, y, len) < 0) {
            for (size_t i = 0; i < len; i++) {
                uint64_t v = x[i];
                x[i] = y[i];
                y[i] = v;
            }
            if ((x[0] & 3) == 3 && (y[0] & 3) == 3) t = -t;
            len = tabai_normalized_len_vartime(x, len); /* x is the old y: the larger */
        }
        tabai_sub_n(x, x, y, len);
    }
    int one = y[0] == 1;
    for (size_t i = 1; i < len; i++) one &= y[i] == 0;
    *r = one ? t : 0;
    return TABAI_OK;
}
