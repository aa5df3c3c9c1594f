#include "voltex/error.h"

#include <stdarg.h>
#include <stdio.h>

vx_status vx_error_set(vx_error *err, vx_status code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return code;
}

void vx_error_clear(vx_error *err)
{
    if (err) {
        err->code = VX_OK;
        err->message[0] = '\0';
    }
}
