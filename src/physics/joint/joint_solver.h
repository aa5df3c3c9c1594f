/* The joints in the step (private to the physics module). Joint rows are
 * solved in the contact solver's passes, on the same packed velocities:
 * warm start, then in every velocity iteration the joints (in the order
 * they were made) before the contacts; rigid rows carry no velocity bias
 * and their drift is taken out by non-linear Gauss-Seidel position passes
 * after integration, as the contacts' is; springs are soft rows; limits
 * are one-sided and speculative; motors are clamped. See
 * docs/simulation.md, "Joints". */
#ifndef VOLTEX_PHYSICS_JOINT_JOINT_SOLVER_H
#define VOLTEX_PHYSICS_JOINT_JOINT_SOLVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "physics/body/body_set.h"
#include "physics/collision/broadphase.h"
#include "physics/joint/joint_math.h"
#include "physics/joint/joint_set.h"
#include "physics/joint/joint_tree.h"
#include "physics/solver/contact_solver.h"


/* Two dynamic bodies a joint links: one island, and one sleeps and wakes
 * with the other (sleep.h). */
typedef struct {
    uint32_t a, b; /* body slots */
} vx_joint_link;

/* A solved joint's rows for one substep (vx_joint_solver_prepare). */
typedef struct vx_joint_rows_s {
    uint32_t joint;            /* index in the set's items */
    vx_vec3 ra, rb;            /* the anchors' arms from the centres of mass, world */
    vx_vec3 arm_a;             /* slider: A's arm to B's anchor (ra + d); distance: ra */
    vx_vec3 axis;              /* hinge: A's axis; slider: A's axis; distance: the unit line A to B; ball: the cone row */
    vx_vec3 u1, u2;            /* hinge: the two locked rotation rows; slider: the two perpendicular directions */
    vx_mat3 point_mass;        /* the point block's inverse */
    vx_mat3 lock_mass;         /* the rotation lock's inverse (fixed, slider) */
    vx_joint_block2 pair_mass; /* hinge's rotation rows, slider's perpendicular rows */
    float axial_mass;          /* along axis (hinge: about it) */
    float coordinate;          /* hinge angle, slider offset, distance length, ball tilt (at the substep's start) */
    bool cone_row;             /* ball: the cone row has a direction this substep */
    float spring_gain;         /* spring: m h omega^2 and the damping d, see joint_rows.c */
    float spring_damping;
} vx_joint_rows;

typedef struct vx_joint_solver {
    vx_joint_set *set;   /* the world's joints (NULL: none) */
    uint32_t *bound;     /* the joints bound to gathered bodies this step, in index order */
    size_t bound_count, bound_capacity;
    vx_joint_rows *rows; /* the substep's solved joints */
    vx_joint_rows *pass_rows; /* a position pass's rows (from the poses now where a body turned far) */
    size_t row_count, row_capacity;
    uint64_t *no_collide; /* sorted slot pairs (low << 32 | high) that must not collide */
    size_t no_collide_count, no_collide_capacity;
    vx_joint_link *links;
    size_t link_count, link_capacity;
    float h;             /* the substep */
    vx_joint_tree tree;  /* the locked rows solved exactly where the joints form a tree */
    bool use_tree;       /* false: every row by Gauss-Seidel (tests compare the two) */
} vx_joint_solver;

void vx_joint_solver_init(vx_joint_solver *js);
void vx_joint_solver_free(vx_joint_solver *js);

/* After the gather: each live, unbroken joint whose bodies were gathered
 * gets their slots and its frames in the bodies' frames; the pairs that
 * must not collide and the links between dynamic bodies are listed. */
vx_status vx_joint_solver_bind(vx_joint_solver *js, vx_joint_set *set, const vx_body_set *bodies);
/* Removes from pairs (in order) the pairs of jointed bodies that do not
 * collide. */
void vx_joint_solver_filter_pairs(const vx_joint_solver *js, vx_broadphase_pair_list *pairs);

/* Per substep of h, from the poses now: the rows of every bound joint
 * whose bodies are awake. */
vx_status vx_joint_solver_prepare(vx_joint_solver *js, const vx_body_set *bodies, float h);
static inline bool vx_joint_solver_has_rows(const vx_joint_solver *js) { return js && js->row_count > 0; }
/* On the contact solver's packed velocities (by body slot): the kept
 * impulses applied (cleared when warm_start is false), and one pass over
 * every row. */
void vx_joint_solver_warm_start(vx_joint_solver *js, vx_contact_hot_velocity *vel, bool warm_start);
void vx_joint_solver_velocity_pass(vx_joint_solver *js, vx_contact_hot_velocity *vel);
/* After a substep's velocity passes: its impulses join the step's sums. */
void vx_joint_solver_end_substep(vx_joint_solver *js);
/* iterations position passes on the poses (no velocity changes). */
void vx_joint_solver_solve_positions(vx_joint_solver *js, vx_body_set *bodies, int iterations);
/* At the end of the step of dt: each solved joint's force, torque,
 * coordinate and rate, and the joints whose force passed their break force
 * break. */
void vx_joint_solver_finish(vx_joint_solver *js, const vx_body_set *bodies, float dt);

/* Joint j's rows from the poses now (as prepare makes them at the start). */
void vx_joint_rows_now(vx_joint_rows *r, vx_joint *j, const vx_body_set *bodies, float h);
/* The errors of joint j's locked rows (joint_tree.c's order) from the poses
 * now, into c; returns their count. */
int vx_joint_locked_errors(const vx_joint *j, const vx_joint_rows *r, const vx_body_set *bodies, double *c);

/* Shared by the joint files: side s of joint j's pose now (bodies' poses,
 * or the world's identity). */
void vx_joint_side_pose(const vx_joint *j, int s, const vx_body_set *bodies, vx_vec3 *x, vx_quat *q);
/* The hinge angle of B relative to A about A's axis from these
 * orientations, unwrapped to the nearest of the angle `near`. */
float vx_joint_hinge_angle(const vx_joint *j, vx_quat qa, vx_quat qb, float near);

#endif
