/* The single-number radix-2^52 layout (powmod_r52.h): contexts from the scalar Montgomery
 * context, the measured choice of layout and width per size, and the constant-time
 * fixed-window exponentiation of one number or of two (the two halves of an RSA CRT
 * operation) in that representation: converted in once, out once. Generic flags; the vector
 * kernels are in src/ifma/mont1_ifma.c and are called only when tabai_r52_usable(). */
#include <stdlib.h>

#include "../cpu/cpu.h"
#include "../digits.h"
#include "mod.h"
#include "powmod_r52.h"

#define R52_M 0xFFFFFFFFFFFFFULL
#define PAD TABAI_R52_PAD

int tabai_r52_usable(void) {
    const unsigned f = TABAI_CPU_AVX512F | TABAI_CPU_AVX512VL | TABAI_CPU_AVX512IFMA;
    return (tabai_cpu_features() & f) == f && tabai_cpu_tier() >= TABAI_TIER_IFMA;
}

/* The one table of the choice: up to max_bits, the width of the single-number kernels
 * (0: the scalar path is faster) and the shortest exponent worth the conversions. Measured
 * with `tabai bench --ops powmod` on Zen 4 (src/ifma/README.md). */
static const struct {
    size_t max_bits;
    unsigned vl;
    size_t min_ebits;
} R52_CHOICE[] = {
    {1023, 0, 0}, /* below 1024 bits: not built for (the scalar path) */
    {8192, 4, 64},
};

int tabai_r52_choose(size_t bits, size_t ebits, unsigned *vl) {
    for (size_t i = 0; i < sizeof R52_CHOICE / sizeof R52_CHOICE[0]; i++)
        if (bits <= R52_CHOICE[i].max_bits) {
            *vl = R52_CHOICE[i].vl;
            /* ymm beyond its register window (92 digits): zmm; and zmm from 1536 bits where
             * a zmm instruction is not two ymm halves (measured on an Intel Xeon: powmod
             * 0.68-0.93 of the ymm time from 1536 to 4096 bits, 1.20 at 1024) */
            if (*vl == 4 && tabai_r52_digits(bits, (bits + 63) / 64, 4) > 92) *vl = 8;
            if (*vl == 4 && bits >= 1536 && !tabai_cpu_zmm_halves()) *vl = 8;
            return *vl != 0 && ebits >= R52_CHOICE[i].min_ebits;
        }
    return 0;
}

size_t tabai_r52_digits(size_t bits, size_t n, unsigned vl) {
    size_t d = (bits + 2 + 51) / 52; /* 4 p < R */
    size_t d64 = (64 * n + 51) / 52; /* R >= 2^(64 n): R mod p from the scalar context */
    if (d64 > d) d = d64;
    return (d + vl - 1) / vl * vl;
}

int tabai_r52_init(tabai_r52 *c, const tabai_mont *mc, unsigned vl, size_t min_dd) {
    const size_t n = mc->n;
    size_t dd = tabai_r52_digits(mc->bits, n, vl);
    if (dd < min_dd) dd = min_dd;
    if (dd > TABAI_R52_MAXD || mc->bits < 64) return -1;
    memset(c->pbuf, 0, sizeof c->pbuf);
    memset(c->rrbuf, 0, sizeof c->rrbuf);
    memset(c->onebuf, 0, sizeof c->onebuf);
    c->dd = dd;
    c->vl = vl;
    c->n = n;
    c->k0 = mc->pinv & R52_M;
    /* R mod p, R = 2^E, E = 52 dd >= 64 n: the Montgomery form (scalar, R64 = 2^(64 n)) of
     * 2^(E - 64 n) by products of 2^63 R64 (2^63 < p), which read as a number is 2^E mod p.
     * The sequence depends on the lengths only: constant time in p. */
    uint64_t x[TABAI_MAX_LIMBS], y[TABAI_MAX_LIMBS], small[TABAI_MAX_LIMBS] = {0};
    memcpy(x, mc->one, n * sizeof(uint64_t));
    for (size_t s = 52 * dd - 64 * n; s > 0;) {
        const size_t k = s < 63 ? s : 63;
        small[0] = (uint64_t)1 << k;
        /* cannot fail: 2^63 < p, and x, y, rr stay < p */
        (void)!tabai_mont_mul(mc, y, mc->rr, small);
        (void)!tabai_mont_mul(mc, x, x, y);
        s -= k;
    }
    (void)!tabai_mont_mul(mc, y, x, x);
    (void)!tabai_mont_mul(mc, y, y, mc->rr); /* R^2 mod p */
    const uint64_t *src[1] = {mc->p};
    tabai_mb_to_digits(c->pbuf + PAD, 1, 52, dd, src, n);
    src[0] = x;
    tabai_mb_to_digits(c->onebuf + PAD, 1, 52, dd, src, n);
    src[0] = y;
    tabai_mb_to_digits(c->rrbuf + PAD, 1, 52, dd, src, n);
    tabai_wipe(x, sizeof x);
    tabai_wipe(y, sizeof y);
    return 0;
}

/* The window minimising squarings (0.8 of a product) + one product per window and per table
 * entry + the masked scan of every entry per window (about a fortieth of a product's cost
 * per digit and entry at these sizes). */
static unsigned r52_window(size_t ebits, size_t dd) {
    unsigned best = 1;
    double best_cost = 0;
    for (unsigned w = 1; w <= 6; w++) {
        const double entries = (double)((size_t)1 << w), nwin = (double)((ebits + w - 1) / w);
        const double prod = (double)dd * (double)dd / 2;
        const double cost = prod * (0.8 * (double)ebits + nwin + entries) +
                            nwin * entries * (double)dd * 0.15;
        if (w == 1 || cost < best_cost) {
            best = w;
            best_cost = cost;
        }
    }
    return best;
}

/* Kernel calls for one or two streams. */
static void k_mul(int ns, uint64_t *const r[2], uint64_t *const a[2], uint64_t *const b[2],
                  const tabai_r52 *c) {
    if (ns == 2)
        tabai_mont_mul2_r52n_ifma(r[0], r[1], a[0], a[1], b[0], b[1], tabai_r52_p(&c[0]),
                                  tabai_r52_p(&c[1]), c[0].k0, c[1].k0, c[0].dd, c[0].vl);
    else
        tabai_mont_mul_r52n_ifma(r[0], a[0], b[0], tabai_r52_p(c), c->k0, c->dd, c->vl);
}
static void k_sqr(int ns, uint64_t *const r[2], uint64_t *const a[2], const tabai_r52 *c) {
    if (ns == 2)
        tabai_mont_sqr2_r52n_ifma(r[0], r[1], a[0], a[1], tabai_r52_p(&c[0]), tabai_r52_p(&c[1]),
                                  c[0].k0, c[1].k0, c[0].dd, c[0].vl);
    else
        tabai_mont_sqr_r52n_ifma(r[0], a[0], tabai_r52_p(c), c->k0, c->dd, c->vl);
}

/* Workspace of powmod_core in limbs for ns streams of moduli of n limbs and an ebits-bit
 * exponent, at either width: the two contexts, the tables and values, 64-byte alignment. */
size_t tabai_r52_scratch_limbs(size_t n, size_t ebits, int ns) {
    size_t dd = tabai_r52_digits(64 * n, n, 8);
    const size_t d4 = tabai_r52_digits(64 * n, n, 4);
    if (d4 > dd) dd = d4;
    size_t most = 0;
    for (size_t d = d4 < dd ? d4 : dd; d <= dd; d += 4) { /* the window the width chooses */
        const size_t per = (((size_t)1 << r52_window(ebits, d)) + 4) * (d + 2 * PAD);
        if (per > most) most = per;
    }
    return 2 * sizeof(tabai_r52) / sizeof(uint64_t) + (size_t)ns * most + 8;
}

/* r[u] = b[u]^e[u] mod p_u for ns = 1 or 2 streams of the same digit count, in the workspace
 * ws of tabai_r52_scratch_limbs(n, ebits, ns) limbs (wiped before return). */
static tabai_status powmod_core(int ns, const tabai_mont *const mc[2], uint64_t *const r[2],
                                const uint64_t *const b[2], const uint64_t *const e[2],
                                size_t ebits, unsigned vl, uint64_t *ws) {
    const size_t wl = tabai_r52_scratch_limbs(ns == 2 && mc[1]->n > mc[0]->n ? mc[1]->n : mc[0]->n,
                                              ebits, ns);
    tabai_r52 *c = (tabai_r52 *)(((uintptr_t)ws + 63) & ~(uintptr_t)63);
    size_t dd = 0;
    for (int u = 0; u < ns; u++) {
        size_t d = tabai_r52_digits(mc[u]->bits, mc[u]->n, vl);
        if (d > dd) dd = d;
    }
    for (int u = 0; u < ns; u++)
        if (tabai_r52_init(&c[u], mc[u], vl, dd) != 0) {
            tabai_wipe(ws, wl * sizeof(uint64_t));
            return TABAI_ERR_SIZE;
        }
    const unsigned w = r52_window(ebits, dd);
    const size_t entries = (size_t)1 << w, stride = dd + 2 * PAD;
    /* per stream: the table, acc, ent, the base, the digit 1; all padded, zeroed once */
    const size_t per = (entries + 4) * stride;
    uint64_t *mem = (uint64_t *)(c + 2);
    memset(mem, 0, ns * per * sizeof(uint64_t));
    uint64_t *tab[2], *acc[2], *ent[2], *bm[2], *one[2];
    for (int u = 0; u < ns; u++) {
        uint64_t *m = mem + u * per;
        tab[u] = m + PAD;
        acc[u] = m + entries * stride + PAD;
        ent[u] = acc[u] + stride;
        bm[u] = ent[u] + stride;
        one[u] = bm[u] + stride;
        const uint64_t *src[1] = {b[u]};
        tabai_mb_to_digits(ent[u], 1, 52, dd, src, mc[u]->n);
        memcpy(tab[u], c[u].onebuf + PAD, dd * sizeof(uint64_t)); /* entry 0: R mod p */
    }
    uint64_t *rr[2] = {c[0].rrbuf + PAD, ns == 2 ? c[1].rrbuf + PAD : NULL};
    k_mul(ns, bm, ent, rr, c); /* b R mod p, < 2p */
    for (int u = 0; u < ns; u++) memcpy(tab[u] + stride, bm[u], dd * sizeof(uint64_t));
    for (size_t i = 2; i < entries; i++) {
        uint64_t *ti[2] = {tab[0] + i * stride, ns == 2 ? tab[1] + i * stride : NULL};
        if (i % 2 == 0) {
            uint64_t *th[2] = {tab[0] + i / 2 * stride, ns == 2 ? tab[1] + i / 2 * stride : NULL};
            k_sqr(ns, ti, th, c);
        } else {
            uint64_t *tm[2] = {tab[0] + (i - 1) * stride, ns == 2 ? tab[1] + (i - 1) * stride : NULL};
            k_mul(ns, ti, tm, bm, c);
        }
    }
    const size_t nwin = ebits ? (ebits + w - 1) / w : 1;
    for (size_t win = nwin; win-- > 0;) {
        if (win != nwin - 1)
            for (unsigned s = 0; s < w; s++) k_sqr(ns, acc, acc, c);
        for (int u = 0; u < ns; u++) {
            const uint64_t idx = ebits ? tabai_window_bits(e[u], ebits, win * w, w) : 0;
            tabai_r52_scan_ifma(win == nwin - 1 ? acc[u] : ent[u], tab[u], entries, stride, dd,
                                idx);
        }
        if (win != nwin - 1) k_mul(ns, acc, acc, ent, c);
    }
    /* out: acc * 1 / R = the result, <= p (p only for a zero result); then fully reduced */
    for (int u = 0; u < ns; u++) one[u][0] = 1;
    k_mul(ns, acc, acc, one, c);
    for (int u = 0; u < ns; u++) {
        const size_t n = mc[u]->n;
        uint64_t out[TABAI_MAX_LIMBS];
        uint64_t *dst[1] = {out};
        tabai_mb_from_digits(dst, n, acc[u], 1, 52, dd);
        tabai_cnd_sub_n(r[u], !tabai_lt_n(out, mc[u]->p, n), out, mc[u]->p, n);
        tabai_wipe(out, sizeof out);
    }
    tabai_wipe(ws, wl * sizeof(uint64_t)); /* the powers of secret bases, the moduli */
    return TABAI_OK;
}

tabai_status tabai_powmod_r52(const tabai_mont *mc, uint64_t *r, const uint64_t *b,
                              const uint64_t *e, size_t ebits, unsigned vl, uint64_t *ws) {
    const tabai_mont *m[2] = {mc, NULL};
    uint64_t *rr[2] = {r, NULL};
    const uint64_t *bb[2] = {b, NULL}, *ee[2] = {e, NULL};
    return powmod_core(1, m, rr, bb, ee, ebits, vl, ws);
}

void tabai_powmod_r52_e64_vartime(const tabai_r52 *c, const tabai_mont *mc, uint64_t *r,
                                  const uint64_t *b, uint64_t e) {
    const size_t dd = c->dd, stride = dd + 2 * PAD;
    const uint64_t *p = tabai_r52_p(c);
    _Alignas(64) uint64_t mem[4 * TABAI_R52_BUF];
    memset(mem, 0, 4 * stride * sizeof(uint64_t));
    uint64_t *x = mem + PAD, *acc = x + stride, *bm = acc + stride, *one = bm + stride;
    const uint64_t *src[1] = {b};
    tabai_mb_to_digits(x, 1, 52, dd, src, mc->n);
    tabai_mont_mul_r52n_ifma(bm, x, c->rrbuf + PAD, p, c->k0, dd, c->vl); /* b R, < 2p */
    memcpy(acc, bm, dd * sizeof(uint64_t));
    for (int i = 62 - __builtin_clzll(e | 1); i >= 0; i--) { /* e's bits: public */
        tabai_mont_sqr_r52n_ifma(acc, acc, p, c->k0, dd, c->vl);
        if ((e >> i) & 1) tabai_mont_mul_r52n_ifma(acc, acc, bm, p, c->k0, dd, c->vl);
    }
    one[0] = 1;
    tabai_mont_mul_r52n_ifma(acc, acc, one, p, c->k0, dd, c->vl); /* <= p */
    uint64_t out[TABAI_MAX_LIMBS];
    uint64_t *dst[1] = {out};
    tabai_mb_from_digits(dst, mc->n, acc, 1, 52, dd);
    tabai_cnd_sub_n(r, !tabai_lt_n(out, mc->p, mc->n), out, mc->p, mc->n);
    tabai_wipe(out, sizeof out);
    tabai_wipe(mem, 4 * stride * sizeof(uint64_t));
}

tabai_status tabai_powmod2_r52(const tabai_mont *m1, const tabai_mont *m2, uint64_t *r1,
                               uint64_t *r2, const uint64_t *b1, const uint64_t *b2,
                               const uint64_t *e1, const uint64_t *e2, size_t ebits) {
    const size_t bits = m1->bits > m2->bits ? m1->bits : m2->bits;
    unsigned vl = 4;
    if (!tabai_r52_choose(bits, ebits, &vl)) vl = bits > 4700 ? 8 : 4;
    const tabai_mont *m[2] = {m1, m2};
    uint64_t *rr[2] = {r1, r2};
    const uint64_t *bb[2] = {b1, b2}, *ee[2] = {e1, e2};
    const size_t n = m1->n > m2->n ? m1->n : m2->n;
    const size_t wl = tabai_r52_scratch_limbs(n, ebits, 2);
    uint64_t *ws = malloc(wl * sizeof(uint64_t));
    if (!ws) return TABAI_ERR_ALLOC;
    tabai_status s = powmod_core(2, m, rr, bb, ee, ebits, vl, ws);
    free(ws); /* wiped by powmod_core */
    return s;
}
