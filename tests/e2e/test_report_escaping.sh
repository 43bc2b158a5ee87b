#!/usr/bin/env bash
# Text from outside (a workload's arguments, an executable's name, a path) reaches report.md,
# fleet.md and report.html as text, never as markup: no raw HTML tag (Markdown renderers such as
# GitHub's and GitLab's pass HTML through), and no raw bidirectional control (U+202E and its kin,
# which make a line read in another order than its bytes) in any output: the terminal, the
# reports, report.json. Issue 29, item 7.
source "$(dirname "$0")/lib.sh"

# has_raw FILE...: true when one of the files holds a raw bidirectional control or line
# separator; a <script or <img tag in a report (.md, .html: a terminal, .txt, reads no HTML and
# shows what was typed; JSON's strings are data); or in Markdown any HTML tag but our own <code>.
# Prints what it found.
has_raw() {
	python3 - "$@" <<'PY'
import re, sys
bidi = set("\u061c\u200e\u200f\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
found = False
for path in sys.argv[1:]:
    text = open(path, encoding="utf-8", errors="surrogateescape").read()
    for n, line in enumerate(text.splitlines(), 1):
        bad = [c for c in line if c in bidi]
        if bad:
            print(f"{path}:{n}: raw U+{ord(bad[0]):04X}"); found = True
        if path.endswith((".md", ".html")) and re.search(r"<\s*(script|img)\b", line, re.I):
            print(f"{path}:{n}: raw tag: {line[:160]}"); found = True
        if path.endswith(".md") and re.search(r"<(?!/?code>)[A-Za-z/!?]", line):
            print(f"{path}:{n}: raw HTML in Markdown: {line[:160]}"); found = True
sys.exit(0 if found else 1)
PY
}
export -f has_raw

rlo=$'\u202e' lri=$'\u2066' pdi=$'\u2069'
bin=$t_tmp/bin
mkdir -p "$bin"
# The workloads are copies of sh running a loop: long enough for user time to count (a time of
# 0 s, below the clock's tick, would leave nothing to compare and no report).
sh_path=$(type -P sh)
busy='i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done'
img='<img src=x onerror=alert(1)>'
cp "$sh_path" "$bin/$img"
cp "$sh_path" "$bin/evil${rlo}hs.gnp"
fleet=$t_tmp/fleet
mkdir -p "$fleet"

# One placement alone ends without a report; solo with non-sibling needs two CPUs.
if (($(nproc) < 2)); then
	skip_all "the runs need two CPUs for solo and non-sibling (this machine has $(nproc))"
fi
short=(run --placements solo,non-sibling --blocks 2 --warmup-blocks 0 --progress none)

# run_case NAME COMMAND...: a short run of COMMAND into $fleet/NAME, reported; the terminal's
# output, report.md, report.html and report.json hold nothing raw.
run_case() {
	local name=$1 d=$fleet/$1 f; shift
	check_status 0 "$name: a short run" "$SMTBENCH" "${short[@]}" --out "$d" -- "$@"
	printf '%s\n%s\n' "$t_out" "$t_err" >"$t_tmp/$name.run.txt"
	check "$name: the run's terminal output holds no raw bidirectional control" \
		bash -c '! has_raw "$1"' _ "$t_tmp/$name.run.txt"
	check_status 0 "$name: report" "$SMTBENCH" report "$d"
	printf '%s\n%s\n' "$t_out" "$t_err" >"$t_tmp/$name.report.txt"
	check "$name: the terminal summary holds no raw bidirectional control" \
		bash -c '! has_raw "$1"' _ "$t_tmp/$name.report.txt"
	for f in report.md report.html report.json; do
		check "$name: $f holds no raw tag from outside and no raw bidirectional control" \
			bash -c '! has_raw "$1"' _ "$d/$f"
	done
}
run_case script sh -c "$busy" '<script>alert(1)</script>'
run_case img "$bin/$img" -c "$busy"
run_case bidi "$bin/evil${rlo}hs.gnp" -c "$busy" "${lri}abc${pdi} [link](x) *star* _u_ a|b \`tick"

# The escapes are there, not the text dropped: each outside text is shown, escaped.
md=$(cat "$fleet/script/report.md")
check "report.md shows the argument <script>… escaped" contains "$md" '&lt;script>alert(1)&lt;/script>'
md=$(cat "$fleet/img/report.md")
check "report.md shows the executable's name as a <code> element with the tag escaped" \
	contains "$md" '<code>&lt;img src=x onerror=alert(1)&gt;</code>'
md=$(cat "$fleet/bidi/report.md")
check "report.md shows U+202E as the escape of its bytes" contains "$md" 'evil\xe2\x80\xaehs.gnp'
check "report.md keeps Markdown's punctuation from outside as text" \
	contains "$md" '\[link\](x) \*star\* \_u\_ a\|b \`tick'
out=$(cat "$t_tmp/bidi.report.txt")
check "the terminal shows U+202E escaped as other controls are" contains "$out" 'evil\xe2\x80\xaehs.gnp'
check "report.json shows it escaped too" \
	python3 -c 'import json, sys; t = json.dumps(json.load(open(sys.argv[1]))); assert "evil\\\\xe2\\\\x80\\\\xaehs.gnp" in t, t[:300]' \
	"$fleet/bidi/report.json"
check "meta.json keeps the name's exact bytes (data, read back by --resume)" \
	python3 -c 'import json, sys; m = json.load(open(sys.argv[1])); assert "evil\u202ehs.gnp" in json.dumps(m, ensure_ascii=False)' \
	"$fleet/bidi/meta.json"
html=$(cat "$fleet/img/report.html")
check "report.html shows the tag escaped" contains "$html" '&lt;img src=x onerror=alert(1)&gt;'

# fleet over the folder that holds the three runs.
check_status 0 "fleet over the three runs" "$SMTBENCH" fleet "$fleet" --out "$t_tmp/fleet-report"
printf '%s\n%s\n' "$t_out" "$t_err" >"$t_tmp/fleet.txt"
check "fleet's terminal output holds no raw bidirectional control" bash -c '! has_raw "$1"' _ "$t_tmp/fleet.txt"
for f in fleet.md fleet.html fleet.json; do
	check "$f holds no raw tag from outside and no raw bidirectional control" \
		bash -c '! has_raw "$1"' _ "$t_tmp/fleet-report/$f"
done
check "fleet.md names the <img …> workload escaped" \
	contains "$(cat "$t_tmp/fleet-report/fleet.md")" '&lt;img src=x onerror=alert(1)>'

done_testing
