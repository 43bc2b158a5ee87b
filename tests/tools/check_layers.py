#!/usr/bin/env python3
"""The layers' include rules (docs/DESIGN.md, "Layers"), checked on every #include "..." of the C sources.

usage: check_layers.py [ROOT]

Includes go one way: common <- topology <- runner <- cli and common <- analysis <- report <-
fleet <- cli. A header called internal.h is its folder's private one: only that folder includes
it. Prints one line per include that breaks a rule, "FILE:LINE: what is wrong", and exits 1 if
there was any; exits 0 with a count when all are right.
"""
import os
import re
import sys

# Each layer and what it may include besides itself: the one place these rules are written.
MAY_INCLUDE = {
    "common": set(),
    "topology": {"common"},
    "runner": {"common", "topology"},
    "analysis": {"common"},
    "report": {"common", "analysis"},
    "fleet": {"common", "analysis", "report"},
    "cli": {"common", "topology", "runner", "analysis", "report", "fleet"},
}
PRIVATE = "internal.h"
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def problems(root):
    """(problems, includes checked): each problem is "path:line: why"."""
    found, checked = [], 0
    for layer in sorted(MAY_INCLUDE):
        folder = os.path.join(root, layer)
        if not os.path.isdir(folder):
            found.append(f"{layer}/: the layer's folder is missing")
            continue
        for name in sorted(os.listdir(folder)):
            if not name.endswith((".c", ".h")):
                continue
            path = f"{layer}/{name}"
            with open(os.path.join(folder, name), errors="replace") as f:
                for line_no, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    checked += 1
                    why = judge(layer, m.group(1))
                    if why:
                        found.append(f"{path}:{line_no}: {why}")
    return found, checked


def judge(layer, target):
    """Why `#include "target"` in layer breaks a rule, or None."""
    parts = target.split("/")
    if len(parts) != 2:
        return f'"{target}": include a layer\'s header as "LAYER/NAME.h"'
    to, header = parts
    if to not in MAY_INCLUDE:
        return f'"{target}": {to}/ is not a layer (there are: {", ".join(sorted(MAY_INCLUDE))})'
    if to != layer and to not in MAY_INCLUDE[layer]:
        allowed = ", ".join(sorted(MAY_INCLUDE[layer])) or "no other layer"
        return (f'"{target}": {layer}/ may not include {to}/ (includes go one way; {layer}/ '
                f"may include {allowed})")
    if to != layer and header == PRIVATE:
        return f'"{target}": {to}/{PRIVATE} is private to {to}/; use its public header'
    return None


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    found, checked = problems(root)
    for line in found:
        print(line)
    if found:
        print(f"{len(found)} include(s) against the layers, of {checked}", file=sys.stderr)
        return 1
    print(f"{checked} includes follow the layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
