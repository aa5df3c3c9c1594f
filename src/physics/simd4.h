/* Four floats in one register (private to the physics module): the lanes
 * x, y, z and a pad lane kept 0. With SSE2 (every x86-64) one instruction
 * per operation, otherwise plain C; both do the same IEEE single precision
 * operations lane by lane, so results are bit for bit the same. v4_dot3 adds
 * in the order of vx_vec3_dot: (x + y) + z. Loads and stores need 16-byte
 * aligned addresses. */
#ifndef VOLTEX_PHYSICS_SIMD4_H
#define VOLTEX_PHYSICS_SIMD4_H

#if defined(__SSE2__)
#include <emmintrin.h>

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

#endif

#endif
