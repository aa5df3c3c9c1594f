/* Golden rows from a JSON body trace: the document of --format json (read
 * whole) or the JSON Lines of --format jsonl (read a line at a time). The
 * header's "entities" give the names; each frame's "bodies" give the rows,
 * with whichever of p, q, v, w they carry (null reads as not a number). */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "trace/golden_source.h"

#define VX_JSON_READ_CHUNK 65536u

typedef struct {
    vx_golden_source base;
    FILE *file;
    bool lines;            /* JSON Lines; else one document */
    cJSON *document;       /* the document, or the current line's frame */
    const cJSON *frame;    /* the frame being handed out (NULL: take the next) */
    const cJSON *body;     /* its next body */
    long frame_index;      /* document: index of frame in "frames" */
    long body_index;
    int64_t frame_number;
    double time;
    bool has_time;
    char **names;          /* names[entity] from the header ("" when missing) */
    size_t name_count;
    char *line;
    size_t line_capacity;
    long line_number;
    bool ended;            /* the last frame was handed out */
} json_source;

static const char *const vectors[4] = {"p", "q", "v", "w"};
static const int vector_size[4] = {3, 4, 3, 3};
static const int vector_first[4] = {1, 4, 8, 11}; /* column of its first number */

/* "PATH:LINE" (lines) or "PATH: frames[i]" (document). */
static void place(const json_source *j, char *buf, size_t size)
{
    if (j->lines) snprintf(buf, size, "%s:%ld", j->base.path, j->line_number);
    else snprintf(buf, size, "%s: frames[%ld]", j->base.path, j->frame_index);
}

static vx_golden_next invalid(const json_source *j, const char *what, vx_error *err)
{
    char at[600];
    place(j, at, sizeof at);
    vx_error_set(err, VX_ERR_INVALID, "%s: not a body trace (%s)", at, what);
    return VX_GOLDEN_FAILED;
}

static bool read_integer(const cJSON *item, int64_t *out)
{
    if (!cJSON_IsNumber(item) || item->valuedouble != floor(item->valuedouble) || fabs(item->valuedouble) > 9e15)
        return false;
    *out = (int64_t)item->valuedouble;
    return true;
}

/* A number, or null (a non-finite number the writer could not print). */
static bool read_number(const cJSON *item, double *out)
{
    if (cJSON_IsNull(item)) {
        *out = NAN;
        return true;
    }
    if (!cJSON_IsNumber(item)) return false;
    *out = item->valuedouble;
    return true;
}

static vx_status read_names(json_source *j, const cJSON *header, vx_error *err)
{
    const cJSON *entities = cJSON_GetObjectItemCaseSensitive(header, "entities");
    if (!cJSON_IsArray(entities)) return invalid(j, "no \"entities\" array", err), VX_ERR_INVALID;
    size_t count = 0;
    int64_t index = 0;
    for (const cJSON *e = entities->child; e; e = e->next) {
        if (!read_integer(cJSON_GetObjectItemCaseSensitive(e, "entity"), &index) || index < 0 ||
            !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "name")))
            return invalid(j, "an entity without a whole \"entity\" >= 0 and a \"name\"", err), VX_ERR_INVALID;
        if ((size_t)index + 1 > count) count = (size_t)index + 1;
    }
    j->names = calloc(count ? count : 1, sizeof *j->names);
    if (!j->names) return vx_error_set(err, VX_ERR_NOMEM, "%s: out of memory", j->base.path);
    j->name_count = count;
    for (const cJSON *e = entities->child; e; e = e->next) {
        if (!read_integer(cJSON_GetObjectItemCaseSensitive(e, "entity"), &index)) continue; /* checked above */
        const char *name = cJSON_GetObjectItemCaseSensitive(e, "name")->valuestring;
        free(j->names[index]);
        j->names[index] = malloc(strlen(name) + 1);
        if (!j->names[index]) return vx_error_set(err, VX_ERR_NOMEM, "%s: out of memory", j->base.path);
        strcpy(j->names[index], name);
    }
    return VX_OK;
}

/* The next non-empty line into j->line; VX_GOLDEN_END at the end. */
static vx_golden_next read_line(json_source *j, vx_error *err)
{
    for (;;) {
        errno = 0;
        ssize_t n = getline(&j->line, &j->line_capacity, j->file);
        if (n < 0) {
            if (ferror(j->file) || errno == ENOMEM) {
                vx_error_set(err, errno == ENOMEM ? VX_ERR_NOMEM : VX_ERR_IO, "%s: cannot read: %s", j->base.path,
                             strerror(errno ? errno : EIO));
                return VX_GOLDEN_FAILED;
            }
            return VX_GOLDEN_END;
        }
        j->line_number++;
        for (ssize_t i = 0; i < n; i++)
            if (j->line[i] != ' ' && j->line[i] != '\t' && j->line[i] != '\r' && j->line[i] != '\n')
                return VX_GOLDEN_ROW;
    }
}

/* Starts frame item: its number, time and bodies. */
static vx_golden_next begin_frame(json_source *j, const cJSON *frame, vx_error *err)
{
    if (!cJSON_IsObject(frame) || !read_integer(cJSON_GetObjectItemCaseSensitive(frame, "frame"), &j->frame_number))
        return invalid(j, "a frame without a whole \"frame\" number", err);
    const cJSON *time = cJSON_GetObjectItemCaseSensitive(frame, "time");
    j->has_time = time != NULL;
    if (time && !read_number(time, &j->time)) return invalid(j, "\"time\" is not a number", err);
    const cJSON *bodies = cJSON_GetObjectItemCaseSensitive(frame, "bodies");
    if (!cJSON_IsArray(bodies)) return invalid(j, "a frame without a \"bodies\" array", err);
    j->frame = frame;
    j->body = bodies->child;
    j->body_index = 0;
    return VX_GOLDEN_ROW;
}

/* The next frame with at least one body; VX_GOLDEN_END after the last. */
static vx_golden_next next_frame(json_source *j, vx_error *err)
{
    do {
        const cJSON *frame;
        if (j->lines) {
            vx_golden_next n = read_line(j, err);
            if (n != VX_GOLDEN_ROW) return n;
            cJSON_Delete(j->document);
            j->document = cJSON_Parse(j->line);
            if (!j->document) return invalid(j, "invalid JSON", err);
            frame = j->document;
        } else {
            frame = j->frame ? j->frame->next : cJSON_GetObjectItemCaseSensitive(j->document, "frames")->child;
            if (j->frame) j->frame_index++;
            if (!frame) return VX_GOLDEN_END;
        }
        vx_golden_next n = begin_frame(j, frame, err);
        if (n != VX_GOLDEN_ROW) return n;
    } while (!j->body);
    return VX_GOLDEN_ROW;
}

static vx_golden_next json_next(vx_golden_source *s, vx_golden_row *row, vx_error *err)
{
    json_source *j = (json_source *)s;
    if (j->ended) return VX_GOLDEN_END;
    if (!j->frame || !j->body) {
        vx_golden_next n = next_frame(j, err);
        j->ended = n == VX_GOLDEN_END;
        if (n != VX_GOLDEN_ROW) return n;
    }
    const cJSON *body = j->body;
    row->frame = j->frame_number;
    row->line = j->lines ? j->line_number : 0;
    row->item = j->frame_index;
    if (!cJSON_IsObject(body) || !read_integer(cJSON_GetObjectItemCaseSensitive(body, "entity"), &row->entity))
        return invalid(j, "a body without a whole \"entity\" number", err);
    row->name = row->entity >= 0 && (size_t)row->entity < j->name_count && j->names[row->entity]
                    ? j->names[row->entity]
                    : "";
    row->present = 0;
    if (j->has_time) {
        row->values[0] = j->time;
        row->present = 1u;
    }
    for (int v = 0; v < 4; v++) {
        const cJSON *array = cJSON_GetObjectItemCaseSensitive(body, vectors[v]);
        if (!array) continue;
        if (!cJSON_IsArray(array) || cJSON_GetArraySize(array) != vector_size[v]) {
            char what[64];
            snprintf(what, sizeof what, "\"%s\" is not an array of %d numbers", vectors[v], vector_size[v]);
            return invalid(j, what, err);
        }
        int k = vector_first[v];
        for (const cJSON *x = array->child; x; x = x->next, k++) {
            if (!read_number(x, &row->values[k])) return invalid(j, "a body's number is not a number", err);
            row->present |= 1u << k;
        }
    }
    j->body = body->next;
    j->body_index++;
    return VX_GOLDEN_ROW;
}

static void json_close(vx_golden_source *s)
{
    json_source *j = (json_source *)s;
    cJSON_Delete(j->document);
    for (size_t i = 0; i < j->name_count; i++) free(j->names[i]);
    free(j->names);
    free(j->line);
    if (j->file) fclose(j->file);
    free(j);
}

/* The rest of the file after the first line, appended to it: the document. */
static vx_status read_rest(json_source *j, size_t first_length, char **text, vx_error *err)
{
    size_t length = first_length, capacity = first_length + VX_JSON_READ_CHUNK;
    char *buf = malloc(capacity + 1);
    if (!buf) return vx_error_set(err, VX_ERR_NOMEM, "%s: out of memory", j->base.path);
    memcpy(buf, j->line, first_length);
    for (;;) {
        if (length == capacity) {
            char *grown = realloc(buf, capacity * 2 + 1);
            if (!grown) {
                free(buf);
                return vx_error_set(err, VX_ERR_NOMEM, "%s: out of memory", j->base.path);
            }
            buf = grown;
            capacity *= 2;
        }
        size_t got = fread(buf + length, 1, capacity - length, j->file);
        length += got;
        if (got == 0) break;
    }
    if (ferror(j->file)) {
        free(buf);
        return vx_error_set(err, VX_ERR_IO, "%s: cannot read: %s", j->base.path, strerror(errno ? errno : EIO));
    }
    buf[length] = '\0';
    *text = buf;
    return VX_OK;
}

/* Reads the header: the first line when it is a whole object without
 * "frames" (JSON Lines), else the whole document. */
static vx_status read_header(json_source *j, vx_error *err)
{
    vx_golden_next n = read_line(j, err);
    if (n == VX_GOLDEN_FAILED) return err->code;
    if (n == VX_GOLDEN_END) return invalid(j, "empty file", err), VX_ERR_INVALID;
    size_t first_length = strlen(j->line);
    cJSON *first = cJSON_Parse(j->line);
    if (first && cJSON_IsObject(first) && !cJSON_GetObjectItemCaseSensitive(first, "frames")) {
        j->lines = true;
        vx_status st = read_names(j, first, err);
        cJSON_Delete(first);
        return st;
    }
    cJSON_Delete(first);
    long header_line = j->line_number;
    char *text = NULL;
    vx_status st = read_rest(j, first_length, &text, err);
    if (st != VX_OK) return st;
    j->document = cJSON_Parse(text);
    free(text);
    j->line_number = header_line;
    if (!j->document) {
        vx_error_set(err, VX_ERR_INVALID, "%s: not a body trace (invalid JSON)", j->base.path);
        return VX_ERR_INVALID;
    }
    if (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(j->document, "frames"))) {
        vx_error_set(err, VX_ERR_INVALID, "%s: not a body trace (no \"frames\" array)", j->base.path);
        return VX_ERR_INVALID;
    }
    return read_names(j, j->document, err);
}

vx_status vx_golden_json_open(vx_golden_source **out, const char *path, FILE *f, vx_error *err)
{
    *out = NULL;
    json_source *j = calloc(1, sizeof *j);
    if (!j) {
        fclose(f);
        return vx_error_set(err, VX_ERR_NOMEM, "%s: out of memory", path);
    }
    j->base.path = path;
    j->base.next = json_next;
    j->base.close = json_close;
    j->file = f;
    vx_status st = read_header(j, err);
    if (st != VX_OK) {
        json_close(&j->base);
        return st;
    }
    *out = &j->base;
    return VX_OK;
}
