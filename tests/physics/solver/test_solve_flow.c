/* The sequential order's one bin on the threads as a flow
 * (src/physics/solve_flow.h), over constraint graphs shaped like a pyramid
 * of boxes, a row of boxes on a floor, and random graphs.
 *
 * The plan: every unit goes to exactly one thread, the one whose share of
 * the order of add holds the unit's first item; each thread's units are in
 * pass order; and a unit waits, for every unit of another thread that
 * touched one of its bodies last before it (in its pass or, over the end of
 * the pass, the pass before), until that thread has done at least that
 * unit.
 *
 * The run, on real threads (1 to 7, beyond this machine's cores, some
 * units made slow to shake the timing): every unit is solved once per
 * pass (alone, or with the next one in a call of two), and every body sees
 * its units in the order of the serial sweep, pass after pass. That order is what makes the results those of one
 * thread bit for bit (tests/physics/test_step_threads.c checks the bytes). */
#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/thread_pool.h"
#include "physics/solver/solve_flow.h"
#include "physics/solver/solve_sweep.h"
#include "physics/solver/solve_order.h"
#include "test_helpers.h"

enum { PASSES = 4, MAX_LOG = 4096 };

typedef struct {
    uint32_t a, b;
    bool moved_a, moved_b;
} item;

typedef struct {
    item *items;
    size_t count, capacity, body_count;
} graph;

static void graph_init(graph *g, size_t body_count, size_t capacity)
{
    g->items = calloc(capacity, sizeof *g->items);
    cr_assert_not_null(g->items);
    g->count = 0;
    g->capacity = capacity;
    g->body_count = body_count;
}

/* Body 0 is the floor (never moved). */
static void graph_add(graph *g, uint32_t a, uint32_t b)
{
    cr_assert_lt(g->count, g->capacity);
    item *it = &g->items[g->count++];
    it->a = a;
    it->b = b;
    it->moved_a = a != 0u;
    it->moved_b = b != 0u;
}

/* A pyramid of boxes `base` wide, one deep, row by row from the floor:
 * each box touches the floor (bottom row) or the two boxes under it, and
 * its right neighbour; the contacts are added in pair order, as the
 * narrow phase sorts them. */
static void pyramid(graph *g, uint32_t base)
{
    uint32_t boxes = base * (base + 1u) / 2u;
    graph_init(g, boxes + 1u, 4u * boxes);
    uint32_t *row_first = calloc(base + 1u, sizeof *row_first);
    cr_assert_not_null(row_first);
    row_first[0] = 1u;
    for (uint32_t r = 0; r < base; r++) row_first[r + 1u] = row_first[r] + (base - r);
    for (uint32_t i = 0; i < base; i++) graph_add(g, 0u, row_first[0] + i);
    for (uint32_t r = 0; r < base; r++)
        for (uint32_t i = 0; i < base - r; i++) {
            uint32_t box = row_first[r] + i;
            if (i + 1u < base - r) graph_add(g, box, box + 1u);
            if (r + 1u < base) {
                if (i > 0) graph_add(g, box, row_first[r + 1u] + i - 1u);
                if (i + 1u < base - r) graph_add(g, box, row_first[r + 1u] + i);
            }
        }
    free(row_first);
}

static void random_graph(graph *g, uint32_t seed, size_t bodies, size_t items)
{
    graph_init(g, bodies, items);
    vx_test_rng rng = {seed * 2654435761u + 1u};
    while (g->count < items) {
        uint32_t a = vx_test_rng_next(&rng) % (uint32_t)bodies;
        uint32_t b = (a + 1u + vx_test_rng_next(&rng) % 6u) % (uint32_t)bodies;
        if (a == b || (a == 0u && b == 0u)) continue;
        graph_add(g, a < b ? a : b, a < b ? b : a);
    }
}

static void order_graph(vx_solve_order *c, const graph *g)
{
    cr_assert_eq(vx_solve_order_begin(c, g->count, g->body_count), VX_OK);
    for (size_t i = 0; i < g->count; i++)
        vx_solve_order_add(c, (uint32_t)i, g->items[i].a, g->items[i].moved_a, g->items[i].b,
                              g->items[i].moved_b);
    cr_assert_eq(vx_solve_order_end(c, false), VX_OK);
    cr_assert(c->flow, "one bin of %zu constraints goes as a flow", g->count);
}

static bool unit_moves(const vx_solve_order *c, const graph *g, uint32_t u, uint32_t x)
{
    for (uint32_t p = c->unit_start[u]; p < c->unit_start[u + 1u]; p++) {
        const item *it = &g->items[c->sequence[p]];
        if ((it->moved_a && it->a == x) || (it->moved_b && it->b == x)) return true;
    }
    return false;
}

static uint32_t owner_of(const vx_solve_order *c, uint32_t u, int threads)
{
    return (uint32_t)((uint64_t)c->unit_rank[u] * (uint64_t)threads / (uint64_t)c->count);
}

/* ---- the plan ---- */

static void check_plan(const vx_solve_flow *f, const vx_solve_order *c, int threads)
{
    size_t units = c->unit_count;
    cr_assert_eq(f->threads, threads);
    cr_assert_eq(f->first[0], 0u);
    cr_assert_eq(f->first[threads], units);
    size_t *where = malloc(units * sizeof *where); /* unit -> its entry */
    cr_assert_not_null(where);
    for (size_t u = 0; u < units; u++) where[u] = SIZE_MAX;
    for (int t = 0; t < threads; t++)
        for (size_t k = f->first[t]; k < f->first[t + 1]; k++) {
            uint32_t u = f->units[k];
            cr_assert_lt(u, units);
            cr_assert_eq(where[u], SIZE_MAX, "unit %u planned twice", u);
            where[u] = k;
            cr_assert_eq(owner_of(c, u, threads), (uint32_t)t, "unit %u is not on its share's thread", u);
            if (k > f->first[t]) cr_assert_lt(f->units[k - 1u], u, "thread %d's units out of pass order", t);
        }
    for (size_t u = 0; u < units; u++) cr_assert_neq(where[u], SIZE_MAX, "unit %zu not planned", u);
    for (size_t u = 0; u < units; u++) {
        uint32_t t = owner_of(c, (uint32_t)u, threads);
        size_t k = where[u];
        for (uint32_t j = c->flow_dep_start[u]; j < c->flow_dep_start[u + 1u]; j++) {
            uint32_t d = c->flow_dep[j], td = owner_of(c, d, threads);
            if (td == t) continue;
            int64_t index = (int64_t)(where[d] - f->first[td]);
            int64_t need = index + 1 - (d > u ? (int64_t)(f->first[td + 1] - f->first[td]) : 0);
            bool covered = false;
            for (uint32_t w = f->wait_start[k]; w < f->wait_start[k + 1u]; w++)
                covered = covered || (f->waits[w].thread == td && f->waits[w].done >= need);
            cr_assert(covered, "unit %zu does not wait for unit %u of thread %u", u, d, td);
        }
    }
    free(where);
}

/* ---- the run ---- */

typedef struct {
    const vx_solve_order *c;
    const graph *g;
    uint32_t **log; /* per body: the (pass, unit) that touched it, in turn */
    size_t *len;
    atomic_int *calls; /* per pass and unit */
    atomic_int bad_ranges;
    atomic_int pairs; /* calls for two units in a row */
    int slow_every; /* 0: no slow units */
} recorder;

static float record(void *arg, size_t begin, size_t end, int pass)
{
    recorder *r = arg;
    /* one unit, or two in a row */
    if (end <= begin || end > begin + 2u || end > r->c->unit_count || pass < 0 || pass >= PASSES) {
        atomic_fetch_add(&r->bad_ranges, 1);
        return 0.0f;
    }
    if (end == begin + 2u) atomic_fetch_add(&r->pairs, 1);
    for (uint32_t u = (uint32_t)begin; u < (uint32_t)end; u++) {
        atomic_fetch_add(&r->calls[(size_t)pass * r->c->unit_count + u], 1);
        if (r->slow_every > 0 && (u * 7u + (uint32_t)pass) % (uint32_t)r->slow_every == 0u) {
            struct timespec ts = {0, 20000L};
            nanosleep(&ts, NULL);
        }
        for (uint32_t p = r->c->unit_start[u]; p < r->c->unit_start[u + 1u]; p++) {
            const item *it = &r->g->items[r->c->sequence[p]];
            uint32_t bodies[2] = {it->moved_a ? it->a : UINT32_MAX, it->moved_b ? it->b : UINT32_MAX};
            for (int k = 0; k < 2; k++) {
                uint32_t x = bodies[k];
                if (x == UINT32_MAX || r->len[x] >= MAX_LOG) continue;
                r->log[x][r->len[x]++] = (uint32_t)pass * (uint32_t)r->c->unit_count + u;
            }
        }
    }
    return 0.0f;
}

static void run_and_check(const vx_solve_order *c, const graph *g, vx_solve_flow *f, int threads, int slow_every)
{
    size_t units = c->unit_count;
    recorder r = {.c = c, .g = g, .slow_every = slow_every};
    r.log = calloc(g->body_count, sizeof *r.log);
    r.len = calloc(g->body_count, sizeof *r.len);
    r.calls = calloc(PASSES * units, sizeof *r.calls);
    cr_assert(r.log && r.len && r.calls);
    for (size_t x = 0; x < g->body_count; x++) {
        r.log[x] = calloc(MAX_LOG, sizeof **r.log);
        cr_assert_not_null(r.log[x]);
    }
    atomic_init(&r.bad_ranges, 0);
    atomic_init(&r.pairs, 0);
    vx_thread_pool *pool = NULL;
    cr_assert_eq(vx_thread_pool_create(&pool, threads), VX_OK);
    vx_solve_flow_run(pool, f, PASSES, record, &r);
    vx_thread_pool_destroy(pool);
    cr_assert_eq(atomic_load(&r.bad_ranges), 0);
    if (threads == 1) cr_assert_gt(atomic_load(&r.pairs), 0, "one thread runs units in pairs");
    for (size_t k = 0; k < PASSES * units; k++)
        cr_assert_eq(atomic_load(&r.calls[k]), 1, "%d threads: pass %zu unit %zu solved %d times", threads,
                     k / units, k % units, atomic_load(&r.calls[k]));
    /* each body: its units in pass order, pass after pass */
    for (uint32_t x = 1; x < (uint32_t)g->body_count; x++) {
        size_t at = 0;
        for (uint32_t pass = 0; pass < PASSES; pass++)
            for (uint32_t u = 0; u < (uint32_t)units; u++) {
                if (!unit_moves(c, g, u, x)) continue;
                cr_assert_lt(at, r.len[x], "%d threads: body %u saw too few units", threads, x);
                cr_assert_eq(r.log[x][at], pass * (uint32_t)units + u,
                             "%d threads: body %u saw pass %u unit %u out of turn (entry %zu: pass %u unit %u)",
                             threads, x, pass, u, at, r.log[x][at] / (uint32_t)units, r.log[x][at] % (uint32_t)units);
                at++;
            }
        cr_assert_eq(at, r.len[x], "%d threads: body %u saw extra units", threads, x);
    }
    for (size_t x = 0; x < g->body_count; x++) free(r.log[x]);
    free(r.log);
    free(r.len);
    free(r.calls);
}

static void check_graph(const graph *g)
{
    vx_solve_order c;
    vx_solve_order_init(&c);
    c.tuning.flow_min = 1u; /* small graphs: their one bin goes as a flow */
    c.tuning.wave_split_min = 1u;
    order_graph(&c, g);
    vx_solve_flow f;
    vx_solve_flow_init(&f);
    static const int thread_counts[] = {1, 2, 3, 4, 7};
    for (size_t i = 0; i < sizeof thread_counts / sizeof thread_counts[0]; i++) {
        int threads = thread_counts[i];
        cr_assert_eq(vx_solve_flow_plan(&f, &c, threads), VX_OK);
        check_plan(&f, &c, threads);
        run_and_check(&c, g, &f, threads, 0);
        run_and_check(&c, g, &f, threads, 13);
    }
    vx_solve_flow_free(&f);
    vx_solve_order_free(&c);
}


Test(physics_flow, pyramid_units_run_in_pass_order_on_every_thread_count)
{
    graph g;
    pyramid(&g, 12u);
    check_graph(&g);
    free(g.items);
}

/* A row of boxes on the floor, each touching the next: one wide wave (the
 * floor contacts) and a chain that passes from thread to thread. */
Test(physics_flow, row_of_boxes_runs_in_pass_order_on_every_thread_count)
{
    enum { BOXES = 40 };
    graph g;
    graph_init(&g, BOXES + 1u, 2u * BOXES);
    for (uint32_t k = 1; k <= BOXES; k++) graph_add(&g, 0u, k);
    for (uint32_t k = 1; k < BOXES; k++) graph_add(&g, k, k + 1u);
    check_graph(&g);
    free(g.items);
}

Test(physics_flow, random_graphs_run_in_pass_order_on_every_thread_count)
{
    for (uint32_t seed = 1; seed <= 12; seed++) {
        graph g;
        random_graph(&g, seed, 8u + seed * 11u, 60u + seed * 37u);
        check_graph(&g);
        free(g.items);
    }
}

/* The plan is kept while the order and the thread count stay, and made
 * again when either changes. */
Test(physics_flow, plan_is_kept_for_the_same_order_and_threads_only)
{
    graph g;
    pyramid(&g, 6u);
    vx_solve_order c;
    vx_solve_order_init(&c);
    c.tuning.flow_min = 1u; /* small graphs: their one bin goes as a flow */
    c.tuning.wave_split_min = 1u;
    order_graph(&c, &g);
    vx_solve_flow f;
    vx_solve_flow_init(&f);
    cr_assert_eq(vx_solve_flow_plan(&f, &c, 2), VX_OK);
    uint64_t version = f.version;
    order_graph(&c, &g); /* the same items: the order is kept */
    cr_assert(c.kept);
    cr_assert_eq(c.version, version);
    cr_assert_eq(vx_solve_flow_plan(&f, &c, 3), VX_OK);
    check_plan(&f, &c, 3);
    g.count--; /* one constraint fewer: a new order */
    order_graph(&c, &g);
    cr_assert_not(c.kept);
    cr_assert_neq(c.version, version);
    cr_assert_eq(vx_solve_flow_plan(&f, &c, 3), VX_OK);
    cr_assert_eq(f.version, c.version);
    check_plan(&f, &c, 3);
    cr_assert_neq(vx_solve_flow_plan(&f, &c, 0), VX_OK);
    cr_assert_neq(vx_solve_flow_plan(&f, &c, 257), VX_OK);
    vx_solve_flow_free(&f);
    vx_solve_order_free(&c);
    free(g.items);
}
