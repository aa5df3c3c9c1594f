/* --stats: counts, step times, stage times, displacement and memory of a run;
 * the format is described in stats.h. Statistics are best effort: when memory
 * runs out they shrink (fewer samples, no displacement), they never fail the
 * run. */
#include "cli/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "cli/clock.h"

#define VX_CLI_STATS_FIRST_CAPACITY 1024u /* samples before the first growth */

static const char *const stage_names[VX_CLI_STAGE_COUNT] = {"broad phase", "narrow phase", "solver",
                                                            "integration", "other",       "trace"};

void vx_cli_stats_start(vx_cli_stats *s, const vx_scene *scene, const vx_world_def *config)
{
    memset(s, 0, sizeof *s);
    s->config = *config;
    s->bodies = scene->entity_count;
    s->names = (const char *const *)scene->names;
    s->sample_rng = 0x9e3779b97f4a7c15u;
    s->trace_bytes = 0;
    const vx_registry *registry = vx_world_registry_const(scene->world);
    for (size_t i = 0; i < scene->entity_count; i++) {
        const vx_rigidbody *rb = vx_registry_get_const(registry, scene->entities[i], VX_COMPONENT_RIGIDBODY);
        if (rb && rb->type == VX_BODY_DYNAMIC) s->dynamic++;
    }
    size_t n = s->dynamic ? s->dynamic : 1u;
    s->dynamic_entities = malloc(n * sizeof *s->dynamic_entities);
    s->start_positions = malloc(n * sizeof *s->start_positions);
    s->displacement_known = s->dynamic_entities && s->start_positions;
    if (s->displacement_known) {
        size_t k = 0;
        for (size_t i = 0; i < scene->entity_count; i++) {
            const vx_rigidbody *rb = vx_registry_get_const(registry, scene->entities[i], VX_COMPONENT_RIGIDBODY);
            if (!rb || rb->type != VX_BODY_DYNAMIC) continue;
            const vx_transform *t = vx_registry_get_const(registry, scene->entities[i], VX_COMPONENT_TRANSFORM);
            s->dynamic_entities[k] = i;
            s->start_positions[k] = t ? t->position : vx_vec3_make(0.0f, 0.0f, 0.0f);
            k++;
        }
    }
    s->start = vx_cli_now();
}

/* xorshift64: the reservoir's fixed-seed generator. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    return x;
}

static void add_sample(vx_cli_stats *s, float ms)
{
    if (s->sample_count < s->sample_capacity) {
        s->samples[s->sample_count++] = ms;
        return;
    }
    if (s->sample_capacity < VX_CLI_STATS_MAX_SAMPLES) {
        size_t capacity = s->sample_capacity ? 2u * s->sample_capacity : VX_CLI_STATS_FIRST_CAPACITY;
        if (capacity > VX_CLI_STATS_MAX_SAMPLES) capacity = VX_CLI_STATS_MAX_SAMPLES;
        float *grown = realloc(s->samples, capacity * sizeof *grown);
        if (grown) {
            s->samples = grown;
            s->sample_capacity = capacity;
            s->samples[s->sample_count++] = ms;
            return;
        }
    }
    /* Full: step number s->steps (1-based) replaces a random sample with
     * probability capacity / steps, which keeps the sample uniform. */
    if (s->sample_capacity == 0) return;
    uint64_t slot = next_random(&s->sample_rng) % (uint64_t)s->steps;
    if (slot < s->sample_capacity) s->samples[slot] = ms;
}

void vx_cli_stats_step(vx_cli_stats *s, size_t contact_count, double step_seconds)
{
    s->steps++;
    s->contacts += contact_count;
    double ms = step_seconds * 1000.0;
    s->step_total_ms += ms;
    if (ms > s->step_max_ms) s->step_max_ms = ms;
    add_sample(s, (float)ms);
}

/* run.c passes the step's own stage times (vx_step_stage_times) after
 * every step and the trace time around every frame. */
void vx_cli_stats_stage(vx_cli_stats *s, vx_cli_stage stage, double seconds)
{
    if ((unsigned)stage >= VX_CLI_STAGE_COUNT) return;
    s->stage_seconds[stage] += seconds;
    s->stage_measured[stage] = true;
}

void vx_cli_stats_count_output(vx_cli_stats *s, FILE *file)
{
    if (!file || s->trace_bytes < 0) return;
    struct stat info;
    off_t at = -1;
    if (fstat(fileno(file), &info) == 0 && S_ISREG(info.st_mode)) at = ftello(file);
    if (at < 0)
        s->trace_bytes = -1;
    else
        s->trace_bytes += (int64_t)at;
}

void vx_cli_stats_stop(vx_cli_stats *s) { s->wall = vx_cli_now() - s->start; }

void vx_cli_stats_finish(vx_cli_stats *s, const vx_body_state *states, size_t count)
{
    if (!s->displacement_known) return;
    s->max_displacement = 0.0;
    s->moved_name = NULL;
    for (size_t k = 0; k < s->dynamic; k++) {
        size_t i = s->dynamic_entities[k];
        if (i >= count) continue;
        double dx = (double)states[i].p.x - (double)s->start_positions[k].x;
        double dy = (double)states[i].p.y - (double)s->start_positions[k].y;
        double dz = (double)states[i].p.z - (double)s->start_positions[k].z;
        double d = sqrt(dx * dx + dy * dy + dz * dz);
        if (!(d <= s->max_displacement)) { /* a NaN wins, so it shows */
            s->max_displacement = d;
            s->moved_name = s->names ? s->names[i] : NULL;
        }
    }
}

static int compare_floats(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* The figures both forms print. */
typedef struct {
    double ms_per_step, steps_per_s, contacts_per_step;
    double median, p95, mean, max; /* step ms */
    double stage_ms[VX_CLI_STAGE_COUNT];
    double peak_mb;
    bool displacement; /* max_displacement is known and there are dynamic bodies */
} summary;

static summary summarize(const vx_cli_stats *s)
{
    summary u;
    memset(&u, 0, sizeof u);
    double steps = (double)s->steps;
    u.ms_per_step = steps > 0.0 ? s->wall * 1000.0 / steps : 0.0;
    u.steps_per_s = s->wall > 0.0 ? steps / s->wall : 0.0;
    u.contacts_per_step = steps > 0.0 ? (double)s->contacts / steps : 0.0;
    /* Step times: sorted in place (the run is over). Median of an even count
     * is the mean of the two middle samples; p95 is the nearest rank. */
    size_t n = s->sample_count;
    if (n > 0) {
        qsort(s->samples, n, sizeof *s->samples, compare_floats);
        u.median = n % 2 ? (double)s->samples[n / 2] : 0.5 * ((double)s->samples[n / 2 - 1] + (double)s->samples[n / 2]);
        size_t rank = (size_t)ceil(0.95 * (double)n);
        u.p95 = (double)s->samples[(rank ? rank : 1u) - 1u];
    }
    u.mean = steps > 0.0 ? s->step_total_ms / steps : 0.0;
    u.max = s->step_max_ms;
    for (int i = 0; i < VX_CLI_STAGE_COUNT; i++)
        u.stage_ms[i] = steps > 0.0 ? s->stage_seconds[i] * 1000.0 / steps : 0.0;
    struct rusage usage;
    /* ru_maxrss is in KiB on Linux; MB here are 10^6 bytes, as for the trace. */
    u.peak_mb = getrusage(RUSAGE_SELF, &usage) == 0 ? (double)usage.ru_maxrss * 1024.0 / 1e6 : 0.0;
    u.displacement = s->displacement_known && s->dynamic > 0;
    return u;
}

static void print_text(const vx_cli_stats *s, const summary *u, FILE *out)
{
    fprintf(out,
            "voltex-sim: bodies %zu (%zu dynamic), steps %lld, wall %.3f s, %.4g ms/step, %.0f steps/s, "
            "%.2f contacts/step\n",
            s->bodies, s->dynamic, (long long)s->steps, s->wall, u->ms_per_step, u->steps_per_s, u->contacts_per_step);
    const vx_world_def *c = &s->config;
    fprintf(out,
            "voltex-sim: solver: order %s, threads %d, iterations %d, substeps %d, position iterations %d, "
            "sleeping %s, contact reuse %s\n",
            vx_solver_order_name(c->order), c->threads, c->iterations, c->substeps,
            c->position_iterations, c->sleeping ? "on" : "off", c->reuse_contacts ? "on" : "off");
    fprintf(out, "voltex-sim: step ms: median %.4f, p95 %.4f, mean %.4f, max %.4f\n", u->median, u->p95, u->mean,
            u->max);

    /* Stages: the measured ones with their ms/step, then the others named. */
    fputs("voltex-sim: stage ms/step:", out);
    const char *separator = " ";
    for (int i = 0; i < VX_CLI_STAGE_COUNT; i++) {
        if (!s->stage_measured[i]) continue;
        fprintf(out, "%s%s %.4f", separator, stage_names[i], u->stage_ms[i]);
        separator = ", ";
    }
    const char *opening = " (not measured yet: ";
    bool missing = false;
    for (int i = 0; i < VX_CLI_STAGE_COUNT; i++) {
        if (s->stage_measured[i]) continue;
        fprintf(out, "%s%s", opening, stage_names[i]);
        opening = ", ";
        missing = true;
    }
    fputs(missing ? ")\n" : "\n", out);

    if (u->displacement && !isfinite(s->max_displacement))
        fprintf(out, "voltex-sim: max displacement non-finite (%s), peak memory %.1f MB\n",
                s->moved_name ? s->moved_name : "-", u->peak_mb);
    else if (u->displacement)
        fprintf(out, "voltex-sim: max displacement %.4g m (%s), peak memory %.1f MB\n", s->max_displacement,
                s->moved_name ? s->moved_name : "-", u->peak_mb);
    else
        fprintf(out, "voltex-sim: max displacement - m (-), peak memory %.1f MB\n", u->peak_mb);

    double trace_seconds = s->stage_seconds[VX_CLI_STAGE_TRACE];
    if (s->trace_bytes > 0 && trace_seconds > 0.0)
        fprintf(out, "voltex-sim: trace %.1f MB, %.1f MB/s\n", (double)s->trace_bytes / 1e6,
                (double)s->trace_bytes / 1e6 / trace_seconds);
}

/* A JSON number, or null when x is not finite. */
static void json_number(FILE *out, const char *key, double x, const char *after)
{
    if (isfinite(x))
        fprintf(out, "\"%s\":%.9g%s", key, x, after);
    else
        fprintf(out, "\"%s\":null%s", key, after);
}

/* A JSON string of an entity name (1-64 letters, digits, '_', '.', '-': no
 * escapes needed), or null. */
static void json_name(FILE *out, const char *key, const char *name, const char *after)
{
    if (name)
        fprintf(out, "\"%s\":\"%s\"%s", key, name, after);
    else
        fprintf(out, "\"%s\":null%s", key, after);
}

/* The same figures as one JSON object on one line; stage keys use '_'
 * ("broad_phase"), a stage not measured is null. */
static void print_json(const vx_cli_stats *s, const summary *u, FILE *out)
{
    const vx_world_def *c = &s->config;
    fprintf(out, "{\"bodies\":%zu,\"dynamic\":%zu,\"steps\":%lld,", s->bodies, s->dynamic, (long long)s->steps);
    json_number(out, "wall_s", s->wall, ",");
    json_number(out, "ms_per_step", u->ms_per_step, ",");
    json_number(out, "steps_per_s", u->steps_per_s, ",");
    json_number(out, "contacts_per_step", u->contacts_per_step, ",");
    fprintf(out,
            "\"solver\":{\"order\":\"%s\",\"threads\":%d,\"iterations\":%d,\"substeps\":%d,"
            "\"position_iterations\":%d,\"sleeping\":%s,\"reuse_contacts\":%s},",
            vx_solver_order_name(c->order), c->threads, c->iterations, c->substeps, c->position_iterations,
            c->sleeping ? "true" : "false", c->reuse_contacts ? "true" : "false");
    fputs("\"step_ms\":{", out);
    json_number(out, "median", u->median, ",");
    json_number(out, "p95", u->p95, ",");
    json_number(out, "mean", u->mean, ",");
    json_number(out, "max", u->max, "},");
    fputs("\"stage_ms_per_step\":{", out);
    for (int i = 0; i < VX_CLI_STAGE_COUNT; i++) {
        char key[32];
        size_t k = 0;
        for (const char *p = stage_names[i]; *p && k + 1 < sizeof key; p++) key[k++] = *p == ' ' ? '_' : *p;
        key[k] = '\0';
        json_number(out, key, s->stage_measured[i] ? u->stage_ms[i] : NAN, i + 1 < VX_CLI_STAGE_COUNT ? "," : "},");
    }
    json_number(out, "max_displacement_m", u->displacement ? s->max_displacement : NAN, ",");
    json_name(out, "moved", u->displacement ? s->moved_name : NULL, ",");
    json_number(out, "peak_memory_mb", u->peak_mb, ",");
    double trace_seconds = s->stage_seconds[VX_CLI_STAGE_TRACE];
    json_number(out, "trace_mb", s->trace_bytes >= 0 ? (double)s->trace_bytes / 1e6 : NAN, ","); /* -1: unknown */
    json_number(out, "trace_mb_per_s",
                s->trace_bytes > 0 && trace_seconds > 0.0 ? (double)s->trace_bytes / 1e6 / trace_seconds : NAN, "}\n");
}

void vx_cli_stats_print(const vx_cli_stats *s, bool json, FILE *out)
{
    summary u = summarize(s);
    if (json)
        print_json(s, &u, out);
    else
        print_text(s, &u, out);
}

void vx_cli_stats_free(vx_cli_stats *s)
{
    free(s->samples);
    free(s->dynamic_entities);
    free(s->start_positions);
    s->samples = NULL;
    s->dynamic_entities = NULL;
    s->start_positions = NULL;
    s->sample_count = s->sample_capacity = 0;
}
