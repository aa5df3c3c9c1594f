/* The body trace's other shapes, as users script against them: -f jsonl (a
 * header line, then a JSON object per frame, the JSON document's frames),
 * --layout wide (a row per frame, NAME.COLUMN columns, the long layout's
 * numbers), --compare against goldens in each format, a thinned run against
 * a full golden, --rtol, and the combinations that are refused
 * (docs/traces.md, docs/cli.md). */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_command.h"

#define SIM "'" VOLTEX_SIM_PATH "'"
#define SCENES VOLTEX_SOURCE_DIR "/scenes"

/* The lines of text, each NUL-terminated in place (text is changed). */
static size_t split_lines(char *text, char **lines, size_t max)
{
    size_t n = 0;
    for (char *p = text; *p && n < max; n++) {
        lines[n] = p;
        char *end = strchr(p, '\n');
        cr_assert_not_null(end, "the last line has no newline");
        *end = '\0';
        p = end + 1;
    }
    return n;
}

/* Runs scene for steps with -f json and -f jsonl: the JSONL has a header
 * line and then, a line each, the document's frames (compared as JSON); the
 * header, parsed, for the caller to check and delete. */
static cJSON *jsonl_matching_the_document(const char *scene, int steps)
{
    vx_command doc = vx_command_run(SIM " " SCENES "/%s -n %d -f json", scene, steps);
    vx_command lines = vx_command_run(SIM " " SCENES "/%s -n %d -f jsonl", scene, steps);
    cr_assert_eq(doc.code, 0, "%s", doc.err);
    cr_assert_eq(lines.code, 0, "%s", lines.err);
    cJSON *document = cJSON_Parse(doc.out);
    cr_assert_not_null(document);
    char *line[64];
    cr_assert_eq(split_lines(lines.out, line, 64), (size_t)steps + 2, "a header and frames 0..%d", steps);
    cJSON *header = cJSON_Parse(line[0]);
    cr_assert_not_null(header, "%s", line[0]);
    cr_assert_null(cJSON_GetObjectItem(header, "frames"));
    cr_assert(cJSON_Compare(cJSON_GetObjectItem(header, "dt"), cJSON_GetObjectItem(document, "dt"), true));
    cr_assert(cJSON_Compare(cJSON_GetObjectItem(header, "scene"), cJSON_GetObjectItem(document, "scene"), true));
    cJSON *frames = cJSON_GetObjectItem(document, "frames");
    cr_assert_eq(cJSON_GetArraySize(frames), steps + 1);
    for (int k = 0; k <= steps; k++) {
        cJSON *frame = cJSON_Parse(line[k + 1]);
        cr_assert_not_null(frame, "line %d: %s", k + 2, line[k + 1]);
        cr_assert(cJSON_Compare(frame, cJSON_GetArrayItem(frames, k), true), "frame %d differs from the document's", k);
        cJSON_Delete(frame);
    }
    cJSON_Delete(document);
    vx_command_free(&doc);
    vx_command_free(&lines);
    return header;
}

Test(formats, jsonl_is_a_header_then_the_json_documents_frames)
{
    cJSON *header = jsonl_matching_the_document("ball_drop.json", 3);
    cr_assert_str_eq(cJSON_GetObjectItem(header, "scene")->valuestring, "ball_drop");
    cr_assert_eq(cJSON_GetObjectItem(header, "steps")->valuedouble, 3.0);
    cJSON *entities = cJSON_GetObjectItem(header, "entities");
    cr_assert_eq(cJSON_GetArraySize(entities), 2);
    cJSON *floor = cJSON_GetArrayItem(entities, 0), *ball = cJSON_GetArrayItem(entities, 1);
    cr_assert_str_eq(cJSON_GetObjectItem(floor, "name")->valuestring, "floor");
    cJSON *expected_floor = cJSON_Parse("{\"type\":\"box\",\"half_extents\":[10,1,10]}");
    cJSON *expected_ball = cJSON_Parse("{\"type\":\"sphere\",\"radius\":0.5}");
    cr_assert(cJSON_Compare(cJSON_GetObjectItem(floor, "collider"), expected_floor, true));
    cr_assert(cJSON_Compare(cJSON_GetObjectItem(ball, "collider"), expected_ball, true));
    cJSON_Delete(expected_floor);
    cJSON_Delete(expected_ball);
    cJSON_Delete(header);
}

Test(formats, jsonl_header_has_hull_corners_and_query_names)
{
    vx_command r = vx_command_run(SIM " " SCENES "/dice.json -n 0 -f jsonl | head -1");
    cr_assert_eq(r.code, 0, "%s", r.err);
    cJSON *header = cJSON_Parse(r.out);
    cr_assert_not_null(header);
    cJSON *d20 = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(header, "entities"), 1), "collider");
    cr_assert_str_eq(cJSON_GetObjectItem(d20, "type")->valuestring, "convex");
    cJSON *points = cJSON_GetObjectItem(d20, "points");
    cr_assert_eq(cJSON_GetArraySize(points), 12, "an icosahedron has 12 corners");
    cJSON *point;
    cJSON_ArrayForEach(point, points)
    {
        double r2 = 0.0;
        for (int i = 0; i < 3; i++) r2 += pow(cJSON_GetArrayItem(point, i)->valuedouble, 2);
        cr_assert_float_eq(sqrt(r2), 0.5, 1e-6, "the d20's corners are 0.5 m from its centre");
    }
    cJSON_Delete(header);
    vx_command_free(&r);

    r = vx_command_run(SIM " " SCENES "/probes.json -n 1 -f jsonl");
    cr_assert_eq(r.code, 0, "%s", r.err);
    char *line[4];
    cr_assert_eq(split_lines(r.out, line, 4), 3);
    header = cJSON_Parse(line[0]);
    cJSON *queries = cJSON_GetObjectItem(header, "queries");
    cr_assert_eq(cJSON_GetArraySize(queries), 5);
    cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(queries, 4), "name")->valuestring, "zone");
    cJSON *gate = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(header, "entities"), 4), "collider");
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(gate, "sensor")));
    cJSON *frame = cJSON_Parse(line[2]);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(frame, "queries")), 5, "frames carry the queries' hits");
    cJSON_Delete(frame);
    cJSON_Delete(header);
    vx_command_free(&r);
}

/* A heightfield's and a mesh's colliders in the JSONL header as the scene
 * format writes them (heights and spacing; vertices and triangles). */
Test(formats, jsonl_header_has_heightfields_and_meshes)
{
    vx_command r = vx_command_run(SIM " " SCENES "/terrain.json -n 0 -f jsonl | head -1");
    cr_assert_eq(r.code, 0, "%s", r.err);
    cJSON *header = cJSON_Parse(r.out);
    cr_assert_not_null(header);
    cJSON *entities = cJSON_GetObjectItem(header, "entities");
    cJSON *ground = cJSON_GetObjectItem(cJSON_GetArrayItem(entities, 0), "collider");
    cr_assert_str_eq(cJSON_GetObjectItem(ground, "type")->valuestring, "heightfield");
    cJSON *heights = cJSON_GetObjectItem(ground, "heights");
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetArrayItem(heights, 0)), 33);
    cr_assert_float_eq(cJSON_GetArrayItem(cJSON_GetArrayItem(heights, 1), 1)->valuedouble, 3.3565, 1e-6);
    cr_assert_float_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(ground, "spacing"), 1)->valuedouble, 0.5, 0.0);
    cJSON *sweeper = cJSON_GetObjectItem(cJSON_GetArrayItem(entities, 1), "collider");
    cr_assert_str_eq(cJSON_GetObjectItem(sweeper, "type")->valuestring, "mesh");
    int vertices = cJSON_GetArraySize(cJSON_GetObjectItem(sweeper, "vertices"));
    cJSON *triangle;
    cJSON_ArrayForEach(triangle, cJSON_GetObjectItem(sweeper, "triangles"))
    {
        for (int k = 0; k < 3; k++) cr_assert_lt(cJSON_GetArrayItem(triangle, k)->valueint, vertices);
    }
    cr_assert_gt(cJSON_GetArraySize(cJSON_GetObjectItem(sweeper, "triangles")), 0);
    cJSON_Delete(header);
    vx_command_free(&r);
}

Test(formats, wide_layout_has_the_long_layouts_numbers)
{
    vx_command wide = vx_command_run(SIM " " SCENES "/ball_drop.json -n 60 --layout wide");
    vx_command long_ = vx_command_run(SIM " " SCENES "/ball_drop.json -n 60 --layout long");
    cr_assert_eq(wide.code, 0, "%s", wide.err);
    cr_assert_eq(long_.code, 0, "%s", long_.err);
    static char *wl[128], *ll[256];
    cr_assert_eq(split_lines(wide.out, wl, 128), 62, "a header and a row per frame");
    cr_assert_eq(split_lines(long_.out, ll, 256), 1 + 61 * 2);
    cr_assert_str_eq(wl[0], "frame,time,floor.px,floor.py,floor.pz,floor.qx,floor.qy,floor.qz,floor.qw,floor.vx,"
                            "floor.vy,floor.vz,floor.wx,floor.wy,floor.wz,ball.px,ball.py,ball.pz,ball.qx,ball.qy,"
                            "ball.qz,ball.qw,ball.vx,ball.vy,ball.vz,ball.wx,ball.wy,ball.wz");
    for (int k = 0; k <= 60; k++) {
        /* "k,t" + the floor's 13 numbers + the ball's, from the rows
         * "k,t,0,floor,<13>" and "k,t,1,ball,<13>" */
        char expected[1024];
        const char *floor_row = ll[1 + 2 * k], *ball_row = ll[2 + 2 * k];
        const char *floor_numbers = strstr(floor_row, ",floor,") + 7;
        const char *ball_numbers = strstr(ball_row, ",ball,") + 6;
        int head = (int)(strstr(floor_row, ",0,floor,") - floor_row);
        snprintf(expected, sizeof expected, "%.*s,%s,%s", head, floor_row, floor_numbers, ball_numbers);
        cr_assert_str_eq(wl[1 + k], expected, "frame %d", k);
    }
    vx_command_free(&wide);
    vx_command_free(&long_);
}

/* A refused combination: exit 2, one line, nothing on stdout, no file. */
static void refused(const char *args, const char *expected)
{
    vx_command r = vx_command_run(SIM " " SCENES "/ball_drop.json -n 2 %s", args);
    cr_assert_eq(r.code, 2, "%s: exit %d, %s", args, r.code, r.err);
    cr_assert_eq(r.out_size, 0, "%s", args);
    cr_assert_str_eq(r.err, expected, "%s", args);
    vx_command_free(&r);
}

Test(formats, refused_values_and_combinations)
{
    refused("--layout tall", "voltex-sim: --layout: expected long or wide, got 'tall'\n");
    refused("--layout wide -f json",
            "voltex-sim: --layout wide is a CSV layout (it cannot be used with --format json)\n");
    refused("-f jsonl --layout wide",
            "voltex-sim: --layout wide is a CSV layout (it cannot be used with --format jsonl)\n");
    refused("--compare /dev/null --layout wide",
            "voltex-sim: --compare and --layout wide cannot be used together (--compare writes no body trace; it "
            "reads the golden's format from the file)\n");
    refused("--compare /dev/null -f jsonl",
            "voltex-sim: --compare and --format jsonl cannot be used together (--compare writes no body trace; it "
            "reads the golden's format from the file)\n");
    refused("--compare /dev/null --rtol -1", "voltex-sim: --rtol: expected a finite number >= 0, got '-1'\n");
    refused("--compare /dev/null --rtol 1e999", "voltex-sim: --rtol: expected a finite number >= 0, got '1e999'\n");
}

/* Writes the golden with the options, then compares runs with the options
 * given; returns the comparison's result. */
static vx_command compare(const char *dir, const char *golden_options, const char *run_options)
{
    vx_command w = vx_command_run(SIM " " SCENES "/ball_drop.json -n 120 %s -o %s/golden", golden_options, dir);
    cr_assert_eq(w.code, 0, "%s", w.err);
    vx_command_free(&w);
    return vx_command_run(SIM " " SCENES "/ball_drop.json -n 120 %s --compare %s/golden", run_options, dir);
}

Test(formats, goldens_in_every_format_and_thinned_runs)
{
    char dir[] = "/tmp/vx_formats_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *formats[] = {"-f csv", "--layout wide", "-f json", "-f jsonl"};
    for (int i = 0; i < 4; i++) {
        vx_command r = compare(dir, formats[i], "");
        cr_assert_eq(r.code, 0, "%s: %s", formats[i], r.err);
        cr_assert_eq(r.out_size + strlen(r.err), 0);
        vx_command_free(&r);
        r = compare(dir, formats[i], "--every 7");
        cr_assert_eq(r.code, 0, "a thinned run against a full %s golden: %s", formats[i], r.err);
        vx_command_free(&r);
    }
    /* a full run against a thinned golden has frames the golden has not */
    vx_command r = compare(dir, "--every 7", "");
    cr_assert_eq(r.code, 1, "%s", r.err);
    char expected[256];
    snprintf(expected, sizeof expected,
             "voltex-sim: frame 1: golden has no frame 1 (its next is frame 7, %s/golden:4: written with another "
             "--every?)\n",
             dir);
    cr_assert_str_eq(r.err, expected);
    vx_command_free(&r);
    char golden[64];
    snprintf(golden, sizeof golden, "%s/golden", dir);
    unlink(golden);
    rmdir(dir);
}

Test(formats, relative_tolerance)
{
    /* Half a second of free fall at 9.82 m/s^2 against a golden at 9.81: the
     * velocities differ by 0.1 % of themselves (0.01 m/s * t of 9.81 * t),
     * the heights by less, and zeros stay zeros. */
    char dir[] = "/tmp/vx_rtol_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    vx_command w = vx_command_run(SIM " " SCENES "/ball_drop.json -n 30 -o %s/golden", dir);
    cr_assert_eq(w.code, 0, "%s", w.err);
    vx_command_free(&w);
    const char *run = SIM " " SCENES "/ball_drop.json -n 30 --set 'gravity=[0,-9.82,0]' --compare %s/golden "
                          "--tolerance 0 --rtol %s";
    vx_command r = vx_command_run(run, dir, "0.0012");
    cr_assert_eq(r.code, 0, "%s", r.err);
    vx_command_free(&r);
    r = vx_command_run(run, dir, "0.0008");
    cr_assert_eq(r.code, 1, "%s", r.err);
    const char *first = "voltex-sim: frame 1 entity 1 (ball) vy: -0.163667 vs golden -0.1635 (diff ";
    cr_assert_eq(strncmp(r.err, first, strlen(first)), 0, "%s", r.err);
    cr_assert_not_null(strstr(r.err, " > 0 + 0.0008 * |-0.1635|)\n"), "%s", r.err);
    cr_assert_not_null(strstr(r.err, "voltex-sim: 30 of 868 numbers differ (by more than 0 + 0.0008 * |golden|), in "
                                     "frames 1 to 30\n"),
                       "%s", r.err);
    vx_command_free(&r);
    char golden[64];
    snprintf(golden, sizeof golden, "%s/golden", dir);
    unlink(golden);
    rmdir(dir);
}

Test(formats, jsonl_carries_the_joints)
{
    /* the header names each joint, its type and entities; each frame's
     * "joints" are the JSON document's */
    cJSON *header = jsonl_matching_the_document("pendulum.json", 2);
    cJSON *joint = cJSON_GetArrayItem(cJSON_GetObjectItem(header, "joints"), 0);
    cr_assert_not_null(joint);
    cr_assert_str_eq(cJSON_GetObjectItem(joint, "name")->valuestring, "string");
    cr_assert_str_eq(cJSON_GetObjectItem(joint, "type")->valuestring, "distance");
    cr_assert_eq(cJSON_GetObjectItem(joint, "entity_a")->valuedouble, -1.0, "the world");
    cr_assert_eq(cJSON_GetObjectItem(joint, "entity_b")->valuedouble, 0.0);
    cJSON_Delete(header);
}
