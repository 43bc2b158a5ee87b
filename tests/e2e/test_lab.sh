# test_lab.sh — the lab (tests/lab/lab.py) as part of `make test`: real Linux kernels with SMT in
# QEMU, each scenario's checks counted here; where QEMU, busybox or the guest kernel is missing
# each scenario is one SKIP line saying what to install. tests/run.sh sets SMTBENCH_BUILD. The
# whole output, with the table of results, is kept in BUILD/lab/last-run.log.
set -o pipefail
if ! command -v python3 >/dev/null; then
	echo "1..0 # SKIP the lab: python3 is not installed (apt-get install python3)"
	exit 0
fi
mkdir -p "$SMTBENCH_BUILD/lab"
python3 "$SMTBENCH_ROOT/tests/lab/lab.py" --build "$SMTBENCH_BUILD" --table |
	tee "$SMTBENCH_BUILD/lab/last-run.log"
