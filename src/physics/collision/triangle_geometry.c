/* A mesh's triangle in double and its exact distances (triangle_geometry.h). */
#include "physics/collision/triangle_geometry.h"

#include <math.h>
#include <stdbool.h>

void vx_tri_load(const vx_mesh *mesh, uint32_t t, vx_dtriangle *out)
{
    vx_mesh_triangle tri;
    vx_mesh_get_triangle(mesh, t, &tri);
    for (int k = 0; k < 3; k++) {
        out->v[k][0] = tri.v[k].x;
        out->v[k][1] = tri.v[k].y;
        out->v[k][2] = tri.v[k].z;
    }
    double e1[3], e2[3];
    vx_tri_sub(out->v[1], out->v[0], e1);
    vx_tri_sub(out->v[2], out->v[0], e2);
    vx_tri_cross(e1, e2, out->n);
    double inv = 1.0 / sqrt(vx_tri_dot(out->n, out->n)); /* never degenerate (mesh.h) */
    for (int i = 0; i < 3; i++) out->n[i] *= inv;
}

/* The closest point to p by the region of the nearest feature, in
 * barycentric tests (Ericson, Real-Time Collision Detection 5.1.5). */
static void closest_point(const vx_dtriangle *tr, const double p[3], double q[3])
{
    const double *a = tr->v[0], *b = tr->v[1], *c = tr->v[2];
    double ab[3], ac[3], ap[3], bp[3], cp[3];
    vx_tri_sub(b, a, ab);
    vx_tri_sub(c, a, ac);
    vx_tri_sub(p, a, ap);
    vx_tri_sub(p, b, bp);
    vx_tri_sub(p, c, cp);
    double d1 = vx_tri_dot(ab, ap), d2 = vx_tri_dot(ac, ap);
    double d3 = vx_tri_dot(ab, bp), d4 = vx_tri_dot(ac, bp);
    double d5 = vx_tri_dot(ab, cp), d6 = vx_tri_dot(ac, cp);
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
}

double vx_tri_distance_sq(const vx_dtriangle *tr, const double p[3])
{
    double q[3], pq[3];
    closest_point(tr, p, q);
    vx_tri_sub(p, q, pq);
    return vx_tri_dot(pq, pq);
}

/* The squared distance between segments p0-p1 and q0-q1 (Ericson 5.1.9). */
static double segments_distance_sq(const double p0[3], const double p1[3], const double q0[3], const double q1[3])
{
    double d1[3], d2[3], r[3];
    vx_tri_sub(p1, p0, d1);
    vx_tri_sub(q1, q0, d2);
    vx_tri_sub(p0, q0, r);
    double a = vx_tri_dot(d1, d1), e = vx_tri_dot(d2, d2), f = vx_tri_dot(d2, r);
    double s = 0.0, t = 0.0;
    if (a <= 0.0 && e <= 0.0) {
        s = t = 0.0;
    } else if (a <= 0.0) {
        t = fmin(fmax(f / e, 0.0), 1.0);
    } else {
        double c = vx_tri_dot(d1, r);
        if (e <= 0.0) {
            s = fmin(fmax(-c / a, 0.0), 1.0);
        } else {
            double b = vx_tri_dot(d1, d2), denom = a * e - b * b;
            s = denom > 0.0 ? fmin(fmax((b * f - c * e) / denom, 0.0), 1.0) : 0.0;
            t = (b * s + f) / e;
            if (t < 0.0) {
                t = 0.0;
                s = fmin(fmax(-c / a, 0.0), 1.0);
            } else if (t > 1.0) {
                t = 1.0;
                s = fmin(fmax((b - c) / a, 0.0), 1.0);
            }
        }
    }
    double cp[3];
    for (int i = 0; i < 3; i++) cp[i] = (p0[i] + s * d1[i]) - (q0[i] + t * d2[i]);
    return vx_tri_dot(cp, cp);
}

double vx_tri_segment_distance_sq(const vx_dtriangle *tr, const double p0[3], const double p1[3])
{
    /* crossing: the ends on either side of the plane, the crossing within the corners */
    double h0[3], h1[3];
    vx_tri_sub(p0, tr->v[0], h0);
    vx_tri_sub(p1, tr->v[0], h1);
    double s0 = vx_tri_dot(tr->n, h0), s1 = vx_tri_dot(tr->n, h1);
    if (s0 != s1 && ((s0 <= 0.0 && s1 >= 0.0) || (s0 >= 0.0 && s1 <= 0.0))) {
        double u = s0 / (s0 - s1), x[3];
        for (int i = 0; i < 3; i++) x[i] = p0[i] + u * (p1[i] - p0[i]);
        bool inside = true;
        for (int k = 0; k < 3 && inside; k++) {
            double e[3], w[3], c[3];
            vx_tri_sub(tr->v[(k + 1) % 3], tr->v[k], e);
            vx_tri_sub(x, tr->v[k], w);
            vx_tri_cross(e, w, c);
            inside = vx_tri_dot(c, tr->n) >= 0.0;
        }
        if (inside) return 0.0;
    }
    double best = fmin(vx_tri_distance_sq(tr, p0), vx_tri_distance_sq(tr, p1));
    for (int k = 0; k < 3; k++) best = fmin(best, segments_distance_sq(tr->v[k], tr->v[(k + 1) % 3], p0, p1));
    return best;
}
