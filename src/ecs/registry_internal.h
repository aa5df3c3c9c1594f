/* Private to the ECS: the registry's layout, shared by registry.c and view.c. */
#ifndef VOLTEX_ECS_REGISTRY_INTERNAL_H
#define VOLTEX_ECS_REGISTRY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecs/sparse_set.h"
#include "voltex/ecs.h"

/* One entity slot. A despawned slot keeps its bumped generation, so ids of
 * the entity that lived there no longer match. */
typedef struct {
    uint32_t generation;
    bool alive;
} vx_entity_slot;

struct vx_registry {
    vx_entity_slot *slots;
    size_t slot_count;       /* slots ever handed out */
    size_t slot_capacity;    /* allocated in slots and free_list */
    uint32_t *free_list;     /* stack of dead slot indices; reused last-in first-out */
    size_t free_count;
    size_t alive_count;
    bool registered[VX_MAX_COMPONENT_TYPES];
    vx_sparse_set sets[VX_MAX_COMPONENT_TYPES];
    uint64_t layout; /* vx_registry_layout: a fresh number at every change of what exists */
};

/* The set of a registered type, or NULL (unregistered or out of range). */
vx_sparse_set *vx_registry_set(const vx_registry *registry, vx_component_type type);

#endif
