#!/usr/bin/env python3
"""Print the declarations Python's own parser finds, as the reference for
agentos's Python chunker.

Usage: py-decls.py ROOT [FILE...]  (FILEs relative to ROOT; default: every
.py file under ROOT). Prints JSON: {"path": [{"name", "kind", "line"}]}.

Declarations, by the chunker's rules: functions, async functions and
classes at module level, in class bodies and in if/try/with/for/while/match
blocks outside functions (nested functions belong to their function);
methods and nested classes qualified by their classes ("Outer.Inner.method");
module-level assignments with a simple name target, annotated assignments
and `type X = ...` aliases. Consecutive `@overload` definitions of a name
and the implementation after them are one declaration, at the first one's
line. "line" is the def/class line (not the first decorator's) or the
assignment's first line. Files that do not parse are left out.
"""
import ast
import json
import os
import re
import sys

UPPER = re.compile(r"^[A-Z0-9_]*[A-Z][A-Z0-9_]*$")


def blocks(node):
    """Bodies of a compound statement that is not a definition."""
    for field in ("body", "orelse", "finalbody"):
        yield from getattr(node, field, []) or []
    for h in getattr(node, "handlers", []) or []:
        yield from h.body
    for c in getattr(node, "cases", []) or []:
        yield from c.body


def is_overload(fn):
    """Whether a function is decorated with typing's @overload."""
    for d in fn.decorator_list:
        if isinstance(d, ast.Name) and d.id == "overload":
            return True
        if isinstance(d, ast.Attribute) and d.attr == "overload":
            return True
    return False


def walk(stmts, prefix, top, out):
    overloaded = None  # the name the last statement declared as an overload
    for n in stmts:
        after_overload, overloaded = overloaded, None
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            kind = "method" if prefix else "func"
            if is_overload(n):
                overloaded = prefix + n.name
            if after_overload != prefix + n.name:
                out.append({"name": prefix + n.name, "kind": kind, "line": n.lineno})
        elif isinstance(n, ast.ClassDef):
            out.append({"name": prefix + n.name, "kind": "type", "line": n.lineno})
            walk(n.body, prefix + n.name + ".", False, out)
        elif top and isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name):
            name = n.targets[0].id
            out.append({"name": name, "kind": "const" if UPPER.match(name) else "var", "line": n.lineno})
        elif top and isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
            name = n.target.id
            out.append({"name": name, "kind": "const" if UPPER.match(name) else "var", "line": n.lineno})
        elif top and hasattr(ast, "TypeAlias") and isinstance(n, ast.TypeAlias):
            out.append({"name": n.name.id, "kind": "type", "line": n.lineno})
        else:
            walk(list(blocks(n)), prefix, False, out)


def main():
    root = sys.argv[1]
    files = sys.argv[2:]
    if not files:
        for d, dirs, names in os.walk(root):
            dirs[:] = sorted(x for x in dirs if not x.startswith("."))
            files += [os.path.relpath(os.path.join(d, f), root) for f in sorted(names) if f.endswith(".py")]
    result = {}
    for f in files:
        try:
            with open(os.path.join(root, f), "rb") as fh:
                tree = ast.parse(fh.read(), f)
        except (SyntaxError, ValueError):
            continue
        out = []
        walk(tree.body, "", True, out)
        result[f.replace(os.sep, "/")] = out
    json.dump(result, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
