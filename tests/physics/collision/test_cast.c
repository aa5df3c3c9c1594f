/* Ray and sphere casts against one collider (src/physics/collision/cast.c):
 * hand cases against closed forms (faces, edges and corners of boxes, the
 * side and caps of capsules, tangents, rays parallel to a face, starts
 * inside or on the surface, max_distance), then thousands of random casts
 * per shape against answers the test computes on its own in double: the
 * quadratic for spheres, a slab test for boxes, and for every shape the first
 * root of the signed distance along the ray (convex along a ray, so a
 * minimum search then bisection find it without any ray-shape algebra). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "physics/collision/cast.h"
#include "test_helpers.h"
#include "test_ref_cast.h"

#define PI 3.14159265358979323846

static vx_vec3 v3(float x, float y, float z) { return vx_vec3_make(x, y, z); }

static vx_transform tf(vx_vec3 p, vx_quat q)
{
    vx_transform t;
    memset(&t, 0, sizeof t);
    t.position = p;
    t.rotation = q;
    return t;
}

static vx_transform at(float x, float y, float z) { return tf(v3(x, y, z), vx_quat_identity()); }

static vx_quat axis_angle(float x, float y, float z, float angle)
{
    return vx_quat_from_axis_angle(vx_vec3_normalize(v3(x, y, z)), angle);
}

static vx_vec3 unit(float x, float y, float z) { return vx_vec3_normalize(v3(x, y, z)); }

/* The spacing of floats at |v| (the smallest subnormal at 0). */
static double ulpf(double v)
{
    float a = fabsf((float)v);
    return (double)nextafterf(a, INFINITY) - (double)a;
}

/* got within `ulps` float spacings of the exact value. */
static void assert_ulps(float got, double expected, double ulps, const char *what)
{
    cr_assert(fabs((double)got - expected) <= ulps * ulpf(expected), "%s = %.9g, expected %.17g (+- %g ulp)", what,
              (double)got, expected, ulps);
}

static void assert_vec_ulps(vx_vec3 got, double x, double y, double z, double ulps, const char *what)
{
    assert_ulps(got.x, x, ulps, what);
    assert_ulps(got.y, y, ulps, what);
    assert_ulps(got.z, z, ulps, what);
}

/* A hit at the exact distance t, point p and normal n, each within 1 ulp
 * (the answer rounded once, from a double computation). */
static void assert_exact_hit(bool got, const vx_cast_hit *h, double t, double px, double py, double pz, double nx,
                             double ny, double nz)
{
    cr_assert(got, "expected a hit");
    assert_ulps(h->distance, t, 1, "distance");
    assert_vec_ulps(h->point, px, py, pz, 1, "point");
    assert_vec_ulps(h->normal, nx, ny, nz, 1, "normal");
}

/* A hit within tol of the closed form (rotated shapes: the float
 * quaternion is the closed-form rotation only to float precision). */
static void assert_near_hit(bool got, const vx_cast_hit *h, double t, double px, double py, double pz, double nx,
                            double ny, double nz, double tol)
{
    cr_assert(got, "expected a hit");
    VX_ASSERT_NEAR(h->distance, t, tol);
    VX_ASSERT_VEC3_NEAR(h->point, px, py, pz, tol);
    VX_ASSERT_VEC3_NEAR(h->normal, nx, ny, nz, tol);
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

static bool ray(const vx_collider *c, vx_transform pose, vx_vec3 o, vx_vec3 d, float max, vx_cast_hit *h)
{
    return vx_ray_cast_shape(c, &pose, o, d, max, h);
}

static bool sweep(const vx_collider *c, vx_transform pose, vx_vec3 o, float r, vx_vec3 d, float max, vx_cast_hit *h)
{
    return vx_sphere_cast_shape(c, &pose, o, r, d, max, h);
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
static double dclamp(double v, double lo, double hi) { return v < lo ? lo : (v > hi ? hi : v); }

/* A pose in double: the quaternion normalised in double (zero or
 * non-finite: the identity), applied as v + w t + u x t with t = 2 u x v
 * rather than as a matrix, so the test does not share the code's steps. */
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
    if (!(n > 0.0) || !isfinite(n)) {
        x = y = z = 0.0;
        w = n = 1.0;
    }
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
static dv unrotate(const dpose *p, dv v) { return quat_apply(dscale(p->u, -1.0), p->w, v); }
static dv to_local(const dpose *p, dv world) { return unrotate(p, dsub(world, p->pos)); }
static dv to_world(const dpose *p, dv local) { return dadd(p->pos, rotate(p, local)); }

/* Signed distance from a local point to the shape (negative inside). */
static double sdf_local(const vx_collider *c, dv p)
{
    switch (c->type) {
    case VX_SHAPE_HULL: /* hulls: test_cast_hull.c */
    case VX_SHAPE_MESH: /* meshes and heightfields: test_cast_mesh.c */
    case VX_SHAPE_HEIGHTFIELD:
    case VX_SHAPE_COMPOUND: break; /* compounds: test_compound.c */
    case VX_SHAPE_SPHERE: return dlen(p) - c->radius;
    case VX_SHAPE_CAPSULE: {
        double y = dclamp(p.y, -(double)c->half_height, c->half_height);
        return dlen(dv3(p.x, p.y - y, p.z)) - c->radius;
    }
    case VX_SHAPE_BOX: {
        dv q = dv3(fabs(p.x) - c->half_extents.x, fabs(p.y) - c->half_extents.y, fabs(p.z) - c->half_extents.z);
        double outside = dlen(dv3(fmax(q.x, 0.0), fmax(q.y, 0.0), fmax(q.z, 0.0)));
        double inside = fmin(fmax(q.x, fmax(q.y, q.z)), 0.0);
        return outside + inside;
    }
    }
    return NAN;
}

/* The point of the shape closest to a local point outside it. */
static dv closest_local(const vx_collider *c, dv p)
{
    switch (c->type) {
    case VX_SHAPE_HULL: /* hulls: test_cast_hull.c */
    case VX_SHAPE_MESH: /* meshes and heightfields: test_cast_mesh.c */
    case VX_SHAPE_HEIGHTFIELD:
    case VX_SHAPE_COMPOUND: break; /* compounds: test_compound.c */
    case VX_SHAPE_SPHERE: return dscale(p, c->radius / dlen(p));
    case VX_SHAPE_CAPSULE: {
        dv s = dv3(0.0, dclamp(p.y, -(double)c->half_height, c->half_height), 0.0);
        dv q = dsub(p, s);
        return dadd(s, dscale(q, c->radius / dlen(q)));
    }
    case VX_SHAPE_BOX:
        return dv3(dclamp(p.x, -(double)c->half_extents.x, c->half_extents.x),
                   dclamp(p.y, -(double)c->half_extents.y, c->half_extents.y),
                   dclamp(p.z, -(double)c->half_extents.z, c->half_extents.z));
    }
    return dv3(NAN, NAN, NAN);
}

static double sdf_world(const vx_collider *c, const dpose *p, dv x) { return sdf_local(c, to_local(p, x)); }


/* The distance the reference search (test_ref_cast.h) follows: the centre
 * o + t d's signed distance to the shape, less r. */
static double ref_f(const vx_collider *c, const dpose *p, dv o, dv d, double r, double t)
{
    return sdf_world(c, p, dadd(o, dscale(d, t))) - r;
}

/* The first t in [0, t_end] where the centre comes within r of the shape
 * (test_ref_cast.h). */
typedef struct {
    const vx_collider *c;
    const dpose *p;
    dv o, d;
    double r;
} ref_line;

static double ref_line_f(const void *context, double t)
{
    const ref_line *l = context;
    return ref_f(l->c, l->p, l->o, l->d, l->r, t);
}

static ref_cast ref_first_contact(const vx_collider *c, const dpose *p, dv o, dv d, double r, double t_end,
                                  double unsure)
{
    ref_line line = {c, p, o, d, r};
    return ref_cast_search(ref_line_f, &line, t_end, unsure);
}

/* The test's own slab test in the box's frame (Kay-Kajiya: each slab's
 * interval, ends swapped for negative directions): the entry t and the axis
 * of the slab entered last (ties: the lowest), -1 when o is inside. */
static bool ref_slab(dv o, dv d, dv h, double *t, int *axis)
{
    double lo = -INFINITY, hi = INFINITY;
    int ax = -1;
    for (int i = 0; i < 3; i++) {
        double oi = dget(o, i), di = dget(d, i), hi_ = dget(h, i);
        if (di == 0.0) {
            if (fabs(oi) > hi_) return false;
            continue;
        }
        double t1 = (-hi_ - oi) / di, t2 = (hi_ - oi) / di;
        if (t1 > t2) {
            double s = t1;
            t1 = t2;
            t2 = s;
        }
        if (t1 > lo) {
            lo = t1;
            ax = i;
        }
        if (t2 < hi) hi = t2;
    }
    if (lo > hi || hi < 0.0) return false;
    *t = lo > 0.0 ? lo : 0.0;
    *axis = lo > 0.0 ? ax : -1;
    return true;
}

/* ---------------- random configurations ---------------- */

static vx_quat random_rotation(vx_test_rng *rng)
{
    vx_vec3 axis = vx_vec3_normalize(vx_test_rng_vec3(rng, -1.0f, 1.0f));
    if (vx_vec3_length_sq(axis) == 0.0f) axis = v3(0, 1, 0);
    return vx_quat_from_axis_angle(axis, vx_test_rng_range(rng, -(float)PI, (float)PI));
}

static vx_collider random_shape(vx_test_rng *rng, vx_shape_type type)
{
    switch (type) {
    case VX_SHAPE_HULL: /* hulls: test_cast_hull.c */
    case VX_SHAPE_MESH: /* meshes and heightfields: test_cast_mesh.c */
    case VX_SHAPE_HEIGHTFIELD:
    case VX_SHAPE_COMPOUND: break; /* compounds: test_compound.c */
    case VX_SHAPE_SPHERE: return vx_collider_sphere(vx_test_rng_range(rng, 0.2f, 3.0f));
    case VX_SHAPE_BOX: return vx_collider_box(vx_test_rng_vec3(rng, 0.1f, 3.0f));
    case VX_SHAPE_CAPSULE: {
        float r = vx_test_rng_range(rng, 0.1f, 2.0f);
        return vx_collider_capsule(r, vx_test_rng_range(rng, 0.0f, 3.0f));
    }
    }
    return vx_collider_sphere(1.0f);
}

/* A pose, an origin around it and a direction aimed at a point within 1.2
 * bounding radii of the centre along each axis (so that a third to a half of
 * the casts hit). One cast in eight starts that close (many start inside),
 * one in eight runs along a shape axis, one in eight has an axis-aligned
 * shape. */
typedef struct {
    vx_collider shape;
    vx_transform pose;
    vx_vec3 origin, dir;
} random_cast;

static float bounding_radius(const vx_collider *c)
{
    switch (c->type) {
    case VX_SHAPE_HULL: /* hulls: test_cast_hull.c */
    case VX_SHAPE_MESH: /* meshes and heightfields: test_cast_mesh.c */
    case VX_SHAPE_HEIGHTFIELD:
    case VX_SHAPE_COMPOUND: break; /* compounds: test_compound.c */
    case VX_SHAPE_SPHERE: return c->radius;
    case VX_SHAPE_BOX: return vx_vec3_length(c->half_extents);
    case VX_SHAPE_CAPSULE: return c->radius + c->half_height;
    }
    return 1.0f;
}

static random_cast random_cast_of(vx_test_rng *rng, vx_shape_type type)
{
    random_cast rc;
    rc.shape = random_shape(rng, type);
    float reach = 1.2f * bounding_radius(&rc.shape);
    uint32_t kind = vx_test_rng_next(rng) % 8u;
    rc.pose = tf(vx_test_rng_vec3(rng, -5.0f, 5.0f), kind == 0 ? vx_quat_identity() : random_rotation(rng));
    float spread = kind == 2 ? reach : 8.0f;
    rc.origin = vx_vec3_add(rc.pose.position, vx_test_rng_vec3(rng, -spread, spread));
    vx_vec3 target = vx_vec3_add(rc.pose.position, vx_test_rng_vec3(rng, -reach, reach));
    rc.dir = vx_vec3_normalize(vx_vec3_sub(target, rc.origin));
    if (kind == 1 || vx_vec3_length_sq(rc.dir) == 0.0f) {
        int axis = (int)(vx_test_rng_next(rng) % 3u);
        vx_vec3 local = v3(0, 0, 0);
        vx_vec3_set(&local, axis, (vx_test_rng_next(rng) & 1u) ? 1.0f : -1.0f);
        rc.dir = vx_quat_rotate(vx_quat_normalize(rc.pose.rotation), local);
    }
    return rc;
}

/* What a random run met: the answers, and the largest errors in float
 * spacings (of the exact value; for points of max(|coordinate|, 1); for
 * normals of 1) and, for sphere casts, the centre's distance from touching
 * relative to max(radius, distance). */
typedef struct {
    double distance, point, normal, touch;
    int hits, misses, inside, unsure;
} error_tally;

static void tally_max(double *m, double v)
{
    if (v > *m) *m = v;
}

/* The normal the reference expects at the surface point p (world) of a
 * shape hit by a ray along d: for spheres and capsules the direction from
 * the core (centre, segment) to p; for a box the face of the largest
 * coordinate excess, and on an edge or a corner (excesses within 1e-9) any
 * of those faces that the ray moves into. */
static void assert_ray_normal(const vx_collider *c, const dpose *pose, dv p, dv d, vx_vec3 got, error_tally *tally)
{
    dv lp = to_local(pose, p);
    double err = INFINITY;
    if (c->type == VX_SHAPE_BOX) {
        double excess[3] = {fabs(lp.x) - c->half_extents.x, fabs(lp.y) - c->half_extents.y,
                            fabs(lp.z) - c->half_extents.z};
        double best = fmax(excess[0], fmax(excess[1], excess[2]));
        for (int i = 0; i < 3; i++) {
            if (excess[i] < best - 1e-9) continue;
            double s = dget(lp, i) > 0.0 ? 1.0 : -1.0;
            dv fw = rotate(pose, dv3(i == 0 ? s : 0.0, i == 1 ? s : 0.0, i == 2 ? s : 0.0));
            if (ddot(fw, d) > 0.0) continue; /* the ray does not enter through this face */
            err = fmin(err, fmax(fabs(got.x - fw.x), fmax(fabs(got.y - fw.y), fabs(got.z - fw.z))));
        }
    } else {
        dv core = c->type == VX_SHAPE_SPHERE ? dv3(0, 0, 0)
                                             : dv3(0.0, dclamp(lp.y, -(double)c->half_height, c->half_height), 0.0);
        dv n = rotate(pose, dsub(lp, core));
        n = dscale(n, 1.0 / dlen(n));
        err = fmax(fabs(got.x - n.x), fmax(fabs(got.y - n.y), fabs(got.z - n.z)));
    }
    cr_assert(err <= 2.0 * ulpf(1.0), "normal (%.9g %.9g %.9g) is off by %g", (double)got.x, (double)got.y,
              (double)got.z, err);
    tally_max(&tally->normal, err / ulpf(1.0));
}

/* One random ray against the reference: hit or miss, distance within 1
 * float spacing, point = origin + t direction on the surface, normal. */
static void check_random_ray(const random_cast *rc, error_tally *tally)
{
    const float max = 1000.0f;
    dpose pose = dpose_of(&rc->pose);
    dv o = dvf(rc->origin), d = dvf(rc->dir);
    ref_cast ref = ref_first_contact(&rc->shape, &pose, o, d, 0.0, max, 1e-9);
    vx_cast_hit h;
    memset(&h, 0, sizeof h);
    bool got = vx_ray_cast_shape(&rc->shape, &rc->pose, rc->origin, rc->dir, max, &h);
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
    assert_ray_normal(&rc->shape, &pose, p, d, h.normal, tally);
}

static void random_rays(vx_shape_type type, uint32_t seed, int count)
{
    vx_test_rng rng = {seed};
    error_tally tally;
    memset(&tally, 0, sizeof tally);
    for (int i = 0; i < count; i++) {
        random_cast rc = random_cast_of(&rng, type);
        check_random_ray(&rc, &tally);
    }
    /* the sample covers every answer */
    cr_log_info("rays at shape %d: %d hits, %d misses, %d inside, %d unsure; max error: distance %.2f ulp, point "
                "%.2f ulp, normal %.2f ulp",
                (int)type, tally.hits, tally.misses, tally.inside, tally.unsure, tally.distance, tally.point,
                tally.normal);
    cr_assert_gt(tally.hits, count / 4);
    cr_assert_gt(tally.misses, count / 10);
    cr_assert_gt(tally.inside, count / 100);
    cr_assert_lt(tally.unsure, count / 100);
}

/* One random sphere cast against the reference: hit or miss and the
 * distance as for rays; at the returned distance the sphere touches the
 * shape (the centre's signed distance is the radius within 1e-5 relative)
 * and at 99.9 % of it it is clear; the point is the shape's point closest to
 * the centre, on its surface, and the normal points from it to the centre. */
static void check_random_sweep(const random_cast *rc, float r, error_tally *tally)
{
    const float max = 1000.0f;
    dpose pose = dpose_of(&rc->pose);
    dv o = dvf(rc->origin), d = dvf(rc->dir);
    ref_cast ref = ref_first_contact(&rc->shape, &pose, o, d, r, max, 1e-9);
    vx_cast_hit h;
    memset(&h, 0, sizeof h);
    bool got = vx_sphere_cast_shape(&rc->shape, &rc->pose, rc->origin, r, rc->dir, max, &h);
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

    double touch = sdf_world(&rc->shape, &pose, dadd(o, dscale(d, (double)h.distance)));
    /* relative to the larger of r and the distance: rounding the distance
     * to a float moves the centre by up to half a float spacing of it */
    double scale = fmax((double)r, (double)h.distance);
    cr_assert(fabs(touch - r) <= 1e-5 * scale, "at the distance the centre is %.9g from the shape, radius %g", touch,
              (double)r);
    tally_max(&tally->touch, fabs(touch - r) / scale);
    double clear = sdf_world(&rc->shape, &pose, dadd(o, dscale(d, 0.999 * (double)h.distance)));
    cr_assert(clear > r, "at 99.9 %% of the distance the sphere overlaps (%.9g < %g)", clear, (double)r);

    dv centre = dadd(o, dscale(d, ref.t));
    dv on_shape = to_world(&pose, closest_local(&rc->shape, to_local(&pose, centre)));
    dv n = dsub(centre, on_shape);
    n = dscale(n, 1.0 / dlen(n));
    vx_vec3 p = h.point;
    cr_assert(fabs(sdf_world(&rc->shape, &pose, dvf(p))) <= 4.0 * ulpf(fmax(dlen(dvf(p)), 1.0)),
              "the point is %g off the surface", sdf_world(&rc->shape, &pose, dvf(p)));
    for (int i = 0; i < 3; i++) {
        double e = fabs((double)vx_vec3_get(p, i) - dget(on_shape, i)) / ulpf(fmax(fabs(dget(on_shape, i)), 1.0));
        cr_assert(e <= 1.0, "point[%d] %.9g, expected %.17g", i, (double)vx_vec3_get(p, i), dget(on_shape, i));
        tally_max(&tally->point, e);
        double en = fabs((double)vx_vec3_get(h.normal, i) - dget(n, i));
        cr_assert(en <= 2.0 * ulpf(1.0), "normal[%d] %.9g, expected %.17g", i, (double)vx_vec3_get(h.normal, i),
                  dget(n, i));
        tally_max(&tally->normal, en / ulpf(1.0));
    }
}

static void random_sweeps(vx_shape_type type, uint32_t seed, int count)
{
    vx_test_rng rng = {seed};
    error_tally tally;
    memset(&tally, 0, sizeof tally);
    for (int i = 0; i < count; i++) {
        random_cast rc = random_cast_of(&rng, type);
        float r = vx_test_rng_range(&rng, 0.05f, 2.0f);
        check_random_sweep(&rc, r, &tally);
    }
    cr_log_info("sphere casts at shape %d: %d hits, %d misses, %d inside, %d unsure; max error: distance %.2f ulp, "
                "point %.2f ulp, normal %.2f ulp, touch %.3g relative",
                (int)type, tally.hits, tally.misses, tally.inside, tally.unsure, tally.distance, tally.point,
                tally.normal, tally.touch);
    cr_assert_gt(tally.hits, count / 4);
    cr_assert_gt(tally.misses, count / 20);
    cr_assert_gt(tally.inside, count / 100);
    cr_assert_lt(tally.unsure, count / 100);
}

/* ---------------- rays at spheres ---------------- */

Test(cast, ray_sphere_head_on)
{
    vx_collider s = vx_collider_sphere(2.0f);
    vx_cast_hit h;
    assert_exact_hit(ray(&s, at(1, 2, 3), v3(1, 2, -7), v3(0, 0, 1), 100.0f, &h), &h, 8, 1, 2, 1, 0, 0, -1);
    assert_exact_hit(ray(&s, at(1, 2, 3), v3(11, 2, 3), v3(-1, 0, 0), 100.0f, &h), &h, 8, 3, 2, 3, 1, 0, 0);
}

Test(cast, ray_sphere_off_centre)
{
    /* |p - c| = 1 where the line y = 0.6 crosses: x = -sqrt(1 - y^2) */
    vx_collider s = vx_collider_sphere(1.0f);
    double y = 0.6f, x = -sqrt(1.0 - y * y);
    vx_cast_hit h;
    assert_exact_hit(ray(&s, at(0, 0, 0), v3(-10, 0.6f, 0), v3(1, 0, 0), 100.0f, &h), &h, 10.0 + x, x, y, 0, x, y, 0);
    /* the same sphere turned: a sphere's rotation changes nothing */
    assert_exact_hit(ray(&s, tf(v3(0, 0, 0), axis_angle(1, 2, 3, 0.7f)), v3(-10, 0.6f, 0), v3(1, 0, 0), 100.0f, &h),
                     &h, 10.0 + x, x, y, 0, x, y, 0);
}

Test(cast, ray_sphere_tangent_hits_at_the_tangent_point)
{
    vx_collider s = vx_collider_sphere(1.0f);
    vx_cast_hit h;
    assert_exact_hit(ray(&s, at(0, 0, 0), v3(-5, 1, 0), v3(1, 0, 0), 100.0f, &h), &h, 5, 0, 1, 0, 0, 1, 0);
    cr_assert(!ray(&s, at(0, 0, 0), v3(-5, nextafterf(1.0f, 2.0f), 0), v3(1, 0, 0), 100.0f, &h),
              "one ulp outside the tangent misses");
    double y = nextafterf(1.0f, 0.0f), x = -sqrt((1.0 - y) * (1.0 + y));
    assert_exact_hit(ray(&s, at(0, 0, 0), v3(-5, (float)y, 0), v3(1, 0, 0), 100.0f, &h), &h, 5.0 + x, x, y, 0, x, y,
                     0);
}

Test(cast, ray_sphere_behind_or_away_misses)
{
    vx_collider s = vx_collider_sphere(1.0f);
    vx_cast_hit h;
    cr_assert(!ray(&s, at(0, 0, 0), v3(-5, 0, 0), v3(-1, 0, 0), 100.0f, &h));
    cr_assert(!ray(&s, at(0, 0, 0), v3(-5, 0, 0), v3(0, 1, 0), 100.0f, &h));
    cr_assert(!ray(&s, at(0, 0, 0), v3(-5, 2, 0), v3(1, 0, 0), 100.0f, &h));
}

/* The closed form in long double (the plain quadratic: 64 bits of mantissa
 * leave float precision untouched by its cancellations). */
Test(cast, ray_sphere_random_against_the_quadratic)
{
    vx_test_rng rng = {0x5eed1u};
    int hits = 0;
    double worst_t = 0.0, worst_p = 0.0, worst_n = 0.0;
    for (int i = 0; i < 4000; i++) {
        random_cast rc = random_cast_of(&rng, VX_SHAPE_SPHERE);
        long double m[3], d[3], b = 0.0L, mm = 0.0L, a = 0.0L;
        for (int k = 0; k < 3; k++) {
            m[k] = (long double)vx_vec3_get(rc.origin, k) - (long double)vx_vec3_get(rc.pose.position, k);
            d[k] = vx_vec3_get(rc.dir, k);
            b += m[k] * d[k];
            mm += m[k] * m[k];
            a += d[k] * d[k];
        }
        long double rr = (long double)rc.shape.radius * rc.shape.radius;
        long double c = mm - rr, disc = b * b - a * c;
        if (c <= 0.0L || b >= 0.0L || fabsl(disc) < 1e-9L) continue; /* inside, away, or grazing: elsewhere */
        vx_cast_hit h;
        bool got = vx_ray_cast_shape(&rc.shape, &rc.pose, rc.origin, rc.dir, 1000.0f, &h);
        if (disc < 0.0L) {
            cr_assert(!got);
            continue;
        }
        cr_assert(got);
        hits++;
        double t = (double)((-b - sqrtl(disc)) / a);
        double e = fabs((double)h.distance - t) / ulpf(t);
        cr_assert(e <= 1.0, "distance %.9g, expected %.17g", (double)h.distance, t);
        worst_t = fmax(worst_t, e);
        /* the point on the surface, the normal along it from the centre */
        dv pc = dsub(dvf(h.point), dvf(rc.pose.position));
        double scale = fmax(fabs((double)h.point.x), fmax(fabs((double)h.point.y), fabs((double)h.point.z)));
        double ep = fabs(dlen(pc) - rc.shape.radius) / ulpf(fmax(scale, 1.0));
        cr_assert(ep <= 2.0, "|p - c| = %.9g, radius %g", dlen(pc), (double)rc.shape.radius);
        worst_p = fmax(worst_p, ep);
        dv n = dscale(pc, 1.0 / rc.shape.radius);
        for (int k = 0; k < 3; k++) {
            double unit_err = ulpf(fmax(scale, 1.0)) / rc.shape.radius; /* a point's rounding, seen from the centre */
            double en = fabs((double)vx_vec3_get(h.normal, k) - dget(n, k)) / unit_err;
            cr_assert(en <= 2.0, "normal[%d] %.9g, (p - c) / r %.9g", k, (double)vx_vec3_get(h.normal, k), dget(n, k));
            worst_n = fmax(worst_n, en);
        }
    }
    cr_assert_gt(hits, 1000);
    cr_log_info("rays at spheres, closed form: %d hits, max error distance %.2f ulp, |p - c| - r %.2f ulp, normal "
                "%.2f",
                hits, worst_t, worst_p, worst_n);
}

/* ---------------- rays at boxes ---------------- */

Test(cast, ray_box_faces)
{
    vx_collider b = vx_collider_box(v3(1, 2, 3));
    vx_transform pose = at(10, 20, 30);
    vx_cast_hit h;
    assert_exact_hit(ray(&b, pose, v3(5, 20.5f, 30.5f), v3(1, 0, 0), 100.0f, &h), &h, 4, 9, 20.5, 30.5, -1, 0, 0);
    assert_exact_hit(ray(&b, pose, v3(15, 20.5f, 30.5f), v3(-1, 0, 0), 100.0f, &h), &h, 4, 11, 20.5, 30.5, 1, 0, 0);
    assert_exact_hit(ray(&b, pose, v3(10.5f, 13, 30.5f), v3(0, 1, 0), 100.0f, &h), &h, 5, 10.5, 18, 30.5, 0, -1, 0);
    assert_exact_hit(ray(&b, pose, v3(10.5f, 27, 30.5f), v3(0, -1, 0), 100.0f, &h), &h, 5, 10.5, 22, 30.5, 0, 1, 0);
    assert_exact_hit(ray(&b, pose, v3(10.5f, 20.5f, 21), v3(0, 0, 1), 100.0f, &h), &h, 6, 10.5, 20.5, 27, 0, 0, -1);
    assert_exact_hit(ray(&b, pose, v3(10.5f, 20.5f, 39), v3(0, 0, -1), 100.0f, &h), &h, 6, 10.5, 20.5, 33, 0, 0, 1);
    /* oblique, through the -x face: x = 9 at t = 5 / dx */
    vx_vec3 d = unit(3, 1, 0.5f);
    double t = 5.0 / d.x;
    assert_exact_hit(ray(&b, pose, v3(4, 19, 29), d, 100.0f, &h), &h, t, 9, 19 + t * d.y, 29 + t * d.z, -1, 0, 0);
}

Test(cast, ray_box_along_an_edge_hits_where_it_enters)
{
    /* a ray in the plane of two faces touches the (closed) box along the edge */
    vx_collider b = vx_collider_box(v3(1, 2, 3));
    vx_cast_hit h;
    assert_exact_hit(ray(&b, at(0, 0, 0), v3(-5, 2, 3), v3(1, 0, 0), 100.0f, &h), &h, 4, -1, 2, 3, -1, 0, 0);
    assert_exact_hit(ray(&b, at(0, 0, 0), v3(1, -2, 10), v3(0, 0, -1), 100.0f, &h), &h, 7, 1, -2, 3, 0, 0, 1);
}

Test(cast, ray_box_through_an_edge_or_a_corner_takes_the_lowest_axis)
{
    vx_collider b = vx_collider_box(v3(1, 2, 3));
    vx_cast_hit h;
    vx_vec3 d = unit(1, 1, 0); /* d.x == d.y: both slabs entered at the same t */
    assert_exact_hit(ray(&b, at(0, 0, 0), v3(-3, -4, 0), d, 100.0f, &h), &h, 2.0 / d.x, -1, -2, 0, -1, 0, 0);
    d = unit(0, -1, -1);
    assert_exact_hit(ray(&b, at(0, 0, 0), v3(0.5f, 4, 5), d, 100.0f, &h), &h, -2.0 / d.y, 0.5, 2, 3, 0, 1, 0);
    d = unit(1, 1, 1);
    assert_exact_hit(ray(&b, at(0, 0, 0), v3(-2, -3, -4), d, 100.0f, &h), &h, 1.0 / d.x, -1, -2, -3, -1, 0, 0);
    d = unit(-1, -1, -1);
    assert_exact_hit(ray(&b, at(0, 0, 0), v3(2, 3, 4), d, 100.0f, &h), &h, -1.0 / d.x, 1, 2, 3, 1, 0, 0);
}

Test(cast, ray_box_parallel_to_a_face)
{
    vx_collider b = vx_collider_box(v3(1, 2, 3));
    vx_cast_hit h;
    float out = nextafterf(2.0f, 3.0f), in = nextafterf(2.0f, 0.0f);
    cr_assert(!ray(&b, at(0, 0, 0), v3(-5, out, 0), v3(1, 0, 0), 100.0f, &h), "just outside the face's plane");
    assert_exact_hit(ray(&b, at(0, 0, 0), v3(-5, 2, 0), v3(1, 0, 0), 100.0f, &h), &h, 4, -1, 2, 0, -1, 0, 0);
    assert_exact_hit(ray(&b, at(0, 0, 0), v3(-5, in, 0), v3(1, 0, 0), 100.0f, &h), &h, 4, -1, in, 0, -1, 0, 0);
    assert_exact_hit(ray(&b, at(0, 0, 0), v3(-5, -in, 0), v3(1, 0, 0), 100.0f, &h), &h, 4, -1, -in, 0, -1, 0, 0);
    cr_assert(!ray(&b, at(0, 0, 0), v3(-5, -out, 0), v3(1, 0, 0), 100.0f, &h));
    cr_assert(!ray(&b, at(0, 0, 0), v3(-5, 0, 0), v3(-1, 0, 0), 100.0f, &h), "parallel, moving away");
}

Test(cast, ray_box_rotated_closed_form)
{
    /* a unit cube turned 30 degrees about z: the ray along x meets the -x
     * face where x cos 30 = -1 */
    vx_collider b = vx_collider_box(v3(1, 1, 1));
    double c = cos(PI / 6), s = sin(PI / 6);
    vx_cast_hit h;
    assert_near_hit(ray(&b, tf(v3(0, 0, 0), axis_angle(0, 0, 1, (float)(PI / 6))), v3(-5, 0, 0), v3(1, 0, 0), 100.0f,
                        &h),
                    &h, 5 - 1 / c, -1 / c, 0, 0, -c, -s, 0, 2e-6);
    /* turned 90 degrees about x, shifted: its y extent now lies along z */
    b = vx_collider_box(v3(1, 2, 3));
    assert_near_hit(ray(&b, tf(v3(1, 1, 1), axis_angle(1, 0, 0, (float)(PI / 2))), v3(1, 1, 10), v3(0, 0, -1), 100.0f,
                        &h),
                    &h, 7, 1, 1, 3, 0, 0, 1, 2e-6);
}

Test(cast, ray_box_random_against_a_slab_test)
{
    vx_test_rng rng = {0xb0c5u};
    int hits = 0;
    double worst = 0.0;
    for (int i = 0; i < 4000; i++) {
        random_cast rc = random_cast_of(&rng, VX_SHAPE_BOX);
        dpose pose = dpose_of(&rc.pose);
        dv o = to_local(&pose, dvf(rc.origin)), d = unrotate(&pose, dvf(rc.dir));
        double t = 0.0;
        int axis = -1;
        bool ref = ref_slab(o, d, dvf(rc.shape.half_extents), &t, &axis);
        vx_cast_hit h;
        bool got = vx_ray_cast_shape(&rc.shape, &rc.pose, rc.origin, rc.dir, 1000.0f, &h);
        cr_assert_eq(got, ref, "cast %d: the slab test says %s", i, ref ? "hit" : "miss");
        if (!ref) continue;
        if (axis < 0) {
            assert_inside_hit(got, &h, rc.origin, rc.dir);
            continue;
        }
        hits++;
        double e = fabs((double)h.distance - t) / ulpf(t);
        cr_assert(e <= 1.0, "distance %.9g, slab test %.17g", (double)h.distance, t);
        worst = fmax(worst, e);
        double s = dget(d, axis) > 0.0 ? -1.0 : 1.0;
        dv n = rotate(&pose, dv3(axis == 0 ? s : 0.0, axis == 1 ? s : 0.0, axis == 2 ? s : 0.0));
        VX_ASSERT_VEC3_NEAR(h.normal, n.x, n.y, n.z, 2.0 * ulpf(1.0));
        dv p = dadd(dvf(rc.origin), dscale(dvf(rc.dir), t));
        VX_ASSERT_VEC3_NEAR(h.point, p.x, p.y, p.z, ulpf(fmax(dlen(p), 1.0)));
    }
    cr_assert_gt(hits, 1000);
    cr_log_info("rays at boxes, slab test: %d hits, max distance error %.2f ulp", hits, worst);
}

/* ---------------- rays at capsules ---------------- */

Test(cast, ray_capsule_side)
{
    vx_collider c = vx_collider_capsule(0.5f, 1.0f);
    vx_cast_hit h;
    assert_exact_hit(ray(&c, at(0, 0, 0), v3(-5, 0.3f, 0), v3(1, 0, 0), 100.0f, &h), &h, 4.5, -0.5, 0.3f, 0, -1, 0,
                     0);
    /* where the side meets a cap */
    assert_exact_hit(ray(&c, at(0, 0, 0), v3(-5, 1, 0), v3(1, 0, 0), 100.0f, &h), &h, 4.5, -0.5, 1, 0, -1, 0, 0);
    double z = 0.3f, x = -sqrt(0.25 - z * z);
    assert_exact_hit(ray(&c, at(0, 0, 0), v3(-5, -0.7f, 0.3f), v3(1, 0, 0), 100.0f, &h), &h, 5 + x, x, -0.7f, z,
                     x / 0.5, 0, z / 0.5);
}

Test(cast, ray_capsule_caps)
{
    vx_collider c = vx_collider_capsule(0.5f, 1.0f);
    vx_cast_hit h;
    assert_exact_hit(ray(&c, at(0, 0, 0), v3(0, 10, 0), v3(0, -1, 0), 100.0f, &h), &h, 8.5, 0, 1.5, 0, 0, 1, 0);
    double x = 0.3f, y = sqrt(0.25 - x * x);
    assert_exact_hit(ray(&c, at(0, 0, 0), v3(0.3f, 10, 0), v3(0, -1, 0), 100.0f, &h), &h, 9 - y, x, 1 + y, 0,
                     x / 0.5, y / 0.5, 0);
    /* across the top cap, above the side */
    double yy = 0.2f, xx = -sqrt(0.25 - yy * yy);
    assert_exact_hit(ray(&c, at(0, 0, 0), v3(-5, 1.2f, 0), v3(1, 0, 0), 100.0f, &h), &h, 5 + xx, xx, 1.2f, 0,
                     xx / 0.5, (1.2f - 1.0) / 0.5, 0);
}

Test(cast, ray_capsule_along_the_axis)
{
    vx_collider c = vx_collider_capsule(0.5f, 1.0f);
    vx_cast_hit h;
    assert_exact_hit(ray(&c, at(0, 0, 0), v3(0, -10, 0), v3(0, 1, 0), 100.0f, &h), &h, 8.5, 0, -1.5, 0, 0, -1, 0);
    assert_exact_hit(ray(&c, at(3, 4, 5), v3(3, 14, 5), v3(0, -1, 0), 100.0f, &h), &h, 8.5, 3, 5.5, 5, 0, 1, 0);
    cr_assert(!ray(&c, at(0, 0, 0), v3(0, 10, 0), v3(0, 1, 0), 100.0f, &h), "along the axis, away");
    /* above the top, within the side's cylinder, moving up and towards the
     * axis: the cylinder's roots lie behind the origin */
    cr_assert(!ray(&c, at(0, 0, 0), v3(0.3f, 2, 0), unit(-0.1f, 1, 0), 100.0f, &h), "above the top, away");
}

Test(cast, ray_capsule_tangents)
{
    vx_collider c = vx_collider_capsule(0.5f, 1.0f);
    vx_cast_hit h;
    /* tangent to the side, to a cap, and along a line of the side (tangent
     * to the bottom cap where it begins) */
    assert_exact_hit(ray(&c, at(0, 0, 0), v3(-5, 0.3f, 0.5f), v3(1, 0, 0), 100.0f, &h), &h, 5, 0, 0.3f, 0.5, 0, 0,
                     1);
    assert_exact_hit(ray(&c, at(0, 0, 0), v3(-5, 1.5f, 0), v3(1, 0, 0), 100.0f, &h), &h, 5, 0, 1.5, 0, 0, 1, 0);
    assert_exact_hit(ray(&c, at(0, 0, 0), v3(0.5f, -10, 0), v3(0, 1, 0), 100.0f, &h), &h, 9, 0.5, -1, 0, 1, 0, 0);
    float out = nextafterf(0.5f, 1.0f);
    cr_assert(!ray(&c, at(0, 0, 0), v3(-5, 0.3f, out), v3(1, 0, 0), 100.0f, &h));
    cr_assert(!ray(&c, at(0, 0, 0), v3(out, -10, 0), v3(0, 1, 0), 100.0f, &h));
    cr_assert(!ray(&c, at(0, 0, 0), v3(-5, nextafterf(1.5f, 2.0f), 0), v3(1, 0, 0), 100.0f, &h));
}

Test(cast, ray_capsule_rotated)
{
    /* turned 90 degrees about z: the segment lies along x */
    vx_collider c = vx_collider_capsule(0.5f, 1.0f);
    vx_transform pose = tf(v3(0, 0, 0), axis_angle(0, 0, 1, (float)(PI / 2)));
    vx_cast_hit h;
    assert_near_hit(ray(&c, pose, v3(10, 0, 0), v3(-1, 0, 0), 100.0f, &h), &h, 8.5, 1.5, 0, 0, 1, 0, 0, 2e-6);
    assert_near_hit(ray(&c, pose, v3(0.7f, 10, 0), v3(0, -1, 0), 100.0f, &h), &h, 9.5, 0.7, 0.5, 0, 0, 1, 0, 2e-6);
    assert_near_hit(ray(&c, pose, v3(-0.7f, 0, -10), v3(0, 0, 1), 100.0f, &h), &h, 9.5, -0.7, 0, -0.5, 0, 0, -1,
                    2e-6);
}

/* ---------------- rays: starts inside, max_distance, poses ---------------- */

Test(cast, ray_starting_inside_or_on_the_surface_hits_at_0)
{
    vx_collider s = vx_collider_sphere(2.0f), b = vx_collider_box(v3(1, 2, 3)), c = vx_collider_capsule(0.5f, 1.0f);
    vx_vec3 dirs[3] = {v3(1, 0, 0), unit(-1, 2, 0.5f), v3(0, 0, -1)};
    vx_vec3 sphere_points[3] = {v3(0, 0, 0), v3(0.3f, -1.2f, 0.7f), v3(0, 2, 0)};
    vx_vec3 box_points[4] = {v3(0, 0, 0), v3(1, 0.5f, 0), v3(1, 2, 3), v3(-0.9f, 1.9f, -2.9f)};
    vx_vec3 capsule_points[4] = {v3(0, 0, 0), v3(0.5f, 0.3f, 0), v3(0, 1.5f, 0), v3(0, -1.2f, 0.2f)};
    vx_cast_hit h;
    for (int k = 0; k < 3; k++) {
        vx_vec3 d = dirs[k];
        for (int i = 0; i < 3; i++) assert_inside_hit(ray(&s, at(0, 0, 0), sphere_points[i], d, 1.0f, &h), &h,
                                                      sphere_points[i], d);
        for (int i = 0; i < 4; i++) {
            assert_inside_hit(ray(&b, at(0, 0, 0), box_points[i], d, 1.0f, &h), &h, box_points[i], d);
            assert_inside_hit(ray(&c, at(0, 0, 0), capsule_points[i], d, 1.0f, &h), &h, capsule_points[i], d);
        }
        /* a turned, shifted shape: its centre */
        vx_transform pose = tf(v3(3, -2, 1), axis_angle(1, 1, 0, 1.1f));
        assert_inside_hit(ray(&b, pose, v3(3, -2, 1), d, 1e-30f, &h), &h, v3(3, -2, 1), d);
        assert_inside_hit(ray(&c, pose, v3(3, -2, 1), d, 1e-30f, &h), &h, v3(3, -2, 1), d);
    }
}

Test(cast, ray_max_distance_just_short_and_just_long)
{
    /* each shape's surface 4 from the origin along +x */
    vx_collider shapes[3] = {vx_collider_sphere(1.0f), vx_collider_box(v3(1, 1, 1)), vx_collider_capsule(1.0f, 2.0f)};
    vx_cast_hit h;
    for (int i = 0; i < 3; i++) {
        cr_assert(!ray(&shapes[i], at(5, 0, 0), v3(0, 0, 0), v3(1, 0, 0), nextafterf(4.0f, 0.0f), &h), "shape %d",
                  i);
        assert_exact_hit(ray(&shapes[i], at(5, 0, 0), v3(0, 0, 0), v3(1, 0, 0), 4.0f, &h), &h, 4, 4, 0, 0, -1, 0, 0);
        assert_exact_hit(ray(&shapes[i], at(5, 0, 0), v3(0, 0, 0), v3(1, 0, 0), nextafterf(4.0f, 5.0f), &h), &h, 4,
                         4, 0, 0, -1, 0, 0);
    }
}

Test(cast, ray_pose_rotation_is_normalised_defensively)
{
    vx_test_rng rng = {0x9a7eu};
    for (int i = 0; i < 300; i++) {
        random_cast rc = random_cast_of(&rng, (vx_shape_type)(i % 3));
        vx_cast_hit a, b;
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        /* twice the quaternion (exact in float): the same rotation, the same bits */
        vx_transform doubled = rc.pose;
        doubled.rotation = vx_quat_make(2 * rc.pose.rotation.x, 2 * rc.pose.rotation.y, 2 * rc.pose.rotation.z,
                                        2 * rc.pose.rotation.w);
        cr_assert_eq(ray(&rc.shape, rc.pose, rc.origin, rc.dir, 100.0f, &a),
                     ray(&rc.shape, doubled, rc.origin, rc.dir, 100.0f, &b));
        cr_assert(memcmp(&a, &b, sizeof a) == 0);
        /* zero and non-finite quaternions: the identity */
        vx_transform identity = tf(rc.pose.position, vx_quat_identity());
        vx_quat odd[2] = {vx_quat_make(0, 0, 0, 0), vx_quat_make(NAN, 0, 0, 1)};
        for (int k = 0; k < 2; k++) {
            vx_transform p = tf(rc.pose.position, odd[k]);
            memset(&a, 0, sizeof a);
            memset(&b, 0, sizeof b);
            cr_assert_eq(ray(&rc.shape, p, rc.origin, rc.dir, 100.0f, &a),
                         ray(&rc.shape, identity, rc.origin, rc.dir, 100.0f, &b));
            cr_assert(memcmp(&a, &b, sizeof a) == 0);
        }
    }
}

Test(cast, bad_arguments_meet_nothing)
{
    vx_collider s = vx_collider_sphere(1.0f);
    vx_cast_hit h;
    cr_assert(!ray(&s, at(0, 0, 0), v3(-5, 0, 0), v3(1, 0, 0), 0.0f, &h));
    cr_assert(!ray(&s, at(0, 0, 0), v3(-5, 0, 0), v3(1, 0, 0), -1.0f, &h));
    cr_assert(!ray(&s, at(0, 0, 0), v3(-5, 0, 0), v3(1, 0, 0), NAN, &h));
    cr_assert(!ray(&s, at(0, 0, 0), v3(NAN, 0, 0), v3(1, 0, 0), 10.0f, &h));
    cr_assert(!ray(&s, at(0, 0, 0), v3(-5, 0, 0), v3(INFINITY, 0, 0), 10.0f, &h));
    cr_assert(!sweep(&s, at(0, 0, 0), v3(-5, 0, 0), -0.5f, v3(1, 0, 0), 10.0f, &h));
    cr_assert(!sweep(&s, at(0, 0, 0), v3(-5, 0, 0), NAN, v3(1, 0, 0), 10.0f, &h));
}

Test(cast, ray_sphere_random_brute_force) { random_rays(VX_SHAPE_SPHERE, 0x1234u, 4000); }
Test(cast, ray_box_random_brute_force) { random_rays(VX_SHAPE_BOX, 0x2345u, 4000); }
Test(cast, ray_capsule_random_brute_force) { random_rays(VX_SHAPE_CAPSULE, 0x3456u, 4000); }

/* ---------------- sphere casts ---------------- */

Test(cast, sweep_sphere_closed_form)
{
    vx_collider s = vx_collider_sphere(1.0f);
    vx_cast_hit h;
    assert_exact_hit(sweep(&s, at(0, 0, 0), v3(-10, 0, 0), 0.5f, v3(1, 0, 0), 100.0f, &h), &h, 8.5, -1, 0, 0, -1, 0,
                     0);
    /* the centre reaches 1.5 from the sphere's: x = -sqrt(1.5^2 - y^2) */
    double y = 0.9f, x = -sqrt(2.25 - y * y);
    assert_exact_hit(sweep(&s, at(0, 0, 0), v3(-10, 0.9f, 0), 0.5f, v3(1, 0, 0), 100.0f, &h), &h, 10 + x, x / 1.5,
                     y / 1.5, 0, x / 1.5, y / 1.5, 0);
    /* tangent: the spheres touch at (0, 1, 0); a float higher misses */
    assert_exact_hit(sweep(&s, at(0, 0, 0), v3(-10, 1.5f, 0), 0.5f, v3(1, 0, 0), 100.0f, &h), &h, 10, 0, 1, 0, 0, 1,
                     0);
    cr_assert(!sweep(&s, at(0, 0, 0), v3(-10, nextafterf(1.5f, 2.0f), 0), 0.5f, v3(1, 0, 0), 100.0f, &h));
}

Test(cast, sweep_capsule_side_and_caps)
{
    vx_collider c = vx_collider_capsule(0.5f, 1.0f);
    vx_cast_hit h;
    assert_exact_hit(sweep(&c, at(0, 0, 0), v3(-5, 0.3f, 0), 0.25f, v3(1, 0, 0), 100.0f, &h), &h, 4.25, -0.5, 0.3f,
                     0, -1, 0, 0);
    assert_exact_hit(sweep(&c, at(0, 0, 0), v3(0, 10, 0), 0.25f, v3(0, -1, 0), 100.0f, &h), &h, 8.25, 0, 1.5, 0, 0,
                     1, 0);
    double x = 0.3f, y = sqrt(0.5625 - x * x);
    assert_exact_hit(sweep(&c, at(0, 0, 0), v3(0.3f, 10, 0), 0.25f, v3(0, -1, 0), 100.0f, &h), &h, 9 - y,
                     x / 0.75 * 0.5, 1 + y / 0.75 * 0.5, 0, x / 0.75, y / 0.75, 0);
    /* tangent to the side */
    assert_exact_hit(sweep(&c, at(0, 0, 0), v3(-5, 0.3f, 0.75f), 0.25f, v3(1, 0, 0), 100.0f, &h), &h, 5, 0, 0.3f,
                     0.5, 0, 0, 1);
}

/* The three regions of the rounded box: a face (the grown slab), an edge
 * (its capsule's side), a corner (the end ball of the edges' capsules). */
Test(cast, sweep_box_face)
{
    vx_collider b = vx_collider_box(v3(1, 2, 3));
    vx_cast_hit h;
    assert_exact_hit(sweep(&b, at(0, 0, 0), v3(5, 0.3f, 0.2f), 0.5f, v3(-1, 0, 0), 100.0f, &h), &h, 3.5, 1, 0.3f,
                     0.2f, 1, 0, 0);
    /* up to the face's border */
    assert_exact_hit(sweep(&b, at(0, 0, 0), v3(5, 2, -3), 0.5f, v3(-1, 0, 0), 100.0f, &h), &h, 3.5, 1, 2, -3, 1, 0,
                     0);
    assert_exact_hit(sweep(&b, at(0, 0, 0), v3(0.5f, -9, 1), 0.25f, v3(0, 1, 0), 100.0f, &h), &h, 6.75, 0.5, -2, 1,
                     0, -1, 0);
}

Test(cast, sweep_box_edge)
{
    vx_collider b = vx_collider_box(v3(1, 2, 3));
    vx_cast_hit h;
    double a = 2.3f - 2.0, e = sqrt(0.25 - a * a);
    assert_exact_hit(sweep(&b, at(0, 0, 0), v3(5, 2.3f, 0), 0.5f, v3(-1, 0, 0), 100.0f, &h), &h, 4 - e, 1, 2, 0,
                     e / 0.5, a / 0.5, 0);
    /* the edge along x at y = -2, z = 3, from above */
    a = -2.2f + 2.0;
    e = sqrt(0.25 - a * a);
    assert_exact_hit(sweep(&b, at(0, 0, 0), v3(0.5f, -2.2f, 9), 0.5f, v3(0, 0, -1), 100.0f, &h), &h, 6 - e, 0.5, -2,
                     3, 0, a / 0.5, e / 0.5);
}

Test(cast, sweep_box_corner)
{
    vx_collider b = vx_collider_box(v3(1, 2, 3));
    vx_cast_hit h;
    double r = 0.7f, a = 2.2f - 2.0, c = 3.3f - 3.0, e = sqrt(r * r - a * a - c * c);
    assert_exact_hit(sweep(&b, at(0, 0, 0), v3(5, 2.2f, 3.3f), 0.7f, v3(-1, 0, 0), 100.0f, &h), &h, 4 - e, 1, 2, 3,
                     e / r, a / r, c / r);
}

Test(cast, sweep_box_from_inside_the_grown_box)
{
    /* the centre starts within r of both faces' planes but farther than r
     * from the edge: no slab is entered, the edge's capsule decides */
    vx_collider b = vx_collider_box(v3(1, 2, 3));
    vx_cast_hit h;
    double ex = 1.4f - 1.0, ey = 2.4f - 2.0, e = sqrt(0.25 - ey * ey);
    assert_exact_hit(sweep(&b, at(0, 0, 0), v3(1.4f, 2.4f, 0), 0.5f, v3(-1, 0, 0), 100.0f, &h), &h, ex - e, 1, 2, 0,
                     e / 0.5, ey / 0.5, 0);
    /* passing the edge outside its capsule (0.64 > 0.5 from it): a miss */
    cr_assert(!sweep(&b, at(0, 0, 0), v3(1.45f, 2.45f, 10), 0.5f, v3(0, 0, -1), 100.0f, &h));
    /* down along the edge from the corner region: the corner's ball */
    double cz = sqrt(0.25 - 0.09 * 2);
    assert_near_hit(sweep(&b, at(0, 0, 0), v3(1.3f, 2.3f, 3.4f), 0.5f, v3(0, 0, -1), 100.0f, &h), &h,
                    3.4f - 3.0 - cz, 1, 2, 3, 0.6, 0.6, cz / 0.5, 1e-6);
}

Test(cast, sweep_box_edge_reached_through_a_corner_region)
{
    /* enters the grown box beyond the corner (1, 2, 3), passes the corner's
     * ball (its centre stays farther than 0.5 from it) and meets the edge
     * x = 1, y = 2 below the corner, where y - 2 = sqrt(0.5^2 - (x - 1)^2) */
    vx_collider b = vx_collider_box(v3(1, 2, 3));
    vx_vec3 o = v3(1.42f, 2.65f, 3.8f), d = unit(0, -0.2f, -0.5f);
    double a = 1.42f - 1.0, e = sqrt(0.25 - a * a), t = (2.0 + e - 2.65f) / d.y;
    vx_cast_hit h;
    assert_exact_hit(sweep(&b, at(0, 0, 0), o, 0.5f, d, 100.0f, &h), &h, t, 1, 2, 3.8f + t * d.z, a / 0.5, e / 0.5,
                     0);
    cr_assert_lt(h.point.z, 2.9f, "below the corner");
    /* the same from inside the grown box, in its corner region */
    o = v3(1.42f, 2.45f, 3.3f);
    t = (2.0 + e - 2.45f) / d.y;
    assert_exact_hit(sweep(&b, at(0, 0, 0), o, 0.5f, d, 100.0f, &h), &h, t, 1, 2, 3.3f + t * d.z, a / 0.5, e / 0.5,
                     0);
}

Test(cast, sweep_box_rotated_edge)
{
    /* a unit cube turned 45 degrees about z shows an edge to -x at x = -sqrt 2 */
    vx_collider b = vx_collider_box(v3(1, 1, 1));
    vx_cast_hit h;
    assert_near_hit(sweep(&b, tf(v3(0, 0, 0), axis_angle(0, 0, 1, (float)(PI / 4))), v3(-5, 0, 0.3f), 0.5f,
                          v3(1, 0, 0), 100.0f, &h),
                    &h, 5 - sqrt(2.0) - 0.5, -sqrt(2.0), 0, 0.3, -1, 0, 0, 2e-6);
}

Test(cast, sweep_starting_overlapping_or_touching_hits_at_0)
{
    vx_collider s = vx_collider_sphere(1.0f), b = vx_collider_box(v3(1, 2, 3)), c = vx_collider_capsule(0.5f, 1.0f);
    vx_vec3 dirs[3] = {v3(1, 0, 0), v3(-1, 0, 0), unit(0.3f, -1, 0.2f)};
    vx_cast_hit h;
    for (int k = 0; k < 3; k++) {
        vx_vec3 d = dirs[k];
        /* touching: 1.5 = 1 + 0.5; 0.625^2 = 0.375^2 + 0.5^2 from the edge; 1.75 = 1 + 0.5 + 0.25 */
        assert_inside_hit(sweep(&s, at(0, 0, 0), v3(-1.5f, 0, 0), 0.5f, d, 1.0f, &h), &h, v3(-1.5f, 0, 0), d);
        assert_inside_hit(sweep(&b, at(0, 0, 0), v3(1.375f, 2.5f, 0), 0.625f, d, 1.0f, &h), &h, v3(1.375f, 2.5f, 0),
                          d);
        assert_inside_hit(sweep(&b, at(0, 0, 0), v3(1.5f, 0, 0), 0.5f, d, 1.0f, &h), &h, v3(1.5f, 0, 0), d);
        assert_inside_hit(sweep(&c, at(0, 0, 0), v3(0, 1.75f, 0), 0.25f, d, 1.0f, &h), &h, v3(0, 1.75f, 0), d);
        /* overlapping */
        assert_inside_hit(sweep(&s, at(0, 0, 0), v3(-1.4f, 0, 0), 0.5f, d, 1.0f, &h), &h, v3(-1.4f, 0, 0), d);
        assert_inside_hit(sweep(&b, at(0, 0, 0), v3(1.3f, 2.3f, 3.3f), 0.6f, d, 1.0f, &h), &h, v3(1.3f, 2.3f, 3.3f),
                          d);
        assert_inside_hit(sweep(&c, at(0, 0, 0), v3(0.6f, -0.9f, 0), 0.25f, d, 1.0f, &h), &h, v3(0.6f, -0.9f, 0), d);
    }
    /* a float farther than touching, moving away: clear */
    cr_assert(!sweep(&s, at(0, 0, 0), v3(nextafterf(-1.5f, -2.0f), 0, 0), 0.5f, v3(-1, 0, 0), 1.0f, &h));
    cr_assert(!sweep(&b, at(0, 0, 0), v3(nextafterf(1.5f, 2.0f), 0, 0), 0.5f, v3(1, 0, 0), 1.0f, &h));
}

Test(cast, sweep_max_distance_just_short_and_just_long)
{
    /* the sphere of radius 1 touches each shape after 3 */
    vx_collider shapes[3] = {vx_collider_sphere(1.0f), vx_collider_box(v3(1, 1, 1)), vx_collider_capsule(1.0f, 2.0f)};
    vx_cast_hit h;
    for (int i = 0; i < 3; i++) {
        cr_assert(!sweep(&shapes[i], at(5, 0, 0), v3(0, 0, 0), 1.0f, v3(1, 0, 0), nextafterf(3.0f, 0.0f), &h));
        assert_exact_hit(sweep(&shapes[i], at(5, 0, 0), v3(0, 0, 0), 1.0f, v3(1, 0, 0), 3.0f, &h), &h, 3, 4, 0, 0,
                         -1, 0, 0);
        assert_exact_hit(sweep(&shapes[i], at(5, 0, 0), v3(0, 0, 0), 1.0f, v3(1, 0, 0), nextafterf(3.0f, 4.0f), &h),
                         &h, 3, 4, 0, 0, -1, 0, 0);
    }
}

Test(cast, sweep_of_radius_0_is_the_ray_cast)
{
    vx_test_rng rng = {0x7a1u};
    for (int i = 0; i < 1500; i++) {
        random_cast rc = random_cast_of(&rng, (vx_shape_type)(i % 3));
        vx_cast_hit a, b;
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        cr_assert_eq(sweep(&rc.shape, rc.pose, rc.origin, 0.0f, rc.dir, 100.0f, &a),
                     ray(&rc.shape, rc.pose, rc.origin, rc.dir, 100.0f, &b));
        cr_assert(memcmp(&a, &b, sizeof a) == 0);
    }
}

Test(cast, sweep_sphere_random_brute_force) { random_sweeps(VX_SHAPE_SPHERE, 0x4567u, 4000); }
Test(cast, sweep_box_random_brute_force) { random_sweeps(VX_SHAPE_BOX, 0x5678u, 4000); }
Test(cast, sweep_capsule_random_brute_force) { random_sweeps(VX_SHAPE_CAPSULE, 0x6789u, 4000); }
