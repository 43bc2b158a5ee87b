#!/usr/bin/env bash
# test_matrix_commands.sh — `smtbench matrix --commands FILE` end to end: three named commands
# (a shell loop with an argument that is not UTF-8, two python3 loops) as the workloads, their
# names in samples.csv, meta.json, report.json, report.md and the heat map; SIGTERM and --resume
# running exactly the recorded commands (the file gone by then) with no trial lost or run twice;
# every bad line refused with FILE:LINE and what is wrong, exit 2, nothing written. Structure
# only: no timing is asserted (a noisy shared VM).
source "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip_all "needs python3 (apt-get install python3)"

cmds=$t_tmp/cmds.txt
{
	echo "# three small loops; the first one's \$0 is a byte that is not UTF-8"
	printf '%s\n' "a: sh -c 'i=0; while [ \$i -lt 20000 ]; do i=\$((i+1)); done' x$(printf '\377')y"
	echo
	echo "  b :  python3 -c \"for i in range(200000): pass\""
	echo "c.2: python3 -c 's = 0' -c 'x=1'"
} >"$cmds"
# -c twice: python runs the first, and the second is its argv[1]; what matters is the words.
# The trial time limit is set far away: the checks are of structure, and on this 2-CPU machine
# under heavy load (three copies of this test beside a build) a 0.02 s python3 once waited 11 s
# of wall for its CPU and was killed at the default limit (10 s), failing "every cell ok".
plan=(--commands "$cmds" --placement non-sibling --blocks 3 --warmup-blocks 1 --seed 5
      --progress none --trial-timeout 300)

# cells_check DIR BLOCKS: every block (warm-up included) runs each of the 9 pairs and 3
# baselines once, by name; trials 0..N-1 once each, all ok.
cells_check() {
	python3 - "$@" <<'EOF'
import csv, json, sys
d, blocks = sys.argv[1], int(sys.argv[2])
names = ["a", "b", "c.2"]
rows = list(csv.DictReader(open(d + "/samples.csv")))
trials = {}
for r in rows:
    trials.setdefault(int(r["trial"]), []).append(r)
assert sorted(trials) == list(range(blocks * 12)), sorted(trials)
want = sorted([("non-sibling", v, g) for v in names for g in names] + [("solo", v, "") for v in names])
by_block = {}
for t, rs in trials.items():
    a = [r for r in rs if r["role"] == "a"]
    b = [r for r in rs if r["role"] == "b"]
    assert all(r["status"] == "ok" for r in rs), (t, rs)
    by_block.setdefault(int(rs[0]["block"]), []).append(
        (rs[0]["placement"], a[0]["workload"], b[0]["workload"] if b else ""))
for blk, cells in by_block.items():
    assert sorted(cells) == want, (blk, sorted(cells))
assert sorted(by_block) == list(range(blocks))
EOF
}

check_status 0 "matrix --commands with 3 commands runs" "$SMTBENCH" matrix "${plan[@]}" --out "$t_tmp/ref"
check "the plan says 3 commands and that they are not calibrated" eval \
	'contains "$t_out" "3 commands on non-sibling" && contains "$t_out" "commands are not calibrated"'
check "the plan shows each command by its name, quoted as the file has it" \
	contains "$t_out" "  b: python3 -c 'for i in range(200000): pass'"
check "samples.csv: every cell in every block, by the commands' names" cells_check "$t_tmp/ref" 4
check "meta.json's matrix: the commands' names, words (a byte that is not UTF-8 as hex), files; no calibration" python3 -c '
import json, sys; m = json.load(open(sys.argv[1]))["matrix"]
assert "kernels" not in m, m
c = m["commands"]
assert [x["name"] for x in c] == ["a", "b", "c.2"], c
assert c[0]["command"][:2] == ["sh", "-c"] and c[0]["command"][3] == {"hex": "78ff79"}, c[0]
assert c[1]["command"] == ["python3", "-c", "for i in range(200000): pass"], c[1]
assert c[2]["command"] == ["python3", "-c", "s = 0", "-c", "x=1"], c[2]
assert all(x["calibration"] is None and x["path"].startswith("/") and len(x["sha256"]) == 64 for x in c)
assert [(x["victim"], x["aggressor"]) for x in m["cells"]][:2] == [("a", None), ("a", "a")], m["cells"]' "$t_tmp/ref/meta.json"
check "report.json: the names as its kernels and in its cells, workloads \"commands\"" python3 -c '
import json, sys; r = json.load(open(sys.argv[1]))
assert r["kernels"] == ["a", "b", "c.2"] and r["workloads"] == "commands", (r["kernels"], r["workloads"])
assert sorted((c["victim"], c["aggressor"]) for c in r["cells"]) == sorted((v, g) for v in r["kernels"] for g in r["kernels"])' "$t_tmp/ref/report.json"
check "the heat map (SVG) names the rows and columns a, b, c.2" python3 -c '
import sys, xml.etree.ElementTree as ET
texts = [t.text for t in ET.parse(sys.argv[1]).iter() if t.tag.endswith("text")]
assert all(texts.count(n) >= 2 for n in ("a", "b", "c.2")), texts' "$t_tmp/ref/heatmap.svg"
check "report.html holds the heat map; report.md names the commands" eval \
	'grep -q "<svg" "$t_tmp/ref/report.html" && grep -q "c.2" "$t_tmp/ref/report.md"'
check_status 0 "smtbench report rewrites it" "$SMTBENCH" report "$t_tmp/ref"
check "…saying 3 commands" contains "$t_out" "interference matrix: $t_tmp/ref (3 commands on non-sibling)"

# --- SIGTERM mid-run, then --resume with the file gone ------------------------------------------
"$SMTBENCH" matrix "${plan[@]}" --out "$t_tmp/int" >"$t_tmp/int.out" 2>"$t_tmp/int.err" &
runner=$!
for _ in $(seq 200); do
	[[ -f $t_tmp/int/samples.csv ]] && (($(wc -l <"$t_tmp/int/samples.csv") > 16)) && break
	sleep 0.1
done
kill -TERM "$runner"
wait "$runner"
rc=$?
check "SIGTERM: exit 143 (got $rc)" test "$rc" -eq 143
stored=$(($(wc -l <"$t_tmp/int/samples.csv") - 1))
total=$(($(wc -l <"$t_tmp/ref/samples.csv") - 1))
check "SIGTERM: it stopped part way ($stored of $total rows)" test "$stored" -lt "$total"
mv "$cmds" "$t_tmp/cmds.gone"
check_status 0 "--resume runs the commands meta.json recorded (the file is gone)" \
	"$SMTBENCH" matrix --resume "$t_tmp/int"
check "resumed: every cell in every block, trials 0..47 once each" cells_check "$t_tmp/int" 4
key() { tail -n +2 "$1/samples.csv" | cut -d, -f1-8; }
check "resumed rows equal the uninterrupted plan's (trial, block, warm-up, placement, proc, role, pu, workload)" \
	diff <(key "$t_tmp/ref") <(key "$t_tmp/int")
check "meta.json's commands unchanged by the resume" python3 -c '
import json, sys
a, b = (json.load(open(p))["matrix"] for p in sys.argv[1:])
assert a == b' "$t_tmp/ref/meta.json" "$t_tmp/int/meta.json"
mv "$t_tmp/cmds.gone" "$cmds"
# A recorded command whose file changed is not resumed (as run's).
cp -r "$t_tmp/int" "$t_tmp/changed"
python3 - "$t_tmp/changed/meta.json" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
m["status"] = "interrupted"
m["matrix"]["commands"][1]["sha256"] = "0" * 64
json.dump(m, open(sys.argv[1], "w"))
EOF
check_status 2 "--resume of a matrix whose command's file changed is refused" \
	"$SMTBENCH" matrix --resume "$t_tmp/changed"
# A recorded command too long to execute (a hostile meta.json) is refused, naming it.
cp -r "$t_tmp/int" "$t_tmp/toolong"
python3 - "$t_tmp/toolong/meta.json" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
m["status"] = "interrupted"
m["matrix"]["commands"][1]["command"].append("x" * 200000)
json.dump(m, open(sys.argv[1], "w"))
EOF
check_status 2 "--resume of a matrix whose recorded command is too long to execute is refused" \
	"$SMTBENCH" matrix --resume "$t_tmp/toolong"
check "…naming meta.json's command and the limit" contains "$t_err" \
	"meta.json: matrix.commands[1] is too long to execute: word"

# --- bad lines: FILE:LINE, what is wrong, exit 2, nothing written --------------------------------
printf '#!/bin/sh\nexit 0\n' >"$t_tmp/noexec.sh"
chmod 644 "$t_tmp/noexec.sh"
# bad_line 'LINE' 'EXPECTED MESSAGE' WHAT: a file of a comment, a good line, a blank, then LINE.
bad_line() {
	printf '# commands\nok: true\n\n%s\n' "$1" >"$t_tmp/bad.txt"
	check_status 2 "$3: exit 2" "$SMTBENCH" matrix --commands "$t_tmp/bad.txt" \
		--placement non-sibling --out "$t_tmp/bad"
	check "…says $t_tmp/bad.txt:4: $2" contains "$t_err" "$t_tmp/bad.txt:4: $2"
	check "…and writes nothing" test ! -e "$t_tmp/bad"
}
bad_line "sh -c true" "no colon" "a line without a colon"
bad_line ": true" "empty name" "an empty name"
bad_line "x y: true" "the name 'x y' has characters other than A-Z a-z 0-9 . _ + -" "a name with a blank"
bad_line "x/y: true" "the name 'x/y' has characters other than" "a name with a slash"
bad_line "ok: false" "the name 'ok' is used already, on line 2" "a duplicate name"
bad_line "e:" "empty command after 'e:'" "an empty command"
bad_line "e:   	 " "empty command after 'e:'" "a command of blanks"
bad_line "e: no-such-command-smtbench -x" "e: cannot execute 'no-such-command-smtbench': No such file or directory" \
	"a command not on PATH"
bad_line "e: $t_tmp/noexec.sh" "e: cannot execute '$t_tmp/noexec.sh': Permission denied" \
	"a command that is not executable"
bad_line "e: $t_tmp" "e: cannot execute '$t_tmp': Is a directory" "a folder as the command"
bad_line "e: sh -c 'true" "a ' quote is not closed" "an unclosed quote"
# Too long to execute (checked up front, not as E2BIG in every trial): one word past the
# kernel's limit for an argument, and words that together pass ARG_MAX.
bad_line "big: echo $(head -c 200000 /dev/zero | tr '\0' x)" \
	"big: the command is too long to execute: word 2 is 200000 bytes long; the kernel takes at most" \
	"a word longer than one argument may be"
many=$(printf 'y%.0s' $(seq 100000))
words=$(for _ in $(seq 25); do printf ' %s' "$many"; done)
bad_line "many: echo$words" "many: the command is too long to execute: its 26 words and the environment take" \
	"words past ARG_MAX together"
check "…naming ARG_MAX" contains "$t_err" "(ARG_MAX)"
# Reading a line takes time and memory in proportion to it (issue 29, item 3): a 1 MB line of
# 500,000 words and a 2 MB one are refused as too long to execute within 10 s of CPU time and,
# where no sanitizer reserves its shadow memory, 1 GB of address space; a copy of the rest of the
# line per word took 59 s and 2 GB, and 218 s and 4 GB.
limits='ulimit -t 10'
[[ ${SMTBENCH_SANITIZE:-0} == 1 ]] || limits+='; ulimit -v 1000000'
for words in 500000 1000000; do
	python3 -c 'import sys; print("x: true " + "a " * int(sys.argv[1]))' "$words" >"$t_tmp/long.txt"
	check_status 2 "a line of $words words, under $limits" bash -c "$limits; exec \"\$@\"" _ \
		"$SMTBENCH" matrix --commands "$t_tmp/long.txt" --out "$t_tmp/bad"
	check "…refused as too long to execute, naming the line and ARG_MAX" eval \
		'contains "$t_err" "long.txt:1: x: the command is too long to execute: its $((words + 1)) words" && contains "$t_err" "(ARG_MAX)"'
done
printf '# nothing\n\n' >"$t_tmp/empty.txt"
check_status 2 "a file with no commands" "$SMTBENCH" matrix --commands "$t_tmp/empty.txt" --out "$t_tmp/bad"
check "…says so" contains "$t_err" "no commands in the file"
check_status 2 "a missing file" "$SMTBENCH" matrix --commands "$t_tmp/none.txt" --out "$t_tmp/bad"
check "…names it" contains "$t_err" "$t_tmp/none.txt: cannot open"
# Only a regular file is read, and whole with a cap: /dev/zero never ends, a FIFO would block.
check_status 2 "--commands /dev/zero" timeout 20 "$SMTBENCH" matrix --commands /dev/zero \
	--placement non-sibling --out "$t_tmp/bad"
check "…is refused at once as a character device" contains "$t_err" "/dev/zero is a character device"
mkfifo "$t_tmp/fifo"
check_status 2 "--commands on a FIFO" timeout 20 "$SMTBENCH" matrix --commands "$t_tmp/fifo" \
	--placement non-sibling --out "$t_tmp/bad"
check "…is refused at once, not waited on" contains "$t_err" "is a FIFO"
printf 'a: true\rjunk\nb: true\n' >"$t_tmp/cr.txt"
check_status 2 "a carriage return inside a line" "$SMTBENCH" matrix --commands "$t_tmp/cr.txt" \
	--placement non-sibling --out "$t_tmp/bad"
check "…names the line (it would hide what follows)" contains "$t_err" "cr.txt:1: a carriage return inside the line"
check "…and nothing was written" test ! -e "$t_tmp/bad"
check_status 2 "--kernels with --commands" "$SMTBENCH" matrix --kernels nop --commands "$cmds" --out "$t_tmp/bad"
check_status 2 "--trial-time with --commands (commands are not calibrated)" \
	"$SMTBENCH" matrix --commands "$cmds" --trial-time 0.1 --out "$t_tmp/bad"
check "…says why" contains "$t_err" "commands are not calibrated"
check "nothing was written by any bad input" test ! -e "$t_tmp/bad"
check_status 0 "--help tells the file's syntax and quoting" "$SMTBENCH" matrix --help
help=$(tr -s ' \n' ' ' <<<"$t_out")
check "…(name: command args, quotes, not calibrated)" eval \
	'contains "$help" "--commands FILE" && contains "$help" "no escapes" && contains "$help" "commands are not calibrated"'

# One name rule with run --name: a '+' is allowed (g++).
printf 'g++: true\nb: true\n' >"$t_tmp/plus.txt"
# `true` runs in about a millisecond: on a loaded machine one of its 2 blocks may measure 0 s of
# user time, and the documented answer is then exit 1 with no ratio, saying why. Either outcome is
# a run that took the name.
"$SMTBENCH" matrix --commands "$t_tmp/plus.txt" --placement non-sibling --blocks 2 \
	--warmup-blocks 0 --progress none --out "$t_tmp/plus" >"$t_tmp/out" 2>"$t_tmp/err"
rc=$?
check "a command named g++ (the rule run --name follows): exit 0, or 1 for times below the clock's resolution (exit $rc)" \
	eval '((rc == 0)) || { ((rc == 1)) && grep -q "below the clock.s resolution" "$t_tmp/err"; }'
check "…named so in samples.csv" grep -q ",g++," "$t_tmp/plus/samples.csv"

done_testing
