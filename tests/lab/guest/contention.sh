# Scenarios "contention" and "no-contention": the same run; the host's vCPU pinning makes the truth.
# nop under TCG here: about 12 ns per iteration, so 8M iterations are about 0.1 s of user time per
# copy alone; a copy also spends a fixed ~25 ms in the (emulated) kernel starting up, which is
# why shorter copies make a noisy user time.
set -u
$SMTBENCH topo --json >topo.json
$SMTBENCH run --placements sibling,non-sibling,solo --kernel nop --iters ${LAB_ITERS:-8000000} \
	--trials ${LAB_TRIALS:-30} --warmup 2 --out run
