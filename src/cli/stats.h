/* --stats: what a run did and how fast, printed on stderr at the end. */
#ifndef VX_CLI_STATS_H
#define VX_CLI_STATS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "voltex/scene.h"

typedef struct {
    size_t bodies;      /* entities in the scene */
    size_t dynamic;     /* of which dynamic rigid bodies */
    int64_t steps;      /* steps done */
    uint64_t contacts;  /* contacts reported, summed over the steps */
    double start;       /* vx_cli_now() when the run began */
    double wall;        /* seconds, set by vx_cli_stats_stop */
} vx_cli_stats;

void vx_cli_stats_start(vx_cli_stats *s, const vx_scene *scene);
void vx_cli_stats_step(vx_cli_stats *s, size_t contact_count);
void vx_cli_stats_stop(vx_cli_stats *s);
/* One line: "voltex-sim: bodies 2 (1 dynamic), steps 600, wall 0.0123 s, ..." */
void vx_cli_stats_print(const vx_cli_stats *s, FILE *out);

#endif
