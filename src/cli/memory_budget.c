#include "cli/memory_budget.h"

#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "voltex/limits.h"

/* A cgroup's memory limit in bytes (v2, then v1), or 0 when none is found. */
static double cgroup_limit(void)
{
    static const char *const files[] = {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        FILE *f = fopen(files[i], "r");
        if (!f) continue;
        double limit = 0.0;
        int got = fscanf(f, "%lf", &limit); /* "max" reads as nothing: no limit */
        fclose(f);
        if (got == 1 && limit > 0.0) return limit;
    }
    return 0.0;
}

static double lower(double a, double b) { return b > 0.0 && (a <= 0.0 || b < a) ? b : a; }

double vx_cli_default_memory_budget(void)
{
    double bytes = 0.0;
    long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page_size > 0) bytes = (double)pages * (double)page_size;
    bytes = lower(bytes, cgroup_limit());
    const int resources[] = {RLIMIT_AS, RLIMIT_DATA};
    for (size_t i = 0; i < 2; i++) {
        struct rlimit limit;
        if (getrlimit(resources[i], &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
            bytes = lower(bytes, (double)limit.rlim_cur);
    }
    if (!(bytes > 0.0)) bytes = 4096.0 * 1048576.0; /* nothing known: 4 GiB */
    return 0.75 * bytes;
}

size_t vx_cli_max_pairs(double budget_bytes)
{
    double pairs = budget_bytes / (double)VX_PAIR_BYTES;
    if (!(pairs >= 1.0)) return 1;
    if (pairs >= (double)SIZE_MAX / 2.0) return SIZE_MAX / 2;
    return (size_t)pairs;
}
