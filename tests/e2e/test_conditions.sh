#!/usr/bin/env bash
# End to end: the conditions beside a verdict, said in the answer line itself and in the JSON
# (each comparison's "conditions"): measured under load (more than a quarter of a comparison's
# trials shared their CPUs), a placement that adds a neighbour and comes out faster than solo
# (with the remedy), the ratio that moved between the run's halves (the headline doubtful);
# the true reason when there is no answer (one placement, every trial left out by
# --exclude-contaminated, a run that ended with one block). The folders are the fixture run
# (tests/fixtures/folders/run: 12 blocks of solo, same-pu, non-sibling on a loaded VM) with its
# samples.csv rewritten by hand, so that nothing depends on this machine.
source "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip_all "rewrites samples.csv with python3 (apt-get install python3)"

fixture=$(cd "$(dirname "$0")/../fixtures/folders/run" && pwd)
# variant NAME: a copy of the fixture whose samples.csv tests/e2e's python below rewrites.
variant() {
	mkdir -p "$t_tmp/$1"
	cp "$fixture/meta.json" "$t_tmp/$1/"
	python3 - "$fixture/samples.csv" "$t_tmp/$1/samples.csv" "$1" <<'EOF'
import csv, sys
src, dst, kind = sys.argv[1:4]
with open(src, newline="") as f:
    reader = csv.DictReader(f)
    header, rows = reader.fieldnames, list(reader)
kept = []
for r in rows:
    if kind == "all-shared":
        r["foreign_s"] = r["wall_s"]            # every trial's CPUs busy all along
    else:
        r["foreign_s"], r["steal_s"] = "0.000", "0.000"
    if kind == "halves" and r["role"] == "a":
        # solo and same-pu alike; non-sibling at 1.0x solo in blocks 1-6 and 1.5x in 7-12,
        # each block a little apart so that the spread is not zero.
        block = int(r["block"])
        t = 0.05 * (1 + 0.004 * ((block * 7) % 5))
        if r["placement"] == "non-sibling":
            t *= (1.0 if block <= 6 else 1.5) * (1 + 0.003 * ((block * 3) % 4))
        r["utime_s"] = "%.6f" % t
    if kind == "one-placement" and r["placement"] != "solo":
        continue
    kept.append(r)
with open(dst, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=header, lineterminator="\n")
    w.writeheader()
    w.writerows(kept)
EOF
}
# json FILE EXPR: a Python expression over the file's JSON as d, printed.
json() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

# --- under load: the fixture as it is (22 of its 24 non-sibling and solo trials shared) -------
check_status 0 "report of the fixture run, measured on a loaded machine" "$SMTBENCH" report \
	"$fixture" --out "$t_tmp/loaded"
answer=$(grep '^Answer:' <<<"$t_out")
check "the answer line itself says it was measured under load, with the count" \
	contains "$answer" "measured under load: 22 of 24 trials shared their CPUs, so the verdict may be the other work's"
check "…and that a neighbour cannot make the copy faster than solo, with the remedy" \
	eval 'contains "$answer" "a placement that adds a busy neighbour cannot honestly make the workload faster than solo alone: a sign of interference from outside the experiment" &&
	      contains "$answer" "--exclude-contaminated" && contains "$answer" "isolcpus"'
check "report.json's headline sentence says it too" \
	bash -c '[[ $(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[\"headline\"][\"sentence\"])" "$1") == *"measured under load: 22 of 24"* ]]' _ "$t_tmp/loaded/report.json"
check "report.json's conditions: 22 shared of 24, under load, neighbour speed-up" \
	test "$(json "$t_tmp/loaded/report.json" '[(c["conditions"]["shared_trials"], c["conditions"]["shared_known"], c["conditions"]["under_load"], c["conditions"]["neighbour_speedup"]) for c in d["analysis"]["comparisons"]]')" = "[(22, 24, True, True), (19, 24, True, False)]"
check "report.md's answer says it" grep -q "measured under load: 22 of 24 trials" "$t_tmp/loaded/report.md"
check_status 0 "analyze of the same folder" "$SMTBENCH" analyze "$fixture"
check "…says it in its answer too" contains "$t_out" "measured under load: 22 of 24 trials shared their CPUs"
check_status 0 "report --exclude-contaminated of it" "$SMTBENCH" report --exclude-contaminated \
	"$fixture" --out "$t_tmp/loaded-ex"
check "…the trials left are clean: not under load" \
	test "$(json "$t_tmp/loaded-ex/report.json" '[c["conditions"]["under_load"] for c in d["analysis"]["comparisons"]]')" = "[False]"

# --- a quiet machine: no qualifier, the speed-up still flagged -------------------------------
variant quiet
check_status 0 "report of the same trials with no foreign time" "$SMTBENCH" report \
	"$t_tmp/quiet" --out "$t_tmp/quiet-r"
answer=$(grep '^Answer:' <<<"$t_out")
check "…the answer says nothing of load" eval '! contains "$answer" "measured under load"'
check "…but still flags the neighbour that made it faster" \
	contains "$answer" "cannot honestly make the workload faster than solo"

# --- the ratio moved between the run's halves -------------------------------------------------
variant halves
check_status 0 "report of a run whose ratio went from 1.0x to 1.5x halfway" "$SMTBENCH" report \
	"$t_tmp/halves" --out "$t_tmp/halves-r"
answer=$(grep '^Answer:' <<<"$t_out")
check "…the answer says the headline is doubtful, with each half's ratio" \
	contains "$answer" "doubtful: the ratio itself moved during the run, 1.00"
check "report.json's conditions.halves: the two ratios, disagreeing" \
	test "$(json "$t_tmp/halves-r/report.json" '(lambda h: (round(h["ratio"][0], 1), round(h["ratio"][1], 1), h["disagree"]))(d["analysis"]["comparisons"][0]["conditions"]["halves"])')" = "(1.0, 1.5, True)"
check "the fixture's halves agree: no such words" \
	eval '! grep -q "doubtful" "$t_tmp/loaded/report.md"'

# --- no answer: the true reason ---------------------------------------------------------------
variant all-shared
check_status 2 "report --exclude-contaminated when every trial shared its CPUs" "$SMTBENCH" \
	report --exclude-contaminated "$t_tmp/all-shared" --out "$t_tmp/all-shared-r"
check "…says all were left out, not '0 sample(s)'" \
	contains "$t_err" "all 36 measured trials shared their CPUs, and --exclude-contaminated left them all out"
check_status 2 "analyze --exclude-contaminated of it" "$SMTBENCH" analyze --exclude-contaminated \
	"$t_tmp/all-shared"
check "…says the same" contains "$t_err" "left them all out"
variant one-placement
check_status 2 "analyze of a folder of solo alone" "$SMTBENCH" analyze "$t_tmp/one-placement"
check "…says only one placement was measured" \
	contains "$t_err" "only one placement was measured (solo): nothing to compare it with"

# A run of two placements that ends with one block (--duration shorter than a block) has no
# answer: it exits 1 and says why, not "no analysis yet" and 0.
check_status 1 "a run of solo and same-pu that ran one block" "$SMTBENCH" run \
	--placements solo,same-pu --duration 1 --warmup-blocks 0 --progress none \
	--out "$t_tmp/short" -- sleep 0.6
check "…says there is no answer, and why" \
	contains "$t_err" "no answer: $t_tmp/short: no two placements could be compared: same-pu vs solo: not compared: same-pu has 1 sample(s)"
check "…its samples are kept" test -s "$t_tmp/short/samples.csv"

done_testing
