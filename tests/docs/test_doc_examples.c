/* Every example of README.md and of each page in docs/ is run (tests/docs/doc_examples.py):
 * commands must succeed, transcripts must print what the page shows, scenes
 * must load and pass the JSON Schema, C must build and run, and a block that
 * is not run says why in the page. A new page of docs/ is covered as it
 * comes. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "test_command.h"

Test(doc_examples, every_example_of_the_docs_runs, .timeout = 300)
{
    vx_command r = vx_command_run("cd '" VOLTEX_SOURCE_DIR "' && VOLTEX_SIM='" VOLTEX_SIM_PATH
                                  "' VOLTEX_EXAMPLES_DIR='" VOLTEX_EXAMPLES_DIR "' VOLTEX_CC='" VOLTEX_CC
                                  "' VOLTEX_CFLAGS='" VOLTEX_DOC_CFLAGS "' VOLTEX_LIBS='" VOLTEX_DOC_LIBS
                                  "' /usr/bin/python3 tests/docs/doc_examples.py \"$PWD\" README.md docs/*.md");
    printf("%s", r.out);
    cr_assert_eq(r.code, 0, "%s%s", r.out, r.err);
    cr_assert_null(strstr(r.out, "FAILED"));
    int blocks = 0, passed = 0;
    const char *summary = strstr(r.out, "doc_examples: ");
    cr_assert_not_null(summary, "%s", r.out);
    cr_assert_eq(sscanf(summary, "doc_examples: %*d files, %d code blocks: %d run and passed", &blocks, &passed), 2);
    cr_assert_geq(passed, 25, "%s", summary);
    vx_command_free(&r);
}

/* The README stays a front page (about 200 lines): the detail goes to docs/. */
Test(doc_examples, readme_stays_short)
{
    vx_command r = vx_command_run("wc -l < '" VOLTEX_SOURCE_DIR "/README.md'");
    cr_assert_eq(r.code, 0, "%s", r.err);
    int lines = atoi(r.out);
    cr_assert(lines > 50 && lines <= 205, "README.md has %d lines: move detail into docs/", lines);
    vx_command_free(&r);
}
