#!/usr/bin/env python3
"""Checks the include graph against the layer table of docs/architecture.md ("Layers (each
depends only on those above it)"): every file of a layer's folder may include headers of its own
layer and of the layers above it in the table, never of one below. The table is the single
statement of the order; this script reads it, so the docs and the check cannot disagree.

    scripts/check_layers.py [ROOT]

Prints each offending include as FILE:LINE: LAYER includes HEADER of LAYER (below it) and exits
1; exits 0 with a one-line summary otherwise. Python 3 standard library only.
"""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "architecture.md")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SOURCES = (".h", ".cc", ".cu", ".def", ".inc")


def layers():
    """Folders of the layer table, in order."""
    out, inside = [], False
    with open(DOC, encoding="utf-8") as f:
        for line in f:
            if line.startswith("## "):
                inside = line.startswith("## Layers")
                continue
            m = re.match(r"\|\s*`([^`]+)`\s*\|", line) if inside else None
            if m:
                out.append(m.group(1).rstrip("/"))
    if not out:
        sys.exit(f"check_layers: no layer table under '## Layers' in {DOC}")
    return out


def layer_of(path, table):
    """Index of the deepest table folder holding `path` (relative to ROOT), or None."""
    best = None
    for i, folder in enumerate(table):
        if path == folder or path.startswith(folder + "/"):
            if best is None or len(folder) > len(table[best]):
                best = i
    return best


def resolve(inc, including):
    for base in (os.path.join(ROOT, "src"), ROOT, os.path.dirname(including)):
        p = os.path.normpath(os.path.join(base, inc))
        if os.path.isfile(p):
            return os.path.relpath(p, ROOT)
    return None


def main():
    table = layers()
    bad, files, edges = [], 0, 0
    for folder in table:
        top = os.path.join(ROOT, folder)
        for dirpath, _, names in os.walk(top):
            for name in sorted(names):
                if not name.endswith(SOURCES):
                    continue
                full = os.path.join(dirpath, name)
                rel = os.path.relpath(full, ROOT)
                mine = layer_of(rel, table)
                if mine is None or table[mine] != folder:
                    continue  # a deeper row owns it; it is checked there
                files += 1
                with open(full, encoding="utf-8", errors="replace") as f:
                    for n, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        target = resolve(m.group(1), full)
                        theirs = layer_of(target, table) if target else None
                        if theirs is None:
                            continue
                        edges += 1
                        if theirs > mine:
                            bad.append(f"{rel}:{n}: {table[mine]} includes {m.group(1)} of "
                                       f"{table[theirs]}, a layer below it")
    for b in bad:
        print(b)
    if bad:
        print(f"check_layers: {len(bad)} include(s) against the layer order of docs/architecture.md")
        return 1
    print(f"check_layers: OK: {files} files, {edges} includes between or within {len(table)} "
          f"layers, none reaches down the table")
    return 0


if __name__ == "__main__":
    sys.exit(main())
