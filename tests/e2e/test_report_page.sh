#!/usr/bin/env bash
# test_report_page.sh — the report pages as a browser shows them (issue 28 item 5): every text
# of every SVG on the run, matrix and fleet pages lies inside its viewBox (tests/e2e/svg_fit.py
# estimates text extents on the wide side), and, where chromium is installed, the matrix and run
# pages are drawn 1280 and 390 px wide into build/test-output/test_report_page/PAGE-WIDTH/
# (screenshot.png to look at, not committed) and measured: the document is no wider than its
# window.
# A headless chromium window is never narrower than 500 px, so the 390 px page is shown in a
# frame exactly that wide (tests/e2e/page_probe.py).
source "$(dirname "$0")/lib.sh"
fix=$SMTBENCH_ROOT/tests/fixtures/folders
shots=$SMTBENCH_ROOT/build/test-output/test_report_page
mkdir -p "$shots"
fit() { python3 "$SMTBENCH_ROOT/tests/e2e/svg_fit.py" "$@"; }

for folder in run matrix beside one-process; do
	check_status 0 "report of the $folder fixture" "$SMTBENCH" report "$fix/$folder" --out "$t_tmp/$folder"
	check "... every SVG text of its page inside its viewBox (axis titles, legends, the heat map)" \
		fit "$t_tmp/$folder/report.html"
done
check_status 0 "fleet over the fleet fixtures" "$SMTBENCH" fleet "$fix/fleet" --out "$t_tmp/fleet"
check "... fleet.html's forest plot and heat maps inside their viewBoxes" fit "$t_tmp/fleet/fleet.html"

# One framing of the ratio: the comparisons table's answer column says what the headline says.
check "the run page's table frames the headline's ratio as the answer does (1.19× faster)" python3 - \
	"$t_tmp/run/report.json" "$t_tmp/run/report.md" <<'PY'
import json, re, sys
j = json.load(open(sys.argv[1])); md = open(sys.argv[2]).read()
head = j["headline"]["sentence"]
m = re.search(r"([0-9.]+)× (faster|slower) than \S+ \(95% CI ([0-9.]+)–([0-9.]+)\)", head)
assert m, head
row = f"| {m.group(1)}× {m.group(2)} ({m.group(3)}–{m.group(4)}) |"
assert row in md, (row, [l for l in md.splitlines() if l.startswith("| non-sibling")])
PY
check "negative bounds read with minus signs and 'to': −0.0100 to −0.00431" \
	grep -qF -- "−0.0100 to −0.00431" "$t_tmp/run/report.md"
check "no interval with an ASCII hyphen before a bound in the page's text" eval \
	'! grep -qE "(^|[ (|])-[0-9.]+(e-[0-9]+)? to " "$t_tmp/run/report.md"'
check "How to read this describes the paired design that answered" eval \
	'grep -A2 "^## How to read this" "$t_tmp/run/report.md" | grep -q "^Paired by block: each block ran every placement once"'
check_status 0 "report of the seed example (unpaired: no block numbers)" "$SMTBENCH" report \
	"$SMTBENCH_ROOT/results/seed-example" --out "$t_tmp/seed"
check "... How to read this describes the unpaired model, and only it" eval \
	'grep -A2 "^## How to read this" "$t_tmp/seed/report.md" | grep -q "^Unpaired: each placement" && ! grep -q "^Paired by block" "$t_tmp/seed/report.md"'

if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null; then
	skip "chromium is not installed: the pages were not drawn or measured"
else
	for page in matrix run; do
		for width in 1280 390; do
			# The page in a frame exactly $width px wide (page_probe.py), drawn by
			# tests/browser/render.sh: screenshot.png, and dom.html with the width as laid out.
			# 8000 px high: the whole page, its figures at the end included, at either width.
			out=$shots/$page-$width
			rm -rf "$out"
			python3 "$SMTBENCH_ROOT/tests/e2e/page_probe.py" "$t_tmp/$page/report.html" "$width" \
				"$t_tmp/$page/probe-$width.html"
			bash "$SMTBENCH_ROOT/tests/browser/render.sh" "$t_tmp/$page/probe-$width.html" "$out" \
				"$((width < 480 ? 500 : width + 20))" 8000
			check "$page page drawn at $width px: $out/screenshot.png" eval \
				'read -r w h frac colours < <(python3 "$SMTBENCH_ROOT/tests/browser/png_check.py" "$out/screenshot.png") && awk -v f="$frac" "BEGIN { exit !(f > 0.01) }"'
			scroll=$(grep -o 'data-scroll-width="[0-9]*"' "$out/dom.html" | grep -o '[0-9]*')
			client=$(grep -o 'data-client-width="[0-9]*"' "$out/dom.html" | grep -o '[0-9]*')
			check "$page page at $width px: no wider than its window (${scroll:-?} of ${client:-?} px)" \
				test -n "$scroll" -a -n "$client" -a "${scroll:-1}" -le "${client:-0}"
			tall=$(grep -o 'data-scroll-height="[0-9]*"' "$out/dom.html" | grep -o '[0-9]*')
			check "$page page at $width px: the screenshot holds all of it (${tall:-?} of 8000 px)" \
				test -n "$tall" -a "${tall:-8001}" -le 8000
		done
	done
fi

done_testing
