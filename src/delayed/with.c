/* The public explicit-kernel entry points: tabai_mul_with, tabai_ohta_mul_with,
 * tabai_kernel_name, tabai_kernel_available. Generic flags; the AVX2 kernels are only called
 * after the tier check. */
#include "../dispatch/registry.h"
#include "../dispatch/tables.h"
#include "../mod/mod.h"
#include "delayed.h"

/* The explicit kernels are the registry's records with an id (src/dispatch/registry.def). */
const char *tabai_kernel_name(tabai_kernel k) {
    if (k == TABAI_KERNEL_AUTO) return "auto";
    const tabai_kernel_rec *r = tabai_registry_find_id((int)k);
    return r ? r->label : NULL;
}

const char *tabai_kernel_symbol(tabai_kernel k) {
    const tabai_kernel_rec *r = tabai_registry_find_id((int)k);
    return r ? r->symbol : NULL;
}

int tabai_kernel_parse(const char *name) {
    if (!name) return -1;
    if (strcmp(name, "auto") == 0) return TABAI_KERNEL_AUTO;
    for (const tabai_kernel_rec *r = tabai_registry; r->label; r++)
        if (r->id >= 0 && strcmp(name, r->label) == 0) return r->id;
    return -1;
}

tabai_status tabai_kernel_available(tabai_kernel k) {
    if (k == TABAI_KERNEL_AUTO) return TABAI_OK;
    const tabai_kernel_rec *r = tabai_registry_find_id((int)k);
    if (!r) return TABAI_ERR_KERNEL;
    /* the tier in use (TABAI_CPU caps it) and the features the kernel's file was built for */
    return tabai_registry_usable(r) ? TABAI_OK : TABAI_ERR_TIER;
}

tabai_status tabai_mul_with(tabai_kernel k, uint64_t *r, const uint64_t *a, const uint64_t *b,
                            size_t n) {
    if (!r || !a || !b) return TABAI_ERR_NULL;
    if (n == 0) return TABAI_ERR_SIZE;
    if (k == TABAI_KERNEL_AUTO) {
        tabai_mul_n(r, a, b, n);
        return TABAI_OK;
    }
    const tabai_kernel_rec *rec = tabai_registry_find_id((int)k);
    if (!rec || rec->op != TABAI_KOP_MUL || n > TABAI_MAX_LIMBS) return TABAI_ERR_KERNEL;
    if (!tabai_registry_usable(rec)) return TABAI_ERR_TIER;
    ((tabai_mul_n_fn)rec->fn)(r, a, b, n);
    return TABAI_OK;
}

tabai_status tabai_ohta_mul_with(tabai_kernel k, const tabai_ohta *ctx, uint64_t *r,
                                 const uint64_t *a, const uint64_t *b) {
    if (!ctx || !r || !a || !b) return TABAI_ERR_NULL;
    const tabai_kernel_rec *rec = tabai_registry_find_id((int)k);
    if (k != TABAI_KERNEL_AUTO && (!rec || rec->op != TABAI_KOP_OHTA_MUL)) return TABAI_ERR_KERNEL;
    /* public: an unreduced operand is an error */
    if (!(tabai_reduced_public(a, ctx->p, ctx->n) & tabai_reduced_public(b, ctx->p, ctx->n)))
        return TABAI_ERR_RANGE;
    uint64_t t[TABAI_MAX_LIMBS]; /* r may alias a or b: the kernels read them first anyway */
    if (k == TABAI_KERNEL_AUTO) tabai_ohta_mul_unchecked(ctx, t, a, b);
    else ((tabai_ohta_mul_fn)rec->fn)(ctx, t, a, b);
    memcpy(r, t, ctx->n * sizeof(uint64_t));
    return TABAI_OK;
}
