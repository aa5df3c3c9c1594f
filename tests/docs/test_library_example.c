/* The program docs/library.md walks through: it is shown there verbatim,
 * it builds against the public headers, and what it prints is physics
 * (tests/helpers/ball_drop_check.h). */
#include <criterion/criterion.h>
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

Test(library_example, is_shown_whole_in_the_library_doc)
{
    char *source = read_text(EXAMPLE_SOURCE);
    char *doc = read_text(LIBRARY_DOC);
    cr_assert_not_null(strstr(doc, source), "docs/library.md does not show docs/examples/ball_drop.c as it is");
    free(source);
    free(doc);
}

Test(library_example, ball_falls_freely_then_rests_on_the_floor)
{
    vx_check_ball_drop(EXAMPLE_PROGRAM);
}
