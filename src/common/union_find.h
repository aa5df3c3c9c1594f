/* Union-find over slot numbers in a caller's parent array (parent[i] == i:
 * a root), with path halving. The lower slot becomes the root of a join, so
 * the same joins in any order give the same roots. */
#ifndef VOLTEX_COMMON_UNION_FIND_H
#define VOLTEX_COMMON_UNION_FIND_H

#include <stdint.h>

static inline uint32_t vx_union_find_root(uint32_t *parent, uint32_t i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

static inline void vx_union_find_join(uint32_t *parent, uint32_t a, uint32_t b)
{
    uint32_t ra = vx_union_find_root(parent, a), rb = vx_union_find_root(parent, b);
    if (ra < rb)
        parent[rb] = ra;
    else if (rb < ra)
        parent[ra] = rb;
}

#endif
