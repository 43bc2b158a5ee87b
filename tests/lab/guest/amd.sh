# Scenario "amd": an AMD CPU model asked for with 2 threads per core; under TCG its guest sees no SMT.
set -u
. /lab/guest/lib.sh
record_sysfs
$SMTBENCH topo >topo.txt 2>&1
$SMTBENCH topo --json >topo.json
