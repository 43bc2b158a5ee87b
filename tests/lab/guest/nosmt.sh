# Scenario "nosmt": booted with nosmt, so every core's second thread is offline and SMT is off.
set -u
. /lab/guest/lib.sh
record_sysfs
$SMTBENCH topo >topo.txt 2>&1
$SMTBENCH topo --json >topo.json
pair 0 1      # CPU 1 is offline
