# test_lab.sh — the lab (tests/lab/lab.py) as part of `make test`: real Linux kernels with SMT in
# QEMU, each scenario's checks counted here. These are the scenarios that check what the guest's
# kernel and smtbench say (topology, offline CPUs, cpusets, two sockets, a kill and --resume),
# run beside the other tests; the two timed ones are test_lab_timed.sh. Where QEMU or busybox is
# missing each scenario is one SKIP line saying what to install; where both are installed the lab
# runs (make test fetches the guest kernel first), and a missing kernel is a failure naming the
# command to run. tests/run.sh sets SMTBENCH_BUILD. The whole output, with the table of results,
# is kept in BUILD/lab/last-run.log.
set -o pipefail
if ! command -v python3 >/dev/null; then
	echo "1..0 # SKIP the lab: python3 is not installed (apt-get install python3)"
	exit 0
fi
mkdir -p "$SMTBENCH_BUILD/lab"
python3 "$SMTBENCH_ROOT/tests/lab/lab.py" --build "$SMTBENCH_BUILD" --untimed --table |
	tee "$SMTBENCH_BUILD/lab/last-run.log"
