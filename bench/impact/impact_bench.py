#!/usr/bin/env python3
"""Impact recall: introduce a bug into sampled functions of a Go module, run
its tests, and compare the tests that fail with those `agentos graph impact
--diff` names. Usage: AGENTOS=path LISTER=path impact_bench.py REPO_DIR MODULE_PATH SEED N"""
import json, os, random, subprocess, sys

repo, module, seed, want = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
agentos = os.environ.get("AGENTOS", "agentos")
env = dict(os.environ, GOFLAGS="-mod=mod", GOTOOLCHAIN="local")

def run(args, **kw):
    return subprocess.run(args, cwd=repo, capture_output=True, text=True, env=env, **kw)

def failing_tests():
    r = run(["go", "test", "-count=1", "-json", "./..."], timeout=300)
    failing, build_failed = set(), False
    for l in r.stdout.splitlines():
        try:
            ev = json.loads(l)
        except ValueError:
            continue
        if ev.get("Action") == "build-fail" or ("[build failed]" in ev.get("Output", "")):
            build_failed = True
        if ev.get("Action") == "fail" and ev.get("Test"):
            d = ev["Package"][len(module):].lstrip("/") or "."
            failing.add((d, ev["Test"].split("/")[0]))
    return failing, build_failed or "build failed" in r.stderr or "setup failed" in r.stdout

# Tests that fail before any change (the code base's own, e.g. ones that
# expect the module under GOPATH) are not the change's.
baseline, _ = failing_tests()
print(json.dumps({"baseline_failing": sorted(t for _, t in baseline)}), flush=True)
fns = [json.loads(l) for l in run([os.environ.get("LISTER", "lister"), repo]).stdout.splitlines()]
random.Random(seed).shuffle(fns)
kept, skipped_nofail, skipped_build = [], 0, 0
for f in fns:
    if len(kept) == want:
        break
    path = os.path.join(repo, f["file"])
    orig = open(path).read()
    lines = orig.split("\n")
    i, col = f["open"] - 1, f["open_col"]
    line = lines[i]
    # col is 1-based byte column of "{"
    lines[i] = line[:col] + " if impactBug := true; impactBug { " + f["ret"] + " };" + line[col:]
    open(path, "w").write("\n".join(lines))
    try:
        failing, build_failed = failing_tests()
        failing -= baseline
        if build_failed:
            skipped_build += 1
            continue
        if not failing:
            skipped_nofail += 1
            continue
        im = run([agentos, "graph", "impact", "--diff", "--json", "-n", "50"])
        out = json.loads(im.stdout)["impact"]
        named = set()
        for t in out["tests"]:
            d = os.path.dirname(t["path"]) or "."
            named.add((d, t["symbol"].split(".")[-1]))
        changed = [c["symbol"] for c in out["changed"]]
        hit = failing & named
        kept.append({"fn": (f["recv"] + "." if f["recv"] else "") + f["name"], "file": f["file"], "changed": changed,
                     "failing": len(failing), "found": len(hit), "named": len(named),
                     "missed": sorted(t for _, t in failing - named)[:5]})
        print(json.dumps(kept[-1]), flush=True)
    finally:
        open(path, "w").write(orig)
tf = sum(k["failing"] for k in kept)
tfound = sum(k["found"] for k in kept)
print(json.dumps({"changes": len(kept), "failing_tests": tf, "found": tfound,
                  "recall_pooled": round(tfound / tf, 3) if tf else None,
                  "recall_mean": round(sum(k["found"] / k["failing"] for k in kept) / len(kept), 3) if kept else None,
                  "named_mean": round(sum(k["named"] for k in kept) / len(kept), 1) if kept else None,
                  "named_median": sorted(k["named"] for k in kept)[len(kept) // 2] if kept else None,
                  "skipped_no_failing_test": skipped_nofail, "skipped_not_compiling": skipped_build}))
