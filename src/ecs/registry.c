/* Entities (generational slots with a LIFO free list) and the component API. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/assert.h"
#include "ecs/registry_internal.h"

/* Slots allocated on the first spawn; afterwards the capacity doubles. */
#define VX_WORLD_MIN_SLOTS 64u
/* Generations start at 1 so that a zero-filled vx_entity names no entity. */
#define VX_FIRST_GENERATION 1u
/* Index UINT32_MAX is VX_ENTITY_NULL's, so slots stop below it. */
#define VX_MAX_SLOTS ((size_t)UINT32_MAX)

/* The layout numbers of every registry come from one counter, so two registries
 * (one freed, one made at the same address) never share a number. */
static atomic_uint_fast64_t layout_counter = 0;

/* Something was spawned, despawned, added or removed: a new number. */
static void layout_changed(vx_registry *registry)
{
    registry->layout = (uint64_t)atomic_fetch_add_explicit(&layout_counter, 1u, memory_order_relaxed) + 1u;
}

uint64_t vx_registry_layout(const vx_registry *registry) { return registry ? registry->layout : 0u; }

bool vx_entity_equal(vx_entity a, vx_entity b)
{
    return a.index == b.index && a.generation == b.generation;
}

vx_registry *vx_registry_create(void)
{
    vx_registry *registry = calloc(1u, sizeof *registry);
    if (!registry) return NULL;
    for (size_t t = 0; t < VX_MAX_COMPONENT_TYPES; t++) vx_sparse_set_init(&registry->sets[t], 1u);
    layout_changed(registry);
    return registry;
}

void vx_registry_destroy(vx_registry *registry)
{
    if (!registry) return;
    for (size_t t = 0; t < VX_MAX_COMPONENT_TYPES; t++) vx_sparse_set_destroy(&registry->sets[t]);
    free(registry->slots);
    free(registry->free_list);
    free(registry);
}

vx_sparse_set *vx_registry_set(const vx_registry *registry, vx_component_type type)
{
    if (!registry || type >= VX_MAX_COMPONENT_TYPES || !registry->registered[type]) return NULL;
    /* The sets are owned by the registry; constness is the caller's promise. */
    return (vx_sparse_set *)&registry->sets[type];
}

vx_status vx_registry_register_component(vx_registry *registry, vx_component_type type, size_t size)
{
    if (!registry || type >= VX_MAX_COMPONENT_TYPES || size == 0u || registry->registered[type])
        return VX_ERR_INVALID;
    vx_sparse_set_init(&registry->sets[type], size);
    registry->registered[type] = true;
    layout_changed(registry);
    return VX_OK;
}

bool vx_registry_has_component_type(const vx_registry *registry, vx_component_type type)
{
    return vx_registry_set(registry, type) != NULL;
}

bool vx_registry_is_alive(const vx_registry *registry, vx_entity e)
{
    if (!registry || e.index >= registry->slot_count) return false;
    const vx_entity_slot *slot = &registry->slots[e.index];
    return slot->alive && slot->generation == e.generation;
}

size_t vx_registry_entity_count(const vx_registry *registry)
{
    return registry ? registry->alive_count : 0u;
}

/* Room for one more slot in both slots and free_list; the free list can then
 * never overflow, so despawn needs no allocation. Unchanged on failure. */
static vx_status reserve_slot(vx_registry *registry)
{
    if (registry->slot_count < registry->slot_capacity) return VX_OK;
    if (registry->slot_count >= VX_MAX_SLOTS) return VX_ERR_NOMEM;
    size_t cap = registry->slot_capacity < VX_WORLD_MIN_SLOTS ? VX_WORLD_MIN_SLOTS : registry->slot_capacity * 2u;
    if (cap > VX_MAX_SLOTS) cap = VX_MAX_SLOTS;
    vx_entity_slot *slots = realloc(registry->slots, cap * sizeof *slots);
    if (!slots) return VX_ERR_NOMEM;
    registry->slots = slots;
    uint32_t *free_list = realloc(registry->free_list, cap * sizeof *free_list);
    if (!free_list) return VX_ERR_NOMEM; /* slots grew alone: harmless */
    registry->free_list = free_list;
    registry->slot_capacity = cap;
    return VX_OK;
}

vx_status vx_registry_spawn(vx_registry *registry, vx_entity *out)
{
    if (!registry || !out) return VX_ERR_INVALID;
    uint32_t index;
    if (registry->free_count > 0u) {
        index = registry->free_list[--registry->free_count];
        VX_ASSERT(index < registry->slot_count && !registry->slots[index].alive);
    } else {
        vx_status st = reserve_slot(registry);
        if (st != VX_OK) return st;
        index = (uint32_t)registry->slot_count++;
        registry->slots[index].generation = VX_FIRST_GENERATION;
    }
    registry->slots[index].alive = true;
    registry->alive_count++;
    layout_changed(registry);
    out->index = index;
    out->generation = registry->slots[index].generation;
    return VX_OK;
}

bool vx_registry_despawn(vx_registry *registry, vx_entity e)
{
    if (!vx_registry_is_alive(registry, e)) return false;
    VX_ASSERT(registry->alive_count > 0u);
    for (size_t t = 0; t < VX_MAX_COMPONENT_TYPES; t++)
        if (registry->registered[t]) vx_sparse_set_remove(&registry->sets[t], e.index);
    vx_entity_slot *slot = &registry->slots[e.index];
    slot->alive = false;
    slot->generation++;
    /* A slot whose generation would wrap is retired rather than reused, so an
     * old id can never match again. */
    if (slot->generation != UINT32_MAX) registry->free_list[registry->free_count++] = e.index;
    VX_ASSERT(registry->free_count <= registry->slot_count);
    registry->alive_count--;
    layout_changed(registry);
    return true;
}

vx_status vx_registry_add(vx_registry *registry, vx_entity e, vx_component_type type, const void *value)
{
    vx_sparse_set *set = vx_registry_set(registry, type);
    if (!set || !value || !vx_registry_is_alive(registry, e)) return VX_ERR_INVALID;
    /* an overwrite keeps every pointer, but a new slot may move the set's values */
    bool added = vx_sparse_set_find(set, e.index) == NULL;
    vx_status st = vx_sparse_set_insert(set, e, value);
    if (st == VX_OK && added) layout_changed(registry);
    return st;
}

void *vx_registry_get(vx_registry *registry, vx_entity e, vx_component_type type)
{
    vx_sparse_set *set = vx_registry_set(registry, type);
    if (!set || !vx_registry_is_alive(registry, e)) return NULL;
    return vx_sparse_set_find(set, e.index);
}

const void *vx_registry_get_const(const vx_registry *registry, vx_entity e, vx_component_type type)
{
    const vx_sparse_set *set = vx_registry_set(registry, type);
    if (!set || !vx_registry_is_alive(registry, e)) return NULL;
    return vx_sparse_set_find(set, e.index);
}

bool vx_registry_has(const vx_registry *registry, vx_entity e, vx_component_type type)
{
    return vx_registry_get_const(registry, e, type) != NULL;
}

bool vx_registry_remove(vx_registry *registry, vx_entity e, vx_component_type type)
{
    vx_sparse_set *set = vx_registry_set(registry, type);
    if (!set || !vx_registry_is_alive(registry, e)) return false;
    if (!vx_sparse_set_remove(set, e.index)) return false;
    layout_changed(registry);
    return true;
}

size_t vx_registry_component_count(const vx_registry *registry, vx_component_type type)
{
    const vx_sparse_set *set = vx_registry_set(registry, type);
    return set ? set->count : 0u;
}
