/* voltex-sim: runs a scene headless and writes its traces. The command line
 * and the exit codes: docs/cli.md; the traces: docs/traces.md. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli/options.h"
#include "cli/run.h"
#include "voltex/voltex.h"

/* --help and --version: text on stdout, checked, so `--help >/dev/full` fails. */
static int print_info(vx_cli_action action)
{
    if (action == VX_CLI_HELP)
        vx_cli_print_usage(stdout);
    else
        fputs("voltex-sim " VOLTEX_VERSION "\n", stdout);
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "voltex-sim: stdout: write failed: %s\n", strerror(errno ? errno : EIO));
        return VX_EXIT_OUTPUT;
    }
    return VX_EXIT_OK;
}

int main(int argc, char **argv)
{
    /* A reader that goes away makes writes fail with EPIPE (handled: the run
     * ends quietly) instead of killing the process. */
    signal(SIGPIPE, SIG_IGN);

    vx_cli_options opt;
    char message[512];
    vx_cli_action action = vx_cli_parse_options(argc, argv, &opt, message, sizeof message);
    switch (action) {
    case VX_CLI_USAGE_ERROR:
        fprintf(stderr, "voltex-sim: %s\n", message);
        return VX_EXIT_USAGE;
    case VX_CLI_HELP:
    case VX_CLI_VERSION:
        return print_info(action);
    case VX_CLI_RUN:
    default:
        return vx_cli_run(&opt);
    }
}
