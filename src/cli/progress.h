/* "voltex-sim: step k/N" on stderr while a run goes, only when stderr is a
 * terminal, --quiet is off, and the trace does not go to that terminal too. */
#ifndef VX_CLI_PROGRESS_H
#define VX_CLI_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    bool enabled;
    bool shown;     /* a progress line is on the terminal */
    int64_t total;
    double last;    /* time of the last print (or of the start) */
} vx_cli_progress;

void vx_cli_progress_init(vx_cli_progress *p, bool quiet, bool trace_on_stdout, int64_t total);
/* Prints step k of total, at most VX_CLI_PROGRESS_RATE times a second. */
void vx_cli_progress_update(vx_cli_progress *p, int64_t step);
/* Erases the progress line (before a message, and at the end). */
void vx_cli_progress_clear(vx_cli_progress *p);

#endif
