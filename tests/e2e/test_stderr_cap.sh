#!/usr/bin/env bash
# test_stderr_cap.sh — workload-stderr.log's cap of 64 MiB holds while a trial runs, not only
# between trials: one trial that writes without end once wrote 1.15 GB in 2 s, and a trial that
# wrote 300 MB left a 300 MB log. The workloads' stderr is a pipe the runner drains and caps,
# so their writes still succeed: the trial's status is its own (no SIGXFSZ, no SIGPIPE), and a
# file the workload writes itself is not limited.
source "$(dirname "$0")/lib.sh"

cap=$((64 << 20))
margin=200 # the note the runner appends once the log is cut
common=(--placements solo --blocks 1 --warmup-blocks 0 --progress none)

# watch_log RUNNER_PID LOG: until the runner exits (at most 300 s), the log's largest size seen.
watch_log() {
	local pid=$1 log=$2 largest=0 size
	for _ in $(seq 3000); do
		size=$(stat -c %s "$log" 2>/dev/null || echo 0)
		((size > largest)) && largest=$size
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	size=$(stat -c %s "$log" 2>/dev/null || echo 0)
	((size > largest)) && largest=$size
	echo "$largest"
}

cut_in_meta() {
	python3 -c 'import json, sys; l = json.load(open(sys.argv[1]))["workload_stderr_log"]
assert l == {"cap_bytes": 64 << 20, "cut": True}, l' "$1/meta.json"
}

# --- one trial writes 100 MB and exits 0 ----------------------------------------------------------
d=$t_tmp/big
"$SMTBENCH" run "${common[@]}" --trial-timeout 300 --out "$d" -- \
	sh -c 'head -c 100000000 /dev/zero >&2; exit 0' >"$t_tmp/big.out" 2>"$t_tmp/big.err" &
runner=$!
largest=$(watch_log "$runner" "$d/workload-stderr.log")
wait "$runner"
rc=$?
check "a trial that writes 100 MB on stderr: the run ends (exit $rc)" test "$rc" -eq 0
check "… its log never grew past the cap while it ran (largest $largest bytes)" \
	test "$largest" -le $((cap + margin))
size=$(stat -c %s "$d/workload-stderr.log")
check "… it holds exactly the cap and the note ($size bytes)" eval \
	'((size > cap && size <= cap + margin)) && tail -c 150 "$d/workload-stderr.log" | grep -q "passed its cap of 64 MiB"'
check "… the trial is ok with exit status 0: its writes past the cap succeeded" python3 -c '
import csv, sys; r = list(csv.DictReader(open(sys.argv[1])))
assert len(r) == 1 and r[0]["status"] == "ok" and r[0]["exit_code"] == "0", r' "$d/samples.csv"
check "… meta.json says the log was cut" cut_in_meta "$d"
check "… and stderr says so" contains "$(cat "$t_tmp/big.err")" "passed its cap of 64 MiB"
rm -rf "$d"

# --- one trial writes without end: the log stays at the cap while it runs -------------------------
d=$t_tmp/endless
"$SMTBENCH" run "${common[@]}" --trial-timeout 600 --out "$d" -- sh -c 'cat /dev/zero >&2' \
	>/dev/null 2>"$t_tmp/endless.err" &
runner=$!
reached=no
for _ in $(seq 1200); do # the cap reached, at most 120 s
	(($(stat -c %s "$d/workload-stderr.log" 2>/dev/null || echo 0) >= cap)) && reached=yes && break
	kill -0 "$runner" 2>/dev/null || break
	sleep 0.1
done
check "an endless writer fills the log to its cap" test "$reached" = yes
# Still writing: 30 more looks at the log over 3 s or more, then the runner is stopped.
largest=0
for _ in $(seq 30); do
	size=$(stat -c %s "$d/workload-stderr.log")
	((size > largest)) && largest=$size
	sleep 0.1
done
kill -0 "$runner" 2>/dev/null
check "… the trial was still running" test $? -eq 0
kill -TERM "$runner"
wait "$runner"
rc=$?
size=$(stat -c %s "$d/workload-stderr.log")
check "… its log stayed at the cap while the trial ran on (largest $largest bytes)" \
	test "$largest" -le $((cap + margin))
check "… and after SIGTERM (exit $rc, $size bytes)" eval '((rc == 143 && size <= cap + margin))'
check "… meta.json says the log was cut" cut_in_meta "$d"
rm -rf "$d"

# --- a file the workload writes itself is not limited ------------------------------------------
d=$t_tmp/own
check_status 0 "a workload that writes 70 MB into its own file" "$SMTBENCH" run "${common[@]}" \
	--out "$d" -- sh -c 'head -c 70000000 /dev/zero >"$0"' "$t_tmp/own.bin"
check "… wrote all of it, and its trial is ok" eval \
	'[[ $(stat -c %s "$t_tmp/own.bin") -eq 70000000 ]] && grep -q ",ok,0," "$d/samples.csv"'
check "… and left no log (it wrote nothing on stderr)" test ! -e "$d/workload-stderr.log"
rm -rf "$d" "$t_tmp/own.bin"

done_testing
