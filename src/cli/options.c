/* Command-line parsing for voltex-sim. Options and the scene path may come in
 * any order: optstring starts with '-' so getopt_long hands over non-options
 * in place, whatever POSIXLY_CORRECT says. */
#include "cli/options.h"

#include <errno.h>
#include <float.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/parse_number.h"
#include "voltex/limits.h"
#include "voltex/scene.h"

/* getopt_long codes of the options that have no short form. */
enum {
    OPT_DT = 256,
    OPT_CONTACTS,
    OPT_EVERY,
    OPT_COMPARE,
    OPT_TOLERANCE,
    OPT_STATS,
    OPT_THREADS,
    OPT_ORDER,
    OPT_SOLVER,
    OPT_SET,
    OPT_QUERIES,
    OPT_JOINTS,
    OPT_MEMORY_BUDGET,
    OPT_LAYOUT,
    OPT_RTOL,
    OPT_SCHEMA,
    OPT_STATS_FILE
};

static const struct option long_options[] = {
    {"steps", required_argument, NULL, 'n'},
    {"dt", required_argument, NULL, OPT_DT},
    {"format", required_argument, NULL, 'f'},
    {"layout", required_argument, NULL, OPT_LAYOUT},
    {"output", required_argument, NULL, 'o'},
    {"contacts", required_argument, NULL, OPT_CONTACTS},
    {"queries", required_argument, NULL, OPT_QUERIES},
    {"joints", required_argument, NULL, OPT_JOINTS},
    {"memory-budget", required_argument, NULL, OPT_MEMORY_BUDGET},
    {"every", required_argument, NULL, OPT_EVERY},
    {"compare", required_argument, NULL, OPT_COMPARE},
    {"tolerance", required_argument, NULL, OPT_TOLERANCE},
    {"rtol", required_argument, NULL, OPT_RTOL},
    {"stats", optional_argument, NULL, OPT_STATS},
    {"stats-file", required_argument, NULL, OPT_STATS_FILE},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"order", required_argument, NULL, OPT_ORDER},
    {"solver", required_argument, NULL, OPT_SOLVER},
    {"set", required_argument, NULL, OPT_SET},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {"schema", no_argument, NULL, OPT_SCHEMA},
    {NULL, 0, NULL, 0},
};

/* '-': non-options come back as code 1; ':': a missing value comes back as ':'. */
static const char short_options[] = "-:n:f:o:qhV";

void vx_cli_print_usage(FILE *out)
{
    fputs("Usage: voltex-sim [OPTIONS] SCENE.json\n"
          "Runs a rigid-body scene headless and writes its body trace (SCENE.json - reads\n"
          "the scene from standard input).\n"
          "\n"
          "Options (in any order, before or after SCENE.json):\n"
          "  -n, --steps N          fixed steps to run, N >= 0 (default: the scene's \"steps\", else 600)\n"
          "      --dt SECONDS       fixed time step, > 0 (default: the scene's \"dt\", else 1/60)\n"
          "  -f, --format FORMAT    body trace format: csv, json, jsonl (a header line, then one JSON\n"
          "                         object per frame and line), or glb (a glTF 2.0 file of the shapes\n"
          "                         and their motion; needs -o FILE) (default: csv)\n"
          "      --layout LAYOUT    CSV layout: long (a row per entity and frame) or wide (a row per frame,\n"
          "                         columns NAME.px ... NAME.wz) (default: long)\n"
          "  -o, --output FILE      body trace destination, - is stdout (default: stdout)\n"
          "      --contacts FILE    also write the contact trace (CSV) to FILE (default: off)\n"
          "      --queries FILE     also write the query trace (CSV) of the scene's queries to FILE\n"
          "                         (default: off)\n"
          "      --joints FILE      also write the joint trace (CSV) of the scene's joints to FILE\n"
          "                         (default: off)\n"
          "      --every K          write frames 0, K, 2K, ... and always the last, K >= 1 (default: 1)\n"
          "      --compare GOLDEN   compare the body trace with a golden body trace (CSV, JSON or JSONL)\n"
          "                         instead of writing it (default: off)\n"
          "      --tolerance EPS    absolute tolerance per number for --compare, >= 0 (default: 1e-05)\n"
          "      --rtol R           relative tolerance for --compare, >= 0: a number passes within\n"
          "                         EPS + R * |golden| (default: 0)\n"
          "      --stats[=json]     print a summary on stderr at the end, as text or as one JSON object\n"
          "                         (default: off)\n"
          "      --stats-file FILE  write the --stats summary to FILE instead of stderr (implies --stats)\n"
          "      --threads N        worker threads, 1 to 256 (default: the scene's solver.threads, else 1);\n"
          "                         traces are byte-identical for every N\n"
          "      --order ORDER      contact solver order: sequential, or colored (SIMD, and the solver on\n"
          "                         every thread) (default: the scene's solver.order, else sequential)\n"
          "      --solver KEY=VALUE set one key of the scene's solver object, as in the file (repeatable;\n"
          "                         e.g. --solver substeps=4 --solver iterations=1)\n"
          "      --set PATH=VALUE   set any key of the scene before it is checked, as in the file\n"
          "                         (repeatable; e.g. --set 'entities[1].rigidbody.restitution=0.8')\n"
          "      --memory-budget MB memory a run may take for bodies close together, in MB; over it\n"
          "                         the run ends with exit 5 (default: 3/4 of the memory it may have)\n"
          "  -q, --quiet            no progress output on stderr (default: progress when stderr is a terminal)\n"
          "  -h, --help             show this help and exit\n"
          "  -V, --version          show the version and exit\n"
          "      --schema           print the JSON Schema of scene files and exit\n"
          "\n"
          "Exit codes: 0 success, 1 --compare found a difference, 2 usage error or bad scene,\n"
          "3 the simulation became non-finite, 4 an output could not be written, 5 out of memory,\n"
          "130/143 interrupted by SIGINT/SIGTERM (the traces end at the last step done).\n",
          out);
}

static void set_message(char *message, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void set_message(char *message, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, size, fmt, ap);
    va_end(ap);
    vx_cli_one_line(message);
}

/* "--format json" etc., for messages about a format other than csv. */
static const char *format_option(vx_trace_format format)
{
    switch (format) {
    case VX_TRACE_JSON: return "--format json";
    case VX_TRACE_JSONL: return "--format jsonl";
    case VX_TRACE_GLB: return "--format glb";
    default: return "--format csv";
    }
}

void vx_cli_one_line(char *text)
{
    for (char *p = text; *p; p++)
        if ((unsigned char)*p < 0x20u || *p == 0x7f) *p = '?';
}

/* The whole string as a finite number. */
static bool parse_number(const char *s, double *out)
{
    bool out_of_range;
    return vx_parse_double(s, out, &out_of_range) && !out_of_range && isfinite(*out);
}

/* A --tolerance or --rtol: finite, >= 0. */
static bool parse_tolerance(const char *arg, const char *option, double *out, char *message, size_t size)
{
    double d;
    if (!parse_number(arg, &d) || !(d >= 0.0)) {
        set_message(message, size, "--%s: expected a finite number >= 0, got '%s'", option, arg);
        return false;
    }
    *out = d;
    return true;
}

static const char *long_name(int code)
{
    for (const struct option *o = long_options; o->name; o++)
        if (o->val == code) return o->name;
    return "?";
}

/* Stores one option's value; false and message on a bad value. */
static bool apply_option(vx_cli_options *opt, int code, const char *arg, char *message, size_t size)
{
    int64_t i;
    double d;
    switch (code) {
    case 'n':
        if (!vx_parse_int64(arg, &i) || i < 0) {
            set_message(message, size, "--steps: expected an integer >= 0, got '%s'", arg);
            return false;
        }
        if (i > VX_SCENE_MAX_STEPS) {
            set_message(message, size, "--steps: expected an integer <= %lld, got '%s'", VX_SCENE_MAX_STEPS, arg);
            return false;
        }
        opt->steps = i;
        opt->steps_set = true;
        return true;
    case OPT_DT:
        /* The step is a float in the engine: it must stay finite and > 0 there. */
        if (!parse_number(arg, &d) || !(d > 0.0) || d > (double)FLT_MAX || !((float)d > 0.0f)) {
            set_message(message, size, "--dt: expected a number > 0 that fits a 32-bit float, got '%s'", arg);
            return false;
        }
        if ((float)d > VX_MAX_DT) {
            set_message(message, size, "--dt: must be at most " VX_MAX_DT_TEXT " (s), got '%s': %s", arg,
                        VX_MAX_DT_WHY);
            return false;
        }
        opt->dt = (float)d;
        opt->dt_set = true;
        return true;
    case 'f':
        if (strcmp(arg, "csv") == 0) {
            opt->format = VX_TRACE_CSV;
        } else if (strcmp(arg, "json") == 0) {
            opt->format = VX_TRACE_JSON;
        } else if (strcmp(arg, "jsonl") == 0) {
            opt->format = VX_TRACE_JSONL;
        } else if (strcmp(arg, "glb") == 0) {
            opt->format = VX_TRACE_GLB;
        } else {
            set_message(message, size, "--format: expected csv, json, jsonl or glb, got '%s'", arg);
            return false;
        }
        opt->format_set = true;
        return true;
    case OPT_LAYOUT:
        if (strcmp(arg, "long") != 0 && strcmp(arg, "wide") != 0) {
            set_message(message, size, "--layout: expected long or wide, got '%s'", arg);
            return false;
        }
        opt->layout_wide = strcmp(arg, "wide") == 0;
        opt->layout_set = true;
        return true;
    case 'o':
        opt->output = arg;
        return true;
    case OPT_CONTACTS:
        opt->contacts = arg;
        return true;
    case OPT_QUERIES:
        opt->queries = arg;
        return true;
    case OPT_JOINTS:
        opt->joints = arg;
        return true;
    case OPT_STATS_FILE:
        opt->stats_file = arg;
        opt->stats = true;
        return true;
    case OPT_EVERY:
        if (!vx_parse_int64(arg, &i) || i < 1) {
            set_message(message, size, "--every: expected an integer >= 1, got '%s'", arg);
            return false;
        }
        opt->every = i;
        return true;
    case OPT_COMPARE:
        opt->compare = arg;
        return true;
    case OPT_MEMORY_BUDGET:
        if (!parse_number(arg, &d) || !(d > 0.0)) {
            set_message(message, size, "--memory-budget: expected a number of MB > 0, got '%s'", arg);
            return false;
        }
        opt->memory_budget_mb = d;
        opt->memory_budget_set = true;
        return true;
    case OPT_TOLERANCE: return parse_tolerance(arg, "tolerance", &opt->tolerance, message, size);
    case OPT_RTOL: return parse_tolerance(arg, "rtol", &opt->rtol, message, size);
    case OPT_THREADS:
        if (!vx_parse_int64(arg, &i) || i < 1 || i > VX_CLI_MAX_THREADS) {
            set_message(message, size, "--threads: expected an integer from 1 to %d, got '%s'", VX_CLI_MAX_THREADS,
                        arg);
            return false;
        }
        opt->threads = (int)i;
        opt->threads_set = true;
        return true;
    case OPT_ORDER:
        if (!vx_solver_order_from_name(arg, &opt->order)) {
            set_message(message, size, "--order: expected sequential or colored, got '%s'", arg);
            return false;
        }
        opt->order_set = true;
        return true;
    case OPT_SOLVER:
        /* the value is checked with the scene (vx_scene_set_solver) */
        if (strchr(arg, '=') == NULL || arg[0] == '=') {
            set_message(message, size, "--solver: expected KEY=VALUE (e.g. substeps=4), got '%s'", arg);
            return false;
        }
        if (opt->solver_setting_count == VX_CLI_MAX_SOLVER_SETTINGS) {
            set_message(message, size, "--solver: at most %d of them", VX_CLI_MAX_SOLVER_SETTINGS);
            return false;
        }
        opt->solver_settings[opt->solver_setting_count++] = arg;
        return true;
    case OPT_SET: {
        /* the path is checked with the scene (vx_scene_load), the value as the file's */
        const char *eq = strchr(arg, '=');
        if (!eq || eq == arg) {
            set_message(message, size, "--set: expected PATH=VALUE (e.g. entities[1].rigidbody.mass=2), got '%s'", arg);
            return false;
        }
        if (opt->set_count == VX_CLI_MAX_SETS) {
            set_message(message, size, "--set: at most %d of them", VX_CLI_MAX_SETS);
            return false;
        }
        size_t n = (size_t)(eq - arg);
        if (n >= VX_CLI_SET_PATH_MAX) {
            set_message(message, size, "--set: the path is longer than %d bytes", VX_CLI_SET_PATH_MAX - 1);
            return false;
        }
        memcpy(opt->set_paths[opt->set_count], arg, n);
        opt->set_paths[opt->set_count][n] = '\0';
        opt->sets[opt->set_count].path = opt->set_paths[opt->set_count];
        opt->sets[opt->set_count].value = eq + 1;
        opt->set_count++;
        return true;
    }
    default:
        return true;
    }
}

/* The name of an option getopt_long rejected, for the message: "--foo" (up to
 * any '=') or "-x". */
static void rejected_option(char **argv, char *buf, size_t size)
{
    const char *arg = optind > 0 ? argv[optind - 1] : "";
    if (optopt != 0 && (optopt < 256) && !(arg[0] == '-' && arg[1] == '-')) {
        snprintf(buf, size, "-%c", optopt);
        return;
    }
    size_t n = strcspn(arg, "=");
    snprintf(buf, size, "%.*s", (int)n, arg);
}

static bool has_value_after_equals(char **argv)
{
    const char *arg = optind > 0 ? argv[optind - 1] : "";
    return arg[0] == '-' && arg[1] == '-' && strchr(arg, '=') != NULL;
}

vx_cli_action vx_cli_parse_options(int argc, char **argv, vx_cli_options *opt, char *message, size_t size)
{
    memset(opt, 0, sizeof *opt);
    opt->format = VX_TRACE_CSV;
    opt->every = 1;
    opt->tolerance = VX_CLI_DEFAULT_TOLERANCE;
    message[0] = '\0';

    bool help = false, version = false, schema = false;
    opterr = 0; /* we print our own messages */
    for (;;) {
        int code = getopt_long(argc, argv, short_options, long_options, NULL);
        if (code == -1) break;
        switch (code) {
        case 1: /* a non-option: the scene path */
            if (opt->scene_path) {
                set_message(message, size, "unexpected argument '%s' (one scene file)", optarg);
                return VX_CLI_USAGE_ERROR;
            }
            opt->scene_path = optarg;
            break;
        case ':':
            set_message(message, size, "--%s: missing value (try --help)", long_name(optopt));
            return VX_CLI_USAGE_ERROR;
        case '?': {
            char name[128];
            rejected_option(argv, name, sizeof name);
            if (optopt != 0 && has_value_after_equals(argv))
                set_message(message, size, "%s: takes no value (try --help)", name);
            else
                set_message(message, size, "unknown option '%s' (try --help)", name);
            return VX_CLI_USAGE_ERROR;
        }
        case 'h':
            help = true;
            break;
        case 'V':
            version = true;
            break;
        case OPT_SCHEMA:
            schema = true;
            break;
        case 'q':
            opt->quiet = true;
            break;
        case OPT_STATS: /* --stats, or --stats=json */
            if (optarg && strcmp(optarg, "json") != 0) {
                set_message(message, size, "--stats: expected --stats or --stats=json, got '--stats=%s'", optarg);
                return VX_CLI_USAGE_ERROR;
            }
            opt->stats = true;
            opt->stats_json = optarg != NULL;
            break;
        default:
            if (!apply_option(opt, code, optarg, message, size)) return VX_CLI_USAGE_ERROR;
            break;
        }
    }
    /* After "--" every remaining argument is a path. */
    for (int i = optind; i < argc; i++) {
        if (opt->scene_path) {
            set_message(message, size, "unexpected argument '%s' (one scene file)", argv[i]);
            return VX_CLI_USAGE_ERROR;
        }
        opt->scene_path = argv[i];
    }

    if (help) return VX_CLI_HELP;
    if (version) return VX_CLI_VERSION;
    if (schema) return VX_CLI_SCHEMA;
    if (opt->compare && opt->output) {
        set_message(message, size, "--compare and --output cannot be used together (--compare writes no body trace)");
        return VX_CLI_USAGE_ERROR;
    }
    if (opt->compare && (opt->format != VX_TRACE_CSV || opt->layout_wide)) {
        set_message(message, size,
                    "--compare and %s cannot be used together (--compare writes no body trace; it reads the "
                    "golden's format from the file)",
                    opt->layout_wide ? "--layout wide" : format_option(opt->format));
        return VX_CLI_USAGE_ERROR;
    }
    if (opt->layout_wide && opt->format != VX_TRACE_CSV) {
        set_message(message, size, "--layout wide is a CSV layout (it cannot be used with %s)",
                    format_option(opt->format));
        return VX_CLI_USAGE_ERROR;
    }
    if (opt->format == VX_TRACE_GLB && !opt->compare && (!opt->output || strcmp(opt->output, "-") == 0)) {
        set_message(message, size, "--format glb needs -o FILE (a binary file, not for stdout)");
        return VX_CLI_USAGE_ERROR;
    }
    if (opt->layout_wide) opt->format = VX_TRACE_CSV_WIDE;
    bool body_on_stdout = !opt->compare && (!opt->output || strcmp(opt->output, "-") == 0);
    if (opt->contacts && strcmp(opt->contacts, "-") == 0 && body_on_stdout) {
        set_message(message, size, "--contacts -: the body trace already goes to stdout (use --output FILE)");
        return VX_CLI_USAGE_ERROR;
    }
    bool contacts_on_stdout = opt->contacts && strcmp(opt->contacts, "-") == 0;
    if (opt->queries && strcmp(opt->queries, "-") == 0 && (body_on_stdout || contacts_on_stdout)) {
        set_message(message, size, "--queries -: %s already goes to stdout",
                    body_on_stdout ? "the body trace" : "the contact trace");
        return VX_CLI_USAGE_ERROR;
    }
    bool queries_on_stdout = opt->queries && strcmp(opt->queries, "-") == 0;
    if (opt->joints && strcmp(opt->joints, "-") == 0 && (body_on_stdout || contacts_on_stdout || queries_on_stdout)) {
        set_message(message, size, "--joints -: %s already goes to stdout",
                    body_on_stdout ? "the body trace" : (contacts_on_stdout ? "the contact trace" : "the query trace"));
        return VX_CLI_USAGE_ERROR;
    }
    bool joints_on_stdout = opt->joints && strcmp(opt->joints, "-") == 0;
    if (opt->stats_file && strcmp(opt->stats_file, "-") == 0 &&
        (body_on_stdout || contacts_on_stdout || queries_on_stdout || joints_on_stdout)) {
        set_message(message, size, "--stats-file -: a trace already goes to stdout");
        return VX_CLI_USAGE_ERROR;
    }
    if (!opt->scene_path) {
        set_message(message, size, "missing SCENE.json (try --help)");
        return VX_CLI_USAGE_ERROR;
    }
    return VX_CLI_RUN;
}
