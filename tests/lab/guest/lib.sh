# lib.sh — sourced by the guest scripts: what the guest's own kernel says, into files in /out,
# for the host to hold smtbench's answers against.
cpus=/sys/devices/system/cpu
record_sysfs() {
	cat $cpus/smt/control >smt-control 2>&1
	cat $cpus/online >online
	: >siblings
	: >packages
	for d in $cpus/cpu[0-9]*; do
		[ -f $d/topology/thread_siblings_list ] || continue   # offline: no topology
		echo "${d##*/cpu} $(cat $d/topology/thread_siblings_list)" >>siblings
		echo "${d##*/cpu} $(cat $d/topology/physical_package_id)" >>packages
	done
}
# pair A B: `topo --pair A,B --json` into pair-A-B.{json,err,status}
pair() {
	$SMTBENCH topo --pair $1,$2 --json >pair-$1-$2.json 2>pair-$1-$2.err
	echo $? >pair-$1-$2.status
}
# processes running one of the lab's programs (smtbench or a kernel), one "pid path" a line
lab_processes() {
	for p in /proc/[0-9]*; do
		exe=$(readlink $p/exe 2>/dev/null) || continue
		case $exe in /lab/*) echo "${p#/proc/} $exe" ;; esac
	done
}
