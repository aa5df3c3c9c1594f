/* The files voltex-sim writes are never left damaged (docs/cli.md, "Output
 * files"): outputs go to a temporary name and are renamed into place only
 * when the run ends well or is interrupted; two paths of one file are
 * refused before anything is opened; SIGINT and SIGTERM end the run at a
 * frame boundary; closed standard descriptors never receive a trace or a
 * message by accident. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_cli_run.h"

/* A ball resting on a floor: contacts in every frame. */
static const char rest_scene[] =
    "{ \"name\": \"rest\", \"dt\": 0.015625, \"steps\": 5,\n"
    "  \"entities\": [\n"
    "    { \"name\": \"floor\", \"transform\": { \"position\": [0, -1, 0] },\n"
    "      \"collider\": { \"type\": \"box\", \"half_extents\": [10, 1, 10] } },\n"
    "    { \"name\": \"ball\", \"transform\": { \"position\": [0, 0.49, 0] },\n"
    "      \"collider\": { \"type\": \"sphere\", \"radius\": 0.5 },\n"
    "      \"rigidbody\": { \"mass\": 1 } } ] }\n";

/* Overflows to infinity in step 35 (exit 3). */
static const char blowup_scene[] =
    "{ \"name\": \"blowup\", \"dt\": 0.03125, \"steps\": 40, \"gravity\": [0, 0, 0],\n"
    "  \"entities\": [\n"
    "    { \"name\": \"rocket\", \"collider\": { \"type\": \"sphere\", \"radius\": 1 },\n"
    "      \"rigidbody\": { \"mass\": 1, \"velocity\": [3.2e38, 0, 0] } } ] }\n";

/* Runs as long as it is let: the rest scene for a billion steps. */
#define LONG_STEPS "1000000000"

TestSuite(outputs, .init = work_dir_make, .fini = work_dir_remove, .timeout = 60);

/* The names in the work directory other than the given ones (temporary
 * files left behind), counted. */
static int stray_files(const char *const *expected, size_t n)
{
    DIR *d = opendir(work_dir);
    cr_assert_not_null(d);
    int stray = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        bool known = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
        for (size_t i = 0; i < n && !known; i++) known = strcmp(e->d_name, expected[i]) == 0;
        if (!known) {
            cr_log_error("left behind: %s", e->d_name);
            stray++;
        }
    }
    closedir(d);
    return stray;
}

static void assert_file_is(const char *path, const char *text)
{
    char *data = read_whole_file(path, NULL);
    cr_assert_str_eq(data, text, "%s changed", path);
    free(data);
}

/* ---- two paths of one file ---- */

Test(outputs, an_output_naming_an_input_or_another_output_is_refused)
{
    const char *scene = scene_file("rest.json", rest_scene);
    const char *golden = wpath("golden.csv");
    sim_result r = run_sim(scene, "-o", golden);
    cr_assert_eq(r.code, 0, "%s", r.err);
    sim_free(&r);
    char *before = read_whole_file(golden, NULL);

    /* the golden through its own name, a symbolic link and a hard link */
    const char *soft = wpath("soft.csv"), *hard = wpath("hard.csv");
    cr_assert_eq(symlink(golden, soft), 0);
    cr_assert_eq(link(golden, hard), 0);
    const char *same[] = {golden, soft, hard};
    for (size_t i = 0; i < 3; i++) {
        r = run_sim(scene, "--compare", golden, "--contacts", same[i]);
        char want[1024];
        snprintf(want, sizeof want, "voltex-sim: --compare %s and --contacts %s name the same file\n", golden, same[i]);
        assert_failure(&r, 2, want);
        sim_free(&r);
        assert_file_is(golden, before);
    }

    /* two outputs, one of them not made yet */
    const char *out = wpath("x.csv");
    r = run_sim(scene, "-o", out, "--contacts", out);
    assert_failure(&r, 2, NULL);
    cr_assert_not_null(strstr(r.err, "--output") && strstr(r.err, "--contacts"), "%s", r.err);
    sim_free(&r);
    cr_assert_neq(access(out, F_OK), 0, "nothing is made");

    /* an output over the scene */
    r = run_sim(scene, "--queries", scene);
    assert_failure(&r, 2, NULL);
    cr_assert_not_null(strstr(r.err, "the scene"), "%s", r.err);
    sim_free(&r);
    assert_file_is(scene, rest_scene);

    /* an output over the file stdout goes to (`> c.csv --contacts c.csv`) */
    char stdout_path[512];
    snprintf(stdout_path, sizeof stdout_path, "%s/.stdout", work_dir);
    r = run_sim(scene, "--contacts", stdout_path);
    cr_assert_eq(r.code, 2);
    cr_assert_not_null(strstr(r.err, "stdout and --contacts"), "%s", r.err);
    sim_free(&r);

    /* devices may be named twice */
    r = run_sim(scene, "-o", "/dev/null", "--contacts", "/dev/null", "--queries", "/dev/null");
    cr_assert_eq(r.code, 0, "%s", r.err);
    sim_free(&r);
    free(before);
}

/* ---- written under a temporary name, kept only when the run ends well ---- */

Test(outputs, a_failed_run_leaves_the_old_files)
{
    const char *scene = scene_file("blowup.json", blowup_scene);
    const char *out = wpath("t.csv"), *contacts = wpath("c.csv");
    write_text(out, "old trace\n");
    sim_result r = run_sim(scene, "-o", out, "--contacts", contacts);
    cr_assert_eq(r.code, 3, "%s", r.err);
    sim_free(&r);
    assert_file_is(out, "old trace\n");
    cr_assert_neq(access(contacts, F_OK), 0, "no contact trace is made");
    const char *kept[] = {"blowup.json", "t.csv"};
    cr_assert_eq(stray_files(kept, 2), 0);
}

Test(outputs, an_output_that_cannot_be_opened_leaves_nothing)
{
    const char *scene = scene_file("rest.json", rest_scene);
    const char *out = wpath("t.csv");
    sim_result r = run_sim(scene, "-o", out, "--contacts", "/nonexistent-dir/c.csv");
    assert_failure(&r, 4, "voltex-sim: /nonexistent-dir/c.csv: cannot open: No such file or directory\n");
    sim_free(&r);
    const char *kept[] = {"rest.json"};
    cr_assert_eq(stray_files(kept, 1), 0);

    r = run_sim(scene, "-o", work_dir);
    assert_failure(&r, 4, NULL);
    cr_assert_not_null(strstr(r.err, "cannot open: Is a directory"), "%s", r.err);
    sim_free(&r);
}

Test(outputs, a_good_run_replaces_the_file_and_keeps_its_permissions_and_links)
{
    const char *scene = scene_file("rest.json", rest_scene);
    const char *out = wpath("t.csv"), *link_path = wpath("link.csv");
    write_text(out, "old trace\n");
    cr_assert_eq(chmod(out, 0640), 0);
    cr_assert_eq(symlink("t.csv", link_path), 0);
    sim_result r = run_sim(scene, "-o", link_path);
    cr_assert_eq(r.code, 0, "%s", r.err);
    sim_free(&r);
    struct stat info;
    cr_assert_eq(lstat(link_path, &info), 0);
    cr_assert(S_ISLNK(info.st_mode), "the link stays a link");
    cr_assert_eq(stat(out, &info), 0);
    cr_assert_eq(info.st_mode & 0777, 0640, "mode %o", (unsigned)(info.st_mode & 0777));
    char *trace = read_whole_file(out, NULL);
    cr_assert_eq(strncmp(trace, "frame,time,entity,name,", 23), 0, "%s", trace);
    cr_assert_eq(count_lines(trace), 1 + 6 * 2, "%s", trace);
    free(trace);
    const char *kept[] = {"rest.json", "t.csv", "link.csv"};
    cr_assert_eq(stray_files(kept, 3), 0);

    if (geteuid() != 0) { /* root may write anything: the check would pass */
        cr_assert_eq(chmod(out, 0440), 0);
        r = run_sim(scene, "-o", out);
        assert_failure(&r, 4, NULL);
        cr_assert_not_null(strstr(r.err, "Permission denied"), "%s", r.err);
        sim_free(&r);
    }
}

/* ---- closed standard descriptors ---- */

/* Runs voltex-sim with args and the standard descriptor fd closed (the other
 * two on /dev/null); returns the exit code. */
static int run_with_closed(int fd, const char *const *args)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    for (int k = 0; k <= 2; k++) {
        if (k == fd)
            posix_spawn_file_actions_addclose(&actions, k);
        else
            posix_spawn_file_actions_addopen(&actions, k, "/dev/null", k == 0 ? O_RDONLY : O_WRONLY, 0);
    }
    pid_t pid = spawn_sim(args, &actions);
    posix_spawn_file_actions_destroy(&actions);
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status));
    return WEXITSTATUS(status);
}

Test(outputs, closed_stderr_never_writes_into_a_trace)
{
    const char *scene = scene_file("rest.json", rest_scene);
    const char *expected = wpath("expected.csv"), *out = wpath("t.csv");
    sim_result r = run_sim(scene, "-o", expected);
    cr_assert_eq(r.code, 0);
    sim_free(&r);
    /* --stats writes to stderr at the end, when the trace file is open */
    cr_assert_eq(run_with_closed(2, (const char *const[]){scene, "-o", out, "--stats", NULL}), 0);
    char *want = read_whole_file(expected, NULL);
    assert_file_is(out, want);
    free(want);
    /* a failure with stderr closed: still its exit code, and no file */
    cr_assert_eq(run_with_closed(2, (const char *const[]){scene, "-o", out, "--contacts", "/nonexistent-dir/c", NULL}),
                 4);
}

Test(outputs, a_trace_for_a_closed_stdout_is_refused)
{
    const char *scene = scene_file("rest.json", rest_scene);
    cr_assert_eq(run_with_closed(1, (const char *const[]){scene, NULL}), 4);
    /* nothing goes to stdout: fine */
    cr_assert_eq(run_with_closed(1, (const char *const[]){scene, "-o", wpath("t.csv"), NULL}), 0);
    /* a scene from a closed stdin is an empty one */
    cr_assert_eq(run_with_closed(0, (const char *const[]){"-", "-o", "/dev/null", NULL}), 2);
}

/* ---- SIGINT and SIGTERM ---- */

/* Starts a long run (args end with NULL) and waits until its temporary
 * output beside out holds some bytes. */
static pid_t start_long_run(const char *const *args, const char *out)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, wpath("err.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid = spawn_sim(args, &actions);
    posix_spawn_file_actions_destroy(&actions);

    const char *base = strrchr(out, '/') + 1;
    char prefix[256];
    snprintf(prefix, sizeof prefix, ".%s.voltex-", base);
    const struct timespec tick = {0, 5 * 1000 * 1000};
    double give_up = now_seconds() + 30.0;
    for (;;) {
        cr_assert_lt(now_seconds(), give_up, "no temporary output appeared");
        DIR *d = opendir(work_dir);
        struct dirent *e;
        off_t size = 0;
        while ((e = readdir(d)) != NULL) {
            if (strncmp(e->d_name, prefix, strlen(prefix)) != 0) continue;
            struct stat info;
            char path[512];
            snprintf(path, sizeof path, "%s/%s", work_dir, e->d_name);
            if (stat(path, &info) == 0) size = info.st_size;
        }
        closedir(d);
        if (size > 0) return pid;
        nanosleep(&tick, NULL);
    }
}

static int stop_with(pid_t pid, int signal_number)
{
    cr_assert_eq(kill(pid, signal_number), 0);
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status), "killed by signal %d", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return WEXITSTATUS(status);
}

/* Every line of a CSV trace has the header's number of fields, and the last
 * frame has a row per entity. Returns the last frame. */
static long assert_whole_csv(const char *text, size_t rows_per_frame)
{
    size_t fields = 0;
    long last = -1;
    size_t rows_of_last = 0;
    bool header = true;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        cr_assert_not_null(end, "the last line is cut: %s", line);
        size_t commas = 0;
        for (const char *p = line; p < end; p++) commas += *p == ',';
        if (header) {
            fields = commas;
            header = false;
        } else {
            cr_assert_eq(commas, fields, "a cut row: %.*s", (int)(end - line), line);
            long frame = strtol(line, NULL, 10);
            rows_of_last = frame == last ? rows_of_last + 1 : 1;
            last = frame;
        }
        line = end + 1;
    }
    if (rows_per_frame) cr_assert_eq(rows_of_last, rows_per_frame, "frame %ld has %zu rows", last, rows_of_last);
    return last;
}

Test(outputs, sigint_ends_the_run_at_a_frame_with_whole_traces)
{
    const char *scene = scene_file("rest.json", rest_scene);
    const char *out = wpath("t.csv"), *contacts = wpath("c.csv");
    write_text(out, "old trace\n");
    pid_t pid = start_long_run((const char *const[]){scene, "--steps", LONG_STEPS, "-o", out, "--contacts", contacts,
                                                     "--every", "7", NULL},
                               out);
    cr_assert_eq(stop_with(pid, SIGINT), 128 + SIGINT);
    char *err = read_whole_file(wpath("err.txt"), NULL);
    cr_assert_str_eq(err, "", "an interrupt is no error");
    free(err);
    /* kept: complete up to the last step done, which is the last frame */
    char *trace = read_whole_file(out, NULL);
    long last = assert_whole_csv(trace, 2);
    cr_assert_gt(last, 0);
    free(trace);
    char *contact_trace = read_whole_file(contacts, NULL);
    cr_assert_eq(assert_whole_csv(contact_trace, 1), last, "both traces end at the same frame");
    free(contact_trace);
    const char *kept[] = {"rest.json", "t.csv", "c.csv", "err.txt"};
    cr_assert_eq(stray_files(kept, 4), 0);
}

Test(outputs, sigterm_closes_the_json_document)
{
    const char *scene = scene_file("rest.json", rest_scene);
    const char *out = wpath("t.json");
    pid_t pid = start_long_run((const char *const[]){scene, "--steps", LONG_STEPS, "-f", "json", "-o", out, NULL}, out);
    cr_assert_eq(stop_with(pid, SIGTERM), 128 + SIGTERM);
    char *text = read_whole_file(out, NULL);
    cJSON *doc = cJSON_Parse(text);
    cr_assert_not_null(doc, "not a whole JSON document: ...%s", text + (strlen(text) > 200 ? strlen(text) - 200 : 0));
    const cJSON *frames = cJSON_GetObjectItemCaseSensitive(doc, "frames");
    int n = cJSON_GetArraySize(frames);
    cr_assert_gt(n, 1);
    const cJSON *last = cJSON_GetArrayItem(frames, n - 1);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(last, "bodies")), 2);
    cJSON_Delete(doc);
    free(text);
}

Test(outputs, a_compare_that_finds_a_difference_keeps_no_contact_trace)
{
    const char *scene = scene_file("rest.json", rest_scene);
    const char *golden = wpath("golden.csv"), *contacts = wpath("c.csv");
    sim_result r = run_sim(scene, "--steps", "3", "-o", golden);
    cr_assert_eq(r.code, 0);
    sim_free(&r);
    r = run_sim(scene, "--steps", "3", "--compare", golden, "--contacts", contacts);
    cr_assert_eq(r.code, 0, "%s", r.err);
    sim_free(&r);
    cr_assert_eq(access(contacts, F_OK), 0, "a good compare keeps its contact trace");
    cr_assert_eq(unlink(contacts), 0);
    /* the golden ends at frame 3: the run stops there with a difference */
    r = run_sim(scene, "--steps", "10", "--compare", golden, "--contacts", contacts);
    cr_assert_eq(r.code, 1, "%s", r.err);
    sim_free(&r);
    cr_assert_neq(access(contacts, F_OK), 0, "a cut contact trace is not kept");
}

/* ---- --stats-file: the summary as an output file ---- */

/* The summary goes to the file (stderr keeps nothing), as text or JSON, and
 * the file is written and checked like the traces: a temporary name, the
 * same-file refusal, nothing made when it cannot be opened. */
Test(outputs, stats_file_holds_the_summary_stderr_would_have_had)
{
    const char *scene = scene_file("rest.json", rest_scene);
    const char *out = wpath("t.csv"), *stats = wpath("stats.json");
    write_text(stats, "old stats\n");
    sim_result r = run_sim(scene, "-q", "-o", out, "--stats=json", "--stats-file", stats);
    cr_assert_eq(r.code, 0, "%s", r.err);
    cr_assert_str_eq(r.err, "", "the summary goes to the file only");
    sim_free(&r);
    size_t size;
    char *text = read_whole_file(stats, &size);
    cr_assert_eq(strchr(text, '\n'), text + size - 1, "one line: %s", text);
    cJSON *doc = cJSON_Parse(text);
    cr_assert_not_null(doc, "not JSON: %s", text);
    cr_assert_eq(cJSON_GetObjectItemCaseSensitive(doc, "steps")->valueint, 5);
    cr_assert_eq(cJSON_GetObjectItemCaseSensitive(doc, "bodies")->valueint, 2);
    cr_assert(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(doc, "trace_mb")), "the trace is a regular file");
    cJSON_Delete(doc);
    free(text);
    const char *kept[] = {"rest.json", "t.csv", "stats.json"};
    cr_assert_eq(stray_files(kept, 3), 0);

    /* --stats-file alone: the text summary */
    r = run_sim(scene, "-q", "-o", "/dev/null", "--stats-file", stats);
    cr_assert_eq(r.code, 0, "%s", r.err);
    cr_assert_str_eq(r.err, "");
    sim_free(&r);
    text = read_whole_file(stats, NULL);
    const char *first = "voltex-sim: bodies 2 (1 dynamic), steps 5, ";
    cr_assert_eq(strncmp(text, first, strlen(first)), 0, "%s", text);
    free(text);

    /* on stdout, when no trace goes there */
    r = run_sim(scene, "-q", "-o", out, "--stats=json", "--stats-file", "-");
    cr_assert_eq(r.code, 0, "%s", r.err);
    cr_assert_eq(r.out[0], '{', "%s", r.out);
    sim_free(&r);
    r = run_sim(scene, "--stats-file", "-");
    assert_failure(&r, 2, "voltex-sim: --stats-file -: a trace already goes to stdout\n");
    sim_free(&r);
}

Test(outputs, stats_file_naming_another_file_or_unopenable_is_refused)
{
    const char *scene = scene_file("rest.json", rest_scene);
    const char *out = wpath("t.csv");
    write_text(out, "old trace\n");
    sim_result r = run_sim(scene, "-o", out, "--stats-file", out);
    char want[1024];
    snprintf(want, sizeof want, "voltex-sim: --output %s and --stats-file %s name the same file\n", out, out);
    assert_failure(&r, 2, want);
    sim_free(&r);
    assert_file_is(out, "old trace\n");
    r = run_sim(scene, "-o", out, "--stats-file", scene);
    assert_failure(&r, 2, NULL);
    cr_assert_not_null(strstr(r.err, "the scene"), "%s", r.err);
    sim_free(&r);
    assert_file_is(scene, rest_scene);

    r = run_sim(scene, "-o", out, "--stats-file", "/nonexistent-dir/s.json");
    assert_failure(&r, 4, "voltex-sim: /nonexistent-dir/s.json: cannot open: No such file or directory\n");
    sim_free(&r);
    assert_file_is(out, "old trace\n");
    const char *kept[] = {"rest.json", "t.csv"};
    cr_assert_eq(stray_files(kept, 2), 0);
}

/* A run that fails after it started still sums itself up, on stderr or in
 * the file; the trace of the failed run is not kept. */
Test(outputs, stats_file_of_a_failed_run_is_kept_without_its_trace)
{
    const char *scene = scene_file("blowup.json", blowup_scene);
    const char *out = wpath("t.csv"), *stats = wpath("stats.json");
    sim_result r = run_sim(scene, "-q", "-o", out, "--stats=json", "--stats-file", stats);
    cr_assert_eq(r.code, 3, "%s", r.err);
    cr_assert_not_null(strstr(r.err, "non-finite"), "%s", r.err);
    cr_assert_eq(count_lines(r.err), 1, "the message alone: %s", r.err);
    sim_free(&r);
    cr_assert_neq(access(out, F_OK), 0, "no trace of a failed run");
    char *text = read_whole_file(stats, NULL);
    cJSON *doc = cJSON_Parse(text);
    cr_assert_not_null(doc, "not JSON: %s", text);
    int steps = cJSON_GetObjectItemCaseSensitive(doc, "steps")->valueint;
    cr_assert(steps > 0 && steps < 40, "the steps done before the failure: %d", steps);
    cJSON_Delete(doc);
    free(text);
}
