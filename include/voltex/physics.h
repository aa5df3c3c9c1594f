/* Rigid-body physics on top of the ECS: the components (collider, rigid
 * body), the contacts a step reports, the settings and the fixed step
 * (broad and narrow phase, the contact solver, integration, islands and
 * sleeping, continuous collision). The reference pipeline, stage by stage,
 * is in voltex/reference.h. */
#ifndef VOLTEX_PHYSICS_H
#define VOLTEX_PHYSICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "voltex/ecs.h"
#include "voltex/error.h"
#include "voltex/limits.h"
#include "voltex/math.h"

/* Component type ids the physics module uses in a world. */
enum {
    VX_COMPONENT_TRANSFORM = 0, /* vx_transform */
    VX_COMPONENT_COLLIDER = 1,  /* vx_collider */
    VX_COMPONENT_RIGIDBODY = 2, /* vx_rigidbody */
    VX_COMPONENT_USER = 3       /* the first type free for a program's own components */
};

/* Registers the three physics component types in world. */
vx_status vx_physics_register_components(vx_registry *registry);

/* ---- collider ---- */
typedef enum {
    VX_SHAPE_SPHERE = 0,
    VX_SHAPE_BOX = 1,
    VX_SHAPE_CAPSULE = 2,
    VX_SHAPE_HULL = 3,
    VX_SHAPE_MESH = 4,       /* triangles, two-sided: static and kinematic bodies only */
    VX_SHAPE_HEIGHTFIELD = 5, /* a grid of heights: static bodies only */
    VX_SHAPE_COMPOUND = 6     /* spheres, boxes, capsules and hulls placed together in one body */
} vx_shape_type;

/* A convex hull made by a world (vx_world_make_hull in voltex/world.h),
 * which owns it: any number of colliders of that world may share it. */
typedef struct vx_hull vx_hull;
/* A triangle mesh or heightfield made by a world (vx_world_make_mesh,
 * vx_world_make_heightfield), which owns it; shared like a hull. */
typedef struct vx_mesh vx_mesh;
/* Parts placed together (vx_world_make_compound), owned and shared like a
 * hull. */
typedef struct vx_compound vx_compound;

/* The collision filter's defaults: every collider is in category 1 and
 * collides with every category. */
#define VX_DEFAULT_CATEGORY 1u
#define VX_DEFAULT_MASK 0xFFFFFFFFu

typedef struct {
    vx_shape_type type;
    float radius;         /* sphere, capsule */
    vx_vec3 half_extents; /* box */
    float half_height;    /* capsule: half the segment length along local Y */
    const vx_hull *hull;  /* hull: its points are in the entity's frame */
    const vx_mesh *mesh;  /* mesh, heightfield: in the entity's frame */
    const vx_compound *compound; /* compound: its parts are placed in the entity's frame */
    bool sensor;          /* overlap-only: reported, never pushed */
    /* two colliders collide (and report contacts) only when each one's
     * category is in the other's mask; queries see every collider */
    uint32_t category;
    uint32_t mask;
} vx_collider;

/* Whether a and b pass each other's collision filter. */
static inline bool vx_collider_filter_pass(const vx_collider *a, const vx_collider *b)
{
    return (a->category & b->mask) != 0u && (b->category & a->mask) != 0u;
}

vx_collider vx_collider_sphere(float radius);
vx_collider vx_collider_box(vx_vec3 half_extents);
/* Axis local Y: a segment of 2 half_height, capped by hemispheres of radius. */
vx_collider vx_collider_capsule(float radius, float half_height);
/* A convex hull of a world (vx_world_make_hull). */
vx_collider vx_collider_hull(const vx_hull *hull);
/* A mesh or heightfield of a world (type VX_SHAPE_MESH or
 * VX_SHAPE_HEIGHTFIELD, as the mesh was made). */
vx_collider vx_collider_mesh(const vx_mesh *mesh);
/* A compound of a world (vx_world_make_compound). */
vx_collider vx_collider_compound(const vx_compound *compound);

/* Whether the triangle (a, b, c) is too thin to have a direction: a corner
 * repeated, or its least height under a millionth of its longest side. A
 * mesh may have no such triangle. */
bool vx_triangle_is_degenerate(vx_vec3 a, vx_vec3 b, vx_vec3 c);

/* What a mesh or heightfield is: its triangles (a heightfield's: two per
 * cell), its vertices (a heightfield's heights) and bounds in its frame. */
typedef struct {
    bool heightfield;
    size_t triangle_count;
    size_t vertex_count;
    vx_aabb bounds;
} vx_mesh_info;

vx_mesh_info vx_mesh_get_info(const vx_mesh *mesh);

/* What a hull is: its corners (points of the input that are not inside the
 * hull), faces (coplanar triangles merged), volume, and the frame the body
 * is simulated in (origin at the centre of mass, axes along the principal
 * axes of inertia), all in the frame of the points it was made from. */
typedef struct {
    size_t vertex_count;
    size_t face_count;
    float volume;           /* m^3 */
    vx_transform frame;     /* position: the centre of mass */
    vx_vec3 inertia;        /* principal moments for density 1 kg/m^3 (kg m^2), along frame's axes */
} vx_hull_info;

vx_hull_info vx_hull_get_info(const vx_hull *hull);
/* Corner i (< vertex_count) in the frame of the input points. */
vx_vec3 vx_hull_vertex(const vx_hull *hull, size_t i);

/* One part of a compound: a sphere, box, capsule or hull collider (its
 * sensor flag and filter are the compound's, not its own) placed by pose
 * in the frame of the compound's entity. */
typedef struct {
    vx_collider shape;
    vx_transform pose;
} vx_compound_part;

/* What a compound is: its parts, the sum of their volumes (overlaps
 * counted in full), and the frame the body is simulated in (origin at the
 * parts' common centre of mass, axes along the principal axes of their
 * inertia, found by the parallel-axis theorem), in the entity's frame. */
typedef struct {
    size_t part_count;
    float volume;       /* m^3 */
    vx_transform frame; /* position: the centre of mass */
    vx_vec3 inertia;    /* principal moments for density 1 kg/m^3 (kg m^2), along frame's axes */
} vx_compound_info;

vx_compound_info vx_compound_get_info(const vx_compound *compound);
/* Part i (< part_count) as it was given. */
vx_compound_part vx_compound_get_part(const vx_compound *compound, size_t i);

/* The solid's volume in m^3 (a body's mass spread over it uniformly gives its
 * inertia; mass = density * volume). */
float vx_collider_volume(const vx_collider *c);
/* World-space bounds of the collider placed at position with rotation. */
vx_aabb vx_collider_aabb(const vx_collider *c, vx_vec3 position, vx_quat rotation);

/* ---- rigid body ---- */
typedef enum { VX_BODY_DYNAMIC = 0, VX_BODY_STATIC = 1, VX_BODY_KINEMATIC = 2 } vx_body_type;

typedef struct {
    vx_body_type type;
    vx_vec3 velocity;         /* m/s, world frame */
    vx_vec3 angular_velocity; /* rad/s, world frame */
    float mass;               /* kg; 0 for static */
    float restitution;        /* 0..1, a pair uses the smaller */
    float friction;           /* Coulomb coefficient, a pair uses sqrt(a*b) */
    float gravity_scale;
    float linear_damping;  /* 1/s */
    float angular_damping; /* 1/s */
    bool lock_rotation;
    bool can_sleep;
    bool bullet;
} vx_rigidbody;

/* The reference pipeline's constructors: dynamic(mass) has velocity 0,
 * restitution 0.3, gravity_scale 1; static has mass 0 and gravity_scale 0. */
vx_rigidbody vx_rigidbody_dynamic(float mass);
vx_rigidbody vx_rigidbody_static(void);
/* Moves at its own velocity, pushed by nothing, no gravity. */
vx_rigidbody vx_rigidbody_kinematic(void);
/* 0 for static and kinematic bodies (infinite mass). */
float vx_rigidbody_inv_mass(const vx_rigidbody *rb);
bool vx_rigidbody_is_static(const vx_rigidbody *rb);

/* ---- contacts ---- */
typedef struct {
    vx_entity entity_a;
    vx_entity entity_b;
    vx_vec3 normal;     /* unit, from A to B */
    float depth;        /* > 0: overlap */
    vx_vec3 point_on_a;
    vx_vec3 point_on_b;
    uint32_t feature;
    /* which of the pair's manifolds the point belongs to: 0 for two convex
     * shapes; a body on a mesh or heightfield has one per contact normal;
     * a pair with a compound one per pair of parts that touch:
     * part of A * 2^24 + part of B * 2^16 (+ the mesh's number, < 2^16),
     * a shape that is not a compound counting as part 0 */
    uint32_t part;
    float impulse;      /* total normal impulse applied during the step, N*s */
    bool sensor;        /* one of the colliders is a sensor: never pushed */
} vx_contact;

typedef struct {
    vx_contact *items;
    size_t count;
    size_t capacity;
} vx_contact_list;

void vx_contact_list_init(vx_contact_list *list);
void vx_contact_list_free(vx_contact_list *list);
void vx_contact_list_clear(vx_contact_list *list);
vx_status vx_contact_list_push(vx_contact_list *list, const vx_contact *c);
/* Room for at least `capacity` contacts (count unchanged), so that that many
 * can be written without allocating; VX_ERR_NOMEM leaves the list as it was. */
vx_status vx_contact_list_reserve(vx_contact_list *list, size_t capacity);
/* Sorts by entity_a.index, entity_b.index, part, then feature. */
void vx_contact_list_sort(vx_contact_list *list);

/* ---- configuration ---- */
/* The broad phase of vx_step (scene key solver.broadphase: "tree" or
 * "bvh"). Both find the same pairs, so traces do not depend on the kind. */
typedef enum {
    VX_BROADPHASE_BVH = 0,         /* the reference pipeline's median-split BVH, rebuilt every substep */
    VX_BROADPHASE_DYNAMIC_TREE = 1 /* incremental dynamic AABB trees kept across steps, statics in their own */
} vx_broadphase_kind;

/* The order of the contact solver's passes (scene key solver.order). */
typedef enum {
    VX_SOLVER_ORDER_SEQUENTIAL = 0, /* pair order, one after the other: the solver runs on one thread */
    VX_SOLVER_ORDER_COLORED = 1     /* ground up by contact depth, graph-coloured within a depth: the
                                       solver runs on every thread and 4 contacts per SIMD lane set */
} vx_solver_order;

/* How bounces are made (scene key solver.restitution). */
typedef enum {
    VX_RESTITUTION_SEQUENTIAL = 0,  /* a collision pass before the velocity solve bounces the pairs of
                                       dynamic bodies whose gap closes within the step, one pair after
                                       the other with the velocities the last bounce left: a blow runs
                                       down a row of balls as in a Newton's cradle */
    VX_RESTITUTION_SIMULTANEOUS = 1 /* every bounce a target of the velocity solve, from the approach
                                       at the step's start: a row of balls takes a blow as one body */
} vx_restitution_model;

/* "sequential" / "simultaneous": the names of the scene key. */
const char *vx_restitution_model_name(vx_restitution_model model);
/* The model named name; false (and *out untouched) for any other name. */
bool vx_restitution_model_from_name(const char *name, vx_restitution_model *out);

/* "sequential" / "colored": the names of the scene key and --order. */
const char *vx_solver_order_name(vx_solver_order order);
/* The order named name; false (and *out untouched) for any other name. */
bool vx_solver_order_from_name(const char *name, vx_solver_order *out);

typedef struct {
    vx_vec3 gravity;             /* m/s^2 */
    float fixed_dt;              /* s */
    int iterations;              /* velocity passes over the contacts */
    int position_iterations;     /* position (penetration) passes after integration */
    int substeps;                /* sub-steps per fixed step */
    bool warm_starting;
    bool sleeping;
    bool reuse_contacts;         /* a box pair that has hardly moved keeps its manifold (no new narrow phase) */
    int threads;
    float restitution_threshold; /* m/s: slower approaches do not bounce */
    float baumgarte_slop;        /* m: penetration left uncorrected */
    float baumgarte_percent;     /* fraction of the rest corrected per pass */
    float max_correction;        /* m: the most one position pass moves a contact */
    float speculative_distance;  /* m: contacts are made this far before touching */
    vx_broadphase_kind broadphase;
    vx_solver_order order;
    vx_restitution_model restitution; /* how bounces are made */
    /* the memory budget of a step: at most this many pairs of bodies whose
     * bounds overlap in a substep (each costs up to VX_PAIR_BYTES); more end
     * the step with VX_ERR_BUDGET before their memory is taken. 0: no limit */
    size_t max_pairs;
} vx_world_def;

/* gravity (0,-9.81,0), fixed_dt 1/60, iterations 10, substeps 1, warm starting
 * on, sleeping off, contact reuse on, 1 thread, restitution threshold 1 m/s, slop 0.01,
 * percent 0.4, 3 position iterations, max correction 0.2 m, speculative
 * distance 0.02 m, the dynamic tree broad phase (src/physics/config.c says
 * why), the sequential solver order. */
vx_world_def vx_world_def_default(void);

/* Sleeping (def.sleeping): a dynamic body whose speed stays under
 * 0.05 m/s and 2 degrees/s for 0.5 s is still; an island (dynamic bodies
 * linked by touching contacts) falls asleep when all its bodies are still
 * and none has can_sleep false. A sleeping body is not integrated, solved or
 * collided with the static world or other sleeping bodies; its velocities
 * are 0 in the world and its contacts are reported as in the step it fell
 * asleep. Its island wakes when an awake body or a moving kinematic body
 * comes into contact with one of its bodies, or when the caller changes a
 * sleeping body's pose, velocity or type in the world between steps (the
 * step notices the difference: there is no wake function to call). */

/* Wall time of the stages of a step, in seconds (all 0
 * unless profiling is on): broad phase (and the wake pass of sleeping
 * islands), narrow phase, solver (setup, warm start, velocity and position
 * passes, cache and report), integration (velocities, inertia, poses) and
 * the rest (gather, sleeping, continuous collision, scatter). */
typedef struct {
    double broad;
    double narrow;
    double solver;
    double integrate;
    double other;
} vx_stage_times;

#endif
