#!/usr/bin/env python3
"""Validates JSON files against a JSON Schema (draft 2020-12), for tests/e2e/test_results_schema.sh
and tests/unit/report/results_schema_test.cpp.

  check_schema.py SCHEMA FILE...            exit 0 if every FILE is valid, else 1 (each
                                            problem printed as "FILE: json.path: message")
  check_schema.py --invalid SCHEMA FILE...  exit 0 if every FILE is rejected (its first
                                            problem printed), else 1 naming the file accepted

The schema itself is checked against the draft's metaschema first (exit 2 if it is not a valid
schema). Needs the jsonschema module (Debian python3-jsonschema, installed by make setup).
"""
import json
import sys

import jsonschema


def path_of(error):
    out = ""
    for part in error.absolute_path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(document)"


def most_relevant(error):
    """The error inside a oneOf/anyOf that says what is wrong, rather than "not valid under any
    of the given schemas": the deepest in the document, and of those one that is not a type
    mismatch (for "null or an object", the object's problem, not "is not of type 'null'")."""
    while error.context:
        error = max(error.context, key=lambda e: (len(e.absolute_path), e.validator != "type"))
    return error


def main(argv):
    expect_invalid = bool(argv) and argv[0] == "--invalid"
    if expect_invalid:
        argv = argv[1:]
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[0]) as f:
        schema = json.load(f)
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as e:
        print(f"{argv[0]}: not a valid draft 2020-12 schema: {e.message}", file=sys.stderr)
        return 2
    validator = jsonschema.Draft202012Validator(schema)
    ok = True
    for name in argv[1:]:
        with open(name) as f:
            document = json.load(f)
        errors = sorted((most_relevant(e) for e in validator.iter_errors(document)),
                        key=lambda e: list(map(str, e.absolute_path)))
        if expect_invalid:
            if errors:
                print(f"{name}: rejected: {path_of(errors[0])}: {errors[0].message}")
            else:
                print(f"{name}: accepted, but the schema should reject it", file=sys.stderr)
                ok = False
        else:
            for e in errors:
                print(f"{name}: {path_of(e)}: {e.message}", file=sys.stderr)
            ok = ok and not errors
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
