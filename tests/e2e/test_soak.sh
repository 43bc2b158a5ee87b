#!/usr/bin/env bash
# Soak: one run of 300 short trials, interrupted at random points at least 25 times by SIGINT,
# SIGTERM, SIGHUP and SIGKILL, each time continued with --resume. It must end with every (block,
# placement) exactly once, the same plan as an uninterrupted run with the same seed, no process
# of the run left alive, no zombie, and `analyze` clean. The random points come from a printed
# seed (SMTBENCH_SOAK_SEED replays one).
source "$(dirname "$0")/lib.sh"

seed=${SMTBENCH_SOAK_SEED:-$((RANDOM * 32768 + RANDOM))}
RANDOM=$seed
echo "# soak seed $seed (SMTBENCH_SOAK_SEED=$seed replays these interruption points)"

# The run's own copy of the kernels, so that its processes are told apart from anything else's.
kdir="$t_tmp/kernels"
mkdir -p "$kdir" && cp "$SMTBENCH_BUILD"/kernels/* "$kdir/"
export SMTBENCH_KERNEL_DIR="$kdir"
# 150 blocks of solo + same-pu: 300 trials of a few milliseconds each.
opts=(--placements solo,same-pu --kernel nop --iters 60000 --trials 150 --warmup 0 --seed 2026)
plan_of() { awk -F, 'NR > 1 && $5 == 0 { print $1, $2, $4 }' "$1/samples.csv"; }
status_of() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["status"])' "$1/meta.json" 2>/dev/null; }

# Signalled between fork and exec, a background child is still this shell and runs its EXIT trap:
# lib.sh's cleanup must leave this test's folder alone then (it once emptied it mid-test).
for _ in $(seq 200); do
	sleep 5 &
	kill -TERM $! 2>/dev/null
	{ wait $!; } 2>/dev/null
	[[ -d $t_tmp ]] || break
done
check "a child signalled before it runs its command leaves the test's folder in place" test -d "$t_tmp/kernels"
check_status 0 "an uninterrupted run of 300 trials" "$SMTBENCH" run "${opts[@]}" --out "$t_tmp/ref"
rows_of() { { wc -l <"$1/samples.csv"; } 2>/dev/null || echo 0; }
# The interruption points follow the run's progress, not the clock, so that a busy or a fast
# machine alike sees 25 interruptions long before the 300 trials are done: each start is
# interrupted once samples.csv has grown by a random 0 to 11 rows (at most about 8 trials).
# A signal is only an interruption of the run once the child has become smtbench (before that it
# is a copy of this shell, and then env): wait for that first, with the same deadline.
await_rows() {
	local pid=$1 want=$2 waited=0 name=
	while ((waited < 2000)) && read -r name 2>/dev/null <"/proc/$pid/comm" && [[ $name != smtbench ]]; do
		sleep 0.005
		waited=$((waited + 1))
	done
	while ((waited < 2000)) && kill -0 "$pid" 2>/dev/null && (($(rows_of "$d") < want)); do
		sleep 0.005
		waited=$((waited + 1))
	done
}

d="$t_tmp/soak"
sigs=(INT TERM HUP KILL)
declare -A sent=([INT]=0 [TERM]=0 [HUP]=0 [KILL]=0)
interrupts=0 starts=0 bad_status=0
while ((interrupts < 28 && starts < 300)); do
	[[ $(status_of "$d") == complete ]] && break
	if [[ -e $d ]]; then args=(run --resume "$d"); else args=(run "${opts[@]}" --out "$d"); fi
	# (Before the first start, and while it is created, the folder has no rows: rows_of says 0.)
	# Signals at their default, whatever this script's shell set for background jobs.
	env --default-signal=INT,TERM,HUP "$SMTBENCH" "${args[@]}" >/dev/null 2>>"$t_tmp/soak.log" &
	pid=$!
	starts=$((starts + 1))
	await_rows "$pid" $(($(rows_of "$d") + RANDOM % 12))
	sig=${sigs[starts % 4]} # each in turn: all four are sent whatever the seed
	if kill "-$sig" "$pid" 2>/dev/null; then
		interrupts=$((interrupts + 1))
		sent[$sig]=$((sent[$sig] + 1))
	fi
	{ wait "$pid"; } 2>/dev/null
	rc=$?
	# 0 (done before the signal), 128+signal, or killed by it: anything else is a failure.
	case $rc in 0 | 129 | 130 | 137 | 143) ;; *) bad_status=$((bad_status + 1)); echo "# exit $rc" ;; esac
done
for _ in 1 2 3; do
	[[ $(status_of "$d") == complete ]] && break
	"$SMTBENCH" run --resume "$d" >/dev/null 2>>"$t_tmp/soak.log"
done
check "at least 25 interruptions ($interrupts: INT ${sent[INT]}, TERM ${sent[TERM]}, HUP ${sent[HUP]}, KILL ${sent[KILL]}; $starts starts)" \
	test "$interrupts" -ge 25
check "every signal was sent" eval '((sent[INT] && sent[TERM] && sent[HUP] && sent[KILL]))'
check "every exit status was 0, 128+signal or death by the signal" test "$bad_status" -eq 0
check "the run ends complete" test "$(status_of "$d")" = complete
once=$(python3 - "$d/samples.csv" <<'EOF'
import sys, collections
rows = [l.split(",") for l in open(sys.argv[1]).read().split("\n")[1:] if l.strip()]
trials = collections.defaultdict(list)
for r in rows:
    trials[int(r[0])].append(r)
pairs = collections.Counter((t[0][1], t[0][3]) for t in trials.values())
whole = all(len(t) == (1 if t[0][3] == "solo" else 2) for t in trials.values())
print(len(trials), sorted(trials) == list(range(len(trials))), len(pairs),
      max(pairs.values()) if pairs else 0, whole)
EOF
)
check "every (block, placement) present exactly once, every trial whole: $once" \
	test "$once" = "300 True 300 1 True"
check "the same plan as the uninterrupted run with the same seed" \
	test "$(plan_of "$d")" = "$(plan_of "$t_tmp/ref")"
# What the run left: a live process running one of its kernels or naming its folder, and any
# zombie of this test's session (its own processes: tests/run.sh gives each test a session, so a
# zombie elsewhere on the machine, of another test or another user, is not counted). A process
# killed with its runner is reaped a moment later, so this waits, at most 10 s, for none to be left.
run_leftovers() {
	local p exe
	for p in /proc/[0-9]*; do
		exe=$(readlink "$p/exe" 2>/dev/null) || continue
		[[ $exe == "$kdir/"* ]] && echo "${p#/proc/}"
		grep -qs -- "$d" "$p/cmdline" && echo "${p#/proc/}"
	done
	return 0
}
nothing_left() { [[ -z $(run_leftovers) && -z $(session_processes Z) ]]; }
await 10 nothing_left
left=$(run_leftovers | tr '\n' ' ')
check "no process of the run is left alive: ${left:-none}" test -z "$left"
zombies=$(session_processes Z)
check "no zombie of this test is left ($(grep -c . <<<"$zombies")${zombies:+: $(tr '\n' ';' <<<"$zombies")})" \
	test -z "$zombies"

# The zombie count is this test's own: a zombie named nop in another session (as another test or
# another user may leave one) is not counted, one in this session is. Each is the child of a
# python3 that does not reap it until told to (SIGTERM).
cp /bin/true "$t_tmp/nop"
hold_zombie='
import os, signal, sys
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
child = os.fork()
if child == 0:
    os.execv(sys.argv[1], [sys.argv[1]])
signal.sigwait({signal.SIGTERM})
os.waitpid(child, 0)'
zombie_of() { # zombie_of PARENT: the pid of a zombie named nop whose parent is PARENT
	local p stat parent=$1
	for p in /proc/[0-9]*; do
		read -r stat 2>/dev/null <"$p/stat" || continue
		[[ $stat == *"(nop) Z $parent "* ]] && { echo "${p#/proc/}"; return 0; }
	done
	return 1
}
setsid python3 -c "$hold_zombie" "$t_tmp/nop" &
elsewhere=$!
python3 -c "$hold_zombie" "$t_tmp/nop" &
here_too=$!
await 10 zombie_of "$elsewhere" >/dev/null; stray=$(zombie_of "$elsewhere")
await 10 zombie_of "$here_too" >/dev/null; own=$(zombie_of "$here_too")
counted=$(session_processes Z | cut -d' ' -f1 | tr '\n' ' ')
check "a stray zombie named nop in another session (pid ${stray:-none}, session $(session_of "${stray:-0}")) is not counted as this test's" \
	eval '[[ -n $stray && " $counted" != *" $stray "* ]]'
check "one in this test's session (pid ${own:-none}) is (counted: ${counted:-none})" \
	eval '[[ -n $own && " $counted" == *" $own "* ]]'
kill -TERM "$elsewhere" "$here_too" 2>/dev/null
wait "$elsewhere" "$here_too" 2>/dev/null

check_status 0 "analyze of the soaked folder" "$SMTBENCH" analyze "$d"
# The design line counts the blocks a comparison could not pair (a trial of 0 s user time, as
# a tiny nop can measure, has no log): information, not damage.
dirty=$(grep -v "^design: " <<<"$t_out$t_err" | grep -Ei "skipped|damaged|missing|failed trials [1-9]")
check "…is clean: no trial skipped, damaged or failed${dirty:+: $dirty}" test -z "$dirty"

done_testing
