/* Shared input decoder and GMP helpers of the libFuzzer targets (see fuzz.h). */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint64_t edge_limbs[6] = {0, 1, 0x7fffffffffffffffu, 0x8000000000000000u,
                                       0xfffffffffffffffeu, 0xffffffffffffffffu};
static int asked_tier;

/* ---- input stream ---- */

void fz_begin(fz_in *in, const uint8_t *data, size_t size) {
    uint64_t h = 0xcbf29ce484222325u; /* FNV-1a of the whole input seeds the tail bytes */
    for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 0x100000001b3u;
    in->d = data;
    in->len = size;
    in->pos = 0;
    in->rng = h | 1;
    fz_clear_notes();
    asked_tier = fz_byte(in) % TABAI_TIER_COUNT;
    FZ_STATUS(tabai_cpu_set_tier((tabai_tier)asked_tier), TABAI_OK, "tabai_cpu_set_tier");
    int native = (int)tabai_cpu_native_tier();
    int want = asked_tier < native ? asked_tier : native;
    FZ_CHECK((int)tabai_cpu_tier() == want, "tabai_cpu_set_tier: the tier in use is not min(asked, native)");
}

uint8_t fz_byte(fz_in *in) {
    if (in->pos < in->len) return in->d[in->pos++];
    in->rng ^= in->rng << 13;
    in->rng ^= in->rng >> 7;
    in->rng ^= in->rng << 17;
    return (uint8_t)(in->rng >> 32);
}

uint64_t fz_u64(fz_in *in) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)fz_byte(in) << (8 * i);
    return v;
}

static unsigned fz_u16(fz_in *in) {
    unsigned lo = fz_byte(in);
    return lo | (unsigned)fz_byte(in) << 8;
}

size_t fz_size(fz_in *in, size_t max) { return 1 + fz_byte(in) % max; }

/* ---- operand classes ---- */

static void set_bit(uint64_t *a, size_t k) { a[k / 64] |= (uint64_t)1 << (k % 64); }

/* a[n] += c or -= c, mod 2^(64n) */
static void add_small(uint64_t *a, size_t n, uint64_t c, int sub) {
    for (size_t i = 0; i < n && c; i++) {
        uint64_t x = a[i];
        a[i] = sub ? x - c : x + c;
        c = sub ? (x < c) : (a[i] < c);
    }
}

void fz_limbs(fz_in *in, uint64_t *a, size_t n) {
    static const unsigned radix[8] = {52, 29, 51, 53, 22, 24, 26, 32};
    int cls = fz_byte(in) % FZ_CLASS_COUNT;
    memset(a, 0, n * sizeof(uint64_t));
    switch (cls) {
    case FZ_RAW:
    case FZ_RAW2:
        for (size_t i = 0; i < n; i++) a[i] = fz_u64(in);
        break;
    case FZ_ONES:
        for (size_t i = 0; i < n; i++) a[i] = ~(uint64_t)0;
        break;
    case FZ_ZERO: break;
    case FZ_SMALL: a[0] = fz_byte(in); break;
    case FZ_EDGE:
        for (size_t i = 0; i < n; i++) a[i] = edge_limbs[fz_byte(in) % 6];
        break;
    case FZ_POW2_PLUS:
    case FZ_POW2_MINUS: {
        size_t k = fz_u16(in) % (64 * n);
        uint64_t c = fz_byte(in);
        set_bit(a, k);
        add_small(a, n, c, cls == FZ_POW2_MINUS);
        break;
    }
    case FZ_DIGITS: {
        unsigned b = radix[fz_byte(in) % 8];
        uint64_t choice = 0;
        for (size_t d = 0, pos = 0; pos < 64 * n; d++, pos += b) {
            if (d % 4 == 0) choice = fz_byte(in);
            unsigned c = (unsigned)(choice >> (2 * (d % 4))) & 3;
            /* digit value 0, 1, 2^(b-1), 2^b - 1 */
            for (unsigned j = 0; j < b && pos + j < 64 * n; j++) {
                int on = c == 3 || (c == 1 && j == 0) || (c == 2 && j == b - 1);
                if (on) set_bit(a, pos + j);
            }
        }
        break;
    }
    case FZ_RUNS: {
        int on = fz_byte(in) & 1;
        for (size_t pos = 0; pos < 64 * n;) {
            size_t len = 1 + fz_byte(in) % 160;
            for (size_t j = 0; j < len && pos < 64 * n; j++, pos++)
                if (on) set_bit(a, pos);
            on ^= 1;
        }
        break;
    }
    case FZ_TOP:
        for (size_t i = 0; i < n; i++) a[i] = fz_u64(in);
        a[n - 1] = fz_byte(in) & 1 ? 1 : ~(uint64_t)0;
        break;
    }
}

void fz_modulus(fz_in *in, uint64_t *p, size_t n, int parity) {
    int cls = fz_byte(in) % 11;
    memset(p, 0, n * sizeof(uint64_t));
    size_t ktop = 64 * (n - 1) + fz_byte(in) % 64; /* a bit in the top limb */
    switch (cls) {
    case 0:
    case 1: /* any operand class; top limb forced non-zero half the time */
        fz_limbs(in, p, n);
        if (cls == 1 && p[n - 1] == 0) p[n - 1] = 1 + fz_byte(in);
        break;
    case 2: /* 2^(64n) - c */
        add_small(p, n, 1 + (uint64_t)fz_byte(in), 1);
        break;
    case 3: /* 2^(64(n-1)) + c: the smallest n-limb values */
        set_bit(p, 64 * (n - 1));
        add_small(p, n, fz_byte(in), 0);
        break;
    case 4: /* 2^k + c, k in the top limb: just above a power of two */
        set_bit(p, ktop);
        add_small(p, n, fz_byte(in), 0);
        break;
    case 5: /* 2^k - c: just below a power of two */
        set_bit(p, ktop);
        add_small(p, n, 1 + (uint64_t)fz_byte(in), 1);
        break;
    case 6: /* 2^k - c with a one-limb c (Solinas-like) */
        set_bit(p, ktop);
        add_small(p, n, fz_u64(in), 1);
        break;
    case 7: /* 2^(64n) - 1 */
        for (size_t i = 0; i < n; i++) p[i] = ~(uint64_t)0;
        break;
    case 8: /* raw, top limb 1 */
        fz_limbs(in, p, n);
        p[n - 1] = 1;
        break;
    case 9: /* leading zero limbs: the contexts strip them */
    {
        size_t m = fz_size(in, n);
        fz_limbs(in, p, m);
        break;
    }
    case 10: /* raw with the top bit set */
        for (size_t i = 0; i < n; i++) p[i] = fz_u64(in);
        p[n - 1] |= (uint64_t)1 << 63;
        break;
    }
    if (parity == FZ_ODD) p[0] |= 1;
}

int fz_residue(fz_in *in, uint64_t *a, const uint64_t *p, size_t n) {
    mpz_t A, P, T;
    mpz_inits(A, P, T, NULL);
    fz_to_mpz(P, p, n);
    int cls = fz_byte(in) % 15;
    switch (cls) {
    case 0:
    case 1:
    case 2: /* an operand class reduced mod p */
        fz_limbs(in, a, n);
        fz_to_mpz(A, a, n);
        mpz_mod(A, A, P);
        break;
    case 3: mpz_set_ui(A, 0); break;
    case 4: mpz_set_ui(A, 1); mpz_mod(A, A, P); break;
    case 5: mpz_sub_ui(A, P, 1); break;
    case 6: mpz_sub_ui(A, P, 2); mpz_mod(A, A, P); break;
    case 7: mpz_sub_ui(A, P, 1 + fz_byte(in)); mpz_mod(A, A, P); break;
    case 8: mpz_fdiv_q_2exp(A, P, 1); break;
    case 9: mpz_fdiv_q_2exp(A, P, 1); mpz_add_ui(A, A, 1); mpz_mod(A, A, P); break;
    case 10: /* R mod p */
        mpz_setbit(T, 64 * n);
        mpz_mod(A, T, P);
        break;
    case 11: /* p + c (unreduced unless it wraps) */
        mpz_add_ui(A, P, fz_byte(in));
        mpz_fdiv_r_2exp(A, A, 64 * n);
        break;
    case 12: /* any operand class, not reduced */
        fz_limbs(in, a, n);
        fz_to_mpz(A, a, n);
        break;
    case 13: mpz_set(A, P); break;
    case 14: /* a uniform-looking value mod p from one 64-bit seed */
        mpz_set_ui(A, fz_u64(in));
        mpz_mul(A, A, A);
        mpz_mul(A, A, P);
        mpz_add_ui(A, A, fz_byte(in));
        mpz_fdiv_q_2exp(A, A, 64);
        mpz_mod(A, A, P);
        break;
    }
    if (mpz_sgn(P) == 0) mpz_fdiv_r_2exp(A, A, 64 * n); /* p = 0: keep n limbs */
    fz_from_mpz(a, n, A);
    int reduced = mpz_cmp(A, P) < 0;
    mpz_clears(A, P, T, NULL);
    return reduced;
}

/* ---- GMP ---- */

void fz_to_mpz(mpz_t z, const uint64_t *a, size_t n) { mpz_import(z, n, -1, 8, 0, 0, a); }

void fz_from_mpz(uint64_t *a, size_t n, const mpz_t z) {
    mpz_t t;
    mpz_init(t);
    mpz_fdiv_r_2exp(t, z, 64 * n);
    size_t cnt = 0;
    memset(a, 0, n * sizeof(uint64_t));
    mpz_export(a, &cnt, -1, 8, 0, 0, t);
    mpz_clear(t);
}

int fz_eq_mpz(const uint64_t *a, size_t n, const mpz_t z) {
    mpz_t t;
    mpz_init(t);
    fz_to_mpz(t, a, n);
    int eq = mpz_cmp(t, z) == 0;
    mpz_clear(t);
    return eq;
}

size_t fz_norm(const uint64_t *a, size_t n) {
    while (n > 0 && a[n - 1] == 0) n--;
    return n;
}

/* ---- checks ---- */

#define NOTES 6
static struct {
    const char *name;
    const uint64_t *a;
    size_t n;
} notes[NOTES];
static size_t note_n;

void fz_note_n(size_t n) { note_n = n; }

void fz_note(int slot, const char *name, const uint64_t *a, size_t n) {
    if (slot < 0 || slot >= NOTES) return;
    notes[slot].name = name;
    notes[slot].a = a;
    notes[slot].n = n;
}

void fz_clear_notes(void) {
    memset(notes, 0, sizeof notes);
    note_n = 0;
}

void fz_fail(const char *file, int line, const char *what) {
    fprintf(stderr, "\ntabai fuzz: MISMATCH: %s\n  at %s:%d; tier in use %s (asked %s), n = %zu\n",
            what, file, line, tabai_cpu_name(), tabai_tier_name((tabai_tier)asked_tier), note_n);
    for (int s = 0; s < NOTES; s++) {
        if (!notes[s].name) continue;
        fprintf(stderr, "  %s = 0x", notes[s].name);
        for (size_t i = notes[s].n; i-- > 0;) fprintf(stderr, "%016llx", (unsigned long long)notes[s].a[i]);
        fprintf(stderr, "\n");
    }
    abort();
}

const char *fz_status_name(tabai_status s) {
    switch (s) {
    case TABAI_OK: return "TABAI_OK";
    case TABAI_ERR_NULL: return "TABAI_ERR_NULL";
    case TABAI_ERR_SIZE: return "TABAI_ERR_SIZE";
    case TABAI_ERR_MODULUS: return "TABAI_ERR_MODULUS";
    case TABAI_ERR_RANGE: return "TABAI_ERR_RANGE";
    case TABAI_ERR_NOINV: return "TABAI_ERR_NOINV";
    case TABAI_ERR_TIER: return "TABAI_ERR_TIER";
    case TABAI_ERR_KERNEL: return "TABAI_ERR_KERNEL";
    case TABAI_ERR_ALLOC: return "TABAI_ERR_ALLOC";
    }
    return "unknown status";
}

void fz_fail_status(const char *file, int line, const char *what, tabai_status got,
                    tabai_status want) {
    char msg[256];
    snprintf(msg, sizeof msg, "%s: status %s, want %s", what, fz_status_name(got), fz_status_name(want));
    fz_fail(file, line, msg);
}

#define SENTINEL 0x5e5e5e5e5e5e5e5eu

void fz_arm(uint64_t *r, size_t n) {
    for (size_t i = 0; i < n; i++) r[i] = SENTINEL;
}

int fz_untouched(const uint64_t *r, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (r[i] != SENTINEL) return 0;
    return 1;
}
