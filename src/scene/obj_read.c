/* Wavefront OBJ vertices and faces (obj_read.h), read line by line in one
 * pass: a face may use the vertices above it. */
#include "scene/obj_read.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "voltex/limits.h"
#include "voltex/physics.h"

typedef struct {
    const char *p, *end; /* the current line (a '#' ends it earlier: skip_spaces) */
    size_t line;
    const char *path;
    vx_error *err;
    vx_obj_mesh *mesh;
} obj_parser;

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* Past spaces; a comment ('#' to the end of the line) ends the line. */
static void skip_spaces(obj_parser *o)
{
    while (o->p < o->end && is_space(*o->p)) o->p++;
    if (o->p < o->end && *o->p == '#') o->p = o->end;
}

static vx_status fail(const obj_parser *o, vx_status code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static vx_status fail(const obj_parser *o, vx_status code, const char *fmt, ...)
{
    char what[256];
    va_list args;
    va_start(args, fmt);
    vsnprintf(what, sizeof what, fmt, args);
    va_end(args);
    return vx_error_set(o->err, code, "%s:%zu: %s", o->path, o->line, what);
}

/* The next token (up to a space) for a message, at most 24 bytes of it. */
static void token_shown(const obj_parser *o, char *out, size_t size)
{
    size_t n = 0;
    for (const char *q = o->p; q < o->end && !is_space(*q) && n + 1 < size && n < 24; q++) out[n++] = *q;
    out[n] = '\0';
}

static bool at_token_end(const obj_parser *o) { return o->p >= o->end || is_space(*o->p) || *o->p == '#'; }

/* Powers of ten a double holds exactly. */
static const double exact_tens[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* A plain decimal ([-]digits[.digits], at most 15 digits, no exponent) at
 * p, as strtod would read it: the digits make an integer a double holds
 * exactly, and one division by an exact power of ten rounds correctly.
 * False for anything else (strtod reads it then). */
static bool read_plain_decimal(const char *p, const char *end, double *value, const char **stop)
{
    bool negative = p < end && *p == '-';
    if (negative || (p < end && *p == '+')) p++;
    uint64_t digits = 0;
    int count = 0, decimals = 0;
    bool point = false;
    for (; p < end; p++) {
        if (*p >= '0' && *p <= '9') {
            if (++count > 15) return false;
            digits = digits * 10u + (uint64_t)(*p - '0');
            decimals += point ? 1 : 0;
        } else if (*p == '.' && !point) {
            point = true;
        } else {
            break;
        }
    }
    if (count == 0 || (p < end && (*p == 'e' || *p == 'E'))) return false;
    double v = (double)digits / exact_tens[decimals];
    *value = negative ? -v : v;
    *stop = p;
    return true;
}

/* "v x y z": three numbers that fit a float; more are read past (w, colours). */
static vx_status read_vertex(obj_parser *o)
{
    float xyz[3];
    for (int k = 0; k < 3; k++) {
        skip_spaces(o);
        if (o->p >= o->end) return fail(o, VX_ERR_SYNTAX, "v: needs x, y and z");
        const char *stop = NULL;
        double value = 0.0;
        if (!read_plain_decimal(o->p, o->end, &value, &stop) ||
            !(stop >= o->end || is_space(*stop) || *stop == '#')) {
            char *s = NULL;
            value = strtod(o->p, &s);
            stop = s;
        }
        if (stop == o->p || stop > o->end) {
            char shown[32];
            token_shown(o, shown, sizeof shown);
            return fail(o, VX_ERR_SYNTAX, "v: expected a number, found \"%s\"", shown);
        }
        o->p = stop;
        if (!at_token_end(o)) {
            char shown[32];
            token_shown(o, shown, sizeof shown);
            return fail(o, VX_ERR_SYNTAX, "v: expected a number, found \"%s\"", shown);
        }
        if (!isfinite(value) || fabs(value) > 3.4e38) return fail(o, VX_ERR_INVALID, "v: coordinates must be finite");
        xyz[k] = (float)value;
    }
    vx_obj_mesh *m = o->mesh;
    if (m->vertex_count >= VX_MAX_MESH_VERTICES)
        return fail(o, VX_ERR_INVALID, "more than %u vertices", VX_MAX_MESH_VERTICES);
    vx_status st = VX_OK;
    VX_RESERVE(st, m->vertices, m->vertex_capacity, m->vertex_count + 1u, 1024u);
    if (st != VX_OK) return vx_error_set(o->err, st, "%s: out of memory", o->path);
    m->vertices[m->vertex_count++] = vx_vec3_make(xyz[0], xyz[1], xyz[2]);
    return VX_OK;
}

/* One corner of a face: its vertex (0-based) from "v", "v/vt", "v//vn" or
 * "v/vt/vn". */
static vx_status read_corner(obj_parser *o, uint32_t *vertex)
{
    const char *start = o->p;
    bool negative = *o->p == '-';
    if (negative) o->p++;
    int64_t value = 0;
    const char *digits = o->p;
    while (o->p < o->end && *o->p >= '0' && *o->p <= '9') {
        if (value < ((int64_t)1 << 40)) value = value * 10 + (*o->p - '0');
        o->p++;
    }
    bool ok = o->p > digits;
    /* the texture and normal indices are read past */
    for (int part = 0; ok && part < 2 && o->p < o->end && *o->p == '/'; part++) {
        o->p++;
        if (o->p < o->end && *o->p == '-') o->p++;
        while (o->p < o->end && *o->p >= '0' && *o->p <= '9') o->p++;
    }
    if (!ok || !at_token_end(o)) {
        o->p = start;
        char shown[32];
        token_shown(o, shown, sizeof shown);
        return fail(o, VX_ERR_SYNTAX, "f: expected a vertex index (v, v/vt, v//vn or v/vt/vn), found \"%s\"", shown);
    }
    int64_t count = (int64_t)o->mesh->vertex_count;
    if (value == 0) return fail(o, VX_ERR_INVALID, "f: vertex index 0 (OBJ counts vertices from 1)");
    int64_t index = negative ? count - value : value - 1;
    if (index < 0 || index >= count)
        return fail(o, VX_ERR_INVALID, "f: vertex index %s%lld is out of range (%lld vertices so far)",
                    negative ? "-" : "", (long long)value, (long long)count);
    *vertex = (uint32_t)index;
    return VX_OK;
}

static vx_status add_triangle(obj_parser *o, const uint32_t corner[3])
{
    vx_obj_mesh *m = o->mesh;
    const vx_vec3 *v = m->vertices;
    if (vx_triangle_is_degenerate(v[corner[0]], v[corner[1]], v[corner[2]]))
        return fail(o, VX_ERR_INVALID, "f: degenerate triangle (vertices %u, %u, %u are on one line)", corner[0] + 1u,
                    corner[1] + 1u, corner[2] + 1u);
    if (m->triangle_count >= VX_MAX_MESH_TRIANGLES)
        return fail(o, VX_ERR_INVALID, "more than %u triangles", VX_MAX_MESH_TRIANGLES);
    vx_status st = VX_OK;
    VX_RESERVE(st, m->indices, m->index_capacity, 3u * (m->triangle_count + 1u), 3072u);
    if (st != VX_OK) return vx_error_set(o->err, st, "%s: out of memory", o->path);
    memcpy(&m->indices[3u * m->triangle_count++], corner, 3u * sizeof *corner);
    return VX_OK;
}

/* "f a b c ...": a polygon of 3 or more corners, fanned from the first. */
static vx_status read_face(obj_parser *o)
{
    uint32_t first = 0, previous = 0;
    int corners = 0;
    for (;;) {
        skip_spaces(o);
        if (o->p >= o->end) break;
        uint32_t vertex = 0;
        vx_status st = read_corner(o, &vertex);
        if (st != VX_OK) return st;
        if (corners == 0) first = vertex;
        if (corners >= 2) {
            uint32_t tri[3] = {first, previous, vertex};
            st = add_triangle(o, tri);
            if (st != VX_OK) return st;
        }
        previous = vertex;
        corners++;
    }
    if (corners < 3) return fail(o, VX_ERR_SYNTAX, "f: needs at least 3 vertices (%d given)", corners);
    return VX_OK;
}

static vx_status read_line(obj_parser *o)
{
    skip_spaces(o);
    if (o->p >= o->end) return VX_OK;
    const char *keyword = o->p;
    while (o->p < o->end && !is_space(*o->p)) o->p++;
    size_t length = (size_t)(o->p - keyword);
    if (length == 1 && keyword[0] == 'v') return read_vertex(o);
    if (length == 1 && keyword[0] == 'f') return read_face(o);
    return VX_OK; /* vt, vn, o, g, s, usemtl, ...: nothing the shape needs */
}

vx_status vx_obj_parse(const char *text, size_t length, const char *path, vx_obj_mesh *out, vx_error *err)
{
    memset(out, 0, sizeof *out);
    obj_parser o;
    memset(&o, 0, sizeof o);
    o.path = path;
    o.err = err;
    o.mesh = out;
    const char *at = text, *end = text + length;
    for (o.line = 1; at < end; o.line++) {
        const char *line_end = memchr(at, '\n', (size_t)(end - at));
        if (!line_end) line_end = end;
        o.p = at;
        o.end = line_end;
        vx_status st = read_line(&o);
        if (st != VX_OK) return st;
        at = line_end + 1;
    }
    if (out->triangle_count == 0) return vx_error_set(err, VX_ERR_INVALID, "%s: no faces (\"f\" lines)", path);
    return VX_OK;
}

void vx_obj_mesh_free(vx_obj_mesh *mesh)
{
    free(mesh->vertices);
    free(mesh->indices);
    memset(mesh, 0, sizeof *mesh);
}
