/* --format glb (docs/cli.md, docs/traces.md): a glTF 2.0 binary file read
 * back here by its layout (header, JSON chunk, binary chunk) and checked
 * against the CSV trace of the same run; refused without a file; nothing
 * left by a failed run; memory that does not grow with the steps. The
 * Khronos validator's verdict is tests/scripts/test_gltf_validator.c's. */
#define _DEFAULT_SOURCE /* wait4 */

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <sys/resource.h>

#include "test_cli_run.h"

TestSuite(glb, .init = work_dir_make, .fini = work_dir_remove, .timeout = 120);

#define BALL_DROP VOLTEX_SOURCE_DIR "/scenes/ball_drop.json"

typedef struct {
    unsigned char *data;
    size_t size;
    cJSON *json;
    const unsigned char *bin;
    uint32_t bin_size;
} glb_file;

static uint32_t u32_at(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Reads path and checks the container: header, a JSON chunk, a BIN chunk. */
static glb_file glb_read(const char *path)
{
    glb_file g;
    g.data = (unsigned char *)read_whole_file(path, &g.size);
    cr_assert_geq(g.size, 28u);
    cr_assert_eq(memcmp(g.data, "glTF", 4), 0, "magic");
    cr_assert_eq(u32_at(g.data + 4), 2u, "version");
    cr_assert_eq(u32_at(g.data + 8), g.size, "the header's length is the file's");
    uint32_t json_size = u32_at(g.data + 12);
    cr_assert_eq(memcmp(g.data + 16, "JSON", 4), 0);
    cr_assert_eq(json_size % 4u, 0u);
    g.json = cJSON_ParseWithLength((const char *)g.data + 20, json_size);
    cr_assert_not_null(g.json, "the JSON chunk parses");
    const unsigned char *bin = g.data + 20 + json_size;
    g.bin_size = u32_at(bin);
    cr_assert_eq(memcmp(bin + 4, "BIN\0", 4), 0);
    g.bin = bin + 8;
    cr_assert_eq(20u + json_size + 8u + g.bin_size, g.size);
    return g;
}

static void glb_free(glb_file *g)
{
    cJSON_Delete(g->json);
    free(g->data);
}

static cJSON *at(const cJSON *o, const char *key) { return cJSON_GetObjectItemCaseSensitive(o, key); }
static cJSON *nth(const cJSON *a, int i) { return cJSON_GetArrayItem(a, i); }
static int int_at(const cJSON *o, const char *key) { return at(o, key) ? at(o, key)->valueint : 0; }

/* Element k of accessor a as floats (n of them). */
static void accessor_floats(const glb_file *g, int a, int k, int n, float *out)
{
    const cJSON *acc = nth(at(g->json, "accessors"), a);
    const cJSON *view = nth(at(g->json, "bufferViews"), int_at(acc, "bufferView"));
    cr_assert_eq(int_at(acc, "componentType"), 5126);
    size_t offset = (size_t)int_at(view, "byteOffset") + (size_t)int_at(acc, "byteOffset") + (size_t)k * (size_t)n * 4u;
    cr_assert_leq(offset + (size_t)n * 4u, g->bin_size);
    for (int i = 0; i < n; i++) {
        uint32_t bits = u32_at(g->bin + offset + 4u * (size_t)i);
        memcpy(&out[i], &bits, 4);
    }
}

Test(glb, needs_an_output_file)
{
    sim_result r = run_sim(BALL_DROP, "--format", "glb");
    assert_failure(&r, 2, "voltex-sim: --format glb needs -o FILE (a binary file, not for stdout)\n");
    sim_free(&r);
    r = run_sim(BALL_DROP, "-f", "glb", "-o", "-");
    assert_failure(&r, 2, "voltex-sim: --format glb needs -o FILE (a binary file, not for stdout)\n");
    sim_free(&r);
}

/* The run blows up at frame 2: no file, and no temporary file anywhere in
 * the directory (TMPDIR points there too). */
Test(glb, a_failed_run_leaves_nothing)
{
    const char *scene = scene_file("blowup.json",
                                   "{ \"name\": \"blowup\", \"dt\": 0.03125, \"steps\": 40, \"gravity\": [0, 0, 0],\n"
                                   "  \"entities\": [ { \"name\": \"rocket\", \"collider\": { \"type\": \"sphere\", "
                                   "\"radius\": 1 }, \"rigidbody\": { \"mass\": 1, \"velocity\": [3.2e38, 0, 0] } } ] }\n");
    setenv("TMPDIR", work_dir, 1);
    sim_result r = run_sim(scene, "-f", "glb", "-o", wpath("t.glb"));
    unsetenv("TMPDIR");
    assert_failure(&r, 3, NULL);
    sim_free(&r);
    DIR *d = opendir(work_dir);
    struct dirent *e;
    int names = 0;
    while ((e = readdir(d)) != NULL) names += e->d_name[0] != '.' || strlen(e->d_name) > 2;
    closedir(d);
    cr_assert_eq(names, 1, "only the scene is left");
}

/* ball_drop with --every 7 over 60 steps: frames 0, 7, ..., 56 and 60, the
 * same numbers as the CSV trace of that run. */
Test(glb, keyframes_are_the_written_frames_of_the_trace)
{
    const char *glb = wpath("t.glb"), *csv = wpath("t.csv");
    sim_result r = run_sim(BALL_DROP, "-n", "60", "--every", "7", "-f", "glb", "-o", glb);
    cr_assert_eq(r.code, 0, "%s", r.err);
    sim_free(&r);
    r = run_sim(BALL_DROP, "-n", "60", "--every", "7", "-o", csv);
    cr_assert_eq(r.code, 0, "%s", r.err);
    sim_free(&r);
    glb_file g = glb_read(glb);

    const cJSON *extras = at(nth(at(g.json, "scenes"), 0), "extras");
    cr_assert_str_eq(at(extras, "name")->valuestring, "ball_drop");
    cr_assert_float_eq(at(extras, "dt")->valuedouble, 0.016666668, 1e-9);
    cr_assert_eq(int_at(extras, "steps"), 60);
    cr_assert_eq(int_at(extras, "frames"), 10);
    cr_assert_str_eq(at(extras, "version")->valuestring, "0.1.0");

    const cJSON *nodes = at(g.json, "nodes");
    cr_assert_eq(cJSON_GetArraySize(nodes), 2);
    cr_assert_str_eq(at(nth(nodes, 0), "name")->valuestring, "floor");
    cr_assert_str_eq(at(nth(nodes, 1), "name")->valuestring, "ball");
    /* the meshes' bounds are the shapes' */
    const cJSON *meshes = at(g.json, "meshes");
    int ball_positions = int_at(at(nth(at(nth(meshes, int_at(nth(nodes, 1), "mesh")), "primitives"), 0), "attributes"),
                                "POSITION");
    int floor_positions = int_at(at(nth(at(nth(meshes, int_at(nth(nodes, 0), "mesh")), "primitives"), 0), "attributes"),
                                 "POSITION");
    const cJSON *accessors = at(g.json, "accessors");
    for (int k = 0; k < 3; k++) {
        cr_assert_float_eq(nth(at(nth(accessors, ball_positions), "max"), k)->valuedouble, 0.5, 1e-6);
        cr_assert_float_eq(nth(at(nth(accessors, ball_positions), "min"), k)->valuedouble, -0.5, 1e-6);
        double floor_half[3] = {10, 1, 10};
        cr_assert_float_eq(nth(at(nth(accessors, floor_positions), "max"), k)->valuedouble, floor_half[k], 1e-6);
    }

    /* channel 2: the ball's translation, 3: its rotation */
    const cJSON *animation = nth(at(g.json, "animations"), 0);
    const cJSON *channels = at(animation, "channels"), *samplers = at(animation, "samplers");
    cr_assert_eq(cJSON_GetArraySize(channels), 4);
    const cJSON *target = at(nth(channels, 2), "target");
    cr_assert_eq(int_at(target, "node"), 1);
    cr_assert_str_eq(at(target, "path")->valuestring, "translation");
    cr_assert_str_eq(at(at(nth(channels, 3), "target"), "path")->valuestring, "rotation");
    const cJSON *move = nth(samplers, int_at(nth(channels, 2), "sampler"));
    const cJSON *turn = nth(samplers, int_at(nth(channels, 3), "sampler"));
    cr_assert_str_eq(at(move, "interpolation")->valuestring, "LINEAR");
    cr_assert_eq(int_at(nth(accessors, int_at(move, "input")), "count"), 10);

    char *text = read_whole_file(csv, NULL);
    char *line = strtok(text, "\n"); /* the header */
    int k = 0;
    while ((line = strtok(NULL, "\n")) != NULL) {
        int frame, entity;
        float t, p[3], q[4];
        char name[32];
        cr_assert_eq(sscanf(line, "%d,%f,%d,%31[^,],%f,%f,%f,%f,%f,%f,%f", &frame, &t, &entity, name, &p[0], &p[1], &p[2],
                            &q[0], &q[1], &q[2], &q[3]), 11);
        if (entity != 1) continue;
        float gt, gp[3], gq[4];
        accessor_floats(&g, int_at(move, "input"), k, 1, &gt);
        accessor_floats(&g, int_at(move, "output"), k, 3, gp);
        accessor_floats(&g, int_at(turn, "output"), k, 4, gq);
        cr_assert_eq(gt, t, "frame %d: time %.9g vs %.9g", frame, gt, t);
        for (int i = 0; i < 3; i++) cr_assert_eq(gp[i], p[i], "frame %d: p[%d] %.9g vs %.9g", frame, i, gp[i], p[i]);
        double dot = 0;
        for (int i = 0; i < 4; i++) dot += (double)gq[i] * q[i];
        cr_assert_float_eq(fabs(dot), 1.0, 1e-6, "frame %d: the same rotation", frame);
        k++;
    }
    cr_assert_eq(k, 10);
    free(text);
    glb_free(&g);
}

/* Largest resident size of a glb run of 200 static balls for so many steps, kB. */
static long glb_run_kb(const char *scene, const char *steps)
{
    const char *args[] = {VOLTEX_SIM_PATH, scene, "-n", steps, "-q", "-f", "glb", "-o", wpath("m.glb"), NULL};
    pid_t pid;
    cr_assert_eq(posix_spawn(&pid, VOLTEX_SIM_PATH, NULL, NULL, (char *const *)args, environ), 0);
    int status;
    struct rusage usage;
    cr_assert_eq(wait4(pid, &status, 0, &usage), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    return usage.ru_maxrss;
}

/* Ten times the steps (28 MB more poses to write) take no more memory: the
 * samples wait in a temporary file, not in memory. */
Test(glb, memory_does_not_grow_with_the_steps)
{
    char text[32768];
    size_t n = (size_t)snprintf(text, sizeof text, "{\"name\":\"grid\",\"entities\":[");
    for (int i = 0; i < 200; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%s{\"transform\":{\"position\":[%d,0,%d]},"
                              "\"collider\":{\"type\":\"sphere\",\"radius\":0.4}}", i ? "," : "", i % 20, i / 20);
    snprintf(text + n, sizeof text - n, "]}");
    const char *scene = scene_file("grid.json", text);
    long short_run = glb_run_kb(scene, "500");
    long long_run = glb_run_kb(scene, "5000");
    cr_assert_lt(long_run - short_run, 8 * 1024, "%ld kB for 500 steps, %ld kB for 5000", short_run, long_run);
}
