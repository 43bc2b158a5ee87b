#!/bin/bash
# submit.sh — what an admin types: the runs, then the fleet report once they have ended.
#
#   FLEET_DIR=/shared/smtbench contrib/slurm/submit.sh fleet --nodes=16 -- [smtbench run options]
#   FLEET_DIR=/shared/smtbench contrib/slurm/submit.sh array --array=0-15 -- [smtbench run options]
#   FLEET_DIR=/shared/smtbench contrib/slurm/submit.sh fleet --matrix --nodes=16 -- [smtbench matrix options]
#
# Options before `--` go to sbatch (nodes, partition, --begin, ...); those after it to
# `smtbench run` (with --matrix, to `smtbench matrix`: each node runs the interference matrix,
# and the report pools it cell by cell). Prints the two job ids. The report lands in
# $FLEET_DIR/fleet-report/.
set -euo pipefail
usage() {
	cat <<'EOF'
usage: FLEET_DIR=DIR submit.sh fleet|array [--matrix] [SBATCH OPTIONS] -- [SMTBENCH OPTIONS]
       submit.sh -h | --help

Submits the runs of smtbench on the nodes, then the fleet report once they have ended.
  fleet   one job over --nodes=N nodes (smtbench-fleet.sbatch), a run on each
  array   a job array (--array=0-15), one node per task (smtbench-array.sbatch)
  --matrix  each node runs `smtbench matrix` (the interference matrix) instead of
          `smtbench run`; the report pools the matrices cell by cell per CPU model
Options before `--` go to sbatch (nodes, partition, --begin, ...); those after it to
`smtbench run`, or `smtbench matrix` with --matrix (e.g. --blocks 30). FLEET_DIR is a folder every node sees; the report lands
in $FLEET_DIR/fleet-report/. Prints the two job ids.
Exit status: 0 submitted; 2 bad input; else sbatch's.
EOF
}
case ${1:-} in
	-h | --help) usage; exit 0 ;;
	'') usage >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
kind=$1
shift
: "${FLEET_DIR:?set FLEET_DIR to a folder on a filesystem every node sees}"
case $kind in
	fleet) script=$here/smtbench-fleet.sbatch ;;
	array) script=$here/smtbench-array.sbatch ;;
	*) echo "submit.sh: the first word is fleet or array, not '$kind'" >&2; exit 2 ;;
esac
# What each node runs (the job scripts read SMTBENCH_COMMAND; sbatch exports the environment).
export SMTBENCH_COMMAND=run
sbatch_opts=()
while (($#)) && [[ $1 != -- ]]; do
	if [[ $1 == --matrix ]]; then SMTBENCH_COMMAND=matrix; else sbatch_opts+=("$1"); fi
	shift
done
(($#)) && shift # the --
# The jobs run in FLEET_DIR (sbatch --chdir), so every path they are given is made absolute here:
# a relative FLEET_DIR or SMTBENCH would be read again from inside FLEET_DIR (rel/rel/NODE).
mkdir -p "$FLEET_DIR"
FLEET_DIR=$(cd "$FLEET_DIR" && pwd)
export FLEET_DIR
case ${SMTBENCH:-} in
	*/*) [[ $SMTBENCH == /* ]] || SMTBENCH=$(cd "$(dirname "$SMTBENCH")" && pwd)/${SMTBENCH##*/}
	     export SMTBENCH ;;
esac
# ${a[@]+"${a[@]}"}: an empty array under set -u fails on bash before 4.4.
runs=$(sbatch --parsable --chdir="$FLEET_DIR" ${sbatch_opts[@]+"${sbatch_opts[@]}"} "$script" "$@")
runs=${runs%%;*}
report=$(sbatch --parsable --chdir="$FLEET_DIR" --dependency="afterany:$runs" \
	"$here/smtbench-report.sbatch")
echo "runs: job $runs; report: job $report (after the runs, into $FLEET_DIR/fleet-report/)"
