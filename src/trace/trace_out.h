/* Private to the trace module: a small append buffer in front of a FILE.
 * Writers build rows here and hand them to stdio in large fwrite calls; the
 * first write error sticks, so a writer checks once per frame. */
#ifndef VX_TRACE_OUT_H
#define VX_TRACE_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "voltex/error.h"
#include "voltex/math.h"

#define VX_TRACE_OUT_CAPACITY 8192u /* bytes gathered before one fwrite */

typedef struct {
    FILE *file;
    size_t length;
    vx_status status;  /* VX_OK until a write fails */
    int error_number;  /* errno of the failed write */
    char data[VX_TRACE_OUT_CAPACITY];
} vx_trace_out;

void vx_trace_out_init(vx_trace_out *o, FILE *file);
void vx_trace_out_bytes(vx_trace_out *o, const char *s, size_t n);
void vx_trace_out_str(vx_trace_out *o, const char *s);
void vx_trace_out_char(vx_trace_out *o, char c);
void vx_trace_out_int(vx_trace_out *o, int64_t v);
/* vx_format_float's text. */
void vx_trace_out_float(vx_trace_out *o, float f);
/* A JSON number: vx_format_float's text, or null when f is not finite (JSON
 * has no inf or nan). */
void vx_trace_out_json_float(vx_trace_out *o, float f);
/* "[x,y,z]" of JSON numbers. */
void vx_trace_out_json_vec3(vx_trace_out *o, vx_vec3 v);
/* s as a quoted JSON string: quote, backslash and control characters escaped. */
void vx_trace_out_json_string(vx_trace_out *o, const char *s);
/* Hands the gathered bytes to stdio (and fflushes the FILE when flush_file).
 * VX_ERR_PIPE when the reader went away (EPIPE), VX_ERR_IO otherwise, with the
 * message "write failed: <strerror>"; the caller names the output. */
vx_status vx_trace_out_flush(vx_trace_out *o, bool flush_file, vx_error *err);

/* Checks ferror and fflush of an output the writer is done with. */
vx_status vx_trace_file_flush(FILE *file, vx_error *err);

#endif
