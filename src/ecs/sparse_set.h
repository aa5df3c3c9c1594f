/* Private to the ECS: one sparse set per component type.
 *
 * sparse[entity index] holds the entity's slot in the dense arrays (or
 * VX_SPARSE_EMPTY); dense[slot] holds the entity id and values holds the
 * component bytes, packed, value_size bytes per slot. Removal swaps the last
 * slot into the hole, so the dense arrays stay contiguous. */
#ifndef VOLTEX_ECS_SPARSE_SET_H
#define VOLTEX_ECS_SPARSE_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "voltex/ecs.h"
#include "voltex/error.h"

#define VX_SPARSE_EMPTY UINT32_MAX

typedef struct {
    size_t value_size;
    uint32_t *sparse;        /* entity index -> dense slot */
    size_t sparse_capacity;  /* entries in sparse */
    vx_entity *dense;        /* dense slot -> entity id */
    unsigned char *values;   /* dense slot -> value_size bytes */
    size_t count;            /* used dense slots */
    size_t capacity;         /* dense slots allocated in both dense and values */
} vx_sparse_set;

/* An empty set of values of value_size (> 0) bytes; allocates nothing. */
void vx_sparse_set_init(vx_sparse_set *set, size_t value_size);
void vx_sparse_set_destroy(vx_sparse_set *set);

/* Dense slot of the entity at `index`, or VX_SPARSE_EMPTY. */
uint32_t vx_sparse_set_slot(const vx_sparse_set *set, uint32_t index);
/* Value of dense slot `slot` (slot < count). */
void *vx_sparse_set_value_at(const vx_sparse_set *set, size_t slot);
/* Value of the entity at `index`, or NULL. */
void *vx_sparse_set_find(const vx_sparse_set *set, uint32_t index);

/* Copies value_size bytes from value as e's value, adding a slot if e.index has
 * none. VX_ERR_NOMEM leaves the set exactly as it was (as a set). */
vx_status vx_sparse_set_insert(vx_sparse_set *set, vx_entity e, const void *value);
/* Removes the value of the entity at `index` (swap with last); false if none. */
bool vx_sparse_set_remove(vx_sparse_set *set, uint32_t index);

#endif
