#include "cli/same_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What names a file: its device and inode, or for a file not made yet its
 * directory's and its name. */
typedef struct {
    bool known;
    bool exists;
    bool device;
    dev_t dev;
    ino_t ino;
    const char *name; /* not made yet: the last part of the path */
} file_identity;

static file_identity identity_of(const vx_cli_file *f)
{
    file_identity id;
    memset(&id, 0, sizeof id);
    struct stat info;
    int found = strcmp(f->path, "-") == 0 ? fstat(f->fd, &info) : stat(f->path, &info);
    if (found == 0) {
        id.known = id.exists = true;
        id.device = S_ISCHR(info.st_mode);
        id.dev = info.st_dev;
        id.ino = info.st_ino;
        return id;
    }
    /* not made yet: its directory decides (a path that cannot be looked at
     * is left to the open that follows, which says why) */
    const char *slash = strrchr(f->path, '/');
    id.name = slash ? slash + 1 : f->path;
    size_t dir_length = slash ? (size_t)(slash - f->path) : 0;
    char *dir = malloc(dir_length + 2);
    if (!dir) return id;
    if (!slash)
        memcpy(dir, ".", 2);
    else if (dir_length == 0)
        memcpy(dir, "/", 2);
    else {
        memcpy(dir, f->path, dir_length);
        dir[dir_length] = '\0';
    }
    if (stat(dir, &info) == 0) {
        id.known = true;
        id.dev = info.st_dev;
        id.ino = info.st_ino;
    }
    free(dir);
    return id;
}

static bool same(const file_identity *a, const file_identity *b)
{
    if (!a->known || !b->known || a->exists != b->exists || a->dev != b->dev || a->ino != b->ino) return false;
    if (a->exists) return !a->device;
    return strcmp(a->name, b->name) == 0;
}

static void describe(const vx_cli_file *f, char *out, size_t size)
{
    if (strcmp(f->path, "-") == 0)
        snprintf(out, size, "%s", f->output ? "stdout" : "stdin");
    else
        snprintf(out, size, "%s %s", f->label, f->path);
}

bool vx_cli_files_distinct(const vx_cli_file *files, size_t count, char *message, size_t size)
{
    file_identity ids[16];
    if (count > sizeof ids / sizeof ids[0]) count = sizeof ids / sizeof ids[0];
    for (size_t i = 0; i < count; i++) ids[i] = identity_of(&files[i]);
    for (size_t i = 0; i < count; i++) {
        for (size_t j = i + 1; j < count; j++) {
            if (!(files[i].output || files[j].output) || !same(&ids[i], &ids[j])) continue;
            char a[256], b[256];
            describe(&files[i], a, sizeof a);
            describe(&files[j], b, sizeof b);
            snprintf(message, size, "%s and %s name the same file", a, b);
            return false;
        }
    }
    return true;
}
