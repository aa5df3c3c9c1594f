/* The worker pool of the step's parallel stages (src/common/thread_pool.h):
 * every thread index runs once per run, the barrier really separates the
 * phases of a run, thousands of runs in a row (and runs after the workers
 * went to sleep) all complete, a pool of one and the NULL pool run on the
 * caller, an oversubscribed pool (more threads than cores) stays correct and
 * quick, and vx_thread_share splits [0, n) into contiguous, ordered,
 * balanced shares. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "common/thread_pool.h"

enum { MAX_THREADS = 16 };

static void sleep_microseconds(long us)
{
    struct timespec ts = {us / 1000000L, (us % 1000000L) * 1000L};
    nanosleep(&ts, NULL);
}

static vx_thread_pool *make_pool(int threads)
{
    vx_thread_pool *pool = NULL;
    cr_assert_eq(vx_thread_pool_create(&pool, threads), VX_OK, "pool of %d", threads);
    cr_assert_not_null(pool);
    cr_assert_eq(vx_thread_pool_size(pool), threads);
    return pool;
}

/* ---- each index once per run ---- */

typedef struct {
    atomic_int calls[MAX_THREADS];
    atomic_int wrong_threads; /* calls whose `threads` argument was not the pool's size */
    atomic_int bad_index;     /* calls with t outside [0, threads) */
    int expected_threads;
    pthread_t caller;
    atomic_int caller_index; /* the index the calling thread ran as (-1: it ran none) */
} count_ctx;

static void count_calls(void *p, int t, int threads)
{
    count_ctx *c = p;
    if (threads != c->expected_threads) atomic_fetch_add(&c->wrong_threads, 1);
    if (t < 0 || t >= threads || t >= MAX_THREADS) {
        atomic_fetch_add(&c->bad_index, 1);
        return;
    }
    atomic_fetch_add(&c->calls[t], 1);
    if (pthread_equal(pthread_self(), c->caller)) atomic_store(&c->caller_index, t);
}

static void count_ctx_init(count_ctx *c, int threads)
{
    memset(c, 0, sizeof *c);
    for (int t = 0; t < MAX_THREADS; t++) atomic_init(&c->calls[t], 0);
    atomic_init(&c->wrong_threads, 0);
    atomic_init(&c->bad_index, 0);
    atomic_init(&c->caller_index, -1);
    c->expected_threads = threads;
    c->caller = pthread_self();
}

Test(thread_pool, every_index_runs_exactly_once_per_run)
{
    const int sizes[] = {2, 3, 4, 7};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        vx_thread_pool *pool = make_pool(n);
        count_ctx c;
        count_ctx_init(&c, n);
        for (int run = 1; run <= 200; run++) {
            vx_thread_pool_run(pool, count_calls, &c);
            /* the run has returned: every thread's call is complete and visible */
            for (int t = 0; t < n; t++)
                cr_assert_eq(atomic_load(&c.calls[t]), run, "pool %d, run %d: thread %d ran %d times", n, run, t,
                             atomic_load(&c.calls[t]));
            for (int t = n; t < MAX_THREADS; t++) cr_assert_eq(atomic_load(&c.calls[t]), 0);
        }
        cr_assert_eq(atomic_load(&c.wrong_threads), 0);
        cr_assert_eq(atomic_load(&c.bad_index), 0);
        /* the header's promise: t = 0 is the calling thread */
        cr_assert_eq(atomic_load(&c.caller_index), 0);
        vx_thread_pool_destroy(pool);
    }
}

/* ---- the barrier ---- */

/* Phase p: thread t writes slot[p & 1][t] = p * 64 + t, waits at the
 * barrier, then reads every thread's slot of phase p. One barrier per phase
 * is enough with two buffers: a thread writing phase p + 2's slot has passed
 * the barrier of p + 1, which every thread reaches only after reading p. */
typedef struct {
    vx_thread_pool *pool;
    int phases;
    int slow_thread; /* this index sleeps before writing in some phases (-1: none) */
    int slot[2][MAX_THREADS];
    int errors[MAX_THREADS];      /* per thread, written by that thread only */
    int first_error[MAX_THREADS]; /* the phase of its first error, or -1 */
    int barriers[MAX_THREADS];    /* barriers passed, per thread */
} phase_ctx;

static void phase_thread(void *p, int t, int threads)
{
    phase_ctx *c = p;
    for (int phase = 0; phase < c->phases; phase++) {
        if (t == c->slow_thread && phase % 50 == 0) sleep_microseconds(300);
        c->slot[phase & 1][t] = phase * 64 + t;
        vx_thread_pool_barrier(c->pool);
        c->barriers[t]++;
        for (int u = 0; u < threads; u++) {
            if (c->slot[phase & 1][u] == phase * 64 + u) continue;
            if (c->errors[t]++ == 0) c->first_error[t] = phase;
        }
    }
}

static void check_phases(int threads, int phases, int slow_thread, int runs)
{
    vx_thread_pool *pool = make_pool(threads);
    phase_ctx c;
    for (int run = 0; run < runs; run++) {
        memset(&c, 0, sizeof c);
        c.pool = pool;
        c.phases = phases;
        c.slow_thread = slow_thread;
        for (int t = 0; t < MAX_THREADS; t++) c.first_error[t] = -1;
        vx_thread_pool_run(pool, phase_thread, &c);
        for (int t = 0; t < threads; t++) {
            cr_assert_eq(c.errors[t], 0, "%d threads, run %d: thread %d saw %d unfinished slots, first in phase %d",
                         threads, run, t, c.errors[t], c.first_error[t]);
            cr_assert_eq(c.barriers[t], phases, "thread %d passed %d barriers", t, c.barriers[t]);
        }
    }
    vx_thread_pool_destroy(pool);
}

Test(thread_pool, barrier_separates_every_phase)
{
    check_phases(2, 3000, -1, 3);
    check_phases(3, 3000, -1, 3);
    check_phases(4, 2000, -1, 2);
}

/* A thread that is late to write (it sleeps) must hold everyone at the
 * barrier: nobody may read its slot before it is written. Each index takes
 * its turn at being the slow one, the calling thread (0) included. */
Test(thread_pool, barrier_waits_for_a_slow_thread)
{
    for (int slow = 0; slow < 3; slow++) check_phases(3, 400, slow, 1);
}

/* The barrier of a pool of one (and of no pool) returns at once. */
typedef struct {
    vx_thread_pool *pool;
    int calls;
    int thread, threads;
    bool on_caller;
    pthread_t caller;
} solo_ctx;

static void solo_thread(void *p, int t, int threads)
{
    solo_ctx *c = p;
    vx_thread_pool_barrier(c->pool);
    vx_thread_pool_barrier(c->pool);
    c->calls++;
    c->thread = t;
    c->threads = threads;
    c->on_caller = pthread_equal(pthread_self(), c->caller) != 0;
}

Test(thread_pool, one_thread_and_null_pool_run_on_the_caller)
{
    vx_thread_pool *one = make_pool(1);
    vx_thread_pool *pools[2] = {one, NULL};
    for (int k = 0; k < 2; k++) {
        solo_ctx c;
        memset(&c, 0, sizeof c);
        c.pool = pools[k];
        c.thread = -1;
        c.caller = pthread_self();
        for (int run = 0; run < 1000; run++) vx_thread_pool_run(pools[k], solo_thread, &c);
        cr_assert_eq(c.calls, 1000, "%s pool", k == 0 ? "one-thread" : "NULL");
        cr_assert_eq(c.thread, 0);
        cr_assert_eq(c.threads, 1);
        cr_assert(c.on_caller);
    }
    cr_assert_eq(vx_thread_pool_size(NULL), 1);
    vx_thread_pool_destroy(one);
    vx_thread_pool_destroy(NULL); /* a no-op */
}

Test(thread_pool, create_refuses_fewer_than_one_thread)
{
    vx_thread_pool *pool = (vx_thread_pool *)&pool; /* not NULL: create must clear it */
    cr_assert_eq(vx_thread_pool_create(&pool, 0), VX_ERR_INVALID);
    cr_assert_null(pool);
    pool = (vx_thread_pool *)&pool;
    cr_assert_eq(vx_thread_pool_create(&pool, -3), VX_ERR_INVALID);
    cr_assert_null(pool);
}

/* ---- many runs ---- */

typedef struct {
    uint64_t sum[MAX_THREADS]; /* per thread: the run numbers it saw */
    uint64_t run;              /* set by the caller before each run */
} sum_ctx;

static void add_run(void *p, int t, int threads)
{
    (void)threads;
    sum_ctx *c = p;
    c->sum[t] += c->run;
}

/* Each run is published to the workers and its writes are back before the
 * next: after runs 1..N every thread's sum is N (N + 1) / 2 exactly. */
Test(thread_pool, thousands_of_consecutive_runs)
{
    const int sizes[] = {2, 3, 5};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        vx_thread_pool *pool = make_pool(n);
        sum_ctx c;
        memset(&c, 0, sizeof c);
        const uint64_t runs = 2000;
        for (uint64_t r = 1; r <= runs; r++) {
            c.run = r;
            vx_thread_pool_run(pool, add_run, &c);
        }
        for (int t = 0; t < n; t++)
            cr_assert_eq(c.sum[t], runs * (runs + 1u) / 2u, "pool %d thread %d: %llu", n, t,
                         (unsigned long long)c.sum[t]);
        vx_thread_pool_destroy(pool);
    }
}

/* Between runs an idle pool's workers go to sleep; a run must wake them
 * all (no lost wake-up), with pauses long enough for every worker to sleep. */
Test(thread_pool, runs_after_the_workers_fell_asleep)
{
    vx_thread_pool *pool = make_pool(4);
    count_ctx c;
    count_ctx_init(&c, 4);
    for (int run = 1; run <= 15; run++) {
        sleep_microseconds(run % 3 == 0 ? 60000 : 15000);
        vx_thread_pool_run(pool, count_calls, &c);
        for (int t = 0; t < 4; t++) cr_assert_eq(atomic_load(&c.calls[t]), run, "run %d thread %d", run, t);
    }
    vx_thread_pool_destroy(pool);
}

/* Pools created and destroyed at once, or after one run, while their
 * workers are still starting up, spinning or asleep: destroy returns. */
Test(thread_pool, create_and_destroy_repeatedly)
{
    for (int k = 0; k < 60; k++) {
        vx_thread_pool *pool = make_pool(2 + k % 4);
        if (k % 2) {
            count_ctx c;
            count_ctx_init(&c, 2 + k % 4);
            vx_thread_pool_run(pool, count_calls, &c);
            for (int t = 0; t < 2 + k % 4; t++) cr_assert_eq(atomic_load(&c.calls[t]), 1);
        }
        if (k % 10 == 9) sleep_microseconds(20000);
        vx_thread_pool_destroy(pool);
    }
}

/* ---- more threads than cores ---- */

/* 8 threads on a machine with fewer cores: waiting threads must give their
 * core away (yield), or the barriers would crawl (a thread that only spun
 * would hold its core for a whole time slice, milliseconds per barrier).
 * 300 runs of 4 phases and a run of 1000 phases, checked as above; they take
 * well under a second in Release on 2 cores. No time is asserted (speed is
 * for benchmarks, and the machines are shared): a pool that crawled or hung
 * would hit ctest's time limit. */
Test(thread_pool, oversubscribed_pool_is_correct_and_quick)
{
    vx_thread_pool *pool = make_pool(8);
    phase_ctx c;
    for (int run = 0; run < 300; run++) {
        memset(&c, 0, sizeof c);
        c.pool = pool;
        c.phases = 4;
        c.slow_thread = -1;
        for (int t = 0; t < MAX_THREADS; t++) c.first_error[t] = -1;
        vx_thread_pool_run(pool, phase_thread, &c);
        for (int t = 0; t < 8; t++) {
            cr_assert_eq(c.errors[t], 0, "run %d thread %d: %d errors from phase %d", run, t, c.errors[t],
                         c.first_error[t]);
            cr_assert_eq(c.barriers[t], 4);
        }
    }
    /* and one long run with many barriers */
    memset(&c, 0, sizeof c);
    c.pool = pool;
    c.phases = 1000;
    c.slow_thread = -1;
    vx_thread_pool_run(pool, phase_thread, &c);
    for (int t = 0; t < 8; t++) cr_assert_eq(c.errors[t], 0, "thread %d", t);
    vx_thread_pool_destroy(pool);
}

/* ---- vx_thread_share ---- */

static void check_share(size_t n, int threads)
{
    size_t expected_begin = 0;
    size_t smallest = SIZE_MAX, largest = 0;
    for (int t = 0; t < threads; t++) {
        size_t b = 12345, e = 54321;
        vx_thread_share(n, t, threads, &b, &e);
        cr_assert_eq(b, expected_begin, "n %zu, %d threads: thread %d begins at %zu, expected %zu", n, threads, t,
                     b, expected_begin);
        cr_assert_geq(e, b, "n %zu, %d threads: thread %d has [%zu, %zu)", n, threads, t, b, e);
        if (e - b < smallest) smallest = e - b;
        if (e - b > largest) largest = e - b;
        expected_begin = e;
    }
    cr_assert_eq(expected_begin, n, "n %zu, %d threads: shares end at %zu", n, threads, expected_begin);
    /* balanced: shares differ by at most one item */
    cr_assert_leq(largest - smallest, 1u, "n %zu, %d threads: shares of %zu to %zu items", n, threads, smallest,
                  largest);
}

Test(thread_pool, thread_share_covers_every_item_once_in_thread_order)
{
    for (int threads = 1; threads <= MAX_THREADS; threads++) {
        for (size_t n = 0; n <= 300; n++) check_share(n, threads);
        check_share(1000003u, threads);
        check_share((size_t)1 << 40, threads);
    }
    check_share(1000u, 256);
    check_share(7u, 256);
    /* one thread takes everything */
    size_t b, e;
    vx_thread_share(77u, 0, 1, &b, &e);
    cr_assert_eq(b, 0u);
    cr_assert_eq(e, 77u);
}
