/* The benchmarks' random numbers (C and C++): xorshift32 and one float
 * conversion, so that bench_rays.c and peer_bullet.cpp cast bit-identical
 * rays and every run of a benchmark sees the same inputs. */
#ifndef VOLTEX_BENCH_RNG_H
#define VOLTEX_BENCH_RNG_H

#include <stdint.h>

typedef struct {
    uint32_t state; /* nonzero */
} vx_bench_rng;

static inline uint32_t vx_bench_rng_next(vx_bench_rng *r)
{
    uint32_t x = r->state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    r->state = x;
    return x;
}

/* uniform in [lo, hi): 24 random bits, exact in float */
static inline float vx_bench_rng_range(vx_bench_rng *r, float lo, float hi)
{
    float u = (float)(vx_bench_rng_next(r) >> 8) / 16777216.0f;
    return lo + (hi - lo) * u;
}

#endif
