"""Prints the callers jedi finds for every module-level function and class
method of a Python tree, in the form scripts/refparse/ts-calls.mjs prints
TypeScript's:

    {"targets": [{"path": "pkg/a.py", "name": "Class.method", "line": 12, "kind": "method"}, ...],
     "calls":   [{"to": 0, "path": "app.py", "line": 40}, ...]}

    python3 scripts/refparse/py-calls.py ROOT

A caller is a reference jedi finds (Script.get_references, the tree ROOT as
its project) to the function's name, outside the definition, that is
called: the name is followed by "(". A name imported (from a import f) is a
reference, not a call. Needs jedi (pip install jedi).
"""

import ast
import json
import os
import sys

import jedi


def main(root):
    root = os.path.abspath(root)
    project = jedi.Project(root, added_sys_path=[root], smart_sys_path=False)
    files = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "__pycache__")
        for f in sorted(filenames):
            if f.endswith(".py"):
                files.append(os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/"))
    files.sort()
    targets = []
    for rel in files:
        with open(os.path.join(root, rel), encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                targets.append((rel, node.name, node, "func"))
            elif isinstance(node, ast.ClassDef):
                for m in node.body:
                    if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        targets.append((rel, node.name + "." + m.name, m, "method"))
    out_targets, calls = [], []
    sources = {}
    for i, (rel, name, node, kind) in enumerate(targets):
        path = os.path.join(root, rel)
        if rel not in sources:
            with open(path, encoding="utf-8") as fh:
                sources[rel] = fh.read().splitlines()
        lines = sources[rel]
        # The name's column on the def line.
        text = lines[node.lineno - 1]
        col = text.index("def ") + 4
        out_targets.append({"path": rel, "name": name, "line": node.lineno, "kind": kind})
        script = jedi.Script(path=path, project=project)
        seen = set()
        for ref in script.get_references(node.lineno, col, scope="project"):
            if ref.module_path is None or ref.is_definition():
                continue
            rrel = os.path.relpath(str(ref.module_path), root).replace(os.sep, "/")
            if rrel not in sources:
                with open(os.path.join(root, rrel), encoding="utf-8") as fh:
                    sources[rrel] = fh.read().splitlines()
            after = sources[rrel][ref.line - 1][ref.column + len(ref.name):].lstrip()
            if not after.startswith("("):
                continue
            key = (rrel, ref.line)
            if key not in seen:
                seen.add(key)
                calls.append({"to": i, "path": rrel, "line": ref.line})
    calls.sort(key=lambda c: (c["to"], c["path"], c["line"]))
    sys.stdout.write('{"targets": [\n' + ",\n".join("  " + json.dumps(t, separators=(",", ":")) for t in out_targets) +
                     '\n], "calls": [\n' + ",\n".join("  " + json.dumps(c, separators=(",", ":")) for c in calls) + "\n]}\n")


if __name__ == "__main__":
    main(sys.argv[1])
