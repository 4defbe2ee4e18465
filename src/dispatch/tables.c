/* The kernel tables, one per tier, each built from the tier below plus the registry's table
 * kernels (records without an explicit-kernel id) of that tier. Built once on first use. */
#include "tables.h"
#include "registry.h"

static tabai_kernels tables[TABAI_TIER_COUNT];
static int tables_done;

/* Puts record r in its slot of table t (r->limbs == 0: slot 0, the any-n kernel). */
static void fill_slot(tabai_kernels *t, const tabai_kernel_rec *r) {
    size_t s = r->limbs;
    switch (r->op) {
    case TABAI_KOP_ADD_N: t->add_n = (tabai_addsub_n_fn)r->fn; break;
    case TABAI_KOP_SUB_N: t->sub_n = (tabai_addsub_n_fn)r->fn; break;
    case TABAI_KOP_MUL_1: t->mul_1 = (tabai_mul_1_fn)r->fn; break;
    case TABAI_KOP_ADDMUL_1: t->addmul_1 = (tabai_mul_1_fn)r->fn; break;
    case TABAI_KOP_MUL:
        t->mul[s] = (tabai_mul_n_fn)r->fn;
        t->mul_sym[s] = r->symbol;
        break;
    case TABAI_KOP_SQR:
        t->sqr[s] = (tabai_sqr_n_fn)r->fn;
        t->sqr_sym[s] = r->symbol;
        break;
    case TABAI_KOP_MONT_MUL:
        t->mont_mul[s] = (tabai_mont_mul_fn)r->fn;
        t->mont_mul_sym[s] = r->symbol;
        break;
    case TABAI_KOP_MONT_SQR:
        t->mont_sqr[s] = (tabai_mont_sqr_fn)r->fn;
        t->mont_sqr_sym[s] = r->symbol;
        break;
    case TABAI_KOP_MOD_ADD: t->mod_add[s] = (tabai_mod_addsub_fn)r->fn; break;
    case TABAI_KOP_MOD_SUB: t->mod_sub[s] = (tabai_mod_addsub_fn)r->fn; break;
    default: break; /* not a table kernel */
    }
}

static void build_tables(void) {
    static const char *const names[TABAI_TIER_COUNT] = {"generic", "bmi2", "avx2", "avx512",
                                                        "ifma"};
    for (int i = 0; i < TABAI_TIER_COUNT; i++) {
        if (i > 0) tables[i] = tables[i - 1];
        tables[i].tier = (tabai_tier)i;
        tables[i].name = names[i];
        for (const tabai_kernel_rec *r = tabai_registry; r->label; r++)
            if (r->id < 0 && (int)r->tier == i && r->limbs <= TABAI_FIXED_MAX) fill_slot(&tables[i], r);
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
