# test_topo.sh — `smtbench topo` end to end: golden text for fixture and synthetic topologies,
# the --json contract, --pair answers and errors, bad --topology values, and this system.
#
# Golden files: tests/golden/topo/NAME.txt is the output of
#   (cd tests/fixtures/topologies && smtbench topo --topology NAME.xml)
# or, for synthetic-*.txt, of the synthetic string listed below. After a deliberate change of
# the output, rewrite them with SMTBENCH_UPDATE_GOLDEN=1 and review the diff.
source "$(dirname "$0")/lib.sh"

golden_dir=$SMTBENCH_ROOT/tests/golden/topo
topologies=$SMTBENCH_FIXTURES/topologies
declare -A synthetic=(
	[synthetic-core4-pu2-indexes-core]="core:4 pu:2(indexes=core)"
	[synthetic-pack2-core2-pu2-indexes-pack-core]="pack:2 core:2 pu:2(indexes=pack:core)"
	[synthetic-pack2-l3-core3]="pack:2 l3:1 core:3 pu:1"
	[synthetic-single-pu]="pu:1"
)

golden() { # golden NAME SPEC: run from the fixtures folder so file names stay relative
	local name=$1 spec=$2
	(cd "$topologies" && "$SMTBENCH" topo --topology "$spec") >"$t_tmp/$name.txt" 2>"$t_tmp/err"
	local rc=$?
	if [[ ${SMTBENCH_UPDATE_GOLDEN:-} == 1 ]]; then cp "$t_tmp/$name.txt" "$golden_dir/$name.txt"; fi
	if ((rc == 0)) && diff -u "$golden_dir/$name.txt" "$t_tmp/$name.txt" >"$t_tmp/diff"; then
		ok "golden: topo --topology '$spec'"
	else
		not_ok "golden: topo --topology '$spec' (exit $rc): $(head -c 600 "$t_tmp/diff") $(cat "$t_tmp/err")"
	fi
}

for xml in "$topologies"/*.xml; do
	name=$(basename "$xml" .xml)
	golden "$name" "$name.xml"
done
for name in "${!synthetic[@]}"; do
	golden "$name" "${synthetic[$name]}"
done
n_golden=$(ls "$golden_dir"/*.txt | wc -l)
check "every golden file is used ($n_golden)" test "$n_golden" -eq $(( $(ls "$topologies"/*.xml | wc -l) + ${#synthetic[@]} ))

# ---- the --json contract ----
json_check() { # json_check "what" PYTHON-ASSERTIONS (d is the parsed document)
	local what=$1 code=$2
	if python3 -c "import json,sys
d = json.loads(sys.stdin.read())
$code" <"$t_tmp/out" 2>"$t_tmp/pyerr"; then ok "$what"; else not_ok "$what: $(tail -n 2 "$t_tmp/pyerr")"; fi
}

check_status 0 "topo --json on skylake" "$SMTBENCH" topo --json --topology "$topologies/intel-skylake-2x6140.xml"
json_check "skylake JSON: keys and values" '
required = {"source", "pus", "cores", "packages", "max_threads_per_core", "smt", "virtual_machine", "placements"}
assert required <= set(d), sorted(required - set(d))
assert d["source"] == "xml" and d["pus"] == 72 and d["cores"] == 36 and d["packages"] == 2
assert d["max_threads_per_core"] == 2 and d["smt"] == "on" and d["virtual_machine"] is False
p = {x["name"]: x for x in d["placements"]}
assert [x["name"] for x in d["placements"]] == ["solo", "same-pu", "sibling", "non-sibling", "cross-package"]
assert p["solo"] == {"name": "solo", "available": True, "pus": [2], "cpu_kind": None,
                     "mixed_kinds": False}, p["solo"]
assert p["same-pu"]["pus"] == [2, 2] and p["same-pu"]["shares"] == "PU"
assert p["sibling"]["available"] is True and p["sibling"]["pus"] == [2, 38] and p["sibling"]["shares"] == "Core"
assert p["non-sibling"]["pus"] == [2, 4] and p["non-sibling"]["shares"] == "L3Cache"
assert p["cross-package"]["pus"] == [2, 1] and p["cross-package"]["shares"] == "Machine"
'
# CPU kinds (issue 28 item 3): the pairs' kind named, a pair that must mix kinds flagged.
check_status 0 "topo --json on the raptorlake hybrid" "$SMTBENCH" topo --json --topology "$topologies/intel-raptorlake-1370p-hybrid.xml"
json_check "hybrid JSON: every pair on the performance kind, none mixed" '
assert all(x["cpu_kind"] == "IntelCore" and not x["mixed_kinds"] for x in d["placements"] if x["available"]), d["placements"]
'
check_status 0 "topo --json on cores whose PUs differ in kind" "$SMTBENCH" topo --json --topology "$topologies/fake-kinds-within-cores.xml"
json_check "kinds within cores JSON: non-sibling within one kind, sibling flagged as mixed" '
p = {x["name"]: x for x in d["placements"]}
assert p["non-sibling"]["mixed_kinds"] is False and sorted(p["non-sibling"]["pus"]) == [0, 1], p["non-sibling"]
assert p["sibling"]["mixed_kinds"] is True, p["sibling"]
'
check_status 0 "topo --json on zen3 with SMT off" "$SMTBENCH" topo --json --topology "$topologies/amd-zen3-2x7763-smt-off.xml"
json_check "smt-off JSON: sibling unavailable with a reason, no pus" '
s = [x for x in d["placements"] if x["name"] == "sibling"][0]
assert s["available"] is False and "no SMT" in s["reason"] and "pus" not in s, s
assert d["smt"] == "off" and d["max_threads_per_core"] == 1 and d["cores"] == 128
'
check_status 0 "topo --json on the hybrid" "$SMTBENCH" topo --json --topology "$topologies/intel-raptorlake-1370p-hybrid.xml"
json_check "hybrid JSON: CPU kinds, P-core pairs" '
assert [(k["name"], k["cores"], k["max_threads_per_core"]) for k in d["cpu_kinds"]] == [("IntelCore", 6, 2), ("IntelAtom", 8, 1)]
p = {x["name"]: x for x in d["placements"]}
assert p["sibling"]["pus"] == [2, 3] and p["non-sibling"]["pus"] == [2, 4]
assert p["cross-package"]["available"] is False and p["cross-package"]["reason"] == "only one package"
'
check_status 0 "topo --json on the qemu guest" "$SMTBENCH" topo --json --topology "$topologies/qemu-2p3d3c2t.xml"
json_check "qemu JSON: a virtual machine" 'assert d["virtual_machine"] is True and d["hypervisor"] == "QEMU"'
check_status 0 "topo --json on a synthetic string" "$SMTBENCH" topo --json --topology "core:4 pu:2(indexes=core)"
json_check "synthetic JSON: siblings N and N+4" '
assert d["source"] == "synthetic"
s = [x for x in d["placements"] if x["name"] == "sibling"][0]
assert s["pus"] == [1, 5] and s["shares"] == "Core"
'

# ---- --pair ----
sky=$topologies/intel-skylake-2x6140.xml
check_status 0 "--pair 2,38 on skylake" "$SMTBENCH" topo --topology "$sky" --pair 2,38
check "2,38 are SMT siblings on core L#1" contains "$t_out" "SMT siblings"
check "... naming the core" contains "$t_out" "core L#1"
check_status 0 "--pair 2,4 --json" "$SMTBENCH" topo --topology "$sky" --pair 2,4 --json
json_check "2,4: non-sibling sharing L3, one CPU kind" 'assert d == {"pus": [2, 4], "relation": "non-sibling", "shares": "L3Cache", "mixed_kinds": False}, d'
check_status 0 "--pair 1,2 on cores whose PUs differ in kind" "$SMTBENCH" topo --topology "$topologies/fake-kinds-within-cores.xml" --pair 1,2
check "... warns that the two CPUs are of different kinds" contains "$t_out" "warning: CPUs 1 and 2 are of different CPU kinds"
check_status 0 "--pair 2,1 --json" "$SMTBENCH" topo --topology "$sky" --pair 2,1 --json
json_check "2,1: cross-package sharing the Machine" 'assert d["relation"] == "cross-package" and d["shares"] == "Machine"'
check_status 0 "--pair 38,2 --json" "$SMTBENCH" topo --topology "$sky" --pair 38,2 --json
json_check "38,2: sibling, in the order given" 'assert d["pus"] == [38, 2] and d["relation"] == "sibling" and d["shares"] == "Core" and d["core"] == 1'
check_status 0 "--pair 7,7" "$SMTBENCH" topo --topology "$sky" --pair 7,7
check "7,7 is the same PU" contains "$t_out" "same PU"
check_status 0 "--pair 2,4 text" "$SMTBENCH" topo --topology "$sky" --pair 2,4
check "2,4 text says different cores sharing L3Cache" contains "$t_out" "different cores in the same package: the deepest level they share is L3Cache"
check_status 0 "--pair 1,3 on zen1" "$SMTBENCH" topo --topology "$topologies/amd-zen1-2x7451.xml" --pair 1,3 --json
json_check "zen1 1,3: two CCXs of one die share the NUMA node" 'assert d["relation"] == "non-sibling" and d["shares"] == "NUMANode"'

check_status 2 "--pair with a CPU that does not exist" "$SMTBENCH" topo --topology "$sky" --pair 0,72
check "the error names CPU 72" contains "$t_err" "CPU 72 does not exist"
check "... on one line" test "$(printf '%s\n' "$t_err" | wc -l)" -eq 1
check_status 2 "--pair with an offline CPU" "$SMTBENCH" topo --topology "$topologies/intel-4s2c2t-offlines.xml" --pair 8,4
check "the error says CPU 8 is offline" contains "$t_err" "CPU 8 is offline"
check_status 2 "--pair with a disallowed CPU" "$SMTBENCH" topo --topology "$topologies/amd-4s2n4c-cgroup2-disallowed.xml" --pair 0,17
check "the error says CPU 17 may not be used" contains "$t_err" "CPU 17 may not be used"
for bad in "1" "1,2,3" "a,b" "-1,2" "1,,2" "1, 2" ",1" "1,"; do
	check_status 2 "--pair '$bad' refused" "$SMTBENCH" topo --topology "$sky" --pair "$bad"
	check "... with a message quoting '$bad'" contains "$t_err" "'$bad'"
done

# ---- bad --topology ----
check_status 2 "missing XML file" "$SMTBENCH" topo --topology "$t_tmp/nope.xml"
check "the message names the file" contains "$t_err" "nope.xml"
check "... in one line" test "$(printf '%s\n' "$t_err" | wc -l)" -eq 1
check_status 2 "bad synthetic string" "$SMTBENCH" topo --topology "pack:2 bogus:3"
check "the message quotes the string" contains "$t_err" "'pack:2 bogus:3'"
check "... in one line" test "$(printf '%s\n' "$t_err" | wc -l)" -eq 1
echo "<topology" >"$t_tmp/broken.xml"
check_status 2 "broken XML file" "$SMTBENCH" topo --topology "$t_tmp/broken.xml"
check "the message says it is not hwloc XML" contains "$t_err" "not a valid hwloc XML"
check_status 2 "unknown option" "$SMTBENCH" topo --frobnicate
check_status 2 "stray argument" "$SMTBENCH" topo extra
check_status 0 "--help" "$SMTBENCH" topo --help
check "--help shows the synopsis" contains "$t_out" "smtbench topo [--topology SPEC|FILE.xml] [--pair A,B] [--json]"

# ---- this system ----
smt_here=0
for list in /sys/devices/system/cpu/cpu[0-9]*/topology/thread_siblings_list; do
	[[ -r $list && $(cat "$list") == *[,-]* ]] && smt_here=1
done
check_status 0 "topo on this system" "$SMTBENCH" topo
check "this system's output lists every placement" contains "$t_out" "cross-package"
if ((smt_here)); then
	check "SMT here: a sibling pair is offered" contains "$t_out" "$(printf 'sibling %8s' '')"
else
	check "no SMT here: the output says so plainly" contains "$t_out" "This machine has no SMT: every core runs one thread"
	check "... and the sibling line gives the reason" contains "$t_out" "unavailable: this machine has no SMT"
fi
if grep -qw hypervisor /proc/cpuinfo; then
	check "in a VM: the warning is shown" contains "$t_out" "warning: virtual machine"
fi
check_status 0 "topo --json on this system" "$SMTBENCH" topo --json
json_check "this system JSON agrees with the kernel" "
import os
assert d['source'] == 'this-system'
assert d['pus'] == len(os.sched_getaffinity(0)), d['pus']
assert d['virtual_machine'] == (' hypervisor' in open('/proc/cpuinfo').read())
s = [x for x in d['placements'] if x['name'] == 'sibling'][0]
assert s['available'] == bool($smt_here), s
if not $smt_here: assert 'SMT' in s['reason']
"
# The affinity mask counts: run pinned to the last usable CPU and the others disappear.
if command -v taskset >/dev/null && (( $(nproc) >= 2 )); then
	last=$(python3 -c 'import os; print(max(os.sched_getaffinity(0)))')
	first=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')
	check_status 0 "topo under taskset -c $last" taskset -c "$last" "$SMTBENCH" topo --json
	json_check "only CPU $last is usable, and nothing else is chosen" "
assert d['pus'] == 1 and d['cores'] == 1, d
p = {x['name']: x for x in d['placements']}
assert p['solo']['pus'] == [$last]
assert p['non-sibling']['available'] is False and p['non-sibling']['reason'] == 'only one usable core'
assert p['sibling']['available'] is False
"
	check_status 2 "--pair with a CPU outside the affinity mask" taskset -c "$last" "$SMTBENCH" topo --pair "$first,$last"
	check "the error names CPU $first and the affinity mask" contains "$t_err" "CPU $first may not be used here: it is outside this process's affinity mask"
	# The mask is the kernel's even when hwloc is handed a topology file (HWLOC_XMLFILE without
	# HWLOC_THISSYSTEM), where hwloc's own affinity query answers with the whole machine.
	check_status 0 "topo under taskset -c $last with HWLOC_XMLFILE set" \
		env HWLOC_XMLFILE="$SMTBENCH_FIXTURES/one-core-per-package.xml" taskset -c "$last" "$SMTBENCH" topo
	check "…still one usable PU: the affinity mask is read from the kernel" contains "$t_out" "1 usable"
fi
beyond=$(( $(getconf _NPROCESSORS_CONF) + 7 ))
check_status 2 "--pair with a CPU this machine lacks" "$SMTBENCH" topo --pair "0,$beyond"
check "the error names CPU $beyond" contains "$t_err" "CPU $beyond"

done_testing
