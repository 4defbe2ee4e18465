/* The kernel registry (src/dispatch/registry.def, one line per kernel) as a list of records. */
#ifndef TABAI_CPU_REGISTRY_H
#define TABAI_CPU_REGISTRY_H

#include "../cpu/ktypes.h"

/* Every kernel of the library, whether the CPU has it or not; ends with a NULL label. */
extern const tabai_kernel_rec tabai_registry[];
/* The record of explicit kernel id (a tabai_kernel value), or NULL. */
const tabai_kernel_rec *tabai_registry_find_id(int id);
/* 1 if the CPU has r's features and the tier in use is not below r's tier. */
int tabai_registry_usable(const tabai_kernel_rec *r);
/* The op's name in `tabai-bench --list` ("mont_mul", "mb_mont_mul", ...), NULL if unknown. */
const char *tabai_kop_name(tabai_kop op);

#endif
