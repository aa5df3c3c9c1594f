/* The program docs/library.md walks through: it is shown there verbatim,
 * it builds against the public headers, and what it prints is physics: free
 * fall as the semi-implicit Euler step gives it, then a ball at rest on the
 * floor. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

Test(library_example, is_shown_whole_in_the_library_doc)
{
    char *source = read_text(EXAMPLE_SOURCE);
    char *doc = read_text(LIBRARY_DOC);
    cr_assert_not_null(strstr(doc, source), "docs/library.md does not show docs/examples/ball_drop.c as it is");
    free(source);
    free(doc);
}

typedef struct {
    double t, y, vy;
    unsigned long contacts;
} sample;

Test(library_example, ball_falls_freely_then_rests_on_the_floor)
{
    FILE *p = popen(EXAMPLE_PROGRAM, "r");
    cr_assert_not_null(p);
    sample s[16];
    int n = 0;
    while (n < 16 && fscanf(p, "t %lf s  y %lf m  vy %lf m/s  contacts %lu\n", &s[n].t, &s[n].y, &s[n].vy,
                            &s[n].contacts) == 4)
        n++;
    cr_assert_eq(pclose(p), 0, "the example failed");
    cr_assert_eq(n, 8, "a line every 15 steps for 120 steps");

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
