/* docs/man/voltex-sim.1, the manual page: groff and man render it without a
 * warning, it names every option of --help (long and short) and every value
 * of --format, --layout and --order, the exit codes, and its header carries
 * the program's version. (cmake --install puts it in share/man/man1:
 * tests/install.) */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "test_command.h"

#define PAGE VOLTEX_SOURCE_DIR "/docs/man/voltex-sim.1"

Test(man_page, renders_without_warnings)
{
    vx_command r = vx_command_run("groff -man -Tutf8 -ww -z '" PAGE "'");
    cr_assert_eq(r.code, 0, "%s", r.err);
    cr_assert_str_empty(r.err, "groff warns: %s", r.err);
    vx_command_free(&r);
    r = vx_command_run("MANWIDTH=80 man --warnings -l '" PAGE "' >/dev/null");
    cr_assert_eq(r.code, 0, "%s", r.err);
    cr_assert_str_empty(r.err, "man warns: %s", r.err);
    vx_command_free(&r);
}

/* Whether word stands in text with no letter, digit, '-' or '=' right before
 * or after it. */
static bool has_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
        bool start = p == text || !strchr("abcdefghijklmnopqrstuvwxyz0123456789-", p[-1]);
        bool end = !strchr("abcdefghijklmnopqrstuvwxyz0123456789-", p[n]) || p[n] == '\0';
        if (start && end) return true;
    }
    return false;
}

Test(man_page, names_every_option_of_help)
{
    /* the page as text, without bold and underline */
    vx_command page = vx_command_run("groff -man -rHY=0 -Tutf8 -P-cbu '" PAGE "'"); /* no hyphens */
    cr_assert_eq(page.code, 0, "%s", page.err);
    vx_command help = vx_command_run("'" VOLTEX_SIM_PATH "' --help");
    cr_assert_eq(help.code, 0);
    int options = 0;
    for (const char *p = help.out; (p = strchr(p, '-')) != NULL;) {
        /* "-x," or "--long" at a word's start */
        if (p > help.out && !strchr(" [(", p[-1])) {
            p++;
            continue;
        }
        char option[64];
        size_t n = 0;
        while (n + 1 < sizeof option && (p[n] == '-' || (p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z')))
            option[n] = p[n], n++;
        option[n] = '\0';
        p += n ? n : 1;
        if (n < 2 || strcmp(option, "--") == 0) continue;
        options++;
        cr_assert(has_word(page.out, option), "%s of --help is not in the manual page", option);
    }
    cr_assert_geq(options, 25, "only %d options read from --help", options);
    const char *words[] = {"csv", "json", "jsonl", "long", "wide", "sequential", "colored", "--stats=json"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        cr_assert(has_word(page.out, words[i]), "%s is not in the manual page", words[i]);
    cr_assert_not_null(strstr(page.out, "EXIT STATUS"));
    for (char code = '0'; code <= '4'; code++) {
        char line[16];
        snprintf(line, sizeof line, "\n       %c  ", code);
        cr_assert_not_null(strstr(page.out, line), "exit code %c is not listed", code);
    }
    vx_command_free(&page);
    vx_command_free(&help);
}

Test(man_page, carries_the_programs_version)
{
    vx_command version = vx_command_run("'" VOLTEX_SIM_PATH "' --version");
    cr_assert_eq(version.code, 0);
    char expected[128];
    /* "voltex-sim 0.1.0\n" -> the .TH line's "voltex\-sim 0.1.0" */
    snprintf(expected, sizeof expected, "\"voltex\\-sim %.*s\"", (int)strcspn(version.out + 11, "\n"),
             version.out + 11);
    char *page = vx_test_slurp(PAGE, NULL);
    const char *th = strstr(page, "\n.TH ");
    cr_assert_not_null(th);
    size_t th_length = strcspn(th + 1, "\n");
    char th_line[256];
    snprintf(th_line, sizeof th_line, "%.*s", (int)th_length, th + 1);
    cr_assert_not_null(strstr(th_line, expected), "%s does not say %s", th_line, expected);
    free(page);
    vx_command_free(&version);
}
