/* The source tree's layers (docs/development.md): a module includes only the
 * private headers of the modules below it (and in physics/ the folders are
 * layered: body, collision, solver, the step), public headers include only
 * public headers, and voltex.h leaves out the reference pipeline. CMake gives
 * every module the whole src/ on its include path, so this is where the
 * layering is held. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SRC VOLTEX_SOURCE_DIR "/src"
#define INCLUDE VOLTEX_SOURCE_DIR "/include/voltex"

/* A folder of src/ and the header folders it may include from (its own
 * among them), as prefixes of the include's path; `flat` folders are
 * checked without their subfolders, which have entries of their own. */
typedef struct {
    const char *folder;
    bool flat;
    const char *allowed[8];
} layer;

static const layer layers[] = {
    {"common", false, {"common/"}},
    {"ecs", false, {"common/", "ecs/"}},
    {"physics/body", false, {"common/", "ecs/", "physics/body/"}},
    {"physics/collision", false, {"common/", "ecs/", "physics/body/", "physics/collision/"}},
    {"physics/solver", false, {"common/", "ecs/", "physics/body/", "physics/collision/", "physics/solver/"}},
    {"physics/joint", false,
     {"common/", "ecs/", "physics/body/", "physics/collision/", "physics/solver/", "physics/joint/"}},
    {"physics", true, {"common/", "ecs/", "physics/"}},
    {"reference", false, {"common/", "ecs/", "physics/", "reference/"}},
    {"scene", false, {"common/", "ecs/", "physics/", "scene/"}},
    {"trace", false, {"common/", "ecs/", "physics/", "trace/"}},
    {"cli", false, {"common/", "ecs/", "physics/", "scene/", "trace/", "cli/"}},
};

static bool allowed(const layer *l, const char *target)
{
    for (int i = 0; i < 8 && l->allowed[i]; i++)
        if (strncmp(target, l->allowed[i], strlen(l->allowed[i])) == 0) return true;
    return false;
}

typedef struct {
    int files;
    int includes;
    char first_problem[2048];
    int problems;
} tally;

static void problem(tally *t, const char *fmt, const char *a, const char *b)
{
    if (t->problems++ == 0) snprintf(t->first_problem, sizeof t->first_problem, fmt, a, b);
}

/* Every `#include "..."` of a file: private ones must name an allowed
 * module (l), public ones (l NULL: a public header) only voltex/. */
static void check_file(const char *path, const layer *l, tally *t)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot read %s", path);
    char line[1024];
    t->files++;
    while (fgets(line, sizeof line, f)) {
        char target[512];
        if (sscanf(line, " #include \"%511[^\"]\"", target) != 1) continue;
        t->includes++;
        if (strncmp(target, "voltex/", 7) == 0) continue; /* public headers: anyone */
        if (!l) problem(t, "%s includes the private header %s", path, target);
        else if (!allowed(l, target)) problem(t, "%s includes %s, outside its layers", path, target);
    }
    fclose(f);
}

static void walk(const char *dir, const layer *l, tally *t)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "cannot open %s", dir);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        cr_assert_eq(stat(path, &st), 0);
        size_t len = strlen(e->d_name);
        if (S_ISDIR(st.st_mode)) {
            if (!(l && l->flat)) walk(path, l, t);
        }
        else if (len > 2 && e->d_name[len - 2] == '.' && (e->d_name[len - 1] == 'c' || e->d_name[len - 1] == 'h'))
            check_file(path, l, t);
    }
    closedir(d);
}

Test(layers, every_module_includes_only_the_modules_below_it)
{
    tally t;
    memset(&t, 0, sizeof t);
    for (size_t i = 0; i < sizeof layers / sizeof layers[0]; i++) {
        char dir[512];
        snprintf(dir, sizeof dir, SRC "/%s", layers[i].folder);
        walk(dir, &layers[i], &t);
    }
    cr_assert_gt(t.files, 100, "the walk found the sources (%d files)", t.files);
    cr_assert_gt(t.includes, 200);
    cr_assert_eq(t.problems, 0, "%d includes cross the layers; the first: %s", t.problems, t.first_problem);
}

/* The check itself: a physics file that reaches up into the scene loader,
 * a collision file that reaches up into the step, or a public header that
 * includes a private one, is caught. */
Test(layers, a_crossing_include_is_caught)
{
    char path[] = "/tmp/voltex_layers_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    cr_assert_not_null(f);
    fputs("#include <stdio.h>\n#include \"physics/step.h\"\n  #include \"scene/scene_internal.h\"\n", f);
    fclose(f);
    tally t;
    memset(&t, 0, sizeof t);
    check_file(path, &layers[6], &t); /* as a file of the physics root */
    cr_assert_eq(t.includes, 2);
    cr_assert_eq(t.problems, 1);
    cr_assert_not_null(strstr(t.first_problem, "scene/scene_internal.h"));
    memset(&t, 0, sizeof t);
    check_file(path, &layers[3], &t); /* as a collision file: physics/step.h is above it */
    cr_assert_eq(t.problems, 2);
    cr_assert_not_null(strstr(t.first_problem, "physics/step.h"));
    memset(&t, 0, sizeof t);
    check_file(path, NULL, &t); /* as a public header */
    cr_assert_eq(t.problems, 2);
    remove(path);
}

Test(layers, public_headers_include_only_public_headers)
{
    tally t;
    memset(&t, 0, sizeof t);
    walk(INCLUDE, NULL, &t);
    cr_assert_geq(t.files, 10);
    cr_assert_eq(t.problems, 0, "%s", t.first_problem);
}

Test(layers, voltex_h_leaves_out_the_reference_pipeline)
{
    FILE *f = fopen(INCLUDE "/voltex.h", "r");
    cr_assert_not_null(f);
    char line[512];
    bool world = false, reference = false;
    while (fgets(line, sizeof line, f)) {
        world = world || strstr(line, "#include \"voltex/world.h\"") != NULL;
        reference = reference || strstr(line, "voltex/reference.h") != NULL;
    }
    fclose(f);
    cr_assert(world, "voltex.h brings in the library API");
    cr_assert_not(reference);
}
