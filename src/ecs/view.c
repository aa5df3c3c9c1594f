/* Queries: walk the dense array of the smallest set and keep the entities
 * that every other queried set also holds. */
#include <string.h>

#include "ecs/registry_internal.h"

vx_status vx_view_begin(vx_view *q, vx_registry *registry, const vx_component_type *types, size_t type_count)
{
    if (!q) return VX_ERR_INVALID;
    /* A failed begin leaves a view that yields nothing. */
    memset(q, 0, sizeof *q);
    q->entity = VX_ENTITY_NULL;
    if (!registry || !types || type_count == 0u || type_count > VX_VIEW_MAX_TYPES) return VX_ERR_INVALID;
    size_t smallest = SIZE_MAX;
    for (size_t i = 0; i < type_count; i++) {
        const vx_sparse_set *set = vx_registry_set(registry, types[i]);
        if (!set) return VX_ERR_INVALID;
        /* Strictly smaller: ties go to the first listed type. */
        if (set->count < smallest) {
            smallest = set->count;
            q->driver = i;
        }
    }
    memcpy(q->types, types, type_count * sizeof *types);
    q->type_count = type_count;
    q->registry = registry;
    return VX_OK;
}

bool vx_view_next(vx_view *q)
{
    if (!q || !q->registry) return false;
    const vx_sparse_set *driver = vx_registry_set(q->registry, q->types[q->driver]);
    while (q->cursor < driver->count) {
        size_t slot = q->cursor++;
        vx_entity e = driver->dense[slot];
        bool all = true;
        for (size_t i = 0; i < q->type_count && all; i++) {
            if (i == q->driver) {
                q->components[i] = vx_sparse_set_value_at(driver, slot);
            } else {
                q->components[i] = vx_sparse_set_find(vx_registry_set(q->registry, q->types[i]), e.index);
                all = q->components[i] != NULL;
            }
        }
        if (all) {
            q->entity = e;
            return true;
        }
    }
    q->entity = VX_ENTITY_NULL;
    memset(q->components, 0, sizeof q->components);
    return false;
}
