/* The narrow phase keeps each pair's separating axis from one detection to
 * the next (vx_sat_axis_memo, narrow_phase.h) and tries it first. In a
 * world of boxes and hulls falling onto a floor and onto each other,
 * bouncing apart and landing again, every detection must give exactly the
 * manifolds of the uncached test at the bodies' poses of that step, for
 * pairs that stay apart, touch, come apart and touch again. */
#include <criterion/criterion.h>
#include <string.h>

#include "physics/body/body_set.h"
#include "physics/body/hull.h"
#include "physics/collision/narrow_phase.h"
#include "test_helpers.h"
#include "test_hull_helpers.h"

#define BODIES 16
#define STEPS 150
#define DT (1.0f / 60.0f)
#define SPECULATIVE 0.02f

/* A rock (vx_test_rock) in its principal frame, as bodies take hulls. */
static vx_hull *rock(vx_test_rng *r, int n, vx_vec3 radii)
{
    vx_hull *h = vx_test_rock(r, n, radii);
    vx_hull_to_principal(h);
    return h;
}

/* A floor, then boxes and hulls in turn, tumbling in a 3 m wide heap from up
 * to 3 m and thrown towards the middle, so they meet, bounce and land. */
static void spawn_heap(vx_registry *w, vx_test_rng *r, vx_hull **hulls)
{
    vx_collider floor_shape = vx_collider_box(vx_vec3_make(10.0f, 0.5f, 10.0f));
    vx_test_spawn_body(w, vx_vec3_make(0.0f, -0.5f, 0.0f), &floor_shape, NULL);
    for (int i = 0; i < BODIES; i++) {
        vx_collider shape = i % 2 ? vx_collider_hull(hulls[i / 2])
                                  : vx_collider_box(vx_test_rng_vec3(r, 0.15f, 0.5f));
        vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
        vx_vec3 at = vx_vec3_make(vx_test_rng_range(r, -1.5f, 1.5f), vx_test_rng_range(r, 0.6f, 3.0f),
                                  vx_test_rng_range(r, -1.5f, 1.5f));
        rb.velocity = vx_vec3_make(-at.x, vx_test_rng_range(r, -1.0f, 2.0f), -at.z);
        rb.angular_velocity = vx_test_rng_vec3(r, -4.0f, 4.0f);
        vx_test_spawn_rotated(w, at, vx_test_random_rotation(r), &shape, &rb);
    }
}

/* Every pair of body slots (a < b), in order. */
static void all_pairs(const vx_body_set *bodies, vx_broadphase_pair_list *pairs)
{
    pairs->count = 0;
    for (uint32_t a = 0; a < bodies->count; a++)
        for (uint32_t b = a + 1; b < bodies->count; b++) {
            cr_assert_lt(pairs->count, pairs->capacity);
            pairs->items[pairs->count].a = a;
            pairs->items[pairs->count].b = b;
            pairs->count++;
        }
}

static void assert_same_pair(const vx_pair_manifold *kept, const vx_pair_manifold *full, int step, uint32_t a,
                             uint32_t b)
{
    cr_assert(kept->a == full->a && kept->b == full->b && kept->part == full->part && kept->sensor == full->sensor,
              "step %d pair %u %u: another pair", step, a, b);
    cr_assert(memcmp(&kept->manifold, &full->manifold, sizeof kept->manifold) == 0,
              "step %d pair %u %u: the manifolds differ", step, a, b);
}

Test(narrow_phase_axis, a_tumbling_heap_gets_the_uncached_manifolds_every_step)
{
    vx_test_rng r = {0x4EA9u};
    vx_hull *hulls[BODIES / 2];
    for (int i = 0; i < BODIES / 2; i++)
        hulls[i] = rock(&r, i % 2 ? 32 : 12, vx_test_rng_vec3(&r, 0.2f, 0.5f));
    vx_registry *w = vx_test_physics_world();
    spawn_heap(w, &r, hulls);
    vx_test_stepper s;
    vx_test_stepper_init(&s);
    vx_narrow_phase d;
    vx_narrow_phase_init(&d);
    vx_body_set bodies;
    vx_body_set_init(&bodies);
    static vx_broadphase_pair storage[(BODIES + 1) * BODIES / 2];
    vx_broadphase_pair_list pairs = {storage, 0, (BODIES + 1) * BODIES / 2};
    /* per pair: touching at the last detection, and apart after touching */
    static bool touched[(BODIES + 1) * BODIES / 2], left[(BODIES + 1) * BODIES / 2];
    int touching = 0, apart = 0, again = 0;
    size_t kept_axes = 0;
    for (int step = 0; step < STEPS; step++) {
        cr_assert_eq(vx_body_set_gather(&bodies, w, vx_vec3_make(0.0f, -9.81f, 0.0f), NULL), VX_OK);
        cr_assert_eq(bodies.count, (size_t)BODIES + 1u);
        for (size_t i = 1; i < bodies.count; i++)
            cr_assert_gt(bodies.info[i].entity.index, bodies.info[i - 1].entity.index);
        all_pairs(&bodies, &pairs);
        cr_assert_eq(vx_narrow_phase_detect(&d, &bodies, &pairs, SPECULATIVE, DT, false, NULL), VX_OK);
        kept_axes += d.axes.count;
        size_t next = 0;
        for (size_t p = 0; p < pairs.count; p++) {
            uint32_t a = pairs.items[p].a, b = pairs.items[p].b;
            vx_pair_manifold full;
            bool hit = (bodies.info[a].motion != VX_MOTION_STATIC || bodies.info[b].motion != VX_MOTION_STATIC) &&
                       vx_narrow_phase_pair(&bodies, a, b, SPECULATIVE, DT, &full);
            if (hit) {
                cr_assert_lt(next, d.count, "step %d pair %u %u: no manifold kept", step, a, b);
                assert_same_pair(&d.items[next++], &full, step, a, b);
                touching++;
                if (left[p]) again++;
                left[p] = false;
                touched[p] = true;
            } else {
                apart++;
                if (touched[p]) left[p] = true;
            }
        }
        cr_assert_eq(next, d.count, "step %d: more manifolds than the full test finds", step);
        vx_test_step(w, &s);
    }
    cr_assert_gt(touching, 1000, "%d pair-steps touching", touching);
    cr_assert_gt(apart, 5000, "%d pair-steps apart", apart);
    cr_assert_gt(again, 5, "%d pairs touched again after coming apart", again);
    cr_assert_gt(kept_axes, (size_t)(STEPS * 60), "%zu axes kept", kept_axes);
    vx_body_set_free(&bodies);
    vx_narrow_phase_free(&d);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
    for (int i = 0; i < BODIES / 2; i++) vx_hull_destroy(hulls[i]);
}
