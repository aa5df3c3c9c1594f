/* Threads or not, by the clock (thread_choice.h). */
#include "physics/thread_choice.h"

void vx_thread_choice_init(vx_thread_choice *c)
{
    c->ratio = -1.0;
    c->last = 0.0;
    c->steps = 0;
    c->pooled = true;
    c->probe = false;
    c->mode = true;
}

bool vx_thread_choice_begin(vx_thread_choice *c, bool always_threads)
{
    if (always_threads) {
        c->pooled = true;
        c->probe = false;
    } else if (c->steps < VX_THREAD_WARM_STEPS) {
        c->pooled = true; /* the threads first; the first steps (every body
                           * new to the broad phase) are no measure */
        c->probe = false;
    } else if (c->ratio < 0.0) {
        c->pooled = false; /* then one thread, to compare */
        c->probe = true;
    } else {
        /* The other way takes over only when clearly faster: one noisy
         * probe must not send 31 steps the slower way. */
        if (c->mode && c->ratio < 1.0 / VX_THREAD_SWITCH_MARGIN) c->mode = false;
        if (!c->mode && c->ratio > VX_THREAD_SWITCH_MARGIN) c->mode = true;
        c->probe = c->steps % VX_THREAD_PROBE_PERIOD == VX_THREAD_PROBE_PERIOD - 1u;
        c->pooled = c->probe ? !c->mode : c->mode;
    }
    c->steps++;
    return c->pooled;
}

void vx_thread_choice_end(vx_thread_choice *c, double seconds)
{
    /* A probe ran the other way than the step before it, whose cost was
     * about the same: their times compare the two ways. */
    if (c->probe && c->last > 0.0 && seconds > 0.0) {
        double r = c->pooled ? c->last / seconds : seconds / c->last;
        /* mostly the news, a little of the past against a noisy probe */
        c->ratio = c->ratio < 0.0 ? r : 0.25 * c->ratio + 0.75 * r;
    }
    c->last = seconds;
}
