/* The eight-lane curve kernels (src/ifma/ec_r52.h) and the batch functions of tabai_ec.h,
 * at the tier TABAI_CPU selects. For every kernel usable here (the portable model
 * "generic8" always, "ifma_zmm" at tier ifma on a CPU with IFMA): the field product, the
 * scalar inverse and product against GMP on edge and random operands; every batch function
 * (explicit kernel, and the public one with the tier's choice) against its single-operation
 * twin, byte for byte and status for status, at every count 1..17 on P-256 and at 1, 8, 9, 17
 * on P-384 and secp256k1, with bad items mixed in (a point off the curve, a bad SEC1 prefix,
 * compressed keys, a scalar 0 and one = n, NULL pointers, a wrong signature, r = 0, s >= n,
 * high S under the low-S rule). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec/ec.h"
#include "ec/mb.h"
#include "mb/mb.h"
#include "tabai_ec.h"
#include "testutil.h"

#define CHECK(cond, what) TU_CHECK((cond), (what), 0, TU_NOV)
#define MAXC 17
#define MAXB 133

static const tabai_curve CURVES[] = {TABAI_CURVE_P256, TABAI_CURVE_P384, TABAI_CURVE_SECP256K1};

static void rand_bytes(uint8_t *b, size_t n) {
    for (size_t i = 0; i < n; i++) b[i] = (uint8_t)tu_rand();
}

/* a random value below m (n limbs), or an edge value by cls: 0, 1, m-1, m-2, uniform */
static void operand(uint64_t *a, const uint64_t *m, size_t n, int cls) {
    mpz_t M, A;
    mpz_inits(M, A, NULL);
    tu_to_mpz(M, m, n);
    switch (cls) {
    case 0: mpz_set_ui(A, 0); break;
    case 1: mpz_set_ui(A, 1); break;
    case 2: mpz_sub_ui(A, M, 1); break;
    case 3: mpz_sub_ui(A, M, 2); break;
    default:
        for (size_t i = 0; i < n; i++) a[i] = tu_rand();
        tu_to_mpz(A, a, n);
        mpz_mod(A, A, M);
    }
    tu_from_mpz(a, n, A);
    mpz_clears(M, A, NULL);
}

/* field product (digits) and the scalar inverse and product (limbs) against GMP */
static void test_field(const tabai_ec_r52_kernel *k, const tabai_ec_curve *c,
                       const tabai_ec_r52_curve *r) {
    size_t n = c->n, d = r->d;
    mpz_t P, Q, A, B, T, Ri;
    mpz_inits(P, Q, A, B, T, Ri, NULL);
    tu_to_mpz(P, c->p, n);
    tu_to_mpz(Q, c->q, n);
    mpz_set_ui(Ri, 1);
    mpz_mul_2exp(Ri, Ri, 52 * d);
    mpz_invert(Ri, Ri, P);
    size_t iters = tu_iters(40);
    for (size_t it = 0; it < iters; it++) {
        uint64_t a[8][9], b[8][9], da[64], db[64], dr[64];
        const uint64_t *la[8], *lb[8];
        for (int l = 0; l < 8; l++) {
            operand(a[l], c->p, n, it < 5 ? (int)it : (int)((l + it) % 6));
            operand(b[l], c->p, n, it < 5 ? (int)((it + l) % 5) : 4);
            la[l] = a[l];
            lb[l] = b[l];
        }
        tabai_mb_to_digits(da, 8, 52, d, la, n);
        tabai_mb_to_digits(db, 8, 52, d, lb, n);
        k->fmul(r, dr, da, db);
        for (int l = 0; l < 8; l++) {
            uint64_t got[9] = {0};
            uint64_t *rl[8] = {0};
            rl[l] = got;
            tabai_mb_from_digits(rl, n, dr, 8, 52, d);
            int digits_ok = 1;
            for (size_t t = 0; t < d; t++) digits_ok &= dr[t * 8 + l] < (1ULL << 52);
            tu_to_mpz(A, a[l], n);
            tu_to_mpz(B, b[l], n);
            mpz_mul(T, A, B);
            mpz_mul(T, T, Ri);
            mpz_mod(T, T, P);
            TU_CHECK(digits_ok && tu_eq_mpz(got, n, T), "fmul = a b 2^(-52d) mod p", n,
                     TU_V("a", a[l], n), TU_V("b", b[l], n), TU_V("r", got, n));
        }
        /* scalars mod q: inverse and product, lanes of limbs */
        uint64_t qa[8 * 6], qb[8 * 6], qr[8 * 6];
        for (int l = 0; l < 8; l++) {
            operand(qa + l * n, c->q, n, it < 5 ? (int)it : 4);
            operand(qb + l * n, c->q, n, (int)((it + l) % 6));
        }
        k->qinv(r, qr, qa);
        for (int l = 0; l < 8; l++) {
            tu_to_mpz(A, qa + l * n, n);
            if (mpz_sgn(A)) mpz_invert(T, A, Q);
            else mpz_set_ui(T, 0);
            TU_CHECK(tu_eq_mpz(qr + l * n, n, T), "qinv = a^-1 mod q", n, TU_V("a", qa + l * n, n),
                     TU_V("r", qr + l * n, n));
        }
        k->qmul(r, qr, qa, qb);
        for (int l = 0; l < 8; l++) {
            tu_to_mpz(A, qa + l * n, n);
            tu_to_mpz(B, qb + l * n, n);
            mpz_mul(T, A, B);
            mpz_mod(T, T, Q);
            TU_CHECK(tu_eq_mpz(qr + l * n, n, T), "qmul = a b mod q", n, TU_V("a", qa + l * n, n),
                     TU_V("r", qr + l * n, n));
        }
    }
    mpz_clears(P, Q, A, B, T, Ri, NULL);
}

/* the kernel k against the model lanes, output for output: the field product on digits,
 * k P, k G and u1 G + u2 P on random scalars and points (and their infinity masks) */
static void test_vs_model(const tabai_ec_r52_kernel *k, const tabai_ec_curve *c,
                          const tabai_ec_r52_curve *r) {
    const tabai_ec_r52_kernel *m = &tabai_ec_r52_mb8_generic;
    size_t n = c->n, d = r->d, L = c->bytes;
    size_t iters = tu_iters(3);
    for (size_t it = 0; it < iters; it++) {
        uint64_t da[64], db[64], r1[64], r2[64];
        for (size_t t = 0; t < d * 8; t++) {
            da[t] = r->p.m[t / 8] ? tu_below(r->p.m[t / 8]) : 0; /* digit-wise below p: < p */
            db[t] = r->p.m[t / 8] ? tu_below(r->p.m[t / 8]) : 0;
        }
        k->fmul(r, r1, da, db);
        m->fmul(r, r2, da, db);
        TU_CHECK(!memcmp(r1, r2, d * 8 * 8), "fmul = the model's", 0, TU_NOV);
        uint64_t K[48] = {0}, U[48] = {0}, X[48], Y[48], X2[48], Y2[48], PX[48], PY[48];
        for (int l = 0; l < 8; l++) {
            uint8_t sk[66], pk[133];
            CHECK(tabai_ec_keypair(c->id, sk, pk) == TABAI_OK, "keypair");
            (void)!tabai_from_bytes(PX + l * n, n, pk + 1, L);
            (void)!tabai_from_bytes(PY + l * n, n, pk + 1 + L, L);
            (void)!tabai_from_bytes(K + l * n, n, sk, L);
            operand(U + l * n, c->q, n, it == 0 ? l % 4 : 4);
        }
        unsigned i1 = k->mul(r, X, Y, K, PX, PY), i2 = m->mul(r, X2, Y2, K, PX, PY);
        TU_CHECK(i1 == i2 && !memcmp(X, X2, 8 * n * 8) && !memcmp(Y, Y2, 8 * n * 8),
                 "mul = the model's", 0, TU_NOV);
        i1 = k->mul_base(r, X, Y, U);
        i2 = m->mul_base(r, X2, Y2, U);
        TU_CHECK(i1 == i2 && !memcmp(X, X2, 8 * n * 8) && !memcmp(Y, Y2, 8 * n * 8),
                 "mul_base = the model's", 0, TU_NOV);
        i1 = k->mul2_vartime(r, X, U, K, PX, PY);
        i2 = m->mul2_vartime(r, X2, U, K, PX, PY);
        TU_CHECK(i1 == i2 && !memcmp(X, X2, 8 * n * 8), "mul2 = the model's", 0, TU_NOV);
        TU_CHECK(k->oncurve(r, PX, PY) == 0xff && m->oncurve(r, PX, PY) == 0xff, "oncurve", 0,
                 TU_NOV);
    }
}

/* count items of keys, peers, digests and signatures, with bad ones at fixed places */
typedef struct items {
    uint8_t sk[MAXC][66], pk[MAXC][MAXB], peer[MAXC][MAXB], dg[MAXC][64], sig[MAXC][132];
    size_t peer_len[MAXC], pk_len[MAXC], dg_len[MAXC];
    const uint8_t *skp[MAXC], *peerp[MAXC], *pkp[MAXC], *dgp[MAXC], *sigp[MAXC];
} items;

/* item i's private scalar d replaced by an edge value (1 for item 2, q - 1 for 7, 2 for 9,
 * 31 for 11, 2^(8 Ln - 9) for 15, q - 2 for 16: the lanes' leading zero windows, whose
 * accumulator is at infinity, and the top of the range); 0 if item i keeps its random d */
static int edge_scalar(uint8_t *d, tabai_curve cv, size_t i, size_t Ln) {
    uint8_t low = 0, q_less = 0;
    switch (i) {
    case 2: low = 1; break;
    case 9: low = 2; break;
    case 11: low = 31; break;
    case 15: break; /* 2^(8 Ln - 9) below */
    case 7: q_less = 1; break;
    case 16: q_less = 2; break;
    default: return 0;
    }
    memset(d, 0, Ln);
    if (q_less) {
        CHECK(tabai_ec_curve_params(cv, NULL, NULL, NULL, NULL, NULL, d) == TABAI_OK,
              "curve_params");
        d[Ln - 1] = (uint8_t)(d[Ln - 1] - q_less); /* q's low byte is above 2 */
    }
    d[Ln - 1] = (uint8_t)(d[Ln - 1] + low);
    if (i == 15) d[1] = 0x80;
    return 1;
}

static void make_items(items *it, tabai_curve cv, size_t count) {
    size_t L = tabai_ec_field_bytes(cv), Ln = tabai_ec_scalar_bytes(cv);
    for (size_t i = 0; i < count; i++) {
        uint8_t sk2[66];
        CHECK(tabai_ec_keypair(cv, it->sk[i], it->pk[i]) == TABAI_OK, "keypair");
        if (edge_scalar(it->sk[i], cv, i, Ln)) /* its key pair from d */
            CHECK(tabai_ec_public_key(cv, it->pk[i], 1 + 2 * L, it->sk[i]) == TABAI_OK,
                  "public_key (edge d)");
        CHECK(tabai_ec_keypair(cv, sk2, it->peer[i]) == TABAI_OK, "keypair (peer)");
        it->peer_len[i] = it->pk_len[i] = 1 + 2 * L;
        it->dg_len[i] = 32 + (i % 3) * 16;
        rand_bytes(it->dg[i], it->dg_len[i]);
        CHECK(tabai_ecdsa_sign_digest(cv, it->sig[i], it->sk[i], it->dg[i], it->dg_len[i],
                                      TABAI_HASH_SHA256, NULL, 0, 0) == TABAI_OK, "sign");
        if (i % 4 == 1) { /* compressed keys */
            uint8_t t[MAXB];
            CHECK(tabai_ec_public_key_check(cv, t, it->peer[i], it->peer_len[i]) == TABAI_OK,
                  "public_key_check");
            it->peer[i][0] = (uint8_t)(2 | (t[2 * L] & 1));
            it->peer_len[i] = 1 + L;
            it->pk[i][0] = (uint8_t)(2 | (it->pk[i][2 * L] & 1));
            it->pk_len[i] = 1 + L;
        }
        it->skp[i] = it->sk[i];
        it->peerp[i] = it->peer[i];
        it->pkp[i] = it->pk[i];
        it->dgp[i] = it->dg[i];
        it->sigp[i] = it->sig[i];
    }
    /* bad items */
    if (count > 3) it->peer[3][it->peer_len[3] - 1] ^= 1, it->pk[3][it->pk_len[3] - 1] ^= 1;
    if (count > 5) memset(it->sk[5], 0, Ln), it->sig[5][Ln - 1] ^= 4;  /* d = 0; r changed */
    if (count > 6) it->peer[6][0] = 5, it->pk[6][0] = 5;                /* bad prefix */
    if (count > 8) {                                                    /* d = n; r = 0 */
        CHECK(tabai_ec_curve_params(cv, NULL, NULL, NULL, NULL, NULL, it->sk[8]) == TABAI_OK,
              "curve_params");
        memset(it->sig[8], 0, Ln);
    }
    if (count > 10) it->skp[10] = NULL, it->pkp[10] = NULL;
    if (count > 12) memset(it->sig[12] + Ln, 0xff, Ln); /* s >= n */
    if (count > 14) it->dg[14][0] ^= 1;                 /* wrong digest */
}

static void test_batch(const tabai_ec_r52_kernel *k, tabai_curve cv, size_t count, items *it) {
    size_t L = tabai_ec_field_bytes(cv), Ln = tabai_ec_scalar_bytes(cv);
    tabai_status st[MAXC], want[MAXC], ret;
    uint8_t out[MAXC][MAXB], ref[MAXC][MAXB];
    uint8_t *outp[MAXC];
    for (size_t i = 0; i < count; i++) outp[i] = out[i];
    tu_note("curve %s, kernel %s, count %zu", tabai_curve_name(cv), k ? k->name : "single",
            count);

    /* ECDH */
    memset(out, 0xa5, sizeof out);
    memset(ref, 0xa5, sizeof ref);
    for (size_t i = 0; i < count; i++)
        want[i] = tabai_ecdh(cv, ref[i], it->skp[i], it->peerp[i], it->peer_len[i]);
    ret = tabai_ecdh_batch_with(k, cv, count, st, outp, it->skp, it->peerp, it->peer_len);
    for (size_t i = 0; i < count; i++) {
        CHECK(st[i] == want[i], "ecdh_batch status = tabai_ecdh's");
        CHECK(!memcmp(out[i], ref[i], L + 1), "ecdh_batch secret = tabai_ecdh's (and untouched on error)");
    }
    CHECK(ret == TABAI_OK || ret == st[0] || count > 1, "ecdh_batch return");

    /* public keys */
    for (int comp = 0; comp < 2; comp++) {
        size_t plen = comp ? 1 + L : 1 + 2 * L;
        memset(out, 0xa5, sizeof out);
        memset(ref, 0xa5, sizeof ref);
        for (size_t i = 0; i < count; i++)
            want[i] = tabai_ec_public_key(cv, it->skp[i] ? ref[i] : NULL, plen, it->skp[i]);
        tabai_ec_public_key_batch_with(k, cv, count, st, outp, plen, it->skp);
        for (size_t i = 0; i < count; i++) {
            CHECK(st[i] == want[i], "public_key_batch status");
            CHECK(!memcmp(out[i], ref[i], plen + 1), "public_key_batch = tabai_ec_public_key");
        }
    }

    /* signing, with and without low S and extra data */
    for (int v = 0; v < 3; v++) {
        unsigned flags = v == 1 ? TABAI_ECDSA_LOW_S : 0;
        const uint8_t *ex[MAXC];
        size_t exl[MAXC];
        for (size_t i = 0; i < count; i++) ex[i] = it->dg[i], exl[i] = 1 + i % 7;
        memset(out, 0xa5, sizeof out);
        memset(ref, 0xa5, sizeof ref);
        for (size_t i = 0; i < count; i++)
            want[i] = tabai_ecdsa_sign_digest(cv, ref[i], it->skp[i], it->dgp[i], it->dg_len[i],
                                              TABAI_HASH_SHA256, v == 2 ? ex[i] : NULL,
                                              v == 2 ? exl[i] : 0, flags);
        tabai_ecdsa_sign_batch_with(k, cv, count, st, outp, it->skp, it->dgp, it->dg_len,
                                    TABAI_HASH_SHA256, v == 2 ? ex : NULL, v == 2 ? exl : NULL,
                                    flags);
        for (size_t i = 0; i < count; i++) {
            CHECK(st[i] == want[i], "sign_batch status");
            CHECK(!memcmp(out[i], ref[i], 2 * Ln + 1), "sign_batch = tabai_ecdsa_sign_digest");
        }
    }

    /* verification, both low-S modes */
    for (int v = 0; v < 2; v++) {
        unsigned flags = v ? TABAI_ECDSA_LOW_S : 0;
        for (size_t i = 0; i < count; i++)
            want[i] = tabai_ecdsa_verify_digest_vartime(cv, it->pkp[i], it->pk_len[i], it->dgp[i],
                                                        it->dg_len[i], it->sigp[i], flags);
        tabai_ecdsa_verify_batch_with_vartime(k, cv, count, st, it->pkp, it->pk_len, it->dgp,
                                              it->dg_len, it->sigp, flags);
        size_t good = 0;
        for (size_t i = 0; i < count; i++) {
            CHECK(st[i] == want[i], "verify_batch status = tabai_ecdsa_verify_digest_vartime's");
            good += want[i] == TABAI_OK;
        }
        if (!v) CHECK(good > 0, "some signatures verify"); /* item 0 is always valid */
    }
}

int main(int argc, char **argv) {
    (void)argc;
    tu_init(argv[0]);
    const tabai_ec_r52_kernel *ks[3] = {&tabai_ec_r52_mb8_generic, NULL, NULL};
    int nk = 1;
    const tabai_ec_r52_kernel *act = tabai_ec_mb_kernel_active();
    if (tabai_cpu_tier() >= TABAI_TIER_IFMA)
        CHECK(act == &tabai_ec_r52_mb8_ifma, "tier ifma uses the IFMA kernel");
    else
        CHECK(act == NULL, "below tier ifma the batches use the single functions");
    if (act) ks[nk++] = act;
    static items it;
    for (size_t ci = 0; ci < sizeof CURVES / sizeof CURVES[0]; ci++) {
        tabai_curve cv = CURVES[ci];
        const tabai_ec_curve *c = tabai_ec_curve_get(cv);
        const tabai_ec_r52_curve *r = tabai_ec_r52_curve_get(c);
        CHECK(r != NULL, "curve served");
        for (int ki = 0; ki < nk; ki++) {
            tu_note("curve %s, kernel %s, field", c->name, ks[ki]->name);
            test_field(ks[ki], c, r);
        }
        if (act) {
            tu_note("curve %s, kernel %s against the model", c->name, act->name);
            test_vs_model(act, c, r);
        }
        for (size_t count = 1; count <= MAXC; count++) {
            if (ci && count != 1 && count != 8 && count != 9 && count != 17) continue;
            make_items(&it, cv, count);
            for (int ki = 0; ki < nk; ki++) test_batch(ks[ki], cv, count, &it);
            if (count == MAXC) test_batch(NULL, cv, count, &it);
        }
    }
    /* P-521 is not served by the lanes: the public batch goes through the single path */
    CHECK(tabai_ec_r52_curve_get(tabai_ec_curve_get(TABAI_CURVE_P521)) == NULL, "P-521 not served");
    {
        uint8_t sk[66], pk[MAXB], s1[66], s2[66];
        const uint8_t *skp[1] = {sk}, *pkp[1] = {pk};
        uint8_t *outp[1] = {s2};
        size_t len[1] = {1 + 2 * 66};
        tabai_status st[1];
        CHECK(tabai_ec_keypair(TABAI_CURVE_P521, sk, pk) == TABAI_OK, "P-521 keypair");
        CHECK(tabai_ecdh(TABAI_CURVE_P521, s1, sk, pk, len[0]) == TABAI_OK, "P-521 ecdh");
        CHECK(tabai_ecdh_batch(TABAI_CURVE_P521, 1, st, outp, skp, pkp, len) == TABAI_OK &&
                  !memcmp(s1, s2, 66), "P-521 ecdh_batch");
    }
    /* whole-call errors */
    {
        tabai_status st[1];
        CHECK(tabai_ecdh_batch((tabai_curve)99, 1, st, NULL, NULL, NULL, NULL) == TABAI_ERR_CURVE,
              "unknown curve");
        CHECK(tabai_ecdh_batch(TABAI_CURVE_P256, 1, NULL, NULL, NULL, NULL, NULL) == TABAI_ERR_NULL,
              "NULL arrays");
        CHECK(tabai_ecdh_batch(TABAI_CURVE_P256, 0, NULL, NULL, NULL, NULL, NULL) == TABAI_OK,
              "count 0");
    }
    /* key pairs: every pair consistent with the single public-key function */
    {
        uint8_t sk[9][32], pk[9][65], ref[65];
        uint8_t *skp[9], *pkp[9];
        tabai_status st[9];
        for (int i = 0; i < 9; i++) skp[i] = sk[i], pkp[i] = pk[i];
        CHECK(tabai_ec_keypair_batch(TABAI_CURVE_P256, 9, st, skp, pkp) == TABAI_OK, "keypair_batch");
        for (int i = 0; i < 9; i++) {
            CHECK(tabai_ec_public_key(TABAI_CURVE_P256, ref, 65, sk[i]) == TABAI_OK &&
                      st[i] == TABAI_OK && !memcmp(ref, pk[i], 65),
                  "keypair_batch pair");
        }
    }
    return tu_finish();
}
