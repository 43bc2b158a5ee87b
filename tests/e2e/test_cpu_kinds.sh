#!/usr/bin/env bash
# test_cpu_kinds.sh — a folder from a machine of several CPU kinds (issue 28 item 3): its report
# names the kind the pairs were chosen within (the page and report.json's cpu_kind) and warns of
# a pair whose CPUs mix kinds, for a run and for a matrix. The folders are the fixtures with
# meta.json's placements given cpu_kind and mixed_kinds as a hybrid machine's run writes them
# (this machine has one kind; `topo` on tests/fixtures/topologies shows the choice itself).
source "$(dirname "$0")/lib.sh"
fix=$SMTBENCH_ROOT/tests/fixtures/folders

hybrid() { # hybrid FOLDER OUT MIXED-PLACEMENT: the fixture, its placements on IntelCore
	cp -r "$fix/$1" "$2"
	python3 - "$2/meta.json" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["placements"]:
    e["cpu_kind"] = "IntelCore"
    e["mixed_kinds"] = e["name"] == sys.argv[2]
json.dump(d, open(sys.argv[1], "w"), indent=1)
PY
}

hybrid run "$t_tmp/run" same-pu
check_status 0 "report of a run from a hybrid machine" "$SMTBENCH" report "$t_tmp/run" --out "$t_tmp/run-report"
check "... names the CPU kind on the page" grep -q "CPU kind:\*\* IntelCore: the machine has several kinds of core" "$t_tmp/run-report/report.md"
check "... and in report.json (cpu_kind)" python3 -c '
import json, sys; assert json.load(open(sys.argv[1]))["cpu_kind"] == "IntelCore"' "$t_tmp/run-report/report.json"
check "... warns of the placement whose CPUs mix kinds" eval \
	'grep -q "same-pu.s CPUs are of different CPU kinds (this machine has no same-pu pair within one kind)" "$t_tmp/run-report/report.md"'
check "... and of no other" eval '(( $(grep -c "are of different CPU kinds" "$t_tmp/run-report/report.md") == 1 ))'

hybrid matrix "$t_tmp/matrix" non-sibling
check_status 0 "report of a matrix from a hybrid machine" "$SMTBENCH" report "$t_tmp/matrix" --out "$t_tmp/matrix-report"
check "... names the CPU kind beside the pair" grep -q "; CPU kind IntelCore (the machine has several)" "$t_tmp/matrix-report/report.md"
check "... in report.json too" python3 -c '
import json, sys; assert json.load(open(sys.argv[1]))["cpu_kind"] == "IntelCore"' "$t_tmp/matrix-report/report.json"
check "... and warns that its pair mixes kinds" grep -q "CPUs are of different CPU kinds (this machine has no non-sibling pair within one kind)" "$t_tmp/matrix-report/report.md"

check_status 0 "report of a one-kind machine's run" "$SMTBENCH" report "$fix/run" --out "$t_tmp/plain"
check "... names no kind (cpu_kind null) and warns of none" python3 -c '
import json, sys; d = json.load(open(sys.argv[1])); assert d["cpu_kind"] is None
assert not any("CPU kinds" in w for w in d["warnings"])' "$t_tmp/plain/report.json"

done_testing
