/* Oriented narrow phase (collide.h): sphere-sphere, sphere against an oriented
 * box and oriented box against oriented box, as contact manifolds. Checked
 * against hand-computed contacts, against the axis-aligned spec functions
 * (physics.h) for unrotated inputs, and for the invariants every manifold
 * keeps (point_a - point_b = normal * depth, A->B normal, distinct and stable
 * feature ids, no NaN). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "test_helpers.h"
#include "voltex/collide.h"
#include "voltex/physics.h"
#include "voltex/reference.h"

#define EPS 1e-5f
#define PI_F 3.14159265358979f

static vx_vec3 v3(float x, float y, float z) { return vx_vec3_make(x, y, z); }

static vx_quat rot(float ax, float ay, float az, float degrees)
{
    return vx_quat_from_axis_angle(vx_vec3_normalize(v3(ax, ay, az)), degrees * PI_F / 180.0f);
}

static vx_transform place(vx_vec3 position, vx_quat rotation)
{
    vx_transform t;
    memset(&t, 0, sizeof t);
    t.position = position;
    t.rotation = rotation;
    return t;
}

static vx_transform at(float x, float y, float z) { return place(v3(x, y, z), vx_quat_identity()); }

/* A manifold pre-filled with a pattern, to see that every call resets it. */
static vx_manifold poisoned(void)
{
    vx_manifold m;
    memset(&m, 0x5A, sizeof m);
    return m;
}

/* What every reported manifold must satisfy: 1..4 points, unit finite normal,
 * every depth in (-margin, ...), point_a - point_b = normal * depth, finite
 * points, distinct feature ids. */
static void assert_manifold_valid(const vx_manifold *m, float margin)
{
    cr_assert(m->count >= 1 && m->count <= VX_MANIFOLD_MAX_POINTS, "count %d", m->count);
    cr_assert(vx_vec3_is_finite(m->normal));
    VX_ASSERT_NEAR(vx_vec3_length(m->normal), 1.0f, 1e-5);
    for (int i = 0; i < m->count; i++) {
        const vx_manifold_point *p = &m->points[i];
        cr_assert(vx_vec3_is_finite(p->point_a) && vx_vec3_is_finite(p->point_b) && isfinite(p->depth));
        cr_assert_gt(p->depth, -margin, "point %d depth %g with margin %g", i, (double)p->depth, (double)margin);
        vx_vec3 d = vx_vec3_sub(p->point_a, p->point_b);
        vx_vec3 nd = vx_vec3_scale(m->normal, p->depth);
        float scale = 1.0f + vx_vec3_length(p->point_a);
        VX_ASSERT_VEC3_NEAR(d, nd.x, nd.y, nd.z, 1e-5f * scale);
        for (int j = 0; j < i; j++)
            cr_assert_neq(m->points[j].feature, p->feature, "points %d and %d share feature %#x", j, i,
                          p->feature);
    }
}

static void assert_no_contact(bool hit, const vx_manifold *m)
{
    cr_assert_not(hit);
    cr_assert_eq(m->count, 0);
}

static float max_depth(const vx_manifold *m)
{
    float d = m->points[0].depth;
    for (int i = 1; i < m->count; i++) d = fmaxf(d, m->points[i].depth);
    return d;
}

/* How far p is from the surface of the box (0 on it, > 0 off it). */
static float off_box_surface(vx_vec3 p, const vx_transform *t, vx_vec3 half)
{
    vx_vec3 local = vx_quat_rotate(vx_quat_conjugate(vx_quat_normalize(t->rotation)), vx_vec3_sub(p, t->position));
    float outside = 0.0f, inside = -INFINITY;
    for (int k = 0; k < 3; k++) {
        float e = fabsf(vx_vec3_get(local, k)) - vx_vec3_get(half, k);
        if (e > 0.0f) outside += e * e;
        inside = fmaxf(inside, e);
    }
    return outside > 0.0f ? sqrtf(outside) : -inside;
}

/* The point of m with this feature id, or NULL. */
static const vx_manifold_point *find_feature(const vx_manifold *m, uint32_t feature)
{
    for (int i = 0; i < m->count; i++)
        if (m->points[i].feature == feature) return &m->points[i];
    return NULL;
}

/* Every feature of a is in b and the other way round. */
static void assert_same_features(const vx_manifold *a, const vx_manifold *b)
{
    cr_assert_eq(a->count, b->count, "counts %d vs %d", a->count, b->count);
    for (int i = 0; i < a->count; i++)
        cr_assert_not_null(find_feature(b, a->points[i].feature), "feature %#x lost", a->points[i].feature);
}

/* ================= sphere vs sphere ================= */

Test(collide_sphere_sphere, separated_gives_nothing)
{
    vx_manifold m = poisoned();
    assert_no_contact(vx_collide_sphere_sphere(v3(0, 0, 0), 1.0f, v3(2.5f, 0, 0), 1.0f, 0.0f, &m), &m);
    /* A margin smaller than the gap still gives nothing. */
    m = poisoned();
    assert_no_contact(vx_collide_sphere_sphere(v3(0, 0, 0), 1.0f, v3(2.5f, 0, 0), 1.0f, 0.4f, &m), &m);
}

Test(collide_sphere_sphere, touching_is_reported_only_with_a_margin)
{
    vx_manifold m = poisoned();
    /* 3-4-5: distance exactly 5 = 2 + 3. */
    assert_no_contact(vx_collide_sphere_sphere(v3(0, 0, 0), 2.0f, v3(0, 3, 4), 3.0f, 0.0f, &m), &m);
    cr_assert(vx_collide_sphere_sphere(v3(0, 0, 0), 2.0f, v3(0, 3, 4), 3.0f, 0.01f, &m));
    assert_manifold_valid(&m, 0.01f);
    cr_assert_eq(m.count, 1);
    VX_ASSERT_NEAR(m.points[0].depth, 0.0f, EPS);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, 0.6f, 0.8f, EPS);
}

Test(collide_sphere_sphere, overlapping_on_a_slant)
{
    /* Centres 5 apart along (0, 0.6, 0.8); radii 2 + 4: depth 1. */
    vx_manifold m = poisoned();
    cr_assert(vx_collide_sphere_sphere(v3(1, 0, 0), 2.0f, v3(1, 3, 4), 4.0f, 0.0f, &m));
    assert_manifold_valid(&m, 0.0f);
    cr_assert_eq(m.count, 1);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, 0.6f, 0.8f, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 1.0f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_a, 1, 1.2f, 1.6f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 1, 0.6f, 0.8f, EPS);
    cr_assert_eq(m.points[0].feature, 0u);
}

Test(collide_sphere_sphere, deep_centre_inside)
{
    /* B's centre inside A: depth 3 + 1 - 0.5. */
    vx_manifold m;
    cr_assert(vx_collide_sphere_sphere(v3(0, 0, 0), 3.0f, v3(0, 0, -0.5f), 1.0f, 0.0f, &m));
    assert_manifold_valid(&m, 0.0f);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, 0, -1, 0);
    VX_ASSERT_NEAR(m.points[0].depth, 3.5f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_a, 0, 0, -3, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 0, 0, 0.5f, EPS);
}

Test(collide_sphere_sphere, coincident_centres_use_plus_y)
{
    vx_manifold m;
    cr_assert(vx_collide_sphere_sphere(v3(2, 3, 4), 1.0f, v3(2, 3, 4), 0.5f, 0.0f, &m));
    assert_manifold_valid(&m, 0.0f);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, 1, 0, 0);
    VX_ASSERT_NEAR(m.points[0].depth, 1.5f, 0);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_a, 2, 4, 4, 0);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 2, 2.5f, 4, 0);
    /* Centres a denormal apart have no usable direction either. */
    cr_assert(vx_collide_sphere_sphere(v3(0, 0, 0), 1.0f, v3(1e-30f, 0, 0), 1.0f, 0.0f, &m));
    assert_manifold_valid(&m, 0.0f);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, 1, 0, 0);
}

Test(collide_sphere_sphere, swapping_flips_the_normal_keeps_the_depth)
{
    vx_manifold ab, ba;
    cr_assert(vx_collide_sphere_sphere(v3(0.3f, -1, 2), 1.25f, v3(1.1f, 0.2f, 1.5f), 0.75f, 0.0f, &ab));
    cr_assert(vx_collide_sphere_sphere(v3(1.1f, 0.2f, 1.5f), 0.75f, v3(0.3f, -1, 2), 1.25f, 0.0f, &ba));
    assert_manifold_valid(&ab, 0.0f);
    assert_manifold_valid(&ba, 0.0f);
    VX_ASSERT_VEC3_NEAR(ba.normal, -ab.normal.x, -ab.normal.y, -ab.normal.z, EPS);
    VX_ASSERT_NEAR(ba.points[0].depth, ab.points[0].depth, EPS);
    /* vx_manifold_flip turns one into the other. */
    vx_manifold_flip(&ab);
    VX_ASSERT_VEC3_NEAR(ab.normal, ba.normal.x, ba.normal.y, ba.normal.z, EPS);
    VX_ASSERT_VEC3_NEAR(ab.points[0].point_a, ba.points[0].point_a.x, ba.points[0].point_a.y,
                        ba.points[0].point_a.z, EPS);
    VX_ASSERT_VEC3_NEAR(ab.points[0].point_b, ba.points[0].point_b.x, ba.points[0].point_b.y,
                        ba.points[0].point_b.z, EPS);
}

Test(collide_sphere_sphere, margin_gives_speculative_point)
{
    /* Gap 0.01, margin 0.02: one point with depth -0.01. */
    vx_manifold m;
    cr_assert(vx_collide_sphere_sphere(v3(0, 0, 0), 0.5f, v3(0, 0, 1.01f), 0.5f, 0.02f, &m));
    assert_manifold_valid(&m, 0.02f);
    VX_ASSERT_NEAR(m.points[0].depth, -0.01f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_a, 0, 0, 0.5f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 0, 0, 0.51f, EPS);
    /* A negative margin counts as 0: the same gap gives nothing. */
    assert_no_contact(vx_collide_sphere_sphere(v3(0, 0, 0), 0.5f, v3(0, 0, 1.01f), 0.5f, -1.0f, &m), &m);
}

Test(collide_sphere_sphere, agrees_with_the_reference_function)
{
    vx_test_rng rng = {0x1234567u};
    int hits = 0;
    for (int k = 0; k < 500; k++) {
        vx_vec3 pa = v3(vx_test_rng_range(&rng, -2, 2), vx_test_rng_range(&rng, -2, 2), vx_test_rng_range(&rng, -2, 2));
        vx_vec3 pb = v3(vx_test_rng_range(&rng, -2, 2), vx_test_rng_range(&rng, -2, 2), vx_test_rng_range(&rng, -2, 2));
        float ra = vx_test_rng_range(&rng, 0.1f, 2), rb = vx_test_rng_range(&rng, 0.1f, 2);
        vx_contact_geom g;
        vx_manifold m;
        bool spec = vx_sphere_vs_sphere(pa, ra, pb, rb, &g);
        bool hit = vx_collide_sphere_sphere(pa, ra, pb, rb, 0.0f, &m);
        cr_assert_eq(hit, spec);
        if (!hit) continue;
        hits++;
        assert_manifold_valid(&m, 0.0f);
        VX_ASSERT_VEC3_NEAR(m.normal, g.normal.x, g.normal.y, g.normal.z, EPS);
        VX_ASSERT_NEAR(m.points[0].depth, g.depth, EPS);
        VX_ASSERT_VEC3_NEAR(m.points[0].point_a, g.point_a.x, g.point_a.y, g.point_a.z, EPS);
        VX_ASSERT_VEC3_NEAR(m.points[0].point_b, g.point_b.x, g.point_b.y, g.point_b.z, EPS);
    }
    cr_assert_gt(hits, 50);
}

/* ================= sphere vs oriented box ================= */

/* Feature code of a box region (documented in collide_sphere.c). */
static uint32_t region(int rx, int ry, int rz) { return (uint32_t)((rx + 1) + 3 * (ry + 1) + 9 * (rz + 1)); }

Test(collide_sphere_box, separated_gives_nothing)
{
    /* Unit cube rotated 45 degrees about Z: its top edge is at y = sqrt(2). */
    vx_transform box = place(v3(0, 0, 0), rot(0, 0, 1, 45));
    vx_manifold m = poisoned();
    assert_no_contact(vx_collide_sphere_box(v3(0, 1.5f + sqrtf(2.0f), 0), 1.0f, &box, v3(1, 1, 1), 0.0f, &m), &m);
    /* Near a corner of the unrotated box the sphere would touch; rotated, the
     * corner has turned away. */
    m = poisoned();
    assert_no_contact(vx_collide_sphere_box(v3(1.6f, 1.6f, 0), 0.5f, &box, v3(1, 1, 1), 0.0f, &m), &m);
}

Test(collide_sphere_box, touching_is_reported_only_with_a_margin)
{
    vx_transform box = at(0, -1, 0);
    vx_manifold m = poisoned();
    assert_no_contact(vx_collide_sphere_box(v3(3, 0.5f, -2), 0.5f, &box, v3(10, 1, 10), 0.0f, &m), &m);
    cr_assert(vx_collide_sphere_box(v3(3, 0.5f, -2), 0.5f, &box, v3(10, 1, 10), 0.001f, &m));
    assert_manifold_valid(&m, 0.001f);
    VX_ASSERT_NEAR(m.points[0].depth, 0.0f, EPS);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, -1, 0, 0);
}

Test(collide_sphere_box, overlapping_face_of_a_rotated_box)
{
    /* Box half (2, 1, 1) rotated 30 degrees about Y: its +x face normal is
     * (cos 30, 0, -sin 30). A sphere of radius 0.5 centred 2.3 along it is
     * 0.2 deep; the normal from sphere to box is the opposite direction. */
    vx_transform box = place(v3(1, 2, 3), rot(0, 1, 0, 30));
    vx_vec3 face_n = v3(cosf(PI_F / 6), 0, -sinf(PI_F / 6));
    vx_vec3 centre = vx_vec3_add(box.position, vx_vec3_scale(face_n, 2.3f));
    vx_manifold m = poisoned();
    cr_assert(vx_collide_sphere_box(centre, 0.5f, &box, v3(2, 1, 1), 0.0f, &m));
    assert_manifold_valid(&m, 0.0f);
    cr_assert_eq(m.count, 1);
    VX_ASSERT_VEC3_NEAR(m.normal, -face_n.x, -face_n.y, -face_n.z, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 0.2f, EPS);
    vx_vec3 on_face = vx_vec3_add(box.position, vx_vec3_scale(face_n, 2.0f));
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, on_face.x, on_face.y, on_face.z, EPS);
    cr_assert_eq(m.points[0].feature, region(1, 0, 0));
}

Test(collide_sphere_box, edge_of_a_box_rotated_45_degrees)
{
    /* Unit cube rotated 45 degrees about Z: its top is the edge through
     * (0, sqrt 2, z), the box's (+x, +y) edge. A sphere 0.3 above it with
     * radius 0.5 is 0.2 deep, pushed straight up. */
    vx_transform box = place(v3(0, 0, 0), rot(0, 0, 1, 45));
    float top = sqrtf(2.0f);
    vx_manifold m;
    cr_assert(vx_collide_sphere_box(v3(0, top + 0.3f, 0.4f), 0.5f, &box, v3(1, 1, 1), 0.0f, &m));
    assert_manifold_valid(&m, 0.0f);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, -1, 0, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 0.2f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 0, top, 0.4f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_a, 0, top - 0.2f, 0.4f, EPS);
    cr_assert_eq(m.points[0].feature, region(1, 1, 0));
}

Test(collide_sphere_box, corner_of_a_rotated_box)
{
    /* Box rotated 90 degrees about X: local (1,1,1) is world (1,-1,1). A
     * sphere out along that diagonal touches the corner. */
    vx_transform box = place(v3(0, 0, 0), rot(1, 0, 0, 90));
    float s = 1.0f / sqrtf(3.0f);
    vx_vec3 diag = v3(s, -s, s);
    vx_vec3 corner = v3(1, -1, 1);
    vx_vec3 centre = vx_vec3_add(corner, vx_vec3_scale(diag, 0.4f));
    vx_manifold m;
    cr_assert(vx_collide_sphere_box(centre, 0.5f, &box, v3(1, 1, 1), 0.0f, &m));
    assert_manifold_valid(&m, 0.0f);
    VX_ASSERT_VEC3_NEAR(m.normal, -s, s, -s, 1e-4);
    VX_ASSERT_NEAR(m.points[0].depth, 0.1f, 1e-5);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 1, -1, 1, 1e-5);
    cr_assert_eq(m.points[0].feature, region(1, 1, 1));
}

Test(collide_sphere_box, deep_centre_inside_uses_least_penetration_face)
{
    /* Box half (1, 2, 3) rotated 90 degrees about Z: local x is world +y.
     * A centre 0.25 below the local +x face (world y = 0.75) leaves through
     * it: normal A->B = -(world +y), depth r + 0.25. */
    vx_transform box = place(v3(0, 0, 0), rot(0, 0, 1, 90));
    vx_manifold m;
    cr_assert(vx_collide_sphere_box(v3(0.5f, 0.75f, 1.0f), 0.5f, &box, v3(1, 2, 3), 0.0f, &m));
    assert_manifold_valid(&m, 0.0f);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, -1, 0, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 0.75f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 0.5f, 1.0f, 1.0f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_a, 0.5f, 0.25f, 1.0f, EPS);
    cr_assert_eq(m.points[0].feature, region(1, 0, 0));
}

Test(collide_sphere_box, centre_at_box_centre_ties_go_to_lowest_axis_plus_face)
{
    /* Cube rotated 30 degrees about Z, centre at the sphere's: every face is
     * 1 away; the tie goes to local +x, so the normal is minus that axis. */
    vx_transform box = place(v3(1, 1, 1), rot(0, 0, 1, 30));
    vx_manifold m;
    cr_assert(vx_collide_sphere_box(v3(1, 1, 1), 0.5f, &box, v3(1, 1, 1), 0.0f, &m));
    assert_manifold_valid(&m, 0.0f);
    VX_ASSERT_VEC3_NEAR(m.normal, -cosf(PI_F / 6), -sinf(PI_F / 6), 0, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 1.5f, EPS);
    cr_assert_eq(m.points[0].feature, region(1, 0, 0));
}

Test(collide_sphere_box, normal_points_from_sphere_to_box)
{
    /* Whatever side the sphere is on, the normal points into the box. */
    vx_transform box = place(v3(0, 0, 0), rot(1, 2, 3, 40));
    vx_test_rng rng = {77u};
    int hits = 0;
    for (int k = 0; k < 1000; k++) {
        vx_vec3 c = v3(vx_test_rng_range(&rng, -1.6f, 1.6f), vx_test_rng_range(&rng, -1.6f, 1.6f),
                       vx_test_rng_range(&rng, -1.6f, 1.6f));
        vx_manifold m;
        if (!vx_collide_sphere_box(c, 0.6f, &box, v3(1, 0.5f, 0.75f), 0.0f, &m)) continue;
        hits++;
        assert_manifold_valid(&m, 0.0f);
        /* The sphere's point is the centre plus r along the normal. */
        vx_vec3 expect_a = vx_vec3_add(c, vx_vec3_scale(m.normal, 0.6f));
        VX_ASSERT_VEC3_NEAR(m.points[0].point_a, expect_a.x, expect_a.y, expect_a.z, EPS);
        cr_assert_leq(off_box_surface(m.points[0].point_b, &box, v3(1, 0.5f, 0.75f)), 1e-5f);
        /* Moving the sphere along -normal by depth makes it just touch. */
        vx_vec3 moved = vx_vec3_sub(c, vx_vec3_scale(m.normal, m.points[0].depth + 1e-4f));
        vx_manifold after;
        cr_assert_not(vx_collide_sphere_box(moved, 0.6f, &box, v3(1, 0.5f, 0.75f), 0.0f, &after));
    }
    cr_assert_gt(hits, 100);
}

Test(collide_sphere_box, margin_gives_speculative_point)
{
    /* Box rotated 90 degrees about X (local y is world z); the sphere is 0.01
     * beyond the local +y face. */
    vx_transform box = place(v3(0, 0, 0), rot(1, 0, 0, 90));
    vx_manifold m;
    cr_assert(vx_collide_sphere_box(v3(0.2f, 0.1f, 2.51f), 0.5f, &box, v3(1, 2, 3), 0.02f, &m));
    assert_manifold_valid(&m, 0.02f);
    VX_ASSERT_NEAR(m.points[0].depth, -0.01f, EPS);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, 0, -1, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 0.2f, 0.1f, 2.0f, EPS);
    assert_no_contact(vx_collide_sphere_box(v3(0.2f, 0.1f, 2.51f), 0.5f, &box, v3(1, 2, 3), 0.005f, &m), &m);
}

Test(collide_sphere_box, agrees_with_the_reference_function_unrotated)
{
    vx_test_rng rng = {0xC0FFEEu};
    int hits = 0, inside = 0;
    for (int k = 0; k < 1000; k++) {
        vx_vec3 c = v3(vx_test_rng_range(&rng, -3, 3), vx_test_rng_range(&rng, -3, 3), vx_test_rng_range(&rng, -3, 3));
        vx_vec3 bp = v3(vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, -1, 1));
        vx_vec3 h = v3(vx_test_rng_range(&rng, 0.2f, 2), vx_test_rng_range(&rng, 0.2f, 2), vx_test_rng_range(&rng, 0.2f, 2));
        float r = vx_test_rng_range(&rng, 0.1f, 1.5f);
        vx_transform box = place(bp, vx_quat_identity());
        vx_contact_geom g;
        vx_manifold m;
        bool spec = vx_sphere_vs_box(c, r, bp, h, &g);
        bool hit = vx_collide_sphere_box(c, r, &box, h, 0.0f, &m);
        cr_assert_eq(hit, spec, "case %d", k);
        if (!hit) continue;
        hits++;
        if (vx_aabb_contains_point(vx_aabb_from_center_half_extents(bp, h), c)) inside++;
        assert_manifold_valid(&m, 0.0f);
        VX_ASSERT_VEC3_NEAR(m.normal, g.normal.x, g.normal.y, g.normal.z, EPS);
        VX_ASSERT_NEAR(m.points[0].depth, g.depth, EPS);
        VX_ASSERT_VEC3_NEAR(m.points[0].point_b, g.point_b.x, g.point_b.y, g.point_b.z, EPS);
        cr_assert_eq(m.points[0].feature, g.feature);
    }
    cr_assert_gt(hits, 100);
    cr_assert_gt(inside, 10);
}

Test(collide_sphere_box, rotating_the_whole_scene_rotates_the_contact)
{
    /* Rotating box and sphere together about the box centre: same depth and
     * feature, the normal rotated with them. */
    vx_test_rng rng = {4242u};
    vx_quat g = rot(0.3f, -1, 0.5f, 63);
    for (int k = 0; k < 300; k++) {
        vx_vec3 c = v3(vx_test_rng_range(&rng, -2, 2), vx_test_rng_range(&rng, -2, 2), vx_test_rng_range(&rng, -2, 2));
        vx_vec3 h = v3(1, 0.6f, 0.8f);
        vx_transform box0 = at(0, 0, 0);
        vx_transform box1 = place(v3(0, 0, 0), g);
        vx_manifold m0, m1;
        bool hit0 = vx_collide_sphere_box(c, 0.7f, &box0, h, 0.0f, &m0);
        bool hit1 = vx_collide_sphere_box(vx_quat_rotate(g, c), 0.7f, &box1, h, 0.0f, &m1);
        cr_assert_eq(hit0, hit1);
        if (!hit0) continue;
        vx_vec3 n = vx_quat_rotate(g, m0.normal);
        VX_ASSERT_VEC3_NEAR(m1.normal, n.x, n.y, n.z, 1e-4);
        VX_ASSERT_NEAR(m1.points[0].depth, m0.points[0].depth, 1e-5);
        cr_assert_eq(m1.points[0].feature, m0.points[0].feature);
    }
}

Test(collide_sphere_box, feature_stable_under_small_motion)
{
    /* A ball resting on a tilted face, on an edge and inside near a face
     * keeps its feature when nudged. */
    vx_transform box = place(v3(0, 0, 0), rot(1, 0, 1, 20));
    vx_transform nudged = place(v3(1e-4f, -2e-4f, 1e-4f), rot(1, 0, 1, 20.05f));
    vx_vec3 h = v3(1, 1, 1);
    vx_vec3 spots[3] = {vx_quat_rotate(box.rotation, v3(0.2f, 1.3f, -0.1f)),
                        vx_quat_rotate(box.rotation, v3(1.2f, 1.2f, 0.3f)),
                        vx_quat_rotate(box.rotation, v3(0.1f, -0.8f, 0.2f))};
    uint32_t expect[3] = {region(0, 1, 0), region(1, 1, 0), region(0, -1, 0)};
    for (int k = 0; k < 3; k++) {
        vx_manifold m0, m1;
        cr_assert(vx_collide_sphere_box(spots[k], 0.5f, &box, h, 0.0f, &m0));
        cr_assert(vx_collide_sphere_box(spots[k], 0.5f, &nudged, h, 0.0f, &m1));
        cr_assert_eq(m0.points[0].feature, expect[k], "spot %d", k);
        cr_assert_eq(m1.points[0].feature, expect[k], "spot %d nudged", k);
    }
}

/* ================= box vs box ================= */

#define FEATURE_FACE(ref_b, ref_face, type, payload)                                                       \
    ((1u << 24) | ((ref_b) ? (1u << 16) : 0u) | ((uint32_t)(ref_face) << 12) | ((uint32_t)(type) << 8) |  \
     (uint32_t)(payload))
#define FEATURE_EDGE(edge_a, edge_b) ((2u << 24) | ((uint32_t)(edge_a) << 4) | (uint32_t)(edge_b))

Test(collide_box_box, separated_gives_nothing)
{
    vx_manifold m = poisoned();
    vx_transform a = at(0, 0, 0), b = place(v3(3.5f, 0.2f, 0), rot(1, 1, 0, 30));
    assert_no_contact(vx_collide_box_box(&a, v3(1, 1, 1), &b, v3(1, 1, 1), 0.0f, &m), &m);
}

Test(collide_box_box, separated_only_along_an_edge_axis)
{
    /* Cubes rotated 45 degrees about Z and about X: their edges cross 0.05
     * apart. Every face axis overlaps; only the cross product of the two
     * edges separates them. */
    float h = 0.5f, top = h * sqrtf(2.0f);
    vx_transform a = place(v3(0, 0, 0), rot(0, 0, 1, 45));
    vx_transform b = place(v3(0, 2 * top + 0.05f, 0), rot(1, 0, 0, 45));
    vx_manifold m = poisoned();
    assert_no_contact(vx_collide_box_box(&a, v3(h, h, h), &b, v3(h, h, h), 0.0f, &m), &m);
    /* With a margin beyond the gap it is a speculative edge contact. */
    cr_assert(vx_collide_box_box(&a, v3(h, h, h), &b, v3(h, h, h), 0.1f, &m));
    assert_manifold_valid(&m, 0.1f);
    cr_assert_eq(m.count, 1);
    VX_ASSERT_NEAR(m.points[0].depth, -0.05f, 1e-5);
}

Test(collide_box_box, touching_is_reported_only_with_a_margin)
{
    vx_transform floor = at(0, 0, 0), box = at(0.3f, 1.5f, -0.2f);
    vx_manifold m = poisoned();
    assert_no_contact(vx_collide_box_box(&floor, v3(5, 1, 5), &box, v3(0.5f, 0.5f, 0.5f), 0.0f, &m), &m);
    cr_assert(vx_collide_box_box(&floor, v3(5, 1, 5), &box, v3(0.5f, 0.5f, 0.5f), 0.01f, &m));
    assert_manifold_valid(&m, 0.01f);
    cr_assert_eq(m.count, 4);
    for (int i = 0; i < 4; i++) VX_ASSERT_NEAR(m.points[i].depth, 0.0f, EPS);
}

Test(collide_box_box, resting_face_down_gives_four_points)
{
    /* Floor half (5, 1, 5), top at y = 1; a cube of half 0.5 sunk 0.01. */
    vx_transform floor = at(0, 0, 0), box = at(0.3f, 1.49f, -0.2f);
    vx_manifold m = poisoned();
    cr_assert(vx_collide_box_box(&floor, v3(5, 1, 5), &box, v3(0.5f, 0.5f, 0.5f), 0.0f, &m));
    assert_manifold_valid(&m, 0.0f);
    cr_assert_eq(m.count, 4);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, 1, 0, 0);
    /* The floor's top face is the reference (bits: A, face +y = 2); the
     * points are the cube's 4 bottom vertices (y sign bit clear). */
    const uint32_t bottom[4] = {0u, 1u, 4u, 5u};
    for (int k = 0; k < 4; k++) {
        const vx_manifold_point *p = find_feature(&m, FEATURE_FACE(false, 2, 1, bottom[k]));
        cr_assert_not_null(p, "vertex %u", bottom[k]);
        float x = 0.3f + ((bottom[k] & 1u) ? 0.5f : -0.5f);
        float z = -0.2f + ((bottom[k] & 4u) ? 0.5f : -0.5f);
        VX_ASSERT_NEAR(p->depth, 0.01f, EPS);
        VX_ASSERT_VEC3_NEAR(p->point_a, x, 1.0f, z, EPS);
        VX_ASSERT_VEC3_NEAR(p->point_b, x, 0.99f, z, EPS);
    }
}

Test(collide_box_box, resting_face_down_turned_about_y_and_swapped)
{
    /* The cube turned 30 degrees about Y still rests on a face: 4 points at
     * its bottom corners, depth 0.01 each. Swapped, the normal flips and the
     * cube's bottom face becomes the reference: the same 4 corners. */
    vx_transform floor = at(0, 0, 0), box = place(v3(0, 1.49f, 0), rot(0, 1, 0, 30));
    vx_vec3 hf = v3(5, 1, 5), hb = v3(0.5f, 0.5f, 0.5f);
    vx_manifold ab, ba;
    cr_assert(vx_collide_box_box(&floor, hf, &box, hb, 0.0f, &ab));
    cr_assert(vx_collide_box_box(&box, hb, &floor, hf, 0.0f, &ba));
    assert_manifold_valid(&ab, 0.0f);
    assert_manifold_valid(&ba, 0.0f);
    cr_assert_eq(ab.count, 4);
    cr_assert_eq(ba.count, 4);
    VX_ASSERT_VEC3_NEAR(ab.normal, 0, 1, 0, EPS);
    VX_ASSERT_VEC3_NEAR(ba.normal, 0, -1, 0, EPS);
    for (int i = 0; i < 4; i++) {
        VX_ASSERT_NEAR(ab.points[i].depth, 0.01f, EPS);
        VX_ASSERT_NEAR(ba.points[i].depth, 0.01f, EPS);
        /* Every point is a corner of the turned cube's bottom face: 0.5 sqrt 2
         * from the axis, on the floor plane. */
        VX_ASSERT_NEAR(hypotf(ab.points[i].point_a.x, ab.points[i].point_a.z), 0.5f * sqrtf(2.0f), EPS);
        VX_ASSERT_NEAR(ab.points[i].point_a.y, 1.0f, EPS);
        VX_ASSERT_NEAR(ba.points[i].point_b.y, 1.0f, EPS);
        /* Each corner of one appears in the other. */
        bool found = false;
        for (int j = 0; j < 4; j++)
            if (vx_vec3_length(vx_vec3_sub(ab.points[i].point_a, ba.points[j].point_b)) < 1e-5f) found = true;
        cr_assert(found, "corner %d of A-B missing in B-A", i);
    }
    /* In the swapped call the cube (now A) owns the reference face -y (3). */
    for (int i = 0; i < 4; i++) cr_assert_eq(ba.points[i].feature >> 12, (1u << 12) | 3u);
}

Test(collide_box_box, small_box_under_a_large_one_uses_its_corners)
{
    /* A is the small cube, B the big slab resting on it: the cube's top face
     * is the reference (A preferred on the tie) and the slab's bottom face is
     * clipped to it: the 4 points are the cube's top corners (type 3). */
    vx_transform small = at(0, 0, 0), slab = place(v3(0.7f, 1.98f, 0), rot(0, 1, 0, 10));
    vx_manifold m;
    cr_assert(vx_collide_box_box(&small, v3(1, 1, 1), &slab, v3(4, 1, 4), 0.0f, &m));
    assert_manifold_valid(&m, 0.0f);
    cr_assert_eq(m.count, 4);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, 1, 0, EPS);
    const uint32_t top[4] = {2u, 3u, 6u, 7u};
    for (int k = 0; k < 4; k++) {
        const vx_manifold_point *p = find_feature(&m, FEATURE_FACE(false, 2, 3, top[k]));
        cr_assert_not_null(p, "corner %u", top[k]);
        VX_ASSERT_NEAR(p->depth, 0.02f, EPS);
        VX_ASSERT_VEC3_NEAR(p->point_a, (top[k] & 1u) ? 1.0f : -1.0f, 1.0f, (top[k] & 4u) ? 1.0f : -1.0f, EPS);
    }
}

Test(collide_box_box, partial_face_overlap_clips_to_the_overlap)
{
    /* Two unit cubes offset in x and z, B 0.1 into A from above: the contact
     * patch is the overlap square [0.5, 1] x [0.25, 1] (in x, z): 2 points
     * are B's vertices, 2 are edge crossings of A's side planes. */
    vx_transform a = at(0, 0, 0), b = at(1.5f, 1.9f, 1.25f);
    vx_manifold m;
    cr_assert(vx_collide_box_box(&a, v3(1, 1, 1), &b, v3(1, 1, 1), 0.0f, &m));
    assert_manifold_valid(&m, 0.0f);
    cr_assert_eq(m.count, 4);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, 1, 0, 0);
    float xs_min = 1e9f, xs_max = -1e9f, zs_min = 1e9f, zs_max = -1e9f;
    for (int i = 0; i < 4; i++) {
        VX_ASSERT_NEAR(m.points[i].depth, 0.1f, EPS);
        xs_min = fminf(xs_min, m.points[i].point_a.x);
        xs_max = fmaxf(xs_max, m.points[i].point_a.x);
        zs_min = fminf(zs_min, m.points[i].point_a.z);
        zs_max = fmaxf(zs_max, m.points[i].point_a.z);
    }
    VX_ASSERT_NEAR(xs_min, 0.5f, EPS);
    VX_ASSERT_NEAR(xs_max, 1.0f, EPS);
    VX_ASSERT_NEAR(zs_min, 0.25f, EPS);
    VX_ASSERT_NEAR(zs_max, 1.0f, EPS);
    /* (0.5, 0.25) is B's bottom vertex 0 (x-, z-); (1, 1) is A's top corner 7. */
    cr_assert_not_null(find_feature(&m, FEATURE_FACE(false, 2, 1, 0u)));
    cr_assert_not_null(find_feature(&m, FEATURE_FACE(false, 2, 3, 7u)));
}

Test(collide_box_box, deep_centre_inside_agrees_with_the_reference)
{
    /* A small box wholly inside a big one, off centre: the normal and depth
     * of the reference pipeline's least-overlap axis. */
    vx_vec3 pa = v3(0, 0, 0), ha = v3(3, 2, 4), pb = v3(0.5f, 1.2f, -0.3f), hb = v3(0.3f, 0.4f, 0.2f);
    vx_transform a = at(pa.x, pa.y, pa.z), b = at(pb.x, pb.y, pb.z);
    vx_contact_geom g;
    vx_manifold m;
    cr_assert(vx_box_vs_box(pa, ha, pb, hb, &g));
    cr_assert(vx_collide_box_box(&a, ha, &b, hb, 0.0f, &m));
    assert_manifold_valid(&m, 0.0f);
    VX_ASSERT_VEC3_NEAR(m.normal, g.normal.x, g.normal.y, g.normal.z, 0);
    VX_ASSERT_NEAR(max_depth(&m), g.depth, EPS);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, 1, 0, 0);
    VX_ASSERT_NEAR(g.depth, 2.0f + 0.4f - 1.2f, EPS);
}

Test(collide_box_box, agrees_with_the_reference_function_unrotated)
{
    vx_test_rng rng = {0xBADC0DEu};
    int hits = 0;
    for (int k = 0; k < 2000; k++) {
        vx_vec3 pa = v3(vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, -1, 1));
        vx_vec3 pb = v3(vx_test_rng_range(&rng, -2, 2), vx_test_rng_range(&rng, -2, 2), vx_test_rng_range(&rng, -2, 2));
        vx_vec3 ha = v3(vx_test_rng_range(&rng, 0.1f, 1.5f), vx_test_rng_range(&rng, 0.1f, 1.5f),
                        vx_test_rng_range(&rng, 0.1f, 1.5f));
        vx_vec3 hb = v3(vx_test_rng_range(&rng, 0.1f, 1.5f), vx_test_rng_range(&rng, 0.1f, 1.5f),
                        vx_test_rng_range(&rng, 0.1f, 1.5f));
        vx_transform a = at(pa.x, pa.y, pa.z), b = at(pb.x, pb.y, pb.z);
        vx_contact_geom g;
        vx_manifold m;
        bool spec = vx_box_vs_box(pa, ha, pb, hb, &g);
        bool hit = vx_collide_box_box(&a, ha, &b, hb, 0.0f, &m);
        cr_assert_eq(hit, spec, "case %d", k);
        if (!hit) continue;
        hits++;
        assert_manifold_valid(&m, 0.0f);
        VX_ASSERT_VEC3_NEAR(m.normal, g.normal.x, g.normal.y, g.normal.z, 0);
        /* Parallel faces: every point is as deep as the overlap. */
        for (int i = 0; i < m.count; i++) VX_ASSERT_NEAR(m.points[i].depth, g.depth, EPS);
    }
    cr_assert_gt(hits, 200);
}

Test(collide_box_box, coincident_centres)
{
    /* Identical boxes on top of each other: the reference pipeline's answer (+x on the
     * tie, depth 2), a whole face of points. */
    vx_transform a = at(1, 2, 3);
    vx_manifold m;
    cr_assert(vx_collide_box_box(&a, v3(1, 1, 1), &a, v3(1, 1, 1), 0.0f, &m));
    assert_manifold_valid(&m, 0.0f);
    VX_ASSERT_VEC3_NEAR(m.normal, 1, 0, 0, 0);
    cr_assert_eq(m.count, 4);
    for (int i = 0; i < 4; i++) VX_ASSERT_NEAR(m.points[i].depth, 2.0f, EPS);

    /* The same, rotated, and with different sizes: still finite and sane. */
    vx_transform r = place(v3(1, 2, 3), rot(1, 2, 3, 37));
    cr_assert(vx_collide_box_box(&r, v3(1, 0.5f, 2), &r, v3(1, 0.5f, 2), 0.0f, &m));
    assert_manifold_valid(&m, 0.0f);
    VX_ASSERT_NEAR(max_depth(&m), 1.0f, EPS); /* least overlap: 2 * 0.5 along local y */
    vx_transform r2 = place(v3(1, 2, 3), rot(-1, 0, 2, 71));
    cr_assert(vx_collide_box_box(&r, v3(1, 0.5f, 2), &r2, v3(0.2f, 3, 0.7f), 0.0f, &m));
    assert_manifold_valid(&m, 0.0f);
}

Test(collide_box_box, edge_on_edge_gives_one_point)
{
    /* Cube A rotated 45 degrees about Z: top edge along z at y = h sqrt 2.
     * Cube B rotated 45 degrees about X: bottom edge along x at
     * y_b - h sqrt 2. They cross at the origin's vertical, 0.02 deep. */
    float h = 0.5f, top = h * sqrtf(2.0f);
    vx_transform a = place(v3(0, 0, 0), rot(0, 0, 1, 45));
    vx_transform b = place(v3(0, 2 * top - 0.02f, 0), rot(1, 0, 0, 45));
    vx_manifold m;
    cr_assert(vx_collide_box_box(&a, v3(h, h, h), &b, v3(h, h, h), 0.0f, &m));
    assert_manifold_valid(&m, 0.0f);
    cr_assert_eq(m.count, 1);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, 1, 0, 1e-5);
    VX_ASSERT_NEAR(m.points[0].depth, 0.02f, 1e-5);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_a, 0, top, 0, 1e-5);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 0, top - 0.02f, 0, 1e-5);
    /* A's edge along z on the (+x, +y) side: 2*4 + 1 + 2 = 11; B's edge along
     * x on the (-y, +z) side: 0*4 + 0 + 2 = 2. */
    cr_assert_eq(m.points[0].feature, FEATURE_EDGE(11, 2));

    /* Swapped: the normal flips, the depth and the place stay. */
    vx_manifold s;
    cr_assert(vx_collide_box_box(&b, v3(h, h, h), &a, v3(h, h, h), 0.0f, &s));
    assert_manifold_valid(&s, 0.0f);
    cr_assert_eq(s.count, 1);
    VX_ASSERT_VEC3_NEAR(s.normal, 0, -1, 0, 1e-5);
    VX_ASSERT_NEAR(s.points[0].depth, 0.02f, 1e-5);
    VX_ASSERT_VEC3_NEAR(s.points[0].point_a, 0, top - 0.02f, 0, 1e-5);
    cr_assert_eq(s.points[0].feature, FEATURE_EDGE(2, 11));
}

Test(collide_box_box, edge_on_edge_off_centre)
{
    /* The crossing moved: B shifted by (0.2, ., -0.1). B's bottom edge runs
     * along x at z = -0.1, A's top edge along z at x = 0: they cross at
     * (0, ., -0.1), 0.03 deep. */
    float h = 0.5f, top = h * sqrtf(2.0f);
    vx_transform a = place(v3(0, 0, 0), rot(0, 0, 1, 45));
    vx_transform b = place(v3(0.2f, 2 * top - 0.03f, -0.1f), rot(1, 0, 0, 45));
    vx_manifold m;
    cr_assert(vx_collide_box_box(&a, v3(h, h, h), &b, v3(h, h, h), 0.0f, &m));
    assert_manifold_valid(&m, 0.0f);
    cr_assert_eq(m.count, 1);
    VX_ASSERT_NEAR(m.points[0].depth, 0.03f, 1e-5);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_a, 0, top, -0.1f, 1e-5);
}

Test(collide_box_box, box_standing_on_an_edge_gives_two_points)
{
    /* A cube rotated 45 degrees about Z stands on its bottom edge (along z),
     * 0.01 into the floor: the 2 ends of that edge. */
    float h = 0.5f;
    vx_transform floor = at(0, 0, 0);
    vx_transform box = place(v3(0, 1 + h * sqrtf(2.0f) - 0.01f, 0), rot(0, 0, 1, 45));
    vx_manifold m;
    cr_assert(vx_collide_box_box(&floor, v3(5, 1, 5), &box, v3(h, h, h), 0.0f, &m));
    assert_manifold_valid(&m, 0.0f);
    cr_assert_eq(m.count, 2);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, 1, 0, 0);
    /* The bottom edge joins the cube's vertices (-, -, -) = 0 and (-, -, +) = 4. */
    const vx_manifold_point *p0 = find_feature(&m, FEATURE_FACE(false, 2, 1, 0u));
    const vx_manifold_point *p4 = find_feature(&m, FEATURE_FACE(false, 2, 1, 4u));
    cr_assert_not_null(p0);
    cr_assert_not_null(p4);
    VX_ASSERT_NEAR(p0->depth, 0.01f, 1e-5);
    VX_ASSERT_NEAR(p4->depth, 0.01f, 1e-5);
    VX_ASSERT_VEC3_NEAR(p0->point_a, 0, 1, -h, 1e-5);
    VX_ASSERT_VEC3_NEAR(p4->point_a, 0, 1, h, 1e-5);
    VX_ASSERT_VEC3_NEAR(p0->point_b, 0, 0.99f, -h, 1e-5);
}

/* Rotation putting the cube's (-,-,-) to (+,+,+) diagonal vertical, the
 * (-,-,-) vertex at the bottom: 45 degrees about Z, then atan(1/sqrt 2)
 * about X (which sends the rotated vertex (0, -sqrt 2, -1) to (0, -sqrt 3, 0)). */
static vx_quat corner_down(void)
{
    vx_quat z45 = rot(0, 0, 1, 45);
    vx_quat tilt = vx_quat_from_axis_angle(v3(1, 0, 0), -atanf(1.0f / sqrtf(2.0f)));
    return vx_quat_normalize(vx_quat_mul(tilt, z45));
}

Test(collide_box_box, tilted_corner_into_the_floor_gives_one_point)
{
    float h = 0.5f;
    vx_quat q = corner_down();
    vx_vec3 low = vx_quat_rotate(q, v3(-h, -h, -h));
    VX_ASSERT_VEC3_NEAR(low, 0, -h * sqrtf(3.0f), 0, 1e-5); /* the setup itself */
    vx_transform floor = at(0, 0, 0);
    vx_transform box = place(v3(0.4f, 1 + h * sqrtf(3.0f) - 0.02f, -0.3f), q);
    vx_manifold m;
    cr_assert(vx_collide_box_box(&floor, v3(5, 1, 5), &box, v3(h, h, h), 0.0f, &m));
    assert_manifold_valid(&m, 0.0f);
    cr_assert_eq(m.count, 1);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, 1, 0, 0);
    VX_ASSERT_NEAR(m.points[0].depth, 0.02f, 1e-5);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 0.4f, 0.98f, -0.3f, 1e-5);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_a, 0.4f, 1.0f, -0.3f, 1e-5);
    cr_assert_eq(m.points[0].feature, FEATURE_FACE(false, 2, 1, 0u));

    /* Swapped: the same point, normal down. */
    vx_manifold s;
    cr_assert(vx_collide_box_box(&box, v3(h, h, h), &floor, v3(5, 1, 5), 0.0f, &s));
    assert_manifold_valid(&s, 0.0f);
    cr_assert_eq(s.count, 1);
    VX_ASSERT_VEC3_NEAR(s.normal, 0, -1, 0, 0);
    VX_ASSERT_NEAR(s.points[0].depth, 0.02f, 1e-5);
    VX_ASSERT_VEC3_NEAR(s.points[0].point_a, 0.4f, 0.98f, -0.3f, 1e-5);
}

Test(collide_box_box, ninety_degree_rotations_match_swapped_extents)
{
    /* Half (1, 2, 3) rotated 90 degrees about Z is the box (2, 1, 3): the
     * contact against a floor must be the reference pipeline's for that box. */
    vx_transform floor = at(0, 0, 0);
    vx_transform box = place(v3(0.5f, 1.0f + 1.0f - 0.05f, 0.25f), rot(0, 0, 1, 90));
    vx_manifold m;
    vx_contact_geom g;
    cr_assert(vx_collide_box_box(&floor, v3(5, 1, 5), &box, v3(1, 2, 3), 0.0f, &m));
    cr_assert(vx_box_vs_box(v3(0, 0, 0), v3(5, 1, 5), box.position, v3(2, 1, 3), &g));
    assert_manifold_valid(&m, 0.0f);
    cr_assert_eq(m.count, 4);
    VX_ASSERT_VEC3_NEAR(m.normal, g.normal.x, g.normal.y, g.normal.z, EPS);
    for (int i = 0; i < 4; i++) {
        VX_ASSERT_NEAR(m.points[i].depth, g.depth, EPS);
        VX_ASSERT_NEAR(fabsf(m.points[i].point_b.x - 0.5f), 2.0f, EPS);
        VX_ASSERT_NEAR(fabsf(m.points[i].point_b.z - 0.25f), 3.0f, EPS);
    }
    /* And two boxes each turned by 90 degrees about different axes. */
    vx_transform a2 = place(v3(0, 0, 0), rot(1, 0, 0, 90));  /* half (1,2,3) -> (1,3,2) */
    vx_transform b2 = place(v3(1.9f, 0.5f, 0), rot(0, 1, 0, 90)); /* half (1,2,3) -> (3,2,1) */
    cr_assert(vx_collide_box_box(&a2, v3(1, 2, 3), &b2, v3(1, 2, 3), 0.0f, &m));
    cr_assert(vx_box_vs_box(v3(0, 0, 0), v3(1, 3, 2), b2.position, v3(3, 2, 1), &g));
    assert_manifold_valid(&m, 0.0f);
    VX_ASSERT_VEC3_NEAR(m.normal, g.normal.x, g.normal.y, g.normal.z, EPS);
    for (int i = 0; i < m.count; i++) VX_ASSERT_NEAR(m.points[i].depth, g.depth, 1e-4);
}

Test(collide_box_box, tiny_box_on_a_huge_box)
{
    /* A 2 mm cube sunk 0.1 mm into a 2 km box: 4 points, no NaN. */
    vx_transform huge = at(0, -1000, 0), tiny = at(0.25f, 0.0009f, -0.5f);
    vx_vec3 hh = v3(1000, 1000, 1000), ht = v3(0.001f, 0.001f, 0.001f);
    vx_manifold m;
    cr_assert(vx_collide_box_box(&huge, hh, &tiny, ht, 0.0f, &m));
    assert_manifold_valid(&m, 0.0f);
    cr_assert_eq(m.count, 4);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, 1, 0, 0);
    for (int i = 0; i < 4; i++) VX_ASSERT_NEAR(m.points[i].depth, 1e-4f, 7e-5f); /* float at 1000: ulp 6e-5 */

    /* Tilted every which way, tiny against huge and huge against tiny. */
    vx_test_rng rng = {99u};
    for (int k = 0; k < 200; k++) {
        vx_quat q = vx_quat_normalize(vx_quat_make(vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, -1, 1),
                                                   vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, -1, 1)));
        vx_transform t = place(v3(vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, -0.002f, 0.002f),
                                  vx_test_rng_range(&rng, -1, 1)),
                               q);
        if (vx_collide_box_box(&huge, hh, &t, ht, 0.001f, &m)) assert_manifold_valid(&m, 0.001f);
        if (vx_collide_box_box(&t, ht, &huge, hh, 0.001f, &m)) assert_manifold_valid(&m, 0.001f);
    }
}

Test(collide_box_box, margin_gives_speculative_points)
{
    /* The cube 0.01 above the floor: margin 0.02 gives its 4 bottom corners
     * at depth -0.01; margin 0.005 gives nothing. */
    vx_transform floor = at(0, 0, 0), box = place(v3(0.1f, 1.51f, 0), rot(0, 1, 0, 15));
    vx_manifold m;
    cr_assert(vx_collide_box_box(&floor, v3(5, 1, 5), &box, v3(0.5f, 0.5f, 0.5f), 0.02f, &m));
    assert_manifold_valid(&m, 0.02f);
    cr_assert_eq(m.count, 4);
    for (int i = 0; i < 4; i++) {
        VX_ASSERT_NEAR(m.points[i].depth, -0.01f, EPS);
        VX_ASSERT_NEAR(m.points[i].point_a.y, 1.0f, EPS);
        VX_ASSERT_NEAR(m.points[i].point_b.y, 1.01f, EPS);
    }
    assert_no_contact(vx_collide_box_box(&floor, v3(5, 1, 5), &box, v3(0.5f, 0.5f, 0.5f), 0.005f, &m), &m);
}

Test(collide_box_box, features_stable_under_small_motion)
{
    /* Three configurations, each nudged by a tiny translation and rotation:
     * the same set of feature ids. */
    float h = 0.5f, top = h * sqrtf(2.0f);
    vx_vec3 hf = v3(5, 1, 5), hc = v3(h, h, h);
    vx_transform floor = at(0, 0, 0);

    /* Resting face-down, turned. */
    vx_transform rest0 = place(v3(0.3f, 1.49f, -0.2f), rot(0, 1, 0, 20));
    vx_transform rest1 = place(v3(0.3002f, 1.4899f, -0.1999f), vx_quat_mul(rot(1, 0, 0.5f, 0.1f), rot(0, 1, 0, 20.1f)));
    /* Standing on an edge, tipped both ways by 0.02 degrees. */
    vx_transform edge0 = place(v3(0, 1 + top - 0.01f, 0), rot(0, 0, 1, 45.02f));
    vx_transform edge1 = place(v3(0.0001f, 1 + top - 0.0101f, 0), rot(0, 0, 1, 44.98f));
    /* Edge across edge. */
    vx_transform a = place(v3(0, 0, 0), rot(0, 0, 1, 45));
    vx_transform cross0 = place(v3(0, 2 * top - 0.02f, 0), rot(1, 0, 0, 45));
    vx_transform cross1 = place(v3(0.001f, 2 * top - 0.0199f, 0.001f), rot(1, 0.01f, 0, 45.2f));

    vx_manifold m0, m1;
    cr_assert(vx_collide_box_box(&floor, hf, &rest0, hc, 0.0f, &m0));
    cr_assert(vx_collide_box_box(&floor, hf, &rest1, hc, 0.0f, &m1));
    cr_assert_eq(m0.count, 4);
    assert_same_features(&m0, &m1);

    cr_assert(vx_collide_box_box(&floor, hf, &edge0, hc, 0.0f, &m0));
    cr_assert(vx_collide_box_box(&floor, hf, &edge1, hc, 0.0f, &m1));
    cr_assert_eq(m0.count, 2);
    assert_same_features(&m0, &m1);

    cr_assert(vx_collide_box_box(&a, hc, &cross0, hc, 0.0f, &m0));
    cr_assert(vx_collide_box_box(&a, hc, &cross1, hc, 0.0f, &m1));
    cr_assert_eq(m0.count, 1);
    assert_same_features(&m0, &m1);
}

Test(collide_box_box, rotating_the_whole_scene_rotates_the_manifold)
{
    /* Random overlapping pairs, then the same pairs rotated about the origin:
     * the same features with the same depths, the normal rotated. */
    vx_test_rng rng = {0xFEEDu};
    vx_quat g = rot(1, -2, 0.5f, 77);
    int hits = 0;
    for (int k = 0; k < 400; k++) {
        vx_quat qa = vx_quat_normalize(vx_quat_make(vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, -1, 1),
                                                    vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, -1, 1)));
        vx_quat qb = vx_quat_normalize(vx_quat_make(vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, -1, 1),
                                                    vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, -1, 1)));
        vx_vec3 pb = v3(vx_test_rng_range(&rng, -2, 2), vx_test_rng_range(&rng, -2, 2), vx_test_rng_range(&rng, -2, 2));
        vx_vec3 ha = v3(vx_test_rng_range(&rng, 0.3f, 1), vx_test_rng_range(&rng, 0.3f, 1), vx_test_rng_range(&rng, 0.3f, 1));
        vx_vec3 hb = v3(vx_test_rng_range(&rng, 0.3f, 1), vx_test_rng_range(&rng, 0.3f, 1), vx_test_rng_range(&rng, 0.3f, 1));
        vx_transform a0 = place(v3(0, 0, 0), qa), b0 = place(pb, qb);
        vx_transform a1 = place(v3(0, 0, 0), vx_quat_mul(g, qa)), b1 = place(vx_quat_rotate(g, pb), vx_quat_mul(g, qb));
        vx_manifold m0, m1;
        bool hit0 = vx_collide_box_box(&a0, ha, &b0, hb, 0.0f, &m0);
        bool hit1 = vx_collide_box_box(&a1, ha, &b1, hb, 0.0f, &m1);
        cr_assert_eq(hit0, hit1, "case %d", k);
        if (!hit0) continue;
        hits++;
        assert_manifold_valid(&m0, 0.0f);
        assert_manifold_valid(&m1, 0.0f);
        vx_vec3 n = vx_quat_rotate(g, m0.normal);
        VX_ASSERT_VEC3_NEAR(m1.normal, n.x, n.y, n.z, 1e-4);
        assert_same_features(&m0, &m1);
        for (int i = 0; i < m0.count; i++)
            VX_ASSERT_NEAR(find_feature(&m1, m0.points[i].feature)->depth, m0.points[i].depth, 1e-4);
    }
    cr_assert_gt(hits, 100);
}

Test(collide_box_box, random_pairs_give_sound_manifolds)
{
    /* Random poses, including deep and barely touching ones: every point lies
     * on both surfaces, the normal points from A to B, swapping the boxes
     * gives the opposite normal and the same deepest depth whenever the
     * deepest is on a clear axis, and pushing B out along the normal by the
     * deepest depth (plus a hair) separates the boxes. */
    vx_test_rng rng = {0xABCDEFu};
    int hits = 0;
    for (int k = 0; k < 1500; k++) {
        vx_quat qa = vx_quat_normalize(vx_quat_make(vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, -1, 1),
                                                    vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, -1, 1)));
        vx_quat qb = vx_quat_normalize(vx_quat_make(vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, -1, 1),
                                                    vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, -1, 1)));
        vx_vec3 pa = v3(vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, -1, 1));
        vx_vec3 pb = v3(vx_test_rng_range(&rng, -2, 2), vx_test_rng_range(&rng, -2, 2), vx_test_rng_range(&rng, -2, 2));
        vx_vec3 ha = v3(vx_test_rng_range(&rng, 0.1f, 1.2f), vx_test_rng_range(&rng, 0.1f, 1.2f),
                        vx_test_rng_range(&rng, 0.1f, 1.2f));
        vx_vec3 hb = v3(vx_test_rng_range(&rng, 0.1f, 1.2f), vx_test_rng_range(&rng, 0.1f, 1.2f),
                        vx_test_rng_range(&rng, 0.1f, 1.2f));
        vx_transform a = place(pa, qa), b = place(pb, qb);
        vx_manifold m;
        if (!vx_collide_box_box(&a, ha, &b, hb, 0.05f, &m)) continue;
        hits++;
        assert_manifold_valid(&m, 0.05f);
        cr_assert_geq(vx_vec3_dot(m.normal, vx_vec3_sub(pb, pa)), 0.0f, "case %d: normal must point A->B", k);
        for (int i = 0; i < m.count; i++) {
            /* A speculative edge-edge point whose closest points were clamped
             * to an edge end sits on the normal through their midpoint, off
             * the surfaces by at most the gap. */
            float tol = 1e-4f + (m.points[i].depth < 0.0f ? -m.points[i].depth : 0.0f);
            cr_assert_leq(off_box_surface(m.points[i].point_a, &a, ha), tol, "case %d point %d", k, i);
            cr_assert_leq(off_box_surface(m.points[i].point_b, &b, hb), tol, "case %d point %d", k, i);
        }
        float d = max_depth(&m);
        if (d > 0.0f) {
            vx_transform out = place(vx_vec3_add(pb, vx_vec3_scale(m.normal, d + 1e-3f)), qb);
            vx_manifold after;
            cr_assert_not(vx_collide_box_box(&a, ha, &out, hb, 0.0f, &after), "case %d: still overlapping", k);
        }
        vx_manifold s;
        cr_assert(vx_collide_box_box(&b, hb, &a, ha, 0.05f, &s), "case %d: swap lost the contact", k);
        assert_manifold_valid(&s, 0.05f);
    }
    cr_assert_gt(hits, 300);
}

Test(collide_box_box, reduction_keeps_deepest_and_spread)
{
    /* A cube turned 45 degrees about Y on a smaller square top: the clipped
     * octagon has 8 points; 4 are kept, spread over the patch. */
    vx_transform base = at(0, 0, 0);
    vx_transform box = place(v3(0, 1.9f, 0), rot(0, 1, 0, 45));
    vx_manifold m;
    cr_assert(vx_collide_box_box(&base, v3(0.6f, 1, 0.6f), &box, v3(0.6f, 1, 0.6f), 0.0f, &m));
    assert_manifold_valid(&m, 0.0f);
    cr_assert_eq(m.count, 4);
    for (int i = 0; i < 4; i++) VX_ASSERT_NEAR(m.points[i].depth, 0.1f, EPS);
    /* The 4 kept points span the patch: the octagon is the square of side
     * 2s minus 4 corner triangles with legs 2s - c (c: the turned square's
     * half diagonal); the best inscribed quadrilateral covers about 70% of
     * it, a poor choice (4 neighbouring vertices) well under half. */
    float s = 0.6f, c = 0.6f * sqrtf(2.0f);
    /* Area of the kept quad (points sorted around their centroid). */
    vx_vec3 ctr = vx_vec3_zero();
    for (int i = 0; i < 4; i++) ctr = vx_vec3_add(ctr, vx_vec3_scale(m.points[i].point_a, 0.25f));
    float ang[4];
    int idx[4] = {0, 1, 2, 3};
    for (int i = 0; i < 4; i++) ang[i] = atan2f(m.points[i].point_a.z - ctr.z, m.points[i].point_a.x - ctr.x);
    for (int i = 1; i < 4; i++)
        for (int j = i; j > 0 && ang[idx[j - 1]] > ang[idx[j]]; j--) {
            int t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    float area = 0.0f;
    for (int i = 0; i < 4; i++) {
        vx_vec3 p = m.points[idx[i]].point_a, q = m.points[idx[(i + 1) % 4]].point_a;
        area += 0.5f * (p.x * q.z - q.x * p.z);
    }
    float leg = 2 * s - c;
    float octagon = (2 * s) * (2 * s) - 2 * leg * leg;
    cr_assert_gt(fabsf(area), 0.6f * octagon, "kept area %g of octagon %g", (double)fabsf(area), (double)octagon);
}

Test(collide_manifold, flip_swaps_points_and_negates_normal)
{
    vx_manifold m;
    memset(&m, 0, sizeof m);
    m.normal = v3(0, 1, 0);
    m.count = 2;
    m.points[0].point_a = v3(1, 2, 3);
    m.points[0].point_b = v3(1, 1.5f, 3);
    m.points[0].depth = 0.5f;
    m.points[0].feature = 7u;
    m.points[1].point_a = v3(-1, 2, 0);
    m.points[1].point_b = v3(-1, 1.9f, 0);
    m.points[1].depth = 0.1f;
    m.points[1].feature = 9u;
    vx_manifold_flip(&m);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, -1, 0, 0);
    cr_assert_eq(m.count, 2);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_a, 1, 1.5f, 3, 0);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 1, 2, 3, 0);
    VX_ASSERT_NEAR(m.points[0].depth, 0.5f, 0);
    cr_assert_eq(m.points[0].feature, 7u);
    VX_ASSERT_VEC3_NEAR(m.points[1].point_a, -1, 1.9f, 0, 0);
    VX_ASSERT_NEAR(m.points[1].depth, 0.1f, 0);
    /* The invariant point_a - point_b = normal * depth survives the flip. */
    vx_vec3 d = vx_vec3_sub(m.points[0].point_a, m.points[0].point_b);
    VX_ASSERT_VEC3_NEAR(d, 0, -0.5f, 0, EPS);
}
