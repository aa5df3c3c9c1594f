/* The flow of the sequential order's one bin over the threads
 * (solve_flow.h). */
#include "physics/solver/solve_flow.h"

#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/assert.h"

/* the most threads a flow plans for (flow_thread keeps a count per thread) */
#define VX_FLOW_MAX_THREADS 256

void vx_solve_flow_init(vx_solve_flow *f) { memset(f, 0, sizeof *f); }

void vx_solve_flow_free(vx_solve_flow *f)
{
    free(f->units);
    free(f->first);
    free(f->cursor);
    free(f->wait_start);
    free(f->waits);
    free(f->index);
    free(f->done);
    vx_solve_flow_init(f);
}

static vx_status reserve(vx_solve_flow *f, size_t units, size_t waits, int threads)
{
    vx_status st = VX_OK;
    size_t cap;
    if (units + 1u > f->unit_capacity) {
        st = vx_grow_capacity(f->unit_capacity, units + 1u, 64u, sizeof *f->units, &cap);
        VX_GROW_ARRAY(st, f->units, cap);
        VX_GROW_ARRAY(st, f->wait_start, cap);
        VX_GROW_ARRAY(st, f->index, cap);
        if (st == VX_OK) f->unit_capacity = cap;
    }
    if (st == VX_OK && waits > f->wait_capacity) {
        st = vx_grow_capacity(f->wait_capacity, waits, 64u, sizeof *f->waits, &cap);
        VX_GROW_ARRAY(st, f->waits, cap);
        if (st == VX_OK) f->wait_capacity = cap;
    }
    if (st == VX_OK && (size_t)threads > f->thread_capacity) {
        size_t *first = realloc(f->first, ((size_t)threads + 1u) * sizeof *first);
        if (!first) return VX_ERR_NOMEM;
        f->first = first;
        size_t *cursor = realloc(f->cursor, (size_t)threads * sizeof *cursor);
        if (!cursor) return VX_ERR_NOMEM;
        f->cursor = cursor;
        vx_thread_progress *done = aligned_alloc(_Alignof(vx_thread_progress), (size_t)threads * sizeof *done);
        if (!done) return VX_ERR_NOMEM;
        free(f->done);
        f->done = done;
        f->thread_capacity = (size_t)threads;
    }
    return st;
}

/* The thread of unit u: its first item's share of the order of add. */
static uint32_t owner(const vx_solve_order *c, uint32_t u, int threads)
{
    return (uint32_t)((uint64_t)c->unit_rank[u] * (uint64_t)threads / (uint64_t)c->count);
}

vx_status vx_solve_flow_plan(vx_solve_flow *f, const vx_solve_order *c, int threads)
{
    if (f->threads == threads && f->version == c->version) return VX_OK;
    f->threads = 0;
    if (threads < 1 || threads > VX_FLOW_MAX_THREADS || !c->flow) return VX_ERR_INVALID;
    size_t units = c->unit_count;
    vx_status st = reserve(f, units, c->flow_dep_start[units], threads);
    if (st != VX_OK) return st;
    /* the units by thread, each thread's in pass order */
    for (int t = 0; t <= threads; t++) f->first[t] = 0;
    for (uint32_t u = 0; u < (uint32_t)units; u++) f->first[owner(c, u, threads) + 1u]++;
    for (int t = 0; t < threads; t++) {
        f->first[t + 1] += f->first[t];
        f->cursor[t] = f->first[t];
    }
    for (uint32_t u = 0; u < (uint32_t)units; u++) {
        uint32_t t = owner(c, u, threads);
        f->index[u] = (uint32_t)(f->cursor[t] - f->first[t]);
        f->units[f->cursor[t]++] = u;
    }
    /* each unit's waits: per other thread, the most it must have done */
    uint32_t n = 0;
    for (size_t k = 0; k < units; k++) {
        uint32_t u = f->units[k], t = owner(c, u, threads);
        f->wait_start[k] = n;
        for (uint32_t j = c->flow_dep_start[u]; j < c->flow_dep_start[u + 1u]; j++) {
            uint32_t d = c->flow_dep[j], td = owner(c, d, threads);
            if (td == t) continue; /* its own thread does it first */
            int64_t done = (int64_t)f->index[d] + 1;
            if (d > u) done -= (int64_t)(f->first[td + 1u] - f->first[td]); /* the pass before */
            uint32_t w = f->wait_start[k];
            while (w < n && f->waits[w].thread != td) w++;
            if (w == n) {
                f->waits[n].thread = td;
                f->waits[n++].done = (int32_t)done;
            } else if (done > f->waits[w].done) {
                f->waits[w].done = (int32_t)done;
            }
        }
    }
    f->wait_start[units] = n;
    f->threads = threads;
    f->version = c->version;
    return VX_OK;
}

typedef struct {
    vx_solve_flow *f;
    int passes;
    float (*fn)(void *arg, size_t begin, size_t end, int pass);
    void *arg;
} flow_job;

/* What a wait asks of its thread in pass `pass` (0: nothing). */
static size_t needed(const vx_solve_flow *f, const vx_solve_flow_wait *wt, int pass)
{
    size_t theirs = f->first[wt->thread + 1u] - f->first[wt->thread];
    int64_t need = (int64_t)pass * (int64_t)theirs + wt->done;
    return need > 0 ? (size_t)need : 0u;
}

static void flow_thread(void *ctx, int t, int threads)
{
    flow_job *job = ctx;
    vx_solve_flow *f = job->f;
    size_t begin = f->first[t], end = f->first[t + 1];
    size_t mine = end - begin;
    /* the other threads' counts as last seen: read again only when short */
    size_t seen[VX_FLOW_MAX_THREADS];
    for (int i = 0; i < threads; i++) seen[i] = 0;
    for (int pass = 0; pass < job->passes; pass++) {
        for (size_t k = begin; k < end; k++) {
            for (uint32_t w = f->wait_start[k]; w < f->wait_start[k + 1]; w++) {
                const vx_solve_flow_wait *wt = &f->waits[w];
                size_t need = needed(f, wt, pass);
                if (seen[wt->thread] < need) seen[wt->thread] = vx_thread_progress_wait(&f->done[wt->thread], need);
            }
            /* the next unit too when it follows in the pass and its waits
             * are already met: fn may solve the two side by side */
            size_t n = 1;
            if (k + 1u < end && f->units[k + 1u] == f->units[k] + 1u) {
                n = 2;
                for (uint32_t w = f->wait_start[k + 1u]; w < f->wait_start[k + 2u]; w++)
                    if (seen[f->waits[w].thread] < needed(f, &f->waits[w], pass)) n = 1;
            }
            job->fn(job->arg, f->units[k], f->units[k] + n, pass);
            k += n - 1u;
            vx_thread_progress_set(&f->done[t], (size_t)pass * mine + (k - begin) + 1u);
        }
    }
}

void vx_solve_flow_run(vx_thread_pool *pool, vx_solve_flow *f, int passes,
                       float (*fn)(void *arg, size_t begin, size_t end, int pass), void *arg)
{
    VX_ASSERT(f->threads >= 1 && vx_thread_pool_size(pool) == f->threads);
    for (int t = 0; t < f->threads; t++) vx_thread_progress_reset(&f->done[t]);
    flow_job job = {f, passes, fn, arg};
    vx_thread_pool_run(pool, flow_thread, &job);
}
