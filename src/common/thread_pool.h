/* A fixed set of worker threads for the step's parallel stages (private).
 *
 * vx_thread_pool_run(pool, fn, ctx) calls fn(ctx, t, n) once on each of the
 * pool's n threads (t = 0 is the calling thread) and returns when all have
 * returned; inside fn, vx_thread_pool_barrier waits until all n threads
 * reach it. Work is split by thread index, never claimed first come first
 * served, so what a thread does never depends on timing: with results
 * written to slots that do not depend on the split, output is the same for
 * every n. Waiting threads spin briefly, then yield, then (between runs)
 * sleep on a condition variable, so an idle pool costs no CPU. A NULL pool
 * or one of one thread runs fn(ctx, 0, 1) on the caller. */
#ifndef VOLTEX_COMMON_THREAD_POOL_H
#define VOLTEX_COMMON_THREAD_POOL_H

#include <stdatomic.h>
#include <stddef.h>

#include "voltex/error.h"
#include "voltex/limits.h"

typedef struct vx_thread_pool vx_thread_pool;

typedef void (*vx_parallel_fn)(void *ctx, int thread, int threads);

/* A pool of `threads` threads (1 .. VX_MAX_THREADS; threads - 1 workers are
 * started), with the default grain (vx_thread_pool_set_grain).
 * VX_ERR_NOMEM when memory or threads cannot be had (nothing is left
 * running then). */
vx_status vx_thread_pool_create(vx_thread_pool **out, int threads);
void vx_thread_pool_destroy(vx_thread_pool *pool);
int vx_thread_pool_size(const vx_thread_pool *pool);

/* The grain: loops over fewer items than this (common/parallel.h) run on the
 * calling thread alone, because the threads' meetings would cost more than
 * the work, and a thread the system has put aside makes every meeting wait
 * for it. Default VX_THREAD_POOL_GRAIN; tests set 0 to run small scenes on
 * every thread. Results never depend on it. */
#define VX_THREAD_POOL_GRAIN 256u
void vx_thread_pool_set_grain(vx_thread_pool *pool, size_t items);
size_t vx_thread_pool_grain(const vx_thread_pool *pool);

void vx_thread_pool_run(vx_thread_pool *pool, vx_parallel_fn fn, void *ctx);
/* Only inside fn of a run, called by every thread the same number of times. */
void vx_thread_pool_barrier(vx_thread_pool *pool);

/* A count that one thread raises and others wait on, for hand-offs finer
 * than a barrier (each on its own cache line): set publishes everything
 * the setter wrote before (release); wait returns once the count is at
 * least `value` (acquire: the setter's writes are then visible), spinning
 * briefly, then yielding, and returns the count it saw. */
typedef struct {
    _Alignas(64) atomic_size_t count;
} vx_thread_progress;

static inline void vx_thread_progress_reset(vx_thread_progress *p) { atomic_init(&p->count, 0u); }
static inline void vx_thread_progress_set(vx_thread_progress *p, size_t value)
{
    atomic_store_explicit(&p->count, value, memory_order_release);
}
size_t vx_thread_progress_wait(vx_thread_progress *p, size_t value);

/* The share [begin, end) of n items that thread t of threads takes. */
static inline void vx_thread_share(size_t n, int t, int threads, size_t *begin, size_t *end)
{
    *begin = n * (size_t)t / (size_t)threads;
    *end = n * (size_t)(t + 1) / (size_t)threads;
}

#endif
