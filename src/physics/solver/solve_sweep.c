/* Coloured passes over a thread pool (solve_sweep.h). */
#include "physics/solver/solve_sweep.h"

#include <math.h>
#include <stdlib.h>

#include "common/parallel.h"

typedef struct {
    vx_thread_pool *pool;
    const vx_solve_order *order;
    int passes;
    vx_solve_range_fn fn;
    void *arg;
    float stop_at;
    unsigned parity;
    /* each thread's minimum of the pass, by pass parity: a thread starting
     * pass p + 2 has passed the barriers of p + 1, after every read of p's */
    float mins[2][VX_MAX_THREADS];
} sweep;

/* The first unit of [begin, end] starting at or after position p. */
static size_t unit_at(const vx_solve_order *c, size_t begin, size_t end, size_t p)
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
static void share_units(const vx_solve_order *c, const vx_solve_range *range, int t, int threads, size_t *b,
                        size_t *e)
{
    size_t first = c->unit_start[range->begin], last = c->unit_start[range->end];
    size_t pb, pe;
    vx_thread_share(last - first, t, threads, &pb, &pe);
    if (c->split_count > 0) { /* bins of the sequential order: whole */
        vx_solve_order_split(c, first + pb, first + pe, b, e);
        return;
    }
    *b = unit_at(c, range->begin, range->end, first + pb);
    *e = unit_at(c, range->begin, range->end, first + pe);
}

static void sweep_thread(void *ctx, int t, int threads)
{
    sweep *sw = ctx;
    const vx_solve_order *c = sw->order;
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
            const vx_solve_range *range = &c->ranges[r];
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

void vx_solve_sweep(vx_thread_pool *pool, const vx_solve_order *order, vx_solve_flow *flow, int passes,
                    unsigned parity, vx_solve_range_fn fn, void *arg, float stop_at)
{
    if (passes <= 0 || order->count == 0) return;
    pool = vx_parallel_pool(pool, order->count); /* positions: units differ in size */
    int threads = vx_thread_pool_size(pool);
    if (flow && order->flow && threads > 1 && isinf(stop_at) && vx_solve_flow_plan(flow, order, threads) == VX_OK) {
        vx_solve_flow_run(pool, flow, passes, fn, arg);
        flow->runs++;
        return;
    }
    sweep sw = {.pool = pool, .order = order, .passes = passes, .fn = fn, .arg = arg, .stop_at = stop_at,
                .parity = parity};
    vx_thread_pool_run(pool, sweep_thread, &sw);
}
