/* The fixed step (issue 3's rigid-body dynamics):
 *
 *   gather bodies from the world (once per step)
 *   per substep of h = fixed_dt / substeps:
 *     world inverse inertia from the orientations
 *     velocities: v += g * gravity_scale * h, damping
 *     detection: BVH broad phase, oriented manifolds with speculative margin
 *     contact solver: setup, warm start from the cache, velocity iterations
 *     positions: x += v h, rotation by vx_rotation_integrate
 *     position passes (NGS), cache for the next substep, report points
 *   scatter the moving bodies back into the world
 *
 * With one substep and no contacts a body follows the spec's semi-implicit
 * Euler step bit for bit. */
#include <math.h>
#include <stdlib.h>

#include "physics/contact_cache.h"
#include "physics/contact_solver.h"
#include "physics/manifold_detect.h"
#include "physics/solver_body.h"
#include "voltex/physics.h"

struct vx_step_state {
    vx_solver_bodies bodies;
    vx_manifold_detector detector;
    vx_contact_solver solver;
    vx_contact_cache cache;
};

void vx_physics_scratch_init(vx_physics_scratch *s)
{
    vx_contact_list_init(&s->substep_contacts);
    s->state = NULL;
}

void vx_physics_scratch_free(vx_physics_scratch *s)
{
    vx_contact_list_free(&s->substep_contacts);
    if (s->state) {
        vx_solver_bodies_free(&s->state->bodies);
        vx_manifold_detector_free(&s->state->detector);
        vx_contact_solver_free(&s->state->solver);
        vx_contact_cache_free(&s->state->cache);
        free(s->state);
        s->state = NULL;
    }
}

static vx_status ensure_state(vx_physics_scratch *scratch)
{
    if (scratch->state) return VX_OK;
    struct vx_step_state *st = calloc(1u, sizeof *st);
    if (!st) return VX_ERR_NOMEM;
    vx_solver_bodies_init(&st->bodies);
    vx_manifold_detector_init(&st->detector);
    vx_contact_solver_init(&st->solver);
    vx_contact_cache_init(&st->cache);
    scratch->state = st;
    return VX_OK;
}

static int compare_u32(uint32_t a, uint32_t b) { return (a > b) - (a < b); }

/* The identity of a contact point within a step, ordered as
 * vx_contact_list_sort orders its leading keys. */
static int compare_key(const vx_contact *a, const vx_contact *b)
{
    int c = compare_u32(a->entity_a.index, b->entity_a.index);
    if (c == 0) c = compare_u32(a->entity_b.index, b->entity_b.index);
    if (c == 0) c = compare_u32(a->feature, b->feature);
    if (c == 0) c = compare_u32(a->entity_a.generation, b->entity_a.generation);
    if (c == 0) c = compare_u32(a->entity_b.generation, b->entity_b.generation);
    return c;
}

/* Index of the first of report->items[0..sorted) with c's key, or `sorted`. */
static size_t find_key(const vx_contact_list *report, size_t sorted, const vx_contact *c)
{
    size_t lo = 0, hi = sorted;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2u;
        if (compare_key(&report->items[mid], c) < 0)
            lo = mid + 1u;
        else
            hi = mid;
    }
    return (lo < sorted && compare_key(&report->items[lo], c) == 0) ? lo : sorted;
}

/* A point already reported by an earlier substep takes the newer geometry and
 * adds this substep's impulse; a new point is appended. report->items[0..count)
 * is sorted on entry (earlier substeps) and sorted again on exit. */
static vx_status merge_substep(vx_contact_list *report, const vx_contact_list *substep)
{
    size_t sorted = report->count;
    for (size_t i = 0; i < substep->count; i++) {
        const vx_contact *c = &substep->items[i];
        size_t at = find_key(report, sorted, c);
        if (at == sorted) {
            vx_status st = vx_contact_list_push(report, c);
            if (st != VX_OK) return st;
            continue;
        }
        vx_contact *r = &report->items[at];
        r->normal = c->normal;
        r->depth = c->depth;
        r->point_on_a = c->point_on_a;
        r->point_on_b = c->point_on_b;
        r->sensor = c->sensor;
        r->impulse += c->impulse;
    }
    vx_contact_list_sort(report);
    return VX_OK;
}

static vx_status substep(struct vx_step_state *st, const vx_physics_config *config, float h,
                         vx_contact_list *points)
{
    vx_solver_bodies *bodies = &st->bodies;
    vx_solver_bodies_update_mass(bodies);
    vx_solver_bodies_integrate_velocities(bodies, h);

    vx_status s = vx_manifold_detect(&st->detector, bodies, config->speculative_distance, h);
    if (s == VX_OK) s = vx_contact_solver_prepare(&st->solver, &st->detector, bodies, &st->cache, config, h);
    if (s != VX_OK) return s;
    if (config->warm_starting) vx_contact_solver_warm_start(&st->solver, bodies);
    vx_contact_solver_solve_velocities(&st->solver, bodies, config->iterations);

    vx_solver_bodies_integrate_positions(bodies, h);
    vx_contact_solver_solve_positions(&st->solver, bodies, config);

    s = vx_contact_solver_store(&st->solver, bodies, &st->cache);
    if (s == VX_OK) s = vx_contact_solver_report(&st->solver, bodies, points);
    return s;
}

vx_status vx_physics_step(vx_world *world, const vx_physics_config *config, vx_physics_scratch *scratch,
                          vx_contact_list *report)
{
    vx_contact_list_clear(report);
    if (config->substeps < 1 || !(config->fixed_dt > 0.0f) || !isfinite(config->fixed_dt)) return VX_ERR_INVALID;
    vx_status st = ensure_state(scratch);
    if (st != VX_OK) return st;
    struct vx_step_state *state = scratch->state;
    st = vx_solver_bodies_gather(&state->bodies, world, config->gravity);
    if (st != VX_OK) return st;

    float h = config->fixed_dt / (float)config->substeps; /* exactly fixed_dt for one substep */
    for (int s = 0; s < config->substeps; s++) {
        if (config->substeps == 1) {
            st = substep(state, config, h, report); /* already sorted: nothing to merge */
        } else {
            vx_contact_list_clear(&scratch->substep_contacts);
            st = substep(state, config, h, &scratch->substep_contacts);
            if (st == VX_OK) st = merge_substep(report, &scratch->substep_contacts);
        }
        if (st != VX_OK) {
            vx_contact_list_clear(report);
            return st;
        }
    }
    vx_solver_bodies_scatter(&state->bodies);
    return VX_OK;
}
