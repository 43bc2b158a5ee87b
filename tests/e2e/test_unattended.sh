#!/usr/bin/env bash
# End to end: a run left alone overnight. Hangups under nohup and SIGINT in a background job are
# ignored (inherited so), SIGTERM still stops it resumably; a hung trial is killed at the time
# limit and recorded as `timeout`, and three in a row stop the run; processes a trial leaves
# behind are killed and counted (the `leftovers` column, the report's warnings); descriptors the
# runner inherited do not reach the workload; foreign_s and steal_s are on every row.
source "$(dirname "$0")/lib.sh"

ITERS=${SMTBENCH_TEST_ITERS:-1500000}
line_count() { if [[ -f $1 ]]; then wc -l <"$1"; else echo 0; fi; }
wait_for_rows() { # FILE N: until FILE has more than N lines (at most 10 s)
	for _ in $(seq 100); do
		(($(line_count "$1") > $2)) && return 0
		sleep 0.1
	done
	return 1
}
col() { # col DIR NAME: that column of every data row
	local c; c=$(head -1 "$1/samples.csv" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1)
	[[ -n $c ]] && tail -n +2 "$1/samples.csv" | cut -d, -f"$c"
}
# alive PATTERN: processes whose command line matches (a zombie is dead: not counted). The
# workloads below leave sleeps whose durations end in this script's pid ($$), so that a pattern
# matches this test's processes only, not those of a copy of it running at the same time (a
# leftover that escaped with setsid is in no session of this test to look in).
tag=$$
alive() {
	local p state
	for p in $(pgrep -f -- "$1"); do
		state=$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null)
		[[ -n $state && $state != Z ]] && echo "$p"
	done
	return 0
}
plan=(--placements solo,same-pu --trials 6 --warmup 1 --iters "$ITERS")

# --- nohup: a hangup does not end the run ---------------------------------------------------
nohup "$SMTBENCH" run "${plan[@]}" --out "$t_tmp/hup" >"$t_tmp/hup.out" 2>"$t_tmp/hup.err" &
runner=$!
wait_for_rows "$t_tmp/hup/samples.csv" 3
kill -HUP "$runner"
wait "$runner"
rc=$?
check "nohup, then SIGHUP: the run goes on to the end (exit $rc, want 0)" test "$rc" -eq 0
check "…meta.json says complete" grep -q '"status": "complete"' "$t_tmp/hup/meta.json"
check "…every trial is there (3 per block, 7 blocks: 21 rows)" \
	test "$(($(line_count "$t_tmp/hup/samples.csv") - 1))" -eq 21
check "…and the plan said SIGHUP would not stop it" grep -q "SIGHUP is ignored" "$t_tmp/hup.out"

# --- a background job: SIGINT inherited as ignored ------------------------------------------
"$SMTBENCH" run "${plan[@]}" --out "$t_tmp/bg" >"$t_tmp/bg.out" 2>"$t_tmp/bg.err" &
runner=$!
wait_for_rows "$t_tmp/bg/samples.csv" 3
ignored=$(awk '/^SigIgn:/ { print $2 }' "/proc/$runner/status" 2>/dev/null)
check "a script's & job inherits SIGINT as ignored (SigIgn $ignored)" \
	test $(((16#${ignored:-0} >> 1) & 1)) -eq 1
kill -INT "$runner"
wait "$runner"
rc=$?
check "…SIGINT does not end it (exit $rc, want 0)" test "$rc" -eq 0
check "…meta.json says complete" grep -q '"status": "complete"' "$t_tmp/bg/meta.json"

# --- SIGTERM still stops it, resumably, even under nohup ------------------------------------
nohup "$SMTBENCH" run "${plan[@]}" --out "$t_tmp/term" >/dev/null 2>"$t_tmp/term.err" &
runner=$!
wait_for_rows "$t_tmp/term/samples.csv" 3
kill -TERM "$runner"
wait "$runner"
rc=$?
check "SIGTERM under nohup: the run stops (exit $rc, want 143)" test "$rc" -eq 143
check "…saying how to resume" grep -q -- "--resume $t_tmp/term" "$t_tmp/term.err"
check_status 0 "…and --resume completes it" "$SMTBENCH" run --resume "$t_tmp/term"
check "…with every trial (21 rows)" test "$(($(line_count "$t_tmp/term/samples.csv") - 1))" -eq 21

# --- leftovers: what a trial leaves running is killed and counted ---------------------------
# The two-placement run must answer (exit 0), so each trial does some 20-40 ms of work the clock
# can count: a bare `exit 0` measures 0 s in most trials, and a comparison of those is refused.
loop='i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'
check_status 0 "a workload that leaves a background sleep" \
	"$SMTBENCH" run --placements solo,same-pu --trials 2 --warmup 0 --out "$t_tmp/left" -- \
	sh -c "sleep 7.31$tag & $loop"
check "…no sleep of it is left alive (alive: $(alive "sleep 7.31$tag" | tr '\n' ' '))" \
	test -z "$(alive "sleep 7.31$tag")"
check "…the leftovers column counts one per process of each trial (1 for solo, 2 for same-pu)" \
	python3 - "$t_tmp/left" <<'EOF2'
import csv, sys
for r in csv.DictReader(open(sys.argv[1] + "/samples.csv")):
    want = 1 if r["placement"] == "solo" else 2
    assert int(r["leftovers"]) == want, r
EOF2
check "…the run said so" contains "$t_err" "left processes running"
check "…and so does the report's list of warnings" contains "$t_out" "left processes running"
check_status 0 "a workload that leaves a sleep outside its process group (setsid)" \
	"$SMTBENCH" run --placements solo --trials 2 --warmup 0 --out "$t_tmp/setsid" -- \
	sh -c "setsid sleep 7.32$tag & exit 0"
check "…none is left alive (alive: $(alive "sleep 7.32$tag" | tr '\n' ' '))" \
	test -z "$(alive "sleep 7.32$tag")"
check "…each trial counts it" test "$(col "$t_tmp/setsid" leftovers | sort -u)" = 1
check_status 0 "a clean workload" "$SMTBENCH" run --placements solo --trials 2 --warmup 0 \
	--iters 1000 --out "$t_tmp/clean"
check "…has 0 leftovers on every row" test "$(col "$t_tmp/clean" leftovers | sort -u)" = 0

# --- the trial time limit ---------------------------------------------------------------------
start=$SECONDS
check_status 1 "a hung workload under --trial-timeout 1 is stopped" \
	"$SMTBENCH" run --placements solo --trials 3 --warmup 0 --trial-timeout 1 \
	--out "$t_tmp/hung" -- sleep "1000.71$tag"
check "…within a minute, not 1000 s ($((SECONDS - start)) s)" test $((SECONDS - start)) -lt 60
check "…its trial recorded with status timeout" test "$(col "$t_tmp/hung" status)" = timeout
check "…no process of it left (alive: $(alive "sleep 1000.71$tag" | tr '\n' ' '))" \
	test -z "$(alive "sleep 1000.71$tag")"
check "…meta.json records the limit" python3 - "$t_tmp/hung" <<'EOF2'
import json, sys
m = json.load(open(sys.argv[1] + "/meta.json"))
assert m["settings"]["trial_timeout_s"] == 1, m["settings"]
assert m["trial_timeout"]["limit_s"] == 1, m["trial_timeout"]
EOF2
# Ok once, then hung: the timeouts come one after the other and stop the run at the third.
check_status 1 "three timeouts in a row stop the run" \
	"$SMTBENCH" run --placements solo --trials 10 --warmup 0 --trial-timeout 1 \
	--out "$t_tmp/hang3" -- sh -c "test -e $t_tmp/hang3-ran && exec sleep 1000.72$tag; touch $t_tmp/hang3-ran"
check "…saying so" contains "$t_err" "3 trials in a row ran past the trial time limit"
check "…after one ok trial and three timeouts" \
	test "$(col "$t_tmp/hang3" status | tr '\n' ' ')" = "ok timeout timeout timeout "
check "…leaving nothing behind" test -z "$(alive "sleep 1000.72$tag")"
check_status 0 "the automatic limit: a run with a warm-up" \
	"$SMTBENCH" run --placements solo --trials 1 --warmup 1 --iters 1000 --out "$t_tmp/auto"
check "…prints the rule in the plan and the limit it set" \
	eval 'contains "$t_out" "trial time limit: 10 x the slowest warm-up trial" && contains "$t_out" "trial time limit: 10 s"'
check "…and records both in meta.json" python3 - "$t_tmp/auto" <<'EOF2'
import json, sys
m = json.load(open(sys.argv[1] + "/meta.json"))
assert m["settings"]["trial_timeout_s"] is None, m["settings"]
assert m["trial_timeout"]["limit_s"] == 10 and m["trial_timeout"]["slowest_warmup_trial_s"] > 0, m
assert "automatic" in m["trial_timeout"]["rule"]
EOF2
"$SMTBENCH" run "${plan[@]}" --trial-timeout 2m --out "$t_tmp/keep" >/dev/null 2>&1 &
runner=$!
wait_for_rows "$t_tmp/keep/samples.csv" 3
kill -TERM "$runner"; wait "$runner"
check_status 0 "--resume of a run with --trial-timeout 2m" "$SMTBENCH" run --resume "$t_tmp/keep"
check "…keeps its limit (120 s in meta.json)" python3 - "$t_tmp/keep" <<'EOF2'
import json, sys
m = json.load(open(sys.argv[1] + "/meta.json"))
assert m["settings"]["trial_timeout_s"] == 120 and m["trial_timeout"]["limit_s"] == 120, m
assert m["status"] == "complete"
EOF2
# The automatic limit, set by the warm-up before an interruption: the resume says what it is.
"$SMTBENCH" run "${plan[@]}" --out "$t_tmp/keepauto" >/dev/null 2>&1 &
runner=$!
wait_for_rows "$t_tmp/keepauto/samples.csv" 5
kill -TERM "$runner"; wait "$runner"
check_status 0 "--resume of a run whose warm-up set the automatic limit" \
	"$SMTBENCH" run --resume "$t_tmp/keepauto"
# The limit is 10 x the slowest warm-up trial, at least 10 s: 10 s here unless the machine is
# busy enough to make a warm-up trial take over 1 s (other tests beside this one): the line is
# checked against the limit meta.json stored.
limit=$(python3 -c 'import json, sys; print("%.3g" % json.load(open(sys.argv[1]))["trial_timeout"]["limit_s"])' \
	"$t_tmp/keepauto/meta.json" 2>/dev/null)
check "…prints the limit in force ($limit s, as stored), not only the rule" \
	contains "$t_out" "trial time limit: $limit s (10 x the slowest warm-up trial"
check_status 0 "--trial-timeout 0 turns the limit off" \
	"$SMTBENCH" run --placements solo --trials 1 --warmup 0 --iters 1000 --trial-timeout 0 \
	--out "$t_tmp/nolimit"
check "…as the plan and meta.json say" \
	eval 'contains "$t_out" "trial time limit: none" && grep -q "\"trial_timeout_s\": 0" "$t_tmp/nolimit/meta.json"'
for bad in abc -1 1.5 "" 10x 0s; do
	check_status 2 "--trial-timeout '$bad' is refused" \
		"$SMTBENCH" run --trials 1 --trial-timeout "$bad" --out "$t_tmp/bad-timeout"
done
check "…naming the option, and writing nothing" \
	eval 'contains "$t_err" "--trial-timeout" && [[ ! -e $t_tmp/bad-timeout ]]'

# --- what reaches the workload, and what else ran on its CPUs --------------------------------
# The background sleep inherits the workload's table; before its exec the forked shell briefly
# holds one more (close-on-exec), a window a loaded machine hits (CI did, once). So the listing is
# retried for up to 2 s until it is 0 1 2; a descriptor leaked from the runner stays, and fails.
exec 7</dev/null # a descriptor the runner inherits, as from a careless parent
check_status 0 "a workload that lists its open descriptors" \
	"$SMTBENCH" run --placements solo --trials 1 --warmup 0 --out "$t_tmp/fds" -- \
	sh -c 'sleep 5 & p=$!; i=0
		while [ "$(ls /proc/$p/fd | tr "\n" " ")" != "0 1 2 " ] && [ $i -lt 200 ]; do
			sleep 0.01; i=$((i + 1)); done
		ls /proc/$p/fd >&2; kill $p'
exec 7<&-
check "…sees 0, 1 and 2 only, not the runner's inherited descriptor 7" \
	test "$(tr '\n' ' ' <"$t_tmp/fds/workload-stderr.log")" = "0 1 2 "
check "foreign_s and steal_s: on every row, numbers not below 0" python3 - "$t_tmp/hup" <<'EOF2'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1] + "/samples.csv")))
assert rows
for r in rows:
    assert float(r["foreign_s"]) >= 0 and float(r["steal_s"]) >= 0, r
EOF2
# How many trials a busy machine contaminates is not for a test to say; that it is said is.
"$SMTBENCH" analyze --exclude-contaminated "$t_tmp/hup" >/dev/null 2>"$t_tmp/excl.err"
check "analyze --exclude-contaminated says how many trials it left out" \
	grep -q -- "--exclude-contaminated: [0-9]* trial(s) left out" "$t_tmp/excl.err"
check_status 0 "an older folder without these columns still analyses (results/seed-example)" \
	"$SMTBENCH" analyze "$SMTBENCH_ROOT/results/seed-example"

done_testing
