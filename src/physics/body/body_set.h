/* The step's bodies in contiguous arrays (private to the physics module).
 *
 * vx_step gathers every entity with a transform and a collider or a
 * rigid body from the registry once per step, in entity index order, into these
 * arrays; the stages work on them by slot number and nothing else touches the
 * ECS until the scatter at the end of the step. The arrays are split by how
 * hot they are: the velocities are read and written by every constraint row,
 * the poses by integration and the position passes, the rest is read once
 * per substep. */
#ifndef VOLTEX_PHYSICS_BODY_BODY_SET_H
#define VOLTEX_PHYSICS_BODY_BODY_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/simd4.h"
#include "common/thread_pool.h"
#include "voltex/ecs.h"
#include "voltex/physics.h"

typedef enum {
    VX_MOTION_STATIC = 0,    /* never moves: a static body or a collider without a rigid body */
    VX_MOTION_KINEMATIC = 1, /* moves at its own velocity, infinite mass in contacts */
    VX_MOTION_DYNAMIC = 2    /* integrated and pushed */
} vx_motion;

/* Linear and angular velocity, world frame: the solver's hot data. */
typedef struct {
    vx_vec3 v;
    vx_vec3 w;
} vx_body_velocity;

typedef struct {
    vx_vec3 x; /* centre of mass, world */
    vx_quat q; /* orientation, unit */
} vx_body_pose;

/* The same bits of position and orientation (-0 == +0). */
static inline bool vx_body_pose_equal(const vx_body_pose *a, const vx_body_pose *b)
{
    return a->x.x == b->x.x && a->x.y == b->x.y && a->x.z == b->x.z && a->q.x == b->q.x && a->q.y == b->q.y &&
           a->q.z == b->q.z && a->q.w == b->q.w;
}

/* Inverse mass and world-frame inverse inertia (0 for static, kinematic and
 * rotation-locked bodies), refreshed at the start of every substep. */
typedef struct {
    vx_mat3 inv_inertia;
    float inv_mass;
} vx_body_mass;

/* What a substep reads of a body besides its state. */
typedef struct {
    vx_entity entity;
    vx_transform *transform; /* into the world: valid for the step (nothing is added or removed) */
    vx_rigidbody *rigidbody; /* NULL for a collider without a rigid body */
    vx_collider collider;
    bool has_collider;
    vx_motion motion;
    bool rotates;            /* orientation is integrated (dynamic or kinematic, not locked) */
    vx_vec3 inertia;         /* principal moments, body frame; 0 when the body has none */
    vx_vec3 inv_inertia;     /* body frame; 0 for static, kinematic and locked bodies */
    vx_vec3 gravity;         /* m/s^2: gravity * gravity_scale (dynamic only) */
    float linear_damping;    /* 1/s */
    float angular_damping;   /* 1/s */
    float friction;
    float restitution;
    float sweep_radius;      /* m: how far a surface point can be from the centre, for the angular sweep */
    bool framed;             /* the body frame is not the entity's (shape.h): poses and velocities convert */
    bool asleep;             /* sleeping (sleep.h): not integrated, solved or written back */
} vx_body_info;

/* A framed body's last scatter: what it wrote into the entity and the state
 * it wrote it from. The next gather takes that state back when the entity
 * still holds those bits, so converting to the entity's frame and back
 * adds no rounding to a body the caller left alone (a resting hull stays
 * put bit for bit, and a sleeping one is recognised as unchanged). */
typedef struct {
    vx_entity entity;
    vx_transform written;
    vx_vec3 written_v; /* the origin's velocity written (or left) in the rigid body */
    vx_vec3 w;         /* the angular velocity, the same in both frames */
    vx_body_pose pose;
    vx_vec3 v;         /* the centre of mass's */
    bool valid;
} vx_body_frame_memo;

typedef struct {
    size_t count;
    size_t filtered; /* colliders whose collision filter is not the default (pairs are then checked) */
    size_t capacity;
    vx_body_velocity *velocity;
    vx_body_pose *pose;
    vx_body_mass *mass;
    vx_body_info *info;
    vx_body_frame_memo *frame_memo; /* per slot, read only for framed bodies */
    /* gather's scratch: the entities found, in entity order; they are
     * found again only when the registry's layout (vx_registry_layout) is not
     * records_layout (0: never found) */
    void *records;
    size_t record_capacity;
    size_t record_count;
    uint64_t records_layout;
} vx_body_set;

void vx_body_set_init(vx_body_set *b);
void vx_body_set_free(vx_body_set *b);

/* Fills b from the registry (cleared first): every entity with a transform and
 * a collider or a rigid body, in entity index order. gravity is the config's.
 * The entities (and their component pointers) are looked up again only when
 * the registry's layout changed since the last gather: a step of a registry whose
 * entities stay the same reads the components through the pointers it has. */
vx_status vx_body_set_gather(vx_body_set *b, vx_registry *registry, vx_vec3 gravity, vx_thread_pool *pool);
/* Writes poses and velocities of the moving bodies back into the world:
 * dynamic bodies get pose and velocities, kinematic bodies their pose;
 * static and sleeping bodies are never written. Both split the bodies
 * between the pool's threads (NULL: one); each body on its own. */
void vx_body_set_scatter(const vx_body_set *b, vx_thread_pool *pool);

/* Recomputes body slot i's world inverse inertia from its current
 * orientation (dynamic rotating bodies; the others keep 0). */
void vx_body_set_update_mass_of(vx_body_set *b, size_t i);

/* Semi-implicit Euler, first half, for the awake dynamic bodies: the world
 * inverse inertia from the current orientation, v += g * gravity_scale * h,
 * then damping v *= 1 / (1 + h c) (only when c > 0, so an undamped body
 * follows semi-implicit Euler bit for bit). Bodies split between the pool's
 * threads (NULL: one); each body on its own, so the split changes nothing. */
void vx_body_set_integrate_velocities(vx_body_set *b, float h, vx_thread_pool *pool);
/* Second half: x += v h; orientation by vx_rotation_integrate (gyroscopic
 * term included; kinematic bodies and bodies without inertia turn rigidly
 * at w). Awake dynamic and kinematic bodies, split as above. */
void vx_body_set_integrate_positions(vx_body_set *b, float h, vx_thread_pool *pool);
/* Body slot i, asleep until now, joins a substep of h whose velocity stage
 * has already run: its inverse inertia and its velocity step are done now.
 * Clears its asleep flag. */
void vx_body_set_wake(vx_body_set *b, size_t i, float h);

/* A point from a pose's body frame to the world, and from the world to the
 * body frame, on 4-float registers: vx_quat_rotate's operations in its
 * order (the bits of p->x + rotate(q, local) and rotate(conj(q), world -
 * p->x)), without the stores and reloads the vx_vec3 code compiles to. */
static inline vx_v4 vx_pose_to_world4(const vx_body_pose *p, const vx_vec3 *local)
{
    return vx_v4_add(vx_v4_load3(&p->x), vx_v4_quat_rotate(vx_v4_load_quat(&p->q), vx_v4_load3(local)));
}
static inline vx_v4 vx_pose_to_body4(const vx_body_pose *p, vx_v4 world)
{
    return vx_v4_quat_rotate(vx_v4_conjugate(vx_v4_load_quat(&p->q)), vx_v4_sub(world, vx_v4_load3(&p->x)));
}

#endif
