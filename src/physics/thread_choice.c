/* Threads or not, by the clock (thread_choice.h). */
#include "physics/thread_choice.h"

/* weight of the newest step in a running average */
#define VX_THREAD_AVERAGE_WEIGHT 0.25

static bool always_pooled = false;

void vx_thread_choice_always_threads(bool on) { always_pooled = on; }

void vx_thread_choice_init(vx_thread_choice *c)
{
    c->average[0] = -1.0;
    c->average[1] = -1.0;
    c->steps = 0;
    c->pooled = true;
    c->probe = false;
}

bool vx_thread_choice_begin(vx_thread_choice *c)
{
    if (always_pooled) {
        c->steps++;
        c->pooled = true;
        c->probe = false;
        return true;
    }
    if (c->average[1] < 0.0 || c->average[0] < 0.0) {
        /* the first step on the threads, the second alone */
        c->pooled = c->average[1] < 0.0;
        c->probe = false;
    } else {
        bool faster_pooled = c->average[1] <= c->average[0];
        c->probe = c->steps % VX_THREAD_PROBE_PERIOD == VX_THREAD_PROBE_PERIOD - 1u;
        c->pooled = c->probe ? !faster_pooled : faster_pooled;
    }
    c->steps++;
    return c->pooled;
}

void vx_thread_choice_end(vx_thread_choice *c, double seconds)
{
    double *avg = &c->average[c->pooled ? 1 : 0];
    /* a probe is the other way's news: it replaces the old average */
    *avg = *avg < 0.0 || c->probe ? seconds : *avg + VX_THREAD_AVERAGE_WEIGHT * (seconds - *avg);
}
