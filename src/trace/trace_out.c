/* The trace module's buffered output: appends never fail on their own; a
 * failed fwrite is remembered and reported by vx_trace_out_flush. */
#include "trace/trace_out.h"

#include <errno.h>
#include <string.h>

#include "voltex/trace.h"

#define VX_NUMBER_MAX 40u /* room for any "%.9g" float or int64 */

void vx_trace_out_init(vx_trace_out *o, FILE *file)
{
    o->file = file;
    o->length = 0;
    o->status = VX_OK;
    o->error_number = 0;
}

static void record_failure(vx_trace_out *o)
{
    int e = errno ? errno : EIO;
    o->status = e == EPIPE ? VX_ERR_PIPE : VX_ERR_IO;
    o->error_number = e;
}

static void write_through(vx_trace_out *o, const char *s, size_t n)
{
    if (o->status != VX_OK || n == 0) return;
    errno = 0;
    if (fwrite(s, 1, n, o->file) != n) record_failure(o);
}

static void drain(vx_trace_out *o)
{
    write_through(o, o->data, o->length);
    o->length = 0;
}

void vx_trace_out_bytes(vx_trace_out *o, const char *s, size_t n)
{
    if (o->status != VX_OK) return;
    if (n > VX_TRACE_OUT_CAPACITY - o->length) {
        drain(o);
        if (n > VX_TRACE_OUT_CAPACITY) {
            write_through(o, s, n);
            return;
        }
    }
    memcpy(o->data + o->length, s, n);
    o->length += n;
}

void vx_trace_out_str(vx_trace_out *o, const char *s) { vx_trace_out_bytes(o, s, strlen(s)); }

/* Makes room for n bytes at the end of the buffer. */
static char *reserve(vx_trace_out *o, size_t n)
{
    if (n > VX_TRACE_OUT_CAPACITY - o->length) drain(o);
    return o->data + o->length;
}

void vx_trace_out_char(vx_trace_out *o, char c)
{
    if (o->status != VX_OK) return;
    *reserve(o, 1) = c;
    o->length++;
}

void vx_trace_out_int(vx_trace_out *o, int64_t v)
{
    if (o->status != VX_OK) return;
    char digits[VX_NUMBER_MAX];
    size_t n = 0;
    /* Work with the magnitude as unsigned so INT64_MIN is fine. */
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        digits[n++] = (char)('0' + (int)(u % 10u));
        u /= 10u;
    } while (u != 0);
    char *p = reserve(o, n + 1);
    size_t len = 0;
    if (v < 0) p[len++] = '-';
    while (n > 0) p[len++] = digits[--n];
    o->length += len;
}

void vx_trace_out_float(vx_trace_out *o, float f)
{
    if (o->status != VX_OK) return;
    char *p = reserve(o, VX_NUMBER_MAX);
    int len = vx_format_float(p, VX_NUMBER_MAX, f);
    if (len > 0) o->length += (size_t)len;
}

void vx_trace_out_json_float(vx_trace_out *o, float f)
{
    if (isfinite(f))
        vx_trace_out_float(o, f);
    else
        vx_trace_out_bytes(o, "null", 4);
}

void vx_trace_out_json_vec3(vx_trace_out *o, vx_vec3 v)
{
    vx_trace_out_char(o, '[');
    vx_trace_out_json_float(o, v.x);
    vx_trace_out_char(o, ',');
    vx_trace_out_json_float(o, v.y);
    vx_trace_out_char(o, ',');
    vx_trace_out_json_float(o, v.z);
    vx_trace_out_char(o, ']');
}

void vx_trace_out_json_string(vx_trace_out *o, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    vx_trace_out_char(o, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned char c = *p;
        if (c == '"' || c == '\\') {
            vx_trace_out_char(o, '\\');
            vx_trace_out_char(o, (char)c);
        } else if (c < 0x20u) {
            char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15u]};
            vx_trace_out_bytes(o, esc, sizeof esc);
        } else {
            vx_trace_out_char(o, (char)c); /* UTF-8 bytes pass through */
        }
    }
    vx_trace_out_char(o, '"');
}

static vx_status write_error(int error_number, vx_error *err)
{
    vx_status code = error_number == EPIPE ? VX_ERR_PIPE : VX_ERR_IO;
    return vx_error_set(err, code, "write failed: %s", strerror(error_number));
}

vx_status vx_trace_out_flush(vx_trace_out *o, bool flush_file, vx_error *err)
{
    drain(o);
    if (o->status == VX_OK && flush_file) {
        errno = 0;
        if (fflush(o->file) != 0) record_failure(o);
    }
    if (o->status != VX_OK) return write_error(o->error_number, err);
    return VX_OK;
}

vx_status vx_trace_file_flush(FILE *file, vx_error *err)
{
    errno = 0;
    if (fflush(file) != 0 || ferror(file)) return write_error(errno ? errno : EIO, err);
    return VX_OK;
}
