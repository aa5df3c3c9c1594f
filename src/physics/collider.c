/* Collider constructors and world-space bounds for the broad phase. */
#include "voltex/physics.h"

#include <string.h>

vx_collider vx_collider_sphere(float radius)
{
    vx_collider c;
    memset(&c, 0, sizeof c); /* no stray padding bytes in a component */
    c.type = VX_SHAPE_SPHERE;
    c.radius = radius;
    return c;
}

vx_collider vx_collider_box(vx_vec3 half_extents)
{
    vx_collider c;
    memset(&c, 0, sizeof c);
    c.type = VX_SHAPE_BOX;
    c.half_extents = half_extents;
    return c;
}

/* Half extents of the world-space box that bounds a local box of half extents
 * h rotated by r: |R| * h (each world axis gathers the projections of all
 * three local half axes). */
static vx_vec3 rotated_half_extents(const vx_mat3 *r, vx_vec3 h)
{
    vx_vec3 e;
    e.x = fabsf(r->m[0][0]) * h.x + fabsf(r->m[0][1]) * h.y + fabsf(r->m[0][2]) * h.z;
    e.y = fabsf(r->m[1][0]) * h.x + fabsf(r->m[1][1]) * h.y + fabsf(r->m[1][2]) * h.z;
    e.z = fabsf(r->m[2][0]) * h.x + fabsf(r->m[2][1]) * h.y + fabsf(r->m[2][2]) * h.z;
    return e;
}

vx_aabb vx_collider_aabb(const vx_collider *c, vx_vec3 position, vx_quat rotation)
{
    switch (c->type) {
    case VX_SHAPE_BOX: {
        vx_mat3 r = vx_mat3_from_quat(rotation);
        return vx_aabb_from_center_half_extents(position, rotated_half_extents(&r, c->half_extents));
    }
    case VX_SHAPE_CAPSULE: {
        /* The segment runs along the rotated local Y axis (column 1 of R),
         * half_height each way; the caps add the radius in every direction. */
        vx_mat3 r = vx_mat3_from_quat(rotation);
        vx_vec3 axis = vx_vec3_make(r.m[0][1], r.m[1][1], r.m[2][1]);
        vx_vec3 e = vx_vec3_scale(vx_vec3_abs(axis), c->half_height);
        e = vx_vec3_add(e, vx_vec3_make(c->radius, c->radius, c->radius));
        return vx_aabb_from_center_half_extents(position, e);
    }
    case VX_SHAPE_SPHERE:
    default:
        /* A sphere's bounds do not depend on its rotation. */
        return vx_aabb_from_center_half_extents(position, vx_vec3_make(c->radius, c->radius, c->radius));
    }
}
