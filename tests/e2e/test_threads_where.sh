#!/usr/bin/env bash
# test_threads_where.sh — smtbench threads PID...: busy threads pinned where this test says
# (threads_busy.py) are reported where they ran: one PU, SMT siblings (where this machine has
# them) or different cores; a warning names the idle core when two busy threads shared a PU.
# Shares are compared with generous bounds, never times, but they are shares of samples taken
# while the threads ran, so this runs alone. The rest of `threads` is test_threads.sh.
# serial: measures time (where busy threads ran, in 80% of the samples; an idle core looked for)
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/threads_lib.sh"

# ---- Where busy threads run ----
"$SMTBENCH" topo --json >"$t_tmp/topo.json" 2>/dev/null
# The two CPUs topo chose for a placement, "A B", or nothing.
pair_of() {
	python3 - "$t_tmp/topo.json" "$1" <<'EOF' 2>/dev/null
import json, sys
p = [x for x in json.load(open(sys.argv[1]))["placements"] if x["name"] == sys.argv[2]][0]
if p["available"]:
    print(*p["pus"])
EOF
}
read -r a b <<<"$(pair_of non-sibling)"
if [[ -z ${a:-} ]]; then
	skip "two busy threads on one PU and on different cores need two cores ($(nproc) CPU here)"
else
	# Both threads on CPU a.
	start_busy 600 "$a,$a"
	check_status 0 "two busy threads pinned to CPU $a: sampled for 2 s" \
		"$SMTBENCH" threads --for 2s --json "$pid"
	echo "$t_out" >"$t_tmp/same.json"
	check "... they were both running in 20+ samples, on one PU in 80%+ of them" ask "
w = {t['comm']: t['tid'] for t in j['threads']}
p = [p for p in j['pairs'] if {p['a'], p['b']} == {w['worker-1'], w['worker-2']}][0]
sys.exit(not (p['both_running'] >= 20 and p['same_pu'] >= 0.8))" "$t_tmp/same.json"
	check "... the sampler ran outside their allowed CPUs (CPU $b's side)" ask "
sys.exit(j['sampler_cpu'] is None or j['sampler_cpu'] == $a)" "$t_tmp/same.json"
	core_b=$(ask "print([c['core'] for c in j['cpus'] if c['cpu'] == $b][0])" "$t_tmp/same.json")
	idle=$(ask "print(all(c['busy'] is not None and c['busy'] < 0.2 for c in j['cpus'] if c['core'] == $core_b))" "$t_tmp/same.json")
	if [[ $idle == True ]]; then
		check "... a warning: they shared PU $a while a core (here $core_b, or a quieter one) was idle" ask "
sys.exit(not any('worker-1' in w and 'worker-2' in w and 'shared PU $a' in w and ' was idle' in w
                 for w in j['warnings']))" "$t_tmp/same.json"
	else
		skip "core $core_b was busy with other work during the window (a shared machine): no idle core to warn about"
	fi
	check_status 0 "... the same as text" "$SMTBENCH" threads --for 1s "$pid"
	check "... answer first: the pairs come before the list of threads" \
		test "$(grep -n '^Pairs of threads' <<<"$t_out" | cut -d: -f1)" \
		-lt "$(grep -n '^Threads over' <<<"$t_out" | cut -d: -f1)"
	check "... states the cost of sampling" contains "$t_out" "Cost of sampling: "
	stop_busy

	# One thread on each of two cores.
	start_busy 600 "$a,$b"
	check_status 0 "busy threads pinned to CPUs $a and $b (different cores)" \
		"$SMTBENCH" threads --for 2s --json "$pid"
	echo "$t_out" >"$t_tmp/apart.json"
	check "... different cores in 80%+ of the samples where both ran" ask "
w = {t['comm']: t['tid'] for t in j['threads']}
p = [p for p in j['pairs'] if {p['a'], p['b']} == {w['worker-1'], w['worker-2']}][0]
sys.exit(not (p['both_running'] >= 20 and p['different_cores'] >= 0.8))" "$t_tmp/apart.json"
	check "... and no warning" ask "sys.exit(bool(j['warnings']))" "$t_tmp/apart.json"
	check "... each thread's allowed CPUs and the CPU it ran on" ask "
t = {t['comm']: t for t in j['threads']}
sys.exit(not (t['worker-1']['allowed_cpus'] == [$a] and t['worker-2']['allowed_cpus'] == [$b]
              and t['worker-1']['ran_on'] == [$a] and t['worker-2']['ran_on'] == [$b]))" "$t_tmp/apart.json"
	check "... the sampler is not on their CPUs, or says it shares them" ask "
sys.exit(not (j['sampler_cpu'] not in ($a, $b) if j['sampler_cpu'] is not None
              else 'shares their CPUs' in j['sampler_note']))" "$t_tmp/apart.json"
	stop_busy
fi

read -r sa sb <<<"$(pair_of sibling)"
if [[ -z ${sa:-} ]]; then
	skip "busy threads on SMT siblings need a machine with SMT (this one has none; the QEMU lab's contention rigs check it in SMT guests: tests/lab/guest/rig-one-process.sh)"
else
	start_busy 600 "$sa,$sb"
	"$SMTBENCH" threads --for 2s --json "$pid" >"$t_tmp/siblings.json"
	check "busy threads pinned to siblings $sa and $sb: one core as siblings in 80%+ of the samples" ask "
w = {t['comm']: t['tid'] for t in j['threads']}
p = [p for p in j['pairs'] if {p['a'], p['b']} == {w['worker-1'], w['worker-2']}][0]
sys.exit(not (p['both_running'] >= 20 and p['same_core_siblings'] >= 0.8))" "$t_tmp/siblings.json"
	stop_busy
fi

done_testing
