#!/usr/bin/env python3
"""validate_schema.py SCHEMA.json DOC.json [DOC.json ...]

A small JSON Schema (draft 2020-12) validator, Python standard library only, for the keywords
gotcha's schemas use: type (a name or a list), properties, required, additionalProperties (bool
or schema), items, maxItems, enum, const, minimum, maximum, minLength, pattern, $ref to "#/$defs/NAME", and
the annotations $schema, $id, $defs, title, description. Any other keyword is an error rather than
silently ignored, so a schema cannot claim more than this checks.

Exit status: 0 every document is valid, 1 a document is invalid (each problem printed as
"DOC: /json/pointer: message"), 2 usage error or unreadable/unsupported schema.
"""
import json
import re
import sys

ANNOTATIONS = {"$schema", "$id", "$defs", "title", "description", "$comment", "examples"}
SUPPORTED = ANNOTATIONS | {"type", "properties", "required", "additionalProperties", "items",
                           "maxItems", "enum", "const", "minimum", "maximum", "minLength", "pattern", "$ref"}


class SchemaError(Exception):
    pass


def type_ok(value, name):
    if name == "null":
        return value is None
    if name == "boolean":
        return isinstance(value, bool)
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if name == "string":
        return isinstance(value, str)
    if name == "array":
        return isinstance(value, list)
    if name == "object":
        return isinstance(value, dict)
    raise SchemaError("unknown type %r" % name)


def resolve(root, ref):
    if not ref.startswith("#/$defs/"):
        raise SchemaError("unsupported $ref %r (only #/$defs/NAME)" % ref)
    name = ref[len("#/$defs/"):]
    try:
        return root["$defs"][name]
    except KeyError:
        raise SchemaError("unresolved $ref %r" % ref)


def validate(root, schema, value, path, errors):
    if schema is True:
        return
    if schema is False:
        errors.append("%s: no value allowed here" % (path or "/"))
        return
    if not isinstance(schema, dict):
        raise SchemaError("schema at %s is not an object" % path)
    unknown = set(schema) - SUPPORTED
    if unknown:
        raise SchemaError("unsupported keyword(s) %s" % ", ".join(sorted(unknown)))
    where = path or "/"
    if "$ref" in schema:
        validate(root, resolve(root, schema["$ref"]), value, path, errors)
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(type_ok(value, n) for n in names):
            errors.append("%s: expected %s, got %s" % (where, "/".join(names), json.dumps(value)[:60]))
            return
    if "enum" in schema and value not in schema["enum"]:
        errors.append("%s: %s not one of %s" % (where, json.dumps(value)[:60], schema["enum"]))
    if "const" in schema and value != schema["const"]:
        errors.append("%s: expected %s" % (where, json.dumps(schema["const"])))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append("%s: %s < minimum %s" % (where, value, schema["minimum"]))
        if "maximum" in schema and value > schema["maximum"]:
            errors.append("%s: %s > maximum %s" % (where, value, schema["maximum"]))
    if isinstance(value, str):
        if "minLength" in schema and len(value) < schema["minLength"]:
            errors.append("%s: shorter than %d" % (where, schema["minLength"]))
        if "pattern" in schema and not re.search(schema["pattern"], value):
            errors.append("%s: %s does not match %s" % (where, json.dumps(value)[:60], schema["pattern"]))
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value:
                errors.append("%s: missing required %r" % (where, key))
        extra = schema.get("additionalProperties", True)
        for key, sub in value.items():
            child = "%s/%s" % (path, key.replace("~", "~0").replace("/", "~1"))
            if key in props:
                validate(root, props[key], sub, child, errors)
            else:
                validate(root, extra, sub, child, errors)
    if isinstance(value, list) and "maxItems" in schema and len(value) > schema["maxItems"]:
        errors.append("%s: more than %d items" % (where, schema["maxItems"]))
    if isinstance(value, list) and "items" in schema:
        for i, sub in enumerate(value):
            validate(root, schema["items"], sub, "%s/%d" % (path, i), errors)


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            schema = json.load(f)
    except (OSError, ValueError) as e:
        print("%s: %s" % (argv[1], e), file=sys.stderr)
        return 2
    status = 0
    for doc_path in argv[2:]:
        try:
            with open(doc_path, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print("%s: %s" % (doc_path, e))
            status = 1
            continue
        errors = []
        try:
            validate(schema, schema, doc, "", errors)
        except SchemaError as e:
            print("%s: schema: %s" % (argv[1], e), file=sys.stderr)
            return 2
        for err in errors:
            print("%s: %s" % (doc_path, err))
        if errors:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
