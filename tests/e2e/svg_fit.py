#!/usr/bin/env python3
"""svg_fit.py FILE.html|FILE.svg ... — every <text> of every SVG lies inside its viewBox.

A text's extent is estimated conservatively (wider than DejaVu Sans and Arial draw it): each
character 0.62 of the font size wide (0.68 bold), ascent 0.8 and descent 0.25 of the size;
text-anchor start, middle or end; a transform of translate(X Y) and rotate(-90) as the reports
write them for vertical titles. Prints one line per text that does not fit and exits 1, else 0.
"""
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def extent(el, size):
    text = "".join(el.itertext())
    per = 0.68 if el.get("font-weight") == "bold" else 0.62
    return text, len(text) * size * per


def bbox(el, inherited_size):
    size = float(el.get("font-size", inherited_size))
    text, width = extent(el, size)
    anchor = el.get("text-anchor", "start")
    start = {"start": 0.0, "middle": -width / 2, "end": -width}[anchor]
    x, y = float(el.get("x", 0)), float(el.get("y", 0))
    t = el.get("transform", "")
    m = re.match(r"translate\(\s*([-\d.]+)[ ,]+([-\d.]+)\s*\)\s*(rotate\(\s*-90\s*\))?", t)
    if m:
        tx, ty, rotated = float(m.group(1)), float(m.group(2)), bool(m.group(3))
        if rotated:  # along the text: up the page from ty; across it: x - ascent .. x + descent
            return text, (tx + x - 0.8 * size, ty - (x + start + width),
                          tx + x + 0.25 * size, ty - (x + start))
        x, y = x + tx, y + ty
    return text, (x + start, y - 0.8 * size, x + start + width, y + 0.25 * size)


def check_svg(svg, where):
    root = ET.fromstring(svg)
    vb = [float(v) for v in root.get("viewBox").split()]
    left, top, right, bottom = vb[0], vb[1], vb[0] + vb[2], vb[1] + vb[3]
    bad = []
    for el in root.iter(NS + "text"):
        text, (x0, y0, x1, y1) = bbox(el, 16)
        if x0 < left - 0.5 or y0 < top - 0.5 or x1 > right + 0.5 or y1 > bottom + 0.5:
            bad.append(f"{where}: '{text}' spans x {x0:.0f}..{x1:.0f}, y {y0:.0f}..{y1:.0f}: "
                       f"outside the viewBox {left:.0f} {top:.0f} {right:.0f} {bottom:.0f}")
    return bad


def main():
    bad = []
    for path in sys.argv[1:]:
        content = open(path, encoding="utf-8").read()
        for i, svg in enumerate(re.findall(r"<svg.*?</svg>", content, re.S)):
            bad += check_svg(svg, f"{path} svg {i + 1}")
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
