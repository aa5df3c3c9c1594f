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
#include "physics/collision/triangle_geometry.h"

/* A relative slack of barycentric coordinates: points this close outside
 * an edge are on it (a hit through a shared edge is never lost between the
 * two triangles). */
#define CAST_EDGE_SLACK 1e-12

/* Whether p, in the triangle's plane, is within its corners (the edges
 * included, to the slack). */
static bool over_triangle(const vx_dtriangle *tr, const double p[3])
{
    for (int k = 0; k < 3; k++) {
        const double *a = tr->v[k], *b = tr->v[(k + 1) % 3];
        double e[3], ap[3], side[3];
        vx_tri_sub(b, a, e);
        vx_tri_sub(p, a, ap);
        vx_tri_cross(e, ap, side);
        double s = vx_cast_dot3(side, tr->n); /* > 0 on the inner side */
        double scale = vx_cast_dot3(e, e) + vx_cast_dot3(ap, ap);
        if (s < -CAST_EDGE_SLACK * scale) return false;
    }
    return true;
}

/* The cast of a sphere of radius r >= 0 (a ray for 0) against one triangle. */
static vx_cast_result cast_triangle(const vx_dtriangle *tr, const double o[3], const double d[3], double r, double *t,
                                    double n[3])
{
    if (vx_tri_distance_sq(tr, o) <= r * r) return VX_CAST_INSIDE;
    bool found = false;
    double ov[3];
    vx_tri_sub(o, tr->v[0], ov);
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
        vx_tri_sub(o, tr->v[k], m);
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
    vx_dtriangle tr;
    vx_tri_load(c->mesh, t, &tr);
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
