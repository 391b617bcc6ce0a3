#!/usr/bin/env python3
# t/openmetrics-parse.py FILE [--json] - a line-by-line check of FILE
# against both formats --openmetrics promises (bench/output/fmt_openmetrics.c),
# written from their specs, not from baretma's writer:
#
# the Prometheus text exposition format 0.0.4, which node_exporter's
# textfile collector parses (https://prometheus.io/docs/instrumenting/
# exposition_formats/, "Text format details"):
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
#     twice; a label name once per sample;
#
# and OpenMetrics 1.0, the option's name (OpenObservability/OpenMetrics
# specification/OpenMetrics.md):
#   - "Expositions MUST end with EOF": the last line is "# EOF", and it is
#     the only one; "Aside from this metadata and the EOF line ... MUST NOT
#     expose lines beginning with a #": every other comment is a TYPE,
#     UNIT or HELP line, at most one of each per family, before its
#     samples, in the order TYPE, UNIT, HELP ("SHOULD");
#   - a type is one of OpenMetrics' (a gauge's samples carry no suffix);
#   - "If a unit is specified ... an underscore and the unit MUST be the
#     suffix of the MetricFamily name";
#   - label names and family names do not begin with "_" and family names
#     hold no ":" (reserved).
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
OM_TYPES = {"unknown", "gauge", "counter", "stateset", "info", "histogram", "gaugehistogram",
            "summary"}


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


def check_om(text):
    """OpenMetrics 1.0's rules beyond the text format's (the top of the file)."""
    errors = []
    lines = text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")
    if not lines or lines[-1] != "# EOF":
        errors.append("end: the last line is not \"# EOF\"")
    meta, sampled = {}, set()
    order = {"TYPE": 0, "UNIT": 1, "HELP": 2}
    for n, line in enumerate(lines, 1):
        if line == "# EOF":
            if n != len(lines):
                errors.append("%d: \"# EOF\" before the end" % n)
            continue
        if line.startswith("#"):
            parts = line.split(" ", 3)
            if len(parts) < 3 or parts[0] != "#" or parts[1] not in order:
                errors.append("%d: a comment that is not TYPE, UNIT, HELP or EOF" % n)
                continue
            kind, name = parts[1], parts[2]
            rest = parts[3] if len(parts) > 3 else ""
            seen = meta.setdefault(name, [])
            if name in sampled:
                errors.append("%d: %s of %s after its samples" % (n, kind, name))
            if kind in seen:
                errors.append("%d: a second %s of %s" % (n, kind, name))
            if seen and order[seen[-1]] > order[kind]:
                errors.append("%d: %s of %s after %s (the order is TYPE, UNIT, HELP)"
                              % (n, kind, name, seen[-1]))
            seen.append(kind)
            if kind == "TYPE" and rest not in OM_TYPES:
                errors.append("%d: type %r is not OpenMetrics'" % (n, rest))
            if kind == "UNIT" and rest and not name.endswith("_" + rest):
                errors.append("%d: unit %r is not the suffix of %s" % (n, rest, name))
            if name.startswith("_") or ":" in name:
                errors.append("%d: family name %s reserved (a leading _ or a :)" % (n, name))
            continue
        m = NAME.match(line)
        if not m:
            continue  # the text format's check says what is wrong with it
        sampled.add(m.group(0))
        try:
            lab = labels(line, m.end())[0] if line[m.end():m.end() + 1] == "{" else {}
        except Bad:
            continue  # said by the text format's check
        for label in lab:
            if label.startswith("_"):
                errors.append("%d: label name %s reserved (a leading _)" % (n, label))
    return errors


def main():
    text = open(sys.argv[1], encoding="utf-8").read()
    errors, samples = check(text)
    errors += check_om(text)
    for e in errors:
        print("%s:%s" % (sys.argv[1], e))
    if errors:
        sys.exit(1)
    if "--json" in sys.argv[2:]:
        print(json.dumps(samples))


if __name__ == "__main__":
    main()
