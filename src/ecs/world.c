/* Entities (generational slots with a LIFO free list) and the component API. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "ecs/world_internal.h"

/* Slots allocated on the first spawn; afterwards the capacity doubles. */
#define VX_WORLD_MIN_SLOTS 64u
/* Generations start at 1 so that a zero-filled vx_entity names no entity. */
#define VX_FIRST_GENERATION 1u
/* Index UINT32_MAX is VX_ENTITY_NULL's, so slots stop below it. */
#define VX_MAX_SLOTS ((size_t)UINT32_MAX)

/* The layout numbers of every world come from one counter, so two worlds
 * (one freed, one made at the same address) never share a number. */
static atomic_uint_fast64_t layout_counter = 0;

/* Something was spawned, despawned, added or removed: a new number. */
static void layout_changed(vx_world *world)
{
    world->layout = (uint64_t)atomic_fetch_add_explicit(&layout_counter, 1u, memory_order_relaxed) + 1u;
}

uint64_t vx_world_layout(const vx_world *world) { return world ? world->layout : 0u; }

bool vx_entity_equal(vx_entity a, vx_entity b)
{
    return a.index == b.index && a.generation == b.generation;
}

vx_world *vx_world_create(void)
{
    vx_world *world = calloc(1u, sizeof *world);
    if (!world) return NULL;
    for (size_t t = 0; t < VX_MAX_COMPONENT_TYPES; t++) vx_sparse_set_init(&world->sets[t], 1u);
    layout_changed(world);
    return world;
}

void vx_world_destroy(vx_world *world)
{
    if (!world) return;
    for (size_t t = 0; t < VX_MAX_COMPONENT_TYPES; t++) vx_sparse_set_destroy(&world->sets[t]);
    free(world->slots);
    free(world->free_list);
    free(world);
}

vx_sparse_set *vx_world_set(const vx_world *world, vx_component_type type)
{
    if (!world || type >= VX_MAX_COMPONENT_TYPES || !world->registered[type]) return NULL;
    /* The sets are owned by the world; constness is the caller's promise. */
    return (vx_sparse_set *)&world->sets[type];
}

vx_status vx_world_register_component(vx_world *world, vx_component_type type, size_t size)
{
    if (!world || type >= VX_MAX_COMPONENT_TYPES || size == 0u || world->registered[type])
        return VX_ERR_INVALID;
    vx_sparse_set_init(&world->sets[type], size);
    world->registered[type] = true;
    layout_changed(world);
    return VX_OK;
}

bool vx_world_has_component_type(const vx_world *world, vx_component_type type)
{
    return vx_world_set(world, type) != NULL;
}

bool vx_world_is_alive(const vx_world *world, vx_entity e)
{
    if (!world || e.index >= world->slot_count) return false;
    const vx_entity_slot *slot = &world->slots[e.index];
    return slot->alive && slot->generation == e.generation;
}

size_t vx_world_entity_count(const vx_world *world)
{
    return world ? world->alive_count : 0u;
}

/* Room for one more slot in both slots and free_list; the free list can then
 * never overflow, so despawn needs no allocation. Unchanged on failure. */
static vx_status reserve_slot(vx_world *world)
{
    if (world->slot_count < world->slot_capacity) return VX_OK;
    if (world->slot_count >= VX_MAX_SLOTS) return VX_ERR_NOMEM;
    size_t cap = world->slot_capacity < VX_WORLD_MIN_SLOTS ? VX_WORLD_MIN_SLOTS : world->slot_capacity * 2u;
    if (cap > VX_MAX_SLOTS) cap = VX_MAX_SLOTS;
    vx_entity_slot *slots = realloc(world->slots, cap * sizeof *slots);
    if (!slots) return VX_ERR_NOMEM;
    world->slots = slots;
    uint32_t *free_list = realloc(world->free_list, cap * sizeof *free_list);
    if (!free_list) return VX_ERR_NOMEM; /* slots grew alone: harmless */
    world->free_list = free_list;
    world->slot_capacity = cap;
    return VX_OK;
}

vx_status vx_world_spawn(vx_world *world, vx_entity *out)
{
    if (!world || !out) return VX_ERR_INVALID;
    uint32_t index;
    if (world->free_count > 0u) {
        index = world->free_list[--world->free_count];
    } else {
        vx_status st = reserve_slot(world);
        if (st != VX_OK) return st;
        index = (uint32_t)world->slot_count++;
        world->slots[index].generation = VX_FIRST_GENERATION;
    }
    world->slots[index].alive = true;
    world->alive_count++;
    layout_changed(world);
    out->index = index;
    out->generation = world->slots[index].generation;
    return VX_OK;
}

bool vx_world_despawn(vx_world *world, vx_entity e)
{
    if (!vx_world_is_alive(world, e)) return false;
    for (size_t t = 0; t < VX_MAX_COMPONENT_TYPES; t++)
        if (world->registered[t]) vx_sparse_set_remove(&world->sets[t], e.index);
    vx_entity_slot *slot = &world->slots[e.index];
    slot->alive = false;
    slot->generation++;
    /* A slot whose generation would wrap is retired rather than reused, so an
     * old id can never match again. */
    if (slot->generation != UINT32_MAX) world->free_list[world->free_count++] = e.index;
    world->alive_count--;
    layout_changed(world);
    return true;
}

vx_status vx_world_add(vx_world *world, vx_entity e, vx_component_type type, const void *value)
{
    vx_sparse_set *set = vx_world_set(world, type);
    if (!set || !value || !vx_world_is_alive(world, e)) return VX_ERR_INVALID;
    /* an overwrite keeps every pointer, but a new slot may move the set's values */
    bool added = vx_sparse_set_find(set, e.index) == NULL;
    vx_status st = vx_sparse_set_insert(set, e, value);
    if (st == VX_OK && added) layout_changed(world);
    return st;
}

void *vx_world_get(vx_world *world, vx_entity e, vx_component_type type)
{
    vx_sparse_set *set = vx_world_set(world, type);
    if (!set || !vx_world_is_alive(world, e)) return NULL;
    return vx_sparse_set_find(set, e.index);
}

const void *vx_world_get_const(const vx_world *world, vx_entity e, vx_component_type type)
{
    const vx_sparse_set *set = vx_world_set(world, type);
    if (!set || !vx_world_is_alive(world, e)) return NULL;
    return vx_sparse_set_find(set, e.index);
}

bool vx_world_has(const vx_world *world, vx_entity e, vx_component_type type)
{
    return vx_world_get_const(world, e, type) != NULL;
}

bool vx_world_remove(vx_world *world, vx_entity e, vx_component_type type)
{
    vx_sparse_set *set = vx_world_set(world, type);
    if (!set || !vx_world_is_alive(world, e)) return false;
    if (!vx_sparse_set_remove(set, e.index)) return false;
    layout_changed(world);
    return true;
}

size_t vx_world_component_count(const vx_world *world, vx_component_type type)
{
    const vx_sparse_set *set = vx_world_set(world, type);
    return set ? set->count : 0u;
}
