/* The scene's queries asked of the world at one frame (vx_query_frame in
 * voltex/trace.h), for the query trace and the JSON frames. */
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "voltex/trace.h"

void vx_query_frame_init(vx_query_frame *f) { memset(f, 0, sizeof *f); }

void vx_query_frame_free(vx_query_frame *f)
{
    free(f->hits);
    free(f->first);
    vx_query_frame_init(f);
}

typedef struct {
    vx_query_frame *frame;
    vx_status status;
} collect;

static bool keep_hit(const vx_query_hit *hit, void *context)
{
    collect *c = context;
    vx_query_frame *f = c->frame;
    VX_RESERVE(c->status, f->hits, f->hit_capacity, f->hit_count + 1u, 64u);
    if (c->status != VX_OK) return false;
    f->hits[f->hit_count++] = *hit;
    return true;
}

vx_status vx_query_frame_run(vx_query_frame *f, vx_world *world, const vx_query_def *queries, size_t count,
                             vx_error *err)
{
    f->hit_count = 0;
    f->query_count = 0;
    vx_status st = VX_OK;
    VX_RESERVE(st, f->first, f->first_capacity, count + 1u, 16u);
    if (st != VX_OK) return vx_error_set(err, st, "queries: out of memory");
    for (size_t i = 0; i < count; i++) {
        f->first[i] = f->hit_count;
        collect c = {f, VX_OK};
        st = vx_world_query(world, &queries[i], keep_hit, &c, err);
        if (st == VX_OK && c.status != VX_OK) st = vx_error_set(err, c.status, "queries: out of memory");
        if (st != VX_OK) return st;
    }
    f->first[count] = f->hit_count;
    f->query_count = count;
    return VX_OK;
}
