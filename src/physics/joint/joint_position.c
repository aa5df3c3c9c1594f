/* The joints' position passes (joint_solver.h): non-linear Gauss-Seidel on
 * the poses after integration, as the contacts' (contact_position.c). Each
 * locked part of a joint and each violated limit is measured from the poses
 * now and taken out by a pseudo impulse P on the poses through the inverse
 * masses of the substep. Unlike a contact's, the move also changes the
 * velocities by move / h (the impulse P / h): the step then goes from the
 * start pose to a pose that meets the joint, at the velocity of that chord,
 * as SHAKE / RATTLE do. Without it a swinging body loses the part of its
 * velocity that the constraint's turn makes radial, (omega h)^2 of its
 * kinetic energy per step (a rod swung from 60 degrees lost 80 % of its
 * energy in a minute at 60 Hz); with it the energy stays. Springs are soft:
 * they have no position pass. */
#include <math.h>

#include "physics/body/small_turn.h"
#include "common/det_math.h"
#include "physics/joint/joint_solver.h"

/* The tree's position passes stop once no locked row is off by more than
 * this (m, or rad), or after the cap. */
#define VX_JOINT_POSITION_TOLERANCE 1e-6
#define VX_JOINT_POSITION_PASSES_MAX 64

typedef struct {
    vx_vec3 xa, xb;
    vx_quat qa, qb;
    float ima, imb;
    const vx_mat3 *iia, *iib;
    /* the pass's moves, summed: velocity changes (times h) and impulses (times h) */
    vx_vec3 dxa, dxb, dqa, dqb;
    vx_vec3 linear, angular;
} pose_pair;

static pose_pair load(const vx_joint *j, const vx_body_set *bodies)
{
    pose_pair p;
    vx_joint_side_pose(j, 0, bodies, &p.xa, &p.qa);
    vx_joint_side_pose(j, 1, bodies, &p.xb, &p.qb);
    p.ima = j->side[0].inv_mass;
    p.imb = j->side[1].inv_mass;
    p.iia = &j->side[0].inv_inertia;
    p.iib = &j->side[1].inv_inertia;
    p.dxa = p.dxb = p.dqa = p.dqb = p.linear = p.angular = vx_vec3_zero();
    return p;
}

/* The poses back, the velocities changed by the moves / h, and the
 * impulses / h added to the step's. */
static void store(vx_joint *j, vx_body_set *bodies, const pose_pair *p, float inv_h)
{
    for (int s = 0; s < 2; s++) {
        if (!j->side[s].moves) continue;
        uint32_t slot = j->side[s].slot;
        bodies->pose[slot].x = s == 0 ? p->xa : p->xb;
        bodies->pose[slot].q = s == 0 ? p->qa : p->qb;
        vx_body_velocity *v = &bodies->velocity[slot];
        v->v = vx_vec3_add(v->v, vx_vec3_scale(s == 0 ? p->dxa : p->dxb, inv_h));
        v->w = vx_vec3_add(v->w, vx_vec3_scale(s == 0 ? p->dqa : p->dqb, inv_h));
    }
    j->step_linear = vx_vec3_add(j->step_linear, vx_vec3_scale(p->linear, inv_h));
    j->step_angular = vx_vec3_add(j->step_angular, vx_vec3_scale(p->angular, inv_h));
}

/* A pseudo impulse p at arms (arm_a, rb), and an angular one l. */
static void move_linear(pose_pair *p, vx_vec3 impulse, vx_vec3 arm_a, vx_vec3 rb)
{
    vx_vec3 dxa = vx_vec3_scale(impulse, 0.0f - p->ima), dxb = vx_vec3_scale(impulse, p->imb);
    vx_vec3 dqa = vx_vec3_neg(vx_mat3_mul_vec3(p->iia, vx_vec3_cross(arm_a, impulse)));
    vx_vec3 dqb = vx_mat3_mul_vec3(p->iib, vx_vec3_cross(rb, impulse));
    p->xa = vx_vec3_add(p->xa, dxa);
    p->qa = vx_small_turn(p->qa, dqa);
    p->xb = vx_vec3_add(p->xb, dxb);
    p->qb = vx_small_turn(p->qb, dqb);
    p->dxa = vx_vec3_add(p->dxa, dxa);
    p->dxb = vx_vec3_add(p->dxb, dxb);
    p->dqa = vx_vec3_add(p->dqa, dqa);
    p->dqb = vx_vec3_add(p->dqb, dqb);
    p->linear = vx_vec3_add(p->linear, impulse);
}

static void move_angular(pose_pair *p, vx_vec3 l)
{
    vx_vec3 dqa = vx_vec3_neg(vx_mat3_mul_vec3(p->iia, l)), dqb = vx_mat3_mul_vec3(p->iib, l);
    p->qa = vx_small_turn(p->qa, dqa);
    p->qb = vx_small_turn(p->qb, dqb);
    p->dqa = vx_vec3_add(p->dqa, dqa);
    p->dqb = vx_vec3_add(p->dqb, dqb);
    p->angular = vx_vec3_add(p->angular, l);
}

/* The anchors now: arms from the centres and B's point less A's. */
static vx_vec3 anchors(const vx_joint *j, const pose_pair *p, vx_vec3 *ra, vx_vec3 *rb)
{
    *ra = vx_quat_rotate(p->qa, j->side[0].anchor);
    *rb = vx_quat_rotate(p->qb, j->side[1].anchor);
    return vx_vec3_sub(vx_vec3_add(p->xb, *rb), vx_vec3_add(p->xa, *ra));
}

/* The rows' directions, arms and masses are those of the substep's start
 * (vx_joint_rows): only the errors are measured from the poses now. */

/* Whether arm `now` is still near the substep's `before` (within about
 * VX_JOINT_START_ARM_TURN radians, or both short). */
#define VX_JOINT_START_ARM_TURN 0.1f
static bool arm_kept(vx_vec3 before, vx_vec3 now)
{
    float lb = vx_vec3_length_sq(before), ln = vx_vec3_length_sq(now);
    if (!(lb > 1e-8f) || !(ln > 1e-8f)) return true;
    float c = vx_vec3_dot(before, now);
    const float cos_turn = 0.99500417f; /* cos(VX_JOINT_START_ARM_TURN) */
    return c > 0.0f && c * c >= cos_turn * cos_turn * lb * ln;
}

/* The point's pseudo impulse goes through the substep's arms while the
 * bodies turned little in the step: the move then keeps the direction of
 * the start, as RATTLE's, and the chord step keeps a swing's energy. A body
 * that turned far (a whip's tip) is moved through its arms now: the start's
 * linearization no longer holds there, and the passes would diverge. */
static void fix_point(const vx_joint *j, const vx_joint_rows *r, pose_pair *p)
{
    vx_vec3 ra, rb;
    vx_vec3 c = anchors(j, p, &ra, &rb);
    if (arm_kept(r->ra, ra) && arm_kept(r->rb, rb)) {
        move_linear(p, vx_vec3_neg(vx_mat3_mul_vec3(&r->point_mass, c)), r->ra, r->rb);
        return;
    }
    vx_mat3 inv = vx_joint_point_mass(p->ima, p->imb, p->iia, p->iib, ra, rb);
    move_linear(p, vx_vec3_neg(vx_mat3_mul_vec3(&inv, c)), ra, rb);
}

/* The rotation lock (fixed, slider): the error rotation qB conj(qA q0) as
 * twice its vector part. */
static vx_vec3 lock_error(const vx_joint *j, const pose_pair *p)
{
    vx_quat e = vx_quat_mul(p->qb, vx_quat_conjugate(vx_quat_mul(p->qa, j->body_reference)));
    float sign = e.w < 0.0f ? -2.0f : 2.0f;
    return vx_vec3_make(sign * e.x, sign * e.y, sign * e.z);
}

static void fix_lock(const vx_joint *j, const vx_joint_rows *r, pose_pair *p)
{
    move_angular(p, vx_vec3_neg(vx_mat3_mul_vec3(&r->lock_mass, lock_error(j, p))));
}

/* Two rows u1, u2 with errors c1, c2: angular, or point rows with the arms. */
static void fix_pair(const vx_joint_rows *r, pose_pair *p, float c1, float c2, bool angular)
{
    float l1 = 0.0f - (r->pair_mass.a * c1 + r->pair_mass.b * c2);
    float l2 = 0.0f - (r->pair_mass.b * c1 + r->pair_mass.c * c2);
    vx_vec3 impulse = vx_vec3_add(vx_vec3_scale(r->u1, l1), vx_vec3_scale(r->u2, l2));
    if (angular)
        move_angular(p, impulse);
    else
        move_linear(p, impulse, r->arm_a, r->rb);
}

/* The hinge's axes: A's axis stays perpendicular to B's two perpendiculars. */
static void fix_hinge_axis(const vx_joint *j, const vx_joint_rows *r, pose_pair *p)
{
    vx_vec3 a1 = vx_quat_rotate(p->qa, j->side[0].axis);
    vx_vec3 p1, p2;
    vx_joint_perpendiculars(j->side[1].axis, &p1, &p2);
    vx_vec3 b2 = vx_quat_rotate(p->qb, p1), c2 = vx_quat_rotate(p->qb, p2);
    fix_pair(r, p, vx_vec3_dot(a1, b2), vx_vec3_dot(a1, c2), true);
}

/* A one-sided error of coordinate value c against [lower, upper]
 * (has_lower false: only the upper side); 0 when within. */
static float violation(float c, float lower, float upper, bool has_lower)
{
    if (has_lower && c < lower) return c - lower;
    if (c > upper) return c - upper;
    return 0.0f;
}

/* Error c taken out along the substep's axial row. */
static void fix_axial(const vx_joint_rows *r, pose_pair *p, float c, bool angular)
{
    if (c == 0.0f) return;
    float lambda = (0.0f - c) * r->axial_mass;
    if (angular)
        move_angular(p, vx_vec3_scale(r->axis, lambda));
    else
        move_linear(p, vx_vec3_scale(r->axis, lambda), r->arm_a, r->rb);
}

static void fix_hinge_limit(const vx_joint *j, const vx_joint_rows *r, pose_pair *p)
{
    float angle = vx_joint_hinge_angle(j, p->qa, p->qb, j->angle);
    fix_axial(r, p, violation(angle, j->def.lower, j->def.upper, true), true);
}

static void fix_cone(const vx_joint *j, const vx_joint_rows *r, pose_pair *p)
{
    if (!r->cone_row) return;
    vx_vec3 aa = vx_quat_rotate(p->qa, j->side[0].axis), ab = vx_quat_rotate(p->qb, j->side[1].axis);
    float tilt = vx_det_atan2f(vx_vec3_length(vx_vec3_cross(aa, ab)), vx_vec3_dot(aa, ab));
    fix_axial(r, p, violation(tilt, 0.0f, j->def.cone_angle, false), true);
}

static void fix_slider(const vx_joint *j, const vx_joint_rows *r, pose_pair *p, bool locked)
{
    vx_vec3 ra, rb;
    vx_vec3 d = anchors(j, p, &ra, &rb);
    if (locked) fix_pair(r, p, vx_vec3_dot(r->u1, d), vx_vec3_dot(r->u2, d), false);
    if (!j->def.limit_enabled) return;
    d = anchors(j, p, &ra, &rb);
    fix_axial(r, p, violation(vx_vec3_dot(r->axis, d), j->def.lower, j->def.upper, true), false);
}

static void fix_distance(const vx_joint *j, const vx_joint_rows *r, pose_pair *p)
{
    const vx_joint_def *def = &j->def;
    vx_vec3 ra, rb;
    vx_vec3 d = anchors(j, p, &ra, &rb);
    float len = vx_vec3_length(d);
    float c;
    if (def->limit_enabled)
        c = violation(len, def->lower, def->upper, def->lower > 0.0f);
    else if (!def->spring.enabled)
        c = len - def->length;
    else
        return;
    if (c == 0.0f || !(len > 1e-6f)) return;
    if (arm_kept(r->ra, ra) && arm_kept(r->rb, rb) && arm_kept(r->axis, d)) {
        fix_axial(r, p, c, false);
        return;
    }
    vx_vec3 n = vx_vec3_scale(d, 1.0f / len);
    float k = vx_joint_line_k(p->ima, p->imb, p->iia, p->iib, n, ra, rb);
    if (k > 0.0f) move_linear(p, vx_vec3_scale(n, (0.0f - c) / k), ra, rb);
}

/* One joint's corrections; its locked parts only when `locked` (else the
 * tree takes them). */
static void fix_joint(const vx_joint *j, const vx_joint_rows *r, pose_pair *p, bool locked)
{
    switch (j->def.type) {
    case VX_JOINT_BALL:
        if (j->def.cone_enabled) fix_cone(j, r, p);
        if (locked) fix_point(j, r, p);
        break;
    case VX_JOINT_HINGE:
        if (j->def.limit_enabled) fix_hinge_limit(j, r, p);
        if (locked) {
            fix_hinge_axis(j, r, p);
            fix_point(j, r, p);
        }
        break;
    case VX_JOINT_SLIDER:
        if (locked) fix_lock(j, r, p);
        fix_slider(j, r, p, locked);
        break;
    case VX_JOINT_FIXED:
        if (locked) {
            fix_lock(j, r, p);
            fix_point(j, r, p);
        }
        break;
    case VX_JOINT_DISTANCE:
        if (locked || j->def.limit_enabled) fix_distance(j, r, p);
        break;
    }
}

/* The tree's rows for a position pass: each joint's of the substep's start
 * while its bodies turned little since (the chord keeps the energy, as in
 * fix_point), else from the poses now; refactored when they differ from the
 * factor's. */
static double tree_pass(vx_joint_solver *js, vx_body_set *bodies, float inv_h, bool *factored_start, bool first)
{
    bool all_start = true;
    for (size_t k = 0; k < js->row_count; k++) {
        const vx_joint_rows *r = &js->rows[k];
        js->pass_rows[k] = *r;
        if (js->tree.rows[k].dim == 0) continue;
        vx_joint *j = &js->set->items[r->joint];
        pose_pair p = load(j, bodies);
        vx_vec3 ra = vx_quat_rotate(p.qa, j->side[0].anchor), rb = vx_quat_rotate(p.qb, j->side[1].anchor);
        if (first && arm_kept(r->ra, ra) && arm_kept(r->rb, rb)) continue;
        vx_joint_rows_now(&js->pass_rows[k], j, bodies, js->h);
        all_start = false;
    }
    if (!all_start || !*factored_start) vx_joint_tree_factor(&js->tree, js, js->pass_rows);
    *factored_start = all_start;
    return vx_joint_tree_solve_positions(&js->tree, js, js->pass_rows, bodies, inv_h);
}

void vx_joint_solver_solve_positions(vx_joint_solver *js, vx_body_set *bodies, int iterations)
{
    float inv_h = 1.0f / js->h;
    bool tree = js->tree.node_count > 0;
    bool factored_start = true; /* the velocity passes' factor is the start's */
    /* the tree's passes are Newton steps: they go on past `iterations`
     * until its joints meet (a heavy whip can take tens), within a cap */
    bool tree_done = !tree;
    for (int pass = 0; pass < VX_JOINT_POSITION_PASSES_MAX && (pass < iterations || !tree_done); pass++) {
        if (!tree_done) tree_done = tree_pass(js, bodies, inv_h, &factored_start, pass == 0) < VX_JOINT_POSITION_TOLERANCE;
        if (pass >= iterations) continue;
        for (size_t k = 0; k < js->row_count; k++) {
            const vx_joint_rows *r = &js->rows[k];
            vx_joint *j = &js->set->items[r->joint];
            pose_pair p = load(j, bodies);
            fix_joint(j, r, &p, !tree || js->tree.rows[k].dim == 0);
            store(j, bodies, &p, inv_h);
        }
    }
}

int vx_joint_locked_errors(const vx_joint *j, const vx_joint_rows *r, const vx_body_set *bodies, double *c)
{
    pose_pair p = load(j, bodies);
    vx_vec3 ra, rb;
    vx_vec3 d = anchors(j, &p, &ra, &rb);
    int n = 0;
    switch (j->def.type) {
    case VX_JOINT_BALL:
    case VX_JOINT_HINGE:
    case VX_JOINT_FIXED:
        c[n++] = d.x, c[n++] = d.y, c[n++] = d.z;
        if (j->def.type == VX_JOINT_HINGE) {
            vx_vec3 a1 = vx_quat_rotate(p.qa, j->side[0].axis);
            vx_vec3 p1, p2;
            vx_joint_perpendiculars(j->side[1].axis, &p1, &p2);
            c[n++] = vx_vec3_dot(a1, vx_quat_rotate(p.qb, p1));
            c[n++] = vx_vec3_dot(a1, vx_quat_rotate(p.qb, p2));
        }
        if (j->def.type == VX_JOINT_FIXED) {
            vx_vec3 e = lock_error(j, &p);
            c[n++] = e.x, c[n++] = e.y, c[n++] = e.z;
        }
        break;
    case VX_JOINT_SLIDER: {
        vx_vec3 e = lock_error(j, &p);
        c[n++] = e.x, c[n++] = e.y, c[n++] = e.z;
        c[n++] = vx_vec3_dot(r->u1, d);
        c[n++] = vx_vec3_dot(r->u2, d);
        break;
    }
    case VX_JOINT_DISTANCE:
        if (!j->def.limit_enabled && !j->def.spring.enabled) c[n++] = vx_vec3_length(d) - j->def.length;
        break;
    }
    return n;
}

float vx_joint_hinge_angle(const vx_joint *j, vx_quat qa, vx_quat qb, float near)
{
    /* B's turn since creation in A's frame: conj(qA) qB conj(q0) */
    vx_quat r = vx_quat_mul(vx_quat_mul(vx_quat_conjugate(qa), qb), vx_quat_conjugate(j->body_reference));
    vx_vec3 a = j->side[0].axis;
    float s = r.x * a.x + r.y * a.y + r.z * a.z;
    float angle = 2.0f * vx_det_atan2f(s, r.w);
    /* the turn nearest the last one: whole turns count */
    const float two_pi = 6.28318531f;
    float turns = floorf((near - angle) / two_pi + 0.5f);
    return angle + turns * two_pi;
}
