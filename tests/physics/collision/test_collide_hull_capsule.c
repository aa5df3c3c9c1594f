/* Hull-capsule narrow phase (src/physics/collision/collide_hull_capsule.c).
 *
 * The oracle: a hull built from a box's 8 corners against a capsule must
 * give capsule-box's contact (vx_collide_capsule_box, flipped so the box is
 * A) for the same poses: same hit, normal, depths and points (as sets; the
 * feature ids differ) over thousands of random poses, capsules lying flat
 * on a face, standing on an end, across and along an edge, deep inside.
 * Then, measured against brute-force distances in double for a box, a
 * tetrahedron and an octahedron: nothing beyond the margin, a hit within
 * it, the depth of a single point is the radius less the distance; the
 * points lie on the hull and (for one point clear of the hull) on the
 * capsule. A capsule of zero length is hull-sphere's sphere. Feature ids of
 * a capsule lying on a face stay under tiny moves. Hand-computed contacts on
 * an octahedron and a tetrahedron. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "physics/body/hull.h"
#include "physics/collision/collide_internal.h"
#include "test_helpers.h"
#include "test_hull_helpers.h"
#include "voltex/collide.h"

static vx_vec3 v3(float x, float y, float z) { return vx_vec3_make(x, y, z); }
static float rnd(vx_test_rng *r, float lo, float hi) { return vx_test_rng_range(r, lo, hi); }
static float dist3(vx_vec3 a, vx_vec3 b) { return vx_vec3_length(vx_vec3_sub(a, b)); }

/* The regular octahedron |x| + |y| + |z| <= 1. */
static vx_hull *octahedron(void)
{
    const vx_vec3 pts[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    return vx_test_hull(pts, 6);
}

/* The corner tetrahedron x, y, z >= 0, x + y + z <= 1. */
static vx_hull *corner_tetrahedron(void)
{
    const vx_vec3 pts[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    return vx_test_hull(pts, 4);
}

/* A rotation taking local Y to the unit d (in the frame it is applied in),
 * after a turn by spin about Y (the capsule's own spin must not matter). */
static vx_quat y_to(vx_vec3 d, float spin)
{
    vx_quat s = vx_quat_from_axis_angle(v3(0, 1, 0), spin);
    vx_vec3 axis = vx_vec3_cross(v3(0, 1, 0), d);
    float len = vx_vec3_length(axis);
    vx_quat q;
    if (len > 1e-6f) q = vx_quat_from_axis_angle(vx_vec3_scale(axis, 1.0f / len), atan2f(len, d.y));
    else q = d.y > 0.0f ? vx_quat_identity() : vx_quat_from_axis_angle(v3(1, 0, 0), 3.14159265f);
    return vx_quat_normalize(vx_quat_mul(q, s));
}

/* ================= brute force in double ================= */

static d3 d3_lerp(d3 a, d3 b, double t) { return d3_add(a, d3_scale(d3_sub(b, a), t)); }

static double point_segment_distance(d3 x, d3 a, d3 b)
{
    d3 ab = d3_sub(b, a);
    double len_sq = d3_dot(ab, ab);
    double t = len_sq > 0.0 ? d3_dot(d3_sub(x, a), ab) / len_sq : 0.0;
    t = fmin(1.0, fmax(0.0, t));
    return d3_len(d3_sub(x, d3_lerp(a, b, t)));
}

/* Distance from x to the solid hull: 0 inside, else the nearest face
 * polygon (its plane where x projects inside it, else its edges). */
static double point_hull_distance(const whull *p, d3 x)
{
    if (whull_excess(p, x) <= 0.0) return 0.0;
    const vx_hull *h = p->h;
    double best = DBL_MAX;
    for (int f = 0; f < h->face_count; f++) {
        double height = d3_dot(p->n[f], x) - p->d[f];
        bool inside = true;
        int e = h->faces[f].first_edge;
        for (int k = 0; k < h->faces[f].edge_count; k++, e = h->edges[e].next) {
            d3 a = p->v[h->edges[e].origin], b = p->v[h->edges[e ^ 1].origin];
            if (d3_dot(d3_cross(d3_sub(b, a), p->n[f]), d3_sub(x, a)) > 0.0) inside = false;
            best = fmin(best, point_segment_distance(x, a, b));
        }
        if (inside) best = fmin(best, fabs(height));
    }
    return best;
}

/* Distance from the segment [a, b] to the solid hull: the point distance is
 * convex along the segment, so a golden-section search finds its minimum. */
static double segment_hull_distance(const whull *p, d3 a, d3 b)
{
    double lo = 0.0, hi = 1.0;
    const double g = 0.6180339887498949;
    double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    double f1 = point_hull_distance(p, d3_lerp(a, b, x1)), f2 = point_hull_distance(p, d3_lerp(a, b, x2));
    for (int i = 0; i < 80; i++) {
        if (f1 <= f2) {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - g * (hi - lo);
            f1 = point_hull_distance(p, d3_lerp(a, b, x1));
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + g * (hi - lo);
            f2 = point_hull_distance(p, d3_lerp(a, b, x2));
        }
    }
    double best = fmin(f1, f2);
    best = fmin(best, point_hull_distance(p, a));
    return fmin(best, point_hull_distance(p, b));
}

/* The capsule's segment ends in double (-Y end first). */
static void capsule_ends(const vx_transform *t, float half_height, d3 *a, d3 *b)
{
    vx_vec3 axis = vx_quat_rotate(vx_quat_normalize(t->rotation), v3(0, half_height, 0));
    *a = d3_of(vx_vec3_sub(t->position, axis));
    *b = d3_of(vx_vec3_add(t->position, axis));
}

/* ================= the contract ================= */

static void check_contract(const vx_manifold *m, float margin, float tol, const char *what)
{
    cr_assert(m->count >= 1 && m->count <= 2, "%s: count %d", what, m->count);
    VX_ASSERT_NEAR(vx_vec3_length(m->normal), 1.0f, 1e-5);
    for (int i = 0; i < m->count; i++) {
        const vx_manifold_point *p = &m->points[i];
        cr_assert(vx_vec3_is_finite(p->point_a) && vx_vec3_is_finite(p->point_b) && isfinite(p->depth), "%s", what);
        cr_assert_gt(p->depth, -margin, "%s: depth %g, margin %g", what, (double)p->depth, (double)margin);
        float off = dist3(vx_vec3_sub(p->point_a, p->point_b), vx_vec3_scale(m->normal, p->depth));
        cr_assert_leq(off, tol, "%s: a - b is %g from normal * depth", what, (double)off);
        cr_assert_eq(p->feature >> VX_FEATURE_KIND_SHIFT, VX_FEATURE_KIND_HULL_CAPSULE, "%s: id %x", what, p->feature);
        if (i > 0) cr_assert_gt(p->feature, m->points[i - 1].feature, "%s: ids not sorted or repeated", what);
    }
}

/* ================= hulls of boxes against capsule-box ================= */

typedef struct {
    int calls, hits, two_points, at_margin, ties;
    float max_normal, max_depth, max_point; /* differences, per m of scale */
} tally;

typedef struct {
    vx_transform box, cap;
    vx_vec3 half;
    float radius, half_height, margin;
} case_t;

static void describe(const case_t *c, char *buf, size_t n)
{
    snprintf(buf, n,
             "box p(%a %a %a) q(%a %a %a %a) h(%a %a %a) capsule p(%a %a %a) "
             "q(%a %a %a %a) r %a hh %a margin %a",
             (double)c->box.position.x, (double)c->box.position.y, (double)c->box.position.z, (double)c->box.rotation.x,
             (double)c->box.rotation.y, (double)c->box.rotation.z, (double)c->box.rotation.w, (double)c->half.x,
             (double)c->half.y, (double)c->half.z, (double)c->cap.position.x, (double)c->cap.position.y,
             (double)c->cap.position.z, (double)c->cap.rotation.x, (double)c->cap.rotation.y, (double)c->cap.rotation.z,
             (double)c->cap.rotation.w, (double)c->radius, (double)c->half_height, (double)c->margin);
}

/* The points of want and got matched as sets: each within tol (both
 * points and the depth); the largest differences through *dp, *dd. */
static bool same_point_sets(const vx_manifold *want, const vx_manifold *got, float tol, float *dp, float *dd)
{
    if (want->count != got->count) return false;
    bool used[VX_MANIFOLD_MAX_POINTS] = {false};
    for (int i = 0; i < want->count; i++) {
        const vx_manifold_point *p = &want->points[i];
        int match = -1;
        for (int j = 0; j < got->count && match < 0; j++) {
            const vx_manifold_point *q = &got->points[j];
            if (!used[j] && dist3(p->point_a, q->point_a) <= tol && dist3(p->point_b, q->point_b) <= tol &&
                fabsf(p->depth - q->depth) <= tol)
                match = j;
        }
        if (match < 0) return false;
        used[match] = true;
        const vx_manifold_point *q = &got->points[match];
        *dp = fmaxf(*dp, fmaxf(dist3(p->point_a, q->point_a), dist3(p->point_b, q->point_b)));
        *dd = fmaxf(*dd, fabsf(p->depth - q->depth));
    }
    return true;
}

static void compare_with_capsule_box(const vx_hull *hull, const case_t *c, tally *t)
{
    vx_manifold want, got;
    bool hw = vx_collide_capsule_box(&c->cap, c->radius, c->half_height, &c->box, c->half, c->margin, &want);
    bool hg = vx_collide_hull_capsule(hull, &c->box, &c->cap, c->radius, c->half_height, c->margin, &got);
    if (hw) vx_manifold_flip(&want);
    float scale = 1.0f + vx_vec3_length(c->box.position) + vx_vec3_length(c->cap.position) + vx_vec3_length(c->half) +
                  c->half_height + c->radius;
    float tol = 1e-5f * scale;
    char buf[512];
    describe(c, buf, sizeof buf);
    t->calls++;

    whull p;
    whull_init(&p, hull, &c->box);
    d3 a, b;
    capsule_ends(&c->cap, c->half_height, &a, &b);
    double gap = segment_hull_distance(&p, a, b) - c->radius;
    if (hw != hg) {
        /* Only a capsule at the margin may go either way. */
        cr_assert_leq(fabs(gap - c->margin), tol, "capsule-box %d, hull %d, gap %g: %s", hw, hg, gap, buf);
        t->at_margin++;
        return;
    }
    if (!hg) {
        cr_assert_eq(got.count, 0);
        cr_assert_geq(gap, c->margin - tol, "no hit at gap %g: %s", gap, buf);
        return;
    }
    t->hits++;
    check_contract(&got, c->margin, tol, buf);
    for (int i = 0; i < got.count; i++)
        cr_assert_leq(fabs(whull_excess(&p, d3_of(got.points[i].point_a))), 2.0 * tol, "point_a %d off the hull: %s", i,
                      buf);

    float dn = dist3(want.normal, got.normal);
    float dp = 0.0f, dd = 0.0f;
    if (dn > tol || !same_point_sets(&want, &got, tol, &dp, &dd)) {
        /* A tie of features: the capsule lies over a face's rim (or along
         * an edge past its end) and the rim (the end) is nearer than the
         * face (the edge) by less than a micrometre. Capsule-box takes
         * whichever its rounding of squared distances makes nearer; the
         * hull takes the face (the edge) unless the other is nearer by
         * 1e-6 m per m of size. Both must then find the same deepest
         * point, their normals a few degrees apart at most. */
        float deepest_w = -FLT_MAX, deepest_g = -FLT_MAX;
        for (int i = 0; i < want.count; i++) deepest_w = fmaxf(deepest_w, want.points[i].depth);
        for (int i = 0; i < got.count; i++) deepest_g = fmaxf(deepest_g, got.points[i].depth);
        float tie = 2e-6f * fmaxf(1.0f, fmaxf(c->half.x, fmaxf(c->half.y, c->half.z)));
        cr_assert(fabsf(deepest_w - deepest_g) <= tie + tol && dn <= 0.05f,
                  "normal (%g %g %g), capsule-box (%g %g %g); %d points, deepest "
                  "%g, capsule-box %d, %g: %s",
                  (double)got.normal.x, (double)got.normal.y, (double)got.normal.z, (double)want.normal.x,
                  (double)want.normal.y, (double)want.normal.z, got.count, (double)deepest_g, want.count,
                  (double)deepest_w, buf);
        t->ties++;
        return;
    }
    if (got.count == 2) t->two_points++;
    t->max_normal = fmaxf(t->max_normal, dn / scale);
    t->max_point = fmaxf(t->max_point, dp / scale);
    t->max_depth = fmaxf(t->max_depth, dd / scale);
}

static void print_tally(const char *name, const tally *t)
{
    printf("%s: %d poses, %d hits (%d with 2 points), %d at the margin, %d ties "
           "of features; largest differences "
           "per m: normal %.2g, depth %.2g, point %.2g\n",
           name, t->calls, t->hits, t->two_points, t->at_margin, t->ties, (double)t->max_normal, (double)t->max_depth,
           (double)t->max_point);
}

/* A random box with its hull, and a random capsule size. */
static void random_case_base(vx_test_rng *r, case_t *c)
{
    memset(c, 0, sizeof *c);
    float hx = rnd(r, 0.1f, 2.0f), hy = rnd(r, 0.1f, 2.0f), hz = rnd(r, 0.1f, 2.0f);
    c->half = v3(hx, hy, hz);
    vx_vec3 at = vx_test_rng_vec3(r, -3.0f, 3.0f);
    c->box = vx_test_pose(at, vx_test_random_rotation(r));
    c->radius = rnd(r, 0.02f, 1.0f);
    c->half_height = vx_test_rng_next(r) % 8u == 0u ? 0.0f : rnd(r, 0.05f, 2.0f);
    c->margin = vx_test_random_margin(r);
}

/* Box-local point and direction -> the capsule's world pose. */
static void set_capsule(case_t *c, vx_vec3 local_centre, vx_vec3 local_dir, float spin)
{
    vx_quat qb = vx_quat_normalize(c->box.rotation);
    vx_vec3 centre = vx_vec3_add(c->box.position, vx_quat_rotate(qb, local_centre));
    c->cap = vx_test_pose(centre, vx_quat_normalize(vx_quat_mul(qb, y_to(vx_vec3_normalize(local_dir), spin))));
}

static float comp(vx_vec3 v, int k) { return vx_vec3_get(v, k); }

/* A direction in the plane of face axis k, turned by tilt out of it. */
static vx_vec3 flat_dir(vx_test_rng *r, int k, float sign, float tilt)
{
    float angle = rnd(r, 0.0f, 6.2831853f);
    vx_vec3 d = vx_vec3_zero();
    vx_vec3_set(&d, (k + 1) % 3, cosf(angle));
    vx_vec3_set(&d, (k + 2) % 3, sinf(angle));
    vx_vec3_set(&d, k, sign * tilt);
    return vx_vec3_normalize(d);
}

typedef void (*case_maker)(vx_test_rng *r, case_t *c);

/* Anywhere near the box, any orientation: clear, touching, deep. */
static void make_random(vx_test_rng *r, case_t *c)
{
    random_case_base(r, c);
    float reach = c->radius + c->half_height;
    vx_vec3 centre = v3(rnd(r, -1, 1) * (c->half.x + reach), rnd(r, -1, 1) * (c->half.y + reach),
                        rnd(r, -1, 1) * (c->half.z + reach));
    set_capsule(c, centre, vx_test_random_unit(r), rnd(r, 0, 6.28f));
}

/* Lying on a face (exactly flat or tilted below a degree), from hovering
 * within the margin to sunk a third of its radius, anywhere over the face
 * or hanging over its rim. */
static void make_flat(vx_test_rng *r, case_t *c)
{
    random_case_base(r, c);
    if (c->half_height < 0.05f) c->half_height = 0.5f;
    int k = (int)(vx_test_rng_next(r) % 3u);
    float sign = vx_test_rng_next(r) & 1u ? 1.0f : -1.0f;
    float tilt = vx_test_rng_next(r) % 3u == 0u ? 0.0f : rnd(r, -0.015f, 0.015f);
    vx_vec3 d = flat_dir(r, k, 1.0f, tilt);
    float depth = rnd(r, -0.9f * c->margin, 0.3f * c->radius);
    vx_vec3 centre = vx_vec3_zero();
    for (int i = 0; i < 3; i++) vx_vec3_set(&centre, i, rnd(r, -1.0f, 1.0f) * comp(c->half, i));
    /* the lower end's height decides: the centre sits that much higher */
    float lift = c->half_height * fabsf(tilt) / sqrtf(1.0f + tilt * tilt);
    vx_vec3_set(&centre, k, sign * (comp(c->half, k) + c->radius - depth + lift));
    set_capsule(c, centre, d, rnd(r, 0, 6.28f));
}

/* Standing on an end on a face, upright or leaning up to 20 degrees. */
static void make_standing(vx_test_rng *r, case_t *c)
{
    random_case_base(r, c);
    int k = (int)(vx_test_rng_next(r) % 3u);
    float sign = vx_test_rng_next(r) & 1u ? 1.0f : -1.0f;
    vx_vec3 n = vx_vec3_zero();
    vx_vec3_set(&n, k, sign);
    float lean = vx_test_rng_next(r) % 4u == 0u ? 0.0f : rnd(r, 0.0f, 0.35f);
    vx_vec3 d = vx_vec3_add(vx_vec3_scale(n, cosf(lean)), vx_vec3_scale(flat_dir(r, k, 0.0f, 0.0f), sinf(lean)));
    if (vx_test_rng_next(r) & 1u) d = vx_vec3_neg(d); /* either end down */
    float depth = rnd(r, -0.9f * c->margin, 0.3f * c->radius);
    vx_vec3 centre = vx_vec3_zero();
    for (int i = 0; i < 3; i++) vx_vec3_set(&centre, i, rnd(r, -0.8f, 0.8f) * comp(c->half, i));
    vx_vec3_set(&centre, k, sign * (comp(c->half, k) + c->radius - depth + c->half_height * fabsf(vx_vec3_dot(d, n))));
    set_capsule(c, centre, d, rnd(r, 0, 6.28f));
}

/* At an edge of the box: across it (perpendicular to the edge and its
 * bisector), along it (within a degree), or any way; hovering or sunk. */
static void make_edge(vx_test_rng *r, case_t *c)
{
    random_case_base(r, c);
    int k = (int)(vx_test_rng_next(r) % 3u); /* the edge runs along axis k */
    int i = (k + 1) % 3, j = (k + 2) % 3;
    float si = vx_test_rng_next(r) & 1u ? 1.0f : -1.0f, sj = vx_test_rng_next(r) & 1u ? 1.0f : -1.0f;
    vx_vec3 out = vx_vec3_zero();
    float a = rnd(r, 0.2f, 1.37f); /* direction away from the edge, within its normal cone */
    vx_vec3_set(&out, i, si * cosf(a));
    vx_vec3_set(&out, j, sj * sinf(a));
    vx_vec3 on_edge = vx_vec3_zero();
    vx_vec3_set(&on_edge, i, si * comp(c->half, i));
    vx_vec3_set(&on_edge, j, sj * comp(c->half, j));
    vx_vec3_set(&on_edge, k, rnd(r, -1.0f, 1.0f) * comp(c->half, k));
    vx_vec3 edge = vx_vec3_zero();
    vx_vec3_set(&edge, k, 1.0f);
    unsigned kind = vx_test_rng_next(r) % 3u;
    vx_vec3 d = kind == 0u   ? vx_vec3_cross(out, edge)
                : kind == 1u ? vx_vec3_add(edge, vx_vec3_scale(vx_test_random_unit(r), rnd(r, 0.0f, 0.015f)))
                             : vx_test_random_unit(r);
    if (kind == 1u && c->half_height < 0.05f) c->half_height = 0.5f;
    float depth = rnd(r, -0.9f * c->margin, 0.3f * c->radius);
    vx_vec3 centre = vx_vec3_add(on_edge, vx_vec3_scale(out, c->radius - depth));
    set_capsule(c, centre, d, rnd(r, 0, 6.28f));
}

/* The segment through the box: deep inside, any orientation. */
static void make_deep(vx_test_rng *r, case_t *c)
{
    random_case_base(r, c);
    vx_vec3 centre = v3(rnd(r, -1, 1) * c->half.x, rnd(r, -1, 1) * c->half.y, rnd(r, -1, 1) * c->half.z);
    set_capsule(c, centre, vx_test_random_unit(r), rnd(r, 0, 6.28f));
}

static void run_against_capsule_box(const char *name, case_maker make, uint32_t seed, int n, int min_hits, int min_two)
{
    vx_test_rng r = {seed};
    tally t;
    memset(&t, 0, sizeof t);
    for (int k = 0; k < n; k++) {
        case_t c;
        make(&r, &c);
        vx_hull *h = vx_test_box_hull(c.half);
        compare_with_capsule_box(h, &c, &t);
        vx_hull_destroy(h);
    }
    print_tally(name, &t);
    cr_assert_geq(t.hits, min_hits, "%s: only %d hits", name, t.hits);
    cr_assert_geq(t.two_points, min_two, "%s: only %d two-point contacts", name, t.two_points);
    cr_assert_leq(t.at_margin, n / 500, "%s: %d at the margin", name, t.at_margin);
    cr_assert_leq(t.ties, t.hits / 16, "%s: %d ties of features", name, t.ties);
}

Test(collide_hull_capsule, box_hull_matches_capsule_box_random_poses)
{
    run_against_capsule_box("random", make_random, 0x1234567u, 4000, 1500, 0);
}

Test(collide_hull_capsule, box_hull_matches_capsule_box_lying_flat)
{
    run_against_capsule_box("flat", make_flat, 0x2468aceu, 3000, 2900, 1500);
}

Test(collide_hull_capsule, box_hull_matches_capsule_box_standing_on_an_end)
{
    run_against_capsule_box("standing", make_standing, 0x13579bdu, 3000, 2900, 0);
}

Test(collide_hull_capsule, box_hull_matches_capsule_box_at_an_edge)
{
    run_against_capsule_box("edge", make_edge, 0xfeed123u, 3000, 2900, 500);
}

Test(collide_hull_capsule, box_hull_matches_capsule_box_deep_inside)
{
    run_against_capsule_box("deep", make_deep, 0x5eed5u, 3000, 3000, 0);
}

/* ================= any hull against brute-force distances ================= */

typedef struct {
    int hits, misses, single_clear;
} brute_tally;

/* One pose of a capsule near hull h: the hit must agree with the brute-force
 * gap (within tol of the margin either may happen), a single point of a
 * capsule clear of the hull is the closest points (depth = -gap, point_b on
 * the capsule), no point is deeper than the penetration bound a clear
 * capsule allows, and every point_a lies on the hull. */
static void check_brute(const vx_hull *h, const vx_transform *hp, const vx_transform *cp, float radius, float hh,
                        float margin, brute_tally *bt)
{
    vx_manifold m;
    bool hit = vx_collide_hull_capsule(h, hp, cp, radius, hh, margin, &m);
    whull p;
    whull_init(&p, h, hp);
    d3 a, b;
    capsule_ends(cp, hh, &a, &b);
    double dist = segment_hull_distance(&p, a, b);
    double gap = dist - radius;
    float scale = 1.0f + vx_vec3_length(hp->position) + vx_vec3_length(cp->position) + hh + radius;
    float tol = 2e-5f * scale;
    if (gap > margin + tol) {
        cr_assert(!hit, "hit at gap %g beyond margin %g", gap, (double)margin);
        cr_assert_eq(m.count, 0);
        bt->misses++;
        return;
    }
    if (gap < margin - tol) cr_assert(hit, "no hit at gap %g within margin %g", gap, (double)margin);
    if (!hit) return;
    bt->hits++;
    check_contract(&m, margin, tol, "brute force");
    for (int i = 0; i < m.count; i++) {
        cr_assert_leq(fabs(whull_excess(&p, d3_of(m.points[i].point_a))), 2.0 * tol, "point_a off the hull");
        if (dist > 1e-3) cr_assert_leq(m.points[i].depth, -gap + tol, "deeper than the gap allows");
    }
    if (m.count == 1 && dist > 1e-3) {
        bt->single_clear++;
        VX_ASSERT_NEAR(m.points[0].depth, -gap, tol);
        double on_capsule = point_segment_distance(d3_of(m.points[0].point_b), a, b);
        VX_ASSERT_NEAR(on_capsule, radius, tol);
    }
}

static void brute_force_run(vx_hull *h, uint32_t seed, int n)
{
    vx_test_rng r = {seed};
    brute_tally bt = {0, 0, 0};
    vx_vec3 extent = vx_vec3_sub(h->bounds.max, h->bounds.min);
    float size = vx_vec3_length(extent);
    for (int k = 0; k < n; k++) {
        vx_vec3 at = vx_test_rng_vec3(&r, -2.0f, 2.0f);
        vx_transform hp = vx_test_pose(at, vx_test_random_rotation(&r));
        float radius = rnd(&r, 0.02f, 0.6f);
        float hh = vx_test_rng_next(&r) % 8u == 0u ? 0.0f : rnd(&r, 0.05f, 1.2f);
        float margin = vx_test_random_margin(&r);
        vx_vec3 centroid = vx_vec3_add(at, vx_quat_rotate(hp.rotation, h->centroid));
        vx_vec3 off = vx_vec3_scale(vx_test_random_unit(&r), rnd(&r, 0.0f, 0.5f * size + radius + hh));
        vx_transform cp = vx_test_pose(vx_vec3_add(centroid, off), vx_test_random_rotation(&r));
        check_brute(h, &hp, &cp, radius, hh, margin, &bt);
    }
    printf("brute force: %d poses, %d hits (%d single points clear of the hull), "
           "%d beyond the margin\n",
           n, bt.hits, bt.single_clear, bt.misses);
    cr_assert_gt(bt.hits, n / 5);
    cr_assert_gt(bt.misses, n / 10);
    cr_assert_gt(bt.single_clear, n / 20);
}

Test(collide_hull_capsule, box_hull_against_brute_force)
{
    vx_hull *h = vx_test_box_hull(v3(0.6f, 0.3f, 0.9f));
    brute_force_run(h, 0xabcdef1u, 3000);
    vx_hull_destroy(h);
}

Test(collide_hull_capsule, tetrahedron_against_brute_force)
{
    vx_hull *h = corner_tetrahedron();
    brute_force_run(h, 0x7777777u, 3000);
    vx_hull_destroy(h);
}

Test(collide_hull_capsule, octahedron_against_brute_force)
{
    vx_hull *h = octahedron();
    brute_force_run(h, 0x3141592u, 3000);
    vx_hull_destroy(h);
}

/* Beyond the margin: nothing, and out->count is 0 even when it held points. */
Test(collide_hull_capsule, separated_beyond_margin_gives_nothing)
{
    vx_hull *h = octahedron();
    vx_transform hp = vx_test_pose(v3(1, 2, 3), vx_quat_from_axis_angle(v3(0, 0, 1), 0.3f));
    vx_transform cp = vx_test_pose(v3(1, 2, 3), vx_quat_identity());
    vx_manifold m;
    cr_assert(vx_collide_hull_capsule(h, &hp, &cp, 0.2f, 0.5f, 0.0f, &m)); /* through the middle */
    cr_assert_gt(m.count, 0);
    /* above a vertex of the octahedron's turned frame: its +Y tip */
    vx_vec3 tip = vx_vec3_add(hp.position, vx_quat_rotate(hp.rotation, v3(0, 1, 0)));
    vx_vec3 up = vx_quat_rotate(hp.rotation, v3(0, 1, 0));
    for (int k = 0; k < 2; k++) {
        float margin = k == 0 ? 0.0f : 0.1f;
        /* the lower end 0.2 + margin + 1e-3 above the tip, radius 0.2 */
        cp = vx_test_pose(vx_vec3_add(tip, vx_vec3_scale(up, 0.5f + 0.2f + margin + 1e-3f)), hp.rotation);
        cr_assert_not(vx_collide_hull_capsule(h, &hp, &cp, 0.2f, 0.5f, margin, &m));
        cr_assert_eq(m.count, 0);
        /* 2e-3 closer: within the margin (or touching) */
        cp.position = vx_vec3_sub(cp.position, vx_vec3_scale(up, 2e-3f));
        cr_assert(vx_collide_hull_capsule(h, &hp, &cp, 0.2f, 0.5f, margin, &m));
        cr_assert_eq(m.count, 1);
        VX_ASSERT_NEAR(m.points[0].depth, 1e-3f - margin, 1e-5f);
        VX_ASSERT_VEC3_NEAR(m.normal, up.x, up.y, up.z, 1e-5f);
        VX_ASSERT_VEC3_NEAR(m.points[0].point_a, tip.x, tip.y, tip.z, 1e-5f);
        cr_assert_eq(m.points[0].feature & 0x7000u, 0u << 12, "the -Y end");
    }
    /* a negative or NaN margin is 0 */
    cp = vx_test_pose(vx_vec3_add(tip, vx_vec3_scale(up, 0.7f + 1e-3f)), hp.rotation);
    cr_assert_not(vx_collide_hull_capsule(h, &hp, &cp, 0.2f, 0.5f, -1.0f, &m));
    cr_assert_not(vx_collide_hull_capsule(h, &hp, &cp, 0.2f, 0.5f, NAN, &m));
    vx_hull_destroy(h);
}

/* A capsule of zero length is a sphere: hull-sphere's contact. */
Test(collide_hull_capsule, zero_length_is_hull_sphere)
{
    vx_hull *hulls[3] = {octahedron(), corner_tetrahedron(), vx_test_box_hull(v3(0.4f, 0.7f, 0.2f))};
    vx_test_rng r = {0x51f3u};
    int hits = 0;
    for (int k = 0; k < 3000; k++) {
        const vx_hull *h = hulls[k % 3];
        vx_transform hp = vx_test_pose(vx_test_rng_vec3(&r, -1, 1), vx_test_random_rotation(&r));
        float radius = rnd(&r, 0.05f, 0.5f), margin = vx_test_random_margin(&r);
        vx_vec3 c = vx_vec3_add(hp.position, vx_vec3_scale(vx_test_random_unit(&r), rnd(&r, 0.0f, 1.6f)));
        vx_transform cp = vx_test_pose(c, vx_test_random_rotation(&r));
        vx_manifold want, got;
        bool hw = vx_collide_hull_sphere(h, &hp, c, radius, margin, &want);
        bool hg = vx_collide_hull_capsule(h, &hp, &cp, radius, 0.0f, margin, &got);
        cr_assert_eq(hw, hg, "pose %d", k);
        if (!hg) continue;
        hits++;
        cr_assert_eq(got.count, 1);
        cr_assert_leq(dist3(want.normal, got.normal), 2e-5f, "pose %d: normal", k);
        VX_ASSERT_NEAR(got.points[0].depth, want.points[0].depth, 2e-5f);
        cr_assert_leq(dist3(want.points[0].point_a, got.points[0].point_a), 2e-5f, "pose %d: point_a", k);
        cr_assert_leq(dist3(want.points[0].point_b, got.points[0].point_b), 2e-5f, "pose %d: point_b", k);
    }
    cr_assert_gt(hits, 1000);
    for (int i = 0; i < 3; i++) vx_hull_destroy(hulls[i]);
}

/* ================= feature ids ================= */

static void ids_of(const vx_manifold *m, uint32_t *ids)
{
    for (int i = 0; i < m->count; i++) ids[i] = m->points[i].feature;
}

/* A capsule lying on a face (hovering within the margin, or sunk 1 cm)
 * keeps its two points and their ids under moves of 1e-5 m and turns up
 * to 1e-4 rad. */
static void ids_stay(const vx_hull *h, vx_vec3 face_point, vx_vec3 n, vx_vec3 along, uint32_t seed)
{
    vx_test_rng r = {seed};
    vx_transform hp =
        vx_test_pose(v3(0.3f, -1.0f, 2.0f), vx_quat_from_axis_angle(vx_vec3_normalize(v3(1, 2, 3)), 0.7f));
    for (int pass = 0; pass < 2; pass++) {
        float depth = pass == 0 ? -0.02f : 0.01f;
        float radius = 0.1f;
        vx_vec3 local = vx_vec3_add(face_point, vx_vec3_scale(n, radius - depth));
        vx_transform cp = vx_test_pose(vx_vec3_add(hp.position, vx_quat_rotate(hp.rotation, local)),
                                       vx_quat_mul(hp.rotation, y_to(along, 0.4f)));
        vx_manifold m;
        cr_assert(vx_collide_hull_capsule(h, &hp, &cp, radius, 0.3f, 0.05f, &m));
        cr_assert_eq(m.count, 2, "pass %d: %d points", pass, m.count);
        uint32_t base[2];
        ids_of(&m, base);
        for (int k = 0; k < 300; k++) {
            vx_transform moved = cp;
            moved.position = vx_vec3_add(cp.position, vx_vec3_scale(vx_test_random_unit(&r), 1e-5f));
            vx_quat turn = vx_quat_from_axis_angle(vx_test_random_unit(&r), rnd(&r, 0.0f, 1e-4f));
            moved.rotation = vx_quat_normalize(vx_quat_mul(turn, cp.rotation));
            cr_assert(vx_collide_hull_capsule(h, &hp, &moved, radius, 0.3f, 0.05f, &m));
            cr_assert_eq(m.count, 2, "pass %d move %d: %d points", pass, k, m.count);
            uint32_t ids[2];
            ids_of(&m, ids);
            cr_assert(ids[0] == base[0] && ids[1] == base[1], "pass %d move %d: ids %x %x, were %x %x", pass, k, ids[0],
                      ids[1], base[0], base[1]);
            for (int i = 0; i < 2; i++) VX_ASSERT_NEAR(m.points[i].depth, depth, 2e-4f);
        }
    }
}

Test(collide_hull_capsule, ids_stay_for_a_capsule_lying_on_a_face)
{
    vx_hull *box = vx_test_box_hull(v3(0.5f, 0.25f, 0.5f));
    ids_stay(box, v3(0.1f, 0.25f, -0.05f), v3(0, 1, 0), vx_vec3_normalize(v3(1, 0, 0.3f)), 0x9e3779b9u);
    vx_hull_destroy(box);
    vx_hull *oct = octahedron();
    float third = 1.0f / 3.0f, s3 = 1.0f / sqrtf(3.0f);
    ids_stay(oct, v3(third, third, third), v3(s3, s3, s3), vx_vec3_normalize(v3(1, -1, 0)), 0x85ebca6bu);
    vx_hull_destroy(oct);
}

/* ================= hand-computed contacts ================= */

/* Which of the hull's faces has (about) this outward normal. */
static int face_with_normal(const vx_hull *h, vx_vec3 n)
{
    for (int f = 0; f < h->face_count; f++)
        if (dist3(h->faces[f].normal, n) < 1e-4f) return f;
    cr_assert_fail("no face with normal (%g %g %g)", (double)n.x, (double)n.y, (double)n.z);
    return -1;
}

/* Lying along the octahedron's face x + y + z = 1 over its centroid, along
 * (1, -1, 0): the segment (half length 1) is clipped to the triangle's
 * sides at (2/3, 0, 1/3) and (0, 2/3, 1/3); the normal is the face's, both
 * depths the radius less the height. Sunk 0.05 and hovering 0.03 (margin
 * 0.1), and the same turned and moved. */
Test(collide_hull_capsule, octahedron_capsule_lying_on_a_face)
{
    vx_hull *h = octahedron();
    float s3 = 1.0f / sqrtf(3.0f);
    vx_vec3 n = v3(s3, s3, s3);
    int face = face_with_normal(h, n);
    float third = 1.0f / 3.0f;
    vx_vec3 ends[2] = {v3(2.0f * third, 0.0f, third), v3(0.0f, 2.0f * third, third)};
    vx_quat turns[2] = {vx_quat_identity(), vx_quat_from_axis_angle(vx_vec3_normalize(v3(-2, 1, 5)), 2.1f)};
    vx_vec3 moves[2] = {v3(0, 0, 0), v3(4, -3, 0.5f)};
    for (int pose = 0; pose < 2; pose++) {
        vx_transform hp = vx_test_pose(moves[pose], turns[pose]);
        for (int pass = 0; pass < 2; pass++) {
            float depth = pass == 0 ? 0.05f : -0.03f, radius = 0.25f;
            vx_vec3 centre = vx_vec3_add(v3(third, third, third), vx_vec3_scale(n, radius - depth));
            vx_transform cp = vx_test_pose(vx_vec3_add(hp.position, vx_quat_rotate(hp.rotation, centre)),
                                           vx_quat_mul(hp.rotation, y_to(vx_vec3_normalize(v3(1, -1, 0)), 1.0f)));
            vx_manifold m;
            cr_assert(vx_collide_hull_capsule(h, &hp, &cp, radius, 1.0f, 0.1f, &m));
            cr_assert_eq(m.count, 2, "pose %d pass %d: %d points, depth %g, id %x", pose, pass, m.count,
                         (double)m.points[0].depth, m.points[0].feature);
            vx_vec3 wn = vx_quat_rotate(hp.rotation, n);
            VX_ASSERT_VEC3_NEAR(m.normal, wn.x, wn.y, wn.z, 1e-5f);
            for (int i = 0; i < 2; i++) {
                VX_ASSERT_NEAR(m.points[i].depth, depth, 1e-5f);
                /* the -Y end of the capsule points along (-1, 1, 0): its line end is
                 * (0, 2/3, 1/3) */
                uint32_t line_end = (m.points[i].feature >> 12) & 7u;
                cr_assert(line_end == 3u || line_end == 4u);
                vx_vec3 e = ends[line_end == 3u ? 1 : 0];
                vx_vec3 we = vx_vec3_add(hp.position, vx_quat_rotate(hp.rotation, e));
                VX_ASSERT_VEC3_NEAR(m.points[i].point_a, we.x, we.y, we.z, 2e-5f);
                vx_vec3 pb = vx_vec3_sub(we, vx_vec3_scale(wn, depth));
                VX_ASSERT_VEC3_NEAR(m.points[i].point_b, pb.x, pb.y, pb.z, 2e-5f);
                cr_assert_eq(m.points[i].feature & 0xfffu, (1u << 10) | (uint32_t)face, "the face, id %x",
                             m.points[i].feature);
            }
        }
    }
    vx_hull_destroy(h);
}

/* Across the corner tetrahedron's edge from (0,0,0) to (1,0,0), between its
 * faces y = 0 and z = 0: a capsule (radius 0.2) along (0, 1, -1)/sqrt 2,
 * centred at (0.5, 0, 0) + g n with n = (0, -1, -1)/sqrt 2: its closest
 * point is its centre, the normal n, the hull point (0.5, 0, 0), depth
 * 0.2 - g. Clear (g = 0.1, within the margin of 0.2), 1 cm in (g = 0.19)
 * and with its centre inside (g = -0.05, the segment through the hull:
 * the separating axis is the edge's, not a face's). */
Test(collide_hull_capsule, tetrahedron_capsule_across_an_edge)
{
    vx_hull *h = corner_tetrahedron();
    float r2 = 1.0f / sqrtf(2.0f);
    vx_vec3 n = v3(0.0f, -r2, -r2);
    const float gaps[3] = {0.1f, 0.19f, -0.05f};
    for (int k = 0; k < 3; k++) {
        float g = gaps[k], radius = 0.2f;
        vx_transform hp = vx_test_pose(v3(0, 0, 0), vx_quat_identity());
        vx_transform cp = vx_test_pose(vx_vec3_add(v3(0.5f, 0, 0), vx_vec3_scale(n, g)), y_to(v3(0.0f, r2, -r2), 0.0f));
        vx_manifold m;
        cr_assert(vx_collide_hull_capsule(h, &hp, &cp, radius, 0.6f, 0.2f, &m), "gap %g", (double)g);
        cr_assert_eq(m.count, 1);
        VX_ASSERT_VEC3_NEAR(m.normal, n.x, n.y, n.z, 1e-5f);
        VX_ASSERT_NEAR(m.points[0].depth, radius - g, 1e-5f);
        VX_ASSERT_VEC3_NEAR(m.points[0].point_a, 0.5f, 0.0f, 0.0f, 1e-5f);
        vx_vec3 pb = vx_vec3_sub(v3(0.5f, 0, 0), vx_vec3_scale(n, radius - g));
        VX_ASSERT_VEC3_NEAR(m.points[0].point_b, pb.x, pb.y, pb.z, 1e-5f);
        cr_assert_eq((m.points[0].feature >> 10) & 3u, 2u, "an edge, id %x", m.points[0].feature);
        cr_assert_eq((m.points[0].feature >> 12) & 7u, 2u, "the capsule's side, id %x", m.points[0].feature);
    }
    vx_hull_destroy(h);
}

/* Pointing away from the tetrahedron's vertex (0,0,0) along -(1,1,1): the
 * -Y end is 0.15 from it, radius 0.1, margin 0.1: one point at the vertex,
 * depth -0.05, normal -(1,1,1)/sqrt 3. Then upright under the face z = 0 at
 * (0.2, 0.3), radius 0.1, its top 0.02 above z = 0: depth 0.02 along the
 * face normal (0, 0, -1), the point (0.2, 0.3, 0) and the -Y end's id. */
Test(collide_hull_capsule, tetrahedron_capsule_on_a_vertex_and_standing_on_a_face)
{
    vx_hull *h = corner_tetrahedron();
    vx_transform hp = vx_test_pose(v3(0, 0, 0), vx_quat_identity());
    float s3 = 1.0f / sqrtf(3.0f);
    vx_vec3 away = v3(-s3, -s3, -s3);
    vx_transform cp = vx_test_pose(vx_vec3_scale(away, 0.15f + 0.5f), y_to(away, 0.3f));
    vx_manifold m;
    cr_assert(vx_collide_hull_capsule(h, &hp, &cp, 0.1f, 0.5f, 0.1f, &m));
    cr_assert_eq(m.count, 1);
    VX_ASSERT_VEC3_NEAR(m.normal, away.x, away.y, away.z, 1e-5f);
    VX_ASSERT_NEAR(m.points[0].depth, -0.05f, 1e-5f);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_a, 0.0f, 0.0f, 0.0f, 1e-5f);
    cr_assert_eq((m.points[0].feature >> 10) & 3u, 3u, "a vertex, id %x", m.points[0].feature);
    cr_assert_eq((m.points[0].feature >> 12) & 7u, 0u, "the -Y end, id %x", m.points[0].feature);

    int face = face_with_normal(h, v3(0, 0, -1));
    cp = vx_test_pose(v3(0.2f, 0.3f, 0.02f - 0.1f - 0.4f), y_to(v3(0, 0, -1), 0.0f));
    cr_assert(vx_collide_hull_capsule(h, &hp, &cp, 0.1f, 0.4f, 0.0f, &m));
    cr_assert_eq(m.count, 1);
    VX_ASSERT_VEC3_NEAR(m.normal, 0.0f, 0.0f, -1.0f, 1e-5f);
    VX_ASSERT_NEAR(m.points[0].depth, 0.02f, 1e-5f);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_a, 0.2f, 0.3f, 0.0f, 1e-5f);
    VX_ASSERT_VEC3_NEAR(m.points[0].point_b, 0.2f, 0.3f, 0.02f, 1e-5f);
    cr_assert_eq(m.points[0].feature & 0x7fffu, (0u << 12) | (1u << 10) | (uint32_t)face, "id %x", m.points[0].feature);
    vx_hull_destroy(h);
}

/* ================= robustness ================= */

/* The segment inside the hull, through its centre, along an axis of a cube
 * (ties everywhere), of zero length at the centre, on the surface; huge
 * and tiny sizes: finite contacts and the same bits on a second call. */
Test(collide_hull_capsule, degenerate_poses_are_finite_and_repeatable)
{
    vx_hull *cube = vx_test_box_hull(v3(1, 1, 1));
    vx_hull *tet = corner_tetrahedron();
    struct {
        const vx_hull *h;
        vx_vec3 at;
        vx_vec3 dir;
        float radius, hh;
    } cases[] = {
        {cube, {0, 0, 0}, {0, 1, 0}, 0.1f, 0.5f},
        {cube, {0, 0, 0}, {1, 0, 0}, 0.1f, 3.0f},
        {cube, {0, 0, 0}, {0, 1, 0}, 0.1f, 0.0f},
        {cube, {1, 0, 0}, {0, 1, 0}, 0.0f, 0.5f},
        {cube, {1, 1, 1}, {0, 0, 1}, 0.1f, 0.0f},
        {cube, {0, 1.1f, 0}, {1, 0, 0}, 0.1f, 1.0f},
        {tet, {0.25f, 0.25f, 0.25f}, {0, 1, 0}, 0.1f, 0.01f},
        {tet, {0, 0, 0}, {1, 0, 0}, 0.05f, 0.5f},
        {tet, {0.5f, 0, 0}, {1, 0, 0}, 0.05f, 2.0f},
        {cube, {0, 0, 0}, {1, 1, 0}, 1e-6f, 1e-6f},
        {cube, {1e4f, 0, 0}, {0, 1, 0}, 1.0f, 1.0f},
        {cube, {0, 0, 0}, {0, 1, 0}, 1e4f, 1e4f},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        vx_transform hp = vx_test_pose(v3(0, 0, 0), vx_quat_identity());
        vx_transform cp = vx_test_pose(cases[k].at, y_to(vx_vec3_normalize(cases[k].dir), 0.0f));
        vx_manifold m1, m2;
        memset(&m2, 0xab, sizeof m2);
        bool h1 = vx_collide_hull_capsule(cases[k].h, &hp, &cp, cases[k].radius, cases[k].hh, 0.01f, &m1);
        bool h2 = vx_collide_hull_capsule(cases[k].h, &hp, &cp, cases[k].radius, cases[k].hh, 0.01f, &m2);
        cr_assert_eq(h1, h2);
        cr_assert_eq(memcmp(&m1, &m2, sizeof m1), 0, "case %zu: not the same bits", k);
        if (k == 10) {
            cr_assert_not(h1, "far away");
            continue;
        }
        cr_assert(h1, "case %zu: no hit", k);
        check_contract(&m1, 0.01f, 1e-3f * (1.0f + cases[k].radius + cases[k].hh), "degenerate");
    }
    /* a zero or non-finite rotation counts as the identity */
    vx_transform hp = vx_test_pose(v3(0, 0, 0), vx_quat_make(0, 0, 0, 0));
    vx_transform cp = vx_test_pose(v3(0, 1.05f, 0), vx_quat_make(NAN, 0, 0, 1));
    vx_manifold m;
    cr_assert(vx_collide_hull_capsule(cube, &hp, &cp, 0.1f, 0.5f, 0.0f, &m));
    VX_ASSERT_VEC3_NEAR(m.normal, 0.0f, 1.0f, 0.0f, 1e-6f);
    VX_ASSERT_NEAR(m.points[0].depth, 0.55f, 1e-5f);
    vx_hull_destroy(cube);
    vx_hull_destroy(tet);
}
