/* The incremental dynamic AABB tree (src/physics/dynamic_tree.c): fat boxes,
 * reinsertion only when a box leaves its fat box, balance, queries against
 * brute force, node reuse, determinism. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "physics/collision/dynamic_tree.h"
#include "test_helpers.h"

static vx_aabb box(float x0, float y0, float z0, float x1, float y1, float z1)
{
    return vx_aabb_new(vx_vec3_make(x0, y0, z0), vx_vec3_make(x1, y1, z1));
}

static bool box_contains(vx_aabb outer, vx_aabb inner)
{
    return outer.min.x <= inner.min.x && outer.min.y <= inner.min.y && outer.min.z <= inner.min.z &&
           inner.max.x <= outer.max.x && inner.max.y <= outer.max.y && inner.max.z <= outer.max.z;
}

static vx_aabb random_box(vx_test_rng *rng, float side)
{
    vx_vec3 c = vx_test_rng_vec3(rng, 0.0f, side);
    vx_vec3 h = vx_test_rng_vec3(rng, 0.1f, 1.2f);
    return vx_aabb_from_center_half_extents(c, h);
}

static vx_vec3 random_displacement(vx_test_rng *rng)
{
    return vx_test_rng_vec3(rng, -0.2f, 0.2f);
}

/* Query results: user ids, sorted afterwards. */
typedef struct {
    uint32_t ids[4096];
    size_t count;
    size_t stop_after; /* 0: never stop */
} hits;

static bool record_hit(void *context, uint32_t proxy, uint32_t user_id)
{
    (void)proxy;
    hits *h = context;
    cr_assert_lt(h->count, sizeof h->ids / sizeof h->ids[0]);
    h->ids[h->count++] = user_id;
    return h->stop_after == 0 || h->count < h->stop_after;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void query_sorted(vx_dynamic_tree *tree, vx_aabb q, hits *h)
{
    h->count = 0;
    h->stop_after = 0;
    cr_assert_eq(vx_dynamic_tree_query(tree, q, record_hit, h), VX_OK);
    qsort(h->ids, h->count, sizeof h->ids[0], compare_u32);
}

/* The live proxies of a test: proxy index per user id (user id = slot). */
#define MAX_PROXIES 512
typedef struct {
    uint32_t proxy[MAX_PROXIES];
    bool alive[MAX_PROXIES];
} proxy_table;

static void assert_query_matches_brute_force(vx_dynamic_tree *tree, const proxy_table *t, vx_aabb q)
{
    hits h;
    query_sorted(tree, q, &h);
    size_t k = 0;
    for (uint32_t id = 0; id < MAX_PROXIES; id++) {
        if (!t->alive[id]) continue;
        if (!vx_aabb_intersects(vx_dynamic_tree_fat_aabb(tree, t->proxy[id]), q)) continue;
        cr_assert_lt(k, h.count, "query missed user id %u", id);
        cr_assert_eq(h.ids[k], id, "query found %u where brute force finds %u", h.ids[k], id);
        k++;
    }
    cr_assert_eq(k, h.count, "query found %zu proxies, brute force %zu", h.count, k);
}

/* A fixed mix of creates, moves and destroys driven by seed. */
static void random_operations(vx_dynamic_tree *tree, proxy_table *t, uint32_t seed, int count, bool validate_each)
{
    vx_test_rng rng = {seed};
    vx_aabb tight[MAX_PROXIES];
    for (int op = 0; op < count; op++) {
        uint32_t id = vx_test_rng_next(&rng) % 300u;
        uint32_t what = vx_test_rng_next(&rng) % 10u;
        if (!t->alive[id]) {
            tight[id] = random_box(&rng, 30.0f);
            cr_assert_eq(vx_dynamic_tree_create_proxy(tree, tight[id], random_displacement(&rng), id, &t->proxy[id]),
                         VX_OK);
            t->alive[id] = true;
        } else if (what == 0) {
            vx_dynamic_tree_destroy_proxy(tree, t->proxy[id]);
            t->alive[id] = false;
        } else {
            vx_vec3 d = random_displacement(&rng);
            tight[id].min = vx_vec3_add(tight[id].min, d);
            tight[id].max = vx_vec3_add(tight[id].max, d);
            vx_dynamic_tree_move_proxy(tree, t->proxy[id], tight[id], d);
            /* Whatever happened, the fat box holds the tight box. */
            vx_aabb fat = vx_dynamic_tree_fat_aabb(tree, t->proxy[id]);
            cr_assert(box_contains(fat, tight[id]), "fat box of %u does not hold its tight box", id);
        }
        if (validate_each) cr_assert(vx_dynamic_tree_validate(tree), "invariant broken after operation %d", op);
    }
}

Test(dynamic_tree, empty_tree_has_no_root_and_finds_nothing)
{
    vx_dynamic_tree tree;
    vx_dynamic_tree_init(&tree, 0.1f, 4.0f);
    cr_assert_eq(tree.root, VX_DYNAMIC_TREE_NULL);
    cr_assert_eq(vx_dynamic_tree_height(&tree), 0);
    cr_assert(vx_dynamic_tree_validate(&tree));
    cr_assert_eq(vx_dynamic_tree_area_ratio(&tree), 0.0f);
    hits h;
    query_sorted(&tree, box(-1e6f, -1e6f, -1e6f, 1e6f, 1e6f, 1e6f), &h);
    cr_assert_eq(h.count, 0u);
    vx_dynamic_tree_free(&tree);
}

Test(dynamic_tree, fat_box_grows_by_the_margin_and_stretches_along_the_displacement)
{
    vx_aabb fat = vx_dynamic_tree_fatten(box(0, 0, 0, 1, 1, 1), vx_vec3_make(0.5f, -0.25f, 0.0f), 0.1f, 4.0f);
    VX_ASSERT_VEC3_NEAR(fat.min, -0.1f, -1.1f, -0.1f, 1e-6f); /* y: 4 * 0.25 below */
    VX_ASSERT_VEC3_NEAR(fat.max, 3.1f, 1.1f, 1.1f, 1e-6f);    /* x: 4 * 0.5 ahead */
    /* Margin and multiplier 0 (the static tree): the box itself. */
    fat = vx_dynamic_tree_fatten(box(0, 0, 0, 1, 2, 3), vx_vec3_make(7, 7, 7), 0.0f, 0.0f);
    cr_assert(fat.min.x == 0 && fat.min.y == 0 && fat.min.z == 0 && fat.max.x == 1 && fat.max.y == 2 &&
              fat.max.z == 3);
}

Test(dynamic_tree, single_proxy_is_found_by_queries_touching_its_fat_box)
{
    vx_dynamic_tree tree;
    vx_dynamic_tree_init(&tree, 0.25f, 0.0f);
    uint32_t p;
    cr_assert_eq(vx_dynamic_tree_create_proxy(&tree, box(0, 0, 0, 1, 1, 1), vx_vec3_zero(), 42u, &p), VX_OK);
    cr_assert_eq(tree.root, p);
    cr_assert_eq(tree.proxy_count, 1u);
    cr_assert_eq(tree.node_count, 1u);
    cr_assert_eq(vx_dynamic_tree_user_id(&tree, p), 42u);
    cr_assert(vx_dynamic_tree_validate(&tree));
    hits h;
    /* The fat box reaches x = 1.25: a query starting there touches it. */
    query_sorted(&tree, box(1.25f, 0, 0, 2, 1, 1), &h);
    cr_assert_eq(h.count, 1u);
    cr_assert_eq(h.ids[0], 42u);
    query_sorted(&tree, box(1.3f, 0, 0, 2, 1, 1), &h);
    cr_assert_eq(h.count, 0u);
    vx_dynamic_tree_destroy_proxy(&tree, p);
    cr_assert_eq(tree.root, VX_DYNAMIC_TREE_NULL);
    cr_assert(vx_dynamic_tree_validate(&tree));
    vx_dynamic_tree_free(&tree);
}

Test(dynamic_tree, a_move_inside_the_fat_box_changes_nothing_and_leaving_it_reinserts)
{
    vx_dynamic_tree tree;
    vx_dynamic_tree_init(&tree, 0.1f, 4.0f);
    uint32_t p, q;
    cr_assert_eq(vx_dynamic_tree_create_proxy(&tree, box(0, 0, 0, 1, 1, 1), vx_vec3_zero(), 1u, &p), VX_OK);
    cr_assert_eq(vx_dynamic_tree_create_proxy(&tree, box(5, 0, 0, 6, 1, 1), vx_vec3_zero(), 2u, &q), VX_OK);
    vx_dynamic_tree_node before[3];
    memcpy(before, tree.nodes, sizeof before);

    /* 0.05 m along x, still inside [-0.1, 1.1]. */
    cr_assert_not(vx_dynamic_tree_move_proxy(&tree, p, box(0.05f, 0, 0, 1.05f, 1, 1), vx_vec3_zero()));
    cr_assert_eq(memcmp(before, tree.nodes, sizeof before), 0);

    /* 0.2 m: out of the fat box, reinserted around the new box. */
    cr_assert(vx_dynamic_tree_move_proxy(&tree, p, box(0.2f, 0, 0, 1.2f, 1, 1), vx_vec3_zero()));
    vx_aabb fat = vx_dynamic_tree_fat_aabb(&tree, p);
    VX_ASSERT_VEC3_NEAR(fat.min, 0.1f, -0.1f, -0.1f, 1e-6f);
    VX_ASSERT_VEC3_NEAR(fat.max, 1.3f, 1.1f, 1.1f, 1e-6f);
    cr_assert(vx_dynamic_tree_validate(&tree));
    vx_dynamic_tree_free(&tree);
}

Test(dynamic_tree, a_body_that_slows_down_gets_its_stretched_box_shrunk)
{
    vx_dynamic_tree tree;
    vx_dynamic_tree_init(&tree, 0.1f, 4.0f);
    uint32_t p;
    /* 1 m per step along x: the fat box reaches 4 m ahead. */
    cr_assert_eq(vx_dynamic_tree_create_proxy(&tree, box(0, 0, 0, 1, 1, 1), vx_vec3_make(1, 0, 0), 7u, &p), VX_OK);
    VX_ASSERT_NEAR(vx_dynamic_tree_fat_aabb(&tree, p).max.x, 5.1f, 1e-6f);
    /* 0.3 m further, still as fast: inside, no change. */
    cr_assert_not(vx_dynamic_tree_move_proxy(&tree, p, box(0.3f, 0, 0, 1.3f, 1, 1), vx_vec3_make(1, 0, 0)));
    /* Stopped: the box is inside the fat one, but the fat one is much
     * bigger than it needs to be (4 margins): shrunk. */
    cr_assert(vx_dynamic_tree_move_proxy(&tree, p, box(0.3f, 0, 0, 1.3f, 1, 1), vx_vec3_zero()));
    vx_aabb fat = vx_dynamic_tree_fat_aabb(&tree, p);
    VX_ASSERT_VEC3_NEAR(fat.min, 0.2f, -0.1f, -0.1f, 1e-6f);
    VX_ASSERT_VEC3_NEAR(fat.max, 1.4f, 1.1f, 1.1f, 1e-6f);
    vx_dynamic_tree_free(&tree);
}

Test(dynamic_tree, queries_match_brute_force_on_random_boxes)
{
    vx_dynamic_tree tree;
    vx_dynamic_tree_init(&tree, 0.1f, 4.0f);
    proxy_table t;
    memset(&t, 0, sizeof t);
    vx_test_rng rng = {12345u};
    for (uint32_t id = 0; id < 400; id++) {
        cr_assert_eq(vx_dynamic_tree_create_proxy(&tree, random_box(&rng, 30.0f), random_displacement(&rng), id,
                                                  &t.proxy[id]),
                     VX_OK);
        t.alive[id] = true;
    }
    cr_assert(vx_dynamic_tree_validate(&tree));
    for (int i = 0; i < 200; i++) assert_query_matches_brute_force(&tree, &t, random_box(&rng, 30.0f));
    /* A query covering everything finds all 400. */
    hits h;
    query_sorted(&tree, box(-100, -100, -100, 100, 100, 100), &h);
    cr_assert_eq(h.count, 400u);
    vx_dynamic_tree_free(&tree);
}

Test(dynamic_tree, random_creates_moves_and_destroys_keep_every_invariant)
{
    vx_dynamic_tree tree;
    vx_dynamic_tree_init(&tree, 0.1f, 4.0f);
    proxy_table t;
    memset(&t, 0, sizeof t);
    random_operations(&tree, &t, 777u, 3000, true);
    cr_assert_gt(tree.proxy_count, 100u);
    /* Balanced: a tree of n leaves needs at least log2(n) levels; the
     * rotations keep it within twice that. */
    int least = (int)ceil(log2((double)tree.proxy_count));
    cr_assert_leq(vx_dynamic_tree_height(&tree), 2 * least, "height %d for %u proxies",
                  vx_dynamic_tree_height(&tree), tree.proxy_count);
    vx_test_rng rng = {99u};
    for (int i = 0; i < 100; i++) assert_query_matches_brute_force(&tree, &t, random_box(&rng, 30.0f));
    vx_dynamic_tree_free(&tree);
}

Test(dynamic_tree, boxes_inserted_in_sorted_order_still_give_a_shallow_tree)
{
    /* Sorted insertion is the worst case for a tree without rotations (it
     * would degenerate into a list of height n - 1). */
    vx_dynamic_tree tree;
    vx_dynamic_tree_init(&tree, 0.0f, 0.0f);
    for (uint32_t i = 0; i < 1024; i++) {
        uint32_t p;
        float x = (float)i * 2.0f;
        cr_assert_eq(vx_dynamic_tree_create_proxy(&tree, box(x, 0, 0, x + 1, 1, 1), vx_vec3_zero(), i, &p), VX_OK);
    }
    cr_assert(vx_dynamic_tree_validate(&tree));
    cr_assert_geq(vx_dynamic_tree_height(&tree), 10);
    cr_assert_leq(vx_dynamic_tree_height(&tree), 20, "height %d", vx_dynamic_tree_height(&tree));
    vx_dynamic_tree_free(&tree);
}

Test(dynamic_tree, a_query_stops_when_the_callback_says_so)
{
    vx_dynamic_tree tree;
    vx_dynamic_tree_init(&tree, 0.0f, 0.0f);
    for (uint32_t i = 0; i < 20; i++) {
        uint32_t p;
        cr_assert_eq(vx_dynamic_tree_create_proxy(&tree, box(0, 0, 0, 1, 1, 1), vx_vec3_zero(), i, &p), VX_OK);
    }
    hits h;
    memset(&h, 0, sizeof h);
    h.stop_after = 3;
    cr_assert_eq(vx_dynamic_tree_query(&tree, box(0, 0, 0, 1, 1, 1), record_hit, &h), VX_OK);
    cr_assert_eq(h.count, 3u);
    vx_dynamic_tree_free(&tree);
}

Test(dynamic_tree, freed_nodes_are_reused_so_a_steady_tree_stops_allocating)
{
    vx_dynamic_tree tree;
    vx_dynamic_tree_init(&tree, 0.1f, 4.0f);
    vx_test_rng rng = {4242u};
    uint32_t proxy[200];
    vx_aabb tight[200];
    for (uint32_t i = 0; i < 200; i++) {
        tight[i] = random_box(&rng, 20.0f);
        cr_assert_eq(vx_dynamic_tree_create_proxy(&tree, tight[i], vx_vec3_zero(), i, &proxy[i]), VX_OK);
    }
    uint32_t capacity = tree.node_capacity;
    vx_dynamic_tree_node *pool = tree.nodes;
    cr_assert_eq(tree.node_count, 2u * 200u - 1u);
    /* Destroy and recreate half, and move everything far, many times: the
     * pool neither grows nor moves. */
    size_t reinserted = 0;
    for (int round = 0; round < 20; round++) {
        for (uint32_t i = 0; i < 200; i += 2) vx_dynamic_tree_destroy_proxy(&tree, proxy[i]);
        for (uint32_t i = 0; i < 200; i += 2)
            cr_assert_eq(vx_dynamic_tree_create_proxy(&tree, tight[i], vx_vec3_zero(), i, &proxy[i]), VX_OK);
        for (uint32_t i = 0; i < 200; i++) {
            vx_vec3 d = vx_vec3_make(vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, -1, 1), 0.0f);
            tight[i].min = vx_vec3_add(tight[i].min, d);
            tight[i].max = vx_vec3_add(tight[i].max, d);
            reinserted += vx_dynamic_tree_move_proxy(&tree, proxy[i], tight[i], d) ? 1u : 0u;
        }
    }
    cr_assert_gt(reinserted, 1000u);
    cr_assert_eq(tree.node_capacity, capacity);
    cr_assert_eq(tree.nodes, pool);
    cr_assert_eq(tree.node_count, 2u * 200u - 1u);
    cr_assert(vx_dynamic_tree_validate(&tree));
    vx_dynamic_tree_free(&tree);
}

Test(dynamic_tree, the_same_operations_give_the_same_tree_bit_for_bit)
{
    vx_dynamic_tree a, b;
    vx_dynamic_tree_init(&a, 0.1f, 4.0f);
    vx_dynamic_tree_init(&b, 0.1f, 4.0f);
    proxy_table ta, tb;
    memset(&ta, 0, sizeof ta);
    memset(&tb, 0, sizeof tb);
    random_operations(&a, &ta, 31337u, 2000, false);
    random_operations(&b, &tb, 31337u, 2000, false);
    cr_assert_eq(a.node_capacity, b.node_capacity);
    cr_assert_eq(a.root, b.root);
    cr_assert_eq(a.free_list, b.free_list);
    cr_assert_eq(memcmp(a.nodes, b.nodes, a.node_capacity * sizeof *a.nodes), 0);
    cr_assert_eq(memcmp(ta.proxy, tb.proxy, sizeof ta.proxy), 0);
    /* And the same query visits in the same order. */
    hits ha, hb;
    memset(&ha, 0, sizeof ha);
    memset(&hb, 0, sizeof hb);
    cr_assert_eq(vx_dynamic_tree_query(&a, box(5, 5, 5, 20, 20, 20), record_hit, &ha), VX_OK);
    cr_assert_eq(vx_dynamic_tree_query(&b, box(5, 5, 5, 20, 20, 20), record_hit, &hb), VX_OK);
    cr_assert_gt(ha.count, 10u);
    cr_assert_eq(ha.count, hb.count);
    cr_assert_eq(memcmp(ha.ids, hb.ids, ha.count * sizeof ha.ids[0]), 0);
    vx_dynamic_tree_free(&a);
    vx_dynamic_tree_free(&b);
}

Test(dynamic_tree, surface_area_insertion_keeps_the_area_ratio_low)
{
    /* A 16 x 16 grid of unit boxes inserted in random order: a good tree
     * groups neighbours, so the internal nodes' area stays a small multiple
     * of the root's (a tree pairing far-apart boxes has many root-sized
     * nodes). A top-down median split of this grid scores 8.87; greedy
     * descent without the branch and bound scored 21.5. */
    vx_dynamic_tree tree;
    vx_dynamic_tree_init(&tree, 0.0f, 0.0f);
    vx_test_rng rng = {5u};
    uint32_t order[256];
    for (uint32_t i = 0; i < 256; i++) order[i] = i;
    for (uint32_t i = 256; i > 1; i--) {
        uint32_t j = vx_test_rng_next(&rng) % i;
        uint32_t tmp = order[i - 1];
        order[i - 1] = order[j];
        order[j] = tmp;
    }
    for (uint32_t k = 0; k < 256; k++) {
        uint32_t p, i = order[k];
        float x = (float)(i % 16u) * 1.5f, z = (float)(i / 16u) * 1.5f;
        cr_assert_eq(vx_dynamic_tree_create_proxy(&tree, box(x, 0, z, x + 1, 1, z + 1), vx_vec3_zero(), i, &p), VX_OK);
    }
    float ratio = vx_dynamic_tree_area_ratio(&tree);
    cr_assert_gt(ratio, 1.0f); /* the root itself counts 1 */
    cr_assert_lt(ratio, 1.5f * 8.87f, "area ratio %g", (double)ratio);
    vx_dynamic_tree_free(&tree);
}
