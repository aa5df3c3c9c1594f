/* The world of the library API (voltex/world.h): a registry of physics
 * components, the settings, the step's state and the last step's contacts. */
#include "voltex/world.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "physics/body/compound.h"
#include "physics/body/hull.h"
#include "physics/body/mesh.h"
#include "physics/step.h"
#include "physics/world_internal.h"

#define VX_STR_(x) #x
#define VX_STR(x) VX_STR_(x)

/* Each setting in its range, the first one out of it named. */
static vx_status check_def(const vx_world_def *d, vx_error *err)
{
    const char *problem = NULL;
    if (!vx_vec3_is_finite(d->gravity))
        problem = "gravity: must be finite";
    else if (!(d->fixed_dt > 0.0f) || !isfinite(d->fixed_dt))
        problem = "fixed_dt: must be a positive number";
    else if (d->iterations < 1 || d->iterations > VX_MAX_ITERATIONS)
        problem = "iterations: must be 1.." VX_STR(VX_MAX_ITERATIONS);
    else if (d->position_iterations < 0 || d->position_iterations > VX_MAX_POSITION_ITERATIONS)
        problem = "position_iterations: must be 0.." VX_STR(VX_MAX_POSITION_ITERATIONS);
    else if (d->substeps < 1 || d->substeps > VX_MAX_SUBSTEPS)
        problem = "substeps: must be 1.." VX_STR(VX_MAX_SUBSTEPS);
    else if (d->threads < 1 || d->threads > VX_MAX_THREADS)
        problem = "threads: must be 1.." VX_STR(VX_MAX_THREADS);
    else if (!(d->restitution_threshold >= 0.0f) || !isfinite(d->restitution_threshold))
        problem = "restitution_threshold: must be >= 0";
    else if (!(d->baumgarte_slop >= 0.0f) || !isfinite(d->baumgarte_slop))
        problem = "baumgarte_slop: must be >= 0";
    else if (!(d->baumgarte_percent >= 0.0f && d->baumgarte_percent <= 1.0f))
        problem = "baumgarte_percent: must be 0..1";
    else if (!(d->max_correction > 0.0f) || !isfinite(d->max_correction))
        problem = "max_correction: must be > 0";
    else if (!(d->speculative_distance >= 0.0f) || !isfinite(d->speculative_distance))
        problem = "speculative_distance: must be >= 0";
    else if ((unsigned)d->broadphase > (unsigned)VX_BROADPHASE_DYNAMIC_TREE)
        problem = "broadphase: not a vx_broadphase_kind";
    else if ((unsigned)d->order > (unsigned)VX_SOLVER_ORDER_COLORED)
        problem = "order: not a vx_solver_order";
    else if ((unsigned)d->restitution > (unsigned)VX_RESTITUTION_SIMULTANEOUS)
        problem = "restitution: not a vx_restitution_model";
    if (problem) return vx_error_set(err, VX_ERR_INVALID, "world def: %s", problem);
    return VX_OK;
}

vx_world *vx_world_create(const vx_world_def *def, vx_error *err)
{
    if (!def) {
        vx_error_set(err, VX_ERR_INVALID, "world def: none given");
        return NULL;
    }
    if (check_def(def, err) != VX_OK) return NULL;
    vx_world *w = calloc(1u, sizeof *w);
    vx_registry *registry = w ? vx_registry_create() : NULL;
    if (!registry || vx_physics_register_components(registry) != VX_OK) {
        vx_registry_destroy(registry);
        free(w);
        vx_error_set(err, VX_ERR_NOMEM, "out of memory");
        return NULL;
    }
    w->registry = registry;
    w->def = *def;
    vx_step_state_init(&w->state);
    vx_joint_set_init(&w->joints);
    w->state.joints = &w->joints;
    vx_contact_list_init(&w->contacts);
    vx_world_queries_init(&w->queries);
    return w;
}

void vx_world_destroy(vx_world *world)
{
    if (!world) return;
    vx_world_queries_free(&world->queries);
    for (size_t i = 0; i < world->hull_count; i++) vx_hull_destroy(world->hulls[i]);
    free(world->hulls);
    for (size_t i = 0; i < world->mesh_count; i++) vx_mesh_destroy(world->meshes[i]);
    free(world->meshes);
    for (size_t i = 0; i < world->compound_count; i++) vx_compound_destroy(world->compounds[i]);
    free(world->compounds);
    vx_contact_list_free(&world->contacts);
    vx_step_state_free(&world->state);
    vx_joint_set_free(&world->joints);
    vx_registry_destroy(world->registry);
    free(world);
}

const vx_world_def *vx_world_get_def(const vx_world *world) { return &world->def; }

vx_status vx_world_set_def(vx_world *world, const vx_world_def *def, vx_error *err)
{
    if (!def) return vx_error_set(err, VX_ERR_INVALID, "world def: none given");
    vx_status st = check_def(def, err);
    if (st == VX_OK) world->def = *def;
    return st;
}

vx_registry *vx_world_registry(vx_world *world) { return world->registry; }

const vx_registry *vx_world_registry_const(const vx_world *world) { return world->registry; }

/* ---- bodies ---- */

vx_body_def vx_body_def_of(const vx_transform *t, const vx_rigidbody *rb)
{
    vx_body_def d;
    memset(&d, 0, sizeof d);
    d.type = rb->type;
    d.position = t->position;
    d.rotation = t->rotation;
    d.velocity = rb->velocity;
    d.angular_velocity = rb->angular_velocity;
    d.mass = rb->mass;
    d.restitution = rb->restitution;
    d.friction = rb->friction;
    d.gravity_scale = rb->gravity_scale;
    d.linear_damping = rb->linear_damping;
    d.angular_damping = rb->angular_damping;
    d.lock_rotation = rb->lock_rotation;
    d.can_sleep = rb->can_sleep;
    d.bullet = rb->bullet;
    return d;
}

vx_body_def vx_body_def_default(void)
{
    vx_transform t = vx_transform_identity();
    vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
    return vx_body_def_of(&t, &rb);
}

static bool finite_at_least(float x, float min) { return isfinite(x) && x >= min; }

static vx_status check_body_def(const vx_body_def *d, vx_error *err)
{
    const char *problem = NULL;
    if ((unsigned)d->type > (unsigned)VX_BODY_KINEMATIC)
        problem = "type: not a vx_body_type";
    else if (!vx_vec3_is_finite(d->position))
        problem = "position: must be finite";
    else if (!vx_world_is_unit_quat(d->rotation))
        problem = "rotation: must be a unit quaternion";
    else if (!vx_vec3_is_finite(d->velocity) || !vx_vec3_is_finite(d->angular_velocity))
        problem = "velocity: must be finite";
    else if (d->type == VX_BODY_DYNAMIC && !(isfinite(d->mass) && d->mass > 0.0f))
        problem = "mass: a dynamic body needs mass > 0";
    else if (!(finite_at_least(d->restitution, 0.0f) && d->restitution <= 1.0f))
        problem = "restitution: must be 0..1";
    else if (!finite_at_least(d->friction, 0.0f))
        problem = "friction: must be >= 0";
    else if (!isfinite(d->gravity_scale))
        problem = "gravity_scale: must be finite";
    else if (!finite_at_least(d->linear_damping, 0.0f) || !finite_at_least(d->angular_damping, 0.0f))
        problem = "damping: must be >= 0";
    if (problem) return vx_error_set(err, VX_ERR_INVALID, "body def: %s", problem);
    return VX_OK;
}

static vx_status add_component(vx_world *world, vx_entity e, vx_component_type type, const void *value,
                               vx_error *err)
{
    vx_status st = vx_registry_add(world->registry, e, type, value);
    if (st == VX_ERR_NOMEM) return vx_error_set(err, st, "out of memory");
    if (st != VX_OK) return vx_error_set(err, st, "entity %u: not in the world", e.index);
    return VX_OK;
}

vx_status vx_world_create_body(vx_world *world, const vx_body_def *def, vx_entity *out, vx_error *err)
{
    if (!def) return vx_error_set(err, VX_ERR_INVALID, "body def: none given");
    vx_status st = check_body_def(def, err);
    if (st != VX_OK) return st;
    vx_rigidbody rb;
    memset(&rb, 0, sizeof rb); /* components are copied and compared bytewise */
    rb.type = def->type;
    rb.velocity = def->velocity;
    rb.angular_velocity = def->angular_velocity;
    rb.mass = def->type == VX_BODY_DYNAMIC ? def->mass : 0.0f;
    rb.restitution = def->restitution;
    rb.friction = def->friction;
    rb.gravity_scale = def->gravity_scale;
    rb.linear_damping = def->linear_damping;
    rb.angular_damping = def->angular_damping;
    rb.lock_rotation = def->lock_rotation;
    rb.can_sleep = def->can_sleep;
    rb.bullet = def->bullet;
    vx_transform t;
    memset(&t, 0, sizeof t);
    t.position = def->position;
    t.rotation = def->rotation;

    vx_entity e;
    st = vx_registry_spawn(world->registry, &e);
    if (st != VX_OK) return vx_error_set(err, st, "out of memory");
    st = add_component(world, e, VX_COMPONENT_TRANSFORM, &t, err);
    if (st == VX_OK) st = add_component(world, e, VX_COMPONENT_RIGIDBODY, &rb, err);
    if (st != VX_OK) {
        vx_registry_despawn(world->registry, e);
        return st;
    }
    world->changes++;
    *out = e;
    return VX_OK;
}

static bool positive(float x) { return isfinite(x) && x > 0.0f; }

vx_status vx_world_check_shape(const vx_world *world, const vx_collider *shape, vx_collider *out, vx_error *err)
{
    if (!shape) return vx_error_set(err, VX_ERR_INVALID, "shape: none given");
    vx_collider c;
    memset(&c, 0, sizeof c); /* only the fields of its type, no stray padding */
    c.type = shape->type;
    c.sensor = shape->sensor;
    c.category = shape->category;
    c.mask = shape->mask;
    const char *problem = NULL;
    switch (shape->type) {
    case VX_SHAPE_SPHERE:
        c.radius = shape->radius;
        if (!positive(c.radius)) problem = "radius: must be > 0";
        break;
    case VX_SHAPE_BOX:
        c.half_extents = shape->half_extents;
        if (!positive(c.half_extents.x) || !positive(c.half_extents.y) || !positive(c.half_extents.z))
            problem = "half_extents: must be > 0";
        break;
    case VX_SHAPE_CAPSULE:
        c.radius = shape->radius;
        c.half_height = shape->half_height;
        if (!positive(c.radius))
            problem = "radius: must be > 0";
        else if (!positive(c.half_height))
            problem = "half_height: must be > 0";
        break;
    case VX_SHAPE_HULL:
        c.hull = shape->hull;
        if (!c.hull)
            problem = "hull: none given";
        else if (c.hull->owner != (const void *)world)
            problem = "hull: not made by this world (vx_world_make_hull)";
        break;
    case VX_SHAPE_MESH:
    case VX_SHAPE_HEIGHTFIELD:
        c.mesh = shape->mesh;
        if (!c.mesh)
            problem = "mesh: none given";
        else if (c.mesh->owner != (const void *)world)
            problem = "mesh: not made by this world (vx_world_make_mesh, vx_world_make_heightfield)";
        else if ((c.mesh->kind == VX_MESH_HEIGHTFIELD) != (shape->type == VX_SHAPE_HEIGHTFIELD))
            problem = "type: not the mesh's (vx_collider_mesh gives it)";
        break;
    case VX_SHAPE_COMPOUND:
        c.compound = shape->compound;
        if (!c.compound)
            problem = "compound: none given";
        else if (c.compound->owner != (const void *)world)
            problem = "compound: not made by this world (vx_world_make_compound)";
        break;
    default:
        problem = "type: not a vx_shape_type";
        break;
    }
    if (problem) return vx_error_set(err, VX_ERR_INVALID, "shape: %s", problem);
    *out = c;
    return VX_OK;
}

vx_status vx_body_set_shape(vx_world *world, vx_entity body, const vx_collider *shape, vx_error *err)
{
    vx_collider c;
    vx_status st = vx_world_check_shape(world, shape, &c, err);
    if (st != VX_OK) return st;
    if (!vx_registry_has(world->registry, body, VX_COMPONENT_TRANSFORM))
        return vx_error_set(err, VX_ERR_INVALID, "entity %u: not a body of the world", body.index);
    const vx_rigidbody *rb = vx_registry_get_const(world->registry, body, VX_COMPONENT_RIGIDBODY);
    vx_body_type type = rb ? rb->type : VX_BODY_STATIC;
    if (c.type == VX_SHAPE_MESH && type == VX_BODY_DYNAMIC)
        return vx_error_set(err, VX_ERR_INVALID,
                            "shape: a mesh needs a static or kinematic body (a dynamic body needs a convex shape)");
    if (c.type == VX_SHAPE_HEIGHTFIELD && type != VX_BODY_STATIC)
        return vx_error_set(err, VX_ERR_INVALID,
                            "shape: a heightfield needs a static body (a moving body needs a convex shape)");
    world->changes++;
    return add_component(world, body, VX_COMPONENT_COLLIDER, &c, err);
}

vx_status vx_world_make_hull(vx_world *world, const vx_vec3 *points, size_t count, const vx_hull **out,
                             vx_error *err)
{
    if (!points && count > 0) return vx_error_set(err, VX_ERR_INVALID, "hull: no points given");
    vx_status st = VX_OK;
    VX_RESERVE(st, world->hulls, world->hull_capacity, world->hull_count + 1u, 8u);
    if (st != VX_OK) return vx_error_set(err, st, "out of memory");
    vx_hull *h = NULL;
    st = vx_hull_build(points, count, &h, err);
    if (st != VX_OK) return st;
    vx_hull_to_principal(h);
    h->owner = world;
    world->hulls[world->hull_count++] = h;
    *out = h;
    return VX_OK;
}

/* Takes m (made, or NULL with err filled) into the world's meshes. */
static vx_status keep_mesh(vx_world *world, vx_status st, vx_mesh *m, const vx_mesh **out, vx_error *err)
{
    if (st != VX_OK) return st;
    VX_RESERVE(st, world->meshes, world->mesh_capacity, world->mesh_count + 1u, 8u);
    if (st != VX_OK) {
        vx_mesh_destroy(m);
        return vx_error_set(err, st, "out of memory");
    }
    m->owner = world;
    world->meshes[world->mesh_count++] = m;
    *out = m;
    return VX_OK;
}

vx_status vx_world_make_mesh(vx_world *world, const vx_vec3 *vertices, size_t vertex_count, const uint32_t *indices,
                             size_t triangle_count, const vx_mesh **out, vx_error *err)
{
    vx_mesh *m = NULL;
    vx_status st = vx_mesh_build(vertices, vertex_count, indices, triangle_count, &m, err);
    return keep_mesh(world, st, m, out, err);
}

vx_status vx_world_make_heightfield(vx_world *world, const float *heights, size_t rows, size_t columns,
                                    float spacing_x, float spacing_z, const vx_mesh **out, vx_error *err)
{
    vx_mesh *m = NULL;
    vx_status st = vx_mesh_build_heightfield(heights, rows, columns, spacing_x, spacing_z, &m, err);
    return keep_mesh(world, st, m, out, err);
}

bool vx_world_destroy_body(vx_world *world, vx_entity body)
{
    world->changes++;
    return vx_registry_despawn(world->registry, body);
}

vx_status vx_body_get_state(const vx_world *world, vx_entity body, vx_body_state *out, vx_error *err)
{
    const vx_transform *t = vx_registry_get_const(world->registry, body, VX_COMPONENT_TRANSFORM);
    if (!t) return vx_error_set(err, VX_ERR_INVALID, "entity %u: not in the world", body.index);
    memset(out, 0, sizeof *out);
    out->p = t->position;
    out->q = t->rotation;
    const vx_rigidbody *rb = vx_registry_get_const(world->registry, body, VX_COMPONENT_RIGIDBODY);
    if (rb) {
        out->v = rb->velocity;
        out->w = rb->angular_velocity;
    }
    return VX_OK;
}

vx_status vx_body_set_transform(vx_world *world, vx_entity body, vx_vec3 position, vx_quat rotation,
                                vx_error *err)
{
    vx_transform *t = vx_registry_get(world->registry, body, VX_COMPONENT_TRANSFORM);
    if (!t) return vx_error_set(err, VX_ERR_INVALID, "entity %u: not in the world", body.index);
    if (!vx_vec3_is_finite(position)) return vx_error_set(err, VX_ERR_INVALID, "position: must be finite");
    if (!vx_world_is_unit_quat(rotation)) return vx_error_set(err, VX_ERR_INVALID, "rotation: must be a unit quaternion");
    t->position = position;
    t->rotation = rotation;
    world->changes++;
    return VX_OK;
}

vx_status vx_body_set_velocity(vx_world *world, vx_entity body, vx_vec3 velocity, vx_vec3 angular_velocity,
                               vx_error *err)
{
    vx_rigidbody *rb = vx_registry_get(world->registry, body, VX_COMPONENT_RIGIDBODY);
    if (!rb) return vx_error_set(err, VX_ERR_INVALID, "entity %u: not a body of the world", body.index);
    if (!vx_vec3_is_finite(velocity) || !vx_vec3_is_finite(angular_velocity))
        return vx_error_set(err, VX_ERR_INVALID, "velocity: must be finite");
    rb->velocity = velocity;
    rb->angular_velocity = angular_velocity;
    return VX_OK;
}

/* ---- the step ---- */

vx_status vx_world_step(vx_world *world, vx_error *err)
{
    world->changes++;
    vx_status st = vx_step(world->registry, &world->def, &world->state, &world->contacts);
    switch (st) {
    case VX_OK: return VX_OK;
    case VX_ERR_NOMEM: return vx_error_set(err, st, "out of memory");
    case VX_ERR_BUDGET:
        return vx_error_set(err, st, "more than %zu pairs of bodies close together (the memory budget's max_pairs)",
                            world->def.max_pairs);
    case VX_ERR_NONFINITE: return vx_error_set(err, st, "the simulation became non-finite");
    default: return vx_error_set(err, st, "the engine failed");
    }
}

const vx_contact_list *vx_world_contacts(const vx_world *world) { return &world->contacts; }

size_t vx_world_awake_count(const vx_world *world) { return vx_step_awake_count(&world->state); }

void vx_world_set_profiling(vx_world *world, bool on) { vx_step_profile(&world->state, on); }

vx_stage_times vx_world_stage_times(const vx_world *world) { return vx_step_stage_times(&world->state); }
