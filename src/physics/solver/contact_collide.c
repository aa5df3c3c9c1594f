/* The collision pass (config->restitution VX_RESTITUTION_SEQUENTIAL; see
 * contact_solver.h and docs/simulation.md, "Restitution").
 *
 * The velocity solve finds the impulses of all the step's contacts at once,
 * so a restitution target there can only come from the approach at the
 * step's start: balls at rest in a row have none, and the row takes a blow
 * as one body. Here, before that solve, the points that approach faster
 * than the restitution threshold and whose gap closes within the step are
 * bounced one pair after the other, each with the velocities the bounces
 * before it left (the collision stage of Guendelman, Bridson and Fedkiw's
 * "Nonconvex rigid bodies with stacking"): the striker of a cradle stops,
 * the next ball takes its speed and bounces off the one after it within the
 * same pass. Passes repeat until nothing approaches; the velocity solve
 * then only keeps the gaps closed (its targets have no restitution).
 *
 * A manifold's candidate points are bounced together: their targets
 * vn >= -e vn (vn at the visit) are solved by a few projected Gauss-Seidel
 * passes over them alone, so a face landing flat on another body is not set
 * spinning by whichever corner comes first. A bounce is made from where the
 * bodies are at the step's start, as Jolt makes its speculative ones: the
 * gap left before the bounce is at most what the bodies close in one step. */
#include "physics/solver/contact_solver.h"

#include <string.h>

#include "common/array.h"
#include "common/assert.h"

/* Passes over the contacts at most: a row of balls struck against the pair
 * order needs one per ball; what is left approaching bounces next step. */
#define VX_COLLISION_PASSES 16
/* Projected Gauss-Seidel passes over a manifold's bounced points. */
#define VX_COLLISION_POINT_PASSES 8

/* Constraint c's points that approach faster than the threshold and close
 * their gap within the step, bounced with restitution e; true if any was. */
static bool collide_constraint(vx_contact_solver *s, const vx_contact_constraint *c, vx_body_set *bodies, float e,
                               const vx_world_def *config, float h)
{
    vx_body_velocity *va = &bodies->velocity[c->a];
    vx_body_velocity *vb = &bodies->velocity[c->b];
    float target[VX_MANIFOLD_MAX_POINTS], impulse[VX_MANIFOLD_MAX_POINTS];
    bool bounce[VX_MANIFOLD_MAX_POINTS];
    bool any = false;
    bool both_dynamic = c->inv_mass_a > 0.0f && c->inv_mass_b > 0.0f;
    float lookahead = vx_contact_collide_lookahead(config);
    VX_ASSERT(c->count >= 0 && c->count <= VX_MANIFOLD_MAX_POINTS);
    for (int k = 0; k < c->count; k++) {
        const vx_contact_hot_row *r = &s->rows[c->first + (uint32_t)k];
        const vx_contact_anchor *an = &s->anchors[c->first + (uint32_t)k];
        float vn = vx_contact_normal_speed(va, vb, c->n, r);
        impulse[k] = 0.0f;
        target[k] = (0.0f - e) * vn;
        /* a fast approach to a static or kinematic body, as prepared, is
         * left to the solve (it bounces from the surface) */
        bounce[k] = (both_dynamic || !(an->approach < -config->restitution_threshold)) &&
                    vn < -config->restitution_threshold && an->separation < (0.0f - vn) * lookahead;
        any = any || bounce[k];
    }
    if (!any) return false;
    int passes = c->count > 1 ? VX_COLLISION_POINT_PASSES : 1;
    for (int p = 0; p < passes; p++) {
        for (int j = 0; j < c->count; j++) {
            int k = (p & 1) ? c->count - 1 - j : j; /* forwards, then backwards */
            if (!bounce[k]) continue;
            const vx_contact_hot_row *r = &s->rows[c->first + (uint32_t)k];
            float lambda = (target[k] - vx_contact_normal_speed(va, vb, c->n, r)) * r->normal_mass;
            float total = impulse[k] + lambda;
            total = total > 0.0f ? total : 0.0f;
            lambda = total - impulse[k];
            impulse[k] = total;
            vx_contact_push_normal(va, vb, c->n, c->inv_mass_a, c->inv_mass_b, r, lambda);
        }
    }
    bool pushed = false;
    for (int k = 0; k < c->count; k++) {
        if (!bounce[k]) continue;
        vx_contact_anchor *an = &s->anchors[c->first + (uint32_t)k];
        /* bounced here: the solve only keeps the gap */
        an->approach = 0.0f;
        an->bounced = false;
        an->may_pend = false;
        s->rows[c->first + (uint32_t)k].bias = an->separation > 0.0f ? (0.0f - an->separation) / h : 0.0f;
        an->collision_impulse += impulse[k];
        pushed = pushed || impulse[k] > 0.0f;
    }
    return pushed;
}

vx_status vx_contact_solver_collide(vx_contact_solver *s, vx_body_set *bodies, const vx_world_def *config)
{
    if (config->restitution != VX_RESTITUTION_SEQUENTIAL) return VX_OK;
    size_t first = 0;
    while (first < s->count && !s->constraints[first].collide) first++;
    if (first == s->count) return VX_OK; /* nothing to bounce: the pass costs this scan */
    vx_status st = VX_OK;
    VX_RESERVE(st, s->collided, s->collided_capacity, bodies->count, 64u);
    if (st != VX_OK) return st;
    memset(s->collided, 0, bodies->count);
    float h = config->fixed_dt / (float)config->substeps; /* the solve's, as prepare's */
    for (int pass = 0; pass < VX_COLLISION_PASSES; pass++) {
        bool pushed = false;
        /* before the first constraint prepare marked, nothing has moved yet */
        for (size_t i = pass == 0 ? first : 0; i < s->count; i++) {
            const vx_contact_constraint *c = &s->constraints[i];
            if (!c->solve || !(c->collide || s->collided[c->a] || s->collided[c->b])) continue;
            float e = fminf(bodies->info[c->a].restitution, bodies->info[c->b].restitution);
            if (!(e > 0.0f) || !collide_constraint(s, c, bodies, e, config, h)) continue;
            /* a static or kinematic body's contacts need no second look */
            if (c->inv_mass_a > 0.0f) s->collided[c->a] = 1u;
            if (c->inv_mass_b > 0.0f) s->collided[c->b] = 1u;
            pushed = true;
        }
        if (!pushed) break;
    }
    return VX_OK;
}
