/* What docs/examples/ball_drop.c prints, checked against physics: free fall
 * as the semi-implicit Euler step gives it, then a ball at rest on the
 * floor. tests/docs runs the example built in the tree, tests/install the
 * ones built against an installed prefix. */
#ifndef VOLTEX_BALL_DROP_CHECK_H
#define VOLTEX_BALL_DROP_CHECK_H

#include <criterion/criterion.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

typedef struct {
    double t, y, vy;
    unsigned long contacts;
} vx_ball_drop_sample;

/* Runs COMMAND (a build of ball_drop.c) and checks its output. */
static void vx_check_ball_drop(const char *command)
{
    FILE *p = popen(command, "r");
    cr_assert_not_null(p);
    vx_ball_drop_sample s[16];
    int n = 0;
    while (n < 16 && fscanf(p, "t %lf s  y %lf m  vy %lf m/s  contacts %lu\n", &s[n].t, &s[n].y, &s[n].vy,
                            &s[n].contacts) == 4)
        n++;
    cr_assert_eq(pclose(p), 0, "the example failed: %s", command);
    cr_assert_eq(n, 8, "a line every 15 steps for 120 steps: %s", command);

    /* Before it reaches the floor (about step 57: 4.5 m of fall), step k
     * gives v = -g k dt and y = 5 - g dt^2 k (k + 1) / 2 exactly. */
    const double g = 9.81, dt = 1.0 / 60.0;
    for (int i = 0; i < 3; i++) {
        double k = 15.0 * (i + 1);
        cr_assert_float_eq(s[i].y, 5.0 - g * dt * dt * k * (k + 1.0) / 2.0, 2e-4, "y at step %.0f", k);
        cr_assert_float_eq(s[i].vy, -g * k * dt, 2e-4, "vy at step %.0f", k);
        cr_assert_eq(s[i].contacts, 0u);
    }
    /* It bounced (the pair's restitution is the floor's 0.3) and came to
     * rest on the floor's top face at y = 0 with its radius of 0.5 m. */
    bool went_up = false;
    for (int i = 3; i < n; i++) went_up = went_up || s[i].vy > 0.5;
    cr_assert(went_up, "the ball bounced");
    cr_assert_float_eq(s[n - 1].y, 0.5, 0.02);
    cr_assert_lt(fabs(s[n - 1].vy), 0.05);
    cr_assert_geq(s[n - 1].contacts, 1u);
}

#endif
