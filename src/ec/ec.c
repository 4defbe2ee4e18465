/* The public API of tabai_ec.h for the short-Weierstrass curves: curves, keys, ECDH
 * (SEC 1 v2 3.3.1), ECDSA (FIPS 186-5 6.4, nonces by RFC 6979) and point arithmetic. */
#include <errno.h>
#include <nettle/hmac.h>
#include <nettle/nettle-meta.h>
#include <nettle/sha2.h>
#include <nettle/sha3.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/random.h>

#include "ec.h"
#include "field.h"
#include "mb.h"

#define L9 TABAI_EC_LIMBS

const char *tabai_curve_name(tabai_curve c) {
    const tabai_ec_curve *e = tabai_ec_curve_get(c);
    return e ? e->name : NULL;
}

int tabai_curve_parse(const char *name) {
    static const struct {
        const char *s;
        tabai_curve c;
    } names[] = {{"P-256", TABAI_CURVE_P256},     {"secp256r1", TABAI_CURVE_P256},
                 {"prime256v1", TABAI_CURVE_P256}, {"P-384", TABAI_CURVE_P384},
                 {"secp384r1", TABAI_CURVE_P384},  {"P-521", TABAI_CURVE_P521},
                 {"secp521r1", TABAI_CURVE_P521},  {"secp256k1", TABAI_CURVE_SECP256K1}};
    if (!name) return -1;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcasecmp(name, names[i].s) == 0) return (int)names[i].c;
    return -1;
}

size_t tabai_ec_field_bytes(tabai_curve c) {
    const tabai_ec_curve *e = tabai_ec_curve_get(c);
    return e ? e->bytes : 0;
}

size_t tabai_ec_scalar_bytes(tabai_curve c) {
    const tabai_ec_curve *e = tabai_ec_curve_get(c);
    return e ? (e->qbits + 7) / 8 : 0;
}

tabai_status tabai_ec_curve_params(tabai_curve c, uint8_t *p, uint8_t *a, uint8_t *b,
                                   uint8_t *gx, uint8_t *gy, uint8_t *n) {
    const tabai_ec_curve *e = tabai_ec_curve_get(c);
    if (!e) return TABAI_ERR_CURVE;
    size_t L = e->bytes, Ln = (e->qbits + 7) / 8;
    if (p) tabai_ec_to_bytes(p, L, e->p, e->n);
    if (a) tabai_ec_to_bytes(a, L, e->a, e->n);
    if (b) tabai_ec_to_bytes(b, L, e->b, e->n);
    if (gx) tabai_ec_to_bytes(gx, L, e->gx, e->n);
    if (gy) tabai_ec_to_bytes(gy, L, e->gy, e->n);
    if (n) tabai_ec_to_bytes(n, Ln, e->q, e->n);
    return TABAI_OK;
}

/* ---- encodings ---- */

static size_t scalar_bytes(const tabai_ec_curve *c) { return (c->qbits + 7) / 8; }

/* A scalar 1 <= d < q from Ln big-endian bytes into d[n]; the validity (a status) is made
 * public, the value stays secret. Returns 1 if valid. */
static int scalar_load(const tabai_ec_curve *c, uint64_t *d, const uint8_t *sk) {
    memset(d, 0, L9 * 8);
    tabai_ec_from_bytes(d, c->n, sk, scalar_bytes(c));
    uint64_t ok = tabai_lt_n(d, c->q, c->n) & (1 ^ fe_is_zero(d, c->n));
    return (int)tabai_declassify(ok); /* public: decides TABAI_ERR_SCALAR */
}

/* y^2 = x^3 + a x + b, all in Montgomery form: rhs = (x^2 + a) x + b. */
static void curve_rhs(const tabai_ec_ctx *x, uint64_t *rhs, const uint64_t *px) {
    const tabai_ec_mod *m = &x->fp;
    uint64_t t[L9];
    fe_sqr(m, t, px);
    if (!x->c->a_zero) {
        uint64_t three[L9];
        fe_add(m, three, m->one, m->one);
        fe_add(m, three, three, m->one);
        fe_sub(m, t, t, three);
    }
    fe_mul(m, t, t, px);
    fe_add(m, rhs, t, x->c->b_m);
}

/* SEC 1 v2 2.3.4 and 3.2.2.1 (public input; variable time): a point into r (Z = 1), or
 * infinity for the single byte 0x00 when allow_inf. Returns 1 if valid. */
static int point_parse(const tabai_ec_ctx *x, tabai_ec_point *r, const uint8_t *in,
                       size_t len, int allow_inf) {
    const tabai_ec_curve *c = x->c;
    const tabai_ec_mod *m = &x->fp;
    size_t n = c->n, L = c->bytes;
    memset(r, 0, sizeof *r);
    if (len == 0) return 0;
    if (len == 1 && in[0] == 0) {
        if (!allow_inf) return 0;
        memcpy(r->y, m->one, n * 8);
        return 1;
    }
    uint64_t px[L9] = {0}, py[L9] = {0}, rhs[L9], t[L9];
    if (len == 1 + 2 * L && in[0] == 4) {
        tabai_ec_from_bytes(px, n, in + 1, L);
        tabai_ec_from_bytes(py, n, in + 1 + L, L);
        if (!tabai_lt_n(px, c->p, n) || !tabai_lt_n(py, c->p, n)) return 0;
        fe_mul(m, r->x, px, m->rr);
        fe_mul(m, r->y, py, m->rr);
        curve_rhs(x, rhs, r->x);
        fe_sqr(m, t, r->y);
        if (!fe_eq(t, rhs, n)) return 0;
    } else if (len == 1 + L && (in[0] == 2 || in[0] == 3)) {
        tabai_ec_from_bytes(px, n, in + 1, L);
        if (!tabai_lt_n(px, c->p, n)) return 0;
        fe_mul(m, r->x, px, m->rr);
        curve_rhs(x, rhs, r->x);
        if (x->impl) x->impl->fe_pow(r->y, rhs, c->p_sqrt, c->pbits); /* the inlined field */
        else tabai_ec_pow(m, r->y, rhs, c->p_sqrt, c->pbits);
        fe_sqr(m, t, r->y);
        if (!fe_eq(t, rhs, n)) return 0;
        uint64_t one[L9] = {1};
        fe_mul(m, py, r->y, one);
        if ((py[0] & 1) != (uint64_t)(in[0] & 1)) {
            uint64_t zero[L9] = {0};
            fe_sub(m, r->y, zero, r->y);
        }
    } else {
        return 0;
    }
    memcpy(r->z, m->one, n * 8);
    return 1;
}

/* Affine coordinates (plain, not Montgomery) of a projective point; returns 1 if the point
 * is finite (made public: infinity decides what is written, see the callers). Constant
 * time in the point otherwise. */
static void point_affine_zi(const tabai_ec_ctx *x, uint64_t *ax, uint64_t *ay,
                            const tabai_ec_point *p, const uint64_t *zi);
static int point_affine(const tabai_ec_ctx *x, uint64_t *ax, uint64_t *ay,
                        const tabai_ec_point *p) {
    uint64_t zi[L9];
    tabai_ec_fe_inv_ct(x, zi, p->z);
    point_affine_zi(x, ax, ay, p, zi);
    tabai_wipe(zi, sizeof zi);
    return (int)tabai_declassify(1 ^ fe_is_zero(p->z, x->fp.n));
}

/* The same with Z^-1 given (zi, in the field's form; signing inverts Z beside its nonce). */
static void point_affine_zi(const tabai_ec_ctx *x, uint64_t *ax, uint64_t *ay,
                            const tabai_ec_point *p, const uint64_t *zi) {
    const tabai_ec_mod *m = &x->fp;
    uint64_t one[L9] = {1};
    fe_mul(m, ax, p->x, zi);
    fe_mul(m, ax, ax, one);
    if (ay) {
        fe_mul(m, ay, p->y, zi);
        fe_mul(m, ay, ay, one);
    }
}

/* Writes a finite point as SEC1 (len 1 + 2L uncompressed or 1 + L compressed). */
static void point_write(const tabai_ec_curve *c, uint8_t *out, size_t len, const uint64_t *ax,
                        const uint64_t *ay) {
    size_t L = c->bytes;
    tabai_ec_to_bytes(out + 1, L, ax, c->n);
    if (len == 1 + 2 * L) {
        out[0] = 4;
        tabai_ec_to_bytes(out + 1 + L, L, ay, c->n);
    } else {
        out[0] = (uint8_t)(2 | (ay[0] & 1));
    }
}

/* ---- keys ---- */

tabai_status tabai_ec_public_key(tabai_curve cv, uint8_t *pk, size_t pk_len, const uint8_t *sk) {
    const tabai_ec_curve *c = tabai_ec_curve_get(cv);
    if (!c) return TABAI_ERR_CURVE;
    if (!pk || !sk) return TABAI_ERR_NULL;
    if (pk_len != 1 + 2 * c->bytes && pk_len != 1 + c->bytes) return TABAI_ERR_SIZE;
    tabai_ec_ctx x;
    tabai_ec_ctx_init(&x, c);
    uint64_t d[L9], ax[L9], ay[L9];
    tabai_status st = TABAI_OK;
    if (!scalar_load(c, d, sk)) {
        st = TABAI_ERR_SCALAR;
    } else {
        tabai_ec_point q;
        tabai_ec_mul_base_ct(&x, &q, d);
        point_affine(&x, ax, ay, &q); /* finite: 1 <= d < q */
        point_write(c, pk, pk_len, ax, ay);
        tabai_wipe(&q, sizeof q);
    }
    tabai_wipe(d, sizeof d);
    tabai_wipe(ax, sizeof ax);
    tabai_wipe(ay, sizeof ay);
    return st;
}

/* n bytes from the operating system's generator (getrandom, retried on EINTR/short). */
int tabai_ec_os_random(uint8_t *buf, size_t len) {
    size_t got = 0;
    while (got < len) {
        ssize_t r = getrandom(buf + got, len - got, 0);
        if (r < 0) {
            if (errno == EINTR) continue;
            return 0;
        }
        got += (size_t)r;
    }
    return 1;
}

tabai_status tabai_ec_keypair(tabai_curve cv, uint8_t *sk, uint8_t *pk) {
    const tabai_ec_curve *c = tabai_ec_curve_get(cv);
    if (!c) return TABAI_ERR_CURVE;
    if (!sk || !pk) return TABAI_ERR_NULL;
    size_t Ln = scalar_bytes(c);
    uint8_t buf[72];
    uint64_t d[L9];
    /* rejection sampling (FIPS 186-5 A.2.2): the top bits above qbits cleared; a candidate
     * outside [1, q-1] is dropped (whether one was dropped is public, not its value) */
    for (int tries = 0; tries < 128; tries++) {
        if (!tabai_ec_os_random(buf, Ln)) break;
        buf[0] &= (uint8_t)(0xff >> (8 * Ln - c->qbits));
        if (!scalar_load(c, d, buf)) continue;
        tabai_status st = tabai_ec_public_key(cv, pk, 1 + 2 * c->bytes, buf);
        if (st == TABAI_OK) memcpy(sk, buf, Ln);
        tabai_wipe(buf, sizeof buf);
        tabai_wipe(d, sizeof d);
        return st;
    }
    tabai_wipe(buf, sizeof buf);
    tabai_wipe(d, sizeof d);
    return TABAI_ERR_RANDOM;
}

tabai_status tabai_ec_public_key_check(tabai_curve cv, uint8_t *out, const uint8_t *pk,
                                       size_t pk_len) {
    const tabai_ec_curve *c = tabai_ec_curve_get(cv);
    if (!c) return TABAI_ERR_CURVE;
    if (!pk) return TABAI_ERR_NULL;
    tabai_ec_ctx x;
    tabai_ec_ctx_init(&x, c);
    tabai_ec_point q;
    if (!point_parse(&x, &q, pk, pk_len, 0)) return TABAI_ERR_POINT;
    if (out) { /* q is affine already (Z = 1): out of the field's form, no inversion */
        uint64_t ax[L9], ay[L9];
        point_affine_zi(&x, ax, ay, &q, x.fp.one);
        point_write(c, out, 1 + 2 * c->bytes, ax, ay);
    }
    return TABAI_OK;
}

/* ---- ECDH ---- */

tabai_status tabai_ecdh(tabai_curve cv, uint8_t *secret, const uint8_t *sk,
                        const uint8_t *peer_pk, size_t peer_len) {
    const tabai_ec_curve *c = tabai_ec_curve_get(cv);
    if (!c) return TABAI_ERR_CURVE;
    if (!secret || !sk || !peer_pk) return TABAI_ERR_NULL;
    tabai_ec_ctx x;
    tabai_ec_ctx_init(&x, c);
    tabai_ec_point q, r;
    if (!point_parse(&x, &q, peer_pk, peer_len, 0)) return TABAI_ERR_POINT;
    uint64_t d[L9], ax[L9];
    tabai_status st = TABAI_OK;
    if (!scalar_load(c, d, sk)) {
        st = TABAI_ERR_SCALAR;
    } else {
        tabai_ec_mul_ct(&x, &r, d, &q);
        point_affine(&x, ax, NULL, &r); /* finite: q prime, 1 <= d < q, Q finite */
        tabai_ec_to_bytes(secret, c->bytes, ax, c->n);
        tabai_wipe(&r, sizeof r);
        tabai_wipe(ax, sizeof ax);
    }
    tabai_wipe(d, sizeof d);
    return st;
}

/* ---- ECDSA ---- */

/* bits2int (RFC 6979 2.3.2): the leftmost qbits bits of buf[len] as an integer into r, an
 * array of L9 limbs (zero above n; the shift is public: it depends on lengths only). */
static void bits2int(const tabai_ec_curve *c, uint64_t *r, const uint8_t *buf, size_t len) {
    size_t Ln = scalar_bytes(c), n = c->n;
    memset(r, 0, L9 * 8);
    if (len == 0) return;
    size_t take = len < Ln ? len : Ln;
    tabai_ec_from_bytes(r, n, buf, take);
    if (8 * len > c->qbits) {
        unsigned s = (unsigned)(8 * take - c->qbits); /* < 8 */
        if (s) {
            for (size_t i = 0; i + 1 < n; i++) r[i] = (r[i] >> s) | (r[i + 1] << (64 - s));
            r[n - 1] >>= s;
        }
    }
}

/* r[n] < 2^qbits < 2q to r mod q by one masked subtraction. */
static void reduce_once(const tabai_ec_curve *c, uint64_t *r) {
    uint64_t t[L9];
    uint64_t bw = 0;
    for (size_t i = 0; i < c->n; i++) bw = tabai_sbb(&t[i], r[i], c->q[i], bw);
    tabai_cmov_n(r, bw, r, t, c->n);
}

/* Nettle's description of a hash (nettle-meta.h). */
static const struct nettle_hash *hash_alg(tabai_hash h) {
    switch (h) {
    case TABAI_HASH_SHA224: return &nettle_sha224;
    case TABAI_HASH_SHA256: return &nettle_sha256;
    case TABAI_HASH_SHA384: return &nettle_sha384;
    case TABAI_HASH_SHA512: return &nettle_sha512;
    case TABAI_HASH_SHA512_224: return &nettle_sha512_224;
    case TABAI_HASH_SHA512_256: return &nettle_sha512_256;
    case TABAI_HASH_SHA3_224: return &nettle_sha3_224;
    case TABAI_HASH_SHA3_256: return &nettle_sha3_256;
    case TABAI_HASH_SHA3_384: return &nettle_sha3_384;
    case TABAI_HASH_SHA3_512: return &nettle_sha3_512;
    }
    return NULL;
}

/* Room for the context of any hash of hash_alg (SHA3-224's, with the largest block, is the
 * largest). */
typedef union hash_ctx {
    struct sha256_ctx sha256;
    struct sha512_ctx sha512;
    struct sha3_224_ctx sha3;
} hash_ctx;
_Static_assert(sizeof(struct sha3_256_ctx) <= sizeof(hash_ctx) &&
                   sizeof(struct sha3_384_ctx) <= sizeof(hash_ctx) &&
                   sizeof(struct sha3_512_ctx) <= sizeof(hash_ctx),
               "hash_ctx holds the context of every hash of hash_alg");

/* RFC 6979 3.2 HMAC_DRBG state; HMAC is Nettle's (hmac.h, RFC 2104 over the hash's
 * nettle_hash: the keyed inner and outer states are kept, so a message under the same key
 * costs its own blocks and one outer block) over a message assembled in buf
 * (V || sep || int2octets(x) || bits2octets(h1) || extra: at most 64 + 1 + 2 * 66 + extra). */
typedef struct drbg {
    const struct nettle_hash *hash;
    hash_ctx outer, inner, state;
    size_t hlen;
    int keyed; /* outer, inner hold the key K: the next MAC reuses them */
    uint8_t K[64], V[64];
    uint8_t *buf;
} drbg;

/* out = HMAC_K(msg[len]) (out may be V or K; writing K drops the keyed states). */
static void drbg_hmac(drbg *g, uint8_t *out, const uint8_t *msg, size_t len) {
    uint8_t t[64];
    if (!g->keyed) hmac_set_key(&g->outer, &g->inner, &g->state, g->hash, g->hlen, g->K);
    hmac_update(&g->state, g->hash, len, msg);
    hmac_digest(&g->outer, &g->inner, &g->state, g->hash, g->hlen, t);
    g->keyed = out != g->K;
    memcpy(out, t, g->hlen);
    tabai_wipe(t, sizeof t);
}

/* K = HMAC_K(V || sep || x || h || extra); V = HMAC_K(V) (x, h, extra may be absent). */
static void drbg_step(drbg *g, uint8_t sep, const uint8_t *xo, const uint8_t *ho, size_t Ln,
                      const uint8_t *extra, size_t extra_len) {
    size_t l = 0;
    memcpy(g->buf, g->V, g->hlen);
    l += g->hlen;
    g->buf[l++] = sep;
    if (xo) {
        memcpy(g->buf + l, xo, Ln);
        memcpy(g->buf + l + Ln, ho, Ln);
        l += 2 * Ln;
        if (extra_len) memcpy(g->buf + l, extra, extra_len);
        l += extra_len;
    }
    drbg_hmac(g, g->K, g->buf, l);
    drbg_hmac(g, g->V, g->V, g->hlen);
    tabai_wipe(g->buf, l);
}

/* The next candidate T (RFC 6979 3.2 h): k = bits2int(T) into k[L9]. */
static void drbg_next(drbg *g, const tabai_ec_curve *c, uint64_t *k) {
    uint8_t t[144];
    size_t tl = 0, need = scalar_bytes(c);
    while (tl < need) {
        drbg_hmac(g, g->V, g->V, g->hlen);
        memcpy(t + tl, g->V, g->hlen);
        tl += g->hlen;
    }
    bits2int(c, k, t, tl);
    tabai_wipe(t, sizeof t);
}

static tabai_status sign_with(const tabai_ec_ctx *x, drbg *g, uint8_t *sig, const uint64_t *d,
                              const uint64_t *e, unsigned flags) {
    const tabai_ec_curve *c = x->c;
    const tabai_ec_mod *q = &x->fq;
    size_t n = c->n, Ln = scalar_bytes(c);
    uint64_t k[L9], r[L9], s[L9], t[L9], km[L9], ki[L9], dm[L9], ax[L9], zi[L9];
    tabai_ec_point R;
    tabai_status st = TABAI_ERR_FAULT;
    for (int tries = 0; tries < 64; tries++) {
        if (tries) drbg_step(g, 0, NULL, NULL, Ln, NULL, 0); /* RFC 6979 3.2 h.3 */
        drbg_next(g, c, k);
        uint64_t ok = tabai_lt_n(k, c->q, n) & (1 ^ fe_is_zero(k, n));
        if (!tabai_declassify(ok)) continue; /* public: only that a candidate was dropped */
        tabai_ec_mul_base_ct(x, &R, k);
        fe_mul(q, km, k, q->rr);              /* k R */
        tabai_ec_inv2_ct(x, zi, R.z, ki, km); /* Z^-1 and k^-1 R at once */
        point_affine_zi(x, ax, NULL, &R, zi); /* R is finite: 1 <= k < q */
        memcpy(r, ax, n * 8);
        reduce_once(c, r);                            /* x < p < 2q */
        fe_mul(q, dm, d, q->rr);                      /* d R */
        fe_mul(q, t, r, dm);                          /* r d */
        fe_add(q, t, t, e);                           /* e + r d */
        fe_mul(q, s, t, ki);                          /* k^-1 (e + r d) */
        if (flags & TABAI_ECDSA_LOW_S) tabai_ec_low_s_ct(x, s);
        /* public: r = 0 or s = 0 (probability about 2/q) restarts with the next nonce */
        if (tabai_declassify(fe_is_zero(r, n) | fe_is_zero(s, n))) continue;
        tabai_ec_to_bytes(sig, Ln, r, n);
        tabai_ec_to_bytes(sig + Ln, Ln, s, n);
        st = TABAI_OK;
        break;
    }
    tabai_wipe(k, sizeof k);
    tabai_wipe(km, sizeof km);
    tabai_wipe(ki, sizeof ki);
    tabai_wipe(dm, sizeof dm);
    tabai_wipe(t, sizeof t);
    tabai_wipe(s, sizeof s);
    tabai_wipe(ax, sizeof ax);
    tabai_wipe(zi, sizeof zi);
    tabai_wipe(&R, sizeof R);
    return st;
}

/* The first RFC 6979 candidate k in [1, q-1] (the nonce sign_with tries first) into
 * kout[n]: drbg_next fills a whole L9-limb array, so it works on a local one. */
static tabai_status nonce_first(const tabai_ec_curve *c, drbg *g, uint64_t *kout) {
    size_t Ln = scalar_bytes(c);
    uint64_t k[L9];
    tabai_status st = TABAI_ERR_FAULT;
    for (int tries = 0; tries < 64; tries++) {
        if (tries) drbg_step(g, 0, NULL, NULL, Ln, NULL, 0);
        drbg_next(g, c, k);
        if (tabai_declassify(tabai_lt_n(k, c->q, c->n) & (1 ^ fe_is_zero(k, c->n)))) {
            memcpy(kout, k, c->n * 8);
            st = TABAI_OK;
            break;
        }
    }
    tabai_wipe(k, sizeof k);
    return st;
}

/* tabai_ecdsa_sign_digest, or with kout: d, e and the first nonce into dout, eout, kout
 * (src/ec/mb.h) instead of signing. */
static tabai_status sign_digest(tabai_curve cv, uint8_t *sig, const uint8_t *sk,
                                const uint8_t *digest, size_t digest_len, tabai_hash h,
                                const uint8_t *extra, size_t extra_len, unsigned flags,
                                uint64_t *dout, uint64_t *eout, uint64_t *kout) {
    const tabai_ec_curve *c = tabai_ec_curve_get(cv);
    if (!c) return TABAI_ERR_CURVE;
    if ((!sig && !kout) || !sk || (!digest && digest_len) || (!extra && extra_len))
        return TABAI_ERR_NULL;
    const struct nettle_hash *ha = hash_alg(h);
    if (!ha) return TABAI_ERR_KERNEL;
    tabai_ec_ctx x;
    tabai_ec_ctx_init(&x, c);
    size_t n = c->n, Ln = scalar_bytes(c);
    uint64_t d[L9], e[L9];
    if (!scalar_load(c, d, sk)) {
        tabai_wipe(d, sizeof d);
        return TABAI_ERR_SCALAR;
    }
    drbg g;
    memset(&g, 0, sizeof g);
    uint8_t small[64 + 1 + 2 * 66 + 128], xo[72], ho[72];
    size_t blen = 64 + 1 + 2 * 66 + extra_len;
    g.buf = blen <= sizeof small ? small : malloc(blen);
    if (!g.buf) {
        tabai_wipe(d, sizeof d);
        return TABAI_ERR_ALLOC;
    }
    g.hash = ha;
    g.hlen = ha->digest_size;
    /* RFC 6979 3.2 a-f: h1 = digest; V = 0x01 0x01 ..., K = 0x00 0x00 ...; two steps */
    bits2int(c, e, digest, digest_len);
    reduce_once(c, e);
    tabai_ec_to_bytes(xo, Ln, d, n);
    tabai_ec_to_bytes(ho, Ln, e, n);
    memset(g.V, 1, g.hlen);
    drbg_step(&g, 0, xo, ho, Ln, extra, extra_len);
    drbg_step(&g, 1, xo, ho, Ln, extra, extra_len);
    tabai_status st = kout ? nonce_first(c, &g, kout) : sign_with(&x, &g, sig, d, e, flags);
    if (kout && st == TABAI_OK) memcpy(dout, d, n * 8), memcpy(eout, e, n * 8);
    if (st == TABAI_ERR_FAULT) st = TABAI_ERR_KERNEL; /* 64 candidates rejected */
    if (g.buf != small) free(g.buf);
    tabai_wipe(&g, sizeof g);
    tabai_wipe(small, sizeof small);
    tabai_wipe(xo, sizeof xo);
    tabai_wipe(d, sizeof d);
    return st;
}

tabai_status tabai_ecdsa_sign_digest(tabai_curve cv, uint8_t *sig, const uint8_t *sk,
                                     const uint8_t *digest, size_t digest_len, tabai_hash h,
                                     const uint8_t *extra, size_t extra_len, unsigned flags) {
    return sign_digest(cv, sig, sk, digest, digest_len, h, extra, extra_len, flags, NULL, NULL,
                       NULL);
}

tabai_status tabai_ec_sign_prepare(tabai_curve cv, uint64_t *d, uint64_t *e, uint64_t *k,
                                   const uint8_t *sk, const uint8_t *digest, size_t digest_len,
                                   tabai_hash h, const uint8_t *extra, size_t extra_len) {
    return sign_digest(cv, NULL, sk, digest, digest_len, h, extra, extra_len, 0, d, e, k);
}

void tabai_ec_digest_scalar(const tabai_ec_curve *c, uint64_t *e, const uint8_t *digest,
                            size_t digest_len) {
    uint64_t t[L9]; /* bits2int fills a whole L9-limb array; e holds n limbs */
    bits2int(c, t, digest, digest_len);
    reduce_once(c, t);
    memcpy(e, t, c->n * 8);
}

/* 1 <= v < q for a public v[n]. */
static int scalar_in_range_vartime(const tabai_ec_curve *c, const uint64_t *v) {
    return tabai_lt_n(v, c->q, c->n) && !fe_is_zero(v, c->n);
}

tabai_status tabai_ecdsa_verify_digest_vartime(tabai_curve cv, const uint8_t *pk, size_t pk_len,
                                               const uint8_t *digest, size_t digest_len,
                                               const uint8_t *sig, unsigned flags) {
    const tabai_ec_curve *c = tabai_ec_curve_get(cv);
    if (!c) return TABAI_ERR_CURVE;
    if (!pk || !sig || (!digest && digest_len)) return TABAI_ERR_NULL;
    tabai_ec_ctx x;
    tabai_ec_ctx_init(&x, c);
    const tabai_ec_mod *q = &x.fq;
    size_t n = c->n, Ln = scalar_bytes(c);
    tabai_ec_point Q, R;
    if (!point_parse(&x, &Q, pk, pk_len, 0)) return TABAI_ERR_POINT;
    uint64_t r[L9] = {0}, s[L9] = {0}, e[L9], w[L9], u1[L9], u2[L9];
    tabai_ec_from_bytes(r, n, sig, Ln);
    tabai_ec_from_bytes(s, n, sig + Ln, Ln);
    if (!scalar_in_range_vartime(c, r) || !scalar_in_range_vartime(c, s))
        return TABAI_ERR_SIGNATURE;
    if ((flags & TABAI_ECDSA_LOW_S) && tabai_lt_n(c->q_half, s, n)) return TABAI_ERR_SIGNATURE;
    bits2int(c, e, digest, digest_len);
    reduce_once(c, e);
    fe_mul(q, w, s, q->rr);
    tabai_ec_scalar_inv_vartime(&x, w, w);        /* s^-1 R */
    fe_mul(q, u1, e, w);                          /* e s^-1 */
    fe_mul(q, u2, r, w);                          /* r s^-1 */
    tabai_ec_mul2_vartime(&x, &R, u1, u2, &Q);
    const tabai_ec_mod *fp = &x.fp;
    if (fe_is_zero(R.z, n)) return TABAI_ERR_SIGNATURE;
    /* x(R) mod q == r without an inversion: X == r Z^2, or (r + q) Z^2 when r + q < p
     * (x < p < 2q, so x mod q = r means x = r or x = r + q) */
    uint64_t zz[L9], t[L9], rq[L9] = {0};
    fe_sqr(fp, zz, R.z);
    fe_mul(fp, t, r, fp->rr);
    fe_mul(fp, t, t, zz);
    if (fe_eq(t, R.x, n)) return TABAI_OK;
    uint64_t cy = 0;
    for (size_t i = 0; i < n; i++) cy = tabai_adc(&rq[i], r[i], c->q[i], cy);
    if (cy || !tabai_lt_n(rq, c->p, n)) return TABAI_ERR_SIGNATURE;
    fe_mul(fp, t, rq, fp->rr);
    fe_mul(fp, t, t, zz);
    return fe_eq(t, R.x, n) ? TABAI_OK : TABAI_ERR_SIGNATURE;
}

/* ---- point arithmetic ---- */

/* out[1 + 2L]: the point uncompressed, or 0x00 and 2L zero bytes for infinity. */
static void point_out(const tabai_ec_ctx *x, uint8_t *out, const tabai_ec_point *p) {
    uint64_t ax[L9], ay[L9];
    size_t L = x->c->bytes;
    if (point_affine(x, ax, ay, p)) {
        point_write(x->c, out, 1 + 2 * L, ax, ay);
    } else {
        memset(out, 0, 1 + 2 * L);
    }
    tabai_wipe(ax, sizeof ax);
    tabai_wipe(ay, sizeof ay);
}

tabai_status tabai_ec_point_mul(tabai_curve cv, uint8_t *out, const uint8_t *k, size_t k_len,
                                const uint8_t *pt, size_t p_len) {
    const tabai_ec_curve *c = tabai_ec_curve_get(cv);
    if (!c) return TABAI_ERR_CURVE;
    if (!out || !pt || (!k && k_len)) return TABAI_ERR_NULL;
    tabai_ec_ctx x;
    tabai_ec_ctx_init(&x, c);
    tabai_ec_point P, R;
    if (!point_parse(&x, &P, pt, p_len, 1)) return TABAI_ERR_POINT;
    /* k mod q by Horner's rule on 64-bit words from the top, acc = acc 2^64 + w mod q (the
     * first word takes the k_len mod 8 leading bytes, if any): acc 2^64 is one Montgomery
     * product by c2 = 2^64 R mod q (2^64 times R^2 mod q, Montgomery-multiplied), which keeps
     * acc a plain residue, and w < 2^64 < q enters by the modular addition. Constant time in
     * k (k_len is public). */
    uint64_t acc[L9] = {0}, w[L9] = {0}, c2[L9];
    w[1] = 1; /* 2^64 */
    fe_mul(&x.fq, c2, w, x.fq.rr);
    w[1] = 0;
    for (size_t i = 0; i < k_len;) {
        size_t take = i == 0 && k_len % 8 ? k_len % 8 : 8;
        uint64_t v = 0;
        for (size_t j = 0; j < take; j++) v = v << 8 | k[i + j];
        i += take;
        w[0] = v;
        fe_mul(&x.fq, acc, acc, c2);
        fe_add(&x.fq, acc, acc, w);
    }
    tabai_ec_mul_ct(&x, &R, acc, &P);
    point_out(&x, out, &R);
    tabai_wipe(acc, sizeof acc);
    tabai_wipe(w, sizeof w);
    tabai_wipe(&R, sizeof R);
    return TABAI_OK;
}

tabai_status tabai_ec_point_add(tabai_curve cv, uint8_t *out, const uint8_t *pt, size_t p_len,
                                const uint8_t *qt, size_t q_len) {
    const tabai_ec_curve *c = tabai_ec_curve_get(cv);
    if (!c) return TABAI_ERR_CURVE;
    if (!out || !pt || !qt) return TABAI_ERR_NULL;
    tabai_ec_ctx x;
    tabai_ec_ctx_init(&x, c);
    tabai_ec_point P, Q, R;
    if (!point_parse(&x, &P, pt, p_len, 1) || !point_parse(&x, &Q, qt, q_len, 1))
        return TABAI_ERR_POINT;
    tabai_ec_point_add_ct(&x, &R, &P, &Q);
    point_out(&x, &*out, &R);
    return TABAI_OK;
}
