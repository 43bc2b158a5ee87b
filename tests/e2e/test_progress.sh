#!/usr/bin/env bash
# test_progress — `run --progress`: a log of an unattended run (stderr not a terminal) gets
# timestamped progress lines carrying the blocks and the headline interval so far, and a line for
# a trial that shared its CPUs as it happens; none prints no progress; bad values are refused;
# --resume takes the option.
source "$(dirname "$0")/lib.sh"

stamp='^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z  '
run=$t_tmp/lines
check_status 0 "a run with --progress lines --progress-interval 1, stderr to a file" \
	"$SMTBENCH" run --placements non-sibling,solo --trials 8 --warmup 1 --iters 4000000 \
	--progress lines --progress-interval 1 --out "$run"
lines=$(grep -E "$stamp[0-9]+/8 blocks  " <<<"$t_err")
check "…prints timestamped progress lines (blocks done of 8, elapsed, ETA)" \
	eval '[[ -n $lines ]] && grep -qE " elapsed, ETA [0-9]+:[0-9]{2}:[0-9]{2}" <<<"$lines"'
check "…and once 3 blocks pair, the headline interval so far" \
	eval 'grep -qE "non-sibling/solo [0-9.]+ \[[0-9.]+, [0-9.]+\] ±[0-9.]+% \(paired, [0-9]+ blocks\)" <<<"$lines"'
check "…no redrawn line (no carriage return) in a log" eval '[[ $t_err != *$'"'"'\r'"'"'* ]]'

check_status 0 "--progress none" "$SMTBENCH" run --placements solo --trials 3 --warmup 0 \
	--iters 1000 --progress none --progress-interval 1 --out "$t_tmp/none"
check "…prints no progress line" eval '! grep -qE "$stamp" <<<"$t_err"'
check_status 0 "the default (auto) to a file, a short run" "$SMTBENCH" run --placements solo \
	--trials 3 --warmup 0 --iters 1000 --out "$t_tmp/auto"
check "…prints progress lines, but not before a minute has passed: none here" \
	eval '! grep -qE "$stamp[0-9]+/3 blocks" <<<"$t_err"'
for bad in "--progress bogus" "--progress-interval 0" "--progress-interval 601" \
	"--progress-interval x"; do
	# shellcheck disable=SC2086 # the option and its value, split on purpose
	check_status 2 "$bad is refused" "$SMTBENCH" run $bad --out "$t_tmp/bad"
done
check "…naming the option, writing nothing" \
	eval 'contains "$t_err" "--progress-interval" && [[ ! -e $t_tmp/bad ]]'

# A trial that shared its CPUs gets its own line: a busy loop on solo's CPU while it runs.
cpu=$("$SMTBENCH" topo --json | python3 -c '
import json, sys
print(next(p["pus"][0] for p in json.load(sys.stdin)["placements"] if p["name"] == "solo"))')
taskset -c "$cpu" sh -c 'while :; do :; done' &
hog=$!
check_status 0 "a solo run beside a busy loop on its CPU, --progress lines" \
	"$SMTBENCH" run --placements solo --trials 4 --warmup 0 --iters 4000000 --progress lines \
	--out "$t_tmp/shared"
kill "$hog"
wait "$hog" 2>/dev/null
check "…says, as it happens, which trial shared its CPUs and by how much" \
	eval 'grep -qE "${stamp}warning: trial [0-9]+ \(solo\) shared its CPUs: foreign [0-9.e-]+ s, steal [0-9.e-]+ s in [0-9.e-]+ s" <<<"$t_err"'

# --resume takes the progress options (they are not settings of the run).
"$SMTBENCH" run --placements non-sibling,solo --trials 20 --warmup 0 --iters 4000000 \
	--progress none --out "$t_tmp/resume" >/dev/null 2>&1 &
runner=$!
for _ in $(seq 100); do
	[[ -f $t_tmp/resume/samples.csv ]] && (($(wc -l <"$t_tmp/resume/samples.csv") > 8)) && break
	sleep 0.1
done
kill -TERM "$runner"
wait "$runner"
check_status 0 "--resume DIR --progress lines --progress-interval 1" \
	"$SMTBENCH" run --resume "$t_tmp/resume" --progress lines --progress-interval 1
check "…prints progress lines" eval 'grep -qE "$stamp[0-9]+/20 blocks" <<<"$t_err"'
check_status 2 "--resume with a setting is still refused" \
	"$SMTBENCH" run --resume "$t_tmp/resume" --trials 3
done_testing
