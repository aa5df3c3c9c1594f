/* The JSON Schema of scene files (schema/scene.schema.json, printed by
 * voltex-sim --schema) agrees with the loader: tests/scene/schema_check.py
 * checks, with Debian's python3-jsonschema, that it is a valid draft 2020-12
 * schema, that every scene of scenes/ passes it, that the fixture's scenes of
 * the whole format pass or fail as they should, and that every invalid-scene
 * case of the loader's tests (collected by running them, see
 * tests/helpers/invalid_scene_record.h) fails it too, or breaks a rule the
 * script names as one a schema cannot express. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_command.h"

Test(scene_schema, agrees_with_the_loader, .timeout = 120)
{
    /* the cases: written by the loader's tests, which ctest runs first */
    vx_command r = vx_command_run("/usr/bin/python3 '" VOLTEX_SOURCE_DIR "/tests/scene/schema_check.py' '"
                                  VOLTEX_SOURCE_DIR "/schema/scene.schema.json' '" VOLTEX_SOURCE_DIR "/scenes' '"
                                  VOLTEX_INVALID_SCENES_DIR "' '" VOLTEX_SOURCE_DIR
                                  "/tests/scene/fixtures/schema_cases.json'");
    printf("%s", r.out);
    cr_assert_eq(r.code, 0, "%s%s", r.out, r.err);
    cr_assert_not_null(strstr(r.out, "rejected by the schema too"), "%s", r.out);
    vx_command_free(&r);
}
