/* The end of a substep on several threads (src/physics/contact_solver.c):
 * the warm-start cache (vx_contact_solver_store) and the contact report
 * (vx_contact_solver_report) are split between the step's threads, and must
 * be the same bytes as on one thread. A pile of boxes and spheres in a
 * walled box, stepped until it holds hundreds of manifolds (some of them
 * speculative points that are not touching, which the report drops), is
 * stepped side by side with 1, 2, 3 and 5 threads and the reports compared
 * after every step; the two stages are also run by hand on the pile's
 * solved constraints with pools of 1, 2, 3 and 5 threads and their cache
 * and report compared with the calling thread's alone. The contact set-up
 * writes every byte of its rows. And what a report
 * entry says is checked on two boxes: a resting box reports its four
 * bottom corners with the overlap, the normal and the impulse that holds
 * it; a box hovering within the speculative distance reports nothing. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "common/thread_pool.h"
#include "physics/collision/broadphase.h"
#include "physics/solver/solve_sweep.h"
#include "physics/solver/contact_solver.h"
#include "physics/collision/narrow_phase.h"
#include "physics/body/body_set.h"
#include "physics/step_counts.h"
#include "physics/thread_choice.h"
#include "test_helpers.h"
#include "voltex/physics.h"

enum { RUNS = 4 };
static const int thread_counts[RUNS] = {1, 2, 3, 5};

/* contact_solver.c keeps scenes of fewer constraints on the calling thread
 * (VX_END_MIN_PARALLEL), whatever the grain: the piles
 * here must hold more for the splits to be compared. */
#define SPLIT_MIN_CONSTRAINTS 256u

/* Threads beyond the cores (5 on a 2-core machine) make every barrier slow,
 * more so under the address sanitizer: short runs. */
#ifdef VX_TEST_ASAN
#define STEPS 10
#else
#define STEPS 24
#endif

/* ---- the pile ---- */

/* A static floor (top face at y = 0) and four walls around a square of
 * half width inner. */
static void add_bin(vx_registry *w, float inner)
{
    vx_rigidbody fixed = vx_rigidbody_static();
    vx_collider ground = vx_collider_box(vx_vec3_make(inner + 2.0f, 0.5f, inner + 2.0f));
    vx_test_spawn_body(w, vx_vec3_make(0.0f, -0.5f, 0.0f), &ground, &fixed);
    vx_collider side_x = vx_collider_box(vx_vec3_make(0.1f, 1.5f, inner + 0.2f));
    vx_collider side_z = vx_collider_box(vx_vec3_make(inner + 0.2f, 1.5f, 0.1f));
    vx_test_spawn_body(w, vx_vec3_make(inner + 0.1f, 1.5f, 0.0f), &side_x, &fixed);
    vx_test_spawn_body(w, vx_vec3_make(-inner - 0.1f, 1.5f, 0.0f), &side_x, &fixed);
    vx_test_spawn_body(w, vx_vec3_make(0.0f, 1.5f, inner + 0.1f), &side_z, &fixed);
    vx_test_spawn_body(w, vx_vec3_make(0.0f, 1.5f, -inner - 0.1f), &side_z, &fixed);
}

/* The bin and two layers of a 7 x 7 grid of boxes (a little turned) and spheres
 * (alternating), 1 cm apart vertically and a little jittered sideways, so
 * that the pile is in contact from the first steps; and a sensor sphere in
 * the middle (reported, never solved or cached). */
static vx_registry *make_pile(void)
{
    const int layers = 2;
    const int per_side = 7;
    const float pitch = 0.42f;
    const float inner = 0.5f * pitch * (float)per_side;
    vx_registry *w = vx_test_physics_world();
    add_bin(w, inner);
    vx_test_rng rng = {0x51ab5u};
    vx_collider box = vx_collider_box(vx_vec3_make(0.2f, 0.2f, 0.2f));
    vx_collider ball = vx_collider_sphere(0.2f);
    for (int l = 0; l < layers; l++)
        for (int i = 0; i < per_side; i++)
            for (int k = 0; k < per_side; k++) {
                bool is_box = (i + k + l) % 2 == 0;
                vx_rigidbody rb = vx_rigidbody_dynamic(vx_test_rng_range(&rng, 0.5f, 2.0f));
                rb.friction = vx_test_rng_range(&rng, 0.3f, 0.7f);
                rb.restitution = vx_test_rng_range(&rng, 0.0f, 0.3f);
                vx_vec3 axis = vx_vec3_normalize(vx_vec3_make(vx_test_rng_range(&rng, -1.0f, 1.0f), 1.0f,
                                                              vx_test_rng_range(&rng, -1.0f, 1.0f)));
                vx_quat q = vx_quat_from_axis_angle(axis, is_box ? vx_test_rng_range(&rng, -0.3f, 0.3f) : 0.0f);
                float x = -inner + pitch * ((float)i + 0.5f) + vx_test_rng_range(&rng, -0.01f, 0.01f);
                float z = -inner + pitch * ((float)k + 0.5f) + vx_test_rng_range(&rng, -0.01f, 0.01f);
                /* a turned box reaches lower than 0.2: start it above its own lowest point */
                vx_aabb bounds = vx_collider_aabb(is_box ? &box : &ball, vx_vec3_make(0.0f, 0.0f, 0.0f), q);
                float y = 0.005f + 0.42f * (float)l - bounds.min.y;
                vx_test_spawn_rotated(w, vx_vec3_make(x, y, z), q, is_box ? &box : &ball, &rb);
            }
    vx_collider zone = vx_collider_sphere(0.5f);
    zone.sensor = true;
    vx_test_spawn_body(w, vx_vec3_make(0.0f, 0.5f, 0.0f), &zone, NULL);
    return w;
}

/* ---- the step's report for every thread count ---- */

/* The pile stepped with 1, 2, 3 and 5 threads side by side: every step's
 * report the same bytes. Returns the most manifolds a step had. */
static size_t compare_step_reports(vx_solver_order order, int substeps, int steps)
{
    vx_registry *w[RUNS];
    vx_test_stepper st[RUNS];
    for (int r = 0; r < RUNS; r++) {
        w[r] = make_pile();
        vx_test_stepper_init(&st[r]);
        st[r].cfg.order = order;
        st[r].cfg.substeps = substeps;
        st[r].cfg.threads = thread_counts[r];
    }
    size_t most_manifolds = 0;
    for (int k = 1; k <= steps; k++) {
        for (int r = 0; r < RUNS; r++) {
            vx_test_step(w[r], &st[r]);
            cr_assert_eq(vx_step_counts_last(&st[r].state).threads, thread_counts[r]);
        }
        /* detection runs once per step, whatever the substeps */
        size_t manifolds = vx_step_counts_last(&st[0].state).manifolds;
        if (manifolds > most_manifolds) most_manifolds = manifolds;
        const vx_contact_list *ref = &st[0].report;
        for (int r = 1; r < RUNS; r++) {
            const vx_contact_list *x = &st[r].report;
            cr_assert_eq(x->count, ref->count, "step %d, %d threads: %zu contacts vs %zu", k, thread_counts[r],
                         x->count, ref->count);
            cr_assert(memcmp(x->items, ref->items, ref->count * sizeof *ref->items) == 0,
                      "step %d, %d threads: the report differs", k, thread_counts[r]);
        }
    }
    cr_assert_gt(st[0].report.count, 0u);
    for (int r = 0; r < RUNS; r++) {
        vx_test_stepper_free(&st[r]);
        vx_registry_destroy(w[r]);
    }
    return most_manifolds;
}

/* The other stages are split at any size here (as in test_physics_threads),
 * every step runs on its threads, and 3 and 5 threads are made as such. */
static void split_every_stage(void)
{
    vx_step_tuning *t = vx_test_tuning();
    t->grain = 0u;
    t->max_threads = 8;
    t->always_threads = true;
}

TestSuite(physics_report_threads, .init = split_every_stage);

Test(physics_report_threads, step_report_is_identical_for_every_thread_count_sequential)
{
    size_t manifolds = compare_step_reports(VX_SOLVER_ORDER_SEQUENTIAL, 1, STEPS);
    cr_assert_geq(manifolds, SPLIT_MIN_CONSTRAINTS, "only %zu manifolds: the report was never split", manifolds);
}

Test(physics_report_threads, step_report_is_identical_for_every_thread_count_colored)
{
    size_t manifolds = compare_step_reports(VX_SOLVER_ORDER_COLORED, 1, STEPS);
    cr_assert_geq(manifolds, SPLIT_MIN_CONSTRAINTS, "only %zu manifolds: the report was never split", manifolds);
}

/* Substeps: the cache and report come once per step, after the last. */
Test(physics_report_threads, step_report_is_identical_for_every_thread_count_substepped)
{
    size_t manifolds = compare_step_reports(VX_SOLVER_ORDER_COLORED, 4, STEPS / 4);
    cr_assert_geq(manifolds, SPLIT_MIN_CONSTRAINTS, "only %zu manifolds: the report was never split", manifolds);
}

/* ---- the two stages by hand, on every split ---- */

/* Every pair of collider bodies whose bounds overlap, not both static, in
 * slot order (what the broad phase gives). */
static void all_pairs(const vx_body_set *b, float speculative, float h, vx_broadphase_pair_list *out)
{
    out->count = 0;
    for (size_t i = 0; i < b->count; i++) {
        if (!b->info[i].has_collider) continue;
        vx_aabb bi = vx_narrow_phase_bounds(b, i, speculative, h);
        for (size_t j = i + 1; j < b->count; j++) {
            if (!b->info[j].has_collider) continue;
            if (b->info[i].motion == VX_MOTION_STATIC && b->info[j].motion == VX_MOTION_STATIC) continue;
            if (!vx_aabb_intersects(bi, vx_narrow_phase_bounds(b, j, speculative, h))) continue;
            if (out->count == out->capacity) {
                out->capacity = out->capacity ? 2u * out->capacity : 256u;
                out->items = realloc(out->items, out->capacity * sizeof *out->items);
                cr_assert_not_null(out->items);
            }
            out->items[out->count].a = (uint32_t)i;
            out->items[out->count].b = (uint32_t)j;
            out->count++;
        }
    }
}

/* One substep of the step's stages on the calling thread, up to the
 * position passes (what store and report see in a step). */
static void solve_substep(vx_body_set *bodies, vx_narrow_phase *d, vx_contact_solver *s,
                          const vx_contact_cache *cache, const vx_world_def *cfg)
{
    float h = cfg->fixed_dt;
    vx_broadphase_pair_list pairs;
    vx_broadphase_pair_list_init(&pairs);
    vx_body_set_integrate_velocities(bodies, h, NULL);
    all_pairs(bodies, cfg->speculative_distance, h, &pairs);
    cr_assert_eq(vx_narrow_phase_detect(d, bodies, &pairs, cfg->speculative_distance, h, false, NULL), VX_OK);
    s->pool = NULL;
    s->colored = false;
    cr_assert_eq(vx_contact_solver_prepare(s, d, bodies, cache, cfg, h), VX_OK);
    cr_assert_eq(vx_contact_solver_solve_velocities(s, bodies, cfg->warm_starting, cfg->iterations), VX_OK);
    vx_body_set_integrate_positions(bodies, h, NULL);
    vx_contact_solver_solve_positions(s, bodies, cfg);
    vx_broadphase_pair_list_free(&pairs);
}

/* A report that already holds two contacts (the stage appends after them)
 * and room for `room` more. */
static void prefill(vx_contact_list *list, size_t room)
{
    vx_contact_list_init(list);
    cr_assert_eq(vx_contact_list_reserve(list, 2u + room), VX_OK);
    for (int i = 0; i < 2; i++) {
        vx_contact c;
        memset(&c, 0, sizeof c);
        c.feature = 1000u + (uint32_t)i;
        c.depth = 0.5f;
        cr_assert_eq(vx_contact_list_push(list, &c), VX_OK);
    }
}

/* Garbage in the arrays the stages write (from `from` on), so that nothing
 * left from an earlier run, or by malloc, can stand in for what a stage
 * failed to write. */
#define GARBAGE 0xa5
static void spoil_report(vx_contact_list *list, size_t from)
{
    memset(list->items + from, GARBAGE, (list->capacity - from) * sizeof *list->items);
}

/* Both of the cache's buffers grown to `room` entries and spoiled. */
static void spoil_cache(vx_contact_cache *cache, size_t room)
{
    for (int buffer = 0; buffer < 2; buffer++) {
        vx_contact_cache_entry *entries = NULL;
        cr_assert_eq(vx_contact_cache_begin_fill(cache, room, &entries), VX_OK);
        memset(entries, GARBAGE, room * sizeof *entries);
        vx_contact_cache_commit_fill(cache, 0u);
    }
}

/* The pile settled for a while by the step, then gathered and one substep
 * of its stages run by hand, whose impulses are stored as the cache (warm):
 * what the tests below take further by hand. */
typedef struct {
    vx_registry *w;
    vx_test_stepper st;
    vx_body_set bodies;
    vx_narrow_phase d;
    vx_contact_solver s;
    vx_contact_cache warm;
} hand_run;

static void hand_run_open(hand_run *h)
{
    h->w = make_pile();
    vx_test_stepper_init(&h->st);
    for (int k = 0; k < STEPS; k++) vx_test_step(h->w, &h->st);
    vx_body_set_init(&h->bodies);
    cr_assert_eq(vx_body_set_gather(&h->bodies, h->w, h->st.cfg.gravity, NULL), VX_OK);
    vx_narrow_phase_init(&h->d);
    vx_contact_solver_init(&h->s);
    vx_contact_cache_init(&h->warm);
    solve_substep(&h->bodies, &h->d, &h->s, &h->warm, &h->st.cfg);
    cr_assert_eq(vx_contact_solver_store(&h->s, &h->bodies, &h->warm), VX_OK);
}

static void hand_run_close(hand_run *h)
{
    vx_contact_cache_free(&h->warm);
    vx_contact_solver_free(&h->s);
    vx_narrow_phase_free(&h->d);
    vx_body_set_free(&h->bodies);
    vx_test_stepper_free(&h->st);
    vx_registry_destroy(h->w);
}

Test(physics_report_threads, cache_and_report_are_identical_for_every_split)
{
    /* two substeps by hand: the second warm started from the first's cache */
    hand_run h;
    hand_run_open(&h);
    solve_substep(&h.bodies, &h.d, &h.s, &h.warm, &h.st.cfg);
    vx_contact_solver *s = &h.s;
    const vx_body_set *bodies = &h.bodies;
    cr_assert_geq(s->count, SPLIT_MIN_CONSTRAINTS, "only %zu constraints: the stages would not be split", s->count);

    /* the calling thread alone */
    vx_contact_cache ref_cache;
    vx_contact_cache_init(&ref_cache);
    vx_contact_list ref_report;
    prefill(&ref_report, 0u);
    cr_assert_eq(vx_contact_solver_store(s, bodies, &ref_cache), VX_OK);
    cr_assert_eq(vx_contact_solver_report(s, bodies, &ref_report), VX_OK);

    /* every point of a solved constraint is one entry, in constraint order */
    size_t solved_points = 0, unsolved = 0;
    for (size_t i = 0; i < s->count; i++) {
        const vx_contact_constraint *c = &s->constraints[i];
        if (!c->solve) {
            unsolved++;
            continue;
        }
        for (int k = 0; k < c->count; k++) {
            const vx_contact_cache_entry *e = &ref_cache.items[solved_points++];
            cr_assert_eq(e->a_index, bodies->info[c->a].entity.index);
            cr_assert_eq(e->b_index, bodies->info[c->b].entity.index);
            cr_assert_eq(e->feature, s->anchors[c->first + (uint32_t)k].feature);
        }
    }
    cr_assert_eq(ref_cache.count, solved_points);
    cr_assert_gt(unsolved, 0u, "the sensor's pairs are reported, not solved");
    /* the report keeps the points touching or pushed: some are neither */
    size_t reported = ref_report.count - 2u;
    cr_assert_eq(ref_report.items[0].feature, 1000u);
    cr_assert_eq(ref_report.items[1].feature, 1001u);
    cr_assert_gt(reported, SPLIT_MIN_CONSTRAINTS);
    cr_assert_lt(reported, s->point_count, "no point was dropped: %zu of %zu", reported, s->point_count);
    for (size_t i = 2; i < ref_report.count; i++) {
        const vx_contact *c = &ref_report.items[i];
        cr_assert(c->depth > 0.0f || c->impulse > 0.0f);
    }

    for (int r = 0; r < RUNS; r++) {
        vx_thread_pool *pool = NULL;
        cr_assert_eq(vx_thread_pool_create(&pool, thread_counts[r]), VX_OK);
        vx_thread_pool_set_grain(pool, 0u);
        s->pool = pool;
        vx_contact_cache cache;
        vx_contact_cache_init(&cache);
        vx_contact_list report;
        /* room for every point twice: the stage then does not reallocate */
        prefill(&report, 2u * s->point_count);
        /* twice (the pool run again), the arrays spoiled before each time */
        for (int again = 0; again < 2; again++) {
            report.count = 2u;
            spoil_report(&report, 2u);
            spoil_cache(&cache, s->point_count);
            cr_assert_eq(vx_contact_solver_store(s, bodies, &cache), VX_OK);
            cr_assert_eq(vx_contact_solver_report(s, bodies, &report), VX_OK);
            cr_assert_eq(cache.count, ref_cache.count, "%d threads: %zu entries vs %zu", thread_counts[r],
                         cache.count, ref_cache.count);
            cr_assert(memcmp(cache.items, ref_cache.items, cache.count * sizeof *cache.items) == 0,
                      "%d threads: the cache differs", thread_counts[r]);
            cr_assert_eq(report.count, ref_report.count, "%d threads: %zu contacts vs %zu", thread_counts[r],
                         report.count, ref_report.count);
            cr_assert(memcmp(report.items, ref_report.items, report.count * sizeof *report.items) == 0,
                      "%d threads: the report differs", thread_counts[r]);
        }
        s->pool = NULL;
        vx_thread_pool_destroy(pool);
        vx_contact_cache_free(&cache);
        vx_contact_list_free(&report);
    }

    vx_contact_list_free(&ref_report);
    vx_contact_cache_free(&ref_cache);
    hand_run_close(&h);
}

/* ---- the set-up's rows ---- */

/* prepare writes every byte of the rows it sets up (it does not clear a
 * solved row first): the pile's constraints prepared again over rows full
 * of garbage, from the same bodies, manifolds and cache, are the same
 * bytes. */
Test(physics_report_threads, prepare_writes_every_byte_of_its_rows)
{
    hand_run h; /* the stored impulses warm start the rows */
    hand_run_open(&h);
    const vx_world_def *cfg = &h.st.cfg;
    vx_contact_solver *s = &h.s;
    cr_assert_eq(vx_contact_solver_prepare(s, &h.d, &h.bodies, &h.warm, cfg, cfg->fixed_dt), VX_OK);
    size_t points = s->point_count;
    cr_assert_gt(points, 100u);
    vx_contact_hot_row *first = malloc(points * sizeof *first);
    cr_assert_not_null(first);
    memcpy(first, s->rows, points * sizeof *first);
    memset(s->rows, GARBAGE, points * sizeof *s->rows);
    cr_assert_eq(vx_contact_solver_prepare(s, &h.d, &h.bodies, &h.warm, cfg, cfg->fixed_dt), VX_OK);
    cr_assert_eq(s->point_count, points);
    for (size_t p = 0; p < points; p++)
        cr_assert(memcmp(&first[p], &s->rows[p], sizeof *first) == 0, "row %zu kept garbage", p);
    free(first);
    hand_run_close(&h);
}

/* ---- what an entry says ---- */

/* A 4 x 1 x 4 static slab with its top face at y = 0 (spawned first: entity
 * a of its pairs) and a unit cube of 1 kg, unturned, with its bottom face at
 * y = -overlap (a negative overlap: above the slab). */
static vx_registry *box_on_slab(float overlap, vx_entity *slab, vx_entity *cube)
{
    vx_registry *w = vx_test_physics_world();
    vx_collider slab_shape = vx_collider_box(vx_vec3_make(2.0f, 0.5f, 2.0f));
    vx_rigidbody fixed = vx_rigidbody_static();
    *slab = vx_test_spawn_body(w, vx_vec3_make(0.0f, -0.5f, 0.0f), &slab_shape, &fixed);
    vx_collider cube_shape = vx_collider_box(vx_vec3_make(0.5f, 0.5f, 0.5f));
    vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
    *cube = vx_test_spawn_body(w, vx_vec3_make(0.0f, 0.5f - overlap, 0.0f), &cube_shape, &rb);
    return w;
}

/* 4 mm into the slab (less than the slop: the position passes leave it):
 * one step reports the cube's four bottom corners, on the slab's top face
 * (a) and 4 mm below it (b), the normal up from slab to cube, depth 4 mm,
 * and impulses that sum to what stops one step of gravity, m g dt. */
Test(physics_report_threads, resting_box_reports_its_corners_depth_normal_and_impulse)
{
    vx_entity slab, cube;
    vx_registry *w = box_on_slab(0.004f, &slab, &cube);
    vx_test_stepper st;
    vx_test_stepper_init(&st);
    vx_test_step(w, &st);
    cr_assert_eq(st.report.count, 4u);
    float total = 0.0f;
    bool corner_seen[4] = {false, false, false, false};
    for (size_t i = 0; i < 4; i++) {
        const vx_contact *c = &st.report.items[i];
        cr_assert(vx_entity_equal(c->entity_a, slab));
        cr_assert(vx_entity_equal(c->entity_b, cube));
        cr_assert_not(c->sensor);
        VX_ASSERT_VEC3_NEAR(c->normal, 0.0f, 1.0f, 0.0f, 1e-6f);
        VX_ASSERT_NEAR(c->depth, 0.004f, 1e-4f);
        VX_ASSERT_NEAR(c->point_on_a.y, 0.0f, 1e-4f);
        VX_ASSERT_NEAR(c->point_on_b.y, -0.004f, 1e-4f);
        VX_ASSERT_NEAR(fabsf(c->point_on_b.x), 0.5f, 1e-4f);
        VX_ASSERT_NEAR(fabsf(c->point_on_b.z), 0.5f, 1e-4f);
        VX_ASSERT_NEAR(c->point_on_a.x, c->point_on_b.x, 1e-4f);
        VX_ASSERT_NEAR(c->point_on_a.z, c->point_on_b.z, 1e-4f);
        int corner = (c->point_on_b.x > 0.0f ? 1 : 0) + (c->point_on_b.z > 0.0f ? 2 : 0);
        cr_assert_not(corner_seen[corner], "corner %d reported twice", corner);
        corner_seen[corner] = true;
        cr_assert_gt(c->impulse, 0.0f);
        total += c->impulse;
    }
    VX_ASSERT_NEAR(total, 9.81f * st.cfg.fixed_dt, 1e-3f);
    vx_test_stepper_free(&st);
    vx_registry_destroy(w);
}

/* 1.5 cm above the slab, within the speculative distance (2 cm): the pair
 * has a manifold, but its points neither touch (depth < 0) nor push (the
 * cube falls 3 mm in a step): nothing is reported. */
Test(physics_report_threads, hovering_box_within_speculative_distance_reports_nothing)
{
    vx_entity slab, cube;
    vx_registry *w = box_on_slab(-0.015f, &slab, &cube);
    vx_test_stepper st;
    vx_test_stepper_init(&st);
    vx_test_step(w, &st);
    cr_assert_eq(vx_step_counts_last(&st.state).manifolds, 1u);
    cr_assert_eq(st.report.count, 0u);
    vx_test_stepper_free(&st);
    vx_registry_destroy(w);
}
