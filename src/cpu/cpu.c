/* CPU features (cpuid leaf 1 and 7, XGETBV for OS-enabled ymm/zmm state), the tier in use
 * and TABAI_CPU. Thread safe: the features and the brand string are computed once under
 * pthread_once; the tier in use is one atomic int that the first tabai_cpu_tier fills by
 * compare-and-swap, so a concurrent tabai_cpu_set_tier is never overwritten. */
#include <pthread.h>
#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

static const char *const tier_names[TABAI_TIER_COUNT] = {"generic", "bmi2", "avx2", "avx512",
                                                         "ifma"};

static unsigned detect_features(void) {
    unsigned a, b, c, d, f = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    if (d & (1u << 26)) f |= TABAI_CPU_SSE2;
    int osxsave = (c >> 27) & 1, fma = (c >> 12) & 1;
    uint64_t xcr0 = 0;
    if (osxsave) {
        unsigned lo, hi;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        xcr0 = ((uint64_t)hi << 32) | lo;
    }
    int ymm_ok = (xcr0 & 0x6) == 0x6;          /* SSE + AVX state */
    int zmm_ok = ymm_ok && (xcr0 & 0xe0) == 0xe0; /* opmask, ZMM_Hi256, Hi16_ZMM */
    if (ymm_ok && fma) f |= TABAI_CPU_FMA;
    if (__get_cpuid_max(0, NULL) >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        if (b & (1u << 8)) f |= TABAI_CPU_BMI2;
        if (b & (1u << 19)) f |= TABAI_CPU_ADX;
        if (ymm_ok && (b & (1u << 5))) f |= TABAI_CPU_AVX2;
        if (zmm_ok && (b & (1u << 16))) f |= TABAI_CPU_AVX512F;
        if (zmm_ok && (b & (1u << 31))) f |= TABAI_CPU_AVX512VL;
        if (zmm_ok && (b & (1u << 30))) f |= TABAI_CPU_AVX512BW;
        if (zmm_ok && (b & (1u << 21))) f |= TABAI_CPU_AVX512IFMA;
    }
    return f;
}

static int zmm_halves_detect(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d)) return 0;
    const int amd = b == 0x68747541u && d == 0x69746e65u && c == 0x444d4163u; /* AuthenticAMD */
    if (!amd || !__get_cpuid(1, &a, &b, &c, &d)) return 0;
    const unsigned family = ((a >> 8) & 0xf) + ((a >> 20) & 0xff); /* base + extended */
    return family == 0x19;
}

/* CPUID once (it traps to the hypervisor in a virtual machine): -1 until read; the value
 * is the same from every thread, so a race only repeats the read. */
static int zmm_halves_cache = -1;

int tabai_cpu_zmm_halves(void) {
    int v = __atomic_load_n(&zmm_halves_cache, __ATOMIC_RELAXED);
    if (v < 0) {
        v = zmm_halves_detect();
        __atomic_store_n(&zmm_halves_cache, v, __ATOMIC_RELAXED);
    }
    return v;
}

static unsigned features_cache;
static int features_forced; /* test hook: features_cache replaced */
static pthread_once_t features_once = PTHREAD_ONCE_INIT;

static void features_init(void) {
    if (!__atomic_load_n(&features_forced, __ATOMIC_ACQUIRE))
        __atomic_store_n(&features_cache, detect_features(), __ATOMIC_RELEASE);
}

unsigned tabai_cpu_features(void) {
    pthread_once(&features_once, features_init);
    return __atomic_load_n(&features_cache, __ATOMIC_ACQUIRE);
}

static int tier_cache = -1;

/* Test hook (internal, not exported): replaces the detected features and forgets the tier in
 * use, so that TABAI_CPU / tabai_cpu_set_tier are applied to the new native tier. For
 * tests/ctime under valgrind, whose CPUID hides ADX although it executes adcx/adox. */
void tabai_cpu_force_native_for_testing(unsigned features) {
    __atomic_store_n(&features_forced, 1, __ATOMIC_RELEASE);
    pthread_once(&features_once, features_init);
    __atomic_store_n(&features_cache, features, __ATOMIC_RELEASE);
    __atomic_store_n(&tier_cache, -1, __ATOMIC_RELEASE);
}

tabai_tier tabai_cpu_native_tier(void) {
    unsigned f = tabai_cpu_features();
    /* Each tier includes the ones below it: a CPU whose features skip a tier stops there. */
    if (!((f & TABAI_CPU_BMI2) && (f & TABAI_CPU_ADX))) return TABAI_TIER_GENERIC;
    if (!(f & TABAI_CPU_AVX2)) return TABAI_TIER_BMI2;
    unsigned avx512 = TABAI_CPU_AVX512F | TABAI_CPU_AVX512VL | TABAI_CPU_AVX512BW;
    if ((f & avx512) != avx512) return TABAI_TIER_AVX2;
    if (!(f & TABAI_CPU_AVX512IFMA)) return TABAI_TIER_AVX512;
    return TABAI_TIER_IFMA;
}

const char *tabai_tier_name(tabai_tier t) {
    if ((int)t < 0 || (int)t >= TABAI_TIER_COUNT) return NULL;
    return tier_names[t];
}

int tabai_tier_parse(const char *name) {
    if (!name) return -1;
    if (strcmp(name, "native") == 0) return (int)tabai_cpu_native_tier();
    for (int i = 0; i < TABAI_TIER_COUNT; i++)
        if (strcmp(name, tier_names[i]) == 0) return i;
    return -1;
}

tabai_tier tabai_cpu_tier(void) {
    int t = __atomic_load_n(&tier_cache, __ATOMIC_ACQUIRE);
    if (t >= 0) return (tabai_tier)t;
    tabai_tier native = tabai_cpu_native_tier();
    t = (int)native;
    const char *env = getenv("TABAI_CPU");
    if (env && *env) {
        int want = tabai_tier_parse(env);
        if (want < 0)
            fprintf(stderr,
                    "tabai: unknown TABAI_CPU value '%s' (expected generic, bmi2, avx2, avx512, "
                    "ifma or native); using native\n",
                    env);
        else if (want < t)
            t = want;
    }
    /* only if still unset: a tabai_cpu_set_tier that ran meanwhile wins */
    int unset = -1;
    if (!__atomic_compare_exchange_n(&tier_cache, &unset, t, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
        t = unset;
    return (tabai_tier)t;
}

tabai_status tabai_cpu_set_tier(tabai_tier t) {
    if ((int)t < 0 || (int)t >= TABAI_TIER_COUNT) return TABAI_ERR_TIER;
    int native = (int)tabai_cpu_native_tier();
    __atomic_store_n(&tier_cache, (int)t < native ? (int)t : native, __ATOMIC_RELEASE);
    return TABAI_OK;
}

const char *tabai_cpu_name(void) { return tier_names[tabai_cpu_tier()]; }

static char brand[49];
static pthread_once_t brand_once = PTHREAD_ONCE_INIT;

static void brand_init(void) {
    {
        unsigned r[12] = {0};
        char tmp[49] = {0};
        if ((unsigned)__get_cpuid_max(0x80000000u, NULL) >= 0x80000004u) {
            for (unsigned i = 0; i < 3; i++)
                __cpuid(0x80000002u + i, r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]);
            memcpy(tmp, r, 48);
        } else {
            strcpy(tmp, "unknown x86-64");
        }
        const char *s = tmp;
        while (*s == ' ') s++;
        size_t len = strlen(s); /* tmp has 48 characters at most and a terminator */
        memcpy(brand, s, len + 1);
    }
}

const char *tabai_cpu_brand(void) {
    pthread_once(&brand_once, brand_init);
    return brand;
}
