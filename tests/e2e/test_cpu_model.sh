#!/usr/bin/env bash
# End to end: one CPU model everywhere (issue 19). `topo` (text and --json), a run's meta.json,
# its report and `fleet`'s grouping all name the machine by the one rule (common/cpu_model.h:
# /proc/cpuinfo's "model name" when it has one, else hwloc's), meta.json keeps both sources,
# and fleet groups a folder written before the rule (only cpu_model, /proc's string) with a new
# one. hwloc's string is made to differ from /proc's, as on the VM of the issue, by loading this
# machine's own export with a changed CPUModel as this system (HWLOC_XMLFILE, HWLOC_THISSYSTEM).
source "$(dirname "$0")/lib.sh"

rule() { # the rule, written again here: proc_cpuinfo when it names one, else hwloc; blanks folded
	python3 -c '
import re, sys
proc, hw = sys.argv[1], sys.argv[2]
pick = proc if proc.strip(" \t") else hw
print(re.sub(r"[ \t]+", " ", pick).strip(" \t"))' "$1" "$2"
}
jq_py() { python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print($2)" "$1"; }

# --- this machine, as it is --------------------------------------------------------------
check_status 0 "topo --json" "$SMTBENCH" topo --json
printf '%s\n' "$t_out" >"$t_tmp/topo.json"
check "topo --json has cpu_model and cpu_model_sources (hwloc, proc_cpuinfo)" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d["cpu_model"], str), d
assert set(d["cpu_model_sources"]) == {"hwloc", "proc_cpuinfo"}, d["cpu_model_sources"]' "$t_tmp/topo.json"
proc=$(jq_py "$t_tmp/topo.json" 'd["cpu_model_sources"]["proc_cpuinfo"] or ""')
hw=$(jq_py "$t_tmp/topo.json" 'd["cpu_model_sources"]["hwloc"] or ""')
model=$(jq_py "$t_tmp/topo.json" 'd["cpu_model"]')
check "topo --json's cpu_model is the rule applied to its two sources ('$model')" \
	test "$model" == "$(rule "$proc" "$hw")"
want_proc=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -n 1)
check "... and its proc_cpuinfo is /proc/cpuinfo's model name" test "$proc" == "$want_proc"
check_status 0 "topo" "$SMTBENCH" topo
if [[ -n $model ]]; then
	check "topo's text names the same model" contains "$t_out" "CPU model:        $model"
else
	skip "neither /proc/cpuinfo nor hwloc names a CPU model on this machine"
fi

# --- hwloc's string differs from /proc's ------------------------------------------------------
run=$t_tmp/runs/plain
mkdir -p "$t_tmp/runs"
"$SMTBENCH" run --placements solo,same-pu --trials 3 --warmup 0 --iters 200000 --out "$run" \
	>/dev/null 2>&1
check "a short run wrote its meta.json and topology.xml" test -s "$run/meta.json" -a -s "$run/topology.xml"
odd="Oxide Virtual  Turin-like Processor"   # two spaces: folded to one by the rule
python3 - "$run/topology.xml" "$t_tmp/odd.xml" "$odd" <<'PY'
import re, sys
xml = open(sys.argv[1]).read()
tag = '<info name="CPUModel" value="%s"/>' % sys.argv[3]
if 'name="CPUModel"' in xml:
    xml = re.sub(r'<info name="CPUModel" value="[^"]*"/>', tag, xml)
else:  # no CPUModel anywhere: give the root one
    xml = re.sub(r'(<object type="Machine"[^>]*>)', r'\1' + tag, xml, count=1)
open(sys.argv[2], "w").write(xml)
PY
as_odd() { HWLOC_XMLFILE=$t_tmp/odd.xml HWLOC_THISSYSTEM=1 "$@"; }
want=$(rule "$proc" "$odd")
check_status 0 "topo --json where hwloc names the CPU differently" as_odd "$SMTBENCH" topo --json
printf '%s\n' "$t_out" >"$t_tmp/topo-odd.json"
check "... keeps both sources and names it by the rule ('$want')" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["cpu_model_sources"]
assert s["hwloc"] == sys.argv[3], s
assert (s["proc_cpuinfo"] or "") == sys.argv[2], s
assert d["cpu_model"] == sys.argv[4], d["cpu_model"]' "$t_tmp/topo-odd.json" "$proc" "$odd" "$want"
check_status 0 "topo (text) there" as_odd "$SMTBENCH" topo
check "... prints the same model" contains "$t_out" "CPU model:        $want"
if [[ -n $proc ]]; then
	check "... and says what hwloc calls it" contains "$t_out" 'hwloc names it "Oxide Virtual Turin-like Processor"'
else
	skip "/proc/cpuinfo has no model name here: hwloc's string is the model, nothing to add"
fi

new=$t_tmp/fleet/new
mkdir -p "$t_tmp/fleet"
as_odd "$SMTBENCH" run --placements solo,same-pu --trials 3 --warmup 0 --iters 200000 --out "$new" \
	>/dev/null 2>&1
check "meta.json of a run there: cpu_model as topo says, both sources kept, keys in order" python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
t = json.load(open(sys.argv[2]))
assert m["cpu_model"] == t["cpu_model"], (m["cpu_model"], t["cpu_model"])
assert m["cpu_model_sources"] == t["cpu_model_sources"], (m["cpu_model_sources"], t["cpu_model_sources"])
keys = list(m)
assert keys.index("cpu_model_sources") == keys.index("cpu_model") + 1, keys' \
	"$new/meta.json" "$t_tmp/topo-odd.json"

# A folder as smtbench wrote it before the rule: no cpu_model_sources, and cpu_model /proc's
# string as read (hwloc's only where /proc had none).
old=$t_tmp/fleet/old
cp -r "$new" "$old"
python3 - "$old/meta.json" "$want_proc" "$odd" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
del m["cpu_model_sources"]
m["cpu_model"] = sys.argv[2] or sys.argv[3]
json.dump(m, open(sys.argv[1], "w"), indent=2)
PY
check_status 0 "report of the new folder" "$SMTBENCH" report "$new"
check "... names the machine by the rule" contains "$t_out" "Machine: $want on host"
check_status 0 "report of the old-style folder" "$SMTBENCH" report "$old"
check "... names it the same" contains "$t_out" "Machine: $want on host"
check "... in report.md too" grep -qF "| cpu_model | $want |" "$old/report.md"
check_status 0 "fleet --json over the new folder and the old-style one" \
	"$SMTBENCH" fleet "$t_tmp/fleet" --json
printf '%s\n' "$t_out" >"$t_tmp/fleet.json"
check "... one group, both folders in it, named as topo names the machine" python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert len(j["groups"]) == 1, [(g["cpu_model"], len(g["hosts"])) for g in j["groups"]]
g = j["groups"][0]
assert g["cpu_model"] == sys.argv[2], g["cpu_model"]
assert sorted(h["dir"].rsplit("/", 1)[1] for h in g["hosts"]) == ["new", "old"], g["hosts"]
assert all(h["cpu_model"] == sys.argv[2] for h in g["hosts"]), g["hosts"]' "$t_tmp/fleet.json" "$want"
check_status 0 "fleet (text)" "$SMTBENCH" fleet "$t_tmp/fleet"
check "... titles the group with that model" contains "$t_out" "Group 1: $want,"

# --- folders of every age, synthetic: the rule applied to what each meta.json holds ---------
synth() { python3 "$SMTBENCH_ROOT/tests/e2e/fleet_synth.py" "$@"; }
sources() { # DIR CPU_MODEL PROC HWLOC: rewrite meta.json's cpu_model and its sources ("-": none)
	python3 - "$@" <<'PY'
import json, sys
path, model, proc, hw = sys.argv[1] + "/meta.json", *sys.argv[2:]
m = json.load(open(path))
m["cpu_model"] = model
if proc != "-" or hw != "-":
    m["cpu_model_sources"] = {"proc_cpuinfo": None if proc == "-" else proc,
                              "hwloc": None if hw == "-" else hw}
json.dump(m, open(path, "w"), indent=2)
PY
}
s=$t_tmp/synth
for i in 1 2 3 4 5; do synth "$s/n$i" "n$i" --sibling --seed "$i"; done
sources "$s/n1" "Synth X" - -                            # old: only cpu_model
sources "$s/n2" "Synth  X " - -                          # old, padded differently
sources "$s/n3" "Synth X" "Synth X" "Virtual Y"          # new: both, /proc's wins
sources "$s/n4" "Synth X" - "Synth X"                    # new: only hwloc's (no model name in /proc)
sources "$s/n5" "Other" "Other" "Synth X"                # another CPU that hwloc calls the same
check_status 0 "fleet --json over folders of every age" "$SMTBENCH" fleet "$s" --json
printf '%s\n' "$t_out" >"$t_tmp/synth.json"
check "... groups by the rule: four of Synth X, one of Other" python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
got = sorted((g["cpu_model"], sorted(h["host"] for h in g["hosts"])) for g in j["groups"])
assert got == [("Other", ["n5"]), ("Synth X", ["n1", "n2", "n3", "n4"])], got' "$t_tmp/synth.json"

done_testing
