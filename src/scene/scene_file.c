/* Reading a whole file (the scene, an OBJ mesh) into memory. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scene/scene_internal.h"

#define VX_SCENE_READ_CHUNK 65536u /* bytes: first buffer when the file size is unknown (a pipe) */

static vx_status fail_io(const char *path, int errnum, vx_error *err)
{
    char reason[128];
    if (strerror_r(errnum, reason, sizeof reason) != 0) snprintf(reason, sizeof reason, "error %d", errnum);
    return vx_error_set(err, VX_ERR_IO, "%s: cannot read: %s", path, reason);
}

static vx_status fail_too_large(const char *path, vx_error *err)
{
    return vx_error_set(err, VX_ERR_INVALID, "%s: larger than a scene may be (%d MiB)", path,
                        (int)(VX_SCENE_MAX_BYTES >> 20));
}

vx_status vx_scene_read_fd(int fd, bool close_it, const char *path, char **out, size_t *out_length, vx_error *err)
{
    struct stat info;
    int errnum = 0;
    if (fstat(fd, &info) != 0)
        errnum = errno;
    else if (S_ISDIR(info.st_mode))
        errnum = EISDIR;
    size_t capacity = VX_SCENE_READ_CHUNK;
    if (!errnum && S_ISREG(info.st_mode) && (uintmax_t)info.st_size > VX_SCENE_MAX_BYTES) {
        if (close_it) close(fd);
        return fail_too_large(path, err);
    }
    if (!errnum && S_ISREG(info.st_mode) && info.st_size > 0)
        capacity = (size_t)info.st_size + 2; /* the bytes, room to see the end of file, the '\0' */
    char *text = errnum ? NULL : malloc(capacity);
    if (!errnum && !text) errnum = ENOMEM;
    size_t length = 0;
    bool too_large = false;
    while (!errnum && !too_large) {
        if (length + 1 == capacity) {
            char *bigger = capacity <= SIZE_MAX / 2 ? realloc(text, capacity * 2) : NULL;
            if (!bigger) {
                errnum = ENOMEM;
                break;
            }
            text = bigger;
            capacity *= 2;
        }
        ssize_t n = read(fd, text + length, capacity - 1 - length);
        if (n == 0) break;
        if (n < 0) {
            if (errno != EINTR) errnum = errno;
            continue;
        }
        bool nul = memchr(text + length, '\0', (size_t)n) != NULL;
        length += (size_t)n;
        /* a NUL is never JSON nor OBJ (/dev/zero, a binary file): the parser
         * says where, there is no need to read on */
        if (nul) break;
        too_large = length > VX_SCENE_MAX_BYTES;
    }
    if (close_it) close(fd);
    if (too_large) {
        free(text);
        return fail_too_large(path, err);
    }
    if (errnum) {
        free(text);
        if (errnum == ENOMEM) return vx_error_set(err, VX_ERR_NOMEM, "%s: out of memory", path);
        return fail_io(path, errnum, err);
    }
    text[length] = '\0';
    *out = text;
    *out_length = length;
    return VX_OK;
}

vx_status vx_scene_read_file(const char *path, char **out, size_t *out_length, vx_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return fail_io(path, errno, err);
    return vx_scene_read_fd(fd, true, path, out, out_length, err);
}
