#!/usr/bin/env bash
# bench_experiment — the runner as a user meets it, side by side with hyperfine:
#   1. overhead: the median time from one trial's start to the next in `smtbench run --placements
#      solo --iters 1` (the nop kernel, about 1 µs of work: what is left is the runner's cost per
#      trial, fork to fork, fsync included) against `hyperfine -N`'s median time per run of the
#      same static binary. Both run in alternating rounds, so that the machine's load hits both
#      alike. Without hyperfine that line is skipped, and says so.
#   1b. a pair trial beside a solo one: `run --placements P --iters 1` for solo and for every pair
#      placement this machine has (`topo --json`), in alternating rounds; per placement the median
#      time from one trial's start to the next (the cost per trial), the whole run's wall time per
#      trial, and, from samples.csv's start_s/end_s, the span of a trial (first start to last end)
#      and the gap after it (last end to the next trial's start); then each pair's cost over
#      solo's (issue 17 asks for at most 2).
#   2. the wall time `run --placements non-sibling,solo --precision 2` needs (capped by
#      --duration $PRECISION_CAP_S), and why it stopped;
#   3. the precision a fixed 60-second run reaches: the runner's stopping-rule interval, and the
#      analysis's 95% interval of the ratio paired by block and unpaired, with the blocks each
#      would need for ±2%.
# 2 and 3 take minutes: BENCH_QUICK=1 skips them (said, and counted as skipped).
#
# usage: tests/bench/bench_experiment.sh BUILD_DIR
set -u
build=$(cd "${1:?usage: bench_experiment.sh BUILD_DIR}" && pwd)
prog=$build/smtbench
nop=$build/kernels/nop
ROUNDS=${ROUNDS:-5}
TRIALS_PER_ROUND=${TRIALS_PER_ROUND:-200}
PRECISION_CAP_S=${PRECISION_CAP_S:-300}
FIXED_S=${FIXED_S:-60}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smtbench-bench-experiment.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
skipped=0

echo "bench_experiment: the runner beside hyperfine, and the experiment's own time"
have_hyperfine=0
command -v hyperfine >/dev/null 2>&1 && have_hyperfine=1
for ((r = 0; r < ROUNDS; r++)); do
	"$prog" run --placements solo --iters 1 --trials "$TRIALS_PER_ROUND" --warmup 0 \
		--out "$tmp/overhead-$r" >/dev/null 2>&1 || { echo "bench_experiment: smtbench run failed"; exit 1; }
	if ((have_hyperfine)); then
		hyperfine -N --runs "$TRIALS_PER_ROUND" --warmup 10 --export-json "$tmp/hyperfine-$r.json" \
			"$nop 1" >/dev/null 2>&1 || { echo "bench_experiment: hyperfine failed"; exit 1; }
	fi
done
python3 - "$tmp" "$ROUNDS" "$have_hyperfine" <<'PY'
import csv, json, statistics, sys
tmp, rounds, have_hf = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
cycles, hf = [], []
for r in range(rounds):
    starts = {}
    for row in csv.DictReader(open(f"{tmp}/overhead-{r}/samples.csv")):
        starts.setdefault(int(row["trial"]), float(row["start_s"]))
    s = [starts[k] for k in sorted(starts)]
    cycles += [b - a for a, b in zip(s, s[1:])]
    if have_hf:
        hf += json.load(open(f"{tmp}/hyperfine-{r}.json"))["results"][0]["times"]
def q(v, p): return sorted(v)[int(p * (len(v) - 1))]
print(f"  smtbench run, solo, nop 1   median {statistics.median(cycles)*1e3:7.3f} ms per trial"
      f"   p90 {q(cycles, .9)*1e3:7.3f} ms   ({len(cycles)} trials in {rounds} rounds; fork to fork,"
      " group-committed fsync included)")
if have_hf:
    m, h = statistics.median(cycles), statistics.median(hf)
    print(f"  hyperfine -N, nop 1         median {h*1e3:7.3f} ms per run     p90 {q(hf, .9)*1e3:7.3f} ms"
          f"   ({len(hf)} runs, alternating with the rounds above)")
    print(f"  smtbench / hyperfine: {m/h:.2f}x ({'at or below' if m <= h else 'above'} hyperfine's per-run cost)")
PY
if ((!have_hyperfine)); then
	echo "  SKIP hyperfine -N: hyperfine is not installed (apt-get install hyperfine); smtbench's own number is above"
	skipped=$((skipped + 1))
fi

pairs=$("$prog" topo --json | python3 -c '
import json, sys
print(" ".join(p["name"] for p in json.load(sys.stdin)["placements"]
               if p["available"] and len(p["pus"]) == 2))')
for ((r = 0; r < ROUNDS; r++)); do
	for p in solo $pairs; do
		start=$(date +%s.%N)
		"$prog" run --placements "$p" --iters 1 --trials "$TRIALS_PER_ROUND" --warmup 0 \
			--out "$tmp/pair-$p-$r" >/dev/null 2>&1 || { echo "bench_experiment: smtbench run --placements $p failed"; exit 1; }
		end=$(date +%s.%N)
		echo "$start $end" >"$tmp/pair-$p-$r.wall"
	done
done
python3 - "$tmp" "$ROUNDS" "$TRIALS_PER_ROUND" solo $pairs <<'PY'
import csv, statistics, sys
tmp, rounds, trials, placements = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
cost = {}
for p in placements:
    cycle, span, gap, whole = [], [], [], []
    for r in range(rounds):
        t = {}
        for row in csv.DictReader(open(f"{tmp}/pair-{p}-{r}/samples.csv")):
            se = t.setdefault(int(row["trial"]), [float("inf"), 0.0])
            se[0], se[1] = min(se[0], float(row["start_s"])), max(se[1], float(row["end_s"]))
        k = sorted(t)
        cycle += [t[b][0] - t[a][0] for a, b in zip(k, k[1:])]
        gap += [t[b][0] - t[a][1] for a, b in zip(k, k[1:])]
        span += [t[a][1] - t[a][0] for a in k]
        start, end = map(float, open(f"{tmp}/pair-{p}-{r}.wall").read().split())
        whole.append((end - start) / trials)
    cost[p] = statistics.median(cycle)
    print(f"  run --placements {p:<14} median {cost[p]*1e3:6.3f} ms per trial (start to start)"
          f"  whole run {statistics.median(whole)*1e3:6.3f} ms/trial  span {statistics.median(span)*1e3:6.3f} ms"
          f"  gap {statistics.median(gap)*1e3:6.3f} ms")
for p in placements[1:]:
    print(f"  {p} / solo: {cost[p]/cost['solo']:.2f}x per trial (at most 2x wanted)")
PY

if [[ ${BENCH_QUICK:-0} == 1 ]]; then
	echo "  SKIP run --precision 2 and the fixed ${FIXED_S} s run: BENCH_QUICK=1"
	skipped=$((skipped + 2))
else
	start=$(date +%s.%N)
	"$prog" run --placements non-sibling,solo --precision 2 --duration "${PRECISION_CAP_S}s" \
		--out "$tmp/precision" >/dev/null 2>&1
	end=$(date +%s.%N)
	"$prog" run --placements non-sibling,solo --duration "${FIXED_S}s" --out "$tmp/fixed" \
		>/dev/null 2>&1
	"$prog" analyze "$tmp/fixed" --json >"$tmp/fixed-paired.json" 2>/dev/null
	"$prog" analyze "$tmp/fixed" --unpaired --json >"$tmp/fixed-unpaired.json" 2>/dev/null
	python3 - "$tmp" "$start" "$end" "$PRECISION_CAP_S" "$FIXED_S" <<'PY'
import json, math, sys
tmp, start, end, cap, fixed = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5]
def runner_interval(folder):
    # The runner's own interval at the end (meta.json's "precision": the paired rule of
    # runner/precision.h, the one analyze gives).
    p = json.load(open(f"{folder}/meta.json"))["precision"]
    return p["ratio"], p["half_pct"], p["blocks"]
def contention(path):
    c = next(c for c in json.load(open(path))["comparisons"] if c["label"] == "contention")
    lo, hi = c["ratio_ci"]
    half = math.sqrt(hi / lo)  # the interval's half-width as a factor, in log space
    n = c["blocks_paired"] if c["design"] == "paired" else min(c["a"]["n"], c["b"]["n"])
    # The half-width shrinks as 1/sqrt(blocks): the blocks that bring it to ±2%.
    need = n * (math.log(half) / math.log(1.02)) ** 2
    return c["ratio_mean"], (half - 1) * 100, n, need
meta = json.load(open(f"{tmp}/precision/meta.json"))
cal = meta["calibration"]["a"]
r, h, n = runner_interval(f"{tmp}/precision")
print(f"  run --placements non-sibling,solo --precision 2: {end - start:.1f} s wall (calibration"
      f" {cal['calibration_s']:.2f} s, {cal['iters']} iterations), stopped: {meta['stop_reason']}"
      f" after {n} paired blocks; ratio {r:.4f} ±{h:.2f}% (runner's interval; cap --duration {cap}s)")
r, h, n = runner_interval(f"{tmp}/fixed")
print(f"  run --placements non-sibling,solo --duration {fixed}s: {n} paired blocks; ratio {r:.4f}"
      f" ±{h:.2f}% (runner's interval)")
for design in ("paired", "unpaired"):
    r, h, n, need = contention(f"{tmp}/fixed-{design}.json")
    print(f"    analyze, {design:<8}: non-sibling/solo {r:.4f} ±{h:.2f}% from {n} blocks;"
          f" ±2% would need about {need:.0f} blocks")
PY
fi
echo "  ($skipped line(s) skipped)"
