/* libFuzzer harness: any bytes as a golden body trace, compared frame by
 * frame with the run of a small fixed scene, as voltex-sim --compare does
 * (vx_golden_open reads a file: the bytes go to one in /tmp first). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "voltex/scene.h"
#include "voltex/trace.h"

static const char fixed_scene[] =
    "{\"name\": \"fuzz\", \"dt\": 0.015625, \"steps\": 4, \"entities\": ["
    "{\"name\": \"floor\", \"transform\": {\"position\": [0, -1, 0]},"
    " \"collider\": {\"type\": \"box\", \"half_extents\": [10, 1, 10]}},"
    "{\"name\": \"ball\", \"transform\": {\"position\": [0, 0.49, 0]},"
    " \"collider\": {\"type\": \"sphere\", \"radius\": 0.5}, \"rigidbody\": {\"mass\": 1}}]}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/voltex-fuzz-golden-%ld.csv", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    if (size && fwrite(data, 1, size, f) != size) abort();
    fclose(f);

    vx_scene scene;
    vx_error err;
    if (vx_scene_load_string(fixed_scene, sizeof fixed_scene - 1, "fuzz.json", &scene, &err) != VX_OK) abort();
    vx_trace_info info;
    memset(&info, 0, sizeof info);
    info.scene_name = scene.name;
    info.dt = vx_world_get_def(scene.world)->fixed_dt;
    info.steps = scene.steps;
    info.entity_count = scene.entity_count;
    info.names = (const char *const *)scene.names;
    vx_body_state states[2];
    vx_golden *golden = NULL;
    vx_golden_tolerance tolerance = {1e-5, 0.0};
    if (vx_golden_open(&golden, path, tolerance, &err) == VX_OK) {
        vx_status st = VX_OK;
        for (int64_t k = 0; st == VX_OK && k <= scene.steps; k++) {
            if (k > 0 && vx_world_step(scene.world, &err) != VX_OK) abort();
            vx_trace_snapshot(scene.world, scene.entities, scene.entity_count, states);
            st = vx_golden_check_frame(golden, k, &info, states, &err);
        }
        if (st == VX_OK) vx_golden_finish(golden, &err);
        vx_golden_close(golden);
    }
    vx_scene_destroy(&scene);
    unlink(path);
    return 0;
}
