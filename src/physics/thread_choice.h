/* Whether a step runs on its threads or on the calling thread alone
 * (private to the physics module), chosen by the time steps take.
 *
 * The threads meet at barriers many times per step; on a machine busy with
 * other work a thread can lose its core for a whole time slice and every
 * meeting waits for it, so two threads can be many times slower than one.
 * Results are the same bytes either way (every split gives the same
 * results), so the choice is free to follow the clock: every
 * VX_THREAD_PROBE_PERIOD-th step runs the other way than the step before it,
 * whose cost was about the same (steps get dearer or cheaper only slowly),
 * and the ratio of their times, averaged over the probes, says which way is
 * faster for the steps in between; the way in use changes only when the
 * other is faster by a margin. */
#ifndef VOLTEX_PHYSICS_THREAD_CHOICE_H
#define VOLTEX_PHYSICS_THREAD_CHOICE_H

#include <stdbool.h>
#include <stdint.h>

#define VX_THREAD_PROBE_PERIOD 32
/* steps on the threads before the first probe */
#define VX_THREAD_WARM_STEPS 2u
/* the way not in use takes over when the probes find it this many times faster */
#define VX_THREAD_SWITCH_MARGIN 1.1

typedef struct {
    double ratio;  /* step time on one thread / on the threads; < 0 unknown */
    double last;   /* seconds of the step before */
    uint64_t steps;
    bool pooled;   /* the current step's way */
    bool probe;    /* the current step runs the other way than the step before */
    bool mode;     /* the way the steps between probes take: true for the threads */
} vx_thread_choice;

void vx_thread_choice_init(vx_thread_choice *c);
/* The way of the next step: true for the pool; always true when
 * always_threads (tests that compare splits: step_tuning.h). */
bool vx_thread_choice_begin(vx_thread_choice *c, bool always_threads);
/* The step took seconds. */
void vx_thread_choice_end(vx_thread_choice *c, double seconds);

#endif
