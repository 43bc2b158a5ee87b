#!/usr/bin/env bash
# A real CPU quota (a cgroup v1 "cpu" or v2 cgroup with cpu.max) is seen and said by `topo` and
# `run`, and recorded in meta.json and the report. Needs root and a writable cgroup hierarchy;
# elsewhere it says SKIP.
source "$(dirname "$0")/lib.sh"

group=""
limit=""
if [[ $(id -u) -eq 0 && -w /sys/fs/cgroup/cpu ]]; then
	group=/sys/fs/cgroup/cpu/smtbench-test-$$
	mkdir "$group" 2>/dev/null && echo 50000 >"$group/cpu.cfs_quota_us" 2>/dev/null \
		&& limit=$group/cpu.cfs_quota_us
elif [[ $(id -u) -eq 0 && -f /sys/fs/cgroup/cgroup.controllers ]] \
	&& grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
	group=/sys/fs/cgroup/smtbench-test-$$
	mkdir "$group" 2>/dev/null && echo "50000 100000" >"$group/cpu.max" 2>/dev/null \
		&& limit=$group/cpu.max
fi
cleanup() { in_main_shell || return 0; [[ -n $group ]] && rmdir "$group" 2>/dev/null; rm -rf "$t_tmp"; }
trap cleanup EXIT
if [[ -z $limit ]]; then
	skip "no writable cgroup hierarchy to make a CPU quota in (needs root and a cgroup v1 cpu or v2 cpu.max hierarchy)"
	done_testing
	exit 0
fi
tasks=$group/tasks
[[ -f $tasks ]] || tasks=$group/cgroup.procs
in_group() { sh -c 'echo $$ >"$1"; shift; exec "$@"' sh "$tasks" "$@"; }

check_status 0 "topo inside a 0.5-CPU quota" in_group "$SMTBENCH" topo
check "…shows the quota and where it comes from" contains "$t_out" "CPU quota:        0.5 CPUs ($limit)"
check "…and warns that a pair cannot run at the same time" contains "$t_out" "cannot run at the same time"
check_status 0 "topo outside it" "$SMTBENCH" topo
check "…says there is none" contains "$t_out" "CPU quota:        none"
check_status 0 "topo --json inside the quota" in_group "$SMTBENCH" topo --json
check "…has \"cpu_quota\": 0.5" python3 -c 'import json,sys; assert json.loads(sys.argv[1])["cpu_quota"] == 0.5' "$t_out"
check_status 0 "a run inside the quota" in_group "$SMTBENCH" run --placements solo,same-pu --trials 3 \
	--warmup 0 --iters 200000 --out "$t_tmp/run"
check "…warns on stderr" contains "$t_err" "a CPU quota of 0.5 CPUs applies to this run"
check "…records it in meta.json" python3 -c '
import json, sys
q = json.load(open(sys.argv[1] + "/meta.json"))["cpu_quota"]
assert q["cpus"] == 0.5 and q["source"] == sys.argv[2], q' "$t_tmp/run" "$limit"
check "…and the report warns" grep -q "a CPU quota of 0.5 CPUs applied to the run" "$t_tmp/run/report.md"
done_testing
