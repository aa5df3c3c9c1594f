/* voltex-sim's command line: getopt_long into a plain struct, with strict
 * number parsing (the whole argument must be the number). */
#ifndef VX_CLI_OPTIONS_H
#define VX_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "voltex/physics.h"
#include "voltex/scene.h"
#include "voltex/trace.h"

#define VX_CLI_DEFAULT_TOLERANCE 1e-5 /* absolute, per number, for --compare */
#define VX_CLI_MAX_THREADS 256
#define VX_CLI_MAX_SOLVER_SETTINGS 64 /* --solver KEY=VALUE options per run */
#define VX_CLI_MAX_SETS 64             /* --set PATH=VALUE options per run */
#define VX_CLI_SET_PATH_MAX 192        /* bytes of a --set path */

typedef struct {
    const char *scene_path;
    bool steps_set;
    int64_t steps;
    bool dt_set;
    float dt;
    vx_trace_format format; /* --format, with --layout wide: VX_TRACE_CSV_WIDE */
    bool format_set;
    bool layout_set;
    bool layout_wide;
    const char *output;   /* NULL: stdout; "-" is stdout too */
    const char *contacts; /* NULL: no contact trace */
    const char *queries;  /* NULL: no query trace */
    const char *joints;   /* NULL: no joint trace */
    int64_t every;
    const char *compare;  /* golden body trace, NULL: off */
    double tolerance;
    double rtol; /* --rtol: relative tolerance for --compare, 0 by default */
    bool stats;
    bool stats_json; /* --stats=json: the summary as one JSON object */
    const char *stats_file; /* --stats-file: the summary there, NULL: stderr */
    bool threads_set;
    int threads;
    bool order_set;
    vx_solver_order order;
    /* --solver KEY=VALUE, in the order given (the arguments themselves):
     * applied over the scene's solver object, before --threads and --order */
    const char *solver_settings[VX_CLI_MAX_SOLVER_SETTINGS];
    int solver_setting_count;
    vx_scene_set sets[VX_CLI_MAX_SETS]; /* --set PATH=VALUE, in order; the value points into argv */
    char set_paths[VX_CLI_MAX_SETS][VX_CLI_SET_PATH_MAX];
    int set_count;
    bool quiet;
    bool memory_budget_set;
    double memory_budget_mb; /* --memory-budget, MB of 10^6 bytes */
} vx_cli_options;

typedef enum {
    VX_CLI_RUN = 0,  /* options complete: run the scene */
    VX_CLI_HELP,     /* --help */
    VX_CLI_VERSION,  /* --version */
    VX_CLI_SCHEMA,   /* --schema */
    VX_CLI_USAGE_ERROR
} vx_cli_action;

/* Parses argv into opt. On VX_CLI_USAGE_ERROR message holds one line
 * (without the "voltex-sim: " prefix). */
vx_cli_action vx_cli_parse_options(int argc, char **argv, vx_cli_options *opt, char *message, size_t size);

/* Control characters (a newline in an argument or a path) as '?', so that
 * a message that quotes them stays one line. */
void vx_cli_one_line(char *text);

/* The --help text. */
void vx_cli_print_usage(FILE *out);

#endif
