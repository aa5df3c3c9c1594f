/* Wall-clock time for progress and --stats (CLOCK_MONOTONIC). */
#ifndef VX_CLI_CLOCK_H
#define VX_CLI_CLOCK_H

/* Seconds since an arbitrary fixed point. */
double vx_cli_now(void);

#endif
