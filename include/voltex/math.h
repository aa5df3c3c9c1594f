/* 3D math on 32-bit floats: vectors, quaternions, 3x3 matrices, axis-aligned
 * boxes. Everything is small and inline; there is no hidden state. */
#ifndef VOLTEX_MATH_H
#define VOLTEX_MATH_H

#include <math.h>
#include <stdbool.h>

typedef struct { float x, y, z; } vx_vec3;
typedef struct { float x, y, z, w; } vx_quat;          /* unit quaternion, w is the scalar */
typedef struct { float m[3][3]; } vx_mat3;              /* m[row][col] */
typedef struct { vx_vec3 min, max; } vx_aabb;

/* ---- vec3 ---- */
static inline vx_vec3 vx_vec3_make(float x, float y, float z) { vx_vec3 v = {x, y, z}; return v; }
static inline vx_vec3 vx_vec3_zero(void) { return vx_vec3_make(0.0f, 0.0f, 0.0f); }
static inline vx_vec3 vx_vec3_add(vx_vec3 a, vx_vec3 b) { return vx_vec3_make(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline vx_vec3 vx_vec3_sub(vx_vec3 a, vx_vec3 b) { return vx_vec3_make(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline vx_vec3 vx_vec3_scale(vx_vec3 a, float s) { return vx_vec3_make(a.x * s, a.y * s, a.z * s); }
/* 0 - a rather than -a: a zero component stays +0, so flipped normals do not
 * print as "-0" in traces. */
static inline vx_vec3 vx_vec3_neg(vx_vec3 a) { return vx_vec3_make(0.0f - a.x, 0.0f - a.y, 0.0f - a.z); }
static inline vx_vec3 vx_vec3_mul(vx_vec3 a, vx_vec3 b) { return vx_vec3_make(a.x * b.x, a.y * b.y, a.z * b.z); }
static inline float vx_vec3_dot(vx_vec3 a, vx_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline vx_vec3 vx_vec3_cross(vx_vec3 a, vx_vec3 b)
{
    return vx_vec3_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline float vx_vec3_length_sq(vx_vec3 a) { return vx_vec3_dot(a, a); }
static inline float vx_vec3_length(vx_vec3 a) { return sqrtf(vx_vec3_dot(a, a)); }
/* Unit vector along a; the zero vector stays zero. */
static inline vx_vec3 vx_vec3_normalize(vx_vec3 a)
{
    float len = vx_vec3_length(a);
    return len > 0.0f ? vx_vec3_scale(a, 1.0f / len) : vx_vec3_zero();
}
static inline vx_vec3 vx_vec3_min(vx_vec3 a, vx_vec3 b)
{
    return vx_vec3_make(fminf(a.x, b.x), fminf(a.y, b.y), fminf(a.z, b.z));
}
static inline vx_vec3 vx_vec3_max(vx_vec3 a, vx_vec3 b)
{
    return vx_vec3_make(fmaxf(a.x, b.x), fmaxf(a.y, b.y), fmaxf(a.z, b.z));
}
static inline vx_vec3 vx_vec3_abs(vx_vec3 a) { return vx_vec3_make(fabsf(a.x), fabsf(a.y), fabsf(a.z)); }
/* Component i (0 = x, 1 = y, 2 = z). */
static inline float vx_vec3_get(vx_vec3 a, int i) { return i == 0 ? a.x : (i == 1 ? a.y : a.z); }
static inline void vx_vec3_set(vx_vec3 *a, int i, float v)
{
    if (i == 0) a->x = v; else if (i == 1) a->y = v; else a->z = v;
}
static inline bool vx_vec3_is_finite(vx_vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }

/* ---- quaternion ---- */
static inline vx_quat vx_quat_make(float x, float y, float z, float w) { vx_quat q = {x, y, z, w}; return q; }
static inline vx_quat vx_quat_identity(void) { return vx_quat_make(0.0f, 0.0f, 0.0f, 1.0f); }
static inline vx_quat vx_quat_mul(vx_quat a, vx_quat b)
{
    return vx_quat_make(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                        a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                        a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                        a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}
static inline vx_quat vx_quat_conjugate(vx_quat q) { return vx_quat_make(-q.x, -q.y, -q.z, q.w); }
static inline float vx_quat_length(vx_quat q) { return sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w); }
/* Unit quaternion along q; a zero quaternion becomes the identity. */
static inline vx_quat vx_quat_normalize(vx_quat q)
{
    float len = vx_quat_length(q);
    if (!(len > 0.0f)) return vx_quat_identity();
    float inv = 1.0f / len;
    return vx_quat_make(q.x * inv, q.y * inv, q.z * inv, q.w * inv);
}
/* Rotation by angle (radians) about a unit axis. */
static inline vx_quat vx_quat_from_axis_angle(vx_vec3 axis, float angle)
{
    float s = sinf(0.5f * angle);
    return vx_quat_make(axis.x * s, axis.y * s, axis.z * s, cosf(0.5f * angle));
}
/* v rotated by the unit quaternion q. */
static inline vx_vec3 vx_quat_rotate(vx_quat q, vx_vec3 v)
{
    vx_vec3 u = vx_vec3_make(q.x, q.y, q.z);
    vx_vec3 t = vx_vec3_scale(vx_vec3_cross(u, v), 2.0f);
    return vx_vec3_add(vx_vec3_add(v, vx_vec3_scale(t, q.w)), vx_vec3_cross(u, t));
}
static inline bool vx_quat_is_finite(vx_quat q)
{
    return isfinite(q.x) && isfinite(q.y) && isfinite(q.z) && isfinite(q.w);
}

/* ---- mat3 ---- */
static inline vx_mat3 vx_mat3_identity(void)
{
    vx_mat3 r = {{{1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}, {0.0f, 0.0f, 1.0f}}};
    return r;
}
static inline vx_mat3 vx_mat3_diagonal(vx_vec3 d)
{
    vx_mat3 r = {{{d.x, 0.0f, 0.0f}, {0.0f, d.y, 0.0f}, {0.0f, 0.0f, d.z}}};
    return r;
}
static inline vx_vec3 vx_mat3_mul_vec3(const vx_mat3 *a, vx_vec3 v)
{
    return vx_vec3_make(a->m[0][0] * v.x + a->m[0][1] * v.y + a->m[0][2] * v.z,
                        a->m[1][0] * v.x + a->m[1][1] * v.y + a->m[1][2] * v.z,
                        a->m[2][0] * v.x + a->m[2][1] * v.y + a->m[2][2] * v.z);
}
static inline vx_mat3 vx_mat3_mul(const vx_mat3 *a, const vx_mat3 *b)
{
    vx_mat3 r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r.m[i][j] = a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] + a->m[i][2] * b->m[2][j];
    return r;
}
static inline vx_mat3 vx_mat3_transpose(const vx_mat3 *a)
{
    vx_mat3 r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) r.m[i][j] = a->m[j][i];
    return r;
}
/* Rotation matrix of the unit quaternion q. */
static inline vx_mat3 vx_mat3_from_quat(vx_quat q)
{
    float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    vx_mat3 r = {{{1.0f - 2.0f * (yy + zz), 2.0f * (xy - wz), 2.0f * (xz + wy)},
                  {2.0f * (xy + wz), 1.0f - 2.0f * (xx + zz), 2.0f * (yz - wx)},
                  {2.0f * (xz - wy), 2.0f * (yz + wx), 1.0f - 2.0f * (xx + yy)}}};
    return r;
}

/* ---- aabb ---- */
static inline vx_aabb vx_aabb_new(vx_vec3 min, vx_vec3 max) { vx_aabb b = {min, max}; return b; }
static inline vx_aabb vx_aabb_from_center_half_extents(vx_vec3 center, vx_vec3 half_extents)
{
    return vx_aabb_new(vx_vec3_sub(center, half_extents), vx_vec3_add(center, half_extents));
}
static inline bool vx_aabb_is_finite(vx_aabb b) { return vx_vec3_is_finite(b.min) && vx_vec3_is_finite(b.max); }
static inline vx_vec3 vx_aabb_center(vx_aabb b) { return vx_vec3_scale(vx_vec3_add(b.min, b.max), 0.5f); }
static inline vx_vec3 vx_aabb_half_extents(vx_aabb b) { return vx_vec3_scale(vx_vec3_sub(b.max, b.min), 0.5f); }
/* Inclusive: a point on the boundary is contained. */
static inline bool vx_aabb_contains_point(vx_aabb b, vx_vec3 p)
{
    return p.x >= b.min.x && p.x <= b.max.x && p.y >= b.min.y && p.y <= b.max.y && p.z >= b.min.z &&
           p.z <= b.max.z;
}
/* Inclusive: boxes that only touch intersect (the broad phase must not miss a
 * touching pair; the narrow phase decides whether it is a contact). */
static inline bool vx_aabb_intersects(vx_aabb a, vx_aabb b)
{
    return a.min.x <= b.max.x && a.max.x >= b.min.x && a.min.y <= b.max.y && a.max.y >= b.min.y &&
           a.min.z <= b.max.z && a.max.z >= b.min.z;
}
static inline vx_aabb vx_aabb_merged(vx_aabb a, vx_aabb b)
{
    return vx_aabb_new(vx_vec3_min(a.min, b.min), vx_vec3_max(a.max, b.max));
}
static inline float vx_aabb_surface_area(vx_aabb b)
{
    vx_vec3 d = vx_vec3_sub(b.max, b.min);
    return 2.0f * (d.x * d.y + d.y * d.z + d.z * d.x);
}

#endif
