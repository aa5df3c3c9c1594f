/* A hull's principal frame (hull.h): the frame a body with this shape is
 * simulated in, so that its inertia is diagonal and its centre of mass at
 * the origin (its axes from principal.h). */
#include <math.h>

#include "common/assert.h"
#include "physics/body/hull.h"
#include "physics/body/principal.h"

void vx_hull_update_bounds(vx_hull *h)
{
    VX_ASSERT(h->vertex_count >= 4);
    vx_vec3 lo = h->vertices[0], hi = h->vertices[0];
    float outer = 0.0f;
    for (int i = 0; i < h->vertex_count; i++) {
        lo = vx_vec3_min(lo, h->vertices[i]);
        hi = vx_vec3_max(hi, h->vertices[i]);
        outer = fmaxf(outer, vx_vec3_length(h->vertices[i]));
    }
    h->bounds = vx_aabb_new(lo, hi);
    h->outer_radius = outer;
}

/* p in the frame (c, r): r^T (p - c), in double. */
static void to_frame(double r[3][3], const double c[3], const double p[3], double out[3])
{
    double d[3] = {p[0] - c[0], p[1] - c[1], p[2] - c[2]};
    for (int i = 0; i < 3; i++) out[i] = r[0][i] * d[0] + r[1][i] * d[1] + r[2][i] * d[2];
}

void vx_hull_to_principal(vx_hull *h)
{
    VX_ASSERT(h->frame.rotation.w == 1.0f && h->owner == NULL);
    double a[3][3], r[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) a[i][j] = (double)h->inertia.m[i][j];
    /* the data turned by exactly the frame's rotation (so frame * data
     * gives back the input within rounding) */
    vx_quat q = vx_principal_axes((const double(*)[3])a, r);
    double c[3] = {h->centroid.x, h->centroid.y, h->centroid.z};

    for (int i = 0; i < h->vertex_count; i++) {
        double p[3] = {h->vertices[i].x, h->vertices[i].y, h->vertices[i].z}, o[3];
        to_frame(r, c, p, o);
        h->vertices[i] = vx_vec3_make((float)o[0], (float)o[1], (float)o[2]);
    }
    double zero[3] = {0.0, 0.0, 0.0};
    double inner = INFINITY;
    for (int f = 0; f < h->face_count; f++) {
        vx_hull_face *face = &h->faces[f];
        double n[3] = {face->normal.x, face->normal.y, face->normal.z}, m[3];
        to_frame(r, zero, n, m);
        double len = sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
        for (int k = 0; k < 3; k++) m[k] /= len;
        /* refit to the rounded vertices: the mean over the face's corners */
        double offset = 0.0;
        int e = face->first_edge;
        for (int k = 0; k < face->edge_count; k++) {
            vx_vec3 v = h->vertices[h->edges[e].origin];
            offset += m[0] * v.x + m[1] * v.y + m[2] * v.z;
            e = h->edges[e].next;
        }
        offset /= face->edge_count;
        face->normal = vx_vec3_make((float)m[0], (float)m[1], (float)m[2]);
        face->offset = (float)offset;
        if (offset < inner) inner = offset;
    }
    /* the inertia in the frame: r^T I r, diagonal up to rounding */
    vx_mat3 diag = vx_mat3_identity();
    for (int k = 0; k < 3; k++) {
        double s = 0.0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) s += r[i][k] * (double)h->inertia.m[i][j] * r[j][k];
        diag.m[k][k] = (float)s;
    }
    h->inertia = diag;
    h->centroid = vx_vec3_zero();
    h->inner_radius = (float)inner;
    h->frame.position = vx_vec3_make((float)c[0], (float)c[1], (float)c[2]);
    h->frame.rotation = q;
    vx_hull_update_bounds(h);
}
