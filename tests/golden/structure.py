#!/usr/bin/env python3
"""structure.py SRC DEST — every HTML page and SVG under SRC as the golden test compares it,
written to the same relative path under DEST (plus ".txt"): one line per element (its depth,
tag, id and class), one per text (blanks folded), in document order.
Coordinates, sizes and colours (the other attributes), and the style sheet's text, are left out:
a renderer may move or restyle a thing without changing what a person reads; what is there, its
headings, ids and words may not."""
import os
import sys
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class Structure(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.lines = []
        self.skip = 0  # inside <style> or <script>: how it looks, not what it says

    def element(self, tag, attrs, closes):
        a = dict(attrs)
        line = "  " * self.depth + "<" + tag
        if a.get("id"):
            line += " #" + a["id"]
        if a.get("class"):
            line += " ." + ".".join(a["class"].split())
        self.lines.append(line + ">")
        if not closes and tag not in VOID:
            self.depth += 1

    def handle_starttag(self, tag, attrs):
        self.skip += tag in ("style", "script")
        self.element(tag, attrs, False)

    def handle_startendtag(self, tag, attrs):
        self.element(tag, attrs, True)

    def handle_endtag(self, tag):
        self.skip -= tag in ("style", "script")
        if tag not in VOID:
            self.depth = max(0, self.depth - 1)

    def handle_data(self, data):
        text = " ".join(data.split())
        if text and not self.skip:
            self.lines.append("  " * self.depth + "'" + text + "'")


def structure(path):
    parser = Structure()
    with open(path, encoding="utf-8") as f:
        parser.feed(f.read())
    parser.close()
    return "\n".join(parser.lines) + "\n"


def main():
    src, dest = sys.argv[1], sys.argv[2]
    for folder, _, files in os.walk(src):
        for name in files:
            if not name.endswith((".html", ".svg")):
                continue
            path = os.path.join(folder, name)
            target = os.path.join(dest, os.path.relpath(path, src) + ".txt")
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w", encoding="utf-8") as f:
                f.write(structure(path))


if __name__ == "__main__":
    main()
