/* Plain parallel loops (parallel.h). */
#include "common/parallel.h"

#include <unistd.h>

#include "common/assert.h"

int vx_parallel_threads(int requested, int limit)
{
    if (limit <= 0) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        limit = online > 0 && online < 1024 ? (int)online : 1;
    }
    if (requested > limit) requested = limit;
    if (requested > VX_MAX_THREADS) requested = VX_MAX_THREADS;
    return requested > 1 ? requested : 1;
}

typedef struct {
    size_t n;
    vx_item_range_fn fn;
    void *arg;
} loop;

static void loop_thread(void *ctx, int t, int threads)
{
    loop *l = ctx;
    size_t b, e;
    vx_thread_share(l->n, t, threads, &b, &e);
    if (e > b) l->fn(l->arg, b, e);
}

vx_thread_pool *vx_parallel_pool(vx_thread_pool *pool, size_t n)
{
    return n < vx_thread_pool_grain(pool) ? NULL : pool;
}

void vx_parallel_for(vx_thread_pool *pool, size_t n, vx_item_range_fn fn, void *arg)
{
    if (n == 0) return;
    loop l = {n, fn, arg};
    vx_thread_pool_run(vx_parallel_pool(pool, n), loop_thread, &l);
}

typedef struct {
    vx_thread_pool *pool;
    size_t n;
    vx_item_count_fn count;
    vx_item_offset_fn set;
    void *arg;
    size_t sums[VX_MAX_THREADS];
} offsets_job;

static void offsets_thread(void *ctx, int t, int threads)
{
    offsets_job *job = ctx;
    size_t b, e, sum = 0;
    vx_thread_share(job->n, t, threads, &b, &e);
    for (size_t i = b; i < e; i++) sum += job->count(job->arg, i);
    job->sums[t] = sum;
    vx_thread_pool_barrier(job->pool);
    size_t offset = 0;
    for (int k = 0; k < t; k++) offset += job->sums[k];
    for (size_t i = b; i < e; i++) {
        job->set(job->arg, i, offset);
        offset += job->count(job->arg, i);
    }
}

size_t vx_parallel_offsets(vx_thread_pool *pool, size_t n, vx_item_count_fn count, vx_item_offset_fn set, void *arg)
{
    pool = vx_parallel_pool(pool, n);
    int threads = vx_thread_pool_size(pool);
    offsets_job job = {.pool = pool, .n = n, .count = count, .set = set, .arg = arg};
    vx_thread_pool_run(pool, offsets_thread, &job);
    size_t total = 0;
    for (int k = 0; k < threads; k++) total += job.sums[k];
    VX_ASSERT(threads >= 1 && threads <= VX_MAX_THREADS);
    return total;
}
