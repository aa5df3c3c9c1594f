/* Progress on stderr. It rewrites one line with "\r" and erases it at the
 * end, so it never mixes with the messages that follow. */
#include "cli/progress.h"

#include <stdio.h>
#include <unistd.h>

#include "cli/clock.h"

#define VX_CLI_PROGRESS_INTERVAL 0.1 /* s between two prints: about 10 a second */

void vx_cli_progress_init(vx_cli_progress *p, bool quiet, bool trace_on_stdout, int64_t total)
{
    /* A trace printed on the same terminal would be torn by the "\r" lines. */
    p->enabled = !quiet && isatty(STDERR_FILENO) && !(trace_on_stdout && isatty(STDOUT_FILENO));
    p->shown = false;
    p->total = total;
    p->last = p->enabled ? vx_cli_now() : 0.0;
}

void vx_cli_progress_update(vx_cli_progress *p, int64_t step)
{
    if (!p->enabled) return;
    double now = vx_cli_now();
    if (now - p->last < VX_CLI_PROGRESS_INTERVAL) return;
    p->last = now;
    fprintf(stderr, "\rvoltex-sim: step %lld/%lld", (long long)step, (long long)p->total);
    p->shown = true;
}

void vx_cli_progress_clear(vx_cli_progress *p)
{
    if (!p->shown) return;
    fputs("\r\033[K", stderr); /* carriage return, then erase to the end of the line */
    p->shown = false;
}
