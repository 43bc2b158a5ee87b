# rig-matrix.sh — sourced by contention.sh after its timed run, in both rigs ("contention" and
# "no-contention"): a small interference matrix on the sibling pair the pinning was made for,
# into /out/rig-matrix/ (run/: the matrix's folder; log: its output; status: its exit status),
# for the host's check_matrix (tests/lab/scenarios.py). The kernels are the rig's
# (LAB_MATRIX_KERNELS, from lab.matrix_kernels on the guest's command line): three in the
# contention rig (9 sibling cells and 3 baselines a block), two in the no-contention rig. Short
# trials and 10 blocks keep it to about 10-20 s of guest time. --rope is the no-contention
# check's (NO_CONTENTION_ROPE_PCT, 10): recorded in meta.json, so the host's `smtbench report`
# uses it; the contention rig's truth (about 2x) is far beyond it.
mkdir -p rig-matrix
kernels=${LAB_MATRIX_KERNELS:-nop,mul-latency}
$SMTBENCH matrix --kernels $kernels --trial-time ${LAB_MATRIX_TRIAL_TIME:-0.05} \
	--blocks ${LAB_MATRIX_BLOCKS:-10} --warmup-blocks 1 --rope 10 --progress none \
	--out rig-matrix/run >rig-matrix/log 2>&1
echo $? >rig-matrix/status
# `advise` on it with a core for each kernel alone: whether pairing pays, and the SMT decision
# per kernel (advise.json, advise-status).
ncores=$(echo $kernels | tr ',' '\n' | wc -l)
$SMTBENCH advise rig-matrix/run --cores $ncores --json >rig-matrix/advise.json 2>rig-matrix/advise.err
echo $? >rig-matrix/advise-status
if [ "${LAB_PLAN_CHECK:-0}" != 1 ]; then
	# A script for the pair on one core (on its siblings), written and run in the guest.
	{ $SMTBENCH advise rig-matrix/run --cores 1 --script rig-matrix/plan.sh && sh rig-matrix/plan.sh; } \
		>rig-matrix/plan.log 2>&1
	echo $? >rig-matrix/plan-status
	return 0
fi
# The contention rig (LAB_PLAN_CHECK=1): on the guest's own 2 cores the 3 kernels must pair. Its
# plan, worst plan and naive plan (plans.json, plans-status), and a script for the plan, written
# and run in the guest (plan.sh, plan.log, plan-status), then timed against the worst plan's.
$SMTBENCH advise rig-matrix/run --json >rig-matrix/plans.json 2>rig-matrix/plans.err
echo $? >rig-matrix/plans-status
{ $SMTBENCH advise rig-matrix/run --script rig-matrix/plan.sh && sh rig-matrix/plan.sh; } \
	>rig-matrix/plan.log 2>&1
echo $? >rig-matrix/plan-status

# plan_cores KEY: the workloads of each core of plans.json's KEY ("plan", "worst_plan"), a core
# a line, in the order advise gives them CPUs (the guest's cores in order). The JSON has no
# spaces inside names, so it is read with its white space taken out.
plan_cores() {
	json=$(tr -d ' \n\t' <rig-matrix/plans.json)
	json=${json#*\"$1\":\{\"cores\":\[}
	json=${json%%\"cores_used\"*}
	echo "$json" | grep -o '"workloads":\[[^]]*\]' | sed 's/"workloads":\[//; s/\]//; s/"//g; s/,/ /g'
}
# The guest's cores, a line each: their CPUs in order (thread_siblings_list, as 0-1 or 0,1).
guest_cores() {
	for d in /sys/devices/system/cpu/cpu[0-9]*; do
		[ -f $d/topology/thread_siblings_list ] && tr -- '-,' '  ' <$d/topology/thread_siblings_list
	done | awk '!seen[$0]++'
}
# Each kernel's command as advise's plan.sh runs it (the kernel's path, its calibrated count):
# "name command..." a line, read from the script's "# name" and "#   beside name" comments.
kernel_commands() {
	awk '/^# [a-z0-9-]+( alone)?$/ { first = $2; n = 0 }
	     /^#   beside / { second = $3 }
	     /^taskset -c / { cmd = $0; sub(/^taskset -c [0-9]+ /, "", cmd); sub(/ &$/, "", cmd)
	                      print (n++ == 0 ? first : second), cmd }' rig-matrix/plan.sh
}
# write_plan_script KEY FILE: the plan KEY as advise --script would write it: core k of the plan
# on the guest's core k, a pair on its two siblings, every workload started at once, all waited.
write_plan_script() {
	kernel_commands >rig-matrix/commands
	guest_cores >rig-matrix/guest-cores
	{
		echo 'pids=""'
		plan_cores $1 | awk 'NR == FNR { cpus[FNR] = $0; next }
			FILENAME ~ /commands$/ { name = $1; $1 = ""; cmd[name] = substr($0, 2); next }
			{ split(cpus[FNR], c, " ")
			  for (i = 1; i <= NF; i++)
				printf "taskset -c %s %s &\npids=\"$pids $!\"\n", c[i], cmd[$i] }' \
			rig-matrix/guest-cores rig-matrix/commands -
		printf 'status=0\nfor pid in $pids; do wait "$pid" || status=1; done\nexit "$status"\n'
	} >$2
}
# advise's own plan.sh against the worst plan's script, timed (best.sh, the plan written the
# way worst.sh is, is for the host to check that way against plan.sh): each run is LAB_PLAN_REPEATS runs of the plan's
# script in a row (the same work: every kernel at its calibrated count), wall time from
# /proc/uptime (10 ms steps; a run is about a second). The two alternate, ABAB, so that load on
# the host falls on both alike. plan-times: "run plan seconds status" a line.
uptime_cs() { awk '{ printf "%d\n", $1 * 100 }' /proc/uptime; }
time_plan() {
	t0=$(uptime_cs)
	st=0
	for r in $(seq ${LAB_PLAN_REPEATS:-10}); do sh $1 >/dev/null 2>&1 || st=1; done
	t1=$(uptime_cs)
	echo "$2 $3 $(awk -v a=$t0 -v b=$t1 'BEGIN { printf "%.2f", (b - a) / 100 }') $st" \
		>>rig-matrix/plan-times
}
: >rig-matrix/plan-times
if [ "$(cat rig-matrix/plans-status)" = 0 ] && [ "$(cat rig-matrix/plan-status)" = 0 ]; then
	write_plan_script plan rig-matrix/best.sh
	write_plan_script worst_plan rig-matrix/worst.sh
	for run in $(seq ${LAB_PLAN_RUNS:-6}); do
		time_plan rig-matrix/plan.sh $run plan
		time_plan rig-matrix/worst.sh $run worst_plan
	done
fi
