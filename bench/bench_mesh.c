/* bench/bench_mesh: how long a scene with a large mesh takes to load, and
 * what a step costs on it against the same bodies on a small mesh. Built
 * only with -DVOLTEX_BENCH_MESH=ON; no test builds or runs it. Public API
 * only.
 *
 *   bench_mesh [--quads N] [--bodies B] [--steps S] [--repeat K] [--dir DIR]
 *
 * Writes into DIR (default: a new directory under /tmp, removed at the end)
 * a terrain of N x N quads (default 708: 1 002 528 triangles) as an OBJ
 * file (v lines and one f line of 4 corners per quad, fanned into 2
 * triangles) and as a heightfield of (N + 1) x (N + 1) heights in a scene
 * file, and the same terrain cut to 20 x 20 quads (800 triangles). The
 * heights are gentle waves, the same formula everywhere.
 *
 * 1. Load: vx_scene_load_file of the OBJ scene and of the heightfield scene,
 *    K times each (default 5), wall time (CLOCK_MONOTONIC, median and
 *    fastest) and the thread's CPU time (median): the reading and parsing,
 *    the edges' activity and the tree.
 * 2. Step: B bodies (default 64: boxes, spheres, capsules in a square 8 m
 *    wide at the terrain's middle) dropped onto the big mesh, the small
 *    one and the heightfield, S steps each (default 240), time per step
 *    once they are resting (the last half): a step costs what the triangles near the
 *    bodies cost, so the two should be alike. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "voltex/scene.h"
#include "voltex/world.h"

static const char *const prog = "bench_mesh";

static double seconds(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double now(void) { return seconds(CLOCK_MONOTONIC); }

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The terrain's height at (x, z), m. */
static double height(double x, double z) { return 0.3 * sin(0.21 * x) * cos(0.17 * z) + 0.1 * sin(0.9 * x + 0.4 * z); }

static FILE *open_or_die(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "%s: cannot write %s: %s\n", prog, path, strerror(errno));
        exit(1);
    }
    return f;
}

/* The terrain of n x n quads of 1 m centred on the origin as an OBJ file. */
static void write_obj(const char *path, int n)
{
    FILE *f = open_or_die(path);
    double half = 0.5 * n;
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) fprintf(f, "v %d %.5f %d\n", i, height(i - half, j - half), j);
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < n; i++) {
            long a = (long)j * (n + 1) + i + 1, b = a + 1, c = a + n + 1, d = c + 1;
            fprintf(f, "f %ld %ld %ld %ld\n", a, c, d, b);
        }
    }
    fclose(f);
}

/* A scene with the terrain (the mesh of obj, or a heightfield of its
 * heights) at -n/2 and `bodies` bodies over its middle. */
static void write_scene(const char *path, const char *obj, int n, int bodies)
{
    FILE *f = open_or_die(path);
    double half = 0.5 * n;
    fprintf(f, "{ \"name\": \"bench_mesh\", \"entities\": [\n");
    fprintf(f, "  { \"name\": \"terrain\", \"transform\": { \"position\": [%g, 0, %g] },\n", -half, -half);
    if (obj) {
        fprintf(f, "    \"collider\": { \"type\": \"mesh\", \"obj\": \"%s\" } }", obj);
    } else {
        fprintf(f, "    \"collider\": { \"type\": \"heightfield\", \"spacing\": [1, 1], \"heights\": [\n");
        for (int j = 0; j <= n; j++) {
            fprintf(f, "      [");
            for (int i = 0; i <= n; i++) fprintf(f, i ? ", %.5f" : "%.5f", height(i - half, j - half));
            fprintf(f, j < n ? "],\n" : "]\n");
        }
        fprintf(f, "    ] } }");
    }
    int side = (int)ceil(sqrt((double)bodies));
    for (int k = 0; k < bodies; k++) {
        double x = -4.0 + 8.0 * (k % side) / side, z = -4.0 + 8.0 * (k / side) / side;
        double y = height(x, z) + 1.0;
        const char *shape = k % 3 == 0   ? "{ \"type\": \"box\", \"half_extents\": [0.3, 0.2, 0.25] }"
                            : k % 3 == 1 ? "{ \"type\": \"sphere\", \"radius\": 0.3 }"
                                         : "{ \"type\": \"capsule\", \"radius\": 0.15, \"half_height\": 0.25 }";
        fprintf(f, ",\n  { \"name\": \"b%d\", \"transform\": { \"position\": [%.3f, %.3f, %.3f] }, \"collider\": %s,\n"
                   "    \"rigidbody\": { \"mass\": 1 } }",
                k, x, y, z, shape);
    }
    fprintf(f, "\n] }\n");
    fclose(f);
}

static void load_or_die(const char *path, vx_scene *s)
{
    vx_error err;
    if (vx_scene_load_file(path, s, &err) != VX_OK) {
        fprintf(stderr, "%s: %s\n", prog, err.message);
        exit(1);
    }
}

/* Median and fastest wall and CPU seconds of `repeat` loads of path. */
static void time_loads(const char *what, const char *path, int repeat)
{
    double wall[64] = {0.0}, cpu[64] = {0.0};
    for (int k = 0; k < repeat; k++) {
        vx_scene s;
        double w0 = now(), c0 = seconds(CLOCK_THREAD_CPUTIME_ID);
        load_or_die(path, &s);
        wall[k] = now() - w0;
        cpu[k] = seconds(CLOCK_THREAD_CPUTIME_ID) - c0;
        vx_scene_destroy(&s);
    }
    double fastest = wall[0];
    for (int k = 1; k < repeat; k++) fastest = fmin(fastest, wall[k]);
    printf("load %-34s wall: median %7.1f ms, fastest %7.1f ms; CPU: median %7.1f ms (%d loads)\n", what,
           1e3 * median(wall, repeat), 1e3 * fastest, 1e3 * median(cpu, repeat), repeat);
}

/* The thread's CPU ms per step over the second half of `steps` steps (a
 * step runs on the calling thread: on a busy machine the CPU time is the
 * steadier figure). */
static double time_steps(const char *path, int steps)
{
    vx_scene s;
    load_or_die(path, &s);
    double t0 = 0.0;
    for (int k = 0; k < steps; k++) {
        if (k == steps / 2) t0 = seconds(CLOCK_THREAD_CPUTIME_ID);
        vx_error err;
        if (vx_world_step(s.world, &err) != VX_OK) {
            fprintf(stderr, "%s: step %d: %s\n", prog, k, err.message);
            exit(1);
        }
    }
    double ms = 1e3 * (seconds(CLOCK_THREAD_CPUTIME_ID) - t0) / (double)(steps - steps / 2);
    vx_scene_destroy(&s);
    return ms;
}

static long long parse_count(const char *flag, const char *text, long long lo, long long hi)
{
    char *end = NULL;
    long long v = strtoll(text, &end, 10);
    if (!*text || *end || v < lo || v > hi) {
        fprintf(stderr, "%s: %s: expected %lld..%lld, got '%s'\n", prog, flag, lo, hi, text);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    int quads = 708, bodies = 64, steps = 240, repeat = 5;
    char dir[256] = "";
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && strcmp(argv[i], "--quads") == 0) quads = (int)parse_count("--quads", argv[++i], 20, 10000);
        else if (i + 1 < argc && strcmp(argv[i], "--bodies") == 0) bodies = (int)parse_count("--bodies", argv[++i], 1, 4096);
        else if (i + 1 < argc && strcmp(argv[i], "--steps") == 0) steps = (int)parse_count("--steps", argv[++i], 2, 100000);
        else if (i + 1 < argc && strcmp(argv[i], "--repeat") == 0) repeat = (int)parse_count("--repeat", argv[++i], 1, 64);
        else if (i + 1 < argc && strcmp(argv[i], "--dir") == 0) snprintf(dir, sizeof dir, "%s", argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--quads N] [--bodies B] [--steps S] [--repeat K] [--dir DIR]\n", prog);
            return 2;
        }
    }
    bool made_dir = dir[0] == '\0';
    if (made_dir) {
        snprintf(dir, sizeof dir, "/tmp/bench_mesh_XXXXXX");
        if (!mkdtemp(dir)) {
            fprintf(stderr, "%s: cannot make a directory: %s\n", prog, strerror(errno));
            return 1;
        }
    }
    char big_obj[300], small_obj[300], big_mesh[300], small_mesh[300], big_field[300];
    snprintf(big_obj, sizeof big_obj, "%s/big.obj", dir);
    snprintf(small_obj, sizeof small_obj, "%s/small.obj", dir);
    snprintf(big_mesh, sizeof big_mesh, "%s/big_mesh.json", dir);
    snprintf(small_mesh, sizeof small_mesh, "%s/small_mesh.json", dir);
    snprintf(big_field, sizeof big_field, "%s/big_field.json", dir);
    fprintf(stderr, "%s: writing a terrain of %d x %d quads (%lld triangles) to %s\n", prog, quads, quads,
            2LL * quads * quads, dir);
    write_obj(big_obj, quads);
    write_obj(small_obj, 20);
    write_scene(big_mesh, "big.obj", quads, bodies);
    write_scene(small_mesh, "small.obj", 20, bodies);
    write_scene(big_field, NULL, quads, bodies);
    struct stat st;
    if (stat(big_obj, &st) == 0) printf("%s: %.1f MB\n", big_obj, (double)st.st_size / 1e6);

    char what[128];
    snprintf(what, sizeof what, "mesh of %lld triangles (OBJ)", 2LL * quads * quads);
    time_loads(what, big_mesh, repeat);
    snprintf(what, sizeof what, "heightfield of %d x %d (JSON)", quads + 1, quads + 1);
    time_loads(what, big_field, repeat);

    double big = time_steps(big_mesh, steps), small = time_steps(small_mesh, steps), field = time_steps(big_field, steps);
    printf("step (CPU), %d bodies resting: %.3f ms on %lld triangles, %.3f ms on 800, %.3f ms on the heightfield\n",
           bodies,
           big, 2LL * quads * quads, small, field);

    if (made_dir) {
        const char *files[] = {big_obj, small_obj, big_mesh, small_mesh, big_field};
        for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) unlink(files[k]);
        rmdir(dir);
    }
    return 0;
}
