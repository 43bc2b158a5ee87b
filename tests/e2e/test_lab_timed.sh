# test_lab_timed.sh — the lab's two timed scenarios (tests/lab/lab.py --timed): the guest's vCPUs
# placed on host CPUs so that two SMT siblings compete for one host CPU (contention) or do not
# (no-contention), and smtbench must measure the difference. A contrast of CPU time, so this runs
# alone, with no other test beside it; the rest of the lab is test_lab.sh, and the same rules of
# SKIP and failure hold. The whole output, with the table of results, is kept in
# BUILD/lab/last-run-timed.log.
# serial: measures time (two vCPUs on one host CPU against two host CPUs)
set -o pipefail
if ! command -v python3 >/dev/null; then
	echo "1..0 # SKIP the lab: python3 is not installed (apt-get install python3)"
	exit 0
fi
mkdir -p "$SMTBENCH_BUILD/lab"
python3 "$SMTBENCH_ROOT/tests/lab/lab.py" --build "$SMTBENCH_BUILD" --timed --table |
	tee "$SMTBENCH_BUILD/lab/last-run-timed.log"
