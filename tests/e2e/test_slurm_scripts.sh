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

# Relative paths: the jobs run in FLEET_DIR (sbatch --chdir), so a relative FLEET_DIR or SMTBENCH
# given to submit.sh must reach them absolute, or a node writes into rel/rel/NODE.
rm -f "$t_tmp/calls"
mkdir -p "$t_tmp/work/tools"
cat >"$t_tmp/bin/sbatch" <<STUB
#!/bin/bash
printf '[%s]' "\$@" "FLEET_DIR=\$FLEET_DIR" "SMTBENCH=\${SMTBENCH:-}" >>"$t_tmp/calls"; echo >>"$t_tmp/calls"
echo 7
STUB
check_status 0 "submit.sh with a relative FLEET_DIR and SMTBENCH" \
	env -C "$t_tmp/work" PATH="$t_tmp/bin:$PATH" FLEET_DIR=rel SMTBENCH=tools/smtbench \
	bash "$slurm/submit.sh" fleet --
check "... gives sbatch and the jobs the absolute folder and program" \
	test "$(head -n 1 "$t_tmp/calls")" = "[--parsable][--chdir=$t_tmp/work/rel][$slurm/smtbench-fleet.sbatch][FLEET_DIR=$t_tmp/work/rel][SMTBENCH=$t_tmp/work/tools/smtbench]"
check "... and names the report's real folder" contains "$t_out" "$t_tmp/work/rel/fleet-report/"

# The job scripts themselves, given a relative FLEET_DIR by hand (FLEET_DIR=rel sbatch --chdir=rel
# ...): it is the folder sbatch was called from (SLURM_SUBMIT_DIR), wherever the job starts. A
# stand-in srun runs the step's command; a stand-in smtbench records its arguments.
cat >"$t_tmp/bin/srun" <<'STUB'
#!/bin/bash
while [[ $1 == -* ]]; do shift; done
exec "$@"
STUB
cat >"$t_tmp/work/tools/smtbench" <<STUB
#!/bin/bash
printf '[%s]' "\$@" >"$t_tmp/smtbench-args"
STUB
chmod +x "$t_tmp/bin/srun" "$t_tmp/work/tools/smtbench"
mkdir -p "$t_tmp/work/rel"
node=$(hostname -s)
check_status 0 "smtbench-fleet.sbatch started in FLEET_DIR with FLEET_DIR and SMTBENCH relative" \
	env -C "$t_tmp/work/rel" PATH="$t_tmp/bin:$PATH" SLURM_SUBMIT_DIR="$t_tmp/work" \
	SLURM_JOB_ID=42 FLEET_DIR=rel SMTBENCH=tools/smtbench bash "$slurm/smtbench-fleet.sbatch" --blocks 3
check "... runs the node into FLEET_DIR/NODE, not FLEET_DIR/FLEET_DIR/NODE" \
	test "$(cat "$t_tmp/smtbench-args")" = "[run][--out][$t_tmp/work/rel/$node-42][--blocks][3]"
check_status 0 "smtbench-array.sbatch likewise" \
	env -C "$t_tmp/work/rel" PATH="$t_tmp/bin:$PATH" SLURM_SUBMIT_DIR="$t_tmp/work" \
	SLURM_JOB_ID=43 FLEET_DIR=rel SMTBENCH=tools/smtbench bash "$slurm/smtbench-array.sbatch"
check "... into FLEET_DIR/NODE-JOB_TASK" \
	test "$(cat "$t_tmp/smtbench-args")" = "[run][--out][$t_tmp/work/rel/$node-43_0]"
check_status 0 "smtbench-report.sbatch likewise" \
	env -C "$t_tmp/work/rel" SLURM_SUBMIT_DIR="$t_tmp/work" FLEET_DIR=rel SMTBENCH=tools/smtbench \
	bash "$slurm/smtbench-report.sbatch"
check "... reports FLEET_DIR into FLEET_DIR/fleet-report" \
	test "$(cat "$t_tmp/smtbench-args")" = "[fleet][$t_tmp/work/rel][--out][$t_tmp/work/rel/fleet-report]"
# srun's step is a new bash, which does not inherit set -u: run_node sets it itself, so a
# variable SLURM failed to set stops the node instead of naming its folder "NODE-".
rm -f "$t_tmp/smtbench-args"
check_status 1 "the srun step stops on an unset variable (set -u inside run_node)" \
	env -u SLURM_JOB_ID -C "$t_tmp/work" PATH="$t_tmp/bin:$PATH" FLEET_DIR="$t_tmp/work/rel" \
	SMTBENCH="$t_tmp/work/tools/smtbench" bash "$slurm/smtbench-fleet.sbatch"
check "... before smtbench runs" test ! -e "$t_tmp/smtbench-args"
check "... naming the variable" contains "$t_err" "SLURM_JOB_ID"
done_testing
