/* The engine as a library: a world made from a def, bodies and their shapes
 * made from defs and addressed by their entity ids, the fixed step, poses,
 * velocities and contacts. docs/library.md walks through a program.
 *
 * A world owns a registry (voltex/ecs.h) that stores its entities and their
 * components: a body is an entity with a transform and a rigid body, and a
 * collider when it has a shape. Programs may keep components of their own
 * there (types from VX_COMPONENT_USER on). Functions that can fail return a
 * status and fill a vx_error (NULL: no message) with a one-line message. */
#ifndef VOLTEX_WORLD_H
#define VOLTEX_WORLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "voltex/ecs.h"
#include "voltex/error.h"
#include "voltex/math.h"
#include "voltex/physics.h"

typedef struct vx_world vx_world;

/* A new world with def's settings (vx_world_def_default, then change what
 * matters); NULL with err filled when a setting is out of range (the message
 * names it) or memory runs out. */
vx_world *vx_world_create(const vx_world_def *def, vx_error *err);
void vx_world_destroy(vx_world *world);

const vx_world_def *vx_world_get_def(const vx_world *world);
/* New settings for the next steps, checked as vx_world_create checks them;
 * on failure the world keeps its settings. */
vx_status vx_world_set_def(vx_world *world, const vx_world_def *def, vx_error *err);

/* The world's entities and components. */
vx_registry *vx_world_registry(vx_world *world);
const vx_registry *vx_world_registry_const(const vx_world *world);

/* ---- bodies ---- */
typedef struct {
    vx_body_type type;
    vx_vec3 position;         /* m, world */
    vx_quat rotation;         /* unit (vx_quat_normalize); identity by default */
    vx_vec3 velocity;         /* m/s, world */
    vx_vec3 angular_velocity; /* rad/s, world */
    float mass;               /* kg, > 0 for a dynamic body; ignored for the others */
    float restitution;        /* 0..1, a pair uses the smaller */
    float friction;           /* >= 0 Coulomb coefficient, a pair uses sqrt(a*b) */
    float gravity_scale;
    float linear_damping;  /* >= 0, 1/s */
    float angular_damping; /* >= 0, 1/s */
    bool lock_rotation;    /* never rotates */
    bool can_sleep;        /* false: never put to sleep (def.sleeping) */
    bool bullet;           /* continuous collision against dynamic bodies too */
} vx_body_def;

/* Dynamic, mass 1 kg, at the origin, at rest, restitution 0.3, friction
 * 0.5, gravity scale 1, no damping, may sleep. */
vx_body_def vx_body_def_default(void);
/* The def of a body with this pose and these rigid-body values (a
 * vx_rigidbody from vx_rigidbody_dynamic / _static / _kinematic, changed). */
vx_body_def vx_body_def_of(const vx_transform *transform, const vx_rigidbody *body);

/* A new body: an entity with a transform and a rigid body, no shape yet
 * (a body without a shape moves but touches nothing). */
vx_status vx_world_create_body(vx_world *world, const vx_body_def *def, vx_entity *out, vx_error *err);
/* Gives body its shape (vx_collider_sphere, _box, _capsule, _hull, _mesh,
 * _compound), or replaces it: sizes must be positive and finite, a hull,
 * mesh or compound one of this world's; a mesh needs a static or kinematic
 * body, a heightfield a static one. */
vx_status vx_body_set_shape(vx_world *world, vx_entity body, const vx_collider *shape, vx_error *err);
/* The convex hull of count points (4 to VX_MAX_HULL_POINTS, finite, in the
 * frame the shape's entity will place them in), for vx_collider_hull. The
 * world owns it until it is destroyed; any number of bodies may share it.
 * VX_ERR_INVALID with a message that says why (fewer than 4 distinct
 * points, all on one plane or line, too many, not finite); VX_ERR_NOMEM.
 * A body with a hull is simulated about the hull's centre of mass
 * (vx_hull_get_info); its pose and velocity stay those of its entity's
 * origin. */
vx_status vx_world_make_hull(vx_world *world, const vx_vec3 *points, size_t count, const vx_hull **out,
                             vx_error *err);
/* A triangle mesh (vx_collider_mesh) of triangle_count triangles, each 3
 * indices into vertices (counter-clockwise seen from the front; the
 * triangles are two-sided all the same), in the frame of the shape's
 * entity. The world owns it; any number of static or kinematic bodies may
 * share it. VX_ERR_INVALID with a message naming the triangle for an index
 * out of range or a degenerate triangle (vx_triangle_is_degenerate), or for
 * a non-finite vertex; VX_ERR_NOMEM. */
vx_status vx_world_make_mesh(vx_world *world, const vx_vec3 *vertices, size_t vertex_count, const uint32_t *indices,
                             size_t triangle_count, const vx_mesh **out, vx_error *err);
/* A heightfield (vx_collider_mesh) of rows x columns heights (at least 2 x
 * 2, row by row): height[j * columns + i] is at (i spacing_x, height,
 * j spacing_z) in the frame of the shape's entity; each cell is two
 * triangles split along the diagonal from (i, j) to (i + 1, j + 1). The
 * space under it is not solid. For static bodies. */
vx_status vx_world_make_heightfield(vx_world *world, const float *heights, size_t rows, size_t columns,
                                    float spacing_x, float spacing_z, const vx_mesh **out, vx_error *err);
/* A compound (vx_collider_compound) of count parts (1 to
 * VX_MAX_COMPOUND_PARTS), each a sphere, box, capsule (sizes positive and
 * finite) or a hull of this world, placed by a finite pose (rotation unit)
 * in the frame of the shape's entity. The world owns it; any number of
 * bodies may share it. A body's mass is spread over the parts by volume;
 * it is simulated about their common centre of mass, along the principal
 * axes (vx_compound_get_info), while its pose and velocity stay those of
 * its entity's origin. VX_ERR_INVALID with a message naming the part
 * ("compound: parts[2]: ..."); VX_ERR_NOMEM. */
vx_status vx_world_make_compound(vx_world *world, const vx_compound_part *parts, size_t count,
                                 const vx_compound **out, vx_error *err);
/* Removes the body and all its components; false if it is not in the world. */
bool vx_world_destroy_body(vx_world *world, vx_entity body);

/* Pose and velocities of an entity, world frame: p position, q orientation,
 * v linear and w angular velocity (0 without a rigid body). */
typedef struct {
    vx_vec3 p;
    vx_quat q;
    vx_vec3 v;
    vx_vec3 w;
} vx_body_state;

/* VX_ERR_INVALID when the entity is not in the world or has no transform. */
vx_status vx_body_get_state(const vx_world *world, vx_entity body, vx_body_state *out, vx_error *err);
/* Moves the body there (a sleeping body wakes); rotation unit. */
vx_status vx_body_set_transform(vx_world *world, vx_entity body, vx_vec3 position, vx_quat rotation,
                                vx_error *err);
vx_status vx_body_set_velocity(vx_world *world, vx_entity body, vx_vec3 velocity, vx_vec3 angular_velocity,
                               vx_error *err);

/* ---- the step ---- */
/* One fixed step of the def's dt. VX_ERR_NOMEM (the world is then as it
 * was), VX_ERR_NONFINITE when the simulation produced NaN or infinity. */
vx_status vx_world_step(vx_world *world, vx_error *err);
/* The contact points of the last step (vx_contact: sorted by entity a,
 * entity b, part, feature; empty before the first step). */
const vx_contact_list *vx_world_contacts(const vx_world *world);
/* Dynamic bodies awake after the last step (all of them when sleeping is off). */
size_t vx_world_awake_count(const vx_world *world);
/* When on, every step times its stages (results never depend on it). */
void vx_world_set_profiling(vx_world *world, bool on);
/* The stage times of the last step (zero unless profiling is on). */
vx_stage_times vx_world_stage_times(const vx_world *world);

#endif
