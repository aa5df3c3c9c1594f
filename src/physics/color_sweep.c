/* Coloured passes and plain parallel loops over a thread pool
 * (color_sweep.h). */
#include "physics/color_sweep.h"

#include <math.h>
#include <stdatomic.h>
#include <unistd.h>
#include <stdlib.h>

/* the most threads a sweep keeps a minimum for (the pool is never larger) */
#define VX_SWEEP_MAX_THREADS 256

/* Below these sizes a sweep or loop runs on the calling thread alone: the
 * threads' meetings would cost more than the work, and a thread the system
 * has put aside makes every meeting wait for it. Results do not depend on
 * it (vx_parallel_set_min_work). */
static size_t min_units = 64;  /* coloured units of 4 constraints: 256 constraints */
static size_t min_items = 256; /* bodies, pairs, constraints */

void vx_parallel_set_min_work(size_t units, size_t items)
{
    min_units = units;
    min_items = items;
}

/* 0: the machine's processors (vx_parallel_threads) */
static int max_threads = 0;

void vx_parallel_set_max_threads(int threads) { max_threads = threads > 0 ? threads : 0; }

int vx_parallel_threads(int requested)
{
    int limit = max_threads;
    if (limit == 0) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        limit = online > 0 && online < 1024 ? (int)online : 1;
    }
    if (requested > limit) requested = limit;
    return requested > 1 ? requested : 1;
}

typedef struct {
    vx_thread_pool *pool;
    const vx_contact_colors *colors;
    int passes;
    vx_color_range_fn fn;
    void *arg;
    float stop_at;
    unsigned parity;
    /* each thread's minimum of the pass, by pass parity: a thread starting
     * pass p + 2 has passed the barriers of p + 1, after every read of p's */
    float mins[2][VX_SWEEP_MAX_THREADS];
} sweep;

/* The first unit of [begin, end] starting at or after position p. */
static size_t unit_at(const vx_contact_colors *c, size_t begin, size_t end, size_t p)
{
    while (begin < end) {
        size_t mid = begin + (end - begin) / 2u;
        if (c->unit_start[mid] < p)
            begin = mid + 1u;
        else
            end = mid;
    }
    return begin;
}

/* Thread t's units of a parallel range: its share of the positions,
 * rounded to whole units (units differ in size: an island of the
 * sequential order is one unit). */
static void share_units(const vx_contact_colors *c, const vx_color_range *range, int t, int threads, size_t *b,
                        size_t *e)
{
    size_t first = c->unit_start[range->begin], last = c->unit_start[range->end];
    size_t pb, pe;
    vx_thread_share(last - first, t, threads, &pb, &pe);
    if (c->split_count > 0) { /* bins of the sequential order: whole */
        vx_contact_colors_split(c, first + pb, first + pe, b, e);
        return;
    }
    *b = unit_at(c, range->begin, range->end, first + pb);
    *e = unit_at(c, range->begin, range->end, first + pe);
}

static void sweep_thread(void *ctx, int t, int threads)
{
    sweep *sw = ctx;
    const vx_contact_colors *c = sw->colors;
    for (int pass = 0; pass < sw->passes; pass++) {
        float m = INFINITY;
        size_t lvl_begin = 0, lvl_end = 0;
        for (size_t rr = 0; rr < c->range_count; rr++) {
            if (rr == lvl_end) {
                lvl_begin = rr;
                lvl_end = rr;
                while (lvl_end < c->range_count && c->ranges[lvl_end].level == c->ranges[rr].level) lvl_end++;
            }
            size_t r = ((sw->parity + (unsigned)pass) & 1u) ? lvl_end - 1 - (rr - lvl_begin) : rr;
            const vx_color_range *range = &c->ranges[r];
            size_t b = range->begin, e = range->end; /* units */
            if (range->serial) {
                if (t != 0) e = b;
            } else {
                share_units(c, range, t, threads, &b, &e);
            }
            if (e > b) m = fminf(m, sw->fn(sw->arg, b, e, pass));
            vx_thread_pool_barrier(sw->pool);
        }
        if (isinf(sw->stop_at)) continue;
        sw->mins[pass & 1][t] = m;
        vx_thread_pool_barrier(sw->pool);
        float all = INFINITY;
        for (int i = 0; i < threads; i++) all = fminf(all, sw->mins[pass & 1][i]);
        if (all >= sw->stop_at) break;
    }
}

static atomic_size_t flow_count;

size_t vx_color_sweep_flow_count(void) { return atomic_load_explicit(&flow_count, memory_order_relaxed); }

void vx_color_sweep(vx_thread_pool *pool, const vx_contact_colors *colors, vx_color_flow *flow, int passes,
                    unsigned parity, vx_color_range_fn fn, void *arg, float stop_at)
{
    if (passes <= 0 || colors->count == 0) return;
    if (colors->count < min_units * VX_COLOR_UNIT) pool = NULL; /* positions: units differ in size */
    int threads = vx_thread_pool_size(pool);
    if (flow && colors->flow && threads > 1 && isinf(stop_at) && vx_color_flow_plan(flow, colors, threads) == VX_OK) {
        vx_color_flow_run(pool, flow, passes, fn, arg);
        atomic_fetch_add_explicit(&flow_count, 1u, memory_order_relaxed);
        return;
    }
    sweep sw = {.pool = pool, .colors = colors, .passes = passes, .fn = fn, .arg = arg, .stop_at = stop_at,
                .parity = parity};
    vx_thread_pool_run(pool, sweep_thread, &sw);
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

vx_thread_pool *vx_parallel_pool(vx_thread_pool *pool, size_t n) { return n < min_items ? NULL : pool; }

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
    size_t sums[VX_SWEEP_MAX_THREADS];
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
    if (vx_thread_pool_size(pool) > VX_SWEEP_MAX_THREADS) pool = NULL; /* more than sums has room for */
    int threads = vx_thread_pool_size(pool);
    offsets_job job = {.pool = pool, .n = n, .count = count, .set = set, .arg = arg};
    vx_thread_pool_run(pool, offsets_thread, &job);
    size_t total = 0;
    for (int k = 0; k < threads; k++) total += job.sums[k];
    return total;
}
