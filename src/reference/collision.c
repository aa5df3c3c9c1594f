/* Collision detection over a registry (the reference pipeline's detect_collisions):
 * gather every entity with a transform and a collider, broad phase with a
 * BVH over their bounds, narrow phase on each candidate pair by shape. */
#include <stdlib.h>
#include <string.h>

#include "physics/collision/bvh.h"
#include "voltex/reference.h"

/* What the narrow phase needs of one entity, gathered once per call. */
typedef struct {
    vx_entity entity;
    vx_vec3 position;
    vx_collider collider;
    bool movable; /* has a rigid body that is not static (kinematic moves) */
} body_info;

/* Scratch of one call; no context argument exists, so it lives per call. */
typedef struct {
    body_info *bodies;
    size_t body_count;
    uint32_t *slot_of_index; /* entity index -> position in bodies */
    vx_bvh_entry *entries;
    vx_bvh bvh;
    vx_pair_list pairs;
} detect_scratch;

static void scratch_free(detect_scratch *s)
{
    free(s->bodies);
    free(s->slot_of_index);
    free(s->entries);
    vx_bvh_free(&s->bvh);
    vx_pair_list_free(&s->pairs);
}

static vx_status gather_bodies(vx_registry *registry, detect_scratch *s)
{
    size_t capacity = vx_registry_component_count(registry, VX_COMPONENT_COLLIDER);
    if (capacity == 0) return VX_OK;
    s->bodies = calloc(capacity, sizeof *s->bodies);
    s->entries = calloc(capacity, sizeof *s->entries);
    if (!s->bodies || !s->entries) return VX_ERR_NOMEM;

    const vx_component_type types[2] = {VX_COMPONENT_TRANSFORM, VX_COMPONENT_COLLIDER};
    vx_view q;
    vx_status st = vx_view_begin(&q, registry, types, 2);
    if (st != VX_OK) return st;
    uint32_t max_index = 0;
    while (vx_view_next(&q) && s->body_count < capacity) {
        const vx_transform *t = vx_view_get(&q, 0);
        const vx_collider *c = vx_view_get(&q, 1);
        const vx_rigidbody *rb = vx_registry_get_const(registry, q.entity, VX_COMPONENT_RIGIDBODY);
        body_info *b = &s->bodies[s->body_count];
        b->entity = q.entity;
        b->position = t->position;
        b->collider = *c;
        b->movable = rb != NULL && rb->type != VX_BODY_STATIC;
        s->entries[s->body_count].entity = q.entity;
        s->entries[s->body_count].aabb = vx_collider_aabb(c, t->position, t->rotation);
        if (q.entity.index > max_index) max_index = q.entity.index;
        s->body_count++;
    }
    if (s->body_count == 0) return VX_OK;

    s->slot_of_index = calloc((size_t)max_index + 1u, sizeof *s->slot_of_index);
    if (!s->slot_of_index) return VX_ERR_NOMEM;
    for (size_t i = 0; i < s->body_count; i++) s->slot_of_index[s->bodies[i].entity.index] = (uint32_t)i;
    return VX_OK;
}

/* The narrow phase for a pair of shapes, with a the lower entity index. The
 * sphere-box function wants the sphere as A: for a box-sphere pair it runs
 * with the roles swapped and the result is turned back to a -> b. Capsules
 * have no narrow phase yet (the scene loader rejects them): no contact. */
static bool narrow_phase(const body_info *a, const body_info *b, vx_contact_geom *g)
{
    const vx_collider *ca = &a->collider;
    const vx_collider *cb = &b->collider;
    if (ca->type == VX_SHAPE_SPHERE && cb->type == VX_SHAPE_SPHERE)
        return vx_sphere_vs_sphere(a->position, ca->radius, b->position, cb->radius, g);
    if (ca->type == VX_SHAPE_SPHERE && cb->type == VX_SHAPE_BOX)
        return vx_sphere_vs_box(a->position, ca->radius, b->position, cb->half_extents, g);
    if (ca->type == VX_SHAPE_BOX && cb->type == VX_SHAPE_SPHERE) {
        if (!vx_sphere_vs_box(b->position, cb->radius, a->position, ca->half_extents, g)) return false;
        vx_vec3 sphere_point = g->point_a;
        g->normal = vx_vec3_neg(g->normal);
        g->point_a = g->point_b;
        g->point_b = sphere_point;
        return true; /* the feature names the box region either way */
    }
    if (ca->type == VX_SHAPE_BOX && cb->type == VX_SHAPE_BOX)
        return vx_box_vs_box(a->position, ca->half_extents, b->position, cb->half_extents, g);
    return false;
}

static vx_status find_contacts(detect_scratch *s, vx_contact_list *out)
{
    for (size_t i = 0; i < s->pairs.count; i++) {
        const vx_entity_pair *p = &s->pairs.items[i];
        const body_info *a = &s->bodies[s->slot_of_index[p->a.index]];
        const body_info *b = &s->bodies[s->slot_of_index[p->b.index]];
        if (!a->movable && !b->movable) continue; /* nothing could respond */

        vx_contact_geom g;
        if (!narrow_phase(a, b, &g)) continue;

        vx_contact c;
        memset(&c, 0, sizeof c); /* padding too: contacts are compared and written */
        c.entity_a = a->entity;
        c.entity_b = b->entity;
        c.normal = g.normal;
        c.depth = g.depth;
        c.point_on_a = g.point_a;
        c.point_on_b = g.point_b;
        c.feature = g.feature;
        c.impulse = 0.0f;
        c.sensor = a->collider.sensor || b->collider.sensor;
        vx_status st = vx_contact_list_push(out, &c);
        if (st != VX_OK) return st;
    }
    return VX_OK;
}

vx_status vx_detect_collisions(vx_registry *registry, vx_contact_list *out)
{
    vx_contact_list_clear(out);
    /* A registry without the physics components has nothing to collide. */
    if (!vx_registry_has_component_type(registry, VX_COMPONENT_TRANSFORM) ||
        !vx_registry_has_component_type(registry, VX_COMPONENT_COLLIDER))
        return VX_OK;

    detect_scratch s;
    memset(&s, 0, sizeof s);
    vx_bvh_init(&s.bvh);
    vx_pair_list_init(&s.pairs);

    vx_status st = gather_bodies(registry, &s);
    if (st == VX_OK && s.body_count > 1) {
        st = vx_bvh_build(&s.bvh, s.entries, s.body_count);
        if (st == VX_OK) st = vx_bvh_query_pairs(&s.bvh, &s.pairs);
        if (st == VX_OK) st = find_contacts(&s, out);
    }
    scratch_free(&s);
    if (st != VX_OK) {
        vx_contact_list_clear(out);
        return st;
    }
    vx_contact_list_sort(out);
    return VX_OK;
}
