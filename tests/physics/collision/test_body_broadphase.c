/* The step's broad phase (src/physics/body_broadphase.c): the bodies of a
 * world kept in a vx_broadphase from step to step. Its pairs are checked
 * against brute force over the bounds the narrow phase needs, on a moving
 * scene whose entities come and go; statics are added once and never
 * re-tested; and whole runs give the same bits with either kind
 * (solver.broadphase "tree" or "bvh"), sleeping off and on. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "physics/collision/body_broadphase.h"
#include "physics/collision/narrow_phase.h"
#include "physics/body/body_set.h"
#include "physics/step_counts.h"
#include "test_helpers.h"
#include "voltex/physics.h"
#include "voltex/query.h"
#include "voltex/world.h"

#define SPECULATIVE 0.02f
#define H (1.0f / 60.0f)

static vx_entity spawn_floor(vx_registry *w)
{
    vx_collider shape = vx_collider_box(vx_vec3_make(20.0f, 1.0f, 20.0f));
    vx_rigidbody rb = vx_rigidbody_static();
    return vx_test_spawn_body(w, vx_vec3_make(0.0f, -1.0f, 0.0f), &shape, &rb);
}

/* A random body above the floor: sphere, box or capsule, turned, moving. */
static vx_entity spawn_random(vx_registry *w, vx_test_rng *rng)
{
    vx_collider c;
    uint32_t kind = vx_test_rng_next(rng) % 3u;
    if (kind == 0u)
        c = vx_collider_sphere(vx_test_rng_range(rng, 0.2f, 0.6f));
    else if (kind == 1u)
        c = vx_collider_box(vx_vec3_make(vx_test_rng_range(rng, 0.2f, 0.6f), vx_test_rng_range(rng, 0.2f, 0.6f),
                                         vx_test_rng_range(rng, 0.2f, 0.6f)));
    else
        c = vx_collider_capsule(vx_test_rng_range(rng, 0.15f, 0.4f), vx_test_rng_range(rng, 0.2f, 0.6f));
    vx_rigidbody rb = vx_rigidbody_dynamic(vx_test_rng_range(rng, 0.5f, 3.0f));
    rb.velocity = vx_vec3_make(vx_test_rng_range(rng, -2.0f, 2.0f), vx_test_rng_range(rng, -2.0f, 0.0f),
                               vx_test_rng_range(rng, -2.0f, 2.0f));
    rb.angular_velocity = vx_vec3_make(vx_test_rng_range(rng, -3.0f, 3.0f), vx_test_rng_range(rng, -3.0f, 3.0f),
                                       vx_test_rng_range(rng, -3.0f, 3.0f));
    vx_vec3 at = vx_vec3_make(vx_test_rng_range(rng, -3.0f, 3.0f), vx_test_rng_range(rng, 0.5f, 6.0f),
                              vx_test_rng_range(rng, -3.0f, 3.0f));
    vx_quat q = vx_quat_normalize(vx_quat_make(vx_test_rng_range(rng, -1.0f, 1.0f), vx_test_rng_range(rng, -1.0f, 1.0f),
                                               vx_test_rng_range(rng, -1.0f, 1.0f), 1.0f));
    return vx_test_spawn_rotated(w, at, q, &c, &rb);
}

#define PILE_MAX 80

/* A pile on a floor, with four static posts, a kinematic sweeper and a
 * sensor; the same seed gives the same world. Its entities go to ids (floor
 * first, then the posts), their number to *count. */
static vx_registry *make_pile(uint32_t seed, int bodies, vx_entity *ids, size_t *count)
{
    cr_assert_leq(bodies + 7, PILE_MAX);
    vx_registry *w = vx_test_physics_world();
    vx_test_rng rng = {seed};
    size_t n = 0;
    ids[n++] = spawn_floor(w);
    vx_collider post = vx_collider_box(vx_vec3_make(0.2f, 1.0f, 0.2f));
    vx_rigidbody fixed = vx_rigidbody_static();
    for (int i = 0; i < 4; i++)
        ids[n++] = vx_test_spawn_body(w, vx_vec3_make(i < 2 ? -2.0f : 2.0f, 1.0f, (i % 2) ? -2.0f : 2.0f), &post, &fixed);
    for (int i = 0; i < bodies; i++) ids[n++] = spawn_random(w, &rng);
    vx_collider blade = vx_collider_box(vx_vec3_make(0.2f, 0.5f, 3.0f));
    vx_rigidbody sweeper = vx_rigidbody_kinematic();
    sweeper.velocity = vx_vec3_make(1.0f, 0.0f, 0.0f);
    ids[n++] = vx_test_spawn_body(w, vx_vec3_make(-5.0f, 0.5f, 0.0f), &blade, &sweeper);
    vx_collider zone = vx_collider_sphere(1.0f);
    zone.sensor = true;
    ids[n++] = vx_test_spawn_body(w, vx_vec3_make(0.0f, 1.0f, 0.0f), &zone, NULL);
    *count = n;
    return w;
}

/* Brute force: every pair of collider bodies, not both static, whose bounds
 * (as the broad phase is given them) overlap, in slot order. */
static size_t brute_force_pairs(const vx_body_set *b, vx_broadphase_pair *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < b->count; i++) {
        if (!b->info[i].has_collider) continue;
        vx_aabb bi = vx_narrow_phase_bounds(b, i, SPECULATIVE, H);
        for (size_t j = i + 1; j < b->count; j++) {
            if (!b->info[j].has_collider) continue;
            if (b->info[i].motion == VX_MOTION_STATIC && b->info[j].motion == VX_MOTION_STATIC) continue;
            if (!vx_aabb_intersects(bi, vx_narrow_phase_bounds(b, j, SPECULATIVE, H))) continue;
            cr_assert_lt(n, max);
            out[n].a = (uint32_t)i;
            out[n].b = (uint32_t)j;
            n++;
        }
    }
    return n;
}

Test(bvh_step_broadphase, pairs_match_brute_force_while_bodies_move_come_and_go)
{
    vx_entity ids[PILE_MAX];
    size_t id_count = 0;
    vx_registry *w = make_pile(0x5eed1u, 40, ids, &id_count);
    vx_test_rng rng = {0xc0ffeeu};
    vx_test_stepper s;
    vx_test_stepper_init(&s);
    vx_body_set bodies;
    vx_body_set_init(&bodies);
    vx_body_broadphase kinds[2];
    const vx_broadphase_kind kind_of[2] = {VX_BROADPHASE_DYNAMIC_TREE, VX_BROADPHASE_BVH};
    for (int k = 0; k < 2; k++) vx_body_broadphase_init(&kinds[k]);
    size_t max = 4096;
    vx_broadphase_pair *expected = malloc(max * sizeof *expected);
    cr_assert_not_null(expected);
    vx_entity spawned[16];
    int spawned_count = 0;
    size_t most_pairs = 0;

    for (int step = 0; step < 150; step++) {
        /* Entities come and go between steps: a new body every 10 steps, an
         * older one removed every 15, a static post moved once. */
        if (step % 10 == 5 && spawned_count < 16) spawned[spawned_count++] = spawn_random(w, &rng);
        if (step % 15 == 7 && spawned_count > 0) cr_assert(vx_registry_despawn(w, spawned[--spawned_count]));
        if (step == 60) vx_test_transform(w, ids[1])->position.x += 0.5f; /* a post */
        cr_assert_eq(vx_body_set_gather(&bodies, w, vx_vec3_make(0.0f, -9.81f, 0.0f), NULL), VX_OK);
        size_t n = brute_force_pairs(&bodies, expected, max);
        most_pairs = n > most_pairs ? n : most_pairs;
        for (int k = 0; k < 2; k++) {
            bool moved = false;
            cr_assert_eq(vx_body_broadphase_sync(&kinds[k], &bodies, kind_of[k], SPECULATIVE, H, &moved), VX_OK);
            cr_assert_eq(moved, step == 60, "step %d: a static moved: %d", step, moved);
            cr_assert_eq(vx_body_broadphase_find_pairs(&kinds[k], &bodies, SPECULATIVE, H), VX_OK);
            const vx_broadphase_pair_list *got = &kinds[k].pairs;
            cr_assert_eq(got->count, n, "step %d kind %d: %zu pairs, brute force %zu", step, k, got->count, n);
            for (size_t i = 0; i < n; i++)
                cr_assert(got->items[i].a == expected[i].a && got->items[i].b == expected[i].b,
                          "step %d kind %d pair %zu: (%u, %u) vs (%u, %u)", step, k, i, got->items[i].a,
                          got->items[i].b, expected[i].a, expected[i].b);
            cr_assert_eq(vx_broadphase_count(&kinds[k].broadphase), bodies.count, "one proxy per collider body");
        }
        vx_test_step(w, &s);
    }
    cr_assert_gt(most_pairs, 40, "a scene with contacts (%zu pairs at most)", most_pairs);
    free(expected);
    for (int k = 0; k < 2; k++) vx_body_broadphase_free(&kinds[k]);
    vx_body_set_free(&bodies);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

Test(bvh_step_broadphase, statics_are_added_once_and_never_requeried)
{
    vx_registry *w = vx_test_physics_world();
    vx_collider tile = vx_collider_box(vx_vec3_make(0.5f, 0.5f, 0.5f));
    vx_rigidbody fixed = vx_rigidbody_static();
    for (int i = 0; i < 10; i++) /* 100 touching static tiles: 342 static-static overlaps never made */
        for (int j = 0; j < 10; j++) vx_test_spawn_body(w, vx_vec3_make((float)i, -0.5f, (float)j), &tile, &fixed);
    vx_collider ball = vx_collider_sphere(0.5f);
    vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
    vx_test_spawn_body(w, vx_vec3_make(4.5f, 3.0f, 4.5f), &ball, &rb);
    vx_test_stepper s;
    vx_test_stepper_init(&s);
    vx_body_set bodies;
    vx_body_set_init(&bodies);
    vx_body_broadphase bb;
    vx_body_broadphase_init(&bb);
    size_t requeried = 0;
    for (int step = 0; step < 120; step++) {
        cr_assert_eq(vx_body_set_gather(&bodies, w, vx_vec3_make(0.0f, -9.81f, 0.0f), NULL), VX_OK);
        bool moved = false;
        cr_assert_eq(vx_body_broadphase_sync(&bb, &bodies, VX_BROADPHASE_DYNAMIC_TREE, SPECULATIVE, H, &moved), VX_OK);
        cr_assert_eq(vx_body_broadphase_find_pairs(&bb, &bodies, SPECULATIVE, H), VX_OK);
        vx_broadphase_stats st = vx_broadphase_get_stats(&bb.broadphase);
        cr_assert_eq(st.statics, 100);
        if (step == 0) {
            cr_assert_eq(st.requeried, 101, "everything is new");
        } else {
            cr_assert_leq(st.requeried, 1, "step %d: %zu requeried (only the ball may be)", step, st.requeried);
            requeried += st.requeried;
        }
        for (size_t i = 0; i < bb.pairs.count; i++)
            cr_assert_eq(bb.pairs.items[i].b, 100, "every pair has the ball (slot 100)");
        cr_assert_leq(bb.pairs.count, 4);
        vx_test_step(w, &s);
    }
    /* The ball fell 2 m onto the tiles and came to rest: reinserted a few
     * times on the way, then never again. */
    cr_assert(requeried >= 2 && requeried <= 30, "ball requeried %zu times", requeried);
    cr_assert_gt(bb.pairs.count, 0);
    vx_body_broadphase_free(&bb);
    vx_body_set_free(&bodies);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

/* Whole runs with either kind: the same bits in every body and every report,
 * step after step, with sleeping off and on. */
static void check_kinds_agree(bool sleeping)
{
    vx_registry *worlds[2];
    vx_test_stepper steppers[2];
    const vx_broadphase_kind kind_of[2] = {VX_BROADPHASE_DYNAMIC_TREE, VX_BROADPHASE_BVH};
    vx_entity ids[2][PILE_MAX];
    size_t entities = 0;
    for (int k = 0; k < 2; k++) {
        worlds[k] = make_pile(0xabcdu, 60, ids[k], &entities);
        vx_test_stepper_init(&steppers[k]);
        steppers[k].cfg.broadphase = kind_of[k];
        steppers[k].cfg.sleeping = sleeping;
    }
    size_t contacts = 0, asleep_most = 0;
    for (int step = 0; step < 240; step++) {
        for (int k = 0; k < 2; k++) vx_test_step(worlds[k], &steppers[k]);
        cr_assert_eq(steppers[0].report.count, steppers[1].report.count, "step %d", step);
        cr_assert_eq(
            memcmp(steppers[0].report.items, steppers[1].report.items, steppers[0].report.count * sizeof(vx_contact)), 0,
            "step %d: reports differ", step);
        contacts += steppers[0].report.count;
        size_t asleep = vx_step_counts_last(&steppers[0].state).asleep;
        asleep_most = asleep > asleep_most ? asleep : asleep_most;
        for (size_t i = 0; i < entities; i++) {
            cr_assert_eq(memcmp(vx_test_transform(worlds[0], ids[0][i]), vx_test_transform(worlds[1], ids[1][i]),
                                sizeof(vx_transform)),
                         0, "step %d entity %zu", step, i);
            const vx_rigidbody *b0 = vx_registry_get(worlds[0], ids[0][i], VX_COMPONENT_RIGIDBODY);
            const vx_rigidbody *b1 = vx_registry_get(worlds[1], ids[1][i], VX_COMPONENT_RIGIDBODY);
            if (!b0) continue;
            cr_assert_eq(memcmp(&b0->velocity, &b1->velocity, sizeof b0->velocity), 0, "step %d entity %zu", step, i);
            cr_assert_eq(memcmp(&b0->angular_velocity, &b1->angular_velocity, sizeof b0->angular_velocity), 0,
                         "step %d entity %zu", step, i);
        }
    }
    cr_assert_gt(contacts, 1000);
    if (sleeping) cr_assert_gt(asleep_most, 0, "islands fell asleep on the way");
    for (int k = 0; k < 2; k++) {
        vx_test_stepper_free(&steppers[k]);
        vx_registry_destroy(worlds[k]);
    }
}

Test(bvh_step_broadphase, tree_and_bvh_runs_are_bit_identical) { check_kinds_agree(false); }

Test(bvh_step_broadphase, tree_and_bvh_runs_are_bit_identical_with_sleeping) { check_kinds_agree(true); }

/* ---- the collision filter (category / mask) ---- */

/* A floor, and three balls dropped side by side onto it: one with the
 * default filter, one in a category the floor's mask leaves out, one whose
 * own mask leaves out the floor's category. Only the first lands: a pair
 * collides when each one's category is in the other's mask. The others
 * fall freely through, and a ray still finds them (queries see every
 * collider). */
Test(body_broadphase, the_collision_filter_needs_both_ways)
{
    vx_world_def def = vx_world_def_default();
    vx_world *w = vx_world_create(&def, NULL);
    cr_assert_not_null(w);
    vx_body_def floor_def = vx_body_def_default();
    floor_def.type = VX_BODY_STATIC;
    floor_def.position = vx_vec3_make(0.0f, -1.0f, 0.0f);
    vx_collider floor_shape = vx_collider_box(vx_vec3_make(10.0f, 1.0f, 10.0f));
    floor_shape.mask = ~2u; /* everything but category 2 */
    vx_entity floor, balls[3];
    cr_assert_eq(vx_world_create_body(w, &floor_def, &floor, NULL), VX_OK);
    cr_assert_eq(vx_body_set_shape(w, floor, &floor_shape, NULL), VX_OK);
    for (int i = 0; i < 3; i++) {
        vx_body_def d = vx_body_def_default();
        d.position = vx_vec3_make(3.0f * (float)i, 2.0f, 0.0f);
        vx_collider ball = vx_collider_sphere(0.5f);
        if (i == 1) ball.category = 2u;
        if (i == 2) ball.mask = ~VX_DEFAULT_CATEGORY;
        cr_assert_eq(vx_world_create_body(w, &d, &balls[i], NULL), VX_OK);
        cr_assert_eq(vx_body_set_shape(w, balls[i], &ball, NULL), VX_OK);
    }
    const int steps = 90;
    for (int k = 0; k < steps; k++) {
        cr_assert_eq(vx_world_step(w, NULL), VX_OK);
        for (size_t c = 0; c < vx_world_contacts(w)->count; c++) {
            const vx_contact *contact = &vx_world_contacts(w)->items[c];
            cr_assert(vx_entity_equal(contact->entity_a, balls[0]) || vx_entity_equal(contact->entity_b, balls[0]),
                      "only the first ball touches the floor");
        }
    }
    vx_body_state s[3];
    for (int i = 0; i < 3; i++) cr_assert_eq(vx_body_get_state(w, balls[i], &s[i], NULL), VX_OK);
    cr_assert_float_eq(s[0].p.y, 0.5f, 0.01f, "the first rests on the floor");
    /* free fall for the others: y = 2 - g dt^2 n (n + 1) / 2 */
    double dt = def.fixed_dt, g = 9.81;
    double fall = 2.0 - g * dt * dt * steps * (steps + 1) / 2.0;
    cr_assert_float_eq(s[1].p.y, fall, 1e-3, "category 2 falls through: %g", (double)s[1].p.y);
    cr_assert_float_eq(s[2].p.y, fall, 1e-3, "so does the ball whose mask leaves out the floor");
    /* a ray straight down onto the third ball finds it, filter or not */
    vx_query_hit hit;
    vx_vec3 above = vx_vec3_add(s[2].p, vx_vec3_make(0.0f, 5.0f, 0.0f));
    cr_assert_eq(vx_world_cast_ray_closest(w, above, vx_vec3_make(0.0f, -1.0f, 0.0f), 10.0f, NULL, &hit, NULL), VX_OK);
    cr_assert(vx_entity_equal(hit.entity, balls[2]));
    vx_world_destroy(w);
}
