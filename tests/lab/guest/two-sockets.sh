# Scenario "two-sockets": 2 packages x 2 cores x 2 threads; topo, then a short run of all five.
set -u
. /lab/guest/lib.sh
record_sysfs
$SMTBENCH topo >topo.txt 2>&1
$SMTBENCH topo --json >topo.json
$SMTBENCH run --placements solo,same-pu,sibling,non-sibling,cross-package --kernel nop \
	--iters 500000 --trials 2 --warmup 0 --out run
