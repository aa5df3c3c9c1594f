/* Four floats in one register (private to the physics module): the lanes
 * x, y, z and a pad lane kept 0. With SSE2 (every x86-64) one instruction
 * per operation, otherwise plain C; both do the same IEEE single precision
 * operations lane by lane, so results are bit for bit the same. v4_dot3 adds
 * in the order of vx_vec3_dot: (x + y) + z. Loads and stores need 16-byte
 * aligned addresses. */
#ifndef VOLTEX_PHYSICS_SIMD4_H
#define VOLTEX_PHYSICS_SIMD4_H

#include "common/sse2.h"
#include "voltex/math.h"

#if VX_SSE2
#include <emmintrin.h>
#include <string.h>

typedef __m128 vx_v4;

static inline vx_v4 vx_v4_load(const float *p) { return _mm_load_ps(p); }
static inline void vx_v4_store(float *p, vx_v4 a) { _mm_store_ps(p, a); }
static inline vx_v4 vx_v4_add(vx_v4 a, vx_v4 b) { return _mm_add_ps(a, b); }
static inline vx_v4 vx_v4_sub(vx_v4 a, vx_v4 b) { return _mm_sub_ps(a, b); }
static inline vx_v4 vx_v4_mul(vx_v4 a, vx_v4 b) { return _mm_mul_ps(a, b); }
static inline vx_v4 vx_v4_splat(float s) { return _mm_set1_ps(s); }
static inline float vx_v4_dot3(vx_v4 a, vx_v4 b)
{
    vx_v4 m = _mm_mul_ps(a, b);
    float x = _mm_cvtss_f32(m);
    float y = _mm_cvtss_f32(_mm_shuffle_ps(m, m, _MM_SHUFFLE(1, 1, 1, 1)));
    float z = _mm_cvtss_f32(_mm_movehl_ps(m, m));
    return x + y + z;
}

/* a x b as vx_vec3_cross, lane by lane: (ay bz - az by, az bx - ax bz,
 * ax by - ay bx); the pad lane is aw bw - aw bw. */
static inline vx_v4 vx_v4_cross3(vx_v4 a, vx_v4 b)
{
    vx_v4 a_yzx = _mm_shuffle_ps(a, a, _MM_SHUFFLE(3, 0, 2, 1));
    vx_v4 b_zxy = _mm_shuffle_ps(b, b, _MM_SHUFFLE(3, 1, 0, 2));
    vx_v4 a_zxy = _mm_shuffle_ps(a, a, _MM_SHUFFLE(3, 1, 0, 2));
    vx_v4 b_yzx = _mm_shuffle_ps(b, b, _MM_SHUFFLE(3, 0, 2, 1));
    return _mm_sub_ps(_mm_mul_ps(a_yzx, b_zxy), _mm_mul_ps(a_zxy, b_yzx));
}
static inline vx_v4 vx_v4_make3(float x, float y, float z) { return _mm_set_ps(0.0f, z, y, x); }
static inline float vx_v4_x(vx_v4 a) { return _mm_cvtss_f32(a); }
static inline float vx_v4_y(vx_v4 a) { return _mm_cvtss_f32(_mm_shuffle_ps(a, a, _MM_SHUFFLE(1, 1, 1, 1))); }
static inline float vx_v4_z(vx_v4 a) { return _mm_cvtss_f32(_mm_movehl_ps(a, a)); }
/* A vx_vec3 (12 bytes, any alignment, nothing read past it), pad lane 0.
 * x and y go through memcpy, not a double pointer: a load through another
 * type may be moved across stores to the floats (strict aliasing). */
static inline vx_v4 vx_v4_load3(const vx_vec3 *v)
{
    double xy;
    memcpy(&xy, v, sizeof xy);
    return _mm_movelh_ps(_mm_castpd_ps(_mm_set_sd(xy)), _mm_load_ss(&v->z));
}
/* x, y, z of a to 16-byte aligned p, and +0 in p[3]. */
static inline void vx_v4_store3(float *p, vx_v4 a)
{
    _mm_store_ps(p, _mm_and_ps(a, _mm_castsi128_ps(_mm_set_epi32(0, -1, -1, -1))));
}
/* A vx_quat as x, y, z, w (any alignment). */
static inline vx_v4 vx_v4_load_quat(const vx_quat *q) { return _mm_loadu_ps(&q->x); }
static inline vx_v4 vx_v4_splat_w(vx_v4 a) { return _mm_shuffle_ps(a, a, _MM_SHUFFLE(3, 3, 3, 3)); }
/* (-x, -y, -z, w): vx_quat_conjugate */
static inline vx_v4 vx_v4_conjugate(vx_v4 q) { return _mm_xor_ps(q, _mm_set_ps(0.0f, -0.0f, -0.0f, -0.0f)); }

#else

typedef struct {
    float x, y, z, w;
} vx_v4;

static inline vx_v4 vx_v4_load(const float *p)
{
    vx_v4 r = {p[0], p[1], p[2], p[3]};
    return r;
}
static inline void vx_v4_store(float *p, vx_v4 a)
{
    p[0] = a.x;
    p[1] = a.y;
    p[2] = a.z;
    p[3] = a.w;
}
static inline vx_v4 vx_v4_add(vx_v4 a, vx_v4 b)
{
    vx_v4 r = {a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w};
    return r;
}
static inline vx_v4 vx_v4_sub(vx_v4 a, vx_v4 b)
{
    vx_v4 r = {a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w};
    return r;
}
static inline vx_v4 vx_v4_mul(vx_v4 a, vx_v4 b)
{
    vx_v4 r = {a.x * b.x, a.y * b.y, a.z * b.z, a.w * b.w};
    return r;
}
static inline vx_v4 vx_v4_splat(float s)
{
    vx_v4 r = {s, s, s, s};
    return r;
}
static inline float vx_v4_dot3(vx_v4 a, vx_v4 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline vx_v4 vx_v4_cross3(vx_v4 a, vx_v4 b)
{
    vx_v4 r = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x, a.w * b.w - a.w * b.w};
    return r;
}
static inline vx_v4 vx_v4_make3(float x, float y, float z)
{
    vx_v4 r = {x, y, z, 0.0f};
    return r;
}
static inline float vx_v4_x(vx_v4 a) { return a.x; }
static inline float vx_v4_y(vx_v4 a) { return a.y; }
static inline float vx_v4_z(vx_v4 a) { return a.z; }
static inline vx_v4 vx_v4_load3(const vx_vec3 *v) { return vx_v4_make3(v->x, v->y, v->z); }
static inline void vx_v4_store3(float *p, vx_v4 a)
{
    p[0] = a.x;
    p[1] = a.y;
    p[2] = a.z;
    p[3] = 0.0f;
}
static inline vx_v4 vx_v4_load_quat(const vx_quat *q)
{
    vx_v4 r = {q->x, q->y, q->z, q->w};
    return r;
}
static inline vx_v4 vx_v4_splat_w(vx_v4 a) { return vx_v4_splat(a.w); }
static inline vx_v4 vx_v4_conjugate(vx_v4 q)
{
    vx_v4 r = {-q.x, -q.y, -q.z, q.w};
    return r;
}

#endif

static inline vx_vec3 vx_v4_to_vec3(vx_v4 a) { return vx_vec3_make(vx_v4_x(a), vx_v4_y(a), vx_v4_z(a)); }

/* v (pad 0) turned by the unit quaternion q (x, y, z, w): vx_quat_rotate's
 * operations in its order, t = 2 (u x v), v + w t + u x t, so the same bits;
 * the pad lane stays 0 (for finite q). */
static inline vx_v4 vx_v4_quat_rotate(vx_v4 q, vx_v4 v)
{
    vx_v4 t = vx_v4_mul(vx_v4_cross3(q, v), vx_v4_splat(2.0f));
    return vx_v4_add(vx_v4_add(v, vx_v4_mul(t, vx_v4_splat_w(q))), vx_v4_cross3(q, t));
}

/* m v as vx_mat3_mul_vec3, from m's columns c0, c1, c2 (lane i of cj is
 * m[i][j]): (c0 vx + c1 vy) + c2 vz, lane i being (m[i][0] vx + m[i][1] vy)
 * + m[i][2] vz. */
static inline vx_v4 vx_v4_mat3_columns_mul(const vx_v4 c[3], vx_v4 v)
{
    return vx_v4_add(vx_v4_add(vx_v4_mul(c[0], vx_v4_splat(vx_v4_x(v))), vx_v4_mul(c[1], vx_v4_splat(vx_v4_y(v)))),
                     vx_v4_mul(c[2], vx_v4_splat(vx_v4_z(v))));
}

#endif
