/* bench/bench_rays: rays per second of vx_world_cast_ray_closest on a scene
 * after some steps, against the same rays in Bullet (peer_bullet --rays).
 * Built only with -DVOLTEX_BENCH_RAYS=ON; no test builds or runs it.
 *
 *   bench_rays [--steps N] [--rays R] [--repeat K] [--dump FILE] SCENE.json
 *
 * Loads the scene, runs N steps (default 120) with the scene's settings,
 * then casts the same R rays (default 100000) K times (default 7), timing
 * only the casting: wall (CLOCK_MONOTONIC) and the thread's CPU time around
 * the loop of R calls. Prints rays/s of every repetition and the medians.
 * --dump writes one line per ray, "ray entity distance" (entity -1 and
 * distance 0 for a miss; the entity is the scene's entity index), for
 * scripts/compare_rays.py.
 *
 * The rays (the same generator, operation for operation, as
 * bench/peer_bullet.cpp's): xorshift32 from seed 12345; for each ray an
 * origin with x, z uniform in [-20, 20] m and y in [19, 30] m (above every
 * body of spheres_4096, whose highest sphere reaches 18 m: no ray starts
 * inside one), and a target with x, z in [-9, 9] m and y in [0, 17] m
 * (inside its walls, where its spheres are); the direction is target -
 * origin made unit in float; max distance 100 m. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_rng.h"
#include "voltex/query.h"
#include "voltex/scene.h"
#include "voltex/world.h"

#define RAY_MAX_DISTANCE 100.0f
#define MAX_REPEAT 101

static const char *const prog = "bench_rays";

typedef struct {
    vx_vec3 origin, direction;
} ray;


static void make_rays(ray *rays, size_t count)
{
    vx_bench_rng r = {12345u};
    for (size_t i = 0; i < count; i++) {
        float ox = vx_bench_rng_range(&r, -20.0f, 20.0f);
        float oy = vx_bench_rng_range(&r, 19.0f, 30.0f);
        float oz = vx_bench_rng_range(&r, -20.0f, 20.0f);
        float tx = vx_bench_rng_range(&r, -9.0f, 9.0f);
        float ty = vx_bench_rng_range(&r, 0.0f, 17.0f);
        float tz = vx_bench_rng_range(&r, -9.0f, 9.0f);
        float dx = tx - ox, dy = ty - oy, dz = tz - oz;
        float inv = 1.0f / sqrtf(dx * dx + dy * dy + dz * dz);
        rays[i].origin = vx_vec3_make(ox, oy, oz);
        rays[i].direction = vx_vec3_make(dx * inv, dy * inv, dz * inv);
    }
}

static double seconds(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int compare_doubles(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

static double median(double *values, int n)
{
    qsort(values, (size_t)n, sizeof *values, compare_doubles);
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

static long parse_count(const char *option, const char *text, long lo, long hi)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno != 0 || *end != '\0' || end == text || v < lo || v > hi) {
        fprintf(stderr, "%s: %s: expected an integer from %ld to %ld, got '%s'\n", prog, option, lo, hi, text);
        exit(2);
    }
    return v;
}

static void usage(void)
{
    printf("Usage: %s [--steps N] [--rays R] [--repeat K] [--dump FILE] SCENE.json\n"
           "Steps the scene N times (default 120), then times R closest-hit rays (default 100000)\n"
           "K times (default 7) and prints rays/s (wall and thread CPU time) and their medians.\n",
           prog);
}

int main(int argc, char **argv)
{
    long steps = 120, ray_count = 100000, repeat = 7;
    const char *path = NULL, *dump = NULL;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            usage();
            return 0;
        } else if (strcmp(arg, "--steps") == 0 && has_value) {
            steps = parse_count(arg, argv[++i], 0, 1000000);
        } else if (strcmp(arg, "--rays") == 0 && has_value) {
            ray_count = parse_count(arg, argv[++i], 1, 100000000);
        } else if (strcmp(arg, "--repeat") == 0 && has_value) {
            repeat = parse_count(arg, argv[++i], 1, MAX_REPEAT);
        } else if (strcmp(arg, "--dump") == 0 && has_value) {
            dump = argv[++i];
        } else if (arg[0] == '-') {
            fprintf(stderr, "%s: unknown option or missing value '%s' (try --help)\n", prog, arg);
            return 2;
        } else if (!path) {
            path = arg;
        } else {
            fprintf(stderr, "%s: unexpected argument '%s' (one scene file)\n", prog, arg);
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "%s: missing SCENE.json (try --help)\n", prog);
        return 2;
    }

    vx_scene scene;
    vx_error err;
    if (vx_scene_load_file(path, &scene, &err) != VX_OK) {
        fprintf(stderr, "%s: %s\n", prog, err.message);
        return 2;
    }
    for (long k = 0; k < steps; k++) {
        if (vx_world_step(scene.world, &err) != VX_OK) {
            fprintf(stderr, "%s: step %ld: %s\n", prog, k, err.message);
            vx_scene_destroy(&scene);
            return 2;
        }
    }

    size_t n = (size_t)ray_count;
    ray *rays = malloc(n * sizeof *rays);
    vx_query_hit *hits = malloc(n * sizeof *hits);
    if (!rays || !hits) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return 2;
    }
    make_rays(rays, n);

    /* One cast outside the timing: it builds the query tree. */
    if (vx_world_cast_ray_closest(scene.world, rays[0].origin, rays[0].direction, RAY_MAX_DISTANCE, NULL, &hits[0],
                                  &err) != VX_OK) {
        fprintf(stderr, "%s: %s\n", prog, err.message);
        return 2;
    }

    double wall_rate[MAX_REPEAT], cpu_rate[MAX_REPEAT];
    for (int rep = 0; rep < (int)repeat; rep++) {
        double w0 = seconds(CLOCK_MONOTONIC), c0 = seconds(CLOCK_THREAD_CPUTIME_ID);
        for (size_t i = 0; i < n; i++) {
            if (vx_world_cast_ray_closest(scene.world, rays[i].origin, rays[i].direction, RAY_MAX_DISTANCE, NULL,
                                          &hits[i], &err) != VX_OK) {
                fprintf(stderr, "%s: ray %zu: %s\n", prog, i, err.message);
                return 2;
            }
        }
        double c1 = seconds(CLOCK_THREAD_CPUTIME_ID), w1 = seconds(CLOCK_MONOTONIC);
        wall_rate[rep] = (double)n / (w1 - w0);
        cpu_rate[rep] = (double)n / (c1 - c0);
    }

    size_t hit_count = 0;
    double distance_sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (vx_entity_equal(hits[i].entity, VX_ENTITY_NULL)) continue;
        hit_count++;
        distance_sum += (double)hits[i].distance;
    }
    printf("%s: scene %s, bodies %zu, steps %ld, rays %zu, max distance %g m, repeats %ld\n", prog, scene.name,
           scene.entity_count, steps, n, (double)RAY_MAX_DISTANCE, repeat);
    printf("%s: hits %zu (%.2f %%), mean hit distance %.6f m\n", prog, hit_count,
           100.0 * (double)hit_count / (double)n, hit_count ? distance_sum / (double)hit_count : 0.0);
    printf("%s: rays/s wall:", prog);
    for (int rep = 0; rep < (int)repeat; rep++) printf(" %.0f", wall_rate[rep]);
    printf("\n%s: rays/s cpu:", prog);
    for (int rep = 0; rep < (int)repeat; rep++) printf(" %.0f", cpu_rate[rep]);
    printf("\n%s: median rays/s: wall %.0f, cpu %.0f\n", prog, median(wall_rate, (int)repeat),
           median(cpu_rate, (int)repeat));

    if (dump) {
        FILE *f = fopen(dump, "w");
        if (!f) {
            fprintf(stderr, "%s: %s: cannot write: %s\n", prog, dump, strerror(errno));
            return 2;
        }
        for (size_t i = 0; i < n; i++) {
            bool miss = vx_entity_equal(hits[i].entity, VX_ENTITY_NULL);
            fprintf(f, "%zu %ld %.6f\n", i, miss ? -1L : (long)hits[i].entity.index,
                    miss ? 0.0 : (double)hits[i].distance);
        }
        if (fclose(f) != 0) {
            fprintf(stderr, "%s: %s: cannot write\n", prog, dump);
            return 2;
        }
    }
    free(rays);
    free(hits);
    vx_scene_destroy(&scene);
    return 0;
}
