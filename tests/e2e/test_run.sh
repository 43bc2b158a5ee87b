#!/usr/bin/env bash
# End to end: `smtbench run` on this machine's real CPUs — the rows it writes, interrupt and
# resume, SIGKILL of the runner, and bad input. The accounting control is test_accounting.sh.
source "$(dirname "$0")/lib.sh"

# About 0.1 s of nop per process on the machines this runs on: long enough for a run to be
# interrupted half way, short enough for CI.
ITERS=${SMTBENCH_TEST_ITERS:-1500000}
ncpu=$(nproc)

line_count() { if [[ -f $1 ]]; then wc -l <"$1"; else echo 0; fi; }
# wait_for_rows FILE N: until FILE has more than N lines (at most 10 s): a run is under way.
wait_for_rows() {
	for _ in $(seq 100); do
		(($(line_count "$1") > $2)) && return 0
		sleep 0.1
	done
	return 1
}
columns() { head -1 "$1/samples.csv" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }
col() { # col DIR NAME: that column of every data row
	local c; c=$(columns "$1" "$2"); tail -n +2 "$1/samples.csv" | cut -d, -f"$c"
}
# Kernels run with argv[0] = their name, so they are found by their executable: a live process
# whose /proc/PID/exe is under this test's own copy of the kernels (a zombie has no exe link: it
# is gone). Its own copy, so that the kernels other tests run at the same time are not counted.
kdir=$t_tmp/kernels
mkdir -p "$kdir" && cp "$SMTBENCH_BUILD"/kernels/* "$kdir/"
export SMTBENCH_KERNEL_DIR=$kdir
kernel_processes() {
	local p exe
	for p in /proc/[0-9]*; do
		exe=$(readlink "$p/exe" 2>/dev/null) || continue
		[[ $exe == "$kdir/"* ]] && echo "${p#/proc/}"
	done
	return 0
}
# The detector must see a running kernel, or every "nothing left behind" check means nothing.
"$kdir/nop" 100000000 &
probe=$!
sees_probe() { [[ $(kernel_processes) == "$probe" ]]; }
check "kernel_processes sees a running kernel (pid $probe)" await 10 sees_probe
kill -KILL "$probe"; wait "$probe" 2>/dev/null

# --- a small complete run -------------------------------------------------------------------
r1=$t_tmp/r1
placements=solo,same-pu
((ncpu >= 2)) && placements=solo,same-pu,non-sibling
check_status 0 "run $placements with 3 blocks + 1 warm-up" \
	"$SMTBENCH" run --placements "$placements" --trials 3 --warmup 1 --iters "$ITERS" --seed 7 \
	--out "$r1"
n_placements=$(($(tr -cd , <<<"$placements" | wc -c) + 1))
check "the plan line counts in the plural: trials, blocks" \
	contains "$t_out" "  $((4 * n_placements)) trials: 1 warm-up + 3 measured blocks of $n_placements (each block runs every placement once), seed 7"
want_rows=$((4 * (1 + 2)))
((ncpu >= 2)) && want_rows=$((4 * (1 + 2 + 2)))
check "samples.csv has $want_rows rows (4 blocks x processes per placement)" \
	test "$(($(wc -l <"$r1/samples.csv") - 1))" -eq "$want_rows"
check "samples.csv header is the documented contract" \
	grep -qx 'trial,block,warmup,placement,proc,role,pu,workload,status,exit_code,signal,utime_s,stime_s,wall_s,start_s,end_s,nvcsw,nivcsw,maxrss_kb,overlap,freq_mhz,loadavg_1m,started_utc,foreign_s,steal_s,leftovers,per_cpu_s' "$r1/samples.csv"
check "every row has 27 fields" \
	test "$(awk -F, 'NF != 27' "$r1/samples.csv" | wc -l)" -eq 0
check "every process exited ok" test "$(col "$r1" status | sort -u)" = ok
check "warm-up flags: the first block only" \
	test "$(tail -n +2 "$r1/samples.csv" | awk -F, '$3 == 1 && $2 != 0 || $3 == 0 && $2 == 0' | wc -l)" -eq 0
check "meta.json, topology.xml exist" test -s "$r1/meta.json" -a -s "$r1/topology.xml"
check "meta.json records seed 7, status complete and the pairs" python3 - "$r1" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1] + "/meta.json"))
assert m["seed"] == 7 and m["status"] == "complete", m
assert m["settings"]["kernel"] == "nop" and m["settings"]["trials"] == 3
for key in ("version", "host", "os_kernel", "cpu_model", "hwloc_version", "virtual_machine",
            "smt_control", "governor", "placements", "command_line", "topology"):
    assert key in m, key
EOF
check "every process ran on the PU its placement was given" python3 - "$r1" <<'EOF'
import csv, json, sys
d = sys.argv[1]
pairs = {p["name"]: p["pus"] for p in json.load(open(d + "/meta.json"))["placements"]}
for row in csv.DictReader(open(d + "/samples.csv")):
    want = pairs[row["placement"]][int(row["proc"])] if row["placement"] != "solo" else pairs["solo"][0]
    assert int(row["pu"]) == want, (row, want)
EOF
if ((ncpu >= 2)); then
	check "non-sibling uses two different CPUs" python3 - "$r1" <<'EOF'
import json, sys
p = {p["name"]: p for p in json.load(open(sys.argv[1] + "/meta.json"))["placements"]}
assert p["non-sibling"]["pus"][0] != p["non-sibling"]["pus"][1]
EOF
fi
# The accounting control (same-pu vs solo user time) has its own test: test_accounting.sh.
check "no kernel process is left behind" test -z "$(kernel_processes)"

# The same seed gives the same plan.
check_status 0 "a second run with seed 7" \
	"$SMTBENCH" run --placements "$placements" --trials 3 --warmup 1 --iters 200000 --seed 7 \
	--out "$t_tmp/r1b"
check "same seed, same order of placements" \
	test "$(col "$r1" placement | md5sum)" = "$(col "$t_tmp/r1b" placement | md5sum)"

# --- interrupt with SIGINT, then resume -------------------------------------------------------
# A job started with & in a script inherits SIGINT as ignored, which the runner respects
# (test_unattended.sh); `env --default-signal=INT` gives it the default action a foreground
# Ctrl-C would meet.
interruptible=(env --default-signal=INT)
plan_args=(--placements "$placements" --trials 8 --warmup 1 --iters "$ITERS" --seed 99)
check_status 0 "the uninterrupted reference run" "$SMTBENCH" run "${plan_args[@]}" --out "$t_tmp/full"
"${interruptible[@]}" "$SMTBENCH" run "${plan_args[@]}" --out "$t_tmp/int" >"$t_tmp/int.out" 2>"$t_tmp/int.err" &
runner=$!
wait_for_rows "$t_tmp/int/samples.csv" 6
kill -INT "$runner"
wait "$runner"
rc=$?
check "SIGINT: the runner exits with 130 (got $rc)" test "$rc" -eq 130
check "SIGINT: the message says how to resume" grep -q -- "--resume $t_tmp/int" "$t_tmp/int.err"
check "SIGINT: no kernel process is left behind" test -z "$(kernel_processes)"
check "SIGINT: samples.csv is valid (every line complete)" \
	test "$(awk -F, 'NF != 27' "$t_tmp/int/samples.csv" | wc -l)" -eq 0
check "SIGINT: meta.json says interrupted" grep -q '"status": "interrupted"' "$t_tmp/int/meta.json"
stored=$(($(wc -l <"$t_tmp/int/samples.csv") - 1))
total=$(($(wc -l <"$t_tmp/full/samples.csv") - 1))
check "SIGINT: the run stopped part way ($stored of $total rows)" test "$stored" -lt "$total"
check_status 0 "--resume completes the plan" "$SMTBENCH" run --resume "$t_tmp/int"
key() { tail -n +2 "$1/samples.csv" | cut -d, -f1-7; }
check "resumed rows equal the uninterrupted plan's (trial, block, warm-up, placement, proc, role, pu)" \
	diff <(key "$t_tmp/full") <(key "$t_tmp/int")
check "meta.json says complete after resume" grep -q '"status": "complete"' "$t_tmp/int/meta.json"
check_status 0 "resuming a complete run is a no-op" "$SMTBENCH" run --resume "$t_tmp/int"
check "a complete run is left as it was" diff <(key "$t_tmp/full") <(key "$t_tmp/int")

# A torn last line, as a crash mid-write would leave it, is cut and its trial run again.
cp -r "$t_tmp/full" "$t_tmp/torn"
head -n 9 "$t_tmp/full/samples.csv" >"$t_tmp/torn/samples.csv"
head -n 10 "$t_tmp/full/samples.csv" | tail -1 | head -c 20 >>"$t_tmp/torn/samples.csv"
sed -i 's/"status": "complete"/"status": "interrupted"/' "$t_tmp/torn/meta.json"
check_status 0 "--resume after a torn last line" "$SMTBENCH" run --resume "$t_tmp/torn"
check "the torn trial was cut and run again: rows equal the plan's" \
	diff <(key "$t_tmp/full") <(key "$t_tmp/torn")

# --- SIGKILL of the runner: its children die with it ----------------------------------------
"$SMTBENCH" run --placements "$placements" --trials 50 --iters $((ITERS * 20)) \
	--out "$t_tmp/killed" >/dev/null 2>&1 &
runner=$!
disown "$runner" # its death by SIGKILL is the point, not news
children=""
for _ in $(seq 100); do
	children=$(pgrep -P "$runner" || true)
	[[ -n $children ]] && break
	sleep 0.05
done
check "SIGKILL: the runner had children running" test -n "$children"
kill -KILL "$runner"
wait "$runner" 2>/dev/null
# A killed child whose new parent does not reap it stays a zombie (state Z): dead, not running.
# PR_SET_PDEATHSIG kills the children as the runner dies; the kernel takes a moment to end them.
children_alive() {
	local c state
	for c in $children; do
		state=$(awk '{print $3}' "/proc/$c/stat" 2>/dev/null)
		[[ -n $state && $state != Z ]] && echo -n " $c($state)"
	done
	return 0
}
children_gone() { [[ -z $(children_alive) ]]; }
start=$SECONDS
await 5 children_gone
check "SIGKILL: its children are gone within 5 s (in $((SECONDS - start)) s; alive:$(children_alive))" children_gone
for p in $(kernel_processes); do kill -KILL "$p"; done

# --- bad input: one line, exit 2, nothing written ---------------------------------------------
bad() { # bad "what" "expected text in stderr" args...
	local what=$1 text=$2; shift 2
	local out=$t_tmp/bad-$t_n
	check_status 2 "$what" "$SMTBENCH" run --trials 1 --out "$out" "$@"
	if [[ ! -e $out ]] && contains "$t_err" "$text"; then ok "$what: says '$text', writes nothing"
	else not_ok "$what: stderr '$t_err', folder exists: $([[ -e $out ]] && echo yes || echo no)"; fi
}
bad "unknown placement" "unknown placement 'sideways'" --placements solo,sideways
bad "unknown kernel" "unknown kernel 'nope'" --kernel nope
bad "CPU that does not exist" "4096" --pair 0,4096
bad "malformed pair" "--pair" --pair 0-1
bad "zero trials" "--trials" --trials 0
bad "negative trials" "--trials" --trials -3
bad "zero iterations" "--iters" --iters 0
bad "bad duration" "--duration" --duration 5y
bad "trials and duration together" "exclude" --duration 5m
bad "a command that does not exist" "no-such-command-xyz" -- no-such-command-xyz --flag
if ((ncpu >= 2)); then
	bad "a pair that contradicts the placement" "not sibling" --placements sibling --pair 0,1
fi
bad "an empty output folder name" "empty" --out ""
printf 'not an ELF file' >"$t_tmp/garbage" && chmod +x "$t_tmp/garbage"
bad "an executable file that is neither ELF nor a script" "Exec format error" -- "$t_tmp/garbage"
printf '#!/no/such/interpreter\n' >"$t_tmp/badscript" && chmod +x "$t_tmp/badscript"
bad "a script whose interpreter does not exist" "interpreter" -- "$t_tmp/badscript"
bad "--pair with only one-CPU placements" "no placement of two CPUs" --pair 0,0 --placements solo,same-pu
bad "nothing after --" "no command after '--'" --
bad "--beside-iters without --beside-kernel" "--beside-iters goes with --beside-kernel" --beside-iters 5
if ((ncpu >= 2)) && command -v taskset >/dev/null; then
	check_status 2 "--pair naming a CPU outside this process's affinity mask" \
		taskset -c 0 "$SMTBENCH" run --pair 0,1 --trials 1 --out "$t_tmp/masked"
	check "…names the CPU and writes nothing" eval 'contains "$t_err" "1" && [[ ! -e $t_tmp/masked ]]'
fi
check_status 0 "--out with a trailing slash names the folder" \
	"$SMTBENCH" run --placements solo --trials 1 --warmup 0 --iters 1000 --out "$t_tmp/slash/"
check "…which holds the results" test -s "$t_tmp/slash/samples.csv"
check "…and its plan line is singular for one: 1 trial, 1 measured block" \
	bash -c 'grep -q "^  1 trial: 0 warm-up + 1 measured block of 1 (each block runs every placement once), seed " <<<"$1"' _ "$t_out"

# Two runners must never append to one folder.
"${interruptible[@]}" "$SMTBENCH" run --placements solo --trials 40 --iters "$ITERS" --out "$t_tmp/locked" \
	>/dev/null 2>&1 &
runner=$!
for _ in $(seq 100); do [[ -s $t_tmp/locked/meta.json ]] && break; sleep 0.05; done
check_status 2 "--resume of a folder another run is writing is refused" \
	"$SMTBENCH" run --resume "$t_tmp/locked"
check "…saying another run is writing it" contains "$t_err" "another smtbench run"
kill -INT "$runner"; wait "$runner"
check "…and the first run's rows are intact (every line complete)" \
	test "$(awk -F, 'NF != 27' "$t_tmp/locked/samples.csv" | wc -l)" -eq 0

mkdir -p "$t_tmp/exists"
check_status 2 "an existing output folder is refused" "$SMTBENCH" run --trials 1 --out "$t_tmp/exists"
check "…in one line, before anything about the machine" test "$(printf '%s\n' "$t_err" | wc -l)" -eq 1
check "…and nothing is written into it" test -z "$(ls -A "$t_tmp/exists")"
check "…an empty folder is not a run: no --resume hint, choose another --out" eval \
	'contains "$t_err" "is not a run smtbench can resume" && contains "$t_err" "choose another --out" && ! contains "$t_err" "--resume"'
# --resume is suggested only for a folder it can continue: not for one another tool wrote.
cp -r "$SMTBENCH_ROOT/results/seed-example" "$t_tmp/seed-copy"
check_status 2 "--out on a copy of results/seed-example (samples.csv, a meta.json not from run)" \
	"$SMTBENCH" run --trials 1 --out "$t_tmp/seed-copy"
check "…not a run smtbench can resume, names its meta.json, no --resume hint" eval \
	'contains "$t_err" "is not a run smtbench can resume" && contains "$t_err" "seed-copy/meta.json" && ! contains "$t_err" "--resume"'
mkdir "$t_tmp/foreign-meta" && echo '{"tool": "another", "seed": 1}' >"$t_tmp/foreign-meta/meta.json"
check_status 2 "--out on a folder whose meta.json lacks the run's keys" \
	"$SMTBENCH" run --trials 1 --out "$t_tmp/foreign-meta"
check "…not a run smtbench can resume, no --resume hint" eval \
	'contains "$t_err" "is not a run smtbench can resume" && ! contains "$t_err" "--resume"'
ln -s "$t_tmp/nowhere" "$t_tmp/dangling"
check_status 2 "--out on a link to nowhere" "$SMTBENCH" run --trials 1 --out "$t_tmp/dangling"
check "…is not a folder, no --resume hint, nothing made at its target" eval \
	'contains "$t_err" "is not a folder" && ! contains "$t_err" "--resume" && [[ ! -e $t_tmp/nowhere ]]'
check_status 2 "--out on the interrupted run's folder" "$SMTBENCH" run --trials 1 --out "$t_tmp/locked"
check "…suggests --resume of that folder" contains "$t_err" "continue it with --resume $t_tmp/locked"
check_status 2 "--out on a complete run's folder" "$SMTBENCH" run --trials 1 --out "$r1"
check "…says it is complete, no --resume hint" eval \
	'contains "$t_err" "holds a complete run" && ! contains "$t_err" "--resume"'
if [[ $(id -u) -eq 0 ]]; then
	# root can write anywhere; an unwritable place for root is under a file.
	touch "$t_tmp/afile"
	check_status 2 "an output folder that cannot be created" \
		"$SMTBENCH" run --trials 1 --out "$t_tmp/afile/run"
else
	mkdir "$t_tmp/ro" && chmod 555 "$t_tmp/ro"
	check_status 2 "an output folder that cannot be created" \
		"$SMTBENCH" run --trials 1 --out "$t_tmp/ro/run"
fi
check "…names the folder" contains "$t_err" "/run"
check_status 2 "--resume with other options is refused" \
	"$SMTBENCH" run --resume "$t_tmp/full" --trials 3
check_status 2 "--resume of a folder that is not a run" "$SMTBENCH" run --resume "$t_tmp/exists"

# --- a user's command, and A beside B --------------------------------------------------------
check_status 0 "a user's command runs on both CPUs" \
	"$SMTBENCH" run --placements solo,same-pu --trials 2 --warmup 0 --out "$t_tmp/cmd" -- \
	"$kdir/nop" 200000
check "its rows name the command" test "$(col "$t_tmp/cmd" workload | sort -u)" = nop
check_status 0 "A beside B: nop beside pause" \
	"$SMTBENCH" run --placements same-pu --trials 2 --warmup 0 --out "$t_tmp/ab" -- \
	"$kdir/nop" 1000 --beside "$kdir/pause" 1000
check "A beside B: proc 0 is role a (nop), proc 1 is role b (pause)" \
	test "$(tail -n +2 "$t_tmp/ab/samples.csv" | cut -d, -f5,6,8 | sort -u | tr '\n' ' ')" = "0,a,nop 1,b,pause "
check_status 0 "--beside-kernel: nop beside pause" \
	"$SMTBENCH" run --kernel nop --beside-kernel pause --placements same-pu --trials 1 --warmup 0 \
	--iters 50000 --out "$t_tmp/bk"
check "…pause gets as many iterations as make it last as long as nop alone (625000 x 1%)" python3 - "$t_tmp/bk" <<'EOF2'
import json, sys
m = json.load(open(sys.argv[1] + "/meta.json"))
assert m["settings"]["beside_iters"] == 6250, m["settings"]
assert m["workloads"]["b"]["argv"] == ["pause", "6250"], m["workloads"]["b"]
assert m["workloads"]["a"]["argv"] == ["nop", "50000"], m["workloads"]["a"]
EOF2
check_status 0 "--beside-iters sets it by hand" \
	"$SMTBENCH" run --kernel nop --beside-kernel pause --beside-iters 77 --placements same-pu \
	--trials 1 --warmup 0 --iters 1000 --out "$t_tmp/bk2"
check "…77" grep -q '"beside_iters": 77' "$t_tmp/bk2/meta.json"
check_status 0 "a single placement runs, with a warning that there is nothing to compare" \
	"$SMTBENCH" run --placements same-pu --trials 2 --warmup 0 --iters 1000 --out "$t_tmp/single"
check "…the warning says so" contains "$t_err" "nothing to compare"
check "…and to add solo" contains "$t_err" "add solo"
# solo alone: the warning must not tell the user to add the placement it already has.
check_status 0 "solo alone runs, with the same warning" \
	"$SMTBENCH" run --placements solo --trials 2 --warmup 0 --iters 1000 --out "$t_tmp/solo-only"
check "…which suggests another placement, not solo again" \
	bash -c '[[ $1 == *"add another placement"* && $1 != *"add solo"* ]]' _ "$t_err"
check_status 0 "--list-kernels" "$SMTBENCH" run --list-kernels
check "--list-kernels names nop and says what bounds it" contains "$t_out" "nop"
check "--list-kernels calls its counts reference counts, not a default (run calibrates)" \
	bash -c '[[ $1 == *"reference iters"* && $1 != *default* ]]' _ "$t_out"

# --- --pair, --duration, SIGTERM ---------------------------------------------------------------
if ((ncpu >= 2)); then
	pair=$(python3 -c 'import json,sys; p={x["name"]:x for x in json.load(sys.stdin)["placements"]}; print("%d,%d" % tuple(p["non-sibling"]["pus"]))' < <("$SMTBENCH" topo --json))
	check_status 0 "--pair $pair runs the placement it forms, and solo" \
		"$SMTBENCH" run --pair "$pair" --trials 2 --warmup 0 --trial-time 0.05 --out "$t_tmp/pair"
	check "--pair: placements are non-sibling and solo, on the CPUs given" python3 - "$t_tmp/pair" "$pair" <<'EOF2'
import csv, sys
a, b = map(int, sys.argv[2].split(","))
rows = list(csv.DictReader(open(sys.argv[1] + "/samples.csv")))
assert {r["placement"] for r in rows} == {"non-sibling", "solo"}, rows
for r in rows:
    want = a if r["placement"] == "solo" or r["proc"] == "0" else b
    assert int(r["pu"]) == want, r
EOF2
fi
"$SMTBENCH" run --placements solo,same-pu --duration 1s --warmup 3 --iters "$ITERS" \
	--out "$t_tmp/dur-warm" >"$t_tmp/dur-warm.out" 2>"$t_tmp/dur-warm.err"
dur_rc=$?
dur_blocks=$(awk -F, 'NR > 1 && $3 == 0 { print $2 }' "$t_tmp/dur-warm/samples.csv" 2>/dev/null | sort -u | wc -l)
# One measured block of two placements has no answer: the run says why and exits 1; two or
# more answer (how many fit in the second depends on this machine's speed).
if ((dur_blocks == 1)); then
	check "--duration shorter than the warm-up still runs one measured block, which cannot answer: exit 1 (got $dur_rc), saying why" \
		eval '((dur_rc == 1)) && grep -q "no answer: .* has 1 sample(s), at least 2 are needed" "$t_tmp/dur-warm.err"'
else
	check "--duration shorter than the warm-up still runs measured blocks ($dur_blocks): exit 0 (got $dur_rc)" \
		test "$dur_rc" -eq 0
fi
check "…all 3 warm-up blocks and at least one measured block" python3 - "$t_tmp/dur-warm" <<'EOF2'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1] + "/samples.csv")))
assert {r["block"] for r in rows if r["warmup"] == "1"} == {"0", "1", "2"}, rows
assert any(r["warmup"] == "0" for r in rows), "no measured block"
EOF2
check_status 0 "--duration 2s runs whole blocks until the time is spent" \
	"$SMTBENCH" run --placements solo,same-pu --duration 2s --warmup 1 --iters 150000 --out "$t_tmp/dur"
check "--duration: every block is whole (3 rows per block) and there are several" python3 - "$t_tmp/dur" <<'EOF2'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1] + "/samples.csv")))
blocks = {}
for r in rows:
    blocks.setdefault(r["block"], []).append(r["placement"])
assert len(blocks) >= 3, len(blocks)
for b, placements in blocks.items():
    assert sorted(placements) == ["same-pu", "same-pu", "solo"], (b, placements)
m = json.load(open(sys.argv[1] + "/meta.json"))
assert m["settings"]["trials"] is None and m["settings"]["duration_s"] == 2, m["settings"]
assert m["plan"]["total_trials"] is None and m["status"] == "complete"
EOF2
"$SMTBENCH" run --placements solo,same-pu --trials 30 --iters "$ITERS" --out "$t_tmp/term" \
	>/dev/null 2>"$t_tmp/term.err" &
runner=$!
wait_for_rows "$t_tmp/term/samples.csv" 3
kill -TERM "$runner"
wait "$runner"
rc=$?
check "SIGTERM: exit 143 (got $rc), no kernel left, resumable" \
	eval '((rc == 143)) && [[ -z $(kernel_processes) ]] && grep -q -- "--resume" "$t_tmp/term.err"'
check "SIGTERM: meta.json records the signal" grep -q '"signal": "TERM"' "$t_tmp/term/meta.json"

# --- one core per package (many VMs): the non-sibling pair is also the cross-package pair -----
# hwloc reads this machine from a fixture (HWLOC_XMLFILE, with HWLOC_THISSYSTEM=1 so binding
# still happens on the real CPUs 0 and 1).
if ((ncpu >= 2)); then
	vm=(env HWLOC_XMLFILE="$SMTBENCH_FIXTURES/one-core-per-package.xml" HWLOC_THISSYSTEM=1)
	check_status 0 "one core per package: --pair 1,0 serves non-sibling" \
		"${vm[@]}" "$SMTBENCH" run --pair 1,0 --placements non-sibling,solo --trials 2 --warmup 0 \
		--iters 200000 --out "$t_tmp/vm-pair"
	"${interruptible[@]}" "${vm[@]}" "$SMTBENCH" run --placements non-sibling,solo --trials 6 \
		--iters "$ITERS" --seed 5 --out "$t_tmp/vm" >/dev/null 2>&1 &
	runner=$!
	wait_for_rows "$t_tmp/vm/samples.csv" 3
	kill -INT "$runner"; wait "$runner"
	check_status 0 "one core per package: an interrupted run resumes" \
		"${vm[@]}" "$SMTBENCH" run --resume "$t_tmp/vm"
	check "…to completion" grep -q '"status": "complete"' "$t_tmp/vm/meta.json"
fi

# --- workloads that fail ---------------------------------------------------------------------
# A kernel this CPU cannot run exits 77: the run says so before making a folder (exit 3). A fake
# kernel directory stands in for a CPU without AVX2.
mkdir -p "$t_tmp/fake-kernels"
printf '#!/bin/sh\necho "nop: this CPU does not support it" >&2\nexit 77\n' >"$t_tmp/fake-kernels/nop"
chmod +x "$t_tmp/fake-kernels/nop"
check_status 3 "an unsupported kernel is refused before any trial" \
	env SMTBENCH_KERNEL_DIR="$t_tmp/fake-kernels" "$SMTBENCH" run --placements solo --trials 2 \
	--out "$t_tmp/unsupported"
check "…with the reason, and no folder" \
	eval 'contains "$t_err" "cannot run on this CPU" && [[ ! -e $t_tmp/unsupported ]]'
# A command that always fails: every trial is recorded as failed, never a sample, and the run
# stops after the first block instead of burning the night.
check_status 1 "a command that always fails stops the run" \
	"$SMTBENCH" run --placements solo,same-pu --trials 5 --warmup 0 --out "$t_tmp/false" -- /bin/false
check "…saying every trial of the first block failed" contains "$t_err" "every trial of the first block failed"
check "…with the failures recorded as status exit, exit code 1" \
	test "$(tail -n +2 "$t_tmp/false/samples.csv" | cut -d, -f9,10 | sort -u)" = "exit,1"
check "…and meta.json says failed" grep -q '"status": "failed"' "$t_tmp/false/meta.json"
check "…without pointing to an error log that is not there" \
	eval 'contains "$t_err" "wrote nothing on their error output" && [[ ! -e $t_tmp/false/workload-stderr.log ]]'
check_status 1 "resuming it stops again after one failed block, not after every trial" \
	"$SMTBENCH" run --resume "$t_tmp/false"
check "…with the same reason" contains "$t_err" "every trial of the first block failed"
check "…having run one more block only (4 + 3 rows)" \
	test "$(($(wc -l <"$t_tmp/false/samples.csv") - 1))" -eq 6

# --- no SMT here: the default run says so and runs the rest ----------------------------------
if [[ $(cat /sys/devices/system/cpu/smt/active 2>/dev/null) != 1 ]] \
	&& ! grep -qs , /sys/devices/system/cpu/cpu0/topology/thread_siblings_list \
	&& ! grep -qs - /sys/devices/system/cpu/cpu0/topology/thread_siblings_list; then
	check_status 0 "default placements on a machine without SMT" \
		"$SMTBENCH" run --trials 2 --warmup 0 --iters 200000 --out "$t_tmp/nosmt"
	check "it says plainly that sibling needs SMT" contains "$t_err" "skipping sibling"
	check "it ran solo and the rest, no sibling row" \
		test -z "$(col "$t_tmp/nosmt" placement | grep -x sibling)"
	check "meta.json records why sibling was skipped" grep -q '"skipped_placements"' "$t_tmp/nosmt/meta.json"
	check_status 3 "--placements sibling,solo without SMT: refused before the run (solo alone answers nothing)" \
		"$SMTBENCH" run --placements sibling,solo --blocks 2 --out "$t_tmp/sibling-solo"
	check "…saying only solo is possible and why that gives no answer" contains "$t_err" \
		"of the placements to run, only solo is possible on this machine (the others skipped above), and one placement has nothing to compare it with"
	check "…nothing written" test ! -e "$t_tmp/sibling-solo"
	check_status 3 "--placements sibling without SMT: none possible, refused before the run" \
		"$SMTBENCH" run --placements sibling --blocks 2 --out "$t_tmp/sibling-only"
	check "…saying none is possible" contains "$t_err" "none of the placements asked for is possible on this machine"
	check "…nothing written" test ! -e "$t_tmp/sibling-only"
	check_status 3 "the default placements on one CPU (taskset -c 0): refused the same way" \
		taskset -c 0 "$SMTBENCH" run --blocks 2 --out "$t_tmp/one-cpu"
	check "…naming the pair one CPU can give" contains "$t_err" "(same-pu,solo needs one CPU)"
	check "…nothing written" test ! -e "$t_tmp/one-cpu"
fi

# An empty command word, or a name that is only a folder on PATH, is named with the real reason
# (once "cannot execute '': Success": access() succeeds on a folder and leaves errno as it was).
check_status 2 "run -- '' (an empty command)" "$SMTBENCH" run --blocks 1 --out "$t_tmp/empty-cmd" -- ""
check "…says no such file" contains "$t_err" "cannot execute '': No such file or directory"
mkdir -p "$t_tmp/pathdir/dirprog"
check_status 2 "a command whose name is a folder on PATH" env PATH="$t_tmp/pathdir:$PATH" \
	"$SMTBENCH" run --blocks 1 --out "$t_tmp/dir-cmd" -- dirprog
check "…says permission denied, not success" contains "$t_err" "cannot execute 'dirprog': Permission denied"

# A command shorter than the clock resolves well (under 10 ticks): said after the warm-up, with
# its length. A loop of some 30 ms (3 ticks), not `true`: most of true's times are 0 s, and a
# run whose comparison has more than half of them 0 s has no answer (exit 1).
check_status 0 "a run of a short loop (some 30 ms a trial)" \
	"$SMTBENCH" run --placements solo,same-pu --blocks 4 --warmup-blocks 1 --progress none \
	--out "$t_tmp/short" -- sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done'
check "…warns after the warm-up that its trials are too short, with the length and the tick" eval \
	'contains "$t_err" "trials are too short for the clock" && contains "$t_err" "clock ticks of 0.01 s"'
check "…its plan says the duration is not known before the warm-up, then how long the rest takes" eval \
	'contains "$t_out" "expected duration: not known before the warm-up (a command is not calibrated" && contains "$t_err" "the 8 trials left take about"'
# Times above 0 but under one tick, made so (a loop's times vary with the machine's speed): a
# copy of the run fixture with three of its user times set to 0.004 s.
cp -r "$SMTBENCH_FIXTURES/folders/run" "$t_tmp/subtick"
python3 - "$t_tmp/subtick/samples.csv" <<'EOF2'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
changed = 0
for r in rows:
    if r["warmup"] == "0" and r["role"] == "a" and r["status"] == "ok" and changed < 3:
        r["utime_s"] = "0.004"
        changed += 1
with open(sys.argv[1], "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()), lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
EOF2
check_status 0 "report of a folder with three user times of 0.004 s" "$SMTBENCH" report "$t_tmp/subtick"
check "…names the times under one clock tick" contains "$t_out" "under one clock tick (0.01 s)"

# A runner killed by SIGKILL during a trial cannot end that trial's double-forked daemon; the
# runner that continues the folder does (the workloads carry the folder's mark).
orph=$t_tmp/orphan
tag=$$
daemon_cmd="if [ -e $t_tmp/orphan-done ]; then exit 0; fi; setsid sleep 9${tag}1 </dev/null >/dev/null 2>&1 & sleep 9${tag}2"
"$SMTBENCH" run --placements solo --blocks 1 --warmup-blocks 0 --progress none --out "$orph" \
	-- sh -c "$daemon_cmd" >/dev/null 2>&1 &
runner=$!
daemon_up() { pgrep -f "^sleep 9${tag}1\$" >/dev/null; }
check "the trial's daemon starts" await 20 daemon_up
kill -KILL "$runner"; wait "$runner" 2>/dev/null
check "…and outlives the runner's SIGKILL" daemon_up
touch "$t_tmp/orphan-done"
check_status 0 "run --resume of the killed folder" "$SMTBENCH" run --resume "$orph" --progress none
check "…kills the daemon the killed runner left, and says so" eval \
	'! daemon_up && contains "$t_err" "left by an earlier runner of"'
pkill -KILL -f "^sleep 9${tag}[12]\$" 2>/dev/null

done_testing
