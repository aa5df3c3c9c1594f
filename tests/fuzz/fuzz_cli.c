/* libFuzzer harness: any bytes as voltex-sim's arguments (split at NUL
 * bytes) to the command-line parser, which must answer with a run, help,
 * version or one usage message, and nothing else. */
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"

#define FUZZ_MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text) return 0;
    if (size) memcpy(text, data, size);
    text[size] = '\0';
    char *argv[FUZZ_MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = (char *)"voltex-sim";
    for (size_t i = 0; i <= size && argc <= FUZZ_MAX_ARGS;) {
        argv[argc++] = text + i;
        i += strlen(text + i) + 1;
    }
    argv[argc] = NULL;
    optind = 0; /* getopt_long starts afresh (glibc: 0 also resets its state) */
    vx_cli_options opt;
    char message[512];
    vx_cli_action action = vx_cli_parse_options(argc, argv, &opt, message, sizeof message);
    if (action == VX_CLI_USAGE_ERROR && (message[0] == '\0' || strchr(message, '\n'))) abort(); /* one line */
    free(text);
    return 0;
}
