/* The choice between a step's threads and the calling thread alone by the
 * time steps take (src/physics/thread_choice.h): the faster way is used, the
 * other is tried every VX_THREAD_PROBE_PERIOD-th step. */
#include <criterion/criterion.h>

#include "physics/thread_choice.h"

/* Runs steps that take `pooled_seconds` on the threads and `single_seconds`
 * alone; returns how many of them ran on the threads. */
static int run_as(vx_thread_choice *c, int steps, double pooled_seconds, double single_seconds, bool always)
{
    int pooled = 0;
    for (int k = 0; k < steps; k++) {
        bool p = vx_thread_choice_begin(c, always);
        pooled += p ? 1 : 0;
        vx_thread_choice_end(c, p ? pooled_seconds : single_seconds);
    }
    return pooled;
}

static int run(vx_thread_choice *c, int steps, double pooled_seconds, double single_seconds)
{
    return run_as(c, steps, pooled_seconds, single_seconds, false);
}

Test(physics_thread_choice, threads_first_and_kept_while_faster)
{
    vx_thread_choice c;
    vx_thread_choice_init(&c);
    for (unsigned k = 0; k < VX_THREAD_WARM_STEPS; k++) {
        cr_assert(vx_thread_choice_begin(&c, false), "the first steps run on the threads");
        vx_thread_choice_end(&c, 0.001);
    }
    cr_assert_not(vx_thread_choice_begin(&c, false), "then one step tries one thread");
    vx_thread_choice_end(&c, 0.002);
    /* threads twice as fast: all steps but one probe in 32 on the threads */
    int pooled = run(&c, 317, 0.001, 0.002);
    cr_assert_eq(pooled, 317 - 10, "%d of 317 steps on the threads", pooled);
}

/* The first step of a scene is dear on any number of threads (every body
 * enters the broad phase): it is not what the first probe is compared
 * with, so it cannot send the next 31 steps to one thread. */
Test(physics_thread_choice, the_dear_first_step_is_not_a_measure)
{
    vx_thread_choice c;
    vx_thread_choice_init(&c);
    bool p = vx_thread_choice_begin(&c, false);
    cr_assert(p);
    vx_thread_choice_end(&c, 0.05); /* 25 times a normal step */
    /* steps 1 .. 62: one thread only for the probes of steps 2 and 31 */
    int pooled = run(&c, 62, 0.001, 0.0015);
    cr_assert_eq(pooled, 62 - 2, "%d of 62 steps on the threads", pooled);
}

/* Probes that come out a few per cent the wrong way (a noisy machine) do
 * not switch the way in use; a clear difference does. */
Test(physics_thread_choice, a_noisy_probe_does_not_switch_the_way)
{
    vx_thread_choice c;
    vx_thread_choice_init(&c);
    run(&c, 64, 0.001, 0.0015);
    /* one thread now 5 % faster than the threads: within the margin */
    int pooled = run(&c, 320, 0.00105, 0.001);
    cr_assert_eq(pooled, 320 - 10, "%d of 320 steps on the threads", pooled);
    /* one thread 30 % faster: after the next probe, the steps go single */
    pooled = run(&c, 320, 0.0013, 0.001);
    cr_assert_leq(pooled, 32 + 10, "%d of 320 steps still on the threads", pooled);
}

Test(physics_thread_choice, a_busy_machine_turns_to_one_thread_and_back)
{
    vx_thread_choice c;
    vx_thread_choice_init(&c);
    run(&c, 64, 0.001, 0.002);
    /* the machine gets busy: the threads' steps take 50 times longer; after
     * the next probe of the single thread, the steps stay single but for
     * one probe of the threads in 32 */
    int pooled = run(&c, 32, 0.05, 0.002);
    cr_assert_leq(pooled, 32);
    pooled = run(&c, 320, 0.05, 0.002);
    cr_assert_leq(pooled, 12, "%d of 320 steps still on the busy threads", pooled);
    cr_assert_geq(pooled, 9, "the threads must still be tried now and then (%d)", pooled);
    /* the machine is quiet again: a probe finds the threads faster */
    pooled = run(&c, 320, 0.001, 0.002);
    cr_assert_geq(pooled, 320 - 32 - 10, "%d of 320 steps back on the threads", pooled);
}

Test(physics_thread_choice, forced_threads_for_tests)
{
    vx_thread_choice c;
    vx_thread_choice_init(&c);
    cr_assert_eq(run_as(&c, 100, 1.0, 0.001, true), 100);
    cr_assert_lt(run(&c, 100, 1.0, 0.001), 100, "by the clock again");
}

/* Steps that get dearer as a pile forms (here 20 times over 600 steps), the
 * threads always 1.5 times faster than one thread at the same moment: the
 * choice compares the ways at the same moment, so the threads keep every
 * step but the probes (an average over all steps would have favoured the
 * one thread's early, cheap steps). */
Test(physics_thread_choice, steps_getting_dearer_do_not_fool_it)
{
    vx_thread_choice c;
    vx_thread_choice_init(&c);
    int pooled = 0;
    for (int k = 0; k < 600; k++) {
        double cost = 0.001 * (1.0 + 19.0 * k / 600.0);
        bool p = vx_thread_choice_begin(&c, false);
        pooled += p ? 1 : 0;
        vx_thread_choice_end(&c, p ? cost / 1.5 : cost);
    }
    cr_assert_geq(pooled, 600 - 1 - 600 / VX_THREAD_PROBE_PERIOD, "%d of 600 steps on the threads", pooled);
}
