/* A hull's principal frame (src/physics/body/hull_frame.c): the moved data
 * is the same solid (vertices back through the frame, planes through every
 * vertex, the inertia tensor of the input recovered from the frame and the
 * principal moments), boxes recover their own axes and moments, and an
 * axis-aligned box keeps the identity rotation bit for bit. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "physics/body/hull.h"
#include "test_helpers.h"

static vx_hull *build(const vx_vec3 *pts, size_t n)
{
    vx_hull *h = NULL;
    vx_error err;
    cr_assert_eq(vx_hull_build(pts, n, &h, &err), VX_OK, "build failed: %s", err.message);
    return h;
}

static vx_vec3 to_input(const vx_hull *h, vx_vec3 p)
{
    return vx_vec3_add(h->frame.position, vx_quat_rotate(h->frame.rotation, p));
}

/* The hull of the 8 corners of a box of half extents e at pose (c, q). */
static vx_hull *box_hull(vx_vec3 e, vx_vec3 c, vx_quat q)
{
    vx_vec3 pts[8];
    for (int i = 0; i < 8; i++) {
        vx_vec3 p = vx_vec3_make(i & 1 ? e.x : -e.x, i & 2 ? e.y : -e.y, i & 4 ? e.z : -e.z);
        pts[i] = vx_vec3_add(c, vx_quat_rotate(q, p));
    }
    return build(pts, 8);
}

/* Everything the move must keep, checked against the hull as built. */
static void check_same_solid(const vx_hull *before, const vx_hull *after)
{
    cr_assert_eq(after->vertex_count, before->vertex_count);
    cr_assert_eq(after->face_count, before->face_count);
    cr_assert_float_eq(after->volume, before->volume, 1e-6f * before->volume);
    float size = before->outer_radius + vx_vec3_length(before->centroid);
    for (int i = 0; i < after->vertex_count; i++) {
        vx_vec3 back = to_input(after, after->vertices[i]);
        cr_assert_lt(vx_vec3_length(vx_vec3_sub(back, before->vertices[i])), 1e-5f * size, "vertex %d", i);
    }
    for (int f = 0; f < after->face_count; f++) {
        const vx_hull_face *face = &after->faces[f];
        cr_assert_float_eq(vx_vec3_length(face->normal), 1.0f, 1e-6f);
        for (int i = 0; i < after->vertex_count; i++)
            cr_assert_leq(vx_vec3_dot(face->normal, after->vertices[i]) - face->offset, 2e-6f * size,
                          "vertex %d above face %d", i, f);
    }
    /* R diag(m) R^T is the input's inertia tensor */
    vx_mat3 r = vx_mat3_from_quat(after->frame.rotation);
    float scale = before->inertia.m[0][0] + before->inertia.m[1][1] + before->inertia.m[2][2];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0.0;
            for (int k = 0; k < 3; k++) s += (double)r.m[i][k] * after->inertia.m[k][k] * r.m[j][k];
            cr_assert_lt(fabs(s - before->inertia.m[i][j]), 1e-5 * scale, "I[%d][%d] %g vs %g", i, j, s,
                         (double)before->inertia.m[i][j]);
            if (i != j) cr_assert_eq(after->inertia.m[i][j], 0.0f);
        }
    VX_ASSERT_VEC3_NEAR(after->frame.position, before->centroid.x, before->centroid.y, before->centroid.z, 1e-6f);
    VX_ASSERT_VEC3_NEAR(after->centroid, 0.0f, 0.0f, 0.0f, 0.0f);
    cr_assert_float_eq(after->inner_radius, before->inner_radius, 1e-5f * size);
    float outer = 0.0f;
    for (int i = 0; i < after->vertex_count; i++) outer = fmaxf(outer, vx_vec3_length(after->vertices[i]));
    cr_assert_eq(after->outer_radius, outer);
}

static vx_hull *copy_of(const vx_vec3 *pts, size_t n) { return build(pts, n); }

Test(hull_frame, axis_aligned_box_keeps_identity_rotation)
{
    vx_vec3 e = vx_vec3_make(0.5f, 1.0f, 2.0f);
    vx_hull *h = box_hull(e, vx_vec3_make(3.0f, -1.0f, 2.0f), vx_quat_identity());
    vx_hull_to_principal(h);
    cr_assert_eq(h->frame.rotation.x, 0.0f);
    cr_assert_eq(h->frame.rotation.y, 0.0f);
    cr_assert_eq(h->frame.rotation.z, 0.0f);
    cr_assert_eq(h->frame.rotation.w, 1.0f);
    VX_ASSERT_VEC3_NEAR(h->frame.position, 3.0f, -1.0f, 2.0f, 1e-6f);
    /* density 1: m = 8 e.x e.y e.z, I_x = m (e.y^2 + e.z^2) / 3 */
    float m = 8.0f * e.x * e.y * e.z;
    cr_assert_float_eq(h->inertia.m[0][0], m * (e.y * e.y + e.z * e.z) / 3.0f, 1e-5f);
    cr_assert_float_eq(h->inertia.m[1][1], m * (e.x * e.x + e.z * e.z) / 3.0f, 1e-5f);
    cr_assert_float_eq(h->inertia.m[2][2], m * (e.x * e.x + e.y * e.y) / 3.0f, 1e-5f);
    cr_assert_float_eq(h->outer_radius, vx_vec3_length(e), 1e-6f);
    VX_ASSERT_VEC3_NEAR(h->bounds.max, e.x, e.y, e.z, 1e-6f);
    vx_hull_destroy(h);
}

/* A box turned by q: the frame's axes are the box's (up to order and sign),
 * the moments the box's, and the data an axis-aligned box about the origin. */
Test(hull_frame, rotated_box_recovers_its_axes)
{
    vx_test_rng rng = {12345u};
    for (int k = 0; k < 50; k++) {
        vx_vec3 e = vx_test_rng_vec3(&rng, 0.2f, 2.0f);
        vx_quat q = vx_quat_normalize(vx_quat_make(vx_test_rng_range(&rng, -1.0f, 1.0f),
                                                   vx_test_rng_range(&rng, -1.0f, 1.0f),
                                                   vx_test_rng_range(&rng, -1.0f, 1.0f),
                                                   vx_test_rng_range(&rng, -1.0f, 1.0f)));
        vx_vec3 c = vx_test_rng_vec3(&rng, -5.0f, 5.0f);
        vx_hull *before = box_hull(e, c, q), *h = box_hull(e, c, q);
        vx_hull_to_principal(h);
        check_same_solid(before, h);
        /* each vertex of the moved data is (+-a, +-b, +-c) for a permutation of e */
        float sorted_e[3] = {e.x, e.y, e.z}, got[3] = {fabsf(h->vertices[0].x), fabsf(h->vertices[0].y),
                                                       fabsf(h->vertices[0].z)};
        for (int i = 0; i < 3; i++)
            for (int j = i + 1; j < 3; j++) {
                if (sorted_e[j] < sorted_e[i]) { float t = sorted_e[i]; sorted_e[i] = sorted_e[j]; sorted_e[j] = t; }
                if (got[j] < got[i]) { float t = got[i]; got[i] = got[j]; got[j] = t; }
            }
        for (int i = 0; i < 3; i++) cr_assert_float_eq(got[i], sorted_e[i], 2e-5f * (1.0f + vx_vec3_length(c)));
        for (int i = 0; i < h->vertex_count; i++) {
            VX_ASSERT_NEAR(fabsf(h->vertices[i].x), fabsf(h->vertices[0].x), 2e-5f * (1.0f + vx_vec3_length(c)));
            VX_ASSERT_NEAR(fabsf(h->vertices[i].y), fabsf(h->vertices[0].y), 2e-5f * (1.0f + vx_vec3_length(c)));
        }
        vx_hull_destroy(before);
        vx_hull_destroy(h);
    }
}

Test(hull_frame, random_clouds_are_the_same_solid)
{
    vx_test_rng rng = {777u};
    vx_vec3 pts[64];
    for (int k = 0; k < 40; k++) {
        size_t n = 4u + (size_t)(vx_test_rng_next(&rng) % 60u);
        vx_vec3 stretch = vx_test_rng_vec3(&rng, 0.1f, 3.0f), shift = vx_test_rng_vec3(&rng, -10.0f, 10.0f);
        for (size_t i = 0; i < n; i++)
            pts[i] = vx_vec3_add(shift, vx_vec3_mul(stretch, vx_test_rng_vec3(&rng, -1.0f, 1.0f)));
        vx_hull *before = copy_of(pts, n), *h = copy_of(pts, n);
        vx_hull_to_principal(h);
        check_same_solid(before, h);
        /* the data's first moment is zero: the centroid is the origin */
        vx_hull *again = NULL;
        vx_vec3 moved[64];
        for (int i = 0; i < h->vertex_count; i++) moved[i] = h->vertices[i];
        cr_assert_eq(vx_hull_build(moved, h->vertex_count, &again, NULL), VX_OK);
        VX_ASSERT_VEC3_NEAR(again->centroid, 0.0f, 0.0f, 0.0f, 1e-5f * h->outer_radius);
        vx_hull_destroy(again);
        vx_hull_destroy(before);
        vx_hull_destroy(h);
    }
}

Test(hull_frame, same_bits_every_time)
{
    vx_vec3 pts[5] = {{0, 0, 0}, {2, 0.1f, 0}, {0.3f, 1, 0.2f}, {0.1f, 0.2f, 3}, {1, 1, 1}};
    vx_hull *a = build(pts, 5), *b = build(pts, 5);
    vx_hull_to_principal(a);
    vx_hull_to_principal(b);
    cr_assert_eq(memcmp(&a->frame, &b->frame, sizeof a->frame), 0);
    cr_assert_eq(memcmp(a->vertices, b->vertices, a->vertex_count * sizeof *a->vertices), 0);
    cr_assert_eq(memcmp(a->faces, b->faces, a->face_count * sizeof *a->faces), 0);
    vx_hull_destroy(a);
    vx_hull_destroy(b);
}
