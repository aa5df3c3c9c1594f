/* Running a shell command line in a test (voltex-sim in a pipeline, the
 * scripts, jq, python3): its exit code and what it printed. */
#ifndef VOLTEX_TEST_COMMAND_H
#define VOLTEX_TEST_COMMAND_H

#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
    int code;  /* exit status, -1 when killed by a signal */
    char *out; /* stdout, NUL-terminated */
    size_t out_size;
    char *err; /* stderr */
} vx_command;

/* The whole of a file (NUL-terminated); size may be NULL. */
static inline char *vx_test_slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot read %s", path);
    size_t capacity = 1 << 16, n = 0;
    char *data = malloc(capacity + 1);
    cr_assert_not_null(data);
    size_t got;
    while ((got = fread(data + n, 1, capacity - n, f)) > 0) {
        n += got;
        if (n == capacity) {
            capacity *= 2;
            data = realloc(data, capacity + 1);
            cr_assert_not_null(data);
        }
    }
    fclose(f);
    data[n] = '\0';
    if (size) *size = n;
    return data;
}

/* Runs `sh -c` on the printf-formatted command line, stdin from /dev/null
 * unless the command says otherwise. */
static inline vx_command vx_command_run(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static inline vx_command vx_command_run(const char *fmt, ...)
{
    char line[8192];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    cr_assert(n > 0 && (size_t)n < sizeof line, "command line too long");
    char out_path[64], err_path[64];
    snprintf(out_path, sizeof out_path, "/tmp/vx_cmd_out_%d", (int)getpid());
    snprintf(err_path, sizeof err_path, "/tmp/vx_cmd_err_%d", (int)getpid());
    size_t size = strlen(line) + 2 * sizeof out_path + 64;
    char *full = malloc(size);
    cr_assert_not_null(full);
    snprintf(full, size, "( %s ) </dev/null >%s 2>%s", line, out_path, err_path);
    int status = system(full);
    free(full);
    vx_command c;
    c.code = status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    c.out = vx_test_slurp(out_path, &c.out_size);
    c.err = vx_test_slurp(err_path, NULL);
    unlink(out_path);
    unlink(err_path);
    return c;
}

static inline void vx_command_free(vx_command *c)
{
    free(c->out);
    free(c->err);
}

/* Lines of s. */
static inline size_t vx_test_count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

#endif
