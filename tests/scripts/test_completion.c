/* scripts/completion/voltex-sim.bash: bash completes the options, the values
 * of --format, --order and --solver KEY=, and scene files; and its lists are
 * the program's own (every option of --help, every key the scene's solver
 * object accepts), so the completion cannot fall behind them. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COMPLETION VOLTEX_SOURCE_DIR "/scripts/completion/voltex-sim.bash"

/* Output of cmd (at most size - 1 bytes) into out. */
static void capture(const char *cmd, char *out, size_t size)
{
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p, "cannot run %s", cmd);
    size_t n = fread(out, 1, size - 1, p);
    out[n] = '\0';
    pclose(p);
}

/* The completions bash offers for the words (the last one being completed). */
static void complete_words(const char *words, char *out, size_t size)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "cd '" VOLTEX_SOURCE_DIR "/scenes' && bash -c 'source \"" COMPLETION "\"; COMP_WORDS=(%s); "
             "COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _voltex_sim; printf \"%%s \" \"${COMPREPLY[@]}\"'",
             words);
    capture(cmd, out, size);
}

Test(completion, options_values_and_scenes)
{
    char got[4096];
    complete_words("voltex-sim --fo", got, sizeof got);
    cr_assert_str_eq(got, "--format ");
    complete_words("voltex-sim --format \"\"", got, sizeof got);
    cr_assert_str_eq(got, "csv json jsonl glb ");
    complete_words("voltex-sim --layout w", got, sizeof got);
    cr_assert_str_eq(got, "wide ");
    complete_words("voltex-sim --order c", got, sizeof got);
    cr_assert_str_eq(got, "colored ");
    complete_words("voltex-sim --solver sub", got, sizeof got);
    cr_assert_str_eq(got, "substeps= ");
    complete_words("voltex-sim ball", got, sizeof got);
    cr_assert_str_eq(got, "ball_drop.json ");
    complete_words("voltex-sim --st", got, sizeof got);
    cr_assert_str_eq(got, "--steps --stats --stats=json --stats-file ");
    complete_words("voltex-sim --stats-file ball", got, sizeof got);
    cr_assert_str_eq(got, "ball_drop.json ", "a file name after --stats-file");
}

/* Every word of the completion's list in text, as a whole word. */
static bool has_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
        bool start = p == text || strchr(" \t\n,(\"", p[-1]);
        bool end = p[n] == '\0' || strchr(" \t\n,)=\"", p[n]);
        if (start && end) return true;
    }
    return false;
}

/* The quoted list the script assigns to name ("local options=\"...\""). */
static void script_list(const char *script, const char *name, char *out, size_t size)
{
    char opening[64];
    snprintf(opening, sizeof opening, "%s=\"", name);
    const char *p = strstr(script, opening);
    cr_assert_not_null(p, "no %s list in the script", name);
    p += strlen(opening);
    size_t n = strcspn(p, "\"");
    cr_assert_lt(n, size);
    memcpy(out, p, n);
    out[n] = '\0';
}

Test(completion, lists_are_the_programs)
{
    char help[16384], all[8192], script[4096], solver_keys[2048], keys[2048];
    capture("'" VOLTEX_SIM_PATH "' --help", help, sizeof help);
    capture("cat '" COMPLETION "'", all, sizeof all);
    script_list(all, "options", script, sizeof script);
    /* every long option of --help */
    int options = 0;
    for (const char *p = strstr(help, "--"); p; p = strstr(p + 2, "--")) {
        char option[64];
        size_t n = 0;
        while (n + 1 < sizeof option && (p[n] == '-' || (p[n] >= 'a' && p[n] <= 'z'))) {
            option[n] = p[n];
            n++;
        }
        option[n] = '\0';
        if (n <= 2) continue;
        options++;
        cr_assert(has_word(script, option), "%s of --help is not completed", option);
    }
    cr_assert_geq(options, 15);
    /* every key of the scene's solver object, from the program's own message */
    script_list(all, "solver_keys", solver_keys, sizeof solver_keys);
    capture("'" VOLTEX_SIM_PATH "' '" VOLTEX_SOURCE_DIR "/scenes/ball_drop.json' --solver nosuchkey=1 2>&1", keys,
            sizeof keys);
    const char *list = strstr(keys, "expected one of: ");
    cr_assert_not_null(list, "%s", keys);
    list += strlen("expected one of: ");
    int count = 0;
    for (const char *p = list; *p && *p != ')';) {
        char key[64];
        size_t n = strcspn(p, ",)");
        cr_assert_lt(n, sizeof key);
        memcpy(key, p, n);
        key[n] = '\0';
        cr_assert(has_word(solver_keys, key), "solver key %s is not completed", key);
        count++;
        p += n;
        if (*p == ',') p += 2;
    }
    cr_assert_geq(count, 10);
}
