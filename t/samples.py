#!/usr/bin/env python3
# t/samples.py - the sample outputs of README.md and doc/*.md, made by the
# commands they show (t/1115-samples.sh checks them, `make samples` writes
# them).
#
#   samples.py check TOP BARETMA      compare every sample with a fresh run
#   samples.py write TOP BARETMA      replace every sample by a fresh run
#   samples.py list TOP               one line per sample: FILE:LINE COMMAND
#   samples.py blocks TOP             the fenced blocks that are neither a
#                                     sample nor input (see below), if any
#
# A sample is a fenced block preceded by the line
#
#   <!-- sample: COMMAND -->
#
# where COMMAND is one line of the nearest fenced block above it that is
# no sample (the command the reader is shown, a shell block).  COMMAND runs with sh in a
# scratch directory laid out as a built checkout (./baretma, examples/), in
# an environment without the caller's BARETMA_* variables and with a
# private BARETMA_STATE_DIR (the default dry-run directory holds other
# runs' calibrations); its standard output is the sample, its exit status
# must be 0.  The profiles samples run on are deterministic
# (doc/simulator.md, "Deterministic profiles"), so what a run prints
# differs from another's only where the clock enters, and only that is
# masked before the comparison (mask() below): TSC ticks and the TSC's
# frequency, the microseconds of a cost, the slots (the simulator's work
# is CLOCK_MONOTONIC x ghz) and the bounds that follow the slots, the
# seconds counted and the timer's drift, the sign of a difference of 0,
# and, in machine-readable outputs, digits past the tenth (sums of reals
# in another order).  Everything else must be byte for byte the same.
#
# Every other fenced block must say what it is by its info string: a
# command or program (sh, c, cpp), a file the reader writes (ini, text
# with a "<!-- input -->" line before it), or a result a test cannot
# reproduce because it is a timing ("<!-- measured: WHERE -->" before it,
# naming the machine and the program).  A bare ``` block is an error: an
# unmarked output would drift.
import os
import re
import shutil
import subprocess
import sys
import tempfile

MARK = re.compile(r"^<!-- sample: (.*) -->$")
OTHER = re.compile(r"^<!-- (input|measured: .*) -->$")
INPUT_LANGS = {"sh", "c", "cpp", "ini", "json", "csv", "text"}


def documents(top):
    files = ["README.md"]
    d = os.path.join(top, "doc")
    files += sorted("doc/" + f for f in os.listdir(d) if f.endswith(".md"))
    return files


def blocks(text):
    """(start line index of the fence, info, lines, index of the line
    before the fence) for every fenced block."""
    lines = text.split("\n")
    out, i = [], 0
    while i < len(lines):
        m = re.match(r"^```(\S*)\s*$", lines[i])
        if m:
            j = i + 1
            while j < len(lines) and lines[j] != "```":
                j += 1
            out.append((i, m.group(1), lines[i + 1:j], j))
            i = j + 1
        else:
            i += 1
    return lines, out


def samples(top):
    """(file, fence line, command, expected lines, (start, end)) of each."""
    res = []
    for f in documents(top):
        text = open(os.path.join(top, f), encoding="utf-8").read()
        lines, bl = blocks(text)
        shown = []
        for i, info, body, end in bl:
            prev = lines[i - 1] if i > 0 else ""
            m = MARK.match(prev)
            if not m:
                shown = body
                continue
            cmd = m.group(1)
            res.append((f, i + 1, cmd, body, (i + 1, end), [l.lstrip("$ ") for l in shown]))
    return res


def unclassified(top):
    bad = []
    for f in documents(top):
        lines, bl = blocks(open(os.path.join(top, f), encoding="utf-8").read())
        for i, info, body, end in bl:
            prev = lines[i - 1] if i > 0 else ""
            if MARK.match(prev):
                continue
            if info in ("sh", "c", "cpp", "ini"):
                continue
            if info and OTHER.match(prev):
                continue
            bad.append("%s:%d: ```%s without <!-- sample: ... -->, <!-- input --> or <!-- measured: ... -->"
                       % (f, i + 1, info))
    return bad


def run(top, baretma, cmd):
    d = tempfile.mkdtemp(prefix="baretma-sample.")
    try:
        os.symlink(os.path.abspath(baretma), os.path.join(d, "baretma"))
        os.symlink(os.path.join(os.path.abspath(top), "examples"), os.path.join(d, "examples"))
        os.mkdir(os.path.join(d, "state"), 0o700)
        env = {k: v for k, v in os.environ.items()
               if not k.startswith("BARETMA_") and not k.startswith("HWLOC_")}
        env["BARETMA_STATE_DIR"] = os.path.join(d, "state")
        env["LC_ALL"] = "C"
        p = subprocess.run(["sh", "-c", cmd], cwd=d, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=120)
        out = p.stdout.decode("utf-8", "replace").split("\n")
        if out and out[-1] == "":
            out.pop()
        return p.returncode, out, p.stderr.decode("utf-8", "replace")
    finally:
        shutil.rmtree(d, ignore_errors=True)


NUM = r"[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?"


def sig10(s):
    """a number as 10 significant digits (machine-readable outputs)"""
    def one(m):
        t = m.group(0)
        if re.fullmatch(r"[-+]?\d+", t):
            return t
        v = float(t)
        return "%.10g" % (0.0 if abs(v) < 1e-12 else v)
    return re.sub(NUM, one, s)


def mask(lines):
    """the lines of an output with what the clock decides replaced by '#'"""
    out, table = [], None
    for l in lines:
        # --- text headers and notes -------------------------------------
        l = re.sub(r"TSC \d+\.\d+ GHz", "TSC # GHz", l)
        l = re.sub(r"\b\d+ TSC ticks", "# TSC ticks", l)
        l = re.sub(r"\(\d+\.\d+ us", "(# us", l)
        l = re.sub(r"memory binding [a-z ]+", "memory binding #", l)
        l = re.sub(r"^( *)\d+\.\d+ seconds counted", r"\1# seconds counted", l)
        l = re.sub(r"timer drift median [\d.]+ us, max [\d.]+ us", "timer drift median # us, max # us", l)
        l = re.sub(r"(median TSC ticks\): )(.*)", lambda m: m.group(1) + re.sub(r"\d+", "#", m.group(2)), l)
        w = l.split()
        # --- tables, by their header --------------------------------------
        if w[:2] == ["kernel", "reps"]:
            table = "time"
        elif w[:3] == ["kernel", "slots", "+/-pp"]:
            table = "topdown"
        elif w[:4] == ["node", "%", "slots", "+/-"]:
            table = "stat"
        elif w[:3] == ["#", "time", "cpus"]:
            table = "interval"
        elif w[:3] == ["kernel", "metric", "raw"]:
            table = "compare"
        elif not w:
            table = None
        elif table == "time" and len(w) >= 3:
            l = " ".join(w[:2] + ["#"] * (len(w) - 2))
        elif table == "topdown" and len(w) >= 3:
            l = " ".join([w[0], "#", "#"] + w[3:])
        elif table == "stat" and w[0] == "SLOTS":
            l = "SLOTS #"
        elif table == "stat" and w[0].startswith("tma_") and len(w) == 4:
            l = " ".join(w[:2] + ["#", "#"])
        elif table == "interval" and re.fullmatch(r"\d+\.\d+", w[0]):
            # time cpus kind node [% slots, +/-] slots, as perf stat -I: the
            # time and the slots are the clock's, the shares the profile's
            l = " ".join(["#"] + w[1:-1] + ["#"])
        elif table == "compare" and len(w) >= 9:
            # kernel metric raw perf diff [ lo, hi] allow p_holm verdict...
            m = re.match(r"(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+\S+\s+\[\s*\S+,\s*\S+\]\s+\S+\s+(.*)$", l)
            if m:
                l = " ".join(m.group(1, 2, 3, 4)) + " # [#,#] # " + " ".join(m.group(5).split())
        # --- OpenMetrics --------------------------------------------------
        m = re.match(r"^(baretma_\w+)(\{[^}]*\})? (\S+)$", l)
        if m:
            name, labels, v = m.group(1), m.group(2) or "", m.group(3)
            if name in ("baretma_slots", "baretma_tsc_ticks", "baretma_tma_bound_ratio"):
                v = "#"
            l = name + labels + " " + sig10(v)
        # --- CSV: cpu,kind,recipe,backend,time,kernel,level,quantity,unit,value,bound_pp,n,...
        if l.count(",") >= 18 and not l.startswith("cpu,"):
            f = l.split(",")
            f[4] = "#" if f[4] else ""
            if f[8] in ("ticks", "slots"):
                f[9:11] = ["#" if x else "" for x in f[9:11]]
                f[12:] = ["#" if x else "" for x in f[12:]]
            else:
                f[10] = "#" if f[10] else ""
                f = [sig10(x) for x in f]
                f[16] = "#" if f[16] else ""  # mad: 0 or a rounding's 1e-15
            l = ",".join(f)
        out.append(l.rstrip())
    return out


def main():
    mode, top = sys.argv[1], sys.argv[2]
    if mode == "blocks":
        for b in unclassified(top):
            print(b)
        return 0
    all_ = samples(top)
    if mode == "list":
        for f, n, cmd, body, span, shown in all_:
            print("%s:%d %s" % (f, n, cmd))
        return 0
    baretma = sys.argv[3]
    status = 0
    edits = {}
    for f, n, cmd, body, span, shown in all_:
        name = "%s:%d" % (f, n)
        if cmd not in shown:
            print("not ok %s: '%s' is not a line of the block above it (the command shown)" % (name, cmd))
            status = 1
            continue
        rc, out, err = run(top, baretma, cmd)
        if rc != 0:
            print("not ok %s: '%s' exited %d: %s" % (name, cmd, rc, err.strip()[-300:]))
            status = 1
            continue
        if mode == "write":
            edits.setdefault(f, []).append((span, out))
            continue
        want, got = mask(body), mask(out)
        if want == got:
            print("ok %s: %s (%d lines)" % (name, cmd, len(body)))
        else:
            status = 1
            print("not ok %s: %s: the sample differs from a fresh run (masked):" % (name, cmd))
            import difflib
            for d in difflib.unified_diff(want, got, "sample", "run", lineterm="", n=1):
                print("#   " + d)
    for f, es in edits.items():
        path = os.path.join(top, f)
        lines = open(path, encoding="utf-8").read().split("\n")
        for (a, b), out in sorted(es, reverse=True):
            lines[a:b] = out
        open(path, "w", encoding="utf-8").write("\n".join(lines))
        print("wrote %s: %d samples" % (f, len(es)))
    return status


if __name__ == "__main__":
    sys.exit(main())
