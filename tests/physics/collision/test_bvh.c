/* The median-split BVH (bvh.c; docs/simulation.md, "Broad phase"): the
 * pairs the tree reports must be exactly the brute-force O(n^2) pairs. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "test_helpers.h"
#include "physics/collision/bvh.h"
#include "voltex/physics.h"

static vx_entity ent(uint32_t index) { return (vx_entity){index, 1u}; }

static vx_bvh_entry entry(uint32_t index, float x0, float y0, float z0, float x1, float y1, float z1)
{
    vx_bvh_entry e;
    memset(&e, 0, sizeof e);
    e.entity = ent(index);
    e.aabb = vx_aabb_new(vx_vec3_make(x0, y0, z0), vx_vec3_make(x1, y1, z1));
    return e;
}

static int compare_pairs(const void *pa, const void *pb)
{
    const vx_entity_pair *a = pa, *b = pb;
    if (a->a.index != b->a.index) return a->a.index < b->a.index ? -1 : 1;
    if (a->b.index != b->b.index) return a->b.index < b->b.index ? -1 : 1;
    return 0;
}

/* Every intersecting pair, the slow obvious way, in (a.index, b.index) order. */
static vx_entity_pair *brute_force_pairs(const vx_bvh_entry *e, size_t n, size_t *count)
{
    size_t cap = 16, k = 0;
    vx_entity_pair *out = malloc(cap * sizeof *out);
    cr_assert_not_null(out);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = i + 1; j < n; j++) {
            if (!vx_aabb_intersects(e[i].aabb, e[j].aabb)) continue;
            if (k == cap) {
                cap *= 2;
                out = realloc(out, cap * sizeof *out);
                cr_assert_not_null(out);
            }
            vx_entity a = e[i].entity, b = e[j].entity;
            out[k].a = a.index < b.index ? a : b;
            out[k].b = a.index < b.index ? b : a;
            k++;
        }
    }
    qsort(out, k, sizeof *out, compare_pairs);
    *count = k;
    return out;
}

static void assert_matches_brute_force(vx_bvh *bvh, const vx_bvh_entry *e, size_t n, vx_pair_list *pairs)
{
    cr_assert_eq(vx_bvh_build(bvh, e, n), VX_OK);
    cr_assert_eq(bvh->entry_count, n);
    cr_assert_eq(bvh->node_count, n ? 2 * n - 1 : 0);
    cr_assert_eq(vx_bvh_query_pairs(bvh, pairs), VX_OK);
    size_t expected_count;
    vx_entity_pair *expected = brute_force_pairs(e, n, &expected_count);
    cr_assert_eq(pairs->count, expected_count, "n=%zu: %zu pairs, brute force %zu", n, pairs->count,
                 expected_count);
    for (size_t i = 0; i < expected_count; i++) {
        cr_assert(vx_entity_equal(pairs->items[i].a, expected[i].a) && vx_entity_equal(pairs->items[i].b, expected[i].b),
                  "n=%zu pair %zu: (%u,%u) vs brute force (%u,%u)", n, i, pairs->items[i].a.index,
                  pairs->items[i].b.index, expected[i].a.index, expected[i].b.index);
    }
    free(expected);
}

/* n random boxes in a cube whose side grows with n, so that each box meets a
 * few others; entity indices are a shuffled 0..n-1 with gaps (3i + 1), so the
 * order of the input says nothing about the indices. Coordinates are on a
 * 1/8 grid about half the time, so exact touches happen too. */
static vx_bvh_entry *random_entries(uint32_t seed, size_t n)
{
    vx_bvh_entry *e = calloc(n ? n : 1, sizeof *e);
    cr_assert_not_null(e);
    vx_test_rng rng = {seed};
    float side = 4.0f * cbrtf((float)n + 1.0f);
    for (size_t i = 0; i < n; i++) {
        vx_vec3 c, h;
        for (int a = 0; a < 3; a++) {
            float cv = vx_test_rng_range(&rng, 0.0f, side);
            float hv = vx_test_rng_range(&rng, 0.1f, 1.5f);
            if (vx_test_rng_next(&rng) & 1u) {
                cv = floorf(cv * 8.0f) / 8.0f;
                hv = floorf(hv * 8.0f + 1.0f) / 8.0f;
            }
            vx_vec3_set(&c, a, cv);
            vx_vec3_set(&h, a, hv);
        }
        e[i].entity = ent((uint32_t)(3 * i + 1));
        e[i].aabb = vx_aabb_from_center_half_extents(c, h);
    }
    for (size_t i = n; i > 1; i--) { /* Fisher-Yates */
        size_t j = vx_test_rng_next(&rng) % i;
        vx_bvh_entry t = e[i - 1];
        e[i - 1] = e[j];
        e[j] = t;
    }
    return e;
}

Test(bvh, empty_input_gives_an_empty_tree_and_no_pairs)
{
    vx_bvh bvh;
    vx_pair_list pairs;
    vx_bvh_init(&bvh);
    vx_pair_list_init(&pairs);
    cr_assert_eq(vx_bvh_query_pairs(&bvh, &pairs), VX_OK); /* never built */
    cr_assert_eq(pairs.count, 0u);
    cr_assert_eq(vx_bvh_build(&bvh, NULL, 0), VX_OK);
    cr_assert_eq(bvh.node_count, 0u);
    cr_assert_eq(bvh.entry_count, 0u);
    cr_assert_eq(vx_bvh_query_pairs(&bvh, &pairs), VX_OK);
    cr_assert_eq(pairs.count, 0u);
    vx_bvh_free(&bvh);
    vx_pair_list_free(&pairs);
}

Test(bvh, single_entry_is_one_leaf_and_no_pairs)
{
    vx_bvh bvh;
    vx_pair_list pairs;
    vx_bvh_init(&bvh);
    vx_pair_list_init(&pairs);
    vx_bvh_entry e = entry(5, 0, 0, 0, 1, 1, 1);
    cr_assert_eq(vx_bvh_build(&bvh, &e, 1), VX_OK);
    cr_assert_eq(bvh.node_count, 1u);
    cr_assert_eq(bvh.entry_count, 1u);
    cr_assert(vx_entity_equal(bvh.entries[0].entity, ent(5)));
    cr_assert_eq(vx_bvh_query_pairs(&bvh, &pairs), VX_OK);
    cr_assert_eq(pairs.count, 0u);
    vx_bvh_free(&bvh);
    vx_pair_list_free(&pairs);
}

Test(bvh, two_overlapping_boxes_are_one_pair_lower_index_first)
{
    vx_bvh bvh;
    vx_pair_list pairs;
    vx_bvh_init(&bvh);
    vx_pair_list_init(&pairs);
    vx_bvh_entry e[2] = {entry(9, 0, 0, 0, 2, 2, 2), entry(4, 1, 1, 1, 3, 3, 3)};
    cr_assert_eq(vx_bvh_build(&bvh, e, 2), VX_OK);
    cr_assert_eq(bvh.node_count, 3u);
    cr_assert_eq(vx_bvh_query_pairs(&bvh, &pairs), VX_OK);
    cr_assert_eq(pairs.count, 1u);
    cr_assert(vx_entity_equal(pairs.items[0].a, ent(4)));
    cr_assert(vx_entity_equal(pairs.items[0].b, ent(9)));
    vx_bvh_free(&bvh);
    vx_pair_list_free(&pairs);
}

Test(bvh, two_separated_boxes_are_no_pair)
{
    vx_bvh bvh;
    vx_pair_list pairs;
    vx_bvh_init(&bvh);
    vx_pair_list_init(&pairs);
    /* Overlapping in x and y, apart in z by a hair. */
    vx_bvh_entry e[2] = {entry(0, 0, 0, 0, 2, 2, 2), entry(1, 1, 1, 2.001f, 3, 3, 3)};
    cr_assert_eq(vx_bvh_build(&bvh, e, 2), VX_OK);
    cr_assert_eq(vx_bvh_query_pairs(&bvh, &pairs), VX_OK);
    cr_assert_eq(pairs.count, 0u);
    vx_bvh_free(&bvh);
    vx_pair_list_free(&pairs);
}

Test(bvh, touching_boxes_are_reported)
{
    /* The broad phase is inclusive: the narrow phase decides about touches. */
    vx_bvh bvh;
    vx_pair_list pairs;
    vx_bvh_init(&bvh);
    vx_pair_list_init(&pairs);
    vx_bvh_entry e[3] = {entry(0, 0, 0, 0, 1, 1, 1), entry(1, 1, 0, 0, 2, 1, 1), entry(2, 2, 1, 1, 3, 2, 2)};
    cr_assert_eq(vx_bvh_build(&bvh, e, 3), VX_OK);
    cr_assert_eq(vx_bvh_query_pairs(&bvh, &pairs), VX_OK);
    /* 0-1 share a face, 1-2 share only the corner point (2, 1, 1). */
    cr_assert_eq(pairs.count, 2u);
    cr_assert(pairs.items[0].a.index == 0 && pairs.items[0].b.index == 1);
    cr_assert(pairs.items[1].a.index == 1 && pairs.items[1].b.index == 2);
    vx_bvh_free(&bvh);
    vx_pair_list_free(&pairs);
}

Test(bvh, chain_of_boxes_gives_neighbour_pairs_only)
{
    /* 10 unit boxes overlapping their neighbours along x, given in reverse. */
    vx_bvh bvh;
    vx_pair_list pairs;
    vx_bvh_init(&bvh);
    vx_pair_list_init(&pairs);
    vx_bvh_entry e[10];
    for (uint32_t i = 0; i < 10; i++) {
        float x = (float)(9 - i) * 0.75f;
        e[i] = entry(9 - i, x, 0, 0, x + 1, 1, 1);
    }
    cr_assert_eq(vx_bvh_build(&bvh, e, 10), VX_OK);
    cr_assert_eq(vx_bvh_query_pairs(&bvh, &pairs), VX_OK);
    cr_assert_eq(pairs.count, 9u);
    for (uint32_t i = 0; i < 9; i++) cr_assert(pairs.items[i].a.index == i && pairs.items[i].b.index == i + 1);
    vx_bvh_free(&bvh);
    vx_pair_list_free(&pairs);
}

Test(bvh, duplicate_identical_boxes_pair_with_each_other)
{
    /* 12 copies of one box: every one of the 66 pairs, once. The sort has
     * only the entity index to go by. */
    vx_bvh bvh;
    vx_pair_list pairs;
    vx_bvh_init(&bvh);
    vx_pair_list_init(&pairs);
    vx_bvh_entry e[12];
    for (uint32_t i = 0; i < 12; i++) e[i] = entry((i * 5u) % 12u, -1, -1, -1, 1, 1, 1);
    assert_matches_brute_force(&bvh, e, 12, &pairs);
    cr_assert_eq(pairs.count, 66u);
    size_t k = 0;
    for (uint32_t a = 0; a < 12; a++)
        for (uint32_t b = a + 1; b < 12; b++, k++)
            cr_assert(pairs.items[k].a.index == a && pairs.items[k].b.index == b);
    vx_bvh_free(&bvh);
    vx_pair_list_free(&pairs);
}

Test(bvh, boxes_with_one_centre_and_different_sizes)
{
    /* Zero spread of centres: the split still has to make progress. */
    vx_bvh bvh;
    vx_pair_list pairs;
    vx_bvh_init(&bvh);
    vx_pair_list_init(&pairs);
    vx_bvh_entry e[7];
    for (uint32_t i = 0; i < 7; i++) {
        float h = 0.5f + (float)i;
        e[i] = entry(i, -h, -h, -h, h, h, h);
    }
    assert_matches_brute_force(&bvh, e, 7, &pairs);
    cr_assert_eq(pairs.count, 21u);
    vx_bvh_free(&bvh);
    vx_pair_list_free(&pairs);
}

Test(bvh, entries_are_copied_and_a_permutation_of_the_input)
{
    vx_bvh bvh;
    vx_bvh_init(&bvh);
    vx_bvh_entry *e = random_entries(7u, 50);
    cr_assert_eq(vx_bvh_build(&bvh, e, 50), VX_OK);
    memset(e, 0, 50 * sizeof *e); /* the tree must not depend on the caller's array */
    free(e);
    e = random_entries(7u, 50);
    bool seen[50] = {false};
    for (size_t i = 0; i < 50; i++) {
        size_t j = 0;
        while (j < 50 && !vx_entity_equal(e[j].entity, bvh.entries[i].entity)) j++;
        cr_assert_lt(j, 50u);
        cr_assert_not(seen[j]);
        seen[j] = true;
        cr_assert(memcmp(&e[j].aabb, &bvh.entries[i].aabb, sizeof e[j].aabb) == 0);
    }
    free(e);
    vx_bvh_free(&bvh);
}

Test(bvh, many_random_boxes_match_brute_force)
{
    static const size_t sizes[] = {1, 2, 3, 17, 100, 500, 1000};
    static const uint32_t seeds[] = {1u, 42u, 2024u, 0xC0FFEEu};
    vx_bvh bvh; /* one bvh for every build: it reuses its arrays */
    vx_pair_list pairs;
    vx_bvh_init(&bvh);
    vx_pair_list_init(&pairs);
    size_t total_pairs = 0;
    for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            vx_bvh_entry *e = random_entries(seeds[s], sizes[k]);
            assert_matches_brute_force(&bvh, e, sizes[k], &pairs);
            total_pairs += pairs.count;
            free(e);
        }
    }
    cr_assert_gt(total_pairs, 1000u); /* the scenes are not trivially empty */
    vx_bvh_free(&bvh);
    vx_pair_list_free(&pairs);
}

Test(bvh, rebuilding_smaller_after_larger_forgets_the_old_tree)
{
    vx_bvh bvh;
    vx_pair_list pairs;
    vx_bvh_init(&bvh);
    vx_pair_list_init(&pairs);
    vx_bvh_entry *big = random_entries(5u, 300);
    assert_matches_brute_force(&bvh, big, 300, &pairs);
    cr_assert_gt(pairs.count, 0u);
    free(big);
    vx_bvh_entry e[2] = {entry(0, 0, 0, 0, 1, 1, 1), entry(1, 5, 5, 5, 6, 6, 6)};
    assert_matches_brute_force(&bvh, e, 2, &pairs);
    cr_assert_eq(pairs.count, 0u); /* the list was cleared, not appended to */
    vx_bvh_free(&bvh);
    vx_pair_list_free(&pairs);
}

Test(bvh, same_input_gives_the_same_tree_and_pairs)
{
    vx_bvh a, b;
    vx_pair_list pa, pb;
    vx_bvh_init(&a);
    vx_bvh_init(&b);
    vx_pair_list_init(&pa);
    vx_pair_list_init(&pb);
    vx_bvh_entry *e = random_entries(77u, 400);
    cr_assert_eq(vx_bvh_build(&a, e, 400), VX_OK);
    cr_assert_eq(vx_bvh_build(&b, e, 400), VX_OK);
    cr_assert(memcmp(a.entries, b.entries, 400 * sizeof *e) == 0);
    cr_assert_eq(vx_bvh_query_pairs(&a, &pa), VX_OK);
    cr_assert_eq(vx_bvh_query_pairs(&b, &pb), VX_OK);
    cr_assert_eq(pa.count, pb.count);
    cr_assert(memcmp(pa.items, pb.items, pa.count * sizeof *pa.items) == 0);
    free(e);
    vx_bvh_free(&a);
    vx_bvh_free(&b);
    vx_pair_list_free(&pa);
    vx_pair_list_free(&pb);
}

Test(bvh, build_orders_leaves_along_the_longest_axis)
{
    /* Boxes spread along z only (x and y spread less), given scrambled: the
     * median split along the longest axis at every level leaves the entries
     * sorted by centre z; equal centres fall back to the entity index. */
    vx_bvh bvh;
    vx_bvh_init(&bvh);
    vx_bvh_entry e[16];
    for (uint32_t i = 0; i < 16; i++) {
        uint32_t k = (i * 7u) % 16u;          /* a scramble of 0..15 */
        float z = (float)(k / 2u) * 10.0f;    /* pairs of equal centres */
        float jitter = (float)((k / 2u) % 3u) * 0.1f; /* small spread in x and y, none within a pair */
        e[i] = entry(k, jitter, -jitter, z - 1, jitter + 1, 1 - jitter, z + 1);
    }
    cr_assert_eq(vx_bvh_build(&bvh, e, 16), VX_OK);
    for (uint32_t i = 0; i < 16; i++)
        cr_assert_eq(bvh.entries[i].entity.index, i, "leaf %u holds entity %u", i, bvh.entries[i].entity.index);
    vx_bvh_free(&bvh);
}

/* The median-split build, literally: sort the range by centre on the longest axis
 * of the centres' bounds (ties by entity index), cut at count / 2, recurse. */
static int reference_axis;
static int reference_compare(const void *pa, const void *pb)
{
    const vx_bvh_entry *a = pa, *b = pb;
    float ca = vx_vec3_get(vx_aabb_center(a->aabb), reference_axis);
    float cb = vx_vec3_get(vx_aabb_center(b->aabb), reference_axis);
    if (ca != cb) return ca < cb ? -1 : 1;
    return a->entity.index < b->entity.index ? -1 : (a->entity.index > b->entity.index);
}

static void reference_build(vx_bvh_entry *e, size_t n)
{
    if (n < 2) return;
    vx_vec3 lo = vx_aabb_center(e[0].aabb), hi = lo;
    for (size_t i = 1; i < n; i++) {
        lo = vx_vec3_min(lo, vx_aabb_center(e[i].aabb));
        hi = vx_vec3_max(hi, vx_aabb_center(e[i].aabb));
    }
    vx_vec3 d = vx_vec3_sub(hi, lo);
    reference_axis = d.y > d.x ? 1 : 0;
    if (d.z > vx_vec3_get(d, reference_axis)) reference_axis = 2;
    qsort(e, n, sizeof *e, reference_compare);
    reference_build(e, n / 2);
    reference_build(e + n / 2, n - n / 2);
}

Test(bvh, leaf_order_is_the_sorted_median_split)
{
    static const size_t sizes[] = {2, 3, 17, 1000};
    vx_bvh bvh;
    vx_bvh_init(&bvh);
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        vx_bvh_entry *e = random_entries(31u + (uint32_t)k, sizes[k]);
        cr_assert_eq(vx_bvh_build(&bvh, e, sizes[k]), VX_OK);
        reference_build(e, sizes[k]);
        for (size_t i = 0; i < sizes[k]; i++)
            cr_assert_eq(bvh.entries[i].entity.index, e[i].entity.index, "n=%zu leaf %zu", sizes[k], i);
        free(e);
    }
    vx_bvh_free(&bvh);
}
