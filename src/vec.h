/* The vector-macro layer of the AVX-512 kernel folders (src/ifma, src/avx512): one set of
 * names for the intrinsics of one vector width, 64-bit lanes, so that a kernel body is
 * written once and instantiated for zmm (8 lanes) and ymm (4 lanes); only the multiply
 * instructions differ between the folders (V_MUL: vpmuludq; V_ML, V_MH: vpmadd52luq/huq).
 *
 * Use: define TABAI_VEC_BITS as 512 or 256, then include this file; include it again after
 * redefining TABAI_VEC_BITS to switch width (each inclusion first drops the previous set).
 * The names only expand to intrinsics: a file uses those its compile flags provide
 * (AVX-512F/VL for all; V_ML and V_MH also need AVX-512 IFMA).
 *
 *   VT, VL                    the vector type, its lane count
 *   V_LD(p), V_ST(p, x)       unaligned load and store of VL uint64_t
 *   V_ZERO(), V_SET1(c)       all lanes 0, all lanes c
 *   V_ADD, V_SUB              lane-wise x + y, x - y (mod 2^64)
 *   V_SRL, V_SRA, V_SLL       lane shifts by the immediate n (logical right, arithmetic, left)
 *   V_AND(x, y)               x & y
 *   V_MUL(x, y)               lo32(x) * lo32(y), the full 64-bit product (vpmuludq)
 *   V_ML, V_MH(acc, x, y)     acc + lo52 / hi52 of lo52(x) * lo52(y) (vpmadd52luq / huq)
 *   V_LTZ_MASK(x)             the lanes with x < 0 (signed), as a k mask
 *   V_GEU_MASK(x, y)          the lanes with x >= y (unsigned), as a k mask
 *   V_EQ_MASK(x, y)           the lanes with x == y, as a k mask
 *   V_BLEND(m, x, y)          m ? y : x per lane
 *   V_MASK_MOV(x, m, y)       m ? y : x per lane (vmovdqa64 with merge masking)
 *   V_MASKZ_MOV(m, y)         m ? y : 0 per lane
 *   V_MASK_AND(x, m, y, z)    m ? y & z : x per lane
 *   V_TERN(x, y, z, imm)      the bitwise function imm of x, y, z (vpternlogq)
 * The mask-producing and masked forms run in time independent of the mask. */
#ifndef TABAI_VEC_BITS
#error "define TABAI_VEC_BITS (512 or 256) before including vec.h"
#endif

#include <immintrin.h>

#undef VT
#undef VL
#undef V_LD
#undef V_ST
#undef V_ZERO
#undef V_SET1
#undef V_ADD
#undef V_SUB
#undef V_SRL
#undef V_SRA
#undef V_SLL
#undef V_AND
#undef V_MUL
#undef V_ML
#undef V_MH
#undef V_LTZ_MASK
#undef V_GEU_MASK
#undef V_EQ_MASK
#undef V_BLEND
#undef V_MASK_MOV
#undef V_MASKZ_MOV
#undef V_MASK_AND
#undef V_TERN

#if TABAI_VEC_BITS == 512
#define VT __m512i
#define VL 8
#define V_LD(p) _mm512_loadu_si512((const void *)(p))
#define V_ST(p, x) _mm512_storeu_si512((void *)(p), (x))
#define V_ZERO() _mm512_setzero_si512()
#define V_SET1(c) _mm512_set1_epi64((long long)(c))
#define V_ADD(x, y) _mm512_add_epi64((x), (y))
#define V_SUB(x, y) _mm512_sub_epi64((x), (y))
#define V_SRL(x, n) _mm512_srli_epi64((x), (n))
#define V_SRA(x, n) _mm512_srai_epi64((x), (n))
#define V_SLL(x, n) _mm512_slli_epi64((x), (n))
#define V_AND(x, y) _mm512_and_si512((x), (y))
#define V_MUL(x, y) _mm512_mul_epu32((x), (y))
#define V_ML(acc, x, y) _mm512_madd52lo_epu64((acc), (x), (y))
#define V_MH(acc, x, y) _mm512_madd52hi_epu64((acc), (x), (y))
#define V_LTZ_MASK(x) _mm512_cmplt_epi64_mask((x), _mm512_setzero_si512())
#define V_GEU_MASK(x, y) _mm512_cmpge_epu64_mask((x), (y))
#define V_EQ_MASK(x, y) _mm512_cmpeq_epu64_mask((x), (y))
#define V_BLEND(m, x, y) _mm512_mask_blend_epi64((m), (x), (y))
#define V_MASK_MOV(x, m, y) _mm512_mask_mov_epi64((x), (m), (y))
#define V_MASKZ_MOV(m, y) _mm512_maskz_mov_epi64((m), (y))
#define V_MASK_AND(x, m, y, z) _mm512_mask_and_epi64((x), (m), (y), (z))
#define V_TERN(x, y, z, imm) _mm512_ternarylogic_epi64((x), (y), (z), (imm))
#elif TABAI_VEC_BITS == 256
#define VT __m256i
#define VL 4
#define V_LD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define V_ST(p, x) _mm256_storeu_si256((__m256i *)(void *)(p), (x))
#define V_ZERO() _mm256_setzero_si256()
#define V_SET1(c) _mm256_set1_epi64x((long long)(c))
#define V_ADD(x, y) _mm256_add_epi64((x), (y))
#define V_SUB(x, y) _mm256_sub_epi64((x), (y))
#define V_SRL(x, n) _mm256_srli_epi64((x), (n))
#define V_SRA(x, n) _mm256_srai_epi64((x), (n))
#define V_SLL(x, n) _mm256_slli_epi64((x), (n))
#define V_AND(x, y) _mm256_and_si256((x), (y))
#define V_MUL(x, y) _mm256_mul_epu32((x), (y))
#define V_ML(acc, x, y) _mm256_madd52lo_epu64((acc), (x), (y))
#define V_MH(acc, x, y) _mm256_madd52hi_epu64((acc), (x), (y))
#define V_LTZ_MASK(x) _mm256_cmplt_epi64_mask((x), _mm256_setzero_si256())
#define V_GEU_MASK(x, y) _mm256_cmpge_epu64_mask((x), (y))
#define V_EQ_MASK(x, y) _mm256_cmpeq_epu64_mask((x), (y))
#define V_BLEND(m, x, y) _mm256_mask_blend_epi64((m), (x), (y))
#define V_MASK_MOV(x, m, y) _mm256_mask_mov_epi64((x), (m), (y))
#define V_MASKZ_MOV(m, y) _mm256_maskz_mov_epi64((m), (y))
#define V_MASK_AND(x, m, y, z) _mm256_mask_and_epi64((x), (m), (y), (z))
#define V_TERN(x, y, z, imm) _mm256_ternarylogic_epi64((x), (y), (z), (imm))
#else
#error "TABAI_VEC_BITS must be 512 or 256"
#endif
