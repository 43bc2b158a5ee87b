# lib.sh — helpers for end-to-end tests written in bash; same TAP lines as tests/harness.h.
# Sourced by tests/e2e/test_*.sh, which tests/run.sh runs with SMTBENCH pointing at the binary.
set -u
: "${SMTBENCH:?run through tests/run.sh or make test}"
t_n=0 t_fail=0 t_skip=0
t_tmp=$(mktemp -d "${TMPDIR:-/tmp}/smtbench-e2e.XXXXXX")
# A child forked for `cmd &` is a copy of this shell, EXIT trap included, until it executes cmd:
# a signal in that moment runs the trap in the child. Cleanup happens in this shell only.
t_main_pid=$BASHPID
in_main_shell() { [[ $BASHPID == "$t_main_pid" ]]; }
trap 'in_main_shell && [[ -z ${KEEP_TMP:-} ]] && rm -rf "$t_tmp"' EXIT

ok()     { t_n=$((t_n + 1)); echo "ok $t_n - $*"; }
not_ok() { t_n=$((t_n + 1)); t_fail=$((t_fail + 1)); echo "not ok $t_n - $*"; }
# skip "why": a check that cannot run here; counted as skipped, never as passed. Say what is
# missing and how to get it.
skip()   { t_n=$((t_n + 1)); t_skip=$((t_skip + 1)); echo "ok $t_n - # SKIP $*"; }
# skip_all "why": this whole script cannot run here (TAP's "1..0 # SKIP why"); exits 0.
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
# check "what" command...: passes when the command succeeds
check()  { local what=$1; shift; if "$@"; then ok "$what"; else not_ok "$what"; fi; }
# check_status WANT "what" command...: runs the command, passes when its exit status is WANT.
# Its stdout and stderr are kept in $t_out and $t_err for further checks.
check_status() {
	local want=$1 what=$2; shift 2
	"$@" >"$t_tmp/out" 2>"$t_tmp/err"
	local rc=$?
	t_out=$(cat "$t_tmp/out"); t_err=$(cat "$t_tmp/err")
	if ((rc == want)); then ok "$what (exit $rc)"; else
		not_ok "$what: exit $rc, want $want; stderr: $(head -c 300 "$t_tmp/err")"; fi
}
contains() { [[ $1 == *"$2"* ]]; }

# This test's own processes. tests/run.sh starts each test in a session of its own (setsid), so
# they are the processes of this shell's session, zombies included (/proc/PID/stat stays readable
# while a zombie waits to be reaped). One that left the session with setsid is not among them: a
# test finds such a process by a name of its own making (a pattern with $$ in it).
# session_processes [STATES]: "PID STATE NAME" of each process in this session whose state (R, S,
# D, Z, T...) is one of the letters STATES (default: any), this shell and its subshells included.
session_of() { # session_of PID: its session id
	local stat
	read -r stat 2>/dev/null <"/proc/$1/stat" || return 1
	set -- ${stat##*) }
	echo "$4"
}
t_session=$(session_of $$)
session_processes() {
	local states=${1:-} p stat rest name
	for p in /proc/[0-9]*; do
		read -r stat 2>/dev/null <"$p/stat" || continue
		name=${stat#*(}; name=${name%) *}
		rest=${stat##*) }
		set -- $rest
		[[ $4 == "$t_session" ]] || continue
		[[ -z $states || $states == *"$1"* ]] && echo "${p#/proc/} $1 $name"
	done
	return 0
}
# await SECONDS COMMAND...: runs COMMAND until it succeeds, at most SECONDS (fractions allowed);
# the status is the last run's. What a test waits for, it waits for this way: on the condition,
# with a deadline, never a fixed sleep.
await() {
	local limit=$1; shift
	local now deadline
	now=${EPOCHREALTIME:-$SECONDS.000000}
	deadline=$((${now/[.,]/} + $(awk -v s="$limit" 'BEGIN { printf "%d", s * 1000000 }')))
	until "$@"; do
		now=${EPOCHREALTIME:-$SECONDS.000000}
		((${now/[.,]/} >= deadline)) && { "$@"; return; }
		sleep 0.05
	done
}
# done_testing: the plan (TAP's "1..N", at the end) and this script's own count line.
done_testing() {
	echo "1..$t_n"
	echo "# $(basename "$0"): $((t_n - t_fail - t_skip)) passed, $t_fail failed, $t_skip skipped"
	((t_fail == 0))
}
