/* The program docs/library.md walks through: it is shown there verbatim,
 * it builds against the public headers, and what it prints is physics
 * (tests/helpers/ball_drop_check.h). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ball_drop_check.h"

#define EXAMPLE_SOURCE VOLTEX_SOURCE_DIR "/docs/examples/ball_drop.c"
#define EXAMPLE_PROGRAM VOLTEX_EXAMPLES_DIR "/example_ball_drop"
#define LIBRARY_DOC VOLTEX_SOURCE_DIR "/docs/library.md"

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot read %s", path);
    cr_assert_eq(fseek(f, 0, SEEK_END), 0);
    long size = ftell(f);
    cr_assert_geq(size, 0);
    rewind(f);
    char *text = malloc((size_t)size + 1);
    cr_assert_not_null(text);
    cr_assert_eq(fread(text, 1, (size_t)size, f), (size_t)size);
    text[size] = '\0';
    fclose(f);
    return text;
}

static void assert_shown_whole(const char *example)
{
    char *source = read_text(example);
    char *doc = read_text(LIBRARY_DOC);
    cr_assert_not_null(strstr(doc, source), "docs/library.md does not show %s as it is", example);
    free(source);
    free(doc);
}

Test(library_example, is_shown_whole_in_the_library_doc)
{
    assert_shown_whole(EXAMPLE_SOURCE);
    assert_shown_whole(VOLTEX_SOURCE_DIR "/docs/examples/pendulum.c");
}

/* The pendulum example: it swings back through the bottom once per period
 * 2 pi sqrt(L/g) (1 + theta^2/16) (to the frame), the string keeps its 1 m,
 * and at the bottom it pulls m g (3 - 2 cos theta). */
Test(library_example, pendulum_swings_at_its_period_and_pulls_its_tension)
{
    FILE *p = popen(VOLTEX_EXAMPLES_DIR "/example_pendulum", "r");
    cr_assert_not_null(p);
    double t[4], length[4], tension[4];
    int n = 0;
    while (n < 4 && fscanf(p, "t %lf s: length %lf m, tension %lf N\n", &t[n], &length[n], &tension[n]) == 3) n++;
    cr_assert_eq(pclose(p), 0);
    cr_assert_eq(n, 2, "two passes through the bottom in 4 s, read %d", n);
    double theta = 10.0 * 3.14159265358979 / 180.0;
    double period = 2.0 * 3.14159265358979 * sqrt(1.0 / 9.81) * (1.0 + theta * theta / 16.0);
    cr_assert_lt(fabs((t[1] - t[0]) - period), 1.0 / 60.0 + 1e-9, "%g s between passes, period %g s", t[1] - t[0],
                 period);
    for (int k = 0; k < 2; k++) {
        cr_assert_float_eq(length[k], 1.0, 1e-6);
        cr_assert_float_eq(tension[k], 9.81 * (3.0 - 2.0 * cos(theta)), 0.01, "tension %g N", tension[k]);
    }
}

Test(library_example, ball_falls_freely_then_rests_on_the_floor)
{
    vx_check_ball_drop(EXAMPLE_PROGRAM);
}
