/* --stats: what a run did and how fast, printed on stderr at the end, in
 * lines that begin with "voltex-sim: " (scripts/bench.sh reads them):
 *
 *   voltex-sim: bodies 3 (2 dynamic), steps 600, wall 0.012 s, 0.02 ms/step, 50000 steps/s, 1.00 contacts/step
 *   voltex-sim: solver: order sequential, threads 1, iterations 10, substeps 1, position iterations 3, sleeping off, contact reuse on
 *   voltex-sim: step ms: median 0.0150, p95 0.0210, mean 0.0160, max 0.1200
 *   voltex-sim: stage ms/step: broad phase 0.0010, narrow phase 0.0020, solver 0.0030, integration 0.0010, other 0.0010, trace 0.0040
 *   voltex-sim: max displacement 4.5 m (ball), peak memory 3.1 MB
 *   voltex-sim: trace 1.2 MB, 310.5 MB/s
 *
 * The first line's wall time and ms/step cover the whole loop (steps and
 * trace); "solver" gives the settings the run used; "step ms" times the
 * physics step alone (vx_step, one sample per step): median, nearest-rank
 * 95th percentile, mean and max. docs/cli.md, "--stats", explains them.
 * "stage ms/step" is the time of each stage summed over the run divided by
 * the steps; a stage nobody measured is listed as not measured. Max
 * displacement: the largest distance of a dynamic body's final position
 * from its position in the scene. Peak memory: getrusage's ru_maxrss. The
 * trace line shows when the size of the traces is known (regular files). */
#ifndef VX_CLI_STATS_H
#define VX_CLI_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "voltex/scene.h"
#include "voltex/trace.h"

/* Samples of step time kept; longer runs keep a uniform random sample of
 * this many (reservoir sampling, fixed seed), so memory stays small. */
#define VX_CLI_STATS_MAX_SAMPLES 65536u

/* The stages of a step, and the trace writing around it. */
typedef enum {
    VX_CLI_STAGE_BROAD_PHASE = 0,
    VX_CLI_STAGE_NARROW_PHASE,
    VX_CLI_STAGE_SOLVER,
    VX_CLI_STAGE_INTEGRATION,
    VX_CLI_STAGE_OTHER, /* the rest of the step: gather, sleeping, continuous collision, scatter */
    VX_CLI_STAGE_TRACE,
    VX_CLI_STAGE_COUNT
} vx_cli_stage;

typedef struct {
    vx_world_def config; /* the settings the run used */
    size_t bodies;      /* entities in the scene */
    size_t dynamic;     /* of which dynamic rigid bodies */
    int64_t steps;      /* steps done */
    uint64_t contacts;  /* contacts reported, summed over the steps */
    double start;       /* vx_cli_now() when the run began */
    double wall;        /* seconds, set by vx_cli_stats_stop */

    /* Physics step times, ms. */
    float *samples;
    size_t sample_count, sample_capacity;
    uint64_t sample_rng;    /* reservoir sampling beyond VX_CLI_STATS_MAX_SAMPLES */
    double step_total_ms;   /* over every step, sampled or not */
    double step_max_ms;

    double stage_seconds[VX_CLI_STAGE_COUNT];
    bool stage_measured[VX_CLI_STAGE_COUNT];

    /* Start positions of the dynamic bodies: entity index and position. */
    size_t *dynamic_entities;
    vx_vec3 *start_positions;
    bool displacement_known;
    double max_displacement;        /* m, set by vx_cli_stats_finish */
    const char *moved_name;         /* the body that moved most (scene's name) */
    const char *const *names;

    int64_t trace_bytes;            /* -1: unknown */
} vx_cli_stats;

/* Counts bodies, records the dynamic bodies' start positions and the settings
 * of the run (config: the scene's with the command line's). */
void vx_cli_stats_start(vx_cli_stats *s, const vx_scene *scene, const vx_world_def *config);
/* One step: its contacts and the seconds vx_step took. */
void vx_cli_stats_step(vx_cli_stats *s, size_t contact_count, double step_seconds);
/* Adds seconds spent in a stage (the trace stage is measured by the CLI,
 * the others by the step: vx_step_profile). */
void vx_cli_stats_stage(vx_cli_stats *s, vx_cli_stage stage, double seconds);
/* Adds the bytes written so far to file when it is a regular file; otherwise
 * the trace size becomes unknown. Call before the file is closed. */
void vx_cli_stats_count_output(vx_cli_stats *s, FILE *file);
void vx_cli_stats_stop(vx_cli_stats *s);
/* Max displacement from the final states (states[i] of entity i). */
void vx_cli_stats_finish(vx_cli_stats *s, const vx_body_state *states, size_t count);
/* The summary on out: lines of text, or (json) one JSON object on one line. */
void vx_cli_stats_print(const vx_cli_stats *s, bool json, FILE *out);
void vx_cli_stats_free(vx_cli_stats *s);

#endif
