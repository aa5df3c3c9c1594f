/* The poses --format glb writes, through a temporary file (glb_samples.h). */
#define _XOPEN_SOURCE 700 /* fseeko, mkstemp */

#include "trace/glb_samples.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "common/assert.h"

/* Floats read back at once: entities are gathered as many at a time as
 * their frames fit in this (the file is read once per group and channel). */
#define VX_GLB_BLOCK_FLOATS (1u << 20)

static vx_status io_failure(const char *what, vx_error *err)
{
    vx_error_set(err, VX_ERR_IO, "%s: %s", what, strerror(errno ? errno : EIO));
    return VX_ERR_IO;
}

vx_status vx_glb_samples_open(vx_glb_samples *s, size_t entity_count, vx_error *err)
{
    memset(s, 0, sizeof *s);
    s->entity_count = entity_count;
    s->record = malloc((1u + VX_GLB_POSE_FLOATS * entity_count) * sizeof *s->record);
    s->previous = malloc((entity_count ? entity_count : 1u) * sizeof *s->previous);
    s->block = malloc(VX_GLB_BLOCK_FLOATS * sizeof *s->block);
    if (!s->record || !s->previous || !s->block) {
        vx_glb_samples_close(s);
        vx_error_set(err, VX_ERR_NOMEM, "out of memory");
        return VX_ERR_NOMEM;
    }
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir) dir = "/tmp";
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/voltex-glb-XXXXXX", dir);
    if (n < 0 || (size_t)n >= sizeof path) {
        errno = ENAMETOOLONG;
        vx_glb_samples_close(s);
        return io_failure("cannot make a temporary file", err);
    }
    errno = 0;
    int fd = mkstemp(path);
    if (fd >= 0) unlink(path);
    s->file = fd >= 0 ? fdopen(fd, "w+b") : NULL;
    if (!s->file) {
        int e = errno;
        if (fd >= 0) close(fd);
        vx_glb_samples_close(s);
        errno = e;
        return io_failure("cannot make a temporary file", err);
    }
    return VX_OK;
}

static size_t record_floats(const vx_glb_samples *s) { return 1u + VX_GLB_POSE_FLOATS * s->entity_count; }

static off_t record_offset(const vx_glb_samples *s, int64_t frame)
{
    return (off_t)frame * (off_t)(record_floats(s) * sizeof(float));
}

vx_status vx_glb_samples_add(vx_glb_samples *s, float time, const vx_body_state *states, vx_error *err)
{
    if (s->frame_count > 0 && !(time > s->last_time)) time = nextafterf(s->last_time, INFINITY);
    if (s->frame_count == 0) s->first_time = time;
    s->last_time = time;
    float *r = s->record;
    r[0] = time;
    for (size_t i = 0; i < s->entity_count; i++) {
        const vx_body_state *b = &states[i];
        vx_quat q = b->q;
        double len = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
        q = vx_quat_make((float)(q.x / len), (float)(q.y / len), (float)(q.z / len), (float)(q.w / len));
        if (s->frame_count > 0) {
            vx_quat p = s->previous[i];
            if ((double)p.x * q.x + (double)p.y * q.y + (double)p.z * q.z + (double)p.w * q.w < 0.0)
                q = vx_quat_make(-q.x, -q.y, -q.z, -q.w);
        }
        s->previous[i] = q;
        float *pose = r + 1u + VX_GLB_POSE_FLOATS * i;
        pose[0] = b->p.x;
        pose[1] = b->p.y;
        pose[2] = b->p.z;
        pose[3] = q.x;
        pose[4] = q.y;
        pose[5] = q.z;
        pose[6] = q.w;
    }
    errno = 0;
    if (fwrite(r, sizeof *r, record_floats(s), s->file) != record_floats(s))
        return io_failure("cannot write the temporary file", err);
    s->frame_count++;
    return VX_OK;
}

/* count floats of frame's record from float `first` on into to. */
static vx_status read_floats(vx_glb_samples *s, int64_t frame, size_t first, size_t count, float *to, vx_error *err)
{
    errno = 0;
    if (fseeko(s->file, record_offset(s, frame) + (off_t)(first * sizeof(float)), SEEK_SET) != 0 ||
        fread(to, sizeof *to, count, s->file) != count)
        return io_failure("cannot read the temporary file back", err);
    return VX_OK;
}

vx_status vx_glb_samples_first(vx_glb_samples *s, float pose[], vx_error *err)
{
    VX_ASSERT(s->frame_count > 0);
    return read_floats(s, 0, 1u, VX_GLB_POSE_FLOATS * s->entity_count, pose, err);
}

void vx_glb_put_u32(vx_trace_out *out, uint32_t v)
{
    char b[4] = {(char)(v & 0xFFu), (char)((v >> 8) & 0xFFu), (char)((v >> 16) & 0xFFu), (char)(v >> 24)};
    vx_trace_out_bytes(out, b, 4u);
}

void vx_glb_put_f32(vx_trace_out *out, float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    vx_glb_put_u32(out, bits);
}

vx_status vx_glb_samples_write_times(vx_glb_samples *s, vx_trace_out *out, vx_error *err)
{
    for (int64_t f = 0; f < s->frame_count; f++) {
        float t;
        vx_status st = read_floats(s, f, 0u, 1u, &t, err);
        if (st != VX_OK) return st;
        vx_glb_put_f32(out, t);
    }
    return VX_OK;
}

vx_status vx_glb_samples_write_channel(vx_glb_samples *s, vx_glb_channel channel, vx_trace_out *out, vx_error *err)
{
    const size_t width = channel == VX_GLB_TRANSLATION ? 3u : 4u, skip = channel == VX_GLB_TRANSLATION ? 0u : 3u;
    const size_t frames = (size_t)s->frame_count, n = s->entity_count;
    /* a group of entities with all their frames, or one entity a run of frames at a time */
    size_t group = frames * width <= VX_GLB_BLOCK_FLOATS ? VX_GLB_BLOCK_FLOATS / (frames * width) : 1u;
    size_t run = frames * width <= VX_GLB_BLOCK_FLOATS ? frames : VX_GLB_BLOCK_FLOATS / width;
    if (group > n) group = n;
    for (size_t e0 = 0; e0 < n; e0 += group) {
        size_t e1 = e0 + group < n ? e0 + group : n;
        for (size_t f0 = 0; f0 < frames; f0 += run) {
            size_t f1 = f0 + run < frames ? f0 + run : frames, length = f1 - f0;
            for (size_t f = f0; f < f1; f++) {
                vx_status st = read_floats(s, (int64_t)f, 1u + VX_GLB_POSE_FLOATS * e0,
                                           VX_GLB_POSE_FLOATS * (e1 - e0), s->record, err);
                if (st != VX_OK) return st;
                for (size_t e = e0; e < e1; e++)
                    memcpy(s->block + ((e - e0) * length + (f - f0)) * width,
                           s->record + VX_GLB_POSE_FLOATS * (e - e0) + skip, width * sizeof(float));
            }
            for (size_t k = 0; k < (e1 - e0) * length * width; k++) vx_glb_put_f32(out, s->block[k]);
        }
    }
    return VX_OK;
}

void vx_glb_samples_close(vx_glb_samples *s)
{
    if (s->file) fclose(s->file);
    free(s->record);
    free(s->previous);
    free(s->block);
    memset(s, 0, sizeof *s);
}
