# Sourced by contention.sh in the "contention" and "no-contention" rigs, after their timed run:
# run --one-process with the two-thread kernel on the sibling pair (2,3) and the non-sibling pair
# (2 and 0 or 1), judged by the process's wall time, into /out/one-process; and `threads` on a
# nop-2t whose affinity is the sibling pair, into /out/threads-siblings.json. Short trials and
# few blocks: about 10 s of the rig's time. The host's checks are scenarios.py's
# check_one_process_* functions.
$SMTBENCH run --one-process --kernel nop-2t --placements sibling,non-sibling --trial-time 0.1 \
	--blocks 10 --warmup-blocks 1 --progress none --out one-process >one-process.log 2>&1
echo $? >one-process.status
# Two busy threads allowed only CPUs 2 and 3 sit one on each, siblings of core 1.
taskset -c 2,3 /lab/kernels/nop-2t 1000000000000 &
busy=$!
$SMTBENCH threads --for 2s --json $busy >threads-siblings.json 2>threads-siblings.err
echo $? >threads-siblings.status
echo $busy >threads-siblings.pid
kill $busy
wait $busy 2>/dev/null
