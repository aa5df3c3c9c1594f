#include "ecs/sparse_set.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/assert.h"

/* First allocation sizes; afterwards capacities double. */
#define VX_SPARSE_MIN_ENTRIES 64u
#define VX_DENSE_MIN_SLOTS 16u
/* Largest array we ask for: pointer differences within an object must fit
 * ptrdiff_t, and no allocator grants more anyway. */
#define VX_MAX_BYTES ((size_t)PTRDIFF_MAX)

void vx_sparse_set_init(vx_sparse_set *set, size_t value_size)
{
    memset(set, 0, sizeof *set);
    set->value_size = value_size;
}

void vx_sparse_set_destroy(vx_sparse_set *set)
{
    free(set->sparse);
    free(set->dense);
    free(set->values);
    memset(set, 0, sizeof *set);
}

uint32_t vx_sparse_set_slot(const vx_sparse_set *set, uint32_t index)
{
    return index < set->sparse_capacity ? set->sparse[index] : VX_SPARSE_EMPTY;
}

void *vx_sparse_set_value_at(const vx_sparse_set *set, size_t slot)
{
    VX_ASSERT(slot < set->capacity);
    return set->values + slot * set->value_size;
}

void *vx_sparse_set_find(const vx_sparse_set *set, uint32_t index)
{
    uint32_t slot = vx_sparse_set_slot(set, index);
    return slot == VX_SPARSE_EMPTY ? NULL : vx_sparse_set_value_at(set, slot);
}

/* Next capacity for `needed` elements (needed > current): at least
 * `minimum`, doubling from `current`, never above `limit`; 0 if needed > limit. */
static size_t grown_capacity(size_t current, size_t needed, size_t minimum, size_t limit)
{
    if (needed > limit) return 0u;
    size_t cap = current < minimum ? minimum : current;
    while (cap < needed) cap = cap > limit / 2u ? limit : cap * 2u;
    return cap > limit ? limit : cap;
}

/* Makes sparse cover index. On failure the set is unchanged. */
static vx_status reserve_sparse(vx_sparse_set *set, uint32_t index)
{
    if (index < set->sparse_capacity) return VX_OK;
    size_t limit = VX_MAX_BYTES / sizeof(uint32_t);
    size_t cap = grown_capacity(set->sparse_capacity, (size_t)index + 1u, VX_SPARSE_MIN_ENTRIES, limit);
    if (cap == 0u) return VX_ERR_NOMEM;
    uint32_t *grown = realloc(set->sparse, cap * sizeof *grown);
    if (!grown) return VX_ERR_NOMEM;
    /* All bits set is VX_SPARSE_EMPTY. */
    memset(grown + set->sparse_capacity, 0xFF, (cap - set->sparse_capacity) * sizeof *grown);
    set->sparse = grown;
    set->sparse_capacity = cap;
    return VX_OK;
}

/* Makes room for one more dense slot. On failure count and contents are
 * unchanged; one array may already be larger, which is harmless because
 * capacity only counts what both arrays hold. */
static vx_status reserve_dense(vx_sparse_set *set)
{
    if (set->count < set->capacity) return VX_OK;
    /* Slots are stored as uint32_t and VX_SPARSE_EMPTY is reserved. */
    size_t limit = VX_MAX_BYTES / set->value_size;
    if (limit > VX_MAX_BYTES / sizeof(vx_entity)) limit = VX_MAX_BYTES / sizeof(vx_entity);
    if (limit > (size_t)VX_SPARSE_EMPTY) limit = (size_t)VX_SPARSE_EMPTY;
    size_t cap = grown_capacity(set->capacity, set->count + 1u, VX_DENSE_MIN_SLOTS, limit);
    if (cap == 0u) return VX_ERR_NOMEM;
    vx_entity *dense = realloc(set->dense, cap * sizeof *dense);
    if (!dense) return VX_ERR_NOMEM;
    set->dense = dense;
    unsigned char *values = realloc(set->values, cap * set->value_size);
    if (!values) return VX_ERR_NOMEM;
    set->values = values;
    set->capacity = cap;
    return VX_OK;
}

vx_status vx_sparse_set_insert(vx_sparse_set *set, vx_entity e, const void *value)
{
    uint32_t slot = vx_sparse_set_slot(set, e.index);
    if (slot != VX_SPARSE_EMPTY) {
        set->dense[slot] = e;
        memcpy(vx_sparse_set_value_at(set, slot), value, set->value_size);
        return VX_OK;
    }
    vx_status st = reserve_sparse(set, e.index);
    if (st != VX_OK) return st;
    st = reserve_dense(set);
    if (st != VX_OK) return st;
    size_t at = set->count;
    set->dense[at] = e;
    memcpy(vx_sparse_set_value_at(set, at), value, set->value_size);
    set->sparse[e.index] = (uint32_t)at;
    VX_ASSERT(set->sparse[set->dense[at].index] == at);
    set->count = at + 1u;
    return VX_OK;
}

bool vx_sparse_set_remove(vx_sparse_set *set, uint32_t index)
{
    uint32_t slot = vx_sparse_set_slot(set, index);
    if (slot == VX_SPARSE_EMPTY) return false;
    VX_ASSERT(slot < set->count && set->dense[slot].index == index);
    size_t last = set->count - 1u;
    if (slot != last) {
        vx_entity moved = set->dense[last];
        set->dense[slot] = moved;
        memcpy(vx_sparse_set_value_at(set, slot), vx_sparse_set_value_at(set, last), set->value_size);
        set->sparse[moved.index] = slot;
    }
    set->sparse[index] = VX_SPARSE_EMPTY;
    set->count = last;
    return true;
}
