#!/usr/bin/python3
"""Runs a share of a plan of voltex-sim runs, a JSON line per run on stdout;
gathers a sweep's results into one CSV.

    voltex_runs.py run PLAN SHARE SHARES    the runs i of PLAN with i % SHARES == SHARE
    voltex_runs.py gather PLAN [-o CSV]     a sweep's rows/*.jsonl (from Slurm tasks) as one CSV

scripts/golden_suite and scripts/sweep write the plan (JSON) and start the
shares through GNU parallel, xargs -P or a Slurm array. This file uses
Python's standard library only and nothing else of the project, so a Slurm
job folder or a remote host needs just it, the plan, the scene and
voltex-sim. Relative paths in a plan are relative to its `base` folder, else
to the plan's own folder; a `sim` without a slash is looked up on PATH. See
docs/runs.md.
"""
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import time

# A JSON line stays below the pipe's atomic write size, so lines of workers
# that share one pipe (xargs -P) never mix.
MESSAGE_LIMIT = 1500
TRACE_FUNCS = ("min", "max", "mean")


def load_plan(path):
    """The plan, with the working folder changed to its `base` (default: its own folder)."""
    with open(path, encoding="utf-8") as f:
        plan = json.load(f)
    os.chdir(plan.get("base") or os.path.dirname(os.path.abspath(path)))
    return plan


def first_message(stderr_text):
    """The first `voltex-sim: ...` line of a run's stderr, without the prefix."""
    for line in stderr_text.splitlines():
        if line.startswith("voltex-sim: "):
            return line[len("voltex-sim: "):]
    lines = [line for line in stderr_text.splitlines() if line.strip()]
    return lines[0] if lines else ""


def clip(text):
    return text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT] + "..."


def emit(result):
    os.write(1, (json.dumps(result, separators=(",", ":")) + "\n").encode("utf-8"))


def run_sim(cmd, stdout=subprocess.DEVNULL):
    """Runs voltex-sim; returns (exit code, stderr text, seconds)."""
    start = time.monotonic()
    with tempfile.TemporaryFile() as err:
        try:
            code = subprocess.run(cmd, stdout=stdout, stderr=err, stdin=subprocess.DEVNULL).returncode
        except OSError as e:
            return 127, f"cannot run {cmd[0]}: {e.strerror}", time.monotonic() - start
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    return code, text, time.monotonic() - start


# ---------------------------------------------------------------- golden runs

def first_line_difference(got, want):
    """Where two byte strings first differ: (line number, got line, golden line)."""
    got_lines, want_lines = got.split(b"\n"), want.split(b"\n")
    for n, (a, b) in enumerate(zip(got_lines, want_lines), start=1):
        if a != b:
            return n, a.decode("utf-8", "replace"), b.decode("utf-8", "replace")
    n = min(len(got_lines), len(want_lines)) + 1
    return n, "(end)" if len(got_lines) < len(want_lines) else "more lines", ""


def compare_extra(trace, got_path, golden_path):
    """A message when the run's extra trace is not the golden's bytes, else None."""
    with open(got_path, "rb") as f:
        got = f.read()
    with open(golden_path, "rb") as f:
        want = f.read()
    if got == want:
        return None
    line, a, b = first_line_difference(got, want)
    return f"{trace} trace line {line}: {a!r} vs golden {b!r} ({os.path.basename(golden_path)})"


def golden_check(plan, item, tmp):
    scene, golden = item["scene"], item["golden"]
    if not os.path.isfile(golden):
        return {"status": "error", "exit": None,
                "message": f"no golden trace {item['golden']} (make it with --update)"}
    cmd = [plan["sim"], scene, "--compare", golden, "--tolerance", repr(item["tolerance"]), "-q"]
    extras = []
    for extra in item.get("extras", []):
        out = os.path.join(tmp, f"{extra['trace']}.csv")
        cmd += [f"--{extra['trace']}", out]
        extras.append((extra["trace"], out, extra["golden"]))
    code, err, seconds = run_sim(cmd + item.get("args", []))
    result = {"exit": code, "seconds": round(seconds, 4), "detail": clip(err)}
    if code == 1:
        return dict(result, status="fail", message=clip(first_message(err)))
    if code != 0:
        return dict(result, status="error", message=clip(f"exit {code}: {first_message(err)}"))
    for trace, out, want in extras:
        message = compare_extra(trace, out, want)
        if message:
            return dict(result, status="fail", message=clip(message))
    return dict(result, status="pass", message="")


def replace_if_changed(new_path, path):
    """Moves new_path to path; returns 'new', 'updated' or 'same'."""
    old = None
    if os.path.exists(path):
        with open(path, "rb") as f:
            old = f.read()
        mode = os.stat(path).st_mode & 0o777
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    with open(new_path, "rb") as f:
        new = f.read()
    if old == new:
        os.unlink(new_path)
        return "same"
    os.chmod(new_path, mode)   # mkstemp made it 0600
    os.replace(new_path, path)
    return "new" if old is None else "updated"


def golden_update(plan, item, tmp):
    scene, golden = item["scene"], item["golden"]
    targets = [("body", golden)] + [(e["trace"], e["golden"]) for e in item.get("extras", [])]
    cmd = [plan["sim"], scene, "-q"]
    outs = []
    for trace, path in targets:
        # the new trace is written beside the golden, then renamed over it
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        fd, out = tempfile.mkstemp(prefix=".new-", suffix=".csv", dir=os.path.dirname(path) or ".")
        os.close(fd)
        cmd += ["-o", out] if trace == "body" else [f"--{trace}", out]
        outs.append((trace, out, path))
    code, err, seconds = run_sim(cmd + item.get("args", []))
    result = {"exit": code, "seconds": round(seconds, 4), "detail": clip(err)}
    if code != 0:
        for _, out, _ in outs:
            os.unlink(out)
        return dict(result, status="error", message=clip(f"exit {code}: {first_message(err)}"))
    changes = {trace: replace_if_changed(out, path) for trace, out, path in outs}
    changed = [trace for trace, how in changes.items() if how != "same"]
    status = "new" if changes["body"] == "new" else ("updated" if changed else "same")
    return dict(result, status=status, message=", ".join(changed))


def golden_item(plan, index):
    item = plan["items"][index]
    with tempfile.TemporaryDirectory(prefix="voltex-golden-") as tmp:
        result = golden_update(plan, item, tmp) if plan.get("update") else golden_check(plan, item, tmp)
    return dict(result, item=index, name=item["name"])


# ---------------------------------------------------------------- sweep points

class MetricError(ValueError):
    pass


def parse_metric(text):
    """'[LABEL=]SPEC' as a dict: a --stats=json field ('step_ms.median'), a body
    trace value at a frame ('ball.py@300', 'ball.py@last') or min/max/mean of one
    over frames ('max(ball.py)', 'max(ball.py@60:)', 'mean(1.vy@0:120)')."""
    label, spec = text, text
    m = re.match(r"^([A-Za-z_][A-Za-z0-9_.-]*)=(.+)$", text)
    if m:
        label, spec = m.group(1), m.group(2)
    func = None
    m = re.match(r"^(\w+)\((.*)\)$", spec)
    if m:
        func, inner = m.group(1), m.group(2)
        if func not in TRACE_FUNCS:
            raise MetricError(f"--metric {text}: unknown function {func!r} (min, max, mean)")
    else:
        inner = spec
    if func is None and "@" not in inner:
        if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$", inner):
            raise MetricError(f"--metric {text}: not a --stats=json field (like step_ms.median) "
                              "nor a trace value (like ball.py@300 or max(ball.py))")
        return {"label": label, "kind": "stats", "field": inner.split(".")}
    where, _, frames = inner.partition("@")
    entity, dot, column = where.rpartition(".")
    if not dot or not entity or not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", column):
        raise MetricError(f"--metric {text}: a trace value is ENTITY.COLUMN, like ball.py")
    metric = {"label": label, "kind": "trace", "entity": entity, "column": column, "func": func}
    if func is None:
        if not re.match(r"^(\d+|last)$", frames):
            raise MetricError(f"--metric {text}: the frame is a number or 'last', like ball.py@300")
        metric["frame"] = frames
    else:
        m = re.match(r"^(\d*):(\d*)$", frames) if frames else None
        if frames and not m:
            raise MetricError(f"--metric {text}: frames are FIRST:LAST, either may be left out, like max(ball.py@60:)")
        metric["first"] = int(m.group(1)) if m and m.group(1) else 0
        metric["last"] = int(m.group(2)) if m and m.group(2) else None
    return metric


class TraceValue:
    """Follows one trace metric over the rows of a body trace as they stream by."""

    def __init__(self, metric):
        self.metric = metric
        self.value = None   # the string kept (a cell, or min / max) or the running sum (mean)
        self.count = 0
        self.last_frame = None

    def matches(self, entity, name):
        return self.metric["entity"] in (name, entity)

    def feed(self, frame, cell):
        m = self.metric
        self.last_frame = frame
        if m["func"] is None:
            if m["frame"] == "last" or int(m["frame"]) == frame:
                self.value, self.count = cell, 1
            return
        if frame < m["first"] or (m["last"] is not None and frame > m["last"]):
            return
        x = float(cell)
        if m["func"] == "mean":
            self.value = (self.value or 0.0) + x
        elif self.value is None or (x < float(self.value) if m["func"] == "min" else x > float(self.value)):
            self.value = cell
        self.count += 1

    def result(self):
        m = self.metric
        if self.last_frame is None:
            raise MetricError(f"{m['label']}: no rows for entity {m['entity']!r} in the trace")
        if self.count == 0:
            where = f"frame {m['frame']}" if m["func"] is None else f"frames {m['first']}:{m['last'] or ''}"
            raise MetricError(f"{m['label']}: {where} not in the trace (its last frame is {self.last_frame})")
        return repr(self.value / self.count) if m["func"] == "mean" else self.value


def read_trace(stream, values):
    """Feeds a CSV body trace to the TraceValues."""
    header = stream.readline().rstrip("\n").split(",")
    index = {name: i for i, name in enumerate(header)}
    for v in values:
        if v.metric["column"] not in index:
            raise MetricError(f"{v.metric['label']}: no column {v.metric['column']!r} in the trace "
                              f"(columns: {', '.join(header[4:])})")
    wanted = [(v, index[v.metric["column"]]) for v in values]
    for line in stream:
        row = line.rstrip("\n").split(",")
        frame = None
        for v, col in wanted:
            if v.matches(row[2], row[3]):
                frame = int(row[0]) if frame is None else frame
                v.feed(frame, row[col])


def stats_value(stats, metric):
    value = stats
    for depth, key in enumerate(metric["field"]):
        if not isinstance(value, dict) or key not in value:
            where = ".".join(metric["field"][:depth])
            keys = ", ".join(value) if isinstance(value, dict) else "none: it is a number"
            hint = "" if depth else "; a trace value names its frame, like ball.py@last"
            raise MetricError(f"{metric['label']}: no field {key!r} in --stats=json"
                              f"{' ' + where if where else ''} (fields: {keys}){hint}")
        value = value[key]
    if value is None:
        return None
    if isinstance(value, (dict, list)):
        raise MetricError(f"{metric['label']}: --stats=json {'.'.join(metric['field'])} is not a single value")
    return value if isinstance(value, str) else json.dumps(value)


def stats_of(stderr_text):
    for line in reversed(stderr_text.splitlines()):
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                break
    return None


def sweep_command(plan, values, steps=None):
    cmd = [plan["sim"], plan["scene"]] + plan.get("args", [])
    for path, value in zip(plan["params"], values):
        cmd += ["--set", f"{path}={value}"]
    if steps is not None:
        cmd += ["--steps", str(steps)]
    return cmd + ["-q", "--stats=json"]


def sweep_point(plan, values, steps=None):
    """Runs one point: (exit code, error message or '', [metric values], seconds)."""
    metrics = plan["metrics"]
    traced = [TraceValue(m) for m in metrics if m["kind"] == "trace"]
    cmd = sweep_command(plan, values, steps) + ["-o", "-" if traced else "/dev/null"]
    start = time.monotonic()
    error = None
    with tempfile.TemporaryFile() as err:
        try:
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE if traced else subprocess.DEVNULL, stderr=err,
                                    stdin=subprocess.DEVNULL, text=bool(traced))
        except OSError as e:
            return 127, f"cannot run {cmd[0]}: {e.strerror}", [None] * len(metrics), 0.0
        if traced:
            try:
                read_trace(proc.stdout, traced)
            except MetricError as e:
                error = str(e)
            proc.stdout.close()
        code = proc.wait()
        err.seek(0)
        stderr_text = err.read().decode("utf-8", "replace")
    seconds = time.monotonic() - start
    if code != 0:
        return code, clip(first_message(stderr_text)), [None] * len(metrics), seconds
    stats = stats_of(stderr_text)
    out = []
    for m in metrics:
        try:
            if m["kind"] == "stats":
                if stats is None:
                    raise MetricError("voltex-sim printed no --stats=json line")
                out.append(stats_value(stats, m))
            else:
                out.append(traced.pop(0).result() if error is None else None)
        except MetricError as e:
            error = error or str(e)
            out.append(None)
    return code, clip(error or ""), out, seconds


def sweep_item(plan, index):
    code, error, values, seconds = sweep_point(plan, plan["points"][index])
    return {"item": index, "exit": code, "error": error, "values": values, "seconds": round(seconds, 4)}


# ---------------------------------------------------------------- the CSV of a sweep

def sweep_header(plan):
    return ["point"] + plan["params"] + [m["label"] for m in plan["metrics"]] + ["exit", "error"]


def write_sweep_csv(plan, results, stream):
    """One row per point, in point order; results maps a point to its JSON result."""
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(sweep_header(plan))
    for i, point in enumerate(plan["points"]):
        r = results[i]
        cells = ["" if v is None else v for v in r["values"]]
        writer.writerow([i] + list(point) + cells + [r["exit"], r["error"]])


def gather(plan_file, output):
    """Joins the rows/*.jsonl that the Slurm array tasks wrote into one CSV."""
    output = output if output == "-" else os.path.abspath(output)
    plan = load_plan(plan_file)
    rows_dir = "rows"
    results = {}
    for name in sorted(os.listdir(rows_dir)) if os.path.isdir(rows_dir) else []:
        if name.endswith(".jsonl"):
            with open(os.path.join(rows_dir, name), encoding="utf-8") as f:
                for line in f:
                    r = json.loads(line)
                    results[r["item"]] = r
    missing = [i for i in range(len(plan["points"])) if i not in results]
    if missing:
        shown = ", ".join(str(i) for i in missing[:10]) + (" ..." if len(missing) > 10 else "")
        sys.stderr.write(f"voltex_runs.py: {len(missing)} of {len(plan['points'])} points have no result "
                         f"(points {shown}); see logs/ for the array tasks that did not finish\n")
        return 1
    if output == "-":
        write_sweep_csv(plan, results, sys.stdout)
    else:
        tmp = output + ".tmp"
        with open(tmp, "w", newline="", encoding="utf-8") as f:
            write_sweep_csv(plan, results, f)
        os.replace(tmp, output)
    failed = sum(1 for r in results.values() if r["exit"] != 0 or r["error"])
    sys.stderr.write(f"voltex_runs.py: {len(results)} points, {failed} failed"
                     f"{'' if output == '-' else ', written to ' + output}\n")
    return 1 if failed else 0


# ---------------------------------------------------------------- entry

def run_share(plan_file, share, shares):
    plan = load_plan(plan_file)
    work = {"golden": golden_item, "sweep": sweep_item}[plan["kind"]]
    count = len(plan["items"] if plan["kind"] == "golden" else plan["points"])
    for index in range(share, count, shares):
        emit(work(plan, index))
    return 0


def main(argv):
    if len(argv) == 4 and argv[0] == "run":
        return run_share(argv[1], int(argv[2]), int(argv[3]))
    if len(argv) in (2, 4) and argv[0] == "gather" and (len(argv) == 2 or argv[2] == "-o"):
        return gather(argv[1], argv[3] if len(argv) == 4 else "-")
    sys.stderr.write("usage: voltex_runs.py run PLAN SHARE SHARES | gather PLAN [-o CSV]\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
