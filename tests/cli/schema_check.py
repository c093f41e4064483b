#!/usr/bin/env python3
"""schema_check.py SCHEMA JSON...: validates each JSON document against a
schema of docs/schemas/ with the subset of JSON Schema (2020-12) they use:
type (incl. integer), const, enum, properties, required, items, oneOf, not,
minimum, additionalProperties, allOf, and local references ("$ref": "#/$defs/NAME"
into the schema's own "$defs"). Every object schema that lists properties
must describe each of them ("description"), so a schema documents what it
checks. Exits 1 naming the first violation's path.
When the python3-jsonschema package is installed, the schema itself and
every document are also checked with it (a second opinion)."""
import json
import sys

TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool))
    or (isinstance(v, float) and v.is_integer()),
}
KNOWN = {"$schema", "$id", "title", "description", "type", "const", "enum", "properties",
         "required", "items", "oneOf", "not", "minimum", "additionalProperties", "$defs", "$ref", "allOf"}
ROOT = {}


def resolve(s):
    while "$ref" in s:
        ref = s["$ref"]
        if not ref.startswith("#/$defs/"):
            raise SystemExit("schema_check: only local #/$defs/ references: %s" % ref)
        s = ROOT["$defs"][ref[len("#/$defs/"):]]
    return s


def undescribed(s, path):
    """Members of properties without a description (refs resolved)."""
    for k, sub in s.get("properties", {}).items():
        if "description" not in sub and "description" not in resolve(sub):
            yield "%s.%s" % (path, k)
        yield from undescribed(resolve(sub), "%s.%s" % (path, k))
        if "items" in resolve(sub):
            yield from undescribed(resolve(resolve(sub)["items"]), "%s.%s[]" % (path, k))
    for i, alt in enumerate(s.get("oneOf", [])):
        yield from undescribed(resolve(alt), "%s|%d" % (path, i))
    for name, d in s.get("$defs", {}).items():
        yield from undescribed(d, "$defs.%s" % name)


def errors(s, v, path):
    s = resolve(s)
    unknown = set(s) - KNOWN
    if unknown:
        yield "%s: schema keyword(s) %s not supported by this checker" % (path, sorted(unknown))
    if "type" in s:
        ts = s["type"] if isinstance(s["type"], list) else [s["type"]]
        if not any(TYPES[t](v) for t in ts):
            yield "%s: %r is not of type %s" % (path, v, "/".join(ts))
            return
    if "const" in s and v != s["const"]:
        yield "%s: %r is not %r" % (path, v, s["const"])
    if "enum" in s and v not in s["enum"]:
        yield "%s: %r is not one of %s" % (path, v, s["enum"])
    if "minimum" in s and TYPES["number"](v) and v < s["minimum"]:
        yield "%s: %r < %r" % (path, v, s["minimum"])
    if isinstance(v, dict):
        for k in s.get("required", []):
            if k not in v:
                yield "%s: required member '%s' missing" % (path, k)
        props = s.get("properties", {})
        for k, sub in props.items():
            if k in v:
                yield from errors(sub, v[k], "%s.%s" % (path, k))
        if s.get("additionalProperties") is False:
            for k in v:
                if k not in props:
                    yield "%s: member '%s' not in the schema" % (path, k)
    if isinstance(v, list) and "items" in s:
        for i, x in enumerate(v):
            yield from errors(s["items"], x, "%s[%d]" % (path, i))
    if "oneOf" in s:
        ok = [i for i, sub in enumerate(s["oneOf"]) if not list(errors(sub, v, path))]
        if len(ok) != 1:
            yield "%s: matches %d of the oneOf alternatives, not exactly one" % (path, len(ok))
    for sub in s.get("allOf", []):
        yield from errors(sub, v, path)
    if "not" in s and not list(errors(s["not"], v, path)):
        yield "%s: matches the 'not' schema" % path


def main():
    schema = json.load(open(sys.argv[1], encoding="utf-8"))
    ROOT.update(schema)
    missing = sorted(set(undescribed(schema, "$")))
    if missing:
        print("%s: properties without a description: %s" % (sys.argv[1], ", ".join(missing[:8])))
        sys.exit(1)
    try:
        import jsonschema  # optional second opinion
    except ImportError:
        jsonschema = None
    if jsonschema:
        jsonschema.Draft202012Validator.check_schema(schema)
    bad = 0
    for f in sys.argv[2:]:
        doc = json.load(open(f, encoding="utf-8"))
        for e in errors(schema, doc, "$"):
            print("%s: %s" % (f, e))
            bad = 1
            break
        if jsonschema:
            try:
                jsonschema.validate(doc, schema)
            except jsonschema.ValidationError as e:
                print("%s: jsonschema: %s" % (f, e.message))
                bad = 1
    sys.exit(bad)


if __name__ == "__main__":
    main()
