/* The memory budget of a run (--memory-budget MB): by default three
 * quarters of the memory this process may have, the least of the machine's
 * memory, its cgroup's limit and its address-space and data limits
 * (ulimit -v, -d). The step holds it through vx_world_def.max_pairs, the
 * pairs of bodies that grow with the square of the count. */
#ifndef VX_CLI_MEMORY_BUDGET_H
#define VX_CLI_MEMORY_BUDGET_H

#include <stddef.h>

/* bytes */
double vx_cli_default_memory_budget(void);
/* The pairs a budget of that many bytes allows (at least 1). */
size_t vx_cli_max_pairs(double budget_bytes);

#endif
