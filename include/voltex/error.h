/* Error reporting shared by every module: a status code plus a one-line message
 * that names the place (file:line:column or JSON path). Only the CLI prints. */
#ifndef VOLTEX_ERROR_H
#define VOLTEX_ERROR_H

#include <stddef.h>

typedef enum {
    VX_OK = 0,
    VX_ERR_NOMEM,       /* allocation failed */
    VX_ERR_IO,          /* a file could not be read or written */
    VX_ERR_SYNTAX,      /* malformed JSON */
    VX_ERR_INVALID,     /* well-formed input with a bad value */
    VX_ERR_UNSUPPORTED, /* valid input the engine cannot simulate yet */
    VX_ERR_NONFINITE,   /* the simulation produced NaN or infinity */
    VX_ERR_DIFFERENT,   /* a golden comparison found a difference */
    VX_ERR_PIPE,        /* the reader of an output went away */
    VX_ERR_BUDGET       /* the work would need more memory than the budget allows (vx_world_def.max_pairs) */
} vx_status;

#define VX_ERROR_MESSAGE_MAX 512

typedef struct {
    vx_status code;
    char message[VX_ERROR_MESSAGE_MAX];
} vx_error;

/* Fills err (if not NULL) with code and a printf-style message; returns code. */
vx_status vx_error_set(vx_error *err, vx_status code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Empties err (code VX_OK, message ""). */
void vx_error_clear(vx_error *err);

#endif
