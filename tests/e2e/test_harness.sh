#!/usr/bin/env bash
# tests/run.sh, the runner behind `make test`, counted on fake test programs in a fake build
# folder: passes, failures, skips with reasons, a whole-program skip ("1..0 # SKIP why"), a
# program cut short (no plan), one whose plan disagrees with its lines, one that exits non-zero
# without a failing line, and `make test T=NAME`'s filter. The last line is the count.
source "$(dirname "$0")/lib.sh"
# The fake runs count what measures time as run, whatever this make test was told (TIMED=0).
unset SMTBENCH_TEST_TIMED

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
check_status 0 "the filter takes KIND/NAME too (make test T=unit/test_good)" \
	bash "$root/tests/run.sh" "$build" unit/test_good
check "... and counts only that one" test "$(tail -n 1 <<<"$t_out")" = "2 passed, 0 failed, 1 skipped"

# --- the pool and the tests that run alone ----------------------------------------------------
root=$t_tmp/pool build=$root/build marks=$t_tmp/marks
mkdir -p "$root/tests/e2e" "$build/tests" "$marks"
cp "$SMTBENCH_ROOT/tests/run.sh" "$root/tests/"
# Every fake is a sh script that marks itself NAME.running while it runs and NAME.ended after;
# await_file FILE waits for FILE, at most 60 s.
prologue="m=$marks; n=\${0##*/}; : >\"\$m/\$n.running\"
await_file() { i=0; while [ ! -e \"\$1\" ] && [ \$i -lt 1200 ]; do sleep 0.05; i=\$((i + 1)); done; [ -e \"\$1\" ]; }"
epilogue='rm -f "$m/$n.running"; : >"$m/$n.ended"'
# Two that pass only if each sees the other running: they ran at once. Each also checks that it
# leads a session of its own.
for pair in "test_par_a test_par_b" "test_par_b test_par_a"; do
	set -- $pair
	fake "$1" "$prologue
sid=\$(awk '{ print \$6 }' /proc/\$\$/stat)
if [ \"\$sid\" = \$\$ ]; then echo 'ok 1 - a session of its own'; else echo \"not ok 1 - session \$sid\"; fi
if await_file \"\$m/$2.running\" || [ -e \"\$m/$2.ended\" ]; then echo 'ok 2 - ran beside $2'; else echo 'not ok 2 - $2 never ran beside it'; fi
echo 1..2
$epilogue"
done
for i in 1 2 3 4 5 6 7 8 9; do fake "test_quick$i" "$prologue
echo 'ok 1 - quick'; echo 1..1
$epilogue"; done
# A unit test and an e2e script of one name (as test_cpu_model is both): each runs, apart.
fake test_twin "$prologue
echo 'ok 1 - the unit twin'; echo 1..1
$epilogue"
printf '%s\n' "#!/bin/sh" "$prologue" "echo 'ok 1 - the e2e twin'; echo 1..1" "$epilogue" \
	>"$root/tests/e2e/test_twin.sh"
# Two e2e scripts that declare they measure time: each must find the 13 others ended and
# nothing else running. (The declaration is written from a variable: as a line of its own here,
# run.sh would read it as this script's.)
serial_line="# serial: measures time (a fake)"
for name in test_timed1 test_timed2; do
	cat >"$root/tests/e2e/$name.sh" <<EOF
#!/bin/sh
$serial_line
$prologue
others=\$(ls "\$m" | grep '\.running\$' | grep -v "^\$n.running\$")
ended=\$(ls "\$m" | grep -c '\.ended\$')
if [ -z "\$others" ]; then echo "ok 1 - nothing else running"; else echo "not ok 1 - running beside: \$others"; fi
if [ "\$ended" -ge 12 ]; then echo "ok 2 - after the others"; else echo "not ok 2 - only \$ended ended before it"; fi
echo 1..2
$epilogue
EOF
done
check_status 0 "a pool of 3 jobs: every fake passes" env SMTBENCH_TEST_JOBS=3 bash "$root/tests/run.sh" "$build"
check "... the two that wait for each other ran at once, each in a session of its own" \
	eval 'grep -q "^PASS test_par_a: 2 passed" <<<"$t_out" && grep -q "^PASS test_par_b: 2 passed" <<<"$t_out"'
check "... the two that declare '# serial:' ran after the others, alone" \
	eval 'grep -q "^PASS test_timed1: 2 passed" <<<"$t_out" && grep -q "^PASS test_timed2: 2 passed" <<<"$t_out"'
check "... the count is the last line: 19 passed, 0 failed, 0 skipped (got '$(tail -n 1 <<<"$t_out")')" \
	test "$(tail -n 1 <<<"$t_out")" = "19 passed, 0 failed, 0 skipped"
check "... a unit test and an e2e script of one name both ran" \
	test "$(grep -c '^PASS test_twin: 1 passed' <<<"$t_out")" = 2
check "... after the wall time and the ten slowest, those that ran alone named so" python3 -c '
import re, sys
lines = sys.argv[1].splitlines()
w = next(i for i, l in enumerate(lines) if l.startswith("wall time "))
assert re.match(r"wall time \d+m\d\ds for 15 tests: .* for 13 at once \(3 jobs on \d+ CPUs\), then "
                r".* for 2 that measure time, alone; CPU time of the tests \d+ s; load average ", lines[w]), lines[w]
assert lines[w + 1] == "the ten slowest (wall, CPU):", lines[w + 1]
slow = lines[w + 2:-1]
assert len(slow) == 10 and all(re.match(r" *\d+\.\d s +\d+\.\d s  (unit|e2e)/test_\w+", l) for l in slow), slow
assert all(l.endswith(" (serial: measures time (a fake))") for l in slow if "test_timed" in l), slow
results = [l for l in lines[:w] if l[:5] in ("PASS ", "FAIL ")]
assert len(results) == 15 and all(re.search(r" \(\d+\.\d s\)$", l) for l in results), results
' "$t_out"
check_status 2 "SMTBENCH_TEST_JOBS=0 is refused" env SMTBENCH_TEST_JOBS=0 bash "$root/tests/run.sh" "$build"
check "... naming make test J=N" contains "$t_err" "make test J=N"
done_testing
