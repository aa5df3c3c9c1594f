/* voltex-sim: runs a scene headless and writes its traces. The command line
 * and the exit codes: docs/cli.md; the traces: docs/traces.md. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli/options.h"
#include "cli/run.h"
#include "cli/schema.h"
#include "voltex/voltex.h"

/* --help, --version and --schema: text on stdout, checked, so `--help
 * >/dev/full` fails. */
static int print_info(vx_cli_action action)
{
    errno = 0;
    if (action == VX_CLI_HELP)
        vx_cli_print_usage(stdout);
    else if (action == VX_CLI_SCHEMA)
        fwrite(vx_cli_scene_schema, 1, vx_cli_scene_schema_size, stdout); /* larger than the buffer: fails here */
    else
        fputs("voltex-sim " VOLTEX_VERSION "\n", stdout);
    int write_errno = errno;
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        int e = errno ? errno : write_errno ? write_errno : EIO;
        fprintf(stderr, "voltex-sim: stdout: write failed: %s\n", strerror(e));
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
    case VX_CLI_SCHEMA:
        return print_info(action);
    case VX_CLI_RUN:
    default:
        return vx_cli_run(&opt);
    }
}
