#include "cli/interrupt.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t received;

static void note_signal(int signal_number)
{
    received = signal_number;
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
}

void vx_cli_interrupt_install(void)
{
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = note_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART; /* reads and writes go on: the run ends between steps */
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
}

int vx_cli_interrupted(void) { return (int)received; }
