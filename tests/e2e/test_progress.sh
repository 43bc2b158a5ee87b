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
# --- the bar fits the terminal's width (TIOCGWINSZ), and follows it on SIGWINCH ------------------
# Three placements and --precision make the widest bar (189 columns); on a pseudo-terminal of 60
# columns each drawn bar must fit in 59, at 200 in 199, and a resize mid-run is followed from the
# next bar on (the one being drawn when it came may keep the old width).
bars() { # bars COLS RESIZE_TO NAME: the run's bars as JSON (pty_bars.py), at most 120 s
	python3 "$SMTBENCH_ROOT/tests/e2e/pty_bars.py" "$1" "$2" 120 -- "$SMTBENCH" run \
		--placements solo,same-pu,non-sibling --precision 0.01 --duration 4s --warmup-blocks 1 \
		--iters 1000 --progress bar --out "$t_tmp/$3" >"$t_tmp/$3.json"
}
widths() { # widths NAME FROM: the widest bar from index FROM on, and the widest of all
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); b = d["bars"]; f = int(sys.argv[2]) if sys.argv[2] != "resize" else (d["first_after_resize"] or 0) + 1
assert d["status"] == 0 and not d["timed_out"] and len(b) > f, (d["status"], d["timed_out"], len(b))
print(max(len(x) for x in b[f:]), max(len(x) for x in b))' "$t_tmp/$1.json" "$2"
}
bars 200 0 wide
read -r w200 _ < <(widths wide 0)
check "at 200 columns the bar holds everything, and fits ($w200 columns)" eval '((w200 > 120 && w200 <= 199))'
bars 60 0 narrow
read -r w60 _ < <(widths narrow 0)
check "at 60 columns every bar fits in 59 ($w60 columns)" eval '((w60 >= 30 && w60 <= 59))'
check "…and still shows the blocks and the ETA" python3 -c 'import json, sys
b = json.load(open(sys.argv[1]))["bars"][-1]; assert "blocks" in b and ("left" in b or "ETA" in b), b' "$t_tmp/narrow.json"
bars 60 200 widened
read -r after all < <(widths widened resize)
check "resized from 60 to 200 columns mid-run: the bars widen ($after columns after, at most 199)" \
	eval '((after > 60 && after <= 199))'
bars 200 60 narrowed
read -r after all < <(widths narrowed resize)
check "resized from 200 to 60 columns mid-run: the bars after it fit in 59 ($after columns)" \
	eval '((after <= 59))'
done_testing
