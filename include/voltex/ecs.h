/* Entity-component store: generational entity ids, one sparse set with a dense
 * array per component type, and views over several component types.
 * It knows nothing of physics: component types are numbers with a size. */
#ifndef VOLTEX_ECS_H
#define VOLTEX_ECS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "voltex/error.h"
#include "voltex/math.h"

/* index names a slot; generation counts how often the slot was reused, so a
 * stale id (its entity despawned) never aliases a newer entity in that slot. */
typedef struct {
    uint32_t index;
    uint32_t generation;
} vx_entity;

#define VX_ENTITY_NULL ((vx_entity){UINT32_MAX, 0u})
#define VX_MAX_COMPONENT_TYPES 32u
#define VX_VIEW_MAX_TYPES 8u

typedef uint32_t vx_component_type; /* 0 .. VX_MAX_COMPONENT_TYPES-1 */

typedef struct vx_registry vx_registry;

/* Position and orientation; every simulated entity has one. */
typedef struct {
    vx_vec3 position;
    vx_quat rotation;
} vx_transform;

vx_transform vx_transform_identity(void);
vx_transform vx_transform_from_position(vx_vec3 position);

bool vx_entity_equal(vx_entity a, vx_entity b);

/* NULL when out of memory. */
vx_registry *vx_registry_create(void);
void vx_registry_destroy(vx_registry *registry);

/* Declares component type `type` holding values of `size` bytes. Fails with
 * VX_ERR_INVALID if type is out of range, already registered or size is 0. */
vx_status vx_registry_register_component(vx_registry *registry, vx_component_type type, size_t size);
bool vx_registry_has_component_type(const vx_registry *registry, vx_component_type type);

/* New entity (reusing a freed slot with a bumped generation). */
vx_status vx_registry_spawn(vx_registry *registry, vx_entity *out);
/* Removes the entity and all its components; false if e is stale or invalid. */
bool vx_registry_despawn(vx_registry *registry, vx_entity e);
bool vx_registry_is_alive(const vx_registry *registry, vx_entity e);
size_t vx_registry_entity_count(const vx_registry *registry);

/* Adds (or overwrites) e's component of `type`, copying `size` bytes from value.
 * VX_ERR_INVALID for a stale entity or an unregistered type. */
vx_status vx_registry_add(vx_registry *registry, vx_entity e, vx_component_type type, const void *value);
/* Pointer to e's component of `type` (valid until the next add/remove of that
 * type), or NULL if e is stale or has none. */
void *vx_registry_get(vx_registry *registry, vx_entity e, vx_component_type type);
const void *vx_registry_get_const(const vx_registry *registry, vx_entity e, vx_component_type type);
bool vx_registry_has(const vx_registry *registry, vx_entity e, vx_component_type type);
/* false if e is stale or has no such component. */
bool vx_registry_remove(vx_registry *registry, vx_entity e, vx_component_type type);
/* A number that changes whenever an entity is spawned or despawned or a
 * component type registered, or a component added (not overwritten) or
 * removed, and that no other registry ever has: while it stays the same, the
 * pointers vx_registry_get returned stay valid and every view finds the same
 * entities in the same order. */
uint64_t vx_registry_layout(const vx_registry *registry);
/* Number of entities that have a component of `type`. */
size_t vx_registry_component_count(const vx_registry *registry, vx_component_type type);

/* Iterates the entities that have every listed component type. It walks the
 * dense array of the smallest set, so the order is that set's dense order
 * (insertion order while nothing is removed). Do not add or remove components
 * of the viewed types while iterating. */
typedef struct {
    vx_registry *registry;
    vx_component_type types[VX_VIEW_MAX_TYPES];
    size_t type_count;
    size_t driver;        /* index in types of the smallest set */
    size_t cursor;        /* next dense slot of the driver set */
    vx_entity entity;     /* current entity */
    void *components[VX_VIEW_MAX_TYPES]; /* current entity's components */
} vx_view;

/* type_count in 1..VX_VIEW_MAX_TYPES, every type registered (else
 * VX_ERR_INVALID). */
vx_status vx_view_begin(vx_view *q, vx_registry *registry, const vx_component_type *types, size_t type_count);
/* Advances to the next match; false when done. */
bool vx_view_next(vx_view *q);
/* Component i (in the order given to begin) of the current entity. */
static inline void *vx_view_get(const vx_view *q, size_t i) { return q->components[i]; }

#endif
