#!/usr/bin/env bash
# test_fuzz_mutants — a small fixed-seed run of tests/fuzz/mutate.py: 10 mutants each of a matrix
# folder, a one-process folder and a hyperfine export, read by analyze, report and fleet (every
# 5th folder continued by --resume), with no crash, no raw control character in what they print
# or write, and no exit but 0, 1 or 2. The full run (1,000+ mutants each, under `make
# SANITIZE=1`) is tests/fuzz/mutate.py by hand: minutes under ASan.
. "$(dirname "$0")/lib.sh"

check_status 0 "10 mutants of each seed: no crash, no raw control, no unexpected exit" \
	python3 "$SMTBENCH_ROOT/tests/fuzz/mutate.py" "$SMTBENCH" --mutants 10 --seed 29 \
	--resume-every 5
check "…and it says how many it ran" contains "$t_out" "total: 30 mutants"
[[ $t_out == *"total: 30 mutants"* ]] || printf '# %s\n' "${t_out//$'\n'/$'\n# '}"
done_testing
