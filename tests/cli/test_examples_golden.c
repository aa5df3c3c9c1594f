/* Every example scene under scenes/ has a golden body trace in tests/golden/,
 * and today's build reproduces it (voltex-sim --compare, default tolerance).
 * Golden traces guard against regressions; the physics itself is checked
 * against analytic results in physics/test_step.c, physics/test_step_analytic.c and others. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define SCENES_DIR VOLTEX_SOURCE_DIR "/scenes"
#define GOLDEN_DIR VOLTEX_SOURCE_DIR "/tests/golden"

static int compare_names(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

/* Names (without .json) of the example scenes, sorted; returns the count. */
static size_t list_scenes(char names[][128], size_t max)
{
    DIR *dir = opendir(SCENES_DIR);
    cr_assert_not_null(dir, "cannot open %s", SCENES_DIR);
    size_t n = 0;
    struct dirent *ent;
    while ((ent = readdir(dir)) != NULL) {
        size_t len = strlen(ent->d_name);
        if (len > 5 && strcmp(ent->d_name + len - 5, ".json") == 0 && len - 5 < 128 && n < max) {
            memcpy(names[n], ent->d_name, len - 5);
            names[n][len - 5] = '\0';
            n++;
        }
    }
    closedir(dir);
    qsort(names, n, sizeof names[0], compare_names);
    return n;
}

static long file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    return size;
}

Test(examples_golden, every_scene_matches_its_golden_trace, .timeout = 120)
{
    char names[64][128];
    size_t n = list_scenes(names, 64);
    cr_assert_geq(n, 5, "expected the example scenes under scenes/");
    for (size_t i = 0; i < n; i++) {
        char golden[512], cmd[2048], out[64], err[64];
        snprintf(golden, sizeof golden, GOLDEN_DIR "/%s.csv", names[i]);
        cr_assert_gt(file_size(golden), 0, "scene %s has no golden trace %s (scripts/update_golden.sh)", names[i],
                     golden);
        snprintf(out, sizeof out, "/tmp/vx_golden_out_%d", (int)getpid());
        snprintf(err, sizeof err, "/tmp/vx_golden_err_%d", (int)getpid());
        snprintf(cmd, sizeof cmd, "'%s' '" SCENES_DIR "/%s.json' --compare '%s' -q >%s 2>%s", VOLTEX_SIM_PATH,
                 names[i], golden, out, err);
        int status = system(cmd);
        long out_size = file_size(out), err_size = file_size(err);
        char message[600] = "";
        FILE *f = fopen(err, "r");
        if (f) {
            if (!fgets(message, sizeof message, f)) message[0] = '\0';
            fclose(f);
        }
        remove(out);
        remove(err);
        cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "scene %s differs from its golden trace: %s",
                  names[i], message);
        cr_assert_eq(out_size, 0, "--compare must write nothing on stdout");
        cr_assert_eq(err_size, 0, "--compare success must be silent");
    }
}

static char *read_file(const char *path, long *size)
{
    *size = file_size(path);
    if (*size < 0) return NULL;
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    char *text = malloc((size_t)*size + 1u);
    cr_assert_not_null(text);
    cr_assert_eq(fread(text, 1, (size_t)*size, f), (size_t)*size);
    text[*size] = '\0';
    fclose(f);
    return text;
}

/* The golden extra traces NAME<suffix> (the query trace, the joint trace)
 * of the scenes that have one, against the run's written with `option`,
 * byte for byte: they are deterministic, there is no tolerance to allow.
 * Returns how many were compared. */
static int compare_extra_traces(const char *suffix, const char *option)
{
    char names[64][128];
    size_t n = list_scenes(names, 64);
    int compared = 0;
    for (size_t i = 0; i < n; i++) {
        char golden[512], cmd[2048], out[64];
        snprintf(golden, sizeof golden, GOLDEN_DIR "/%s%s", names[i], suffix);
        long golden_size = 0;
        char *want = read_file(golden, &golden_size);
        if (!want) continue;
        snprintf(out, sizeof out, "/tmp/vx_golden_extra_%d", (int)getpid());
        snprintf(cmd, sizeof cmd, "'%s' '" SCENES_DIR "/%s.json' -q -o /dev/null %s %s", VOLTEX_SIM_PATH, names[i],
                 option, out);
        int status = system(cmd);
        cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "scene %s failed", names[i]);
        long got_size = 0;
        char *got = read_file(out, &got_size);
        remove(out);
        cr_assert_not_null(got);
        cr_assert(got_size == golden_size && memcmp(got, want, (size_t)got_size) == 0,
                  "scene %s: the %s trace differs from %s", names[i], option, golden);
        free(got);
        free(want);
        compared++;
    }
    return compared;
}

Test(examples_golden, every_scene_with_queries_matches_its_golden_query_trace, .timeout = 120)
{
    cr_assert_geq(compare_extra_traces(".queries.csv", "--queries"), 1, "scenes/probes.json has a golden query trace");
}

Test(examples_golden, every_scene_with_joints_matches_its_golden_joint_trace, .timeout = 120)
{
    cr_assert_geq(compare_extra_traces(".joints.csv", "--joints"), 2,
                  "scenes/pendulum.json and scenes/ragdoll.json have golden joint traces");
}
