/* Oriented narrow phase for capsules (collide.h): capsule-sphere,
 * capsule-capsule and capsule-box manifolds against hand-computed contacts,
 * degenerate placements, rotated copies of each configuration, feature ids
 * under tiny motion, the speculative margin, and randomised configurations
 * against brute-force distances in double precision. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "test_helpers.h"
#include "voltex/collide.h"

#define EPS 1e-5f
#define PI 3.14159265358979f
#define PI_2 1.57079633f

/* Feature ids (collide_capsule.c, collide_capsule_box.c): pair kind in bits
 * 24..27, A's feature in bits 0..7, B's in bits 8..15. */
#define END0 0u
#define END1 1u
#define SIDE 2u
#define LINE0 3u
#define LINE1 4u
static uint32_t capsule_sphere_id(uint32_t a) { return (8u << 24) | a; }
static uint32_t capsule_capsule_id(uint32_t a, uint32_t b) { return (9u << 24) | a | (b << 8); }
static uint32_t capsule_box_id(uint32_t a, int rx, int ry, int rz)
{
    return (10u << 24) | a | ((uint32_t)((rx + 1) + 3 * (ry + 1) + 9 * (rz + 1)) << 8);
}

static vx_vec3 v3(float x, float y, float z) { return vx_vec3_make(x, y, z); }

static vx_quat axis_angle(float x, float y, float z, float angle)
{
    return vx_quat_from_axis_angle(vx_vec3_normalize(v3(x, y, z)), angle);
}

/* The rotation that turns +Y (a capsule's axis) onto the unit vector dir. */
static vx_quat y_to(vx_vec3 dir)
{
    vx_vec3 y = v3(0, 1, 0);
    vx_vec3 axis = vx_vec3_cross(y, dir);
    float s = vx_vec3_length(axis);
    float c = vx_vec3_dot(y, dir);
    if (s < 1e-7f) return c > 0 ? vx_quat_identity() : axis_angle(1, 0, 0, PI);
    return vx_quat_from_axis_angle(vx_vec3_scale(axis, 1.0f / s), atan2f(s, c));
}

static vx_transform tf(vx_vec3 p, vx_quat q)
{
    vx_transform t;
    memset(&t, 0, sizeof t);
    t.position = p;
    t.rotation = q;
    return t;
}

static vx_transform at(float x, float y, float z) { return tf(v3(x, y, z), vx_quat_identity()); }

/* The same transform seen after turning the whole world by q about the origin. */
static vx_transform turned(vx_quat q, vx_transform t)
{
    return tf(vx_quat_rotate(q, t.position), vx_quat_normalize(vx_quat_mul(q, t.rotation)));
}

static vx_manifold poisoned(void)
{
    vx_manifold m;
    memset(&m, 0xAB, sizeof m);
    return m;
}

/* Every manifold: 1..4 points, unit normal, finite values, each depth above
 * -margin, and point_a - point_b = normal * depth. */
static void assert_valid(const vx_manifold *m, float margin)
{
    cr_assert(m->count >= 1 && m->count <= VX_MANIFOLD_MAX_POINTS, "count %d", m->count);
    cr_assert(vx_vec3_is_finite(m->normal));
    VX_ASSERT_NEAR(vx_vec3_length(m->normal), 1.0f, EPS);
    for (int i = 0; i < m->count; i++) {
        const vx_manifold_point *p = &m->points[i];
        cr_assert(vx_vec3_is_finite(p->point_a) && vx_vec3_is_finite(p->point_b) && isfinite(p->depth));
        cr_assert_gt(p->depth, -margin);
        vx_vec3 d = vx_vec3_sub(p->point_a, p->point_b);
        vx_vec3 nd = vx_vec3_scale(m->normal, p->depth);
        VX_ASSERT_VEC3_NEAR(d, nd.x, nd.y, nd.z, EPS);
    }
}

static void assert_empty(const vx_manifold *m)
{
    vx_manifold zero;
    memset(&zero, 0, sizeof zero);
    cr_assert_eq(m->count, 0);
    cr_assert(memcmp(m, &zero, sizeof zero) == 0, "a miss leaves an empty, zeroed manifold");
}

/* b is a turned by q: same depths and features, normal and points turned. */
static void assert_turned(const vx_manifold *a, const vx_manifold *b, vx_quat q)
{
    cr_assert_eq(a->count, b->count);
    vx_vec3 n = vx_quat_rotate(q, a->normal);
    VX_ASSERT_VEC3_NEAR(b->normal, n.x, n.y, n.z, EPS);
    for (int i = 0; i < a->count; i++) {
        cr_assert_eq(a->points[i].feature, b->points[i].feature);
        VX_ASSERT_NEAR(b->points[i].depth, a->points[i].depth, EPS);
        vx_vec3 pa = vx_quat_rotate(q, a->points[i].point_a);
        vx_vec3 pb = vx_quat_rotate(q, a->points[i].point_b);
        VX_ASSERT_VEC3_NEAR(b->points[i].point_a, pa.x, pa.y, pa.z, 2 * EPS);
        VX_ASSERT_VEC3_NEAR(b->points[i].point_b, pb.x, pb.y, pb.z, 2 * EPS);
    }
}

static void assert_same_features(const vx_manifold *a, const vx_manifold *b)
{
    cr_assert_eq(a->count, b->count);
    for (int i = 0; i < a->count; i++) cr_assert_eq(a->points[i].feature, b->points[i].feature);
}

/* The point of m whose point_a is nearest to (x, y, z). */
static const vx_manifold_point *point_near(const vx_manifold *m, float x, float y, float z)
{
    const vx_manifold_point *best = NULL;
    float best_d = INFINITY;
    for (int i = 0; i < m->count; i++) {
        float d = vx_vec3_length(vx_vec3_sub(m->points[i].point_a, v3(x, y, z)));
        if (d < best_d) {
            best_d = d;
            best = &m->points[i];
        }
    }
    return best;
}

/* ---------------- double-precision references ---------------- */

typedef struct {
    double x, y, z;
} dvec;

static dvec dv(vx_vec3 v) { return (dvec){v.x, v.y, v.z}; }
static dvec dadd(dvec a, dvec b) { return (dvec){a.x + b.x, a.y + b.y, a.z + b.z}; }
static dvec dsub(dvec a, dvec b) { return (dvec){a.x - b.x, a.y - b.y, a.z - b.z}; }
static dvec dscale(dvec a, double s) { return (dvec){a.x * s, a.y * s, a.z * s}; }
static double ddot(dvec a, dvec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static double dlen(dvec a) { return sqrt(ddot(a, a)); }

/* A capsule's segment end points in double. */
static void segment_of(const vx_transform *t, float half, dvec *p0, dvec *p1)
{
    dvec c = dv(t->position);
    dvec u = dv(vx_quat_rotate(t->rotation, v3(0, 1, 0)));
    *p0 = dsub(c, dscale(u, half));
    *p1 = dadd(c, dscale(u, half));
}

static double point_segment_distance(dvec p, dvec a, dvec b)
{
    dvec ab = dsub(b, a);
    double len_sq = ddot(ab, ab);
    double t = len_sq > 0 ? ddot(dsub(p, a), ab) / len_sq : 0.0;
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    return dlen(dsub(p, dadd(a, dscale(ab, t))));
}

/* Minimum over t in [0, 1] of a convex function, by ternary search. */
typedef double (*convex_fn)(double t, const void *ctx);
static double convex_min(convex_fn f, const void *ctx)
{
    double lo = 0, hi = 1;
    for (int i = 0; i < 200; i++) {
        double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        if (f(m1, ctx) <= f(m2, ctx)) hi = m2;
        else lo = m1;
    }
    return f(0.5 * (lo + hi), ctx);
}

typedef struct {
    dvec a0, a1, b0, b1;
    double e[3];
} ref_ctx;

static double seg_seg_inner(double t, const void *ctx)
{
    const ref_ctx *c = ctx;
    dvec p = dadd(c->a0, dscale(dsub(c->a1, c->a0), t));
    return point_segment_distance(p, c->b0, c->b1);
}

static double segment_segment_distance(dvec a0, dvec a1, dvec b0, dvec b1)
{
    ref_ctx c = {a0, a1, b0, b1, {0, 0, 0}};
    return convex_min(seg_seg_inner, &c);
}

static double point_box_distance(dvec p, const double e[3])
{
    double d[3] = {fabs(p.x) - e[0], fabs(p.y) - e[1], fabs(p.z) - e[2]};
    double s = 0;
    for (int i = 0; i < 3; i++)
        if (d[i] > 0) s += d[i] * d[i];
    return sqrt(s);
}

static double seg_box_inner(double t, const void *ctx)
{
    const ref_ctx *c = ctx;
    return point_box_distance(dadd(c->a0, dscale(dsub(c->a1, c->a0), t)), c->e);
}

/* Distance from a segment given in the box's frame to the box [-e, e]. */
static double segment_box_distance(dvec a0, dvec a1, const double e[3])
{
    ref_ctx c = {a0, a1, {0, 0, 0}, {0, 0, 0}, {e[0], e[1], e[2]}};
    return convex_min(seg_box_inner, &c);
}

/* ======================= capsule vs sphere ======================= */

Test(capsule_sphere, separated_gives_nothing)
{
    vx_transform cap = at(0, 0, 0);
    vx_manifold m = poisoned();
    cr_assert_not(vx_collide_capsule_sphere(&cap, 0.5f, 1.0f, v3(3, 0, 0), 1.0f, 0.0f, &m));
    assert_empty(&m);
    /* Beyond the +Y cap: the segment ends at y = 1. */
    m = poisoned();
    cr_assert_not(vx_collide_capsule_sphere(&cap, 0.5f, 1.0f, v3(0, 3.01f, 0), 1.5f, 0.0f, &m));
    assert_empty(&m);
}

Test(capsule_sphere, touching_needs_a_margin)
{
    /* Side: distance 2 = 0.5 + 1.5 exactly. */
    vx_transform cap = at(0, 0, 0);
    vx_manifold m = poisoned();
    cr_assert_not(vx_collide_capsule_sphere(&cap, 0.5f, 1.0f, v3(2, 0.5f, 0), 1.5f, 0.0f, &m));
    assert_empty(&m);
    cr_assert(vx_collide_capsule_sphere(&cap, 0.5f, 1.0f, v3(2, 0.5f, 0), 1.5f, 0.01f, &m));
    assert_valid(&m, 0.01f);
    cr_assert_eq(m.count, 1);
    VX_ASSERT_NEAR(m.points[0].depth, 0.0f, 0);
    VX_ASSERT_VEC3_NEAR(m.normal, 1, 0, 0, 0);
}

Test(capsule_sphere, overlapping_the_side)
{
    vx_transform cap = at(0, 0, 0);
    vx_manifold m;
    cr_assert(vx_collide_capsule_sphere(&cap, 0.5f, 1.0f, v3(1.2f, 0.3f, 0), 1.0f, 0.0f, &m));
    assert_valid(&m, 0);
    cr_assert_eq(m.count, 1);
    VX_ASSERT_VEC3_NEAR(m.normal, 1, 0, 0, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 0.3f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_a, 0.5f, 0.3f, 0, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 0.2f, 0.3f, 0, EPS);
    cr_assert_eq(m.points[0].feature, capsule_sphere_id(SIDE));
}

Test(capsule_sphere, overlapping_each_cap)
{
    /* Capsule along world X (local +Y turned to -X): its +Y end is at x = -1. */
    vx_transform cap = tf(v3(0, 0, 0), axis_angle(0, 0, 1, PI_2));
    vx_manifold m;
    cr_assert(vx_collide_capsule_sphere(&cap, 0.5f, 1.0f, v3(-2, 0, 0), 0.6f, 0.0f, &m));
    assert_valid(&m, 0);
    VX_ASSERT_VEC3_NEAR(m.normal, -1, 0, 0, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 0.1f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_a, -1.5f, 0, 0, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, -1.4f, 0, 0, EPS);
    cr_assert_eq(m.points[0].feature, capsule_sphere_id(END1));

    /* Off the -Y end, on a slant: 3-4-5 from the end point (1, 0, 0). */
    cr_assert(vx_collide_capsule_sphere(&cap, 0.5f, 1.0f, v3(1.3f, 0.4f, 0), 0.25f, 0.0f, &m));
    assert_valid(&m, 0);
    VX_ASSERT_VEC3_NEAR(m.normal, 0.6f, 0.8f, 0, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 0.25f, EPS);
    cr_assert_eq(m.points[0].feature, capsule_sphere_id(END0));
}

Test(capsule_sphere, deep_centre_on_the_axis_pushes_along_local_x)
{
    /* Centre on the segment: no direction, so the capsule's own local X
     * (world +Y for a capsule turned 90 degrees about Z). */
    vx_transform cap = tf(v3(1, 2, 3), axis_angle(0, 0, 1, PI_2));
    vx_manifold m;
    cr_assert(vx_collide_capsule_sphere(&cap, 0.5f, 1.0f, v3(1.5f, 2, 3), 0.25f, 0.0f, &m));
    assert_valid(&m, 0);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, 1, 0, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 0.75f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_a, 1.5f, 2.5f, 3, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 1.5f, 1.75f, 3, EPS);
    cr_assert_eq(m.points[0].feature, capsule_sphere_id(SIDE));
    float axis_dot = vx_vec3_dot(m.normal, vx_quat_rotate(cap.rotation, v3(0, 1, 0)));
    VX_ASSERT_NEAR(axis_dot, 0.0f, EPS);
}

Test(capsule_sphere, coincident_centres)
{
    vx_transform cap = tf(v3(-4, 0.5f, 2), axis_angle(1, 2, 3, 0.7f));
    vx_manifold m;
    cr_assert(vx_collide_capsule_sphere(&cap, 0.3f, 0.8f, cap.position, 0.2f, 0.0f, &m));
    assert_valid(&m, 0);
    vx_vec3 x = vx_quat_rotate(cap.rotation, v3(1, 0, 0));
    VX_ASSERT_VEC3_NEAR(m.normal, x.x, x.y, x.z, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 0.5f, EPS);
}

Test(capsule_sphere, speculative_margin)
{
    /* Gap 0.05 at the side: reported only with a margin above 0.05. */
    vx_transform cap = at(0, 0, 0);
    vx_manifold m;
    cr_assert_not(vx_collide_capsule_sphere(&cap, 0.5f, 1.0f, v3(0, 0, 1.55f), 1.0f, 0.04f, &m));
    cr_assert(vx_collide_capsule_sphere(&cap, 0.5f, 1.0f, v3(0, 0, 1.55f), 1.0f, 0.06f, &m));
    assert_valid(&m, 0.06f);
    VX_ASSERT_NEAR(m.points[0].depth, -0.05f, EPS);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, 0, 1, EPS);
}

Test(capsule_sphere, turning_the_world_turns_the_contact)
{
    vx_transform cap = tf(v3(0.2f, -0.1f, 0.4f), axis_angle(1, 0, 1, 0.4f));
    vx_vec3 s = v3(0.6f, 0.5f, 0.2f);
    vx_quat q = axis_angle(-2, 1, 0.5f, 2.1f);
    vx_transform cap2 = turned(q, cap);
    vx_manifold a, b;
    cr_assert(vx_collide_capsule_sphere(&cap, 0.4f, 0.7f, s, 0.6f, 0.0f, &a));
    cr_assert(vx_collide_capsule_sphere(&cap2, 0.4f, 0.7f, vx_quat_rotate(q, s), 0.6f, 0.0f, &b));
    assert_valid(&a, 0);
    assert_valid(&b, 0);
    assert_turned(&a, &b, q);
}

Test(capsule_sphere, feature_stable_under_tiny_motion)
{
    vx_transform cap = tf(v3(0, 0, 0), axis_angle(0, 0, 1, 0.3f));
    vx_vec3 on_side = v3(0.9f, 0.2f, 0.0f);
    vx_vec3 off_end = vx_vec3_scale(vx_quat_rotate(cap.rotation, v3(0, 1, 0)), 1.6f);
    vx_vec3 points[2] = {on_side, off_end};
    for (int k = 0; k < 2; k++) {
        vx_manifold m0, m1;
        cr_assert(vx_collide_capsule_sphere(&cap, 0.5f, 1.0f, points[k], 0.5f, 0.0f, &m0));
        for (int i = 0; i < 6; i++) {
            vx_vec3 p = points[k];
            vx_vec3_set(&p, i / 2, vx_vec3_get(p, i / 2) + (i % 2 ? 1e-4f : -1e-4f));
            cr_assert(vx_collide_capsule_sphere(&cap, 0.5f, 1.0f, p, 0.5f, 0.0f, &m1));
            assert_same_features(&m0, &m1);
        }
    }
}

Test(capsule_sphere, random_against_brute_force)
{
    vx_test_rng rng = {0x5eed1u};
    int hits = 0;
    for (int iter = 0; iter < 2000; iter++) {
        vx_transform cap = tf(v3(vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, -1, 1),
                                 vx_test_rng_range(&rng, -1, 1)),
                              axis_angle(vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, -1, 1),
                                         vx_test_rng_range(&rng, 0.1f, 1), vx_test_rng_range(&rng, -3, 3)));
        float r = vx_test_rng_range(&rng, 0.05f, 1), h = vx_test_rng_range(&rng, 0.01f, 1.5f);
        vx_vec3 s = v3(vx_test_rng_range(&rng, -2, 2), vx_test_rng_range(&rng, -2, 2), vx_test_rng_range(&rng, -2, 2));
        float rs = vx_test_rng_range(&rng, 0.05f, 1);
        float margin = vx_test_rng_range(&rng, 0, 0.3f);
        dvec p0, p1;
        segment_of(&cap, h, &p0, &p1);
        double expected = (double)r + rs - point_segment_distance(dv(s), p0, p1);
        vx_manifold m;
        bool hit = vx_collide_capsule_sphere(&cap, r, h, s, rs, margin, &m);
        if (expected > -margin + 1e-5) cr_assert(hit);
        if (expected < -margin - 1e-5) cr_assert_not(hit);
        if (!hit) continue;
        hits++;
        assert_valid(&m, margin);
        cr_assert_eq(m.count, 1);
        VX_ASSERT_NEAR(m.points[0].depth, expected, 1e-5);
    }
    cr_assert_gt(hits, 300);
}

/* ======================= capsule vs capsule ======================= */

Test(capsule_capsule, separated_gives_nothing)
{
    vx_transform a = at(0, 0, 0), b = at(1.2f, 0.5f, 0);
    vx_manifold m = poisoned();
    cr_assert_not(vx_collide_capsule_capsule(&a, 0.5f, 1.0f, &b, 0.5f, 1.0f, 0.0f, &m));
    assert_empty(&m);
    vx_transform c = tf(v3(0.5f, 0, 2), axis_angle(1, 0, 0, PI_2));
    m = poisoned();
    cr_assert_not(vx_collide_capsule_capsule(&a, 0.5f, 1.0f, &c, 0.4f, 1.0f, 0.05f, &m));
    assert_empty(&m);
}

Test(capsule_capsule, touching_needs_a_margin)
{
    /* Crossed, 1 apart along Z with radii 0.5 + 0.5. */
    vx_transform a = at(0, 0, 0);
    vx_transform b = tf(v3(0, 0, 1), axis_angle(0, 0, 1, PI_2));
    vx_manifold m = poisoned();
    cr_assert_not(vx_collide_capsule_capsule(&a, 0.5f, 1.0f, &b, 0.5f, 1.0f, 0.0f, &m));
    assert_empty(&m);
    cr_assert(vx_collide_capsule_capsule(&a, 0.5f, 1.0f, &b, 0.5f, 1.0f, 1e-3f, &m));
    assert_valid(&m, 1e-3f);
    cr_assert_eq(m.count, 1);
    VX_ASSERT_NEAR(m.points[0].depth, 0.0f, EPS);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, 0, 1, EPS);
}

Test(capsule_capsule, crossed_one_point_at_the_crossing)
{
    vx_transform a = at(0, 0, 0);
    vx_transform b = tf(v3(0.3f, 0.2f, 0.8f), axis_angle(0, 0, 1, PI_2));
    vx_manifold m;
    cr_assert(vx_collide_capsule_capsule(&a, 0.5f, 1.0f, &b, 0.5f, 1.0f, 0.0f, &m));
    assert_valid(&m, 0);
    cr_assert_eq(m.count, 1);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, 0, 1, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 0.2f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_a, 0, 0.2f, 0.5f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 0, 0.2f, 0.3f, EPS);
    cr_assert_eq(m.points[0].feature, capsule_capsule_id(SIDE, SIDE));
}

Test(capsule_capsule, intersecting_segments_use_the_cross_product)
{
    /* A along Y, B along X (local +Y turned to +X), crossing at (0, 0.3, 0):
     * distance 0, so the normal is axis_a x axis_b = Y x X = -Z. */
    vx_transform a = at(0, 0, 0);
    vx_transform b = tf(v3(0.4f, 0.3f, 0), axis_angle(0, 0, 1, -PI_2));
    vx_manifold m;
    cr_assert(vx_collide_capsule_capsule(&a, 0.5f, 1.0f, &b, 0.25f, 1.0f, 0.0f, &m));
    assert_valid(&m, 0);
    cr_assert_eq(m.count, 1);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, 0, -1, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 0.75f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_a, 0, 0.3f, -0.5f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 0, 0.3f, 0.25f, EPS);

    /* Swapping A and B flips the normal. */
    vx_manifold f;
    cr_assert(vx_collide_capsule_capsule(&b, 0.25f, 1.0f, &a, 0.5f, 1.0f, 0.0f, &f));
    VX_ASSERT_VEC3_NEAR(f.normal, 0, 0, 1, EPS);
    VX_ASSERT_NEAR(f.points[0].depth, 0.75f, EPS);

    /* B a hair (below the 1 um direction limit) to either side along Z:
     * the cross product is turned from A towards B. */
    vx_transform up = tf(v3(0.4f, 0.3f, 2e-7f), b.rotation);
    vx_transform down = tf(v3(0.4f, 0.3f, -2e-7f), b.rotation);
    cr_assert(vx_collide_capsule_capsule(&a, 0.5f, 1.0f, &up, 0.25f, 1.0f, 0.0f, &m));
    VX_ASSERT_VEC3_NEAR(m.normal, 0, 0, 1, EPS);
    cr_assert(vx_collide_capsule_capsule(&a, 0.5f, 1.0f, &down, 0.25f, 1.0f, 0.0f, &m));
    VX_ASSERT_VEC3_NEAR(m.normal, 0, 0, -1, EPS);
}

Test(capsule_capsule, parallel_side_by_side_two_points)
{
    /* B's segment spans y in [-0.5, 1.5], A's [-1, 1]: overlap [-0.5, 1]. */
    vx_transform a = at(0, 0, 0), b = at(0.8f, 0.5f, 0);
    vx_manifold m;
    cr_assert(vx_collide_capsule_capsule(&a, 0.5f, 1.0f, &b, 0.5f, 1.0f, 0.0f, &m));
    assert_valid(&m, 0);
    cr_assert_eq(m.count, 2);
    VX_ASSERT_VEC3_NEAR(m.normal, 1, 0, 0, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 0.2f, EPS);
    VX_ASSERT_NEAR(m.points[1].depth, 0.2f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_a, 0.5f, -0.5f, 0, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 0.3f, -0.5f, 0, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[1].point_a, 0.5f, 1.0f, 0, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[1].point_b, 0.3f, 1.0f, 0, EPS);
    cr_assert_eq(m.points[0].feature, capsule_capsule_id(LINE0, LINE0));
    cr_assert_eq(m.points[1].feature, capsule_capsule_id(LINE1, LINE0));
}

Test(capsule_capsule, anti_parallel_and_different_lengths)
{
    /* B upside down (its +Y end down), shorter, inside A's span. */
    vx_transform a = tf(v3(0, 0, 0), axis_angle(1, 0, 0, PI_2)); /* along +Z */
    vx_transform b = tf(v3(0, -0.7f, 0.2f), axis_angle(1, 0, 0, -PI_2)); /* along -Z */
    vx_manifold m;
    cr_assert(vx_collide_capsule_capsule(&a, 0.5f, 1.0f, &b, 0.3f, 0.4f, 0.0f, &m));
    assert_valid(&m, 0);
    cr_assert_eq(m.count, 2);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, -1, 0, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 0.1f, EPS);
    VX_ASSERT_NEAR(m.points[1].depth, 0.1f, EPS);
    cr_assert_not_null(point_near(&m, 0, -0.5f, -0.2f));
    VX_ASSERT_VEC3_NEAR(point_near(&m, 0, -0.5f, -0.2f)->point_a, 0, -0.5f, -0.2f, EPS);
    VX_ASSERT_VEC3_NEAR(point_near(&m, 0, -0.5f, 0.6f)->point_a, 0, -0.5f, 0.6f, EPS);
}

Test(capsule_capsule, nearly_parallel_two_points_with_own_depths)
{
    /* B tilted 0.01 rad in A's plane, leaning in at the top. Each point's
     * depth is ra + rb minus the distance from its point on A to segment B. */
    float phi = 0.01f;
    vx_transform a = at(0, 0, 0);
    vx_transform b = tf(v3(0.9f, 0, 0), axis_angle(0, 0, 1, phi));
    vx_manifold m;
    cr_assert(vx_collide_capsule_capsule(&a, 0.5f, 1.0f, &b, 0.5f, 1.0f, 0.0f, &m));
    assert_valid(&m, 0);
    cr_assert_eq(m.count, 2);
    /* The closest pair is B's top end over A: normal +X. */
    VX_ASSERT_VEC3_NEAR(m.normal, 1, 0, 0, EPS);
    dvec b0, b1;
    segment_of(&b, 1.0f, &b0, &b1);
    double c = cos((double)phi);
    double d_lo = point_segment_distance((dvec){0, -c, 0}, b0, b1);
    double d_hi = point_segment_distance((dvec){0, c, 0}, b0, b1);
    cr_assert(d_lo > d_hi + 0.01);
    VX_ASSERT_NEAR(point_near(&m, 0.5f, (float)-c, 0)->depth, 1.0 - d_lo, EPS);
    VX_ASSERT_NEAR(point_near(&m, 0.5f, (float)c, 0)->depth, 1.0 - d_hi, EPS);
}

Test(capsule_capsule, collinear_end_to_end_one_point)
{
    vx_transform a = at(0, 0, 0), b = at(0, 2.5f, 0);
    vx_manifold m;
    cr_assert(vx_collide_capsule_capsule(&a, 0.5f, 1.0f, &b, 0.5f, 1.0f, 0.0f, &m));
    assert_valid(&m, 0);
    cr_assert_eq(m.count, 1);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, 1, 0, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 0.5f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_a, 0, 1.5f, 0, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 0, 1.0f, 0, EPS);
    cr_assert_eq(m.points[0].feature, capsule_capsule_id(END1, END0));
}

Test(capsule_capsule, coincident_centres)
{
    /* Same segment: no direction at all, so A's local X, perpendicular to
     * the axis; two points over the whole shared length. */
    vx_quat q = axis_angle(1, 1, 0, 0.9f);
    vx_transform a = tf(v3(1, 2, 3), q), b = tf(v3(1, 2, 3), q);
    vx_manifold m;
    cr_assert(vx_collide_capsule_capsule(&a, 0.5f, 1.0f, &b, 0.25f, 0.5f, 0.0f, &m));
    assert_valid(&m, 0);
    vx_vec3 x = vx_quat_rotate(q, v3(1, 0, 0));
    VX_ASSERT_VEC3_NEAR(m.normal, x.x, x.y, x.z, EPS);
    cr_assert_eq(m.count, 2);
    VX_ASSERT_NEAR(m.points[0].depth, 0.75f, EPS);
    VX_ASSERT_NEAR(m.points[1].depth, 0.75f, EPS);

    /* Crossed at a shared centre: the cross product of the axes. */
    vx_transform c = tf(v3(1, 2, 3), vx_quat_identity());
    vx_transform d = tf(v3(1, 2, 3), axis_angle(1, 0, 0, PI_2)); /* along +Z */
    cr_assert(vx_collide_capsule_capsule(&c, 0.5f, 1.0f, &d, 0.5f, 1.0f, 0.0f, &m));
    assert_valid(&m, 0);
    cr_assert_eq(m.count, 1);
    VX_ASSERT_VEC3_NEAR(m.normal, 1, 0, 0, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 1.0f, EPS);
}

Test(capsule_capsule, deep_short_segment_inside_the_other)
{
    /* A nearly point-like capsule (half height 1e-6) sunk into a fat one. */
    vx_transform a = at(0, 0, 0);
    vx_transform b = tf(v3(0.3f, 0.5f, 0.4f), axis_angle(1, 1, 1, 1.0f));
    vx_manifold m;
    cr_assert(vx_collide_capsule_capsule(&a, 1.0f, 1.0f, &b, 0.1f, 1e-6f, 0.0f, &m));
    assert_valid(&m, 0);
    cr_assert_eq(m.count, 1);
    VX_ASSERT_VEC3_NEAR(m.normal, 0.6f, 0, 0.8f, 1e-4);
    VX_ASSERT_NEAR(m.points[0].depth, 0.6f, 1e-4);
}

Test(capsule_capsule, speculative_margin_and_partial_line)
{
    /* Parallel with a gap of 0.04; B tilted so its far end lifts by more. */
    vx_transform a = tf(v3(0, 0, 0), axis_angle(0, 0, 1, PI_2)); /* along -X */
    vx_transform b = tf(v3(0, 1.04f, 0), axis_angle(0, 0, 1, PI_2));
    vx_manifold m;
    cr_assert_not(vx_collide_capsule_capsule(&a, 0.5f, 1.0f, &b, 0.5f, 1.0f, 0.03f, &m));
    cr_assert(vx_collide_capsule_capsule(&a, 0.5f, 1.0f, &b, 0.5f, 1.0f, 0.05f, &m));
    assert_valid(&m, 0.05f);
    cr_assert_eq(m.count, 2);
    VX_ASSERT_NEAR(m.points[0].depth, -0.04f, EPS);
    VX_ASSERT_NEAR(m.points[1].depth, -0.04f, EPS);

    /* Touching at the +X end and tilted 0.015 rad about it: the -X end
     * rises by about 0.03; with margin 0.02 only the end at +X stays. */
    float phi = 0.015f;
    vx_transform c = tf(v3(1.0f - cosf(phi), 1.0f + sinf(phi), 0), axis_angle(0, 0, 1, PI_2 - phi));
    cr_assert(vx_collide_capsule_capsule(&a, 0.5f, 1.0f, &c, 0.5f, 1.0f, 0.05f, &m));
    assert_valid(&m, 0.05f);
    cr_assert_eq(m.count, 2);
    cr_assert(vx_collide_capsule_capsule(&a, 0.5f, 1.0f, &c, 0.5f, 1.0f, 0.02f, &m));
    assert_valid(&m, 0.02f);
    cr_assert_eq(m.count, 1);
    VX_ASSERT_NEAR(m.points[0].depth, 0.0f, 1e-4);
    VX_ASSERT_NEAR(m.points[0].point_a.x, 1.0f, 1e-4);
}

Test(capsule_capsule, turning_the_world_turns_the_contact)
{
    vx_quat q = axis_angle(0.3f, -1, 0.8f, 2.5f);
    vx_transform a[3] = {at(0, 0, 0), at(0, 0, 0), tf(v3(0.1f, 0.2f, 0), axis_angle(1, 2, 0, 0.5f))};
    vx_transform b[3] = {at(0.8f, 0.5f, 0), tf(v3(0.3f, 0.2f, 0.8f), axis_angle(0, 0, 1, PI_2)),
                         tf(v3(0.6f, -0.5f, 0.3f), axis_angle(0, 1, 1, 1.1f))};
    for (int i = 0; i < 3; i++) {
        vx_transform a2 = turned(q, a[i]), b2 = turned(q, b[i]);
        vx_manifold m1, m2;
        cr_assert(vx_collide_capsule_capsule(&a[i], 0.5f, 1.0f, &b[i], 0.5f, 1.0f, 0.0f, &m1));
        cr_assert(vx_collide_capsule_capsule(&a2, 0.5f, 1.0f, &b2, 0.5f, 1.0f, 0.0f, &m2));
        assert_valid(&m1, 0);
        assert_valid(&m2, 0);
        assert_turned(&m1, &m2, q);
    }
}

Test(capsule_capsule, feature_stable_under_tiny_motion)
{
    vx_transform a = at(0, 0, 0);
    vx_transform b[3] = {at(0.8f, 0.5f, 0), tf(v3(0.3f, 0.2f, 0.8f), axis_angle(0, 0, 1, PI_2)),
                         at(0.1f, 2.3f, 0.2f)};
    vx_quat wobble[3] = {axis_angle(1, 0, 0, 1e-4f), axis_angle(0, 1, 0, -1e-4f), axis_angle(0, 0, 1, 1e-4f)};
    for (int i = 0; i < 3; i++) {
        vx_manifold m0, m1;
        cr_assert(vx_collide_capsule_capsule(&a, 0.5f, 1.0f, &b[i], 0.5f, 1.0f, 0.0f, &m0));
        for (int k = 0; k < 3; k++) {
            vx_transform moved = tf(vx_vec3_add(b[i].position, v3(1e-4f * (float)k, -1e-4f, 1e-4f)),
                                    vx_quat_normalize(vx_quat_mul(wobble[k], b[i].rotation)));
            cr_assert(vx_collide_capsule_capsule(&a, 0.5f, 1.0f, &moved, 0.5f, 1.0f, 0.0f, &m1));
            assert_same_features(&m0, &m1);
        }
    }
}

Test(capsule_capsule, random_against_brute_force)
{
    vx_test_rng rng = {0xc0ffee1u};
    int hits = 0, two = 0;
    for (int iter = 0; iter < 1500; iter++) {
        vx_transform t[2];
        float r[2], h[2];
        for (int k = 0; k < 2; k++) {
            t[k] = tf(v3(vx_test_rng_range(&rng, -1.2f, 1.2f), vx_test_rng_range(&rng, -1.2f, 1.2f),
                         vx_test_rng_range(&rng, -1.2f, 1.2f)),
                      axis_angle(vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, 0.1f, 1),
                                 vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, -3, 3)));
            r[k] = vx_test_rng_range(&rng, 0.05f, 0.6f);
            h[k] = vx_test_rng_range(&rng, 0.01f, 1.2f);
        }
        if (iter % 5 == 0) t[1].rotation = t[0].rotation; /* exactly parallel */
        float margin = vx_test_rng_range(&rng, 0, 0.2f);
        dvec a0, a1, b0, b1;
        segment_of(&t[0], h[0], &a0, &a1);
        segment_of(&t[1], h[1], &b0, &b1);
        double expected = (double)r[0] + r[1] - segment_segment_distance(a0, a1, b0, b1);
        vx_manifold m;
        bool hit = vx_collide_capsule_capsule(&t[0], r[0], h[0], &t[1], r[1], h[1], margin, &m);
        if (expected > -margin + 1e-5) cr_assert(hit, "iteration %d", iter);
        if (expected < -margin - 1e-5) cr_assert_not(hit, "iteration %d", iter);
        if (!hit) continue;
        hits++;
        two += m.count == 2;
        assert_valid(&m, margin);
        cr_assert(m.count == 1 || m.count == 2);
        if (m.count == 1) VX_ASSERT_NEAR(m.points[0].depth, expected, 2e-5);
        for (int i = 0; i < m.count; i++) cr_assert_leq(m.points[i].depth, expected + 2e-5);
    }
    cr_assert(hits > 250 && two > 30, "hits %d, two-point %d", hits, two);
}

/* ======================= capsule vs box ======================= */

static const vx_vec3 unit_box = {1, 1, 1};

Test(capsule_box, separated_gives_nothing)
{
    vx_transform box = at(0, 0, 0);
    vx_transform cap = at(0, 2.6f, 0);
    vx_manifold m = poisoned();
    cr_assert_not(vx_collide_capsule_box(&cap, 0.5f, 1.0f, &box, unit_box, 0.0f, &m));
    assert_empty(&m);
    /* Beside an edge, diagonally: distance sqrt(2) * 0.5 > 0.6. */
    vx_transform beside = tf(v3(1.5f, 1.5f, 0), axis_angle(1, 0, 0, PI_2));
    m = poisoned();
    cr_assert_not(vx_collide_capsule_box(&beside, 0.6f, 0.5f, &box, unit_box, 0.0f, &m));
    assert_empty(&m);
}

Test(capsule_box, upright_touching_needs_a_margin)
{
    vx_transform box = at(0, 0, 0);
    vx_transform cap = at(0, 2.5f, 0);
    vx_manifold m = poisoned();
    cr_assert_not(vx_collide_capsule_box(&cap, 0.5f, 1.0f, &box, unit_box, 0.0f, &m));
    assert_empty(&m);
    cr_assert(vx_collide_capsule_box(&cap, 0.5f, 1.0f, &box, unit_box, 0.01f, &m));
    assert_valid(&m, 0.01f);
    cr_assert_eq(m.count, 1);
    VX_ASSERT_NEAR(m.points[0].depth, 0.0f, EPS);
}

Test(capsule_box, upright_on_the_top_face_one_point_under_the_cap)
{
    vx_transform box = at(0, 0, 0);
    vx_transform cap = at(0.3f, 2.4f, -0.2f);
    vx_manifold m;
    cr_assert(vx_collide_capsule_box(&cap, 0.5f, 1.0f, &box, unit_box, 0.0f, &m));
    assert_valid(&m, 0);
    cr_assert_eq(m.count, 1);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, -1, 0, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 0.1f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_a, 0.3f, 0.9f, -0.2f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 0.3f, 1.0f, -0.2f, EPS);
    cr_assert_eq(m.points[0].feature, capsule_box_id(END0, 0, 1, 0));
}

Test(capsule_box, lying_flat_on_a_face_two_points)
{
    /* Along world X (local +Y turned to -X), segment x in [-0.5, 1.5] at
     * height 1.4: clipped to the face, x in [-0.5, 1]; each 0.1 deep. */
    vx_transform box = at(0, 0, 0);
    vx_transform cap = tf(v3(0.5f, 1.4f, 0.2f), axis_angle(0, 0, 1, PI_2));
    vx_manifold m;
    cr_assert(vx_collide_capsule_box(&cap, 0.5f, 1.0f, &box, unit_box, 0.0f, &m));
    assert_valid(&m, 0);
    cr_assert_eq(m.count, 2);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, -1, 0, EPS); /* into the box: minus the face normal */
    /* The -Y end (t = 0) is at +X: its point is the clipped end x = 1. */
    VX_ASSERT_NEAR(m.points[0].depth, 0.1f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 1.0f, 1.0f, 0.2f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_a, 1.0f, 0.9f, 0.2f, EPS);
    VX_ASSERT_NEAR(m.points[1].depth, 0.1f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[1].point_b, -0.5f, 1.0f, 0.2f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[1].point_a, -0.5f, 0.9f, 0.2f, EPS);
    cr_assert_eq(m.points[0].feature, capsule_box_id(LINE0, 0, 1, 0));
    cr_assert_eq(m.points[1].feature, capsule_box_id(LINE1, 0, 1, 0));
}

Test(capsule_box, lying_flat_with_a_small_tilt_has_exact_depths)
{
    /* Along Z, tilted 0.01 rad so the +Y end (at +Z) is higher; on a box
     * rotated and moved so the check is done in the box's frame. */
    float phi = 0.01f;
    vx_quat qbox = axis_angle(1, -2, 0.5f, 0.8f);
    vx_transform box = tf(v3(3, -1, 2), qbox);
    vx_vec3 half = v3(2, 0.5f, 1.5f);
    vx_quat local_rot = axis_angle(1, 0, 0, PI_2 - phi);
    vx_vec3 local_centre = v3(0.4f, 0.5f + 0.45f, 0.2f);
    vx_transform cap = tf(vx_vec3_add(box.position, vx_quat_rotate(qbox, local_centre)),
                          vx_quat_normalize(vx_quat_mul(qbox, local_rot)));
    vx_manifold m;
    cr_assert(vx_collide_capsule_box(&cap, 0.5f, 1.0f, &box, half, 0.0f, &m));
    assert_valid(&m, 0);
    cr_assert_eq(m.count, 2);
    vx_vec3 down = vx_quat_rotate(qbox, v3(0, -1, 0));
    VX_ASSERT_VEC3_NEAR(m.normal, down.x, down.y, down.z, EPS);
    /* End heights above the face y = 0.5: 0.45 -+ sin(phi). */
    double s = sin((double)phi);
    VX_ASSERT_NEAR(m.points[0].depth, 0.5 - (0.45 - s), EPS);
    VX_ASSERT_NEAR(m.points[1].depth, 0.5 - (0.45 + s), EPS);
}

Test(capsule_box, tilted_capsule_rests_on_its_lower_end)
{
    float theta = 0.5f;
    vx_transform box = at(0, 0, 0);
    vx_transform cap = tf(v3(0.2f, 1.0f + cosf(theta) + 0.45f, 0), axis_angle(0, 0, 1, theta));
    vx_manifold m;
    cr_assert(vx_collide_capsule_box(&cap, 0.5f, 1.0f, &box, unit_box, 0.0f, &m));
    assert_valid(&m, 0);
    cr_assert_eq(m.count, 1);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, -1, 0, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 0.05f, EPS);
    /* The -Y end: centre - (-sin, cos, 0). */
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 0.2f + sinf(theta), 1.0f, 0, EPS);
    cr_assert_eq(m.points[0].feature, capsule_box_id(END0, 0, 1, 0));
}

Test(capsule_box, segment_sunk_below_the_face_still_two_points)
{
    /* The segment itself is 0.2 inside the box: the SAT path, same face. */
    vx_transform box = at(0, 0, 0);
    vx_transform cap = tf(v3(0.5f, 0.8f, 0.2f), axis_angle(0, 0, 1, PI_2));
    vx_manifold m;
    cr_assert(vx_collide_capsule_box(&cap, 0.5f, 1.0f, &box, unit_box, 0.0f, &m));
    assert_valid(&m, 0);
    cr_assert_eq(m.count, 2);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, -1, 0, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 0.7f, EPS);
    VX_ASSERT_NEAR(m.points[1].depth, 0.7f, EPS);
    cr_assert_eq(m.points[0].feature, capsule_box_id(LINE0, 0, 1, 0));
    cr_assert_eq(m.points[1].feature, capsule_box_id(LINE1, 0, 1, 0));
}

Test(capsule_box, deep_inside_one_point_at_the_deepest_end)
{
    vx_transform box = at(0, 0, 0);
    vx_transform cap = at(0, 1.5f, 0);
    vx_manifold m;
    cr_assert(vx_collide_capsule_box(&cap, 0.1f, 0.25f, &box, v3(2, 2, 2), 0.0f, &m));
    assert_valid(&m, 0);
    cr_assert_eq(m.count, 1);
    VX_ASSERT_VEC3_NEAR(m.normal, 0, -1, 0, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 0.85f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 0, 2, 0, EPS);
    cr_assert_eq(m.points[0].feature, capsule_box_id(END0, 0, 1, 0));
}

Test(capsule_box, coincident_centres)
{
    /* Upright at the centre of a 2 x 4 x 2 box: x and z tie at 1.25, the
     * lowest axis wins, normal +X (out through the -x face). */
    vx_transform box = at(1, 1, 1), cap = at(1, 1, 1);
    vx_manifold m;
    cr_assert(vx_collide_capsule_box(&cap, 0.25f, 0.5f, &box, v3(1, 2, 1), 0.0f, &m));
    assert_valid(&m, 0);
    cr_assert_eq(m.count, 2);
    VX_ASSERT_VEC3_NEAR(m.normal, 1, 0, 0, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 1.25f, EPS);
    VX_ASSERT_NEAR(m.points[1].depth, 1.25f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 0, 0.5f, 1, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[1].point_b, 0, 1.5f, 1, EPS);
}

Test(capsule_box, capsule_exactly_along_a_box_edge)
{
    /* Segment on the edge line x = y = 1 (along Z): touching both faces at
     * distance 0; the x face wins the tie; both ends flat on it. */
    vx_transform box = at(0, 0, 0);
    vx_transform cap = tf(v3(1, 1, 0.3f), axis_angle(1, 0, 0, PI_2));
    vx_manifold m;
    cr_assert(vx_collide_capsule_box(&cap, 0.25f, 0.5f, &box, unit_box, 0.0f, &m));
    assert_valid(&m, 0);
    cr_assert_eq(m.count, 2);
    VX_ASSERT_VEC3_NEAR(m.normal, -1, 0, 0, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 0.25f, EPS);
    VX_ASSERT_NEAR(m.points[1].depth, 0.25f, EPS);

    /* Just outside the edge, along it: normal along the diagonal, two
     * points over the segment's length. */
    vx_transform out = tf(v3(1.1f, 1.1f, 0.3f), cap.rotation);
    cr_assert(vx_collide_capsule_box(&out, 0.25f, 0.5f, &box, unit_box, 0.0f, &m));
    assert_valid(&m, 0);
    cr_assert_eq(m.count, 2);
    float k = 1.0f / sqrtf(2.0f);
    VX_ASSERT_VEC3_NEAR(m.normal, -k, -k, 0, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 0.25f - 0.1f * sqrtf(2.0f), EPS);
    VX_ASSERT_NEAR(m.points[1].depth, 0.25f - 0.1f * sqrtf(2.0f), EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 1, 1, 0.3f - 0.5f, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[1].point_b, 1, 1, 0.3f + 0.5f, EPS);
    cr_assert_eq(m.points[0].feature, capsule_box_id(LINE0, 1, 1, 0));
    cr_assert_eq(m.points[1].feature, capsule_box_id(LINE1, 1, 1, 0));

    /* Across the edge instead (perpendicular to it, beside it): one point,
     * the segment's middle nearest the edge. */
    vx_transform across = tf(v3(1.2f, 1.2f, 0.3f), y_to(vx_vec3_normalize(v3(1, -1, 0))));
    cr_assert(vx_collide_capsule_box(&across, 0.3f, 0.5f, &box, unit_box, 0.0f, &m));
    assert_valid(&m, 0);
    cr_assert_eq(m.count, 1);
    VX_ASSERT_VEC3_NEAR(m.normal, -k, -k, 0, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 0.3f - 0.2f * sqrtf(2.0f), EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 1, 1, 0.3f, EPS);
    cr_assert_eq(m.points[0].feature, capsule_box_id(SIDE, 1, 1, 0));
}

Test(capsule_box, axis_pointing_at_a_corner)
{
    /* Along the diagonal, its -Y end 0.4226 * sqrt(3) from the corner. */
    vx_vec3 diag = vx_vec3_normalize(v3(1, 1, 1));
    vx_transform box = at(0, 0, 0);
    vx_transform cap = tf(v3(2, 2, 2), y_to(diag));
    float gap = sqrtf(3.0f) * (1.0f - 1.0f / sqrtf(3.0f));
    vx_manifold m;
    cr_assert(vx_collide_capsule_box(&cap, 0.8f, 1.0f, &box, unit_box, 0.0f, &m));
    assert_valid(&m, 0);
    cr_assert_eq(m.count, 1);
    VX_ASSERT_VEC3_NEAR(m.normal, -diag.x, -diag.y, -diag.z, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 0.8f - gap, EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 1, 1, 1, EPS);
    cr_assert_eq(m.points[0].feature, capsule_box_id(END0, 1, 1, 1));

    /* Through the box from corner to corner: deep, finite, one face. */
    vx_transform through = tf(v3(0, 0, 0), y_to(diag));
    cr_assert(vx_collide_capsule_box(&through, 0.2f, 3.0f, &box, unit_box, 0.0f, &m));
    assert_valid(&m, 0);
    cr_assert_gt(m.points[0].depth, 1.0f);
    /* Through the exact corner point, the segment ending there. */
    vx_transform corner = tf(vx_vec3_add(v3(1, 1, 1), vx_vec3_scale(diag, 0.5f)), y_to(diag));
    cr_assert(vx_collide_capsule_box(&corner, 0.2f, 0.5f, &box, unit_box, 0.0f, &m));
    assert_valid(&m, 0);
}

Test(capsule_box, crossing_an_edge_uses_the_edge_axis)
{
    /* Segment across the z edge at x = y = 1, dipping 0.1 / sqrt(2) inside
     * along the diagonal: depth = 0.1 * sqrt(2) + r on the edge axis. */
    vx_transform box = at(0, 0, 0);
    vx_vec3 dir = vx_vec3_normalize(v3(1, -1, 0));
    vx_transform cap = tf(v3(0.9f, 0.9f, 0.25f), y_to(dir));
    vx_manifold m;
    cr_assert(vx_collide_capsule_box(&cap, 0.2f, 2.0f, &box, unit_box, 0.0f, &m));
    assert_valid(&m, 0);
    cr_assert_eq(m.count, 1);
    float k = 1.0f / sqrtf(2.0f);
    VX_ASSERT_VEC3_NEAR(m.normal, -k, -k, 0, EPS);
    VX_ASSERT_NEAR(m.points[0].depth, 0.2f + 0.1f * sqrtf(2.0f), EPS);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 1, 1, 0.25f, EPS);
    cr_assert_eq(m.points[0].feature, capsule_box_id(SIDE, 1, 1, 0));
}

Test(capsule_box, speculative_margin_keeps_only_close_ends)
{
    /* Nearly flat (sin 0.01) over the top face, half height 2: the ends are
     * 0.04 apart in height; the low one 0.01 deep, the high one 0.03 clear. */
    float phi = asinf(0.01f);
    vx_transform box = at(0, 0, 0);
    vx_vec3 half = v3(3, 1, 3);
    vx_transform cap = tf(v3(0, 1.0f + 0.5f - 0.01f + 0.02f, 0), axis_angle(0, 0, 1, PI_2 - phi));
    vx_manifold m;
    cr_assert(vx_collide_capsule_box(&cap, 0.5f, 2.0f, &box, half, 0.02f, &m));
    assert_valid(&m, 0.02f);
    cr_assert_eq(m.count, 1);
    VX_ASSERT_NEAR(m.points[0].depth, 0.01f, 1e-4);
    cr_assert(vx_collide_capsule_box(&cap, 0.5f, 2.0f, &box, half, 0.05f, &m));
    assert_valid(&m, 0.05f);
    cr_assert_eq(m.count, 2);
    VX_ASSERT_NEAR(fminf(m.points[0].depth, m.points[1].depth), -0.03f, 1e-4);
    VX_ASSERT_NEAR(fmaxf(m.points[0].depth, m.points[1].depth), 0.01f, 1e-4);

    /* Hovering 0.05 above with margin 0.04: nothing. */
    vx_transform high = at(0, 2.55f, 0);
    m = poisoned();
    cr_assert_not(vx_collide_capsule_box(&high, 0.5f, 1.0f, &box, unit_box, 0.04f, &m));
    assert_empty(&m);
    cr_assert(vx_collide_capsule_box(&high, 0.5f, 1.0f, &box, unit_box, 0.06f, &m));
    VX_ASSERT_NEAR(m.points[0].depth, -0.05f, EPS);
}

Test(capsule_box, turning_the_world_turns_the_contact)
{
    vx_quat q = axis_angle(-0.4f, 1, 0.7f, 1.9f);
    vx_transform box = tf(v3(0.5f, -0.2f, 0.1f), axis_angle(0, 1, 0, 0.3f));
    vx_transform caps[4] = {
        at(0.6f, 1.4f, 0),                                                      /* upright on top */
        tf(v3(0.4f, 1.2f, 0.2f), axis_angle(0, 0, 1, PI_2 + 0.3f)),     /* flat on top */
        tf(vx_vec3_add(box.position, vx_quat_rotate(box.rotation, v3(1.3f, 1.2f, 0.2f))),
           vx_quat_mul(box.rotation, axis_angle(1, 0, 0, 1.3f))),                /* beside an edge */
        tf(v3(0.4f, 0.3f, 0.1f), axis_angle(1, 1, 0, 0.6f)),                     /* deep */
    };
    for (int i = 0; i < 4; i++) {
        vx_transform b2 = turned(q, box), c2 = turned(q, caps[i]);
        vx_manifold m1, m2;
        cr_assert(vx_collide_capsule_box(&caps[i], 0.5f, 1.0f, &box, unit_box, 0.0f, &m1), "case %d", i);
        cr_assert(vx_collide_capsule_box(&c2, 0.5f, 1.0f, &b2, unit_box, 0.0f, &m2), "case %d", i);
        assert_valid(&m1, 0);
        assert_valid(&m2, 0);
        assert_turned(&m1, &m2, q);
    }
}

Test(capsule_box, feature_stable_under_tiny_motion)
{
    vx_transform box = at(0, 0, 0);
    vx_transform caps[4] = {
        at(0.3f, 2.4f, -0.2f),                                            /* upright */
        tf(v3(0.5f, 1.4f, 0.2f), axis_angle(0, 0, 1, PI_2)),     /* flat */
        tf(v3(1.1f, 1.1f, 0.3f), axis_angle(1, 0, 0, PI_2)),     /* beside an edge */
        tf(v3(0.5f, 0.8f, 0.2f), axis_angle(0, 0, 1, PI_2)),     /* sunk flat */
    };
    vx_quat wobble[3] = {axis_angle(1, 0, 0, 1e-4f), axis_angle(0, 1, 0, -1e-4f), axis_angle(0, 0, 1, 1e-4f)};
    for (int i = 0; i < 4; i++) {
        vx_manifold m0, m1;
        cr_assert(vx_collide_capsule_box(&caps[i], 0.5f, 1.0f, &box, unit_box, 0.0f, &m0));
        for (int k = 0; k < 3; k++) {
            vx_transform moved = tf(vx_vec3_add(caps[i].position, v3(1e-4f, -1e-4f * (float)k, 1e-4f)),
                                    vx_quat_normalize(vx_quat_mul(wobble[k], caps[i].rotation)));
            cr_assert(vx_collide_capsule_box(&moved, 0.5f, 1.0f, &box, unit_box, 0.0f, &m1), "case %d", i);
            assert_same_features(&m0, &m1);
        }
    }
}

Test(capsule_box, random_against_brute_force)
{
    vx_test_rng rng = {0xb0c5u};
    int hits = 0, two = 0, inside = 0;
    for (int iter = 0; iter < 2000; iter++) {
        vx_transform box = tf(v3(vx_test_rng_range(&rng, -0.5f, 0.5f), vx_test_rng_range(&rng, -0.5f, 0.5f),
                                 vx_test_rng_range(&rng, -0.5f, 0.5f)),
                              axis_angle(vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, 0.1f, 1),
                                         vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, -3, 3)));
        vx_vec3 half = v3(vx_test_rng_range(&rng, 0.1f, 1.5f), vx_test_rng_range(&rng, 0.1f, 1.5f),
                          vx_test_rng_range(&rng, 0.1f, 1.5f));
        vx_transform cap = tf(v3(vx_test_rng_range(&rng, -2.5f, 2.5f), vx_test_rng_range(&rng, -2.5f, 2.5f),
                                 vx_test_rng_range(&rng, -2.5f, 2.5f)),
                              axis_angle(vx_test_rng_range(&rng, 0.1f, 1), vx_test_rng_range(&rng, -1, 1),
                                         vx_test_rng_range(&rng, -1, 1), vx_test_rng_range(&rng, -3, 3)));
        if (iter % 4 == 0) cap.rotation = box.rotation; /* axis along a box axis */
        float r = vx_test_rng_range(&rng, 0.05f, 0.8f), h = vx_test_rng_range(&rng, 0.01f, 1.5f);
        float margin = vx_test_rng_range(&rng, 0, 0.2f);

        /* The segment in the box's frame, in double. */
        dvec p0, p1;
        segment_of(&cap, h, &p0, &p1);
        vx_quat inv = vx_quat_conjugate(vx_quat_normalize(box.rotation));
        dvec c = dv(box.position);
        vx_vec3 l0f = vx_quat_rotate(inv, v3((float)(p0.x - c.x), (float)(p0.y - c.y), (float)(p0.z - c.z)));
        vx_vec3 l1f = vx_quat_rotate(inv, v3((float)(p1.x - c.x), (float)(p1.y - c.y), (float)(p1.z - c.z)));
        double e[3] = {half.x, half.y, half.z};
        double dist = segment_box_distance(dv(l0f), dv(l1f), e);
        double expected = (double)r - dist;

        vx_manifold m;
        bool hit = vx_collide_capsule_box(&cap, r, h, &box, half, margin, &m);
        if (expected > -margin + 1e-4) cr_assert(hit, "iteration %d", iter);
        if (expected < -margin - 1e-4) cr_assert_not(hit, "iteration %d", iter);
        if (!hit) continue;
        hits++;
        two += m.count == 2;
        inside += dist <= 2e-5;
        assert_valid(&m, margin);
        cr_assert(m.count == 1 || m.count == 2);
        float deepest = m.points[0].depth;
        for (int i = 1; i < m.count; i++) deepest = fmaxf(deepest, m.points[i].depth);
        if (dist > 2e-5) {
            /* Clear of the box: the deepest point is the exact distance. */
            VX_ASSERT_NEAR(deepest, expected, 1e-5);
        } else {
            /* Touching or inside: at least r deep. */
            cr_assert_geq(deepest, r - 3e-5f, "iteration %d", iter);
        }
        /* The box point lies on the box surface (within rounding). */
        for (int i = 0; i < m.count; i++) {
            vx_vec3 pb = vx_quat_rotate(inv, vx_vec3_sub(m.points[i].point_b, box.position));
            double outside = point_box_distance(dv(pb), e);
            cr_assert_leq(outside, 1e-4, "iteration %d", iter);
        }
    }
    /* The sample reaches every path: clear, two-point and touching/inside. */
    cr_assert(hits > 300 && two > 40 && inside > 80, "hits %d, two-point %d, inside %d", hits, two, inside);
}
