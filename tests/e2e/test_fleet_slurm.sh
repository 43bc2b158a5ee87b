#!/usr/bin/env bash
# End to end on a REAL one-node SLURM cluster that this test starts and stops itself: munged with
# a temporary key, slurmctld and slurmd on this host only (config, state and sockets in a temp
# folder, ports of their own), then both job scripts of contrib/slurm/ submitted through
# submit.sh with short runs, a task of the array requeued (scontrol requeue) while it runs, a
# bounded poll until the queue is empty, and `smtbench fleet` over what the jobs wrote.
# Skipped (and counted as skipped) where not root or SLURM/munge is not installed.
source "$(dirname "$0")/lib.sh"

missing=()
for tool in munged slurmctld slurmd sbatch squeue scontrol scancel sinfo; do
	command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if ((EUID != 0)); then
	skip "real SLURM cluster: needs root (to start munged, slurmctld and slurmd)"
	done_testing
	exit
fi
if ((${#missing[@]})); then
	skip "real SLURM cluster: ${missing[*]} not installed (apt-get install slurm-wlm munge)"
	done_testing
	exit
fi

c=$t_tmp/cluster
mkdir -p "$c/state" "$c/spool" "$c/fleet"
pids=()
stop_cluster() {
	in_main_shell || return 0
	# Jobs first (their steps belong to slurmd), then the daemons, each by its own pid.
	scancel --full --quiet $(squeue -h -o %A 2>/dev/null) 2>/dev/null
	for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null; done
	for pid in "${pids[@]}"; do
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -9 "$pid" 2>/dev/null
	done
	rm -rf "$t_tmp"
}
trap stop_cluster EXIT

dd if=/dev/urandom of="$c/munge.key" bs=1024 count=1 2>/dev/null
chmod 600 "$c/munge.key"
munged -F -f --key-file="$c/munge.key" --socket="$c/munge.sock" --pid-file="$c/munged.pid" \
	--log-file="$c/munged.log" --seed-file="$c/munge.seed" >"$c/munged.out" 2>&1 &
pids+=($!)

host=$(hostname -s)
# Two free ports in a row (slurmctld's, slurmd's), asked of the kernel: another cluster of this
# test, in another checkout, may be running at the same time.
port=$(python3 -c '
import random, socket
for _ in range(200):
    p = random.randrange(20000, 60000)
    try:
        for q in (p, p + 1):
            with socket.socket() as s:
                s.bind(("", q))
    except OSError:
        continue
    print(p)
    break')
[[ -n $port ]] || port=$((20000 + $$ % 20000))
export SLURM_CONF=$c/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=smtbenchtest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$c/munge.sock
CredType=cred/munge
StateSaveLocation=$c/state
SlurmdSpoolDir=$c/spool
SlurmctldPidFile=$c/slurmctld.pid
SlurmdPidFile=$c/slurmd.pid
SlurmUser=root
SlurmdUser=root
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
PlugStackConfig=$c/plugstack.conf
SlurmctldLogFile=$c/slurmctld.log
SlurmdLogFile=$c/slurmd.log
KillWait=5
MinJobAge=600
InactiveLimit=0
$(slurmd -C | head -n 1) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
: >"$c/plugstack.conf"
for _ in $(seq 50); do [[ -S $c/munge.sock ]] && break; sleep 0.1; done
slurmctld -D -f "$SLURM_CONF" >"$c/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$c/slurmd.out" 2>&1 &
pids+=($!)

# poll SECONDS COMMAND...: runs COMMAND every quarter of a second (each is a query to
# slurmctld) until it succeeds or SECONDS have passed.
poll() {
	local deadline=$((SECONDS + $1)); shift
	until "$@"; do
		((SECONDS >= deadline)) && return 1
		sleep 0.25
	done
}
node_idle() { [[ $(sinfo -h -o %T 2>/dev/null) == idle ]]; }
if ! check "the one-node cluster is up (node $host idle)" poll 60 node_idle; then
	tail -n 5 "$c"/*.out "$c"/*.log | sed 's/^/# /'
	done_testing
	exit
fi

export FLEET_DIR=$c/fleet
submit=$SMTBENCH_ROOT/contrib/slurm/submit.sh
short=(--kernel nop --iters 20000 --trials 6 --warmup 0 --placements non-sibling,solo)
check_status 0 "submit.sh fleet: one allocation, one task per node, then the report" \
	"$submit" fleet --nodes=1 -- "${short[@]}"
fleet_job=$(sed -n 's/^runs: job \([0-9]*\);.*/\1/p' <<<"$t_out")
# The array runs longer, so that task 0 is still running when it is requeued.
long=(--kernel nop --iters 400000 --trials 30 --warmup 0 --placements non-sibling,solo)
check_status 0 "submit.sh array: two tasks, then the report" \
	"$submit" array --array=0-1 -- "${long[@]}"
array_job=$(sed -n 's/^runs: job \([0-9]*\);.*/\1/p' <<<"$t_out")
report_job=$(sed -n 's/.*report: job \([0-9]*\) .*/\1/p' <<<"$t_out")

# A matrix on the cluster (submit.sh --matrix: each node runs smtbench matrix), into a fleet
# folder of its own so that the runs' report above is unchanged by it.
mfleet=$c/mfleet
check_status 0 "submit.sh fleet --matrix: smtbench matrix on the node, then the report" \
	env FLEET_DIR="$mfleet" "$submit" fleet --matrix --nodes=1 -- --kernels nop,mul-latency \
	--placement non-sibling --trial-time 0.01 --blocks 4 --warmup-blocks 0 --progress none
matrix_job=$(sed -n 's/^runs: job \([0-9]*\);.*/\1/p' <<<"$t_out")
matrix_report_job=$(sed -n 's/.*report: job \([0-9]*\) .*/\1/p' <<<"$t_out")

task0=$FLEET_DIR/$host-${array_job}_0
has_rows() { (($(cat "$task0/samples.csv" 2>/dev/null | wc -l) > 4)); }
check "array task 0 is running and writing $task0" poll 120 has_rows
check_status 0 "scontrol requeue of the running task" scontrol requeue "${array_job}_0"
# A requeued job waits about two minutes before it may start again; let it start now.
pending() { [[ $(squeue -h -j "${array_job}_0" -o %T 2>/dev/null) == PENDING ]]; }
poll 30 pending && scontrol update jobid="${array_job}_0" StartTime=now
queue_empty() { [[ -z $(squeue -h 2>/dev/null) ]]; }
check "every job ended within 240 s" poll 240 queue_empty

# What the jobs wrote.
check "the fleet job wrote $host-$fleet_job/ and completed it" python3 -c '
import json, sys; m = json.load(open(sys.argv[1] + "/meta.json")); assert m["status"] == "complete", m["status"]' \
	"$FLEET_DIR/$host-$fleet_job"
check "the array wrote one folder per task, the requeued task no second one" \
	test "$(cd "$FLEET_DIR" && ls -d "$host-$array_job"* | tr '\n' ' ')" = "$host-${array_job}_0 $host-${array_job}_1 "
check "the requeued task continued its folder with --resume (two segments, the first stopped by TERM)" \
	python3 -c '
import json, sys
m = json.load(open(sys.argv[1] + "/meta.json"))
seg = m["segments"]
assert m["status"] == "complete" and len(seg) == 2, (m["status"], seg)
assert seg[0]["status"] == "interrupted" and seg[0].get("signal") == "TERM", seg[0]
assert m.get("resumed_with", [None])[-1] == sys.argv[1], m.get("resumed_with")' "$task0"
check "... as its log says (restart 1, resuming)" \
	grep -q "restart 1, folder $task0" "$FLEET_DIR/smtbench-${array_job}_0.out"
check "the dependent report job wrote fleet-report/" \
	test -s "$FLEET_DIR/fleet-report/fleet.html" -a -s "$FLEET_DIR/fleet-report/fleet.json"
# Two groups: the array ran another --iters than the fleet job, so its nodes are not pooled
# with the fleet job's.
check "its output is the fleet report over the three runs, in two groups" \
	grep -q "smtbench fleet: 3 nodes in 2 groups; 0 folders skipped" \
	"$FLEET_DIR/smtbench-report-$report_job.out"

check "the matrix job wrote $host-$matrix_job/, a complete matrix of 2 kernels" python3 -c '
import json, sys
m = json.load(open(sys.argv[1] + "/meta.json"))
assert m["status"] == "complete" and [k["name"] for k in m["matrix"]["kernels"]] == ["nop", "mul-latency"], m["status"]' \
	"$mfleet/$host-$matrix_job"
check "its report job pooled it as a matrix folder" \
	grep -q "smtbench fleet: 1 matrix folder in 1 matrix group; 0 folders skipped" \
	"$mfleet/smtbench-report-$matrix_report_job.out"
check_status 0 "smtbench fleet over run folders and a matrix folder together" \
	"$SMTBENCH" fleet "$FLEET_DIR" "$mfleet" --json
check "... the runs in their two groups, the matrix apart in matrix_groups (4 cells, 1 node)" python3 -c '
import json, sys
j = json.loads(sys.argv[1])
assert len(j["groups"]) == 2 and j["skipped"] == [], (len(j["groups"]), j["skipped"])
mg, = j["matrix_groups"]
assert mg["placement"] == "non-sibling" and mg["kernels"] == ["nop", "mul-latency"], mg["kernels"]
assert len(mg["nodes"]) == 1 and len(mg["cells"]) == 4, mg
assert all(c["pooled"]["nodes"] <= 1 and len(c["nodes"]) == 1 for c in mg["cells"]), mg["cells"]' "$t_out"

check_status 0 "smtbench fleet over what the jobs wrote" "$SMTBENCH" fleet "$FLEET_DIR"
printf '%s\n' "$t_out" | sed 's/^/# /'
check_status 0 "... and as JSON" "$SMTBENCH" fleet "$FLEET_DIR" --json
check "two groups (1 and 2 nodes, non-sibling vs solo: no SMT here), none skipped" python3 -c '
import json, sys
j = json.loads(sys.argv[1])
assert j["skipped"] == [], j["skipped"]
one, two = j["groups"]
assert [h["host"] for h in one["hosts"] + two["hosts"]] == [sys.argv[2]] * 3
assert len(one["hosts"]) == 1 and len(two["hosts"]) == 2, j["groups"]
assert all(g["workload"] == "nop" and g["hosts"][0]["verdict"] for g in j["groups"])
# one node: no pooled number (its own answer is the answer); two settled nodes: pooled
assert one["pooled"]["ratio_mean"] is None and one["pooled"]["nodes"] <= 1, one["pooled"]
assert two["pooled"]["nodes"] == 2 and two["pooled"]["ratio_mean"] > 0, two["pooled"]' "$t_out" "$host"

done_testing
