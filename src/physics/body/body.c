/* What a body is: the physics component types, collider constructors
 * (shape.c has what depends on the shape's type), rigid-body constructors and the mass rules of the
 * reference pipeline (mass 0 means static: infinite mass, no gravity, never
 * moves; docs/simulation.md, "Where the engine started"). */
#include <string.h>

#include "physics/body/mesh.h"
#include "voltex/physics.h"

vx_status vx_physics_register_components(vx_registry *registry)
{
    vx_status st = vx_registry_register_component(registry, VX_COMPONENT_TRANSFORM, sizeof(vx_transform));
    if (st != VX_OK) return st;
    st = vx_registry_register_component(registry, VX_COMPONENT_COLLIDER, sizeof(vx_collider));
    if (st != VX_OK) return st;
    return vx_registry_register_component(registry, VX_COMPONENT_RIGIDBODY, sizeof(vx_rigidbody));
}

/* Every field zero (no stray padding bytes in a component), the type and
 * the default collision filter. */
static vx_collider collider_of_type(vx_shape_type type)
{
    vx_collider c;
    memset(&c, 0, sizeof c);
    c.type = type;
    c.category = VX_DEFAULT_CATEGORY;
    c.mask = VX_DEFAULT_MASK;
    return c;
}

vx_collider vx_collider_sphere(float radius)
{
    vx_collider c = collider_of_type(VX_SHAPE_SPHERE);
    c.radius = radius;
    return c;
}

vx_collider vx_collider_box(vx_vec3 half_extents)
{
    vx_collider c = collider_of_type(VX_SHAPE_BOX);
    c.half_extents = half_extents;
    return c;
}

vx_collider vx_collider_capsule(float radius, float half_height)
{
    vx_collider c = collider_of_type(VX_SHAPE_CAPSULE);
    c.radius = radius;
    c.half_height = half_height;
    return c;
}

vx_collider vx_collider_hull(const vx_hull *hull)
{
    vx_collider c = collider_of_type(VX_SHAPE_HULL);
    c.hull = hull;
    return c;
}

vx_collider vx_collider_mesh(const vx_mesh *mesh)
{
    vx_collider c = collider_of_type(mesh && mesh->kind == VX_MESH_HEIGHTFIELD ? VX_SHAPE_HEIGHTFIELD : VX_SHAPE_MESH);
    c.mesh = mesh;
    return c;
}

vx_collider vx_collider_compound(const vx_compound *compound)
{
    vx_collider c = collider_of_type(VX_SHAPE_COMPOUND);
    c.compound = compound;
    return c;
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
