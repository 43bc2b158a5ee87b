#!/usr/bin/env bash
# End to end: `smtbench fleet` over SYNTHETIC results folders (tests/e2e/fleet_synth.py writes
# them in the format `smtbench run` does, with known node effects): two groups, an injected
# deviant node named, every unusable folder skipped with its reason, the --json contract, the
# files of --out (written atomically, fleet.json equal to --json), fleet.html in headless
# Chromium, and bad input.
source "$(dirname "$0")/lib.sh"
synth() { python3 "$SMTBENCH_ROOT/tests/e2e/fleet_synth.py" "$@"; }

fleet=$t_tmp/fleet
for i in 1 2 3 4 5 6; do synth "$fleet/a/node$i-100" "node$i" --sibling --seed "$i"; done
synth "$fleet/a/node7-100" node7 --sibling --seed 7 --ratio 1.6   # the deviant: 1.6x, not 1.25x
for i in 1 2 3; do
	synth "$fleet/b/x$i" "x$i" --cpu "Other CPU (test data)" --smt off --seed "1$i" --ratio 1.02
done
synth "$fleet/bad/nometa" h --no-meta
synth "$fleet/bad/torn" h --torn
synth "$fleet/bad/mixed" h --mixed
synth "$fleet/bad/oldver" h --version 0.0.9
synth "$fleet/bad/incomplete" h --status interrupted
synth "$fleet/bad/nocmp" h --solo-only
synth "$fleet/bad/nocolumn" h
sed -i '1s/utime_s/cpu_s/' "$fleet/bad/nocolumn/samples.csv"   # a column the analysis needs, renamed
mkdir -p "$fleet/empty/nothing-here"   # neither meta.json nor samples.csv: not a results folder

check_status 0 "fleet over 10 nodes and 7 unusable folders" "$SMTBENCH" fleet "$fleet" --out "$t_tmp/report"
text=$t_out
check "the deviant node is named with the word to act on" \
	contains "$text" "Node that disagrees: node7 ($fleet/a/node7-100)"
check "... with what to check" contains "$text" "check this node: BIOS SMT setting, microcode, load?"
check "the group without a sibling placement says so" \
	contains "$text" "no sibling placement was measured on these nodes"
check "the folder with neither file is not listed" python3 -c 'import sys; assert "nothing-here" not in sys.argv[1]' "$text"

check_status 0 "fleet --json" "$SMTBENCH" fleet "$fleet" --json
printf '%s\n' "$t_out" >"$t_tmp/fleet-stdout.json"
check "the --json contract: keys, groups, pooled, outliers and skipped reasons" python3 - "$t_tmp/fleet-stdout.json" "$fleet" <<'PY'
import json, math, sys
j = json.load(open(sys.argv[1])); root = sys.argv[2]
assert set(j) >= {"groups", "skipped"}, j.keys()
assert len(j["groups"]) == 2, len(j["groups"])
for g in j["groups"]:
    assert set(g) >= {"cpu_model", "smt", "workload", "hosts", "pooled", "outliers"}, g.keys()
    assert set(g["pooled"]) >= {"ratio_mean", "ratio_ci", "spread_mean", "predictive_ci"}
    for h in g["hosts"]:
        assert set(h) >= {"dir", "host", "n", "ratio_mean", "ratio_ci", "verdict"}, h.keys()
        assert h["n"] == 20 and len(h["ratio_ci"]) == 2
a, b = j["groups"]
assert a["cpu_model"].startswith("Synthetic") and a["smt"] == "on" and a["workload"] == "nop"
assert len(a["hosts"]) == 7 and a["outliers"] == [root + "/a/node7-100"], a["outliers"]
assert b["smt"] == "off" and len(b["hosts"]) == 3 and b["outliers"] == [], b["outliers"]
# the six ordinary nodes are all 1.25x: the pooled interval of the others holds 1.25
node7 = [h for h in a["hosts"] if h["host"] == "node7"][0]
lo, hi = node7["others_predict_ci"]
assert lo < 1.25 < hi and node7["ratio_ci"][0] > hi, (lo, hi, node7["ratio_ci"])
assert b["pooled"]["ratio_ci"][0] < 1.02 < b["pooled"]["ratio_ci"][1], b["pooled"]
assert 0 < a["pooled"]["spread_mean"] and a["pooled"]["predictive_ci"][0] < a["pooled"]["ratio_ci"][0]
want = {"nometa": "no meta.json", "torn": "samples.csv is damaged or cut short",
        "mixed": "mixes measured workloads (nop and pause)",
        "oldver": "made by smtbench 0.0.9", "incomplete": "incomplete: its run is interrupted",
        "nocmp": "no comparison", "nocolumn": "cannot be analysed"}
got = {s["dir"].rsplit("/", 1)[1]: s["reason"] for s in j["skipped"]}
assert set(got) == set(want), got
for k, v in want.items():
    assert v in got[k], (k, got[k])
PY
check "--out wrote fleet.md, fleet.json and fleet.html, and no temporary file" \
	test "$(ls -A "$t_tmp/report" | tr '\n' ' ')" = "fleet.html fleet.json fleet.md "
check "fleet.json is the --json output" cmp -s "$t_tmp/report/fleet.json" "$t_tmp/fleet-stdout.json"
check "fleet.md names the deviant node" grep -q '| node7 (disagrees) |' "$t_tmp/report/fleet.md"
check "the forest plot is well-formed XML" python3 -c '
import re, sys, xml.dom.minidom
page = open(sys.argv[1], encoding="utf-8").read()
svg = re.search(r"<svg.*?</svg>", page, re.S).group(0)
xml.dom.minidom.parseString(svg)
assert svg.count("class=\"node") == 10 and svg.count("class=\"node outlier\"") == 1
assert svg.count("class=\"pooled\"") == 2 and svg.count("class=\"predictive\"") == 2' \
	"$t_tmp/report/fleet.html"

# --- in a real browser -----------------------------------------------------------------------
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
	skip "browser test: chromium is not installed (apt-get install chromium)"
else
	shot=$t_tmp/shot
	check "chromium renders fleet.html" \
		bash "$SMTBENCH_ROOT/tests/browser/render.sh" "$t_tmp/report/fleet.html" "$shot" 1000 1400
	check "the rendered DOM holds the forest plot, the deviant and the pooled diamonds" python3 -c '
import sys
dom = open(sys.argv[1], encoding="utf-8").read()
assert "<svg" in dom and "class=\"node outlier\"" in dom and dom.count("class=\"pooled\"") == 2
assert "Disagrees with its group: node7 (" in dom' "$shot/dom.html"
	check "no messages on the page's console" \
		test "$(grep -c -E 'CONSOLE|Uncaught' "$shot/console.log")" -eq 0
	read -r w h frac colours < <(python3 "$SMTBENCH_ROOT/tests/browser/png_check.py" \
		"$shot/screenshot.png")
	check "the screenshot is drawn on (${frac:-?} non-white, ${colours:-?} colours)" \
		python3 -c 'import sys; w,h,f,c=sys.argv[1:]; assert (w,h)==("1000","1400") and float(f)>0.05 and int(c)>=8' \
		"${w:-0}" "${h:-0}" "${frac:-0}" "${colours:-0}"
fi

# --- hostile names ---------------------------------------------------------------------------
# Folder names that are not text (not UTF-8, a terminal escape) are listed as skipped with the
# name escaped, in the text and the JSON alike: never dropped, never printed raw.
odd=$t_tmp/odd
for i in 1 2; do synth "$odd/n$i" "n$i" --sibling --seed "$i"; done
synth "$odd/bad"$'\xff'"name" h --sibling
synth "$odd/esc"$'\e[31m'"red" h --sibling
check_status 0 "fleet --json with folders whose names are not text" "$SMTBENCH" fleet "$odd" --json
printf '%s\n' "$t_out" >"$t_tmp/odd.json"
check "... lists both as skipped, escaped, and the two good nodes" python3 - "$t_tmp/odd.json" "$odd" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); root = sys.argv[2]
got = {s["dir"]: s["reason"] for s in j["skipped"]}
assert set(got) == {root + "/bad\\xffname", root + "/esc\\x1b[31mred"}, got
assert all("not printable UTF-8 text" in r for r in got.values()), got
assert [len(g["hosts"]) for g in j["groups"]] == [2], j["groups"]
PY
check_status 0 "the text report over the same folders" "$SMTBENCH" fleet "$odd" --out "$t_tmp/odd-report"
check "... names them escaped, with no raw escape byte" python3 -c '
import sys
t = sys.argv[1]
assert "bad\\xffname: its name is not printable" in t and "esc\\x1b[31mred: its name" in t, t
assert "\x1b" not in t' "$t_out"
check "fleet.json from --out agrees with --json" cmp -s "$t_tmp/odd-report/fleet.json" "$t_tmp/odd.json"

# --- a group of one node ------------------------------------------------------------------------
# Nothing to pool: no pooled number (it would be the node's own answer widened by the prior).
synth "$t_tmp/single/n1" n1 --sibling --seed 5
check_status 0 "fleet over one node" "$SMTBENCH" fleet "$t_tmp/single"
check "... says one node: see its own answer, and quotes no pooled slowdown" python3 -c '
import sys
t = sys.argv[1]
assert "Pooled: one node: see its own answer" in t and "Pooled slowdown" not in t, t
assert "A new node of this group" not in t and "Node-to-node spread" not in t, t' "$t_out"
check_status 0 "fleet --json over one node" "$SMTBENCH" fleet "$t_tmp/single" --json
check "... pooled holds nulls, and nodes 1, with every key of a pooled group" python3 -c '
import json, sys
p = json.loads(sys.argv[1])["groups"][0]["pooled"]
keys = {"ratio_mean", "ratio_ci", "spread_mean", "predictive_ci", "spread_ci",
        "log_ratio_mean", "log_ratio_ci", "predictive_log_ci"}
assert set(p) == keys | {"nodes"}, sorted(p)
assert p["nodes"] == 1 and all(p[k] is None for k in keys), p' "$t_out"

# --- folders the search cannot use -------------------------------------------------------------
# A trials_done that is not a number, subfolders deeper than the search goes, a folder that
# cannot be listed: each listed as skipped with a reason that says what happened.
search=$t_tmp/search
synth "$search/ok1" ok1 --sibling --seed 1
synth "$search/ok2" ok2 --sibling --seed 2
synth "$search/baddone" h --sibling --status interrupted
python3 - "$search/baddone/meta.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); m["trials_done"] = "many"; json.dump(m, open(sys.argv[1], "w"))
PY
deep=$search/d1/d2/d3/d4/d5/d6/d7/d8
synth "$deep/d9/node" deep --sibling
check_status 0 "fleet over a damaged trials_done and a folder too deep" "$SMTBENCH" fleet "$search" --json
check "... says trials done is unknown, and names the folder whose subfolders were not searched" \
	python3 -c '
import json, sys
got = {s["dir"]: s["reason"] for s in json.loads(sys.argv[1])["skipped"]}
root = sys.argv[2]
assert set(got) == {root + "/baddone", sys.argv[3]}, got
assert "(40 trials done, from samples.csv; meta.json'"'"'s trials_done is damaged)" in got[root + "/baddone"], got
assert "deeper than 8 levels" in got[sys.argv[3]] and "not searched" in got[sys.argv[3]], got' \
	"$t_out" "$search" "$deep"
# Permissions: root reads every folder, so the unreadable-folder checks run as nobody.
as_user=()
if [[ $(id -u) == 0 ]]; then
	if command -v setpriv >/dev/null 2>&1; then
		as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	else
		as_user=(skip)
	fi
fi
if [[ ${as_user[0]:-} == skip ]]; then
	skip "unreadable folders: running as root without setpriv (util-linux) to drop to nobody"
	skip "an unreadable FLEET_DIR: same"
else
	perm=$(mktemp -d /tmp/smtbench-fleet-perm.XXXXXX)
	chmod 755 "$perm"
	synth "$perm/top/ok1" ok1 --sibling --seed 1
	synth "$perm/top/ok2" ok2 --sibling --seed 2
	mkdir -p "$perm/top/locked/inside" "$perm/closed"
	chmod -R a+rX "$perm"
	chmod 000 "$perm/top/locked" "$perm/closed"
	check_status 0 "fleet over a subfolder that cannot be listed" \
		"${as_user[@]}" "$SMTBENCH" fleet "$perm/top"
	check "... lists it as skipped, saying it cannot be listed" \
		contains "$t_out" "$perm/top/locked: cannot be listed (Permission denied)"
	check_status 2 "a FLEET_DIR that cannot be read" "${as_user[@]}" "$SMTBENCH" fleet "$perm/closed"
	check "... is named in one line" test "$t_err" = \
		"smtbench: fleet: $perm/closed cannot be read (Permission denied); give a folder you can read"
	chmod -R u+rwX "$perm"
	rm -rf "$perm"
fi

# --- groups that differ only in their settings -------------------------------------------------
# Same CPU, SMT, workload and comparison, another --iters: two groups, told apart in their
# titles and by the "settings" key of each.
for i in 1 2; do
	synth "$t_tmp/iters/short$i" "s$i" --sibling --seed "$i" --iters 1000
	synth "$t_tmp/iters/long$i" "l$i" --sibling --seed "$i" --iters 2000
done
check_status 0 "fleet over nodes that differ only in --iters" "$SMTBENCH" fleet "$t_tmp/iters" --json
check "... two groups with different settings (iters, command)" python3 -c '
import json, sys
a, b = json.loads(sys.argv[1])["groups"]
assert a["settings"] != b["settings"], (a["settings"], b["settings"])
assert {a["settings"]["iters"], b["settings"]["iters"]} == {1000, 2000}, (a, b)
assert a["settings"]["placements"] == ["non-sibling", "sibling"], a["settings"]
assert a["settings"]["command"][0] == "nop" and a["settings"]["beside_command"] is None' "$t_out"
check_status 0 "... and as text" "$SMTBENCH" fleet "$t_tmp/iters"
check "... whose group titles differ by their settings" python3 -c '
import sys
titles = [l for l in sys.argv[1].splitlines() if l.startswith("Group ")]
assert len(titles) == 2 and len(set(t[8:] for t in titles)) == 2, titles
assert all("iters " in t and "placements non-sibling, sibling" in t for t in titles), titles' "$t_out"
check "groups that the title tells apart have no settings in it (the first fleet's report)" \
	python3 -c 'import sys; assert "; placements " not in sys.argv[1]' "$text"

# --- an unsettled node --------------------------------------------------------------------------
# 3 trials: its comparison is not settled, so no mean is quoted for it ("–"), only its interval.
synth "$t_tmp/unsettled/u1" u1 --sibling --trials 3 --seed 3
synth "$t_tmp/unsettled/s1" s1 --sibling --seed 1
check_status 0 "fleet with an unsettled node" "$SMTBENCH" fleet "$t_tmp/unsettled" --out "$t_tmp/unsettled-report"
check "... its row quotes no mean ratio, and says it is not pooled" python3 -c '
import sys
row = [l.split() for l in sys.argv[1].splitlines() if l.startswith("  u1 ")][0]
i = row.index("3")
assert row[i + 1] == "–" and "(not" in row, row' "$t_out"
check "... nor does fleet.md's" grep -q '^| u1 | .* | 3 | – | ' "$t_tmp/unsettled-report/fleet.md"

# --- hostile meta.json strings ----------------------------------------------------------------
# A host name with a terminal escape sequence and a '|', a CPU model with a newline: escaped
# when read (\xNN, common/text.h's one sanitiser: lossless, unlike the '?' it was), so that
# nothing raw reaches the terminal, and the '|' escaped in fleet.md's table (and in the HTML,
# escaped as XML).
hostile=$t_tmp/hostile
for i in 1 2; do
	synth "$hostile/n$i" $'evil\e[2J|'"$i" --sibling --seed "$i" --cpu $'Bad\nCPU\e]0;x\a'
done
check_status 0 "fleet over meta.json strings with control characters and '|'" \
	"$SMTBENCH" fleet "$hostile" --out "$t_tmp/hostile-report"
check "... prints no control character, and the names with \\xNN for them" python3 -c '
import sys
t = sys.argv[1]
assert not any(ord(c) < 32 and c != "\n" for c in t), repr(t)
assert "evil\\x1b[2J|1" in t and "Bad\\x0aCPU\\x1b]0;x\\x07" in t, t' "$t_out"
check "fleet.md escapes the '|' in its table and holds no control character" python3 -c '
import sys
md = open(sys.argv[1], encoding="utf-8").read()
assert "| evil\\\\x1b\\[2J\\|1 |" in md, md  # the backslash and "[" escaped for Markdown
assert not any(ord(c) < 32 and c != "\n" for c in md)
rows = [l for l in md.splitlines() if l.startswith("| evil")]
assert len(rows) == 2 and all(l.replace("\\|", "").count("|") == 8 for l in rows), rows' \
	"$t_tmp/hostile-report/fleet.md"

# A host name longer than the plot's label, of 2-byte characters: cut whole, the SVG stays XML.
long=$(python3 -c 'print("é" * 200)')
synth "$t_tmp/long/n1" "$long" --sibling --seed 1
synth "$t_tmp/long/n2" "$long" --sibling --seed 2
check_status 0 "fleet over hosts with long non-ASCII names" "$SMTBENCH" fleet "$t_tmp/long" --out "$t_tmp/long-report"
check "... its forest plot is well-formed XML" python3 -c '
import re, sys, xml.dom.minidom
page = open(sys.argv[1], "rb").read().decode("utf-8")
xml.dom.minidom.parseString(re.search(r"<svg.*?</svg>", page, re.S).group(0))' "$t_tmp/long-report/fleet.html"

# --- one folder reached twice ------------------------------------------------------------------
# run1/{n1,n2,n3} plus latest -> run1, and run1 given twice: still 3 nodes, read through the
# path without a link; the link and the second run1 are each listed once as the same folder
# (searched once: not once per node inside it, issue 21 item 3).
twice=$t_tmp/twice
for i in 1 2 3; do synth "$twice/run1/n$i" "n$i" --sibling --seed "$i"; done
ln -s run1 "$twice/latest"
check_status 0 "fleet over a folder and a link to it, and the folder again" \
	"$SMTBENCH" fleet "$twice" "$twice/run1" --json
check "... pools each node once and lists the extra paths as the same folder" python3 -c '
import json, sys
j = json.loads(sys.argv[1]); root = sys.argv[2]
assert [len(g["hosts"]) for g in j["groups"]] == [3], j["groups"]
# the folder is read through the path without a link; the link and the second copy are skipped
assert sorted(h["dir"] for h in j["groups"][0]["hosts"]) == [root + "/run1/n%d" % i for i in (1, 2, 3)]
skipped = sorted((s["dir"], s["reason"]) for s in j["skipped"])
assert [d for d, r in skipped] == [root + "/latest", root + "/run1"], skipped
for d, r in skipped:
    assert ("same folder as %s/run1, searched there" % root) in r, (d, r)' "$t_out" "$twice"

# --- bad input ---------------------------------------------------------------------------------
check_status 2 "a folder that does not exist" "$SMTBENCH" fleet "$t_tmp/nope"
check "... is named in one line" test "$t_err" = "smtbench: fleet: $t_tmp/nope is not a directory; give the folder the runs wrote into (FLEET_DIR)"
check_status 2 "no usable folder at all" "$SMTBENCH" fleet "$fleet/bad" --out "$t_tmp/none"
check "... says so" contains "$t_err" "no usable results folder"
check "... still lists the skipped ones" contains "$t_out" "$fleet/bad/torn: samples.csv is damaged"
check "... and writes nothing" test ! -e "$t_tmp/none"
# An empty FLEET_DIR (the report job queued after runs that never started): no folder found at
# all, zero to sort. Under SANITIZE=1 this once stopped at qsort(NULL, 0).
mkdir -p "$t_tmp/empty-fleet"
check_status 2 "an empty folder: nothing found" "$SMTBENCH" fleet "$t_tmp/empty-fleet"
check "... says so, in one line: $t_err" test "$t_err" = "smtbench: fleet: no usable results folder under the given folder(s); nothing written"
touch "$t_tmp/a-file"
check_status 2 "--out naming a file, not a folder" "$SMTBENCH" fleet "$fleet" --out "$t_tmp/a-file"
check "... is refused before anything is written" test ! -s "$t_tmp/a-file"
check_status 2 "no folder given" "$SMTBENCH" fleet
check_status 2 "an unknown option" "$SMTBENCH" fleet --frobnicate "$fleet"

# A folder being written: meta.json's trials_done is set when a segment ends, so progress comes
# from samples.csv.
writing=$t_tmp/writing
synth "$writing/node" h --sibling --status running
python3 - "$writing/node/meta.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); m["trials_done"] = 0; json.dump(m, open(sys.argv[1], "w"))
PY
check_status 2 "fleet over a folder being written" "$SMTBENCH" fleet "$writing"
check "…reads its progress from samples.csv, not meta.json's 0" eval \
	'contains "$t_out$t_err" "(40 trials done, from samples.csv)" && ! contains "$t_out$t_err" "(0 trials done"'

done_testing
