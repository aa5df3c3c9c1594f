/* The broad-phase interface (src/physics/broadphase.c) over both kinds: the
 * median-split BVH rebuilt each call and the incremental dynamic tree. The
 * pairs of each are compared with brute force over the same boxes, with the
 * same filter (no static-static pair), on hand-made and random moving
 * scenes; with the tight filter both kinds must report the same pairs. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "physics/collision/broadphase.h"
#include "test_helpers.h"
#include "test_pair_helpers.h"

/* The three set-ups every scene runs on. */
enum { SETUP_BVH, SETUP_TREE, SETUP_TREE_TIGHT, SETUP_COUNT };
static const char *const setup_names[SETUP_COUNT] = {"bvh", "dynamic tree", "dynamic tree + tight filter"};

static void init_setup(vx_broadphase *bp, int setup)
{
    vx_broadphase_config c = vx_broadphase_config_default();
    c.tight_filter = setup == SETUP_TREE_TIGHT;
    vx_broadphase_init(bp, setup == SETUP_BVH ? VX_BROADPHASE_BVH : VX_BROADPHASE_DYNAMIC_TREE, &c);
}

static vx_aabb box(float x0, float y0, float z0, float x1, float y1, float z1)
{
    return vx_aabb_new(vx_vec3_make(x0, y0, z0), vx_vec3_make(x1, y1, z1));
}

/* Every pair of present ids below id_limit, not both static, whose boxes
 * (fat or tight) intersect: the O(n^2) way, in (a, b) order by construction. */
static void brute_force(const vx_broadphase *bp, uint32_t id_limit, bool fat, vx_broadphase_pair_list *out)
{
    uint32_t *ids = malloc(id_limit * sizeof *ids);
    vx_aabb *boxes = malloc(id_limit * sizeof *boxes);
    bool *statics = malloc(id_limit * sizeof *statics);
    cr_assert(ids && boxes && statics);
    uint32_t n = 0;
    for (uint32_t id = 0; id < id_limit; id++) {
        if (!(fat ? vx_broadphase_fat_aabb(bp, id, &boxes[n]) : vx_broadphase_tight_aabb(bp, id, &boxes[n])))
            continue;
        statics[n] = vx_broadphase_is_static(bp, id);
        ids[n++] = id;
    }
    out->count = 0;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++)
            if (!(statics[i] && statics[j]) && vx_aabb_intersects(boxes[i], boxes[j])) vx_test_push_pair(out, ids[i], ids[j]);
    free(ids);
    free(boxes);
    free(statics);
}

static void assert_same_pairs(const vx_broadphase_pair_list *got, const vx_broadphase_pair_list *expected,
                              const char *what, int step)
{
    cr_assert_eq(got->count, expected->count, "%s, step %d: %zu pairs, expected %zu", what, step, got->count,
                 expected->count);
    for (size_t i = 0; i < got->count; i++) {
        cr_assert(got->items[i].a == expected->items[i].a && got->items[i].b == expected->items[i].b,
                  "%s, step %d, pair %zu: (%u,%u), expected (%u,%u)", what, step, i, got->items[i].a,
                  got->items[i].b, expected->items[i].a, expected->items[i].b);
    }
}

/* What each set-up must report: all fat pairs, or the tight ones. */
static void assert_matches_brute_force(const vx_broadphase *bp, int setup, uint32_t id_limit,
                                       const vx_broadphase_pair_list *got, int step)
{
    vx_broadphase_pair_list expected;
    vx_broadphase_pair_list_init(&expected);
    brute_force(bp, id_limit, setup != SETUP_TREE_TIGHT, &expected);
    assert_same_pairs(got, &expected, setup_names[setup], step);
    vx_broadphase_pair_list_free(&expected);
}

static void assert_pairs(const vx_broadphase_pair_list *got, const uint32_t (*expected)[2], size_t n,
                         const char *what)
{
    cr_assert_eq(got->count, n, "%s: %zu pairs, expected %zu", what, got->count, n);
    for (size_t i = 0; i < n; i++)
        cr_assert(got->items[i].a == expected[i][0] && got->items[i].b == expected[i][1],
                  "%s pair %zu: (%u,%u), expected (%u,%u)", what, i, got->items[i].a, got->items[i].b,
                  expected[i][0], expected[i][1]);
}

Test(broadphase, an_empty_broad_phase_reports_no_pairs)
{
    for (int setup = 0; setup < SETUP_COUNT; setup++) {
        vx_broadphase bp;
        vx_broadphase_pair_list pairs;
        init_setup(&bp, setup);
        vx_broadphase_pair_list_init(&pairs);
        vx_test_push_pair(&pairs, 1, 2); /* stale content is cleared */
        cr_assert_eq(vx_broadphase_find_pairs(&bp, &pairs), VX_OK);
        cr_assert_eq(pairs.count, 0u, "%s", setup_names[setup]);
        cr_assert_eq(vx_broadphase_count(&bp), 0u);
        vx_broadphase_free(&bp);
        vx_broadphase_pair_list_free(&pairs);
    }
}

Test(broadphase, a_single_box_reports_no_pairs)
{
    for (int setup = 0; setup < SETUP_COUNT; setup++) {
        vx_broadphase bp;
        vx_broadphase_pair_list pairs;
        init_setup(&bp, setup);
        vx_broadphase_pair_list_init(&pairs);
        cr_assert_eq(vx_broadphase_add(&bp, 3, box(0, 0, 0, 1, 1, 1), false), VX_OK);
        cr_assert_eq(vx_broadphase_find_pairs(&bp, &pairs), VX_OK);
        cr_assert_eq(pairs.count, 0u, "%s", setup_names[setup]);
        cr_assert_eq(vx_broadphase_update(&bp, 3, box(0.5f, 0, 0, 1.5f, 1, 1), vx_vec3_make(0.5f, 0, 0)), VX_OK);
        cr_assert_eq(vx_broadphase_find_pairs(&bp, &pairs), VX_OK);
        cr_assert_eq(pairs.count, 0u, "%s", setup_names[setup]);
        vx_broadphase_free(&bp);
        vx_broadphase_pair_list_free(&pairs);
    }
}

Test(broadphase, static_boxes_never_pair_with_each_other)
{
    for (int setup = 0; setup < SETUP_COUNT; setup++) {
        vx_broadphase bp;
        vx_broadphase_pair_list pairs;
        init_setup(&bp, setup);
        vx_broadphase_pair_list_init(&pairs);
        /* 20 statics all on top of each other. */
        for (uint32_t i = 0; i < 20; i++)
            cr_assert_eq(vx_broadphase_add(&bp, 2 * i, box(0, 0, 0, 2, 2, 2), true), VX_OK);
        cr_assert_eq(vx_broadphase_find_pairs(&bp, &pairs), VX_OK);
        cr_assert_eq(pairs.count, 0u, "%s", setup_names[setup]);
        /* One dynamic box among them pairs with each. */
        cr_assert_eq(vx_broadphase_add(&bp, 99, box(1, 1, 1, 3, 3, 3), false), VX_OK);
        cr_assert_eq(vx_broadphase_find_pairs(&bp, &pairs), VX_OK);
        cr_assert_eq(pairs.count, 20u, "%s", setup_names[setup]);
        for (uint32_t i = 0; i < 20; i++) cr_assert(pairs.items[i].a == 2 * i && pairs.items[i].b == 99);
        vx_broadphase_stats s = vx_broadphase_get_stats(&bp);
        cr_assert_eq(s.proxies, 21u);
        cr_assert_eq(s.statics, 20u);
        vx_broadphase_free(&bp);
        vx_broadphase_pair_list_free(&pairs);
    }
}

Test(broadphase, boxes_all_overlapping_give_every_pair_once_in_order)
{
    for (int setup = 0; setup < SETUP_COUNT; setup++) {
        vx_broadphase bp;
        vx_broadphase_pair_list pairs;
        init_setup(&bp, setup);
        vx_broadphase_pair_list_init(&pairs);
        /* 50 boxes around one point, ids 7i mod 53 (distinct, not in order). */
        for (uint32_t i = 0; i < 50; i++) {
            float o = (float)i * 0.01f;
            cr_assert_eq(vx_broadphase_add(&bp, (7u * i) % 53u, box(o, o, o, 1 + o, 1 + o, 1 + o), false), VX_OK);
        }
        cr_assert_eq(vx_broadphase_find_pairs(&bp, &pairs), VX_OK);
        cr_assert_eq(pairs.count, 50u * 49u / 2u, "%s", setup_names[setup]);
        for (size_t i = 0; i < pairs.count; i++) {
            cr_assert_lt(pairs.items[i].a, pairs.items[i].b);
            if (i > 0)
                cr_assert(pairs.items[i - 1].a < pairs.items[i].a ||
                          (pairs.items[i - 1].a == pairs.items[i].a && pairs.items[i - 1].b < pairs.items[i].b));
        }
        assert_matches_brute_force(&bp, setup, 53, &pairs, 0);
        vx_broadphase_free(&bp);
        vx_broadphase_pair_list_free(&pairs);
    }
}

Test(broadphase, a_small_scene_gives_exactly_the_touching_pairs)
{
    for (int setup = 0; setup < SETUP_COUNT; setup++) {
        vx_broadphase bp;
        vx_broadphase_pair_list pairs;
        init_setup(&bp, setup);
        vx_broadphase_pair_list_init(&pairs);
        cr_assert_eq(vx_broadphase_add(&bp, 0, box(-10, -1, -10, 10, 0, 10), true), VX_OK); /* ground */
        cr_assert_eq(vx_broadphase_add(&bp, 1, box(10, -1, -10, 11, 5, 10), true), VX_OK);  /* wall, touching it */
        cr_assert_eq(vx_broadphase_add(&bp, 4, box(0, 0, 0, 1, 1, 1), false), VX_OK);      /* on the ground */
        cr_assert_eq(vx_broadphase_add(&bp, 6, box(0.5f, 1, 0, 1.5f, 2, 1), false), VX_OK); /* on box 4 */
        cr_assert_eq(vx_broadphase_add(&bp, 9, box(9.5f, 0, 0, 10, 1, 1), false), VX_OK);  /* ground and wall */
        cr_assert_eq(vx_broadphase_add(&bp, 3, box(50, 50, 50, 51, 51, 51), false), VX_OK); /* alone */
        cr_assert_eq(vx_broadphase_find_pairs(&bp, &pairs), VX_OK);
        static const uint32_t first[][2] = {{0, 4}, {0, 9}, {1, 9}, {4, 6}};
        assert_pairs(&pairs, first, 4, setup_names[setup]);

        /* Box 6 flies off: 4-6 goes. */
        cr_assert_eq(vx_broadphase_update(&bp, 6, box(20.5f, 11, 0, 21.5f, 12, 1), vx_vec3_make(1, 0.5f, 0)), VX_OK);
        cr_assert_eq(vx_broadphase_find_pairs(&bp, &pairs), VX_OK);
        static const uint32_t second[][2] = {{0, 4}, {0, 9}, {1, 9}};
        assert_pairs(&pairs, second, 3, setup_names[setup]);

        /* The ground goes, then comes back as a dynamic body: it now pairs
         * with the wall it touches. */
        cr_assert_eq(vx_broadphase_remove(&bp, 0), VX_OK);
        cr_assert_eq(vx_broadphase_find_pairs(&bp, &pairs), VX_OK);
        static const uint32_t third[][2] = {{1, 9}};
        assert_pairs(&pairs, third, 1, setup_names[setup]);
        cr_assert_eq(vx_broadphase_add(&bp, 0, box(-10, -1, -10, 10, 0, 10), false), VX_OK);
        cr_assert_eq(vx_broadphase_find_pairs(&bp, &pairs), VX_OK);
        static const uint32_t fourth[][2] = {{0, 1}, {0, 4}, {0, 9}, {1, 9}};
        assert_pairs(&pairs, fourth, 4, setup_names[setup]);
        vx_broadphase_free(&bp);
        vx_broadphase_pair_list_free(&pairs);
    }
}

Test(broadphase, removing_and_adding_an_id_before_find_pairs_uses_the_new_box)
{
    for (int setup = 0; setup < SETUP_COUNT; setup++) {
        vx_broadphase bp;
        vx_broadphase_pair_list pairs;
        init_setup(&bp, setup);
        vx_broadphase_pair_list_init(&pairs);
        cr_assert_eq(vx_broadphase_add(&bp, 0, box(0, 0, 0, 1, 1, 1), false), VX_OK);
        cr_assert_eq(vx_broadphase_add(&bp, 1, box(0.5f, 0, 0, 1.5f, 1, 1), false), VX_OK);
        cr_assert_eq(vx_broadphase_add(&bp, 2, box(5, 0, 0, 6, 1, 1), true), VX_OK);
        cr_assert_eq(vx_broadphase_find_pairs(&bp, &pairs), VX_OK);
        static const uint32_t before[][2] = {{0, 1}};
        assert_pairs(&pairs, before, 1, setup_names[setup]);
        cr_assert_eq(vx_broadphase_remove(&bp, 1), VX_OK);
        cr_assert_not(vx_broadphase_contains(&bp, 1));
        cr_assert_eq(vx_broadphase_add(&bp, 1, box(5.5f, 0, 0, 6.5f, 1, 1), false), VX_OK);
        cr_assert_eq(vx_broadphase_find_pairs(&bp, &pairs), VX_OK);
        static const uint32_t after[][2] = {{1, 2}};
        assert_pairs(&pairs, after, 1, setup_names[setup]);
        vx_broadphase_free(&bp);
        vx_broadphase_pair_list_free(&pairs);
    }
}

Test(broadphase, a_moved_static_box_is_paired_again)
{
    for (int setup = 0; setup < SETUP_COUNT; setup++) {
        vx_broadphase bp;
        vx_broadphase_pair_list pairs;
        init_setup(&bp, setup);
        vx_broadphase_pair_list_init(&pairs);
        cr_assert_eq(vx_broadphase_add(&bp, 0, box(0, 0, 0, 1, 1, 1), true), VX_OK);
        cr_assert_eq(vx_broadphase_add(&bp, 1, box(3, 0, 0, 4, 1, 1), false), VX_OK);
        cr_assert_eq(vx_broadphase_add(&bp, 2, box(3, 0, 0, 4, 1, 1), true), VX_OK);
        cr_assert_eq(vx_broadphase_find_pairs(&bp, &pairs), VX_OK);
        static const uint32_t before[][2] = {{1, 2}};
        assert_pairs(&pairs, before, 1, setup_names[setup]);
        /* The static 0 is moved onto 1 and 2: it pairs with 1 only. */
        cr_assert_eq(vx_broadphase_update(&bp, 0, box(2.5f, 0, 0, 3.5f, 1, 1), vx_vec3_zero()), VX_OK);
        cr_assert_eq(vx_broadphase_find_pairs(&bp, &pairs), VX_OK);
        static const uint32_t after[][2] = {{0, 1}, {1, 2}};
        assert_pairs(&pairs, after, 2, setup_names[setup]);
        vx_aabb fat;
        cr_assert(vx_broadphase_fat_aabb(&bp, 0, &fat));
        cr_assert(fat.min.x == 2.5f && fat.max.x == 3.5f, "static boxes are used exactly");
        vx_broadphase_free(&bp);
        vx_broadphase_pair_list_free(&pairs);
    }
}

Test(broadphase, bodies_resting_inside_their_fat_boxes_are_not_queried_again)
{
    vx_broadphase bp;
    vx_broadphase_pair_list pairs, first;
    vx_broadphase_init(&bp, VX_BROADPHASE_DYNAMIC_TREE, NULL);
    vx_broadphase_pair_list_init(&pairs);
    vx_broadphase_pair_list_init(&first);
    cr_assert_eq(vx_broadphase_add(&bp, 0, box(-10, -1, -10, 10, 0, 10), true), VX_OK);
    for (uint32_t i = 1; i <= 10; i++) {
        float y = (float)(i - 1);
        cr_assert_eq(vx_broadphase_add(&bp, i, box(0, y, 0, 1, y + 1, 1), false), VX_OK);
    }
    cr_assert_eq(vx_broadphase_find_pairs(&bp, &first), VX_OK);
    cr_assert_eq(vx_broadphase_get_stats(&bp).requeried, 11u);
    /* A stack of 10: ground-1 and each box with the one above. */
    cr_assert_eq(first.count, 10u);

    /* Every box jiggles by 2 cm: within the 0.1 m margin, nothing to redo. */
    for (int step = 0; step < 5; step++) {
        for (uint32_t i = 1; i <= 10; i++) {
            float y = (float)(i - 1), dx = step % 2 ? 0.02f : -0.02f;
            cr_assert_eq(vx_broadphase_update(&bp, i, box(dx, y, 0, 1 + dx, y + 1, 1), vx_vec3_make(dx, 0, 0)),
                         VX_OK);
        }
        cr_assert_eq(vx_broadphase_find_pairs(&bp, &pairs), VX_OK);
        cr_assert_eq(vx_broadphase_get_stats(&bp).requeried, 0u);
        assert_same_pairs(&pairs, &first, "resting stack", step);
    }
    /* One box knocked 0.5 m sideways: only it is queried again. */
    cr_assert_eq(vx_broadphase_update(&bp, 10, box(0.5f, 9, 0, 1.5f, 10, 1), vx_vec3_zero()), VX_OK);
    cr_assert_eq(vx_broadphase_find_pairs(&bp, &pairs), VX_OK);
    cr_assert_eq(vx_broadphase_get_stats(&bp).requeried, 1u);
    assert_matches_brute_force(&bp, SETUP_TREE, 11, &pairs, 0);
    vx_broadphase_free(&bp);
    vx_broadphase_pair_list_free(&pairs);
    vx_broadphase_pair_list_free(&first);
}

Test(broadphase, fat_boxes_give_extra_pairs_that_the_tight_filter_drops)
{
    vx_broadphase bp;
    vx_broadphase_pair_list pairs;
    vx_broadphase_init(&bp, VX_BROADPHASE_DYNAMIC_TREE, NULL); /* margin 0.1 */
    vx_broadphase_pair_list_init(&pairs);
    /* 0.15 m apart: the fat boxes overlap, the boxes do not. */
    cr_assert_eq(vx_broadphase_add(&bp, 0, box(0, 0, 0, 1, 1, 1), false), VX_OK);
    cr_assert_eq(vx_broadphase_add(&bp, 1, box(1.15f, 0, 0, 2.15f, 1, 1), false), VX_OK);
    cr_assert_eq(vx_broadphase_find_pairs(&bp, &pairs), VX_OK);
    static const uint32_t fat[][2] = {{0, 1}};
    assert_pairs(&pairs, fat, 1, "fat");
    cr_assert_eq(vx_broadphase_filter_tight(&bp, &pairs), 1u);
    cr_assert_eq(pairs.count, 0u);
    vx_broadphase_free(&bp);

    vx_broadphase_config c = vx_broadphase_config_default();
    c.tight_filter = true;
    vx_broadphase_init(&bp, VX_BROADPHASE_DYNAMIC_TREE, &c);
    cr_assert_eq(vx_broadphase_add(&bp, 0, box(0, 0, 0, 1, 1, 1), false), VX_OK);
    cr_assert_eq(vx_broadphase_add(&bp, 1, box(1.15f, 0, 0, 2.15f, 1, 1), false), VX_OK);
    cr_assert_eq(vx_broadphase_find_pairs(&bp, &pairs), VX_OK);
    cr_assert_eq(pairs.count, 0u);
    cr_assert_eq(vx_broadphase_get_stats(&bp).fat_pairs, 1u);
    /* Both move 8 cm, inside their fat boxes (no reinsertion), to touch at
     * x = 1.08: reported. */
    cr_assert_eq(vx_broadphase_update(&bp, 0, box(0.08f, 0, 0, 1.08f, 1, 1), vx_vec3_zero()), VX_OK);
    cr_assert_eq(vx_broadphase_update(&bp, 1, box(1.08f, 0, 0, 2.08f, 1, 1), vx_vec3_zero()), VX_OK);
    cr_assert_eq(vx_broadphase_find_pairs(&bp, &pairs), VX_OK);
    cr_assert_eq(vx_broadphase_get_stats(&bp).requeried, 0u);
    assert_pairs(&pairs, fat, 1, "tight");
    vx_broadphase_free(&bp);
    vx_broadphase_pair_list_free(&pairs);
}

Test(broadphase, bad_calls_are_refused_and_change_nothing)
{
    for (int setup = 0; setup < SETUP_COUNT; setup++) {
        vx_broadphase bp;
        vx_broadphase_pair_list pairs;
        init_setup(&bp, setup);
        vx_broadphase_pair_list_init(&pairs);
        cr_assert_eq(vx_broadphase_add(&bp, 5, box(0, 0, 0, 1, 1, 1), false), VX_OK);
        cr_assert_eq(vx_broadphase_add(&bp, 5, box(0, 0, 0, 1, 1, 1), true), VX_ERR_INVALID);
        cr_assert_eq(vx_broadphase_add(&bp, UINT32_MAX, box(0, 0, 0, 1, 1, 1), false), VX_ERR_INVALID);
        cr_assert_eq(vx_broadphase_add(&bp, 6, box(1, 0, 0, 0, 1, 1), false), VX_ERR_INVALID);
        cr_assert_eq(vx_broadphase_add(&bp, 6, box(0, 0, 0, INFINITY, 1, 1), false), VX_ERR_NONFINITE);
        cr_assert_eq(vx_broadphase_add(&bp, 6, box(NAN, 0, 0, 1, 1, 1), false), VX_ERR_NONFINITE);
        cr_assert_eq(vx_broadphase_update(&bp, 7, box(0, 0, 0, 1, 1, 1), vx_vec3_zero()), VX_ERR_INVALID);
        cr_assert_eq(vx_broadphase_update(&bp, 5, box(0, 0, 0, 1, 1, 1), vx_vec3_make(NAN, 0, 0)), VX_ERR_NONFINITE);
        cr_assert_eq(vx_broadphase_remove(&bp, 7), VX_ERR_INVALID);
        cr_assert_eq(vx_broadphase_remove(&bp, 1000000), VX_ERR_INVALID);
        cr_assert_eq(vx_broadphase_count(&bp), 1u);
        cr_assert_not(vx_broadphase_contains(&bp, 6));
        cr_assert_not(vx_broadphase_is_static(&bp, 5));
        vx_aabb b;
        cr_assert(vx_broadphase_tight_aabb(&bp, 5, &b));
        cr_assert(b.min.x == 0 && b.max.x == 1);
        cr_assert_not(vx_broadphase_fat_aabb(&bp, 6, &b));
        cr_assert_eq(vx_broadphase_remove(&bp, 5), VX_OK);
        cr_assert_eq(vx_broadphase_remove(&bp, 5), VX_ERR_INVALID);
        cr_assert_eq(vx_broadphase_find_pairs(&bp, &pairs), VX_OK);
        cr_assert_eq(pairs.count, 0u);
        vx_broadphase_free(&bp);
        vx_broadphase_pair_list_free(&pairs);
    }
}

/* ---- random moving scenes ---- */

#define SCENE_IDS 400u

typedef struct {
    vx_test_rng rng;
    float side;      /* bodies stay in [0, side]^3 */
    bool alive[SCENE_IDS];
    bool is_static[SCENE_IDS];
    vx_vec3 center[SCENE_IDS];
    vx_vec3 half[SCENE_IDS];
    vx_vec3 velocity[SCENE_IDS];
} scene;

static vx_vec3 random_velocity(vx_test_rng *rng)
{
    /* A tenth of the bodies stop (their stretched fat boxes shrink). */
    if (vx_test_rng_next(rng) % 10u == 0u) return vx_vec3_zero();
    return vx_vec3_make(vx_test_rng_range(rng, -6, 6), vx_test_rng_range(rng, -6, 6), vx_test_rng_range(rng, -6, 6));
}

static vx_aabb body_box(const scene *s, uint32_t id)
{
    return vx_aabb_from_center_half_extents(s->center[id], s->half[id]);
}

static void spawn(scene *s, uint32_t id, vx_broadphase *bps, int nbp)
{
    vx_test_rng *r = &s->rng;
    s->alive[id] = true;
    s->is_static[id] = vx_test_rng_next(r) % 4u == 0u;
    s->center[id] = vx_vec3_make(vx_test_rng_range(r, 0, s->side), vx_test_rng_range(r, 0, s->side),
                                 vx_test_rng_range(r, 0, s->side));
    float h = vx_test_rng_range(r, 0.2f, 1.0f);
    s->half[id] = vx_vec3_make(h, vx_test_rng_range(r, 0.2f, 1.0f), h);
    if (s->is_static[id] && vx_test_rng_next(r) % 8u == 0u) s->half[id].x = 6.0f; /* a long slab */
    s->velocity[id] = s->is_static[id] ? vx_vec3_zero() : random_velocity(r);
    for (int k = 0; k < nbp; k++) cr_assert_eq(vx_broadphase_add(&bps[k], id, body_box(s, id), s->is_static[id]), VX_OK);
}

static void scene_init(scene *s, uint32_t seed, float side, uint32_t count, vx_broadphase *bps, int nbp)
{
    memset(s, 0, sizeof *s);
    s->rng.state = seed;
    s->side = side;
    for (uint32_t id = 0; id < count; id++) spawn(s, id, bps, nbp);
}

/* One 60 Hz step: dynamic bodies move (bouncing off the walls of the cube,
 * sometimes changing velocity) and are updated; every tenth step a few bodies
 * are removed and a few ids (maybe just freed) added. */
static void scene_step(scene *s, int step, vx_broadphase *bps, int nbp)
{
    const float dt = 1.0f / 60.0f;
    vx_test_rng *r = &s->rng;
    for (uint32_t id = 0; id < SCENE_IDS; id++) {
        if (!s->alive[id] || s->is_static[id]) continue;
        if (vx_test_rng_next(r) % 30u == 0u) s->velocity[id] = random_velocity(r);
        vx_vec3 c = vx_vec3_add(s->center[id], vx_vec3_scale(s->velocity[id], dt));
        for (int a = 0; a < 3; a++) {
            float v = vx_vec3_get(c, a);
            if (v < 0.0f || v > s->side) {
                vx_vec3_set(&s->velocity[id], a, -vx_vec3_get(s->velocity[id], a));
                vx_vec3_set(&c, a, v < 0.0f ? 0.0f : s->side);
            }
        }
        s->center[id] = c;
        vx_vec3 d = vx_vec3_scale(s->velocity[id], dt);
        for (int k = 0; k < nbp; k++) cr_assert_eq(vx_broadphase_update(&bps[k], id, body_box(s, id), d), VX_OK);
    }
    if (step % 10 != 9) return;
    for (int n = 0; n < 6; n++) {
        uint32_t id = vx_test_rng_next(r) % SCENE_IDS;
        if (!s->alive[id]) continue;
        s->alive[id] = false;
        for (int k = 0; k < nbp; k++) cr_assert_eq(vx_broadphase_remove(&bps[k], id), VX_OK);
    }
    for (int n = 0; n < 6; n++) {
        uint32_t id = vx_test_rng_next(r) % SCENE_IDS;
        if (!s->alive[id]) spawn(s, id, bps, nbp);
    }
}

static uint64_t hash_pairs(uint64_t h, const vx_broadphase_pair_list *l)
{
    for (size_t i = 0; i < l->count; i++) {
        h = (h ^ l->items[i].a) * 1099511628211ull;
        h = (h ^ l->items[i].b) * 1099511628211ull;
    }
    return (h ^ l->count) * 1099511628211ull;
}

Test(broadphase, random_moving_scenes_match_brute_force_every_step)
{
    static const uint32_t seeds[] = {1u, 2024u, 987654321u};
    for (size_t si = 0; si < sizeof seeds / sizeof seeds[0]; si++) {
        vx_broadphase bps[SETUP_COUNT];
        vx_broadphase_pair_list pairs[SETUP_COUNT];
        for (int k = 0; k < SETUP_COUNT; k++) {
            init_setup(&bps[k], k);
            vx_broadphase_pair_list_init(&pairs[k]);
        }
        scene s;
        scene_init(&s, seeds[si], 16.0f, 300, bps, SETUP_COUNT);
        size_t extra_fat_pairs = 0, requeried = 0, updated = 0, total_pairs = 0;
        for (int step = 0; step < 100; step++) {
            if (step > 0) scene_step(&s, step, bps, SETUP_COUNT);
            for (int k = 0; k < SETUP_COUNT; k++) {
                cr_assert_eq(vx_broadphase_find_pairs(&bps[k], &pairs[k]), VX_OK);
                assert_matches_brute_force(&bps[k], k, SCENE_IDS, &pairs[k], step);
            }
            /* Same boxes, same pairs: the BVH and the filtered tree agree. */
            assert_same_pairs(&pairs[SETUP_TREE_TIGHT], &pairs[SETUP_BVH], "bvh vs tight tree", step);
            extra_fat_pairs += pairs[SETUP_TREE].count - pairs[SETUP_BVH].count;
            total_pairs += pairs[SETUP_BVH].count;
            if (step > 0) {
                requeried += vx_broadphase_get_stats(&bps[SETUP_TREE]).requeried;
                updated += vx_broadphase_count(&bps[SETUP_TREE]) - vx_broadphase_get_stats(&bps[SETUP_TREE]).statics;
            }
        }
        /* The scenes really exercise what they claim: many pairs, fat boxes
         * making extra ones, and most moving bodies not reinserted each step. */
        cr_assert_gt(total_pairs, 100u * 100u);
        cr_assert_gt(extra_fat_pairs, 0u);
        cr_assert_lt(requeried, updated / 2u, "requeried %zu of %zu updates", requeried, updated);
        for (int k = 0; k < SETUP_COUNT; k++) {
            vx_broadphase_free(&bps[k]);
            vx_broadphase_pair_list_free(&pairs[k]);
        }
    }
}

/* Runs the seeded scene through one broad phase; returns a hash of every
 * step's pairs and leaves the broad phase for inspection. */
static uint64_t run_scene(vx_broadphase *bp, uint32_t seed)
{
    vx_broadphase_pair_list pairs;
    vx_broadphase_pair_list_init(&pairs);
    scene s;
    scene_init(&s, seed, 16.0f, 300, bp, 1);
    uint64_t h = 14695981039346656037ull;
    for (int step = 0; step < 100; step++) {
        if (step > 0) scene_step(&s, step, bp, 1);
        cr_assert_eq(vx_broadphase_find_pairs(bp, &pairs), VX_OK);
        h = hash_pairs(h, &pairs);
    }
    vx_broadphase_pair_list_free(&pairs);
    return h;
}

Test(broadphase, the_same_run_twice_gives_the_same_pairs_and_trees)
{
    for (int setup = 0; setup < SETUP_COUNT; setup++) {
        vx_broadphase a, b;
        init_setup(&a, setup);
        init_setup(&b, setup);
        uint64_t ha = run_scene(&a, 77u), hb = run_scene(&b, 77u);
        cr_assert_eq(ha, hb, "%s", setup_names[setup]);
        cr_assert_eq(a.moving.node_capacity, b.moving.node_capacity);
        cr_assert_eq(a.moving.root, b.moving.root);
        if (a.moving.node_capacity)
            cr_assert_eq(memcmp(a.moving.nodes, b.moving.nodes, a.moving.node_capacity * sizeof *a.moving.nodes), 0);
        if (a.fixed.node_capacity)
            cr_assert_eq(memcmp(a.fixed.nodes, b.fixed.nodes, a.fixed.node_capacity * sizeof *a.fixed.nodes), 0);
        vx_broadphase_free(&a);
        vx_broadphase_free(&b);
    }
    /* A different seed gives a different run (the hash is not trivial). */
    vx_broadphase a, b;
    init_setup(&a, SETUP_TREE);
    init_setup(&b, SETUP_TREE);
    cr_assert_neq(run_scene(&a, 77u), run_scene(&b, 78u));
    vx_broadphase_free(&a);
    vx_broadphase_free(&b);
}

Test(broadphase, four_thousand_moving_spheres_run_through_both_kinds)
{
    /* Scaling sanity check, no timing: 4096 sphere-sized boxes (r 0.5) on a
     * jittered 16^3 grid in a walled box, moving for 20 steps, then the last
     * step's pairs against brute force. */
    enum { N = 4096, STATICS = 5 };
    static vx_vec3 center[N], velocity[N];
    vx_test_rng rng = {4096u};
    for (uint32_t i = 0; i < N; i++) {
        center[i] = vx_vec3_make(-8.3f + 1.1f * (float)(i % 16u) + vx_test_rng_range(&rng, -0.05f, 0.05f),
                                 1.0f + 1.1f * (float)(i / 256u) + vx_test_rng_range(&rng, -0.05f, 0.05f),
                                 -8.3f + 1.1f * (float)((i / 16u) % 16u) + vx_test_rng_range(&rng, -0.05f, 0.05f));
        velocity[i] = vx_vec3_make(vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, -3, 0),
                                   vx_test_rng_range(&rng, -1, 1));
    }
    const vx_aabb walls[STATICS] = {box(-100, -2, -100, 100, 0, 100), box(10, 0, -11, 11, 10, 11),
                                    box(-11, 0, -11, -10, 10, 11), box(-10, 0, 10, 10, 10, 11),
                                    box(-10, 0, -11, 10, 10, -10)};
    const vx_vec3 r = vx_vec3_make(0.5f, 0.5f, 0.5f);
    for (int setup = 0; setup < SETUP_COUNT; setup++) {
        vx_broadphase bp;
        vx_broadphase_pair_list pairs;
        init_setup(&bp, setup);
        vx_broadphase_pair_list_init(&pairs);
        for (uint32_t i = 0; i < STATICS; i++) cr_assert_eq(vx_broadphase_add(&bp, i, walls[i], true), VX_OK);
        for (uint32_t i = 0; i < N; i++)
            cr_assert_eq(vx_broadphase_add(&bp, STATICS + i, vx_aabb_from_center_half_extents(center[i], r), false),
                         VX_OK);
        for (int step = 0; step < 20; step++) {
            for (uint32_t i = 0; i < N; i++) {
                vx_vec3 d = vx_vec3_scale(velocity[i], 1.0f / 60.0f);
                vx_vec3 c = vx_vec3_add(center[i], vx_vec3_scale(d, (float)step));
                if (c.y < 0.5f) c.y = 0.5f; /* resting on the floor */
                cr_assert_eq(vx_broadphase_update(&bp, STATICS + i, vx_aabb_from_center_half_extents(c, r), d), VX_OK);
            }
            cr_assert_eq(vx_broadphase_find_pairs(&bp, &pairs), VX_OK);
        }
        cr_assert_gt(pairs.count, (size_t)N);
        assert_matches_brute_force(&bp, setup, STATICS + N, &pairs, 19);
        vx_broadphase_free(&bp);
        vx_broadphase_pair_list_free(&pairs);
    }
}
