/* The batch functions of tabai_ec.h: groups of eight items through the eight-lane kernels
 * of src/ifma/ec_r52.h (at tier ifma), the rest through the single-operation functions.
 * This layer decodes and validates every item as the single function does (the same errors
 * in the same order), fills the lanes of bad items and of a last partial group with dummy
 * inputs (the scalar 1 and the generator), runs the kernels, and writes only the good
 * items. The radix-2^52 constants and the generator's table of each curve are built here
 * at first use (src/ec/README.md, section "Eight lanes"). */
#include <pthread.h>

#include "../cpu/cpu.h"
#include "../dispatch/tables.h"
#include "../mb/mb.h"
#include "../mod/mod.h"
#include "field.h"
#include "mb.h"

#define L9 TABAI_EC_LIMBS
#define LN TABAI_EC_R52_LANES
#define NMAX 6 /* limbs of the largest curve served (P-384) */
#define EC_IFMA_FEATURES (TABAI_CPU_AVX512F | TABAI_CPU_AVX512VL | TABAI_CPU_AVX512IFMA)

const tabai_ec_r52_kernel *tabai_ec_mb_kernel_active(void) {
    if (tabai_cpu_tier() >= TABAI_TIER_IFMA &&
        (tabai_cpu_features() & EC_IFMA_FEATURES) == EC_IFMA_FEATURES)
        return &tabai_ec_r52_mb8_ifma;
    return NULL;
}

/* ---- the curves in radix 2^52 ---- */
#define WINS(bits) ((bits) / TABAI_EC_R52_W + 1)
#define TABW(bits, d) (WINS(bits) * TABAI_EC_R52_TAB * 2 * (d))
static uint64_t gtab_p256[TABW(256, 5)], gtab_p384[TABW(384, 8)], gtab_k256[TABW(256, 5)];
static tabai_ec_r52_curve r52_curves[TABAI_EC_NCURVES];
static tabai_ec_ctx r52_ctx[TABAI_EC_NCURVES]; /* inv_p's context */
static pthread_once_t r52_once[TABAI_EC_NCURVES] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                                   PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT};

/* d digits of 52 bits of a[n]. */
static void digits_of(uint64_t *dg, size_t d, const uint64_t *a, size_t n) {
    const uint64_t *lane[1] = {a};
    tabai_mb_to_digits(dg, 1, 52, d, lane, n);
}

/* r = a 2^bits mod m, by doublings (public constants only). */
static void mod_shl(const tabai_ec_mod *m, uint64_t *r, const uint64_t *a, size_t bits) {
    memmove(r, a, m->n * 8);
    for (size_t i = 0; i < bits; i++) fe_add(m, r, r, r);
}

static void r52_mod_init(tabai_ec_r52_mod *r, const tabai_ec_mod *m, size_t d,
                         const uint64_t *e, size_t ebits) {
    uint64_t t[L9] = {1}, inv = m->m[0];
    for (int i = 0; i < 6; i++) inv *= 2 - m->m[0] * inv; /* Newton: m^-1 mod 2^64 */
    memset(r, 0, sizeof *r);
    digits_of(r->m, d, m->m, m->n);
    r->k0 = (0 - inv) & 0xFFFFFFFFFFFFFULL;
    mod_shl(m, t, t, 52 * d);
    digits_of(r->one, d, t, m->n);
    mod_shl(m, t, t, 52 * d);
    digits_of(r->rr, d, t, m->n);
    r->e = e;
    r->ebits = ebits;
}

/* The lanes' affine conversion: r = a^-1 mod p by the constant-time safegcd (src/mod), a
 * plain residue of n limbs, in place of a Fermat power in the lanes (measured faster:
 * src/ec/README.md, "Eight lanes"). */
static void r52_inv_p(const void *ctx, uint64_t *r, const uint64_t *a) {
    const tabai_ec_ctx *x = ctx;
    tabai_modinv_safegcd(r, a, x->fp.m, x->fp.minv, x->c->pbits, x->c->n);
}

_Static_assert(TABAI_EC_R52_GLV_BITS == TABAI_EC_GLV_BITS, "the lanes' GLV windows");

/* k = k1 + k2 lambda mod q for the lanes' GLV (point.c's split, constant time) */
static void r52_glv_split(const void *ctx, const uint64_t *k, uint64_t *k1, uint64_t *k2,
                          uint64_t *neg1, uint64_t *neg2) {
    tabai_ec_glv_split(ctx, k, k1, k2, neg1, neg2);
}

/* The constants and the table: window i holds j 2^(5i) G (j = 1..16) in affine coordinates,
 * the entries of the scalar path's table (tabai_ec_base_table: same windows and order) moved
 * from the scalar Montgomery form (x 2^(64 n)) to the one of the lanes (x 2^(52 d)) by one
 * product with 2^(52 d) mod p. */
static void r52_build(size_t ci) {
    const tabai_ec_curve *c = &tabai_ec_curves[ci];
    tabai_ec_r52_curve *r = &r52_curves[ci];
    uint64_t *tab = c->id == TABAI_CURVE_P256 ? gtab_p256
                    : c->id == TABAI_CURVE_P384 ? gtab_p384 : gtab_k256;
    size_t n = c->n, d = n == 4 ? 5 : 8, w = WINS(c->qbits);
    tabai_ec_ctx x;
    tabai_ec_ctx_init(&x, c);
    const tabai_ec_mod *fp = &x.fp;
    r->d = d;
    r->n = n;
    r->qbits = c->qbits;
    r->a_zero = c->a_zero;
    r52_mod_init(&r->p, &x.fp, d, NULL, 0); /* p's inverses go to inv_p: no exponent */
    r52_mod_init(&r->q, &x.fq, d, c->q_minus2, c->qbits);
    uint64_t t[L9], r52[L9] = {1};
    mod_shl(fp, t, c->b, 52 * d);
    digits_of(r->b, d, t, n);
    fe_add(fp, r52, t, t);
    fe_add(fp, t, r52, t);
    digits_of(r->b3, d, t, n);
    memset(r52, 0, sizeof r52);
    r52[0] = 1;
    mod_shl(fp, r52, r52, 52 * d); /* 2^(52 d) mod p, plain */
    /* the scalar path's table of the same layout, entries x 2^(64 n); one product with
     * 2^(52 d) (a Montgomery product divides by 2^(64 n)) moves them to the lanes' form */
    const uint64_t *st = tabai_ec_base_table(c);
    for (size_t e = 0; e < w * TABAI_EC_R52_TAB * 2; e++) {
        fe_mul(fp, t, st + e * n, r52);
        digits_of(tab + e * d, d, t, n);
    }
    r->gtab = tab;
    r52_ctx[ci] = x;
    r->inv_p = r52_inv_p;
    r->ctx = &r52_ctx[ci];
    r->glv = c->glv;
    if (c->glv) { /* beta from the scalar path's form (x 2^(64 n)) to the lanes' */
        uint64_t one[L9] = {1};
        r->glv_split = r52_glv_split;
        fe_mul(fp, t, c->beta_m, one);
        mod_shl(fp, t, t, 52 * d);
        digits_of(r->beta, d, t, n);
    }
}
static void r52_build0(void) { r52_build(0); }
static void r52_build1(void) { r52_build(1); }
static void r52_build2(void) { r52_build(2); }
static void r52_build3(void) { r52_build(3); }
static void (*const r52_builders[TABAI_EC_NCURVES])(void) = {r52_build0, r52_build1,
                                                            r52_build2, r52_build3};

const tabai_ec_r52_curve *tabai_ec_r52_curve_get(const tabai_ec_curve *c) {
    if (!c || c->form != TABAI_EC_FORM_MONT || c->n > NMAX) return NULL; /* P-521 */
    size_t ci = (size_t)(c - tabai_ec_curves);
    pthread_once(&r52_once[ci], r52_builders[ci]);
    return &r52_curves[ci];
}

/* ---- items ---- */

static size_t scalar_bytes(const tabai_ec_curve *c) { return (c->qbits + 7) / 8; }

/* A private scalar 1 <= d < q into d[n]; its validity is made public (it decides
 * TABAI_ERR_SCALAR), the value stays secret. */
static int scalar_load(const tabai_ec_curve *c, uint64_t *d, const uint8_t *sk) {
    memset(d, 0, c->n * 8);
    tabai_ec_from_bytes(d, c->n, sk, scalar_bytes(c));
    return (int)tabai_declassify(tabai_lt_n(d, c->q, c->n) & (1 ^ fe_is_zero(d, c->n)));
}

/* A SEC1 public key (public) to plain x, y: the uncompressed form directly (coordinates
 * below p; the curve equation is checked in the lanes), the compressed form through
 * tabai_ec_public_key_check (decompression and the whole check). 1 if it may be valid. */
static int pk_decode(const tabai_ec_curve *c, uint64_t *x, uint64_t *y, const uint8_t *pk,
                     size_t len) {
    uint8_t buf[1 + 2 * 48];
    size_t L = c->bytes, n = c->n;
    if (len == 1 + L && (pk[0] == 2 || pk[0] == 3)) {
        if (tabai_ec_public_key_check(c->id, buf, pk, len) != TABAI_OK) return 0;
        pk = buf;
        len = 1 + 2 * L;
    }
    if (len != 1 + 2 * L || pk[0] != 4) return 0;
    memset(x, 0, n * 8);
    memset(y, 0, n * 8);
    tabai_ec_from_bytes(x, n, pk + 1, L);
    tabai_ec_from_bytes(y, n, pk + 1 + L, L);
    return tabai_lt_n(x, c->p, n) && tabai_lt_n(y, c->p, n);
}

/* A dummy lane: the scalar 1 (into k if given) and the generator (into x, y if given). */
static void lane_dummy(const tabai_ec_curve *c, uint64_t *k, uint64_t *x, uint64_t *y) {
    size_t n = c->n;
    if (k) {
        memset(k, 0, n * 8);
        k[0] = 1;
    }
    if (x) memcpy(x, c->gx, n * 8);
    if (y) memcpy(y, c->gy, n * 8);
}

/* r = a mod q for a < p < 2q, by one masked subtraction. */
static void reduce_q(const tabai_ec_curve *c, uint64_t *a) {
    uint64_t t[L9], bw = 0;
    for (size_t i = 0; i < c->n; i++) bw = tabai_sbb(&t[i], a[i], c->q[i], bw);
    tabai_cmov_n(a, bw, a, t, c->n);
}

static tabai_status first_error(const tabai_status st[], size_t count) {
    for (size_t i = 0; i < count; i++)
        if (st[i] != TABAI_OK) return st[i];
    return TABAI_OK;
}

/* The kernel to use for curve c (NULL: the single-operation loop). */
static const tabai_ec_r52_curve *served(const tabai_ec_r52_kernel *k, const tabai_ec_curve *c) {
    return k ? tabai_ec_r52_curve_get(c) : NULL;
}

/* ---- public keys ---- */

tabai_status tabai_ec_public_key_batch_with(const tabai_ec_r52_kernel *k, tabai_curve cv,
                                            size_t count, tabai_status st[], uint8_t *const pk[],
                                            size_t pk_len, const uint8_t *const sk[]) {
    const tabai_ec_curve *c = tabai_ec_curve_get(cv);
    if (!c) return TABAI_ERR_CURVE;
    if (count && (!st || !pk || !sk)) return TABAI_ERR_NULL;
    size_t L = c->bytes, n = c->n;
    if (pk_len != 1 + 2 * L && pk_len != 1 + L) return TABAI_ERR_SIZE;
    const tabai_ec_r52_curve *r = served(k, c);
    if (!r) {
        for (size_t i = 0; i < count; i++) st[i] = tabai_ec_public_key(cv, pk[i], pk_len, sk[i]);
        return first_error(st, count);
    }
    for (size_t g = 0; g < count; g += LN) {
        uint64_t K[LN * NMAX], X[LN * NMAX], Y[LN * NMAX];
        size_t m = count - g < LN ? count - g : LN;
        for (size_t l = 0; l < LN; l++) {
            uint64_t *kl = K + l * n;
            lane_dummy(c, kl, NULL, NULL);
            if (l >= m) continue;
            size_t i = g + l;
            if (!pk[i] || !sk[i]) {
                st[i] = TABAI_ERR_NULL;
            } else if (!scalar_load(c, kl, sk[i])) {
                st[i] = TABAI_ERR_SCALAR;
                lane_dummy(c, kl, NULL, NULL);
            } else {
                st[i] = TABAI_OK;
            }
        }
        k->mul_base(r, X, Y, K); /* finite: 1 <= k < q in every lane */
        for (size_t l = 0; l < m; l++) {
            if (st[g + l] != TABAI_OK) continue;
            uint8_t *out = pk[g + l];
            tabai_ec_to_bytes(out + 1, L, X + l * n, n);
            if (pk_len == 1 + 2 * L) {
                out[0] = 4;
                tabai_ec_to_bytes(out + 1 + L, L, Y + l * n, n);
            } else {
                out[0] = (uint8_t)(2 | (Y[l * n] & 1));
            }
        }
        tabai_wipe(K, sizeof K);
        tabai_wipe(Y, sizeof Y);
    }
    return first_error(st, count);
}

tabai_status tabai_ec_public_key_batch(tabai_curve c, size_t count, tabai_status st[],
                                       uint8_t *const pk[], size_t pk_len,
                                       const uint8_t *const sk[]) {
    return tabai_ec_public_key_batch_with(tabai_ec_mb_kernel_active(), c, count, st, pk, pk_len,
                                          sk);
}

tabai_status tabai_ec_keypair_batch(tabai_curve cv, size_t count, tabai_status st[],
                                    uint8_t *const sk[], uint8_t *const pk[]) {
    const tabai_ec_curve *c = tabai_ec_curve_get(cv);
    if (!c) return TABAI_ERR_CURVE;
    if (count && (!st || !sk || !pk)) return TABAI_ERR_NULL;
    const tabai_ec_r52_kernel *k = tabai_ec_mb_kernel_active();
    size_t Ln = scalar_bytes(c);
    for (size_t g = 0; g < count; g += LN) {
        uint8_t buf[LN][72];
        const uint8_t *skp[LN];
        uint8_t *pkp[LN];
        tabai_status gst[LN];
        size_t m = count - g < LN ? count - g : LN, used = 0, at[LN];
        for (size_t l = 0; l < m; l++) {
            size_t i = g + l;
            if (!sk[i] || !pk[i]) {
                st[i] = TABAI_ERR_NULL;
                continue;
            }
            st[i] = TABAI_ERR_RANDOM;
            uint64_t d[L9];
            for (int tries = 0; tries < 128; tries++) { /* FIPS 186-5 A.2.2, as tabai_ec_keypair */
                if (!tabai_ec_os_random(buf[used], Ln)) break;
                buf[used][0] &= (uint8_t)(0xff >> (8 * Ln - c->qbits));
                if (!scalar_load(c, d, buf[used])) continue;
                st[i] = TABAI_OK;
                break;
            }
            tabai_wipe(d, sizeof d);
            if (st[i] != TABAI_OK) continue;
            skp[used] = buf[used];
            pkp[used] = pk[i];
            at[used++] = i;
        }
        tabai_ec_public_key_batch_with(k, cv, used, gst, pkp, 1 + 2 * c->bytes, skp);
        for (size_t u = 0; u < used; u++) {
            st[at[u]] = gst[u];
            if (gst[u] == TABAI_OK) memcpy(sk[at[u]], buf[u], Ln);
        }
        tabai_wipe(buf, sizeof buf);
    }
    return first_error(st, count);
}

/* ---- ECDH ---- */

tabai_status tabai_ecdh_batch_with(const tabai_ec_r52_kernel *k, tabai_curve cv, size_t count,
                                   tabai_status st[], uint8_t *const secret[],
                                   const uint8_t *const sk[], const uint8_t *const peer_pk[],
                                   const size_t peer_len[]) {
    const tabai_ec_curve *c = tabai_ec_curve_get(cv);
    if (!c) return TABAI_ERR_CURVE;
    if (count && (!st || !secret || !sk || !peer_pk || !peer_len)) return TABAI_ERR_NULL;
    const tabai_ec_r52_curve *r = served(k, c);
    if (!r) {
        for (size_t i = 0; i < count; i++)
            st[i] = tabai_ecdh(cv, secret[i], sk[i], peer_pk[i], peer_len[i]);
        return first_error(st, count);
    }
    size_t n = c->n;
    for (size_t g = 0; g < count; g += LN) {
        uint64_t K[LN * NMAX], PX[LN * NMAX], PY[LN * NMAX], X[LN * NMAX];
        int pt_ok[LN] = {0};
        size_t m = count - g < LN ? count - g : LN;
        for (size_t l = 0; l < LN; l++) {
            uint64_t *kl = K + l * n, *xl = PX + l * n, *yl = PY + l * n;
            lane_dummy(c, kl, xl, yl);
            if (l >= m) continue;
            size_t i = g + l;
            if (!secret[i] || !sk[i] || !peer_pk[i]) {
                st[i] = TABAI_ERR_NULL;
                continue;
            }
            if (!pk_decode(c, xl, yl, peer_pk[i], peer_len[i])) {
                st[i] = TABAI_ERR_POINT;
                lane_dummy(c, NULL, xl, yl);
                continue;
            }
            pt_ok[l] = 1;
            st[i] = scalar_load(c, kl, sk[i]) ? TABAI_OK : TABAI_ERR_SCALAR;
            if (st[i] != TABAI_OK) lane_dummy(c, kl, NULL, NULL);
        }
        unsigned on = k->oncurve(r, PX, PY);
        for (size_t l = 0; l < m; l++) {
            if (!pt_ok[l] || ((on >> l) & 1)) continue;
            st[g + l] = TABAI_ERR_POINT; /* off the curve: before the scalar's error */
            lane_dummy(c, K + l * n, PX + l * n, PY + l * n);
        }
        k->mul(r, X, NULL, K, PX, PY); /* finite: q prime, 1 <= k < q, Q finite */
        for (size_t l = 0; l < m; l++)
            if (st[g + l] == TABAI_OK) tabai_ec_to_bytes(secret[g + l], c->bytes, X + l * n, n);
        tabai_wipe(K, sizeof K);
        tabai_wipe(X, sizeof X);
    }
    return first_error(st, count);
}

tabai_status tabai_ecdh_batch(tabai_curve c, size_t count, tabai_status st[],
                              uint8_t *const secret[], const uint8_t *const sk[],
                              const uint8_t *const peer_pk[], const size_t peer_len[]) {
    return tabai_ecdh_batch_with(tabai_ec_mb_kernel_active(), c, count, st, secret, sk, peer_pk,
                                 peer_len);
}

/* ---- ECDSA ---- */

tabai_status tabai_ecdsa_sign_batch_with(const tabai_ec_r52_kernel *k, tabai_curve cv,
                                         size_t count, tabai_status st[], uint8_t *const sig[],
                                         const uint8_t *const sk[],
                                         const uint8_t *const digest[],
                                         const size_t digest_len[], tabai_hash h,
                                         const uint8_t *const extra[], const size_t extra_len[],
                                         unsigned flags) {
    const tabai_ec_curve *c = tabai_ec_curve_get(cv);
    if (!c) return TABAI_ERR_CURVE;
    if (count && (!st || !sig || !sk || !digest || !digest_len || (extra && !extra_len)))
        return TABAI_ERR_NULL;
    const tabai_ec_r52_curve *r = served(k, c);
    if (!r) {
        for (size_t i = 0; i < count; i++)
            st[i] = tabai_ecdsa_sign_digest(cv, sig[i], sk[i], digest[i], digest_len[i], h,
                                            extra ? extra[i] : NULL, extra ? extra_len[i] : 0,
                                            flags);
        return first_error(st, count);
    }
    size_t n = c->n, Ln = scalar_bytes(c);
    tabai_ec_ctx x;
    tabai_ec_ctx_init(&x, c);
    for (size_t g = 0; g < count; g += LN) {
        uint64_t Dk[LN * NMAX], E[LN * NMAX], K[LN * NMAX], X[LN * NMAX], KI[LN * NMAX],
            T[LN * NMAX], S[LN * NMAX];
        size_t m = count - g < LN ? count - g : LN;
        for (size_t l = 0; l < LN; l++) {
            uint64_t *dl = Dk + l * n, *el = E + l * n, *kl = K + l * n;
            lane_dummy(c, dl, NULL, NULL);
            lane_dummy(c, el, NULL, NULL);
            lane_dummy(c, kl, NULL, NULL);
            if (l >= m) continue;
            size_t i = g + l;
            st[i] = !sig[i] ? TABAI_ERR_NULL
                            : tabai_ec_sign_prepare(cv, dl, el, kl, sk[i], digest[i],
                                                    digest_len[i], h, extra ? extra[i] : NULL,
                                                    extra ? extra_len[i] : 0);
            if (st[i] != TABAI_OK) {
                lane_dummy(c, dl, NULL, NULL);
                lane_dummy(c, el, NULL, NULL);
                lane_dummy(c, kl, NULL, NULL);
            }
        }
        /* FIPS 186-5 6.4.1: r = x(k G) mod q, s = k^-1 (e + r d) mod q */
        k->mul_base(r, X, NULL, K);
        for (size_t l = 0; l < LN; l++) reduce_q(c, X + l * n);
        /* k^-1 by the constant-time safegcd, two lanes at a time (measured faster than the
         * lanes' Fermat power: src/ec/README.md, "Eight lanes") */
        for (size_t l = 0; l < LN; l += 2)
            tabai_modinv2_safegcd(KI + l * n, K + l * n, x.fq.m, x.fq.minv, KI + (l + 1) * n,
                                  K + (l + 1) * n, x.fq.m, x.fq.minv, c->qbits, n);
        k->qmul(r, T, X, Dk);
        for (size_t l = 0; l < LN; l++) fe_add(&x.fq, T + l * n, T + l * n, E + l * n);
        k->qmul(r, S, KI, T);
        for (size_t l = 0; l < m; l++) {
            size_t i = g + l;
            if (st[i] != TABAI_OK) continue;
            uint64_t *rl = X + l * n, *sl = S + l * n;
            if (flags & TABAI_ECDSA_LOW_S) tabai_ec_low_s_ct(&x, sl);
            /* public: r = 0 or s = 0 (probability about 2/q): the single function takes the
             * next nonce; it signs this item from the start */
            if (tabai_declassify(fe_is_zero(rl, n) | fe_is_zero(sl, n))) {
                st[i] = tabai_ecdsa_sign_digest(cv, sig[i], sk[i], digest[i], digest_len[i], h,
                                                extra ? extra[i] : NULL,
                                                extra ? extra_len[i] : 0, flags);
                continue;
            }
            tabai_ec_to_bytes(sig[i], Ln, rl, n);
            tabai_ec_to_bytes(sig[i] + Ln, Ln, sl, n);
        }
        tabai_wipe(Dk, sizeof Dk);
        tabai_wipe(E, sizeof E);
        tabai_wipe(K, sizeof K);
        tabai_wipe(KI, sizeof KI);
        tabai_wipe(T, sizeof T);
        tabai_wipe(S, sizeof S);
    }
    return first_error(st, count);
}

tabai_status tabai_ecdsa_sign_batch(tabai_curve c, size_t count, tabai_status st[],
                                    uint8_t *const sig[], const uint8_t *const sk[],
                                    const uint8_t *const digest[], const size_t digest_len[],
                                    tabai_hash h, const uint8_t *const extra[],
                                    const size_t extra_len[], unsigned flags) {
    /* on cores that run a 512-bit operation as two halves (Zen 4) the eight lanes signed
     * P-384 more slowly than one item at a time until the inversions by the safegcd and k G's
     * mixed additions (make bench since: 1.19x, P-256 1.14x, secp256k1 1.33x) */
    const tabai_ec_r52_kernel *k = tabai_ec_mb_kernel_active();
    return tabai_ecdsa_sign_batch_with(k, c, count, st, sig, sk, digest, digest_len, h, extra,
                                       extra_len, flags);
}

tabai_status tabai_ecdsa_verify_batch_with_vartime(const tabai_ec_r52_kernel *k, tabai_curve cv,
                                                   size_t count, tabai_status st[],
                                                   const uint8_t *const pk[],
                                                   const size_t pk_len[],
                                                   const uint8_t *const digest[],
                                                   const size_t digest_len[],
                                                   const uint8_t *const sig[], unsigned flags) {
    const tabai_ec_curve *c = tabai_ec_curve_get(cv);
    if (!c) return TABAI_ERR_CURVE;
    if (count && (!st || !pk || !pk_len || !digest || !digest_len || !sig))
        return TABAI_ERR_NULL;
    const tabai_ec_r52_curve *r = served(k, c);
    if (!r) {
        for (size_t i = 0; i < count; i++)
            st[i] = tabai_ecdsa_verify_digest_vartime(cv, pk[i], pk_len[i], digest[i],
                                                      digest_len[i], sig[i], flags);
        return first_error(st, count);
    }
    size_t n = c->n, Ln = scalar_bytes(c);
    for (size_t g = 0; g < count; g += LN) {
        uint64_t PX[LN * NMAX], PY[LN * NMAX], R[LN * NMAX], S[LN * NMAX], E[LN * NMAX],
            W[LN * NMAX], U1[LN * NMAX], U2[LN * NMAX], X[LN * NMAX];
        int pt_ok[LN] = {0}, sig_ok[LN] = {0};
        size_t m = count - g < LN ? count - g : LN;
        for (size_t l = 0; l < LN; l++) {
            uint64_t *xl = PX + l * n, *yl = PY + l * n, *rl = R + l * n, *sl = S + l * n,
                     *el = E + l * n;
            lane_dummy(c, rl, xl, yl);
            lane_dummy(c, sl, NULL, NULL);
            lane_dummy(c, el, NULL, NULL);
            if (l >= m) continue;
            size_t i = g + l;
            if (!pk[i] || !sig[i] || (!digest[i] && digest_len[i])) {
                st[i] = TABAI_ERR_NULL;
                continue;
            }
            st[i] = TABAI_ERR_POINT;
            if (!pk_decode(c, xl, yl, pk[i], pk_len[i])) {
                lane_dummy(c, NULL, xl, yl);
                continue;
            }
            pt_ok[l] = 1;
            memset(rl, 0, n * 8);
            memset(sl, 0, n * 8);
            tabai_ec_from_bytes(rl, n, sig[i], Ln);
            tabai_ec_from_bytes(sl, n, sig[i] + Ln, Ln);
            sig_ok[l] = tabai_lt_n(rl, c->q, n) && !fe_is_zero(rl, n) &&
                        tabai_lt_n(sl, c->q, n) && !fe_is_zero(sl, n) &&
                        !((flags & TABAI_ECDSA_LOW_S) && tabai_lt_n(c->q_half, sl, n));
            if (!sig_ok[l]) {
                lane_dummy(c, rl, NULL, NULL);
                lane_dummy(c, sl, NULL, NULL);
                continue;
            }
            tabai_ec_digest_scalar(c, el, digest[i], digest_len[i]);
        }
        unsigned on = k->oncurve(r, PX, PY);
        for (size_t l = 0; l < m; l++) {
            if (!pt_ok[l]) continue;
            if (!((on >> l) & 1)) {
                lane_dummy(c, NULL, PX + l * n, PY + l * n); /* TABAI_ERR_POINT stays */
                sig_ok[l] = 0;
            } else {
                st[g + l] = TABAI_ERR_SIGNATURE; /* until the equation holds */
            }
        }
        /* FIPS 186-5 6.4.2: w = s^-1, u1 = e w, u2 = r w, x(u1 G + u2 Q) mod q == r */
        const tabai_ec_mod *fq = &r52_ctx[c - tabai_ec_curves].fq; /* built by served() */
        for (size_t l = 0; l < LN; l++) /* public: the variable-time safegcd */
            (void)tabai_modinv_safegcd_vartime(W + l * n, S + l * n, fq->m, fq->minv, c->qbits, n);
        k->qmul(r, U1, E, W);
        k->qmul(r, U2, R, W);
        unsigned inf = k->mul2_vartime(r, X, U1, U2, PX, PY);
        for (size_t l = 0; l < m; l++) {
            if (!sig_ok[l] || ((inf >> l) & 1)) continue;
            reduce_q(c, X + l * n);
            if (!tabai_lt_n(X + l * n, R + l * n, n) && !tabai_lt_n(R + l * n, X + l * n, n))
                st[g + l] = TABAI_OK;
        }
    }
    return first_error(st, count);
}

tabai_status tabai_ecdsa_verify_batch_vartime(tabai_curve c, size_t count, tabai_status st[],
                                              const uint8_t *const pk[], const size_t pk_len[],
                                              const uint8_t *const digest[],
                                              const size_t digest_len[],
                                              const uint8_t *const sig[], unsigned flags) {
    /* on cores that run a 512-bit operation as two halves (Zen 4), where full-width units
     * made the eight lanes 1.25-1.96x faster, they verified a little slower than one
     * signature at a time until k P's Jacobian doublings (a = -3), GLV (secp256k1) and the
     * safegcd inversions: 1.07x (P-256), 1.30x (P-384), 1.19x (secp256k1) in make bench since */
    const tabai_ec_r52_kernel *k = tabai_ec_mb_kernel_active();
    return tabai_ecdsa_verify_batch_with_vartime(k, c, count, st, pk, pk_len, digest, digest_len,
                                                 sig, flags);
}
