/* The invalid-scene test cases, kept for the schema test: with
 * VX_INVALID_SCENES_DIR set (ctest sets it, tests/CMakeLists.txt), each scene
 * the loader must reject is also written there (NAME.json, and NAME.message
 * with the loader's message), and tests/scene/test_scene_schema.c checks that
 * the JSON Schema rejects it too, or that the message is one the schema
 * cannot express. */
#ifndef VOLTEX_INVALID_SCENE_RECORD_H
#define VOLTEX_INVALID_SCENE_RECORD_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static inline void vx_test_record_invalid_scene(const char *text, size_t length, const char *message)
{
    const char *dir = getenv("VX_INVALID_SCENES_DIR");
    if (!dir) return;
    mkdir(dir, 0755); /* or it is there already */
    static int count = 0; /* per process: Criterion runs each test in a process of its own */
    char path[512];
    const char *suffix[2] = {"json", "message"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%d-%d.%s", dir, (int)getpid(), count, suffix[i]);
        FILE *f = fopen(path, "wb");
        if (!f) return;
        if (i == 0) fwrite(text, 1, length, f);
        else fputs(message, f);
        fclose(f);
    }
    count++;
}

#endif
