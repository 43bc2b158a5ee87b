#!/usr/bin/env bash
# The accounting control, on this machine's real CPUs: two copies time-sharing one PU (same-pu)
# must each use the same user CPU time as one copy alone (solo); only their wall time grows.
#
# The machine is noisy (a shared VM: one solo sample can be 30% off its neighbours), so the check
# is built so that noise cannot fail it while a real accounting error still does:
#  - many short blocks (31 measured, about 0.1 s of nop per process here), each block holding one solo
#    trial and one same-pu trial in random order, so a slow stretch of the machine hits both;
#  - per block the ratio same-pu/solo, and the MEDIAN of those ratios: a few disturbed blocks
#    move it little;
#  - the bounds are the geometric midpoints between right (1) and a real error (1.5x or 1/1.5x):
#    0.816-1.225. A real error passes only if noise moves the median by 22% towards 1, and noise
#    fails a right answer only if it moves the median by as much away. (The bounds were 0.75-1.33
#    with a check that the data scaled by 1.5 and 0.67 fail them; together that accepted only
#    0.89-1.12, and a CI run failed at 1.129 with 7 disturbed blocks of 21.) The check that the
#    scaled data fail is kept: with these bounds it holds for every accepted median.
# Checked by running this script 20 times in a row beside a busy loop on every CPU.
# serial: measures time (same-pu's user time over solo's, and the CPU time per wall second)
source "$(dirname "$0")/lib.sh"

ITERS=${SMTBENCH_TEST_ITERS:-700000}
run=$t_tmp/acct
check_status 0 "run solo,same-pu: 31 blocks + 1 warm-up" \
	"$SMTBENCH" run --placements solo,same-pu --trials 31 --warmup 1 --iters "$ITERS" --out "$run"
check "same-pu user time matches solo's (median of per-block ratios); the pair shared one PU" \
	python3 - "$run" <<'EOF'
import collections, csv, statistics, sys
all_rows = [r for r in csv.DictReader(open(sys.argv[1] + "/samples.csv")) if r["warmup"] == "0"]
rows = [r for r in all_rows if r["status"] == "ok"]
blocks = sorted({r["block"] for r in rows})

def ratios_of(key, scale=1.0):
    """Per complete block: mean same-pu value / solo value in that block."""
    ratios = []
    for b in blocks:
        solo = [float(r[key]) for r in rows if r["block"] == b and r["placement"] == "solo"]
        pair = [float(r[key]) * scale for r in rows if r["block"] == b and r["placement"] == "same-pu"]
        if len(solo) == 1 and len(pair) == 2 and solo[0] > 0:
            ratios.append(statistics.mean(pair) / solo[0])
    return ratios

def median_ratio(key, scale=1.0):
    ratios = ratios_of(key, scale)
    return statistics.median(ratios) if ratios else float("nan")

ERROR = 1.5  # the smallest accounting error the check must see, either way

def accounting_ok(u):
    return ERROR ** -0.5 < u < ERROR ** 0.5

def median_pu_share():
    """Median over same-pu trials of (CPU time of both processes) / (the trial's wall time):
    at most 1 when they really share one PU, whatever else the machine runs."""
    shares = []
    for b in blocks:
        pair = [r for r in rows if r["block"] == b and r["placement"] == "same-pu"]
        if len(pair) == 2:
            cpu = sum(float(r["utime_s"]) + float(r["stime_s"]) for r in pair)
            shares.append(cpu / max(float(r["wall_s"]) for r in pair))
    return statistics.median(shares) if shares else float("nan")

# Everything is printed before anything is asserted: a failure shows its numbers.
statuses = collections.Counter(r["status"] for r in all_rows)
complete = len(ratios_of("utime_s"))
u, w, share = median_ratio("utime_s"), median_ratio("wall_s"), median_pu_share()
print("# same-pu/solo user time %.3f, wall time %.3f; same-pu CPU time per wall second %.3f"
      " (medians of %d complete blocks; statuses %s)" % (u, w, share, complete, dict(statuses)))
print("# per-block user time ratios: " + " ".join("%.3f" % x for x in ratios_of("utime_s")))
assert complete >= 27, "only %d complete blocks" % complete
assert accounting_ok(u), u
# Time-sharing one PU, the two copies together get at most one CPU-second per second: a load-
# independent proof that they shared it (on two CPUs of an idle machine this is about 2).
assert share < 1.1, share
# Wall time: about 2x on an idle machine, but beside other busy processes anything down to about
# 1x (solo is slowed by the load as much as same-pu is), so it has no lower bound: sharing is
# proved by the CPU time per wall second above. The upper bound is a sanity check (printed above).
assert w < 3.0, "same-pu/solo wall time %.3f: more than 3x for two copies on one PU" % w
# The check has the power to see a real error on these very data.
assert not accounting_ok(median_ratio("utime_s", ERROR)), "a 1.5x error would pass"
assert not accounting_ok(median_ratio("utime_s", 1 / ERROR)), "a 1/1.5x error would pass"
EOF
done_testing
