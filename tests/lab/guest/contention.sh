# Scenarios "contention" and "no-contention": the same run; the host's vCPU pinning makes the truth.
# Trials are sized by time, not by a count: smtbench calibrates nop in the guest (on the solo CPU,
# alone) for LAB_TRIAL_TIME seconds of CPU per copy. A copy also spends a few ms starting up (exec
# and page faults in the emulated kernel), which contends differently from the loop; a fixed count
# sized for one host (8M iterations, 0.1 s at 12 ns) became 0.03-0.045 s on a faster one, where
# start-up was a large share and the measured ratio slid toward 1. The calibration (count, ns per
# iteration, start-up) is in meta.json, and the host prints it beside the ratio.
set -u
$SMTBENCH topo --json >topo.json
$SMTBENCH run --placements sibling,non-sibling,solo --kernel nop --trial-time ${LAB_TRIAL_TIME:-0.2} \
	--trials ${LAB_TRIALS:-30} --warmup 2 --out run
run_status=$?
# What else the two rigs check, after the timed run above and never inside it: each
# tests/lab/guest/rig-*.sh (the one-process mode, threads, the matrix) writes into its own
# files in /out for the host's checks.
# With none, the pattern stays as it is and is skipped. The script's status is the timed run's
# (each rig's checks read its own files).
for extra in /lab/guest/rig-*.sh; do
	[ -f "$extra" ] || continue
	. "$extra"
done
exit $run_status
