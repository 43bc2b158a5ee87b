#!/usr/bin/env bash
# The lab's no-contention check (tests/lab/scenarios.py) fails only when smtbench is wrong. Its
# fixture, tests/fixtures/lab-no-contention/, is a guest's timed run kept from a `make lab` at
# load 11 (meta.json and samples.csv as the guest wrote them): sibling/non-sibling read 1.06,
# 95% CI 1.01-1.12, so with --rope 10 the answer is 'not enough data to say' (P(within) 0.92,
# under 0.95). That is right on a truth of 1 (a right 95% interval leaves 1 out in 1 run of 20),
# and the check once failed it. No guest is booted: the check's rule is run on analyze's answer.
source "$(dirname "$0")/lib.sh"
folder=$SMTBENCH_ROOT/tests/fixtures/lab-no-contention

check_status 0 "analyze --json --rope 10 reads the kept no-contention run" \
	"$SMTBENCH" analyze --json --rope 10 "$folder"
json=$t_out

# judge VERDICT LO HI: the check's result (True/False) on the fixture's comparison, with its
# verdict and interval replaced where given (an answer smtbench might wrongly give).
judge() {
	python3 -c '
import json, sys
sys.path.insert(0, sys.argv[1])
import scenarios
doc = json.loads(sys.argv[2])
c = scenarios.comparison(doc, "sibling", "non-sibling")
if len(sys.argv) > 3:
    c = dict(c, verdict=sys.argv[3], ratio_ci=[float(sys.argv[4]), float(sys.argv[5])])
(ok, what), = scenarios.check_rope_verdict_fits_interval(c)
print(ok, what)' "$SMTBENCH_ROOT/tests/lab" "$json" "$@"
}

check "the fixture's answer is 'not enough data to say' with an interval past the ROPE and without 1" \
	python3 -c '
import json, sys
c = [c for c in json.loads(sys.argv[1])["comparisons"]
     if c["a"]["name"] == "sibling" and c["b"]["name"] == "non-sibling"][0]
lo, hi = c["ratio_ci"]
assert c["verdict"] == "not enough data to say" and 1 < lo and hi > 1.1, (c["verdict"], lo, hi)' "$json"
out=$(judge)
check "the check passes that right answer: $out" contains "$out" "True "
out=$(judge faster 0.80 0.88)
check "the check fails a 'faster' verdict with the ROPE: $out" contains "$out" "False "
out=$(judge "not enough data to say" 0.95 1.05)
check "the check fails 'not enough data to say' when the interval lies inside the ROPE: $out" \
	contains "$out" "False "
out=$(judge "practically the same" 0.95 1.05)
check "the check passes 'practically the same' with the interval inside the ROPE: $out" \
	contains "$out" "True "
out=$(judge "not enough data to say" 0.95 1.0995)
check "the check passes 'not enough data to say' with an interval touching the ROPE's edge: $out" \
	contains "$out" "True "
done_testing
