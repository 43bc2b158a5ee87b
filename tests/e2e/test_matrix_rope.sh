#!/usr/bin/env bash
# test_matrix_rope.sh — --rope PCT for a matrix (issue 20): with analyze --rope's meaning (a
# ratio from 1/(1+PCT/100) to 1+PCT/100), a cell can be "practically the same", the safe pairs'
# bound is the ROPE (5% when none is given, which judges the cells too: a listed cell is never
# "not enough data to say"), the safe list states its joint probability, `matrix --rope` records
# it in meta.json (matrix.rope_pct) and `report DIR` uses it unless `report --rope` replaces it;
# report --rope also works on a run's folder; bad values are exit 2 with nothing written. The
# verdicts are checked on SYNTHETIC matrices (tests/e2e/matrix_synth.py: known slowdowns); one
# short real matrix checks that the option is recorded and survives --resume's refusal.
source "$(dirname "$0")/lib.sh"
synth() { python3 "$SMTBENCH_ROOT/tests/e2e/matrix_synth.py" "$@"; }

# cells DIR/report.json: "victim:aggressor=verdict,safe" per cell, one a line.
cells() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["cells"]:
    print("%s:%s=%s,%s" % (c["victim"], c["aggressor"], c["verdict"], c["safe"]))' "$1"
}

# nop beside nop 1.8x; nop beside mul-latency 1.02x; mul-latency beside either 1x.
m=$t_tmp/m
synth "$m" n1 --ratio nop:nop=1.8 --ratio nop:mul-latency=1.02 --blocks 12 --seed 3

check_status 0 "report of a matrix without a ROPE" "$SMTBENCH" report "$m"
got=$(cells "$m/report.json")
check "without --rope the default ROPE of 5% judges the cells: 1x and 1.02x practically the same and safe, 1.8x slower: $(echo $got)" \
	eval '[[ $got == *"nop:nop=slower,False"* && $got == *"nop:mul-latency=practically the same,True"* \
	   && $got == *"mul-latency:mul-latency=practically the same,True"* ]]'
check "... the terminal says which ROPE and its rule" contains "$t_out" \
	"With the default ROPE of 5% (no --rope given): a cell is practically the same when P(within 0.952–1.05×) >= 0.95"
check "report.json's rope_pct is 5, rope_default true, the safe bound 5%, the safe list's probability stated" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["rope_pct"] == 5 and d["rope_default"] is True and d["safe_slowdown_pct"] == 5, (d["rope_pct"], d["safe_slowdown_pct"])
s = d["safe_list"]
assert s["target"] == 0.95 and s["probability"] >= 0.95 and s["pairs_considered"] == 3, s
assert [p["kernels"] for p in s["pairs"]] == d["safe_pairs"], (s["pairs"], d["safe_pairs"])
assert abs(s["probability"] - __import__("math").prod(p["probability"] for p in s["pairs"])) < 1e-12, s
assert "every listed pair at once" in s["covers"] and "every listed pair at once with probability" in d["answer"], (s, d["answer"])
for c in d["cells"]:
    assert not c["safe"] or c["verdict"] in ("practically the same", "faster"), c
    assert (c["p_safe"] is None) == (c["verdict"] not in ("practically the same", "faster")), c' "$m/report.json"

check_status 0 "report --rope 5 of the same matrix" "$SMTBENCH" report "$m" --rope 5
got=$(cells "$m/report.json")
check "with --rope 5 the cells at 1x and 1.02x are 'practically the same', 1.8x is slower: $(echo $got)" \
	eval '[[ $got == *"nop:nop=slower,False"* && $got == *"nop:mul-latency=practically the same,True"* \
	   && $got == *"mul-latency:nop=practically the same,True"* \
	   && $got == *"mul-latency:mul-latency=practically the same,True"* ]]'
check "the terminal says the rule of the ROPE" contains "$t_out" \
	"With --rope 5: a cell is practically the same when P(within 0.952–1.05×) >= 0.95"
check "... the matrix marks mul-latency's two cells '=' and nop beside nop '+'" python3 -c '
import re, sys
rows = [l.split() for l in sys.argv[1].splitlines()
        if re.match(r"  (nop|mul-latency) +[0-9.]+× \([0-9.–]+\) [-+=?] ", l)]
marks = {r[0]: [w for w in r if w in "+-=?"] for r in rows}
assert marks["mul-latency"] == ["=", "="] and marks["nop"][0] == "+", marks' "$t_out"
check "report.json: rope_pct 5, every 'practically the same' cell safe, safe pairs listed" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["rope_pct"] == 5 and d["safe_slowdown_pct"] == 5, d["rope_pct"]
for c in d["cells"]:
    assert c["verdict"] in ("slower", "faster", "practically the same", "not enough data to say"), c
    assert c["verdict"] != "practically the same" or c["safe"], c
pairs = sorted(tuple(sorted(p)) if isinstance(p, list) else p for p in d["safe_pairs"])
assert len(d["safe_pairs"]) == 2, d["safe_pairs"]' "$m/report.json"
check "report.md and report.html state the ROPE's rule" eval \
	'grep -q "With --rope 5:" "$m/report.md" && grep -q "id=\"rope\">With --rope 5:" "$m/report.html"'

# The safe bound follows the ROPE: at ±1% the 1.02x cell is no longer safe.
check_status 0 "report --rope 1" "$SMTBENCH" report "$m" --rope 1
check "with --rope 1 the answer's bound is 1% and nop + mul-latency is not safe" eval \
	'contains "$t_out" "each kernel slowed by at most 1% beside the other, every listed pair at once with probability" && contains "$t_out" "(at least 0.95): mul-latency + mul-latency;"'

# matrix --rope is recorded in meta.json; report uses it, report --rope replaces it.
r=$t_tmp/recorded
synth "$r" n1 --ratio nop:nop=1.8 --blocks 12 --seed 4 --rope 5
check_status 0 "report of a matrix recorded with rope_pct 5" "$SMTBENCH" report "$r"
check "... uses the recorded ROPE" contains "$t_out" "With --rope 5:"
check_status 0 "report --rope 20 of it" "$SMTBENCH" report "$r" --rope 20
check "... replaces it" eval 'contains "$t_out" "With --rope 20:" && ! contains "$t_out" "With --rope 5:"'
python3 - "$r/meta.json" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1])); m["matrix"]["rope_pct"] = "ten"
json.dump(m, open(sys.argv[1], "w"))
EOF
check_status 0 "a meta.json whose rope_pct is not a number" "$SMTBENCH" report "$r"
check "... is not used (the default ROPE is), and the warning names the key and what to do" eval \
	'contains "$t_out" "meta.json'"'"'s matrix.rope_pct is not a percentage above 0 and below 100: not used (give smtbench report --rope PCT)" && ! contains "$t_out" "With --rope" && contains "$t_out" "With the default ROPE of 5%"'

# Bad values: exit 2, naming --rope, nothing written.
for bad in 0 100 -3 abc "" 5x nan; do
	check_status 2 "matrix --rope '$bad' is refused" "$SMTBENCH" matrix --kernels nop \
		--placement non-sibling --rope "$bad" --out "$t_tmp/never"
	check "... naming --rope and the rule" contains "$t_err" "--rope '$bad': give a percentage above 0 and below 100"
done
check "... and no folder was made" test ! -e "$t_tmp/never"
check_status 2 "report --rope 0 is refused" "$SMTBENCH" report "$m" --rope 0
check_status 2 "analyze --rope 100 is refused with the same words" "$SMTBENCH" analyze "$m" --rope 100
check "... the same words" contains "$t_err" "--rope '100': give a percentage above 0 and below 100"

# analyze of a matrix's folder pools each placement; with --rope it names report --rope.
check_status 0 "analyze --rope 5 of a matrix's folder" "$SMTBENCH" analyze "$m" --rope 5
check "... says that report --rope 5 compares its cells" contains "$t_err" \
	"is an interference matrix (smtbench matrix): each placement here pools every kernel; \`smtbench report $m --rope 5\` compares its cells"

# report --rope on a run's folder: the run's verdicts take the ROPE as analyze --rope does.
run=$t_tmp/run
python3 "$SMTBENCH_ROOT/tests/e2e/fleet_synth.py" "$run" h --ratio 1.01 --noise 0.002 --trials 20
check_status 0 "report --rope 5 of a run's folder" "$SMTBENCH" report "$run" --rope 5 --out "$t_tmp/run-rope"
check "... its answer is 'practically the same' as analyze --rope 5 says" python3 - \
	"$t_tmp/run-rope/report.json" "$SMTBENCH" "$run" <<'EOF'
import json, subprocess, sys
rep = json.load(open(sys.argv[1]))
an = json.loads(subprocess.run([sys.argv[2], "analyze", sys.argv[3], "--rope", "5", "--json"],
                               capture_output=True, text=True, check=True).stdout)
h = rep["headline"]
a = [c for c in an["comparisons"] if c["a"]["name"] == h["a"] and c["b"]["name"] == h["b"]][0]
assert h["verdict"] == a["verdict"] == "practically the same", (h["verdict"], a["verdict"])
assert rep["analysis"]["rope_pct"] == 5, rep["analysis"]["rope_pct"]
EOF

# A real matrix: --rope recorded, and --resume takes no --rope.
check_status 0 "matrix --rope 50 on this machine (2 kernels, non-sibling, 4 short blocks)" \
	"$SMTBENCH" matrix --kernels nop,mul-latency --placement non-sibling --trial-time 0.01 \
	--blocks 4 --rope 50 --progress none --out "$t_tmp/real"
check "meta.json's matrix.rope_pct is 50 and report.json's rope_pct too" python3 -c '
import json, sys
m = json.load(open(sys.argv[1] + "/meta.json")); r = json.load(open(sys.argv[1] + "/report.json"))
assert m["matrix"]["rope_pct"] == 50 and r["rope_pct"] == 50, (m["matrix"]["rope_pct"], r["rope_pct"])' "$t_tmp/real"
check "the end of the run states the ROPE's rule" contains "$t_out" "With --rope 50:"
check_status 2 "matrix --resume --rope is refused (the recorded settings rule)" \
	"$SMTBENCH" matrix --resume "$t_tmp/real" --rope 5

done_testing
