"""scripts/sweep --slurm DIR: a sweep as a Slurm array job folder. Array task
K runs points K, K+T, K+2T, ... of the task list and writes its rows; a
gather job, started when every task has ended, joins them into one CSV."""
import math
import os
import shlex
import shutil

from runs_driver import UsageError, write_plan
import voltex_runs

MAX_TASKS = 1000     # Slurm's default MaxArraySize is 1001
POINTS_PER_TASK = 100

SWEEP_SBATCH = """#!/bin/bash
# A voltex-sim sweep as a Slurm array job, written by scripts/sweep:
# {what}.
# Array task K runs points K, K+{tasks}, K+{tasks2}, ... of tasks.json and writes
# rows/task_K.jsonl; gather.sbatch joins them into sweep.csv. Submit from
# this folder with ./submit.sh. Each node needs python3 and {sim}.
#SBATCH --job-name=voltex-sweep
#SBATCH --array=0-{last}
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --output=logs/task_%a.log
{options}set -euo pipefail
cd "${{SLURM_SUBMIT_DIR:?submit it from the sweep folder: ./submit.sh}}"
task=${{SLURM_ARRAY_TASK_ID:?run it as a Slurm array task: ./submit.sh}}
python3 voltex_runs.py run tasks.json "$task" {tasks} > "rows/task_$task.jsonl.part"
mv "rows/task_$task.jsonl.part" "rows/task_$task.jsonl"
"""

GATHER_SBATCH = """#!/bin/bash
# Joins the array tasks' rows/task_K.jsonl into sweep.csv (a row per point);
# it says which points have no row when a task did not finish (logs/).
#SBATCH --job-name=voltex-sweep-gather
#SBATCH --ntasks=1
#SBATCH --output=logs/gather.log
{options}set -euo pipefail
cd "${{SLURM_SUBMIT_DIR:?submit it from the sweep folder: ./submit.sh}}"
python3 voltex_runs.py gather tasks.json -o sweep.csv
"""

SUBMIT_SH = """#!/bin/sh
# Submits the sweep's array job, and the gather to run when every task has
# ended (afterany: it reports the points of a task that failed).
set -eu
cd "$(dirname "$0")"
array=$(sbatch --parsable sweep.sbatch)
array=${{array%%;*}}
gather=$(sbatch --parsable --dependency=afterany:"$array" gather.sbatch)
echo "submitted array job $array ({tasks} tasks) and gather job ${{gather%%;*}}: the CSV will be $(pwd)/sweep.csv"
"""


def task_count(points, asked):
    tasks = asked or min(MAX_TASKS, math.ceil(points / POINTS_PER_TASK))
    if tasks > MAX_TASKS:
        raise UsageError(f"--tasks {tasks}: at most {MAX_TASKS} (Slurm's usual MaxArraySize)")
    return max(1, min(tasks, points))


def sbatch_lines(options):
    for option in options:
        if not option.startswith("-") or "\n" in option:
            raise UsageError(f"--sbatch {option!r}: expected one sbatch option, like --sbatch=--partition=short")
    return "".join(f"#SBATCH {option}\n" for option in options)


def write_executable(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(path, 0o755)


def write_job(plan, folder, asked_tasks, options, sim_arg):
    """Writes the job folder; prints how to submit it."""
    if os.path.exists(folder) and (not os.path.isdir(folder) or os.listdir(folder)):
        raise UsageError(f"--slurm {folder}: exists and is not an empty folder")
    tasks = task_count(len(plan["points"]), asked_tasks)
    lines = sbatch_lines(options)
    # the nodes run the program given, else the one found here (a shared file system)
    sim = plan["sim"] if not sim_arg else (os.path.abspath(sim_arg) if "/" in sim_arg else sim_arg)
    scene = os.path.basename(plan["scene"])
    for sub in ("rows", "logs"):
        os.makedirs(os.path.join(folder, sub), exist_ok=True)
    shutil.copyfile(plan["scene"], os.path.join(folder, scene))
    shutil.copyfile(voltex_runs.__file__, os.path.join(folder, "voltex_runs.py"))
    job = {k: v for k, v in plan.items() if k != "base"}
    write_plan(dict(job, scene=scene, sim=sim), os.path.join(folder, "tasks.json"))
    what = f"{len(plan['points'])} points of {scene} over {', '.join(plan['params'])}, in {tasks} tasks"
    write_executable(os.path.join(folder, "sweep.sbatch"), SWEEP_SBATCH.format(
        what=what, tasks=tasks, tasks2=2 * tasks, last=tasks - 1, options=lines, sim=sim))
    write_executable(os.path.join(folder, "gather.sbatch"), GATHER_SBATCH.format(options=lines))
    write_executable(os.path.join(folder, "submit.sh"), SUBMIT_SH.format(tasks=tasks))
    print(f"sweep: wrote {folder}: {what}\n"
          f"sweep: submit on the cluster with {shlex.quote(os.path.join(folder, 'submit.sh'))}; "
          f"the rows gather into {os.path.join(folder, 'sweep.csv')}")
