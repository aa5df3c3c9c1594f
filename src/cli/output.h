/* An output file of a run (or stdout for "-"), with a large stdio buffer,
 * named in messages by its path ("stdout" for stdout).
 *
 * A regular file is written under a temporary name in its directory
 * (".NAME.voltex-PID-N") and renamed onto its path only when the run ends
 * well, so a failed or killed run never leaves a cut trace where a good one
 * was: the old file stays, or there is none. A symbolic link is followed
 * (its target is replaced); a path that is not a regular file (/dev/null, a
 * pipe) is written directly. */
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
    char *temp_path;  /* where it is written until kept; NULL when written in place */
    char *final_path; /* what the temporary file is renamed to */
} vx_cli_output;

/* Says that the process started with stdout closed (main then put /dev/null
 * there to keep the descriptor's number taken): "-" then fails to open with
 * "Bad file descriptor" instead of writing into nothing. */
void vx_cli_output_stdout_was_closed(void);

/* Opens path for writing ("-": a stream of its own on a duplicate of stdout,
 * so closing it checks every write). VX_ERR_IO, err = "NAME: cannot open:
 * ...", and nothing is created; VX_ERR_NOMEM. */
vx_status vx_cli_output_open(vx_cli_output *o, const char *path, vx_error *err);
/* Flushes and closes (no-op when not open). VX_ERR_PIPE or VX_ERR_IO with
 * err = "write failed: ..." when the last bytes could not be written. */
vx_status vx_cli_output_close(vx_cli_output *o, vx_error *err);
/* After close: keep renames a temporary file into place (VX_ERR_IO, err =
 * "cannot rename ..." when that fails); otherwise it is removed and the path
 * is left as it was. No-op for stdout, a path written in place, or when
 * already done. */
vx_status vx_cli_output_commit(vx_cli_output *o, bool keep, vx_error *err);

#endif
