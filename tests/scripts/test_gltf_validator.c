/* --format glb files pass the Khronos glTF Validator (npm gltf-validator,
 * pinned in package.json, installed by scripts/test.sh with npm ci) with
 * no error and no warning: every collider type the engine has (terrain:
 * heightfield, triangle mesh, convex hull, capsule, box, sphere; an OBJ
 * floor), --every, an interrupted count of frames, no steps, no entities. */
#include "test_scripts.h"

#define VALIDATE VOLTEX_SOURCE_DIR "/tests/scripts/gltf_validate.js"
#define VALIDATOR_PACKAGE VOLTEX_SOURCE_DIR "/node_modules/gltf-validator/package.json"

Test(gltf_validator, every_shape_validates_without_errors_or_warnings, .timeout = 180)
{
    cr_assert_eq(access(VALIDATOR_PACKAGE, F_OK), 0,
                 "the npm packages are not installed: run `npm ci` in the source tree (scripts/test.sh does)");
    char dir[64];
    vx_scratch_make(dir);
    vx_write_file(strcat(strcpy((char[128]){0}, dir), "/empty.json"), "{\"name\":\"empty\",\"entities\":[]}\n");
    vx_script_result r = vx_script_run(
        dir,
        "cd '%s' && S='%s' && "
        "'%s' $S/terrain.json -n 40 --every 3 -q -f glb -o terrain.glb && "
        "'%s' $S/shapes/mesh_slide.json -n 5 -q -f glb -o mesh_slide.glb && "
        "'%s' $S/shapes/d20.json -n 5 -q -f glb -o d20.glb && "
        "'%s' $S/shapes/l_shapes.json -n 5 -q -f glb -o compounds.glb && "
        "'%s' $S/ragdoll.json -n 30 --every 4 -q -f glb -o ragdoll.glb && "
        "'%s' $S/ball_drop.json -n 0 -q -f glb -o no_steps.glb && "
        "'%s' empty.json -n 3 -q -f glb -o empty.glb && "
        "node '%s' terrain.glb mesh_slide.glb d20.glb compounds.glb ragdoll.glb no_steps.glb empty.glb",
        dir, VX_SCENES, VOLTEX_SIM_PATH, VOLTEX_SIM_PATH, VOLTEX_SIM_PATH, VOLTEX_SIM_PATH, VOLTEX_SIM_PATH,
        VOLTEX_SIM_PATH, VOLTEX_SIM_PATH, VALIDATE);
    cr_assert_eq(r.code, 0, "exit %d\n%s%s", r.code, r.out, r.err);
    cr_assert_eq(vx_count_lines(r.out, "terrain.glb: 0 errors, 0 warnings"), 1, "%s", r.out);
    cr_assert_eq(vx_count_lines(r.out, "empty.glb: 0 errors, 0 warnings"), 1, "%s", r.out);
    cr_assert_eq(vx_count_lines(r.out, "compounds.glb: 0 errors, 0 warnings"), 1, "%s", r.out);
    vx_script_free(&r);
    vx_scratch_remove(dir);
}
