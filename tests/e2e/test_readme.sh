#!/usr/bin/env bash
# The front door holds: README.md is at most 300 lines; every relative link in README.md and
# docs/*.md names a file that exists (and, with #anchor, a heading of that file); and every
# command the README shows with a "$ " prompt runs, in order, in one shell, with short settings
# (-d 3s, -b 4, --trial-time 0.02, --for 1s, --runs 3), exiting 0, and prints the kinds of lines
# the README shows under it ("Answer:", a table's header...). Lines shown without a prompt
# (apt-get, make, SLURM's submit.sh) are not run here: make install is test_install, the .deb
# test_package, the SLURM scripts test_fleet_slurm.
source "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip_all "reads Markdown with python3 (apt-get install python3)"
readme=$SMTBENCH_ROOT/README.md

lines=$(wc -l <"$readme")
check "README.md is a front door: $lines lines, at most 300" test "$lines" -le 300

# ---- Links ----
# links FILE: each relative link of FILE that does not resolve, one a line ("" when all do).
links() {
	python3 - "$1" <<'EOF'
import os, re, sys
path = sys.argv[1]
text = open(path, encoding="utf-8").read()
# Code (fenced, indented or inline) holds no links.
text = re.sub(r"```.*?```", "", text, flags=re.S)
text = "\n".join(l for l in text.split("\n") if not l.startswith("    "))
text = re.sub(r"`[^`\n]*`", "", text)

def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")

def anchors(md):
    out = set()
    for l in open(md, encoding="utf-8"):
        m = re.match(r"#{1,6} (.*)", l)
        if m:
            out.add(slug(re.sub(r"`", "", m.group(1))))
    return out

bad = []
for target in re.findall(r"\]\(([^)\s]+)\)", text):
    if re.match(r"[a-z]+:", target):
        continue
    file, _, anchor = target.partition("#")
    full = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
    if not os.path.exists(full):
        bad.append(f"{target}: no such file")
    elif anchor and full.endswith(".md") and anchor not in anchors(full):
        bad.append(f"{target}: no heading '#{anchor}' in {os.path.relpath(full)}")
print("; ".join(bad))
EOF
}
docs=("$readme" "$SMTBENCH_ROOT"/docs/*.md)
check "docs/ has its pages (usage, statistics, matrix, overnight, cluster, results, lab, building, DESIGN)" \
	bash -c 'for p in usage statistics matrix overnight cluster results lab building DESIGN; do
		[[ -s $1/docs/$p.md ]] || exit 1; done' _ "$SMTBENCH_ROOT"
for f in "${docs[@]}"; do
	broken=$(links "$f")
	check "every relative link in ${f#"$SMTBENCH_ROOT"/} resolves${broken:+: $broken}" test -z "$broken"
done

# ---- The README's commands ----
# The commands ("$ " lines in indented blocks), each with the shown output that follows it.
python3 - "$readme" "$t_tmp/commands" <<'EOF'
import json, re, sys
cmds, current = [], None
for line in open(sys.argv[1], encoding="utf-8"):
    line = line.rstrip("\n")
    if line.startswith("    $ "):
        current = {"cmd": line[6:], "shown": []}
        cmds.append(current)
    elif line.startswith("    ") and current is not None and line.strip():
        current["shown"].append(line.strip())
    elif not line.startswith("    ") and line.strip():
        current = None  # prose ends a command's shown output
json.dump(cmds, open(sys.argv[2], "w"))
EOF
count=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))))' "$t_tmp/commands")
check "the README shows commands to run: $count" test "$count" -ge 8

work=$t_tmp/work
mkdir -p "$work/bin"
ln -s "$SMTBENCH" "$work/bin/smtbench"
seq 1 1500000 >"$work/numbers.txt"
# short CMD: the command with short settings.
short() {
	python3 - "$1" <<'EOF'
import re, sys
c = sys.argv[1]
c = re.sub(r"(^|\s)-d \S+", r"\1-d 3s", c)
c = re.sub(r"(^|\s)-b \d+", r"\1-b 4", c)
c = re.sub(r"--trial-time \S+", "--trial-time 0.02", c)
c = re.sub(r"--for \S+", "--for 1s", c)
c = re.sub(r"--runs \d+", "--runs 3", c)
# A kernel's run or matrix without a trial length of its own: short trials too.
m = re.search(r"smtbench (run|matrix) ", c)
if m and "--trial-time" not in c and " -- " not in c and "--iters" not in c and " -i " not in c:
    c = c[:m.end()] + "--trial-time 0.02 " + c[m.end():]
print(c)
EOF
}
# One shell for all of them, in order, so that a later command finds what an earlier one made
# (a folder, a background job's $!). Each one's output and status are kept apart.
{
	echo "cd '$work' || exit 1"
	echo "export PATH='$work/bin':\$PATH"
	i=0
	while IFS= read -r cmd; do
		i=$((i + 1))
		if [[ $cmd == *hyperfine* || $cmd == *bench.json* ]] && ! command -v hyperfine >/dev/null; then
			echo "echo '$i skip' >>'$t_tmp/status'"
			continue
		fi
		run=$(short "$cmd")
		printf '{ %s\n} >%q 2>%q </dev/null\necho "%d $?" >>%q\n' "$run" "$t_tmp/$i.out" \
			"$t_tmp/$i.err" "$i" "$t_tmp/status"
		printf '%s\n' "$run" >"$t_tmp/$i.cmd"
	done < <(python3 -c 'import json, sys
for c in json.load(open(sys.argv[1])): print(c["cmd"])' "$t_tmp/commands")
	# What the commands left running (xz beside threads) ends with them.
	echo 'kill $(jobs -p) 2>/dev/null; wait'
} >"$t_tmp/script.sh"
bash "$t_tmp/script.sh" >/dev/null 2>&1

i=0
while IFS=$'\t' read -r cmd prefixes; do
	i=$((i + 1))
	status=$(awk -v i="$i" '$1 == i { print $2 }' "$t_tmp/status")
	if [[ $status == skip ]]; then
		skip "README: $cmd: needs hyperfine (apt-get install hyperfine)"
		continue
	fi
	check "README: \$ $(cat "$t_tmp/$i.cmd" 2>/dev/null || echo "$cmd"): exit ${status:-none}${status:+}$(
		[[ $status == 0 ]] || echo "; stderr: $(head -c 300 "$t_tmp/$i.err" 2>/dev/null)")" \
		test "${status:-x}" = 0
	# The kinds of lines the README shows under it are in its output too.
	missing=""
	for p in $prefixes; do
		p=${p//_/ }
		grep -qF -- "$p" "$t_tmp/$i.out" "$t_tmp/$i.err" 2>/dev/null || missing+="${missing:+, }'$p'"
	done
	if [[ -n $prefixes ]]; then
		check "…it prints the lines the README shows under it${missing:+; missing: $missing}" test -z "$missing"
	fi
done < <(python3 - "$t_tmp/commands" <<'EOF'
import json, sys
# Lines of a shown output that any run of the command prints, whatever it measured.
kinds = ["Answer:", "By user time:", "SMT yield:", "Pairs of threads both running", "placement ",
         "smtbench fleet:", "Pooled slowdown", "victim \\ aggr.", "Stopped:"]
for c in json.load(open(sys.argv[1])):
    shown = [k.replace(" ", "_") for k in kinds if any(l.startswith(k) or k in l[:40] for l in c["shown"])]
    print(c["cmd"] + "\t" + " ".join(shown))
EOF
)

done_testing
