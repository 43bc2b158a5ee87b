#!/usr/bin/env bash
# test_precision — `run --precision` and `analyze` answer with the same statistic: the paired
# interval of the headline comparison's per-block log ratios. A run that says "precision
# reached" leaves analyze's interval of that comparison within the target; meta.json's
# "precision" (the runner's interval at the end) matches analyze's on the same folder; and a run
# interrupted and resumed continues the same running sums (its final interval covers the blocks
# from before the interruption, not only the resumed ones).
source "$(dirname "$0")/lib.sh"

wait_for_rows() { # wait_for_rows FILE N: until FILE has more than N lines (20 s at most)
	for _ in $(seq 200); do
		[[ -f $1 ]] && (($(wc -l <"$1") > $2)) && return 0
		sleep 0.1
	done
	return 1
}

# The runner's interval (meta.json) against analyze's (--json) on the same folder: the same
# comparison, the same blocks, the same interval to 0.5% of its width; within the target when
# the run says it reached it. Prints what it compared.
agree() { # agree DIR TARGET_PCT
	"$SMTBENCH" analyze "$1" --json >"$1.analysis.json" 2>/dev/null || return 1
	python3 - "$1" "$2" <<'PY'
import json, math, sys
folder, target = sys.argv[1], float(sys.argv[2])
meta = json.load(open(folder + "/meta.json"))
analysis = json.load(open(folder + ".analysis.json"))
p = meta["precision"]
a, b = p["comparison"].split("/")
c = next(c for c in analysis["comparisons"] if c["a"]["name"] == a and c["b"]["name"] == b)
lo, hi = c["ratio_ci"]
half = (math.sqrt(hi / lo) - 1) * 100
width = hi - lo
print(f"# runner: {p['blocks']} blocks, [{p['ci'][0]:.5f}, {p['ci'][1]:.5f}] ±{p['half_pct']:.3f}%;"
      f" analyze: {c['design']} {c['blocks_paired']} blocks, [{lo:.5f}, {hi:.5f}] ±{half:.3f}%;"
      f" stop: {meta['stop_reason']}")
assert c["design"] == "paired" and c["blocks_paired"] == p["blocks"], (c["blocks_paired"], p)
assert abs(p["ci"][0] - lo) <= 0.005 * width and abs(p["ci"][1] - hi) <= 0.005 * width
if meta["stop_reason"] == "precision reached":
    assert half <= target, f"precision reached, but analyze's interval is ±{half:.3f}%"
PY
}

run=$t_tmp/reached
check_status 0 "a run with --precision 3 (non-sibling against solo)" \
	"$SMTBENCH" run --placements non-sibling,solo --precision 3 --trials 300 --warmup 1 \
	--iters 2000000 --out "$run"
check "…its plan says the stopping rule is analyze's paired interval" \
	contains "$t_out" "paired by block, as analyze gives it"
check "meta.json's interval is analyze's, and within ±3% if it says precision reached" \
	agree "$run" 3

# Interrupted after some blocks, then resumed: the resumed run's sums include the first part.
run=$t_tmp/resumed
"$SMTBENCH" run --placements non-sibling,solo --precision 1 --trials 40 --warmup 1 \
	--iters 2000000 --out "$run" >/dev/null 2>&1 &
runner=$!
wait_for_rows "$run/samples.csv" 30
kill -TERM "$runner"
wait "$runner"
first=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["precision"]["blocks"])' \
	"$run/meta.json")
check "the interrupted run recorded its interval over the blocks it had ($first)" \
	test "$first" -ge 5
check_status 0 "--resume runs it to its end" "$SMTBENCH" run --resume "$run"
check "…and its interval covers every block, the first part's included (analyze agrees)" \
	agree "$run" 1
done_testing
