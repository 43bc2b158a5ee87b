#!/usr/bin/env bash
# Runs every unit test binary and every end-to-end script, then prints the wall time, the ten
# slowest tests and one total line, alone on the last line: "N passed, N failed, N skipped".
# Each test prints TAP lines ("ok N - ...", "not ok N - ...", "ok N - # SKIP why") and ends with
# its plan "1..N". A skip is never a pass: it is counted apart and its reason is shown. A test
# program that exits non-zero without having reported a failure, or whose plan is missing or does
# not match the lines it printed (it stopped half way), counts as one failure more.
#
# A program that cannot run here at all prints "1..0 # SKIP why" alone (TAP's whole-program skip,
# kselftest's ksft_exit_skip): one skip, with its reason.
#
# Tests run at once, a pool of SMTBENCH_TEST_JOBS of them (`make test J=N`; default: the CPUs
# this process may use, plus one, as the tests also wait on I/O and on each other's processes),
# each reported as it ends. A test that measures time declares it in its own file, on a line of
# its own:
#     # serial: WHY                       (an e2e script)
#      * serial: WHY                      (a unit test's source, in a comment)
# and runs after the pool, alone: nothing else of `make test` runs beside it. With
# SMTBENCH_TEST_TIMED=0 (make test TIMED=0) each of these is one skip instead, with its reason.
#
# Each test runs in a session of its own (setsid), so that a test can tell its own processes
# (its session's) from everything else on the machine.
#
# usage: tests/run.sh BUILD_DIR [NAME_FILTER]   (make test T=NAME_FILTER)
# The filter is a part of the test's name, or of KIND/NAME (unit/test_trial, e2e/test_run):
# `make test T=unit/` runs the unit tests only.
set -u
build=${1:?usage: tests/run.sh BUILD_DIR [FILTER]}
filter=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=$(cd "$root" && cd "$build" && pwd)
export SMTBENCH="$build/smtbench" SMTBENCH_BUILD="$build" SMTBENCH_ROOT="$root"
export SMTBENCH_FIXTURES="$root/tests/fixtures"
# Sanitizers must fail a test loudly; leak checking needs ptrace, which some sandboxes forbid.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:exitcode=99}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:exitcode=99}

cpus=$(nproc 2>/dev/null || echo 1)
jobs=${SMTBENCH_TEST_JOBS:-$((cpus + 1))}
if ! [[ $jobs =~ ^[1-9][0-9]*$ ]]; then
	echo "tests/run.sh: SMTBENCH_TEST_JOBS (make test J=N) must be a whole number of 1 or more, not '$jobs'" >&2
	exit 2
fi

logdir=$(mktemp -d "${TMPDIR:-/tmp}/smtbench-tests.XXXXXX")
declare -A job_pid=()
stop_all() { # Ctrl-C or a kill: the tests run in sessions of their own, so end them here, and
	# the jobs that wait for them, before their folder of logs goes.
	local f
	for f in "$logdir"/*.pid; do
		[[ -s $f ]] && kill -TERM -- "-$(cat "$f")" 2>/dev/null
	done
	((${#job_pid[@]})) && kill -TERM "${job_pid[@]}" 2>/dev/null
	wait
	exit 130
}
trap stop_all INT TERM HUP
trap 'rm -rf "$logdir"' EXIT

now() { if [[ -n ${EPOCHREALTIME:-} ]]; then echo "${EPOCHREALTIME/,/.}"; else date +%s.%N; fi; }
# seconds_of "XmY.ZZZs": `times`' format, as seconds.
seconds_of() { awk -v t="$1" 'BEGIN { split(t, p, "m"); sub("s", "", p[2]); printf "%.2f", p[1] * 60 + p[2] }'; }
# The reasons the test files declare for running alone ("serial: WHY"), as lines "FILE:WHY", in
# one pass over every file.
serial_reasons() {
	(($#)) || return 0
	grep -H -m 1 -E '^[[:space:]]*(#|\*|//|/\*)[[:space:]]*serial:' "$@" 2>/dev/null |
		sed -E 's@^([^:]*):[[:space:]]*(#|\*|//|/\*)[[:space:]]*serial:[[:space:]]*@\1:@; s@[[:space:]]*(\*/)?[[:space:]]*$@@'
}

# A test is known by its ID, KIND/NAME (a unit test and an e2e script may share a name:
# test_cpu_model, test_kernels, test_precision, test_report); its lines say its NAME.
# run_one ID COMMAND...: runs one test in a session of its own, its output into ID.log, then
# writes ID.report (the lines to print) and ID.count ("passed failed skipped wall cpu").
run_one() {
	local id=$1; shift
	local name=${id#*/} base="$logdir/${id/\//.}"
	local log="$base.log"
	local start end rc
	start=$(now)
	if command -v setsid >/dev/null; then
		# A background job of this subshell is no process group leader, so setsid execs the
		# test in place: its pid is the session's, which stop_all ends.
		setsid "$@" >"$log" 2>&1 </dev/null 9>&- &
	else
		"$@" >"$log" 2>&1 </dev/null 9>&- &
	fi
	local pid=$!
	echo "$pid" >"$base.pid"
	wait "$pid"
	rc=$?
	end=$(now)
	rm -f "$base.pid"
	# This subshell's children are the test and whatever it waited for: their CPU time.
	# (`times` itself, not in a pipe: a forked subshell would have no children of its own.)
	local cpu_line user sys
	times >"$base.times"
	{ read -r _; read -r cpu_line; } <"$base.times"
	user=$(seconds_of "${cpu_line%% *}"); sys=$(seconds_of "${cpu_line##* }")
	local ok bad skip plan
	skip=$(grep -c '^ok [0-9]* *- # SKIP' "$log")
	ok=$(($(grep -c '^ok ' "$log") - skip))
	bad=$(grep -c '^not ok ' "$log")
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$log" | tail -n 1)
	if grep -q '^1\.\.0 # SKIP ' "$log" && ((ok + skip + bad == 0 && rc == 0)); then
		# The whole program skipped (kselftest's way): one skip, with its reason.
		echo "ok 1 - # SKIP $name: $(sed -n 's/^1\.\.0 # SKIP //p' "$log" | head -n 1)" >>"$log"
		skip=1 plan=1
	fi
	if [[ -z $plan ]]; then
		echo "not ok - $name printed no plan (1..N): it stopped before its end" >>"$log"
		bad=$((bad + 1))
	elif ((plan != ok + skip + bad)); then
		echo "not ok - $name planned $plan checks but printed $((ok + skip + bad))" >>"$log"
		bad=$((bad + 1))
	elif ((rc != 0 && bad == 0)); then
		echo "not ok - $name exited with status $rc without reporting a failure" >>"$log"
		bad=1
	fi
	local wall
	wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
	{
		if ((bad)); then
			echo "FAIL $name: $ok passed, $bad failed, $skip skipped ($wall s)"
			grep -v '^ok ' "$log" | sed 's/^/    /' | head -n 60
		else
			echo "PASS $name: $ok passed, $skip skipped ($wall s)"
		fi
		# A skip always shows its reason.
		grep '^ok [0-9]* *- # SKIP' "$log" | sed 's/^ok [0-9]* *- # /    /'
	} >"$base.report"
	echo "$ok $bad $skip $wall $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }')" \
		>"$base.count.tmp"
	mv "$base.count.tmp" "$base.count"
}

# The tests: their kind, command and declared reason to run alone.
declare -A cmd_of kind_of serial_of source_of
ids=()
add_test() { # add_test KIND NAME SOURCE_FILE COMMAND...
	local kind=$1 name=$2 source=$3; shift 3
	local id=$kind/$name
	[[ -n $filter && $id != *"$filter"* ]] && return
	ids+=("$id")
	kind_of[$id]=$kind
	source_of[$id]=$source
	serial_of[$id]=""
	local cmd
	printf -v cmd '%q ' "$@"
	cmd_of[$id]=$cmd
}
for bin in "$build"/tests/test_*; do
	[[ -x $bin && -f $bin ]] || continue
	name=${bin##*/}
	add_test unit "$name" "$root/tests/unit/$name.c" "$bin"
done
for script in "$here"/e2e/test_*.sh; do
	[[ -f $script ]] || continue
	name=${script##*/}; name=${name%.sh}
	add_test e2e "$name" "$script" bash "$script"
done
declare -A id_of_source
sources=()
for id in "${ids[@]}"; do
	[[ -f ${source_of[$id]} ]] && sources+=("${source_of[$id]}") && id_of_source[${source_of[$id]}]=$id
done
while IFS= read -r line; do
	file=${line%%:*}
	[[ -n ${id_of_source[$file]:-} ]] && serial_of[${id_of_source[$file]}]=${line#*:}
done < <(serial_reasons "${sources[@]}")

# The pool starts the longest tests first (their wall time in the last run, kept in the build
# folder), so that none of them starts last and keeps the others waiting; a test not timed yet
# counts as long (it goes first), an e2e script before a unit test.
times_file="$build/tests/.last-times"
declare -A last_time
if [[ -f $times_file ]]; then
	while read -r n t; do [[ $n == */* ]] && last_time[$n]=$t; done <"$times_file"
fi
parallel=() serial=()
while read -r _ id; do
	if [[ -n ${serial_of[$id]} ]]; then serial+=("$id"); else parallel+=("$id"); fi
done < <(for id in "${ids[@]}"; do
	t=${last_time[$id]:-}
	[[ -z $t ]] && { [[ ${kind_of[$id]} == e2e ]] && t=100000 || t=99999; }
	echo "$t $id"
done | sort -k1,1gr -k2,2)

passed=0 failed=0 skipped=0
report() { # report ID: prints its lines and adds its counts
	local ok bad skip base="$logdir/${1/\//.}"
	cat "$base.report"
	read -r ok bad skip _ <"$base.count"
	passed=$((passed + ok)); failed=$((failed + bad)); skipped=$((skipped + skip))
}

load_start=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')
started=$(now)
# The pool: each job tells a FIFO its name when it is done; the next test starts then.
mkfifo "$logdir/done"
exec 9<>"$logdir/done"
active=0 next=0
while ((next < ${#parallel[@]} || active > 0)); do
	while ((active < jobs && next < ${#parallel[@]})); do
		id=${parallel[next]}
		next=$((next + 1))
		( trap - INT TERM HUP EXIT; eval "run_one $id ${cmd_of[$id]}"; echo "$id" >&9 ) &
		job_pid[$id]=$!
		active=$((active + 1))
	done
	read -r id <&9
	wait "${job_pid[$id]}"
	unset "job_pid[$id]"
	active=$((active - 1))
	report "$id"
done
parallel_done=$(now)
# What measures time runs alone, one test after the other; SMTBENCH_TEST_TIMED=0 (make test
# TIMED=0, as a package build does) leaves it out, each such test one skip with its reason.
for id in "${serial[@]}"; do
	# (In the background, waited for: a signal to this script is handled at once, not after it.)
	if [[ ${SMTBENCH_TEST_TIMED:-1} == 0 ]]; then
		( trap - INT TERM HUP EXIT
		  run_one "$id" echo "1..0 # SKIP it measures time (${serial_of[$id]}): left out with TIMED=0" ) &
	else
		( trap - INT TERM HUP EXIT; eval "run_one $id ${cmd_of[$id]}" ) &
	fi
	job_pid[$id]=$!
	wait "${job_pid[$id]}"
	unset "job_pid[$id]"
	report "$id"
done
finished=$(now)
exec 9<&-

# The footer: the wall time (what a person waits), the CPU time of every test's processes (what
# the machine spent: their sum, beside the wall time, says how much ran at once), the load
# average this machine had (other work on it slows the tests down), and the ten slowest tests.
times >"$logdir/times"
{ read -r _; read -r cpu_line; } <"$logdir/times"
cpu_total=$(awk -v u="$(seconds_of "${cpu_line%% *}")" -v s="$(seconds_of "${cpu_line##* }")" \
	'BEGIN { printf "%.0f", u + s }')
load_end=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')
span() { awk -v a="$1" -v b="$2" 'BEGIN { s = b - a; printf "%dm%02ds", s / 60, s % 60 }'; }
echo "wall time $(span "$started" "$finished") for ${#ids[@]} tests: $(span "$started" "$parallel_done")" \
	"for ${#parallel[@]} at once ($jobs jobs on $cpus CPUs), then $(span "$parallel_done" "$finished")" \
	"for ${#serial[@]} that measure time, alone; CPU time of the tests ${cpu_total} s;" \
	"load average $load_start at the start, $load_end at the end"
if ((${#ids[@]})); then
	echo "the ten slowest (wall, CPU):"
	for id in "${ids[@]}"; do
		read -r _ _ _ wall cpu <"$logdir/${id/\//.}.count"
		printf '%7.1f s %7.1f s  %s%s\n' "$wall" "$cpu" "$id" "${serial_of[$id]:+ (serial: ${serial_of[$id]})}"
	done | sort -k1,1gr | head -n 10
	# Kept for the next run's order (merged: a filtered run keeps the others' times).
	mkdir -p "$(dirname "$times_file")"
	{
		for id in "${ids[@]}"; do
			read -r _ _ _ wall _ <"$logdir/${id/\//.}.count"
			echo "$id $wall"
			unset "last_time[$id]"
		done
		for id in "${!last_time[@]}"; do echo "$id ${last_time[$id]}"; done
	} | sort >"$times_file.$$" && mv "$times_file.$$" "$times_file"
fi
echo "$passed passed, $failed failed, $skipped skipped"
((failed == 0))
