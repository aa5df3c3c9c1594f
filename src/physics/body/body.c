/* What a body is: the physics component types, collider constructors and
 * world-space bounds, rigid-body constructors and the mass rules of the
 * reference pipeline (mass 0 means static: infinite mass, no gravity, never
 * moves; docs/simulation.md, "Where the engine started"). */
#include <string.h>

#include "voltex/physics.h"

vx_status vx_physics_register_components(vx_registry *registry)
{
    vx_status st = vx_registry_register_component(registry, VX_COMPONENT_TRANSFORM, sizeof(vx_transform));
    if (st != VX_OK) return st;
    st = vx_registry_register_component(registry, VX_COMPONENT_COLLIDER, sizeof(vx_collider));
    if (st != VX_OK) return st;
    return vx_registry_register_component(registry, VX_COMPONENT_RIGIDBODY, sizeof(vx_rigidbody));
}

vx_collider vx_collider_sphere(float radius)
{
    vx_collider c;
    memset(&c, 0, sizeof c); /* no stray padding bytes in a component */
    c.type = VX_SHAPE_SPHERE;
    c.category = VX_DEFAULT_CATEGORY;
    c.mask = VX_DEFAULT_MASK;
    c.radius = radius;
    return c;
}

vx_collider vx_collider_box(vx_vec3 half_extents)
{
    vx_collider c;
    memset(&c, 0, sizeof c);
    c.type = VX_SHAPE_BOX;
    c.category = VX_DEFAULT_CATEGORY;
    c.mask = VX_DEFAULT_MASK;
    c.half_extents = half_extents;
    return c;
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
    default: return 0.0f;
    }
}

vx_collider vx_collider_capsule(float radius, float half_height)
{
    vx_collider c;
    memset(&c, 0, sizeof c);
    c.type = VX_SHAPE_CAPSULE;
    c.category = VX_DEFAULT_CATEGORY;
    c.mask = VX_DEFAULT_MASK;
    c.radius = radius;
    c.half_height = half_height;
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

#define VX_DEFAULT_RESTITUTION 0.3f /* the reference pipeline's default: a mildly bouncy body */
#define VX_DEFAULT_FRICTION 0.5f    /* common engine default for a Coulomb coefficient */

/* Every field set, padding zeroed: components are copied and compared bytewise. */
static vx_rigidbody rigidbody_base(vx_body_type type, float mass, float gravity_scale)
{
    vx_rigidbody rb;
    memset(&rb, 0, sizeof rb);
    rb.type = type;
    rb.velocity = vx_vec3_zero();
    rb.angular_velocity = vx_vec3_zero();
    rb.mass = mass;
    rb.restitution = VX_DEFAULT_RESTITUTION;
    rb.friction = VX_DEFAULT_FRICTION;
    rb.gravity_scale = gravity_scale;
    rb.linear_damping = 0.0f;
    rb.angular_damping = 0.0f;
    rb.lock_rotation = false;
    rb.can_sleep = true;
    rb.bullet = false;
    return rb;
}

vx_rigidbody vx_rigidbody_dynamic(float mass) { return rigidbody_base(VX_BODY_DYNAMIC, mass, 1.0f); }

/* The reference pipeline's statik(): mass 0 and gravity_scale 0. */
vx_rigidbody vx_rigidbody_static(void) { return rigidbody_base(VX_BODY_STATIC, 0.0f, 0.0f); }

vx_rigidbody vx_rigidbody_kinematic(void) { return rigidbody_base(VX_BODY_KINEMATIC, 0.0f, 0.0f); }

float vx_rigidbody_inv_mass(const vx_rigidbody *rb)
{
    if (rb->type != VX_BODY_DYNAMIC || !(rb->mass > 0.0f)) return 0.0f;
    return 1.0f / rb->mass;
}

/* The rule mass == 0 -> static also holds for a body typed dynamic
 * (a non-positive or NaN mass cannot move either). */
bool vx_rigidbody_is_static(const vx_rigidbody *rb)
{
    return rb->type == VX_BODY_STATIC || (rb->type == VX_BODY_DYNAMIC && !(rb->mass > 0.0f));
}
