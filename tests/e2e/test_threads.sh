#!/usr/bin/env bash
# smtbench threads PID...: busy threads pinned where this test says (threads_busy.py) are
# reported: a thread or a process that exits during the window is reported as exited; a kill
# ends the window with what was seen; a PID that does not exist is one line and exit 2; another
# user's process; the JSON contract. Where busy threads ran (one PU, SMT siblings, different
# cores) is test_threads_where.sh, which runs alone.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/threads_lib.sh"

# ---- Bad input, before anything is sampled ----
check_status 0 "smtbench threads --help" "$SMTBENCH" threads --help
check "... shows the usage line" contains "$t_out" "smtbench threads PID... [--for DURATION] [--interval MS] [--json]"
check_status 2 "no PID is refused" "$SMTBENCH" threads
check_status 2 "a PID that is not a number is refused" "$SMTBENCH" threads 12x
check "... naming it" contains "$t_err" "'12x'"
check_status 2 "--interval 0 is refused (bounds 1 to 60000 ms)" "$SMTBENCH" threads --interval 0 $$
check_status 2 "--interval 60001 is refused" "$SMTBENCH" threads --interval 60001 $$
check_status 2 "--for takes run --duration's syntax: 'soon' is refused" "$SMTBENCH" threads --for soon $$
check "... naming the option" contains "$t_err" "--for"
check_status 2 "an --interval longer than the window is refused" "$SMTBENCH" threads --for 1s --interval 2000 $$

sh -c 'exit 0' &
gone=$!
wait "$gone"
check_status 2 "a PID that does not exist is refused before sampling" "$SMTBENCH" threads --for 10s $$ "$gone"
check "... in one line naming it" test "$t_err" = "smtbench: process $gone does not exist"
check "... with nothing on standard output" test -z "$t_out"
tid=$(ls /proc/$$/task | head -1)
if [[ $tid == "$$" ]]; then
	start_busy 600 0
	tid=$(ls /proc/$pid/task | sort -n | tail -1)
	check_status 2 "a thread's ID is refused, naming its process" "$SMTBENCH" threads "$tid"
	check "... '$tid is a thread of process $pid'" contains "$t_err" "$tid is a thread of process $pid"
	stop_busy
fi

# Where busy threads ran (one PU, different cores, SMT siblings) is a share of samples, a
# measurement: test_threads_where.sh, which runs alone.

# ---- Threads and processes that exit during the window ----
# The short-lived thread (idle, blocked on a FIFO) exits once the window has begun: the sampler
# has pinned itself to the CPU the busy thread does not use (the last step before the window)
# and sleeps between two samples (the only sleep after that step follows a sample), so the
# thread is seen in the window, then gone.
mkfifo "$t_tmp/short-exit"
start_busy 600 0 --short-thread "$t_tmp/short-exit"
"$SMTBENCH" threads --for 5s --json "$pid" >"$t_tmp/short.json" 2>"$t_tmp/short.err" &
sampler=$!
window_begun() {
	local stat
	[[ $(awk '/^Cpus_allowed_list:/ { print $2 }' "/proc/$sampler/status" 2>/dev/null) =~ ^[0-9]+$ ]] &&
		read -r stat 2>/dev/null <"/proc/$sampler/stat" && [[ ${stat##*) } == S* ]]
}
await 30 window_begun
echo exit >"$t_tmp/short-exit"
wait "$sampler"
rc=$?
check "a thread that exits during the window (exit $rc)" test "$rc" = 0
t_out=$(cat "$t_tmp/short.json")
# On a loaded machine the thread can be gone before the first sample it would be in (the
# sampler's sleep and a sample are not one step): then nothing about it can be checked, which is a
# skip, never a pass.
if ask "sys.exit('short-lived' not in {t['comm'] for t in j['threads']})" "$t_tmp/short.json"; then
	check "... is reported as exited, the others not" ask "
t = {t['comm']: t for t in j['threads']}
sys.exit(not (t['short-lived']['exited'] and not t['worker-1']['exited']
              and not j['processes'][0]['exited']))" "$t_tmp/short.json"
else
	skip "the short-lived thread ended before the sampler's first sample of it (a loaded machine): its exit could not be checked"
fi
stop_busy

start_busy 5 0
check_status 0 "a process that exits during the window: what was seen is reported" \
	"$SMTBENCH" threads --for 10s --json "$pid"
echo "$t_out" >"$t_tmp/vanished.json"
check "... the process and its threads are marked exited, the window ends with it" ask "
sys.exit(not (j['processes'][0]['exited'] and all(t['exited'] for t in j['threads'])
              and j['threads'] and j['window_s'] < 9.5))" "$t_tmp/vanished.json"
stop_busy
start_busy 5 0
check_status 0 "... the same as text" "$SMTBENCH" threads --for 10s "$pid"
check "... which says so" contains "$t_out" "Process $pid (python3) exited"
stop_busy

# ---- Stopped early ----
"$SMTBENCH" threads --for 60s --json $$ >"$t_tmp/stopped.json" &
sampler=$!
# Once it catches SIGTERM (its handler is set just before it samples; the window always takes a
# first sample), a kill ends the window with what it saw: wait for that, not for a time. Until it
# executes smtbench the child is a copy of this shell, which catches SIGTERM for its EXIT trap:
# its name tells the two apart.
catches_term() {
	local caught name
	read -r name 2>/dev/null <"/proc/$sampler/comm" && [[ $name == smtbench ]] || return 1
	caught=$(awk '/^SigCgt:/ { print $2 }' "/proc/$sampler/status" 2>/dev/null)
	[[ -n $caught ]] && (((16#$caught >> 14) & 1))
}
await 10 catches_term
kill -TERM "$sampler"
wait "$sampler"
rc=$?
check "a kill ends the window early: exit 128+15 (got $rc)" test "$rc" = 143
check "... with what was seen, marked interrupted" ask "sys.exit(not (j['interrupted'] and j['samples'] >= 1))" "$t_tmp/stopped.json"

# ---- Another user's process ----
if ((EUID == 0)); then
	if ! command -v setpriv >/dev/null; then
		skip "another user's process: needs setpriv to run as nobody (apt-get install util-linux)"
	elif ! setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$SMTBENCH"; then
		skip "another user's process: nobody cannot run $SMTBENCH (a folder on its path is closed)"
	else
		start_busy 600 0
		as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
		if "${as_nobody[@]}" sh -c "cat /proc/$pid/task/*/stat" >/dev/null 2>&1; then
			check_status 0 "root's process sampled by nobody (its /proc is readable to all here)" \
				"${as_nobody[@]}" "$SMTBENCH" threads --for 1s --json "$pid"
			check "... its threads are listed" contains "$t_out" '"worker-1"'
		else
			check_status 2 "root's process, by nobody, who cannot read its threads" \
				"${as_nobody[@]}" "$SMTBENCH" threads --for 1s "$pid"
			check "... one line naming it" test "$(wc -l <<<"$t_err")" = 1 -a -n "$(grep -F "$pid" <<<"$t_err")"
		fi
		stop_busy
	fi
else
	if cat /proc/1/task/*/stat >/dev/null 2>&1; then
		check_status 0 "PID 1 (another user's) is sampled: its /proc is readable to all here" \
			"$SMTBENCH" threads --for 1s 1
	else
		check_status 2 "PID 1 (another user's), whose threads cannot be read, is refused" \
			"$SMTBENCH" threads --for 1s 1
		check "... one line naming it" contains "$t_err" "process 1"
	fi
fi

# ---- The JSON contract (docs/usage.md, `threads`) ----
check "the JSON has the contract's keys and types" ask "
top = {'pids': list, 'window_s': float, 'interval_ms': int, 'samples': int,
       'sampler_cpu_s': float, 'threads': list, 'pairs': list, 'warnings': list}
ok = all(isinstance(j[k], t) for k, t in top.items())
ok &= j['sampler_cpu'] is None or isinstance(j['sampler_cpu'], int)
ok &= j['interval_ms'] == 10 and j['samples'] >= 2 and j['sampler_cpu_s'] >= 0
for t in j['threads']:
    ok &= set(t) >= {'pid', 'tid', 'comm', 'allowed_cpus', 'ran_on', 'cpu_s', 'exited'}
    ok &= isinstance(t['ran_on'], list) and isinstance(t['cpu_s'], float) and isinstance(t['exited'], bool)
for p in j['pairs']:
    ok &= set(p) >= {'a', 'b', 'both_running', 'same_core_siblings', 'same_pu', 'different_cores'}
    ok &= abs(p['same_core_siblings'] + p['same_pu'] + p['different_cores'] - 1) < 1e-9
ok &= all(isinstance(w, str) for w in j['warnings'])
sys.exit(not ok)" "$t_tmp/short.json"
# --- a zombie has no threads to sample: one line, exit 2, no report (it said "Sampled 0 threads
# … (23045.8% of one CPU)" and exited 0) ----------------------------------------------------------
python3 -c 'import os, sys, time
pid = os.fork()
if pid == 0:
    os._exit(0)
open(sys.argv[1], "w").write("%d\n" % pid)
time.sleep(120)' "$t_tmp/zombie.pid" &
zombie_parent=$!
zombie=
is_zombie() { # its PID written and its state Z
	[[ -s $t_tmp/zombie.pid ]] && zombie=$(cat "$t_tmp/zombie.pid") &&
		[[ $(cut -d' ' -f3 "/proc/$zombie/stat" 2>/dev/null) == Z ]]
}
await 30 is_zombie
check "a zombie was made ($zombie)" eval '[[ $(cut -d" " -f3 "/proc/$zombie/stat") == Z ]]'
check_status 2 "threads on a zombie" "$SMTBENCH" threads "$zombie" --for 1s
check "…one line saying it has no threads to sample and is a zombie, nothing on stdout" eval \
	'[[ $(wc -l <<<"$t_err") -eq 1 && $t_err == *"no threads to sample"* && $t_err == *zombie* && -z $t_out ]]'
check_status 2 "threads --json on a zombie" "$SMTBENCH" threads "$zombie" --for 1s --json
check "…no JSON, the same line" eval '[[ -z $t_out && $t_err == *zombie* ]]'
kill "$zombie_parent" 2>/dev/null
wait "$zombie_parent" 2>/dev/null

# --- the interval achieved: 400 threads read every 1 ms cannot keep up -----------------------------
python3 -c 'import os, sys, threading
stop = threading.Event()
for _ in range(400):
    threading.Thread(target=stop.wait, args=(120,), daemon=True).start()
open(sys.argv[1], "w").write("%d\n" % os.getpid())
stop.wait(120)' "$t_tmp/many.pid" &
many_proc=$!
await 30 test -s "$t_tmp/many.pid"
check_status 0 "threads on 400 threads, every 1 ms, as JSON" \
	"$SMTBENCH" threads "$many_proc" --for 1s --interval 1 --json
check "…interval_achieved_ms is the window over the samples, and above the 1 ms asked" \
	python3 -c 'import json, sys
j = json.loads(sys.argv[1]); a = j["interval_achieved_ms"]
assert j["samples"] >= 2 and abs(a - 1000 * j["window_s"] / (j["samples"] - 1)) < 1e-6, j
assert a > 1.1 and j["interval_ms"] == 1, a' "$t_out"
check_status 0 "the same as text" "$SMTBENCH" threads "$many_proc" --for 1s --interval 1
check "…its header says the interval asked and the one achieved" eval \
	'grep -qE "^Sampled 40[0-9] threads of .*: [0-9]+ samples, every 1 ms asked, [0-9.]+ ms achieved" <<<"$t_out"'
kill "$many_proc" 2>/dev/null
wait "$many_proc" 2>/dev/null
done_testing
