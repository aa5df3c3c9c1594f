/* Plain parallel loops over a thread pool (private): each item once, split
 * between the threads by index, so what a thread does never depends on
 * timing. Below the pool's grain a loop runs on the calling thread alone. */
#ifndef VOLTEX_COMMON_PARALLEL_H
#define VOLTEX_COMMON_PARALLEL_H

#include <stddef.h>
#include <stdint.h>

#include "common/thread_pool.h"

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
 * alone) below the pool's grain. For stages that run their own
 * vx_thread_pool_run (per-thread scratch by thread index, barriers) under
 * the same rule as vx_parallel_for. */
vx_thread_pool *vx_parallel_pool(vx_thread_pool *pool, size_t n);

/* The threads to run for `requested`: at most `limit`, or when limit is 0
 * the machine's processors (more would only wait for each other at every
 * barrier: 32 threads on 2 cores ran large_pyramid 60 times slower), at most
 * VX_MAX_THREADS, at least 1. */
int vx_parallel_threads(int requested, int limit);

#endif
