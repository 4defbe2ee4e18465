/* RSA (RFC 8017) on the exponentiation engine of src/mb: key checks, the private operation
 * by CRT with base blinding and a check by the public exponent, the public operation.
 * Padding schemes live above the C library (python/tabai/rsa.py). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "../internal.h"
#include "../limb/limb.h"
#include "../mod/powmod_r52.h"
#include "rsa.h"

_Static_assert(sizeof(tabai_r52) <= TABAI_RSA_R52_WORDS * sizeof(uint64_t),
               "tabai_rsa_public_key.r52 holds a tabai_r52");

void (*tabai_rsa_fault_hook)(uint64_t *m1, size_t h) = NULL;
void (*tabai_rsa_blind_hook)(const uint64_t *a, size_t n) = NULL;

#define HMAX TABAI_MAX_LIMBS
/* a fresh r every RSA_REFRESH operations (OpenSSL's BN_BLINDING_COUNTER is 32) */
#define RSA_REFRESH 32

/* ---- key checks: variable time, once per key ---- */

/* r[mn] = a[an] mod m[mn] (m != 0) by binary long division. Variable time. */
static void mod_vartime(uint64_t *r, const uint64_t *a, size_t an, const uint64_t *m, size_t mn) {
    uint64_t rem[TABAI_MAX_LIMBS + 1] = {0};
    for (size_t i = tabai_bitlen_vartime(a, an); i-- > 0;) {
        uint64_t top = (a[i / 64] >> (i % 64)) & 1;
        for (size_t j = 0; j <= mn; j++) {
            uint64_t v = rem[j];
            rem[j] = (v << 1) | top;
            top = v >> 63;
        }
        if (rem[mn] || !tabai_lt_n(rem, m, mn)) { /* rem < 2m: one subtraction */
            uint64_t bw = tabai_sub_n(rem, rem, m, mn);
            rem[mn] -= bw;
        }
    }
    memcpy(r, rem, mn * sizeof(uint64_t));
    tabai_wipe(rem, sizeof rem);
}

static int eq_vartime(const uint64_t *a, const uint64_t *b, size_t n) {
    return memcmp(a, b, n * sizeof(uint64_t)) == 0;
}

static int is_one_vartime(const uint64_t *a, size_t n) {
    for (size_t i = 1; i < n; i++)
        if (a[i]) return 0;
    return a[0] == 1;
}

/* 1 if e*x == 1 mod m and x < m (x, m: h limbs). */
static int inverse_of_e_vartime(uint64_t e, const uint64_t *x, const uint64_t *m, size_t h) {
    uint64_t t[HMAX + 1], r[HMAX];
    if (!tabai_lt_n(x, m, h)) return 0;
    t[h] = tabai_mul_1(t, x, h, e);
    mod_vartime(r, t, h + 1, m, h);
    int ok = is_one_vartime(r, h);
    tabai_wipe(t, sizeof t), tabai_wipe(r, sizeof r);
    return ok;
}

/* 1 if d mod m == x (d: nl limbs; m, x: h limbs). */
static int residue_is_vartime(const uint64_t *d, size_t nl, const uint64_t *m, const uint64_t *x,
                              size_t h) {
    uint64_t r[HMAX];
    mod_vartime(r, d, nl, m, h);
    int ok = eq_vartime(r, x, h);
    tabai_wipe(r, sizeof r);
    return ok;
}

/* ---- randomness and the blinding pair ---- */

static tabai_status random_bytes(void *buf, size_t len) {
    uint8_t *b = buf;
    while (len) {
        ssize_t got = getrandom(b, len, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            return TABAI_ERR_RANDOM;
        }
        b += got;
        len -= (size_t)got;
    }
    return TABAI_OK;
}

/* r[nl] uniform in [1, 2^(bits(N)-1)): below N, non-zero. */
static tabai_status random_below(uint64_t *r, const uint64_t *n, size_t nl) {
    const unsigned top = 64 - (unsigned)__builtin_clzll(n[nl - 1]); /* bits of N's top limb */
    for (;;) {
        tabai_status s = random_bytes(r, nl * sizeof(uint64_t));
        if (s != TABAI_OK) return s;
        r[nl - 1] &= top > 1 ? ~(uint64_t)0 >> (65 - top) : 0;
        uint64_t z = 0;
        for (size_t i = 0; i < nl; i++) z |= r[i];
        if (tabai_declassify(tabai_nonzero(z))) return TABAI_OK; /* only r == 0 is redrawn */
    }
}

/* r = b^e mod N for the key's public exponent (b < N): the single-number IFMA layout where
 * the key holds its context, else the scalar sliding window in scratch[sl]
 * (tabai_powmod_scratch_limbs(n, 64) limbs). Constant time in b; variable time in e. */
static void pow_e(const tabai_rsa_public_key *pub, uint64_t *r, const uint64_t *b,
                  uint64_t *scratch, size_t sl) {
    tabai_r52 c;
    memcpy(&c, pub->r52, sizeof c); /* aligned: the key's words need not be */
    if (c.dd && tabai_r52_usable()) {
        tabai_powmod_r52_e64_vartime(&c, &pub->mn, r, b, pub->e);
        return;
    }
    /* cannot fail: b < N, the scratch is sized for a 64-bit exponent */
    (void)!tabai_mont_powmod_vartime(&pub->mn, r, b, &pub->e,
                                     64 - (size_t)__builtin_clzll(pub->e), scratch, sl);
}

/* A fresh blinding pair: blind = r^e R, unblind = r^-1 R mod N (Montgomery form) for a
 * random r. The inverse is taken of u = r t for another random t (u is uniform and
 * independent of r, so the variable-time inversion learns nothing of r), then times t. */
static tabai_status blind_refresh(tabai_rsa_key *key) {
    const tabai_mont *mn = &key->pub.mn;
    const size_t nl = key->pub.n;
    const size_t sl = tabai_powmod_scratch_limbs(nl, 64);
    uint64_t *scratch = malloc(sl * sizeof(uint64_t));
    if (!scratch) return TABAI_ERR_ALLOC;
    uint64_t r[TABAI_MAX_LIMBS], t[TABAI_MAX_LIMBS], u[TABAI_MAX_LIMBS], v[TABAI_MAX_LIMBS];
    tabai_status s;
    do {
        s = random_below(r, mn->p, nl);
        if (s == TABAI_OK) s = random_below(t, mn->p, nl);
        if (s != TABAI_OK) goto done;
        /* cannot fail (here and below): every operand is < N, the scratch is sized for e */
        (void)!tabai_mont_mul(mn, u, r, t);
        (void)!tabai_mont_mul(mn, u, u, mn->rr);                       /* u = r t */
        for (size_t i = 0; i < nl; i++) u[i] = tabai_declassify(u[i]); /* public: uniform */
        s = tabai_inv_vartime(v, u, mn->p, nl);
    } while (s == TABAI_ERR_NOINV); /* u shares a factor with N: never in practice */
    if (s != TABAI_OK) goto done;
    (void)!tabai_mont_to(mn, v, v);
    (void)!tabai_mont_to(mn, t, t);
    (void)!tabai_mont_mul(mn, key->unblind, v, t); /* (u^-1 R)(t R) R^-1 = r^-1 R */
    pow_e(&key->pub, u, r, scratch, sl);
    (void)!tabai_mont_to(mn, key->blind, u); /* r^e R */
    key->uses = 0;
done:
    tabai_wipe(r, sizeof r), tabai_wipe(t, sizeof t), tabai_wipe(u, sizeof u);
    tabai_wipe(v, sizeof v), tabai_wipe(scratch, sl * sizeof(uint64_t));
    free(scratch);
    return s;
}

static void key_lock(int *l) {
    while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
        while (__atomic_load_n(l, __ATOMIC_RELAXED)) __builtin_ia32_pause();
}
static void key_unlock(int *l) { __atomic_store_n(l, 0, __ATOMIC_RELEASE); }

/* a, ai = the key's blinding pair (Montgomery form), which then moves on by squaring both
 * (OpenSSL's BN_BLINDING_update); a new r every RSA_REFRESH operations. */
static tabai_status blind_take(tabai_rsa_key *key, uint64_t *a, uint64_t *ai) {
    const tabai_mont *mn = &key->pub.mn;
    const size_t nl = key->pub.n;
    key_lock(&key->lock);
    tabai_status s = key->uses >= RSA_REFRESH ? blind_refresh(key) : TABAI_OK;
    if (s == TABAI_OK) {
        memcpy(a, key->blind, nl * sizeof(uint64_t));
        memcpy(ai, key->unblind, nl * sizeof(uint64_t));
        (void)!tabai_mont_sqr(mn, key->blind, key->blind); /* cannot fail: both < N */
        (void)!tabai_mont_sqr(mn, key->unblind, key->unblind);
        key->uses++;
    }
    key_unlock(&key->lock);
    return s;
}

/* ---- keys ---- */

tabai_status tabai_rsa_public_key_init(tabai_rsa_public_key *pub, const uint64_t *n, uint64_t e,
                                       size_t nl) {
    if (!pub || !n) return TABAI_ERR_NULL;
    if (nl == 0 || nl > TABAI_MAX_LIMBS) return TABAI_ERR_SIZE;
    size_t bits = tabai_bitlen_vartime(n, nl);
    if (bits < 1024) return TABAI_ERR_RSA_SIZE;
    if (!(n[0] & 1)) return TABAI_ERR_MODULUS;
    if (!(e & 1) || e < 3) return TABAI_ERR_RSA_E;
    tabai_rsa_public_key k;
    memset(&k, 0, sizeof k);
    k.n = tabai_normalized_len_vartime(n, nl);
    k.e = e;
    tabai_status s = tabai_mont_init(&k.mn, n, k.n);
    if (s != TABAI_OK) return s;
    /* at tier ifma, the context of the single-number layout for the exponentiation by e
     * (3.5x faster a product than the scalar kernels at 2048 bits on an IFMA Xeon) */
    unsigned vl = 0;
    if (tabai_r52_usable()) {
        (void)tabai_r52_choose(k.mn.bits, 64, &vl);
        tabai_r52 c;
        if (vl && tabai_r52_init(&c, &k.mn, vl, 0) == 0) memcpy(k.r52, &c, sizeof c);
    }
    *pub = k;
    return TABAI_OK;
}

/* 1 if x[nl] has no non-zero limb from h on */
static int fits_vartime(const uint64_t *x, size_t nl, size_t h) {
    return tabai_normalized_len_vartime(x, nl) <= h;
}

tabai_status tabai_rsa_key_init(tabai_rsa_key *key, const uint64_t *n, uint64_t e,
                                const uint64_t *d, const uint64_t *p, const uint64_t *q,
                                const uint64_t *dp, const uint64_t *dq, const uint64_t *qinv,
                                size_t nl) {
    if (!key || !n || !d || !p || !q || !dp || !dq || !qinv) return TABAI_ERR_NULL;
    if (nl == 0 || nl > TABAI_MAX_LIMBS) return TABAI_ERR_SIZE;
    if (!n[nl - 1] || tabai_bitlen_vartime(n, nl) < 1024) return TABAI_ERR_RSA_SIZE;
    if (!(e & 1) || e < 3) return TABAI_ERR_RSA_E;
    const size_t hp = tabai_normalized_len_vartime(p, nl), hq = tabai_normalized_len_vartime(q, nl);
    if (!(p[0] & 1) || !(q[0] & 1) || tabai_bitlen_vartime(p, nl) < 2 ||
        tabai_bitlen_vartime(q, nl) < 2 || hp + hq > nl + 1 || eq_vartime(p, q, nl))
        return TABAI_ERR_RSA_PQ;
    uint64_t t[2 * TABAI_MAX_LIMBS + 2], pm1[HMAX], qm1[HMAX];
    tabai_status s = TABAI_OK;
    memset(t, 0, sizeof t);
    tabai_mul(t, p, hp, q, hq);
    for (size_t i = nl; i < hp + hq; i++)
        if (t[i]) s = TABAI_ERR_RSA_PQ;
    if (s == TABAI_OK && !eq_vartime(t, n, nl)) s = TABAI_ERR_RSA_PQ;
    memcpy(pm1, p, hp * sizeof(uint64_t)), pm1[0]--; /* p, q odd: no borrow */
    memcpy(qm1, q, hq * sizeof(uint64_t)), qm1[0]--;
    if (s == TABAI_OK && (!fits_vartime(dp, nl, hp) || !inverse_of_e_vartime(e, dp, pm1, hp)))
        s = TABAI_ERR_RSA_DP;
    if (s == TABAI_OK && (!fits_vartime(dq, nl, hq) || !inverse_of_e_vartime(e, dq, qm1, hq)))
        s = TABAI_ERR_RSA_DQ;
    if (s == TABAI_OK) {
        if (!fits_vartime(qinv, nl, hp) || !tabai_lt_n(qinv, p, hp)) {
            s = TABAI_ERR_RSA_QINV;
        } else {
            tabai_mul(t, q, hq, qinv, hp);
            mod_vartime(t, t, hp + hq, p, hp);
            if (!is_one_vartime(t, hp)) s = TABAI_ERR_RSA_QINV;
        }
    }
    if (s == TABAI_OK && (!tabai_lt_n(d, n, nl) || !residue_is_vartime(d, nl, pm1, dp, hp) ||
                          !residue_is_vartime(d, nl, qm1, dq, hq)))
        s = TABAI_ERR_RSA_D;
    tabai_wipe(t, sizeof t), tabai_wipe(pm1, sizeof pm1), tabai_wipe(qm1, sizeof qm1);
    if (s != TABAI_OK) return s;

    tabai_rsa_key *k = calloc(1, sizeof *k);
    if (!k) return TABAI_ERR_ALLOC;
    /* the public half as tabai_rsa_public_key_init makes it (n's top limb is non-zero) */
    if (tabai_rsa_public_key_init(&k->pub, n, e, nl) != TABAI_OK || tabai_mont_init(&k->mp, p, hp) != TABAI_OK ||
        tabai_mont_init(&k->mq, q, hq) != TABAI_OK) {
        s = TABAI_ERR_RSA_PQ; /* not reached: the checks above cover it */
    } else {
        memcpy(k->dp, dp, hp * sizeof(uint64_t));
        memcpy(k->dq, dq, hq * sizeof(uint64_t));
        (void)!tabai_mont_to(&k->mp, k->qinv_m, qinv); /* cannot fail: qinv < p (checked) */
        s = blind_refresh(k);
    }
    if (s == TABAI_OK) memcpy(key, k, sizeof *k);
    tabai_wipe(k, sizeof *k);
    free(k);
    return s;
}

void tabai_rsa_key_clear(tabai_rsa_key *key) {
    if (key) tabai_wipe(key, sizeof *key);
}

/* ---- the private operation ---- */

/* r[h] = c mod p for any c[cl] (h = mp->n limbs): blocks of h limbs from the top,
 * r = r R + (c_j mod p), each block reduced by Montgomery REDC (c_j R^-1 mod p, c_j < R <= p R)
 * and a product with R^2. Constant time (cl and h public). */
static void reduce_mod(const tabai_mont *mp, uint64_t *r, const uint64_t *c, size_t cl) {
    const size_t h = mp->n;
    uint64_t t[2 * TABAI_MAX_LIMBS + 1], acc[TABAI_MAX_LIMBS], cj[TABAI_MAX_LIMBS];
    memset(acc, 0, h * sizeof(uint64_t));
    for (size_t top = (cl + h - 1) / h; top-- > 0;) {
        const size_t lo = top * h, len = cl - lo < h ? cl - lo : h;
        memset(t, 0, (2 * h + 1) * sizeof(uint64_t));
        memcpy(t, c + lo, len * sizeof(uint64_t));
        tabai_redc_blocks(cj, t, mp->p, mp->pinv, h);
        /* cannot fail: the REDC output cj, acc and rr are < p */
        (void)!tabai_mont_mul(mp, cj, cj, mp->rr);   /* c_j mod p */
        (void)!tabai_mont_mul(mp, acc, acc, mp->rr); /* acc R mod p */
        (void)!tabai_mont_add(mp, acc, acc, cj);
    }
    memcpy(r, acc, h * sizeof(uint64_t));
    tabai_wipe(t, sizeof t), tabai_wipe(acc, sizeof acc), tabai_wipe(cj, sizeof cj);
}

tabai_status tabai_rsa_crt_exp(const tabai_mb_kernel *k, size_t count,
                               const tabai_rsa_key *const key[], uint64_t *const x[], size_t H) {
    const size_t jobs = 2 * count;
    const uint64_t **ee = malloc(jobs * sizeof *ee);
    const tabai_mont **mc = malloc(jobs * sizeof *mc);
    tabai_status s = TABAI_ERR_ALLOC;
    if (ee && mc) {
        for (size_t i = 0; i < count; i++) {
            mc[2 * i] = &key[i]->mp, mc[2 * i + 1] = &key[i]->mq;
            ee[2 * i] = key[i]->dp, ee[2 * i + 1] = key[i]->dq; /* zero above h limbs */
        }
        s = tabai_mb_powmod_jobs(k, jobs, x, (const uint64_t *const *)x, ee, 64 * H, mc, H, 1);
    }
    if (ee) tabai_wipe(ee, jobs * sizeof *ee); /* pointers only, wiped so that every */
    if (mc) tabai_wipe(mc, jobs * sizeof *mc); /* block of a private operation is zero */
    free(ee);
    free(mc);
    return s;
}

/* The working memory of one batch: per item i the two half-size values x[2i], x[2i+1]
 * (H limbs each), and NL-limb rows for the blinded input, the unblinding factor and the
 * result; a scratch per thread for the check. All wiped before it is freed. */
typedef struct priv_batch {
    const tabai_mb_kernel *k; /* the lanes' kernel, or NULL: one at a time */
    size_t count, H, NL, sl;
    const uint64_t *const *c;
    tabai_rsa_key *const *key;
    uint64_t *blk;       /* everything below, one block */
    uint64_t **x;        /* 2 count pointers into blk */
    size_t blk_limbs;
    int fault;           /* set by any item whose check fails */
} priv_batch;

static uint64_t *row(const priv_batch *b, size_t which, size_t i) {
    return b->blk + 2 * b->count * b->H + (4 * i + which) * b->NL;
}

/* items [lo, hi): blinding (c' = c A) and the reductions mod p and q */
static tabai_status priv_blind(priv_batch *b, size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; i++) {
        tabai_rsa_key *key = b->key[i];
        const tabai_mont *mn = &key->pub.mn;
        uint64_t *cb = row(b, 0, i), *ai = row(b, 1, i), *a = row(b, 2, i);
        tabai_status s = blind_take(key, a, ai);
        if (s != TABAI_OK) return s;
        if (tabai_rsa_blind_hook) tabai_rsa_blind_hook(a, key->pub.n);
        (void)!tabai_mont_mul(mn, cb, b->c[i], a); /* c A R R^-1 = c A; c < N checked */
        reduce_mod(&key->mp, b->x[2 * i], cb, key->pub.n);
        reduce_mod(&key->mq, b->x[2 * i + 1], cb, key->pub.n);
    }
    return TABAI_OK;
}

/* 1 if row 3 of item i (its m^e) differs from c[i], made public: the fault decision */
static int check_differs(const priv_batch *b, size_t i, const uint64_t *chk) {
    uint64_t diff = 0;
    for (size_t l = 0; l < b->key[i]->pub.n; l++) diff |= chk[l] ^ b->c[i][l];
    return (int)tabai_declassify(tabai_nonzero(diff));
}

/* items [lo, hi): Garner, unblinding (the result in row 2), and if check, the check
 * m^e == c (else the lanes do it afterwards) */
static tabai_status priv_finish(priv_batch *b, size_t lo, size_t hi, int check) {
    uint64_t *scratch = malloc(b->sl * sizeof(uint64_t));
    if (!scratch) return TABAI_ERR_ALLOC;
    uint64_t t[HMAX], out[TABAI_MAX_LIMBS + 1], chk[TABAI_MAX_LIMBS];
    for (size_t i = lo; i < hi; i++) {
        const tabai_rsa_key *key = b->key[i];
        const tabai_mont *mn = &key->pub.mn, *mp = &key->mp;
        const size_t hp = key->mp.n, hq = key->mq.n, nl = key->pub.n;
        uint64_t *m1 = b->x[2 * i], *m2 = b->x[2 * i + 1];
        if (tabai_rsa_fault_hook) tabai_rsa_fault_hook(m1, hp);
        /* Garner: hh = qInv (m1 - m2) mod p, m' = m2 + hh q < N (hp + hq <= nl + 1 limbs) */
        reduce_mod(mp, t, m2, hq);
        /* m1 < p unless a fault struck it: then t is left as it was, the result is wrong, and
         * the check by e below (or in the lanes) catches it */
        (void)!tabai_mont_sub(mp, t, m1, t);
        (void)!tabai_mont_mul(mp, t, t, key->qinv_m); /* cannot fail: both < p */
        memset(out, 0, sizeof out);
        tabai_mul(out, t, hp, key->mq.p, hq);
        uint64_t cy = tabai_add_n(out, out, m2, hq);
        for (size_t l = hq; l < hp + hq; l++) cy = tabai_adc(&out[l], out[l], 0, cy);
        /* m = m' r^-1 (the unblinding factor is in Montgomery form) */
        uint64_t *res = row(b, 2, i);
        (void)!tabai_mont_mul(mn, res, out, row(b, 1, i)); /* cannot fail: m' < N, r^-1 R < N */
        /* the check by the public exponent, against the caller's c */
        if (!check) continue;
        pow_e(&key->pub, chk, res, scratch, b->sl);
        (void)nl;
        if (check_differs(b, i, chk)) __atomic_store_n(&b->fault, 1, __ATOMIC_RELAXED);
    }
    tabai_wipe(t, sizeof t), tabai_wipe(out, sizeof out), tabai_wipe(chk, sizeof chk);
    tabai_wipe(scratch, b->sl * sizeof(uint64_t));
    free(scratch);
    return TABAI_OK;
}

/* items [lo, hi): row 3 = row 2 ^ e mod N through the lanes (fixed window over the longest
 * e's bits: the exponents are public), then the comparisons with c */
static tabai_status check_in_lanes(priv_batch *b, size_t lo, size_t hi) {
    const size_t count = hi - lo;
    uint64_t **r = malloc(count * sizeof *r);
    const uint64_t **base = malloc(count * sizeof *base), **e = malloc(count * sizeof *e);
    const tabai_mont **mc = malloc(count * sizeof *mc);
    tabai_status s = TABAI_ERR_ALLOC;
    if (r && base && e && mc) {
        size_t ebits = 0;
        for (size_t j = 0; j < count; j++) {
            const tabai_rsa_key *key = b->key[lo + j];
            r[j] = row(b, 3, lo + j), base[j] = row(b, 2, lo + j), e[j] = &key->pub.e;
            mc[j] = &key->pub.mn;
            size_t eb = 64 - (size_t)__builtin_clzll(key->pub.e);
            if (eb > ebits) ebits = eb;
        }
        s = tabai_mb_powmod_jobs(b->k, count, r, base, e, ebits, mc, b->NL, 1);
        for (size_t i = lo; s == TABAI_OK && i < hi; i++)
            if (check_differs(b, i, row(b, 3, i))) __atomic_store_n(&b->fault, 1, __ATOMIC_RELAXED);
    }
    if (r) tabai_wipe(r, count * sizeof *r); /* pointers only: every freed block zero */
    if (base) tabai_wipe(base, count * sizeof *base);
    if (e) tabai_wipe(e, count * sizeof *e);
    if (mc) tabai_wipe(mc, count * sizeof *mc);
    free(r), free(base), free(e), free(mc);
    return s;
}

/* items [lo, hi), the whole private operation on one thread: blinding and the reductions,
 * the CRT exponentiations in the lanes, Garner and unblinding, the check by e */
static tabai_status priv_range(void *arg, size_t lo, size_t hi) {
    priv_batch *b = arg;
    const int lanes_check = b->k != NULL && hi - lo >= 4;
    tabai_status s = priv_blind(b, lo, hi);
    if (s == TABAI_OK)
        s = tabai_rsa_crt_exp(b->k, hi - lo, (const tabai_rsa_key *const *)b->key + lo,
                              b->x + 2 * lo, b->H);
    if (s == TABAI_OK) s = priv_finish(b, lo, hi, !lanes_check);
    if (s == TABAI_OK && lanes_check) s = check_in_lanes(b, lo, hi);
    return s;
}

tabai_status tabai_rsa_private_batch_with(const tabai_mb_kernel *k, size_t count,
                                          uint64_t *const m[], const uint64_t *const c[],
                                          tabai_rsa_key *const key[], unsigned threads) {
    if (count && (!m || !c || !key)) return TABAI_ERR_NULL;
    priv_batch b = {k, count, 0, 0, 0, c, key, NULL, NULL, 0, 0};
    for (size_t i = 0; i < count; i++) {
        if (!m[i] || !c[i] || !key[i]) return TABAI_ERR_NULL;
        if (!tabai_reduced_public(c[i], key[i]->pub.mn.p, key[i]->pub.n)) return TABAI_ERR_RANGE;
        if (key[i]->mp.n > b.H) b.H = key[i]->mp.n;
        if (key[i]->mq.n > b.H) b.H = key[i]->mq.n;
        if (key[i]->pub.n > b.NL) b.NL = key[i]->pub.n;
    }
    if (count == 0) return TABAI_OK;
    b.sl = tabai_powmod_scratch_limbs(b.NL, 64);
    b.blk_limbs = 2 * count * b.H + 4 * count * b.NL;
    b.blk = calloc(b.blk_limbs, sizeof(uint64_t));
    b.x = malloc(2 * count * sizeof *b.x);
    tabai_status s = TABAI_ERR_ALLOC;
    if (!b.blk || !b.x) goto done;
    for (size_t j = 0; j < 2 * count; j++) b.x[j] = b.blk + j * b.H;
    /* one parallel region: each thread takes whole groups of messages through every step.
     * A group is what fills the lanes of the CRT step (two exponentiations a message); the
     * check by e runs in the lanes too where a thread has 4 messages or more (an 8-lane
     * exponentiation by the 17-bit e costs a few percent of the CRT pair per message
     * there), else one at a time with the scalar kernels */
    const size_t grain = k && k->lanes >= 2 ? k->lanes / 2 : 1;
    s = tabai_mb_parallel(count, grain, threads, priv_range, &b);
    if (s == TABAI_OK && b.fault) s = TABAI_ERR_FAULT;
    if (s == TABAI_OK)
        for (size_t i = 0; i < count; i++)
            memcpy(m[i], row(&b, 2, i), key[i]->pub.n * sizeof(uint64_t));
done:
    if (b.blk) tabai_wipe(b.blk, b.blk_limbs * sizeof(uint64_t));
    if (b.x) tabai_wipe(b.x, 2 * count * sizeof *b.x);
    free(b.blk);
    free(b.x);
    return s;
}

tabai_status tabai_rsa_private_batch(size_t count, uint64_t *const m[], const uint64_t *const c[],
                                     tabai_rsa_key *const key[], unsigned threads) {
    return tabai_rsa_private_batch_with(tabai_mb_kernel_active(), count, m, c, key, threads);
}

tabai_status tabai_rsa_private(tabai_rsa_key *key, uint64_t *m, const uint64_t *c) {
    if (!key || !m || !c) return TABAI_ERR_NULL;
    return tabai_rsa_private_batch(1, &m, &c, &key, 1);
}

/* ---- the public operation ---- */

typedef struct pub_batch {
    uint64_t *const *s;
    const uint64_t *const *m;
    const tabai_rsa_public_key *const *pub;
    uint64_t *out; /* count rows of NL limbs */
    size_t NL;
} pub_batch;

static tabai_status pub_range(void *arg, size_t lo, size_t hi) {
    pub_batch *b = arg;
    const size_t sl = tabai_powmod_scratch_limbs(b->NL, 64);
    uint64_t *scratch = malloc(sl * sizeof(uint64_t));
    if (!scratch) return TABAI_ERR_ALLOC;
    for (size_t i = lo; i < hi; i++) {
        const tabai_rsa_public_key *pk = b->pub[i];
        pow_e(pk, b->out + i * b->NL, b->m[i], scratch, sl); /* m[i] < N: checked */
    }
    free(scratch);
    return TABAI_OK;
}

tabai_status tabai_rsa_public_batch_vartime(size_t count, uint64_t *const s[],
                                            const uint64_t *const m[],
                                            const tabai_rsa_public_key *const pub[],
                                            unsigned threads) {
    if (count && (!s || !m || !pub)) return TABAI_ERR_NULL;
    pub_batch b = {s, m, pub, NULL, 0};
    for (size_t i = 0; i < count; i++) {
        if (!s[i] || !m[i] || !pub[i]) return TABAI_ERR_NULL;
        if (!tabai_reduced_public(m[i], pub[i]->mn.p, pub[i]->n)) return TABAI_ERR_RANGE;
        if (pub[i]->n > b.NL) b.NL = pub[i]->n;
    }
    if (count == 0) return TABAI_OK;
    b.out = malloc(count * b.NL * sizeof(uint64_t));
    if (!b.out) return TABAI_ERR_ALLOC;
    tabai_status st = tabai_mb_parallel(count, 1, threads, pub_range, &b);
    if (st == TABAI_OK)
        for (size_t i = 0; i < count; i++)
            memcpy(s[i], b.out + i * b.NL, pub[i]->n * sizeof(uint64_t));
    free(b.out);
    return st;
}

tabai_status tabai_rsa_public_vartime(const tabai_rsa_public_key *pub, uint64_t *s,
                                      const uint64_t *m) {
    if (!pub || !s || !m) return TABAI_ERR_NULL;
    return tabai_rsa_public_batch_vartime(1, &s, &m, &pub, 1);
}
