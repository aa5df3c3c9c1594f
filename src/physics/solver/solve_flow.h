/* The sequential order's one bin on the threads without a meeting per wave
 * (private to the physics module; solve_order.h, solve_sweep.h): before a
 * unit, a thread waits only for the units of other threads that touched its
 * bodies last before it, so the results are those of the serial sweep bit
 * for bit; dependencies point only to earlier units (pass, position), so no
 * thread waits forever. See docs/simulation.md, "Threads: sweeps and flows". */
#ifndef VOLTEX_PHYSICS_SOLVER_SOLVE_FLOW_H
#define VOLTEX_PHYSICS_SOLVER_SOLVE_FLOW_H

#include <stddef.h>
#include <stdint.h>

#include "common/thread_pool.h"
#include "physics/solver/solve_order.h"
#include "voltex/error.h"

/* A unit waits until thread `thread` has done pass * (its unit count) +
 * `done` units of the sweep (done <= 0 for a unit of the pass before). */
typedef struct {
    uint32_t thread;
    int32_t done;
} vx_solve_flow_wait;

/* The plan of one order for one thread count; kept while both stay (a
 * settled pile keeps its order from step to step). */
typedef struct {
    uint64_t version; /* the colours' version planned for */
    int threads;      /* 0: no plan */
    uint32_t *units;  /* the units, thread by thread, each thread's in pass order */
    size_t *first;    /* thread t's units are units[first[t] .. first[t + 1]) */
    size_t *cursor;   /* scratch, per thread */
    uint32_t *wait_start; /* per entry of units, + 1: its waits */
    vx_solve_flow_wait *waits;
    uint32_t *index;  /* scratch, per unit: its index among its thread's units */
    size_t unit_capacity, wait_capacity, thread_capacity;
    vx_thread_progress *done; /* per thread: units done in the current sweep */
    uint64_t runs;    /* sweeps that went as this flow (tests check which path ran) */
} vx_solve_flow;

void vx_solve_flow_init(vx_solve_flow *f);
void vx_solve_flow_free(vx_solve_flow *f);

/* Plans order (order->flow set) for `threads` threads (1 .. 256), or
 * keeps the plan already made for them. VX_ERR_INVALID or VX_ERR_NOMEM: no
 * plan (the caller sweeps with barriers instead). */
vx_status vx_solve_flow_plan(vx_solve_flow *f, const vx_solve_order *order, int threads);

/* `passes` passes over every unit on the pool's threads (as many as the
 * plan was made for): fn(arg, u, u + 1, pass) for each unit u, or fn(arg,
 * u, u + 2, pass) for two that follow each other on one thread when the
 * second's waits are met already; what fn does to a unit touching only
 * that unit's constraints and bodies. */
void vx_solve_flow_run(vx_thread_pool *pool, vx_solve_flow *f, int passes,
                       float (*fn)(void *arg, size_t begin, size_t end, int pass), void *arg);

#endif
