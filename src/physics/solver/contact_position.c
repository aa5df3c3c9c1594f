/* Position correction after integration: non-linear Gauss-Seidel passes
 * (Box2D v2.4's b2ContactSolver::SolvePositionConstraints, in 3D; Jolt does
 * the same). Each pass recomputes every point's separation from the current
 * poses, with the anchors kept in the body frames and the normal of the
 * substep, and moves the two bodies apart by a pseudo impulse:
 *     C = clamp(percent (sep + slop), -max_correction, 0),  lambda = -C / K,
 *     xA -= mA n lambda,  qA turned by -IA^-1 (rA x n) lambda,  and + for B.
 * Only poses change, never velocities: the correction adds no energy. */
#include "physics/solver/contact_solver.h"

#include <math.h>

#include "physics/body/small_turn.h"
#include "physics/solver/solve_sweep.h"

/* A pass that found no point deeper than this many slops ends the passes:
 * what is left is within reach of the next step's first pass. */
#define VX_POSITION_DONE_SLOPS 3.0f

typedef struct {
    const vx_contact_solver *s;
    vx_body_set *bodies;
    float percent, slop, max_correction;
} position_job;

/* One pass over positions [begin, end) of the solve order; returns the
 * smallest separation seen (before its correction), at most 0. */
static float position_range(void *arg, size_t unit_begin, size_t unit_end, int pass)
{
    (void)pass;
    position_job *job = arg;
    const vx_contact_solver *s = job->s;
    size_t begin, end;
    vx_solve_unit_positions(&s->order, unit_begin, unit_end, &begin, &end);
    vx_body_set *bodies = job->bodies;
    float percent = job->percent, slop = job->slop, max_correction = job->max_correction;
    float min_sep = 0.0f;
    for (size_t j = begin; j < end; j++) {
        const vx_contact_constraint *c = &s->constraints[s->order.sequence[j]];
        vx_body_pose *pa = &bodies->pose[c->a];
        vx_body_pose *pb = &bodies->pose[c->b];
        const vx_body_mass *ma = &bodies->mass[c->a];
        const vx_body_mass *mb = &bodies->mass[c->b];
        bool move_a = c->inv_mass_a > 0.0f, move_b = c->inv_mass_b > 0.0f;
        bool turn_a = move_a && bodies->info[c->a].rotates, turn_b = move_b && bodies->info[c->b].rotates;
        for (int k = 0; k < c->count; k++) {
            const vx_contact_anchor *an = &s->anchors[c->first + (uint32_t)k];
            vx_v4 wa4 = vx_pose_to_world4(pa, &an->local_a);
            vx_v4 wb4 = vx_pose_to_world4(pb, &an->local_b);
            float sep = vx_v4_dot3(vx_v4_sub(wb4, wa4), vx_v4_load3(&c->n));
            min_sep = fminf(min_sep, sep);
            float C = percent * (sep + slop);
            C = C < -max_correction ? -max_correction : (C > 0.0f ? 0.0f : C);
            if (!(C < 0.0f)) continue;
            vx_vec3 wa = vx_v4_to_vec3(wa4), wb = vx_v4_to_vec3(wb4);

            vx_vec3 mid = vx_vec3_scale(vx_vec3_add(wa, wb), 0.5f);
            vx_vec3 rn_a = vx_vec3_cross(vx_vec3_sub(mid, pa->x), c->n);
            vx_vec3 rn_b = vx_vec3_cross(vx_vec3_sub(mid, pb->x), c->n);
            vx_vec3 ia = vx_mat3_mul_vec3(&ma->inv_inertia, rn_a);
            vx_vec3 ib = vx_mat3_mul_vec3(&mb->inv_inertia, rn_b);
            float k_eff = c->inv_mass_a + c->inv_mass_b + vx_vec3_dot(rn_a, ia) + vx_vec3_dot(rn_b, ib);
            if (!(k_eff > 0.0f)) continue;
            float lambda = (0.0f - C) / k_eff;
            vx_vec3 p = vx_vec3_scale(c->n, lambda);
            if (move_a) pa->x = vx_vec3_sub(pa->x, vx_vec3_scale(p, c->inv_mass_a));
            if (turn_a) pa->q = vx_small_turn(pa->q, vx_vec3_scale(ia, 0.0f - lambda));
            if (move_b) pb->x = vx_vec3_add(pb->x, vx_vec3_scale(p, c->inv_mass_b));
            if (turn_b) pb->q = vx_small_turn(pb->q, vx_vec3_scale(ib, lambda));
        }
    }
    return min_sep;
}

void vx_contact_solver_solve_positions(vx_contact_solver *s, vx_body_set *bodies,
                                       const vx_world_def *config)
{
    if (config->position_iterations > 0) s->separations_current = false; /* the poses move */
    position_job job = {s, bodies, config->baumgarte_percent, config->baumgarte_slop,
                        config->max_correction > 0.0f ? config->max_correction : 0.0f};
    /* Box2D's test: nothing deeper than a few slops left, done. Not as a
     * flow (solve_flow.h): its shares of the order of add are a pyramid's
     * lower and upper rows, and the lower rows, which carry the load, do
     * most of the corrections (tried: large_pyramid 6 % slower on 2
     * threads than a barrier after each wave, which halves every wave). */
    vx_solve_sweep(s->pool, &s->order, NULL, config->position_iterations, 0u, position_range, &job,
                   -VX_POSITION_DONE_SLOPS * config->baumgarte_slop);
}
