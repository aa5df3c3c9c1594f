/* The contact solver of the step (private to the physics module):
 * sequential impulses (projected Gauss-Seidel) with accumulated, clamped
 * normal impulses, the manifold's Coulomb friction (two tangents at the
 * centre of its points and a twist), restitution, speculative
 * contacts, warm starting from the contact cache, and non-linear Gauss-Seidel
 * position passes after integration.
 *
 * Every manifold of the narrow phase becomes one vx_contact_constraint (sensor
 * pairs and pairs without a dynamic body too: they are reported, never
 * solved); its points are rows in two parallel arrays, the hot velocity rows
 * and the cold anchors. */
#ifndef VOLTEX_PHYSICS_CONTACT_SOLVER_H
#define VOLTEX_PHYSICS_CONTACT_SOLVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/thread_pool.h"
#include "physics/body/body_set.h"
#include "physics/collision/narrow_phase.h"
#include "physics/solver/contact_cache.h"
#include "physics/solver/solve_flow.h"
#include "physics/solver/solve_order.h"
#include "voltex/physics.h"

/* One point's normal row, with the angular Jacobians and their images
 * under the inverse inertia precomputed (the solve loop then touches
 * velocities and this row only), as 16-byte aligned 4-float vectors, pad
 * lanes +0: what the scalar solve loads in one instruction and the SIMD
 * blocks transpose (contact_wide.c). The normal n is the constraint's.
 * Friction is the manifold's (vx_contact_hot_constraint). */
typedef struct {
    _Alignas(16) float ra_n[4]; /* rA x n */
    float rb_n[4];              /* rB x n */
    float ia_n[4], ib_n[4];     /* IA^-1 (rA x n), IB^-1 (rB x n) */
    float normal_mass; /* 1 / K, kg */
    float bias;        /* m/s: the normal velocity the row enforces at least */
    float normal_impulse;
    float pad; /* != 0: a soft row (the substepped solve) */
} vx_contact_hot_row;

/* A manifold's friction (patch friction, as Box2D v3 and Box3D): one pair
 * of tangent rows at the centre of its points, limited by friction times
 * the sum of the points' normal impulses, and a twist row about the normal
 * limited by friction times the sum of each point's impulse times its
 * distance from the centre. The per-point split of a flat contact's load is
 * arbitrary (four points, three equations), so friction does not depend on
 * it; and two rows and a twist cost less than two rows a point. */
typedef struct {
    _Alignas(16) float ra_t[2][4], rb_t[2][4]; /* rA x t, rB x t at the centre */
    float ia_t[2][4], ib_t[2][4];              /* IA^-1 (rA x t), IB^-1 (rB x t) */
    float ia_twist[4], ib_twist[4];            /* IA^-1 n, IB^-1 n */
    float lever[4];                            /* m: each point's distance from the centre (0 past count) */
    float tangent_mass[2], tangent_impulse[2];
    float twist_mass, twist_impulse;
    float pad[2];
} vx_contact_friction;

/* A 4-float vector of a row or packed constraint from and to a vx_vec3
 * (pad lane +0). */
static inline vx_vec3 vx_contact_get3(const float in[4]) { return vx_vec3_make(in[0], in[1], in[2]); }
static inline void vx_contact_put3(float out[4], vx_vec3 v)
{
    out[0] = v.x;
    out[1] = v.y;
    out[2] = v.z;
    out[3] = 0.0f;
}

/* The relative normal speed of a constraint's point (row r) from the
 * bodies' velocities, and an impulse lambda along the normal applied to
 * them (B gets +, A gets -; only dynamic bodies move): the end-of-step
 * bounces of the substeps and the collision pass. */
static inline float vx_contact_normal_speed(const vx_body_velocity *va, const vx_body_velocity *vb, vx_vec3 n,
                                            const vx_contact_hot_row *r)
{
    return vx_vec3_dot(vx_vec3_sub(vb->v, va->v), n) + vx_vec3_dot(vb->w, vx_contact_get3(r->rb_n)) -
           vx_vec3_dot(va->w, vx_contact_get3(r->ra_n));
}

static inline void vx_contact_push_normal(vx_body_velocity *va, vx_body_velocity *vb, vx_vec3 n, float inv_mass_a,
                                          float inv_mass_b, const vx_contact_hot_row *r, float lambda)
{
    vx_vec3 p = vx_vec3_scale(n, lambda);
    if (inv_mass_a > 0.0f) {
        va->v = vx_vec3_sub(va->v, vx_vec3_scale(p, inv_mass_a));
        va->w = vx_vec3_sub(va->w, vx_vec3_scale(vx_contact_get3(r->ia_n), lambda));
    }
    if (inv_mass_b > 0.0f) {
        vb->v = vx_vec3_add(vb->v, vx_vec3_scale(p, inv_mass_b));
        vb->w = vx_vec3_add(vb->w, vx_vec3_scale(vx_contact_get3(r->ib_n), lambda));
    }
}

/* What the position passes, the cache and the report need of a point. */
typedef struct {
    vx_vec3 local_a;  /* the point on A, in A's body frame */
    vx_vec3 local_b;  /* the point on B, in B's body frame */
    uint32_t feature;
    float approach;   /* m/s: the approach speed the solve's restitution uses (< 0 approaching; 0 for
                         the points the collision pass bounces) */
    float separation; /* m: at the set-up (-depth) */
    float collision_impulse; /* N*s: what the collision pass pushed (reported, never warm started) */
    vx_vec3 velocity; /* m/s: relative velocity (B - A) at the point before the solve, world */
    bool bounced;     /* restitution was applied at this point in this substep */
    bool may_pend;    /* speculative and fast: if stopped now, it bounces when it touches */
} vx_contact_anchor;

typedef struct {
    uint32_t a; /* body slots */
    uint32_t b;
    uint32_t first; /* index of the first point in rows / anchors */
    uint32_t part;  /* the manifold of the pair (vx_pair_manifold) */
    int count;
    bool solve; /* neither sensor nor a pair without a dynamic body */
    bool sensor;
    bool collide; /* a point of two dynamic bodies the collision pass bounces (as prepared) */
    vx_vec3 n;  /* unit, from A to B */
    vx_vec3 t1;
    vx_vec3 t2;
    float inv_mass_a;
    float inv_mass_b;
    float friction;
    uint32_t hot; /* its place in the solve order (hot[hot]), set by the pack */
    vx_contact_friction patch; /* prepare's rows and warm start; the solve's impulses are in hot[hot] */
} vx_contact_constraint;

/* The velocity iterations' packed copy of a solved constraint
 * (contact_velocity.c): 16-byte aligned 4-float vectors, pad lanes 0,
 * everything an iteration reads of it and nothing else. */
typedef struct {
    _Alignas(16) float n[4];
    float t1[4];
    float t2[4];
    float inv_mass_a, inv_mass_b, friction;
    uint32_t a, b;  /* body slots */
    uint32_t first; /* its points: rows and anchors [first .. first + count) */
    uint32_t count;
    uint32_t pad_;
    vx_contact_friction patch; /* accumulated friction impulses solved here */
} vx_contact_hot_constraint;

typedef struct {
    _Alignas(16) float v[4];
    float w[4];
} vx_contact_hot_velocity;

/* A point of the substepped solve (contact_substep.c). */
typedef struct {
    vx_vec3 local_a, local_b; /* the anchors in the body frames */
    /* m: the start separation less n . (arm_b - arm_a), the anchors' world
     * offsets from the centres at the start: the separation now is this plus
     * n . (dxB - dxA) + (qB^-1 n) . local_b - (qA^-1 n) . local_a */
    float base;
    float total; /* N*s: normal impulse summed over the substeps (and restitution) */
    float sep;   /* m: the separation at the last targets (contact_substep.c) */
} vx_contact_substep_point;

/* Rows of other constraints (the joints) solved in the same passes on the
 * packed velocities (by body slot): warm_start before the contacts' warm
 * start, pass before each velocity pass over the contacts. */
typedef struct {
    void *context;
    void (*warm_start)(void *context, vx_contact_hot_velocity *vel, bool warm_start);
    void (*pass)(void *context, vx_contact_hot_velocity *vel);
} vx_solver_extra_rows;

typedef struct {
    vx_contact_constraint *constraints;
    size_t count;
    size_t capacity;
    vx_contact_hot_row *rows; /* aligned */
    vx_contact_anchor *anchors;
    size_t point_count;
    size_t point_capacity, row_capacity;
    /* the solve order: the solved constraints by colour (solve_order.h);
     * hot[j] is constraints[order.sequence[j]] */
    vx_solve_order order;
    vx_solve_flow flow; /* the plan of order on pool's threads (solve_flow.h) */
    vx_thread_pool *pool; /* the step's threads (NULL: one), not owned */
    const vx_solver_extra_rows *extra; /* NULL: contacts only (the step sets it) */
    bool colored;         /* config->order is VX_SOLVER_ORDER_COLORED */
    /* tuning (step_tuning.h), true after init: the relax's separations
     * serve the next substep's solve; false finds them again from the poses
     * (results never depend on it: the tests compare the two) */
    bool reuse_separations;
    /* the SIMD blocks of an order in lanes, one per unit of order (of two
     * or more constraints), each sized
     * for its largest manifold, in one aligned arena: unit u's block is at
     * block_offset[u] (vx_contact_solver_block) */
    unsigned char *block_arena;
    size_t arena_capacity;
    size_t *block_offset;
    size_t block_offset_capacity;
    /* the velocity iterations' packed arrays (aligned, reused) */
    vx_contact_hot_constraint *hot;
    size_t hot_capacity;
    vx_contact_hot_velocity *hot_velocity;
    size_t hot_velocity_capacity;
    /* substeps > 1 (contact_substep.c): each point's start separation,
     * world arms and impulse summed over the substeps, and the bodies'
     * positions at the start of the step */
    /* the coloured order's velocity passes of the step so far: the points
     * of a manifold (and the colours of a level) go forwards in even
     * passes, backwards in odd ones, across substeps, so that one
     * iteration per substep still alternates (the sequential order starts
     * every substep forwards, as it always has) */
    unsigned passes;
    vx_contact_substep_point *substep_points;
    /* the points' sep are those of the poses now (the relax found them and
     * no position pass has moved a body since): the next substep's targets
     * use them */
    bool separations_current;
    size_t substep_point_capacity;
    vx_vec3 *start_x;
    size_t start_x_capacity;
    /* the collision pass: the bodies it has pushed (by slot) */
    unsigned char *collided;
    size_t collided_capacity;
} vx_contact_solver;

void vx_contact_solver_init(vx_contact_solver *s);
void vx_contact_solver_free(vx_contact_solver *s);

/* Builds the constraints of the narrow phase's manifolds for a substep of h:
 * anchors, effective masses, restitution and speculative targets, and the
 * warm-start impulses found in cache (used when config->warm_starting). */
vx_status vx_contact_solver_prepare(vx_contact_solver *s, const vx_narrow_phase *d,
                                    const vx_body_set *bodies, const vx_contact_cache *cache,
                                    const vx_world_def *config, float h);
/* The collision pass of config->restitution VX_RESTITUTION_SEQUENTIAL
 * (contact_collide.c), after prepare and before the velocity solve, on the
 * bodies' velocities: every point that approaches faster than the
 * restitution threshold and whose gap closes within the step is bounced,
 * pair by pair in pair order with the velocities the bounces before it
 * left, in passes until nothing approaches; its restitution in the solve
 * (prepare's target, pending bounce or the substeps' finish) is taken back.
 * A fast approach to a static or kinematic body as prepared is left to the
 * solve. Serial: the same bytes for any threads and order. */
vx_status vx_contact_solver_collide(vx_contact_solver *s, vx_body_set *bodies, const vx_world_def *config);
/* s: a gap the step's velocity solve would stop if it closed within this
 * long at the approach speed now (the step; with substeps also the relax
 * after the last one, which holds the gaps that close within one more). */
static inline float vx_contact_collide_lookahead(const vx_world_def *config)
{
    return config->substeps > 1 ? config->fixed_dt + config->fixed_dt / (float)config->substeps : config->fixed_dt;
}
/* On the rows and packed copies of the velocities (contact_velocity.c), colour
 * by colour: the warm-start impulses applied (when warm_start), then
 * iterations passes of friction then normal rows over every constraint.
 * VX_ERR_NOMEM if the packed arrays cannot grow (nothing is changed then). */
vx_status vx_contact_solver_solve_velocities(vx_contact_solver *s, vx_body_set *bodies, bool warm_start,
                                             int iterations);
/* config->position_iterations non-linear Gauss-Seidel passes on the poses
 * (after integration): separations from the body-frame anchors, correction
 * clamp(percent (sep + slop), -max_correction, 0). Velocities unchanged. */
void vx_contact_solver_solve_positions(vx_contact_solver *s, vx_body_set *bodies,
                                       const vx_world_def *config);
/* Writes the solved impulses as the cache for the next substep or step.
 * Store and report split the constraints between s->pool's threads; their
 * output is the same bytes for any split (contact_solver.c). */
vx_status vx_contact_solver_store(const vx_contact_solver *s, const vx_body_set *bodies,
                                  vx_contact_cache *cache);
/* Appends the points to report (not cleared) with the poses of the end of the
 * substep: every point with depth > 0 or a normal impulse > 0, in pair then
 * feature order. */
vx_status vx_contact_solver_report(const vx_contact_solver *s, const vx_body_set *bodies,
                                   vx_contact_list *report);

/* The substepped solve (substeps > 1, contact_substep.c): detection and
 * prepare once per step, then per substep only the solver. begin packs the
 * constraints (the warm-start impulses of prepare included) and records the
 * start poses; solve runs one substep of h after its velocity integration:
 * warm start with the accumulated impulses (the cache's in the first
 * substep, the previous substep's after), the speculative targets from the
 * separations re-estimated from the current poses, iterations, and the sum
 * of the impulses; end copies the impulses of the last substep back to the
 * rows (for the cache). VX_ERR_NOMEM from begin if the arrays cannot grow. */
vx_status vx_contact_substep_begin(vx_contact_solver *s, const vx_body_set *bodies);
void vx_contact_substep_solve(vx_contact_solver *s, vx_body_set *bodies, float h, int iterations,
                              const vx_world_def *config);
/* After the substep's positions: iterations passes without the push-out
 * (only the speculative targets, from the new poses), which take back the
 * velocity the push-out gave; the impulses are summed for the report.
 * The separations found here serve the next substep's solve unless the
 * position passes move a body in between. */
void vx_contact_substep_relax(vx_contact_solver *s, vx_body_set *bodies, float h, int iterations);
void vx_contact_substep_end(vx_contact_solver *s, const vx_body_set *bodies);
/* After the cache is stored: restitution once per step (Box2D v3's scheme):
 * a point that approached faster than config->restitution_threshold at the
 * step's start and was pushed leaves at e times that speed; then the rows
 * carry the summed impulses, for vx_contact_solver_report. */
void vx_contact_substep_finish(vx_contact_solver *s, vx_body_set *bodies, const vx_world_def *config);

/* Shared with contact_substep.c and contact_solver.c (contact_solver.c): the
 * solve order and the packed constraints and velocities in that order (the
 * rows are solved where prepare wrote them), and the velocities of the
 * bodies the solver moves copied back. */
vx_status vx_contact_solver_pack(vx_contact_solver *s, const vx_body_set *bodies);
void vx_contact_solver_unpack(const vx_contact_solver *s, vx_body_set *bodies);
/* The SIMD blocks of an order in lanes (order.lanes; contact_solver.c):
 * room for one per unit of two or more constraints, units [begin, end)
 * loaded from the rows (targets and accumulated impulses), and their
 * impulses stored back into the rows (all units split between the
 * threads). A unit of one constraint has no block: it is solved on its
 * rows by the scalar code, which does the same operations (four lanes
 * for one constraint cost more than the scalar solve: a stack of boxes is
 * one constraint per wave of the sequential order). */
vx_status vx_contact_solver_reserve_blocks(vx_contact_solver *s);
static inline bool vx_contact_solver_unit_single(const vx_contact_solver *s, size_t unit)
{
    return s->order.unit_start[unit + 1u] - s->order.unit_start[unit] < 2u;
}
/* Unit u and the next one (both in lanes, the next before end) share no
 * moving body: the SIMD solve may run them side by side
 * (vx_contact_wide_solve_two). */
static inline bool vx_contact_solver_pairs_with_next(const vx_contact_solver *s, size_t u, size_t end)
{
    return u + 1u < end && s->order.lanes && s->order.unit_apart[u] && !vx_contact_solver_unit_single(s, u) &&
           !vx_contact_solver_unit_single(s, u + 1u);
}
static inline struct vx_contact_wide_block *vx_contact_solver_block(const vx_contact_solver *s, size_t unit)
{
    return (struct vx_contact_wide_block *)(void *)(s->block_arena + s->block_offset[unit]);
}
void vx_contact_solver_load_blocks(vx_contact_solver *s, size_t unit_begin, size_t unit_end);
void vx_contact_solver_store_blocks(vx_contact_solver *s, size_t unit_begin, size_t unit_end);
void vx_contact_solver_store_all_blocks(vx_contact_solver *s);
/* One constraint's friction (tangents and twist) and normal rows, once (backwards: the points in
 * reverse order); a normal row with pad != 0 is soft (mass_scale,
 * impulse_scale: Box2D v3's soft contact). */
void vx_contact_solver_solve_packed(vx_contact_hot_constraint *c, vx_contact_hot_row *rows,
                                    vx_contact_hot_velocity *vel, bool backwards, float mass_scale,
                                    float impulse_scale);

#endif
