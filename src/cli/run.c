/* The step loop of voltex-sim and everything around it. Work happens in an
 * order that keeps failures clean: options, the files checked distinct,
 * scene, golden, outputs, run; so a rejected scene or golden produces no
 * output file at all, and outputs are renamed into place only when the run
 * ends well or is interrupted (then complete up to the last step done). */
#include "cli/run.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/clock.h"
#include "cli/compare_report.h"
#include "cli/finite.h"
#include "cli/interrupt.h"
#include "cli/memory_budget.h"
#include "cli/output.h"
#include "cli/progress.h"
#include "cli/same_file.h"
#include "cli/stats.h"
#include "voltex/voltex.h"

typedef struct {
    const vx_cli_options *opt;
    vx_scene scene;
    bool scene_loaded;
    int64_t steps;
    vx_trace_info info;
    vx_golden *golden;
    vx_cli_output body_out;
    vx_cli_output contact_out;
    vx_cli_output query_out;
    vx_cli_output joint_out;
    vx_cli_output stats_out; /* --stats-file */
    vx_body_writer body;
    vx_contact_writer contact;
    vx_query_writer query;
    vx_joint_writer joint;
    bool body_open;    /* the body writer began: end it */
    bool contact_open; /* the contact writer began: end it */
    bool query_open;   /* the query writer began: end it */
    bool joint_open;   /* the joint writer began: end it */
    vx_trace_joint *trace_joints; /* the scene's joints as the traces name them */
    vx_joint_state *joint_states; /* their states at the frame */
    bool run_queries;  /* the scene's queries are written (query trace or JSON frames) */
    vx_query_frame query_frame;
    vx_body_state *states;
    vx_cli_progress progress;
    vx_cli_stats stats;
    bool reader_gone; /* an output's reader went away (EPIPE): end quietly */
    double memory_budget; /* bytes */
    bool compare_differs; /* --compare found a number beyond the tolerance (printed once) */
} vx_cli_session;

static void fail(vx_cli_session *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* One line on stderr, after erasing any progress line (a path that holds a
 * newline shows it as '?'). */
static void fail(vx_cli_session *s, const char *fmt, ...)
{
    vx_cli_progress_clear(&s->progress);
    char line[2 * VX_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    vx_cli_one_line(line);
    fprintf(stderr, "voltex-sim: %s\n", line);
}

/* Exit code for a failed write: a reader that went away ends the run quietly
 * with success (as `voltex-sim s.json | head` expects), anything else is 4. */
static int write_failure(vx_cli_session *s, const vx_cli_output *out, const vx_error *err)
{
    if (err->code == VX_ERR_PIPE) {
        s->reader_gone = true;
        return VX_EXIT_OK;
    }
    fail(s, "%s: %s", out->name, err->message);
    return VX_EXIT_OUTPUT;
}

/* The exit code of a failed load or step: memory (5) or the input (2). */
static int exit_for(vx_status st) { return st == VX_ERR_NOMEM || st == VX_ERR_BUDGET ? VX_EXIT_MEMORY : VX_EXIT_USAGE; }

/* Exit 3 when a query hit of the frame is not finite; else -1. */
static int check_hits(vx_cli_session *s, int64_t frame)
{
    size_t bad = vx_cli_first_nonfinite_hit(&s->query_frame);
    if (bad == s->query_frame.hit_count) return -1;
    size_t q = vx_cli_query_of_hit(&s->query_frame, bad);
    fail(s, "simulation became non-finite at frame %" PRId64 ", query %zu (%s)", frame, q, s->scene.query_names[q]);
    return VX_EXIT_NONFINITE;
}

/* Writes (or compares) frame k; -1 to go on, else the exit code. */
static int emit_frame(vx_cli_session *s, int64_t frame, const vx_contact_list *contacts)
{
    vx_error err;
    vx_error_clear(&err);
    if (s->run_queries) {
        vx_status st = vx_query_frame_run(&s->query_frame, s->scene.world, s->scene.queries, s->scene.query_count, &err);
        if (st != VX_OK) {
            fail(s, "frame %" PRId64 ": %s", frame, err.message);
            return exit_for(st);
        }
        int code = check_hits(s, frame);
        if (code >= 0) return code;
    }
    if (s->golden) {
        /* The first difference in the numbers is printed as it comes and the
         * run goes on for the summary; rows out of step end it. */
        vx_status st = vx_golden_check_frame(s->golden, frame, &s->info, s->states, &err);
        bool numbers_only = st == VX_ERR_DIFFERENT && vx_golden_in_step(s->golden);
        if (st != VX_OK && !(numbers_only && s->compare_differs)) fail(s, "%s", err.message);
        if (numbers_only) s->compare_differs = true;
        else if (st != VX_OK) return st == VX_ERR_DIFFERENT ? VX_EXIT_DIFFERENT : VX_EXIT_USAGE;
    } else if (vx_body_writer_frame(&s->body, frame, s->states, contacts, &s->query_frame, s->joint_states, &err) !=
               VX_OK) {
        return write_failure(s, &s->body_out, &err);
    }
    if (s->contact_open && frame > 0 && vx_contact_writer_frame(&s->contact, frame, contacts, &err) != VX_OK)
        return write_failure(s, &s->contact_out, &err);
    if (s->query_open && vx_query_writer_frame(&s->query, frame, &s->query_frame, &err) != VX_OK)
        return write_failure(s, &s->query_out, &err);
    if (s->joint_open && vx_joint_writer_frame(&s->joint, frame, s->joint_states, &err) != VX_OK)
        return write_failure(s, &s->joint_out, &err);
    return -1;
}

/* emit_frame, its time counted as the trace stage of --stats. */
static int timed_emit_frame(vx_cli_session *s, int64_t frame, const vx_contact_list *contacts)
{
    double started = vx_cli_now();
    int code = emit_frame(s, frame, contacts);
    vx_cli_stats_stage(&s->stats, VX_CLI_STAGE_TRACE, vx_cli_now() - started);
    return code;
}

/* The first failure to end an output decides the code; later ones, and all
 * of them when quiet or once a reader went away, pass silently. */
static void close_failed(vx_cli_session *s, int *code, bool quiet, const vx_cli_output *out, const vx_error *err)
{
    if (quiet || s->reader_gone || *code >= 0) return;
    *code = write_failure(s, out, err);
}

/* Ends the writers (a JSON document is closed with the frames written so far)
 * and closes the outputs; keep: their temporary files are renamed into
 * place, all of them or none (one that could not be ended keeps the others
 * out too); else their paths are left as they were. -1 when all went well,
 * else the exit code. */
static int finish_outputs(vx_cli_session *s, bool quiet, bool keep)
{
    int code = -1;
    bool ended = true;
    vx_cli_output *outputs[] = {&s->body_out, &s->contact_out, &s->query_out, &s->joint_out};
    size_t n = sizeof outputs / sizeof outputs[0];
    vx_error errs[4];
    vx_status st[4] = {VX_OK, VX_OK, VX_OK, VX_OK};
    if (s->body_open) st[0] = vx_body_writer_end(&s->body, &errs[0]);
    if (s->contact_open) st[1] = vx_contact_writer_end(&s->contact, &errs[1]);
    if (s->query_open) st[2] = vx_query_writer_end(&s->query, &errs[2]);
    if (s->joint_open) st[3] = vx_joint_writer_end(&s->joint, &errs[3]);
    s->body_open = s->contact_open = s->query_open = s->joint_open = false;
    for (size_t i = 0; i < n; i++) {
        vx_error close_err;
        vx_status closed = vx_cli_output_close(outputs[i], &close_err);
        if (st[i] == VX_OK && closed != VX_OK) {
            st[i] = closed;
            errs[i] = close_err;
        }
        if (st[i] != VX_OK) {
            if (st[i] != VX_ERR_PIPE) ended = false; /* a reader that went away: the files are whole so far */
            close_failed(s, &code, quiet, outputs[i], &errs[i]);
        }
    }
    vx_error err;
    for (size_t i = 0; i < n; i++) {
        if (vx_cli_output_commit(outputs[i], keep && ended, &err) != VX_OK) {
            ended = false;
            close_failed(s, &code, quiet, outputs[i], &err);
        }
    }
    return code;
}

static void session_free(vx_cli_session *s)
{
    finish_outputs(s, true, false);
    vx_error ignored;
    vx_cli_output_close(&s->stats_out, &ignored);
    vx_cli_output_commit(&s->stats_out, false, &ignored);
    vx_golden_close(s->golden);
    s->golden = NULL;
    free(s->states);
    s->states = NULL;
    vx_query_frame_free(&s->query_frame);
    free(s->trace_joints);
    s->trace_joints = NULL;
    free(s->joint_states);
    s->joint_states = NULL;
    if (s->scene_loaded) vx_scene_destroy(&s->scene);
    s->scene_loaded = false;
}

/* Exit 2 when an output names the same file as another output or an
 * input (the body trace on stdout counts when it goes there); else -1. */
static int check_files_distinct(vx_cli_session *s)
{
    const vx_cli_options *opt = s->opt;
    vx_cli_file files[7];
    size_t n = 0;
    files[n++] = (vx_cli_file){"the scene", opt->scene_path, STDIN_FILENO, false};
    if (opt->compare) files[n++] = (vx_cli_file){"--compare", opt->compare, -1, false};
    else files[n++] = (vx_cli_file){"--output", opt->output ? opt->output : "-", STDOUT_FILENO, true};
    if (opt->contacts) files[n++] = (vx_cli_file){"--contacts", opt->contacts, STDOUT_FILENO, true};
    if (opt->queries) files[n++] = (vx_cli_file){"--queries", opt->queries, STDOUT_FILENO, true};
    if (opt->joints) files[n++] = (vx_cli_file){"--joints", opt->joints, STDOUT_FILENO, true};
    if (opt->stats_file) files[n++] = (vx_cli_file){"--stats-file", opt->stats_file, STDOUT_FILENO, true};
    char message[VX_ERROR_MESSAGE_MAX];
    if (vx_cli_files_distinct(files, n, message, sizeof message)) return -1;
    fail(s, "%s", message);
    return VX_EXIT_USAGE;
}

/* 128 + the signal when SIGINT or SIGTERM asked the run to stop; else -1. */
static int interrupted(void)
{
    int signal_number = vx_cli_interrupted();
    return signal_number ? 128 + signal_number : -1;
}

/* Scene, settings, golden and outputs; -1 when ready to run, else the exit code. */
static int prepare(vx_cli_session *s)
{
    const vx_cli_options *opt = s->opt;
    vx_error err;
    vx_error_clear(&err);
    int code = check_files_distinct(s);
    if (code >= 0) return code;
    /* "-": the scene comes on standard input */
    bool from_stdin = strcmp(opt->scene_path, "-") == 0;
    vx_scene_source source = {from_stdin ? NULL : opt->scene_path, STDIN_FILENO,
                              from_stdin ? VX_SCENE_STDIN_NAME : NULL, opt->sets, (size_t)opt->set_count};
    vx_status loaded = vx_scene_load(&source, &s->scene, &err);
    if (loaded != VX_OK) {
        fail(s, "%s", err.message);
        return exit_for(loaded);
    }
    s->scene_loaded = true;
    vx_world *world = s->scene.world;
    vx_world_set_profiling(world, opt->stats); /* timing only: results are the same */

    /* Precedence: command line, then the scene (whose loader applies the defaults). */
    vx_world_def def = *vx_world_get_def(world);
    for (int i = 0; i < opt->solver_setting_count; i++) {
        const char *setting = opt->solver_settings[i];
        size_t key_length = strcspn(setting, "=");
        char key[64];
        if (key_length >= sizeof key) key_length = sizeof key - 1; /* an unknown key either way */
        memcpy(key, setting, key_length);
        key[key_length] = '\0';
        if (strcmp(key, "steps") == 0 || strcmp(key, "dt") == 0) { /* top-level keys, with options of their own */
            fail(s, "--solver: %s is not a solver setting: use --%s", key, key);
            return VX_EXIT_USAGE;
        }
        if (vx_scene_set_solver(&def, key, setting + strcspn(setting, "=") + 1, "--solver", &err) != VX_OK) {
            fail(s, "%s", err.message);
            return VX_EXIT_USAGE;
        }
    }
    if (opt->dt_set) def.fixed_dt = opt->dt;
    if (opt->threads_set) def.threads = opt->threads;
    if (opt->order_set) def.order = opt->order;
    s->memory_budget = opt->memory_budget_set ? opt->memory_budget_mb * 1e6 : vx_cli_default_memory_budget();
    def.max_pairs = vx_cli_max_pairs(s->memory_budget);
    if (vx_world_set_def(world, &def, &err) != VX_OK) {
        fail(s, "%s", err.message);
        return VX_EXIT_USAGE;
    }
    s->steps = opt->steps_set ? opt->steps : s->scene.steps;

    s->info.scene_name = s->scene.name;
    s->info.dt = def.fixed_dt;
    s->info.steps = s->steps;
    s->info.entity_count = s->scene.entity_count;
    s->info.names = (const char *const *)s->scene.names;
    s->info.query_count = s->scene.query_count;
    s->info.query_names = (const char *const *)s->scene.query_names;
    s->info.world = s->scene.world;
    s->info.entities = s->scene.entities;

    s->states = calloc(s->scene.entity_count ? s->scene.entity_count : 1u, sizeof *s->states);
    size_t joints = s->scene.joint_count;
    s->trace_joints = calloc(joints ? joints : 1u, sizeof *s->trace_joints);
    s->joint_states = calloc(joints ? joints : 1u, sizeof *s->joint_states);
    for (size_t i = 0; s->trace_joints && i < joints; i++) {
        const vx_scene_joint *j = &s->scene.joints[i];
        vx_trace_joint tj = {s->scene.joint_names[i], j->type, j->entity_a, j->entity_b};
        s->trace_joints[i] = tj;
    }
    s->info.joint_count = joints;
    s->info.joints = s->trace_joints;
    if (!s->states || !s->trace_joints || !s->joint_states) {
        fail(s, "out of memory");
        return VX_EXIT_MEMORY;
    }
    code = interrupted(); /* before any output is made */
    if (code >= 0) return code;

    vx_golden_tolerance tolerance = {opt->tolerance, opt->rtol};
    vx_status st = opt->compare ? vx_golden_open(&s->golden, opt->compare, tolerance, &err) : VX_OK;
    if (st != VX_OK) {
        fail(s, "%s", err.message);
        return exit_for(st);
    }

    const char *paths[] = {s->golden ? NULL : opt->output ? opt->output : "-", opt->contacts, opt->queries,
                           opt->joints, opt->stats_file};
    vx_cli_output *outputs[] = {&s->body_out, &s->contact_out, &s->query_out, &s->joint_out, &s->stats_out};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        if (!paths[i]) continue;
        st = vx_cli_output_open(outputs[i], paths[i], &err);
        if (st != VX_OK) {
            fail(s, "%s", err.message);
            return st == VX_ERR_NOMEM ? VX_EXIT_MEMORY : VX_EXIT_OUTPUT;
        }
    }

    if (s->body_out.file && opt->format == VX_TRACE_GLB && isatty(fileno(s->body_out.file))) {
        fail(s, "%s: --format glb writes a binary file, not to a terminal", s->body_out.name);
        return VX_EXIT_USAGE;
    }
    if (s->body_out.file) {
        s->body_open = true;
        if (vx_body_writer_begin(&s->body, s->body_out.file, opt->format, &s->info, &err) != VX_OK)
            return write_failure(s, &s->body_out, &err);
    }
    if (s->contact_out.file) {
        s->contact_open = true;
        if (vx_contact_writer_begin(&s->contact, s->contact_out.file, &s->info, &err) != VX_OK)
            return write_failure(s, &s->contact_out, &err);
    }
    if (s->query_out.file) {
        s->query_open = true;
        if (vx_query_writer_begin(&s->query, s->query_out.file, &s->info, &err) != VX_OK)
            return write_failure(s, &s->query_out, &err);
    }
    if (s->joint_out.file) {
        s->joint_open = true;
        if (vx_joint_writer_begin(&s->joint, s->joint_out.file, &s->info, &err) != VX_OK)
            return write_failure(s, &s->joint_out, &err);
    }
    bool json_body = s->body_open && (opt->format == VX_TRACE_JSON || opt->format == VX_TRACE_JSONL);
    s->run_queries = s->scene.query_count > 0 && (s->query_open || json_body);
    return -1;
}

/* Snapshot of frame k and its contacts, checked for non-finite numbers; -1
 * or exit code. */
static int take_snapshot(vx_cli_session *s, int64_t frame, const vx_contact_list *contacts)
{
    vx_trace_snapshot(s->scene.world, s->scene.entities, s->scene.entity_count, s->states);
    size_t bad = vx_cli_first_nonfinite_body(s->states, s->scene.entity_count);
    if (bad < s->scene.entity_count) {
        fail(s, "simulation became non-finite at frame %" PRId64 ", entity %zu (%s)", frame, bad, s->scene.names[bad]);
        return VX_EXIT_NONFINITE;
    }
    for (size_t i = 0; i < s->scene.joint_count; i++) {
        vx_joint_state *j = &s->joint_states[i];
        if (vx_joint_get_state(s->scene.world, s->scene.joints[i].id, j, NULL) != VX_OK) memset(j, 0, sizeof *j);
        if (vx_vec3_is_finite(j->force) && vx_vec3_is_finite(j->torque) && isfinite(j->position) && isfinite(j->speed))
            continue;
        fail(s, "simulation became non-finite at frame %" PRId64 ", joint %zu (%s)", frame, i, s->scene.joint_names[i]);
        return VX_EXIT_NONFINITE;
    }
    bad = vx_cli_first_nonfinite_contact(contacts);
    if (bad == contacts->count) return -1;
    uint32_t a = contacts->items[bad].entity_a.index, b = contacts->items[bad].entity_b.index;
    fail(s, "simulation became non-finite at frame %" PRId64 ", contact of entity %" PRIu32 " (%s) and entity %" PRIu32 " (%s)",
         frame, a, s->scene.names[a], b, s->scene.names[b]);
    return VX_EXIT_NONFINITE;
}

/* The loop: frame 0, then steps 1..N; -1 when every step ran, else the exit code. */
static int simulate(vx_cli_session *s)
{
    const int64_t every = s->opt->every;
    vx_world *world = s->scene.world;
    const vx_contact_list *contacts = vx_world_contacts(world); /* empty before the first step */
    int code = take_snapshot(s, 0, contacts);
    if (code < 0) code = timed_emit_frame(s, 0, contacts);
    if (code < 0) code = interrupted();
    for (int64_t k = 1; code < 0 && k <= s->steps; k++) {
        double started = vx_cli_now();
        vx_error err;
        vx_status st = vx_world_step(world, &err);
        double step_seconds = vx_cli_now() - started;
        if (st == VX_ERR_NONFINITE) {
            /* The engine noticed first: name the entity if the state shows it. */
            code = take_snapshot(s, k, contacts);
            if (code < 0) fail(s, "simulation became non-finite at frame %" PRId64, k);
            return VX_EXIT_NONFINITE;
        }
        if (st == VX_ERR_BUDGET) {
            fail(s, "step %" PRId64 ": more than %zu pairs of bodies close together, over the memory budget of %.0f MB "
                 "(%u bytes a pair; --memory-budget)", k, vx_world_get_def(world)->max_pairs, s->memory_budget / 1e6,
                 VX_PAIR_BYTES);
            return VX_EXIT_MEMORY;
        }
        if (st != VX_OK) {
            fail(s, "step %" PRId64 ": %s", k, err.message);
            return exit_for(st);
        }
        vx_cli_stats_step(&s->stats, contacts->count, step_seconds);
        if (s->opt->stats) {
            vx_stage_times t = vx_world_stage_times(world);
            vx_cli_stats_stage(&s->stats, VX_CLI_STAGE_BROAD_PHASE, t.broad);
            vx_cli_stats_stage(&s->stats, VX_CLI_STAGE_NARROW_PHASE, t.narrow);
            vx_cli_stats_stage(&s->stats, VX_CLI_STAGE_SOLVER, t.solver);
            vx_cli_stats_stage(&s->stats, VX_CLI_STAGE_INTEGRATION, t.integrate);
            vx_cli_stats_stage(&s->stats, VX_CLI_STAGE_OTHER, t.other);
        }
        code = take_snapshot(s, k, contacts);
        /* a signal ends the run here, with this frame as the last */
        bool stop = interrupted() >= 0;
        if (code < 0 && (k % every == 0 || k == s->steps || stop)) code = timed_emit_frame(s, k, contacts);
        vx_cli_progress_update(&s->progress, k);
        if (code < 0 && stop) code = interrupted();
    }
    return code;
}

/* The --stats summary, on stderr or in the --stats-file. The file gets
 * what stderr would have had: it is kept whenever the run got to its end,
 * also after a difference, a non-finite step or a signal. Returns code, or
 * 4 when the file could not be written after a run that went well. */
static int print_stats(vx_cli_session *s, int code)
{
    const vx_cli_options *opt = s->opt;
    if (!s->stats_out.file) {
        if (!s->reader_gone) vx_cli_stats_print(&s->stats, opt->stats_json, stderr);
        return code;
    }
    vx_cli_stats_print(&s->stats, opt->stats_json, s->stats_out.file);
    vx_error err;
    vx_status st = vx_cli_output_close(&s->stats_out, &err);
    vx_status kept = vx_cli_output_commit(&s->stats_out, st == VX_OK, &err);
    if (st == VX_OK) st = kept;
    if (st == VX_OK || st == VX_ERR_PIPE) return code;
    fail(s, "%s: %s", s->stats_out.name, err.message);
    return code == VX_EXIT_OK ? VX_EXIT_OUTPUT : code;
}

int vx_cli_run(const vx_cli_options *opt)
{
    vx_cli_session s;
    memset(&s, 0, sizeof s);
    s.opt = opt;
    vx_cli_progress_init(&s.progress, true, false, 0); /* silent until the run starts */

    int code = prepare(&s);
    if (code >= 0) {
        session_free(&s);
        return code;
    }

    bool trace_on_stdout = (s.body_out.file && s.body_out.is_stdout) ||
                           (s.contact_out.file && s.contact_out.is_stdout) || (s.query_out.file && s.query_out.is_stdout) ||
                           (s.joint_out.file && s.joint_out.is_stdout);
    vx_cli_progress_init(&s.progress, opt->quiet, trace_on_stdout, s.steps);
    vx_cli_stats_start(&s.stats, &s.scene, vx_world_get_def(s.scene.world));
    code = simulate(&s);
    vx_cli_stats_stop(&s.stats);
    vx_cli_stats_finish(&s.stats, s.states, s.scene.entity_count);
    vx_cli_stats_count_output(&s.stats, s.body_out.file);
    vx_cli_stats_count_output(&s.stats, s.contact_out.file);

    if (code < 0 && s.golden) {
        vx_error err;
        vx_error_clear(&err);
        vx_status st = vx_golden_finish(s.golden, &err);
        if (st != VX_OK) {
            fail(&s, "%s", err.message);
            code = st == VX_ERR_DIFFERENT ? VX_EXIT_DIFFERENT : VX_EXIT_USAGE;
        }
    }
    if (s.golden && s.compare_differs && (code < 0 || code == VX_EXIT_DIFFERENT)) {
        vx_cli_progress_clear(&s.progress);
        vx_golden_summary summary = vx_golden_get_summary(s.golden);
        vx_cli_compare_report(&summary, &s.info, (vx_golden_tolerance){opt->tolerance, opt->rtol}, stderr);
        code = VX_EXIT_DIFFERENT;
    }
    /* Outputs end cleanly on every path, and are kept when the run went to
     * its end, was interrupted by a signal or lost its reader (complete up
     * to the last frame written). Closing failures are reported after a
     * difference (1) or a non-finite run (3) too, without changing the code;
     * after a usage, output or memory failure they would only repeat the
     * news. */
    bool keep = code < 0 || code == VX_EXIT_OK || code >= VX_EXIT_SIGNAL;
    bool quiet_close = code == VX_EXIT_USAGE || code == VX_EXIT_OUTPUT || code == VX_EXIT_MEMORY || s.reader_gone;
    int close_code = finish_outputs(&s, quiet_close, keep);
    if (code < 0 || (code >= VX_EXIT_SIGNAL && close_code >= 0)) code = close_code < 0 ? VX_EXIT_OK : close_code;
    vx_cli_progress_clear(&s.progress);
    if (opt->stats) code = print_stats(&s, code);
    vx_cli_stats_free(&s.stats);
    session_free(&s);
    return code;
}
