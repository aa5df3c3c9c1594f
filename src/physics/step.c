/* The fixed step: gather the bodies, then per substep velocities,
 * detection, the contact solver, positions and position passes, then
 * sleeping and the scatter back into the world. Sleeping bodies are skipped
 * by every stage. With one substep and no contacts a body follows
 * semi-implicit Euler bit for bit. See docs/simulation.md, "The step". */
#include "physics/step.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/assert.h"
#include "common/parallel.h"
#include "common/thread_pool.h"
#include "physics/body/body_set.h"
#include "physics/collision/body_broadphase.h"
#include "physics/collision/ccd.h"
#include "physics/collision/narrow_phase.h"
#include "physics/contact_key.h"
#include "physics/joint/joint_solver.h"
#include "physics/sleep.h"
#include "physics/solver/contact_cache.h"
#include "physics/solver/contact_solver.h"
#include "physics/step_counts.h"
#include "physics/step_tuning.h"
#include "physics/thread_choice.h"
#include "voltex/physics.h"

struct vx_step_stages {
    vx_body_set bodies;
    vx_body_broadphase broadphase;
    vx_sleep_state sleep;
    vx_narrow_phase narrow;
    vx_contact_solver solver;
    vx_contact_cache cache;
    vx_joint_solver joints;
    vx_solver_extra_rows joint_rows; /* the joints' rows in the contact solver's passes */
    vx_step_counts counts;
    vx_ccd_scratch ccd;
    vx_thread_pool *pool; /* config->threads > 1 */
    vx_thread_choice choice; /* whether this step uses it (thread_choice.h) */
    vx_thread_pool *active;  /* pool or NULL: this step's threads */
    vx_step_tuning tuning;
    /* profiling (vx_step_profile): stage seconds of the current step, and
     * the clock reading the next lap is measured from */
    bool profile;
    double lap_start;
    vx_stage_times times;
};

typedef enum { STAGE_BROAD, STAGE_NARROW, STAGE_SOLVER, STAGE_INTEGRATE, STAGE_OTHER } step_stage;

static double monotonic_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0.0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The time since the last lap goes to stage (profiling only: reads the
 * clock, never touches the simulation). */
static void lap(struct vx_step_stages *st, step_stage stage)
{
    if (!st->profile) return;
    double now = monotonic_seconds();
    double dt = now - st->lap_start;
    st->lap_start = now;
    switch (stage) {
    case STAGE_BROAD: st->times.broad += dt; break;
    case STAGE_NARROW: st->times.narrow += dt; break;
    case STAGE_SOLVER: st->times.solver += dt; break;
    case STAGE_INTEGRATE: st->times.integrate += dt; break;
    case STAGE_OTHER:
    default: st->times.other += dt; break;
    }
}

void vx_step_state_init(vx_step_state *state)
{
    state->stages = NULL;
    state->profile = false;
    state->joints = NULL;
}

void vx_step_profile(vx_step_state *state, bool on) { state->profile = on; }

vx_stage_times vx_step_stage_times(const vx_step_state *state)
{
    vx_stage_times t;
    memset(&t, 0, sizeof t);
    if (state->stages && state->stages->profile) t = state->stages->times;
    return t;
}

void vx_step_state_free(vx_step_state *state)
{
    struct vx_step_stages *st = state->stages;
    if (!st) return;
    vx_body_set_free(&st->bodies);
    vx_body_broadphase_free(&st->broadphase);
    vx_sleep_free(&st->sleep);
    vx_narrow_phase_free(&st->narrow);
    vx_contact_solver_free(&st->solver);
    vx_contact_cache_free(&st->cache);
    vx_joint_solver_free(&st->joints);
    vx_ccd_scratch_free(&st->ccd);
    vx_thread_pool_destroy(st->pool);
    free(st);
    state->stages = NULL;
}

static void joint_warm_start(void *context, vx_contact_hot_velocity *vel, bool warm_start)
{
    vx_joint_solver_warm_start(context, vel, warm_start);
}

static void joint_pass(void *context, vx_contact_hot_velocity *vel) { vx_joint_solver_velocity_pass(context, vel); }

/* The joints' rows for a substep of h from the poses now, in the contact
 * solver's passes when there are any. */
static vx_status prepare_joints(struct vx_step_stages *st, float h)
{
    vx_status s = vx_joint_solver_prepare(&st->joints, &st->bodies, h);
    st->solver.extra = vx_joint_solver_has_rows(&st->joints) ? &st->joint_rows : NULL;
    return s;
}

static vx_status ensure_stages(vx_step_state *state)
{
    if (state->stages) return VX_OK;
    struct vx_step_stages *st = calloc(1u, sizeof *st);
    if (!st) return VX_ERR_NOMEM;
    vx_body_set_init(&st->bodies);
    vx_body_broadphase_init(&st->broadphase);
    vx_sleep_init(&st->sleep);
    vx_narrow_phase_init(&st->narrow);
    vx_contact_solver_init(&st->solver);
    vx_contact_cache_init(&st->cache);
    vx_joint_solver_init(&st->joints);
    st->joint_rows.context = &st->joints;
    st->joint_rows.warm_start = joint_warm_start;
    st->joint_rows.pass = joint_pass;
    vx_ccd_scratch_init(&st->ccd);
    st->tuning = vx_step_tuning_default();
    state->stages = st;
    return VX_OK;
}

vx_step_tuning vx_step_tuning_default(void)
{
    vx_step_tuning t;
    memset(&t, 0, sizeof t);
    t.grain = VX_THREAD_POOL_GRAIN;
    t.max_threads = 0;
    t.always_threads = false;
    t.order = vx_solve_order_tuning_default();
    t.reuse_separations = true;
    return t;
}

vx_step_tuning *vx_step_tuning_of(vx_step_state *state)
{
    return ensure_stages(state) == VX_OK ? &state->stages->tuning : NULL;
}

/* The pool for config->threads threads (vx_parallel_threads: no more than
 * the machine's processors), kept from step to step. */
static vx_status ensure_pool(struct vx_step_stages *st, int threads)
{
    threads = vx_parallel_threads(threads, st->tuning.max_threads);
    if (threads <= 1) {
        vx_thread_pool_destroy(st->pool);
        st->pool = NULL;
        return VX_OK;
    }
    if (st->pool && vx_thread_pool_size(st->pool) == threads) return VX_OK;
    vx_thread_pool_destroy(st->pool);
    st->pool = NULL;
    /* Without the threads (the system refused them) the step runs on the
     * calling thread alone, with the same results. */
    if (vx_thread_pool_create(&st->pool, threads) != VX_OK) st->pool = NULL;
    vx_thread_choice_init(&st->choice);
    return VX_OK;
}

/* What both kinds of step begin with: the first velocity stage, then broad
 * phase, wake pass, narrow phase and contact set-up for a solver substep of
 * h; detection looks ahead over `lookahead` seconds (h with one substep, the
 * whole step otherwise). */
static vx_status begin_substep(struct vx_step_stages *st, const vx_world_def *config, float h, float lookahead,
                               vx_broadphase_pair_list **pairs_out)
{
    vx_body_set *bodies = &st->bodies;
    lap(st, STAGE_OTHER);
    vx_body_set_integrate_velocities(bodies, h, st->active);
    lap(st, STAGE_INTEGRATE);

    st->broadphase.broadphase.max_pairs = config->max_pairs;
    vx_status s = vx_body_broadphase_find_pairs(&st->broadphase, bodies, config->speculative_distance, lookahead);
    if (s != VX_OK) return s;
    vx_broadphase_pair_list *pairs = &st->broadphase.pairs;
    vx_joint_solver_filter_pairs(&st->joints, pairs);
    st->counts.broadphase_pairs += pairs->count;
    vx_sleep_wake_touched(&st->sleep, bodies, pairs, config->speculative_distance, h);
    st->counts.narrow_pairs += pairs->count;
    lap(st, STAGE_BROAD);
    s = vx_narrow_phase_detect(&st->narrow, bodies, pairs, config->speculative_distance, lookahead,
                               config->reuse_contacts, st->active);
    lap(st, STAGE_NARROW);
    if (s == VX_OK) s = vx_contact_solver_prepare(&st->solver, &st->narrow, bodies, &st->cache, config, h);
    /* the bounces of pairs of dynamic bodies, one after the other */
    if (s == VX_OK) s = vx_contact_solver_collide(&st->solver, bodies, config);
    if (s != VX_OK) return s;
    st->counts.manifolds += st->narrow.count;
    st->counts.reused += st->narrow.reused;
    *pairs_out = pairs;
    return VX_OK;
}

/* The cache is rewritten from this step's constraints: sleeping pairs, which
 * have none, keep their entries aside meanwhile. */
static vx_status store_cache(struct vx_step_stages *st)
{
    vx_status s = vx_sleep_stash_cache(&st->sleep, &st->bodies, &st->cache);
    if (s == VX_OK) s = vx_contact_solver_store(&st->solver, &st->bodies, &st->cache);
    if (s == VX_OK) s = vx_sleep_unstash_cache(&st->sleep, &st->cache);
    return s;
}

/* One substep (substeps == 1): the solver, positions, continuous collision
 * and position passes after the detection. */
static vx_status step_single(struct vx_step_stages *st, const vx_world_def *config, float h, vx_contact_list *points)
{
    vx_body_set *bodies = &st->bodies;
    vx_broadphase_pair_list *pairs = NULL;
    vx_status s = begin_substep(st, config, h, h, &pairs);
    if (s == VX_OK) s = prepare_joints(st, h);
    if (s != VX_OK) return s;
    s = vx_contact_solver_solve_velocities(&st->solver, bodies, config->warm_starting, config->iterations);
    if (s != VX_OK) return s;
    vx_joint_solver_end_substep(&st->joints);
    lap(st, STAGE_SOLVER);

    vx_body_set_integrate_positions(bodies, h, st->active);
    lap(st, STAGE_INTEGRATE);
    /* fast bodies that the solve set turning stop where they first touch (ccd.h) */
    s = vx_ccd_limit_motion(&st->ccd, bodies, pairs, config->speculative_distance, h, st->active);
    if (s != VX_OK) return s;
    lap(st, STAGE_OTHER);
    vx_contact_solver_solve_positions(&st->solver, bodies, config);
    vx_joint_solver_solve_positions(&st->joints, bodies, config->position_iterations);

    s = store_cache(st);
    if (s == VX_OK) s = vx_contact_solver_report(&st->solver, bodies, points);
    lap(st, STAGE_SOLVER);
    return s;
}

/* substeps > 1: detection and contact setup once per step, the solver per
 * substep of h (contact_substep.c). The first substep's velocity stage runs
 * before the detection, as with one substep (woken sleepers catch up with
 * it); the broad and narrow phases look ahead over the whole step. */
/* velocity passes without push-out after each substep's positions (Box2D v3) */
#define VX_SUBSTEP_RELAX_ITERATIONS 1

static vx_status step_substepped(struct vx_step_stages *st, const vx_world_def *config, float h,
                                 vx_contact_list *report)
{
    vx_body_set *bodies = &st->bodies;
    vx_broadphase_pair_list *pairs = NULL;
    vx_status s = begin_substep(st, config, h, config->fixed_dt, &pairs);
    if (s == VX_OK) s = vx_contact_substep_begin(&st->solver, bodies);
    if (s != VX_OK) return s;
    lap(st, STAGE_SOLVER);

    for (int k = 0; k < config->substeps; k++) {
        if (k > 0) {
            vx_body_set_integrate_velocities(bodies, h, st->active);
            lap(st, STAGE_INTEGRATE);
        }
        s = prepare_joints(st, h);
        if (s != VX_OK) return s;
        vx_contact_substep_solve(&st->solver, bodies, h, config->iterations, config);
        lap(st, STAGE_SOLVER);
        vx_body_set_integrate_positions(bodies, h, st->active);
        lap(st, STAGE_INTEGRATE);
        s = vx_ccd_limit_motion(&st->ccd, bodies, pairs, config->speculative_distance, h, st->active);
        if (s != VX_OK) return s;
        lap(st, STAGE_OTHER);
        vx_contact_substep_relax(&st->solver, bodies, h, VX_SUBSTEP_RELAX_ITERATIONS);
        vx_joint_solver_end_substep(&st->joints);
        vx_contact_solver_solve_positions(&st->solver, bodies, config);
        vx_joint_solver_solve_positions(&st->joints, bodies, config->position_iterations);
        lap(st, STAGE_SOLVER);
    }
    vx_contact_substep_end(&st->solver, bodies);
    s = store_cache(st);
    if (s != VX_OK) return s;
    vx_contact_substep_finish(&st->solver, bodies, config);
    s = vx_contact_solver_report(&st->solver, bodies, report);
    lap(st, STAGE_SOLVER);
    return s;
}

vx_status vx_step(vx_registry *registry, const vx_world_def *config, vx_step_state *state, vx_contact_list *report)
{
    vx_contact_list_clear(report);
    if (config->substeps < 1 || !(config->fixed_dt > 0.0f) || !isfinite(config->fixed_dt)) return VX_ERR_INVALID;
    vx_status st = ensure_stages(state);
    if (st != VX_OK) return st;
    struct vx_step_stages *stages = state->stages;
    stages->profile = state->profile;
    memset(&stages->times, 0, sizeof stages->times);
    if (stages->profile) stages->lap_start = monotonic_seconds();
    st = ensure_pool(stages, config->threads);
    if (st != VX_OK) return st;
    double step_start = stages->pool ? monotonic_seconds() : 0.0;
    vx_thread_pool_set_grain(stages->pool, stages->tuning.grain);
    bool threaded = stages->pool && vx_thread_choice_begin(&stages->choice, stages->tuning.always_threads);
    stages->active = threaded ? stages->pool : NULL;
    stages->solver.pool = stages->active;
    stages->solver.order.tuning = stages->tuning.order;
    stages->solver.reuse_separations = stages->tuning.reuse_separations;
    stages->broadphase.pool = stages->active;
    stages->solver.colored = config->order == VX_SOLVER_ORDER_COLORED;
    st = vx_body_set_gather(&stages->bodies, registry, config->gravity, stages->active);
    if (st != VX_OK) return st;
    memset(&stages->counts, 0, sizeof stages->counts);
    uint64_t flow_runs = stages->solver.flow.runs;
    float h = config->fixed_dt / (float)config->substeps; /* exactly fixed_dt for one substep */
    VX_ASSERT(h > 0.0f && config->substeps >= 1);
    bool statics_moved = false;
    st = vx_sleep_begin_step(&stages->sleep, &stages->bodies, config);
    if (st == VX_OK) st = vx_joint_solver_bind(&stages->joints, state->joints, &stages->bodies);
    if (st == VX_OK && config->sleeping)
        vx_sleep_wake_linked(&stages->sleep, &stages->bodies, stages->joints.links, stages->joints.link_count);
    if (st == VX_OK)
        st = vx_body_broadphase_sync(&stages->broadphase, &stages->bodies, config->broadphase,
                                     config->speculative_distance, config->substeps > 1 ? config->fixed_dt : h,
                                     &statics_moved);
    if (st != VX_OK) return st;
    if (statics_moved) vx_sleep_wake_all(&stages->sleep, &stages->bodies);

    if (config->substeps == 1)
        st = step_single(stages, config, h, report); /* already sorted: nothing to merge */
    else
        st = step_substepped(stages, config, h, report);
    if (st != VX_OK) {
        vx_contact_list_clear(report);
        return st;
    }
    vx_joint_solver_finish(&stages->joints, &stages->bodies, config->fixed_dt);
    st = vx_sleep_end_step(&stages->sleep, &stages->bodies, config, report, stages->joints.links,
                           stages->joints.link_count);
    if (st != VX_OK) {
        vx_contact_list_clear(report);
        return st;
    }
    vx_body_set_scatter(&stages->bodies, stages->active);
    lap(stages, STAGE_OTHER);
    if (stages->pool) vx_thread_choice_end(&stages->choice, monotonic_seconds() - step_start);
    stages->counts.bodies = stages->bodies.count;
    stages->counts.threads = vx_thread_pool_size(stages->active);
    stages->counts.awake = stages->sleep.awake_count;
    stages->counts.asleep = stages->sleep.asleep_count;
    stages->counts.flow_sweeps = (size_t)(stages->solver.flow.runs - flow_runs);
    return VX_OK;
}

size_t vx_step_awake_count(const vx_step_state *state)
{
    return state->stages ? state->stages->sleep.awake_count : 0u;
}

vx_step_counts vx_step_counts_last(const vx_step_state *state)
{
    vx_step_counts c;
    memset(&c, 0, sizeof c);
    if (state->stages) c = state->stages->counts;
    return c;
}
