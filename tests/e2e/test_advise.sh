#!/usr/bin/env bash
# test_advise.sh — `smtbench advise` end to end on a real small matrix made here with
# `smtbench matrix` (built-in kernels, few blocks; on siblings where this machine has SMT, else
# on separate cores, which the answer must say): the text answer, --json's contract (every
# workload placed once, cores within the limit, intervals ordered, P(best) a probability), a
# count that does not fit (exit 2, saying so), an unknown --count name, --script (sh -n, then
# run: every workload starts on its CPU and the script exits 0), --slurm's lines, a matrix of
# --commands (the script runs the recorded command), and folders advise cannot use. Structure
# only: a shared VM's noise can change any plan, so no plan is asserted.
source "$(dirname "$0")/lib.sh"

K=nop,mul-latency,l1-load
placement=non-sibling
"$SMTBENCH" topo --json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if any(p.get("name")=="sibling" and p.get("available") for p in d.get("placements", [])) else 1)' \
	&& placement=sibling
m=$t_tmp/matrix
check_status 0 "a small matrix of three kernels on $placement" "$SMTBENCH" matrix --kernels "$K" \
	--placement "$placement" --trial-time 0.02 --blocks 6 --warmup-blocks 1 --progress none --out "$m"

check_status 0 "advise DIR" "$SMTBENCH" advise "$m"
check "…answers with the plan, its throughput and P(best)" \
	eval 'contains "$t_out" "Plan on " && contains "$t_out" "throughput" && contains "$t_out" "P(best)"'
if [[ $placement == non-sibling ]]; then
	check "…says the pairs were measured on separate cores, not siblings" \
		contains "$t_out" "measured on separate cores (non-sibling), not siblings"
else
	check "…gives each workload SMT on or off" contains "$t_out" "SMT on or off, per workload"
fi

check_status 0 "advise --json --cores 2 --objective worst" "$SMTBENCH" advise "$m" --json --cores 2 \
	--objective worst
check "…parses, and holds the contract (results/README.md)" python3 - "$t_tmp/out" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["advise_version"] == 1 and d["objective"] == "worst" and d["cores"] == 2, d
assert d["workloads"] == ["nop", "mul-latency", "l1-load"] and d["items"] == 3, d
assert d["exact"] is True and d["draws"] == 4000 and d["pairs_needed"] == 1, d
plan = d["plan"]
placed = sorted(w for c in plan["cores"] for w in c["workloads"])
assert placed == sorted(d["workloads"]), placed
assert len(plan["cores"]) == plan["cores_used"] <= 2, plan
for c in plan["cores"]:
    assert 1 <= len(c["workloads"]) <= 2 and len(c["slowdowns"]) == len(c["workloads"]), c
    for ci in c["slowdown_ci"]:
        assert ci is None or ci[0] <= ci[1], c
for key in ("throughput", "worst_slowdown"):
    lo, hi = plan[key + "_ci"]
    assert lo <= hi and plan[key] > 0, (key, plan)
assert 0 <= plan["p_best"] <= 1 and plan["p_best_draws"] > 0, plan
assert d["naive_plan"] is None or d["naive_plan"]["cores_used"] == 2, d["naive_plan"]
for s in d["smt"]:
    assert s["decision"] in ("keep on", "turn off", "either", "not enough data to say", "not on siblings"), s
assert isinstance(d["answer"], str) and d["answer"].startswith("Plan on 2 cores"), d["answer"]
EOF

check_status 2 "three workloads on one core: exit 2" "$SMTBENCH" advise "$m" --cores 1
check "…saying they do not fit and how many cores they need" \
	eval 'contains "$t_err" "3 workloads do not fit on 1 cores" && contains "$t_err" "--cores 2"'
check_status 2 "--count of a name the matrix lacks: exit 2" "$SMTBENCH" advise "$m" --count gzip=2
check "…naming the matrix's workloads" contains "$t_err" "its workloads: nop, mul-latency, l1-load"
check_status 2 "--count without =N: exit 2" "$SMTBENCH" advise "$m" --count nop

# Two workloads fit on two CPUs whether or not the machine has SMT.
script=$t_tmp/plan.sh
check_status 0 "advise --script" "$SMTBENCH" advise "$m" --count l1-load=0 --script "$script"
check "…names the script" contains "$t_out" "Script: $script"
check "…a POSIX shell script (sh -n)" sh -n "$script"
check "…that pins each workload with taskset -c" \
	test "$(grep -c '^taskset -c [0-9][0-9]* .*/kernels/\(nop\|mul-latency\)'"'"' [0-9][0-9]* &$' "$script")" = 2
if command -v taskset >/dev/null 2>&1; then
	check_status 0 "…and runs: both kernels start on their CPUs and end" timeout 120 sh "$script"
else
	skip "taskset is not installed (apt-get install util-linux): the script is not run"
fi
check_status 0 "advise --slurm" "$SMTBENCH" advise "$m" --count l1-load=0 --slurm
check "…prints one srun line per workload, pinned with map_cpu, and waits" \
	eval '(($(grep -c "^srun --ntasks=1 --cpu-bind=map_cpu:[0-9]* --exact " <<<"$t_out") == 2)) && [[ ${t_out##*$'"'"'\n'"'"'} == wait ]]'
check "…with each workload's hint as a comment" contains "$t_out" "# nop: "

# A matrix of --commands: the script runs the recorded command, quoted.
cat >"$t_tmp/commands" <<'EOF'
spin: sh -c 'i=0; while [ $i -lt 3000 ]; do i=$((i+1)); done'
spin2: sh -c 'i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done'
EOF
mc=$t_tmp/matrix-commands
check_status 0 "a matrix of two commands" "$SMTBENCH" matrix --commands "$t_tmp/commands" \
	--placement "$placement" --blocks 5 --warmup-blocks 0 --progress none --out "$mc"
check_status 0 "advise --script on it" "$SMTBENCH" advise "$mc" --script "$t_tmp/commands.sh"
check "…runs the recorded command, each word quoted" \
	grep -qF "'sh' '-c' 'i=0; while [ \$i -lt 3000 ]; do i=\$((i+1)); done' &" "$t_tmp/commands.sh"
if command -v taskset >/dev/null 2>&1; then
	check_status 0 "…and the script runs" timeout 120 sh "$t_tmp/commands.sh"
else
	skip "taskset is not installed (apt-get install util-linux): the script is not run"
fi

# Folders advise cannot use.
check_status 2 "a run's folder: exit 2" "$SMTBENCH" advise "$SMTBENCH_ROOT/tests/fixtures/folders/run"
check "…saying advise needs a matrix" contains "$t_err" "is not a matrix's folder"
cp -r "$SMTBENCH_ROOT/tests/fixtures/folders/matrix" "$t_tmp/no-topology"
check_status 2 "--script on a folder without topology.xml: exit 2" "$SMTBENCH" advise \
	"$t_tmp/no-topology" --count pause=0 --script "$t_tmp/never.sh"
check "…naming the file" contains "$t_err" "topology.xml"
check "…and writing no script" test ! -e "$t_tmp/never.sh"

done_testing
