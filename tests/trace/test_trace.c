/* Trace writers: number formatting, snapshots, the CSV and JSON body traces,
 * the contact trace, and write errors (docs/traces.md). */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_helpers.h"
#include "voltex/voltex.h"

/* ---- helpers ---- */

/* A memory stream the writers write into; text() gives what was written. */
typedef struct {
    FILE *file;
    char *data;
    size_t size;
} memory_out;

static void memory_open(memory_out *m)
{
    m->data = NULL;
    m->size = 0;
    m->file = open_memstream(&m->data, &m->size);
    cr_assert_not_null(m->file);
}

/* Closes the stream; the caller frees m->data. */
static const char *memory_text(memory_out *m)
{
    cr_assert_eq(fclose(m->file), 0);
    m->file = NULL;
    return m->data;
}

static const char *const two_names[] = {"floor", "ball"};

static vx_trace_info two_body_info(float dt, int64_t steps)
{
    vx_trace_info info;
    memset(&info, 0, sizeof info);
    info.scene_name = "ball_drop";
    info.dt = dt;
    info.steps = steps;
    info.entity_count = 2;
    info.names = two_names;
    return info;
}

static void two_body_states(vx_body_state states[2])
{
    memset(states, 0, 2 * sizeof *states);
    states[0].p = vx_vec3_make(0.0f, -1.0f, 0.0f);
    states[0].q = vx_quat_identity();
    states[1].p = vx_vec3_make(0.25f, 4.5f, -0.125f);
    states[1].q = vx_quat_make(0.0f, 0.5f, 0.0f, 0.75f);
    states[1].v = vx_vec3_make(0.0f, -1.0f / 60.0f, 2.0f);
    states[1].w = vx_vec3_make(0.1f, 0.0f, -3.0f);
}

static vx_contact make_contact(uint32_t a, uint32_t b, float depth, float impulse)
{
    vx_contact c;
    memset(&c, 0, sizeof c);
    c.entity_a = (vx_entity){a, 1u};
    c.entity_b = (vx_entity){b, 1u};
    c.normal = vx_vec3_make(0.0f, -1.0f, 0.0f);
    c.depth = depth;
    c.point_on_a = vx_vec3_make(0.0f, 0.5f, 0.0f);
    c.point_on_b = vx_vec3_make(0.0f, 0.5f + depth, 0.0f);
    c.impulse = impulse;
    return c;
}

static const char *format(char *buf, size_t size, float f)
{
    vx_format_float(buf, size, f);
    return buf;
}

/* ---- numbers ---- */

Test(trace_float, known_values_print_as_the_interface_shows)
{
    char buf[64];
    cr_assert_str_eq(format(buf, sizeof buf, 1.0f / 60.0f), "0.0166666675");
    cr_assert_str_eq(format(buf, sizeof buf, 0.1f), "0.100000001");
    cr_assert_str_eq(format(buf, sizeof buf, -0.0f), "-0");
    cr_assert_str_eq(format(buf, sizeof buf, 0.0f), "0");
    cr_assert_str_eq(format(buf, sizeof buf, 1.0f), "1");
    cr_assert_str_eq(format(buf, sizeof buf, -9.81f), "-9.81000042");
    cr_assert_str_eq(format(buf, sizeof buf, FLT_MAX), "3.40282347e+38");
    cr_assert_str_eq(format(buf, sizeof buf, FLT_TRUE_MIN), "1.40129846e-45");
    cr_assert_eq(vx_format_float(buf, sizeof buf, 0.5f), 3, "returns the length");
}

static void assert_round_trip(float f)
{
    char buf[64];
    vx_format_float(buf, sizeof buf, f);
    char *end;
    float back = strtof(buf, &end);
    cr_assert_eq(*end, '\0');
    cr_assert(memcmp(&back, &f, sizeof f) == 0, "%s reads back as %.9g, not %a", buf, (double)back, (double)f);
}

Test(trace_float, every_kind_of_float_reads_back_exactly)
{
    const float special[] = {FLT_MAX, -FLT_MAX, FLT_MIN, FLT_TRUE_MIN, -FLT_TRUE_MIN, FLT_MIN * 0.75f, -0.0f,
                             0.1f, 1.0f / 60.0f, 1.0f / 3.0f, 16777217.0f, 1e-30f, 123456.789f};
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++) assert_round_trip(special[i]);
    /* A deterministic sweep over bit patterns: every finite float, normal or
     * denormal, of either sign. */
    uint32_t state = 12345u;
    for (int i = 0; i < 20000; i++) {
        state = state * 1664525u + 1013904223u;
        float f;
        memcpy(&f, &state, sizeof f);
        if (isfinite(f)) assert_round_trip(f);
    }
}

/* vx_format_float computes its digits itself; the contract is the text of
 * snprintf("%.9g", (double)f). Checks one float against snprintf, including
 * the return value. */
static void assert_as_snprintf(float f)
{
    char got[64], want[64];
    int got_length = vx_format_float(got, sizeof got, f);
    int want_length = snprintf(want, sizeof want, "%.9g", (double)f);
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    cr_assert_str_eq(got, want, "bits %08x: got '%s', snprintf gives '%s'", bits, got, want);
    cr_assert_eq(got_length, want_length, "bits %08x: length %d, not %d", bits, got_length, want_length);
}

static float float_from_bits(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* Fewer random floats under the sanitizers, which make both sides slower. */
#if defined(__SANITIZE_ADDRESS__)
#define RANDOM_FLOATS_PER_TEST 500000
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RANDOM_FLOATS_PER_TEST 500000
#endif
#endif
#ifndef RANDOM_FLOATS_PER_TEST
#define RANDOM_FLOATS_PER_TEST 5000000 /* two tests: 10 million bit patterns */
#endif

Test(trace_float, ties_round_half_even_on_the_exact_value)
{
    /* Exactly half-way at the 9th digit: glibc rounds to the even digit. */
    char buf[64];
    cr_assert_str_eq(format(buf, sizeof buf, 1048576.125f), "1048576.12");
    cr_assert_str_eq(format(buf, sizeof buf, 1048576.375f), "1048576.38");
    cr_assert_str_eq(format(buf, sizeof buf, 524288.0625f), "524288.062");
    cr_assert_str_eq(format(buf, sizeof buf, 524288.1875f), "524288.188");
    /* Switches between fixed and exponent notation, on either side. */
    cr_assert_str_eq(format(buf, sizeof buf, 0.0001f), "9.99999975e-05");
    cr_assert_str_eq(format(buf, sizeof buf, 0.00012f), "0.000119999997");
    cr_assert_str_eq(format(buf, sizeof buf, 999999936.0f), "999999936");
    cr_assert_str_eq(format(buf, sizeof buf, 1e9f), "1e+09");
    cr_assert_str_eq(format(buf, sizeof buf, -3e10f), "-3.0000001e+10");
    cr_assert_str_eq(format(buf, sizeof buf, 1e-10f), "1.00000001e-10");
}

Test(trace_float, special_values_as_snprintf)
{
    static const uint32_t specials[] = {
        0x00000000u, 0x80000000u,                           /* +0, -0 */
        0x7f800000u, 0xff800000u,                           /* +inf, -inf */
        0x7fc00000u, 0xffc00000u, 0x7fffffffu, 0xffffffffu, /* quiet NaNs, both signs */
        0x7f800001u, 0xff800001u, 0x7fa00000u, 0xffbfffffu, /* signalling NaNs */
        0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu, /* smallest and largest denormal */
        0x00800000u, 0x80800000u, 0x7f7fffffu, 0xff7fffffu, /* FLT_MIN, FLT_MAX */
        0x3f800000u, 0x3f7fffffu, 0x3f800001u,              /* 1 and its neighbours */
    };
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++) assert_as_snprintf(float_from_bits(specials[i]));
    const float decimal_edges[] = {1e-5f, 1e-4f, 1e-3f, 0.1f, 1.0f, 10.0f, 99999.9922f, 1e8f, 99999999.0f,
                                   999999999.0f, 1e9f, 1e10f, 123456789.0f, 0.5f, 1.0f / 3.0f, 16777216.0f,
                                   16777217.0f, 3.4e38f, 1e-38f, 1e-45f, 9.8e-45f};
    for (size_t i = 0; i < sizeof decimal_edges / sizeof decimal_edges[0]; i++) {
        assert_as_snprintf(decimal_edges[i]);
        assert_as_snprintf(-decimal_edges[i]);
    }
}

Test(trace_float, every_power_of_two_and_its_neighbours_as_snprintf)
{
    /* 2^-149 (the smallest denormal) to 2^127, both signs, with the floats
     * just below and above: the edges of every binade. */
    for (int e = -149; e <= 127; e++) {
        float p = ldexpf(1.0f, e);
        uint32_t bits;
        memcpy(&bits, &p, sizeof bits);
        for (uint32_t d = 0; d < 3; d++) {
            uint32_t b = bits - 1u + d;
            if (b == 0xffffffffu) continue; /* below +0: not a neighbour */
            assert_as_snprintf(float_from_bits(b));
            assert_as_snprintf(float_from_bits(b | 0x80000000u));
        }
    }
}

Test(trace_float, runs_of_consecutive_floats_with_many_ties_as_snprintf)
{
    /* In [2^19, 2^21) many floats sit exactly half-way between two 9-digit
     * decimals (524288.0625, 1048576.125); also runs near 1, 0.1 and 1e-5. */
    static const float starts[] = {524288.0f, 1048576.0f, 1.0f, 0.1f, 1e-5f, 1e30f};
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++) {
        uint32_t bits;
        memcpy(&bits, &starts[i], sizeof bits);
        for (uint32_t k = 0; k < 100000u; k++) assert_as_snprintf(float_from_bits(bits + k));
    }
}

static void random_floats_as_snprintf(uint32_t seed)
{
    vx_test_rng rng = {seed};
    for (int i = 0; i < RANDOM_FLOATS_PER_TEST; i++) assert_as_snprintf(float_from_bits(vx_test_rng_next(&rng)));
}

Test(trace_float, random_bit_patterns_as_snprintf_first_half) { random_floats_as_snprintf(0x2545f491u); }

Test(trace_float, random_bit_patterns_as_snprintf_second_half) { random_floats_as_snprintf(0x9e3779b9u); }

Test(trace_float, small_buffers_truncate_as_snprintf)
{
    const float values[] = {-1.23456789e-30f, 0.0166666675f, -0.0f, 1e9f};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        char want_full[64];
        int want_length = snprintf(want_full, sizeof want_full, "%.9g", (double)values[i]);
        cr_assert_eq(vx_format_float(NULL, 0, values[i]), want_length, "size 0 returns the full length");
        for (size_t size = 1; size < 20; size++) {
            char got[32], want[32];
            memset(got, 'x', sizeof got);
            memset(want, 'x', sizeof want);
            int got_length = vx_format_float(got, size, values[i]);
            snprintf(want, size, "%.9g", (double)values[i]);
            cr_assert_eq(got_length, want_length);
            cr_assert(memcmp(got, want, sizeof got) == 0, "size %zu: '%s' vs '%s'", size, got, want);
        }
    }
}

Test(trace_float, frame_time_is_k_times_dt_rounded_once)
{
    char buf[64];
    float dt = 1.0f / 60.0f;
    cr_assert_eq(vx_trace_frame_time(0, dt), 0.0f);
    cr_assert_str_eq(format(buf, sizeof buf, vx_trace_frame_time(3, dt)), "0.0500000045");
    /* Adding dt 600 times in float drifts to 10.0000191; k * dt does not. */
    cr_assert_str_eq(format(buf, sizeof buf, vx_trace_frame_time(600, dt)), "10.000001");
    cr_assert_eq(vx_trace_frame_time(7, 0.5f), 3.5f);
    cr_assert_eq(vx_trace_frame_time(1000000000, 0.25f), 250000000.0f);
}

/* ---- snapshot ---- */

Test(trace_snapshot, reads_transform_and_velocities_zero_without_rigidbody)
{
    vx_world_def def = vx_world_def_default();
    vx_world *physics = vx_world_create(&def, NULL);
    cr_assert_not_null(physics);
    vx_registry *world = vx_world_registry(physics);
    vx_entity e[4];
    for (int i = 0; i < 3; i++) cr_assert_eq(vx_registry_spawn(world, &e[i]), VX_OK);
    e[3] = VX_ENTITY_NULL; /* not in the world */

    vx_transform t0 = vx_transform_from_position(vx_vec3_make(1.0f, 2.0f, 3.0f));
    vx_rigidbody rb0 = vx_rigidbody_dynamic(2.0f);
    rb0.velocity = vx_vec3_make(4.0f, 5.0f, 6.0f);
    rb0.angular_velocity = vx_vec3_make(-1.0f, 0.5f, 0.25f);
    cr_assert_eq(vx_registry_add(world, e[0], VX_COMPONENT_TRANSFORM, &t0), VX_OK);
    cr_assert_eq(vx_registry_add(world, e[0], VX_COMPONENT_RIGIDBODY, &rb0), VX_OK);

    vx_transform t1 = vx_transform_identity();
    t1.rotation = vx_quat_make(0.0f, 0.70710677f, 0.0f, 0.70710677f);
    cr_assert_eq(vx_registry_add(world, e[1], VX_COMPONENT_TRANSFORM, &t1), VX_OK);
    vx_collider c1 = vx_collider_sphere(0.5f);
    cr_assert_eq(vx_registry_add(world, e[1], VX_COMPONENT_COLLIDER, &c1), VX_OK);

    vx_transform t2 = vx_transform_from_position(vx_vec3_make(0.0f, -1.0f, 0.0f));
    vx_rigidbody rb2 = vx_rigidbody_static();
    cr_assert_eq(vx_registry_add(world, e[2], VX_COMPONENT_TRANSFORM, &t2), VX_OK);
    cr_assert_eq(vx_registry_add(world, e[2], VX_COMPONENT_RIGIDBODY, &rb2), VX_OK);

    vx_body_state states[4];
    memset(states, 0xAB, sizeof states); /* garbage the snapshot must overwrite */
    vx_trace_snapshot(physics, e, 4, states);

    cr_assert(states[0].p.x == 1.0f && states[0].p.y == 2.0f && states[0].p.z == 3.0f);
    cr_assert(states[0].q.x == 0.0f && states[0].q.y == 0.0f && states[0].q.z == 0.0f && states[0].q.w == 1.0f);
    cr_assert(states[0].v.x == 4.0f && states[0].v.y == 5.0f && states[0].v.z == 6.0f);
    cr_assert(states[0].w.x == -1.0f && states[0].w.y == 0.5f && states[0].w.z == 0.25f);

    cr_assert(states[1].q.y == 0.70710677f && states[1].q.w == 0.70710677f);
    cr_assert(states[1].v.x == 0.0f && states[1].v.y == 0.0f && states[1].v.z == 0.0f, "no rigidbody: v = 0");
    cr_assert(states[1].w.x == 0.0f && states[1].w.y == 0.0f && states[1].w.z == 0.0f, "no rigidbody: w = 0");

    cr_assert(states[2].p.y == -1.0f);
    cr_assert(states[2].v.x == 0.0f && states[2].v.y == 0.0f && states[2].v.z == 0.0f);

    cr_assert(states[3].p.x == 0.0f && states[3].q.w == 1.0f && states[3].v.y == 0.0f, "not in the world: at rest");

    /* The snapshot reads the world as it is now. */
    vx_transform *moved = vx_registry_get(world, e[0], VX_COMPONENT_TRANSFORM);
    moved->position.y = 7.5f;
    vx_trace_snapshot(physics, e, 1, states);
    cr_assert(states[0].p.y == 7.5f);
    vx_world_destroy(physics);
}

/* ---- CSV body trace ---- */

Test(trace_body_csv, header_and_one_frame_exact_text)
{
    vx_trace_info info = two_body_info(0.5f, 10);
    vx_body_state states[2];
    two_body_states(states);
    memory_out m;
    memory_open(&m);
    vx_body_writer w;
    vx_error err;
    cr_assert_eq(vx_body_writer_begin(&w, m.file, VX_TRACE_CSV, &info, &err), VX_OK);
    cr_assert_eq(vx_body_writer_frame(&w, 3, states, NULL, NULL, NULL, &err), VX_OK);
    cr_assert_eq(vx_body_writer_end(&w, &err), VX_OK);
    cr_assert_eq(w.frames_written, 1);
    const char *text = memory_text(&m);
    cr_assert_str_eq(text, "frame,time,entity,name,px,py,pz,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz\n"
                           "3,1.5,0,floor,0,-1,0,0,0,0,1,0,0,0,0,0,0\n"
                           "3,1.5,1,ball,0.25,4.5,-0.125,0,0.5,0,0.75,0,-0.0166666675,2,0.100000001,0,-3\n");
    free(m.data);
}

Test(trace_body_csv, header_constant_is_the_interface_header)
{
    cr_assert_str_eq(VX_BODY_CSV_HEADER, "frame,time,entity,name,px,py,pz,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz");
    cr_assert_str_eq(VX_CONTACT_CSV_HEADER,
                     "frame,time,entity_a,entity_b,name_a,name_b,nx,ny,nz,depth,ax,ay,az,bx,by,bz,impulse");
}

Test(trace_body_csv, frames_follow_each_other_with_their_own_time)
{
    vx_trace_info info = two_body_info(1.0f / 60.0f, 2);
    vx_body_state states[2];
    two_body_states(states);
    memory_out m;
    memory_open(&m);
    vx_body_writer w;
    vx_error err;
    cr_assert_eq(vx_body_writer_begin(&w, m.file, VX_TRACE_CSV, &info, &err), VX_OK);
    for (int64_t k = 0; k <= 2; k++) cr_assert_eq(vx_body_writer_frame(&w, k, states, NULL, NULL, NULL, &err), VX_OK);
    cr_assert_eq(vx_body_writer_end(&w, &err), VX_OK);
    const char *text = memory_text(&m);
    /* header + 3 frames x 2 entities */
    size_t lines = 0;
    for (const char *p = text; *p; p++) lines += *p == '\n';
    cr_assert_eq(lines, 7);
    cr_assert_not_null(strstr(text, "\n1,0.0166666675,1,ball,"));
    cr_assert_not_null(strstr(text, "\n2,0.0333333351,0,floor,"));
    free(m.data);
}

/* ---- JSON body trace ---- */

static double json_number(const cJSON *obj, const char *key)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    cr_assert(cJSON_IsNumber(item), "\"%s\" is not a number", key);
    return item->valuedouble;
}

static void assert_json_vec(const cJSON *obj, const char *key, const float *expected, int n)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, key);
    cr_assert(cJSON_IsArray(arr), "\"%s\" is not an array", key);
    cr_assert_eq(cJSON_GetArraySize(arr), n, "\"%s\" has %d numbers", key, cJSON_GetArraySize(arr));
    for (int i = 0; i < n; i++) {
        const cJSON *item = cJSON_GetArrayItem(arr, i);
        cr_assert(cJSON_IsNumber(item));
        /* The printed digits read back to the very float. */
        cr_assert_eq((float)item->valuedouble, expected[i], "%s[%d] = %.9g, expected %.9g", key, i, item->valuedouble,
                     (double)expected[i]);
    }
}

Test(trace_body_json, two_frames_parse_with_the_documented_structure)
{
    vx_trace_info info = two_body_info(1.0f / 60.0f, 600);
    vx_body_state states[2];
    two_body_states(states);
    vx_contact_list contacts;
    vx_contact_list_init(&contacts);
    vx_contact c = make_contact(1, 0, 0.01f, 0.3f);
    cr_assert_eq(vx_contact_list_push(&contacts, &c), VX_OK);
    vx_contact_list empty;
    vx_contact_list_init(&empty);

    memory_out m;
    memory_open(&m);
    vx_body_writer w;
    vx_error err;
    cr_assert_eq(vx_body_writer_begin(&w, m.file, VX_TRACE_JSON, &info, &err), VX_OK);
    cr_assert_eq(vx_body_writer_frame(&w, 0, states, &empty, NULL, NULL, &err), VX_OK);
    states[1].p.y = 4.25f;
    cr_assert_eq(vx_body_writer_frame(&w, 1, states, &contacts, NULL, NULL, &err), VX_OK);
    cr_assert_eq(vx_body_writer_end(&w, &err), VX_OK);
    const char *text = memory_text(&m);
    cr_assert(strncmp(text, "{\"scene\":\"ball_drop\",\"dt\":0.0166666675,\"steps\":600,", 51) == 0, "%s", text);

    cJSON *doc = cJSON_Parse(text);
    cr_assert_not_null(doc, "not JSON: %s", text);
    cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(doc, "scene")->valuestring, "ball_drop");
    cr_assert_eq((float)json_number(doc, "dt"), 1.0f / 60.0f);
    cr_assert_eq(json_number(doc, "steps"), 600.0);

    const cJSON *entities = cJSON_GetObjectItemCaseSensitive(doc, "entities");
    cr_assert_eq(cJSON_GetArraySize(entities), 2);
    const cJSON *e1 = cJSON_GetArrayItem(entities, 1);
    cr_assert_eq(json_number(e1, "entity"), 1.0);
    cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(e1, "name")->valuestring, "ball");

    const cJSON *frames = cJSON_GetObjectItemCaseSensitive(doc, "frames");
    cr_assert_eq(cJSON_GetArraySize(frames), 2);
    const cJSON *f0 = cJSON_GetArrayItem(frames, 0);
    const cJSON *f1 = cJSON_GetArrayItem(frames, 1);
    cr_assert_eq(json_number(f0, "frame"), 0.0);
    cr_assert_eq(json_number(f0, "time"), 0.0);
    cr_assert_eq(json_number(f1, "frame"), 1.0);
    cr_assert_eq((float)json_number(f1, "time"), 1.0f / 60.0f);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(f0, "contacts")), 0, "frame 0 has no contacts");

    const cJSON *bodies = cJSON_GetObjectItemCaseSensitive(f1, "bodies");
    cr_assert_eq(cJSON_GetArraySize(bodies), 2);
    const cJSON *b1 = cJSON_GetArrayItem(bodies, 1);
    cr_assert_eq(json_number(b1, "entity"), 1.0);
    assert_json_vec(b1, "p", (const float[]){0.25f, 4.25f, -0.125f}, 3);
    assert_json_vec(b1, "q", (const float[]){0.0f, 0.5f, 0.0f, 0.75f}, 4);
    assert_json_vec(b1, "v", (const float[]){0.0f, -1.0f / 60.0f, 2.0f}, 3);
    assert_json_vec(b1, "w", (const float[]){0.1f, 0.0f, -3.0f}, 3);
    const cJSON *b0f0 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(f0, "bodies"), 1);
    assert_json_vec(b0f0, "p", (const float[]){0.25f, 4.5f, -0.125f}, 3);

    const cJSON *cs = cJSON_GetObjectItemCaseSensitive(f1, "contacts");
    cr_assert_eq(cJSON_GetArraySize(cs), 1);
    const cJSON *c0 = cJSON_GetArrayItem(cs, 0);
    cr_assert_eq(json_number(c0, "entity_a"), 1.0);
    cr_assert_eq(json_number(c0, "entity_b"), 0.0);
    assert_json_vec(c0, "normal", (const float[]){0.0f, -1.0f, 0.0f}, 3);
    cr_assert_eq((float)json_number(c0, "depth"), 0.01f);
    assert_json_vec(c0, "point_a", (const float[]){0.0f, 0.5f, 0.0f}, 3);
    assert_json_vec(c0, "point_b", (const float[]){0.0f, 0.5f + 0.01f, 0.0f}, 3);
    cr_assert_eq((float)json_number(c0, "impulse"), 0.3f);

    cJSON_Delete(doc);
    free(m.data);
    vx_contact_list_free(&contacts);
}

Test(trace_body_json, scene_name_is_escaped)
{
    vx_trace_info info = two_body_info(0.5f, 1);
    info.scene_name = "a\"b\\c\nd\x01/\xc3\xa9";
    vx_body_state states[2];
    two_body_states(states);
    memory_out m;
    memory_open(&m);
    vx_body_writer w;
    vx_error err;
    cr_assert_eq(vx_body_writer_begin(&w, m.file, VX_TRACE_JSON, &info, &err), VX_OK);
    cr_assert_eq(vx_body_writer_frame(&w, 0, states, NULL, NULL, NULL, &err), VX_OK);
    cr_assert_eq(vx_body_writer_end(&w, &err), VX_OK);
    const char *text = memory_text(&m);
    cr_assert_not_null(strstr(text, "{\"scene\":\"a\\\"b\\\\c\\u000ad\\u0001/\xc3\xa9\","), "%s", text);
    cJSON *doc = cJSON_Parse(text);
    cr_assert_not_null(doc, "not JSON: %s", text);
    cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(doc, "scene")->valuestring, info.scene_name);
    cJSON_Delete(doc);
    free(m.data);
}

Test(trace_body_json, a_document_without_frames_is_still_json)
{
    vx_trace_info info = two_body_info(0.5f, 0);
    memory_out m;
    memory_open(&m);
    vx_body_writer w;
    vx_error err;
    cr_assert_eq(vx_body_writer_begin(&w, m.file, VX_TRACE_JSON, &info, &err), VX_OK);
    cr_assert_eq(vx_body_writer_end(&w, &err), VX_OK);
    const char *text = memory_text(&m);
    cJSON *doc = cJSON_Parse(text);
    cr_assert_not_null(doc, "not JSON: %s", text);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "frames")), 0);
    cJSON_Delete(doc);
    free(m.data);
}

Test(trace_body_json, non_finite_contact_numbers_become_null)
{
    vx_trace_info info = two_body_info(0.5f, 1);
    vx_body_state states[2];
    two_body_states(states);
    vx_contact_list contacts;
    vx_contact_list_init(&contacts);
    vx_contact c = make_contact(1, 0, 0.01f, NAN);
    cr_assert_eq(vx_contact_list_push(&contacts, &c), VX_OK);
    memory_out m;
    memory_open(&m);
    vx_body_writer w;
    vx_error err;
    cr_assert_eq(vx_body_writer_begin(&w, m.file, VX_TRACE_JSON, &info, &err), VX_OK);
    cr_assert_eq(vx_body_writer_frame(&w, 1, states, &contacts, NULL, NULL, &err), VX_OK);
    cr_assert_eq(vx_body_writer_end(&w, &err), VX_OK);
    const char *text = memory_text(&m);
    cr_assert_not_null(strstr(text, "\"impulse\":null}"), "%s", text);
    cJSON *doc = cJSON_Parse(text);
    cr_assert_not_null(doc, "not JSON: %s", text);
    cJSON_Delete(doc);
    free(m.data);
    vx_contact_list_free(&contacts);
}

Test(trace_body_json, a_thousand_frames_make_one_valid_document)
{
    vx_trace_info info = two_body_info(0.01f, 999);
    vx_body_state states[2];
    two_body_states(states);
    memory_out m;
    memory_open(&m);
    vx_body_writer w;
    vx_error err;
    cr_assert_eq(vx_body_writer_begin(&w, m.file, VX_TRACE_JSON, &info, &err), VX_OK);
    for (int64_t k = 0; k < 1000; k++) {
        states[1].p.y = (float)k;
        cr_assert_eq(vx_body_writer_frame(&w, k, states, NULL, NULL, NULL, &err), VX_OK);
    }
    cr_assert_eq(vx_body_writer_end(&w, &err), VX_OK);
    const char *text = memory_text(&m);
    cJSON *doc = cJSON_Parse(text);
    cr_assert_not_null(doc, "not JSON");
    const cJSON *frames = cJSON_GetObjectItemCaseSensitive(doc, "frames");
    cr_assert_eq(cJSON_GetArraySize(frames), 1000);
    const cJSON *last = cJSON_GetArrayItem(frames, 999);
    cr_assert_eq(json_number(last, "frame"), 999.0);
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(last, "bodies"), 1), "p");
    cr_assert_eq(cJSON_GetArrayItem(p, 1)->valuedouble, 999.0);
    cJSON_Delete(doc);
    free(m.data);
}

/* ---- contact trace ---- */

Test(trace_contact_csv, rows_in_list_order_exact_text)
{
    vx_trace_info info = two_body_info(0.5f, 10);
    const char *const names[] = {"floor", "ball", "box"};
    info.entity_count = 3;
    info.names = names;
    vx_contact_list contacts;
    vx_contact_list_init(&contacts);
    vx_contact c1 = make_contact(1, 0, 0.25f, 1.5f);
    vx_contact c2 = make_contact(2, 0, 0.125f, 0.0f);
    c2.normal = vx_vec3_make(1.0f, 0.0f, 0.0f);
    c2.point_on_a = vx_vec3_make(-1.0f, 2.0f, 3.0f);
    c2.point_on_b = vx_vec3_make(-0.875f, 2.0f, 3.0f);
    cr_assert_eq(vx_contact_list_push(&contacts, &c1), VX_OK);
    cr_assert_eq(vx_contact_list_push(&contacts, &c2), VX_OK);

    memory_out m;
    memory_open(&m);
    vx_contact_writer w;
    vx_error err;
    cr_assert_eq(vx_contact_writer_begin(&w, m.file, &info, &err), VX_OK);
    vx_contact_list empty;
    vx_contact_list_init(&empty);
    cr_assert_eq(vx_contact_writer_frame(&w, 4, &empty, &err), VX_OK);
    cr_assert_eq(vx_contact_writer_frame(&w, 5, &contacts, &err), VX_OK);
    cr_assert_eq(vx_contact_writer_end(&w, &err), VX_OK);
    const char *text = memory_text(&m);
    cr_assert_str_eq(text,
                     "frame,time,entity_a,entity_b,name_a,name_b,nx,ny,nz,depth,ax,ay,az,bx,by,bz,impulse\n"
                     "5,2.5,1,0,ball,floor,0,-1,0,0.25,0,0.5,0,0,0.75,0,1.5\n"
                     "5,2.5,2,0,box,floor,1,0,0,0.125,-1,2,3,-0.875,2,3,0\n");
    free(m.data);
    vx_contact_list_free(&contacts);
}

/* ---- write errors ---- */

static FILE *open_full(void)
{
    FILE *f = fopen("/dev/full", "w");
    cr_assert_not_null(f, "/dev/full is needed for this test");
    return f;
}

Test(trace_errors, body_csv_to_a_full_disk_is_an_io_error)
{
    vx_trace_info info = two_body_info(0.5f, 1);
    vx_body_state states[2];
    two_body_states(states);
    FILE *f = open_full();
    vx_body_writer w;
    vx_error err;
    vx_error_clear(&err);
    vx_status st = vx_body_writer_begin(&w, f, VX_TRACE_CSV, &info, &err);
    if (st == VX_OK) st = vx_body_writer_frame(&w, 0, states, NULL, NULL, NULL, &err);
    if (st == VX_OK) st = vx_body_writer_end(&w, &err);
    cr_assert_eq(st, VX_ERR_IO);
    cr_assert_eq(err.code, VX_ERR_IO);
    cr_assert_str_eq(err.message, "write failed: No space left on device");
    fclose(f);
}

Test(trace_errors, body_json_and_contacts_to_a_full_disk_are_io_errors)
{
    vx_trace_info info = two_body_info(0.5f, 1);
    vx_body_state states[2];
    two_body_states(states);
    FILE *f = open_full();
    setvbuf(f, NULL, _IONBF, 0); /* unbuffered: the first write already fails */
    vx_body_writer w;
    vx_error err;
    cr_assert_eq(vx_body_writer_begin(&w, f, VX_TRACE_JSON, &info, &err), VX_ERR_IO);
    cr_assert_str_eq(err.message, "write failed: No space left on device");
    fclose(f);

    f = open_full();
    vx_contact_writer cw;
    vx_status st = vx_contact_writer_begin(&cw, f, &info, &err);
    if (st == VX_OK) st = vx_contact_writer_end(&cw, &err);
    cr_assert_eq(st, VX_ERR_IO);
    cr_assert_str_eq(err.message, "write failed: No space left on device");
    fclose(f);
}

Test(trace_errors, a_reader_that_went_away_is_a_pipe_error)
{
    signal(SIGPIPE, SIG_IGN);
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    close(fds[0]);
    FILE *f = fdopen(fds[1], "w");
    cr_assert_not_null(f);
    vx_trace_info info = two_body_info(0.5f, 1);
    vx_body_state states[2];
    two_body_states(states);
    vx_body_writer w;
    vx_error err;
    vx_status st = vx_body_writer_begin(&w, f, VX_TRACE_CSV, &info, &err);
    if (st == VX_OK) st = vx_body_writer_frame(&w, 0, states, NULL, NULL, NULL, &err);
    if (st == VX_OK) st = vx_body_writer_end(&w, &err);
    cr_assert_eq(st, VX_ERR_PIPE);
    cr_assert_eq(err.code, VX_ERR_PIPE);
    fclose(f);
}

/* ---- streaming ---- */

Test(trace_streaming, ten_thousand_frames_stream_to_dev_null)
{
    vx_trace_info info = two_body_info(1.0f / 60.0f, 9999);
    vx_body_state states[2];
    two_body_states(states);
    vx_contact_list contacts;
    vx_contact_list_init(&contacts);
    vx_contact c = make_contact(1, 0, 0.01f, 0.3f);
    cr_assert_eq(vx_contact_list_push(&contacts, &c), VX_OK);
    for (int format = VX_TRACE_CSV; format <= VX_TRACE_JSON; format++) {
        FILE *f = fopen("/dev/null", "w");
        cr_assert_not_null(f);
        vx_body_writer w;
        vx_error err;
        cr_assert_eq(vx_body_writer_begin(&w, f, (vx_trace_format)format, &info, &err), VX_OK);
        for (int64_t k = 0; k < 10000; k++)
            cr_assert_eq(vx_body_writer_frame(&w, k, states, &contacts, NULL, NULL, &err), VX_OK);
        cr_assert_eq(vx_body_writer_end(&w, &err), VX_OK);
        cr_assert_eq(w.frames_written, 10000);
        cr_assert_eq(fclose(f), 0);
    }
    vx_contact_list_free(&contacts);
}
