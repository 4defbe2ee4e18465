/* Four independent products at once (lanes = products, "mb4"), float64 digits with the
 * FMA split of mul_fp64_avx2.c: r_l[2n] = a_l[n] * b_l[n] for l = 0..3. Compiled with
 * -mavx2 -mfma (this file only; reached only at tier avx2 or above with FMA).
 *
 * Why batch: with one product per call the digits of one operand must be read at sliding
 * offsets (unaligned loads, zero-padded triangle ends); with one product per lane every
 * vector is one digit of four operands, every load is aligned, and no lane is ever wasted.
 * On Zen 1 a lane product of two 46..49-bit digits costs 2 FMA + 3 FADD per 4 lanes
 * (about 2.75 cycles per ymm), against 64 x 64 bits per 2 cycles for mulx.
 *
 * Bounds (tabai_f64mb4_bits_for): as tabai_f64fma_fits but with 2^50 in place of 2^53, so that
 * the column sums (|lo sum| <= m 2^(b-1), hi sum / 2^b <= m (2^b - 1)) convert to int64 with
 * the 1.5 * 2^52 magic-number trick (exact for |x| < 2^51), which AVX2 needs for want of a
 * double -> int64 conversion. Carries: int64 lanes with a bias, since AVX2 has no 64-bit
 * arithmetic shift. Constant time: every branch and shift count depends on n only. */
#include <immintrin.h>
#include <string.h>

#include "fp64.h"

int tabai_f64mb4_fits(size_t m, unsigned b) {
    if (b < 2 || b > 51 || m == 0 || m > ((size_t)1 << 32)) return 0;
    tabai_u128 lim = (tabai_u128)1 << 50;
    return ((tabai_u128)m << (b - 1)) <= lim && (tabai_u128)m * (((tabai_u128)1 << b) - 1) <= lim;
}

unsigned tabai_f64mb4_bits_for(size_t n) {
    for (unsigned b = 51; b >= 2; b--)
        if (tabai_f64mb4_fits(tabai_digits_for(64 * n, b), b)) return b;
    return 0;
}

#define MB4_MAXD 200 /* digits: 8192 bits in >= 43-bit digits */

static inline __m256d i64_to_f64(__m256i v) { /* exact for |v| < 2^51 */
    const __m256d magic = _mm256_set1_pd(6755399441055744.0); /* 1.5 * 2^52 */
    return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_add_epi64(v, _mm256_castpd_si256(magic))), magic);
}

static inline __m256i f64_to_i64(__m256d x) { /* exact for integer x, |x| < 2^51 */
    const __m256d magic = _mm256_set1_pd(6755399441055744.0);
    return _mm256_sub_epi64(_mm256_castpd_si256(_mm256_add_pd(x, magic)), _mm256_castpd_si256(magic));
}

static inline __m256i sll(__m256i v, unsigned s) { return _mm256_sll_epi64(v, _mm_cvtsi32_si128((int)s)); }
static inline __m256i srl(__m256i v, unsigned s) { return _mm256_srl_epi64(v, _mm_cvtsi32_si128((int)s)); }

void tabai_mul_n_fp64fma_mb4_avx2(uint64_t *const r[4], const uint64_t *const a[4],
                                  const uint64_t *const b[4], size_t n) {
    const unsigned bits = tabai_f64mb4_bits_for(n);
    const size_t nd = tabai_digits_for(64 * n, bits), ncol = 2 * nd;
    TABAI_VERIFY_CHECK(n >= 1 && n <= TABAI_MAX_LIMBS && nd <= MB4_MAXD);
    _Alignas(32) __m256i la[TABAI_MAX_LIMBS + 1], lb[TABAI_MAX_LIMBS + 1];
    _Alignas(32) __m256d ad[MB4_MAXD], bp[MB4_MAXD + 4], H[2 * MB4_MAXD], L[2 * MB4_MAXD];
    _Alignas(32) __m256i dg[2 * MB4_MAXD + 1];

    /* limbs of the four operands side by side, one zero limb above */
    for (size_t i = 0; i < n; i++) {
        la[i] = _mm256_set_epi64x((long long)a[3][i], (long long)a[2][i], (long long)a[1][i], (long long)a[0][i]);
        lb[i] = _mm256_set_epi64x((long long)b[3][i], (long long)b[2][i], (long long)b[1][i], (long long)b[0][i]);
    }
    la[n] = lb[n] = _mm256_setzero_si256();
    /* digits, as doubles; b zero-padded by two vectors on each side */
    const __m256i mask = _mm256_set1_epi64x((long long)((((uint64_t)1) << bits) - 1));
    bp[0] = bp[1] = bp[nd + 2] = bp[nd + 3] = _mm256_setzero_pd();
    for (size_t j = 0; j < nd; j++) {
        size_t pos = j * bits, li = pos >> 6;
        unsigned off = (unsigned)(pos & 63);
        __m256i x = srl(la[li], off), y = srl(lb[li], off);
        if (off + bits > 64) {
            x = _mm256_or_si256(x, sll(la[li + 1], 64 - off));
            y = _mm256_or_si256(y, sll(lb[li + 1], 64 - off));
        }
        ad[j] = i64_to_f64(_mm256_and_si256(x, mask));
        bp[j + 2] = i64_to_f64(_mm256_and_si256(y, mask));
    }

    /* columns k and k+1 together: the split products of each a[i] with b[k-i], b[k+1-i] */
    const double cs = 1.5 * 4503599627370496.0 * (double)((uint64_t)1 << bits);
    const __m256d C = _mm256_set1_pd(cs);
    const __m256d *B = bp + 2;
    for (size_t k = 0; k < ncol; k += 2) {
        __m256d h0 = _mm256_setzero_pd(), l0 = h0, h1 = h0, l1 = h0;
        size_t ilo = k + 1 > nd ? k + 1 - nd : 0, ihi = k + 1 < nd - 1 ? k + 1 : nd - 1;
        for (size_t i = ilo; i <= ihi; i++) {
            const __m256d x = ad[i];
            const __m256d y0 = B[(ptrdiff_t)k - (ptrdiff_t)i], y1 = B[(ptrdiff_t)k + 1 - (ptrdiff_t)i];
            __m256d hi0 = _mm256_sub_pd(_mm256_fmadd_pd(x, y0, C), C);
            __m256d hi1 = _mm256_sub_pd(_mm256_fmadd_pd(x, y1, C), C);
            h0 = _mm256_add_pd(h0, hi0);
            h1 = _mm256_add_pd(h1, hi1);
            l0 = _mm256_add_pd(l0, _mm256_fmsub_pd(x, y0, hi0));
            l1 = _mm256_add_pd(l1, _mm256_fmsub_pd(x, y1, hi1));
        }
        H[k] = h0;
        L[k] = l0;
        H[k + 1] = h1;
        L[k + 1] = l1;
    }

    /* carry pass in int64 lanes: column k = L[k] + H[k-1] / 2^b. A bias of 2^(53-b) carries
     * keeps every shifted value non-negative (|column + carry| < 2^52), so a logical shift
     * gives the floor. */
    const __m256d inv = _mm256_set1_pd(1.0 / (double)((uint64_t)1 << bits));
    const unsigned bsh = 53 - bits;
    const __m256i bias = _mm256_set1_epi64x((long long)1 << 53), biasc = _mm256_set1_epi64x((long long)1 << bsh);
    __m256i cy = _mm256_setzero_si256();
    for (size_t k = 0; k < ncol; k++) {
        __m256i x = _mm256_add_epi64(f64_to_i64(L[k]), cy);
        if (k > 0) x = _mm256_add_epi64(x, f64_to_i64(_mm256_mul_pd(H[k - 1], inv)));
        dg[k] = _mm256_and_si256(x, mask);
        cy = _mm256_sub_epi64(srl(_mm256_add_epi64(x, bias), bits), biasc);
    }
    dg[ncol] = _mm256_setzero_si256();

    /* digits to limbs, four lanes at once; groups of four limbs are transposed and stored
     * with one vector store per result */
    size_t li = 0;
    for (; li < 2 * n; li += 4) {
        __m256i v[4];
        for (size_t q = 0; q < 4; q++) {
            size_t l = li + q, lo = 64 * l, j0 = lo / bits, j1 = (lo + 63) / bits;
            v[q] = _mm256_setzero_si256();
            if (l >= 2 * n) continue;
            for (size_t j = j0; j <= j1 && j <= ncol; j++) {
                size_t p = j * bits;
                v[q] = _mm256_or_si256(v[q], p >= lo ? sll(dg[j], (unsigned)(p - lo))
                                                     : srl(dg[j], (unsigned)(lo - p)));
            }
        }
        /* 4x4 transpose: w[l] = limbs li..li+3 of result l */
        __m256i t0 = _mm256_unpacklo_epi64(v[0], v[1]), t1 = _mm256_unpackhi_epi64(v[0], v[1]);
        __m256i t2 = _mm256_unpacklo_epi64(v[2], v[3]), t3 = _mm256_unpackhi_epi64(v[2], v[3]);
        __m256i w[4] = {_mm256_permute2x128_si256(t0, t2, 0x20), _mm256_permute2x128_si256(t1, t3, 0x20),
                        _mm256_permute2x128_si256(t0, t2, 0x31), _mm256_permute2x128_si256(t1, t3, 0x31)};
        if (li + 4 <= 2 * n) {
            for (int l = 0; l < 4; l++) _mm256_storeu_si256((__m256i *)(r[l] + li), w[l]);
        } else { /* 2n = 4m + 2: the last two limbs */
            for (int l = 0; l < 4; l++) _mm_storeu_si128((__m128i *)(r[l] + li), _mm256_castsi256_si128(w[l]));
        }
    }
}
