/* Ray casts and sphere casts against meshes and heightfields (cast.h), with
 * the conventions of the other shapes (cast.c): in double in the mesh's
 * frame, rounded once at the end.
 *
 * A triangle is a surface: a ray meets it where it crosses its plane within
 * its corners (the plane at the ray's parameter, then barycentric
 * coordinates, the edges included to a relative 1e-12 so that a ray
 * through a shared edge meets one of its triangles whatever the rounding).
 * A sphere cast of radius r is a ray cast of the centre against the
 * triangle grown by r: the two faces pushed out by r over the triangle, the
 * capsules around the edges, the balls around the corners (Ericson,
 * Real-Time Collision Detection 5.5.7, as cast_hull.c grows a hull); the
 * earliest entry wins. A centre that starts within r of the triangle (a ray
 * that starts on it) hits at distance 0. The mesh's tree gives the
 * triangles near the cast, nearer ones first; each later one is cut off at
 * the nearest hit so far. */
#include <math.h>

#include "physics/body/mesh.h"
#include "physics/collision/cast.h"
#include "physics/collision/cast_internal.h"

/* A relative slack of barycentric coordinates: points this close outside
 * an edge are on it (a hit through a shared edge is never lost between the
 * two triangles). */
#define CAST_EDGE_SLACK 1e-12

typedef struct {
    double v[3][3];
    double n[3]; /* unit normal */
} dtriangle;

static void sub3(const double a[3], const double b[3], double out[3])
{
    for (int i = 0; i < 3; i++) out[i] = a[i] - b[i];
}

static void cross3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static void load_triangle(const vx_mesh *mesh, uint32_t t, dtriangle *out)
{
    vx_mesh_triangle tri;
    vx_mesh_get_triangle(mesh, t, &tri);
    for (int k = 0; k < 3; k++) {
        out->v[k][0] = tri.v[k].x;
        out->v[k][1] = tri.v[k].y;
        out->v[k][2] = tri.v[k].z;
    }
    double e1[3], e2[3];
    sub3(out->v[1], out->v[0], e1);
    sub3(out->v[2], out->v[0], e2);
    cross3(e1, e2, out->n);
    double inv = 1.0 / sqrt(vx_cast_dot3(out->n, out->n)); /* never degenerate (mesh.h) */
    for (int i = 0; i < 3; i++) out->n[i] *= inv;
}

/* The squared distance from p to the triangle (Ericson 5.1.5: the region
 * of the closest feature by barycentric tests). */
static double distance_sq(const dtriangle *tr, const double p[3])
{
    const double *a = tr->v[0], *b = tr->v[1], *c = tr->v[2];
    double ab[3], ac[3], ap[3], q[3];
    sub3(b, a, ab);
    sub3(c, a, ac);
    sub3(p, a, ap);
    double d1 = vx_cast_dot3(ab, ap), d2 = vx_cast_dot3(ac, ap);
    double bp[3], cp[3];
    sub3(p, b, bp);
    sub3(p, c, cp);
    double d3 = vx_cast_dot3(ab, bp), d4 = vx_cast_dot3(ac, bp);
    double d5 = vx_cast_dot3(ab, cp), d6 = vx_cast_dot3(ac, cp);
    double va = d3 * d6 - d5 * d4, vb = d5 * d2 - d1 * d6, vc = d1 * d4 - d3 * d2;
    if (d1 <= 0.0 && d2 <= 0.0) {
        for (int i = 0; i < 3; i++) q[i] = a[i];
    } else if (d3 >= 0.0 && d4 <= d3) {
        for (int i = 0; i < 3; i++) q[i] = b[i];
    } else if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
        double s = d1 / (d1 - d3);
        for (int i = 0; i < 3; i++) q[i] = a[i] + s * ab[i];
    } else if (d6 >= 0.0 && d5 <= d6) {
        for (int i = 0; i < 3; i++) q[i] = c[i];
    } else if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
        double s = d2 / (d2 - d6);
        for (int i = 0; i < 3; i++) q[i] = a[i] + s * ac[i];
    } else if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
        double s = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        for (int i = 0; i < 3; i++) q[i] = b[i] + s * (c[i] - b[i]);
    } else {
        double inv = 1.0 / (va + vb + vc), v = vb * inv, w = vc * inv;
        for (int i = 0; i < 3; i++) q[i] = a[i] + v * ab[i] + w * ac[i];
    }
    double pq[3];
    sub3(p, q, pq);
    return vx_cast_dot3(pq, pq);
}

/* Whether p, in the triangle's plane, is within its corners (the edges
 * included, to the slack). */
static bool over_triangle(const dtriangle *tr, const double p[3])
{
    for (int k = 0; k < 3; k++) {
        const double *a = tr->v[k], *b = tr->v[(k + 1) % 3];
        double e[3], ap[3], side[3];
        sub3(b, a, e);
        sub3(p, a, ap);
        cross3(e, ap, side);
        double s = vx_cast_dot3(side, tr->n); /* > 0 on the inner side */
        double scale = vx_cast_dot3(e, e) + vx_cast_dot3(ap, ap);
        if (s < -CAST_EDGE_SLACK * scale) return false;
    }
    return true;
}

/* The cast of a sphere of radius r >= 0 (a ray for 0) against one triangle. */
static vx_cast_result cast_triangle(const dtriangle *tr, const double o[3], const double d[3], double r, double *t,
                                    double n[3])
{
    if (distance_sq(tr, o) <= r * r) return VX_CAST_INSIDE;
    bool found = false;
    double ov[3];
    sub3(o, tr->v[0], ov);
    double height = vx_cast_dot3(tr->n, ov), speed = vx_cast_dot3(tr->n, d);
    /* the face on the origin's side, pushed out by r */
    double side = height > 0.0 ? 1.0 : -1.0;
    if (fabs(height) > r && speed * side < 0.0) {
        double tf = (fabs(height) - r) / (-speed * side);
        double p[3];
        for (int i = 0; i < 3; i++) p[i] = o[i] + tf * d[i] - side * r * tr->n[i];
        if (over_triangle(tr, p)) {
            *t = tf;
            for (int i = 0; i < 3; i++) n[i] = side * tr->n[i];
            found = true;
        }
    }
    if (r == 0.0 || found) return found ? VX_CAST_HIT : VX_CAST_MISS;
    for (int k = 0; k < 3; k++) {
        double te, ne[3];
        if (vx_cast_cylinder_entry(o, d, tr->v[k], tr->v[(k + 1) % 3], r, &te, ne) && (!found || te < *t)) {
            *t = te;
            for (int i = 0; i < 3; i++) n[i] = ne[i];
            found = true;
        }
    }
    for (int k = 0; k < 3; k++) {
        double m[3], te;
        sub3(o, tr->v[k], m);
        if (vx_cast_ball_entry(m, d, r, &te) && (!found || te < *t)) {
            *t = te;
            for (int i = 0; i < 3; i++) n[i] = m[i] + te * d[i];
            found = true;
        }
    }
    return found ? VX_CAST_HIT : VX_CAST_MISS;
}

typedef struct {
    const vx_mesh *mesh;
    const double *o, *d;
    double r;
    vx_cast_result result;
    double t, n[3];
    uint32_t triangle;
} mesh_cast;

static double visit_triangle(void *context, uint32_t t, double max_t)
{
    mesh_cast *c = context;
    dtriangle tr;
    load_triangle(c->mesh, t, &tr);
    double tt = 0.0, n[3] = {0.0, 0.0, 0.0};
    vx_cast_result r = cast_triangle(&tr, c->o, c->d, c->r, &tt, n);
    if (r == VX_CAST_INSIDE) {
        c->result = r;
        return -1.0; /* at distance 0: nothing comes before it */
    }
    if (r != VX_CAST_HIT || tt > max_t) return max_t;
    bool better = c->result == VX_CAST_MISS || tt < c->t || (tt == c->t && t < c->triangle);
    if (better) {
        c->result = r;
        c->t = tt;
        c->triangle = t;
        for (int i = 0; i < 3; i++) c->n[i] = n[i];
    }
    return c->t;
}

static bool cast_mesh(const vx_mesh *mesh, const vx_transform *pose, vx_vec3 origin, double r, vx_vec3 direction,
                      float max_distance, vx_cast_hit *hit)
{
    vx_cast_local local;
    if (!vx_cast_begin(pose, true, origin, direction, max_distance, &local)) return false;
    mesh_cast c = {mesh, local.o, local.d, r, VX_CAST_MISS, 0.0, {0.0, 0.0, 0.0}, 0u};
    vx_mesh_ray_query(mesh, local.o, local.d, (double)max_distance, (float)r, visit_triangle, &c);
    return vx_cast_end(&local, c.result, c.t, c.n, r, origin, direction, max_distance, hit);
}

bool vx_ray_cast_mesh(const vx_mesh *mesh, const vx_transform *pose, vx_vec3 origin, vx_vec3 direction,
                      float max_distance, vx_cast_hit *hit)
{
    return cast_mesh(mesh, pose, origin, 0.0, direction, max_distance, hit);
}

bool vx_sphere_cast_mesh(const vx_mesh *mesh, const vx_transform *pose, vx_vec3 origin, float radius,
                         vx_vec3 direction, float max_distance, vx_cast_hit *hit)
{
    if (!(radius >= 0.0f)) return false;
    return cast_mesh(mesh, pose, origin, (double)radius, direction, max_distance, hit);
}
