# Scenario "offline": CPU 3 (the second thread of core 1) taken offline, then topo and a short run.
set -u
. /lab/guest/lib.sh
echo 0 >$cpus/cpu3/online
record_sysfs
$SMTBENCH topo >topo.txt 2>&1
$SMTBENCH topo --json >topo.json
$SMTBENCH run --placements solo,same-pu,sibling,non-sibling --kernel nop --iters 200000 \
	--trials 2 --warmup 0 --out run
