/* Shared by the programs of tests/cli/: running voltex-sim as users run it
 * (arguments, standard input, stdout and stderr captured), a scratch
 * directory per test, and the failure contract of docs/cli.md. */
#ifndef VOLTEX_TEST_CLI_RUN_H
#define VOLTEX_TEST_CLI_RUN_H

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* ---- running the binary ---- */

typedef struct {
    int code;   /* exit code, or -1 when killed by a signal */
    char *out;  /* everything on stdout, NUL-terminated */
    size_t out_size;
    char *err;  /* everything on stderr */
    size_t err_size;
} sim_result;

static inline char *read_whole_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot read %s", path);
    size_t cap = 4096, n = 0;
    char *data = malloc(cap);
    cr_assert_not_null(data);
    for (;;) {
        if (n + 4096 > cap) {
            cap *= 2;
            data = realloc(data, cap);
            cr_assert_not_null(data);
        }
        size_t got = fread(data + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) break;
    }
    fclose(f);
    data[n] = '\0';
    if (size) *size = n;
    return data;
}

static inline double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A scratch directory per test, removed (it holds only plain files) by
 * work_dir_remove. */
static char work_dir[64];

static inline void work_dir_make(void)
{
    snprintf(work_dir, sizeof work_dir, "/tmp/vx_cli_XXXXXX");
    cr_assert_not_null(mkdtemp(work_dir));
}

static inline void work_dir_remove(void)
{
    DIR *d = opendir(work_dir);
    if (!d) return;
    struct dirent *e;
    char path[512];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        snprintf(path, sizeof path, "%s/%s", work_dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(work_dir);
}

/* work_dir/name in the next of a ring of 16 buffers. */
static inline const char *ring_path(char ring[16][512], int *next, const char *name)
{
    char *p = ring[*next];
    *next = (*next + 1) % 16;
    snprintf(p, 512, "%s/%s", work_dir, name);
    return p;
}

/* A path in the work dir, valid for the next 15 calls. */
static inline const char *wpath(const char *name)
{
    static char ring[16][512];
    static int next = 0;
    return ring_path(ring, &next, name);
}

static inline void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    cr_assert(fputs(text, f) >= 0);
    cr_assert_eq(fclose(f), 0);
}

/* Starts voltex-sim with args (NULL-terminated, without argv[0]) and the
 * given file actions. */
static inline pid_t spawn_sim(const char *const *args, const posix_spawn_file_actions_t *actions)
{
    const char *argv[64];
    size_t n = 0;
    argv[n++] = VOLTEX_SIM_PATH;
    for (size_t i = 0; args[i] && n < 63; i++) argv[n++] = args[i];
    argv[n] = NULL;
    pid_t pid;
    int rc = posix_spawn(&pid, VOLTEX_SIM_PATH, actions, NULL, (char *const *)argv, environ);
    cr_assert_eq(rc, 0, "cannot run %s: %s", VOLTEX_SIM_PATH, strerror(rc));
    return pid;
}

/* Runs voltex-sim with args (NULL-terminated, without argv[0]), standard
 * input from stdin_path, stdout and stderr captured in files of the work dir. */
static inline sim_result run_sim_input(const char *stdin_path, const char *const *args)
{
    char out_path[512], err_path[512];
    snprintf(out_path, sizeof out_path, "%s/.stdout", work_dir);
    snprintf(err_path, sizeof err_path, "%s/.stderr", work_dir);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, stdin_path, O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid = spawn_sim(args, &actions);
    posix_spawn_file_actions_destroy(&actions);
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);

    sim_result r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = read_whole_file(out_path, &r.out_size);
    r.err = read_whole_file(err_path, &r.err_size);
    unlink(out_path);
    unlink(err_path);
    return r;
}

static inline sim_result run_sim_argv(const char *const *args) { return run_sim_input("/dev/null", args); }

#define run_sim(...) run_sim_argv((const char *const[]){__VA_ARGS__, NULL})
#define run_sim_stdin(path, ...) run_sim_input(path, (const char *const[]){__VA_ARGS__, NULL})

static inline void sim_free(sim_result *r)
{
    free(r->out);
    free(r->err);
}

static inline size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

/* The failure contract: exit code, nothing on stdout, exactly one stderr line
 * starting "voltex-sim: " (and equal to expected when given). */
static inline void assert_failure(const sim_result *r, int code, const char *expected)
{
    cr_assert_eq(r->code, code, "exit %d, expected %d; stderr: %s", r->code, code, r->err);
    cr_assert_eq(r->out_size, 0, "stdout must be empty, got: %.200s", r->out);
    cr_assert_eq(count_lines(r->err), 1, "one line on stderr, got: %s", r->err);
    cr_assert_eq(strncmp(r->err, "voltex-sim: ", 12), 0, "stderr: %s", r->err);
    if (expected) cr_assert_str_eq(r->err, expected);
}

/* Scene paths have a ring of their own: a test keeps its scenes while it
 * names any number of outputs with wpath. */
static inline const char *scene_file(const char *name, const char *text)
{
    static char ring[16][512];
    static int next = 0;
    const char *path = ring_path(ring, &next, name);
    write_text(path, text);
    return path;
}

#endif
