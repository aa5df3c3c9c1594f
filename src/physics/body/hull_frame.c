/* A hull's principal frame (hull.h): the frame a body with this shape is
 * simulated in, so that its inertia is diagonal and its centre of mass at
 * the origin. The eigenvectors come from cyclic Jacobi rotations in double,
 * a fixed sequence of operations, so the same hull gives the same frame. */
#include <math.h>

#include "common/assert.h"
#include "physics/body/hull.h"

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

/* Off-diagonal terms this small next to the diagonal count as zero, so an
 * inertia that is diagonal up to rounding keeps its axes. */
#define JACOBI_REL_ZERO 1e-12
#define JACOBI_MAX_SWEEPS 32

/* a = V diag(a) V^T: on return a is diagonal and the columns of v are the
 * eigenvectors (a symmetric). */
static void jacobi3(double a[3][3], double v[3][3])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) v[i][j] = i == j ? 1.0 : 0.0;
    for (int sweep = 0; sweep < JACOBI_MAX_SWEEPS; sweep++) {
        bool rotated = false;
        for (int p = 0; p < 2; p++) {
            for (int q = p + 1; q < 3; q++) {
                double apq = a[p][q];
                if (fabs(apq) <= JACOBI_REL_ZERO * (fabs(a[p][p]) + fabs(a[q][q]))) {
                    a[p][q] = a[q][p] = 0.0;
                    continue;
                }
                rotated = true;
                /* the rotation in the (p, q) plane that zeroes a[p][q] */
                double theta = (a[q][q] - a[p][p]) / (2.0 * apq);
                double t = (theta >= 0.0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
                double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
                for (int k = 0; k < 3; k++) { /* a <- a J */
                    double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < 3; k++) { /* a <- J^T a */
                    double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
                a[p][q] = a[q][p] = 0.0;
                for (int k = 0; k < 3; k++) { /* v <- v J */
                    double vkp = v[k][p], vkq = v[k][q];
                    v[k][p] = c * vkp - s * vkq;
                    v[k][q] = s * vkp + c * vkq;
                }
            }
        }
        if (!rotated) return;
    }
}

/* Columns 0 and 1 turned to point along +x / +y as far as they can, column 2
 * their cross product: a right-handed frame, near the identity when the
 * axes are. */
static void orient_columns(double v[3][3])
{
    for (int c = 0; c < 2; c++)
        if (v[c][c] < 0.0)
            for (int k = 0; k < 3; k++) v[k][c] = -v[k][c];
    v[0][2] = v[1][0] * v[2][1] - v[2][0] * v[1][1];
    v[1][2] = v[2][0] * v[0][1] - v[0][0] * v[2][1];
    v[2][2] = v[0][0] * v[1][1] - v[1][0] * v[0][1];
}

/* The unit quaternion of the rotation matrix m (columns: the rotated axes). */
static vx_quat quat_of(double m[3][3])
{
    double tr = m[0][0] + m[1][1] + m[2][2], x, y, z, w;
    if (tr > 0.0) {
        double s = 2.0 * sqrt(tr + 1.0);
        w = 0.25 * s;
        x = (m[2][1] - m[1][2]) / s;
        y = (m[0][2] - m[2][0]) / s;
        z = (m[1][0] - m[0][1]) / s;
    } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
        double s = 2.0 * sqrt(1.0 + m[0][0] - m[1][1] - m[2][2]);
        w = (m[2][1] - m[1][2]) / s;
        x = 0.25 * s;
        y = (m[0][1] + m[1][0]) / s;
        z = (m[0][2] + m[2][0]) / s;
    } else if (m[1][1] > m[2][2]) {
        double s = 2.0 * sqrt(1.0 + m[1][1] - m[0][0] - m[2][2]);
        w = (m[0][2] - m[2][0]) / s;
        x = (m[0][1] + m[1][0]) / s;
        y = 0.25 * s;
        z = (m[1][2] + m[2][1]) / s;
    } else {
        double s = 2.0 * sqrt(1.0 + m[2][2] - m[0][0] - m[1][1]);
        w = (m[1][0] - m[0][1]) / s;
        x = (m[0][2] + m[2][0]) / s;
        y = (m[1][2] + m[2][1]) / s;
        z = 0.25 * s;
    }
    double n = sqrt(x * x + y * y + z * z + w * w);
    return vx_quat_make((float)(x / n), (float)(y / n), (float)(z / n), (float)(w / n));
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
        for (int j = 0; j < 3; j++) a[i][j] = 0.5 * ((double)h->inertia.m[i][j] + (double)h->inertia.m[j][i]);
    jacobi3(a, r);
    orient_columns(r);
    /* The frame's rotation as float, and the data turned by exactly that
     * rotation (so frame * data gives back the input within rounding). */
    vx_quat q = quat_of(r);
    vx_mat3 rf = vx_mat3_from_quat(q);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) r[i][j] = (double)rf.m[i][j];
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
