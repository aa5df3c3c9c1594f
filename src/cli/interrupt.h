/* SIGINT and SIGTERM end a run at a frame boundary: the handler only notes
 * the signal; the step loop looks at it between steps, ends the traces
 * cleanly and exits with 128 + the signal. A second signal of either kind
 * kills the process at once (the default action is back). */
#ifndef VX_CLI_INTERRUPT_H
#define VX_CLI_INTERRUPT_H

void vx_cli_interrupt_install(void);
/* The signal that asked the run to stop, or 0. */
int vx_cli_interrupted(void);

#endif
