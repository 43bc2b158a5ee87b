# Scenario "topo": what the guest's own kernel says (sysfs) beside what smtbench says.
set -u
cpus=/sys/devices/system/cpu
cat $cpus/smt/control >smt-control 2>&1
cat $cpus/online >online
for d in $cpus/cpu[0-9]*; do
	n=${d##*/cpu}
	[ -f $d/topology/thread_siblings_list ] && echo "$n $(cat $d/topology/thread_siblings_list)" >>siblings
done
$SMTBENCH topo >topo.txt 2>&1
for d in $cpus/cpu[0-9]*; do
	[ -f $d/topology/physical_package_id ] && echo "${d##*/cpu} $(cat $d/topology/physical_package_id)" >>packages
done
$SMTBENCH topo --json >topo.json
echo "topo --json: exit $?"
for a in $(seq 0 $(( $(nproc --all) - 1 ))); do
	for b in $(seq 0 $(( $(nproc --all) - 1 ))); do
		[ $a = $b ] && continue
		$SMTBENCH topo --pair $a,$b --json >pair-$a-$b.json 2>pair-$a-$b.err
		echo $? >pair-$a-$b.status
	done
done
