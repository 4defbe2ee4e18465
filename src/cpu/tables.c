/* The kernel tables, one per tier, each built from the tier below plus its own entries.
 * Built once on first use. One line per kernel. */
#include "../limb/limb.h"
#include "kernels.h"

static tabai_kernels tables[TABAI_TIER_COUNT];
static int tables_done;

#define FILL_GENERIC_FIXED(N)                                                                 \
    t->mul[N] = tabai_mul_n##N##_generic;                                                     \
    t->sqr[N] = tabai_sqr_n##N##_generic;                                                     \
    t->mont_mul[N] = tabai_mont_mul_n##N##_generic;                                           \
    t->mont_sqr[N] = tabai_mont_sqr_n##N##_generic;                                           \
    t->mod_add[N] = tabai_mod_add_n##N##_generic;                                             \
    t->mod_sub[N] = tabai_mod_sub_n##N##_generic;                                             \
    t->mul_sym[N] = "mul_n" #N "_generic";                                                    \
    t->sqr_sym[N] = "sqr_n" #N "_generic";                                                    \
    t->mont_mul_sym[N] = "mont_mul_n" #N "_generic";                                          \
    t->mont_sqr_sym[N] = "mont_sqr_n" #N "_generic";

static void fill_generic(tabai_kernels *t) {
    t->add_n = tabai_add_n_generic;
    t->sub_n = tabai_sub_n_generic;
    t->mul_1 = tabai_mul_1_n_generic;
    t->addmul_1 = tabai_addmul_1_n_generic;
    t->mul[0] = tabai_mul_n_generic;
    t->sqr[0] = tabai_sqr_n_generic;
    t->mont_mul[0] = tabai_mont_mul_n_generic;
    t->mont_sqr[0] = tabai_mont_sqr_n_generic;
    t->mod_add[0] = tabai_mod_add_n_generic;
    t->mod_sub[0] = tabai_mod_sub_n_generic;
    t->mul_sym[0] = "mul_n_generic";
    t->sqr_sym[0] = "sqr_n_generic";
    t->mont_mul_sym[0] = "mont_mul_n_generic";
    t->mont_sqr_sym[0] = "mont_sqr_n_generic";
    TABAI_FOR_FIXED(FILL_GENERIC_FIXED)
}

/* bmi2 tier (BMI2 + ADX): the generated mulx/adox/adcx kernels of src/x64/. */
#define FILL_BMI2_FIXED(N)                                                                    \
    t->mul[N] = tabai_mul_n##N##_bmi2;                                                        \
    t->sqr[N] = tabai_sqr_n##N##_bmi2;                                                        \
    t->mont_mul[N] = tabai_mont_mul_n##N##_bmi2;                                              \
    t->mont_sqr[N] = tabai_mont_sqr_n##N##_bmi2;                                              \
    t->mod_add[N] = tabai_mod_add_n##N##_bmi2;                                                \
    t->mod_sub[N] = tabai_mod_sub_n##N##_bmi2;                                                \
    t->mul_sym[N] = "mul_n" #N "_bmi2";                                                       \
    t->sqr_sym[N] = "sqr_n" #N "_bmi2";                                                       \
    t->mont_mul_sym[N] = "mont_mul_n" #N "_bmi2";                                             \
    t->mont_sqr_sym[N] = "mont_sqr_n" #N "_bmi2";

static void fill_bmi2(tabai_kernels *t) {
    t->mul_1 = tabai_mul_1_n_bmi2;
    t->addmul_1 = tabai_addmul_1_n_bmi2;
    t->mul[0] = tabai_mul_n_bmi2;
    t->sqr[0] = tabai_sqr_n_bmi2;
    t->mont_mul[0] = tabai_mont_mul_n_bmi2;
    t->mont_sqr[0] = tabai_mont_sqr_n_bmi2;
    t->mul_sym[0] = "mul_n_bmi2";
    t->sqr_sym[0] = "sqr_n_bmi2";
    t->mont_mul_sym[0] = "mont_mul_n_bmi2";
    t->mont_sqr_sym[0] = "mont_sqr_n_bmi2";
    TABAI_FOR_FIXED(FILL_BMI2_FIXED)
}

/* avx2 tier: nothing of its own yet; inherits bmi2. */
static void fill_avx2(tabai_kernels *t) { (void)t; }

/* avx512 tier (AVX-512F/VL/BW). */
static void fill_avx512(tabai_kernels *t) { (void)t; }

/* ifma tier (AVX-512 IFMA52). */
static void fill_ifma(tabai_kernels *t) { (void)t; }

static void (*const fillers[TABAI_TIER_COUNT])(tabai_kernels *) = {
    fill_generic, fill_bmi2, fill_avx2, fill_avx512, fill_ifma};

static void build_tables(void) {
    static const char *const names[TABAI_TIER_COUNT] = {"generic", "bmi2", "avx2", "avx512",
                                                        "ifma"};
    for (int i = 0; i < TABAI_TIER_COUNT; i++) {
        if (i > 0) tables[i] = tables[i - 1];
        tables[i].tier = (tabai_tier)i;
        tables[i].name = names[i];
        fillers[i](&tables[i]);
    }
}

const tabai_kernels *tabai_kernels_for_tier(tabai_tier t) {
    if ((int)t < 0 || (int)t > (int)tabai_cpu_native_tier()) return NULL;
    if (!__atomic_load_n(&tables_done, __ATOMIC_ACQUIRE)) {
        /* Concurrent first calls write identical values; readers see them after the flag. */
        static int building;
        if (!__atomic_exchange_n(&building, 1, __ATOMIC_ACQ_REL)) {
            build_tables();
            __atomic_store_n(&tables_done, 1, __ATOMIC_RELEASE);
        } else {
            while (!__atomic_load_n(&tables_done, __ATOMIC_ACQUIRE)) __builtin_ia32_pause();
        }
    }
    return &tables[t];
}

const tabai_kernels *tabai_kernels_active(void) { return tabai_kernels_for_tier(tabai_cpu_tier()); }
