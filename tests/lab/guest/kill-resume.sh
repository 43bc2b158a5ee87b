# Scenario "kill-resume": SIGKILL the runner mid-run, look for what it left, then --resume.
set -u
# nop at 4,000,000 iterations: some 50 ms of user time in a TCG guest (12 ns an iteration),
# five clock ticks, so that no trial measures 0 s and the run answers (a run whose times are
# mostly 0 s has no answer and exits 1).
. /lab/guest/lib.sh
$SMTBENCH run --placements sibling,non-sibling,solo --kernel nop --iters 4000000 --trials 10 \
	--warmup 1 --seed 7 --out run >run.log 2>&1 &
runner=$!
# Kill once some trials are stored (header + at least 8 rows), and at most after 60 s.
i=0
while [ "$(wc -l <run/samples.csv 2>/dev/null || echo 0)" -lt 9 ] && [ $i -lt 300 ]; do
	sleep 0.2; i=$((i + 1))
done
kill -9 $runner
wait $runner
echo $? >killed.status
cp run/samples.csv samples-at-kill.csv
# The children's PR_SET_PDEATHSIG fires as the runner dies; the kernel takes a moment to end
# them: wait until none is left, at most 10 s, then record what is.
i=0
while [ -n "$(lab_processes)" ] && [ $i -lt 200 ]; do
	sleep 0.05; i=$((i + 1))
done
lab_processes >left-after-kill
$SMTBENCH run --resume run >resume.log 2>&1
echo $? >resume.status
lab_processes >left-after-resume
