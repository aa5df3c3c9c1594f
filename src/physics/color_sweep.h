/* Passes over the coloured constraints, split between the threads of a pool
 * (private to the physics module; contact_color.h, common/thread_pool.h).
 *
 * vx_color_sweep calls fn(arg, begin, end, pass) on ranges of units
 * (contact_color.h; vx_color_positions gives their positions in
 * colors->order): pass p visits the levels in order, and the ranges of a
 * level in order when parity + p is even, in reverse when it is odd (always
 * the same colour first would give the same side of every box the larger
 * share of its support, a torque that tips a pyramid), each range split
 * between the threads by index (a serial range: thread 0 alone), with a
 * barrier after each. What fn does to one position may touch only the bodies of
 * that constraint, so results do not depend on the split. fn returns a
 * value to take the minimum of over the pass; a pass whose minimum is at
 * least stop_at is the last one (INFINITY: all passes run). */
#ifndef VOLTEX_PHYSICS_COLOR_SWEEP_H
#define VOLTEX_PHYSICS_COLOR_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "common/thread_pool.h"
#include "physics/color_flow.h"
#include "physics/contact_color.h"

/* Units [begin, end) as positions [*first, *last) in colors->order. */
static inline void vx_color_positions(const vx_contact_colors *c, size_t begin, size_t end, size_t *first,
                                      size_t *last)
{
    *first = c->unit_start[begin];
    *last = c->unit_start[end];
}

typedef float (*vx_color_range_fn)(void *arg, size_t begin, size_t end, int pass);

/* flow (may be NULL): when the order can go as a flow (colors->flow), on
 * more than one thread, with every pass run (stop_at INFINITY), the sweep
 * goes as a flow planned in it (color_flow.h) instead of a barrier after
 * each range: the same results, fewer meetings. */
void vx_color_sweep(vx_thread_pool *pool, const vx_contact_colors *colors, vx_color_flow *flow, int passes,
                    unsigned parity, vx_color_range_fn fn, void *arg, float stop_at);

/* For tests: the sweeps that went as a flow since the program started
 * (tests check that a scene they compare really took that path). */
size_t vx_color_sweep_flow_count(void);

/* Every item [0, n) once, split between the threads (no order between
 * items: each must touch only its own data). */
typedef void (*vx_item_range_fn)(void *arg, size_t begin, size_t end);
void vx_parallel_for(vx_thread_pool *pool, size_t n, vx_item_range_fn fn, void *arg);

/* Running offsets over items [0, n): set(arg, i, o) with o the sum of
 * count(arg, j) for j < i; returns the sum over all n. The threads each sum
 * a share, then write theirs from the shares before: the same offsets for
 * any split. For arrays of offsets (each item's first row) whose counts sit
 * far apart in memory. */
typedef uint32_t (*vx_item_count_fn)(const void *arg, size_t i);
typedef void (*vx_item_offset_fn)(void *arg, size_t i, size_t offset);
size_t vx_parallel_offsets(vx_thread_pool *pool, size_t n, vx_item_count_fn count, vx_item_offset_fn set, void *arg);

/* The pool a loop over n items runs on: pool, or NULL (the calling thread
 * alone) below the loop minimum. For stages that run their own
 * vx_thread_pool_run (per-thread scratch by thread index, barriers) under
 * the same rule as vx_parallel_for. */
vx_thread_pool *vx_parallel_pool(vx_thread_pool *pool, size_t n);

/* The sizes below which sweeps (units) and loops (items) stay on the
 * calling thread (defaults 64 and 256). For tests, which set 0 to run small
 * scenes on every thread; results never depend on it. */
void vx_parallel_set_min_work(size_t units, size_t items);

/* The threads a step runs for config->threads = requested: at most the
 * machine's processors (more would only wait for each other at every
 * barrier: 32 threads on 2 cores ran large_pyramid 60 times slower), at
 * least 1. Results never depend on it. Tests raise the limit with
 * vx_parallel_set_max_threads (0: the machine's processors again) to compare
 * splits a small machine would not make. */
int vx_parallel_threads(int requested);
void vx_parallel_set_max_threads(int threads);

#endif
