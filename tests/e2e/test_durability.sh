#!/usr/bin/env bash
# End to end: what an unattended run must survive in its results folder and its inputs (issue 8).
# --resume never removes a complete trial and changes nothing when it refuses; analyze skips only
# a damaged trial; --resume runs exactly the recorded workload; a folder is made complete or not
# at all; a hostile --topology file is exit 2; counts are range-checked; a BOM is accepted and a
# NUL byte refused; a full disk stops the run cleanly and --resume completes it afterwards.
source "$(dirname "$0")/lib.sh"

# Short trials: the point is the files, not the measurement.
small_run() { # small_run DIR [more options...]: 5 blocks of solo + same-pu (10 trials, 15 rows)
	local dir=$1; shift
	"$SMTBENCH" run --placements solo,same-pu --kernel nop --iters 200000 --trials 4 --warmup 1 \
		--seed 7 --out "$dir" "$@" >/dev/null 2>"$t_tmp/small_run.err"
}
# unfinish DIR K: keep trials 0..K-1 and mark the run interrupted, as a stopped run leaves it.
unfinish() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
d, k = sys.argv[1], int(sys.argv[2])
lines = open(d + "/samples.csv").read().split("\n")
keep = [lines[0]] + [l for l in lines[1:] if l and int(l.split(",")[0]) < k]
open(d + "/samples.csv", "w").write("\n".join(keep) + "\n")
m = json.load(open(d + "/meta.json"))
m["status"] = "interrupted"
json.dump(m, open(d + "/meta.json", "w"), indent=2)
EOF
}
# edit_line DIR N PYEXPR: line N (1 = header) of samples.csv replaced by PYEXPR of l (the line).
edit_line() {
	python3 - "$1/samples.csv" "$2" "$3" <<'EOF'
import sys
path, n, expr = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lines = open(path).read().split("\n")
l = lines[n - 1]
lines[n - 1] = eval(expr)
open(path, "w").write("\n".join(lines))
EOF
}
sum_of() { sha256sum "$1/samples.csv" | cut -d' ' -f1; }
# trials_once DIR N: trials 0..N-1 each present once with the right number of rows.
trials_once() {
	python3 - "$1/samples.csv" "$2" <<'EOF'
import sys, collections
rows = [l.split(",") for l in open(sys.argv[1]).read().split("\n")[1:] if l.strip()]
need = {"solo": 1}
count = collections.Counter(r[0] for r in rows)
place = {r[0]: r[3] for r in rows}
n = int(sys.argv[2])
ok = sorted(count, key=int) == [str(i) for i in range(n)] and \
     all(count[t] == need.get(place[t], 2) for t in count)
sys.exit(0 if ok else 1)
EOF
}

small_run "$t_tmp/base"
check "a small run completes" trials_once "$t_tmp/base" 10

# --- resume: damage in the middle is refused, the file left byte for byte ---
# refuse_damage NAME LINE PYEXPR WANT [ERRLINE]: line LINE edited, then --resume must be exit 2
# naming samples.csv:ERRLINE (default LINE) and WANT, with samples.csv unchanged.
refuse_damage() {
	local name=$1 edit=$2 expr=$3 want=$4 line=${5:-$2} d="$t_tmp/dmg-${1// /-}"
	cp -r "$t_tmp/base" "$d" && unfinish "$d" 8 && edit_line "$d" "$edit" "$expr"
	local before; before=$(sum_of "$d")
	check_status 2 "--resume refuses $name in the middle" "$SMTBENCH" run --resume "$d"
	check "…naming samples.csv:$line and what is wrong ($want)" \
		eval 'contains "$t_err" "samples.csv:$line:" && contains "$t_err" "$want"'
	check "…leaving samples.csv byte for byte as it was" test "$(sum_of "$d")" = "$before"
}
refuse_damage "a duplicated row" 4 'l + "\n" + l' "duplicated or stray" 5
columns=$(head -n 1 "$t_tmp/base/samples.csv" | tr ',' '\n' | wc -l)
refuse_damage "an extra column" 5 'l + ",x"' "$((columns + 1)) fields"
refuse_damage "a non-number" 5 '",".join(f if i != 11 else "abc" for i, f in enumerate(l.split(",")))' \
	"'abc' is not a valid utime_s"
refuse_damage "a trial number out of order" 2 '",".join(["7"] + l.split(",")[1:])' \
	"trial 7 where trial 0 should be"

# A folder another version wrote (its header has other columns: 23 before foreign_s, steal_s
# and leftovers) is refused as such, not as "not smtbench's header", and left as it was.
d="$t_tmp/older"
cp -r "$t_tmp/base" "$d" && unfinish "$d" 8
python3 - "$d/samples.csv" <<'EOF'
import sys
p = sys.argv[1]
lines = open(p).read().split("\n")
open(p, "w").write("\n".join(",".join(l.split(",")[:23]) if l else l for l in lines))
EOF
before=$(sum_of "$d")
check_status 2 "--resume refuses a samples.csv another version wrote" "$SMTBENCH" run --resume "$d"
check "…saying so and what to do" eval 'contains "$t_err" "written by another version of smtbench" && contains "$t_err" "start a new run"'
check "…leaving samples.csv as it was" test "$(sum_of "$d")" = "$before"

# Numbering against the plan is checked before the torn tail is cut (old: cut first, then refuse).
d="$t_tmp/plan"
cp -r "$t_tmp/base" "$d" && unfinish "$d" 8
python3 - "$d/samples.csv" <<'EOF'
import sys
p = sys.argv[1]; lines = open(p).read().split("\n")
out = [lines[0]] + [",".join(f[:1] + ["3"] + f[2:]) if f[0] == "0" else l
                    for l, f in ((l, l.split(",")) for l in lines[1:])]
open(p, "w").write("\n".join(out))
EOF
printf '8,4,0,solo,0,a,1,nop,o' >>"$d/samples.csv"
before=$(sum_of "$d")
check_status 2 "--resume refuses a trial in the wrong block, with a torn tail" \
	"$SMTBENCH" run --resume "$d"
check "…naming the line and the plan" eval 'contains "$t_err" "samples.csv:2:" && contains "$t_err" "plan"'
check "…and nothing is cut before every check has passed" test "$(sum_of "$d")" = "$before"

# The lock is taken before meta.json is read: a folder another run holds is refused as such,
# whatever its meta.json says (here: none at all).
d="$t_tmp/locked"
cp -r "$t_tmp/base" "$d" && unfinish "$d" 8 && rm "$d/meta.json"
# The holder keeps the lock until it is killed (a holder of a few seconds could let go before a
# loaded machine got to the check).
(exec 8>>"$d/samples.csv" && flock 8 && exec sleep infinity) &
holder=$!
locked_by_other() { ! flock -n "$d/samples.csv" true; }
await 10 locked_by_other
check_status 2 "--resume of a folder another process holds locked" "$SMTBENCH" run --resume "$d"
check "…says it is being written, before reading meta.json" contains "$t_err" "another smtbench run"
kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null

# Blank lines are not damage, and a complete trial after one is never removed.
d="$t_tmp/blank"
cp -r "$t_tmp/base" "$d" && unfinish "$d" 8
edit_line "$d" 5 'l + "\n"'
kept=$(tail -n +7 "$d/samples.csv")
check_status 0 "--resume of a file with a blank line in the middle completes" \
	"$SMTBENCH" run --resume "$d"
check "…keeping every trial after the blank line" eval '[[ $(sed -n "7,$((6 + $(wc -l <<<"$kept")))p" "$d/samples.csv") == "$kept" ]]'
check "…with every trial once" trials_once "$d" 10

# A torn last trial (a row missing, then a line cut short) is cut, and only it.
d="$t_tmp/torn"
cp -r "$t_tmp/base" "$d" && unfinish "$d" 8
python3 - "$d/samples.csv" <<'EOF'
import sys
p = sys.argv[1]; lines = open(p).read().split("\n")
rows = [l for l in lines[1:] if l]
pair = next(l for l in rows if l.split(",")[3] == "same-pu")
f = pair.split(","); f[0] = "8"; f[1] = "4"; f[2] = "0"
open(p, "a").write(",".join(f) + "\n" + ",".join(f)[:20])
EOF
check_status 0 "--resume cuts a torn last trial (a missing row and a line cut short)" \
	"$SMTBENCH" run --resume "$d"
check "…saying it cut 2 lines" contains "$t_err" "cut 2 line(s)"
check "…and the run ends with every trial once" trials_once "$d" 10

# --- analyze: a duplicated row damages only its own trial ---
d="$t_tmp/an"
"$SMTBENCH" run --placements solo,same-pu --kernel nop --iters 200000 --trials 12 --warmup 0 \
	--seed 3 --out "$d" >/dev/null 2>&1
line=$(awk -F, 'NR > 1 && $4 == "same-pu" { print NR; exit }' "$d/samples.csv")
edit_line "$d" "$line" 'l + "\n" + l'
check_status 0 "analyze a folder with one duplicated row" "$SMTBENCH" analyze "$d" --json
n_samepu=$(python3 -c 'import json,sys; d=json.loads(sys.stdin.read())
print(sorted({(s["name"], s["n"]) for c in d["comparisons"] for s in (c["a"], c["b"])}))' <<<"$t_out")
check "…only that trial is left out: same-pu n = 11, solo n = 12 ($n_samepu)" \
	test "$n_samepu" = "[('same-pu', 11), ('solo', 12)]"
check_status 0 "…and the text output" "$SMTBENCH" analyze "$d"
check "…whose warning names the line of the stray row and the trial" \
	eval 'contains "$t_out$t_err" "samples.csv:$((line + 1)): trial" && contains "$t_out$t_err" "duplicated or stray"'

# --- resume runs exactly the recorded workload ---
mkdir -p "$t_tmp/bin" "$t_tmp/bin2"
printf '#!/bin/sh\ntouch %s/ran-a\n' "$t_tmp" >"$t_tmp/bin/work"
printf '#!/bin/sh\ntouch %s/ran-b\n' "$t_tmp" >"$t_tmp/bin2/work"
chmod +x "$t_tmp/bin/work" "$t_tmp/bin2/work"
d="$t_tmp/wl"
check_status 0 "a run of a command found on PATH" env PATH="$t_tmp/bin:$PATH" "$SMTBENCH" run \
	--placements solo --trials 3 --warmup 0 --out "$d" -- work
recorded=$(python3 -c 'import json,sys; w=json.load(open(sys.argv[1]))["workloads"]["a"]
print(w["path"], w["sha256"])' "$d/meta.json")
check "meta.json records the workload's absolute path and SHA-256 ($recorded)" \
	test "$recorded" = "$(realpath "$t_tmp/bin/work") $(sha256sum "$t_tmp/bin/work" | cut -d' ' -f1)"
check "…and the tool version" test "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' "$d/meta.json")" = "$("$SMTBENCH" --version | awk '{print $NF}')"
unfinish "$d" 1
rm -f "$t_tmp/ran-a" "$t_tmp/ran-b"
check_status 0 "--resume with another 'work' first on PATH" \
	env PATH="$t_tmp/bin2:$PATH" "$SMTBENCH" run --resume "$d"
check "…runs the recorded file, not the one PATH finds today" \
	eval '[[ -e $t_tmp/ran-a && ! -e $t_tmp/ran-b ]]'
unfinish "$d" 1
printf '# changed\n' >>"$t_tmp/bin/work"
check_status 2 "--resume refuses a workload whose content changed" "$SMTBENCH" run --resume "$d"
check "…saying so, with its path" eval 'contains "$t_err" "has changed" && contains "$t_err" "$t_tmp/bin/work"'
mv "$t_tmp/bin/work" "$t_tmp/bin/work.moved"
check_status 2 "--resume refuses a workload that is gone" "$SMTBENCH" run --resume "$d"
check "…saying so" contains "$t_err" "is gone"
mkdir -p "$t_tmp/k" && cp "$SMTBENCH_BUILD"/kernels/* "$t_tmp/k/"
d="$t_tmp/kern"
SMTBENCH_KERNEL_DIR="$t_tmp/k" small_run "$d"
unfinish "$d" 4
printf '\0' >>"$t_tmp/k/nop"
check_status 2 "--resume refuses a kernel whose file changed" "$SMTBENCH" run --resume "$d"
check "…naming it" eval 'contains "$t_err" "$t_tmp/k/nop" && contains "$t_err" "has changed"'

# --- a results folder is complete or absent ---
check "a finished run leaves no temporary folder" \
	test -z "$(find "$t_tmp" -maxdepth 1 -name '.smtbench-partial-*')"
mkdir "$t_tmp/.smtbench-partial-left.Ab12Cd"
check_status 0 "a temporary folder left by a killed run does not block --out" \
	"$SMTBENCH" run --placements solo --kernel nop --iters 1000 --trials 1 --warmup 0 --out "$t_tmp/left"
check_status 2 "--resume of such a temporary folder is refused" \
	"$SMTBENCH" run --resume "$t_tmp/.smtbench-partial-left.Ab12Cd/"
check "…saying what it is and to remove it" contains "$t_err" "remove it"
mkdir -p "$t_tmp/atomic"
half=0 complete=0
for i in $(seq 0 24); do
	"$SMTBENCH" run --placements solo --kernel nop --iters 1000 --trials 200 --warmup 0 \
		--out "$t_tmp/atomic/r$i" >/dev/null 2>&1 &
	pid=$!
	sleep "0.0$((i % 10))$((i / 10))"
	kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
	if [[ -e $t_tmp/atomic/r$i ]]; then
		if [[ -s $t_tmp/atomic/r$i/meta.json && -s $t_tmp/atomic/r$i/topology.xml ]] &&
		   head -1 "$t_tmp/atomic/r$i/samples.csv" | grep -q '^trial,'; then
			complete=$((complete + 1))
		else
			half=$((half + 1))
		fi
	fi
done
check "25 runs killed at 0-90 ms: no half-made results folder ($complete complete, $half half-made)" \
	test "$half" -eq 0
check "…any leftover is a clearly named temporary folder" \
	test -z "$(ls -A "$t_tmp/atomic" | grep -v -e '^r[0-9]*$' -e '^\.smtbench-partial-r[0-9]*\.')"

# --- hostile --topology files: exit 2 naming the file, never a crash ---
printf '<!DOCTYPE topology>\n' >"$t_tmp/doctype.xml"
printf '<topology version="2.0"' >"$t_tmp/unterminated.xml"
head -c 2000 "$SMTBENCH_FIXTURES/topologies/intel-4s2c2t.xml" >"$t_tmp/truncated.xml"
: >"$t_tmp/empty.xml"
head -c 65536 /dev/urandom >"$t_tmp/binary.xml"
yes 'junk <topology> junk' | head -c 100000000 >"$t_tmp/huge.xml"
for f in doctype unterminated truncated empty binary huge; do
	for backend in libxml plain; do
		libxml=1; [[ $backend == plain ]] && libxml=0
		check_status 2 "topo --topology of a $f file ($backend XML backend)" \
			env HWLOC_LIBXMLIMPORT=$libxml timeout 120 "$SMTBENCH" topo --topology "$t_tmp/$f.xml"
		check "…names the file, one line" eval 'contains "$t_err" "$f.xml" && [[ $(wc -l <<<"$t_err") -eq 1 ]]'
	done
done
rm -f "$t_tmp/huge.xml"

# --- counts in range, on the command line and in meta.json ---
check_status 2 "--iters above 2^63-1 is refused" timeout 60 "$SMTBENCH" run --iters 9223372036854775808 --out "$t_tmp/big"
check "…naming the range, and nothing written" eval 'contains "$t_err" "2^63-1" && [[ ! -e $t_tmp/big ]]'
check_status 2 "--beside-iters above 2^63-1 is refused" \
	timeout 60 "$SMTBENCH" run --beside-kernel nop --beside-iters 18446744073709551615 --out "$t_tmp/big"
d="$t_tmp/range"
cp -r "$t_tmp/base" "$d" && unfinish "$d" 8
python3 - "$d/meta.json" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1])); m["settings"]["trials"] = 2**62
json.dump(m, open(sys.argv[1], "w"))
EOF
before=$(sum_of "$d")
check_status 2 "--resume refuses 2^62 trials in meta.json" "$SMTBENCH" run --resume "$d"
check "…naming the key" eval 'contains "$t_err" "settings.trials" && [[ $(sum_of "$d") == "$before" ]]'
python3 - "$d/meta.json" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1])); m["settings"]["trials"] = 4; m["settings"]["iters"] = -1
json.dump(m, open(sys.argv[1], "w"))
EOF
check_status 2 "--resume refuses negative iters in meta.json" "$SMTBENCH" run --resume "$d"
check "…naming the key" contains "$t_err" "settings.iters"

# --- BOM and NUL ---
d="$t_tmp/bom"
cp -r "$t_tmp/base" "$d"
printf '\xef\xbb\xbf' | cat - "$t_tmp/base/samples.csv" >"$d/samples.csv"
check_status 0 "analyze reads a samples.csv that starts with a UTF-8 BOM" "$SMTBENCH" analyze "$d" --json
with_bom=$(grep -o '"n": [0-9]*' <<<"$t_out" | tr '\n' ' ')
"$SMTBENCH" analyze "$t_tmp/base" --json >"$t_tmp/nobom.json" 2>/dev/null
check "…with the same samples as without it ($with_bom)" \
	test "$with_bom" = "$(grep -o '"n": [0-9]*' "$t_tmp/nobom.json" | tr '\n' ' ')"
printf '\xef\xbb\xbf1.0\n1.1\n1.2\n' >"$t_tmp/bom-a.txt"
printf '2.0\n2.1\n2.2\n' >"$t_tmp/bom-b.txt"
check_status 0 "analyze reads a numbers file that starts with a UTF-8 BOM" \
	"$SMTBENCH" analyze "$t_tmp/bom-a.txt" "$t_tmp/bom-b.txt"
printf '1.0\n1.1\n1.2\0 9\n1.3\n' >"$t_tmp/nul.txt"
check_status 2 "a NUL byte in a numbers file is an error" \
	"$SMTBENCH" analyze "$t_tmp/nul.txt" "$t_tmp/bom-b.txt"
check "…naming the line" eval 'contains "$t_err" "nul.txt:3" && contains "$t_err" "NUL"'

# --- disk full: the run stops, what was written is intact, --resume completes it ---
mnt="$t_tmp/full"
mkdir -p "$mnt"
if [[ $(id -u) -ne 0 ]] || ! mount -t tmpfs -o size=32k smtbench-test "$mnt" 2>/dev/null; then
	skip "disk full: needs root and a tmpfs mount (mount -t tmpfs -o size=32k)"
else
	d="$mnt/run"
	check_status 1 "a run on a full disk stops with exit 1" "$SMTBENCH" run --placements solo,same-pu \
		--kernel nop --iters 1000 --trials 150 --warmup 0 --seed 5 --out "$d"
	check "…naming the folder" contains "$t_err" "$d"
	check "…and not pointing to reports it could not write" \
		bash -c '[[ -f $2/report.html || $1 != *"report.html (open it in a browser)"* ]]' _ "$t_out" "$d"
	intact=$(python3 - "$d/samples.csv" <<'EOF'
import sys
text = open(sys.argv[1]).read()
complete = text.split("\n")[:-1]   # lines with their newline; a torn last one is left out
rows = complete[1:]
trials = {l.split(",")[0] for l in rows}
width = complete[0].count(",")
print(len(trials) > 10 and all(l.count(",") == width for l in rows))
EOF
)
	check "…every row written before is intact (as many fields as the header, over 10 trials)" test "$intact" = True
	mount -o remount,size=4m "$mnt"
	check_status 0 "after space is freed, --resume completes it" "$SMTBENCH" run --resume "$d"
	rows=$(python3 - "$d/samples.csv" <<'EOF'
import sys, collections
rows = [l.split(",") for l in open(sys.argv[1]).read().split("\n")[1:] if l.strip()]
t = collections.Counter(r[0] for r in rows)
print(len(t), sorted(t, key=int) == [str(i) for i in range(len(t))] and
      all(n == (1 if r == "solo" else 2) for r, n in ((rr[3], t[rr[0]]) for rr in rows)))
EOF
)
	check "…with all 300 trials, each once with all its rows ($rows)" test "$rows" = "300 True"
	umount "$mnt"
fi

# --- reports that cannot be written: said, no "Report: …/report.html", exit 1 (issue 21, #10) ---
# The run used to print where the reports were, having just said it could not write them, and
# exit 0. A folder in report.html's place makes the write fail the same way on any machine.
d="$t_tmp/noreport"
cp -r "$t_tmp/base" "$d" && unfinish "$d" 8
rm "$d/report.html" && mkdir -p "$d/report.html/in-the-way"
check_status 1 "--resume whose report.html cannot be written (a folder in its place) exits 1" \
	"$SMTBENCH" run --resume "$d"
check "…says it cannot write the reports" contains "$t_err" "cannot write the reports"
check "…says they were not written, and never points to report.html" \
	bash -c '[[ $1 == *"Report: not written"* && $1 != *"report.html (open it in a browser)"* ]]' _ "$t_out"
check "…and every trial is there all the same" trials_once "$d" 10
# A disk that fills when the reports are written: room for the samples, not for the reports.
mnt="$t_tmp/full-reports"
mkdir -p "$mnt"
d="$t_tmp/noreport-src"
cp -r "$t_tmp/base" "$d" && unfinish "$d" 8
rm -f "$d"/report.* "$d"/*.svg
pages=4   # margin: meta.json rewritten through a temporary file, the last trials' rows
for f in "$d"/*; do pages=$((pages + ($(stat -c %s "$f") + 4095) / 4096)); done
if [[ $(id -u) -ne 0 ]] || ! mount -t tmpfs -o size=$((pages * 4))k smtbench-test "$mnt" 2>/dev/null; then
	skip "disk full while writing the reports: needs root and a tmpfs mount"
else
	cp -r "$d" "$mnt/run"
	check_status 1 "--resume on a disk with room for the samples but not the reports exits 1" \
		"$SMTBENCH" run --resume "$mnt/run"
	check "…says why (no space)" contains "$t_err" "No space left on device"
	check "…and does not point to reports it could not write" \
		bash -c '[[ $1 == *"Report: not written"* && $1 != *"report.html (open it in a browser)"* ]]' _ "$t_out"
	check "…with every trial stored" trials_once "$mnt/run" 10
	umount "$mnt"
fi

done_testing
