# Scenario "topo": what the guest's own kernel says (sysfs) beside what smtbench says.
set -u
. /lab/guest/lib.sh
record_sysfs
$SMTBENCH topo >topo.txt 2>&1
$SMTBENCH topo --json >topo.json
n=$(nproc --all)
for a in $(seq 0 $((n - 1))); do
	for b in $(seq 0 $((n - 1))); do
		[ $a = $b ] || pair $a $b
	done
done
