#include "cli/stats.h"

#include <string.h>

#include "cli/clock.h"

void vx_cli_stats_start(vx_cli_stats *s, const vx_scene *scene)
{
    memset(s, 0, sizeof *s);
    s->bodies = scene->entity_count;
    for (size_t i = 0; i < scene->entity_count; i++) {
        const vx_rigidbody *rb = vx_world_get_const(scene->world, scene->entities[i], VX_COMPONENT_RIGIDBODY);
        if (rb && rb->type == VX_BODY_DYNAMIC) s->dynamic++;
    }
    s->start = vx_cli_now();
}

void vx_cli_stats_step(vx_cli_stats *s, size_t contact_count)
{
    s->steps++;
    s->contacts += contact_count;
}

void vx_cli_stats_stop(vx_cli_stats *s) { s->wall = vx_cli_now() - s->start; }

void vx_cli_stats_print(const vx_cli_stats *s, FILE *out)
{
    double steps = (double)s->steps;
    double ms_per_step = steps > 0.0 ? s->wall * 1000.0 / steps : 0.0;
    double steps_per_s = s->wall > 0.0 ? steps / s->wall : 0.0;
    double contacts_per_step = steps > 0.0 ? (double)s->contacts / steps : 0.0;
    fprintf(out,
            "voltex-sim: bodies %zu (%zu dynamic), steps %lld, wall %.3f s, %.4g ms/step, %.0f steps/s, "
            "%.2f contacts/step\n",
            s->bodies, s->dynamic, (long long)s->steps, s->wall, ms_per_step, steps_per_s, contacts_per_step);
}
