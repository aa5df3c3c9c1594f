/* scripts/sweep beyond this machine: the Slurm array job folder of --slurm
 * (its task count, commands and gather), run here the way Slurm would run
 * it, gives the local sweep's CSV; and --sshlogin, through a stand-in for
 * ssh that runs each "host" in a home folder of its own, sends the files,
 * runs there and brings the rows back (docs/runs.md). */
#include "test_scripts.h"

#include <sys/stat.h>

#define SWEEP_ARGS "--grid 'entities[1].rigidbody.restitution=0:0.6:0.1' -m ball.py@30 -m max_displacement_m"
#define SWEEP VX_SCRIPTS "/sweep --runner xargs --sim '" VOLTEX_SIM_PATH "' '" VX_SCENES "/ball_drop.json' " SWEEP_ARGS

static char *file_in(const char *dir, const char *name)
{
    char path[160];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *text = vx_read_file(path);
    cr_assert_not_null(text, "no %s", path);
    return text;
}

Test(sweep_cluster, slurm_folder_has_the_tasks_commands_and_gather_and_runs_as_slurm_would, .timeout = 120)
{
    char dir[64];
    vx_scratch_make(dir);
    vx_script_result r = vx_script_run(dir, "cd '%s' && " SWEEP " -- --steps 40 > local.csv", dir);
    cr_assert_eq(r.code, 0, "%s", r.err);
    vx_script_free(&r);
    r = vx_script_run(dir, "cd '%s' && " SWEEP " --slurm job --tasks 3 --sbatch=--partition=short -- --steps 40", dir);
    cr_assert_eq(r.code, 0, "%s", r.err);
    cr_assert(strstr(r.out, "sweep: wrote job: 7 points of ball_drop.json over entities[1].rigidbody.restitution, "
                            "in 3 tasks\n"), "%s", r.out);
    vx_script_free(&r);

    char job[96];
    snprintf(job, sizeof job, "%s/job", dir);
    char *sbatch = file_in(job, "sweep.sbatch"), *gather = file_in(job, "gather.sbatch"), *tasks = file_in(job, "tasks.json");
    cr_assert(strstr(sbatch, "\n#SBATCH --array=0-2\n"), "%s", sbatch);
    cr_assert(strstr(sbatch, "\n#SBATCH --output=logs/task_%a.log\n#SBATCH --partition=short\n"), "%s", sbatch);
    cr_assert(strstr(sbatch, "\npython3 voltex_runs.py run tasks.json \"$task\" 3 > \"rows/task_$task.jsonl.part\"\n"
                             "mv \"rows/task_$task.jsonl.part\" \"rows/task_$task.jsonl\"\n"), "%s", sbatch);
    cr_assert(strstr(gather, "\n#SBATCH --partition=short\n"), "%s", gather);
    cr_assert(strstr(gather, "\npython3 voltex_runs.py gather tasks.json -o sweep.csv\n"), "%s", gather);
    cr_assert_eq(vx_count_lines(tasks, "  [\""), 7, "a point a line: %s", tasks);
    cr_assert(strstr(tasks, "\"sim\": \"" VOLTEX_SIM_PATH "\"") && strstr(tasks, "\"scene\": \"ball_drop.json\"") &&
              strstr(tasks, "\"args\": [\"--steps\", \"40\"]"), "%s", tasks);
    free(sbatch);
    free(gather);
    free(tasks);

    /* the gather before the tasks: every point is missing */
    r = vx_script_run(dir, "cd / && SLURM_SUBMIT_DIR='%s' bash '%s/gather.sbatch'", job, job);
    cr_assert_eq(r.code, 1);
    cr_assert(strstr(r.err, "7 of 7 points have no result (points 0, 1, 2, 3, 4, 5, 6)"), "%s", r.err);
    vx_script_free(&r);
    /* task K takes points K, K + 3, ... */
    for (int task = 0; task < 3; task++) {
        r = vx_script_run(dir, "cd / && SLURM_SUBMIT_DIR='%s' SLURM_ARRAY_TASK_ID=%d bash '%s/sweep.sbatch'", job, task,
                          job);
        cr_assert_eq(r.code, 0, "task %d: %s", task, r.err);
        vx_script_free(&r);
        char name[32];
        snprintf(name, sizeof name, "rows/task_%d.jsonl", task);
        char *rows = file_in(job, name);
        char first[32];
        snprintf(first, sizeof first, "{\"item\":%d,\"exit\":0,", task);
        cr_assert(vx_starts_with(rows, first), "%s", rows);
        cr_assert_eq(vx_count_lines(rows, "{\"item\":"), task == 0 ? 3 : 2, "%s", rows);
        free(rows);
    }
    r = vx_script_run(dir, "cd / && SLURM_SUBMIT_DIR='%s' bash '%s/gather.sbatch'", job, job);
    cr_assert_eq(r.code, 0, "%s", r.err);
    vx_script_free(&r);
    char *local = file_in(dir, "local.csv"), *slurm = file_in(job, "sweep.csv");
    cr_assert_str_eq(slurm, local);
    free(local);
    free(slurm);

    /* submit.sh: the array, then the gather after any end of it (a stand-in sbatch records the calls) */
    r = vx_script_run(dir, "mkdir '%s/bin' && printf '%%s\\n' '#!/bin/sh' 'echo \"$*\" >> \"$SBATCH_LOG\"' "
                           "'[ \"$2\" = sweep.sbatch ] && echo \"4242;cluster\" || echo 4243' > '%s/bin/sbatch' && "
                           "chmod +x '%s/bin/sbatch' && SBATCH_LOG='%s/sbatch.log' PATH='%s/bin':\"$PATH\" '%s/submit.sh'",
                     dir, dir, dir, dir, dir, job);
    cr_assert_eq(r.code, 0, "%s", r.err);
    cr_assert(vx_starts_with(r.out, "submitted array job 4242 (3 tasks) and gather job 4243: the CSV will be "), "%s",
              r.out);
    vx_script_free(&r);
    char *calls = file_in(dir, "sbatch.log");
    cr_assert_str_eq(calls, "--parsable sweep.sbatch\n--parsable --dependency=afterany:4242 gather.sbatch\n");
    free(calls);

    r = vx_script_run(dir, "cd '%s' && " SWEEP " --slurm job", dir);
    cr_assert_eq(r.code, 2);
    cr_assert_str_eq(r.err, "sweep: --slurm job: exists and is not an empty folder\n");
    vx_script_free(&r);
    vx_scratch_remove(dir);
}

/* ssh HOST COMMAND run here, in DIR/remote/HOST as its home: the machine's
 * rsync, perl and python3 stand in for the remote's. */
static const char fake_ssh[] =
    "#!/bin/sh\n"
    "while [ $# -gt 0 ]; do case \"$1\" in -o|-p|-l) shift 2;; -*) shift;; *) break;; esac; done\n"
    "host=$1; shift\n"
    "[ \"${1:-}\" = -- ] && shift\n"
    "echo \"$host: $*\" | cut -c1-100 >> \"$VX_FAKE_SSH/ssh.log\"\n"
    "mkdir -p \"$VX_FAKE_SSH/remote/$host\"\n"
    "cd \"$VX_FAKE_SSH/remote/$host\" && HOME=\"$VX_FAKE_SSH/remote/$host\" exec sh -c \"$*\"\n";

Test(sweep_cluster, sshlogin_sends_the_files_runs_remotely_and_brings_the_rows_back, .timeout = 120)
{
    char dir[64];
    vx_scratch_make(dir);
    vx_script_result r = vx_script_run(dir, "mkdir -p '%s/bin' '%s/home/tmp' && ln -s '" VOLTEX_SIM_PATH "' '%s/bin/voltex-sim'",
                                       dir, dir, dir);
    cr_assert_eq(r.code, 0, "%s", r.err);
    vx_script_free(&r);
    char ssh[96];
    snprintf(ssh, sizeof ssh, "%s/bin/ssh", dir);
    vx_write_file(ssh, fake_ssh);
    cr_assert_eq(chmod(ssh, 0755), 0);

    r = vx_script_run(dir, "cd '%s' && " SWEEP " -- --steps 40 > local.csv", dir);
    cr_assert_eq(r.code, 0, "%s", r.err);
    vx_script_free(&r);
    /* the staging folder under HOME, so the remote's working folder is relative to its own home; no
     * SHELL, as under cron or a CI runner (GNU parallel needs one: the sweep gives it /bin/sh) */
    r = vx_script_run(dir, "cd '%s' && env -u SHELL VOLTEX_SIM='" VOLTEX_SIM_PATH "' HOME='%s/home' TMPDIR='%s/home/tmp' VX_FAKE_SSH='%s' PATH='%s/bin':\"$PATH\" "
                           VX_SCRIPTS "/sweep '" VX_SCENES "/ball_drop.json' " SWEEP_ARGS " -S 1/node1 -j 1 "
                           "-o remote.csv -- --steps 40", dir, dir, dir, dir, dir);
    cr_assert_eq(r.code, 0, "%s", r.err);
    cr_assert(strstr(r.err, "(GNU parallel on 1/node1): 7 ran, 0 failed"), "%s", r.err);
    vx_script_free(&r);
    char *local = file_in(dir, "local.csv"), *remote = file_in(dir, "remote.csv"), *log = file_in(dir, "ssh.log");
    cr_assert_str_eq(remote, local);
    cr_assert(strstr(log, "node1: rsync --server"), "the files went by rsync: %s", log);
    cr_assert(strstr(log, "node1: exec perl"), "the runs went by ssh: %s", log);
    free(local);
    free(remote);
    free(log);
    /* --cleanup: nothing left on the remote */
    r = vx_script_run(dir, "find '%s/remote/node1' -name '*.json' -o -name '*.py'", dir);
    cr_assert_str_eq(r.out, "");
    vx_script_free(&r);
    vx_scratch_remove(dir);
}
