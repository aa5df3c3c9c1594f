/* realpath */
#define _XOPEN_SOURCE 700

#include "cli/output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define VX_TEMP_BASE_MAX 200 /* bytes of the file's own name kept in its temporary name (NAME_MAX is 255) */
#define VX_TEMP_TRIES 100    /* names tried before giving up (another run may hold one) */

static bool stdout_closed;

void vx_cli_output_stdout_was_closed(void) { stdout_closed = true; }

static char *copy_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c) memcpy(c, s, n);
    return c;
}

/* A stream on fd, or -1 with errno kept. */
static FILE *stream_of(int fd)
{
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}

/* Where the trace of path goes: a symbolic link's target, else path. */
static char *final_path_of(const char *path)
{
    struct stat link;
    if (lstat(path, &link) == 0 && S_ISLNK(link.st_mode)) {
        char *target = realpath(path, NULL);
        if (target) return target;
    }
    return copy_string(path);
}

/* Opens a new file beside final (".NAME.voltex-PID-N" in its directory),
 * with mode when given (the file it will replace keeps its permissions). */
static int open_temp(const char *final, const struct stat *replaced, char **temp_out)
{
    const char *slash = strrchr(final, '/');
    size_t dir_length = slash ? (size_t)(slash - final) + 1 : 0;
    const char *base = final + dir_length;
    size_t base_length = strlen(base);
    if (base_length > VX_TEMP_BASE_MAX) base_length = VX_TEMP_BASE_MAX;
    size_t size = dir_length + base_length + 64;
    char *temp = malloc(size);
    if (!temp) {
        errno = ENOMEM;
        return -1;
    }
    int fd = -1;
    for (int attempt = 0; attempt < VX_TEMP_TRIES && fd < 0; attempt++) {
        snprintf(temp, size, "%.*s.%.*s.voltex-%ld-%d", (int)dir_length, final, (int)base_length, base,
                 (long)getpid(), attempt);
        fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd >= 0 && replaced && fchmod(fd, replaced->st_mode & 07777) != 0) {
        int e = errno;
        close(fd);
        unlink(temp);
        errno = e;
        fd = -1;
    }
    if (fd < 0) {
        int e = errno;
        free(temp);
        errno = e;
        return -1;
    }
    *temp_out = temp;
    return fd;
}

/* The stream for a path that is not "-"; NULL with errno set. */
static FILE *open_path(vx_cli_output *o, const char *path)
{
    o->final_path = final_path_of(path);
    if (!o->final_path) {
        errno = ENOMEM;
        return NULL;
    }
    struct stat info;
    if (stat(o->final_path, &info) != 0) {
        if (errno != ENOENT) return NULL;
        return stream_of(open_temp(o->final_path, NULL, &o->temp_path));
    }
    if (S_ISDIR(info.st_mode)) {
        errno = EISDIR;
        return NULL;
    }
    if (!S_ISREG(info.st_mode)) return fopen(o->final_path, "w"); /* a device or a pipe: nothing to replace */
    if (access(o->final_path, W_OK) != 0) return NULL; /* a read-only file stays read-only */
    return stream_of(open_temp(o->final_path, &info, &o->temp_path));
}

static void forget_paths(vx_cli_output *o)
{
    free(o->temp_path);
    free(o->final_path);
    o->temp_path = NULL;
    o->final_path = NULL;
}

vx_status vx_cli_output_open(vx_cli_output *o, const char *path, vx_error *err)
{
    memset(o, 0, sizeof *o);
    o->is_stdout = strcmp(path, "-") == 0;
    o->name = o->is_stdout ? "stdout" : path;
    o->buffer = malloc(VX_CLI_OUTPUT_BUFFER);
    if (!o->buffer) return vx_error_set(err, VX_ERR_NOMEM, "%s: out of memory", o->name);
    if (o->is_stdout && stdout_closed)
        errno = EBADF;
    else if (o->is_stdout)
        o->file = stream_of(dup(STDOUT_FILENO));
    else
        o->file = open_path(o, path);
    if (!o->file) {
        int e = errno;
        if (o->temp_path) unlink(o->temp_path);
        forget_paths(o);
        free(o->buffer);
        o->buffer = NULL;
        return vx_error_set(err, e == ENOMEM ? VX_ERR_NOMEM : VX_ERR_IO, "%s: cannot open: %s", o->name, strerror(e));
    }
    setvbuf(o->file, o->buffer, _IOFBF, VX_CLI_OUTPUT_BUFFER);
    return VX_OK;
}

vx_status vx_cli_output_close(vx_cli_output *o, vx_error *err)
{
    vx_status st = VX_OK;
    if (o->file) {
        bool failed = ferror(o->file) != 0;
        errno = 0;
        if (fclose(o->file) != 0) failed = true;
        if (failed) {
            int e = errno ? errno : EIO;
            st = vx_error_set(err, e == EPIPE ? VX_ERR_PIPE : VX_ERR_IO, "write failed: %s", strerror(e));
        }
    }
    free(o->buffer);
    o->file = NULL;
    o->buffer = NULL;
    return st;
}

vx_status vx_cli_output_commit(vx_cli_output *o, bool keep, vx_error *err)
{
    vx_status st = VX_OK;
    if (o->temp_path) {
        if (keep && rename(o->temp_path, o->final_path) != 0) {
            st = vx_error_set(err, VX_ERR_IO, "cannot rename %s into place: %s", o->temp_path, strerror(errno));
            keep = false;
        }
        if (!keep) unlink(o->temp_path);
    }
    forget_paths(o);
    return st;
}
