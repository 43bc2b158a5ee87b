#!/usr/bin/env bash
# Runs every unit test binary and every end-to-end script, then prints one total line, alone on
# the last line: "N passed, N failed, N skipped". Each test prints TAP lines ("ok N - ...",
# "not ok N - ...", "ok N - # SKIP why") and ends with its plan "1..N". A skip is never a pass:
# it is counted apart and its reason is shown. A test program that exits non-zero without having
# reported a failure, or whose plan is missing or does not match the lines it printed (it stopped
# half way), counts as one failure more.
#
# A program that cannot run here at all prints "1..0 # SKIP why" alone (TAP's whole-program skip,
# kselftest's ksft_exit_skip): one skip, with its reason.
#
# usage: tests/run.sh BUILD_DIR [NAME_FILTER]   (make test T=NAME_FILTER)
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

logdir=$(mktemp -d "${TMPDIR:-/tmp}/smtbench-tests.XXXXXX")
trap 'rm -rf "$logdir"' EXIT

passed=0 failed=0 skipped=0
run_one() {
	local name=$1; shift
	local log="$logdir/$name.log"
	"$@" >"$log" 2>&1 </dev/null
	local rc=$?
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
	passed=$((passed + ok)); failed=$((failed + bad)); skipped=$((skipped + skip))
	if ((bad)); then
		echo "FAIL $name: $ok passed, $bad failed, $skip skipped"
		grep -v '^ok ' "$log" | sed 's/^/    /' | head -n 60
	else
		echo "PASS $name: $ok passed, $skip skipped"
	fi
	# A skip always shows its reason.
	grep '^ok [0-9]* *- # SKIP' "$log" | sed 's/^ok [0-9]* *- # /    /'
}

for bin in "$build"/tests/test_*; do
	[[ -x $bin ]] || continue
	name=$(basename "$bin")
	[[ -n $filter && $name != *"$filter"* ]] && continue
	run_one "$name" "$bin"
done
for script in "$here"/e2e/test_*.sh; do
	[[ -f $script ]] || continue
	name=$(basename "$script" .sh)
	[[ -n $filter && $name != *"$filter"* ]] && continue
	run_one "$name" bash "$script"
done

echo "$passed passed, $failed failed, $skipped skipped"
((failed == 0))
