# Scenario "two-sockets": 2 packages x 2 cores x 2 threads; topo, then a short run of all five.
set -u
# nop at 4,000,000 iterations: some 50 ms of user time in a TCG guest (12 ns an iteration),
# five clock ticks, so that no trial measures 0 s and the run answers (a run whose times are
# mostly 0 s has no answer and exits 1).
. /lab/guest/lib.sh
record_sysfs
$SMTBENCH topo >topo.txt 2>&1
$SMTBENCH topo --json >topo.json
$SMTBENCH run --placements solo,same-pu,sibling,non-sibling,cross-package --kernel nop \
	--iters 4000000 --trials 2 --warmup 0 --out run
