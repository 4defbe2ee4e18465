/* Modular inversion by Bernstein and Yang's safegcd ("Fast constant-time gcd computation
 * and modular inversion", TCHES 2019(3)), for odd moduli: constant time up to 9 limbs of 64
 * bits (the curves' sizes), variable time up to TABAI_MAX_LIMBS.
 *
 * The iteration is the "half-delta" divstep (hddivstep) of P. Wuille's analysis
 * ("Bounds on divsteps iterations in safegcd", github.com/sipa/safegcd-bounds): the
 * paper's divstep started from delta = 1/2. With h = 2 delta (an odd integer, 1 at the
 * start) one step on (h, f odd, g) is
 *     h > 0 and g odd:  (h, f, g) <- (2 - h, g, (g - f) / 2)
 *     g odd otherwise:  (h, f, g) <- (2 + h, f, (g + f) / 2)
 *     g even:           (h, f, g) <- (2 + h, f, g / 2)
 * Started from (1, m, a) with 0 <= a < m < 2^bits, g reaches 0 (and f = +-gcd) within
 * floor((3787 bits + 2166) / 1644) steps (ibid., checked for every 4257874 <= M <= 2^3805
 * with 0 <= g <= f <= M, and machine-checked in Coq there for 590 steps at 256 bits): 591,
 * 885 and 1201 steps for 256, 384 and 521 bits, against the paper's own bound
 * floor((49 bits + 57) / 17) = 741, 1110, 1505 for divsteps from delta = 1.
 *
 * Layout (the paper's batched "jump" divsteps, 62 steps a batch): numbers in signed
 * radix 2^62, L limbs: limbs 0..L-2 in [0, 2^62), the top limb a signed int64. 62 steps
 * run on the low 64 bits of f and g only, giving a matrix T = (u v; q r) with
 * 2^62 (f', g') = T (f, g) and |u| + |v| <= 2^62, |q| + |r| <= 2^62; T is then applied to
 * the full f and g (exact division by 2^62) and to the cofactors d, e (d a = f and
 * e a = g mod m at every batch, from d = 0, e = 1): there the
 * division by 2^62 is made exact by adding md m, md chosen before the pass from the low
 * limbs and the signs of d and e (update_de, libsecp256k1's arrangement), so that d, e stay
 * in (-2m, m) at every batch. At the end f = +-1 and the inverse is sign(f) d mod m.
 *
 * The constant-time form runs the bound's number of steps in the same batches, each two
 * runs of 31 steps with the matrix rows packed a word each (below), its steps by
 * selects (cmov on x86-64, masks elsewhere: no branch, no table, no division); the _vartime
 * form takes batches of 62, skips runs of even g by counting trailing zeros and stops as
 * soon as g = 0. tabai_modinv2_safegcd runs two constant-time inversions with their steps
 * side by side in one loop (a step is one serial chain). */
#include "mod.h"

#define M62 (((uint64_t)1 << 62) - 1)
#define S62_MAX ((64 * TABAI_MAX_LIMBS + 1 + 61) / 62) /* 8192 bits and the sign */

typedef __int128 s128;

/* 2^62 (f', g') = (u f + v g, q f + r g) */
typedef struct {
    int64_t u, v, q, r;
} s62_mat;

/* The constant-time steps keep each row of the matrix packed in one word: (x, y) as the
 * integer x + 2^32 y, exact in 64 bits while |x| + |y| <= 2^31 (a row's |x| + |y| at most
 * doubles a step). Negation, doubling and a select of whole words act on both entries at
 * once, so a step updates two words where the rows took four. A batch is two runs of 31
 * steps on the same low words of f and g (33 bits of them are still valid after the first
 * run), the two matrices then multiplied, T = T2 T1 (entries and row sums at most 2^62).
 * The f row is doubled after each step but a run's last (its packed word would reach 2^63)
 * and doubled when unpacked; the g row's y is odd (1 at the start, changed by the f row's
 * even y), so its |x| < 2^31 and the sign extension of the low half recovers x. */
#define CT_STEPS 31

/* One hddivstep on (z, f, g) and the packed rows fr = (u, v), gr = (q, r), constant time,
 * with z = (-h - 1) / 2 in place of h (h > 0 exactly when z < 0): h' = h + 2 is z' = z - 1
 * and the swap's h' = 2 - h is z' = -z - 2 = ~z - 1. Each new value comes from the old ones
 * only: on the swap's condition (h > 0, g odd) f' = g and fr' = gr (else fr' = fr; the
 * caller doubles fr) by selects, and g' = (g + x) / 2 with x = -f when h > 0 and f
 * otherwise, added when g is odd; gr' = gr + (fr or -fr) alike. */
#if defined(__x86_64__)
/* The step in x86-64 assembly: the selects by cmov on the flags of two tests (g's parity;
 * the swap's condition, bit 0 of g & pos), no masks formed: 19 integer operations and the
 * caller's doubling, where the compiler's code for the mask form below took 26 (the step is
 * bound by the four integer ALUs, not by its chain of about five). cmov's latency does not
 * depend on its condition. */
#define DIVSTEP_CT(z, f, g, fr, gr)                                                                \
    do {                                                                                           \
        uint64_t p_, x_, y_, s_, t_;                                                               \
        __asm__("movq %[Z_], %[P_]\n\t"                                                            \
                "sarq $63, %[P_]\n\t" /* pos: all ones iff h > 0 */                                \
                "movq %[Z_], %[S_]\n\t"                                                            \
                "shrq $63, %[S_]\n\t" /* pos & 1 */                                                \
                "movq %[F_], %[X_]\n\t"                                                            \
                "xorq %[P_], %[X_]\n\t"                                                            \
                "subq %[P_], %[X_]\n\t" /* x = -f if h > 0, else f */                              \
                "movq %[FR_], %[Y_]\n\t"                                                           \
                "xorq %[P_], %[Y_]\n\t"                                                            \
                "subq %[P_], %[Y_]\n\t" /* y = -fr or fr */                                        \
                "xorl %k[T_], %k[T_]\n\t"                                                          \
                "testq $1, %[G_]\n\t"                                                              \
                "cmovzq %[T_], %[X_]\n\t" /* g even: nothing added */                              \
                "cmovzq %[T_], %[Y_]\n\t"                                                          \
                "leaq -1(%[Z_]), %[T_]\n\t" /* z - 1 */                                            \
                "notq %[Z_]\n\t"                                                                   \
                "subq $1, %[Z_]\n\t"     /* ~z - 1 */                                              \
                "testq %[S_], %[G_]\n\t" /* the swap's condition: h > 0 and g odd */               \
                "cmovzq %[T_], %[Z_]\n\t"                                                          \
                "cmovnzq %[G_], %[F_]\n\t" /* the swap: f = g, fr = gr (the old ones) */           \
                "cmovnzq %[GR_], %[FR_]\n\t"                                                       \
                "addq %[X_], %[G_]\n\t"                                                            \
                "shrq $1, %[G_]\n\t"                                                               \
                "addq %[Y_], %[GR_]\n\t"                                                           \
                : [Z_] "+r"(z), [F_] "+r"(f), [G_] "+r"(g), [FR_] "+r"(fr), [GR_] "+r"(gr),        \
                  [P_] "=&r"(p_), [X_] "=&r"(x_), [Y_] "=&r"(y_), [S_] "=&r"(s_), [T_] "=&r"(t_)   \
                :                                                                                  \
                : "cc");                                                                           \
    } while (0)
#else
#define DIVSTEP_CT(z, f, g, fr, gr)                                                                \
    do {                                                                                           \
        uint64_t pos_ = (uint64_t)((int64_t)(z) >> 63); /* all ones iff h > 0 */                   \
        uint64_t odd_ = tabai_vb(0 - (g & 1)), sw_ = pos_ & odd_;                                  \
        uint64_t f_ = f ^ ((f ^ g) & sw_), fr_ = fr ^ ((fr ^ gr) & sw_);                           \
        g = (g + (((f ^ pos_) - pos_) & odd_)) >> 1;                                               \
        gr += ((fr ^ pos_) - pos_) & odd_;                                                         \
        f = f_, fr = fr_;                                                                          \
        z = (z ^ sw_) - 1;                                                                         \
    } while (0)
#endif

/* (x, y) of a packed row, -2^31 <= x < 2^31 */
TABAI_INLINE void unpack_row(int64_t *x, int64_t *y, uint64_t w) {
    *x = (int64_t)(w << 32) >> 32;
    *y = (int64_t)(w - (uint64_t)*x) >> 32;
}

/* t = T2 T1: the two runs' matrices, f rows undoubled in fr1, fr2, made one */
TABAI_INLINE void join_runs(s62_mat *t, uint64_t fr1, uint64_t gr1, uint64_t fr2, uint64_t gr2) {
    int64_t u1, v1, q1, r1, u2, v2, q2, r2;
    unpack_row(&u1, &v1, fr1), unpack_row(&q1, &r1, gr1);
    unpack_row(&u2, &v2, fr2), unpack_row(&q2, &r2, gr2);
    u1 *= 2, v1 *= 2, u2 *= 2, v2 *= 2;
    t->u = u2 * u1 + v2 * q1, t->v = u2 * v1 + v2 * r1;
    t->q = q2 * u1 + r2 * q1, t->r = q2 * v1 + r2 * r1;
}

/* 62 hddivsteps from (h, f, g), of which only the low 64 bits of f and g are needed (bit i
 * of g is valid for the step i reads it); returns the new h, constant time. */
static int64_t divsteps62_ct(int64_t h, uint64_t f, uint64_t g, s62_mat *t) {
    uint64_t z = (uint64_t)(~h >> 1), fr[2], gr[2]; /* h odd: ~h = -h - 1 is even */
    for (int k = 0; k < 2; k++) {
        uint64_t a = 1, b = (uint64_t)1 << 32;
        for (int i = 0; i < CT_STEPS - 1; i++) {
            DIVSTEP_CT(z, f, g, a, b);
            a <<= 1;
        }
        DIVSTEP_CT(z, f, g, a, b);
        fr[k] = a, gr[k] = b;
    }
    join_runs(t, fr[0], gr[0], fr[1], gr[1]);
    return ~(int64_t)(z << 1); /* h = -2 z - 1 */
}

/* The same 62 steps for two independent inversions at once, their steps side by side: a
 * step is one chain of dependent operations, so one inversion leaves much of the core idle
 * and two in one loop take less than two in turn. */
static void divsteps62x2_ct(int64_t *h, const uint64_t *f0, const uint64_t *g0, s62_mat *t) {
    uint64_t f = f0[0], g = g0[0], F = f0[1], G = g0[1];
    uint64_t z = (uint64_t)(~h[0] >> 1), Z = (uint64_t)(~h[1] >> 1), fr[2], gr[2], FR[2], GR[2];
    for (int k = 0; k < 2; k++) {
        uint64_t a = 1, b = (uint64_t)1 << 32, A = 1, B = (uint64_t)1 << 32;
        for (int i = 0; i < CT_STEPS - 1; i++) {
            DIVSTEP_CT(z, f, g, a, b);
            DIVSTEP_CT(Z, F, G, A, B);
            a <<= 1, A <<= 1;
        }
        DIVSTEP_CT(z, f, g, a, b);
        DIVSTEP_CT(Z, F, G, A, B);
        fr[k] = a, gr[k] = b, FR[k] = A, GR[k] = B;
    }
    join_runs(&t[0], fr[0], gr[0], fr[1], gr[1]);
    join_runs(&t[1], FR[0], GR[0], FR[1], GR[1]);
    h[0] = ~(int64_t)(z << 1), h[1] = ~(int64_t)(Z << 1);
}

/* The same 62 steps, variable time: a run of z even steps at once. */
static int64_t divsteps62_vartime(int64_t h, uint64_t f, uint64_t g, s62_mat *t) {
    uint64_t u = 1, v = 0, q = 0, r = 1;
    int left = 62;
    for (;;) {
        int z = __builtin_ctzll(g | ((uint64_t)1 << left)); /* <= left */
        g >>= z, u <<= z, v <<= z, h += 2 * z, left -= z;
        if (!left) break;
        if (h > 0) { /* g odd: swap */
            uint64_t w = f;
            f = g, g = 0 - w;
            w = u, u = q, q = 0 - w;
            w = v, v = r, r = 0 - w;
            h = -h;
        }
        h += 2, g += f, q += u, r += v;
        g >>= 1, u <<= 1, v <<= 1, left--;
    }
    t->u = (int64_t)u, t->v = (int64_t)v, t->q = (int64_t)q, t->r = (int64_t)r;
    return h;
}

/* (f, g) <- T (f, g) / 2^62, exact. */
TABAI_INLINE void update_fg(int64_t *f, int64_t *g, const s62_mat *t, size_t L) {
    s128 cf = (s128)t->u * f[0] + (s128)t->v * g[0];
    s128 cg = (s128)t->q * f[0] + (s128)t->r * g[0];
    cf >>= 62, cg >>= 62; /* the low 62 bits are zero */
    for (size_t i = 1; i < L; i++) {
        cf += (s128)t->u * f[i] + (s128)t->v * g[i];
        cg += (s128)t->q * f[i] + (s128)t->r * g[i];
        f[i - 1] = (int64_t)((uint64_t)cf & M62), cf >>= 62;
        g[i - 1] = (int64_t)((uint64_t)cg & M62), cg >>= 62;
    }
    f[L - 1] = (int64_t)cf, g[L - 1] = (int64_t)cg;
}

/* (d, e) <- (T (d, e) + m (md, me)) / 2^62, one pass (the arrangement of libsecp256k1's
 * modinv64 update_de): md and me are chosen before the pass, from the low limbs and the
 * signs of d and e, so that the sums are divisible by 2^62: md starts as u when d < 0 plus
 * v when e < 0, then loses (md - minv (u d0 + v e0)) mod 2^62 (minv = -m^-1 mod 2^64).
 * d, e in (-2m, m) give d', e' in (-2m, m) for |u| + |v|, |q| + |r| <= 2^62 (ibid.). */
TABAI_INLINE void update_de(int64_t *d, int64_t *e, const s62_mat *t, const int64_t *m,
                            uint64_t minv, size_t L) {
    const int64_t u = t->u, v = t->v, q = t->q, r = t->r;
    const int64_t sd = d[L - 1] >> 63, se = e[L - 1] >> 63;
    int64_t md = (u & sd) + (v & se), me = (q & sd) + (r & se);
    s128 cd = (s128)u * d[0] + (s128)v * e[0], ce = (s128)q * d[0] + (s128)r * e[0];
    md -= (int64_t)(((uint64_t)md - minv * (uint64_t)cd) & M62);
    me -= (int64_t)(((uint64_t)me - minv * (uint64_t)ce) & M62);
    cd += (s128)m[0] * md, ce += (s128)m[0] * me;
    cd >>= 62, ce >>= 62; /* the low 62 bits are zero */
    for (size_t i = 1; i < L; i++) {
        cd += (s128)u * d[i] + (s128)v * e[i] + (s128)m[i] * md;
        ce += (s128)q * d[i] + (s128)r * e[i] + (s128)m[i] * me;
        d[i - 1] = (int64_t)((uint64_t)cd & M62), cd >>= 62;
        e[i - 1] = (int64_t)((uint64_t)ce & M62), ce >>= 62;
    }
    d[L - 1] = (int64_t)cd, e[L - 1] = (int64_t)ce;
}

/* x[L] (radix 2^62) = a[n] (a < 2^(62 L - 1)) */
TABAI_INLINE void to62(int64_t *x, const uint64_t *a, size_t n, size_t L) {
    for (size_t i = 0; i < L; i++) {
        size_t b = 62 * i, j = b / 64, o = b % 64;
        uint64_t w = j < n ? a[j] >> o : 0;
        if (o > 2 && j + 1 < n) w |= a[j + 1] << (64 - o);
        x[i] = (int64_t)(w & M62);
    }
}

/* r[n] = x[L] for 0 <= x < 2^(64 n), limbs normalised */
TABAI_INLINE void from62(uint64_t *r, const int64_t *x, size_t n, size_t L) {
    for (size_t j = 0; j < n; j++) {
        size_t b = 64 * j, i = b / 62, o = b % 62; /* o even, <= 60 */
        uint64_t w = i < L ? (uint64_t)x[i] >> o : 0;
        if (i + 1 < L) w |= (uint64_t)x[i + 1] << (62 - o);
        r[j] = w;
    }
}

/* The start of an inversion of a mod m in radix 2^62: f = m (also in mm), g = a, d = 0,
 * e = 1. */
TABAI_INLINE void start62(int64_t *f, int64_t *g, int64_t *d, int64_t *e, int64_t *mm,
                          const uint64_t *a, const uint64_t *m, size_t n, size_t L) {
    memset(d, 0, L * 8);
    memset(e, 0, L * 8);
    to62(mm, m, n, L);
    memcpy(f, mm, L * 8);
    to62(g, a, n, L);
    e[0] = 1;
}

/* d <- d + m when d < 0 (radix 2^62, L limbs), constant time */
TABAI_INLINE void add_m_if_neg(int64_t *d, const int64_t *mm, size_t L) {
    uint64_t neg = (uint64_t)(d[L - 1] >> 63);
    int64_t c = 0;
    for (size_t i = 0; i < L; i++) {
        c += d[i] + (int64_t)((uint64_t)mm[i] & neg);
        d[i] = i + 1 < L ? (int64_t)((uint64_t)c & M62) : c;
        c >>= 62;
    }
}

/* r[n] = sign(f) d mod m for d in (-2m, m) (radix 2^62, L limbs; d overwritten), constant
 * time: the end of an inversion, f = +-1. */
TABAI_INLINE void finish62(uint64_t *r, int64_t *d, const int64_t *f, const int64_t *mm, size_t n,
                           size_t L) {
    add_m_if_neg(d, mm, L); /* (-m, m) */
    uint64_t sf = (uint64_t)(f[L - 1] >> 63);
    int64_t c = 0;
    for (size_t i = 0; i < L; i++) {
        c += (int64_t)(((uint64_t)d[i] ^ sf) - sf);
        d[i] = i + 1 < L ? (int64_t)((uint64_t)c & M62) : c;
        c >>= 62;
    }
    add_m_if_neg(d, mm, L);
    from62(r, d, n, L);
}

/* The number of hddivsteps that bring (m, a) to g = 0 for 0 <= a < m < 2^bits. */
static size_t hd_bound(size_t bits) {
    if (bits < 23) bits = 23; /* the formula holds from M = 4257874 (about 2^22.02) */
    return (3787 * bits + 2166) / 1644;
}

/* The batches of 62 steps that cover hd_bound(bits) */
static size_t hd_batches(size_t bits) { return (hd_bound(bits) + 61) / 62; }

/* Returns, for vartime only, 1 if gcd(a, m) = 1 (f = +-1 at the end), 0 if not, -1 if g
 * did not reach 0 within three times the bound's batches (beyond the sizes the bound was
 * checked for). */
TABAI_INLINE int safegcd(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t minv,
                         size_t bits, size_t n, size_t L, int vartime) {
    int64_t f[S62_MAX], g[S62_MAX], d[S62_MAX], e[S62_MAX], mm[S62_MAX];
    start62(f, g, d, e, mm, a, m, n, L);
    int64_t h = 1;
    const size_t bound = hd_batches(bits), batches = vartime ? 3 * bound : bound;
    for (size_t i = 0; i < batches; i++) {
        s62_mat t;
        if (vartime) {
            uint64_t z = 0;
            for (size_t j = 0; j < L; j++) z |= (uint64_t)g[j];
            if (!z) break; /* g = 0: f and d are final */
            if (i + 1 == batches) return -1;
            h = divsteps62_vartime(h, (uint64_t)f[0] | ((uint64_t)f[1] << 62),
                                   (uint64_t)g[0] | ((uint64_t)g[1] << 62), &t);
        } else {
            h = divsteps62_ct(h, (uint64_t)f[0] | ((uint64_t)f[1] << 62),
                              (uint64_t)g[0] | ((uint64_t)g[1] << 62), &t);
        }
        update_de(d, e, &t, mm, minv, L);
        update_fg(f, g, &t, L);
    }
    finish62(r, d, f, mm, n, L);
    if (vartime) { /* f = 1, or f = -1: every limb 2^62 - 1 under a top limb of -1 */
        int one = f[0] == 1, minus = f[L - 1] == -1;
        for (size_t i = 1; i < L; i++) one &= f[i] == 0;
        for (size_t i = 0; i + 1 < L; i++) minus &= (uint64_t)f[i] == M62;
        return one | minus;
    }
    tabai_wipe(d, sizeof d), tabai_wipe(e, sizeof e);
    tabai_wipe(f, sizeof f), tabai_wipe(g, sizeof g);
    return 0;
}

/* The limb count of radix 2^62 for a modulus of bits bits (room for the sign). */
static size_t limbs62(size_t bits) { return bits < 62 ? 2 : (bits + 1 + 61) / 62; }

void tabai_modinv_safegcd(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t minv,
                          size_t bits, size_t n) {
    TABAI_VERIFY_CHECK(n >= 1 && n <= 9 && (m[0] & 1) && bits <= 64 * n &&
                       tabai_lt_n(a, m, n));
    switch (limbs62(bits)) { /* the curves' sizes, unrolled */
    case 5: safegcd(r, a, m, minv, bits, n, 5, 0); break;
    case 7: safegcd(r, a, m, minv, bits, n, 7, 0); break;
    case 9: safegcd(r, a, m, minv, bits, n, 9, 0); break;
    default: safegcd(r, a, m, minv, bits, n, limbs62(bits), 0); break;
    }
}

int tabai_modinv_safegcd_vartime(uint64_t *r, const uint64_t *a, const uint64_t *m,
                                 uint64_t minv, size_t bits, size_t n) {
    TABAI_VERIFY_CHECK(n >= 1 && n <= TABAI_MAX_LIMBS && (m[0] & 1) && bits <= 64 * n &&
                       tabai_lt_n(a, m, n));
    switch (limbs62(bits)) {
    case 5: return safegcd(r, a, m, minv, bits, n, 5, 1);
    case 7: return safegcd(r, a, m, minv, bits, n, 7, 1);
    case 9: return safegcd(r, a, m, minv, bits, n, 9, 1);
    default: return safegcd(r, a, m, minv, bits, n, limbs62(bits), 1);
    }
}

/* Two constant-time inversions side by side (the batches of safegcd with vartime = 0, their
 * divsteps interleaved by divsteps62x2_ct). */
TABAI_INLINE void safegcd2_ct(uint64_t *r0, const uint64_t *a0, const uint64_t *m0, uint64_t minv0,
                              uint64_t *r1, const uint64_t *a1, const uint64_t *m1, uint64_t minv1,
                              size_t bits, size_t n, size_t L) {
    int64_t f[2][S62_MAX], g[2][S62_MAX], d[2][S62_MAX], e[2][S62_MAX], mm[2][S62_MAX];
    const uint64_t *a[2] = {a0, a1}, *m[2] = {m0, m1}, minv[2] = {minv0, minv1};
    int64_t h[2] = {1, 1};
    for (int j = 0; j < 2; j++) start62(f[j], g[j], d[j], e[j], mm[j], a[j], m[j], n, L);
    const size_t batches = hd_batches(bits);
    for (size_t i = 0; i < batches; i++) {
        s62_mat t[2];
        uint64_t lf[2], lg[2];
        for (int j = 0; j < 2; j++) {
            lf[j] = (uint64_t)f[j][0] | ((uint64_t)f[j][1] << 62);
            lg[j] = (uint64_t)g[j][0] | ((uint64_t)g[j][1] << 62);
        }
        divsteps62x2_ct(h, lf, lg, t);
        for (int j = 0; j < 2; j++) {
            update_de(d[j], e[j], &t[j], mm[j], minv[j], L);
            update_fg(f[j], g[j], &t[j], L);
        }
    }
    finish62(r0, d[0], f[0], mm[0], n, L);
    finish62(r1, d[1], f[1], mm[1], n, L);
    tabai_wipe(d, sizeof d), tabai_wipe(e, sizeof e);
    tabai_wipe(f, sizeof f), tabai_wipe(g, sizeof g);
}

void tabai_modinv2_safegcd(uint64_t *r0, const uint64_t *a0, const uint64_t *m0, uint64_t minv0,
                           uint64_t *r1, const uint64_t *a1, const uint64_t *m1, uint64_t minv1,
                           size_t bits, size_t n) {
    TABAI_VERIFY_CHECK(n >= 1 && n <= 9 && (m0[0] & 1) && (m1[0] & 1) && bits <= 64 * n &&
                       tabai_lt_n(a0, m0, n) && tabai_lt_n(a1, m1, n));
    switch (limbs62(bits)) { /* the curves' sizes, unrolled */
    case 5: safegcd2_ct(r0, a0, m0, minv0, r1, a1, m1, minv1, bits, n, 5); break;
    case 7: safegcd2_ct(r0, a0, m0, minv0, r1, a1, m1, minv1, bits, n, 7); break;
    case 9: safegcd2_ct(r0, a0, m0, minv0, r1, a1, m1, minv1, bits, n, 9); break;
    default: safegcd2_ct(r0, a0, m0, minv0, r1, a1, m1, minv1, bits, n, limbs62(bits)); break;
    }
}

/* The Jacobi symbol by the same batches, with divsteps that keep f and g non-negative
 * (the "positive" divsteps P. Wuille uses for libsecp256k1's Jacobi symbol): on (h, f odd
 * > 0, g >= 0), g even: g <- g / 2, h <- h + 2; g odd: if h > 0, (f, g) <- (g, f) and
 * h <- -h; then g <- g + f. The symbol (g/f) changes only by the supplements: a halving
 * multiplies it by (2/f) = -1 exactly when f = 3 or 5 mod 8, a swap of two odd positive
 * numbers by -1 exactly when both are 3 mod 4 (quadratic reciprocity), and g + f leaves it
 * alone. gcd(f, g) never changes, and for coprime inputs f reaches 1 after about 3 halvings
 * per bit (3.0 measured at 256 to 4096 bits, at most 3.4 at 64 bits); then (g/1) = 1. Every
 * decision reads the low bits of f and g only (parity; f mod 8 and g mod 4), so 62 halvings
 * run on the low 64 bits and give a matrix applied to the whole numbers as in the inverse. The
 * matrix entries stay non-negative with u + v <= 2^62 and q + r <= 2^62, so f and g never
 * grow and never change sign. Once both fit one radix-2^62 limb, the symbol of the remaining
 * 62-bit numbers comes from the classical algorithm. Several steps at once (g + w f = 0
 * mod 16, as libsecp256k1 does) and a swap by masks were tried and were not faster. */

/* 62 positive divsteps; *jac bit 0 flips with each -1 factor. */
static int64_t posdivsteps62_vartime(int64_t h, uint64_t f, uint64_t g, s62_mat *t, unsigned *jac) {
    uint64_t u = 1, v = 0, q = 0, r = 1;
    unsigned j = *jac;
    int left = 62;
    for (;;) {
        int z = __builtin_ctzll(g | ((uint64_t)1 << left)); /* <= left */
        g >>= z, u <<= z, v <<= z, h += 2 * z, left -= z;
        j ^= (unsigned)z & (unsigned)((f >> 1) ^ (f >> 2)); /* z odd and f = 3, 5 mod 8 */
        if (!left) break;
        if (h > 0) { /* g odd */
            uint64_t w = f;
            f = g, g = w;
            w = u, u = q, q = w;
            w = v, v = r, r = w;
            h = -h;
            j ^= (unsigned)((f & g) >> 1); /* both 3 mod 4 */
        }
        g += f, q += u, r += v;
    }
    t->u = (int64_t)u, t->v = (int64_t)v, t->q = (int64_t)q, t->r = (int64_t)r;
    *jac = j;
    return h;
}

/* (a/n) for odd n, any a: the classical algorithm (Cohen, Algorithm 1.4.10) on words. */
static int jacobi_word(uint64_t a, uint64_t n) {
    int t = 1;
    a %= n;
    while (a) {
        int z = __builtin_ctzll(a);
        a >>= z;
        if ((z & 1) && ((n & 7) == 3 || (n & 7) == 5)) t = -t;
        uint64_t w = a;
        a = n, n = w;
        if (a & n & 2) t = -t;
        a %= n;
    }
    return n == 1 ? t : 0;
}

int tabai_jacobi_divsteps_vartime(int *r, const uint64_t *a, const uint64_t *m, size_t n) {
    enum { LMAX = (64 * TABAI_MAX_LIMBS + 1 + 61) / 62 };
    int zero = 1;
    for (size_t i = 0; i < n; i++) zero &= a[i] == 0;
    if (zero) return *r = 0, 0; /* (0/m) = 0 for m >= 3 */
    const size_t bits = tabai_bitlen_vartime(m, n);
    size_t len = limbs62(bits);
    int64_t f[LMAX], g[LMAX];
    to62(f, m, n, len);
    to62(g, a, n, len);
    unsigned jac = 0;
    int64_t h = 1;
    size_t budget = 4 * bits + 512;
    while (len > 1) {
        if (budget < 62) return -1;
        budget -= 62;
        s62_mat t;
        h = posdivsteps62_vartime(h, (uint64_t)f[0] | ((uint64_t)f[1] << 62),
                                  (uint64_t)g[0] | ((uint64_t)g[1] << 62), &t, &jac);
        update_fg(f, g, &t, len);
        while (len > 1 && f[len - 1] == 0 && g[len - 1] == 0) len--;
    }
    const int s = jacobi_word((uint64_t)g[0], (uint64_t)f[0]);
    *r = (jac & 1) ? -s : s;
    return 0;
}
