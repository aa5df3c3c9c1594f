#!/usr/bin/python3
"""Runs the examples of the documentation, so that it cannot rot.

    doc_examples.py SOURCE_DIR FILE.md...

Every fenced code block of each file is run in order, in a scratch folder
per file that looks like the repository (copies of scenes/, schema/, docs/,
tests/golden/ and scripts/; `scripts/run.sh` runs the voltex-sim under test,
which is also first on PATH):

- sh, bash: run with bash -e -o pipefail; must succeed.
- a block of `$ COMMAND` lines (no language, or console): each command's
  output (stdout and stderr) must be the lines that follow it; a line `...`
  stands for any lines.
- python: run with /usr/bin/python3; must succeed.
- json: a scene (an object with "entities") must load and pass the JSON
  Schema; anything else needs a directive.
- text, or no language and no `$`: shown, not run (file trees, formats).

A line `<!-- doc-test: DIRECTIVE -->` right before a block changes that:

- `skip: REASON`: not run, for the reason given (which is reported);
- `without TEXT: REASON`: run without its lines that contain TEXT;
- `numbers vary`: a transcript's numbers need not match (timings);
- `file NAME`: the block is saved as NAME for the blocks after it (a JSON
  scene is also run);
- `in SCENE`: a JSON fragment ("key": value, ...) run as part of SCENE;
- `schema only: REASON`: a JSON fragment checked with the JSON Schema
  alone (in a scene of no entities), for the reason given;
- `is FILE`: the block is the repository's FILE, exactly;
- `output of PROGRAM`: the block's lines are the output of the built
  PROGRAM (docs/examples), in order (`...` for any lines);
- `c fragment in FILE before TEXT`: C put into a copy of the repository's
  FILE before its line containing TEXT, built against the library and run.

The environment gives VOLTEX_SIM (the program), VOLTEX_EXAMPLES_DIR (the
built docs/examples programs), VOLTEX_CC, VOLTEX_CFLAGS and VOLTEX_LIBS
(how to build C against the library).
"""
import json
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import tempfile

TIMEOUT = 180  # seconds for one block
NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


class Block:
    def __init__(self, path, line, info, lines, directive):
        self.path, self.line, self.info, self.lines, self.directive = path, line, info, lines, directive

    @property
    def where(self):
        return f"{self.path}:{self.line}"

    @property
    def text(self):
        return "\n".join(self.lines) + "\n"


def blocks_of(path, text):
    """The fenced blocks of a markdown file, with the directive before each."""
    lines = text.split("\n")
    blocks, i, directive = [], 0, None
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^(\s*)<!-- doc-test: (.*) -->\s*$", line)
        if m:
            directive = m.group(2).strip()
            i += 1
            continue
        m = re.match(r"^(\s*)```\s*([\w+-]*)\s*$", line)
        if not m:
            if line.strip():
                directive = None
            i += 1
            continue
        indent, info = m.group(1), m.group(2)
        j = i + 1
        while j < len(lines) and not re.match(r"^\s*```\s*$", lines[j]):
            j += 1
        if j == len(lines):
            raise SystemExit(f"{path}:{i + 1}: a code block that is never closed")
        body = [l[len(indent):] if l.startswith(indent) else l.lstrip() for l in lines[i + 1:j]]
        blocks.append(Block(path, i + 1, info, body, directive))
        directive = None
        i = j + 1
    return blocks


def sandbox(source):
    """A scratch folder that looks like the repository to the examples: copies
    of scenes/, schema/, docs/, tests/golden/ and scripts/ (nothing an
    example writes can reach the repository), scripts/run.sh running the
    program under test instead of building one."""
    root = tempfile.mkdtemp(prefix="vx_doc_")
    for name in ("scenes", "schema", "docs", "scripts", os.path.join("tests", "golden")):
        shutil.copytree(os.path.join(source, name), os.path.join(root, name), symlinks=True)
    run_sh = os.path.join(root, "scripts", "run.sh")
    with open(run_sh, "w") as f:
        f.write('#!/bin/sh\nexec "$VOLTEX_SIM" "$@"\n')
    os.chmod(run_sh, 0o755)
    return root


def environment(root):
    env = {key: value for key, value in os.environ.items() if key.startswith("VOLTEX_")}
    env.update(PATH=os.path.dirname(os.environ["VOLTEX_SIM"]) + ":/usr/bin:/bin", HOME=root, LC_ALL="C.UTF-8",
               MPLBACKEND="Agg", TMPDIR=root)
    return env


def run(command, root, stdin=None, shell=True):
    """(exit code, stdout and stderr together) of a command in the sandbox."""
    try:
        p = subprocess.run(command, shell=shell, cwd=root, env=environment(root), input=stdin, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=TIMEOUT,
                           executable="/bin/bash" if shell else None)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired:
        return -1, f"(did not end within {TIMEOUT} s)"


def matches(expected, actual):
    """Whether the actual lines are the expected ones, a line '...' standing
    for any lines (none too)."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and matches(expected[1:], actual[1:])


def transcript(block):
    """[(command, [expected lines])] of a block of `$ COMMAND` lines (a
    command may go on over lines that end in a backslash); None when the
    block does not start with one."""
    steps, lines, i = [], block.lines, 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("$ "):
            command = line[2:]
            while command.endswith("\\") and i + 1 < len(lines):
                i += 1
                command += "\n" + lines[i]
            steps.append((command, []))
        elif steps:
            steps[-1][1].append(line)
        else:
            return None
        i += 1
    return steps


def check_transcript(block, root, steps):
    vary = block.directive == "numbers vary"
    for command, expected in steps:
        code, output = run(command, root)
        actual = [line.rstrip() for line in output.rstrip("\n").split("\n")] if output else []
        wanted = [line.rstrip() for line in expected]
        if vary:
            actual = [NUMBER.sub("#", line) for line in actual]
            wanted = [NUMBER.sub("#", line) for line in wanted]
        if not matches(wanted, actual):
            return (f"$ {command}\n  expected:\n    " + "\n    ".join(expected) + "\n  got (exit " + str(code) +
                    "):\n    " + "\n    ".join(output.rstrip("\n").split("\n")))
    return None


def run_scene(text, root, name):
    """Loads a scene with voltex-sim (a few steps) and checks it with the
    JSON Schema; None or what went wrong."""
    path = os.path.join(root, name)
    with open(path, "w") as f:
        f.write(text)
    code, output = run(["voltex-sim", path, "--steps", "2", "-o", "/dev/null", "-q"], root, shell=False)
    if code != 0:
        return f"voltex-sim rejects it: {output}"
    from jsonschema import Draft202012Validator
    with open(os.path.join(root, "schema", "scene.schema.json")) as f:
        validator = Draft202012Validator(json.load(f))
    error = next(iter(validator.iter_errors(json.loads(text))), None)
    return f"the JSON Schema rejects it: {error.message[:200]}" if error else None


def run_c(source_text, root):
    path = os.path.join(root, "example.c")
    with open(path, "w") as f:
        f.write(source_text)
    env = os.environ
    code, output = run(f"{env['VOLTEX_CC']} -std=c11 {env['VOLTEX_CFLAGS']} example.c -o example {env['VOLTEX_LIBS']}"
                       " && ./example", root)
    return None if code == 0 else f"building or running it failed (exit {code}):\n{output}"


def check_block(block, root, source):
    """None when the block is fine, 'skip'/'text' for blocks not run, else
    what went wrong."""
    d = block.directive or ""
    if d.startswith("skip"):
        m = re.match(r"skip: (\S.*)$", d)
        return ("skip", m.group(1)) if m else "a skip without a reason (write skip: REASON)"
    if d.startswith("file "):
        name = d[5:].strip()
        with open(os.path.join(root, name), "w") as f:
            f.write(block.text)
        return run_scene(block.text, root, name) if block.info == "json" else None
    if d.startswith("is "):
        with open(os.path.join(source, d[3:].strip())) as f:
            return None if f.read() == block.text else f"differs from {d[3:].strip()}"
    if d.startswith("output of "):
        program = os.path.join(os.environ["VOLTEX_EXAMPLES_DIR"], d[10:].strip())
        code, output = run([program], root, shell=False)
        if code == 0 and matches(block.lines, output.rstrip("\n").split("\n")):
            return None
        return f"{program} printed (exit {code}):\n{output}"
    if d.startswith("c fragment in "):
        m = re.match(r"c fragment in (\S+) before (.+)$", d)
        if not m:
            return "write c fragment in FILE before TEXT"
        with open(os.path.join(source, m.group(1))) as f:
            program = f.read()
        at = program.find(m.group(2))
        if at < 0:
            return f"no {m.group(2)!r} in {m.group(1)}"
        at = program.rfind("\n", 0, at) + 1
        return run_c(program[:at] + block.text + program[at:], root)
    if d.startswith("schema only"):
        if not re.match(r"schema only: \S", d):
            return "write schema only: REASON"
        try:
            scene = json.loads("{" + block.text + "}")
        except ValueError as e:
            return f"not a JSON fragment: {e}"
        scene.setdefault("entities", [])
        from jsonschema import Draft202012Validator
        with open(os.path.join(root, "schema", "scene.schema.json")) as f:
            error = next(iter(Draft202012Validator(json.load(f)).iter_errors(scene)), None)
        return f"the JSON Schema rejects it: {error.message[:200]}" if error else None
    if d.startswith("in "):
        with open(os.path.join(source, d[3:].strip())) as f:
            scene = json.load(f)
        try:
            scene.update(json.loads("{" + block.text + "}"))
        except ValueError as e:
            return f"not a JSON fragment: {e}"
        return run_scene(json.dumps(scene), root, "fragment.json")
    lines = block.lines
    if d.startswith("without "):
        m = re.match(r"without (.+?): (\S.*)$", d)
        if not m:
            return "write without TEXT: REASON"
        lines = [line for line in lines if m.group(1) not in line]
    elif d and d != "numbers vary":
        return f"unknown directive {d!r}"

    if block.info in ("sh", "bash"):
        code, output = run("set -e -o pipefail\n" + "\n".join(lines) + "\n", root)
        return None if code == 0 else f"exit {code}:\n{output}"
    if block.info in ("", "console", "text"):
        steps = transcript(block) if block.info != "text" else None
        if not steps:
            return "text"
        return check_transcript(block, root, steps)
    if block.info == "python":
        code, output = run(["/usr/bin/python3", "-"], root, stdin=block.text, shell=False)
        return None if code == 0 else f"exit {code}:\n{output}"
    if block.info == "json":
        try:
            value = json.loads(block.text)
        except ValueError:
            return "a JSON block that is no JSON value: give it a directive (in SCENE, file NAME, skip: REASON)"
        if isinstance(value, dict) and "entities" in value:
            return run_scene(block.text, root, "scene.json")
        return "a JSON block that is no scene: give it a directive (file NAME, skip: REASON)"
    return f"a {block.info} block: give it a directive (is FILE, c fragment in FILE before TEXT, skip: REASON)"


def check_file(job):
    """[(where, status, detail)] of every block of one markdown file."""
    source, path = job
    with open(os.path.join(source, path)) as f:
        blocks = blocks_of(path, f.read())
    root = sandbox(source)
    results = []
    try:
        for block in blocks:
            outcome = check_block(block, root, source)
            if outcome is None:
                results.append((block.where, "ok", block.info or "transcript"))
            elif outcome == "text":
                results.append((block.where, "text", ""))
            elif isinstance(outcome, tuple):
                results.append((block.where, "skip", outcome[1]))
            else:
                results.append((block.where, "FAILED", outcome))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return results


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    source, files = argv[1], argv[2:]
    with multiprocessing.Pool(2) as pool:
        results = [r for rs in pool.map(check_file, [(source, f) for f in files]) for r in rs]
    for where, status, detail in results:
        if status == "ok":
            print(f"{where}: ok ({detail})")
        elif status == "skip":
            print(f"{where}: skipped: {detail}")
        elif status == "FAILED":
            print(f"{where}: FAILED: {detail}")
    count = {s: sum(1 for r in results if r[1] == s) for s in ("ok", "FAILED", "skip", "text")}
    print(f"doc_examples: {len(files)} files, {len(results)} code blocks: {count['ok']} run and passed, "
          f"{count['FAILED']} failed, {count['skip']} skipped for the reasons above, {count['text']} text "
          f"(not commands)")
    return 1 if count["FAILED"] or not count["ok"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
