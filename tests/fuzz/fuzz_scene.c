/* libFuzzer harness: any bytes as a scene text (vx_scene_load_string), then
 * a few steps of what loads, with a small memory budget. A crash, a
 * sanitizer report, a leak or a hang is a finding; a refusal is not. */
#include <stddef.h>
#include <stdint.h>

#include "voltex/limits.h"
#include "voltex/scene.h"
#include "voltex/trace.h"

#define FUZZ_STEPS 3           /* steps of a scene that loads */
#define FUZZ_MAX_PAIRS 4096u  /* the step's memory budget, in pairs */
#define FUZZ_MAX_ENTITIES 512u /* more would be slow, not more interesting */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vx_scene scene;
    vx_error err;
    if (vx_scene_load_string((const char *)data, size, "fuzz.json", &scene, &err) != VX_OK) return 0;
    vx_world_def def = *vx_world_get_def(scene.world);
    def.max_pairs = FUZZ_MAX_PAIRS;
    if (def.threads > 2) def.threads = 2;
    if (def.substeps > 4) def.substeps = 4;
    if (def.iterations > 20) def.iterations = 20;
    if (def.position_iterations > 20) def.position_iterations = 20;
    if (scene.entity_count <= FUZZ_MAX_ENTITIES && vx_world_set_def(scene.world, &def, &err) == VX_OK) {
        vx_body_state states[FUZZ_MAX_ENTITIES];
        for (int k = 0; k < FUZZ_STEPS; k++) {
            if (vx_world_step(scene.world, &err) != VX_OK) break;
            vx_trace_snapshot(scene.world, scene.entities, scene.entity_count, states);
        }
    }
    vx_scene_destroy(&scene);
    return 0;
}
