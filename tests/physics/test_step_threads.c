/* vx_step on several threads (config.threads) in both solver orders
 * (config.order): the promise is that for a given scene and options the
 * result is byte-identical for every thread count. Five scenes (a pyramid
 * of boxes; a pile of boxes, spheres and capsules in random orientations,
 * on a box and on a rippled mesh; spheres poured into a box; separate
 * stacks), with 1 and 4 substeps, are
 * stepped side by side with 1, 2 and 3 threads (uneven splits), and every
 * body's pose and velocities and every contact report must equal those of
 * one thread after every step; the pyramid also with sleeping on, until it
 * sleeps; switching the thread count between steps of one run (1, 3, 2, 5,
 * 1: more threads than this machine's cores) changes nothing either. And the coloured order keeps the physics: a
 * 10-box stack and a pyramid of base 10 stand, and momentum is kept when
 * one body carries more constraints than a level has colours. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "physics/body/mesh.h"
#include "physics/solver/solve_order.h"
#include "physics/step_counts.h"
#include "physics/thread_choice.h"
#include "test_helpers.h"
#include "test_mesh_helpers.h"
#include "voltex/physics.h"

enum { MAX_BODIES = 160, RUNS = 3 };

/* Steps of each side-by-side comparison (half with 4 substeps): the pile
 * and the pour collide from the first steps. Threads beyond the cores make
 * every step's barriers slow, the more so when the machine is busy, so the
 * runs are short, and shorter under the address sanitizer. */
#ifdef VX_TEST_ASAN
#define STEPS 10
#else
#define STEPS 16
#endif

static const int thread_counts[RUNS] = {1, 2, 3};

typedef enum { SCENE_PYRAMID, SCENE_PILE, SCENE_POUR, SCENE_STACKS, SCENE_TERRAIN } scene_kind;

typedef struct {
    vx_registry *w;
    vx_entity e[MAX_BODIES];
    size_t n;
    vx_mesh *terrain; /* SCENE_TERRAIN's ground, freed with the scene */
} scene;

static void add_entity(scene *s, vx_vec3 at, vx_quat rotation, const vx_collider *c, const vx_rigidbody *rb)
{
    cr_assert_lt(s->n, (size_t)MAX_BODIES);
    s->e[s->n++] = vx_test_spawn_rotated(s->w, at, rotation, c, rb);
}

/* A static floor with its top face at y = 0. */
static void add_floor(scene *s, float half_width)
{
    vx_collider c = vx_collider_box(vx_vec3_make(half_width, 1.0f, half_width));
    vx_rigidbody rb = vx_rigidbody_static();
    add_entity(s, vx_vec3_make(0.0f, -1.0f, 0.0f), vx_quat_identity(), &c, &rb);
}

/* Unit boxes in a pyramid of `base` on the floor, rows 2 cm apart sideways. */
static void add_pyramid(scene *s, int base, float x0)
{
    vx_collider cube = vx_collider_box(vx_vec3_make(0.5f, 0.5f, 0.5f));
    vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
    rb.friction = 0.6f;
    rb.restitution = 0.0f;
    for (int row = 0; row < base; row++) {
        int count = base - row;
        for (int i = 0; i < count; i++) {
            float x = x0 + ((float)i - 0.5f * (float)(count - 1)) * 1.02f;
            add_entity(s, vx_vec3_make(x, 0.5f + (float)row, 0.0f), vx_quat_identity(), &cube, &rb);
        }
    }
}

/* Separate stacks of three boxes, a sphere rolling beside each: islands
 * of their own, which the sequential order shares out between the threads
 * (solve_order.h). */
static void add_stacks(scene *s, int stacks)
{
    vx_collider cube = vx_collider_box(vx_vec3_make(0.5f, 0.5f, 0.5f));
    vx_collider ball = vx_collider_sphere(0.4f);
    vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
    rb.friction = 0.6f;
    rb.restitution = 0.0f;
    for (int k = 0; k < stacks; k++) {
        float x = -15.0f + 2.5f * (float)(k % 12), z = -3.0f + 3.0f * (float)(k / 12);
        for (int level = 0; level < 3; level++)
            add_entity(s, vx_vec3_make(x + 0.03f * (float)level, 0.5f + 1.0f * (float)level, z), vx_quat_identity(),
                       &cube, &rb);
        vx_rigidbody roll = rb;
        roll.velocity = vx_vec3_make(0.5f, 0.0f, 0.0f);
        add_entity(s, vx_vec3_make(x + 1.2f, 0.4f, z), vx_quat_identity(), &ball, &roll);
    }
}

/* Boxes, spheres and capsules in random orientations and random sideways
 * velocities, in layers of a jittered 3 x 3 grid (the lowest just above the
 * floor, the others 1 m apart), falling into a heap. */
static void add_pile(scene *s, int bodies)
{
    vx_test_rng rng = {987654321u};
    for (int i = 0; i < bodies; i++) {
        float x = -0.95f + 0.95f * (float)(i % 3) + vx_test_rng_range(&rng, -0.1f, 0.1f);
        float z = -0.95f + 0.95f * (float)(i / 3 % 3) + vx_test_rng_range(&rng, -0.1f, 0.1f);
        vx_vec3 axis = vx_vec3_normalize(vx_vec3_make(vx_test_rng_range(&rng, -1.0f, 1.0f),
                                                      vx_test_rng_range(&rng, -1.0f, 1.0f),
                                                      vx_test_rng_range(&rng, 0.2f, 1.0f)));
        vx_quat q = vx_quat_from_axis_angle(axis, vx_test_rng_range(&rng, 0.0f, 3.1f));
        vx_collider c;
        switch (i % 3) {
        case 0: c = vx_collider_box(vx_vec3_make(0.3f, 0.2f, 0.25f)); break;
        case 1: c = vx_collider_sphere(vx_test_rng_range(&rng, 0.15f, 0.3f)); break;
        default: c = vx_collider_capsule(0.15f, vx_test_rng_range(&rng, 0.1f, 0.3f)); break;
        }
        /* the lowest point 1 cm above the floor or 1 m higher per layer */
        vx_aabb box = vx_collider_aabb(&c, vx_vec3_make(0.0f, 0.0f, 0.0f), q);
        vx_vec3 at = vx_vec3_make(x, 0.01f + 1.0f * (float)(i / 9) - box.min.y, z);
        vx_rigidbody rb = vx_rigidbody_dynamic(vx_test_rng_range(&rng, 0.5f, 2.0f));
        rb.friction = vx_test_rng_range(&rng, 0.2f, 0.8f);
        rb.restitution = vx_test_rng_range(&rng, 0.0f, 0.4f);
        rb.velocity = vx_vec3_make(vx_test_rng_range(&rng, -0.5f, 0.5f), 0.0f, vx_test_rng_range(&rng, -0.5f, 0.5f));
        rb.angular_velocity = vx_vec3_make(vx_test_rng_range(&rng, -2.0f, 2.0f), 0.0f, 0.0f);
        add_entity(s, at, q, &c, &rb);
    }
}

/* A static box open at the top (floor and four walls) and a grid of
 * spheres above it, layer by layer, a little jittered. */
static void add_pour(scene *s, int per_side, int layers)
{
    const float inner = 0.45f * (float)per_side; /* half width inside the walls */
    vx_rigidbody wall_body = vx_rigidbody_static();
    vx_collider side_x = vx_collider_box(vx_vec3_make(0.1f, 1.0f, inner + 0.2f));
    vx_collider side_z = vx_collider_box(vx_vec3_make(inner + 0.2f, 1.0f, 0.1f));
    add_entity(s, vx_vec3_make(inner + 0.1f, 1.0f, 0.0f), vx_quat_identity(), &side_x, &wall_body);
    add_entity(s, vx_vec3_make(-inner - 0.1f, 1.0f, 0.0f), vx_quat_identity(), &side_x, &wall_body);
    add_entity(s, vx_vec3_make(0.0f, 1.0f, inner + 0.1f), vx_quat_identity(), &side_z, &wall_body);
    add_entity(s, vx_vec3_make(0.0f, 1.0f, -inner - 0.1f), vx_quat_identity(), &side_z, &wall_body);
    vx_test_rng rng = {4242u};
    vx_collider ball = vx_collider_sphere(0.2f);
    for (int l = 0; l < layers; l++)
        for (int i = 0; i < per_side; i++)
            for (int k = 0; k < per_side; k++) {
                vx_rigidbody rb = vx_rigidbody_dynamic(vx_test_rng_range(&rng, 0.5f, 1.5f));
                rb.friction = 0.4f;
                rb.restitution = 0.2f;
                float x = -inner + 0.45f * ((float)i + 0.5f) + vx_test_rng_range(&rng, -0.02f, 0.02f);
                float z = -inner + 0.45f * ((float)k + 0.5f) + vx_test_rng_range(&rng, -0.02f, 0.02f);
                add_entity(s, vx_vec3_make(x, 0.21f + 0.5f * (float)l, z), vx_quat_identity(), &ball, &rb);
            }
}

static float ripples(float x, float z) { return 0.2f * sinf(1.1f * x) * cosf(0.9f * z) + 0.02f * (x * x + z * z); }

/* A static ground of 16 x 16 quads (512 triangles) with ripples in a bowl. */
static void add_terrain(scene *s)
{
    vx_test_grid g = vx_test_grid_make(16, 0.5f, ripples);
    vx_error err;
    cr_assert_eq(vx_mesh_build(g.vertices, g.vertex_count, g.indices, g.triangle_count, &s->terrain, &err), VX_OK);
    vx_test_grid_free(&g);
    vx_collider c = vx_collider_mesh(s->terrain);
    vx_rigidbody rb = vx_rigidbody_static();
    add_entity(s, vx_vec3_make(0.0f, -0.05f, 0.0f), vx_quat_identity(), &c, &rb);
}

/* The scenes are kept small so that 4 runs side by side stay quick under
 * the sanitizers too; the pour still puts 36 spheres on the floor at once,
 * enough constraints of one colour (VX_COLOR_MIN_PARALLEL) to be split
 * between the threads. */
static void build_scene(scene *s, scene_kind kind)
{
    memset(s, 0, sizeof *s);
    s->w = vx_test_physics_world();
    switch (kind) {
    case SCENE_PYRAMID:
        add_floor(s, 20.0f);
        add_pyramid(s, 4, 0.0f);
        break;
    case SCENE_PILE:
        add_floor(s, 20.0f);
        add_pile(s, 18);
        break;
    case SCENE_POUR:
        add_floor(s, 20.0f);
        add_pour(s, 6, 1);
        break;
    case SCENE_STACKS:
        add_floor(s, 20.0f);
        add_stacks(s, 24);
        break;
    case SCENE_TERRAIN:
        add_terrain(s);
        add_pile(s, 18);
        break;
    }
}

/* ---- comparing runs ---- */

/* Every entity's transform and rigid body, and the step's report, of run
 * x equal to those of run ref, byte for byte. */
static void assert_same_state(const scene *ref, const vx_test_stepper *sref, const scene *x, const vx_test_stepper *sx,
                              const char *what, int step)
{
    cr_assert_eq(ref->n, x->n);
    for (size_t i = 0; i < ref->n; i++) {
        const vx_transform *ta = vx_test_transform(ref->w, ref->e[i]);
        const vx_transform *tb = vx_test_transform(x->w, x->e[i]);
        cr_assert(memcmp(ta, tb, sizeof *ta) == 0,
                  "%s, step %d: entity %zu pose differs: (%.9g %.9g %.9g) vs (%.9g %.9g %.9g)", what, step, i,
                  (double)ta->position.x, (double)ta->position.y, (double)ta->position.z, (double)tb->position.x,
                  (double)tb->position.y, (double)tb->position.z);
        const vx_rigidbody *ra = vx_registry_get(ref->w, ref->e[i], VX_COMPONENT_RIGIDBODY);
        const vx_rigidbody *rb = vx_registry_get(x->w, x->e[i], VX_COMPONENT_RIGIDBODY);
        cr_assert_eq(ra == NULL, rb == NULL);
        if (ra)
            cr_assert(memcmp(ra, rb, sizeof *ra) == 0, "%s, step %d: entity %zu velocity differs", what, step, i);
    }
    cr_assert_eq(sref->report.count, sx->report.count, "%s, step %d: %zu contacts vs %zu", what, step,
                 sref->report.count, sx->report.count);
    for (size_t c = 0; c < sref->report.count; c++)
        cr_assert(memcmp(&sref->report.items[c], &sx->report.items[c], sizeof(vx_contact)) == 0,
                  "%s, step %d: contact %zu differs (impulse %.9g vs %.9g)", what, step, c,
                  (double)sref->report.items[c].impulse, (double)sx->report.items[c].impulse);
    cr_assert_eq(vx_step_awake_count(&sref->state), vx_step_awake_count(&sx->state), "%s, step %d", what,
                 step);
}

typedef struct {
    size_t contacts;    /* reported over the run (by each run alike) */
    int asleep_at;      /* the first step after which no dynamic body was awake, or -1 */
    size_t flow_sweeps; /* sweeps that went as a flow, over every run */
} run_summary;

/* The scene stepped with 1, 2 and 3 threads side by side, compared
 * after every step. */
static run_summary compare_thread_counts(scene_kind kind, vx_solver_order order, int substeps, bool sleeping,
                                         int steps)
{
    scene s[RUNS];
    vx_test_stepper st[RUNS];
    for (int r = 0; r < RUNS; r++) {
        build_scene(&s[r], kind);
        vx_test_stepper_init(&st[r]);
        st[r].cfg.order = order;
        st[r].cfg.substeps = substeps;
        st[r].cfg.sleeping = sleeping;
        st[r].cfg.threads = thread_counts[r];
    }
    char what[96];
    run_summary sum = {0u, -1, 0u};
    for (int k = 1; k <= steps; k++) {
        for (int r = 0; r < RUNS; r++) {
            vx_test_step(s[r].w, &st[r]);
            /* the threads really ran (identical results prove nothing if
             * every run stayed on one thread) */
            cr_assert_eq(vx_step_counts_last(&st[r].state).threads, thread_counts[r]);
            sum.flow_sweeps += vx_step_counts_last(&st[r].state).flow_sweeps;
        }
        sum.contacts += st[0].report.count;
        if (sum.asleep_at < 0 && vx_step_awake_count(&st[0].state) == 0) sum.asleep_at = k;
        for (int r = 1; r < RUNS; r++) {
            snprintf(what, sizeof what, "scene %d, %s, %d substeps, sleeping %s, %d threads", (int)kind,
                     order == VX_SOLVER_ORDER_COLORED ? "colored" : "sequential", substeps, sleeping ? "on" : "off",
                     thread_counts[r]);
            assert_same_state(&s[0], &st[0], &s[r], &st[r], what, k);
        }
    }
    for (int r = 0; r < RUNS; r++) {
        vx_test_stepper_free(&st[r]);
        vx_registry_destroy(s[r].w);
        vx_mesh_destroy(s[r].terrain);
    }
    return sum;
}

/* One scene and order with 1 and 4 substeps (4 cost four times as much:
 * half the steps). Sleeping stays off: in these few steps nothing could fall
 * asleep, and the sleeping path on threads is compared where the pyramid
 * does (pyramid_falls_asleep_alike_on_every_thread_count). */
static size_t compare_all_options(scene_kind kind, vx_solver_order order)
{
    size_t flow_sweeps = 0;
    for (int substeps = 1; substeps <= 4; substeps += 3) {
        int steps = substeps == 1 ? STEPS : STEPS / 2;
        run_summary sum = compare_thread_counts(kind, order, substeps, false, steps);
        cr_assert_gt(sum.contacts, (size_t)steps, "the scene should be in contact most of the run");
        flow_sweeps += sum.flow_sweeps;
    }
    return flow_sweeps;
}

/* These scenes are small: without this the engine would keep them on one
 * thread (solve_sweep.h) and the sequential order's islands in one bin
 * (solve_order.h), and the comparisons would not compare splits; and
 * more threads than this machine has cores are run as such. */
static void split_every_stage(void)
{
    vx_step_tuning *t = vx_test_tuning();
    t->grain = 0u;
    t->order.island_bin_min = 8u;
    t->order.wave_split_min = 1u;
    t->order.flow_min = 1u;
    t->max_threads = 8;
    t->always_threads = true;
}

TestSuite(physics_threads, .init = split_every_stage);

Test(physics_threads, a_pile_on_a_mesh_is_identical_for_every_thread_count)
{
    compare_all_options(SCENE_TERRAIN, VX_SOLVER_ORDER_SEQUENTIAL);
    compare_all_options(SCENE_TERRAIN, VX_SOLVER_ORDER_COLORED);
}

Test(physics_threads, separate_stacks_are_identical_for_every_thread_count_sequential)
{
    compare_all_options(SCENE_STACKS, VX_SOLVER_ORDER_SEQUENTIAL);
}

Test(physics_threads, separate_stacks_are_identical_for_every_thread_count_colored)
{
    compare_all_options(SCENE_STACKS, VX_SOLVER_ORDER_COLORED);
}

/* The sequential order in SIMD lanes (solve_order.h) gives the bytes of
 * the order of add solved one constraint after the other by the scalar code
 * (the test hook): separate stacks, in bins of 8 constraints (on one thread:
 * bin after bin, each in lanes) and in one bin, whose units hold the
 * constraints of several stacks side by side. */
static void compare_lanes_with_order_of_add(int substeps, size_t bin_min)
{
    scene s[2];
    vx_test_stepper st[2];
    for (int r = 0; r < 2; r++) {
        build_scene(&s[r], SCENE_STACKS);
        vx_test_stepper_init(&st[r]);
        st[r].cfg.order = VX_SOLVER_ORDER_SEQUENTIAL;
        st[r].cfg.substeps = substeps;
        st[r].cfg.threads = 1;
    }
    size_t contacts = 0;
    for (int r = 0; r < 2; r++) vx_step_tuning_of(&st[r].state)->order.island_bin_min = bin_min;
    vx_step_tuning_of(&st[0].state)->order.lanes = false; /* the order of add, scalar */
    for (int k = 1; k <= STEPS; k++) {
        vx_test_step(s[0].w, &st[0]);
        vx_test_step(s[1].w, &st[1]);
        contacts += st[0].report.count;
        assert_same_state(&s[0], &st[0], &s[1], &st[1], substeps == 1 ? "lanes, 1 substep" : "lanes, 4 substeps", k);
    }
    cr_assert_gt(contacts, (size_t)STEPS * 24u, "every stack should be in contact");
    for (int r = 0; r < 2; r++) {
        vx_test_stepper_free(&st[r]);
        vx_registry_destroy(s[r].w);
    }
}

Test(physics_threads, sequential_lanes_give_the_bytes_of_the_order_of_add)
{
    compare_lanes_with_order_of_add(1, 8u);
    compare_lanes_with_order_of_add(4, 8u);
    compare_lanes_with_order_of_add(1, (size_t)1 << 30); /* one bin */
    compare_lanes_with_order_of_add(4, (size_t)1 << 30);
}

/* The pyramid is one island: its one bin goes to the threads as a flow
 * (solve_flow.h) here, and split step by step with a barrier after each
 * when flows are off (a minimum no test scene reaches). */
Test(physics_threads, pyramid_is_identical_for_every_thread_count_sequential)
{
    cr_assert_gt(compare_all_options(SCENE_PYRAMID, VX_SOLVER_ORDER_SEQUENTIAL), 0u,
                 "the pyramid's passes went as a flow");
    vx_test_tuning()->order.flow_min = (size_t)1 << 30;
    cr_assert_eq(compare_all_options(SCENE_PYRAMID, VX_SOLVER_ORDER_SEQUENTIAL), 0u, "no flow below the minimum");
    vx_test_tuning()->order.flow_min = 1u;
}

Test(physics_threads, pyramid_is_identical_for_every_thread_count_colored)
{
    compare_all_options(SCENE_PYRAMID, VX_SOLVER_ORDER_COLORED);
}

Test(physics_threads, mixed_pile_is_identical_for_every_thread_count_sequential)
{
    compare_all_options(SCENE_PILE, VX_SOLVER_ORDER_SEQUENTIAL);
}

Test(physics_threads, mixed_pile_is_identical_for_every_thread_count_colored)
{
    compare_all_options(SCENE_PILE, VX_SOLVER_ORDER_COLORED);
}

Test(physics_threads, poured_spheres_are_identical_for_every_thread_count_sequential)
{
    compare_all_options(SCENE_POUR, VX_SOLVER_ORDER_SEQUENTIAL);
}

Test(physics_threads, poured_spheres_are_identical_for_every_thread_count_colored)
{
    compare_all_options(SCENE_POUR, VX_SOLVER_ORDER_COLORED);
}

/* With sleeping on, the pyramid (at rest from the start) falls asleep after
 * 0.5 s, at the same step and into the same state on every thread count,
 * and stays so: the sleeping path itself is compared, in both orders with
 * 1 substep and (but under the sanitizer) in the coloured order with 4. */
Test(physics_threads, pyramid_falls_asleep_alike_on_every_thread_count)
{
#ifdef VX_TEST_ASAN
    const int variants = 2;
#else
    const int variants = 3;
#endif
    for (int o = 0; o < variants; o++) {
        vx_solver_order order = o ? VX_SOLVER_ORDER_COLORED : VX_SOLVER_ORDER_SEQUENTIAL;
        int substeps = o == 2 ? 4 : 1;
        run_summary sum = compare_thread_counts(SCENE_PYRAMID, order, substeps, true, 34);
        cr_assert(sum.asleep_at >= 30 && sum.asleep_at <= 32,
                  "order %d, %d substeps: the pyramid fell asleep at step %d, expected about 30 (0.5 s)", (int)order,
                  substeps, sum.asleep_at);
    }
}

/* One run whose thread count changes between steps (1, 3, 2, 5, 1), with
 * the same scratch throughout (its pool is rebuilt), against a run on one
 * thread. */
Test(physics_threads, switching_thread_count_between_steps_changes_nothing)
{
    const int schedule[] = {1, 3, 2, 5, 1};
    const int per_phase = 8;
    for (int o = 0; o < 2; o++)
        for (int substeps = 1; substeps <= 4; substeps += 3) {
            scene a, b;
            build_scene(&a, SCENE_POUR);
            build_scene(&b, SCENE_POUR);
            vx_test_stepper sa, sb;
            vx_test_stepper_init(&sa);
            vx_test_stepper_init(&sb);
            sa.cfg.order = sb.cfg.order = o ? VX_SOLVER_ORDER_COLORED : VX_SOLVER_ORDER_SEQUENTIAL;
            sa.cfg.substeps = sb.cfg.substeps = substeps;
            int step = 0;
            char what[96];
            for (size_t phase = 0; phase < sizeof schedule / sizeof schedule[0]; phase++) {
                sb.cfg.threads = schedule[phase];
                snprintf(what, sizeof what, "order %d, %d substeps, switched to %d threads", o, substeps,
                         schedule[phase]);
                for (int k = 0; k < per_phase; k++) {
                    step++;
                    vx_test_step(a.w, &sa);
                    vx_test_step(b.w, &sb);
                    assert_same_state(&a, &sa, &b, &sb, what, step);
                }
            }
            vx_test_stepper_free(&sa);
            vx_test_stepper_free(&sb);
            vx_registry_destroy(a.w);
            vx_registry_destroy(b.w);
        }
}

/* ---- the coloured order keeps the physics ---- */

static float distance(vx_vec3 a, vx_vec3 b) { return vx_vec3_length(vx_vec3_sub(a, b)); }

/* A stepper with the coloured order on two threads, 10 iterations. */
static void colored_stepper(vx_test_stepper *st)
{
    vx_test_stepper_init(st);
    st->cfg.order = VX_SOLVER_ORDER_COLORED;
    st->cfg.iterations = 10;
    st->cfg.threads = 2;
}

/* Ten unit boxes on each other, coloured order on two threads, 10
 * iterations: over 5 s at 60 Hz the top box stays within 5 cm of where it
 * started (it would slide or topple otherwise). */
Test(physics_threads, colored_stack_of_ten_boxes_stands)
{
    scene s;
    memset(&s, 0, sizeof s);
    s.w = vx_test_physics_world();
    add_floor(&s, 20.0f);
    vx_collider cube = vx_collider_box(vx_vec3_make(0.5f, 0.5f, 0.5f));
    vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
    for (int i = 0; i < 10; i++) add_entity(&s, vx_vec3_make(0.0f, 0.5f + (float)i, 0.0f), vx_quat_identity(), &cube, &rb);
    vx_entity top = s.e[s.n - 1];
    vx_vec3 start = vx_test_transform(s.w, top)->position;
    vx_test_stepper st;
    colored_stepper(&st);
    for (int k = 1; k <= 300; k++) {
        vx_test_step(s.w, &st);
        float d = distance(vx_test_transform(s.w, top)->position, start);
        cr_assert_lt(d, 0.05f, "step %d: the top box moved %.4f m", k, (double)d);
    }
    /* and it still rests on the box below: 10 boxes' weight through the floor */
    float floor_load = 0.0f;
    for (size_t c = 0; c < st.report.count; c++)
        if (vx_entity_equal(st.report.items[c].entity_a, s.e[0]) || vx_entity_equal(st.report.items[c].entity_b, s.e[0]))
            floor_load += st.report.items[c].impulse;
    VX_ASSERT_NEAR(floor_load, 10.0f * 9.81f / 60.0f, 0.05f * 10.0f * 9.81f / 60.0f);
    vx_test_stepper_free(&st);
    vx_registry_destroy(s.w);
}

/* A pyramid of base 10 (55 boxes), coloured order on two threads: no box
 * moves more than 10 cm in 5 s. */
Test(physics_threads, colored_pyramid_of_base_ten_stands)
{
    scene s;
    memset(&s, 0, sizeof s);
    s.w = vx_test_physics_world();
    add_floor(&s, 20.0f);
    add_pyramid(&s, 10, 0.0f);
    cr_assert_eq(s.n, 56u);
    vx_vec3 start[MAX_BODIES];
    for (size_t i = 0; i < s.n; i++) start[i] = vx_test_transform(s.w, s.e[i])->position;
    vx_test_stepper st;
    colored_stepper(&st);
    for (int k = 1; k <= 300; k++) {
        vx_test_step(s.w, &st);
        for (size_t i = 1; i < s.n; i++) {
            float d = distance(vx_test_transform(s.w, s.e[i])->position, start[i]);
            cr_assert_lt(d, 0.10f, "step %d: box %zu moved %.4f m", k, i, (double)d);
        }
    }
    vx_test_stepper_free(&st);
    vx_registry_destroy(s.w);
}

/* No gravity: a free 100 kg plate and n spheres of 1 kg just above it, all
 * moving down at 1 m/s, so all n hit it in the first step. Every contact
 * impulse acts on both bodies, so the total momentum stays -n kg m/s. With
 * n > VX_LEVEL_COLORS the plate's constraints outnumber the colours of
 * their level: the order must still give every one of them its effect on
 * the plate. Returns the largest momentum error over the steps. */
static float plate_momentum_error(vx_solver_order order, int substeps, int threads, int n, int steps)
{
    scene s;
    memset(&s, 0, sizeof s);
    s.w = vx_test_physics_world();
    vx_collider plate = vx_collider_box(vx_vec3_make(10.0f, 0.5f, 10.0f));
    vx_rigidbody plate_body = vx_rigidbody_dynamic(100.0f);
    plate_body.restitution = 0.0f;
    plate_body.friction = 0.0f;
    add_entity(&s, vx_vec3_make(0.0f, 0.0f, 0.0f), vx_quat_identity(), &plate, &plate_body);
    vx_collider ball = vx_collider_sphere(0.25f);
    for (int i = 0; i < n; i++) {
        vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
        rb.restitution = 0.0f;
        rb.friction = 0.0f;
        rb.velocity = vx_vec3_make(0.0f, -1.0f, 0.0f);
        vx_vec3 at = vx_vec3_make(-9.0f + 2.5f * (float)(i % 8), 0.755f, -9.0f + 2.5f * (float)(i / 8));
        add_entity(&s, at, vx_quat_identity(), &ball, &rb);
    }
    vx_test_stepper st;
    vx_test_stepper_init(&st);
    st.cfg.gravity = vx_vec3_make(0.0f, 0.0f, 0.0f);
    st.cfg.order = order;
    st.cfg.substeps = substeps;
    st.cfg.threads = threads;
    float worst = 0.0f;
    for (int k = 1; k <= steps; k++) {
        vx_test_step(s.w, &st);
        if (k == 1) cr_assert_geq(st.report.count, (size_t)n, "every sphere touches the plate in the first step");
        double p = 0.0;
        for (size_t i = 0; i < s.n; i++) {
            const vx_rigidbody *rb = vx_test_body(s.w, s.e[i]);
            p += (double)rb->mass * (double)rb->velocity.y;
        }
        float err = (float)fabs(p + (double)n);
        if (err > worst) worst = err;
    }
    /* the plate was hit: it moves down */
    cr_assert_lt(vx_test_body(s.w, s.e[0])->velocity.y, -0.05f);
    vx_test_stepper_free(&st);
    vx_registry_destroy(s.w);
    return worst;
}

Test(physics_threads, momentum_is_kept_with_more_constraints_on_a_body_than_colours)
{
    const int counts[] = {32, 40, 64};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
        for (int substeps = 1; substeps <= 4; substeps += 3)
            for (int o = 0; o < 2; o++) {
                vx_solver_order order = o ? VX_SOLVER_ORDER_COLORED : VX_SOLVER_ORDER_SEQUENTIAL;
                float err = plate_momentum_error(order, substeps, 2, counts[c], 3);
                /* float rounding over n bodies: well under a thousandth of the total */
                cr_expect_lt(err, 1e-3f * (float)counts[c],
                             "%d spheres, %d substeps, %s order: momentum off by %.4f kg m/s of %d", counts[c],
                             substeps, o ? "colored" : "sequential", (double)err, counts[c]);
            }
}

/* Without the tests' raised limit a step runs on at most the machine's
 * processors, however many threads are asked for. */
Test(physics_threads, a_step_uses_no_more_threads_than_processors)
{
    vx_test_tuning()->max_threads = 0;
    vx_test_tuning()->always_threads = true;
    scene s;
    build_scene(&s, SCENE_POUR);
    vx_test_stepper st;
    vx_test_stepper_init(&st);
    st.cfg.threads = 64;
    vx_test_step(s.w, &st);
    int used = vx_step_counts_last(&st.state).threads;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    cr_assert_geq(used, 1);
    cr_assert_leq(used, cpus > 0 ? (int)cpus : 1, "%d threads on %ld processors", used, cpus);
    if (cpus >= 2) cr_assert_geq(used, 2, "64 threads asked for, %d used", used);
    st.cfg.threads = 1;
    vx_test_step(s.w, &st);
    cr_assert_eq(vx_step_counts_last(&st.state).threads, 1);
    vx_test_stepper_free(&st);
    vx_registry_destroy(s.w);
}
