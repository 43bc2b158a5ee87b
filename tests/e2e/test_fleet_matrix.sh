#!/usr/bin/env bash
# test_fleet_matrix.sh — `smtbench fleet` over matrix folders (issue 20), on SYNTHETIC folders
# with known cells (tests/e2e/matrix_synth.py; run folders from fleet_synth.py): matrix folders
# are pooled cell by cell per CPU model and placement, apart from run folders in the same
# directory; the node that deviates in one cell is named for that cell only; an incomplete or
# damaged matrix folder is skipped with what to do; the --json contract (matrix_groups); the
# files of --out: fleet.md's tables, fleet.json equal to --json, fleet.html's heat maps as SVG.
source "$(dirname "$0")/lib.sh"
msynth() { python3 "$SMTBENCH_ROOT/tests/e2e/matrix_synth.py" "$@"; }
rsynth() { python3 "$SMTBENCH_ROOT/tests/e2e/fleet_synth.py" "$@"; }

f=$t_tmp/fleet
# CPU A, siblings: nop beside nop 1.8x on five nodes, 1.3x on node6 (the deviant, in that cell
# only); nop beside mul-latency 1.02x everywhere; mul-latency unhurt.
for i in 1 2 3 4 5; do
	msynth "$f/a/node$i" "node$i" --ratio nop:nop=1.8 --ratio nop:mul-latency=1.02 --seed "$i"
done
msynth "$f/a/node6" node6 --ratio nop:nop=1.3 --ratio nop:mul-latency=1.02 --seed 6
# CPU B, non-sibling: two nodes, nothing slower.
for i in 1 2; do msynth "$f/b/x$i" "x$i" --cpu "Other CPU (test data)" --placement non-sibling --seed "1$i"; done
# Run folders in the same directory: pooled as runs, apart.
rsynth "$f/runs/r1" r1 --sibling --seed 1
rsynth "$f/runs/r2" r2 --sibling --seed 2
# Unusable matrix folders.
msynth "$f/bad/interrupted" h --status interrupted
msynth "$f/bad/torn" h
printf '999,99,0,sibling,0,a,2,nop,ok,0,,0.1' >>"$f/bad/torn/samples.csv"

check_status 0 "fleet over 8 matrix folders, 2 run folders and 2 unusable ones" \
	"$SMTBENCH" fleet "$f" --out "$t_tmp/report"
text=$t_out
check "the first line counts runs and matrices apart" contains "$text" \
	"smtbench fleet: 2 nodes in 1 group; 8 matrix folders in 2 matrix groups; 2 folders skipped"
check "matrix group 1: CPU A's six nodes on siblings" contains "$text" \
	"Matrix group 1: Synthetic CPU 9000 (test data), SMT on, 2 kernels on sibling (6 nodes)"
check "matrix group 2: CPU B's two nodes on non-sibling" contains "$text" \
	"Matrix group 2: Other CPU (test data), SMT on, 2 kernels on non-sibling (2 nodes)"
check "node6 is named as deviating in nop beside nop, with what to check" contains "$text" \
	"nop beside nop: node6 ($f/a/node6) deviates: 1.30× (95% CI"
check "... and in no other cell" eval '(($(grep -c "deviates:" <<<"$text") == 1))'
check "group 2 (two nodes) is not judged for deviation" contains "$text" \
	"Nodes that deviate: not judged (a cell needs 3 or more nodes with a settled answer)"
check "the run folders are still a run group" contains "$text" \
	"Group 1: Synthetic CPU 9000 (test data), SMT on, workload nop, sibling vs non-sibling (2 nodes)"
check "an interrupted matrix is skipped: continue it with matrix --resume" contains "$text" \
	"$f/bad/interrupted: incomplete: its matrix is interrupted (72 trials done, from samples.csv); continue it with smtbench matrix --resume $f/bad/interrupted"
check "a torn samples.csv is skipped, naming the line and matrix --resume" eval \
	'grep -q "$f/bad/torn: samples.csv is damaged or cut short (1 line(s) unreadable; the first: .*continue it with smtbench matrix --resume, or rerun it" <<<"$text"'

check_status 0 "fleet --json" "$SMTBENCH" fleet "$f" --json
printf '%s\n' "$t_out" >"$t_tmp/stdout.json"
check "the --json contract: matrix_groups beside groups and skipped" python3 - "$t_tmp/stdout.json" "$f" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); root = sys.argv[2]
assert set(j) >= {"groups", "skipped", "tool", "version", "matrix_groups"}, j.keys()
assert len(j["groups"]) == 1 and len(j["groups"][0]["hosts"]) == 2, j["groups"]
a, b = j["matrix_groups"]
for g in (a, b):
    assert set(g) >= {"cpu_model", "smt", "placement", "workloads", "kernels", "nodes", "cells"}, g.keys()
    assert g["kernels"] == ["nop", "mul-latency"] and g["workloads"] == "kernels", g["kernels"]
    assert len(g["cells"]) == 4, len(g["cells"])
    for c in g["cells"]:
        assert set(c) >= {"victim", "aggressor", "verdict", "pooled", "nodes", "outliers",
                          "outliers_judged"}, c.keys()
        for n in c["nodes"]:
            assert set(n) >= {"dir", "host", "n", "ratio_mean", "ratio_ci", "verdict", "pooled",
                              "outlier", "others_predict_ci"}, n.keys()
assert a["placement"] == "sibling" and len(a["nodes"]) == 6, (a["placement"], a["nodes"])
assert b["placement"] == "non-sibling" and len(b["nodes"]) == 2
cells = {(c["victim"], c["aggressor"]): c for c in a["cells"]}
nn = cells[("nop", "nop")]
assert nn["verdict"] == "slower" and nn["pooled"]["nodes"] == 6, nn["pooled"]
assert 1.4 < nn["pooled"]["ratio_mean"] < 1.9, nn["pooled"]["ratio_mean"]
assert nn["outliers"] == [root + "/a/node6"] and nn["outliers_judged"], nn["outliers"]
nm = cells[("nop", "mul-latency")]
assert nm["verdict"] == "slower" and 1.01 < nm["pooled"]["ratio_ci"][0] and nm["pooled"]["ratio_ci"][1] < 1.04, nm["pooled"]
assert all(c["outliers"] == [] for k, c in cells.items() if k != ("nop", "nop"))
# mul-latency is slowed by neither (1.00, noise 1%, 6 nodes): practically the same within the
# default 5%, and its own pair the one safe to share (nop + mul-latency has nop's 1.02 "slower").
assert all(c["verdict"] == "practically the same" for k, c in cells.items() if k[0] == "mul-latency")
assert a["safe_pairs"] == [["mul-latency", "mul-latency"]], a["safe_pairs"]
sl = a["safe_list"]
assert set(sl) >= {"probability", "target", "covers", "candidates", "pairs_considered", "pairs"}, sl
assert sl["pairs_considered"] == 3 and sl["target"] == 0.95 and sl["probability"] >= 0.95, sl
assert a["safe_slowdown_pct"] == 5, a["safe_slowdown_pct"]
assert all(c["safe"] == (k == ("mul-latency", "mul-latency")) for k, c in cells.items())
assert all((c["p_safe"] is None) == (c["verdict"] not in ("practically the same", "faster"))
           for c in a["cells"])
assert all(c["outliers_judged"] is False and c["outliers"] == [] for c in b["cells"])
assert all(c["pooled"]["nodes"] == 2 for c in b["cells"]), [c["pooled"] for c in b["cells"]]
skipped = {s["dir"]: s["reason"] for s in j["skipped"]}
assert set(skipped) == {root + "/bad/interrupted", root + "/bad/torn"}, skipped
PY

check "fleet.json is --json's output" cmp -s "$t_tmp/stdout.json" "$t_tmp/report/fleet.json"
check "fleet.md has each matrix group's pooled table" eval \
	'grep -q "^## Matrix group 1: Synthetic CPU 9000" "$t_tmp/report/fleet.md" && grep -q "^| \`nop\` | 1\.[0-9]*× (" "$t_tmp/report/fleet.md"'
check "fleet.html: the forest plot and one heat map per matrix group, each parsed as SVG" python3 - \
	"$t_tmp/report/fleet.html" <<'PY'
import re, sys, xml.etree.ElementTree as ET
html = open(sys.argv[1]).read()
svgs = re.findall(r"<svg.*?</svg>", html, re.S)
assert len(svgs) == 3, len(svgs)
titles = []
for s in svgs:
    root = ET.fromstring(s)
    titles.append(root.find("{http://www.w3.org/2000/svg}title").text)
assert titles[1].startswith("Matrix group 1: Synthetic CPU 9000 (test data), kernels on sibling, pooled over 6 nodes"), titles
assert titles[2].startswith("Matrix group 2: Other CPU (test data)"), titles
# group 2's cells have no verdict: hatched; group 1's nop beside nop is coloured and printed
assert svgs[2].count('class="undecided"') == 4 and svgs[1].count('class="undecided"') == 0
assert re.search(r"<li>nop beside nop: node6 \([^)]*/a/node6\) deviates: ", html)
PY

# A workload named with '|' (samples.csv's names are not otherwise limited) stays inside its
# cell of fleet.md's table.
msynth "$t_tmp/pipe/n1" n1 --kernels 'nop,x|y' --seed 9
check_status 0 "fleet over a matrix with a workload named x|y" "$SMTBENCH" fleet "$t_tmp/pipe" --out "$t_tmp/pipe-report"
check "... fleet.md writes it \\| in the table" eval \
	'grep -qF "| victim \\\\ aggressor | \`nop\` | \`x\\|y\` |" "$t_tmp/pipe-report/fleet.md"'

# A directory of matrix folders alone: usable (before, every one was skipped as mixing workloads).
check_status 0 "fleet over matrix folders alone" "$SMTBENCH" fleet "$f/a"
check "... says so on its first line" contains "$t_out" "smtbench fleet: 6 matrix folders in 1 matrix group; 0 folders skipped"

# One node: no cell can be pooled, and each says how many of its nodes were settled and how many
# pooling needs (it said "n/a (0 nodes)", counting only pooled nodes, under "(1 node)").
msynth "$t_tmp/one/only" only --seed 1
check_status 0 "fleet over a single matrix folder" "$SMTBENCH" fleet "$t_tmp/one"
check "... each cell says 1 of 1 node settled and that pooling needs 2" eval \
	'(($(grep -o "n/a (1 of 1 node settled; pooling needs 2) ?" <<<"$t_out" | wc -l) == 4))'

done_testing
