/* voltex-sim: runs a scene headless and writes its traces. The command line
 * and the exit codes: docs/cli.md; the traces: docs/traces.md. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/interrupt.h"
#include "cli/options.h"
#include "cli/output.h"
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

/* Standard input, output and error that were closed (`2>&-`) are opened on
 * /dev/null, so that no file the run opens later takes their numbers: an
 * error message must never land in a trace. A trace for a closed stdout is
 * still refused (exit 4). */
static void open_standard_descriptors(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        int null = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        if (null < 0) _exit(VX_EXIT_OUTPUT); /* no /dev/null: nothing can be said safely */
        if (null != fd) { /* lower numbers are open, so this is fd itself; never more */
            close(null);
            _exit(VX_EXIT_OUTPUT);
        }
        if (fd == STDOUT_FILENO) vx_cli_output_stdout_was_closed();
    }
}

int main(int argc, char **argv)
{
    open_standard_descriptors();
    /* A reader that goes away makes writes fail with EPIPE (handled: the run
     * ends quietly) instead of killing the process. */
    signal(SIGPIPE, SIG_IGN);
    vx_cli_interrupt_install();

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
