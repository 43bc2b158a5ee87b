#!/usr/bin/env bash
# reports.sh OUTDIR — runs every reading command (analyze, report, fleet) over the fixed results
# folders under tests/fixtures/folders/ and results/seed-example, and leaves in OUTDIR what each
# printed and wrote: NAME.out (stdout), NAME.err (stderr), NAME/ (the files of report --out or
# fleet --out) and status.txt (each case's exit status). What truly varies from one run of it to
# another is normalised: OUTDIR itself reads @OUT@ and this smtbench's version @VERSION@.
#
# tests/e2e/test_golden.sh compares its outputs with tests/golden/reports/ (text, Markdown and
# JSON exactly; HTML and SVG by structure.py); tests/golden/regen.sh writes them there when an
# output changes on purpose. Runs from the repository root, so that every path it shows is the
# relative one given here. SMTBENCH: the program (default build/smtbench).
set -u
out=${1:?usage: tests/golden/reports.sh OUTDIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
smtbench=${SMTBENCH:-$root/build/smtbench}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$root" || exit 1
F=tests/fixtures/folders
seed=results/seed-example
version=$("$smtbench" --version | awk '{print $NF}')

: >"$out/status.txt"
# case NAME ARGS...: one command, its output kept under NAME.
case_() {
	local name=$1; shift
	"$smtbench" "$@" >"$out/$name.out" 2>"$out/$name.err" </dev/null
	echo "$name: exit $?" >>"$out/status.txt"
}
# report_case NAME DIR [OPTION...]: report --out into OUTDIR/NAME.
report_case() {
	local name=$1 dir=$2; shift 2
	mkdir -p "$out/$name"
	case_ "$name" report "$dir" --out "$out/$name" "$@"
}

case_ analyze-seed analyze "$seed"
case_ analyze-seed-json analyze "$seed" --json
case_ analyze-seed-grid analyze --seed-grid "$seed"
case_ analyze-seed-grid-json analyze --seed-grid "$seed" --json
case_ analyze-files analyze "$seed/data_ht.txt" "$seed/data_noht.txt"
case_ analyze-files-json analyze "$seed/data_ht.txt" "$seed/data_noht.txt" --json
case_ analyze-files-paired analyze --paired --rope 5 "$seed/data_noht.txt" "$seed/data_noht.txt"
case_ analyze-hyperfine analyze "$F/hyperfine.json"
case_ analyze-hyperfine-json analyze "$F/hyperfine.json" --json
for d in run one-process beside matrix killed; do
	case_ "analyze-$d" analyze "$F/$d"
	case_ "analyze-$d-json" analyze "$F/$d" --json
done
case_ analyze-run-rope-t analyze "$F/run" --rope 2 --model t
case_ analyze-run-process-excluded-json analyze "$F/run" --unit process --exclude-contaminated --json
case_ analyze-one-process-user analyze "$F/one-process" --metric user --unpaired

report_case report-seed "$seed"
for d in run one-process beside matrix killed; do
	report_case "report-$d" "$F/$d"
done
report_case report-run-excluded-rope "$F/run" --exclude-contaminated --rope 3
report_case report-matrix-rope "$F/matrix" --rope 5

case_ fleet fleet "$F/fleet"
case_ fleet-json fleet "$F/fleet" --json
mkdir -p "$out/fleet-files"
case_ fleet-files fleet "$F/fleet" --out "$out/fleet-files"
case_ fleet-runs fleet "$F/fleet/node-a" "$F/fleet/node-b" "$F/fleet/killed"

# What varies between runs of this script: where it wrote, and the version (taken literally:
# in a regular expression the version's dots would match the digits of "0.100").
literal() { printf '%s' "$1" | sed 's/[][\\.*^$#]/\\&/g'; }
find "$out" -type f -print0 |
	xargs -0 sed -i -e "s#$(literal "$out")#@OUT@#g" -e "s#$(literal "$version")#@VERSION@#g"
