/* Hulls and random poses for the hull narrow-phase tests
 * (physics/collision/test_collide_hull.c, test_collide_hull_capsule.c). */
#ifndef VOLTEX_TEST_HULL_HELPERS_H
#define VOLTEX_TEST_HULL_HELPERS_H

#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "physics/body/hull.h"
#include "test_helpers.h"
#include "voltex/math.h"

/* A transform with this position and rotation, every other byte zero. */
static inline vx_transform vx_test_pose(vx_vec3 position, vx_quat rotation)
{
    vx_transform t;
    memset(&t, 0, sizeof t);
    t.position = position;
    t.rotation = rotation;
    return t;
}

/* The hull of n points (the test fails if it cannot be built). */
static inline vx_hull *vx_test_hull(const vx_vec3 *pts, size_t n)
{
    vx_hull *h = NULL;
    vx_error err;
    cr_assert_eq(vx_hull_build(pts, n, &h, &err), VX_OK, "build failed: %s", err.message);
    return h;
}

/* The hull of the 8 corners of a box of these half extents (corner i has
 * bit k set on the + side of axis k). */
static inline vx_hull *vx_test_box_hull(vx_vec3 half)
{
    vx_vec3 pts[8];
    for (int i = 0; i < 8; i++)
        pts[i] = vx_vec3_make(i & 1 ? half.x : -half.x, i & 2 ? half.y : -half.y, i & 4 ? half.z : -half.z);
    return vx_test_hull(pts, 8);
}

/* The hull of n points on an ellipsoid of these radii, jittered inwards (a
 * rock): unit directions of r, each point at 0.8 .. 1 of the radii. */
static inline vx_hull *vx_test_rock(vx_test_rng *r, int n, vx_vec3 radii)
{
    vx_vec3 pts[VX_HULL_MAX_POINTS];
    for (int k = 0; k < n; k++) {
        vx_vec3 u = vx_vec3_normalize(vx_test_rng_vec3(r, -1.0f, 1.0f));
        float s = vx_test_rng_range(r, 0.8f, 1.0f);
        pts[k] = vx_vec3_make(u.x * radii.x * s, u.y * radii.y * s, u.z * radii.z * s);
    }
    return vx_test_hull(pts, (size_t)n);
}

/* A random rotation: a quaternion of 4 components uniform in [-1, 1),
 * normalised (drawn in the order the compiler evaluates the arguments, as
 * the sequences the hull tests were measured with). */
static inline vx_quat vx_test_random_rotation(vx_test_rng *r)
{
    return vx_quat_normalize(vx_quat_make(vx_test_rng_range(r, -1, 1), vx_test_rng_range(r, -1, 1),
                                          vx_test_rng_range(r, -1, 1), vx_test_rng_range(r, -1, 1)));
}

/* A random unit vector: x, y, z uniform in [-1, 1), normalised. */
static inline vx_vec3 vx_test_random_unit(vx_test_rng *r)
{
    return vx_vec3_normalize(vx_test_rng_vec3(r, -1.0f, 1.0f));
}

/* One of the margins 0, 1 cm, 5 cm, 20 cm. */
static inline float vx_test_random_margin(vx_test_rng *r)
{
    static const float margins[4] = {0.0f, 0.01f, 0.05f, 0.2f};
    return margins[vx_test_rng_next(r) % 4u];
}

/* ---- hulls in the world in double, for brute-force answers ---- */

typedef struct {
    double x, y, z;
} d3;

static inline d3 d3_of(vx_vec3 v) { return (d3){v.x, v.y, v.z}; }
static inline d3 d3_sub(d3 a, d3 b) { return (d3){a.x - b.x, a.y - b.y, a.z - b.z}; }
static inline d3 d3_add(d3 a, d3 b) { return (d3){a.x + b.x, a.y + b.y, a.z + b.z}; }
static inline d3 d3_scale(d3 a, double s) { return (d3){a.x * s, a.y * s, a.z * s}; }
static inline double d3_dot(d3 a, d3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline d3 d3_cross(d3 a, d3 b)
{
    return (d3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
static inline double d3_len(d3 a) { return sqrt(d3_dot(a, a)); }

/* A hull's vertices and planes in the world, in double. */
typedef struct {
    const vx_hull *h;
    d3 v[VX_HULL_MAX_POINTS];
    d3 n[2 * VX_HULL_MAX_POINTS];
    double d[2 * VX_HULL_MAX_POINTS];
} whull;

static inline void whull_init(whull *w, const vx_hull *h, const vx_transform *t)
{
    w->h = h;
    vx_mat3 r = vx_mat3_from_quat(vx_quat_normalize(t->rotation));
    d3 p = d3_of(t->position);
    for (int i = 0; i < h->vertex_count; i++) {
        d3 l = d3_of(h->vertices[i]);
        w->v[i] = d3_add((d3){r.m[0][0] * l.x + r.m[0][1] * l.y + r.m[0][2] * l.z,
                              r.m[1][0] * l.x + r.m[1][1] * l.y + r.m[1][2] * l.z,
                              r.m[2][0] * l.x + r.m[2][1] * l.y + r.m[2][2] * l.z},
                         p);
    }
    for (int f = 0; f < h->face_count; f++) {
        d3 l = d3_of(h->faces[f].normal);
        w->n[f] = (d3){r.m[0][0] * l.x + r.m[0][1] * l.y + r.m[0][2] * l.z,
                       r.m[1][0] * l.x + r.m[1][1] * l.y + r.m[1][2] * l.z,
                       r.m[2][0] * l.x + r.m[2][1] * l.y + r.m[2][2] * l.z};
        w->d[f] = h->faces[f].offset + d3_dot(w->n[f], p);
    }
}

static inline double whull_excess(const whull *w, d3 p)
{
    double best = -DBL_MAX;
    for (int f = 0; f < w->h->face_count; f++) best = fmax(best, d3_dot(w->n[f], p) - w->d[f]);
    return best;
}

#endif
