#!/usr/bin/env bash
# Text that came from outside (meta.json's strings, samples.csv's fields, a path) reaches no
# terminal and no report raw: every reader escapes it once where it enters (common/text.h,
# \xNN), and the escape is lossless. Issue 21's items 2 and 12, and the summary's host and CPU.
source "$(dirname "$0")/lib.sh"

raw_control() { # raw_control TEXT: true when TEXT holds a control byte other than \n and \t
	# (C0, DEL, C1) or a byte that is not UTF-8 (which Python's argv holds as U+DC80-U+DCFF)
	python3 -c 'import sys; t = sys.argv[1]; sys.exit(0 if any(ord(c) < 32 and c not in "\n\t" or 127 <= ord(c) < 160 or 0xdc80 <= ord(c) <= 0xdcff for c in t) else 1)' "$1"
}
export -f raw_control
make_run() { # make_run DIR: a small real results folder (its parent made first: run --out refuses a missing one)
	mkdir -p "$(dirname "$1")"
	"$SMTBENCH" run --placements solo,same-pu --kernel nop --iters 400000 --trials 6 --warmup 0 \
		--out "$1" >/dev/null 2>&1
}
set_meta() { # set_meta DIR KEY PYTHON-VALUE
	python3 - "$1/meta.json" "$2" "$3" <<'PY'
import json, sys
path, key, value = sys.argv[1], sys.argv[2], eval(sys.argv[3])
meta = json.load(open(path))
meta[key] = value
json.dump(meta, open(path, "w"))
PY
}

# --- fleet: a meta.json that fails its checks is named with its reason, escaped (item 2) ------
for case in status version; do
	d=$t_tmp/fleet-$case/n1
	make_run "$d"
	make_run "$t_tmp/fleet-$case/n2"   # a good node, so that fleet writes its reports
	set_meta "$d" "$case" '"\u001b]0;pwned\u0007\u001b[31mcomplete\nFAKE LINE"'
	check_status 0 "fleet with meta.json's $case holding escapes and a newline" \
		"$SMTBENCH" fleet "$t_tmp/fleet-$case" --out "$t_tmp/fleet-$case-report"
	check "... prints no raw control byte on the terminal" bash -c '! raw_control "$1"' _ "$t_out$t_err"
	check "... and shows it escaped" contains "$t_out" '\x1b]0;pwned\x07\x1b[31mcomplete\x0aFAKE LINE'
	check "... and fleet.md holds no raw control byte" bash -c '! raw_control "$(cat "$1")"' _ "$t_tmp/fleet-$case-report/fleet.md"
done

d=$t_tmp/fleet-json/n1
make_run "$d"
make_run "$t_tmp/fleet-json/n2"
printf '{"tool": "smtbench", "host": "a\xff\x1b[31mb"}' >"$d/meta.json"
check_status 0 "fleet with a meta.json that is not UTF-8 (jansson's message quotes the byte)" \
	"$SMTBENCH" fleet "$t_tmp/fleet-json"
check "... says it is damaged, with no raw byte" bash -c '! raw_control "$1" && [[ $1 == *"meta.json is damaged"* ]]' _ "$t_out"

# --- analyze and report: samples.csv's placement and workload (item 12) ------------------------
d=$t_tmp/csv
make_run "$d"
python3 - "$d/samples.csv" <<'PY'
import sys
path = sys.argv[1]
lines = open(path).read().split("\n")
head = lines[0].split(",")
w = head.index("workload")
out = [lines[0]]
for l in lines[1:]:
    if l:
        f = l.split(",")
        f[w] = "\x1b[31mevil"
        l = ",".join(f)
    out.append(l)
open(path, "w").write("\n".join(out))
PY
# meta.json names the same workload (rows it does not describe are left out).
python3 - "$d/meta.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); m["workloads"]["a"]["name"] = "\x1b[31mevil"
json.dump(m, open(sys.argv[1], "w"))
PY
check_status 0 "analyze of a folder whose samples.csv names its workload with an escape" \
	"$SMTBENCH" analyze "$d"
check "... prints no raw control byte" bash -c '! raw_control "$1"' _ "$t_out$t_err"
check_status 0 "report of it" "$SMTBENCH" report "$d"
check "... prints the workload escaped, never raw" bash -c '! raw_control "$1" && [[ $1 == *"\\x1b[31mevil"* ]]' _ "$t_out"
check "... report.md holds no raw control byte" bash -c '! raw_control "$(cat "$1")"' _ "$d/report.md"
check "... and report.json parses, the workload escaped" python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
assert "\x1b" not in json.dumps(doc, ensure_ascii=False), "raw ESC in report.json"' "$d/report.json"

# A placement that is no placement (an unknown name with an escape): warned about, escaped.
d=$t_tmp/placement
make_run "$d"
sed -i '2,3s/,same-pu,/,same\x1b[2Jpu,/' "$d/samples.csv"
check_status 0 "analyze with an unknown placement name holding an escape" "$SMTBENCH" analyze "$d"
check "... prints no raw control byte" bash -c '! raw_control "$1"' _ "$t_out$t_err"

# A meta.json key with an escape sequence: report.md lists the settings by name, so keys are
# escaped too.
d=$t_tmp/key
make_run "$d"
python3 - "$d/meta.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); m["settings"]["\x1b[2Jkey"] = 1; json.dump(m, open(sys.argv[1], "w"))
PY
check_status 0 "report of a folder whose meta.json has a key with an escape sequence" \
	"$SMTBENCH" report "$d"
# In Markdown the escape's backslash and '[' are themselves backslashed (render_md.c), so that
# it renders as \x1b[2Jkey.
check "... report.md lists the key escaped, with no raw control byte" \
	bash -c '! raw_control "$(cat "$1")" && grep -qF "\\\\x1b\\[2Jkey" "$1"' _ "$d/report.md"
check "... nor the summary" bash -c '! raw_control "$1"' _ "$t_out"

# --- the summary: meta.json's host and CPU model --------------------------------------------
d=$t_tmp/summary
make_run "$d"
set_meta "$d" host '"evil\u001b[2Jhost"'
set_meta "$d" cpu_model '"CPU\nFAKE"'
# the report names the model by the rule (common/cpu_model.h), from these where they name one
set_meta "$d" cpu_model_sources '{"proc_cpuinfo": "CPU\nFAKE", "hwloc": "\u001b[2JCPU"}'
check_status 0 "report of a folder whose host and CPU model hold control characters" \
	"$SMTBENCH" report "$d"
check "... prints them escaped" bash -c '[[ $1 == *"evil\\x1b[2Jhost"* && $1 == *"CPU\\x0aFAKE"* ]]' _ "$t_out"
check "... and nothing raw" bash -c '! raw_control "$1"' _ "$t_out$t_err"
# --- bytes that are not UTF-8 in a command line (items 1 and 8) -------------------------------
# An argument that is not UTF-8 was dropped from meta.json (jansson refuses such a string), so
# that --resume ran the command without it. It is stored as {"hex": ...} and comes back exactly.
# The line is written in one append: the two copies of a same-pu trial write at once, and a
# printf then an echo interleaved between them ("2|..|2|..|" and an empty line; seen in CI).
w=$t_tmp/w.sh
printf '#!/bin/sh\nline=$(printf "%%s|" "$#" "$@")\nprintf "%%s\\n" "$line" >>"%s"\ni=0; while [ $i -lt 40000 ]; do i=$((i+1)); done\n' \
	"$t_tmp/args.log" >"$w"
chmod +x "$w"
d=$t_tmp/bytes
"$SMTBENCH" run --placements solo,same-pu --trials 40 --warmup 0 --out "$d" -- "$w" $'\xff' 'plain' >/dev/null 2>&1 &
runner=$!
for _ in $(seq 200); do [[ $( (wc -l <"$t_tmp/args.log") 2>/dev/null || echo 0) -ge 6 ]] && break; sleep 0.05; done
kill -TERM "$runner"; wait "$runner"   # (a background job ignores SIGINT)
check "the run was interrupted part way" grep -q '"status": "interrupted"' "$d/meta.json"
check "meta.json stores the argument that is not UTF-8 as hex, the others as text" python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
want = [{"hex": "ff"}, "plain"]
assert m["workloads"]["a"]["argv"][1:] == want, m["workloads"]["a"]["argv"]
assert m["settings"]["command"][1:] == want, m["settings"]["command"]
assert m["command_line"][-2:] == want, m["command_line"]' "$d/meta.json"
: >"$t_tmp/args.log"
check_status 0 "--resume of that run" "$SMTBENCH" run --resume "$d"
check "... runs the same command: 2 arguments, the first the byte 0xff" python3 -c '
import sys
lines = open(sys.argv[1], "rb").read().splitlines()
assert lines and all(l == b"2|\xff|plain|" for l in lines), lines[:3]' "$t_tmp/args.log"

# A damaged argument in meta.json is refused by name; with a recorded workload b it crashed.
d2=$t_tmp/bytes-damaged
cp -r "$d" "$d2"
python3 - "$d2/meta.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["status"] = "interrupted"
m["settings"]["command"][1] = {"hex": "f"}
json.dump(m, open(sys.argv[1], "w"))
PY
check_status 2 "--resume with an argument in meta.json that is neither text nor hex bytes" \
	"$SMTBENCH" run --resume "$d2"
check "... names settings.command as damaged" contains "$t_err" "settings.command is damaged"
d3=$t_tmp/beside-damaged
"$SMTBENCH" run --placements solo,same-pu --trials 3 --warmup 0 --out "$d3" -- "$w" --beside "$w" x >/dev/null 2>&1
python3 - "$d3/meta.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["status"] = "interrupted"
m["settings"]["beside_command"] = [3]
json.dump(m, open(sys.argv[1], "w"))
PY
check_status 2 "--resume with a damaged settings.beside_command (a recorded workload b) is refused" \
	"$SMTBENCH" run --resume "$d3"
check "... naming it, not crashing" contains "$t_err" "settings.beside_command is damaged"

cp "$w" "$t_tmp/caf"$'\xe9'
check_status 0 "a command whose path is not UTF-8 runs (it said 'internal error: cannot build meta.json')" \
	"$SMTBENCH" run --placements solo,same-pu --trials 3 --warmup 0 --out "$t_tmp/cafe" -- "$t_tmp/caf"$'\xe9'
check "... no half-made folder is left behind" bash -c '! ls -a "$1" | grep -q smtbench-partial' _ "$t_tmp"
check_status 0 "an --out whose name is not UTF-8" \
	"$SMTBENCH" run --placements solo,same-pu --kernel nop --iters 400000 --trials 4 --warmup 0 --out "$t_tmp/o"$'\xe9'
check "... writes every report (report.json failed as 'out of memory' before)" \
	test -s "$t_tmp/o"$'\xe9'/report.json -a -s "$t_tmp/o"$'\xe9'/report.html -a -s "$t_tmp/o"$'\xe9'/posterior.svg
check "... and names it escaped" contains "$t_out" 'o\xe9/report.html'

# --- the run's own lines: a command, its arguments and --out as hostile bytes ---------------
# The plan line, the command's length and samples.csv's workload column quoted them raw.
H=$'ev\xff\x1b[31mil\na|b,c'
H_shown='ev\xff\x1b[31mil\x0aa|b'
cp "$w" "$t_tmp/$H"
d=$t_tmp/out-$H
check_status 0 "a run of a command, an argument beside it and an --out, all named with hostile bytes" \
	"$SMTBENCH" run --placements solo,same-pu --trials 3 --warmup 0 --out "$d" -- "$t_tmp/$H" "$H" \
	--beside "$t_tmp/$H" '|'
check "... prints no raw control byte or byte that is not UTF-8" bash -c '! raw_control "$1"' _ "$t_out$t_err"
check "... names the command, the one beside it and the folder escaped in the plan line" \
	contains "$t_out" "smtbench run: $H_shown,c beside $H_shown,c → $t_tmp/out-$H_shown,c"
check "... and in the line on the command's length" contains "$t_err" "smtbench: $H_shown,c is a command"
check "... samples.csv's workload column holds it escaped, one token (no raw byte, no comma)" python3 -c '
import sys
lines = open(sys.argv[1], "rb").read().decode("utf-8").split("\n")
w = lines[0].split(",").index("workload")
names = {l.split(",")[w] for l in lines[1:] if l}
assert names == {r"ev\xff\x1b[31mil\x0aa|b_c"}, names
assert all(len(l.split(",")) == len(lines[0].split(",")) for l in lines if l)' "$d/samples.csv"
# Its --resume: meta.json's resumed_with names the folder as bytes (it went missing: json_pack
# refused the text), and the plan line names it escaped.
d2=$t_tmp/resume-$H
cp -r "$d" "$d2"
python3 - "$d2" <<'PY'
import json, sys
d = sys.argv[1]
lines = open(d + "/samples.csv", "rb").read().split(b"\n")
keep = [lines[0]] + [l for l in lines[1:] if l and int(l.split(b",")[0]) < 4]
open(d + "/samples.csv", "wb").write(b"\n".join(keep) + b"\n")
m = json.load(open(d + "/meta.json"))
m["status"] = "interrupted"
json.dump(m, open(d + "/meta.json", "w"))
PY
check_status 0 "--resume of that run from a folder named with hostile bytes" "$SMTBENCH" run --resume "$d2"
check "... prints no raw control byte and names the folder escaped" \
	bash -c '! raw_control "$1" && [[ $1 == *"resuming $2/resume-$3,c at trial 4"* ]]' _ "$t_out$t_err" "$t_tmp" "$H_shown"
check "... meta.json's resumed_with holds the folder's bytes exactly" python3 -c '
import json, sys
m = json.load(open(sys.argv[1] + "/meta.json"))
want = ["smtbench", "run", "--resume", {"hex": sys.argv[1].encode("utf-8", "surrogateescape").hex()}]
assert m.get("resumed_with") == want, m.get("resumed_with")' "$d2"

# Messages that quote a path or an argument: every one passes the sanitiser (common/text.h).
check_status 2 "a command that does not exist, named with hostile bytes" \
	"$SMTBENCH" run --trials 2 -- "/nonexistent/$H"
check "... is named escaped" bash -c '! raw_control "$1" && [[ $1 == *"/nonexistent/$2,c"* ]]' _ "$t_err" "$H_shown"
check_status 2 "--resume of a folder that does not exist, named with hostile bytes" \
	"$SMTBENCH" run --resume "$t_tmp/none-$H"
check "... is named escaped" bash -c '! raw_control "$1" && [[ $1 == *"none-$2,c"* ]]' _ "$t_err" "$H_shown"
printf '0.25\n0.26\n0.2x%s\n' "$H" >"$t_tmp/num-$H.txt"
printf '0.25\n0.26\n0.27\n' >"$t_tmp/num-b.txt"
check_status 2 "a file of numbers with hostile bytes in its name and in a bad line" \
	"$SMTBENCH" analyze "$t_tmp/num-$H.txt" "$t_tmp/num-b.txt"
check "... names both escaped" bash -c '! raw_control "$1" && [[ $1 == *"num-$2,c.txt:3: "* ]]' _ "$t_err" "$H_shown"
check_status 2 "an unknown command with hostile bytes is refused" "$SMTBENCH" "$H"
check "... quoting it escaped" bash -c '! raw_control "$1" && [[ $1 == *"unknown command '"'"'$2,c'"'"'"* ]]' _ "$t_err" "$H_shown"
check_status 2 "an unknown option with hostile bytes is refused" "$SMTBENCH" run "--$H"
check "... quoting it escaped" bash -c '! raw_control "$1" && [[ $1 == *"--$2,c"* ]]' _ "$t_err" "$H_shown"
check_status 2 "an option value with hostile bytes is refused" "$SMTBENCH" run --trials "$H"
check "... quoting it escaped" bash -c '! raw_control "$1" && [[ $1 == *"--trials: '"'"'$2,c"* ]]' _ "$t_err" "$H_shown"
cp "$SMTBENCH_ROOT/tests/fixtures/topologies/intel-4s2c2t.xml" "$t_tmp/topo-$H.xml"
check_status 0 "topo of an XML file whose name holds hostile bytes" \
	"$SMTBENCH" topo --topology "$t_tmp/topo-$H.xml"
check "... names it escaped" bash -c '! raw_control "$1" && [[ $1 == *"topo-$2,c.xml"* ]]' _ "$t_out" "$H_shown"

# report.md: '|' is escaped in table cells only; in a list item inside a `code span` "\|" showed
# its backslash.
cp "$w" "$t_tmp/x|y"
d=$t_tmp/pipe
check_status 0 "a run of a command named x|y" \
	"$SMTBENCH" run --placements solo,same-pu --trials 8 --warmup 0 --out "$d" -- "$t_tmp/x|y"
check "... report.md's comparison sentence names it as it is, not x\\|y" \
	bash -c 'grep -q "^- On CPU .*\`x|y\`" "$1" && ! grep "^- " "$1" | grep -qF "x\\|y"' _ "$d/report.md"
check "... and its tables still escape it (| command | .../x\\|y |)" grep -qF 'x\|y |' "$d/report.md"
done_testing
