# Scenario "restricted": CPUs 0 and 2 (one thread of each core) allowed, by taskset and by a
# cgroup-v2 cpuset: no sibling pair is left to use.
set -u
. /lab/guest/lib.sh
record_sysfs
taskset -c 0,2 $SMTBENCH topo --json >taskset.json
taskset -c 0,2 $SMTBENCH topo >taskset.txt 2>&1
echo +cpuset >/sys/fs/cgroup/cgroup.subtree_control
mkdir /sys/fs/cgroup/lab
echo 0,2 >/sys/fs/cgroup/lab/cpuset.cpus
cat /sys/fs/cgroup/lab/cpuset.cpus.effective >cgroup-cpus
sh -c 'echo $$ >/sys/fs/cgroup/lab/cgroup.procs && exec $SMTBENCH topo --json' >cgroup.json
sh -c 'echo $$ >/sys/fs/cgroup/lab/cgroup.procs && exec $SMTBENCH topo' >cgroup.txt 2>&1
