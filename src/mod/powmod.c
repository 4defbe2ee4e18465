/* Modular exponentiation on Montgomery or Ohta products.
 * Constant time: left-to-right fixed window (HAC 14.82); every window does w squarings
 * and one multiplication (by 1 for a zero window); the table entry is read by scanning
 * all 2^w entries with masks (never indexed by a secret).
 * Variable time: left-to-right sliding window over odd powers (HAC 14.85). */
#include <stdlib.h>

#include "../ifma/r52.h"
#include "mod.h"

/* One field: products in its own representation, plus the maps in and out. */
typedef struct field {
    size_t n;
    const void *ctx;
    void (*mul)(const void *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b);
    void (*sqr)(const void *ctx, uint64_t *r, const uint64_t *a);
    void (*to)(const void *ctx, uint64_t *r, const uint64_t *a);   /* normal -> field form */
    void (*from)(const void *ctx, uint64_t *r, const uint64_t *a); /* field form -> normal */
    const uint64_t *one;                                           /* 1 in field form */
} field;

static void mont_f_mul(const void *c, uint64_t *r, const uint64_t *a, const uint64_t *b) {
    const tabai_mont *m = c;
    m->mul(r, a, b, m->p, m->pinv, m->n);
}
static void mont_f_sqr(const void *c, uint64_t *r, const uint64_t *a) {
    const tabai_mont *m = c;
    m->sqr(r, a, m->p, m->pinv, m->n);
}
static void mont_f_to(const void *c, uint64_t *r, const uint64_t *a) {
    const tabai_mont *m = c;
    m->mul(r, a, m->rr, m->p, m->pinv, m->n);
}
static void mont_f_from(const void *c, uint64_t *r, const uint64_t *a) {
    const tabai_mont *m = c;
    uint64_t one[TABAI_MAX_LIMBS] = {1};
    m->mul(r, a, one, m->p, m->pinv, m->n);
}
static void ohta_f_mul(const void *c, uint64_t *r, const uint64_t *a, const uint64_t *b) {
    tabai_ohta_mul_unchecked(c, r, a, b);
}
static void ohta_f_sqr(const void *c, uint64_t *r, const uint64_t *a) {
    tabai_ohta_sqr_unchecked(c, r, a);
}
static void ohta_f_copy(const void *c, uint64_t *r, const uint64_t *a) {
    memmove(r, a, ((const tabai_ohta *)c)->n * sizeof(uint64_t));
}

static const uint64_t ONE_LIMBS[TABAI_MAX_LIMBS] = {1};

static field mont_field(const tabai_mont *m) {
    field f = {m->n, m, mont_f_mul, mont_f_sqr, mont_f_to, mont_f_from, m->one};
    return f;
}
static field ohta_field(const tabai_ohta *o) {
    /* 1 < p for p >= 2 */
    field f = {o->n, o, ohta_f_mul, ohta_f_sqr, ohta_f_copy, ohta_f_copy, ONE_LIMBS};
    return f;
}

/* TABAI_VERIFY (only inside checks): the modulus of a field; every element is < p. */
static inline const uint64_t *field_p(const field *f) {
    return f->mul == mont_f_mul ? ((const tabai_mont *)f->ctx)->p : ((const tabai_ohta *)f->ctx)->p;
}

/* Thresholds from squarings + one product per window + the table (2^w entries) + the masked
 * scan of every entry per window (its cost grows with 2^w n): on Zen 3 with the bmi2 kernels,
 * w = 5 against w = 6 measured 3.4% faster for 1024-bit exponents (1024-bit modulus), 1.5%
 * at 1536, level at 2048 (tabai_mont_powmod, both in one process, minimum of 60). */
unsigned tabai_powmod_window(size_t ebits) {
    if (ebits > 2048) return 6;
    if (ebits > 306) return 5;
    if (ebits > 89) return 4;
    if (ebits > 22) return 3;
    return 1;
}

size_t tabai_powmod_scratch_limbs(size_t n, size_t ebits) {
    const size_t scalar = (((size_t)1 << tabai_powmod_window(ebits)) + 4) * n;
    /* from 1024 bits, room for the single-number IFMA exponentiation that tier ifma runs */
    const size_t r52 = n >= 16 && n <= TABAI_MAX_LIMBS ? tabai_r52_scratch_limbs(n, ebits, 1) : 0;
    return scalar > r52 ? scalar : r52;
}

/* ent[n] = tab[idx]: reads every entry and keeps the one whose index equals idx by masks,
 * so neither the addresses nor the branches depend on idx. The masks are made once; blocks
 * of 8 limbs are accumulated in four 2-limb GNU C vectors (SSE2 on baseline x86-64) while
 * the entries stream past. entries <= 64. */
typedef uint64_t tabai_v2 __attribute__((vector_size(16), aligned(8)));

static void table_scan(uint64_t *ent, const uint64_t *tab, size_t entries, size_t n, uint64_t idx) {
    uint64_t ms[64];
    for (size_t i = 0; i < entries; i++) ms[i] = tabai_mask(tabai_eq(i, idx));
    size_t j = 0;
    for (; j + 8 <= n; j += 8) {
        tabai_v2 x0 = {0, 0}, x1 = {0, 0}, x2 = {0, 0}, x3 = {0, 0}, v0, v1, v2, v3;
        const uint64_t *t = tab + j;
        for (size_t i = 0; i < entries; i++, t += n) {
            tabai_v2 m = {ms[i], ms[i]};
            memcpy(&v0, t, 16);
            memcpy(&v1, t + 2, 16);
            memcpy(&v2, t + 4, 16);
            memcpy(&v3, t + 6, 16);
            x0 |= v0 & m;
            x1 |= v1 & m;
            x2 |= v2 & m;
            x3 |= v3 & m;
        }
        memcpy(ent + j, &x0, 16);
        memcpy(ent + j + 2, &x1, 16);
        memcpy(ent + j + 4, &x2, 16);
        memcpy(ent + j + 6, &x3, 16);
    }
    for (; j < n; j++) {
        uint64_t x = 0;
        for (size_t i = 0; i < entries; i++) x |= tab[i * n + j] & ms[i];
        ent[j] = x;
    }
}

static void powmod_ct(const field *f, uint64_t *r, const uint64_t *b, const uint64_t *e,
                      size_t ebits, uint64_t *scratch, unsigned w) {
    const size_t n = f->n, entries = (size_t)1 << w;
    uint64_t *tab = scratch, *acc = scratch + entries * n, *ent = acc + n, *bf = ent + n;
    f->to(f->ctx, bf, b);
    memcpy(tab, f->one, n * sizeof(uint64_t));
    memcpy(tab + n, bf, n * sizeof(uint64_t));
    for (size_t i = 2; i < entries; i++) {
        if (i % 2 == 0) f->sqr(f->ctx, tab + i * n, tab + (i / 2) * n);
        else f->mul(f->ctx, tab + i * n, tab + (i - 1) * n, bf);
    }
#ifdef TABAI_VERIFY
    for (size_t i = 0; i < entries; i++) TABAI_VERIFY_CHECK(tabai_lt_n(tab + i * n, field_p(f), n));
#endif
    memcpy(acc, f->one, n * sizeof(uint64_t));
    size_t nwin = (ebits + w - 1) / w;
    for (size_t win = nwin; win-- > 0;) {
        if (win != nwin - 1)
            for (unsigned s = 0; s < w; s++) f->sqr(f->ctx, acc, acc);
        uint64_t idx = tabai_window_bits(e, ebits, win * w, w);
        table_scan(ent, tab, entries, n, idx);
        TABAI_VERIFY_CHECK(idx < entries && tabai_verify_eq_n(ent, tab + idx * n, n));
        f->mul(f->ctx, acc, acc, ent);
        TABAI_VERIFY_CHECK(tabai_lt_n(acc, field_p(f), n));
    }
    f->from(f->ctx, r, acc);
    TABAI_VERIFY_CHECK(tabai_lt_n(r, field_p(f), n));
}

static void powmod_vartime(const field *f, uint64_t *r, const uint64_t *b, const uint64_t *e,
                           size_t ebits, uint64_t *scratch, unsigned w) {
    const size_t n = f->n, odd = (size_t)1 << (w - 1);
    uint64_t *tab = scratch, *acc = scratch + odd * n, *b2 = acc + n;
    f->to(f->ctx, tab, b);
    f->sqr(f->ctx, b2, tab);
    for (size_t i = 1; i < odd; i++) f->mul(f->ctx, tab + i * n, tab + (i - 1) * n, b2);
    memcpy(acc, f->one, n * sizeof(uint64_t));
    size_t i = ebits;
    while (i > 0) {
        size_t top = i - 1;
        if (!((e[top / 64] >> (top % 64)) & 1)) {
            f->sqr(f->ctx, acc, acc);
            i--;
            continue;
        }
        /* longest window <= w ending in a 1 bit: bits [lo, top] */
        size_t lo = top + 1 >= w ? top + 1 - w : 0;
        while (!((e[lo / 64] >> (lo % 64)) & 1)) lo++;
        size_t len = top - lo + 1;
        uint64_t v = tabai_window_bits(e, ebits, lo, (unsigned)len);
        for (size_t s = 0; s < len; s++) f->sqr(f->ctx, acc, acc);
        f->mul(f->ctx, acc, acc, tab + (v >> 1) * n);
        TABAI_VERIFY_CHECK((v & 1) && (v >> 1) < odd && tabai_lt_n(acc, field_p(f), n));
        i = lo;
    }
    f->from(f->ctx, r, acc);
    TABAI_VERIFY_CHECK(tabai_lt_n(r, field_p(f), n));
}

#define MAX_EBITS ((size_t)64 * TABAI_MAX_LIMBS * 2)

/* At tier ifma, the constant-time exponentiation by a Montgomery context runs in the
 * single-number radix-2^52 layout where the measured table (tabai_r52_choose) says it is
 * faster, in the caller's scratch (tabai_powmod_scratch_limbs makes room for it): 1 when done
 * (r written), 0 to take the scalar path. */
static int powmod_r52_try(const tabai_mont *m, uint64_t *r, const uint64_t *b, const uint64_t *e,
                          size_t ebits, uint64_t *scratch) {
    unsigned vl;
    /* a context made below tier ifma (its tier field) keeps its scalar kernels */
    if (m->tier < TABAI_TIER_IFMA || !tabai_r52_usable() || !tabai_r52_choose(m->bits, ebits, &vl))
        return 0;
    return tabai_powmod_r52(m, r, b, e, ebits, vl, scratch) == TABAI_OK;
}

/* The four context entry points: argument checks, then one of the two algorithms. */
static tabai_status powmod_checked(const field *f, const uint64_t *p, uint64_t *r,
                                   const uint64_t *b, const uint64_t *e, size_t ebits,
                                   uint64_t *scratch, size_t scratch_limbs, int vartime) {
    if (!r || !b || !scratch || (!e && ebits)) return TABAI_ERR_NULL;
    if (ebits > MAX_EBITS) return TABAI_ERR_SIZE;
    if (scratch_limbs < tabai_powmod_scratch_limbs(f->n, ebits)) return TABAI_ERR_SCRATCH;
    if (!tabai_reduced_public(b, p, f->n)) return TABAI_ERR_RANGE; /* public: an error */
    if (!vartime && f->mul == mont_f_mul && powmod_r52_try(f->ctx, r, b, e, ebits, scratch))
        return TABAI_OK;
    unsigned w = tabai_powmod_window(ebits);
    if (vartime) powmod_vartime(f, r, b, e, ebits, scratch, w);
    else powmod_ct(f, r, b, e, ebits, scratch, w);
    return TABAI_OK;
}

tabai_status tabai_mont_powmod(const tabai_mont *ctx, uint64_t *r, const uint64_t *b,
                               const uint64_t *e, size_t ebits, uint64_t *scratch,
                               size_t scratch_limbs) {
    if (!ctx) return TABAI_ERR_NULL;
    field f = mont_field(ctx);
    return powmod_checked(&f, ctx->p, r, b, e, ebits, scratch, scratch_limbs, 0);
}

tabai_status tabai_mont_powmod_vartime(const tabai_mont *ctx, uint64_t *r, const uint64_t *b,
                                       const uint64_t *e, size_t ebits, uint64_t *scratch,
                                       size_t scratch_limbs) {
    if (!ctx) return TABAI_ERR_NULL;
    field f = mont_field(ctx);
    return powmod_checked(&f, ctx->p, r, b, e, ebits, scratch, scratch_limbs, 1);
}

tabai_status tabai_ohta_powmod(const tabai_ohta *ctx, uint64_t *r, const uint64_t *b,
                               const uint64_t *e, size_t ebits, uint64_t *scratch,
                               size_t scratch_limbs) {
    if (!ctx) return TABAI_ERR_NULL;
    field f = ohta_field(ctx);
    return powmod_checked(&f, ctx->p, r, b, e, ebits, scratch, scratch_limbs, 0);
}

tabai_status tabai_ohta_powmod_vartime(const tabai_ohta *ctx, uint64_t *r, const uint64_t *b,
                                       const uint64_t *e, size_t ebits, uint64_t *scratch,
                                       size_t scratch_limbs) {
    if (!ctx) return TABAI_ERR_NULL;
    field f = ohta_field(ctx);
    return powmod_checked(&f, ctx->p, r, b, e, ebits, scratch, scratch_limbs, 1);
}

/* b mod m for an n-limb b and the Ohta context of m (m has ctx->n <= n limbs). */
static void reduce_any(const tabai_ohta *o, uint64_t *r, const uint64_t *b, size_t n) {
    /* Horner over limbs from the top: acc = acc*2^64 + b[i] mod m, with acc < m.
     * acc*2^64 + b[i] < m*2^64 <= m*R, so one Ohta reduction per limb. */
    const size_t mn = o->n;
    uint64_t acc[TABAI_MAX_LIMBS] = {0}, x[2 * TABAI_MAX_LIMBS];
    for (size_t i = n; i-- > 0;) {
        for (size_t j = 0; j < 2 * mn; j++) x[j] = 0;
        x[0] = b[i];
        for (size_t j = 0; j < mn; j++) x[j + 1] = acc[j];
        tabai_ohta_reduce(o, acc, x);
    }
    memcpy(r, acc, mn * sizeof(uint64_t));
}

static tabai_status powmod_any(uint64_t *r, const uint64_t *b, const uint64_t *e, size_t ebits,
                               const uint64_t *m, size_t n, int vartime) {
    if (!r || !b || !m || (!e && ebits)) return TABAI_ERR_NULL;
    if (n == 0 || n > TABAI_MAX_LIMBS) return TABAI_ERR_SIZE;
    if (ebits > MAX_EBITS) return TABAI_ERR_SIZE;
    size_t mn = tabai_normalized_len_vartime(m, n);
    if (mn == 0) return TABAI_ERR_MODULUS;
    if (mn == 1 && m[0] == 1) {
        for (size_t i = 0; i < n; i++) r[i] = 0;
        return TABAI_OK;
    }
    tabai_ohta *o = malloc(sizeof *o);
    const size_t sl = tabai_powmod_scratch_limbs(mn, ebits);
    uint64_t *scratch = malloc(sl * sizeof(uint64_t));
    tabai_mont *mc = NULL;
    uint64_t br[TABAI_MAX_LIMBS], out[TABAI_MAX_LIMBS];
    tabai_status s = TABAI_ERR_ALLOC;
    if (!o || !scratch) goto done;
    tabai_ohta_init(o, m, mn);
    reduce_any(o, br, b, n);
    field f;
    if (m[0] & 1) {
        mc = malloc(sizeof *mc);
        if (!mc) goto done;
        tabai_mont_init(mc, m, mn);
        f = mont_field(mc);
    } else {
        f = ohta_field(o);
    }
    unsigned w = tabai_powmod_window(ebits);
    if (vartime || !mc || !powmod_r52_try(mc, out, br, e, ebits, scratch)) {
        if (vartime) powmod_vartime(&f, out, br, e, ebits, scratch, w);
        else powmod_ct(&f, out, br, e, ebits, scratch, w);
    }
    for (size_t i = 0; i < n; i++) r[i] = i < mn ? out[i] : 0;
    s = TABAI_OK;
done:
    /* the modulus may be secret (a prime of a key), the base and its powers are */
    tabai_wipe_free(o, sizeof *o);
    tabai_wipe_free(mc, sizeof *mc);
    tabai_wipe_free(scratch, sl * sizeof(uint64_t));
    tabai_wipe(br, sizeof br);
    tabai_wipe(out, sizeof out);
    return s;
}

tabai_status tabai_powmod(uint64_t *r, const uint64_t *b, const uint64_t *e, size_t ebits,
                          const uint64_t *m, size_t n) {
    return powmod_any(r, b, e, ebits, m, n, 0);
}

tabai_status tabai_powmod_vartime(uint64_t *r, const uint64_t *b, const uint64_t *e, size_t ebits,
                                  const uint64_t *m, size_t n) {
    return powmod_any(r, b, e, ebits, m, n, 1);
}
