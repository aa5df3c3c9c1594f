/* Threads or not, by the clock (thread_choice.h). */
#include "physics/thread_choice.h"

static bool always_pooled = false;

void vx_thread_choice_always_threads(bool on) { always_pooled = on; }

void vx_thread_choice_init(vx_thread_choice *c)
{
    c->ratio = -1.0;
    c->last = 0.0;
    c->steps = 0;
    c->pooled = true;
    c->probe = false;
}

bool vx_thread_choice_begin(vx_thread_choice *c)
{
    if (always_pooled) {
        c->pooled = true;
        c->probe = false;
    } else if (c->steps == 0) {
        c->pooled = true; /* the threads first */
        c->probe = false;
    } else if (c->ratio < 0.0) {
        c->pooled = false; /* then one thread, to compare */
        c->probe = true;
    } else {
        bool faster_pooled = c->ratio >= 1.0;
        c->probe = c->steps % VX_THREAD_PROBE_PERIOD == VX_THREAD_PROBE_PERIOD - 1u;
        c->pooled = c->probe ? !faster_pooled : faster_pooled;
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
