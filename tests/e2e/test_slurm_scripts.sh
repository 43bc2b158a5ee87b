#!/usr/bin/env bash
# The SLURM scripts of contrib/slurm/ under `set -u` on every bash they may meet: an empty array
# expanded as "${a[@]}" is an "unbound variable" error on bash before 4.4 (RHEL/CentOS 7 ship
# 4.2), so submit.sh without sbatch options failed there (issue 21). This machine's bash is newer
# and accepts either form, so the form itself is checked: every "${NAME[@]}" is written
# ${NAME[@]+"${NAME[@]}"}. Then submit.sh runs with a recording sbatch, with and without options.
source "$(dirname "$0")/lib.sh"

slurm=$SMTBENCH_ROOT/contrib/slurm
for f in "$slurm"/submit.sh "$slurm"/*.sbatch; do
	name=${f##*/}
	check "$name: every array expansion survives set -u on bash < 4.4" python3 - "$f" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
bad = []
for m in re.finditer(r'"\$\{(\w+)\[[@*]\]\}"', text):
    guard = "${%s[@]+" % m.group(1)
    if text[max(0, m.start() - len(guard)):m.start()] != guard:
        bad.append("line %d: %s" % (text.count("\n", 0, m.start()) + 1, m.group(0)))
assert not bad, "unguarded (write ${a[@]+\"${a[@]}\"}): " + "; ".join(bad)
PY
done

# A stand-in sbatch: one line per call, each argument in brackets, so an empty one shows as [].
mkdir -p "$t_tmp/bin"
cat >"$t_tmp/bin/sbatch" <<STUB
#!/bin/bash
printf '[%s]' "\$@" >>"$t_tmp/calls"; echo >>"$t_tmp/calls"
echo 7
STUB
chmod +x "$t_tmp/bin/sbatch"
check_status 0 "submit.sh fleet with no sbatch options and no run options" \
	env PATH="$t_tmp/bin:$PATH" FLEET_DIR="$t_tmp/fleet" bash "$slurm/submit.sh" fleet --
check "... gives sbatch the job script and no empty argument" \
	test "$(head -n 1 "$t_tmp/calls")" = "[--parsable][--chdir=$t_tmp/fleet][$slurm/smtbench-fleet.sbatch]"
check "... then the report, after the runs" \
	test "$(sed -n 2p "$t_tmp/calls")" = "[--parsable][--chdir=$t_tmp/fleet][--dependency=afterany:7][$slurm/smtbench-report.sbatch]"
rm -f "$t_tmp/calls"
check_status 0 "submit.sh array with sbatch options and run options" \
	env PATH="$t_tmp/bin:$PATH" FLEET_DIR="$t_tmp/fleet" bash "$slurm/submit.sh" array --array=0-3 -p batch -- --blocks 5
check "... passes each in its place" \
	test "$(head -n 1 "$t_tmp/calls")" = "[--parsable][--chdir=$t_tmp/fleet][--array=0-3][-p][batch][$slurm/smtbench-array.sbatch][--blocks][5]"
done_testing
