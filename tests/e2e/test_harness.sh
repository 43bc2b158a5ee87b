#!/usr/bin/env bash
# tests/run.sh, the runner behind `make test`, counted on fake test programs in a fake build
# folder: passes, failures, skips with reasons, a whole-program skip ("1..0 # SKIP why"), a
# program cut short (no plan), one whose plan disagrees with its lines, one that exits non-zero
# without a failing line, and `make test T=NAME`'s filter. The last line is the count.
source "$(dirname "$0")/lib.sh"

root=$t_tmp/root build=$root/build
mkdir -p "$root/tests/e2e" "$build/tests"
cp "$SMTBENCH_ROOT/tests/run.sh" "$root/tests/"
fake() { # fake NAME 'shell body': a "unit test binary" in the fake build
	printf '#!/bin/sh\n%s\n' "$2" >"$build/tests/$1"
	chmod +x "$build/tests/$1"
}
fake test_good 'echo "ok 1 - a"; echo "ok 2 - b"; echo "ok 3 - # SKIP no widget here (apt-get install widget)"; echo "1..3"'
fake test_bad 'echo "ok 1 - a"; echo "not ok 2 - b"; echo "1..2"; exit 1'
fake test_whole_skip 'echo "1..0 # SKIP needs two NUMA nodes"'
fake test_cut 'echo "ok 1 - a"; exit 139'
fake test_miscount 'echo "ok 1 - a"; echo "1..2"'
fake test_quiet_exit 'echo "ok 1 - a"; echo "1..1"; exit 3'

check_status 1 "a run with failures exits 1" bash "$root/tests/run.sh" "$build"
last=$(tail -n 1 <<<"$t_out")
check "the last line is the count: 6 passed, 4 failed, 2 skipped (got '$last')" \
	test "$last" = "6 passed, 4 failed, 2 skipped"
check "a skip shows its reason" contains "$t_out" "SKIP no widget here (apt-get install widget)"
check "a whole-program skip is one skip, with its reason" \
	contains "$t_out" "SKIP test_whole_skip: needs two NUMA nodes"
check "a program cut short (no plan) is a failure, said so" contains "$t_out" "test_cut printed no plan"
check "a plan that disagrees with the lines is a failure" \
	contains "$t_out" "test_miscount planned 2 checks but printed 1"
check "a non-zero exit without a failing line is a failure" \
	contains "$t_out" "test_quiet_exit exited with status 3 without reporting a failure"

check_status 0 "the filter runs only the tests named (make test T=good)" \
	bash "$root/tests/run.sh" "$build" good
check "... and counts only them" test "$(tail -n 1 <<<"$t_out")" = "2 passed, 0 failed, 1 skipped"
check "... the others are not run" bash -c '! grep -q test_bad <<<"$1"' _ "$t_out"
done_testing
