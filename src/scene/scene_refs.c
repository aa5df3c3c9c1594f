/* What the scene's arrays after the entities share: entity names as
 * references, and their own items' names (queries, joints). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/did_you_mean.h"
#include "scene/scene_internal.h"

vx_status vx_scene_read_entity_ref(vx_scene_builder *b, const cJSON *item, size_t *index_out)
{
    const char *name = NULL;
    vx_status st = vx_json_read_string(&b->json, item, &name);
    if (st != VX_OK) return st;
    const vx_scene *scene = b->scene;
    size_t index = vx_name_index_find(&b->names, scene->names, name);
    if (index != VX_NAME_NONE) {
        *index_out = index;
        return VX_OK;
    }
    const char *hint = vx_did_you_mean(name, (const char *const *)scene->names, scene->entity_count);
    if (hint)
        return vx_json_fail(&b->json, VX_ERR_INVALID, "no entity named \"%s\" (did you mean \"%s\"?)", name, hint);
    return vx_json_fail(&b->json, VX_ERR_INVALID, "no entity named \"%s\"", name);
}

/* Gives item `index` its name (copied into names_out[index]). */
static vx_status claim_name(vx_scene_builder *b, vx_name_index *names, char **names_out, const char *name,
                            size_t index, const char *array)
{
    size_t length = strlen(name);
    char *copy = malloc(length + 1);
    if (!copy) return vx_scene_fail_nomem(b);
    memcpy(copy, name, length + 1);
    names_out[index] = copy;
    size_t other = vx_name_index_claim(names, names_out, copy, index);
    if (other != VX_NAME_NONE)
        return vx_json_fail(&b->json, VX_ERR_INVALID, "duplicate name \"%s\" (also %s[%zu])", name, array, other);
    return VX_OK;
}

vx_status vx_scene_read_item_name(vx_scene_builder *b, vx_name_index *names, const cJSON *object, size_t index,
                                  const char *prefix, const char *array, char **names_out)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, "name");
    char fallback[48];
    const char *name = fallback;
    size_t mark = vx_json_path_push_key(&b->json, "name");
    vx_status st = VX_OK;
    if (item) {
        st = vx_json_read_string(&b->json, item, &name);
        if (st == VX_OK && !vx_scene_name_valid(name))
            st = vx_json_fail(&b->json, VX_ERR_INVALID, "must be 1-64 letters, digits, '_', '.' or '-'");
    } else {
        snprintf(fallback, sizeof fallback, "%s%zu", prefix, index);
    }
    if (st == VX_OK) st = claim_name(b, names, names_out, name, index, array);
    vx_json_path_pop(&b->json, mark);
    return st;
}

vx_status vx_scene_read_kind(vx_json_reader *r, const cJSON *object, const char *const *kinds, size_t kind_count,
                             const char *const *any_keys, size_t any_key_count, const char *expected, size_t *out)
{
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(object, "type");
    if (!type) {
        vx_status st = VX_OK;
        for (const cJSON *m = object->child; st == VX_OK && m; m = m->next) {
            size_t mark = vx_json_path_push_key(r, m->string);
            st = vx_json_check_member(r, object, m, any_keys, any_key_count);
            vx_json_path_pop(r, mark);
        }
        return st != VX_OK ? st : vx_json_missing(r, "type", "");
    }
    size_t mark = vx_json_path_push_key(r, "type");
    const char *name = NULL;
    vx_status st = vx_json_read_string(r, type, &name);
    if (st == VX_OK) {
        *out = kind_count;
        for (size_t i = 0; i < kind_count; i++)
            if (strcmp(name, kinds[i]) == 0) *out = i;
        if (*out == kind_count) st = vx_json_fail(r, VX_ERR_INVALID, "must be %s", expected);
    }
    vx_json_path_pop(r, mark);
    return st;
}
