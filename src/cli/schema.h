/* The JSON Schema of scene files (schema/scene.schema.json), built into the
 * program by cmake/embed_file.cmake for voltex-sim --schema. */
#ifndef VX_CLI_SCHEMA_H
#define VX_CLI_SCHEMA_H

#include <stddef.h>

extern const unsigned char vx_cli_scene_schema[]; /* the file's bytes, then a 0 */
extern const size_t vx_cli_scene_schema_size;     /* bytes, without the 0 */

#endif
