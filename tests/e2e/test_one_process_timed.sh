#!/usr/bin/env bash
# test_one_process_timed.sh — `smtbench run --one-process` with the built-in two-thread kernel
# nop-2t: its wall time per CPU second on one PU (same-pu) is about twice that on two cores
# (non-sibling), and same-pu takes longer by wall time. The rest of --one-process is
# test_one_process.sh, which runs beside other tests; this one measures, so it runs alone.
# serial: measures time (nop-2t's wall time per CPU second, same-pu over non-sibling)
source "$(dirname "$0")/lib.sh"

(($(nproc) >= 2)) || skip_all "needs 2 CPUs for non-sibling (this machine has $(nproc))"
command -v python3 >/dev/null || skip_all "reads CSV with python3 (apt-get install python3)"

# --- the two-thread kernel: one PU takes about twice two cores --------------------------------
# Its two threads take turns on same-pu's one CPU and run side by side on non-sibling's two, so
# the process's wall time should be about 2x (its wall per CPU second is, below); its user time about 1x. The
# statistic is the median of the per-block ratios over the blocks whose two trials ran alone
# on their CPUs (foreign_s and steal_s at most 10% of the trial's wall time, the analysis's
# rule): other work on this shared 2-CPU machine takes its turns from every thread alike, which
# pulls the wall ratio towards 1 however many trials run, so a busy machine is a skip, said.
# Trials of 0.6 s of CPU (0.3 s of wall on two cores): /proc/stat counts in 10 ms ticks, and a
# shorter trial's foreign time could not be told from a tick's rounding.
k=$t_tmp/kernel
check_status 0 "run --one-process --kernel nop-2t (calibrated by --trial-time)" "$SMTBENCH" run \
	--one-process --kernel nop-2t --trial-time 0.6 --placements same-pu,non-sibling --blocks 12 \
	--warmup-blocks 1 --progress none --out "$k"
check "…calibrated as one process alone on one CPU" contains "$t_out" "calibrated as one process alone on one CPU"
# clean_ratios DIR: "BLOCKS WALL_RATIO USER_RATIO PARALLEL_RATIO" over the clean blocks
# (medians). PARALLEL_RATIO is same-pu's wall time per CPU second over non-sibling's: the process
# ran its two threads in turns on one CPU (wall = CPU time) and side by side on two (wall = half
# its CPU time), so it is about 2; the single-threaded start and uneven ends make it 1.73-1.80
# here on a quiet machine. A process that was not given both CPUs reads 1. It holds where the
# wall ratio does not: when one vCPU runs h times slower than the other (the hypervisor's
# other load, not seen as steal), the wall ratio is 2 / h but this one (1 + h) / h; CI read a
# wall ratio of 1.40 over 12 clean blocks (h about 1.4, so about 1.7 here). So the bound is on
# this ratio, [1.4, 2.6] (h up to 2.5), and only the wall ratio's direction is asserted.
clean_ratios() {
	python3 - "$1" <<'EOF'
import csv, statistics, sys
rows = [r for r in csv.DictReader(open(sys.argv[1] + "/samples.csv")) if r["warmup"] == "0"]
def clean(r):
    wall = float(r["wall_s"])
    return r["status"] == "ok" and r["foreign_s"] != "" and r["steal_s"] != "" \
        and float(r["foreign_s"]) <= 0.1 * wall and float(r["steal_s"]) <= 0.1 * wall
def wall_per_cpu(r):
    return float(r["wall_s"]) / (float(r["utime_s"]) + float(r["stime_s"]))
by_block = {}
for r in rows:
    by_block.setdefault(r["block"], {})[r["placement"]] = r
pairs = [(b["same-pu"], b["non-sibling"]) for b in by_block.values()
         if "same-pu" in b and "non-sibling" in b and clean(b["same-pu"]) and clean(b["non-sibling"])]
if not pairs:
    print(0, "nan", "nan", "nan")
else:
    wall = statistics.median(float(a["wall_s"]) / float(b["wall_s"]) for a, b in pairs)
    user = statistics.median(float(a["utime_s"]) / float(b["utime_s"]) for a, b in pairs)
    par = statistics.median(wall_per_cpu(a) / wall_per_cpu(b) for a, b in pairs)
    print(len(pairs), round(wall, 4), round(user, 4), round(par, 4))
EOF
}
read -r blocks wall_ratio user_ratio par_ratio <<<"$(clean_ratios "$k")"
if ((blocks >= 6)); then
	check "nop-2t ran its two threads side by side on non-sibling and in turns on same-pu: wall time per CPU second on same-pu over non-sibling's, median $par_ratio over $blocks clean blocks, in [1.4, 2.6] (wall ratio $wall_ratio, user ratio $user_ratio)" \
		python3 -c "import sys; sys.exit(not 1.4 <= $par_ratio <= 2.6)"
	check "…and same-pu took longer than two cores by wall time: median ratio $wall_ratio above 1" \
		python3 -c "import sys; sys.exit(not $wall_ratio > 1)"
else
	skip "nop-2t same-pu vs non-sibling: only $blocks of 12 blocks ran without other work on their CPUs (the machine is busy: see samples.csv's foreign_s); at least 6 are needed for the 2x check"
	skip "nop-2t's wall-time direction: as above, the machine was too busy"
fi

done_testing
