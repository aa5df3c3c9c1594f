/* Small linear algebra of the joint rows (private to the physics module):
 * symmetric 3x3 and 2x2 blocks and the skew products of the arms. */
#ifndef VOLTEX_PHYSICS_JOINT_JOINT_MATH_H
#define VOLTEX_PHYSICS_JOINT_JOINT_MATH_H

#include <math.h>

#include "voltex/math.h"

static inline vx_mat3 vx_mat3_add(const vx_mat3 *a, const vx_mat3 *b)
{
    vx_mat3 r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) r.m[i][j] = a->m[i][j] + b->m[i][j];
    return r;
}

/* r^T I r for the skew matrix [r]x of the arm r: the inverse inertia I seen
 * through the arm, the angular part of a point row's effective mass. */
static inline vx_mat3 vx_joint_arm_mass(const vx_mat3 *inv_inertia, vx_vec3 r)
{
    vx_mat3 s = {{{0.0f, -r.z, r.y}, {r.z, 0.0f, -r.x}, {-r.y, r.x, 0.0f}}};
    vx_mat3 st = vx_mat3_transpose(&s);
    vx_mat3 is = vx_mat3_mul(inv_inertia, &s);
    return vx_mat3_mul(&st, &is);
}

/* The inverse of a symmetric 3x3 block (cofactors); zero when singular. */
static inline vx_mat3 vx_joint_invert3(const vx_mat3 *k)
{
    const float(*m)[3] = k->m;
    float c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1];
    float c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2];
    float c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0];
    float det = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02;
    vx_mat3 r;
    if (!(fabsf(det) > 0.0f)) {
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) r.m[i][j] = 0.0f;
        return r;
    }
    float d = 1.0f / det;
    r.m[0][0] = c00 * d;
    r.m[1][0] = c01 * d;
    r.m[2][0] = c02 * d;
    r.m[0][1] = (m[0][2] * m[2][1] - m[0][1] * m[2][2]) * d;
    r.m[1][1] = (m[0][0] * m[2][2] - m[0][2] * m[2][0]) * d;
    r.m[2][1] = (m[0][1] * m[2][0] - m[0][0] * m[2][1]) * d;
    r.m[0][2] = (m[0][1] * m[1][2] - m[0][2] * m[1][1]) * d;
    r.m[1][2] = (m[0][2] * m[1][0] - m[0][0] * m[1][2]) * d;
    r.m[2][2] = (m[0][0] * m[1][1] - m[0][1] * m[1][0]) * d;
    return r;
}

/* A 2x2 block [[a, b], [b, c]] and its inverse. */
typedef struct {
    float a, b, c;
} vx_joint_block2;

static inline vx_joint_block2 vx_joint_invert2(vx_joint_block2 k)
{
    float det = k.a * k.c - k.b * k.b;
    vx_joint_block2 r = {0.0f, 0.0f, 0.0f};
    if (!(fabsf(det) > 0.0f)) return r;
    float d = 1.0f / det;
    r.a = k.c * d;
    r.b = (0.0f - k.b) * d;
    r.c = k.a * d;
    return r;
}

/* The inverse of a point row block's K = (ma + mb) I + [ra]^T IA [ra] + [rb]^T IB [rb]. */
static inline vx_mat3 vx_joint_point_mass(float ima, float imb, const vx_mat3 *iia, const vx_mat3 *iib, vx_vec3 ra,
                                          vx_vec3 rb)
{
    vx_mat3 k = vx_mat3_diagonal(vx_vec3_make(ima + imb, ima + imb, ima + imb));
    vx_mat3 ka = vx_joint_arm_mass(iia, ra), kb = vx_joint_arm_mass(iib, rb);
    k = vx_mat3_add(&k, &ka);
    k = vx_mat3_add(&k, &kb);
    return vx_joint_invert3(&k);
}

/* K of one point row along n with arms (arm_a, rb). */
static inline float vx_joint_line_k(float ima, float imb, const vx_mat3 *iia, const vx_mat3 *iib, vx_vec3 n,
                                    vx_vec3 arm_a, vx_vec3 rb)
{
    vx_vec3 an = vx_vec3_cross(arm_a, n), bn = vx_vec3_cross(rb, n);
    return ima + imb + vx_vec3_dot(an, vx_mat3_mul_vec3(iia, an)) + vx_vec3_dot(bn, vx_mat3_mul_vec3(iib, bn));
}

/* 1 / k, 0 when k is not positive. */
static inline float vx_joint_inverse(float k) { return k > 0.0f ? 1.0f / k : 0.0f; }

/* Two unit vectors perpendicular to unit n and to each other (fixed rule). */
static inline void vx_joint_perpendiculars(vx_vec3 n, vx_vec3 *p1, vx_vec3 *p2)
{
    vx_vec3 t = fabsf(n.x) < 0.57735f ? vx_vec3_make(1.0f, 0.0f, 0.0f) : vx_vec3_make(0.0f, 1.0f, 0.0f);
    *p1 = vx_vec3_normalize(vx_vec3_cross(n, t));
    *p2 = vx_vec3_cross(n, *p1);
}

#endif
