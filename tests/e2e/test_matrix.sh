#!/usr/bin/env bash
# test_matrix.sh — `smtbench matrix` end to end on this machine's CPUs: every cell and baseline
# in every block, SIGTERM and --resume with no trial lost or run twice, report.json's contract,
# the heat map in report.html as SVG, bad input (exit 2, nothing written) and a placement the
# machine cannot give (exit 3). Structure only: a shared VM's noise can flip any verdict, so no
# timing is asserted except same-pu's wall time, which time-sharing one CPU doubles.
source "$(dirname "$0")/lib.sh"

K=nop,mul-latency,l1-load
common=(--kernels "$K" --trial-time 0.02 --warmup-blocks 1 --progress none)

# wait_for_rows FILE N: until FILE has more than N lines (at most 20 s).
wait_for_rows() {
	for _ in $(seq 200); do
		[[ -f $1 ]] && (($(wc -l <"$1") > $2)) && return 0
		sleep 0.1
	done
	return 1
}

# cells_check DIR PLACEMENT BLOCKS: every block (warm-up included) runs each of the 9 pairs and
# 3 baselines exactly once, trials are 0..N-1 once each, the victim is role a on CPU A, the
# aggressor role b on the placement's other CPU.
cells_check() {
	python3 - "$@" <<'EOF'
import csv, json, sys
d, placement, blocks = sys.argv[1], sys.argv[2], int(sys.argv[3])
kernels = ["nop", "mul-latency", "l1-load"]
rows = list(csv.DictReader(open(d + "/samples.csv")))
trials = {}
for r in rows:
    trials.setdefault(int(r["trial"]), []).append(r)
n = blocks * 12
assert sorted(trials) == list(range(n)), ("trials", sorted(trials)[:5], len(trials), n)
want = sorted([(placement, v, g) for v in kernels for g in kernels] + [("solo", v, "") for v in kernels])
meta = json.load(open(d + "/meta.json"))
pus = {p["name"]: p["pus"] for p in meta["placements"]}
by_block = {}
for t, rs in trials.items():
    a = [r for r in rs if r["role"] == "a"]
    b = [r for r in rs if r["role"] == "b"]
    assert len(a) == 1 and len(b) == (0 if rs[0]["placement"] == "solo" else 1), (t, rs)
    assert a[0]["pu"] == str(pus[rs[0]["placement"]][0]), (t, a[0]["pu"])
    if b:
        assert b[0]["pu"] == str(pus[placement][1]), (t, b[0]["pu"])
    cell = (rs[0]["placement"], a[0]["workload"], b[0]["workload"] if b else "")
    by_block.setdefault(int(rs[0]["block"]), []).append(cell)
    assert all(r["status"] == "ok" for r in rs), (t, [r["status"] for r in rs])
assert sorted(by_block) == list(range(blocks)), sorted(by_block)
for blk, cells in by_block.items():
    assert sorted(cells) == want, (blk, sorted(cells))
m = meta["matrix"]
assert [k["name"] for k in m["kernels"]] == kernels, m["kernels"]
assert m["placement"] == placement and len(m["cells"]) == 12, m
assert all(k["calibration"] and k["calibration"]["trial_time_s"] == 0.02 for k in m["kernels"])
assert meta["plan"]["trials_per_block"] == 12 and meta["status"] == "complete", meta["plan"]
EOF
}

report_check() {
	python3 - "$1" <<'EOF'
import json, math, sys
d = json.load(open(sys.argv[1] + "/report.json"))
kernels = ["nop", "mul-latency", "l1-load"]
verdicts = {"slower", "faster", "practically the same", "not enough data to say"}
assert d["kind"] == "matrix" and d["kernels"] == kernels, d["kernels"]
assert d["answer"].startswith("Safe") and "worst" in d["answer"] or "no cell" in d["answer"], d["answer"]
cells = d["cells"]
assert sorted((c["victim"], c["aggressor"]) for c in cells) == sorted((v, g) for v in kernels for g in kernels)
for c in cells:
    assert isinstance(c["n"], int) and c["n"] >= 4, c
    assert c["verdict"] in verdicts, c
    # With few blocks the posterior of delta is heavy-tailed (Student-t, n - 2 dof), so the
    # mean of exp(delta) may lie outside the equal-tailed interval: only the shape is checked.
    # A 0.02 s trial can measure 0 s of user time on a loaded machine (below the clock's
    # resolution); the cell then falls back to the unpaired design and its note says so.
    assert c["design"] == "paired" or "measured 0 s" in c["note"], c
    if not c["settled"]:   # the grid's numbers are never given
        assert c["ratio_mean"] is None and c["ratio_ci"] is None, c
        continue
    lo, hi = c["ratio_ci"]
    assert 0 < lo <= hi and math.isfinite(hi) and c["ratio_mean"] > 0, c
for key in ("sensitivity", "contentiousness"):
    s = d[key]
    assert [x["kernel"] for x in s] == kernels, (key, s)
    for x in s:
        assert x["verdict"] in verdicts, (key, x)
        if not x["settled"]:
            assert x["ratio_mean"] is None, (key, x)
            continue
        lo, hi = x["ratio_ci"]
        assert 0 < lo <= hi and x["ratio_mean"] > 0, (key, x)
assert [b["kernel"] for b in d["baselines"]] == kernels and all(b["n"] >= 4 for b in d["baselines"])
assert isinstance(d["safe_pairs"], list) and d["measured_blocks"] >= 4
EOF
}

heatmap_check() {
	python3 - "$1" <<'EOF'
import json, re, sys, xml.etree.ElementTree as ET
html = open(sys.argv[1] + "/report.html").read()
m = re.search(r'<figure id="heatmap">(<svg.*?</svg>)', html, re.S)
assert m, "no heat map in report.html"
svg = ET.fromstring(m.group(1))
ns = "{http://www.w3.org/2000/svg}"
texts = [t.text or "" for t in svg.iter(ns + "text")]
ratios = [t.text for t in svg.iter(ns + "text") if t.get("class") == "ratio"]
# A cell that fell back to the unpaired design (a trial measured 0 s) has no ratio to show: "?".
unpaired = sum(c["design"] != "paired" for c in json.load(open(sys.argv[1] + "/report.json"))["cells"])
assert len(ratios) == 9 and all(r.endswith("×") or r == "?" for r in ratios), ratios
assert ratios.count("?") == unpaired, (ratios, unpaired)
for k in ("nop", "mul-latency", "l1-load"):
    assert texts.count(k) == 2, (k, texts)   # a row label and a column label
assert svg.find(".//" + ns + "pattern[@id='hatch']") is not None
EOF
}

# --- non-sibling: the whole matrix, its reports -------------------------------------------------
check_status 0 "matrix of 3 kernels on non-sibling runs" \
	"$SMTBENCH" matrix "${common[@]}" --placement non-sibling --blocks 4 --seed 7 --out "$t_tmp/ns"
check "the plan says 12 cells: 9 pairs and 3 baselines" contains "$t_out" "12 cells (9 pairs + 3 baselines)"
check "every block ran each of the 9 cells and 3 baselines once; trials 0..59 once each" \
	cells_check "$t_tmp/ns" non-sibling 5
check "the summary leads with the answer" eval 'grep -q "^Answer: Safe" <<<"$t_out"'
check "report.json's contract: cells, sensitivity, contentiousness, baselines" report_check "$t_tmp/ns"
check "report.html holds the heat map, parsed as SVG: 9 cells, both axes named" heatmap_check "$t_tmp/ns"
check "heatmap.svg is well-formed (xmllint)" xmllint --noout "$t_tmp/ns/heatmap.svg"
check "report.md has the matrix, sensitivity and contentiousness" eval \
	'grep -q "^## Matrix" "$t_tmp/ns/report.md" && grep -q "^## Sensitivity" "$t_tmp/ns/report.md" && grep -q "^## Contentiousness" "$t_tmp/ns/report.md"'
rm "$t_tmp/ns/report.json" "$t_tmp/ns/report.html"
check_status 0 "smtbench report DIR on a matrix folder" "$SMTBENCH" report "$t_tmp/ns"
check "…rewrites report.json and report.html, says it is a matrix" eval \
	'[[ -s $t_tmp/ns/report.json && -s $t_tmp/ns/report.html ]] && contains "$t_out" "interference matrix: $t_tmp/ns (3 kernels on non-sibling)"'
check_status 0 "analyze on a matrix folder still answers" "$SMTBENCH" analyze "$t_tmp/ns"
check "…and says that its placements pool every kernel, pointing to report" eval \
	'contains "$t_err" "is an interference matrix" && contains "$t_err" "smtbench report"'
check_status 0 "fleet pools a matrix folder as a matrix (issue 20), not as a run" \
	"$SMTBENCH" fleet "$t_tmp/ns"
check "…one matrix folder in one matrix group of 3 kernels on non-sibling, none skipped" eval \
	'contains "$t_out" "smtbench fleet: 1 matrix folder in 1 matrix group; 0 folders skipped" && contains "$t_out" "3 kernels on non-sibling (1 node)"'
check_status 0 "matrix --resume of a complete matrix is a no-op" "$SMTBENCH" matrix --resume "$t_tmp/ns"
check "…says it is complete" contains "$t_out" "is complete; nothing to resume"

# --- same-pu -------------------------------------------------------------------------------------
check_status 0 "matrix of 3 kernels on same-pu runs" \
	"$SMTBENCH" matrix "${common[@]}" --placement same-pu --blocks 4 --out "$t_tmp/pu"
check "same-pu: every cell and baseline in every block, both processes on CPU A" \
	cells_check "$t_tmp/pu" same-pu 5
check "same-pu: report.json's contract" report_check "$t_tmp/pu"
check "same-pu: the heat map parses" heatmap_check "$t_tmp/pu"
# One CPU between them: a pair's CPU time together fits in the time from the first's start to the
# last's end (about 1; two CPUs give about 2 on a quiet machine). Other work on the machine only
# stretches that time, never the CPU time, so noise cannot fail this, while two CPUs still do.
check "same-pu: each pair's CPU time together fits in its elapsed time (median below 1.2)" python3 - "$t_tmp/pu" <<'EOF'
import collections, csv, statistics, sys
trials = collections.defaultdict(list)
for r in csv.DictReader(open(sys.argv[1] + "/samples.csv")):
    if r["placement"] == "same-pu" and r["warmup"] == "0" and r["status"] == "ok":
        trials[r["trial"]].append(r)
shares = [sum(float(r["utime_s"]) + float(r["stime_s"]) for r in rs)
          / (max(float(r["end_s"]) for r in rs) - min(float(r["start_s"]) for r in rs))
          for rs in trials.values() if len(rs) == 2]
assert len(shares) >= 12 and statistics.median(shares) < 1.2, (len(shares), sorted(shares))
EOF

# --- SIGTERM mid-run, then --resume ------------------------------------------------------------
plan=("${common[@]}" --placement non-sibling --blocks 6 --seed 11)
check_status 0 "the uninterrupted reference matrix" "$SMTBENCH" matrix "${plan[@]}" --out "$t_tmp/ref"
"$SMTBENCH" matrix "${plan[@]}" --out "$t_tmp/int" >"$t_tmp/int.out" 2>"$t_tmp/int.err" &
runner=$!
wait_for_rows "$t_tmp/int/samples.csv" 24
kill -TERM "$runner"
wait "$runner"
rc=$?
check "SIGTERM: exit 143 (got $rc), the message says matrix --resume" eval \
	'((rc == 143)) && grep -q -- "smtbench matrix --resume $t_tmp/int" "$t_tmp/int.err"'
check "SIGTERM: meta.json says interrupted" grep -q '"status": "interrupted"' "$t_tmp/int/meta.json"
stored=$(($(wc -l <"$t_tmp/int/samples.csv") - 1))
total=$(($(wc -l <"$t_tmp/ref/samples.csv") - 1))
check "SIGTERM: it stopped part way ($stored of $total rows)" test "$stored" -lt "$total"
# A samples.csv whose first trial names another victim than the plan's cell is not resumed.
cp -r "$t_tmp/int" "$t_tmp/tampered"
python3 - "$t_tmp/tampered/samples.csv" <<'EOF2'
import sys
lines = open(sys.argv[1]).read().split("\n")
f = lines[1].split(",")
f[7] = "mul-latency" if f[7] != "mul-latency" else "nop"   # the workload column
lines[1] = ",".join(f)
open(sys.argv[1], "w").write("\n".join(lines))
EOF2
check_status 2 "--resume of a matrix whose trial 0 ran another kernel than its cell is refused" \
	"$SMTBENCH" matrix --resume "$t_tmp/tampered"
check "…naming the line and the plan's cell" eval 'contains "$t_err" "samples.csv:2: trial 0 runs" && contains "$t_err" "where the plan in meta.json"'
check_status 0 "matrix --resume completes it" "$SMTBENCH" matrix --resume "$t_tmp/int"
check "…resuming at the trial it stopped at" contains "$t_out" "resuming $t_tmp/int at trial"
check "resumed: every cell in every block, trials 0..83 once each" cells_check "$t_tmp/int" non-sibling 7
key() { tail -n +2 "$1/samples.csv" | cut -d, -f1-8; }
check "resumed rows equal the uninterrupted plan's (trial, block, warm-up, placement, proc, role, pu, workload)" \
	diff <(key "$t_tmp/ref") <(key "$t_tmp/int")
check "meta.json records the resume as a matrix's" python3 -c '
import json, sys; m = json.load(open(sys.argv[1]))
assert m["resumed_with"][:3] == ["smtbench", "matrix", "--resume"] and m["status"] == "complete"' "$t_tmp/int/meta.json"
check "…and its report" report_check "$t_tmp/int"

# --- a complete matrix none of whose cells could be compared: exit 1 with the reason ------------
# (--duration shorter than a block: one block, and a cell needs 2.) An interrupted one is still
# "no analysis yet" (its --resume may answer); this one ran as planned and failed to answer.
printf 'a: sleep 0.2\nb: sleep 0.2\n' >"$t_tmp/short.cmds"
check_status 1 "a matrix that ran one block (--duration 1)" "$SMTBENCH" matrix \
	--commands "$t_tmp/short.cmds" --placement non-sibling --duration 1 --warmup-blocks 0 \
	--progress none --out "$t_tmp/short"
check "…says there is no answer, and the true reason" \
	contains "$t_err" "no answer: $t_tmp/short: no cell of the matrix could be compared: a beside a vs a alone: not compared: a beside a has 1 sample(s), at least 2 are needed"
check "…not 'no analysis yet'" eval '! contains "$t_out" "no analysis yet"'
check "…its samples are kept and its reports written (each cell says why)" \
	eval 'test -s "$t_tmp/short/samples.csv" && test -s "$t_tmp/short/report.json"'

# --- a cell's conditions: how many of its trials and its baseline's shared their CPUs -----------
# The fixture was measured on a loaded machine. The oracle counts, straight from samples.csv,
# each measured ok trial whose foreign_s or steal_s is above 10% of its longest wall_s, per
# cell (victim beside aggressor) plus the victim's baseline, as a run counts A and B.
check_status 0 "report of the fixture matrix" "$SMTBENCH" report \
	"$SMTBENCH_ROOT/tests/fixtures/folders/matrix" --out "$t_tmp/fixture-report"
check "…the table marks a cell under load with ! and says what it means" eval \
	'grep -q "? !" <<<"$t_out" && contains "$t_out" "! measured under load: more than a quarter of the trials of the cell and its baseline shared their CPUs"'
check "…each compared cell's conditions: shared_trials of shared_known as samples.csv says" python3 - \
	"$SMTBENCH_ROOT/tests/fixtures/folders/matrix/samples.csv" "$t_tmp/fixture-report/report.json" <<'EOF'
import collections, csv, json, sys
trials = collections.defaultdict(list)
for r in csv.DictReader(open(sys.argv[1])):
    if r["warmup"] == "0":
        trials[r["trial"]].append(r)
known, shared = collections.Counter(), collections.Counter()
for rows in trials.values():
    if any(r["status"] != "ok" for r in rows):
        continue
    victim = next(r["workload"] for r in rows if r["role"] == "a")
    agg = next((r["workload"] for r in rows if r["role"] == "b"), None)
    duration = max(float(r["wall_s"]) for r in rows)
    s = max(float(rows[0]["foreign_s"]), float(rows[0]["steal_s"])) > 0.1 * duration
    known[victim, agg] += 1
    shared[victim, agg] += s
cells = json.load(open(sys.argv[2]))["cells"]
loaded = 0
for c in cells:
    v, g, cond = c["victim"], c["aggressor"], c["conditions"]
    want = (shared[v, g] + shared[v, None], known[v, g] + known[v, None])
    assert (cond["shared_trials"], cond["shared_known"]) == want, (v, g, cond, want)
    assert cond["under_load"] == (want[0] > 0.25 * want[1]), (v, g, cond)
    loaded += cond["under_load"]
assert loaded > 0, "the fixture has no cell under load"
EOF

# --- bad input: exit 2, one line, nothing written ------------------------------------------------
check_status 2 "--blocks 1 (a cell needs 2 to be compared) is refused" "$SMTBENCH" matrix \
	--kernels nop --placement non-sibling --blocks 1 --out "$t_tmp/bad"
check "…saying a comparison needs 2" contains "$t_err" "--blocks 1 gives each cell one sample, and a comparison needs at least 2"
check_status 2 "an unknown kernel in --kernels" \
	"$SMTBENCH" matrix --kernels nop,nosuch --placement non-sibling --out "$t_tmp/bad"
check "…one line naming it, nothing written" eval \
	'[[ $(wc -l <<<"$t_err") -eq 1 ]] && contains "$t_err" "nosuch" && [[ ! -e $t_tmp/bad ]]'
check_status 2 "a kernel named twice" "$SMTBENCH" matrix --kernels nop,nop --out "$t_tmp/bad"
check_status 2 "--placement solo is not a pairing" "$SMTBENCH" matrix --placement solo --out "$t_tmp/bad"
check_status 2 "--blocks with --duration" "$SMTBENCH" matrix --blocks 3 --duration 1m --out "$t_tmp/bad"
check_status 2 "--resume with other settings" "$SMTBENCH" matrix --resume "$t_tmp/ns" --blocks 3
check_status 2 "an existing --out" "$SMTBENCH" matrix --kernels nop --placement non-sibling --out "$t_tmp/ns"
# A matrix folder whose meta.json is cut short: --resume refuses it in one line, exit 2, with
# nothing left allocated (issue 29, item 8: a command line copied before the refusal leaked,
# and under ASan exit 2 became a leak report).
cp -r "$t_tmp/ns" "$t_tmp/damaged"
head -c 100 "$t_tmp/ns/meta.json" >"$t_tmp/damaged/meta.json"
check_status 2 "matrix --resume of a folder whose meta.json is cut short" \
	"$SMTBENCH" matrix --resume "$t_tmp/damaged"
check "…one line: $t_err" test "$(wc -l <<<"$t_err")" -eq 1
# …and the true diagnosis: the JSON error with the file and its position, not "not a matrix's
# folder … continue with smtbench run --resume" (which only led to the same error).
check "…names meta.json, its line and column, and says it is not valid JSON" eval \
	'[[ $t_err =~ damaged/meta\.json:[0-9]+(:[0-9]+)?:\ not\ valid\ JSON ]]'
check "…and does not send a matrix to run --resume" eval \
	'! contains "$t_err" "not a matrix" && ! contains "$t_err" "run --resume"'
# A run's folder (meta.json whole, no "matrix") is still pointed to run --resume.
"$SMTBENCH" run --placements solo --blocks 1 --warmup-blocks 0 --iters 1000 --progress none \
	--out "$t_tmp/a-run" >/dev/null 2>&1
check_status 2 "matrix --resume of a run's folder" "$SMTBENCH" matrix --resume "$t_tmp/a-run"
check "…says it is not a matrix's and names run --resume" eval \
	'contains "$t_err" "is not a matrix'"'"'s folder" && contains "$t_err" "smtbench run --resume $t_tmp/a-run"'
check_status 2 "run --resume of it" "$SMTBENCH" run --resume "$t_tmp/damaged"
check "…one line, naming meta.json: $t_err" eval \
	'test "$(wc -l <<<"$t_err")" -eq 1 && contains "$t_err" "meta.json"'
check "nothing was written for bad input" test ! -e "$t_tmp/bad"

# --- sibling on a machine without SMT: exit 3 with the reason, as run does -----------------------
if "$SMTBENCH" topo --json | python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if any(p["name"] == "sibling" and p["available"] for p in d["placements"]) else 1)'; then
	skip "this machine has SMT: the sibling refusal is for machines without it"
	skip "this machine has SMT"
else
	check_status 3 "the default placement, sibling, on this machine without SMT" \
		"$SMTBENCH" matrix --kernels nop --out "$t_tmp/sib"
	check "…says why (the sibling reason) and writes nothing" eval \
		'contains "$t_err" "sibling" && contains "$t_err" "SMT" && [[ ! -e $t_tmp/sib ]]'
fi
check_status 0 "matrix --help" "$SMTBENCH" matrix --help
help=$(tr -s ' \n' ' ' <<<"$t_out")
check "…lists --kernels, --placement and --rope, and says fleet pools matrix folders" eval \
	'contains "$help" "--kernels" && contains "$help" "--placement" && contains "$help" "--rope PCT" && contains "$help" "smtbench fleet pools the matrix folders"'
# A hostile block number (2^60) in a copy of a matrix folder: blocks are indexed by position,
# never by value, so the report still comes out (it once sized an array by the largest block).
cp -r "$t_tmp/ns" "$t_tmp/hostile-block"
python3 - "$t_tmp/hostile-block/samples.csv" <<'EOF2'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0]
last = rows[-1][h.index("trial")]
for r in rows[1:]:
    if r[h.index("trial")] == last:
        r[h.index("block")] = str(2 ** 60)
csv.writer(open(sys.argv[1], "w"), lineterminator="\n").writerows(rows)
EOF2
check_status 0 "report on a matrix folder whose last trial claims block 2^60" \
	"$SMTBENCH" report "$t_tmp/hostile-block"
check "…writes its report.json, every cell present" python3 -c '
import json, sys; d = json.load(open(sys.argv[1])); assert len(d["cells"]) == 9, len(d["cells"])' \
	"$t_tmp/hostile-block/report.json"

done_testing
