/* The product phase of the single-number kernels (mont1_ifma.c), included twice per vector
 * width: rolled (R52_PN(x) = x_r) and with the loop over vectors unrolled (x_c, inlined into
 * the reductions of the RSA half sizes). S[K] for K in [k0, k1): vector K of a*b or a^2,
 * unnormalised (each digit the sum of at most 2 dd + 2 terms < 2^52). */
R52_PATTR void R52_PN(prod)(uint64_t *S, const uint64_t *a, const uint64_t *b, size_t dd,
                            size_t k0, size_t k1) {
    R52_PU
    for (size_t K = k0; K < k1; K++) V_STA(S + VL * K, FN(pvec)(a, b, dd, K));
}

R52_PATTR void R52_PN(sqrprod)(uint64_t *S, const uint64_t *a, size_t dd, size_t k0, size_t k1) {
    R52_PU
    for (size_t K = k0; K < k1; K++) V_STA(S + VL * K, FN(svec)(a, dd, K));
}
