/* Shapes (shape.h) and the public per-collider functions of physics.h
 * that depend on the shape's type: volume, bounds, hull accessors. */
#include "physics/body/shape.h"

#include <math.h>
#include <string.h>

#include "common/assert.h"
#include "physics/body/compound.h"
#include "physics/body/mesh.h"
#include "voltex/rotation.h"

vx_hull_info vx_hull_get_info(const vx_hull *hull)
{
    vx_hull_info info;
    memset(&info, 0, sizeof info);
    info.vertex_count = hull->vertex_count;
    info.face_count = hull->face_count;
    info.volume = hull->volume;
    info.frame = hull->frame;
    info.inertia = vx_vec3_make(hull->inertia.m[0][0], hull->inertia.m[1][1], hull->inertia.m[2][2]);
    return info;
}

vx_vec3 vx_hull_vertex(const vx_hull *hull, size_t i)
{
    VX_ASSERT(i < hull->vertex_count);
    return vx_vec3_add(hull->frame.position, vx_quat_rotate(hull->frame.rotation, hull->vertices[i]));
}

/* The shape's body frame in its entity's frame; NULL for the identity. */
static const vx_transform *frame_of(const vx_collider *c)
{
    if (c->type == VX_SHAPE_HULL) return &c->hull->frame;
    if (c->type == VX_SHAPE_COMPOUND) return &c->compound->frame;
    return NULL;
}

bool vx_shape_has_frame(const vx_collider *c)
{
    const vx_transform *f = frame_of(c);
    if (!f) return false;
    return f->position.x != 0.0f || f->position.y != 0.0f || f->position.z != 0.0f || f->rotation.x != 0.0f ||
           f->rotation.y != 0.0f || f->rotation.z != 0.0f || f->rotation.w != 1.0f;
}

vx_transform vx_shape_frame(const vx_collider *c)
{
    const vx_transform *f = frame_of(c);
    if (f) return *f;
    vx_transform t = {vx_vec3_zero(), vx_quat_identity()};
    return t;
}

vx_transform vx_shape_pose(const vx_collider *c, const vx_transform *entity)
{
    if (!vx_shape_has_frame(c)) return *entity;
    const vx_transform *f = frame_of(c);
    vx_transform t;
    t.position = vx_vec3_add(entity->position, vx_quat_rotate(entity->rotation, f->position));
    t.rotation = vx_quat_normalize(vx_quat_mul(entity->rotation, f->rotation));
    return t;
}

vx_transform vx_shape_entity_pose(const vx_collider *c, const vx_transform *body)
{
    if (!vx_shape_has_frame(c)) return *body;
    const vx_transform *f = frame_of(c);
    vx_transform t;
    t.rotation = vx_quat_normalize(vx_quat_mul(body->rotation, vx_quat_conjugate(f->rotation)));
    t.position = vx_vec3_sub(body->position, vx_quat_rotate(t.rotation, f->position));
    return t;
}

#define VX_PI_D 3.14159265358979323846

float vx_collider_volume(const vx_collider *c)
{
    double r = c->radius, sphere = 4.0 / 3.0 * VX_PI_D * r * r * r;
    switch (c->type) {
    case VX_SHAPE_SPHERE: return (float)sphere;
    case VX_SHAPE_BOX:
        return (float)(8.0 * (double)c->half_extents.x * (double)c->half_extents.y * (double)c->half_extents.z);
    case VX_SHAPE_CAPSULE: return (float)(sphere + VX_PI_D * r * r * 2.0 * (double)c->half_height);
    case VX_SHAPE_HULL: return c->hull->volume;
    case VX_SHAPE_COMPOUND: return c->compound->volume;
    case VX_SHAPE_MESH:
    case VX_SHAPE_HEIGHTFIELD: /* surfaces: no volume */
    default: return 0.0f;
    }
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

/* fminf and fmaxf as glibc computes them on x86-64 (the other operand when
 * one is NaN, else minss/maxss: b on ties, so -0 against +0 gives b),
 * written out so the loop below needs no call per coordinate. */
static float min_as_fminf(float a, float b) { return (a < b || b != b) ? a : b; }
static float max_as_fmaxf(float a, float b) { return (a > b || b != b) ? a : b; }

/* The hull's vertices turned into the world: tight bounds. */
static vx_aabb hull_aabb(const vx_hull *h, vx_vec3 x, vx_quat q)
{
    vx_mat3 r = vx_mat3_from_quat(q);
    vx_vec3 lo = vx_mat3_mul_vec3(&r, h->vertices[0]), hi = lo;
    for (int i = 1; i < h->vertex_count; i++) {
        vx_vec3 p = vx_mat3_mul_vec3(&r, h->vertices[i]);
        lo = vx_vec3_make(min_as_fminf(lo.x, p.x), min_as_fminf(lo.y, p.y), min_as_fminf(lo.z, p.z));
        hi = vx_vec3_make(max_as_fmaxf(hi.x, p.x), max_as_fmaxf(hi.y, p.y), max_as_fmaxf(hi.z, p.z));
    }
    return vx_aabb_new(vx_vec3_add(x, lo), vx_vec3_add(x, hi));
}

static vx_aabb compound_aabb(const vx_compound *c, vx_vec3 x, vx_quat q);

vx_aabb vx_shape_aabb(const vx_collider *c, vx_vec3 position, vx_quat rotation)
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
    case VX_SHAPE_HULL: return hull_aabb(c->hull, position, rotation);
    case VX_SHAPE_COMPOUND: return compound_aabb(c->compound, position, rotation);
    case VX_SHAPE_MESH:
    case VX_SHAPE_HEIGHTFIELD: {
        /* the bounds of the rotated bounds */
        vx_mat3 r = vx_mat3_from_quat(rotation);
        vx_aabb b = c->mesh->bounds;
        vx_vec3 centre = vx_vec3_add(position, vx_mat3_mul_vec3(&r, vx_aabb_center(b)));
        return vx_aabb_from_center_half_extents(centre, rotated_half_extents(&r, vx_aabb_half_extents(b)));
    }
    case VX_SHAPE_SPHERE:
    default:
        /* A sphere's bounds do not depend on its rotation. */
        return vx_aabb_from_center_half_extents(position, vx_vec3_make(c->radius, c->radius, c->radius));
    }
}

/* The union of the parts' bounds. */
static vx_aabb compound_aabb(const vx_compound *c, vx_vec3 x, vx_quat q)
{
    vx_transform body = {x, q};
    vx_aabb box = vx_aabb_new(vx_vec3_zero(), vx_vec3_zero());
    for (uint32_t i = 0; i < c->part_count; i++) {
        vx_transform t = vx_compound_part_pose(c, i, &body);
        vx_aabb part = vx_shape_aabb(&c->parts[i].shape, t.position, t.rotation);
        box = i == 0 ? part : vx_aabb_merged(box, part);
    }
    return box;
}

vx_aabb vx_collider_aabb(const vx_collider *c, vx_vec3 position, vx_quat rotation)
{
    vx_transform entity = {position, rotation};
    vx_transform body = vx_shape_pose(c, &entity);
    return vx_shape_aabb(c, body.position, body.rotation);
}

vx_vec3 vx_shape_inertia(const vx_collider *c, float mass)
{
    switch (c->type) {
    case VX_SHAPE_BOX: return vx_inertia_box(mass, c->half_extents);
    case VX_SHAPE_CAPSULE: return vx_inertia_capsule(mass, c->radius, c->half_height);
    case VX_SHAPE_HULL: {
        /* the hull's moments are for density 1: scale by the density */
        const vx_hull *h = c->hull;
        double density = (double)mass / (double)h->volume;
        return vx_vec3_make((float)(density * h->inertia.m[0][0]), (float)(density * h->inertia.m[1][1]),
                            (float)(density * h->inertia.m[2][2]));
    }
    case VX_SHAPE_COMPOUND: {
        const vx_compound *k = c->compound;
        double density = (double)mass / (double)k->volume;
        return vx_vec3_make((float)(density * k->inertia.x), (float)(density * k->inertia.y),
                            (float)(density * k->inertia.z));
    }
    case VX_SHAPE_MESH:
    case VX_SHAPE_HEIGHTFIELD: return vx_vec3_zero(); /* never dynamic */
    case VX_SHAPE_SPHERE:
    default: return vx_inertia_sphere(mass, c->radius);
    }
}

float vx_shape_sweep_radius(const vx_collider *c)
{
    switch (c->type) {
    case VX_SHAPE_BOX: return vx_vec3_length(c->half_extents);
    case VX_SHAPE_CAPSULE: return c->half_height;
    case VX_SHAPE_HULL: return c->hull->outer_radius;
    case VX_SHAPE_COMPOUND: return c->compound->outer_radius;
    case VX_SHAPE_MESH:
    case VX_SHAPE_HEIGHTFIELD: return c->mesh->outer_radius;
    case VX_SHAPE_SPHERE:
    default: return 0.0f;
    }
}

float vx_shape_inner_radius(const vx_collider *c)
{
    switch (c->type) {
    case VX_SHAPE_BOX: return fminf(c->half_extents.x, fminf(c->half_extents.y, c->half_extents.z));
    case VX_SHAPE_HULL: return c->hull->inner_radius;
    case VX_SHAPE_COMPOUND: return c->compound->inner_radius;
    case VX_SHAPE_MESH:
    case VX_SHAPE_HEIGHTFIELD: return 0.0f; /* a surface: any depth can flip the normal */
    case VX_SHAPE_CAPSULE:
    case VX_SHAPE_SPHERE:
    default: return c->radius;
    }
}
