/* Whether a step runs on its threads or on the calling thread alone
 * (private to the physics module), chosen by the time steps take.
 *
 * The threads meet at barriers many times per step; on a machine busy with
 * other work a thread can lose its core for a whole time slice and every
 * meeting waits for it, so two threads can be many times slower than one.
 * Results are the same bytes either way (every split gives the same
 * results), so the choice is free to follow the clock: the step time of
 * each way is kept as a running average, the faster way is used, and every
 * VX_THREAD_PROBE_PERIOD-th step tries the other way to keep its average
 * current (a probe's time replaces that way's average). */
#ifndef VOLTEX_PHYSICS_THREAD_CHOICE_H
#define VOLTEX_PHYSICS_THREAD_CHOICE_H

#include <stdbool.h>
#include <stdint.h>

#define VX_THREAD_PROBE_PERIOD 32

typedef struct {
    double average[2]; /* seconds per step: [0] one thread, [1] the pool; < 0 unknown */
    uint64_t steps;
    bool pooled;       /* the current step's way */
    bool probe;        /* the current step tries the slower way */
} vx_thread_choice;

void vx_thread_choice_init(vx_thread_choice *c);
/* The way of the next step: true for the pool. */
bool vx_thread_choice_begin(vx_thread_choice *c);
/* The step took seconds. */
void vx_thread_choice_end(vx_thread_choice *c, double seconds);
/* For tests that compare splits: every step on the threads (on) or by the
 * clock again (off). */
void vx_thread_choice_always_threads(bool on);

#endif
