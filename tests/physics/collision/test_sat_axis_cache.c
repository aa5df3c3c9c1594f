/* The kept separating axis (vx_collide_hull_hull_cached,
 * vx_collide_hull_box_cached, vx_collide_box_box_obb_cached;
 * docs/simulation.md, "Hull contacts"): the axis a pair was found apart
 * along is tried first the next step and ends the test when it still
 * separates them. The result must be the uncached function's, bit for bit:
 * over random pose sequences (pairs drifting apart, together, through each
 * other and back) with the axis carried from step to step, with axes that
 * are garbage (any kind, indices in and out of range), for a pair moved
 * far apart and back to the same pose, and for hulls far from the origin
 * whose kept face clears the margin by a few rounding errors more or less
 * (the face of A is judged without placing B's vertices, with a guard). */
#include <criterion/criterion.h>
#include <string.h>

#include "physics/body/hull.h"
#include "physics/collision/collide_internal.h"
#include "test_helpers.h"
#include "test_hull_helpers.h"
#include "voltex/collide.h"

static vx_hull *rock(vx_test_rng *r, int n, vx_vec3 radii) { return vx_test_rock(r, n, radii); }

static void assert_same(bool hit, const vx_manifold *m, bool hit2, const vx_manifold *m2, const char *what, int seq,
                        int step)
{
    cr_assert_eq(hit, hit2, "%s: sequence %d step %d: hit %d, with the kept axis %d", what, seq, step, hit, hit2);
    cr_assert(memcmp(m, m2, sizeof *m) == 0, "%s: sequence %d step %d: the manifolds differ", what, seq, step);
}

/* B moves about A with a velocity that turns and a spin; now and then it is
 * pulled back towards A so the pair keeps meeting. */
typedef struct {
    vx_transform ta, tb;
    vx_vec3 v, w;
} motion;

static void motion_init(motion *mo, vx_test_rng *r, float reach)
{
    mo->ta = vx_test_pose(vx_test_rng_vec3(r, -3, 3), vx_test_random_rotation(r));
    vx_vec3 off = vx_vec3_scale(vx_test_random_unit(r), vx_test_rng_range(r, 0.5f, 1.5f) * reach);
    mo->tb = vx_test_pose(vx_vec3_add(mo->ta.position, off), vx_test_random_rotation(r));
    mo->v = vx_vec3_scale(vx_test_random_unit(r), vx_test_rng_range(r, 0.0f, 0.05f) * reach);
    mo->w = vx_vec3_scale(vx_test_random_unit(r), vx_test_rng_range(r, 0.0f, 0.1f));
}

static void motion_step(motion *mo, vx_test_rng *r, float reach)
{
    vx_vec3 rel = vx_vec3_sub(mo->ta.position, mo->tb.position);
    float d = vx_vec3_length(rel);
    if (d > 1.5f * reach) mo->v = vx_vec3_scale(rel, 0.03f * reach / d); /* back towards A */
    mo->v = vx_vec3_add(mo->v, vx_vec3_scale(vx_test_random_unit(r), 0.005f * reach));
    mo->tb.position = vx_vec3_add(mo->tb.position, mo->v);
    float angle = vx_vec3_length(mo->w);
    if (angle > 0.0f) {
        vx_quat turn = vx_quat_from_axis_angle(vx_vec3_scale(mo->w, 1.0f / angle), angle);
        mo->tb.rotation = vx_quat_normalize(vx_quat_mul(turn, mo->tb.rotation));
    }
}

static float hull_reach_of(const vx_hull *h) { return vx_vec3_length(vx_vec3_sub(h->bounds.max, h->bounds.min)); }

/* seqs sequences of steps poses of b about a, the axis carried: every step
 * the same as the uncached function. Returns how many steps were apart. */
static int sequences(const vx_hull *ha, const vx_hull *hb, uint32_t seed, int seqs, int steps, int *hits)
{
    vx_test_rng rng = {seed};
    float reach = 0.5f * (hull_reach_of(ha) + hull_reach_of(hb));
    int apart = 0;
    for (int s = 0; s < seqs; s++) {
        motion mo;
        motion_init(&mo, &rng, reach);
        float margin = vx_test_random_margin(&rng);
        vx_sat_axis axis = {VX_SAT_AXIS_NONE, 0, 0};
        for (int k = 0; k < steps; k++) {
            vx_manifold m, m2;
            bool hit = vx_collide_hull_hull(ha, &mo.ta, hb, &mo.tb, margin, &m);
            bool hit2 = vx_collide_hull_hull_cached(ha, &mo.ta, hb, &mo.tb, margin, &axis, &m2);
            assert_same(hit, &m, hit2, &m2, "hull-hull", s, k);
            cr_assert(axis.kind != VX_SAT_AXIS_NONE);
            if (hit)
                (*hits)++;
            else
                apart++;
            motion_step(&mo, &rng, reach);
        }
    }
    return apart;
}

Test(sat_axis_cache, pose_sequences_match_the_full_test)
{
    vx_test_rng r = {0x5A7Cu};
    vx_hull *rocks[3] = {rock(&r, 32, vx_vec3_make(2.0f, 1.8f, 1.9f)), rock(&r, 12, vx_vec3_make(1.0f, 0.5f, 0.7f)),
                         vx_test_box_hull(vx_vec3_make(0.5f, 0.25f, 1.0f))};
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            int hits = 0;
            int apart = sequences(rocks[i], rocks[j], 0x1000u + (uint32_t)(3 * i + j), 40, 150, &hits);
            cr_assert_gt(apart, 500, "pair %d %d: %d steps apart", i, j, apart);
            cr_assert_gt(hits, 300, "pair %d %d: %d steps touching", i, j, hits);
        }
    }
    for (int i = 0; i < 3; i++) vx_hull_destroy(rocks[i]);
}

Test(sat_axis_cache, hull_box_sequences_match_the_full_test)
{
    vx_test_rng r = {0xB0Cu};
    vx_hull *h = rock(&r, 32, vx_vec3_make(1.0f, 0.8f, 0.9f));
    vx_vec3 half = vx_vec3_make(0.7f, 0.3f, 1.1f);
    vx_hull *box = vx_test_box_hull(half);
    float reach = 0.5f * (hull_reach_of(h) + hull_reach_of(box));
    int hits = 0, apart = 0;
    for (int s = 0; s < 40; s++) {
        motion mo;
        motion_init(&mo, &r, reach);
        float margin = vx_test_random_margin(&r);
        vx_sat_axis axis = {VX_SAT_AXIS_NONE, 0, 0};
        for (int k = 0; k < 150; k++) {
            vx_manifold m, m2;
            bool hit = vx_collide_hull_box(h, &mo.ta, &mo.tb, half, margin, &m);
            bool hit2 = vx_collide_hull_box_cached(h, &mo.ta, &mo.tb, half, margin, &axis, &m2);
            assert_same(hit, &m, hit2, &m2, "hull-box", s, k);
            if (hit)
                hits++;
            else
                apart++;
            motion_step(&mo, &r, reach);
        }
    }
    cr_assert_gt(apart, 500);
    cr_assert_gt(hits, 300);
    vx_hull_destroy(h);
    vx_hull_destroy(box);
}

Test(sat_axis_cache, any_axis_gives_the_full_result)
{
    vx_test_rng r = {0xA115u};
    vx_hull *ha = rock(&r, 32, vx_vec3_make(1.0f, 0.9f, 0.8f)), *hb = rock(&r, 20, vx_vec3_make(0.6f, 1.0f, 0.7f));
    float reach = 0.5f * (hull_reach_of(ha) + hull_reach_of(hb));
    for (int k = 0; k < 4000; k++) {
        vx_transform ta = vx_test_pose(vx_test_rng_vec3(&r, -2, 2), vx_test_random_rotation(&r));
        vx_vec3 off = vx_vec3_scale(vx_test_random_unit(&r), vx_test_rng_range(&r, 0.0f, 1.2f) * reach);
        vx_transform tb = vx_test_pose(vx_vec3_add(ta.position, off), vx_test_random_rotation(&r));
        float margin = vx_test_random_margin(&r);
        vx_sat_axis axis;
        axis.kind = (uint8_t)(vx_test_rng_next(&r) % 5u); /* 4: no kind */
        /* indices mostly in range, sometimes beyond */
        axis.a = (uint16_t)(vx_test_rng_next(&r) % 70u);
        axis.b = (uint16_t)(vx_test_rng_next(&r) % 70u);
        vx_manifold m, m2;
        bool hit = vx_collide_hull_hull(ha, &ta, hb, &tb, margin, &m);
        bool hit2 = vx_collide_hull_hull_cached(ha, &ta, hb, &tb, margin, &axis, &m2);
        assert_same(hit, &m, hit2, &m2, "garbage axis", 0, k);
    }
    vx_hull_destroy(ha);
    vx_hull_destroy(hb);
}

Test(sat_axis_cache, apart_and_back_gives_the_same_contact)
{
    vx_test_rng r = {0xBAC4u};
    vx_hull *ha = rock(&r, 32, vx_vec3_make(1.0f, 0.9f, 0.8f)), *hb = rock(&r, 32, vx_vec3_make(0.8f, 0.9f, 1.0f));
    int touching = 0;
    for (int k = 0; k < 300; k++) {
        vx_transform ta = vx_test_pose(vx_test_rng_vec3(&r, -2, 2), vx_test_random_rotation(&r));
        vx_vec3 dir = vx_test_random_unit(&r);
        vx_vec3 off = vx_vec3_scale(dir, vx_test_rng_range(&r, 1.0f, 1.9f));
        vx_transform tb = vx_test_pose(vx_vec3_add(ta.position, off), vx_test_random_rotation(&r));
        vx_manifold m0, m;
        vx_sat_axis axis = {VX_SAT_AXIS_NONE, 0, 0};
        bool hit0 = vx_collide_hull_hull_cached(ha, &ta, hb, &tb, 0.02f, &axis, &m0);
        touching += hit0 ? 1 : 0;
        /* away along dir in steps of 10 cm up to 2 m, and back */
        vx_transform t = tb;
        for (int s = 1; s <= 40; s++) {
            float d = 0.1f * (float)(s <= 20 ? s : 40 - s);
            t.position = vx_vec3_add(tb.position, vx_vec3_scale(dir, d));
            bool hit = vx_collide_hull_hull_cached(ha, &ta, hb, &t, 0.02f, &axis, &m);
            if (s == 20) cr_assert(!hit, "case %d: still touching 2 m away", k);
        }
        bool hit = vx_collide_hull_hull_cached(ha, &ta, hb, &tb, 0.02f, &axis, &m);
        assert_same(hit0, &m0, hit, &m, "apart and back", k, 0);
    }
    cr_assert_gt(touching, 100);
    vx_hull_destroy(ha);
    vx_hull_destroy(hb);
}

/* Boxes of random sizes moving about each other as the hulls above: the
 * cached box-box test gives the full test's manifold at every step, and
 * the kept axis ends the test at most steps apart. */
Test(sat_axis_cache, box_box_sequences_match_the_full_test)
{
    vx_test_rng r = {0xB0B0u};
    int hits = 0, apart = 0;
    for (int s = 0; s < 60; s++) {
        vx_vec3 half_a = vx_test_rng_vec3(&r, 0.05f, 1.5f), half_b = vx_test_rng_vec3(&r, 0.05f, 1.5f);
        float reach = vx_vec3_length(half_a) + vx_vec3_length(half_b);
        motion mo;
        motion_init(&mo, &r, reach);
        float margin = vx_test_random_margin(&r);
        vx_sat_axis axis = {VX_SAT_AXIS_NONE, 0, 0};
        for (int k = 0; k < 150; k++) {
            vx_obb a = vx_obb_make(&mo.ta, half_a), b = vx_obb_make(&mo.tb, half_b);
            vx_manifold m, m2;
            bool hit = vx_collide_box_box_obb(&a, &b, margin, &m);
            bool hit2 = vx_collide_box_box_obb_cached(&a, &b, margin, &axis, &m2);
            assert_same(hit, &m, hit2, &m2, "box-box", s, k);
            /* apart: the axis that separated them; touching: none kept */
            cr_assert(hit ? axis.kind == VX_SAT_AXIS_NONE : axis.kind != VX_SAT_AXIS_NONE && axis.a < 3 && axis.b < 3);
            if (hit)
                hits++;
            else
                apart++;
            motion_step(&mo, &r, reach);
        }
    }
    cr_assert_gt(apart, 1000, "%d steps apart", apart);
    cr_assert_gt(hits, 1000, "%d steps touching", hits);
}

Test(sat_axis_cache, any_box_axis_gives_the_full_result)
{
    vx_test_rng r = {0xB0A5u};
    for (int k = 0; k < 20000; k++) {
        vx_vec3 half_a = vx_test_rng_vec3(&r, 0.05f, 1.0f), half_b = vx_test_rng_vec3(&r, 0.05f, 1.0f);
        vx_transform ta = vx_test_pose(vx_test_rng_vec3(&r, -2, 2), vx_test_random_rotation(&r));
        vx_vec3 off = vx_vec3_scale(vx_test_random_unit(&r), vx_test_rng_range(&r, 0.0f, 1.3f) *
                                                               (vx_vec3_length(half_a) + vx_vec3_length(half_b)));
        vx_transform tb = vx_test_pose(vx_vec3_add(ta.position, off), vx_test_random_rotation(&r));
        if (k % 8 == 0) tb.rotation = ta.rotation; /* parallel edges: no edge axis */
        vx_obb a = vx_obb_make(&ta, half_a), b = vx_obb_make(&tb, half_b);
        float margin = vx_test_random_margin(&r);
        vx_sat_axis axis;
        axis.kind = (uint8_t)(vx_test_rng_next(&r) % 5u); /* 4: no kind */
        axis.a = (uint16_t)(vx_test_rng_next(&r) % 4u);  /* 3: out of range */
        axis.b = (uint16_t)(vx_test_rng_next(&r) % 4u);
        vx_manifold m, m2;
        bool hit = vx_collide_box_box_obb(&a, &b, margin, &m);
        bool hit2 = vx_collide_box_box_obb_cached(&a, &b, margin, &axis, &m2);
        assert_same(hit, &m, hit2, &m2, "garbage box axis", 0, k);
    }
}

/* A face of A whose plane is as far from B as the margin, give or take 40
 * units in the last place of the pair's size, for small hulls and hulls
 * 30 m across: the face of A clears the margin or not as the full test
 * finds, on both sides of the guard. */
Test(sat_axis_cache, a_kept_face_at_the_margin_decides_as_the_full_test)
{
    vx_test_rng r = {0xF00Du};
    vx_hull *small_a = rock(&r, 32, vx_vec3_make(1.0f, 0.9f, 0.8f));
    vx_hull *small_b = rock(&r, 24, vx_vec3_make(0.7f, 1.0f, 0.6f));
    vx_hull *big_a = rock(&r, 32, vx_vec3_make(30.0f, 27.0f, 24.0f));
    vx_hull *big_b = rock(&r, 24, vx_vec3_make(21.0f, 30.0f, 18.0f));
    int apart = 0, touching = 0;
    for (int k = 0; k < 6000; k++) {
        const vx_hull *ha = k % 2 ? big_a : small_a, *hb = k % 2 ? big_b : small_b;
        vx_transform ta = vx_test_pose(vx_test_rng_vec3(&r, -3.0f, 3.0f), vx_test_random_rotation(&r));
        vx_quat qb = vx_test_random_rotation(&r);
        int f = (int)(vx_test_rng_next(&r) % (uint32_t)ha->face_count);
        float margin = vx_test_random_margin(&r);
        /* B's lowest vertex along the face normal, set on the plane moved
         * out by margin plus the gap */
        vx_vec3 n = vx_quat_rotate(ta.rotation, ha->faces[f].normal);
        vx_vec3 on_plane = vx_vec3_add(ta.position, vx_vec3_scale(n, ha->faces[f].offset));
        vx_vec3 lowest = vx_quat_rotate(qb, hb->vertices[0]);
        for (int v = 1; v < hb->vertex_count; v++) {
            vx_vec3 p = vx_quat_rotate(qb, hb->vertices[v]);
            if (vx_vec3_dot(p, n) < vx_vec3_dot(lowest, n)) lowest = p;
        }
        float ulp = 6e-8f * (hull_reach_of(ha) + hull_reach_of(hb));
        float gap = margin + vx_test_rng_range(&r, -40.0f, 40.0f) * ulp;
        vx_vec3 pos = vx_vec3_sub(vx_vec3_add(on_plane, vx_vec3_scale(n, gap)), lowest);
        vx_transform tb = vx_test_pose(pos, qb);
        vx_sat_axis axis = {VX_SAT_AXIS_FACE_A, (uint16_t)f, 0};
        vx_manifold m, m2;
        bool hit = vx_collide_hull_hull(ha, &ta, hb, &tb, margin, &m);
        bool hit2 = vx_collide_hull_hull_cached(ha, &ta, hb, &tb, margin, &axis, &m2);
        assert_same(hit, &m, hit2, &m2, "face at the margin", 0, k);
        if (hit)
            touching++;
        else
            apart++;
    }
    cr_assert_gt(apart, 1000, "%d apart", apart);
    cr_assert_gt(touching, 1000, "%d touching", touching);
    vx_hull_destroy(small_a);
    vx_hull_destroy(small_b);
    vx_hull_destroy(big_a);
    vx_hull_destroy(big_b);
}
