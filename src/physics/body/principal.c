/* Principal axes by Jacobi rotations (principal.h). */
#include "physics/body/principal.h"

#include <math.h>
#include <stdbool.h>

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

vx_quat vx_principal_axes(const double inertia[3][3], double r[3][3])
{
    double a[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) a[i][j] = 0.5 * (inertia[i][j] + inertia[j][i]);
    jacobi3(a, r);
    orient_columns(r);
    vx_quat q = quat_of(r);
    vx_mat3 rf = vx_mat3_from_quat(q);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) r[i][j] = (double)rf.m[i][j];
    return q;
}
