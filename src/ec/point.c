/* Field and point arithmetic of the short-Weierstrass curves: Montgomery arithmetic modulo p
 * and q through the tier's fixed-size kernels, the complete projective formulas of Renes,
 * Costello and Batina (2016), and the scalar multiplications (src/ec/README.md). */
#include <pthread.h>

#include "ec.h"
#include "field.h"

const tabai_ec_curve *tabai_ec_curve_get(tabai_curve c) {
    for (size_t i = 0; i < TABAI_EC_NCURVES; i++)
        if (tabai_ec_curves[i].id == c) return &tabai_ec_curves[i];
    return NULL;
}

static void mod_bind(tabai_ec_mod *m, const tabai_kernels *k, size_t n, const uint64_t *mod,
                     uint64_t minv, const uint64_t *rr, const uint64_t *one) {
    size_t s = tabai_slot(n);
    m->n = n;
    m->m = mod;
    m->minv = minv;
    m->rr = rr;
    m->one = one;
    m->mul = k->mont_mul[s];
    m->sqr = k->mont_sqr[s];
    m->add = k->mod_add[s];
    m->sub = k->mod_sub[s];
}

void tabai_ec_ctx_init(tabai_ec_ctx *x, const tabai_ec_curve *c) {
    const tabai_kernels *k = tabai_kernels_active();
    x->c = c;
    mod_bind(&x->fp, k, c->n, c->p, c->pinv, c->p_rr, c->p_one);
    int bmi2 = k->tier >= TABAI_TIER_BMI2; /* the tiers above bmi2 keep its product kernels */
    if (c->form == TABAI_EC_FORM_MERSENNE) {
        x->fp.mul = tabai_ec_p521_mul;
        x->fp.sqr = tabai_ec_p521_sqr;
    }
    mod_bind(&x->fq, k, c->n, c->q, c->qinv, c->q_rr, c->q_one);
    x->impl = x->impl_mul = NULL; /* the curves' inlined point code (curve_impl.h) */
    /* the scans of the width-7 k G table and of k P's table */
    const int avx512 = k->tier >= TABAI_TIER_AVX512, avx2 = k->tier >= TABAI_TIER_AVX2;
    const int ifma = k->tier >= TABAI_TIER_IFMA;
    if (c->id == TABAI_CURVE_P256)
        x->impl = avx512 ? &tabai_ec_impl_p256_avx512
                  : avx2 ? &tabai_ec_impl_p256_avx2
                  : bmi2 ? &tabai_ec_impl_p256_bmi2
                         : &tabai_ec_impl_p256_generic;
    else if (c->id == TABAI_CURVE_SECP256K1)
        x->impl = avx512 ? &tabai_ec_impl_secp256k1_avx512
                  : avx2 ? &tabai_ec_impl_secp256k1_avx2
                  : bmi2 ? &tabai_ec_impl_secp256k1_bmi2
                         : &tabai_ec_impl_secp256k1_generic;
    else if (c->id == TABAI_CURVE_P384) {
        x->impl = avx2   ? &tabai_ec_impl_p384_avx2
                  : bmi2 ? &tabai_ec_impl_p384_bmi2
                         : &tabai_ec_impl_p384_generic;
        /* k P in radix 2^52 on IFMA: faster there; k G and verification slower (the tables'
         * entries converted by a product each, src/ec/README.md): bmi2's */
        if (ifma) x->impl_mul = &tabai_ec_impl_p384_ifma;
    } else if (c->id == TABAI_CURVE_P521)
        x->impl = ifma   ? &tabai_ec_impl_p521_ifma
                  : avx2 ? &tabai_ec_impl_p521_bmi2_avx2
                  : bmi2 ? &tabai_ec_impl_p521_bmi2
                         : &tabai_ec_impl_p521;
}

/* r = a^e in Montgomery form for a public exponent e[n] (ebits bits): fixed 4-bit windows,
 * the table read at public indices (the windows of e), so constant time in a. */
void tabai_ec_pow(const tabai_ec_mod *m, uint64_t *r, const uint64_t *a, const uint64_t *e,
                  size_t ebits) {
    uint64_t t[16][TABAI_EC_LIMBS], acc[TABAI_EC_LIMBS];
    size_t n = m->n;
    memcpy(t[0], m->one, n * 8);
    memcpy(t[1], a, n * 8);
    for (int i = 2; i < 16; i++) fe_mul(m, t[i], t[i - 1], a);
    size_t top = (ebits + 3) / 4;
    memcpy(acc, m->one, n * 8);
    for (size_t w = top; w-- > 0;) {
        for (int j = 0; j < 4; j++) fe_sqr(m, acc, acc);
        size_t pos = 4 * w;
        unsigned d = (unsigned)((e[pos / 64] >> (pos % 64)) & 15);
        if (d) fe_mul(m, acc, acc, t[d]); /* d is a digit of the public exponent */
    }
    memcpy(r, acc, n * 8);
    tabai_wipe(t, sizeof t);
    tabai_wipe(acc, sizeof acc);
}

/* ---- complete formulas (Renes, Costello, Batina, EUROCRYPT 2016) ---- */

/* Algorithm 4 (a = -3) and Algorithm 7 (a = 0): r = p + q for any p, q (r may alias). */
void tabai_ec_point_add_ct(const tabai_ec_ctx *x, tabai_ec_point *r, const tabai_ec_point *p,
                           const tabai_ec_point *q) {
    if (x->impl) {
        x->impl->add(x, r, p, q);
        return;
    }
    const tabai_ec_mod *m = &x->fp;
    uint64_t t0[TABAI_EC_LIMBS], t1[TABAI_EC_LIMBS], t2[TABAI_EC_LIMBS], t3[TABAI_EC_LIMBS],
        t4[TABAI_EC_LIMBS], X3[TABAI_EC_LIMBS], Y3[TABAI_EC_LIMBS], Z3[TABAI_EC_LIMBS];
    fe_mul(m, t0, p->x, q->x);
    fe_mul(m, t1, p->y, q->y);
    fe_mul(m, t2, p->z, q->z);
    fe_add(m, t3, p->x, p->y);
    fe_add(m, t4, q->x, q->y);
    fe_mul(m, t3, t3, t4);
    fe_add(m, t4, t0, t1);
    fe_sub(m, t3, t3, t4);
    fe_add(m, t4, p->y, p->z);
    fe_add(m, X3, q->y, q->z);
    fe_mul(m, t4, t4, X3);
    fe_add(m, X3, t1, t2);
    fe_sub(m, t4, t4, X3);
    fe_add(m, X3, p->x, p->z);
    fe_add(m, Y3, q->x, q->z);
    fe_mul(m, X3, X3, Y3);
    fe_add(m, Y3, t0, t2);
    fe_sub(m, Y3, X3, Y3);
    if (!x->c->a_zero) { /* a = -3: Algorithm 4, steps 19-43 (public: the curve) */
        const uint64_t *b = x->c->b_m;
        fe_mul(m, Z3, b, t2);
        fe_sub(m, X3, Y3, Z3);
        fe_add(m, Z3, X3, X3);
        fe_add(m, X3, X3, Z3);
        fe_sub(m, Z3, t1, X3);
        fe_add(m, X3, t1, X3);
        fe_mul(m, Y3, b, Y3);
        fe_add(m, t1, t2, t2);
        fe_add(m, t2, t1, t2);
        fe_sub(m, Y3, Y3, t2);
        fe_sub(m, Y3, Y3, t0);
        fe_add(m, t1, Y3, Y3);
        fe_add(m, Y3, t1, Y3);
        fe_add(m, t1, t0, t0);
        fe_add(m, t0, t1, t0);
        fe_sub(m, t0, t0, t2);
        fe_mul(m, t1, t4, Y3);
        fe_mul(m, t2, t0, Y3);
        fe_mul(m, Y3, X3, Z3);
        fe_add(m, Y3, Y3, t2);
        fe_mul(m, X3, t3, X3);
        fe_sub(m, X3, X3, t1);
        fe_mul(m, Z3, t4, Z3);
        fe_mul(m, t1, t3, t0);
        fe_add(m, Z3, Z3, t1);
    } else { /* a = 0: Algorithm 7, steps 19-33 */
        const uint64_t *b3 = x->c->b3_m;
        fe_add(m, X3, t0, t0);
        fe_add(m, t0, X3, t0);
        fe_mul(m, t2, b3, t2);
        fe_add(m, Z3, t1, t2);
        fe_sub(m, t1, t1, t2);
        fe_mul(m, Y3, b3, Y3);
        fe_mul(m, X3, t4, Y3);
        fe_mul(m, t2, t3, t1);
        fe_sub(m, X3, t2, X3);
        fe_mul(m, Y3, Y3, t0);
        fe_mul(m, t1, t1, Z3);
        fe_add(m, Y3, t1, Y3);
        fe_mul(m, t0, t0, t3);
        fe_mul(m, Z3, Z3, t4);
        fe_add(m, Z3, Z3, t0);
    }
    size_t n = m->n;
    memcpy(r->x, X3, n * 8);
    memcpy(r->y, Y3, n * 8);
    memcpy(r->z, Z3, n * 8);
}

/* Algorithm 6 (a = -3) and Algorithm 9 (a = 0): r = 2 p (r may alias p). */
void tabai_ec_point_dbl_ct(const tabai_ec_ctx *x, tabai_ec_point *r, const tabai_ec_point *p) {
    if (x->impl) {
        x->impl->dbl(x, r, p);
        return;
    }
    const tabai_ec_mod *m = &x->fp;
    uint64_t t0[TABAI_EC_LIMBS], t1[TABAI_EC_LIMBS], t2[TABAI_EC_LIMBS], t3[TABAI_EC_LIMBS],
        X3[TABAI_EC_LIMBS], Y3[TABAI_EC_LIMBS], Z3[TABAI_EC_LIMBS];
    if (!x->c->a_zero) {
        const uint64_t *b = x->c->b_m;
        fe_sqr(m, t0, p->x);
        fe_sqr(m, t1, p->y);
        fe_sqr(m, t2, p->z);
        fe_mul(m, t3, p->x, p->y);
        fe_add(m, t3, t3, t3);
        fe_mul(m, Z3, p->x, p->z);
        fe_add(m, Z3, Z3, Z3);
        fe_mul(m, Y3, b, t2);
        fe_sub(m, Y3, Y3, Z3);
        fe_add(m, X3, Y3, Y3);
        fe_add(m, Y3, X3, Y3);
        fe_sub(m, X3, t1, Y3);
        fe_add(m, Y3, t1, Y3);
        fe_mul(m, Y3, X3, Y3);
        fe_mul(m, X3, X3, t3);
        fe_add(m, t3, t2, t2);
        fe_add(m, t2, t2, t3);
        fe_mul(m, Z3, b, Z3);
        fe_sub(m, Z3, Z3, t2);
        fe_sub(m, Z3, Z3, t0);
        fe_add(m, t3, Z3, Z3);
        fe_add(m, Z3, Z3, t3);
        fe_add(m, t3, t0, t0);
        fe_add(m, t0, t3, t0);
        fe_sub(m, t0, t0, t2);
        fe_mul(m, t0, t0, Z3);
        fe_add(m, Y3, Y3, t0);
        fe_mul(m, t0, p->y, p->z);
        fe_add(m, t0, t0, t0);
        fe_mul(m, Z3, t0, Z3);
        fe_sub(m, X3, X3, Z3);
        fe_mul(m, Z3, t0, t1);
        fe_add(m, Z3, Z3, Z3);
        fe_add(m, Z3, Z3, Z3);
    } else {
        const uint64_t *b3 = x->c->b3_m;
        fe_sqr(m, t0, p->y);
        fe_add(m, Z3, t0, t0);
        fe_add(m, Z3, Z3, Z3);
        fe_add(m, Z3, Z3, Z3);
        fe_mul(m, t1, p->y, p->z);
        fe_sqr(m, t2, p->z);
        fe_mul(m, t2, b3, t2);
        fe_mul(m, X3, t2, Z3);
        fe_add(m, Y3, t0, t2);
        fe_mul(m, Z3, t1, Z3);
        fe_add(m, t1, t2, t2);
        fe_add(m, t2, t1, t2);
        fe_sub(m, t0, t0, t2);
        fe_mul(m, Y3, t0, Y3);
        fe_add(m, Y3, X3, Y3);
        fe_mul(m, t1, p->x, p->y);
        fe_mul(m, X3, t0, t1);
        fe_add(m, X3, X3, X3);
    }
    size_t n = m->n;
    memcpy(r->x, X3, n * 8);
    memcpy(r->y, Y3, n * 8);
    memcpy(r->z, Z3, n * 8);
}

static void point_inf(const tabai_ec_ctx *x, tabai_ec_point *r) {
    memset(r, 0, sizeof *r);
    memcpy(r->y, x->fp.one, x->fp.n * 8);
}

/* r = -r if neg (neg 0 or 1): y = p - y by masks (y = 0 stays 0 through the subtraction). */
static void point_cneg(const tabai_ec_ctx *x, tabai_ec_point *r, uint64_t neg) {
    uint64_t zero[TABAI_EC_LIMBS] = {0}, ny[TABAI_EC_LIMBS];
    fe_sub(&x->fp, ny, zero, r->y);
    tabai_cmov_n(r->y, neg, ny, r->y, x->fp.n);
}

/* r = tab[idx - 1] for 1 <= idx <= 16, infinity for idx = 0, by a scan of all 16 entries. */
static void scan_proj(const tabai_ec_ctx *x, tabai_ec_point *r, const tabai_ec_point *tab,
                      uint64_t idx) {
    size_t n = x->fp.n;
    point_inf(x, r);
    for (uint64_t j = 0; j < TABAI_EC_TAB; j++) {
        uint64_t msk = tabai_mask(tabai_eq(j + 1, idx));
        for (size_t l = 0; l < n; l++) {
            r->x[l] = (r->x[l] & ~msk) | (tab[j].x[l] & msk);
            r->y[l] = (r->y[l] & ~msk) | (tab[j].y[l] & msk);
            r->z[l] = (r->z[l] & ~msk) | (tab[j].z[l] & msk);
        }
    }
}

/* round(k g / 2^384) for k, g < 2^256 (4 limbs): two limbs into c[4] (upper two zero). */
static void glv_round(uint64_t *c, const uint64_t *k, const uint64_t *g) {
    uint64_t t[8];
    tabai_mul_n(t, k, g, 4);
    uint64_t cy = tabai_adc(&t[5], t[5], (uint64_t)1 << 63, 0);
    cy = tabai_adc(&t[6], t[6], 0, cy);
    tabai_adc(&t[7], t[7], 0, cy);
    c[0] = t[6], c[1] = t[7], c[2] = 0, c[3] = 0;
    tabai_wipe(t, sizeof t);
}

/* k = k1 + k2 lambda mod q (k < q) with |k1|, |k2| < 2^129: each as a magnitude and a sign
 * (1: negative), all by arithmetic and masks (Gallant, Lambert, Vanstone 2001, section 4). */
void tabai_ec_glv_split(const tabai_ec_ctx *x, const uint64_t *k, uint64_t *k1, uint64_t *k2,
                      uint64_t *neg1, uint64_t *neg2) {
    const tabai_ec_curve *c = x->c;
    const tabai_ec_mod *q = &x->fq;
    uint64_t c1[4], c2[4], t[4], z[4] = {0}, nk[4];
    glv_round(c1, k, c->g1);
    glv_round(c2, k, c->g2);
    fe_mul(q, k2, c1, c->mb1_m);
    fe_mul(q, t, c2, c->mb2_m);
    fe_add(q, k2, k2, t);
    fe_mul(q, t, k2, c->lam_m);
    fe_sub(q, k1, k, t);
    *neg1 = tabai_lt_n(c->q_half, k1, 4);
    fe_sub(q, nk, z, k1);
    tabai_cmov_n(k1, *neg1, nk, k1, 4);
    *neg2 = tabai_lt_n(c->q_half, k2, 4);
    fe_sub(q, nk, z, k2);
    tabai_cmov_n(k2, *neg2, nk, k2, 4);
    tabai_wipe(c1, sizeof c1), tabai_wipe(c2, sizeof c2), tabai_wipe(t, sizeof t);
    tabai_wipe(nk, sizeof nk);
}

/* k P on an a = 0 curve with the endomorphism: k1 P + k2 lambda(P), both halves by the
 * signed 5-bit windows and masked scans of P..16P and of their images (beta X : Y : Z):
 * half the doublings of tabai_ec_mul_ct's generic path. */
static void mul_glv_ct(const tabai_ec_ctx *x, tabai_ec_point *r, const uint64_t *k,
                       const tabai_ec_point *p) {
    tabai_ec_point tab[TABAI_EC_TAB], tab2[TABAI_EC_TAB], acc, t;
    uint64_t k1[4], k2[4], s1, s2, neg, abs;
    tabai_ec_glv_split(x, k, k1, k2, &s1, &s2);
    tab[0] = *p;
    tabai_ec_point_dbl_ct(x, &tab[1], p);
    for (int j = 2; j < TABAI_EC_TAB; j++) tabai_ec_point_add_ct(x, &tab[j], &tab[j - 1], p);
    for (int j = 0; j < TABAI_EC_TAB; j++) {
        tab2[j] = tab[j];
        fe_mul(&x->fp, tab2[j].x, tab[j].x, x->c->beta_m);
    }
    size_t w = tabai_ec_booth_windows(TABAI_EC_GLV_BITS);
    point_inf(x, &acc);
    for (size_t i = w; i-- > 0;) {
        if (i + 1 < w)
            for (int j = 0; j < TABAI_EC_W; j++) tabai_ec_point_dbl_ct(x, &acc, &acc);
        tabai_ec_booth_digit(k1, 4, i, &neg, &abs);
        scan_proj(x, &t, tab, abs);
        point_cneg(x, &t, neg ^ s1);
        tabai_ec_point_add_ct(x, &acc, &acc, &t);
        tabai_ec_booth_digit(k2, 4, i, &neg, &abs);
        scan_proj(x, &t, tab2, abs);
        point_cneg(x, &t, neg ^ s2);
        tabai_ec_point_add_ct(x, &acc, &acc, &t);
    }
    *r = acc;
    tabai_wipe(tab, sizeof tab), tabai_wipe(tab2, sizeof tab2);
    tabai_wipe(&acc, sizeof acc), tabai_wipe(&t, sizeof t);
    tabai_wipe(k1, sizeof k1), tabai_wipe(k2, sizeof k2);
    s1 = s2 = neg = abs = 0;
}

void tabai_ec_mul_ct(const tabai_ec_ctx *x, tabai_ec_point *r, const uint64_t *k,
                     const tabai_ec_point *p) {
    if (x->impl) {
        (x->impl_mul ? x->impl_mul : x->impl)->mul(x, r, k, p);
        return;
    }
    if (x->c->glv) { /* public: the curve */
        mul_glv_ct(x, r, k, p);
        return;
    }
    tabai_ec_point tab[TABAI_EC_TAB], acc, t;
    size_t n = x->fp.n;
    tab[0] = *p;
    tabai_ec_point_dbl_ct(x, &tab[1], p);
    for (int j = 2; j < TABAI_EC_TAB; j++) tabai_ec_point_add_ct(x, &tab[j], &tab[j - 1], p);
    size_t w = tabai_ec_booth_windows(x->c->qbits);
    uint64_t neg, abs;
    tabai_ec_booth_digit(k, n, w - 1, &neg, &abs);
    scan_proj(x, &acc, tab, abs);
    point_cneg(x, &acc, neg);
    for (size_t i = w - 1; i-- > 0;) {
        for (int j = 0; j < TABAI_EC_W; j++) tabai_ec_point_dbl_ct(x, &acc, &acc);
        tabai_ec_booth_digit(k, n, i, &neg, &abs);
        scan_proj(x, &t, tab, abs);
        point_cneg(x, &t, neg);
        tabai_ec_point_add_ct(x, &acc, &acc, &t);
    }
    *r = acc;
    tabai_wipe(tab, sizeof tab);
    tabai_wipe(&acc, sizeof acc);
    tabai_wipe(&t, sizeof t);
    neg = abs = 0;
}

/* zi[j] = Z_j^-1 for the count points pts, none with Z = 0, by one inversion (Montgomery's
 * trick: the prefix products, their inverse, then back down). zi may not alias pts. */
static void batch_zinv(const tabai_ec_ctx *x, uint64_t (*zi)[TABAI_EC_LIMBS],
                       const tabai_ec_point *pts, size_t count) {
    const tabai_ec_mod *m = &x->fp;
    uint64_t inv[TABAI_EC_LIMBS];
    memcpy(zi[0], pts[0].z, m->n * 8);
    for (size_t j = 1; j < count; j++) fe_mul(m, zi[j], zi[j - 1], pts[j].z);
    tabai_ec_fe_inv_ct(x, inv, zi[count - 1]);
    for (size_t j = count - 1; j > 0; j--) {
        fe_mul(m, zi[j], inv, zi[j - 1]);
        fe_mul(m, inv, inv, pts[j].z);
    }
    memcpy(zi[0], inv, m->n * 8);
}

/* ---- the generator's tables for k G: window i holds j 2^(w i) G, j = 1..2^(w-1), affine
 * (x, y) in Montgomery form, n limbs each; width 5 for every curve, width 7 (64 entries a
 * window: 148 KB for the 256-bit curves, 330 KB for P-384) for the vector scans of
 * curve_impl.h's k G on P-256, P-384 and secp256k1. Built once per process at first use. ---- */
#define WIN(bits, w) ((bits) / (w) + 1)
static uint64_t tab_p256[WIN(256, TABAI_EC_W) * TABAI_EC_TAB * 2 * 4];
static uint64_t tab_p384[WIN(384, TABAI_EC_W) * TABAI_EC_TAB * 2 * 6];
static uint64_t tab_p521[WIN(521, TABAI_EC_W) * TABAI_EC_TAB * 2 * 9];
static uint64_t tab_k256[WIN(256, TABAI_EC_W) * TABAI_EC_TAB * 2 * 4];
static uint64_t tab7_p256[WIN(256, 7) * TABAI_EC_TAB7 * 2 * 4];
static uint64_t tab7_p384[WIN(384, 7) * TABAI_EC_TAB7 * 2 * 6];
static uint64_t tab7_k256[WIN(256, 7) * TABAI_EC_TAB7 * 2 * 4];
/* [0]: width 5, [1]: width 7 (none for P-521) */
static uint64_t *const base_tabs[2][TABAI_EC_NCURVES] = {{tab_p256, tab_p384, tab_p521, tab_k256},
                                                         {tab7_p256, tab7_p384, NULL, tab7_k256}};
static pthread_once_t base_once[2][TABAI_EC_NCURVES] = {
    {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT},
    {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT}};

/* The table of window width w (2^(w-1) entries a window) of curve ci into out. */
static void base_build_w(size_t ci, unsigned w, uint64_t *out) {
    const tabai_ec_curve *c = &tabai_ec_curves[ci];
    tabai_ec_ctx x;
    tabai_ec_ctx_init(&x, c);
    const size_t n = c->n, wins = c->qbits / w + 1, tab = (size_t)1 << (w - 1);
    tabai_ec_point b, pts[TABAI_EC_TAB7];
    memset(&b, 0, sizeof b);
    memcpy(b.x, c->gx_m, n * 8);
    memcpy(b.y, c->gy_m, n * 8);
    memcpy(b.z, c->p_one, n * 8);
    for (size_t i = 0; i < wins; i++) {
        pts[0] = b;
        tabai_ec_point_dbl_ct(&x, &pts[1], &b);
        for (size_t j = 2; j < tab; j++) tabai_ec_point_add_ct(&x, &pts[j], &pts[j - 1], &b);
        tabai_ec_point_dbl_ct(&x, &b, &pts[tab - 1]); /* 2^w b: the next window's base */
        /* to affine; no Z is 0 (j 2^(wi) < q's multiples never vanish: q is a prime above
         * 2^(w-1) and 2) */
        uint64_t zi[TABAI_EC_TAB7][TABAI_EC_LIMBS];
        batch_zinv(&x, zi, pts, tab);
        for (size_t j = 0; j < tab; j++) {
            uint64_t *e = out + ((i * tab + j) * 2) * n;
            fe_mul(&x.fp, e, pts[j].x, zi[j]);
            fe_mul(&x.fp, e + n, pts[j].y, zi[j]);
        }
    }
}
#define BASE_BUILDER(k, ci)                                                                        \
    static void base_build_##k##_##ci(void) {                                                      \
        base_build_w(ci, k ? 7 : TABAI_EC_W, base_tabs[k][ci]);                                    \
    }
BASE_BUILDER(0, 0)
BASE_BUILDER(0, 1)
BASE_BUILDER(0, 2)
BASE_BUILDER(0, 3)
BASE_BUILDER(1, 0)
BASE_BUILDER(1, 1)
BASE_BUILDER(1, 3)
#undef BASE_BUILDER
static void (*const base_builders[2][TABAI_EC_NCURVES])(void) = {
    {base_build_0_0, base_build_0_1, base_build_0_2, base_build_0_3},
    {base_build_1_0, base_build_1_1, NULL, base_build_1_3}};

/* table k (0: width 5, 1: width 7) of curve c, NULL if the curve has none */
static const uint64_t *base_table(size_t k, const tabai_ec_curve *c) {
    const size_t ci = (size_t)(c - tabai_ec_curves);
    if (!base_tabs[k][ci]) return NULL;
    pthread_once(&base_once[k][ci], base_builders[k][ci]);
    return base_tabs[k][ci];
}
const uint64_t *tabai_ec_base_table(const tabai_ec_curve *c) { return base_table(0, c); }
const uint64_t *tabai_ec_base_table7(const tabai_ec_curve *c) { return base_table(1, c); }

void tabai_ec_mul_base_ct(const tabai_ec_ctx *x, tabai_ec_point *r, const uint64_t *k) {
    if (x->impl) {
        x->impl->mul_base(x, r, k);
        return;
    }
    const uint64_t *tab = tabai_ec_base_table(x->c);
    size_t n = x->fp.n, w = tabai_ec_booth_windows(x->c->qbits);
    tabai_ec_point acc, t;
    point_inf(x, &acc);
    memset(&t, 0, sizeof t);
    for (size_t i = 0; i < w; i++) {
        uint64_t neg, abs;
        tabai_ec_booth_digit(k, n, i, &neg, &abs);
        const uint64_t *row = tab + i * TABAI_EC_TAB * 2 * n;
        memset(t.x, 0, n * 8);
        memset(t.y, 0, n * 8);
        for (uint64_t j = 0; j < TABAI_EC_TAB; j++) { /* masked scan of the whole row */
            uint64_t msk = tabai_mask(tabai_eq(j + 1, abs));
            const uint64_t *e = row + j * 2 * n;
            for (size_t l = 0; l < n; l++) {
                t.x[l] |= e[l] & msk;
                t.y[l] |= e[n + l] & msk;
            }
        }
        uint64_t zero = tabai_eq(abs, 0); /* digit 0: infinity (0 : 1 : 0) */
        for (size_t l = 0; l < n; l++) t.z[l] = x->fp.one[l] & ~tabai_mask(zero);
        tabai_cmov_n(t.y, zero, x->fp.one, t.y, n);
        point_cneg(x, &t, neg);
        tabai_ec_point_add_ct(x, &acc, &acc, &t);
    }
    *r = acc;
    tabai_wipe(&acc, sizeof acc);
    tabai_wipe(&t, sizeof t);
}

/* ---- verification (public data, variable time): Jacobian coordinates (x = X/Z^2,
 * y = Y/Z^3, infinity Z = 0) with the cheaper incomplete formulas of the Explicit-Formulas
 * Database and their exceptions decided by branches: dbl-2001-b (a = -3), dbl-2009-l
 * (a = 0), add-2007-bl, madd-2007-bl. ---- */
static void jdbl_vartime(const tabai_ec_ctx *x, tabai_ec_point *r, const tabai_ec_point *p) {
    const tabai_ec_mod *m = &x->fp;
    size_t n = m->n;
    if (fe_is_zero(p->z, n)) {
        *r = *p;
        return;
    }
    uint64_t a[TABAI_EC_LIMBS], b[TABAI_EC_LIMBS], c[TABAI_EC_LIMBS], d[TABAI_EC_LIMBS],
        e[TABAI_EC_LIMBS], t[TABAI_EC_LIMBS];
    if (!x->c->a_zero) { /* dbl-2001-b: 3M + 5S */
        fe_sqr(m, a, p->z);         /* delta */
        fe_sqr(m, b, p->y);         /* gamma */
        fe_mul(m, c, p->x, b);      /* beta */
        fe_sub(m, d, p->x, a);
        fe_add(m, e, p->x, a);
        fe_mul(m, d, d, e);
        fe_add(m, e, d, d);
        fe_add(m, d, e, d);         /* alpha = 3 (X - delta)(X + delta) */
        fe_add(m, t, p->y, p->z);
        fe_sqr(m, t, t);
        fe_sub(m, t, t, b);
        fe_sub(m, r->z, t, a);      /* Z3 = (Y + Z)^2 - gamma - delta */
        fe_add(m, c, c, c);
        fe_add(m, c, c, c);         /* 4 beta */
        fe_sqr(m, t, d);
        fe_sub(m, t, t, c);
        fe_sub(m, r->x, t, c);      /* X3 = alpha^2 - 8 beta */
        fe_sub(m, c, c, r->x);
        fe_mul(m, c, d, c);
        fe_sqr(m, b, b);
        fe_add(m, b, b, b);
        fe_add(m, b, b, b);
        fe_add(m, b, b, b);         /* 8 gamma^2 */
        fe_sub(m, r->y, c, b);      /* Y3 = alpha (4 beta - X3) - 8 gamma^2 */
    } else { /* dbl-2009-l: 2M + 5S */
        fe_sqr(m, a, p->x);         /* A */
        fe_sqr(m, b, p->y);         /* B */
        fe_sqr(m, c, b);            /* C */
        fe_add(m, d, p->x, b);
        fe_sqr(m, d, d);
        fe_sub(m, d, d, a);
        fe_sub(m, d, d, c);
        fe_add(m, d, d, d);         /* D */
        fe_add(m, e, a, a);
        fe_add(m, e, e, a);         /* E = 3A */
        fe_mul(m, t, p->y, p->z);
        fe_add(m, r->z, t, t);      /* Z3 = 2 Y Z */
        fe_sqr(m, t, e);            /* F */
        fe_sub(m, t, t, d);
        fe_sub(m, r->x, t, d);      /* X3 = F - 2D */
        fe_sub(m, d, d, r->x);
        fe_mul(m, d, e, d);
        fe_add(m, c, c, c);
        fe_add(m, c, c, c);
        fe_add(m, c, c, c);
        fe_sub(m, r->y, d, c);      /* Y3 = E (D - X3) - 8C */
    }
}

/* r = p + q; q affine (its Z ignored) when q_affine. */
static void jadd_vartime(const tabai_ec_ctx *x, tabai_ec_point *r, const tabai_ec_point *p,
                         const tabai_ec_point *q, int q_affine) {
    const tabai_ec_mod *m = &x->fp;
    size_t n = m->n;
    if (fe_is_zero(p->z, n)) {
        *r = *q;
        if (q_affine) memcpy(r->z, m->one, n * 8);
        return;
    }
    if (!q_affine && fe_is_zero(q->z, n)) {
        *r = *p;
        return;
    }
    uint64_t z1z1[TABAI_EC_LIMBS], z2z2[TABAI_EC_LIMBS], u1[TABAI_EC_LIMBS], u2[TABAI_EC_LIMBS],
        s1[TABAI_EC_LIMBS], s2[TABAI_EC_LIMBS], h[TABAI_EC_LIMBS], i[TABAI_EC_LIMBS],
        j[TABAI_EC_LIMBS], rr[TABAI_EC_LIMBS], v[TABAI_EC_LIMBS], t[TABAI_EC_LIMBS];
    fe_sqr(m, z1z1, p->z);
    fe_mul(m, u2, q->x, z1z1);
    fe_mul(m, s2, q->y, p->z);
    fe_mul(m, s2, s2, z1z1);
    if (q_affine) {
        memcpy(u1, p->x, n * 8);
        memcpy(s1, p->y, n * 8);
    } else {
        fe_sqr(m, z2z2, q->z);
        fe_mul(m, u1, p->x, z2z2);
        fe_mul(m, s1, p->y, q->z);
        fe_mul(m, s1, s1, z2z2);
    }
    fe_sub(m, h, u2, u1);
    fe_sub(m, rr, s2, s1);
    if (fe_is_zero(h, n)) {
        if (fe_is_zero(rr, n)) {
            jdbl_vartime(x, r, p);
        } else {
            memset(r, 0, sizeof *r);
            memcpy(r->y, m->one, n * 8);
        }
        return;
    }
    fe_add(m, rr, rr, rr);          /* r = 2 (S2 - S1) */
    fe_add(m, i, h, h);
    fe_sqr(m, i, i);                /* I = (2H)^2 */
    fe_mul(m, j, h, i);             /* J = H I */
    fe_mul(m, v, u1, i);            /* V = U1 I */
    /* Z3 = ((Z1 + Z2)^2 - Z1Z1 - Z2Z2) H, or 2 Z1 H for an affine q */
    if (q_affine) {
        fe_mul(m, t, p->z, h);
        fe_add(m, r->z, t, t);
    } else {
        fe_add(m, t, p->z, q->z);
        fe_sqr(m, t, t);
        fe_sub(m, t, t, z1z1);
        fe_sub(m, t, t, z2z2);
        fe_mul(m, r->z, t, h);
    }
    fe_sqr(m, t, rr);
    fe_sub(m, t, t, j);
    fe_sub(m, t, t, v);
    fe_sub(m, r->x, t, v);          /* X3 = r^2 - J - 2V */
    fe_sub(m, t, v, r->x);
    fe_mul(m, t, rr, t);
    fe_mul(m, s1, s1, j);
    fe_add(m, s1, s1, s1);
    fe_sub(m, r->y, t, s1);         /* Y3 = r (V - X3) - 2 S1 J */
}

/* Width-w NAF digits of k[n] (public), least significant first: odd digits in
 * (-2^(w-1), 2^(w-1)) or 0, at most one non-zero digit in any w consecutive ones; returns
 * their count (at most 64 n + 1). 2 <= w <= 14 (digits in int16_t). */
size_t tabai_ec_wnaf_vartime(int16_t *naf, const uint64_t *k, size_t n, unsigned w) {
    /* a scan over the bits (as libsecp256k1's ecmult_wnaf): a position whose bit equals the
     * carry gives a 0 digit; elsewhere the next w bits plus the carry are an odd word, taken
     * as a negative digit (and a carry) from 2^(w-1) up, and the next w - 1 digits are 0 */
    const size_t bits = 64 * n + 1;
    memset(naf, 0, bits * sizeof *naf);
    size_t len = 0, i = 0;
    unsigned carry = 0;
    while (i < bits) {
        unsigned b = (unsigned)tabai_ec_kbit(k, n, i);
        if (b == carry) {
            i++;
            continue;
        }
        size_t j = i / 64, o = i % 64;
        uint64_t win = j < n ? k[j] >> o : 0;
        if (o && j + 1 < n) win |= k[j + 1] << (64 - o);
        int d = (int)(win & ((1u << w) - 1)) + (int)carry;
        carry = (unsigned)(d >> (w - 1)) & 1;
        d -= (int)(carry << w);
        naf[i] = (int16_t)d;
        len = i + 1;
        i += w;
    }
    return len;
}

/* ---- the generator's odd multiples for verification: (2j + 1) G, j < TABAI_EC_VT,
 * affine (x, y) in Montgomery form, n limbs each; on the curves with the endomorphism
 * followed by their images (beta x, y) = lambda (2j + 1) G. Built once per process at first
 * use, from public data only. ---- */
static uint64_t vtab_p256[TABAI_EC_VT * 2 * 4], vtab_p384[TABAI_EC_VT * 2 * 6];
static uint64_t vtab_p521[TABAI_EC_VT * 2 * 9], vtab_k256[2 * TABAI_EC_VT * 2 * 4];
static uint64_t *const vtab[TABAI_EC_NCURVES] = {vtab_p256, vtab_p384, vtab_p521, vtab_k256};
static pthread_once_t vtab_once[TABAI_EC_NCURVES] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                                     PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT};

static void vtab_build(size_t ci) {
    const tabai_ec_curve *c = &tabai_ec_curves[ci];
    tabai_ec_ctx x;
    tabai_ec_ctx_init(&x, c);
    x.impl = x.impl_mul = NULL; /* the runtime-n formulas below; any tier gives the same residues */
    const tabai_ec_mod *m = &x.fp;
    size_t n = c->n;
    /* in chunks of VCH entries, one batch inversion each (the stack stays small) */
    enum { VCH = 64 };
    tabai_ec_point pts[VCH], g2, prev;
    uint64_t zi[VCH][TABAI_EC_LIMBS], zi2[TABAI_EC_LIMBS];
    memset(&prev, 0, sizeof prev);
    memcpy(prev.x, c->gx_m, n * 8);
    memcpy(prev.y, c->gy_m, n * 8);
    memcpy(prev.z, c->p_one, n * 8);
    jdbl_vartime(&x, &g2, &prev);
    uint64_t *out = vtab[ci];
    for (size_t j0 = 0; j0 < TABAI_EC_VT; j0 += VCH) {
        pts[0] = prev; /* (2 j0 + 1) G */
        for (size_t j = 1; j < VCH; j++) jadd_vartime(&x, &pts[j], &pts[j - 1], &g2, 0);
        jadd_vartime(&x, &prev, &pts[VCH - 1], &g2, 0); /* the next chunk's first */
        /* to affine (Jacobian: x = X / Z^2, y = Y / Z^3); no Z is 0 ((2j + 1) < q) */
        batch_zinv(&x, zi, pts, VCH);
        for (size_t j = 0; j < VCH; j++) {
            uint64_t *e = out + (j0 + j) * 2 * n;
            fe_sqr(m, zi2, zi[j]);
            fe_mul(m, e, pts[j].x, zi2);
            fe_mul(m, zi2, zi2, zi[j]);
            fe_mul(m, e + n, pts[j].y, zi2);
            if (c->glv) {
                uint64_t *l = out + (TABAI_EC_VT + j0 + j) * 2 * n;
                fe_mul(m, l, e, c->beta_m);
                memcpy(l + n, e + n, n * 8);
            }
        }
    }
}
static void vtab_build0(void) { vtab_build(0); }
static void vtab_build1(void) { vtab_build(1); }
static void vtab_build2(void) { vtab_build(2); }
static void vtab_build3(void) { vtab_build(3); }
static void (*const vtab_builders[TABAI_EC_NCURVES])(void) = {vtab_build0, vtab_build1, vtab_build2,
                                                              vtab_build3};

const uint64_t *tabai_ec_verify_table(const tabai_ec_curve *c) {
    size_t ci = (size_t)(c - tabai_ec_curves);
    pthread_once(&vtab_once[ci], vtab_builders[ci]);
    return vtab[ci];
}

/* r = u1 G + u2 P (Jacobian), variable time (Straus-Shamir interleaving): u2 P by a
 * width-5 NAF over P, 3P, ..., 15P (Jacobian); u1 G by a width-8 NAF over the affine odd
 * multiples of tabai_ec_verify_table (mixed additions); on the curves with the endomorphism
 * both scalars split as k1 + k2 lambda, so that the doublings run over half the length. */
void tabai_ec_mul2_vartime(const tabai_ec_ctx *x, tabai_ec_point *r, const uint64_t *u1,
                           const uint64_t *u2, const tabai_ec_point *p) {
    if (x->impl) {
        x->impl->mul2_vartime(x, r, u1, u2, p);
        return;
    }
    const uint64_t *vt = tabai_ec_verify_table(x->c);
    size_t n = x->fp.n;
    tabai_ec_point acc, t;
    tabai_ec_point odd[8], odd2[8], p2;
    odd[0] = *p; /* Z = 1 from the decoder: Jacobian and projective agree */
    jdbl_vartime(x, &p2, p);
    for (int j = 1; j < 8; j++) jadd_vartime(x, &odd[j], &odd[j - 1], &p2, 0);
    /* naf[0], naf[1]: u2 (or its halves) over odd, odd2; naf[2], naf[3]: u1 (or its
     * halves) over the table and its images */
    int16_t naf[4][TABAI_EC_LIMBS * 64 + 2];
    size_t len[4] = {0, 0, 0, 0}, top = 0;
    uint64_t sg[4] = {0, 0, 0, 0};
    if (x->c->glv) {
        uint64_t k1[4], k2[4];
        tabai_ec_glv_split(x, u2, k1, k2, &sg[0], &sg[1]);
        len[0] = tabai_ec_wnaf_vartime(naf[0], k1, n, 5);
        len[1] = tabai_ec_wnaf_vartime(naf[1], k2, n, 5);
        tabai_ec_glv_split(x, u1, k1, k2, &sg[2], &sg[3]);
        len[2] = tabai_ec_wnaf_vartime(naf[2], k1, n, TABAI_EC_VW);
        len[3] = tabai_ec_wnaf_vartime(naf[3], k2, n, TABAI_EC_VW);
        for (int j = 0; j < 8; j++) {
            odd2[j] = odd[j];
            fe_mul(&x->fp, odd2[j].x, odd[j].x, x->c->beta_m);
        }
    } else {
        len[0] = tabai_ec_wnaf_vartime(naf[0], u2, n, 5);
        len[2] = tabai_ec_wnaf_vartime(naf[2], u1, n, TABAI_EC_VW);
    }
    for (int s = 0; s < 4; s++) top = len[s] > top ? len[s] : top;
    memset(&acc, 0, sizeof acc);
    memcpy(acc.y, x->fp.one, n * 8);
    for (size_t i = top; i-- > 0;) {
        jdbl_vartime(x, &acc, &acc);
        for (int s = 0; s < 4; s++) {
            int d = i < len[s] ? naf[s][i] : 0;
            if (!d) continue;
            size_t j = (size_t)(d > 0 ? d : -d) / 2;
            if (s < 2) {
                t = s ? odd2[j] : odd[j];
            } else {
                const uint64_t *e = vt + ((s - 2) * TABAI_EC_VT + j) * 2 * n;
                memcpy(t.x, e, n * 8);
                memcpy(t.y, e + n, n * 8);
            }
            if ((d < 0) ^ (int)sg[s]) point_cneg(x, &t, 1);
            jadd_vartime(x, &acc, &acc, &t, s >= 2);
        }
    }
    *r = acc;
}
