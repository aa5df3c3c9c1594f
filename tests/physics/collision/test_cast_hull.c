/* Ray and sphere casts against convex hulls (src/physics/collision/cast_hull.c):
 * a hull of a box's 8 corners against the box casts of cast.c, thousands of
 * random casts, turned poses included; tetrahedra, icosahedra and random
 * 32-point hulls against the first root of the hull's signed distance along
 * the ray, computed by the test on its own in double (planes inside;
 * outside, the nearest of the face polygons, edges and vertices); hand cases
 * for faces, edges and vertices, ties, grazing rays and spheres, starts
 * inside and touching, max_distance. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "physics/body/hull.h"
#include "physics/collision/cast.h"
#include "test_helpers.h"
#include "test_ref_cast.h"

#define PI 3.14159265358979323846
#define PHI 1.6180339887498949

static vx_vec3 v3(float x, float y, float z) { return vx_vec3_make(x, y, z); }
static vx_vec3 unit(float x, float y, float z) { return vx_vec3_normalize(v3(x, y, z)); }

static vx_transform tf(vx_vec3 p, vx_quat q)
{
    vx_transform t;
    memset(&t, 0, sizeof t);
    t.position = p;
    t.rotation = q;
    return t;
}

static vx_transform at(float x, float y, float z) { return tf(v3(x, y, z), vx_quat_identity()); }

static vx_hull *build(const vx_vec3 *pts, size_t n)
{
    vx_hull *h = NULL;
    vx_error err;
    vx_status st = vx_hull_build(pts, n, &h, &err);
    cr_assert_eq(st, VX_OK, "build failed: %s", err.message);
    return h;
}

static vx_hull *box_hull(vx_vec3 half)
{
    vx_vec3 pts[8];
    for (int i = 0; i < 8; i++)
        pts[i] = v3((i & 1) ? half.x : -half.x, (i & 2) ? half.y : -half.y, (i & 4) ? half.z : -half.z);
    return build(pts, 8);
}

/* The face of h whose normal is n (exactly). */
static int face_with_normal(const vx_hull *h, float x, float y, float z)
{
    for (int f = 0; f < h->face_count; f++)
        if (h->faces[f].normal.x == x && h->faces[f].normal.y == y && h->faces[f].normal.z == z) return f;
    cr_assert_fail("no face with normal (%g %g %g)", (double)x, (double)y, (double)z);
    return -1;
}

static bool ray(const vx_hull *h, vx_transform pose, vx_vec3 o, vx_vec3 d, float max, vx_cast_hit *hit)
{
    memset(hit, 0, sizeof *hit);
    return vx_ray_cast_hull(h, &pose, o, d, max, hit);
}

static bool sweep(const vx_hull *h, vx_transform pose, vx_vec3 o, float r, vx_vec3 d, float max, vx_cast_hit *hit)
{
    memset(hit, 0, sizeof *hit);
    return vx_sphere_cast_hull(h, &pose, o, r, d, max, hit);
}

/* The spacing of floats at |v| (the smallest subnormal at 0). */
static double ulpf(double v)
{
    float a = fabsf((float)v);
    return (double)nextafterf(a, INFINITY) - (double)a;
}

static void assert_ulps(float got, double expected, double ulps, const char *what)
{
    cr_assert(fabs((double)got - expected) <= ulps * ulpf(expected), "%s = %.9g, expected %.17g (+- %g ulp)", what,
              (double)got, expected, ulps);
}

/* A hit at the exact distance t, point p and normal n, each within 1 ulp. */
static void assert_exact_hit(bool got, const vx_cast_hit *h, double t, double px, double py, double pz, double nx,
                             double ny, double nz)
{
    cr_assert(got, "expected a hit");
    assert_ulps(h->distance, t, 1, "distance");
    assert_ulps(h->point.x, px, 1, "point.x");
    assert_ulps(h->point.y, py, 1, "point.y");
    assert_ulps(h->point.z, pz, 1, "point.z");
    assert_ulps(h->normal.x, nx, 1, "normal.x");
    assert_ulps(h->normal.y, ny, 1, "normal.y");
    assert_ulps(h->normal.z, nz, 1, "normal.z");
}

/* The start-inside answer, bit for bit: distance 0, point = origin, normal = -direction. */
static void assert_inside_hit(bool got, const vx_cast_hit *h, vx_vec3 origin, vx_vec3 dir)
{
    cr_assert(got, "a cast that starts inside or touching hits");
    cr_assert(h->distance == 0.0f, "distance %g", (double)h->distance);
    cr_assert(h->point.x == origin.x && h->point.y == origin.y && h->point.z == origin.z);
    vx_vec3 n = vx_vec3_neg(dir);
    cr_assert(memcmp(&h->normal, &n, sizeof n) == 0, "normal (%g %g %g)", (double)h->normal.x, (double)h->normal.y,
              (double)h->normal.z);
}

/* ---------------- double-precision references ---------------- */

typedef struct {
    double x, y, z;
} dv;

static dv dv3(double x, double y, double z)
{
    dv r = {x, y, z};
    return r;
}
static dv dvf(vx_vec3 v) { return dv3(v.x, v.y, v.z); }
static dv dadd(dv a, dv b) { return dv3(a.x + b.x, a.y + b.y, a.z + b.z); }
static dv dsub(dv a, dv b) { return dv3(a.x - b.x, a.y - b.y, a.z - b.z); }
static dv dscale(dv a, double s) { return dv3(a.x * s, a.y * s, a.z * s); }
static double ddot(dv a, dv b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static double dlen(dv a) { return sqrt(ddot(a, a)); }
static dv dcross(dv a, dv b) { return dv3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
static double dget(dv a, int i) { return i == 0 ? a.x : (i == 1 ? a.y : a.z); }

/* A pose in double, applied as v + w t + u x t with t = 2 u x v rather than
 * as a matrix, so the test does not share the code's steps. */
typedef struct {
    dv pos, u;
    double w;
} dpose;

static dpose dpose_of(const vx_transform *t)
{
    dpose p;
    p.pos = dvf(t->position);
    double x = t->rotation.x, y = t->rotation.y, z = t->rotation.z, w = t->rotation.w;
    double n = sqrt(x * x + y * y + z * z + w * w);
    p.u = dv3(x / n, y / n, z / n);
    p.w = w / n;
    return p;
}

static dv quat_apply(dv u, double w, dv v)
{
    dv t = dscale(dcross(u, v), 2.0);
    return dadd(dadd(v, dscale(t, w)), dcross(u, t));
}
static dv rotate(const dpose *p, dv v) { return quat_apply(p->u, p->w, v); }
static dv to_local(const dpose *p, dv world) { return quat_apply(dscale(p->u, -1.0), p->w, dsub(world, p->pos)); }
static dv to_world(const dpose *p, dv local) { return dadd(p->pos, rotate(p, local)); }

static dv vertex(const vx_hull *h, int v) { return dvf(h->vertices[v]); }

/* How far p is above face f's plane, in length units. */
static double plane_distance(const vx_hull *h, int f, dv p)
{
    dv n = dvf(h->faces[f].normal);
    return (ddot(n, p) - h->faces[f].offset) / dlen(n);
}

static double planes_max(const vx_hull *h, dv p)
{
    double top = -INFINITY;
    for (int f = 0; f < h->face_count; f++) top = fmax(top, plane_distance(h, f, p));
    return top;
}

/* The largest distance of a vertex from the plane of a face it bounds: how
 * far the hull's data (float vertices, float planes) is from one exact
 * polyhedron. */
static double hull_deviation(const vx_hull *h)
{
    double dev = 0.0;
    for (int f = 0; f < h->face_count; f++) {
        int e = h->faces[f].first_edge;
        for (int k = 0; k < h->faces[f].edge_count; k++) {
            dev = fmax(dev, fabs(plane_distance(h, f, vertex(h, h->edges[e].origin))));
            e = h->edges[e].next;
        }
    }
    return dev;
}

#define MAX_FEATURES 512

/* The nearest point to p of every face polygon whose plane p's foot falls
 * within, of every edge and of every vertex, with their distances. */
static int feature_points(const vx_hull *h, dv p, dv *pts, double *dists)
{
    cr_assert_leq(h->face_count + h->edge_count / 2 + h->vertex_count, MAX_FEATURES);
    int count = 0;
    for (int f = 0; f < h->face_count; f++) {
        dv n = dvf(h->faces[f].normal);
        n = dscale(n, 1.0 / dlen(n));
        double dist = plane_distance(h, f, p);
        dv foot = dsub(p, dscale(n, dist));
        bool inside = true;
        int e = h->faces[f].first_edge;
        for (int k = 0; k < h->faces[f].edge_count; k++) {
            dv a = vertex(h, h->edges[e].origin), b = vertex(h, h->edges[h->edges[e].next].origin);
            if (ddot(dcross(dsub(b, a), dsub(foot, a)), n) < 0.0) inside = false;
            e = h->edges[e].next;
        }
        if (!inside) continue;
        pts[count] = foot;
        dists[count++] = fabs(dist);
    }
    for (int e = 0; e < h->edge_count; e += 2) {
        dv a = vertex(h, h->edges[e].origin), b = vertex(h, h->edges[e + 1].origin);
        dv u = dsub(b, a);
        double s = ddot(dsub(p, a), u) / ddot(u, u);
        s = s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s);
        pts[count] = dadd(a, dscale(u, s));
        dists[count] = dlen(dsub(p, pts[count]));
        count++;
    }
    for (int v = 0; v < h->vertex_count; v++) {
        pts[count] = vertex(h, v);
        dists[count] = dlen(dsub(p, pts[count]));
        count++;
    }
    return count;
}

/* The signed distance from a local point to the hull: inside (below every
 * plane) the largest plane distance; outside the distance to the nearest
 * face polygon, edge or vertex. */
static double hull_sdf(const vx_hull *h, dv p)
{
    double top = planes_max(h, p);
    if (top <= 0.0) return top;
    dv pts[MAX_FEATURES];
    double dists[MAX_FEATURES];
    int n = feature_points(h, p, pts, dists);
    double best = INFINITY;
    for (int i = 0; i < n; i++) best = fmin(best, dists[i]);
    return best;
}

/* The points of the surface nearest to p, outside: the nearest first, then
 * those within `slack` of it. The data holds the vertices on the planes only
 * to float precision, or to the builder's tolerance where it merged nearly
 * coplanar triangles (hull_deviation), so near a face's border its foot and
 * a point of an edge can be as near within that: either is a right answer. */
static int nearest_points(const vx_hull *h, dv p, double slack, dv *out)
{
    dv pts[MAX_FEATURES];
    double dists[MAX_FEATURES];
    int n = feature_points(h, p, pts, dists);
    int best = 0;
    for (int i = 1; i < n; i++)
        if (dists[i] < dists[best]) best = i;
    int count = 0;
    out[count++] = pts[best];
    for (int i = 0; i < n; i++)
        if (i != best && dists[i] <= dists[best] + slack) out[count++] = pts[i];
    return count;
}

static double sdf_world(const vx_hull *h, const dpose *pose, dv x) { return hull_sdf(h, to_local(pose, x)); }


/* Along a ray (r = 0) only the sign of the distance matters: the largest
 * plane distance has that sign and is convex along any line, while the
 * distance outside is only as convex as the data is consistent. Where the
 * float planes reach a few 1e-8 past the vertices' hull (the sharp corner of
 * a sliver tetrahedron) the search could step over the sliver on it. */
static double ref_f(const vx_hull *h, const dpose *p, dv o, dv d, double r, double t)
{
    dv x = dadd(o, dscale(d, t));
    if (r == 0.0) return planes_max(h, to_local(p, x));
    return sdf_world(h, p, x) - r;
}

/* The first t in [0, t_end] where the centre o + t d comes within r of the
 * hull (test_ref_cast.h). */
typedef struct {
    const vx_hull *h;
    const dpose *p;
    dv o, d;
    double r;
} ref_line;

static double ref_line_f(const void *context, double t)
{
    const ref_line *l = context;
    return ref_f(l->h, l->p, l->o, l->d, l->r, t);
}

static ref_cast ref_first_contact(const vx_hull *h, const dpose *p, dv o, dv d, double r, double t_end,
                                  double unsure)
{
    ref_line line = {h, p, o, d, r};
    return ref_cast_search(ref_line_f, &line, t_end, unsure);
}

/* ---------------- random configurations ---------------- */

static vx_quat random_rotation(vx_test_rng *rng)
{
    vx_vec3 axis = vx_vec3_normalize(vx_test_rng_vec3(rng, -1.0f, 1.0f));
    if (vx_vec3_length_sq(axis) == 0.0f) axis = v3(0, 1, 0);
    return vx_quat_from_axis_angle(axis, vx_test_rng_range(rng, -(float)PI, (float)PI));
}

/* A pose, an origin around it and a direction aimed at a point of the hull
 * (the middle of two vertices) or within 1.2 bounding radii of its centre
 * along each axis, half and half (a third to a half of the casts hit). One
 * cast in eight starts that close to the centre, one in eight near a point
 * halfway from the centroid to a vertex (most inside), one in eight runs
 * against a face's normal (and along the other faces of a box), one in
 * eight has the identity pose. */
typedef struct {
    vx_transform pose;
    vx_vec3 origin, dir;
} random_cast;

static random_cast random_cast_of(vx_test_rng *rng, const vx_hull *h)
{
    random_cast rc;
    vx_vec3 centre = vx_aabb_center(h->bounds);
    float radius = 0.0f;
    for (int v = 0; v < h->vertex_count; v++)
        radius = fmaxf(radius, vx_vec3_length(vx_vec3_sub(h->vertices[v], centre)));
    float reach = 1.2f * radius;
    uint32_t kind = vx_test_rng_next(rng) % 8u;
    rc.pose = tf(vx_test_rng_vec3(rng, -5.0f, 5.0f), kind == 0 ? vx_quat_identity() : random_rotation(rng));
    vx_quat q = vx_quat_normalize(rc.pose.rotation);
    vx_vec3 world_centre = vx_vec3_add(rc.pose.position, vx_quat_rotate(q, centre));
    float spread = kind == 2 ? reach : 8.0f;
    rc.origin = vx_vec3_add(world_centre, vx_test_rng_vec3(rng, -spread, spread));
    if (kind == 3) {
        vx_vec3 v = h->vertices[vx_test_rng_next(rng) % h->vertex_count];
        vx_vec3 inner = vx_vec3_add(vx_vec3_scale(vx_vec3_add(v, h->centroid), 0.5f),
                                    vx_test_rng_vec3(rng, -0.1f * radius, 0.1f * radius));
        rc.origin = vx_vec3_add(rc.pose.position, vx_quat_rotate(q, inner));
    }
    vx_vec3 target;
    if (vx_test_rng_next(rng) & 1u) {
        vx_vec3 a = h->vertices[vx_test_rng_next(rng) % h->vertex_count];
        vx_vec3 b = h->vertices[vx_test_rng_next(rng) % h->vertex_count];
        target = vx_vec3_add(rc.pose.position, vx_quat_rotate(q, vx_vec3_scale(vx_vec3_add(a, b), 0.5f)));
    } else {
        target = vx_vec3_add(world_centre, vx_test_rng_vec3(rng, -reach, reach));
    }
    rc.dir = vx_vec3_normalize(vx_vec3_sub(target, rc.origin));
    if (kind == 1 || vx_vec3_length_sq(rc.dir) == 0.0f) {
        vx_vec3 n = h->faces[vx_test_rng_next(rng) % h->face_count].normal;
        rc.dir = vx_quat_rotate(q, vx_vec3_neg(n));
    }
    return rc;
}

static void tally_max(double *m, double v)
{
    if (v > *m) *m = v;
}

/* ---------------- a box's corners against the box ---------------- */

/* The largest differences seen, in float spacings of the box's answer (for
 * points of max(|coordinate|, 1), for normals of 1; and for normals in
 * absolute terms), and how many hits were bit for bit the same. */
typedef struct {
    double distance, point, normal, normal_abs;
    int hits, misses, inside, same;
} box_tally;

/* Within 1 ulp; a ray bit for bit: its planes are the box's slabs, and the
 * clipping does the same operations (but for ties, where the two take the
 * lowest face and the lowest axis: no random ray meets an exact one). */
static void compare_with_box(bool got_hull, const vx_cast_hit *hh, bool got_box, const vx_cast_hit *hb, bool ray_cast,
                             box_tally *tally)
{
    cr_assert_eq(got_hull, got_box, "hull %d, box %d (box distance %.9g)", got_hull, got_box, (double)hb->distance);
    if (!got_box) {
        tally->misses++;
        return;
    }
    if (hb->distance == 0.0f) {
        tally->inside++;
    } else {
        tally->hits++;
        if (memcmp(hh, hb, sizeof *hh) == 0) tally->same++;
        else cr_assert(!ray_cast, "a ray: not the box's bits");
    }
    double e = fabs((double)hh->distance - (double)hb->distance) / ulpf(hb->distance);
    tally_max(&tally->distance, e);
    cr_assert(e <= 1.0, "distance %.9g, box %.9g", (double)hh->distance, (double)hb->distance);
    for (int i = 0; i < 3; i++) {
        double bp = vx_vec3_get(hb->point, i), bn = vx_vec3_get(hb->normal, i);
        e = fabs(vx_vec3_get(hh->point, i) - bp) / ulpf(fmax(fabs(bp), 1.0));
        tally_max(&tally->point, e);
        cr_assert(e <= 1.0, "point[%d] %.9g, box %.9g", i, (double)vx_vec3_get(hh->point, i), bp);
        e = fabs(vx_vec3_get(hh->normal, i) - bn);
        tally_max(&tally->normal_abs, e);
        e /= ulpf(1.0);
        tally_max(&tally->normal, e);
        cr_assert(e <= 1.0, "normal[%d] %.9g, box %.9g", i, (double)vx_vec3_get(hh->normal, i), bn);
    }
}

static void box_hull_against_box(uint32_t seed, bool spheres, int count)
{
    vx_test_rng rng = {seed};
    box_tally tally;
    memset(&tally, 0, sizeof tally);
    for (int i = 0; i < count; i++) {
        vx_collider box = vx_collider_box(vx_test_rng_vec3(&rng, 0.1f, 3.0f));
        vx_hull *h = box_hull(box.half_extents);
        /* the premise of the comparison: the planes are exactly the box's */
        for (int f = 0; f < h->face_count; f++) {
            vx_vec3 n = h->faces[f].normal;
            cr_assert_eq(fabsf(n.x) + fabsf(n.y) + fabsf(n.z), 1.0f);
            cr_assert_eq(h->faces[f].offset, vx_vec3_dot(vx_vec3_abs(n), box.half_extents));
        }
        for (int k = 0; k < 8; k++) {
            random_cast rc = random_cast_of(&rng, h);
            float r = spheres ? vx_test_rng_range(&rng, 0.05f, 2.0f) : 0.0f;
            vx_cast_hit hh, hb;
            memset(&hh, 0, sizeof hh);
            memset(&hb, 0, sizeof hb);
            bool got_hull = spheres ? vx_sphere_cast_hull(h, &rc.pose, rc.origin, r, rc.dir, 1000.0f, &hh)
                                    : vx_ray_cast_hull(h, &rc.pose, rc.origin, rc.dir, 1000.0f, &hh);
            bool got_box = spheres ? vx_sphere_cast_shape(&box, &rc.pose, rc.origin, r, rc.dir, 1000.0f, &hb)
                                   : vx_ray_cast_shape(&box, &rc.pose, rc.origin, rc.dir, 1000.0f, &hb);
            compare_with_box(got_hull, &hh, got_box, &hb, !spheres, &tally);
        }
        vx_hull_destroy(h);
    }
    cr_log_info("box hull vs box, %s: %d hits, %d misses, %d inside, %d of the hits bit for bit; max difference: "
                "distance %.2f ulp, point %.2f ulp, normal %.2f ulp (%.3g)",
                spheres ? "sphere casts" : "rays", tally.hits, tally.misses, tally.inside, tally.same,
                tally.distance, tally.point, tally.normal, tally.normal_abs);
    cr_assert_gt(tally.hits, 2 * count);
    cr_assert_gt(tally.misses, count / 2);
    cr_assert_gt(tally.inside, count / 20);
}

Test(cast_hull, box_corners_rays_as_the_box) { box_hull_against_box(0xb0c5u, false, 1000); }
Test(cast_hull, box_corners_sphere_casts_as_the_box) { box_hull_against_box(0xb0c6u, true, 1000); }

/* ---------------- hulls against the signed distance ---------------- */

static size_t icosahedron(vx_vec3 out[12], float scale)
{
    size_t n = 0;
    for (int s1 = -1; s1 <= 1; s1 += 2)
        for (int s2 = -1; s2 <= 1; s2 += 2) {
            float a = (float)s1 * scale, b = (float)(s2 * PHI) * scale;
            out[n++] = v3(0, a, b);
            out[n++] = v3(a, b, 0);
            out[n++] = v3(b, 0, a);
        }
    return n;
}

/* Hull number i of a run: tetrahedra (regular, then random), icosahedra
 * (scaled, stretched along an axis), and clouds of 32 points in a box of
 * random sides or on an ellipsoid, off centre. */
typedef enum { HULL_TETRAHEDRON, HULL_ICOSAHEDRON, HULL_CLOUD } hull_kind;
static const char *const hull_kind_names[] = {"tetrahedra", "icosahedra", "32-point hulls"};

static vx_hull *random_hull(vx_test_rng *rng, hull_kind kind, int i)
{
    vx_vec3 pts[32];
    size_t n = 0;
    switch (kind) {
    case HULL_TETRAHEDRON:
        if (i == 0) {
            pts[0] = v3(1, 1, 1);
            pts[1] = v3(1, -1, -1);
            pts[2] = v3(-1, 1, -1);
            pts[3] = v3(-1, -1, 1);
        } else {
            for (int k = 0; k < 4; k++) pts[k] = vx_test_rng_vec3(rng, -2.0f, 2.0f);
        }
        n = 4;
        break;
    case HULL_ICOSAHEDRON: {
        n = icosahedron(pts, vx_test_rng_range(rng, 0.3f, 2.0f));
        vx_vec3 stretch = i % 2 ? vx_test_rng_vec3(rng, 0.3f, 2.0f) : v3(1, 1, 1);
        for (size_t k = 0; k < n; k++) pts[k] = vx_vec3_mul(pts[k], stretch);
        break;
    }
    case HULL_CLOUD: {
        vx_vec3 side = vx_test_rng_vec3(rng, 0.2f, 3.0f), shift = vx_test_rng_vec3(rng, -0.5f, 0.5f);
        for (n = 0; n < 32; n++) {
            vx_vec3 p = vx_test_rng_vec3(rng, -1.0f, 1.0f);
            if (i % 2) p = vx_vec3_normalize(p);
            pts[n] = vx_vec3_add(vx_vec3_mul(p, side), shift);
        }
        break;
    }
    }
    return build(pts, n);
}

/* What a random run met: the answers, and the largest errors in float
 * spacings (of the exact distance; for points of max(|coordinate|, 1); for
 * normals of 1) and, for sphere casts, the centre's distance from touching
 * relative to max(radius, distance). */
typedef struct {
    double distance, point, normal, touch;
    int hits, misses, inside, unsure, ambiguous;
} error_tally;

/* One random ray against the reference: hit or miss, the distance, the
 * point o + t d, and a normal of a face whose plane holds the point and that
 * the ray enters (more than one on an edge or at a vertex). */
static void check_random_ray(const vx_hull *hull, const random_cast *rc, error_tally *tally)
{
    const float max = 1000.0f;
    dpose pose = dpose_of(&rc->pose);
    dv o = dvf(rc->origin), d = dvf(rc->dir);
    ref_cast ref = ref_first_contact(hull, &pose, o, d, 0.0, max, 1e-9);
    vx_cast_hit h;
    bool got = ray(hull, rc->pose, rc->origin, rc->dir, max, &h);
    switch (ref.kind) {
    case REF_UNSURE: tally->unsure++; return;
    case REF_MISS:
        cr_assert(!got, "a ray that misses hit at %g", (double)h.distance);
        tally->misses++;
        return;
    case REF_INSIDE:
        assert_inside_hit(got, &h, rc->origin, rc->dir);
        tally->inside++;
        return;
    }
    cr_assert(got, "a ray that hits at %g missed", ref.t);
    tally->hits++;
    double t_err = fabs((double)h.distance - ref.t) / ulpf(ref.t);
    cr_assert(t_err <= 1.0, "distance %.9g, expected %.17g (%g ulp)", (double)h.distance, ref.t, t_err);
    tally_max(&tally->distance, t_err);
    dv p = dadd(o, dscale(d, ref.t));
    for (int i = 0; i < 3; i++) {
        double e = fabs((double)vx_vec3_get(h.point, i) - dget(p, i)) / ulpf(fmax(fabs(dget(p, i)), 1.0));
        cr_assert(e <= 1.0, "point[%d] %.9g, expected %.17g", i, (double)vx_vec3_get(h.point, i), dget(p, i));
        tally_max(&tally->point, e);
    }
    dv lp = to_local(&pose, p), ld = to_local(&pose, dadd(pose.pos, d));
    double top = -INFINITY;
    for (int f = 0; f < hull->face_count; f++) top = fmax(top, plane_distance(hull, f, lp));
    double err = INFINITY;
    for (int f = 0; f < hull->face_count; f++) {
        dv n = dvf(hull->faces[f].normal);
        if (plane_distance(hull, f, lp) < top - 1e-9 || ddot(n, ld) > 0.0) continue;
        dv nw = rotate(&pose, dscale(n, 1.0 / dlen(n)));
        err = fmin(err, fmax(fabs(h.normal.x - nw.x), fmax(fabs(h.normal.y - nw.y), fabs(h.normal.z - nw.z))));
    }
    cr_assert(err <= 2.0 * ulpf(1.0), "normal (%.9g %.9g %.9g) is off by %g", (double)h.normal.x,
              (double)h.normal.y, (double)h.normal.z, err);
    tally_max(&tally->normal, err / ulpf(1.0));
}

/* One random sphere cast against the reference: hit or miss and the
 * distance as for rays; at the returned distance the sphere touches the
 * hull and at 99.9 % of it it is clear; the point is the hull's point
 * closest to the centre (within slack: nearest_points) and the normal points
 * from it to the centre. */
static void check_random_sweep(const vx_hull *hull, const random_cast *rc, float r, double slack, error_tally *tally)
{
    const float max = 1000.0f;
    dpose pose = dpose_of(&rc->pose);
    dv o = dvf(rc->origin), d = dvf(rc->dir);
    ref_cast ref = ref_first_contact(hull, &pose, o, d, r, max, 1e-9);
    vx_cast_hit h;
    bool got = sweep(hull, rc->pose, rc->origin, r, rc->dir, max, &h);
    switch (ref.kind) {
    case REF_UNSURE: tally->unsure++; return;
    case REF_MISS:
        cr_assert(!got, "a sphere cast that misses hit at %g", (double)h.distance);
        tally->misses++;
        return;
    case REF_INSIDE:
        assert_inside_hit(got, &h, rc->origin, rc->dir);
        tally->inside++;
        return;
    }
    cr_assert(got, "a sphere cast that hits at %g missed", ref.t);
    tally->hits++;
    double t_err = fabs((double)h.distance - ref.t) / ulpf(ref.t);
    cr_assert(t_err <= 1.0, "distance %.9g, expected %.17g (%g ulp)", (double)h.distance, ref.t, t_err);
    tally_max(&tally->distance, t_err);

    double touch = sdf_world(hull, &pose, dadd(o, dscale(d, (double)h.distance)));
    double scale = fmax((double)r, (double)h.distance);
    cr_assert(fabs(touch - r) <= 1e-6 * scale, "at the distance the centre is %.9g from the hull, radius %g", touch,
              (double)r);
    tally_max(&tally->touch, fabs(touch - r) / scale);
    double clear = sdf_world(hull, &pose, dadd(o, dscale(d, 0.999 * (double)h.distance)));
    cr_assert(clear > r, "at 99.9 %% of the distance the sphere overlaps (%.9g < %g)", clear, (double)r);

    /* The point and normal of the nearest point, within 1 and 2 ulp; or, where
     * the data leaves a choice (nearest_points), of one as near within the
     * slack. There the hit may be on a face while the nearest point is on an
     * edge poking out of its plane by up to the slack: the face's point at
     * the returned distance has moved along the face by up to a few slacks
     * (the slack over the cosine of the angle of incidence), the edge's
     * normal turned by that over r. */
    dv centre = dadd(o, dscale(d, ref.t)), near[MAX_FEATURES];
    int count = nearest_points(hull, to_local(&pose, centre), slack, near);
    bool matched = false;
    for (int k = 0; k < count && !matched; k++) {
        dv on_hull = to_world(&pose, near[k]);
        dv n = dsub(centre, on_hull);
        n = dscale(n, 1.0 / dlen(n));
        double shift = k == 0 ? 0.0 : 4.0 * slack;
        double ep = 0.0, en = 0.0;
        bool ok = true;
        for (int i = 0; i < 3; i++) {
            double unit_p = ulpf(fmax(fabs(dget(on_hull, i)), 1.0));
            double dp = fabs((double)vx_vec3_get(h.point, i) - dget(on_hull, i));
            double dn = fabs((double)vx_vec3_get(h.normal, i) - dget(n, i));
            ok = ok && dp <= unit_p + shift && dn <= 2.0 * ulpf(1.0) + shift / r;
            ep = fmax(ep, dp / unit_p);
            en = fmax(en, dn / ulpf(1.0));
        }
        if (!ok) continue;
        matched = true;
        if (k == 0) {
            tally_max(&tally->point, ep);
            tally_max(&tally->normal, en);
        } else {
            tally->ambiguous++;
        }
    }
    cr_assert(matched, "point (%.9g %.9g %.9g), normal (%.9g %.9g %.9g): no nearest point of the hull's",
              (double)h.point.x, (double)h.point.y, (double)h.point.z, (double)h.normal.x, (double)h.normal.y,
              (double)h.normal.z);
}

static void random_casts(hull_kind kind, uint32_t seed, int hulls, int per_hull, bool spheres)
{
    vx_test_rng rng = {seed};
    error_tally tally;
    memset(&tally, 0, sizeof tally);
    double deviation = 0.0;
    for (int i = 0; i < hulls; i++) {
        vx_hull *h = random_hull(&rng, kind, i);
        double dev = hull_deviation(h);
        tally_max(&deviation, dev);
        for (int k = 0; k < per_hull; k++) {
            random_cast rc = random_cast_of(&rng, h);
            if (spheres) check_random_sweep(h, &rc, vx_test_rng_range(&rng, 0.05f, 2.0f), 2.0 * dev, &tally);
            else check_random_ray(h, &rc, &tally);
        }
        vx_hull_destroy(h);
    }
    int count = hulls * per_hull;
    if (spheres)
        cr_log_info("sphere casts at %s: %d hits, %d misses, %d inside, %d unsure, %d at a point other "
                    "than the nearest within the slack (vertices off their planes by %.3g at most); max error: "
                    "distance %.2f ulp, point %.2f ulp, normal %.2f ulp (at the nearest point), touch %.3g relative",
                    hull_kind_names[kind], tally.hits, tally.misses, tally.inside, tally.unsure, tally.ambiguous,
                    deviation, tally.distance, tally.point, tally.normal, tally.touch);
    else
        cr_log_info("rays at %s: %d hits, %d misses, %d inside, %d unsure; max error: distance %.2f ulp, "
                    "point %.2f ulp, normal %.2f ulp",
                    hull_kind_names[kind], tally.hits, tally.misses, tally.inside, tally.unsure, tally.distance,
                    tally.point, tally.normal);
    cr_assert_gt(tally.hits, count / 4);
    cr_assert_gt(tally.misses, count / 20);
    cr_assert_gt(tally.inside, count / 100);
    cr_assert_lt(tally.unsure, count / 100);
}

Test(cast_hull, rays_at_tetrahedra) { random_casts(HULL_TETRAHEDRON, 0x7e7au, 40, 100, false); }
Test(cast_hull, rays_at_icosahedra) { random_casts(HULL_ICOSAHEDRON, 0x1c05u, 40, 100, false); }
Test(cast_hull, rays_at_32_point_hulls) { random_casts(HULL_CLOUD, 0x3232u, 40, 100, false); }
Test(cast_hull, sphere_casts_at_tetrahedra) { random_casts(HULL_TETRAHEDRON, 0x7e7bu, 40, 100, true); }
Test(cast_hull, sphere_casts_at_icosahedra) { random_casts(HULL_ICOSAHEDRON, 0x1c06u, 40, 100, true); }
Test(cast_hull, sphere_casts_at_32_point_hulls) { random_casts(HULL_CLOUD, 0x3233u, 40, 100, true); }

/* ---------------- hand cases ---------------- */

Test(cast_hull, ray_box_hull_faces)
{
    vx_hull *h = box_hull(v3(1, 2, 3));
    vx_transform pose = at(10, 20, 30);
    vx_cast_hit c;
    assert_exact_hit(ray(h, pose, v3(5, 20.5f, 30.5f), v3(1, 0, 0), 100.0f, &c), &c, 4, 9, 20.5, 30.5, -1, 0, 0);
    assert_exact_hit(ray(h, pose, v3(15, 20.5f, 30.5f), v3(-1, 0, 0), 100.0f, &c), &c, 4, 11, 20.5, 30.5, 1, 0, 0);
    assert_exact_hit(ray(h, pose, v3(10.5f, 13, 30.5f), v3(0, 1, 0), 100.0f, &c), &c, 5, 10.5, 18, 30.5, 0, -1, 0);
    assert_exact_hit(ray(h, pose, v3(10.5f, 20.5f, 40), v3(0, 0, -1), 100.0f, &c), &c, 7, 10.5, 20.5, 33, 0, 0, 1);
    /* slanted: enters the -x face at t = 4 / 0.6 */
    vx_vec3 d = v3(0.6f, 0.8f, 0);
    double t = 4.0 / (double)d.x;
    assert_exact_hit(ray(h, pose, v3(5, 15, 30), d, 100.0f, &c), &c, t, 9, 15 + t * (double)d.y, 30, -1, 0, 0);
    /* away, beside, behind */
    cr_assert(!ray(h, pose, v3(5, 20, 30), v3(-1, 0, 0), 100.0f, &c));
    cr_assert(!ray(h, pose, v3(5, 22.5f, 30), v3(1, 0, 0), 100.0f, &c));
    cr_assert(!ray(h, pose, v3(5, 20, 30), v3(0, 1, 0), 100.0f, &c));
    vx_hull_destroy(h);
}

/* Through an edge or a vertex the planes of two or three faces are entered
 * at the same t: the normal is that of the lowest face index among them. */
Test(cast_hull, ray_through_an_edge_or_a_vertex_takes_the_lowest_face)
{
    vx_hull *h = box_hull(v3(1, 1, 1));
    int fx = face_with_normal(h, -1, 0, 0), fy = face_with_normal(h, 0, -1, 0), fz = face_with_normal(h, 0, 0, -1);
    vx_cast_hit c;
    /* the edge x = y = -1 at z = 0.5 */
    vx_vec3 d = unit(1, 1, 0);
    cr_assert_eq(d.x, d.y);
    double t = 2.0 / (double)d.x;
    vx_vec3 n = h->faces[fx < fy ? fx : fy].normal;
    assert_exact_hit(ray(h, at(0, 0, 0), v3(-3, -3, 0.5f), d, 100.0f, &c), &c, t, -1, -1, 0.5, n.x, n.y, n.z);
    /* the vertex (-1, -1, -1) */
    d = unit(1, 1, 1);
    cr_assert(d.x == d.y && d.y == d.z);
    t = 2.0 / (double)d.x;
    int low = fx < fy ? fx : fy;
    low = low < fz ? low : fz;
    n = h->faces[low].normal;
    assert_exact_hit(ray(h, at(0, 0, 0), v3(-3, -3, -3), d, 100.0f, &c), &c, t, -1, -1, -1, n.x, n.y, n.z);
    /* the opposite edge, from the other side */
    int gx = face_with_normal(h, 1, 0, 0), gy = face_with_normal(h, 0, 1, 0);
    n = h->faces[gx < gy ? gx : gy].normal;
    d = unit(-1, -1, 0);
    t = 2.0 / -(double)d.x;
    assert_exact_hit(ray(h, at(0, 0, 0), v3(3, 3, 0.5f), d, 100.0f, &c), &c, t, 1, 1, 0.5, n.x, n.y, n.z);
    vx_hull_destroy(h);
}

/* A ray in the plane of a face, or along an edge, touches the hull (it is
 * closed) and hits where it enters the other planes; a float outside
 * misses. A ray meeting the hull at one point of an edge or at a vertex
 * only hits there. */
Test(cast_hull, ray_grazing_a_face_an_edge_a_vertex)
{
    vx_hull *h = box_hull(v3(1, 1, 1));
    float out = nextafterf(1.0f, 2.0f);
    vx_cast_hit c;
    assert_exact_hit(ray(h, at(0, 0, 0), v3(-5, 1, 0.3f), v3(1, 0, 0), 100.0f, &c), &c, 4, -1, 1, 0.3f, -1, 0, 0);
    cr_assert(!ray(h, at(0, 0, 0), v3(-5, out, 0.3f), v3(1, 0, 0), 100.0f, &c));
    assert_exact_hit(ray(h, at(0, 0, 0), v3(-5, 1, 1), v3(1, 0, 0), 100.0f, &c), &c, 4, -1, 1, 1, -1, 0, 0);
    cr_assert(!ray(h, at(0, 0, 0), v3(-5, 1, out), v3(1, 0, 0), 100.0f, &c));
    cr_assert(!ray(h, at(0, 0, 0), v3(-5, out, 1), v3(1, 0, 0), 100.0f, &c));

    /* across the edge x = y = 1 at z = 0.5 only: enters the plane y = 1 as it
     * leaves x = 1 */
    vx_vec3 d = unit(1, -1, 0);
    double t = 1.0 / (double)d.x;
    assert_exact_hit(ray(h, at(0, 0, 0), v3(0, 2, 0.5f), d, 100.0f, &c), &c, t, 1, 1, 0.5, 0, 1, 0);
    cr_assert(!ray(h, at(0, 0, 0), v3(0, nextafterf(2.0f, 3.0f), 0.5f), d, 100.0f, &c));
    /* through the vertex (1, 1, 1) only: enters y = 1 and z = 1 as it leaves x = 1 */
    d = unit(1, -1, -1);
    t = 1.0 / (double)d.x;
    int fy = face_with_normal(h, 0, 1, 0), fz = face_with_normal(h, 0, 0, 1);
    vx_vec3 n = h->faces[fy < fz ? fy : fz].normal;
    assert_exact_hit(ray(h, at(0, 0, 0), v3(0, 2, 2), d, 100.0f, &c), &c, t, 1, 1, 1, n.x, n.y, n.z);
    cr_assert(!ray(h, at(0, 0, 0), v3(0, 2, nextafterf(2.0f, 3.0f)), d, 100.0f, &c));
    vx_hull_destroy(h);

    /* past a vertex of a regular tetrahedron, across the direction to it, 1e-5
     * outside and inside */
    vx_vec3 pts[4] = {v3(1, 1, 1), v3(1, -1, -1), v3(-1, 1, -1), v3(-1, -1, 1)};
    h = build(pts, 4);
    d = unit(1, -1, 0);
    for (int side = -1; side <= 1; side += 2) {
        float k = 1.0f + (float)side * 1e-5f;
        vx_vec3 o = vx_vec3_sub(v3(k, k, k), vx_vec3_scale(d, 3.0f));
        bool got = ray(h, at(0, 0, 0), o, d, 100.0f, &c);
        cr_assert_eq(got, side < 0, "side %d", side);
        if (got) {
            VX_ASSERT_NEAR(c.distance, 3.0, 1e-4);
            VX_ASSERT_VEC3_NEAR(c.point, 1, 1, 1, 1e-4);
        }
    }
    vx_hull_destroy(h);
}

Test(cast_hull, ray_icosahedron_vertex_edge_face)
{
    vx_vec3 pts[12];
    size_t n = icosahedron(pts, 1.0f);
    vx_hull *h = build(pts, n);
    vx_transform pose = tf(v3(1, -2, 3), vx_quat_from_axis_angle(unit(1, 2, 3), 0.8f));
    dpose dp = dpose_of(&pose);
    /* the middle of face 0, of its first edge, and its first vertex, from 5 out along the direction to them */
    const vx_hull_face *face = &h->faces[0];
    const vx_hull_edge *e0 = &h->edges[face->first_edge];
    dv a = vertex(h, e0->origin), b = vertex(h, h->edges[e0->next].origin),
       c3 = vertex(h, h->edges[h->edges[e0->next].next].origin);
    dv targets[3] = {dscale(dadd(dadd(a, b), c3), 1.0 / 3.0), dscale(dadd(a, b), 0.5), a};
    for (int i = 0; i < 3; i++) {
        dv u = dscale(targets[i], 1.0 / dlen(targets[i]));
        dv o = to_world(&dp, dadd(targets[i], dscale(u, 5.0)));
        dv dir = rotate(&dp, dscale(u, -1.0));
        vx_cast_hit hit;
        cr_assert(ray(h, pose, v3((float)o.x, (float)o.y, (float)o.z), v3((float)dir.x, (float)dir.y, (float)dir.z),
                      100.0f, &hit),
                  "target %d", i);
        dv p = to_world(&dp, targets[i]);
        VX_ASSERT_NEAR(hit.distance, 5.0, 1e-5);
        VX_ASSERT_VEC3_NEAR(hit.point, p.x, p.y, p.z, 1e-5);
        /* the normal of a face the point is on, turned towards the ray */
        dv nw = dvf(hit.normal);
        cr_assert_lt(ddot(nw, dir), 0.0);
        dv ln = to_local(&dp, dadd(dp.pos, nw));
        bool on_face = false;
        for (int f = 0; f < h->face_count; f++) {
            dv fn = dvf(h->faces[f].normal);
            if (dlen(dsub(ln, fn)) < 1e-6 && fabs(plane_distance(h, f, targets[i])) < 1e-6) on_face = true;
        }
        cr_assert(on_face, "target %d: the normal is no face's at the point", i);
        if (i == 0) VX_ASSERT_NEAR(ddot(ln, dvf(face->normal)), 1.0, 1e-6);
    }
    vx_hull_destroy(h);
}

Test(cast_hull, ray_starting_inside_or_on_the_surface_hits_at_0)
{
    vx_hull *box = box_hull(v3(1, 2, 3));
    vx_vec3 pts[12];
    size_t n = icosahedron(pts, 1.0f);
    vx_hull *ico = build(pts, n);
    vx_vec3 dirs[3] = {v3(1, 0, 0), unit(-1, 2, 0.5f), v3(0, 0, -1)};
    /* inside, on a face, on an edge, at a corner */
    vx_vec3 box_points[4] = {v3(0, 0, 0), v3(1, 0.5f, 0), v3(1, 2, 0.3f), v3(-1, 2, -3)};
    vx_cast_hit c;
    for (int k = 0; k < 3; k++) {
        vx_vec3 d = dirs[k];
        for (int i = 0; i < 4; i++) assert_inside_hit(ray(box, at(0, 0, 0), box_points[i], d, 1.0f, &c), &c,
                                                      box_points[i], d);
        /* the icosahedron's centre and points just inside its vertices, turned and shifted */
        vx_transform pose = tf(v3(3, -2, 1), vx_quat_from_axis_angle(unit(1, 1, 0), 1.1f));
        assert_inside_hit(ray(ico, pose, v3(3, -2, 1), d, 1e-30f, &c), &c, v3(3, -2, 1), d);
        for (int v = 0; v < ico->vertex_count; v++) {
            vx_vec3 inner = vx_vec3_scale(ico->vertices[v], 0.999f);
            vx_vec3 p = vx_vec3_add(pose.position, vx_quat_rotate(pose.rotation, inner));
            assert_inside_hit(ray(ico, pose, p, d, 1.0f, &c), &c, p, d);
        }
    }
    vx_hull_destroy(box);
    vx_hull_destroy(ico);
}

Test(cast_hull, max_distance_just_short_and_just_long)
{
    /* the surface 4 from the origin along +x; a sphere of radius 1 touches after 3 */
    vx_hull *h = box_hull(v3(1, 1, 1));
    vx_cast_hit c;
    cr_assert(!ray(h, at(5, 0, 0), v3(0, 0, 0), v3(1, 0, 0), nextafterf(4.0f, 0.0f), &c));
    assert_exact_hit(ray(h, at(5, 0, 0), v3(0, 0, 0), v3(1, 0, 0), 4.0f, &c), &c, 4, 4, 0, 0, -1, 0, 0);
    assert_exact_hit(ray(h, at(5, 0, 0), v3(0, 0, 0), v3(1, 0, 0), nextafterf(4.0f, 5.0f), &c), &c, 4, 4, 0, 0, -1, 0,
                     0);
    cr_assert(!sweep(h, at(5, 0, 0), v3(0, 0, 0), 1.0f, v3(1, 0, 0), nextafterf(3.0f, 0.0f), &c));
    assert_exact_hit(sweep(h, at(5, 0, 0), v3(0, 0, 0), 1.0f, v3(1, 0, 0), 3.0f, &c), &c, 3, 4, 0, 0, -1, 0, 0);
    assert_exact_hit(sweep(h, at(5, 0, 0), v3(0, 0, 0), 1.0f, v3(1, 0, 0), nextafterf(3.0f, 4.0f), &c), &c, 3, 4, 0,
                     0, -1, 0, 0);
    /* an edge hit: the sphere's centre 0.6 above the top face meets the edge at 4 - 0.8 */
    double t = 4.0 - sqrt(1.0 - (double)(1.6f - 1.0f) * (double)(1.6f - 1.0f));
    cr_assert(!sweep(h, at(5, 0, 0), v3(0, 1.6f, 0), 1.0f, v3(1, 0, 0), nextafterf((float)t, 0.0f), &c));
    cr_assert(sweep(h, at(5, 0, 0), v3(0, 1.6f, 0), 1.0f, v3(1, 0, 0), nextafterf((float)t, 5.0f), &c));
    assert_ulps(c.distance, t, 1, "distance");
    vx_hull_destroy(h);
}

/* ---------------- sphere casts: hand cases ---------------- */

/* The three regions of the grown box, as in test_cast.c: a face (the pushed
 * plane), an edge (its capsule's side), a corner (the vertex's ball). */
Test(cast_hull, sweep_box_hull_face_edge_corner)
{
    vx_hull *b = box_hull(v3(1, 2, 3));
    vx_cast_hit c;
    assert_exact_hit(sweep(b, at(0, 0, 0), v3(5, 0.3f, 0.2f), 0.5f, v3(-1, 0, 0), 100.0f, &c), &c, 3.5, 1, 0.3f,
                     0.2f, 1, 0, 0);
    /* up to the face's border */
    assert_exact_hit(sweep(b, at(0, 0, 0), v3(5, 2, -3), 0.5f, v3(-1, 0, 0), 100.0f, &c), &c, 3.5, 1, 2, -3, 1, 0, 0);
    double a = 2.3f - 2.0, e = sqrt(0.25 - a * a);
    assert_exact_hit(sweep(b, at(0, 0, 0), v3(5, 2.3f, 0), 0.5f, v3(-1, 0, 0), 100.0f, &c), &c, 4 - e, 1, 2, 0,
                     e / 0.5, a / 0.5, 0);
    double r = 0.7f, cz = 3.3f - 3.0;
    a = 2.2f - 2.0;
    e = sqrt(r * r - a * a - cz * cz);
    assert_exact_hit(sweep(b, at(0, 0, 0), v3(5, 2.2f, 3.3f), 0.7f, v3(-1, 0, 0), 100.0f, &c), &c, 4 - e, 1, 2, 3,
                     e / r, a / r, cz / r);
    /* from inside the pushed planes, beside the edge: its capsule decides */
    double ex = 1.4f - 1.0, ey = 2.4f - 2.0;
    e = sqrt(0.25 - ey * ey);
    assert_exact_hit(sweep(b, at(0, 0, 0), v3(1.4f, 2.4f, 0), 0.5f, v3(-1, 0, 0), 100.0f, &c), &c, ex - e, 1, 2, 0,
                     e / 0.5, ey / 0.5, 0);
    cr_assert(!sweep(b, at(0, 0, 0), v3(1.45f, 2.45f, 10), 0.5f, v3(0, 0, -1), 100.0f, &c));
    /* into the pushed planes beyond the corner, past its ball, onto the edge below it */
    vx_vec3 o = v3(1.42f, 2.65f, 3.8f), d = unit(0, -0.2f, -0.5f);
    a = 1.42f - 1.0;
    e = sqrt(0.25 - a * a);
    double t = (2.0 + e - 2.65f) / d.y;
    assert_exact_hit(sweep(b, at(0, 0, 0), o, 0.5f, d, 100.0f, &c), &c, t, 1, 2, 3.8f + t * d.z, a / 0.5, e / 0.5, 0);
    vx_hull_destroy(b);
}

/* Tangents: sliding along a face at exactly r the sphere meets the edge at
 * its end; sliding past an edge at exactly r it meets the vertex; a float
 * farther misses. */
Test(cast_hull, sweep_grazing_a_face_an_edge_a_vertex)
{
    vx_hull *h = box_hull(v3(1, 1, 1));
    vx_cast_hit c;
    assert_exact_hit(sweep(h, at(0, 0, 0), v3(-5, 1.5f, 0), 0.5f, v3(1, 0, 0), 100.0f, &c), &c, 4, -1, 1, 0, 0, 1, 0);
    cr_assert(!sweep(h, at(0, 0, 0), v3(-5, nextafterf(1.5f, 2.0f), 0), 0.5f, v3(1, 0, 0), 100.0f, &c));
    /* 0.625 from the edge x = y = 1 (0.375, 0.5 across it), along it from above: touches the vertex (1, 1, 1) */
    assert_exact_hit(sweep(h, at(0, 0, 0), v3(1.375f, 1.5f, 10), 0.625f, v3(0, 0, -1), 100.0f, &c), &c, 9, 1, 1, 1,
                     0.6, 0.8, 0);
    cr_assert(!sweep(h, at(0, 0, 0), v3(1.375f, nextafterf(1.5f, 2.0f), 10), 0.625f, v3(0, 0, -1), 100.0f, &c));
    vx_hull_destroy(h);

    /* past a vertex of a regular tetrahedron, across the direction to it, at r (1 -+ 1e-5) */
    vx_vec3 pts[4] = {v3(1, 1, 1), v3(1, -1, -1), v3(-1, 1, -1), v3(-1, -1, 1)};
    h = build(pts, 4);
    vx_vec3 d = unit(1, -1, 0), u = unit(1, 1, 1);
    for (int side = -1; side <= 1; side += 2) {
        vx_vec3 centre = vx_vec3_add(v3(1, 1, 1), vx_vec3_scale(u, 0.5f * (1.0f + (float)side * 1e-5f)));
        vx_vec3 o = vx_vec3_sub(centre, vx_vec3_scale(d, 3.0f));
        bool got = sweep(h, at(0, 0, 0), o, 0.5f, d, 100.0f, &c);
        cr_assert_eq(got, side < 0, "side %d", side);
        if (got) {
            VX_ASSERT_NEAR(c.distance, 3.0, 1e-2);
            VX_ASSERT_VEC3_NEAR(c.point, 1, 1, 1, 1e-6);
            VX_ASSERT_VEC3_NEAR(c.normal, u.x, u.y, u.z, 1e-2);
        }
    }
    vx_hull_destroy(h);
}

Test(cast_hull, sweep_starting_overlapping_or_touching_hits_at_0)
{
    vx_hull *b = box_hull(v3(1, 2, 3));
    vx_vec3 dirs[3] = {v3(1, 0, 0), v3(-1, 0, 0), unit(0.3f, -1, 0.2f)};
    vx_cast_hit c;
    for (int k = 0; k < 3; k++) {
        vx_vec3 d = dirs[k];
        /* touching a face, an edge (0.625^2 = 0.375^2 + 0.5^2), a corner (0.375^2 = 0.125^2 + 0.25^2 + 0.25^2) */
        assert_inside_hit(sweep(b, at(0, 0, 0), v3(1.5f, 0, 0), 0.5f, d, 1.0f, &c), &c, v3(1.5f, 0, 0), d);
        assert_inside_hit(sweep(b, at(0, 0, 0), v3(1.375f, 2.5f, 0), 0.625f, d, 1.0f, &c), &c, v3(1.375f, 2.5f, 0),
                          d);
        assert_inside_hit(sweep(b, at(0, 0, 0), v3(1.125f, 2.25f, 3.25f), 0.375f, d, 1.0f, &c), &c,
                          v3(1.125f, 2.25f, 3.25f), d);
        /* the centre on a face, an edge, a corner */
        vx_vec3 on[3] = {v3(1, 0.5f, 0), v3(1, 2, 0.3f), v3(-1, 2, -3)};
        for (int i = 0; i < 3; i++) assert_inside_hit(sweep(b, at(0, 0, 0), on[i], 0.25f, d, 1.0f, &c), &c, on[i], d);
        /* overlapping, and inside */
        assert_inside_hit(sweep(b, at(0, 0, 0), v3(1.3f, 2.3f, 3.3f), 0.6f, d, 1.0f, &c), &c, v3(1.3f, 2.3f, 3.3f),
                          d);
        assert_inside_hit(sweep(b, at(0, 0, 0), v3(0.2f, 0.3f, 0.4f), 0.1f, d, 1.0f, &c), &c, v3(0.2f, 0.3f, 0.4f),
                          d);
    }
    /* a float farther than touching, moving away: clear */
    cr_assert(!sweep(b, at(0, 0, 0), v3(nextafterf(1.5f, 2.0f), 0, 0), 0.5f, v3(1, 0, 0), 1.0f, &c));
    cr_assert(!sweep(b, at(0, 0, 0), v3(1.125f, 2.25f, nextafterf(3.25f, 4.0f)), 0.375f, unit(1, 2, 2), 1.0f, &c));
    vx_hull_destroy(b);
}

Test(cast_hull, sweep_of_radius_0_is_the_ray_cast)
{
    vx_test_rng rng = {0x7a2u};
    for (int i = 0; i < 30; i++) {
        vx_hull *h = random_hull(&rng, (hull_kind)(i % 3), i);
        for (int k = 0; k < 50; k++) {
            random_cast rc = random_cast_of(&rng, h);
            vx_cast_hit a, b;
            cr_assert_eq(sweep(h, rc.pose, rc.origin, 0.0f, rc.dir, 100.0f, &a),
                         ray(h, rc.pose, rc.origin, rc.dir, 100.0f, &b));
            cr_assert(memcmp(&a, &b, sizeof a) == 0);
        }
        vx_hull_destroy(h);
    }
}

Test(cast_hull, pose_rotation_is_normalised_defensively)
{
    vx_test_rng rng = {0x9a7fu};
    for (int i = 0; i < 30; i++) {
        vx_hull *h = random_hull(&rng, (hull_kind)(i % 3), i);
        for (int k = 0; k < 20; k++) {
            random_cast rc = random_cast_of(&rng, h);
            float r = (k & 1) ? 0.5f : 0.0f;
            vx_cast_hit a, b;
            /* twice the quaternion (exact in float): the same rotation, the same bits */
            vx_transform doubled = rc.pose;
            doubled.rotation = vx_quat_make(2 * rc.pose.rotation.x, 2 * rc.pose.rotation.y, 2 * rc.pose.rotation.z,
                                            2 * rc.pose.rotation.w);
            cr_assert_eq(sweep(h, rc.pose, rc.origin, r, rc.dir, 100.0f, &a),
                         sweep(h, doubled, rc.origin, r, rc.dir, 100.0f, &b));
            cr_assert(memcmp(&a, &b, sizeof a) == 0);
            /* zero and non-finite quaternions: the identity */
            vx_transform identity = tf(rc.pose.position, vx_quat_identity());
            vx_quat odd[2] = {vx_quat_make(0, 0, 0, 0), vx_quat_make(NAN, 0, 0, 1)};
            for (int m = 0; m < 2; m++) {
                cr_assert_eq(sweep(h, tf(rc.pose.position, odd[m]), rc.origin, r, rc.dir, 100.0f, &a),
                             sweep(h, identity, rc.origin, r, rc.dir, 100.0f, &b));
                cr_assert(memcmp(&a, &b, sizeof a) == 0);
            }
        }
        vx_hull_destroy(h);
    }
}

Test(cast_hull, bad_arguments_meet_nothing)
{
    vx_hull *h = box_hull(v3(1, 1, 1));
    vx_cast_hit c;
    cr_assert(!ray(h, at(0, 0, 0), v3(-5, 0, 0), v3(1, 0, 0), 0.0f, &c));
    cr_assert(!ray(h, at(0, 0, 0), v3(-5, 0, 0), v3(1, 0, 0), -1.0f, &c));
    cr_assert(!ray(h, at(0, 0, 0), v3(-5, 0, 0), v3(1, 0, 0), NAN, &c));
    cr_assert(!ray(h, at(0, 0, 0), v3(NAN, 0, 0), v3(1, 0, 0), 10.0f, &c));
    cr_assert(!ray(h, at(0, 0, 0), v3(-5, 0, 0), v3(INFINITY, 0, 0), 10.0f, &c));
    cr_assert(!sweep(h, at(0, 0, 0), v3(-5, 0, 0), -0.5f, v3(1, 0, 0), 10.0f, &c));
    cr_assert(!sweep(h, at(0, 0, 0), v3(-5, 0, 0), NAN, v3(1, 0, 0), 10.0f, &c));
    vx_hull_destroy(h);
}
