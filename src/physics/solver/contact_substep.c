/* The substepped solve (substeps > 1; see contact_solver.h): the contacts
 * are found and set up once per step, and only the solver runs per substep
 * of h, on separations re-estimated from the current poses, with a soft
 * push-out for overlap that a relax pass takes back; restitution is applied
 * once at the end of the step (vx_contact_substep_finish), but for the
 * points the collision pass bounced before the first substep. See
 * docs/simulation.md, "Substeps". */
#include "physics/solver/contact_solver.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/parallel.h"
#include "physics/solver/contact_wide.h"
#include "physics/solver/solve_sweep.h"

/* Box2D v3's soft contact for the push-out of overlap: stiffness at most
 * 60 Hz (and a quarter of the substep rate), damping ratio 3, push-out at
 * most 3 m/s. Box2D's 30 Hz and ratio 10 let a 100-box column sag under its
 * own weight (the soft row yields in proportion to its load). */
#define VX_SUBSTEP_CONTACT_HERTZ 60.0f
#define VX_SUBSTEP_DAMPING_RATIO 3.0f
#define VX_SUBSTEP_MAX_PUSH 3.0f
#define VX_TWO_PI 6.28318531f

static void load_blocks_range(void *arg, size_t begin, size_t end) { vx_contact_solver_load_blocks(arg, begin, end); }

typedef struct {
    vx_contact_solver *s;
    const vx_body_set *bodies;
} begin_job;

static void start_x_range(void *arg, size_t begin, size_t end)
{
    begin_job *job = arg;
    for (size_t i = begin; i < end; i++) job->s->start_x[i] = job->bodies->pose[i].x;
}

/* Constraints [begin, end): each point's base separation (the point's own
 * data only, so the threads may share the constraints out). */
static void start_points_range(void *arg, size_t begin, size_t end)
{
    begin_job *job = arg;
    vx_contact_solver *s = job->s;
    for (size_t i = begin; i < end; i++) {
        const vx_contact_constraint *c = &s->constraints[i];
        const vx_body_pose *pa = &job->bodies->pose[c->a];
        const vx_body_pose *pb = &job->bodies->pose[c->b];
        for (int k = 0; k < c->count; k++) {
            vx_contact_anchor *an = &s->anchors[c->first + (uint32_t)k];
            vx_contact_substep_point *p = &s->substep_points[c->first + (uint32_t)k];
            /* restitution is the end of the step's (finish), not prepare's */
            an->bounced = false;
            an->may_pend = false;
            vx_vec3 arm_a = vx_quat_rotate(pa->q, an->local_a);
            vx_vec3 arm_b = vx_quat_rotate(pb->q, an->local_b);
            float separation = vx_vec3_dot(vx_vec3_sub(vx_vec3_add(pb->x, arm_b), vx_vec3_add(pa->x, arm_a)), c->n);
            p->local_a = an->local_a;
            p->local_b = an->local_b;
            p->base = separation - vx_vec3_dot(vx_vec3_sub(arm_b, arm_a), c->n);
            p->total = 0.0f;
        }
    }
}

vx_status vx_contact_substep_begin(vx_contact_solver *s, const vx_body_set *bodies)
{
    vx_status st = VX_OK;
    VX_RESERVE(st, s->substep_points, s->substep_point_capacity, s->point_count, 64u);
    VX_RESERVE(st, s->start_x, s->start_x_capacity, bodies->count, 64u);
    if (st == VX_OK) st = vx_contact_solver_pack(s, bodies);
    if (st == VX_OK && s->order.lanes) st = vx_contact_solver_reserve_blocks(s);
    if (st != VX_OK) return st;
    /* the coloured order's blocks hold the impulses from here to the end */
    if (s->order.lanes) vx_parallel_for(s->pool, s->order.unit_count, load_blocks_range, s);
    s->passes = 0;
    s->separations_current = false;
    begin_job job = {s, bodies};
    vx_parallel_for(s->pool, bodies->count, start_x_range, &job);
    vx_parallel_for(s->pool, s->count, start_points_range, &job);
    return VX_OK;
}

/* The separations of constraint i's points from the poses now (kept in
 * sep). */
static void find_separations(vx_contact_solver *s, const vx_body_set *bodies, size_t i)
{
    const vx_contact_hot_constraint *c = &s->hot[i];
    const vx_body_pose *pa = &bodies->pose[c->a];
    const vx_body_pose *pb = &bodies->pose[c->b];
    vx_vec3 n = vx_contact_get3(c->n);
    float moved =
        vx_vec3_dot(vx_vec3_sub(vx_vec3_sub(pb->x, s->start_x[c->b]), vx_vec3_sub(pa->x, s->start_x[c->a])), n);
    vx_vec3 na = vx_quat_rotate(vx_quat_conjugate(pa->q), n);
    vx_vec3 nb = vx_quat_rotate(vx_quat_conjugate(pb->q), n);
    for (uint32_t k = 0; k < c->count; k++) {
        vx_contact_substep_point *p = &s->substep_points[c->first + k];
        p->sep = p->base + moved + vx_vec3_dot(nb, p->local_b) - vx_vec3_dot(na, p->local_a);
    }
}

/* The targets of constraint i's rows from their separations now (found
 * again unless the last relax's still hold). With push (the biased passes),
 * a penetrating point is soft and pushed out; without (relax), only the
 * speculative target remains. */
static inline float target(float sep, float inv_h, bool push, float bias_rate, bool *soft)
{
    *soft = false;
    if (sep > 0.0f) return (0.0f - sep) * inv_h;
    if (push && sep < 0.0f) {
        float b = (0.0f - bias_rate) * sep;
        *soft = true;
        return b < VX_SUBSTEP_MAX_PUSH ? b : VX_SUBSTEP_MAX_PUSH;
    }
    return 0.0f;
}

static void update_targets(vx_contact_solver *s, const vx_body_set *bodies, size_t i, float inv_h, bool push,
                           float bias_rate)
{
    if (!s->separations_current) find_separations(s, bodies, i);
    const vx_contact_hot_constraint *c = &s->hot[i];
    for (uint32_t k = 0; k < c->count; k++) {
        vx_contact_hot_row *r = &s->rows[c->first + k];
        bool soft;
        r->bias = target(s->substep_points[c->first + k].sep, inv_h, push, bias_rate, &soft);
        r->pad = soft ? 1.0f : 0.0f;
    }
}

typedef struct {
    vx_contact_solver *s;
    vx_body_set *bodies;
    bool warm_starting;
    float inv_h, bias_rate;
    float mass_scale, impulse_scale;
    int iterations;
    unsigned first_pass; /* the step's count of passes before this sweep */
    int pass_offset;     /* passes already run (the sweep runs pass by pass when other rows join) */
} substep_job;

static void load_velocity_range(void *arg, size_t begin, size_t end)
{
    substep_job *job = arg;
    for (size_t i = begin; i < end; i++) {
        vx_contact_put3(job->s->hot_velocity[i].v, job->bodies->velocity[i].v);
        vx_contact_put3(job->s->hot_velocity[i].w, job->bodies->velocity[i].w);
    }
}

static void store_velocity_range(void *arg, size_t begin, size_t end)
{
    substep_job *job = arg;
    for (size_t i = begin; i < end; i++) {
        if (!(job->bodies->mass[i].inv_mass > 0.0f)) continue;
        job->bodies->velocity[i].v = vx_contact_get3(job->s->hot_velocity[i].v);
        job->bodies->velocity[i].w = vx_contact_get3(job->s->hot_velocity[i].w);
    }
}

/* Velocities back to the bodies the constraint moves. */
static void store_pair_velocity(vx_contact_hot_velocity *vel, const vx_contact_hot_constraint *c, vx_vec3 va,
                                vx_vec3 wa, vx_vec3 vb, vx_vec3 wb)
{
    if (c->inv_mass_a > 0.0f) {
        vx_contact_put3(vel[c->a].v, va);
        vx_contact_put3(vel[c->a].w, wa);
    }
    if (c->inv_mass_b > 0.0f) {
        vx_contact_put3(vel[c->b].v, vb);
        vx_contact_put3(vel[c->b].w, wb);
    }
}

/* Constraint i's pushing targets, and its accumulated impulses applied
 * again (cleared without warm starting). */
static void warm_start(vx_contact_solver *s, const vx_body_set *bodies, size_t i, bool warm_starting,
                       float inv_h, float bias_rate)
{
    vx_contact_hot_velocity *vel = s->hot_velocity;
    update_targets(s, bodies, i, inv_h, true, bias_rate);
    vx_contact_hot_constraint *c = &s->hot[i];
    vx_contact_hot_row *rows = &s->rows[c->first];
    vx_contact_friction *f = &c->patch;
    if (!warm_starting) {
        for (uint32_t k = 0; k < c->count; k++) rows[k].normal_impulse = 0.0f;
        f->tangent_impulse[0] = f->tangent_impulse[1] = f->twist_impulse = 0.0f;
        return;
    }
    vx_vec3 n = vx_contact_get3(c->n), t1 = vx_contact_get3(c->t1), t2 = vx_contact_get3(c->t2);
    vx_vec3 va = vx_contact_get3(vel[c->a].v), wa = vx_contact_get3(vel[c->a].w);
    vx_vec3 vb = vx_contact_get3(vel[c->b].v), wb = vx_contact_get3(vel[c->b].w);
    for (uint32_t k = 0; k < c->count; k++) {
        const vx_contact_hot_row *r = &rows[k];
        vx_vec3 p = vx_vec3_scale(n, r->normal_impulse);
        va = vx_vec3_sub(va, vx_vec3_scale(p, c->inv_mass_a));
        wa = vx_vec3_sub(wa, vx_vec3_scale(vx_contact_get3(r->ia_n), r->normal_impulse));
        vb = vx_vec3_add(vb, vx_vec3_scale(p, c->inv_mass_b));
        wb = vx_vec3_add(wb, vx_vec3_scale(vx_contact_get3(r->ib_n), r->normal_impulse));
    }
    if (!(c->friction > 0.0f)) {
        store_pair_velocity(vel, c, va, wa, vb, wb);
        return;
    }
    /* the friction at the centre and the twist, summed, then applied once */
    vx_vec3 p = vx_vec3_add(vx_vec3_scale(t1, f->tangent_impulse[0]), vx_vec3_scale(t2, f->tangent_impulse[1]));
    vx_vec3 dwa = vx_vec3_add(vx_vec3_add(vx_vec3_scale(vx_contact_get3(f->ia_t[0]), f->tangent_impulse[0]),
                                          vx_vec3_scale(vx_contact_get3(f->ia_t[1]), f->tangent_impulse[1])),
                              vx_vec3_scale(vx_contact_get3(f->ia_twist), f->twist_impulse));
    vx_vec3 dwb = vx_vec3_add(vx_vec3_add(vx_vec3_scale(vx_contact_get3(f->ib_t[0]), f->tangent_impulse[0]),
                                          vx_vec3_scale(vx_contact_get3(f->ib_t[1]), f->tangent_impulse[1])),
                              vx_vec3_scale(vx_contact_get3(f->ib_twist), f->twist_impulse));
    va = vx_vec3_sub(va, vx_vec3_scale(p, c->inv_mass_a));
    wa = vx_vec3_sub(wa, dwa);
    vb = vx_vec3_add(vb, vx_vec3_scale(p, c->inv_mass_b));
    wb = vx_vec3_add(wb, dwb);
    store_pair_velocity(vel, c, va, wa, vb, wb);
}

/* An order in lanes: the relax's impulses summed, after its last pass. */
static void add_totals_range(void *arg, size_t unit_begin, size_t unit_end)
{
    vx_contact_solver *s = arg;
    for (size_t u = unit_begin; u < unit_end; u++) {
        if (vx_contact_solver_unit_single(s, u)) continue; /* summed by relax_range */
        size_t first = s->order.unit_start[u], stop = s->order.unit_start[u + 1u];
        for (size_t i = first; i < stop; i++) {
            const vx_contact_hot_constraint *c = &s->hot[i];
            for (uint32_t k = 0; k < c->count; k++)
                s->substep_points[c->first + k].total +=
                    vx_contact_wide_normal_impulse(vx_contact_solver_block(s, u), (int)(i - first), (int)k);
        }
    }
}

/* An order in lanes: unit u's targets from the poses now (as
 * update_targets), straight into its block (the rows' targets are left as
 * they are: the block is what is solved). */
static void set_block_targets(vx_contact_solver *s, const vx_body_set *bodies, size_t u, float inv_h, bool push,
                              float bias_rate)
{
    size_t first = s->order.unit_start[u], stop = s->order.unit_start[u + 1u];
    vx_contact_wide_block *w = vx_contact_solver_block(s, u);
    for (size_t i = first; i < stop; i++) {
        if (!s->separations_current) find_separations(s, bodies, i);
        const vx_contact_hot_constraint *c = &s->hot[i];
        for (uint32_t k = 0; k < c->count; k++) {
            bool soft;
            float bias = target(s->substep_points[c->first + k].sep, inv_h, push, bias_rate, &soft);
            vx_contact_wide_set_target(w, (int)(i - first), (int)k, bias, soft);
        }
    }
}

/* A unit solved by the scalar code: units of one constraint in lanes, or
 * any unit of an order not in lanes. */
static bool scalar_unit(const vx_contact_solver *s, size_t u)
{
    return !s->order.lanes || vx_contact_solver_unit_single(s, u);
}

/* The passes of a sweep one at a time, each solve pass after a pass of the
 * other rows (the joints), whose warm start comes first when `solve` (pass 0
 * of a solve sweep is the contacts' warm start; a relax sweep has none). */
static void sweep_with_extra(vx_contact_solver *s, substep_job *job, int passes, unsigned parity, vx_solve_range_fn fn,
                             bool solve)
{
    const vx_solver_extra_rows *x = s->extra;
    if (solve) x->warm_start(x->context, s->hot_velocity, job->warm_starting);
    for (int p = 0; p < passes; p++) {
        if (!solve || p > 0) x->pass(x->context, s->hot_velocity);
        job->pass_offset = p;
        vx_solve_sweep(s->pool, &s->order, &s->flow, 1, parity + (unsigned)p, fn, job, INFINITY);
    }
}

/* pass 0: targets and warm start; then the iterations (soft push-out) */
static float solve_range(void *arg, size_t unit_begin, size_t unit_end, int pass)
{
    substep_job *job = arg;
    pass += job->pass_offset;
    vx_contact_solver *s = job->s;
    bool backwards = ((job->first_pass + (unsigned)pass - 1u) & 1u) != 0;
    for (size_t u = unit_begin; u < unit_end; u++) {
        if (scalar_unit(s, u)) {
            for (size_t i = s->order.unit_start[u]; i < s->order.unit_start[u + 1u]; i++) {
                if (pass == 0)
                    warm_start(s, job->bodies, i, job->warm_starting, job->inv_h, job->bias_rate);
                else
                    vx_contact_solver_solve_packed(&s->hot[i], &s->rows[s->hot[i].first], s->hot_velocity,
                                                   backwards, job->mass_scale, job->impulse_scale);
            }
        } else if (pass == 0) {
            set_block_targets(s, job->bodies, u, job->inv_h, true, job->bias_rate);
            if (job->warm_starting)
                vx_contact_wide_warm_start(vx_contact_solver_block(s, u), s->hot_velocity);
            else
                vx_contact_wide_clear_impulses(vx_contact_solver_block(s, u));
        } else if (vx_contact_solver_pairs_with_next(s, u, unit_end)) {
            vx_contact_wide_solve_two(vx_contact_solver_block(s, u), vx_contact_solver_block(s, u + 1u),
                                      s->hot_velocity, backwards, job->mass_scale, job->impulse_scale);
            u++;
        } else {
            vx_contact_wide_solve(vx_contact_solver_block(s, u), s->hot_velocity, backwards, job->mass_scale,
                                  job->impulse_scale);
        }
    }
    return 0.0f;
}

void vx_contact_substep_solve(vx_contact_solver *s, vx_body_set *bodies, float h, int iterations,
                              const vx_world_def *config)
{
    float hertz = fminf(VX_SUBSTEP_CONTACT_HERTZ, 0.25f / h);
    float omega = VX_TWO_PI * hertz;
    float a1 = 2.0f * VX_SUBSTEP_DAMPING_RATIO + h * omega;
    float a2 = h * omega * a1;
    float a3 = 1.0f / (1.0f + a2);
    substep_job job = {s, bodies, config->warm_starting, 1.0f / h, omega / a1, a2 * a3, a3, iterations, s->passes, 0};
    vx_parallel_for(s->pool, bodies->count, load_velocity_range, &job);
    if (s->extra)
        sweep_with_extra(s, &job, iterations + 1, s->passes + 1u, solve_range, true);
    else
        vx_solve_sweep(s->pool, &s->order, &s->flow, iterations + 1, s->passes + 1u, solve_range, &job, INFINITY);
    s->separations_current = false; /* the positions move next */
    s->passes += (unsigned)(iterations > 0 ? iterations : 0);
    vx_parallel_for(s->pool, bodies->count, store_velocity_range, &job);
}

/* the relax passes: targets without push-out first, impulses summed last */
static float relax_range(void *arg, size_t unit_begin, size_t unit_end, int pass)
{
    substep_job *job = arg;
    pass += job->pass_offset;
    vx_contact_solver *s = job->s;
    bool backwards = ((job->first_pass + (unsigned)pass) & 1u) != 0;
    bool last = pass + 1 == job->iterations;
    for (size_t u = unit_begin; u < unit_end; u++) {
        if (!scalar_unit(s, u)) {
            /* the block still holds the substep's solve: new targets, then solve */
            if (pass == 0) set_block_targets(s, job->bodies, u, job->inv_h, false, 0.0f);
            if (vx_contact_solver_pairs_with_next(s, u, unit_end)) {
                if (pass == 0) set_block_targets(s, job->bodies, u + 1u, job->inv_h, false, 0.0f);
                vx_contact_wide_solve_two(vx_contact_solver_block(s, u), vx_contact_solver_block(s, u + 1u),
                                          s->hot_velocity, backwards, 1.0f, 0.0f);
                u++;
            } else {
                vx_contact_wide_solve(vx_contact_solver_block(s, u), s->hot_velocity, backwards, 1.0f, 0.0f);
            }
            continue;
        }
        for (size_t i = s->order.unit_start[u]; i < s->order.unit_start[u + 1u]; i++) {
            vx_contact_hot_constraint *c = &s->hot[i];
            vx_contact_hot_row *rows = &s->rows[c->first];
            if (pass == 0) update_targets(s, job->bodies, i, job->inv_h, false, 0.0f);
            vx_contact_solver_solve_packed(c, rows, s->hot_velocity, backwards, 1.0f, 0.0f);
            if (last)
                for (uint32_t k = 0; k < c->count; k++)
                    s->substep_points[c->first + k].total += rows[k].normal_impulse;
        }
    }
    return 0.0f;
}

void vx_contact_substep_relax(vx_contact_solver *s, vx_body_set *bodies, float h, int iterations)
{
    substep_job job = {s, bodies, false, 1.0f / h, 0.0f, 1.0f, 0.0f, iterations, s->passes, 0};
    vx_parallel_for(s->pool, bodies->count, load_velocity_range, &job);
    if (s->extra)
        sweep_with_extra(s, &job, iterations, s->passes, relax_range, false);
    else
        vx_solve_sweep(s->pool, &s->order, &s->flow, iterations, s->passes, relax_range, &job, INFINITY);
    if (s->order.lanes && iterations > 0) vx_parallel_for(s->pool, s->order.unit_count, add_totals_range, s);
    /* and one more, so that the next substep's solve starts the other way:
     * one iteration and one relax per substep would otherwise always solve
     * a manifold's points in the same order, whose first point then takes
     * the lion's share of the load in every substep (the torque it leaves
     * tilts a tall stack) */
    s->passes += (unsigned)(iterations > 0 ? iterations : 0) + 1u;
    /* pass 0 found every point's separation from the poses now */
    s->separations_current = s->reuse_separations && iterations > 0;
    vx_parallel_for(s->pool, bodies->count, store_velocity_range, &job);
}

void vx_contact_substep_end(vx_contact_solver *s, const vx_body_set *bodies)
{
    (void)bodies;
    if (s->order.lanes) vx_contact_solver_store_all_blocks(s);
}

/* Constraints [begin, end): the rows carry the impulses summed over the
 * substeps (and restitution). */
static void summed_impulses_range(void *arg, size_t begin, size_t end)
{
    vx_contact_solver *s = arg;
    for (size_t i = begin; i < end; i++) {
        const vx_contact_constraint *c = &s->constraints[i];
        if (!c->solve) continue;
        for (uint32_t k = 0; k < (uint32_t)c->count; k++)
            s->rows[c->first + k].normal_impulse = s->substep_points[c->first + k].total;
    }
}

void vx_contact_substep_finish(vx_contact_solver *s, vx_body_set *bodies, const vx_world_def *config)
{
    /* the bounces, one after the other in pair order (they change the
     * velocities the next ones see) */
    for (size_t i = 0; i < s->count; i++) {
        const vx_contact_constraint *c = &s->constraints[i];
        if (!c->solve) continue;
        float e = fminf(bodies->info[c->a].restitution, bodies->info[c->b].restitution);
        if (!(e > 0.0f)) continue;
        vx_body_velocity *va = &bodies->velocity[c->a];
        vx_body_velocity *vb = &bodies->velocity[c->b];
        for (int k = 0; k < c->count; k++) {
            const vx_contact_hot_row *r = &s->rows[c->first + (uint32_t)k];
            const vx_contact_anchor *an = &s->anchors[c->first + (uint32_t)k];
            vx_contact_substep_point *p = &s->substep_points[c->first + (uint32_t)k];
            if (an->approach < -config->restitution_threshold && p->total > 0.0f) {
                float vn = vx_contact_normal_speed(va, vb, c->n, r);
                float lambda = (0.0f - e * an->approach - vn) * r->normal_mass;
                if (lambda > 0.0f) {
                    vx_contact_push_normal(va, vb, c->n, c->inv_mass_a, c->inv_mass_b, r, lambda);
                    p->total += lambda;
                }
            }
        }
    }
    vx_parallel_for(s->pool, s->count, summed_impulses_range, s);
}
