#!/usr/bin/env bash
# test_advise_fleet.sh — `smtbench advise FLEETDIR` on SYNTHETIC matrix folders with known cells
# (tests/e2e/matrix_synth.py): one plan per matrix group (CPU model) from the pooled cells; a
# group's cores from its nodes' meta.json (the smallest, said, when they differ) or --cores;
# SMT on or off per workload per group; a group of one node says why it has no plan; the --json
# contract (results/README.md, "advise --json on a fleet"); --script refused for a fleet.
source "$(dirname "$0")/lib.sh"
msynth() { python3 "$SMTBENCH_ROOT/tests/e2e/matrix_synth.py" "$@"; }

f=$t_tmp/fleet
K=nop,mul-latency,l1-load,add-chain
# CPU A, 3 nodes of 2 cores: nop and mul-latency slow each other little (1.05), l1-load and
# add-chain too (1.05); every other pair 1.6; each beside a copy of itself 1.6 (yield 1.25:
# keep SMT on) but add-chain beside add-chain 2.4 (yield 0.83: turn it off).
ratios=(--default 1.6 --ratio nop:mul-latency=1.05 --ratio mul-latency:nop=1.05
	--ratio l1-load:add-chain=1.05 --ratio add-chain:l1-load=1.05 --ratio add-chain:add-chain=2.4)
for i in 1 2 3; do msynth "$f/a/n$i" "n$i" --kernels "$K" "${ratios[@]}" --cores 2 --seed "$i"; done
# CPU B, 2 nodes whose core counts differ (4 and 8); nothing slowed.
msynth "$f/b/x1" x1 --cpu "Other CPU (test data)" --cores 4 --seed 11
msynth "$f/b/x2" x2 --cpu "Other CPU (test data)" --cores 8 --seed 12
# CPU C, one node: nothing to pool.
msynth "$f/c/y1" y1 --cpu "Lone CPU (test data)" --cores 2 --seed 21

check_status 0 "advise FLEETDIR" "$SMTBENCH" advise "$f"
text=$t_out
check "…one plan per matrix group" contains "$text" "(a fleet: 3 matrix groups, one plan each)"
check "…CPU A on its nodes' 2 cores pairs the good pairs" contains "$text" \
	"Plan on 2 cores (most throughput): nop + mul-latency, l1-load + add-chain; throughput"
check "…CPU B's nodes' core counts differ: the smallest, said" contains "$text" \
	"Its nodes' core counts differ (4 ($f/b/x1), 8 ($f/b/x2)): the plan is for 4 cores, the smallest"
check "…SMT on or off per workload: keep on for nop" contains "$text" \
	"keep SMT on for nop: a core does 1.25×"
check "…turn it off for add-chain" contains "$text" \
	"turn SMT off (or --hint=nomultithread) for add-chain: a core does 0.83"
check "…the one-node group says why it has no plan" contains "$text" \
	"No plan for this group: one node: its cells are pooled from 2 or more nodes (for one node's plan, run advise on its folder, $f/c/y1)."

check_status 0 "advise FLEETDIR --json --objective worst" "$SMTBENCH" advise "$f" --json --objective worst
check "…the contract: one entry per group, the plan of each as advise --json's" python3 - "$t_tmp/out" "$f" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); root = sys.argv[2]
assert d["advise_version"] == 1 and d["fleet"] == root and d["objective"] == "worst", d.keys()
a, b, c = d["groups"]
for g in d["groups"]:
    assert set(g) == {"cpu_model", "smt", "placement", "workload_kind", "nodes", "node_cores",
                      "cores", "cores_from", "cores_differ", "advice", "error"}, g.keys()
assert a["cpu_model"] == "Synthetic CPU 9000 (test data)" and len(a["nodes"]) == 3, a["nodes"]
assert a["cores"] == 2 and a["node_cores"] == [2, 2, 2] and not a["cores_differ"], a
assert a["cores_from"] == "the nodes' topology" and a["error"] is None, a
adv = a["advice"]
assert adv["objective"] == "worst" and adv["cores"] == 2 and adv["workloads"] == ["nop", "mul-latency", "l1-load", "add-chain"], adv
pairs = sorted(sorted(c["workloads"]) for c in adv["plan"]["cores"])
assert pairs == [["add-chain", "l1-load"], ["mul-latency", "nop"]], pairs
lo, hi = adv["plan"]["worst_slowdown_ci"]
assert lo <= adv["plan"]["worst_slowdown"] <= hi and 1.0 < lo and hi < 1.12, adv["plan"]
assert adv["plan"]["p_best"] > 0.95, adv["plan"]["p_best"]
smt = {s["workload"]: s["decision"] for s in adv["smt"]}
assert smt == {"nop": "keep on", "mul-latency": "keep on", "l1-load": "keep on",
               "add-chain": "turn off"}, smt
assert b["cores"] == 4 and b["node_cores"] == [4, 8] and b["cores_differ"], b
assert b["cores_from"] == "smallest of the nodes'" and b["advice"]["cores"] == 4, b
assert c["advice"] is None and "one node" in c["error"] and c["nodes"] == [root + "/c/y1"], c
PY

check_status 0 "--cores 3 overrides the nodes' counts" "$SMTBENCH" advise "$f" --json --cores 3
check "…every group on 3 cores, from --cores" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert [g["cores"] for g in d["groups"]] == [3, 3, 3], d
assert all(g["cores_from"] == "--cores" for g in d["groups"])
assert d["groups"][0]["advice"]["cores"] == 3' "$t_tmp/out"

check_status 2 "three copies of nop on 1 core: no group has a plan, exit 2" "$SMTBENCH" advise "$f" \
	--cores 1 --count nop=3
check "…each group says its workloads do not fit" \
	eval 'contains "$t_out" "6 workloads do not fit on 1 cores" && contains "$t_out" "4 workloads do not fit on 1 cores"'
check "…and the error says no group has a plan" contains "$t_err" "no matrix group of $f has a plan"
check_status 2 "--script on a fleet: refused" "$SMTBENCH" advise "$f" --script "$t_tmp/plan.sh"
check "…saying to give one node's folder" contains "$t_err" "give one node's matrix folder"
check "…and nothing was written" test ! -e "$t_tmp/plan.sh"
mkdir -p "$t_tmp/empty/sub"
check_status 2 "a folder with no matrix in it: exit 2" "$SMTBENCH" advise "$t_tmp/empty"
check "…saying it holds no matrix folders" contains "$t_err" "holds no matrix folders"

done_testing
