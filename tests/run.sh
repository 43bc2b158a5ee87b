#!/usr/bin/env bash
# Runs every unit test binary and every end-to-end script, then prints one total line:
# "N passed, N failed". Each test prints TAP lines ("ok N - ...", "not ok N - ..."); a test
# program that exits non-zero without having reported a failure counts as one failure more.
#
# usage: tests/run.sh BUILD_DIR [NAME_FILTER]
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

passed=0 failed=0
run_one() {
	local name=$1; shift
	local log="$logdir/$name.log"
	"$@" >"$log" 2>&1 </dev/null
	local rc=$?
	local ok bad
	ok=$(grep -c '^ok ' "$log")
	bad=$(grep -c '^not ok ' "$log")
	if ((rc != 0 && bad == 0)); then
		echo "not ok - $name exited with status $rc without reporting a failure" >>"$log"
		bad=1
	fi
	passed=$((passed + ok)); failed=$((failed + bad))
	if ((bad)); then
		echo "FAIL $name: $ok passed, $bad failed"
		grep -v '^ok ' "$log" | sed 's/^/    /' | head -n 60
	else
		echo "PASS $name: $ok passed"
	fi
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

echo "$passed passed, $failed failed"
((failed == 0))
