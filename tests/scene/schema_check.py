#!/usr/bin/python3
"""Checks the scene JSON Schema (schema/scene.schema.json) against the loader.

    schema_check.py SCHEMA SCENES_DIR CASES_DIR FIXTURE

- the schema is a valid draft 2020-12 schema;
- every scene under SCENES_DIR (the repository's scenes/) is valid;
- FIXTURE's "valid" scenes (the parts of the format the loader may not read
  yet: meshes, heightfields, compounds, joints) are valid and its "invalid"
  ones are not;
- every invalid-scene test case in CASES_DIR (NAME.json and NAME.message, the
  loader's message, written by tests/helpers/invalid_scene_record.h) is
  rejected by the schema too, unless its message is one of the rules listed
  in NOT_EXPRESSIBLE, each with the reason a schema cannot check it.
"""
import glob
import json
import multiprocessing
import os
import re
import sys

try:
    from jsonschema import Draft202012Validator
except ImportError:
    sys.exit("schema_check.py: needs the jsonschema module (Debian: apt-get install python3-jsonschema)")

# The loader's rules that a JSON Schema cannot state, as a pattern of the
# message, and why.
NOT_EXPRESSIBLE = [
    (r": duplicate key$", "a schema sees the parsed object, in which a repeated key is already gone"),
    (r": duplicate name \"", "names must differ across the items of an array: uniqueItems compares whole items"),
    (r": no shape named \"", "a collider's name must be one of the keys of \"shapes\": a schema cannot refer "
                             "from a value to the keys of another object"),
    (r": no entity named \"", "a query's entity names must be names of entities: a schema cannot refer from a "
                              "value to values elsewhere"),
    (r": gives a mass of .* out of range", "the mass is the density times the collider's volume: arithmetic"),
    (r": all points lie on one (plane|line)", "whether points span a volume is geometry"),
    (r": fewer than 4 distinct points", "whether points are distinct compares items by value with a tolerance"),
    (r": the same entity as a ", "a joint's a and b must differ: a schema cannot compare two values"),
    (r": neither a nor b is a dynamic body", "whether a joint's entity is a dynamic body is said by that entity, "
                                              "elsewhere in the scene"),
    (r": the anchors coincide", "whether two points coincide compares two values"),
    (r"must be \[min, max\] with 0 <= min <= max", "min <= max relates two numbers (the schema checks 0 <= min "
                                                   "and max > 0)"),
]


def inline_refs(schema):
    """The schema with every "$ref": "#/$defs/NAME" replaced by the
    definition (the same meaning: the refs are not recursive), which
    jsonschema validates several times faster."""
    defs = schema["$defs"]

    def inline(node):
        if isinstance(node, list):
            return [inline(item) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            target = inline(defs[node["$ref"].rsplit("/", 1)[1]])
            rest = {key: inline(value) for key, value in node.items() if key not in ("$ref", "description")}
            return {"allOf": [target], **rest} if rest else target
        return {key: inline(value) for key, value in node.items() if key != "$defs"}

    return inline(schema)


def first_error(validator, scene):
    return next(iter(sorted(validator.iter_errors(scene), key=lambda e: list(e.absolute_path))), None)


def check_scene(job):
    """(path, schema): a message when the schema rejects the scene at path."""
    path, schema = job
    with open(path) as f:
        scene = json.load(f)
    error = first_error(Draft202012Validator(schema), scene)
    if not error:
        return None
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return (f"{path}: {where or '(root)'}: the schema rejects a scene voltex-sim accepts: "
            f"{error.message[:300]}")


def main(argv):
    if len(argv) != 5:
        sys.exit(__doc__)
    schema_path, scenes_dir, cases_dir, fixture_path = argv[1:]
    with open(schema_path) as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    schema = inline_refs(schema)
    validator = Draft202012Validator(schema)

    # the big bench scenes take seconds each: two at a time
    scenes = sorted(glob.glob(os.path.join(scenes_dir, "**", "*.json"), recursive=True))
    with multiprocessing.Pool(2) as pool:
        failures = [f for f in pool.map(check_scene, [(path, schema) for path in scenes]) if f]

    with open(fixture_path) as f:
        fixture = json.load(f)
    for i, scene in enumerate(fixture["valid"]):
        error = next(iter(validator.iter_errors(scene)), None)
        if error:
            failures.append(f"{fixture_path}: valid[{i}]: rejected: {error.message[:300]}")
    for case in fixture["invalid"]:
        if validator.is_valid(case["scene"]):
            failures.append(f"{fixture_path}: the schema accepts {case['why']}")

    rejected, unexpressed = 0, {}
    cases = sorted(glob.glob(os.path.join(cases_dir, "*.json")))
    for path in cases:
        with open(path[:-len(".json")] + ".message") as f:
            message = f.read()
        with open(path, "rb") as f:
            text = f.read().decode("utf-8")
        if not validator.is_valid(json.loads(text)):
            rejected += 1
            continue
        reason = next((why for pattern, why in NOT_EXPRESSIBLE if re.search(pattern, message)), None)
        if reason is None:
            failures.append(f"the schema accepts a scene the loader rejects ({message}): {text[:300]}")
        else:
            unexpressed[reason] = unexpressed.get(reason, 0) + 1

    print(f"schema_check: {len(scenes)} scenes valid by the schema; {len(fixture['valid'])} valid and "
          f"{len(fixture['invalid'])} invalid scenes of {os.path.basename(fixture_path)} as they should be; "
          f"{len(cases)} invalid-scene test cases: "
          f"{rejected} rejected by the schema too, {sum(unexpressed.values())} by rules a schema cannot express:")
    for reason, count in sorted(unexpressed.items(), key=lambda item: -item[1]):
        print(f"  {count} x {reason}")
    for failure in failures:
        print("FAILED: " + failure)
    if not scenes or not cases:
        print("FAILED: no scenes or no invalid-scene cases were found")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
