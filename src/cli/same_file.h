/* The files a run reads and writes, refused before anything is opened when
 * an output names the same file as another output or an input, also
 * through a symbolic or hard link (the same device and inode) or, for a
 * file not made yet, the same name in the same directory. Devices
 * (/dev/null) may be named any number of times. */
#ifndef VX_CLI_SAME_FILE_H
#define VX_CLI_SAME_FILE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    const char *label; /* for the message: "--output", "--compare", "the scene" */
    const char *path;  /* "-": the descriptor below */
    int fd;            /* stdin or stdout, for "-" */
    bool output;
} vx_cli_file;

/* True when no output shares its file with another of files; else false
 * and message = "LABEL PATH and LABEL PATH name the same file". */
bool vx_cli_files_distinct(const vx_cli_file *files, size_t count, char *message, size_t size);

#endif
