#!/usr/bin/env python3
# t/openmetrics-parse.py FILE [--json] - a line-by-line check of FILE
# against the Prometheus text exposition format 0.0.4
# (https://prometheus.io/docs/instrumenting/exposition_formats/, "Text
# format details"), written from the spec, not from baretma's writer:
#   - every line is "# HELP name docstring", "# TYPE name type", another
#     comment ("# ..."), or a sample "name{label="value",...} value";
#     no blank line, no timestamp (node_exporter's textfile collector
#     refuses them), the file ends in a line feed;
#   - metric names match [a-zA-Z_:][a-zA-Z0-9_:]*, label names
#     [a-zA-Z_][a-zA-Z0-9_]* and do not start with "__" (reserved);
#   - a label value is in double quotes, with \\, \" and \n its only
#     escapes; a HELP docstring escapes only \\ and \n;
#   - values are Go ParseFloat forms or NaN, +Inf, -Inf;
#   - each family has one HELP and one TYPE, both before its first sample,
#     and all its samples in one group; no series (name and label set)
#     twice; a label name once per sample.
# Exit 0 and, with --json, the samples as a JSON list of {"name",
# "labels", "value"}; else exit 1 and one line per error "LINE: what".
import json
import math
import re
import sys

NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
LABEL = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")
FLOAT = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
TYPES = {"counter", "gauge", "histogram", "summary", "untyped"}


class Bad(Exception):
    pass


def value(s):
    if s in ("NaN", "+Inf", "-Inf", "Inf"):
        return float(s.replace("Inf", "inf").replace("NaN", "nan"))
    if not FLOAT.match(s):
        raise Bad("value %r is not a float" % s)
    return float(s)


def labels(s, i):
    """Parse {a="x",...} at s[i] == '{'; return (dict, index after '}')."""
    out = {}
    i += 1
    while True:
        if s[i:i + 1] == "}":
            return out, i + 1
        m = LABEL.match(s, i)
        if not m:
            raise Bad("bad label name at column %d" % (i + 1))
        name = m.group(0)
        if name.startswith("__"):
            raise Bad("reserved label name %s" % name)
        if name in out:
            raise Bad("label %s twice" % name)
        i = m.end()
        if s[i:i + 2] != '="':
            raise Bad('label %s: no =" after it' % name)
        i += 2
        v = []
        while True:
            if i >= len(s):
                raise Bad("label %s: unterminated value" % name)
            c = s[i]
            if c == "\\":
                e = s[i + 1:i + 2]
                if e not in ("\\", '"', "n"):
                    raise Bad("label %s: bad escape \\%s" % (name, e))
                v.append("\n" if e == "n" else e)
                i += 2
            elif c == '"':
                i += 1
                break
            else:
                v.append(c)
                i += 1
        out[name] = "".join(v)
        if s[i:i + 1] == ",":
            i += 1
        elif s[i:i + 1] != "}":
            raise Bad("label %s: neither ',' nor '}' after its value" % name)


def check(text):
    errors, samples = [], []
    help_, type_, done, series = {}, {}, set(), set()
    current = None
    if text and not text.endswith("\n"):
        errors.append("end: no line feed after the last line")
    for n, line in enumerate(text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"), 1):
        try:
            if line.startswith("#"):
                parts = line.split(" ", 3)
                if len(parts) >= 3 and parts[1] in ("HELP", "TYPE"):
                    kind, name = parts[1], parts[2]
                    if not NAME.fullmatch(name):
                        raise Bad("bad metric name %r" % name)
                    seen = help_ if kind == "HELP" else type_
                    if name in seen:
                        raise Bad("second %s for %s" % (kind, name))
                    if name in done or name == current:
                        raise Bad("%s for %s after its samples" % (kind, name))
                    rest = parts[3] if len(parts) > 3 else ""
                    if kind == "TYPE" and rest not in TYPES:
                        raise Bad("bad type %r" % rest)
                    if kind == "HELP" and re.search(r"\\[^\\n]", rest.replace("\\\\", "")):
                        raise Bad("HELP of %s: an escape other than \\\\ and \\n" % name)
                    seen[name] = rest
                continue
            if not line:
                raise Bad("a blank line")
            m = NAME.match(line)
            if not m:
                raise Bad("not a comment and no metric name")
            name, i = m.group(0), m.end()
            lab = {}
            if line[i:i + 1] == "{":
                lab, i = labels(line, i)
            if line[i:i + 1] != " ":
                raise Bad("no space before the value")
            fields = line[i + 1:].split(" ")
            if len(fields) != 1:
                raise Bad("a timestamp or more after the value")
            v = value(fields[0])
            if name != current:
                if name in done:
                    raise Bad("samples of %s not in one group" % name)
                if current:
                    done.add(current)
                current = name
            if name not in help_ or name not in type_:
                raise Bad("sample of %s before its HELP and TYPE" % name)
            key = (name, tuple(sorted(lab.items())))
            if key in series:
                raise Bad("series %s%s twice" % (name, lab))
            series.add(key)
            samples.append({"name": name, "labels": lab,
                            "value": None if math.isnan(v) else v})
        except Bad as e:
            errors.append("%d: %s" % (n, e))
    return errors, samples


def main():
    text = open(sys.argv[1], encoding="utf-8").read()
    errors, samples = check(text)
    for e in errors:
        print("%s:%s" % (sys.argv[1], e))
    if errors:
        sys.exit(1)
    if "--json" in sys.argv[2:]:
        print(json.dumps(samples))


if __name__ == "__main__":
    main()
