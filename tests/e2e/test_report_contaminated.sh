#!/usr/bin/env bash
# End to end: `smtbench report --exclude-contaminated` leaves out the trials that shared their
# CPUs, as `analyze --exclude-contaminated` does, and every format says how many. The folder is a
# real small run whose foreign_s and steal_s are then set by hand: 0 everywhere, except three
# measured trials (two same-pu, one solo) whose foreign time equals their duration, so what is
# contaminated does not depend on how busy this machine was.
source "$(dirname "$0")/lib.sh"

run=$t_tmp/run
check_status 0 "a run of solo,same-pu, 10 blocks" "$SMTBENCH" run --placements solo,same-pu \
	--trials 10 --warmup 1 --iters 20000 --seed 7 --out "$run"
check "three measured trials marked as sharing their CPUs (foreign_s = wall_s)" \
	python3 - "$run/samples.csv" <<'EOF'
import csv, sys
path = sys.argv[1]
with open(path, newline="") as f:
    reader = csv.DictReader(f)
    header, rows = reader.fieldnames, list(reader)
trials = {}
for r in rows:
    r["foreign_s"], r["steal_s"] = "0.000", "0.000"
    if r["warmup"] == "0" and r["status"] == "ok":
        trials.setdefault((r["placement"], r["trial"]), []).append(r)
chosen = [k for k in trials if k[0] == "same-pu"][:2] + [k for k in trials if k[0] == "solo"][:1]
assert len(chosen) == 3, chosen
for key in chosen:
    wall = max(float(r["wall_s"]) for r in trials[key])
    for r in trials[key]:
        r["foreign_s"] = "%.6f" % wall
with open(path, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=header, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
EOF

# n per placement, and excluded_contaminated, from report.json: "solo same-pu excluded".
counts() {
	python3 - "$1" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
n = {p["name"]: p["n"] for p in r["placements"]}
x = r["excluded_contaminated"]
print(n["solo"], n["same-pu"], "null" if x is None else x)
EOF
}

check_status 0 "report without the option" "$SMTBENCH" report "$run"
read -r solo_all same_all excluded_all < <(counts "$run/report.json")
check "…every measured trial is a sample (solo $solo_all, same-pu $same_all)" \
	test "$solo_all" -eq 10 -a "$same_all" -eq 10
check "…report.json's excluded_contaminated is null (nothing asked to be left out)" \
	test "$excluded_all" = null
check "…nothing said left out" eval '! contains "$t_out" "Left out:"'
check "…the warning counts the three and names report's option" \
	eval 'contains "$t_out" "3 trial(s) shared their CPUs" &&
	      contains "$t_out" "smtbench report --exclude-contaminated"'

check_status 0 "report --exclude-contaminated" "$SMTBENCH" report --exclude-contaminated "$run"
read -r solo_ex same_ex excluded_ex < <(counts "$run/report.json")
check "…fewer samples: solo $solo_all → $solo_ex, same-pu $same_all → $same_ex (want 9 and 8)" \
	test "$solo_ex" -eq 9 -a "$same_ex" -eq 8
check "…report.json's excluded_contaminated is 3 (got $excluded_ex)" test "$excluded_ex" = 3
said="Left out: 3 trial(s) that shared their CPUs"
check "…the summary says how many were left out" contains "$t_out" "$said"
check "…report.md says it" grep -qF "$said" "$run/report.md"
check "…report.html says it" grep -qF "$said" "$run/report.html"
check "…the warning says they were left out, not how to leave them out" \
	eval 'contains "$t_out" "left out of this analysis (--exclude-contaminated)" &&
	      ! contains "$t_out" "smtbench report --exclude-contaminated"'
check "…and analyze --exclude-contaminated leaves out as many" \
	eval '"$SMTBENCH" analyze --exclude-contaminated "$run" 2>&1 >/dev/null |
	      grep -qF -- "--exclude-contaminated: 3 trial(s) left out"'
check_status 2 "report --exclude-contaminated with no folder is a usage error" \
	"$SMTBENCH" report --exclude-contaminated

done_testing
