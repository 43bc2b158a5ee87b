#!/usr/bin/env python3
"""page_probe.py REPORT.html WIDTH OUT.html — a page that shows REPORT.html in a frame exactly WIDTH
px wide and 8000 px high (a headless browser's window is never narrower than 500 px, so a phone's
390 px width needs a frame), and once it has loaded writes the framed document's size as laid
out, data-scroll-width, data-client-width and data-scroll-height on its <body>, for
`chromium --dump-dom` to print. The
frame's srcdoc keeps it on the page's origin, so the script may read it."""
import html
import sys

report, width, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
height = 8000  # tests/e2e/test_report_page.sh draws the window as high
page = open(report, encoding="utf-8").read()
open(out, "w", encoding="utf-8").write(f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><style>body{{margin:0}}iframe{{border:0;display:block}}</style></head>
<body><iframe id="page" width="{width}" height="{height}" srcdoc="{html.escape(page, quote=True)}"></iframe>
<script>
document.getElementById("page").addEventListener("load", function () {{
  var d = this.contentDocument.documentElement;
  document.body.setAttribute("data-scroll-width", d.scrollWidth);
  document.body.setAttribute("data-client-width", d.clientWidth);
  document.body.setAttribute("data-scroll-height", d.scrollHeight);
}});
</script></body></html>
""")
