/* The joints' velocity rows (joint_solver.h): prepared per substep from
 * the poses, warm started, solved once per velocity pass.
 *
 * Conventions: an impulse P on B is -P on A; a point row of direction n
 * with arms (arm_a, rb) has the rate n . (vB + wB x rb - vA - wA x arm_a);
 * an angular row of direction u the rate u . (wB - wA).
 *
 * A spring row on coordinate C with effective mass m, frequency f
 * (omega = 2 pi f) and damping ratio z is symplectic Euler with implicit
 * damping: over the step, the impulse is -m h (omega^2 (C - rest) + d rate)
 * with the rate at the end of the step and d = 2 z omega; solved by Gauss-Seidel
 * as   delta = -(m h (d rate + omega^2 (C - rest)) + accumulated) / (1 + d h).
 * It keeps a spring's period and amplitude (the frequency error is about
 * (omega h)^2 / 24). Stiffer than omega h = 1 it would oscillate at the
 * step's rate, so there the row turns implicit (d += h omega^2: stable at
 * any stiffness, and damped). */
#include <math.h>

#include "physics/joint/joint_solver.h"
#include "common/det_math.h"

#define VX_JOINT_EXPLICIT_SPRING_LIMIT 1.0f /* omega h above which a spring row is implicit */

/* The two sides' velocities of one joint, in registers. */
typedef struct {
    vx_vec3 va, wa, vb, wb;
} side_velocity;

typedef struct {
    float ima, imb;
    const vx_mat3 *iia, *iib;
} side_mass;

static side_mass mass_of(const vx_joint *j)
{
    side_mass m = {j->side[0].inv_mass, j->side[1].inv_mass, &j->side[0].inv_inertia, &j->side[1].inv_inertia};
    return m;
}

static const vx_vec3 zero3 = {0.0f, 0.0f, 0.0f};

static side_velocity load(const vx_joint *j, const vx_contact_hot_velocity *vel)
{
    side_velocity v = {zero3, zero3, zero3, zero3};
    uint32_t a = j->side[0].slot, b = j->side[1].slot;
    if (a != VX_JOINT_WORLD) {
        v.va = vx_contact_get3(vel[a].v);
        v.wa = vx_contact_get3(vel[a].w);
    }
    if (b != VX_JOINT_WORLD) {
        v.vb = vx_contact_get3(vel[b].v);
        v.wb = vx_contact_get3(vel[b].w);
    }
    return v;
}

static void store(const vx_joint *j, vx_contact_hot_velocity *vel, const side_velocity *v)
{
    if (j->side[0].moves) {
        vx_contact_put3(vel[j->side[0].slot].v, v->va);
        vx_contact_put3(vel[j->side[0].slot].w, v->wa);
    }
    if (j->side[1].moves) {
        vx_contact_put3(vel[j->side[1].slot].v, v->vb);
        vx_contact_put3(vel[j->side[1].slot].w, v->wb);
    }
}

static vx_vec3 point_velocity(const side_velocity *v, vx_vec3 arm_a, vx_vec3 rb)
{
    return vx_vec3_sub(vx_vec3_add(v->vb, vx_vec3_cross(v->wb, rb)), vx_vec3_add(v->va, vx_vec3_cross(v->wa, arm_a)));
}

static float point_rate(const side_velocity *v, vx_vec3 n, vx_vec3 arm_a, vx_vec3 rb)
{
    return vx_vec3_dot(n, point_velocity(v, arm_a, rb));
}

static void push_linear(side_velocity *v, const side_mass *m, vx_vec3 p, vx_vec3 arm_a, vx_vec3 rb)
{
    v->va = vx_vec3_sub(v->va, vx_vec3_scale(p, m->ima));
    v->wa = vx_vec3_sub(v->wa, vx_mat3_mul_vec3(m->iia, vx_vec3_cross(arm_a, p)));
    v->vb = vx_vec3_add(v->vb, vx_vec3_scale(p, m->imb));
    v->wb = vx_vec3_add(v->wb, vx_mat3_mul_vec3(m->iib, vx_vec3_cross(rb, p)));
}

static void push_angular(side_velocity *v, const side_mass *m, vx_vec3 l)
{
    v->wa = vx_vec3_sub(v->wa, vx_mat3_mul_vec3(m->iia, l));
    v->wb = vx_vec3_add(v->wb, vx_mat3_mul_vec3(m->iib, l));
}

/* 1 / K of a point row along n with arms (arm_a, rb). */
static float linear_row_mass(const side_mass *m, vx_vec3 n, vx_vec3 arm_a, vx_vec3 rb)
{
    return vx_joint_inverse(vx_joint_line_k(m->ima, m->imb, m->iia, m->iib, n, arm_a, rb));
}

static float angular_row_mass(const side_mass *m, vx_vec3 u)
{
    return vx_joint_inverse(vx_vec3_dot(u, vx_mat3_mul_vec3(m->iia, u)) + vx_vec3_dot(u, vx_mat3_mul_vec3(m->iib, u)));
}

/* ---- prepare ---- */

static void load_side(vx_joint *j, int s, const vx_body_set *bodies)
{
    vx_joint_side *side = &j->side[s];
    vx_joint_side_pose(j, s, bodies, &side->x, &side->q);
    if (side->slot == VX_JOINT_WORLD) {
        side->inv_mass = 0.0f;
        side->inv_inertia = vx_mat3_diagonal(zero3);
        side->moves = false;
        return;
    }
    side->inv_mass = bodies->mass[side->slot].inv_mass;
    side->inv_inertia = bodies->mass[side->slot].inv_inertia;
    side->moves = bodies->info[side->slot].motion == VX_MOTION_DYNAMIC && side->inv_mass > 0.0f;
}

static bool side_asleep(const vx_joint *j, int s, const vx_body_set *bodies)
{
    return j->side[s].slot != VX_JOINT_WORLD && bodies->info[j->side[s].slot].asleep;
}

static void prepare_spring(vx_joint_rows *r, const vx_joint *j, float h)
{
    const vx_joint_spring *sp = &j->def.spring;
    if (!sp->enabled) return;
    float omega = 6.28318531f * sp->frequency;
    float d = 2.0f * sp->damping_ratio * omega;
    if (omega * h > VX_JOINT_EXPLICIT_SPRING_LIMIT) d += h * omega * omega;
    r->spring_gain = r->axial_mass * h * omega * omega;
    r->spring_damping = d;
}

/* The rows of one joint from the poses now. */
static void prepare_joint(vx_joint_rows *r, vx_joint *j, float h)
{
    const vx_joint_side *A = &j->side[0], *B = &j->side[1];
    side_mass m = mass_of(j);
    vx_vec3 pa, pb;
    r->ra = vx_quat_rotate(A->q, A->anchor);
    r->rb = vx_quat_rotate(B->q, B->anchor);
    pa = vx_vec3_add(A->x, r->ra);
    pb = vx_vec3_add(B->x, r->rb);
    vx_vec3 d = vx_vec3_sub(pb, pa);
    r->arm_a = r->ra;
    r->cone_row = false;
    r->coordinate = 0.0f;
    switch (j->def.type) {
    case VX_JOINT_BALL:
    case VX_JOINT_HINGE:
    case VX_JOINT_FIXED: {
        r->point_mass = vx_joint_point_mass(m.ima, m.imb, m.iia, m.iib, r->ra, r->rb);
        break;
    }
    case VX_JOINT_SLIDER:
    case VX_JOINT_DISTANCE:
        break;
    }
    if (j->def.type == VX_JOINT_FIXED || j->def.type == VX_JOINT_SLIDER) {
        vx_mat3 k = vx_mat3_add(m.iia, m.iib);
        r->lock_mass = vx_joint_invert3(&k);
    }
    if (j->def.type == VX_JOINT_HINGE) {
        vx_vec3 a1 = vx_quat_rotate(A->q, A->axis);
        vx_vec3 p1, p2;
        vx_joint_perpendiculars(B->axis, &p1, &p2);
        vx_vec3 b2 = vx_quat_rotate(B->q, p1), c2 = vx_quat_rotate(B->q, p2);
        r->axis = a1;
        r->u1 = vx_vec3_cross(b2, a1);
        r->u2 = vx_vec3_cross(c2, a1);
        vx_mat3 ii = vx_mat3_add(m.iia, m.iib);
        vx_vec3 i1 = vx_mat3_mul_vec3(&ii, r->u1), i2 = vx_mat3_mul_vec3(&ii, r->u2);
        vx_joint_block2 k = {vx_vec3_dot(r->u1, i1), vx_vec3_dot(r->u1, i2), vx_vec3_dot(r->u2, i2)};
        r->pair_mass = vx_joint_invert2(k);
        r->axial_mass = angular_row_mass(&m, a1);
        r->coordinate = vx_joint_hinge_angle(j, A->q, B->q, j->angle);
    } else if (j->def.type == VX_JOINT_SLIDER) {
        vx_vec3 n = vx_quat_rotate(A->q, A->axis);
        vx_vec3 p1, p2;
        vx_joint_perpendiculars(A->axis, &p1, &p2);
        r->axis = n;
        r->u1 = vx_quat_rotate(A->q, p1);
        r->u2 = vx_quat_rotate(A->q, p2);
        r->arm_a = vx_vec3_add(r->ra, d);
        vx_vec3 a1 = vx_vec3_cross(r->arm_a, r->u1), a2 = vx_vec3_cross(r->arm_a, r->u2);
        vx_vec3 b1 = vx_vec3_cross(r->rb, r->u1), b2 = vx_vec3_cross(r->rb, r->u2);
        vx_vec3 ia1 = vx_mat3_mul_vec3(m.iia, a1), ia2 = vx_mat3_mul_vec3(m.iia, a2);
        vx_vec3 ib1 = vx_mat3_mul_vec3(m.iib, b1), ib2 = vx_mat3_mul_vec3(m.iib, b2);
        float ms = m.ima + m.imb;
        vx_joint_block2 k = {ms + vx_vec3_dot(a1, ia1) + vx_vec3_dot(b1, ib1), vx_vec3_dot(a1, ia2) + vx_vec3_dot(b1, ib2),
                             ms + vx_vec3_dot(a2, ia2) + vx_vec3_dot(b2, ib2)};
        r->pair_mass = vx_joint_invert2(k);
        r->axial_mass = linear_row_mass(&m, n, r->arm_a, r->rb);
        r->coordinate = vx_vec3_dot(n, d);
    } else if (j->def.type == VX_JOINT_DISTANCE) {
        float len = vx_vec3_length(d);
        /* coincident anchors: the last line (or any) keeps the row defined */
        r->axis = len > 1e-6f ? vx_vec3_scale(d, 1.0f / len) : (vx_vec3_length_sq(r->axis) > 0.0f ? r->axis : vx_vec3_make(0.0f, 1.0f, 0.0f));
        r->axial_mass = linear_row_mass(&m, r->axis, r->ra, r->rb);
        r->coordinate = len;
    } else if (j->def.type == VX_JOINT_BALL && j->def.cone_enabled) {
        vx_vec3 aa = vx_quat_rotate(A->q, A->axis), ab = vx_quat_rotate(B->q, B->axis);
        vx_vec3 c = vx_vec3_cross(aa, ab);
        float s = vx_vec3_length(c);
        r->coordinate = vx_det_atan2f(s, vx_vec3_dot(aa, ab));
        if (s > 1e-6f) {
            r->cone_row = true;
            r->axis = vx_vec3_scale(c, 1.0f / s);
            r->axial_mass = angular_row_mass(&m, r->axis);
        }
    }
    prepare_spring(r, j, h);
}

void vx_joint_rows_now(vx_joint_rows *r, vx_joint *j, const vx_body_set *bodies, float h)
{
    for (int s = 0; s < 2; s++) load_side(j, s, bodies);
    uint32_t joint = r->joint;
    vx_vec3 axis = r->axis;
    prepare_joint(r, j, h);
    r->joint = joint;
    if (!(vx_vec3_length_sq(r->axis) > 0.0f)) r->axis = axis;
}

vx_status vx_joint_solver_prepare(vx_joint_solver *js, const vx_body_set *bodies, float h)
{
    js->h = h;
    js->row_count = 0;
    if (!js->set) return VX_OK;
    for (size_t k = 0; k < js->bound_count; k++) {
        vx_joint *j = &js->set->items[js->bound[k]];
        j->active = !side_asleep(j, 0, bodies) && !side_asleep(j, 1, bodies);
        if (!j->active) continue;
        for (int s = 0; s < 2; s++) load_side(j, s, bodies);
        if (!j->side[0].moves && !j->side[1].moves) {
            j->active = false; /* nothing it can move (a body made static since) */
            continue;
        }
        vx_joint_rows *r = &js->rows[js->row_count++];
        r->joint = js->bound[k];
        r->axis = zero3;
        prepare_joint(r, j, h);
    }
    js->tree.node_count = 0;
    if (!js->use_tree || js->row_count == 0) return VX_OK;
    return vx_joint_tree_build(&js->tree, js, bodies);
}

/* Whether the joint has rows besides the locked ones: a spring, motor,
 * limit or cone (with a direction this substep). */
static bool has_free_rows(const vx_joint *j, const vx_joint_rows *r)
{
    const vx_joint_def *d = &j->def;
    return d->spring.enabled || d->motor.enabled || d->limit_enabled || r->cone_row;
}

/* Whether row k's locked rows are the tree's (else Gauss-Seidel's). */
static bool in_tree(const vx_joint_solver *js, size_t k) { return js->tree.node_count > 0 && js->tree.rows[k].dim > 0; }

/* ---- warm start ---- */

/* The axial rows' impulse summed (spring, motor, limits; a rigid
 * distance's row), with the sign of the coordinate. */
static float axial_total(const vx_joint *j)
{
    return j->spring_impulse + j->motor_impulse + j->lower_impulse - j->upper_impulse + j->axial_impulse;
}

/* The joint's impulse now as one linear (at the anchors) and one angular
 * vector, world. */
static void impulse_vectors(const vx_joint *j, const vx_joint_rows *r, vx_vec3 *linear, vx_vec3 *angular)
{
    *linear = j->linear_impulse;
    *angular = j->angular_impulse;
    float axial = axial_total(j);
    switch (j->def.type) {
    case VX_JOINT_HINGE: *angular = vx_vec3_add(*angular, vx_vec3_scale(r->axis, axial)); break;
    case VX_JOINT_SLIDER:
    case VX_JOINT_DISTANCE: *linear = vx_vec3_add(*linear, vx_vec3_scale(r->axis, axial)); break;
    case VX_JOINT_BALL:
        if (r->cone_row) *angular = vx_vec3_sub(*angular, vx_vec3_scale(r->axis, j->upper_impulse));
        break;
    case VX_JOINT_FIXED: break;
    }
}

static void clear_impulses(vx_joint *j)
{
    j->linear_impulse = zero3;
    j->angular_impulse = zero3;
    j->axial_impulse = j->spring_impulse = j->motor_impulse = j->lower_impulse = j->upper_impulse = 0.0f;
}

void vx_joint_solver_warm_start(vx_joint_solver *js, vx_contact_hot_velocity *vel, bool warm_start)
{
    for (size_t k = 0; k < js->row_count; k++) {
        vx_joint_rows *r = &js->rows[k];
        vx_joint *j = &js->set->items[r->joint];
        if (!warm_start) {
            clear_impulses(j);
            continue;
        }
        /* the kept vectors lose what the moved frames no longer lock */
        if (j->def.type == VX_JOINT_HINGE)
            j->angular_impulse = vx_vec3_sub(j->angular_impulse, vx_vec3_scale(r->axis, vx_vec3_dot(r->axis, j->angular_impulse)));
        if (j->def.type == VX_JOINT_SLIDER)
            j->linear_impulse = vx_vec3_sub(j->linear_impulse, vx_vec3_scale(r->axis, vx_vec3_dot(r->axis, j->linear_impulse)));
        if (j->def.type == VX_JOINT_BALL && !r->cone_row) j->upper_impulse = 0.0f;
        vx_vec3 linear, angular;
        impulse_vectors(j, r, &linear, &angular);
        side_mass m = mass_of(j);
        side_velocity v = load(j, vel);
        push_linear(&v, &m, linear, r->arm_a, r->rb);
        push_angular(&v, &m, angular);
        store(j, vel, &v);
    }
}

/* ---- one pass ---- */

typedef struct {
    vx_vec3 n;        /* direction */
    bool angular;     /* an angular row (else a point row with arms arm_a, rb) */
} axial_row;

static float axial_rate(const side_velocity *v, const vx_joint_rows *r, const axial_row *a)
{
    return a->angular ? vx_vec3_dot(a->n, vx_vec3_sub(v->wb, v->wa)) : point_rate(v, a->n, r->arm_a, r->rb);
}

static void axial_push(side_velocity *v, const side_mass *m, const vx_joint_rows *r, const axial_row *a, float lambda)
{
    if (a->angular)
        push_angular(v, m, vx_vec3_scale(a->n, lambda));
    else
        push_linear(v, m, vx_vec3_scale(a->n, lambda), r->arm_a, r->rb);
}

static void solve_spring(vx_joint *j, const vx_joint_rows *r, side_velocity *v, const side_mass *m, const axial_row *a,
                         float h)
{
    float rate = axial_rate(v, r, a);
    float d = r->spring_damping;
    float lambda = 0.0f - (r->spring_gain * (r->coordinate - j->def.spring.rest) + r->axial_mass * h * d * rate +
                           j->spring_impulse) /
                              (1.0f + d * h);
    j->spring_impulse += lambda;
    axial_push(v, m, r, a, lambda);
}

static void solve_motor(vx_joint *j, const vx_joint_rows *r, side_velocity *v, const side_mass *m, const axial_row *a,
                        float h)
{
    float rate = axial_rate(v, r, a);
    float lambda = (j->def.motor.speed - rate) * r->axial_mass;
    float most = j->def.motor.max_effort * h;
    float total = j->motor_impulse + lambda;
    total = total < -most ? -most : (total > most ? most : total);
    lambda = total - j->motor_impulse;
    j->motor_impulse = total;
    axial_push(v, m, r, a, lambda);
}

/* One-sided and speculative: the coordinate may close the gap to a limit
 * within the substep, not more; past it, the rate may not grow (the
 * position passes take back the overshoot). */
static void solve_limits(vx_joint *j, const vx_joint_rows *r, side_velocity *v, const side_mass *m, const axial_row *a,
                         float lower, float upper, bool has_lower, float h)
{
    float inv_h = 1.0f / h;
    if (has_lower) {
        float gap = r->coordinate - lower;
        float bias = gap > 0.0f ? gap * inv_h : 0.0f;
        float lambda = 0.0f - (axial_rate(v, r, a) + bias) * r->axial_mass;
        float total = j->lower_impulse + lambda;
        total = total > 0.0f ? total : 0.0f;
        lambda = total - j->lower_impulse;
        j->lower_impulse = total;
        axial_push(v, m, r, a, lambda);
    }
    float gap = upper - r->coordinate;
    float bias = gap > 0.0f ? gap * inv_h : 0.0f;
    float lambda = 0.0f - (bias - axial_rate(v, r, a)) * r->axial_mass;
    float total = j->upper_impulse + lambda;
    total = total > 0.0f ? total : 0.0f;
    lambda = total - j->upper_impulse;
    j->upper_impulse = total;
    axial_push(v, m, r, a, 0.0f - lambda);
}

static void solve_point(vx_joint *j, const vx_joint_rows *r, side_velocity *v, const side_mass *m)
{
    vx_vec3 rate = point_velocity(v, r->ra, r->rb);
    vx_vec3 p = vx_vec3_neg(vx_mat3_mul_vec3(&r->point_mass, rate));
    j->linear_impulse = vx_vec3_add(j->linear_impulse, p);
    push_linear(v, m, p, r->ra, r->rb);
}

static void solve_lock(vx_joint *j, const vx_joint_rows *r, side_velocity *v, const side_mass *m)
{
    vx_vec3 l = vx_vec3_neg(vx_mat3_mul_vec3(&r->lock_mass, vx_vec3_sub(v->wb, v->wa)));
    j->angular_impulse = vx_vec3_add(j->angular_impulse, l);
    push_angular(v, m, l);
}

/* Two rows u1, u2 solved together: angular (hinge) or point rows (slider). */
static void solve_pair(vx_joint *j, const vx_joint_rows *r, side_velocity *v, const side_mass *m, bool angular)
{
    axial_row a1 = {r->u1, angular}, a2 = {r->u2, angular};
    float c1 = axial_rate(v, r, &a1), c2 = axial_rate(v, r, &a2);
    float l1 = 0.0f - (r->pair_mass.a * c1 + r->pair_mass.b * c2);
    float l2 = 0.0f - (r->pair_mass.b * c1 + r->pair_mass.c * c2);
    vx_vec3 p = vx_vec3_add(vx_vec3_scale(r->u1, l1), vx_vec3_scale(r->u2, l2));
    if (angular) {
        j->angular_impulse = vx_vec3_add(j->angular_impulse, p);
        push_angular(v, m, p);
    } else {
        j->linear_impulse = vx_vec3_add(j->linear_impulse, p);
        push_linear(v, m, p, r->arm_a, r->rb);
    }
}

static void solve_distance(vx_joint *j, const vx_joint_rows *r, side_velocity *v, const side_mass *m, float h,
                           bool locked)
{
    axial_row a = {r->axis, false};
    if (j->def.spring.enabled) solve_spring(j, r, v, m, &a, h);
    if (j->def.limit_enabled) {
        solve_limits(j, r, v, m, &a, j->def.lower, j->def.upper, j->def.lower > 0.0f, h);
    } else if (!j->def.spring.enabled && locked) {
        float lambda = 0.0f - axial_rate(v, r, &a) * r->axial_mass;
        j->axial_impulse += lambda;
        axial_push(v, m, r, &a, lambda);
    }
}

/* One pass over the joint's rows; its locked rows only when `locked` (else
 * the tree solves them). */
static void solve_joint(vx_joint *j, const vx_joint_rows *r, side_velocity *v, float h, bool locked)
{
    side_mass m = mass_of(j);
    const vx_joint_def *d = &j->def;
    switch (d->type) {
    case VX_JOINT_BALL:
        if (r->cone_row) {
            axial_row a = {r->axis, true};
            solve_limits(j, r, v, &m, &a, 0.0f, d->cone_angle, false, h);
        }
        if (locked) solve_point(j, r, v, &m);
        break;
    case VX_JOINT_HINGE: {
        axial_row a = {r->axis, true};
        if (d->spring.enabled) solve_spring(j, r, v, &m, &a, h);
        if (d->motor.enabled) solve_motor(j, r, v, &m, &a, h);
        if (d->limit_enabled) solve_limits(j, r, v, &m, &a, d->lower, d->upper, true, h);
        if (locked) {
            solve_pair(j, r, v, &m, true);
            solve_point(j, r, v, &m);
        }
        break;
    }
    case VX_JOINT_SLIDER: {
        axial_row a = {r->axis, false};
        if (d->spring.enabled) solve_spring(j, r, v, &m, &a, h);
        if (d->motor.enabled) solve_motor(j, r, v, &m, &a, h);
        if (d->limit_enabled) solve_limits(j, r, v, &m, &a, d->lower, d->upper, true, h);
        if (locked) {
            solve_lock(j, r, v, &m);
            solve_pair(j, r, v, &m, false);
        }
        break;
    }
    case VX_JOINT_FIXED:
        if (locked) {
            solve_lock(j, r, v, &m);
            solve_point(j, r, v, &m);
        }
        break;
    case VX_JOINT_DISTANCE: solve_distance(j, r, v, &m, h, locked); break;
    }
}

void vx_joint_solver_velocity_pass(vx_joint_solver *js, vx_contact_hot_velocity *vel)
{
    for (size_t k = 0; k < js->row_count; k++) {
        const vx_joint_rows *r = &js->rows[k];
        vx_joint *j = &js->set->items[r->joint];
        bool locked = !in_tree(js, k);
        if (!locked && !has_free_rows(j, r)) continue; /* the tree solves all it has */
        side_velocity v = load(j, vel);
        solve_joint(j, r, &v, js->h, locked);
        store(j, vel, &v);
    }
    vx_joint_tree_solve(&js->tree, js, vel);
}

void vx_joint_solver_end_substep(vx_joint_solver *js)
{
    for (size_t k = 0; k < js->row_count; k++) {
        const vx_joint_rows *r = &js->rows[k];
        vx_joint *j = &js->set->items[r->joint];
        vx_vec3 linear, angular;
        impulse_vectors(j, r, &linear, &angular);
        j->step_linear = vx_vec3_add(j->step_linear, linear);
        j->step_angular = vx_vec3_add(j->step_angular, angular);
    }
}
