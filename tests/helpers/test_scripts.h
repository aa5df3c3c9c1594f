/* Running the scripts of scripts/ from Criterion tests: a shell command with
 * its stdout and stderr captured, a scratch folder per test, small files. */
#ifndef VX_TEST_SCRIPTS_H
#define VX_TEST_SCRIPTS_H

#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define VX_SCRIPTS VOLTEX_SOURCE_DIR "/scripts"
#define VX_SCENES VOLTEX_SOURCE_DIR "/scenes"

typedef struct {
    int code;  /* exit code, -1 when killed by a signal */
    char *out; /* stdout, NUL-terminated */
    char *err; /* stderr */
} vx_script_result;

/* The whole file, NUL-terminated, or NULL when it cannot be read. */
static inline char *vx_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *data = malloc(cap);
    cr_assert_not_null(data);
    size_t got;
    while ((got = fread(data + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n < 2) {
            cap *= 2;
            data = realloc(data, cap);
            cr_assert_not_null(data);
        }
    }
    fclose(f);
    data[n] = '\0';
    return data;
}

static inline void vx_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "cannot write %s", path);
    cr_assert_eq(fwrite(text, 1, strlen(text), f), strlen(text));
    fclose(f);
}

/* A scratch folder for one test (its path in dir, at most 64 bytes). */
static inline void vx_scratch_make(char dir[64])
{
    snprintf(dir, 64, "/tmp/vx_scripts_XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static inline void vx_scratch_remove(const char dir[64])
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* Runs the command (printf format) with sh; stdout and stderr go to files in
 * dir, read back into the result. */
static inline vx_script_result vx_script_run(const char *dir, const char *format, ...)
{
    char cmd[8192], full[8600], out_path[128], err_path[128];
    va_list args;
    va_start(args, format);
    int n = vsnprintf(cmd, sizeof cmd, format, args);
    va_end(args);
    cr_assert(n > 0 && (size_t)n < sizeof cmd, "command too long");
    snprintf(out_path, sizeof out_path, "%s/.stdout", dir);
    snprintf(err_path, sizeof err_path, "%s/.stderr", dir);
    snprintf(full, sizeof full, "( %s ) </dev/null >'%s' 2>'%s'", cmd, out_path, err_path);
    int status = system(full);
    vx_script_result r = {WIFEXITED(status) ? WEXITSTATUS(status) : -1, vx_read_file(out_path),
                          vx_read_file(err_path)};
    cr_assert(r.out && r.err);
    remove(out_path);
    remove(err_path);
    return r;
}

static inline void vx_script_free(vx_script_result *r)
{
    free(r->out);
    free(r->err);
}

static inline bool vx_starts_with(const char *text, const char *prefix)
{
    return strncmp(text, prefix, strlen(prefix)) == 0;
}

/* The number of lines of text that start with prefix. */
static inline int vx_count_lines(const char *text, const char *prefix)
{
    int count = 0;
    size_t n = strlen(prefix);
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (strncmp(line, prefix, n) == 0) count++;
    return count;
}

/* The line of text that starts with prefix, copied into out (without '\n'). */
static inline bool vx_find_line(const char *text, const char *prefix, char *out, size_t size)
{
    size_t n = strlen(prefix);
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, prefix, n) == 0) {
            size_t len = strcspn(line, "\n");
            if (len >= size) len = size - 1;
            memcpy(out, line, len);
            out[len] = '\0';
            return true;
        }
    }
    return false;
}

#endif
