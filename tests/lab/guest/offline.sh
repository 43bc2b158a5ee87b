# Scenario "offline": CPU 3 (the second thread of core 1) taken offline, then topo and a short run.
set -u
# nop at 4,000,000 iterations: some 50 ms of user time in a TCG guest (12 ns an iteration),
# five clock ticks, so that no trial measures 0 s and the run answers (a run whose times are
# mostly 0 s has no answer and exits 1).
. /lab/guest/lib.sh
echo 0 >$cpus/cpu3/online
record_sysfs
$SMTBENCH topo >topo.txt 2>&1
$SMTBENCH topo --json >topo.json
$SMTBENCH run --placements solo,same-pu,sibling,non-sibling --kernel nop --iters 4000000 \
	--trials 2 --warmup 0 --out run
