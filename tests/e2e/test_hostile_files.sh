#!/usr/bin/env bash
# Files that are not what they should be, in a results folder or given to analyze: a FIFO, a
# link to /dev/zero, a line of hundreds of megabytes, an unreadable meta.json. Each is refused at
# once with one line naming it; nothing hangs, nothing grows without bound (issue 21, items 4, 5,
# 6 and 11). Every command runs under `timeout`, so that a hang fails here instead of in CI.
source "$(dirname "$0")/lib.sh"

make_run() { # make_run DIR: a small real results folder (its parent made first: run --out refuses a missing one)
	mkdir -p "$(dirname "$1")"
	"$SMTBENCH" run --placements solo,same-pu --kernel nop --iters 400000 --trials 6 --warmup 0 \
		--out "$1" >/dev/null 2>&1
}
limit=(timeout -s KILL 30)

# --- a FIFO or /dev/zero as samples.csv or meta.json ----------------------------------------
for what in samples.csv meta.json; do
	d=$t_tmp/fifo-$what/n1
	make_run "$d"
	make_run "$t_tmp/fifo-$what/n2"
	rm "$d/$what" && mkfifo "$d/$what"
	check_status 0 "fleet with a FIFO (no writer) as one node's $what ends, with the other node" \
		"${limit[@]}" "$SMTBENCH" fleet "$t_tmp/fifo-$what"
	check "... and names the FIFO as the reason that node is skipped" \
		contains "$t_out" "$what is a FIFO, not a regular file"
	[[ $what == meta.json ]] && check "... with advice that fits a FIFO (not 'fix its permissions')" \
		eval 'contains "$t_out" "replace it with the run'"'"'s own meta.json" && ! contains "$t_out" "fix its permissions"'
done
d=$t_tmp/fifo-samples.csv/n1
check_status 2 "analyze of a folder whose samples.csv is a FIFO is refused at once" \
	"${limit[@]}" "$SMTBENCH" analyze "$d"
check "... naming it" contains "$t_err" "samples.csv is a FIFO, not a regular file"
check_status 2 "report of it is refused at once" "${limit[@]}" "$SMTBENCH" report "$d"

d=$t_tmp/zero
make_run "$d"
ln -sf /dev/zero "$d/samples.csv"
check_status 2 "analyze of a folder whose samples.csv is /dev/zero is refused at once" \
	"${limit[@]}" "$SMTBENCH" analyze "$d"
check "... naming it a character device" contains "$t_err" "is a character device, not a regular file"

# resume with samples.csv a FIFO: it used to block in open() with HUP, INT and TERM blocked.
d=$t_tmp/resume-fifo
make_run "$d"
python3 - "$d/meta.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); m["status"] = "running"; json.dump(m, open(sys.argv[1], "w"))
PY
rm "$d/samples.csv" && mkfifo "$d/samples.csv"
check_status 2 "run --resume of a folder whose samples.csv is a FIFO is refused at once" \
	"${limit[@]}" "$SMTBENCH" run --resume "$d"
check "... saying it is a FIFO" contains "$t_err" "FIFO"

# --- a regular file of one endless line: samples.csv made sparse (truncate -s 20G) ------------
# Not a FIFO or a device, so fstat lets it through: every reader of samples.csv must bound its
# lines (it used to read the 20 GB of NULs into one line: analyze, report and fleet grew to GBs,
# and run --resume, with its stop signals blocked, took 20 GB and four minutes).
mem_limit='ulimit -v 1000000;'        # 1 GB: the old readers fail here instead of filling memory
[[ ${SMTBENCH_SANITIZE:-0} == 1 ]] && mem_limit=''
sparse=$t_tmp/sparse
make_run "$sparse/n1"
make_run "$sparse/n2"
long_at=$(($(wc -l <"$sparse/n1/samples.csv") + 1))   # the line the NULs start
truncate -s 20G "$sparse/n1/samples.csv"
limited() { "${limit[@]}" bash -c "$mem_limit"' exec "$@"' _ "$@"; }
check_status 2 "analyze of a samples.csv with 20 GB of NULs after its rows is refused at once" \
	limited "$SMTBENCH" analyze "$sparse/n1"
check "... naming the file, the line and the bound" \
	contains "$t_err" "n1/samples.csv:$long_at: a line of more than 4 MiB"
check_status 2 "report of it is refused at once" limited "$SMTBENCH" report "$sparse/n1"
check "... naming the line" contains "$t_err" "samples.csv:$long_at: a line of more than 4 MiB"
check_status 0 "fleet over it and a good node ends" limited "$SMTBENCH" fleet "$sparse"
check "... skipping it with the reason" bash -c 'grep -q "n1: .*samples.csv:$2: a line of more than 4 MiB" <<<"$1"' _ "$t_out" "$long_at"
cp -r "$sparse/n1" "$sparse/resume"
python3 - "$sparse/resume/meta.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); m["status"] = "running"; json.dump(m, open(sys.argv[1], "w"))
PY
check_status 2 "run --resume of it is refused at once" limited "$SMTBENCH" run --resume "$sparse/resume"
check "... naming the line, and the file is left as it was" bash -c '[[ $1 == *"samples.csv:$3: a line of more than 4 MiB"* ]] && [[ $(stat -c %s "$2") == 21474836480 ]]' _ "$t_err" "$sparse/resume/samples.csv" "$long_at"
rm -rf "$sparse"

# --- plain files of numbers (analyze FILE_A FILE_B) -------------------------------------------
printf '0.25\n0.26\n0.27\n' >"$t_tmp/b.txt"
check_status 2 "analyze /dev/zero b.txt is refused at once" \
	"${limit[@]}" "$SMTBENCH" analyze /dev/zero "$t_tmp/b.txt"
check "... naming it a character device" contains "$t_err" "/dev/zero is a character device"
{ printf '0.25\n0.26\n0.27\n0.28\n0.29\n'; head -c 50000000 /dev/zero | tr '\0' '7'; printf '\n';
  for _ in $(seq 1000); do echo 0.25; done; } >"$t_tmp/long.txt"
# Under 400 MB of address space, which holds the line 8 times over: the loader must not try.
# (AddressSanitizer reserves terabytes of shadow memory, so SANITIZE=1 runs it without the limit.)
vlimit='ulimit -v 400000;'
[[ ${SMTBENCH_SANITIZE:-0} == 1 ]] && vlimit=''
check_status 2 "a file with a line of 50 MB is refused, not read into memory" \
	"${limit[@]}" bash -c "$vlimit"' exec "$@"' _ "$SMTBENCH" analyze "$t_tmp/long.txt" "$t_tmp/b.txt"
check "... naming the file and the line" contains "$t_err" "long.txt:6: a line of more than 4096 bytes"
# A pipe that has its writer before analyze opens it, as <(cmd) gives (a named FIFO whose writer
# came later could be opened first and read as empty, and the writer then blocked for ever).
check_status 0 "a FIFO with a writer (analyze <(cmd) <(cmd)) still works for plain files" \
	"${limit[@]}" "$SMTBENCH" analyze <(printf '0.31\n0.32\n0.33\n') "$t_tmp/b.txt"

# A read error that cuts a last line longer than the bound: the line is named as too long, as
# on a file (its 4,097th byte came before the error). A socket whose peer closed with unread data
# gives the reader its data, then ECONNRESET.
reset_after() { # reset_after BYTES: analyze's stdin is a socket that ends "1 2 <BYTES ones>", then a reset
	python3 - "$1" "$SMTBENCH" <<'PY'
import socket, subprocess, sys
a, b = socket.socketpair()
b.sendall(b"unread")       # a's queue holds data, so closing a resets b after a's payload
a.sendall(b"1\n2\n" + b"1" * int(sys.argv[1]))
a.close()
p = subprocess.run([sys.argv[2], "analyze", "-", "/dev/null"], stdin=b, capture_output=True, timeout=30)
sys.stderr.buffer.write(p.stderr)
sys.exit(p.returncode)
PY
}
check_status 2 "a last line of 4,097 bytes cut by a read error is refused" reset_after 4097
check "... as a line of more than 4096 bytes" contains "$t_err" "-:3: a line of more than 4096 bytes"
check_status 2 "a last line of 4,096 bytes cut by a read error is refused" reset_after 4096
check "... as a read error" contains "$t_err" "-: read error: Connection reset by peer"

# --- fleet's reasons (item 11) ----------------------------------------------------------------
root=$t_tmp/reasons
make_run "$root/good"
make_run "$root/noexec"
make_run "$root/unreadable"
chmod 0644 "$root/noexec"            # read, but no search permission
chmod 0000 "$root/unreadable/meta.json"
# Root reads every folder and file whatever the permissions: as root, run fleet as nobody.
as_user=()
if [[ $(id -u) -eq 0 ]] && command -v setpriv >/dev/null; then
	chmod a+rx "$t_tmp" "$root"
	as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
if [[ $(id -u) -eq 0 && ${#as_user[@]} -eq 0 ]]; then
	skip "fleet's reasons for unreadable folders: as root, and setpriv (util-linux) is missing to run as nobody"
else
	check_status 0 "fleet over a folder without search permission and an unreadable meta.json" \
		"${limit[@]}" "${as_user[@]}" "$SMTBENCH" fleet "$root"
	check "... lists the folder without search permission as skipped, with its reason" \
		bash -c 'grep -q "noexec: .*permission" <<<"$1"' _ "$t_out"
	check "... says meta.json cannot be read, not that it is damaged at line -1" \
		bash -c '[[ $1 == *"meta.json cannot be read"* && $1 != *"line -1"* ]]' _ "$t_out"
fi
chmod 0755 "$root/noexec"
chmod 0644 "$root/unreadable/meta.json"
d=$root/allbad
make_run "$d"
python3 - "$d/samples.csv" <<'PY'
import sys
p = sys.argv[1]; lines = open(p).read().split("\n"); u = lines[0].split(",").index("utime_s")
for i in range(1, len(lines)):
    if lines[i]:
        f = lines[i].split(","); f[u] = "x"; lines[i] = ",".join(f)
open(p, "w").write("\n".join(lines))
PY
check_status 0 "fleet over a folder whose every samples.csv row is bad" "${limit[@]}" "$SMTBENCH" fleet "$root"
check "... calls it damaged, not 'no comparison'" bash -c '
line=$(grep "allbad" <<<"$1")
[[ $line == *damaged* && $line != *"no comparison"* ]]' _ "$t_out"
# --- one number parser (item 9): samples.csv refuses what a file of numbers refuses ------------
for bad in 1e-320 0x10 inf; do
	d=$t_tmp/num-$bad
	make_run "$d"
	python3 - "$d/samples.csv" "$bad" <<'PY'
import sys
p, bad = sys.argv[1], sys.argv[2]
lines = open(p).read().split("\n"); u = lines[0].split(",").index("utime_s")
f = lines[1].split(","); f[u] = bad; lines[1] = ",".join(f)
open(p, "w").write("\n".join(lines))
PY
	printf '0.25\n%s\n0.26\n' "$bad" >"$t_tmp/num.txt"
	check_status 2 "a file of numbers with $bad is refused" "$SMTBENCH" analyze "$t_tmp/num.txt" "$t_tmp/b.txt"
	check_status 0 "samples.csv with utime_s $bad: analyze goes on" "$SMTBENCH" analyze "$d" --json
	check "... the line is skipped and named, and no number is NaN" python3 -c '
import json, sys
j = json.loads(sys.argv[1].replace("NaN", "null"))
assert any("samples.csv:2:" in w for w in j["warnings"]), j["warnings"]
assert "nan" not in sys.argv[1].lower(), "a NaN in the output"' "$t_out"
done

# The same rule for what the command line gives (common/number.h): strtod took '0x1' and ' 1'.
quick=(--placements solo,same-pu --kernel nop --iters 200000 --trials 1 --warmup 0)
for opt in "--trial-time 0x1" "--trial-time  1" "--precision 0x2" "--precision 1e-320"; do
	read -r name value <<<"$opt"
	[[ $opt == *"  1" ]] && value=" 1"
	check_status 2 "run $name '$value' is refused by the one number rule" \
		"${limit[@]}" "$SMTBENCH" run "${quick[@]}" "$name" "$value" --out "$t_tmp/opt-run"
	check "... naming the option and the text" contains "$t_err" "$name: '$value' is not a number"
	rm -rf "$t_tmp/opt-run"
done
check_status 2 "matrix --trial-time 0x1 is refused" "${limit[@]}" "$SMTBENCH" matrix --kernels nop,pause \
	--trial-time 0x1 --blocks 1 --out "$t_tmp/opt-matrix"
check "... naming it" contains "$t_err" "--trial-time: '0x1' is not a number"
check_status 2 "matrix --precision ' 5' is refused" "${limit[@]}" "$SMTBENCH" matrix --kernels nop,pause \
	--precision " 5" --out "$t_tmp/opt-matrix"
check_status 2 "analyze --rope 0x1 is refused" "$SMTBENCH" analyze --rope 0x1 "$t_tmp/b.txt" "$t_tmp/b.txt"
check "... naming it" contains "$t_err" "--rope '0x1'"
rm -rf "$t_tmp/opt-matrix"

# samples.csv: a leading blank is refused as the plain-file loader refuses it; a resume reads the
# file by the same rule (it took 0x10 as a time that analyze then skipped).
d=$t_tmp/num-blank
make_run "$d"
python3 - "$d/samples.csv" <<'PY'
import sys
p = sys.argv[1]
lines = open(p).read().split("\n"); u = lines[0].split(",").index("utime_s")
f = lines[1].split(","); f[u] = " " + f[u]; lines[1] = ",".join(f)
open(p, "w").write("\n".join(lines))
PY
check_status 0 "samples.csv with a utime_s of ' 0.0…' (a leading blank): analyze goes on" \
	"$SMTBENCH" analyze "$d" --json
check "... skipping and naming that line" python3 -c '
import json, sys
j = json.loads(sys.argv[1])
assert any("samples.csv:2:" in w for w in j["warnings"]), j["warnings"]' "$t_out"
d=$t_tmp/num-resume
make_run "$d"
python3 - "$d" <<'PY'
import json, sys
d = sys.argv[1]
m = json.load(open(d + "/meta.json")); m["status"] = "running"; json.dump(m, open(d + "/meta.json", "w"))
lines = open(d + "/samples.csv").read().split("\n"); u = lines[0].split(",").index("utime_s")
f = lines[1].split(","); f[u] = "0x10"; lines[1] = ",".join(f)
open(d + "/samples.csv", "w").write("\n".join(lines))
PY
cp "$d/samples.csv" "$t_tmp/num-resume.csv"
check_status 2 "run --resume of a samples.csv with utime_s 0x10 refuses it as damage" \
	"${limit[@]}" "$SMTBENCH" run --resume "$d"
check "... naming the line and the value, and changing nothing" bash -c '[[ $1 == *"samples.csv:2: '"'"'0x10'"'"' is not a valid utime_s"* ]] && cmp -s "$2" "$3"' _ "$t_err" "$d/samples.csv" "$t_tmp/num-resume.csv"

# fleet's "pooled" is the pool itself: as many hosts say true as pooled.nodes counts.
check_status 0 "fleet over the folders with bad numbers" "$SMTBENCH" fleet "$t_tmp" --json
check "... every group's hosts with \"pooled\": true are the ones pooled.nodes counts" python3 -c '
import json, sys
j = json.loads(sys.argv[1])
for g in j["groups"]:
    said = sum(1 for h in g["hosts"] if h["pooled"])
    assert said == g["pooled"]["nodes"], (said, g["pooled"]["nodes"], [h["dir"] for h in g["hosts"]])' "$t_out"

# --- topo --topology: a FIFO with no writer, a device ----------------------------------------
# It opened the file plainly: a FIFO with no writer blocked in open() for good.
mkfifo "$t_tmp/topo.fifo"
check_status 2 "topo --topology FIFO (no writer) ends at once" "${limit[@]}" "$SMTBENCH" topo --topology "$t_tmp/topo.fifo"
check "... saying it is empty" contains "$t_err" "topo.fifo' is empty"
check_status 2 "topo --topology /dev/zero is refused" "${limit[@]}" "$SMTBENCH" topo --topology /dev/zero
check "... naming what it is" contains "$t_err" "/dev/zero is a character device, not a regular file"
check_status 0 "topo --topology <(cat XML), a pipe, still works" "${limit[@]}" "$SMTBENCH" topo \
	--topology <(cat "$SMTBENCH_ROOT/tests/fixtures/one-core-per-package.xml")

# --- workload-stderr.log has a cap ---------------------------------------------------------
# 20 MB of error output per process: without the cap 6 blocks of solo + same-pu write 360 MB.
d=$t_tmp/loud
check_status 0 "a workload that floods its error output runs to the end" \
	"$SMTBENCH" run --placements solo,same-pu --trials 6 --warmup 0 --out "$d" -- \
	sh -c 'head -c 20000000 /dev/zero | tr "\\0" x >&2'
size=$(stat -c %s "$d/workload-stderr.log")
check "... its log stops at the 64 MiB cap, with its note ($size bytes)" \
	test "$size" -le $(((64 << 20) + 200))
check "... says so in the log and on stderr" bash -c 'tail -c 200 "$1" | grep -q "passed its cap of 64 MiB" && [[ $2 == *"passed its cap of 64 MiB"* ]]' _ "$d/workload-stderr.log" "$t_err"
check "... and in the summary's warnings, from meta.json's workload_stderr_log" bash -c '
[[ $1 == *"workload-stderr.log passed its cap of 64 MiB and was cut there"* ]] &&
python3 -c "import json, sys; l = json.load(open(sys.argv[1]))[\"workload_stderr_log\"]; assert l == {\"cap_bytes\": 64 << 20, \"cut\": True}, l" "$2"' _ "$t_out" "$d/meta.json"
check_status 0 "report of that folder says it too" "$SMTBENCH" report "$d"
check "... among its warnings" contains "$t_out" "workload-stderr.log passed its cap of 64 MiB"
rm -rf "$d"

# The cap holds across a kill and a resume: meta.json says "cut" as soon as the log passes the
# cap (it was saved only at the run's end, so a killed run said "cut": false), and a resumed run
# finds its log past the cap and keeps discarding (each resume appended one more trial's output).
d=$t_tmp/loud2
"$SMTBENCH" run --placements solo --trials 12 --warmup 0 --progress none --out "$d" -- \
	sh -c 'head -c 40000000 /dev/zero | tr "\\0" x >&2; sleep 0.2' >/dev/null 2>"$t_tmp/loud2.err" &
runner=$!
# 40 MB a trial: the log passes the cap with the second trial; killed once three are stored,
# with nine still to run.
for _ in $(seq 600); do
	[[ -f $d/samples.csv ]] && (($(wc -l <"$d/samples.csv") >= 4)) && break
	sleep 0.1
done
kill -KILL "$runner" 2>/dev/null
wait "$runner" 2>/dev/null
check "killed mid-run (after $(($(wc -l <"$d/samples.csv") - 1)) of 12 trials)" \
	test "$(($(wc -l <"$d/samples.csv") - 1))" -lt 12
check "killed after the cap: meta.json already says cut" python3 -c '
import json, sys; l = json.load(open(sys.argv[1]))["workload_stderr_log"]; assert l["cut"] is True, l' "$d/meta.json"
before=$(stat -c %s "$d/workload-stderr.log")
check_status 0 "run --resume of it" "$SMTBENCH" run --resume "$d" --progress none
after=$(stat -c %s "$d/workload-stderr.log")
check "... the log did not grow past its cap again ($before bytes before the resume, $after after)" \
	test "$after" -eq "$before"
check "... the resume says the log is past its cap" contains "$t_err" "is past its cap of 64 MiB"
check "... one note in the log, not one per resume" \
	test "$(grep -c "passed its cap" "$d/workload-stderr.log")" -eq 1
rm -rf "$d"

# --- a workload that changes its own affinity ----------------------------------------------
# Bound to its PU, the command widens its own mask (taskset -p on itself): its time is not the
# placement's. The runner reads the mask back from the ended process (before it is reaped) and
# records the trial as failed, status "moved", said; it used to record it as an ok sample.
allowed=$(taskset -c -p $$ 2>/dev/null | sed 's/.*: //')
if ! command -v taskset >/dev/null || [[ -z $allowed || $allowed != *[,-]* ]]; then
	skip "a workload that moves itself needs taskset (util-linux) and two CPUs to move between"
else
	d=$t_tmp/moved
	check_status 1 "a command that widens its own affinity to CPUs $allowed: the run stops after its first block" \
		"${limit[@]}" "$SMTBENCH" run --placements solo,same-pu --trials 2 --warmup 0 --out "$d" -- \
		sh -c "taskset -p -c $allowed \$\$ >/dev/null"
	check "... every trial is stored with status moved" python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and all(r["status"] == "moved" for r in rows), [(r["trial"], r["status"]) for r in rows]' "$d/samples.csv"
	check "... and says which CPUs it moved to" contains "$t_err" "changed its own CPU affinity to CPU(s) $allowed after it was bound to CPU"
	# (a loop of some 30 ms: `exit 0` alone measures 0 s of user time, which leaves no answer)
	check_status 0 "the same command without taskset runs as ok" \
		"${limit[@]}" "$SMTBENCH" run --placements solo,same-pu --trials 2 --warmup 0 --out "$d-control" -- \
		sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done'
	check "... with no row moved" bash -c '! grep -q ",moved," "$1"' _ "$d-control/samples.csv"
	rm -rf "$d" "$d-control"
fi

# --- links in a fleet folder (item 3) --------------------------------------------------------
links=$t_tmp/links
make_run "$links/node"
for i in 1 2 3 4 5 6 7 8; do ln -s . "$links/l$i"; done
ln -s /usr "$links/evil"
ln -s node "$links/latest"
check_status 0 "fleet beside eight 'ln -s . lN' loops, a link to /usr and a latest link ends at once" \
	"${limit[@]}" "$SMTBENCH" fleet "$links" --json
check "... one node, each loop listed once, /usr not walked, latest named as the same folder" python3 -c '
import json, sys
j = json.loads(sys.argv[1]); root = sys.argv[2]
hosts = [h["dir"] for g in j["groups"] for h in g["hosts"]]
assert hosts == [root + "/node"], hosts
why = {s["dir"]: s["reason"] for s in j["skipped"]}
assert len(why) == 10, sorted(why)
assert all("a loop" in why[root + "/l%d" % i] for i in range(1, 9)), why
assert "outside the folders given" in why[root + "/evil"] and "/usr" in why[root + "/evil"], why
assert "same folder as" in why[root + "/latest"], why' "$t_out" "$links"

# A link out of the folders given whose target's name holds a terminal escape: named, escaped.
esc=$t_tmp/esc
make_run "$esc/in/node"
mkdir -p "$esc/out"$'\e[31mred'
ln -s "$esc/out"$'\e[31mred' "$esc/in/away"
check_status 0 "fleet beside a link to a folder named with an escape sequence" \
	"${limit[@]}" "$SMTBENCH" fleet "$esc/in"
check "... names its target escaped, with no escape byte in the output" \
	bash -c '[[ $1 == *"away: a link to "*"out\x1b[31mred, outside the folders given"* && $1 != *$'"'"'\e'"'"'* ]]' _ "$t_out"

# Two 'latest'-style links beside a folder of 20 nodes, and a ladder of 8 folders each with two
# links to the next (2^8 paths to the node at its foot): each folder is searched once, and each
# link is one line. The old walk listed every node once per link (51,056 lines for 200 nodes)
# and walked the ladder's 256 paths.
many=$t_tmp/many
make_run "$many/run/n01"
for i in $(seq -w 2 20); do cp -r "$many/run/n01" "$many/run/n$i"; done
ln -s run "$many/latest"
ln -s run "$many/current"
for k in 0 1 2 3 4 5 6 7; do
	mkdir -p "$many/ladder/d$k"
	ln -s "../d$((k + 1))" "$many/ladder/d$k/a"
	ln -s "../d$((k + 1))" "$many/ladder/d$k/b"
done
cp -r "$many/run/n01" "$many/ladder/d8"
check_status 0 "fleet over 20 nodes with two links to their folder, and a ladder of links" \
	"${limit[@]}" "$SMTBENCH" fleet "$many" --json
check "... 21 nodes, each link listed once as the same folder, nothing else skipped" python3 -c '
import json, sys
j = json.loads(sys.argv[1]); root = sys.argv[2]
hosts = sorted(h["dir"] for g in j["groups"] for h in g["hosts"])
want = sorted([root + "/run/n%02d" % i for i in range(1, 21)] + [root + "/ladder/d8"])
assert hosts == want, hosts
why = {s["dir"]: s["reason"] for s in j["skipped"]}
links = [root + "/latest", root + "/current"] + [root + "/ladder/d%d/%s" % (k, x) for k in range(8) for x in "ab"]
assert sorted(why) == sorted(links), sorted(why)
assert all("same folder as" in why[l] for l in links), why' "$t_out" "$many"
check_status 0 "... and its text report is short" "${limit[@]}" "$SMTBENCH" fleet "$many"
check "... ($(wc -l <<<"$t_out") lines, 18 of them skipped links)" test "$(grep -c 'same folder as' <<<"$t_out")" -eq 18
done_testing
