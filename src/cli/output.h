/* An output file of a run (or stdout for "-"), with a large stdio buffer,
 * named in messages by its path ("stdout" for stdout). */
#ifndef VX_CLI_OUTPUT_H
#define VX_CLI_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "voltex/error.h"

#define VX_CLI_OUTPUT_BUFFER (1u << 20) /* bytes: traces are written in big chunks */

typedef struct {
    const char *name;
    bool is_stdout;
    FILE *file;
    char *buffer;
} vx_cli_output;

/* Opens path for writing ("-": a stream of its own on a duplicate of stdout,
 * so closing it checks every write). VX_ERR_IO, err = "NAME: cannot open: ...". */
vx_status vx_cli_output_open(vx_cli_output *o, const char *path, vx_error *err);
/* Flushes and closes (no-op when not open). VX_ERR_PIPE or VX_ERR_IO with
 * err = "write failed: ..." when the last bytes could not be written. */
vx_status vx_cli_output_close(vx_cli_output *o, vx_error *err);

#endif
