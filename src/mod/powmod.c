/* Modular exponentiation on Montgomery or Ohta products.
 * Constant time: left-to-right fixed window (HAC 14.82); every window does w squarings
 * and one multiplication (by 1 for a zero window); the table entry is read by scanning
 * all 2^w entries with masks (never indexed by a secret).
 * Variable time: left-to-right sliding window over odd powers (HAC 14.85). */
#include <stdlib.h>

#include "mod.h"
#include "powmod_r52.h"

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
__attribute__((unused)) static inline const uint64_t *field_p(const field *f) {
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
        (void)!tabai_ohta_reduce(o, acc, x); /* cannot fail: x < m R (above) */
    }
    memcpy(r, acc, mn * sizeof(uint64_t));
}

/* The contexts of the convenience functions for any m >= 2 (mn limbs, top limb non-zero):
 * Ohta always (it reduces the bases), Montgomery too for odd m; the field f is Montgomery's
 * for odd m, Ohta's otherwise; scratch of sl limbs. 0 on success, else TABAI_ERR_ALLOC with
 * what was allocated left for any_close. */
typedef struct any_ctx {
    tabai_ohta *o;
    tabai_mont *mc;
    uint64_t *scratch;
    size_t sl;
    field f;
} any_ctx;

static tabai_status any_open(any_ctx *a, const uint64_t *m, size_t mn, size_t sl) {
    a->o = malloc(sizeof *a->o);
    a->mc = NULL;
    a->sl = sl;
    a->scratch = malloc(sl * sizeof(uint64_t));
    if (!a->o || !a->scratch) return TABAI_ERR_ALLOC;
    tabai_status s = tabai_ohta_init(a->o, m, mn);
    if (s != TABAI_OK) return s;
    if (m[0] & 1) {
        a->mc = malloc(sizeof *a->mc);
        if (!a->mc) return TABAI_ERR_ALLOC;
        s = tabai_mont_init(a->mc, m, mn);
        if (s != TABAI_OK) return s;
        a->f = mont_field(a->mc);
    } else {
        a->f = ohta_field(a->o);
    }
    return TABAI_OK;
}

/* the modulus may be secret (a prime of a key), the bases and their powers are */
static void any_close(any_ctx *a) {
    tabai_wipe_free(a->o, sizeof *a->o);
    tabai_wipe_free(a->mc, sizeof *a->mc);
    tabai_wipe_free(a->scratch, a->sl * sizeof(uint64_t));
}

/* r[n] = 0 for m = 1 (1); 0 otherwise */
static int any_mod_one(uint64_t *r, const uint64_t *m, size_t mn, size_t n) {
    if (mn != 1 || m[0] != 1) return 0;
    for (size_t i = 0; i < n; i++) r[i] = 0;
    return 1;
}

static tabai_status powmod_any(uint64_t *r, const uint64_t *b, const uint64_t *e, size_t ebits,
                               const uint64_t *m, size_t n, int vartime) {
    if (!r || !b || !m || (!e && ebits)) return TABAI_ERR_NULL;
    if (n == 0 || n > TABAI_MAX_LIMBS) return TABAI_ERR_SIZE;
    if (ebits > MAX_EBITS) return TABAI_ERR_SIZE;
    size_t mn = tabai_normalized_len_vartime(m, n);
    if (mn == 0) return TABAI_ERR_MODULUS;
    if (any_mod_one(r, m, mn, n)) return TABAI_OK;
    any_ctx a;
    uint64_t br[TABAI_MAX_LIMBS], out[TABAI_MAX_LIMBS];
    tabai_status s = any_open(&a, m, mn, tabai_powmod_scratch_limbs(mn, ebits));
    if (s == TABAI_OK) {
        reduce_any(a.o, br, b, n);
        unsigned w = tabai_powmod_window(ebits);
        if (vartime || !a.mc || !powmod_r52_try(a.mc, out, br, e, ebits, a.scratch)) {
            if (vartime) powmod_vartime(&a.f, out, br, e, ebits, a.scratch, w);
            else powmod_ct(&a.f, out, br, e, ebits, a.scratch, w);
        }
        for (size_t i = 0; i < n; i++) r[i] = i < mn ? out[i] : 0;
        tabai_wipe(br, sizeof br);
        tabai_wipe(out, sizeof out);
    }
    any_close(&a);
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

/* ---------------------------------------------------------------------------------------
 * Simultaneous double exponentiation r = a1^e1 * a2^e2 mod p for public exponents:
 * Straus's trick with interleaved sliding windows (Moller, "Algorithms for
 * multi-exponentiation", SAC 2001, section 3.2; HAC 14.88 for the joint-table form). One
 * chain of max(e1bits, e2bits) squarings is shared; each exponent is cut into its own
 * left-to-right sliding windows over odd powers (HAC 14.85), with its own window size,
 * and its window's table entry is multiplied in at the bit where the window ends.
 * --------------------------------------------------------------------------------------- */

/* The sliding-window width with the fewest products for an ebits-bit exponent: a table of
 * 2^(w-1) odd powers (2^(w-1) products with b^2) plus about ebits/(w+1) window products. */
static unsigned powmod2_window(size_t ebits) {
    unsigned best = 1;
    size_t cost = ebits + 1;
    for (unsigned w = 2; w <= 7; w++) {
        size_t c = ((size_t)1 << (w - 1)) + ebits / (w + 1);
        if (c < cost) cost = c, best = w;
    }
    return best;
}

size_t tabai_powmod2_scratch_limbs(size_t n, size_t e1bits, size_t e2bits) {
    /* two tables of odd powers, the accumulator and the square of a base */
    return (((size_t)1 << (powmod2_window(e1bits) - 1)) +
            ((size_t)1 << (powmod2_window(e2bits) - 1)) + 2) * n;
}

/* the sliding-window state of one exponent: the next window is bits [lo, top] of value v
 * (odd); lo == SIZE_MAX when no window is left */
typedef struct win_state {
    const uint64_t *e;
    size_t ebits, lo;
    uint64_t v;
    unsigned w;
} win_state;

static int bit_at(const uint64_t *e, size_t i) { return (int)((e[i / 64] >> (i % 64)) & 1); }

/* the highest window whose top bit is below `below` */
static void win_next(win_state *s, size_t below) {
    size_t top = below;
    while (top > 0 && !bit_at(s->e, top - 1)) top--;
    if (top == 0) {
        s->lo = SIZE_MAX;
        return;
    }
    top--;
    size_t lo = top + 1 >= s->w ? top + 1 - s->w : 0;
    while (!bit_at(s->e, lo)) lo++;
    s->lo = lo;
    s->v = tabai_window_bits(s->e, s->ebits, lo, (unsigned)(top - lo + 1));
}

/* tab[i] = a^(2i+1) in field form for i < 2^(w-1), with a2 as the square's room */
static void odd_powers(const field *f, uint64_t *tab, uint64_t *a2, const uint64_t *a, unsigned w) {
    const size_t n = f->n, odd = (size_t)1 << (w - 1);
    f->to(f->ctx, tab, a);
    if (odd == 1) return;
    f->sqr(f->ctx, a2, tab);
    for (size_t i = 1; i < odd; i++) f->mul(f->ctx, tab + i * n, tab + (i - 1) * n, a2);
}

static void powmod2_vartime(const field *f, uint64_t *r, const uint64_t *a1, const uint64_t *e1,
                            size_t e1bits, const uint64_t *a2, const uint64_t *e2, size_t e2bits,
                            uint64_t *scratch) {
    const size_t n = f->n;
    win_state s[2] = {{e1, e1bits, 0, 0, powmod2_window(e1bits)},
                      {e2, e2bits, 0, 0, powmod2_window(e2bits)}};
    uint64_t *tab[2];
    tab[0] = scratch;
    tab[1] = tab[0] + ((size_t)1 << (s[0].w - 1)) * n;
    uint64_t *acc = tab[1] + ((size_t)1 << (s[1].w - 1)) * n, *sq = acc + n;
    /* tables built before acc is written: r and acc never alias a1 or a2 here */
    const uint64_t *a[2] = {a1, a2};
    for (int k = 0; k < 2; k++) {
        win_next(&s[k], s[k].ebits);
        if (s[k].lo != SIZE_MAX) odd_powers(f, tab[k], sq, a[k], s[k].w);
    }
    int started = 0; /* acc == 1 until the first window: no squaring, a copy for its product */
    size_t top = e1bits > e2bits ? e1bits : e2bits;
    for (size_t i = top; i-- > 0;) {
        if (started) f->sqr(f->ctx, acc, acc);
        for (int k = 0; k < 2; k++) {
            if (s[k].lo != i) continue;
            const uint64_t *t = tab[k] + (s[k].v >> 1) * n;
            TABAI_VERIFY_CHECK((s[k].v & 1) && (s[k].v >> 1) < ((size_t)1 << (s[k].w - 1)));
            if (started) f->mul(f->ctx, acc, acc, t);
            else memcpy(acc, t, n * sizeof(uint64_t)), started = 1;
            win_next(&s[k], i);
        }
    }
    if (!started) memcpy(acc, f->one, n * sizeof(uint64_t));
    f->from(f->ctx, r, acc);
    TABAI_VERIFY_CHECK(tabai_lt_n(r, field_p(f), n));
}

static tabai_status powmod2_checked(const field *f, const uint64_t *p, uint64_t *r,
                                    const uint64_t *a1, const uint64_t *e1, size_t e1bits,
                                    const uint64_t *a2, const uint64_t *e2, size_t e2bits,
                                    uint64_t *scratch, size_t scratch_limbs) {
    if (!r || !a1 || !a2 || !scratch || (!e1 && e1bits) || (!e2 && e2bits)) return TABAI_ERR_NULL;
    if (e1bits > MAX_EBITS || e2bits > MAX_EBITS) return TABAI_ERR_SIZE;
    if (scratch_limbs < tabai_powmod2_scratch_limbs(f->n, e1bits, e2bits)) return TABAI_ERR_SCRATCH;
    if (!tabai_reduced_public(a1, p, f->n) || !tabai_reduced_public(a2, p, f->n))
        return TABAI_ERR_RANGE;
    powmod2_vartime(f, r, a1, e1, e1bits, a2, e2, e2bits, scratch);
    return TABAI_OK;
}

tabai_status tabai_mont_powmod2_vartime(const tabai_mont *ctx, uint64_t *r, const uint64_t *a1,
                                        const uint64_t *e1, size_t e1bits, const uint64_t *a2,
                                        const uint64_t *e2, size_t e2bits, uint64_t *scratch,
                                        size_t scratch_limbs) {
    if (!ctx) return TABAI_ERR_NULL;
    field f = mont_field(ctx);
    return powmod2_checked(&f, ctx->p, r, a1, e1, e1bits, a2, e2, e2bits, scratch, scratch_limbs);
}

tabai_status tabai_ohta_powmod2_vartime(const tabai_ohta *ctx, uint64_t *r, const uint64_t *a1,
                                        const uint64_t *e1, size_t e1bits, const uint64_t *a2,
                                        const uint64_t *e2, size_t e2bits, uint64_t *scratch,
                                        size_t scratch_limbs) {
    if (!ctx) return TABAI_ERR_NULL;
    field f = ohta_field(ctx);
    return powmod2_checked(&f, ctx->p, r, a1, e1, e1bits, a2, e2, e2bits, scratch, scratch_limbs);
}

tabai_status tabai_powmod2_vartime(uint64_t *r, const uint64_t *a1, const uint64_t *e1,
                                   size_t e1bits, const uint64_t *a2, const uint64_t *e2,
                                   size_t e2bits, const uint64_t *m, size_t n) {
    if (!r || !a1 || !a2 || !m || (!e1 && e1bits) || (!e2 && e2bits)) return TABAI_ERR_NULL;
    if (n == 0 || n > TABAI_MAX_LIMBS) return TABAI_ERR_SIZE;
    if (e1bits > MAX_EBITS || e2bits > MAX_EBITS) return TABAI_ERR_SIZE;
    size_t mn = tabai_normalized_len_vartime(m, n);
    if (mn == 0) return TABAI_ERR_MODULUS;
    if (any_mod_one(r, m, mn, n)) return TABAI_OK;
    any_ctx a;
    uint64_t b1[TABAI_MAX_LIMBS], b2[TABAI_MAX_LIMBS], out[TABAI_MAX_LIMBS];
    tabai_status s = any_open(&a, m, mn, tabai_powmod2_scratch_limbs(mn, e1bits, e2bits));
    if (s == TABAI_OK) {
        reduce_any(a.o, b1, a1, n);
        reduce_any(a.o, b2, a2, n);
        powmod2_vartime(&a.f, out, b1, e1, e1bits, b2, e2, e2bits, a.scratch);
        for (size_t i = 0; i < n; i++) r[i] = i < mn ? out[i] : 0;
        /* the bases may be secret (only the exponents are public) */
        tabai_wipe(b1, sizeof b1);
        tabai_wipe(b2, sizeof b2);
        tabai_wipe(out, sizeof out);
    }
    any_close(&a);
    return s;
}

/* ---------------------------------------------------------------------------------------
 * Fixed-base exponentiation r = g^e mod p by the comb method (Lim and Lee, CRYPTO '94;
 * HAC 14.117 in its one-table form): the ebits-bit exponent is written as `rows` rows of
 * d = ceil(ebits/rows) bits; a table of the 2^rows products of g^(2^(i*d)) over the
 * subsets of rows, made once per base, turns the exponentiation into d squarings and d
 * products, each with an entry picked by the d-th column's bits. Constant time in e: the
 * entry is read by the masked scan of every entry (table_scan), a column of zeros
 * multiplies by the entry for 1.
 * --------------------------------------------------------------------------------------- */

size_t tabai_powmod_base_table_limbs(size_t n, unsigned rows) {
    return rows >= 1 && rows <= TABAI_POWMOD_BASE_MAX_ROWS ? ((size_t)1 << rows) * n : 0;
}

unsigned tabai_powmod_base_rows(size_t ebits) {
    /* 2048-bit p, 257-bit exponents (DSA): 5 and 6 rows measured alike (about 3.3x fewer
     * ticks than tabai_mont_powmod), 4 rows 1.3x slower; 5 keeps the table at 32 entries */
    if (ebits <= 24) return 2;
    if (ebits <= 96) return 4;
    return 5;
}

static int base_args_ok(size_t n, size_t ebits, unsigned rows, size_t table_limbs) {
    return rows >= 1 && rows <= TABAI_POWMOD_BASE_MAX_ROWS && ebits >= 1 &&
           ebits <= MAX_EBITS && table_limbs >= tabai_powmod_base_table_limbs(n, rows);
}

tabai_status tabai_mont_powmod_base_table(const tabai_mont *ctx, uint64_t *table,
                                          size_t table_limbs, const uint64_t *g, size_t ebits,
                                          unsigned rows) {
    if (!ctx || !table || !g) return TABAI_ERR_NULL;
    const size_t n = ctx->n;
    if (!base_args_ok(n, ebits, rows, table_limbs)) return TABAI_ERR_SIZE;
    if (!tabai_reduced_public(g, ctx->p, n)) return TABAI_ERR_RANGE;
    const field f = mont_field(ctx);
    const size_t d = (ebits + rows - 1) / rows, entries = (size_t)1 << rows;
    memcpy(table, f.one, n * sizeof(uint64_t));
    f.to(f.ctx, table + n, g);
    /* the single rows: table[2^i] = g^(2^(i*d)) */
    for (unsigned i = 1; i < rows; i++) {
        uint64_t *t = table + ((size_t)1 << i) * n;
        memcpy(t, table + ((size_t)1 << (i - 1)) * n, n * sizeof(uint64_t));
        for (size_t s = 0; s < d; s++) f.sqr(f.ctx, t, t);
    }
    /* the subsets: table[j] = table[j minus its top bit] * table[its top bit] */
    for (size_t j = 3; j < entries; j++) {
        size_t top = (size_t)1 << (63 - __builtin_clzll((unsigned long long)j));
        if (j != top) f.mul(f.ctx, table + j * n, table + (j - top) * n, table + top * n);
    }
    return TABAI_OK;
}

tabai_status tabai_mont_powmod_base(const tabai_mont *ctx, uint64_t *r, const uint64_t *e,
                                    size_t ebits, const uint64_t *table, size_t table_limbs,
                                    unsigned rows) {
    if (!ctx || !r || !e || !table) return TABAI_ERR_NULL;
    const size_t n = ctx->n;
    if (!base_args_ok(n, ebits, rows, table_limbs)) return TABAI_ERR_SIZE;
    const field f = mont_field(ctx);
    const size_t d = (ebits + rows - 1) / rows, entries = (size_t)1 << rows;
    uint64_t acc[TABAI_MAX_LIMBS], ent[TABAI_MAX_LIMBS];
    for (size_t c = d; c-- > 0;) {
        /* the column's bits: positions are public, the bits are not */
        uint64_t idx = 0;
        for (unsigned i = 0; i < rows; i++) {
            size_t pos = c + (size_t)i * d;
            if (pos < ebits) idx |= ((e[pos / 64] >> (pos % 64)) & 1) << i;
        }
        table_scan(ent, table, entries, n, idx);
        if (c == d - 1) {
            memcpy(acc, ent, n * sizeof(uint64_t));
        } else {
            f.sqr(f.ctx, acc, acc);
            f.mul(f.ctx, acc, acc, ent);
        }
    }
    f.from(f.ctx, r, acc);
    TABAI_VERIFY_CHECK(tabai_lt_n(r, ctx->p, n));
    tabai_wipe(acc, sizeof acc);
    tabai_wipe(ent, sizeof ent);
    return TABAI_OK;
}
