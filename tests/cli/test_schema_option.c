/* voltex-sim --schema prints the scene format's JSON Schema: the bytes of
 * schema/scene.schema.json, a JSON object that says it is draft 2020-12; like
 * --help it wins over a run, and a stdout that cannot be written is exit 4.
 * (That the schema agrees with the loader: tests/scene/test_scene_schema.c.) */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <string.h>

#include "test_command.h"

#define SIM "'" VOLTEX_SIM_PATH "'"

Test(schema_option, prints_the_schema_file)
{
    size_t size;
    char *file = vx_test_slurp(VOLTEX_SOURCE_DIR "/schema/scene.schema.json", &size);
    vx_command r = vx_command_run(SIM " --schema");
    cr_assert_eq(r.code, 0, "%s", r.err);
    cr_assert_str_empty(r.err);
    cr_assert_eq(r.out_size, size);
    cr_assert(memcmp(r.out, file, size) == 0, "--schema differs from schema/scene.schema.json");
    cJSON *schema = cJSON_Parse(r.out);
    cr_assert_not_null(schema);
    cr_assert_str_eq(cJSON_GetObjectItem(schema, "$schema")->valuestring,
                     "https://json-schema.org/draft/2020-12/schema");
    cr_assert_not_null(cJSON_GetObjectItem(cJSON_GetObjectItem(schema, "properties"), "entities"));
    cJSON_Delete(schema);
    vx_command_free(&r);

    /* with a scene and options it prints the schema and runs nothing */
    r = vx_command_run(SIM " '" VOLTEX_SOURCE_DIR "/scenes/ball_drop.json' --steps 5 --schema");
    cr_assert_eq(r.code, 0, "%s", r.err);
    cr_assert_eq(r.out_size, size);
    vx_command_free(&r);
    free(file);
}

Test(schema_option, unwritable_stdout_is_exit_4)
{
    vx_command r = vx_command_run(SIM " --schema >/dev/full");
    cr_assert_eq(r.code, 4);
    cr_assert_str_eq(r.err, "voltex-sim: stdout: write failed: No space left on device\n");
    vx_command_free(&r);
}

Test(schema_option, a_scene_may_name_its_schema)
{
    vx_command r = vx_command_run("printf '%%s' '{\"$schema\": \"schema/scene.schema.json\", \"entities\": []}' | "
                                  SIM " - --steps 1");
    cr_assert_eq(r.code, 0, "%s", r.err);
    cr_assert_str_eq(r.out, "frame,time,entity,name,px,py,pz,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz\n");
    vx_command_free(&r);
}
