#!/usr/bin/env bash
# test_speed — issue 11's runner side: calibration (the count recorded, kept by --resume),
# --precision (stops at its target, never before its minimum of blocks), meta.json's stop_reason
# for each of its four values, and the group commit of samples.csv (every trial on disk, fsynced
# after its last write, at a normal end and after SIGTERM). Calibration's accuracy per kernel is
# tests/unit/test_calibrate.c; the stopping rule on synthetic statistics is test_precision.c.
. "$(dirname "$0")/lib.sh"

meta() { # meta DIR EXPR: a Python expression of m (meta.json), printed
	python3 -c "import json,sys; m=json.load(open(sys.argv[1]+'/meta.json')); print($2)" "$1"
}
rows() { echo $(($(wc -l <"$1/samples.csv") - 1)); }
wait_for_rows() { # wait_for_rows DIR N: until samples.csv has more than N rows (10 s at most)
	for _ in $(seq 100); do
		[[ -f $1/samples.csv ]] && (($(rows "$1") > $2)) && return 0
		sleep 0.1
	done
	return 1
}
short=(--trial-time 0.01 --warmup 0)

# --- calibration recorded -----------------------------------------------------------------
check_status 0 "a calibrated run (no --iters)" \
	"$SMTBENCH" run --placements solo --trials 2 "${short[@]}" --out "$t_tmp/cal"
check "the plan printout shows the calibrated count and its cost" \
	contains "$t_out" "calibrated for 0.01 s alone on CPU"
check "…and the expected duration from it: 2 trials of ~0.01 s" \
	contains "$t_out" "expected duration: 2 trials of ~0.01 s: about 1 s (from the calibration)"
check "meta.json records the count, its cost per iteration and the calibration's time" \
	test "$(meta "$t_tmp/cal" "m['calibration']['a']['iters'] == m['settings']['iters'] > 0 and
	        m['calibration']['a']['ns_per_iter'] > 0 and m['calibration']['a']['calibration_s'] > 0
	        and m['settings']['trial_time_s'] == 0.01")" = True
check "the workload ran with the calibrated count" test "$(meta "$t_tmp/cal" \
	"m['workloads']['a']['argv'][1] == str(m['settings']['iters'])")" = True
check_status 0 "--beside-kernel without --beside-iters is calibrated too" \
	"$SMTBENCH" run --placements non-sibling,solo --beside-kernel pause --trials 2 "${short[@]}" \
	--out "$t_tmp/beside"
check "…meta.json records its own count, and the beside process ran it" \
	test "$(meta "$t_tmp/beside" "m['calibration']['b']['iters'] == m['settings']['beside_iters'] > 0
	        and m['workloads']['b']['argv'] == ['pause', str(m['settings']['beside_iters'])]")" = True
check_status 0 "--iters is not calibrated" \
	"$SMTBENCH" run --placements solo --trials 1 --warmup 0 --iters 1000 --out "$t_tmp/iters"
check "…so the plan says its duration is not known before the warm-up" \
	contains "$t_out" "expected duration: not known before the warm-up (--iters is not calibrated"
check "…meta.json's calibration is null and the printout says so" \
	test "$(meta "$t_tmp/iters" "m['calibration']['a'] is None")" = True -a \
	-n "$(grep -- '--iters: not calibrated' <<<"$t_out")"
check_status 0 "a calibrated run with --precision and a budget of blocks" \
	"$SMTBENCH" run --placements solo,same-pu --precision 50 --blocks 30 "${short[@]}" \
	--out "$t_tmp/budget"
check "…says at most how many trials and up to how long (same-pu's copies take turns: twice)" \
	contains "$t_out" "expected duration: at most 60 trials of ~0.015 s: up to 1 s (from the calibration)"
check_status 2 "--trial-time with --iters is refused" \
	"$SMTBENCH" run --iters 10 --trial-time 0.1 --out "$t_tmp/bad1"
check_status 2 "--trial-time with a command is refused (a command cannot be calibrated)" \
	"$SMTBENCH" run --trial-time 0.1 --out "$t_tmp/bad2" -- /bin/true
check_status 2 "--precision 0 is refused" "$SMTBENCH" run --precision 0 --out "$t_tmp/bad3"
check "…and nothing was written" test ! -e "$t_tmp/bad1" -a ! -e "$t_tmp/bad2" -a ! -e "$t_tmp/bad3"
check_status 0 "a command: not calibrated, its length shown after the warm-up" \
	"$SMTBENCH" run --placements solo --trials 1 --warmup 1 --out "$t_tmp/cmd" -- /bin/true
check "…the plan says it cannot be calibrated" contains "$t_out" "cannot be calibrated"
check "…its measured length follows the warm-up" contains "$t_err" "per copy in the warm-up"

# --- stop reasons -------------------------------------------------------------------------
check "trials: a run of --trials 2 records stop_reason \"trials\"" \
	test "$(meta "$t_tmp/cal" "m['stop_reason']")" = trials
# 3 s: blocks of 0.01 s trials, a few even when other tests load the machine (at 1 s a loaded
# machine ran one block, too few for an analysis: no report.md to say why it stopped).
check_status 0 "a run of --duration 3" \
	"$SMTBENCH" run --placements non-sibling,solo --duration 3 "${short[@]}" --out "$t_tmp/dur"
check "duration: stop_reason \"duration\"" test "$(meta "$t_tmp/dur" "m['stop_reason']")" = duration
check "…and the report says why it stopped" grep -q "Stopped: duration" "$t_tmp/dur/report.md"

# --precision 50 is met by two placements of one machine at the first chance or soon after: the
# run stops at the minimum of 20 measured blocks, or a few blocks later where a trial of 0.01 s
# met other load (CI under ASan once took 21), long before its 200. The rule itself, stopping at
# exactly the minimum once the interval is within, is test_precision's.
check_status 0 "--precision 50 with --trials 200" \
	"$SMTBENCH" run --placements non-sibling,solo --precision 50 --trials 200 "${short[@]}" \
	--out "$t_tmp/prec"
check "precision: stop_reason \"precision reached\"" \
	test "$(meta "$t_tmp/prec" "m['stop_reason']")" = "precision reached"
done_prec=$(meta "$t_tmp/prec" "m['trials_done']")
check "…after 20 measured blocks (the minimum), not before, nor long after (${done_prec:-?} trials: 40-60)" \
	test "${done_prec:-0}" -ge 40 -a "${done_prec:-0}" -le 60
check "…the terminal summary and report.json say so" \
	contains "$t_out" "Stopped: precision reached" -a \
	"$(python3 -c "import json; print(json.load(open('$t_tmp/prec/report.json'))['stop_reason'])")" \
	= "precision reached"
check "…and meta.json keeps the target" test "$(meta "$t_tmp/prec" "m['settings']['precision_pct']")" = 50.0

# A target no machine meets: the trial limit stops the run, and the report says the target was
# not reached.
check_status 0 "--precision 0.001 with --trials 12" \
	"$SMTBENCH" run --placements non-sibling,solo --precision 0.001 --trials 12 "${short[@]}" \
	--out "$t_tmp/prec-missed"
check "…stops at its trials (\"trials\"), all 24 trials run" test "$(meta "$t_tmp/prec-missed" \
	"(m['stop_reason'], m['trials_done'])")" = "('trials', 24)"
check "…the report says the target was not reached" \
	grep -q "precision target was not reached" "$t_tmp/prec-missed/report.md"

# --- SIGTERM: interrupted, every trial on disk, fsynced after its last write, resumable ----
# LeakSanitizer cannot run under ptrace (it stops the program with a fatal error): the traced
# runs of a sanitized build check leaks no more (every other run of this test still does).
traced_asan=${ASAN_OPTIONS:-}
[[ ${SMTBENCH_SANITIZE:-0} == 1 ]] && traced_asan="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
if command -v strace >/dev/null 2>&1; then
	ASAN_OPTIONS=$traced_asan strace -f -qq -e trace=openat,write,fsync -o "$t_tmp/term.trace" \
		"$SMTBENCH" run --placements non-sibling,solo --precision 0.001 --trials 5000 \
		"${short[@]}" --out "$t_tmp/term" >"$t_tmp/term.out" 2>"$t_tmp/term.err" &
	tracer=$!
	wait_for_rows "$t_tmp/term" 60
	kill -TERM "$(pgrep -P "$tracer" -x smtbench)"
	wait "$tracer"
	rc=$?
	check "SIGTERM: exit 143 (got $rc)" test "$rc" -eq 143
	check "SIGTERM: stop_reason \"interrupted\"" \
		test "$(meta "$t_tmp/term" "m['stop_reason']")" = interrupted
	check "SIGTERM: samples.csv holds exactly the trials meta.json counts, each whole" \
		test "$(python3 - "$t_tmp/term" <<'PY'
import csv, json, sys
d = sys.argv[1]
rows = {}
for r in csv.DictReader(open(d + "/samples.csv")):
    rows.setdefault(r["trial"], []).append(r["placement"])
whole = all(len(v) == (1 if v[0] == "solo" else 2) for v in rows.values())
print(whole and len(rows) == json.load(open(d + "/meta.json"))["trials_done"])
PY
)" = True
	fsynced_last() { # fsynced_last TRACE: samples.csv's last write is followed by its fsync
		python3 - "$1" <<'PY'
import re, sys
fd, last_write, last_fsync = None, -1, -1
for i, line in enumerate(open(sys.argv[1])):
    m = re.search(r'openat\(.*samples\.csv", .*\) = (\d+)', line)
    if m:
        fd = m.group(1)
    elif fd and re.search(r'\bwrite\(%s,' % fd, line):
        last_write = i
    elif fd and re.search(r'\bfsync\(%s\)' % fd, line):
        last_fsync = i
print("yes" if fd and 0 <= last_write < last_fsync else "no: fd %s, last write at line %d, last fsync at %d" % (fd, last_write, last_fsync))
PY
	}
	result=$(fsynced_last "$t_tmp/term.trace")
	check "SIGTERM: samples.csv was fsynced after its last trial ($result)" test "$result" = yes
	counts=$(python3 - "$t_tmp/term.trace" <<'PY'
import re, sys
fd, writes, fsyncs = None, 0, 0
for line in open(sys.argv[1]):
    m = re.search(r'openat\(.*samples\.csv", .*\) = (\d+)', line)
    if m:
        fd = m.group(1)
    elif fd and re.search(r'\bwrite\(%s,' % fd, line):
        writes += 1
    elif fd and re.search(r'\bfsync\(%s\)' % fd, line):
        fsyncs += 1
print(fsyncs, writes)
PY
)
	check "SIGTERM: group commit: fewer fsyncs than trial writes of samples.csv (fsyncs, writes: $counts)" \
		test "${counts% *}" -lt "${counts#* }"
	ASAN_OPTIONS=$traced_asan strace -f -qq -e trace=openat,write,fsync -o "$t_tmp/end.trace" \
		"$SMTBENCH" run --placements solo --trials 30 "${short[@]}" --out "$t_tmp/end" >/dev/null 2>&1
	result=$(fsynced_last "$t_tmp/end.trace")
	check "normal end: samples.csv was fsynced after its last trial ($result)" test "$result" = yes
	check "normal end: every trial is in samples.csv" test "$(rows "$t_tmp/end")" -eq 30
else
	for what in "exit 143" "stop_reason interrupted" "trials on disk" "fsync after SIGTERM" \
		"group commit" "fsync at the end" "trials at the end"; do
		skip "SIGTERM/group commit ($what): needs strace (apt-get install strace)"
	done
fi

# --- resume keeps the calibrated count and the precision target --------------------------
if [[ -f $t_tmp/term/meta.json ]]; then
	iters=$(meta "$t_tmp/term" "m['settings']['iters']")
	"$SMTBENCH" run --resume "$t_tmp/term" >"$t_tmp/resume.out" 2>"$t_tmp/resume.err" &
	runner=$!
	wait_for_rows "$t_tmp/term" "$(( $(rows "$t_tmp/term") + 6 ))"
	# SIGTERM: a background job of a script starts with SIGINT ignored, so the SIGINT sent here
	# before was lost, and the resumed run went on through its 5000 trials (13 to 20 minutes of
	# a loaded make test).
	kill -TERM "$runner"
	wait "$runner"
	rc=$?
	check "resume: SIGTERM stops the resumed run part way (exit $rc, want 143)" test "$rc" -eq 143
	check "resume: no calibration again" test -z "$(grep calibrat "$t_tmp/resume.out")"
	check "resume: the recorded count is kept ($iters)" \
		test "$(meta "$t_tmp/term" "m['settings']['iters']")" = "$iters"
	check "resume: the resumed trials ran with it" test "$(python3 - "$t_tmp/term" "$iters" <<'PY'
import json, sys
m = json.load(open(sys.argv[1] + "/meta.json"))
print(m["workloads"]["a"]["argv"][1] == sys.argv[2] and len(m["segments"]) == 2)
PY
)" = True
	check "resume: the precision target is kept" \
		test "$(meta "$t_tmp/term" "m['settings']['precision_pct']")" = 0.001
else
	skip "resume keeps the count: the SIGTERM run above did not run (needs strace)"
fi
done_testing
