/* One run of voltex-sim: load the scene, step it, write or compare the
 * traces; returns the exit code (docs/cli.md, "Exit codes"). */
#ifndef VX_CLI_RUN_H
#define VX_CLI_RUN_H

#include "cli/options.h"

enum {
    VX_EXIT_OK = 0,
    VX_EXIT_DIFFERENT = 1, /* --compare found a difference */
    VX_EXIT_USAGE = 2,     /* usage error, unreadable or invalid scene or golden */
    VX_EXIT_NONFINITE = 3, /* the simulation became NaN or infinite */
    VX_EXIT_OUTPUT = 4,    /* an output could not be opened or written */
    VX_EXIT_MEMORY = 5,    /* over the memory budget, or the system refused memory */
    VX_EXIT_SIGNAL = 128   /* + the signal (SIGINT, SIGTERM) that ended the run */
};

int vx_cli_run(const vx_cli_options *opt);

#endif
