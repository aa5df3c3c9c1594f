/* The worker pool (thread_pool.h): pthreads, C11 atomics. */
#include "common/thread_pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

#include "common/assert.h"
#include "common/sse2.h"

#if VX_SSE2
#include <emmintrin.h>
#define VX_CPU_RELAX() _mm_pause()
#else
#define VX_CPU_RELAX() ((void)0)
#endif

/* Spins (pause instructions) before a thread waiting at a barrier yields
 * its core: tens of microseconds, more than a colour of the solver takes;
 * with more threads than cores, longer waits let the others run. */
#define VX_BARRIER_SPINS 2000
/* A worker waiting for the next run spins longer (about a millisecond: the
 * sequential stages between two parallel ones of a step), then yields, then
 * sleeps: waking a sleeping thread costs tens of microseconds. */
#define VX_RUN_SPINS 20000
#define VX_YIELDS_BEFORE_SLEEP 2000

struct vx_thread_pool {
    int threads;
    size_t grain;
    pthread_t *workers; /* threads - 1 */
    int started;
    /* the current run: fn/ctx published with generation (release) */
    vx_parallel_fn fn;
    void *ctx;
    atomic_uint generation;
    atomic_int done;     /* workers finished with the current run */
    atomic_bool quit;
    /* sleeping between runs */
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int sleepers;
    /* the barrier: arrivals counted, the last one flips the phase */
    atomic_int arrived;
    atomic_uint phase;
};

typedef struct {
    vx_thread_pool *pool;
    int index;
} worker_arg;

static void wait_while_equal(atomic_uint *value, unsigned seen)
{
    for (int spin = 0; atomic_load_explicit(value, memory_order_acquire) == seen; spin++) {
        if (spin < VX_BARRIER_SPINS)
            VX_CPU_RELAX();
        else
            sched_yield();
    }
}

void vx_thread_pool_barrier(vx_thread_pool *pool)
{
    if (!pool || pool->threads <= 1) return;
    unsigned phase = atomic_load_explicit(&pool->phase, memory_order_acquire);
    if (atomic_fetch_add_explicit(&pool->arrived, 1, memory_order_acq_rel) == pool->threads - 1) {
        atomic_store_explicit(&pool->arrived, 0, memory_order_relaxed);
        atomic_fetch_add_explicit(&pool->phase, 1u, memory_order_release);
    } else {
        wait_while_equal(&pool->phase, phase);
    }
}

size_t vx_thread_progress_wait(vx_thread_progress *p, size_t value)
{
    size_t seen;
    for (int spin = 0; (seen = atomic_load_explicit(&p->count, memory_order_acquire)) < value; spin++) {
        if (spin < VX_BARRIER_SPINS)
            VX_CPU_RELAX();
        else
            sched_yield();
    }
    return seen;
}

/* Waits for the generation to move past seen: spin, yield, then sleep. */
static unsigned next_generation(vx_thread_pool *pool, unsigned seen)
{
    for (int round = 0;; round++) {
        unsigned g = atomic_load_explicit(&pool->generation, memory_order_acquire);
        if (g != seen || atomic_load_explicit(&pool->quit, memory_order_acquire)) return g;
        if (round < VX_RUN_SPINS) {
            VX_CPU_RELAX();
        } else if (round < VX_RUN_SPINS + VX_YIELDS_BEFORE_SLEEP) {
            sched_yield();
        } else {
            pthread_mutex_lock(&pool->lock);
            pool->sleepers++;
            while (atomic_load_explicit(&pool->generation, memory_order_acquire) == seen &&
                   !atomic_load_explicit(&pool->quit, memory_order_acquire))
                pthread_cond_wait(&pool->wake, &pool->lock);
            pool->sleepers--;
            pthread_mutex_unlock(&pool->lock);
        }
    }
}

static void *worker_main(void *p)
{
    worker_arg arg = *(worker_arg *)p;
    free(p);
    vx_thread_pool *pool = arg.pool;
    unsigned seen = 0;
    for (;;) {
        seen = next_generation(pool, seen);
        if (atomic_load_explicit(&pool->quit, memory_order_acquire)) return NULL;
        pool->fn(pool->ctx, arg.index, pool->threads);
        VX_ASSERT(arg.index > 0 && arg.index < pool->threads);
        atomic_fetch_add_explicit(&pool->done, 1, memory_order_acq_rel);
    }
}

/* Wakes every worker: the new generation or quit is already published. */
static void wake_workers(vx_thread_pool *pool)
{
    pthread_mutex_lock(&pool->lock);
    if (pool->sleepers > 0) pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
}

void vx_thread_pool_destroy(vx_thread_pool *pool)
{
    if (!pool) return;
    atomic_store_explicit(&pool->quit, true, memory_order_release);
    wake_workers(pool);
    for (int i = 0; i < pool->started; i++) pthread_join(pool->workers[i], NULL);
    pthread_cond_destroy(&pool->wake);
    pthread_mutex_destroy(&pool->lock);
    free(pool->workers);
    free(pool);
}

vx_status vx_thread_pool_create(vx_thread_pool **out, int threads)
{
    *out = NULL;
    if (threads < 1 || threads > VX_MAX_THREADS) return VX_ERR_INVALID;
    vx_thread_pool *pool = calloc(1u, sizeof *pool);
    if (!pool) return VX_ERR_NOMEM;
    pool->threads = threads;
    pool->grain = VX_THREAD_POOL_GRAIN;
    atomic_init(&pool->generation, 0u);
    atomic_init(&pool->done, 0);
    atomic_init(&pool->quit, false);
    atomic_init(&pool->arrived, 0);
    atomic_init(&pool->phase, 0u);
    if (pthread_mutex_init(&pool->lock, NULL) != 0) {
        free(pool);
        return VX_ERR_NOMEM;
    }
    if (pthread_cond_init(&pool->wake, NULL) != 0) {
        pthread_mutex_destroy(&pool->lock);
        free(pool);
        return VX_ERR_NOMEM;
    }
    if (threads > 1) {
        pool->workers = calloc((size_t)(threads - 1), sizeof *pool->workers);
        if (!pool->workers) {
            vx_thread_pool_destroy(pool);
            return VX_ERR_NOMEM;
        }
        for (int i = 1; i < threads; i++) {
            worker_arg *arg = malloc(sizeof *arg);
            if (!arg) {
                vx_thread_pool_destroy(pool);
                return VX_ERR_NOMEM;
            }
            arg->pool = pool;
            arg->index = i;
            if (pthread_create(&pool->workers[pool->started], NULL, worker_main, arg) != 0) {
                free(arg);
                vx_thread_pool_destroy(pool);
                return VX_ERR_NOMEM;
            }
            pool->started++;
        }
    }
    *out = pool;
    return VX_OK;
}

int vx_thread_pool_size(const vx_thread_pool *pool) { return pool ? pool->threads : 1; }

void vx_thread_pool_set_grain(vx_thread_pool *pool, size_t items)
{
    if (pool) pool->grain = items;
}

size_t vx_thread_pool_grain(const vx_thread_pool *pool) { return pool ? pool->grain : VX_THREAD_POOL_GRAIN; }

void vx_thread_pool_run(vx_thread_pool *pool, vx_parallel_fn fn, void *ctx)
{
    if (!pool || pool->threads <= 1) {
        fn(ctx, 0, 1);
        return;
    }
    pool->fn = fn;
    pool->ctx = ctx;
    atomic_store_explicit(&pool->done, 0, memory_order_relaxed);
    atomic_fetch_add_explicit(&pool->generation, 1u, memory_order_release);
    wake_workers(pool);
    fn(ctx, 0, pool->threads);
    for (int spin = 0; atomic_load_explicit(&pool->done, memory_order_acquire) < pool->threads - 1; spin++) {
        if (spin < VX_BARRIER_SPINS)
            VX_CPU_RELAX();
        else
            sched_yield();
    }
}
