#!/usr/bin/env python3
"""t/data/vendor-events.py - how t/data/vendor-events.tsv was made.

Documentation of the extract, not part of the tests: they read only the
TSV (t/1040-vendor-events.c, t/1042-recipe-constraints.c).  Run again when
a recipe gains an event, or to refresh the extract from newer vendor files:

  t/data/vendor-events.py --tool _b/baretma --perfmon PERFMON \\
      --linux LINUX --linux-commits COMMITS > t/data/vendor-events.tsv

  --tool     a built baretma: `baretma decode --recipes` names every event of
             every recipe (NAME:VARIANT and its "events:" line)
  --perfmon  a git checkout of github.com/intel/perfmon; its HEAD commit is
             written in each row
  --linux    a directory holding Linux's tools/perf/pmu-events/arch/x86/
             amdzen4 and amdzen5 JSON files under their paths in the kernel
             tree (the files, or the records of the events used, copied
             verbatim)
  --linux-commits  lines "PATH<TAB>REPOSITORY<TAB>COMMIT" (tab-separated):
             the commit each file was read at, and the repository if it is
             not torvalds/linux (written in the TSV's header)

One row per (model, event) for each event of the recipe variants below on
each model of the variant (the format: the TSV's header).  A recipe event
"EVENT:cN" (a counter mask the recipe adds, as TMA_Metrics-full.csv writes
it) is the vendor's EVENT.  The PERF_METRICS pseudo-events (topdown-*) are
in no vendor event file (Linux arch/x86/events/intel/core.c defines them):
they are left out.
"""
import argparse
import json
import os
import re
import subprocess
import sys

# recipe NAME:VARIANT -> the vendor files of the models it serves (Intel:
# perfmon MODEL/events/FILE; AMD: the pmu-events directory).  The models are
# the ones whose core microarchitecture the variant names in .uarchs (the
# recipe's sources cite most of them); t/1040's table is the one the tests use.
MODELS = {
    'intel-perf-metrics:sunny-cove': ['ICL', 'ICX', 'TGL', 'RKL'],
    'intel-perf-metrics:golden-cove': ['ADL-GLC', 'SPR', 'MTL-RWC', 'LNL-LNC'],
    'intel-pre-icl-l1:skylake': ['SKL', 'SKX', 'CLX'],
    'intel-pre-icl-l1:broadwell': ['BDW', 'BDX'],
    'intel-pre-icl-l1:haswell': ['HSW', 'HSX'],
    'intel-pre-icl-l1:ivybridge': ['IVB', 'IVT'],
    'intel-pre-icl-l1:sandybridge': ['SNB', 'JKT'],
    'intel-icl-events:sunny-cove': ['ICL', 'ICX', 'TGL', 'RKL'],
    'intel-icl-events:golden-cove': ['ADL-GLC', 'SPR', 'MTL-RWC'],
    'intel-ecore-l1:gracemont': ['ADL-GRT'],
    'intel-ecore-l1:crestmont': ['MTL-CMT', 'SRF'],
    'intel-ecore-l1:skymont': ['LNL-SKT', 'CWF'],
    'intel-ecore-l1:skymont-gp': ['LNL-SKT', 'CWF'],
    'intel-ecore-l1:tremont': ['EHL', 'SNR'],
    'amd-zen4:zen4': ['amdzen4'],
    'amd-zen5:zen5': ['amdzen5'],
}

# model key -> (model column, perfmon file); hybrid parts name the core's file
PERFMON = {
    'SKL': 'SKL/events/skylake_core.json', 'SKX': 'SKX/events/skylakex_core.json',
    'CLX': 'CLX/events/cascadelakex_core.json', 'BDW': 'BDW/events/broadwell_core.json',
    'BDX': 'BDX/events/broadwellx_core.json', 'HSW': 'HSW/events/haswell_core.json',
    'HSX': 'HSX/events/haswellx_core.json', 'IVB': 'IVB/events/ivybridge_core.json',
    'IVT': 'IVT/events/ivytown_core.json', 'SNB': 'SNB/events/sandybridge_core.json',
    'JKT': 'JKT/events/Jaketown_core.json', 'ICL': 'ICL/events/icelake_core.json',
    'ICX': 'ICX/events/icelakex_core.json', 'TGL': 'TGL/events/tigerlake_core.json',
    'RKL': 'RKL/events/rocketlake_core.json',
    'SPR': 'SPR/events/sapphirerapids_core.json',
    'ADL-GLC': 'ADL/events/alderlake_goldencove_core.json',
    'ADL-GRT': 'ADL/events/alderlake_gracemont_core.json',
    'MTL-RWC': 'MTL/events/meteorlake_redwoodcove_core.json',
    'MTL-CMT': 'MTL/events/meteorlake_crestmont_core.json',
    'LNL-LNC': 'LNL/events/lunarlake_lioncove_core.json',
    'LNL-SKT': 'LNL/events/lunarlake_skymont_core.json',
    'SRF': 'SRF/events/sierraforest_core.json', 'CWF': 'CWF/events/clearwaterforest_core.json',
    'EHL': 'EHL/events/elkhartlake_core.json', 'SNR': 'SNR/events/snowridgex_core.json',
}

AMD = {
    'amdzen4': ['core.json', 'other.json', 'branch.json'],
    'amdzen5': ['load-store.json', 'decode.json', 'execution.json', 'branch-prediction.json'],
}
AMD_DIR = 'tools/perf/pmu-events/arch/x86/'

FIELDS = ['EventCode', 'UMask', 'CounterMask', 'Invert', 'EdgeDetect', 'AnyThread',
          'Counter', 'CounterHTOff']


def recipes(tool):
    """{NAME:VARIANT: [event, ...]} from `baretma decode --recipes`."""
    out = subprocess.run([tool, 'decode', '--recipes'], check=True, capture_output=True,
                         text=True).stdout
    res, cur = {}, None
    for line in out.splitlines():
        m = re.match(r'^(\S+:\S+)\s', line)
        if m:
            cur = m.group(1)
        elif line.startswith('  events: ') and cur:
            res[cur] = line[len('  events: '):].split()
    return res


def base_name(ev):
    """EVENT:cN -> EVENT (the counter mask is the recipe's)."""
    return re.sub(r':c\d+$', '', ev)


def field(rec, k):
    v = rec.get(k)
    if v is None or v == '':
        return '-'
    return str(v).strip()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--tool', required=True)
    ap.add_argument('--perfmon', required=True)
    ap.add_argument('--linux', required=True)
    ap.add_argument('--linux-commits', required=True)
    a = ap.parse_args()
    pm_commit = subprocess.run(['git', '-C', a.perfmon, 'rev-parse', 'HEAD'], check=True,
                               capture_output=True, text=True).stdout.strip()
    lx = {}
    for line in open(a.linux_commits):
        if line.strip() and not line.startswith('#'):
            path, repo, commit = line.rstrip('\n').split('\t')
            lx[path] = (repo, commit)

    def perfmon_file(f):
        blob = subprocess.run(['git', '-C', a.perfmon, 'show', 'HEAD:' + f], check=True,
                              capture_output=True, text=True).stdout
        return json.loads(blob)['Events']

    files = {}  # model key -> [(model, file, commit, {name: record})]
    for key, f in PERFMON.items():
        files[key] = [(key.split('-')[0], f, pm_commit,
                       {e['EventName']: e for e in perfmon_file(f)})]
    for key, names in AMD.items():
        files[key] = []
        for n in names:
            path = AMD_DIR + key + '/' + n
            with open(os.path.join(a.linux, path)) as fh:
                files[key].append((key, path, lx[path][1],
                                   {e['EventName']: e for e in json.load(fh)}))

    rows, missing = {}, []
    for rv, events in recipes(a.tool).items():
        for key in MODELS.get(rv, []):
            for ev in events:
                if ev.startswith('topdown-'):
                    continue  # PERF_METRICS pseudo-events: no vendor file has them
                name = base_name(ev)
                hit = [(m, f, c, recs[name]) for m, f, c, recs in files[key] if name in recs]
                if not hit:
                    missing.append('%s %s %s' % (rv, key, ev))
                    continue
                m, f, c, rec = hit[0]
                rows[(m, f, name)] = [m, f, c, name] + [field(rec, k) for k in FIELDS]
    w = sys.stdout.write
    w('# t/data/vendor-events.tsv - the vendors\' event data for every event of every\n'
      '# recipe (msr/recipe/recipes_intel*.c, msr/recipe/recipes_amd.c), one row per (model, event),\n'
      '# written by t/data/vendor-events.py (its header says how to run it).\n'
      '# Intel: github.com/intel/perfmon MODEL/events/*_core.json (the E-core file of a\n'
      '# hybrid part: ADL/events/alderlake_gracemont_core.json ...).  AMD: Linux\n'
      '# tools/perf/pmu-events/arch/x86/amdzen4|amdzen5/*.json of github.com/torvalds/linux')
    others = sorted({(p, r, c) for p, (r, c) in lx.items() if r != 'torvalds/linux'})
    for p, r, c in others:
        w(',\n# but %s, read from %s (a copy of torvalds/linux) at %s' % (p, r, c))
    w('.\n# The PERF_METRICS pseudo-events (topdown-*) are in no vendor file: t/1040 checks them\n'
      '# against Linux arch/x86/include/asm/perf_event.h INTEL_TD_METRIC_*.\n'
      '# Columns (tab-separated; "-": the vendor gives no such field):\n'
      '#model\tfile\tcommit\tEventName\t' + '\t'.join(FIELDS) + '\n')
    for k in sorted(rows):
        w('\t'.join(rows[k]) + '\n')
    for m in missing:
        sys.stderr.write('vendor-events.py: no vendor event for %s\n' % m)
    return 1 if missing else 0


if __name__ == '__main__':
    sys.exit(main())
