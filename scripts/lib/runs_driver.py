"""What scripts/golden_suite and scripts/sweep share: finding voltex-sim, and
running a plan's shares through GNU parallel (or xargs -P when it is absent),
reading the JSON line each run prints (scripts/lib/voltex_runs.py)."""
import argparse
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys

LIB = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(LIB))
WORKER = os.path.join(LIB, "voltex_runs.py")


class UsageError(Exception):
    """A bad argument or input: the script prints it as one line and exits 2."""


class Parser(argparse.ArgumentParser):
    """argparse whose errors are one line (`NAME: ...`, exit 2), like the rest."""

    def error(self, message):
        raise UsageError(f"{message} (--help says more)")


def find_sim(given):
    """voltex-sim to run: --sim, else $VOLTEX_SIM, else this checkout's Release
    build (made by scripts/run.sh when the sources changed), else PATH's."""
    sim = given or os.environ.get("VOLTEX_SIM")
    if sim:
        path = shutil.which(sim) if "/" not in sim else sim
        if not path or not os.access(path, os.X_OK):
            raise UsageError(f"{sim}: no such program")
        return os.path.abspath(path)
    run_sh = os.path.join(ROOT, "scripts", "run.sh")
    if os.path.isfile(os.path.join(ROOT, "CMakeLists.txt")) and os.access(run_sh, os.X_OK):
        # builds when needed; its messages go to stderr
        if subprocess.run([run_sh, "--version"], stdout=subprocess.DEVNULL).returncode != 0:
            raise UsageError("building voltex-sim failed (scripts/run.sh)")
        return os.path.join(ROOT, "build", "release", "voltex-sim")
    path = shutil.which("voltex-sim")
    if not path:
        raise UsageError("voltex-sim is not on PATH (give --sim PATH or set VOLTEX_SIM)")
    return path


def positive_int(text):
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise UsageError(f"expected a whole number >= 1, got {text!r}")
    return n


def has_gnu_parallel():
    try:
        out = subprocess.run(["parallel", "--version"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             stdin=subprocess.DEVNULL, text=True).stdout
    except OSError:
        return False
    return out.startswith("GNU parallel")   # moreutils also has a `parallel`


def choose_runner(asked):
    """'parallel' or 'xargs': --runner, else GNU parallel when installed."""
    if asked == "parallel" and not has_gnu_parallel():
        raise UsageError("--runner parallel: GNU parallel is not installed (Debian package parallel)")
    if asked:
        return asked
    return "parallel" if has_gnu_parallel() else "xargs"


def share_count(items, jobs):
    """Shares to split the runs into. Each share is one Python start (~0.1 s
    here), so a small suite gets one share per job; a large one four per job,
    so that a share that ends late holds up the others less."""
    if items == 0:
        return 0
    return min(items, jobs if items < jobs * 32 else jobs * 4)


def write_plan(plan, path):
    """The plan as JSON, a line per key and per point or item, for people to read."""
    lines = []
    for key, value in plan.items():
        if key in ("points", "items"):
            inner = ",\n  ".join(json.dumps(v) for v in value)
            lines.append(f' "{key}": [\n  {inner}\n ]')
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)}")
    with open(path, "w", encoding="utf-8") as f:
        f.write("{\n" + ",\n".join(lines) + "\n}\n")


def share_commands(plan_file, shares, python="python3", worker=WORKER):
    return [f"{python} {shlex.quote(worker)} run {shlex.quote(plan_file)} {k} {shares}" for k in range(shares)]


def runner_command(runner, jobs, parallel_args=()):
    if runner == "parallel":
        # commands on stdin, a line each; --line-buffer passes each result on as it comes
        return ["parallel", "--will-cite", "--line-buffer", "-j", str(jobs)] + list(parallel_args)
    return ["xargs", "-0", "-n", "1", "-P", str(jobs), "sh", "-c"]


def run_shares(commands, runner, jobs, on_result, parallel_args=(), cwd=None):
    """Runs the share commands; calls on_result(dict) for every JSON line as it
    comes. Returns the runner's exit code."""
    sep = "\n" if runner == "parallel" else "\0"
    feed = "".join(c + sep for c in commands)
    # GNU parallel runs remote commands through $SHELL and silently runs
    # nothing when it is unset (cron, CI, env -i)
    env = dict(os.environ)
    env.setdefault("SHELL", "/bin/sh")
    proc = subprocess.Popen(runner_command(runner, jobs, parallel_args), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, cwd=cwd, env=env, start_new_session=True)
    try:
        proc.stdin.write(feed)
        proc.stdin.close()
        for line in proc.stdout:
            try:
                result = json.loads(line)
            except ValueError:
                sys.stderr.write(line)
                continue
            on_result(result)
        return proc.wait()
    except BaseException:
        # Ctrl-C or a failure here: end the runner and the runs under it
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait()
        raise
