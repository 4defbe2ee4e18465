/* The multi-buffer layer: per-lane Montgomery constants, the portable reference kernel and
 * the constant-time multi-buffer exponentiation (the transposes between limbs and lane digits
 * are on the ground floor, src/digits.c). The vector products are the kernels of src/ifma and
 * src/avx512 (list in kernels.c); everything here is portable C with the generic flags.
 * Layout and contracts: mb.h. */
#include <stdlib.h>

#include "../mod/mod.h"
#include "mb.h"

/* ---- the portable reference kernel ---- */

void tabai_mont_mul_rwn_mbl_generic(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                    const uint64_t *p, const uint64_t *k0, size_t d,
                                    unsigned L, unsigned w) {
    /* Accumulators t[0..2d]: row i adds at most four terms < 2^w to each digit (the low and
     * high halves of a_i*b_j and q*p_j) plus the carry of t[i]; over d rows a digit stays
     * below (4d + 2) * 2^w <= 2^61 for w = 52, d <= 79 (and far less for w = 32). */
    const uint64_t mask = ((uint64_t)1 << w) - 1;
    uint64_t t[2 * TABAI_MB_MAX_DIGITS + 2], out[TABAI_MB_MAX_DIGITS + 1];
    uint64_t res[TABAI_MB_MAX_DIGITS * TABAI_MB_MAX_LANES];
    for (unsigned l = 0; l < L; l++) {
        for (size_t i = 0; i <= 2 * d; i++) t[i] = 0;
        for (size_t i = 0; i < d; i++) {
            uint64_t ai = a[i * L + l];
            for (size_t j = 0; j < d; j++) {
                tabai_u128 x = (tabai_u128)ai * b[j * L + l];
                t[i + j] += (uint64_t)x & mask;
                t[i + j + 1] += (uint64_t)(x >> w);
            }
            uint64_t q = ((t[i] & mask) * k0[l]) & mask;
            for (size_t j = 0; j < d; j++) {
                tabai_u128 x = (tabai_u128)q * p[j * L + l];
                t[i + j] += (uint64_t)x & mask;
                t[i + j + 1] += (uint64_t)(x >> w);
            }
            t[i + 1] += t[i] >> w; /* t[i] & mask == 0 now */
        }
        uint64_t cy = 0;
        for (size_t i = 0; i <= d; i++) {
            uint64_t v = t[d + i] + cy;
            out[i] = v & mask;
            cy = v >> w;
        }
        /* out < 2p; out - p by a borrow chain in radix 2^w, kept if no borrow */
        uint64_t bw = 0, s[TABAI_MB_MAX_DIGITS + 1];
        for (size_t i = 0; i <= d; i++) {
            uint64_t pi = i < d ? p[i * L + l] : 0;
            uint64_t v = out[i] - pi - bw;
            s[i] = v & mask;
            bw = v >> 63; /* digits < 2^w <= 2^52: the difference wraps iff it borrows */
        }
        uint64_t keep = tabai_mask(bw); /* all ones: out < p, keep out */
        for (size_t i = 0; i < d; i++) res[i * L + l] = (out[i] & keep) | (s[i] & ~keep);
    }
    memcpy(r, res, d * L * sizeof(uint64_t));
}

/* ---- contexts ---- */

/* r = 2^E mod p for a public E, from the scalar context: square-and-multiply on Montgomery
 * forms, where squaring doubles the exponent of 2^a R and a modular addition adds one. The
 * sequence of operations depends on E only: constant time in p. r: mc->n limbs. */
static void pow2_mod(const tabai_mont *mc, uint64_t *r, size_t E) {
    uint64_t acc[TABAI_MAX_LIMBS];
    memcpy(acc, mc->one, mc->n * sizeof(uint64_t));
    /* cannot fail: acc stays a value < p (it starts at R mod p) */
    for (int bit = 63 - __builtin_clzll((unsigned long long)E); bit >= 0; bit--) {
        (void)!tabai_mont_sqr(mc, acc, acc);
        if ((E >> bit) & 1) (void)!tabai_mont_add(mc, acc, acc, acc);
    }
    (void)!tabai_mont_from(mc, r, acc);
}

tabai_status tabai_mb_mont_init_lanes(tabai_mb_mont *ctx, const tabai_mb_kernel *k,
                                      const tabai_mont *const mc[], size_t n) {
    if (!ctx || !k || !mc) return TABAI_ERR_NULL;
    const unsigned L = k->lanes, w = k->w;
    const tabai_mont *first = NULL;
    for (unsigned l = 0; l < L && !first; l++) first = mc[l];
    if (!first) return TABAI_ERR_NULL;
    if (n == 0 || n > TABAI_MAX_LIMBS) return TABAI_ERR_SIZE;
    size_t bits = 0;
    const tabai_mont *lane[TABAI_MB_MAX_LANES];
    for (unsigned l = 0; l < L; l++) {
        lane[l] = mc[l] ? mc[l] : first;
        if (lane[l]->n > n) return TABAI_ERR_SIZE;
        if (lane[l]->bits > bits) bits = lane[l]->bits; /* public: the length of p */
    }
    if (bits > TABAI_MB_MAX_BITS) return TABAI_ERR_SIZE;
    const size_t d = tabai_mb_digits(bits, w);
    ctx->k = k;
    ctx->d = d;
    ctx->n = n;
    uint64_t one[TABAI_MB_MAX_LANES][TABAI_MAX_LIMBS], rr[TABAI_MB_MAX_LANES][TABAI_MAX_LIMBS];
    const uint64_t *pp[TABAI_MB_MAX_LANES], *pone[TABAI_MB_MAX_LANES], *prr[TABAI_MB_MAX_LANES];
    for (unsigned l = 0; l < L; l++) {
        const size_t mn = lane[l]->n;
        /* -p^-1 mod 2^w: the low w bits of the scalar context's -p^-1 mod 2^64 */
        ctx->k0[l] = lane[l]->pinv & (((uint64_t)1 << w) - 1);
        /* R mod p, R = 2^(w d). With R64 = 2^(64 mn) and s = w d - 64 mn in [0, 63) and
         * 2^s < p (the usual case: d digits just cover the lane's limbs), one Montgomery
         * product of R64^2 mod p and 2^s gives it; else square-and-add (pow2_mod). */
        const size_t E = w * d, base = 64 * mn;
        /* 2^s < p iff bits(p) > s (p odd >= 3): decided on the public length, not on p */
        if (E >= base && E - base < 63 && lane[l]->bits > E - base) {
            uint64_t small[TABAI_MAX_LIMBS] = {(uint64_t)1 << (E - base)};
            (void)!tabai_mont_mul(lane[l], one[l], lane[l]->rr, small); /* cannot fail: 2^s < p */
        } else {
            pow2_mod(lane[l], one[l], E);
        }
        /* R^2 mod p: (R * R / R64) * R64^2 / R64 */
        (void)!tabai_mont_mul(lane[l], rr[l], one[l], one[l]); /* cannot fail: both < p */
        (void)!tabai_mont_mul(lane[l], rr[l], rr[l], lane[l]->rr);
        memset(one[l] + mn, 0, (n - mn) * sizeof(uint64_t));
        memset(rr[l] + mn, 0, (n - mn) * sizeof(uint64_t));
        pp[l] = lane[l]->p;
        pone[l] = one[l];
        prr[l] = rr[l];
    }
    /* lane moduli have mn <= n limbs: convert each from its own length */
    for (unsigned l = 0; l < L; l++) {
        const uint64_t *only[TABAI_MB_MAX_LANES] = {0};
        uint64_t tmp[TABAI_MB_MAX_DIGITS * TABAI_MB_MAX_LANES];
        only[l] = pp[l];
        tabai_mb_to_digits(tmp, L, w, d, only, lane[l]->n);
        for (size_t i = 0; i < d; i++) ctx->p[i * L + l] = tmp[i * L + l];
    }
    tabai_mb_to_digits(ctx->one, L, w, d, pone, n);
    tabai_mb_to_digits(ctx->rr, L, w, d, prr, n);
    return TABAI_OK;
}

tabai_status tabai_mb_mont_init(tabai_mb_mont *ctx, const tabai_mb_kernel *k,
                                const uint64_t *const p[], size_t n) {
    if (!ctx || !k || !p) return TABAI_ERR_NULL;
    if (n == 0 || n > TABAI_MAX_LIMBS) return TABAI_ERR_SIZE;
    tabai_mont *mc = malloc(TABAI_MB_MAX_LANES * sizeof *mc);
    if (!mc) return TABAI_ERR_ALLOC;
    const tabai_mont *lanes[TABAI_MB_MAX_LANES] = {0};
    tabai_status s = TABAI_OK;
    for (unsigned l = 0; l < k->lanes && s == TABAI_OK; l++) {
        if (!p[l]) continue;
        s = tabai_mont_init(&mc[l], p[l], n);
        lanes[l] = &mc[l];
    }
    if (s == TABAI_OK) s = tabai_mb_mont_init_lanes(ctx, k, lanes, n);
    tabai_wipe_free(mc, TABAI_MB_MAX_LANES * sizeof *mc); /* the moduli may be secret */
    return s;
}

void tabai_mb_mont_to(const tabai_mb_mont *ctx, uint64_t *r, const uint64_t *a) {
    ctx->k->mont_mul(r, a, ctx->rr, ctx->p, ctx->k0, ctx->d);
}

void tabai_mb_mont_from(const tabai_mb_mont *ctx, uint64_t *r, const uint64_t *a) {
    uint64_t one[TABAI_MB_MAX_DIGITS * TABAI_MB_MAX_LANES];
    const size_t L = ctx->k->lanes;
    memset(one, 0, ctx->d * L * sizeof(uint64_t));
    for (size_t l = 0; l < L; l++) one[l] = 1;
    ctx->k->mont_mul(r, a, one, ctx->p, ctx->k0, ctx->d);
}

/* ---- exponentiation ---- */

/* The window minimising the estimated cost in units of one digit-pair product: squarings
 * (~0.85 of a product each) for every bit, one product per window and per table entry
 * (d^2 each), and the table scan of every window (2^w entries of d digit vectors, about a
 * twentieth of a digit-pair product per digit: a load and a masked move). The scan makes the
 * best window smaller than the scalar path's: 4 at 1024 bits against 6. */
unsigned tabai_mb_window(size_t ebits, size_t d) {
    unsigned best = 1;
    double best_cost = 0;
    for (unsigned w = 1; w <= 6; w++) {
        const double entries = (double)((size_t)1 << w), nwin = (double)((ebits + w - 1) / w);
        const double dd = (double)d * (double)d;
        double cost = 0.85 * dd * (double)ebits + dd * (nwin + entries) + nwin * entries * d * 0.65;
        if (w == 1 || cost < best_cost) {
            best = w;
            best_cost = cost;
        }
    }
    return best;
}

size_t tabai_mb_powmod_scratch_words(const tabai_mb_kernel *k, size_t d, size_t ebits) {
    return (((size_t)1 << tabai_mb_window(ebits, d)) + 3) * d * k->lanes;
}

size_t tabai_mb_powmod_scratch(const tabai_mb_mont *ctx, size_t ebits) {
    return tabai_mb_powmod_scratch_words(ctx->k, ctx->d, ebits);
}

/* ent = tab[idx_l] in every lane l: every entry is read, each lane keeps its own by masks */
static void table_scan(uint64_t *ent, const uint64_t *tab, size_t entries, size_t d,
                       unsigned L, const uint64_t *idx) {
    const size_t words = d * L;
    uint64_t m[TABAI_MB_MAX_LANES];
    memset(ent, 0, words * sizeof(uint64_t));
    for (size_t i = 0; i < entries; i++) {
        for (unsigned l = 0; l < L; l++) m[l] = tabai_mask(tabai_eq(i, idx[l]));
        const uint64_t *t = tab + i * words;
        for (size_t j = 0; j < words; j += L)
            for (unsigned l = 0; l < L; l++) ent[j + l] |= t[j + l] & m[l];
    }
}

void tabai_mb_powmod(const tabai_mb_mont *ctx, uint64_t *r, const uint64_t *b,
                     const uint64_t *const e[], size_t ebits, uint64_t *scratch) {
    const tabai_mb_kernel *k = ctx->k;
    const unsigned L = k->lanes, w = tabai_mb_window(ebits, ctx->d);
    const size_t d = ctx->d, words = d * L, entries = (size_t)1 << w;
    uint64_t *tab = scratch, *acc = tab + entries * words, *ent = acc + words, *bf = ent + words;
    tabai_mb_mont_to(ctx, bf, b);
    memcpy(tab, ctx->one, words * sizeof(uint64_t));
    memcpy(tab + words, bf, words * sizeof(uint64_t));
    for (size_t i = 2; i < entries; i++) {
        if (i % 2 == 0) k->mont_sqr(tab + i * words, tab + (i / 2) * words, ctx->p, ctx->k0, d);
        else k->mont_mul(tab + i * words, tab + (i - 1) * words, bf, ctx->p, ctx->k0, d);
    }
    memcpy(acc, ctx->one, words * sizeof(uint64_t));
    const size_t nwin = (ebits + w - 1) / w;
    uint64_t idx[TABAI_MB_MAX_LANES];
    for (size_t win = nwin; win-- > 0;) {
        if (win != nwin - 1)
            for (unsigned s = 0; s < w; s++) k->mont_sqr(acc, acc, ctx->p, ctx->k0, d);
        for (unsigned l = 0; l < L; l++) /* e[l] == NULL (a public pointer): exponent 0 */
            idx[l] = e[l] ? tabai_window_bits(e[l], ebits, win * w, w) : 0;
        (k->scan ? k->scan : table_scan)(ent, tab, entries, d, L, idx);
        k->mont_mul(acc, acc, ent, ctx->p, ctx->k0, d);
    }
    tabai_mb_mont_from(ctx, r, acc);
}
