# t/json-undocumented.py DOC JSON... - the keys of the JSON documents
# that DOC (doc/json.md) names nowhere as `key`, sorted, on one line ("" when every
# key is named).  Used by t/0520 (the tool's documents) and t/0700 (the
# markers' document): the keys come from the documents, the names from the
# DOC, neither from the code under test.  Metric names tma_* count as
# named only where DOC names each one too.  A name may hold "."
# and "-" (event names as keys: `TOPDOWN.SLOTS`, `topdown-retiring`).
import json
import re
import sys

named = set(re.findall(r"`([A-Za-z_][A-Za-z0-9_.-]*)`", open(sys.argv[1]).read()))
keys = set()


def walk(v):
    if isinstance(v, dict):
        for k, x in v.items():
            keys.add(k)
            walk(x)
    elif isinstance(v, list):
        for x in v:
            walk(x)


for path in sys.argv[2:]:
    walk(json.load(open(path)))
print(" ".join(sorted(keys - named)))
