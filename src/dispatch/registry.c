/* The kernel registry as records: src/dispatch/registry.def expanded once. The prototypes
 * of the entry points come from the floors below: src/cpu/ktypes.h (through registry.h; it
 * declares the explicit kernels of src/delayed/), src/cpu/mbtypes.h (the multi-buffer
 * kernels), src/fp64/fp64.h (the four-lane product), src/limb/, src/x64/. */
#include "registry.h"

#include "../cpu/mbtypes.h"
#include "../fp64/fp64.h"
#include "../limb/limb.h"
#include "../x64/x64.h"

/* `&(#fn)[6]`: the entry point's name without "tabai_" */
/* clang-format off */
#define TABAI_REG(label, op, limbs, lanes, radix, TIER, features, id, fn, source)             \
    {label, &(#fn)[6], TABAI_KOP_##op, limbs, lanes, radix, TABAI_TIER_##TIER, features, id,   \
     (tabai_any_fn)fn, source},
#define TABAI_REG_MB(label, lanes, w, TIER, features, mul, sqr, scan, source)                  \
    {label, &(#mul)[6], TABAI_KOP_MB_MONT_MUL, 0, lanes, w, TABAI_TIER_##TIER, features, -1,   \
     (tabai_any_fn)mul, source},                                                               \
    {label, &(#sqr)[6], TABAI_KOP_MB_MONT_SQR, 0, lanes, w, TABAI_TIER_##TIER, features, -1,   \
     (tabai_any_fn)sqr, source},
/* clang-format on */

const tabai_kernel_rec tabai_registry[] = {
#include "registry.def"
    {NULL, NULL, TABAI_KOP_COUNT, 0, 0, 0, TABAI_TIER_GENERIC, 0, -1, NULL, NULL},
};

const tabai_kernel_rec *tabai_registry_find_id(int id) {
    if (id < 0) return NULL;
    for (const tabai_kernel_rec *r = tabai_registry; r->label; r++)
        if (r->id == id) return r;
    return NULL;
}

int tabai_registry_usable(const tabai_kernel_rec *r) {
    /* a generic-tier record needs no look at the tier in use */
    return r && (tabai_cpu_features() & r->features) == r->features &&
           (r->tier == TABAI_TIER_GENERIC || (int)tabai_cpu_tier() >= (int)r->tier);
}

const char *tabai_kop_name(tabai_kop op) {
    static const char *const names[TABAI_KOP_COUNT] = {
        "add_n",   "sub_n",   "mul_1",    "addmul_1", "mul",     "sqr",         "mont_mul",
        "mont_sqr", "mod_add", "mod_sub", "ohta_mul", "mul_mb4", "mb_mont_mul", "mb_mont_sqr"};
    return (int)op >= 0 && op < TABAI_KOP_COUNT ? names[op] : NULL;
}
