/* The product phase of the single-number kernels (mont1_ifma.c), included twice per vector
 * width: rolled, for any dd (R52_PN(x) = x_r), and fully unrolled for a constant dd inlined
 * into the reductions of the small window sizes (R52_PN(x) = x_c). */
/* S[0 .. 2 dd) = a*b unnormalised (each digit the sum of at most 2 dd terms < 2^52), then VL
 * zero words. a, b: padded, dd digits. */
R52_PATTR void R52_PN(prod)(uint64_t *S, const uint64_t *a, const uint64_t *b, size_t dd) {
    const size_t nv = dd / VL;
    R52_PU
    for (size_t K = 0; K < 2 * nv; K++) {
        const size_t base = VL * K;
        const size_t lo = base > dd ? base - dd : 0;
        const size_t hi = base + VL - 1 < dd - 1 ? base + VL - 1 : dd - 1;
        VT x0 = V_ZERO(), x1 = V_ZERO(), y0 = V_ZERO(), y1 = V_ZERO();
        size_t i = lo;
        R52_PU
        for (; i + 1 <= hi; i += 2) {
            const VT a0 = V_SET1(a[i]), a1 = V_SET1(a[i + 1]);
            const uint64_t *bb = b + base - i;
            x0 = V_ML(x0, a0, V_LDU(bb));
            y0 = V_MH(y0, a0, V_LDU(bb - 1));
            x1 = V_ML(x1, a1, V_LDU(bb - 1));
            y1 = V_MH(y1, a1, V_LDU(bb - 2));
        }
        if (i <= hi) {
            const VT a0 = V_SET1(a[i]);
            x0 = V_ML(x0, a0, V_LDU(b + base - i));
            y0 = V_MH(y0, a0, V_LDU(b + base - i - 1));
        }
        V_STA(S + base, V_ADD(V_ADD(x0, x1), V_ADD(y0, y1)));
    }
    V_STA(S + 2 * dd, V_ZERO());
}

/* S = a^2 as prod does: the products a_i a_j (i < j) once, masked to the lanes with j > i,
 * doubled; then lo52(a_k^2) into digit 2k and hi52(a_k^2) into 2k + 1. Each digit: at most
 * 2 dd + 2 terms < 2^52. */
R52_PATTR void R52_PN(sqrprod)(uint64_t *S, const uint64_t *a, size_t dd) {
    const size_t nv = dd / VL;
    const unsigned full = (1u << VL) - 1;
    const VT dup = V_DUPIDX();
    R52_PU
    for (size_t K = 0; K < 2 * nv; K++) {
        const size_t base = VL * K;
        const size_t lo = base > dd ? base - dd : 0;
        size_t hi = (base + VL - 2) / 2; /* the last row with a lane j > i (lo terms) */
        if (hi > dd - 1) hi = dd - 1;
        VT x0 = V_ZERO(), x1 = V_ZERO(), y0 = V_ZERO(), y1 = V_ZERO();
        size_t i = lo;
        /* rows whose every lane has j > i + 1 (no masks): 2 i + 2 - base <= 0 */
        for (; i + 1 <= hi && 2 * (i + 1) + 2 <= base; i += 2) {
            const VT a0 = V_SET1(a[i]), a1 = V_SET1(a[i + 1]);
            const uint64_t *bb = a + base - i;
            x0 = V_ML(x0, a0, V_LDU(bb));
            y0 = V_MH(y0, a0, V_LDU(bb - 1));
            x1 = V_ML(x1, a1, V_LDU(bb - 1));
            y1 = V_MH(y1, a1, V_LDU(bb - 2));
        }
        R52_PU
        for (; i <= hi; i++) {
            /* lo: lanes l with j = base + l - i > i; hi: j = base + l - i - 1 > i */
            const long m = (long)(2 * i + 1) - (long)base;
            const MT mlo = (MT)(m <= 0 ? full : m >= VL ? 0 : (full << m) & full);
            const MT mhi = (MT)(m + 1 <= 0 ? full : m + 1 >= VL ? 0 : (full << (m + 1)) & full);
            const VT a0 = V_SET1(a[i]);
            if (i & 1) { /* two chains */
                x1 = V_MMLO(x1, mlo, a0, V_LDU(a + base - i));
                y1 = V_MMHI(y1, mhi, a0, V_LDU(a + base - i - 1));
            } else {
                x0 = V_MMLO(x0, mlo, a0, V_LDU(a + base - i));
                y0 = V_MMHI(y0, mhi, a0, V_LDU(a + base - i - 1));
            }
        }
        VT s = V_ADD(V_ADD(x0, x1), V_ADD(y0, y1));
        s = V_ADD(s, s);
        const VT ak = V_PERM(dup, V_LDU(a + base / 2));
        s = V_MMLO(s, (MT)(0x55 & full), ak, ak);
        s = V_MMHI(s, (MT)(0xAA & full), ak, ak);
        V_STA(S + base, s);
    }
    V_STA(S + 2 * dd, V_ZERO());
}

