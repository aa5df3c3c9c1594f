#include "cli/output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

vx_status vx_cli_output_open(vx_cli_output *o, const char *path, vx_error *err)
{
    memset(o, 0, sizeof *o);
    o->is_stdout = strcmp(path, "-") == 0;
    o->name = o->is_stdout ? "stdout" : path;
    o->buffer = malloc(VX_CLI_OUTPUT_BUFFER);
    if (!o->buffer) return vx_error_set(err, VX_ERR_NOMEM, "%s: out of memory", o->name);
    if (o->is_stdout) {
        int fd = dup(STDOUT_FILENO);
        if (fd >= 0) {
            o->file = fdopen(fd, "w");
            if (!o->file) {
                int e = errno;
                close(fd);
                errno = e;
            }
        }
    } else {
        o->file = fopen(path, "w");
    }
    if (!o->file) {
        int e = errno;
        free(o->buffer);
        o->buffer = NULL;
        return vx_error_set(err, VX_ERR_IO, "%s: cannot open: %s", o->name, strerror(e));
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
