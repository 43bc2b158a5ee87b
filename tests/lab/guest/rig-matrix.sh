# rig-matrix.sh — sourced by contention.sh after its timed run, in both rigs ("contention" and
# "no-contention"): a small interference matrix on the sibling pair the pinning was made for,
# into /out/rig-matrix/ (run/: the matrix's folder; log: its output; status: its exit status),
# for the host's check_matrix (tests/lab/scenarios.py). Two kernels make 4 sibling cells and 2
# baselines a block; short trials and 10 blocks keep it to about 10-15 s of guest time. --rope is the no-contention check's (NO_CONTENTION_ROPE_PCT, 10): recorded in
# meta.json, so the host's `smtbench report` uses it; the contention rig's truth (about 2x) is
# far beyond it. Then `advise` on it: its JSON (rig-matrix/advise.json, advise-status), and a
# script for the plan on one core (the pair on a core's siblings), written and run in the guest
# (plan.sh, plan.log, plan-status).
mkdir -p rig-matrix
$SMTBENCH matrix --kernels nop,mul-latency --trial-time ${LAB_MATRIX_TRIAL_TIME:-0.05} \
	--blocks ${LAB_MATRIX_BLOCKS:-10} --warmup-blocks 1 --rope 10 --progress none \
	--out rig-matrix/run >rig-matrix/log 2>&1
echo $? >rig-matrix/status
$SMTBENCH advise rig-matrix/run --json >rig-matrix/advise.json 2>rig-matrix/advise.err
echo $? >rig-matrix/advise-status
{ $SMTBENCH advise rig-matrix/run --cores 1 --script rig-matrix/plan.sh && sh rig-matrix/plan.sh; } \
	>rig-matrix/plan.log 2>&1
echo $? >rig-matrix/plan-status
