#!/usr/bin/env bash
# bench_report_scale.sh BUILD — how `smtbench report` and `smtbench fleet` scale with the rows of
# samples.csv: a SYNTHETIC run folder (tests/e2e/big_synth.sh: N rows of sibling and
# non-sibling, two copies each, in blocks) of 100k, 1M and
# 10M rows (BENCH_QUICK=1: 100k and 1M), reported and pooled by fleet, each timed with its peak
# memory (getrusage's ru_maxrss, by /usr/bin/time where it exists, else bash's times) and the
# size of report.html. Goals (issue 29): report on 1M rows under 10 s, on 10M under 60 s and
# 2 GB, report.html under 5 MB. Prints the numbers; asserts nothing (a timed assertion would
# fail on a noisy machine).
set -u
build=${1:-build}
smtbench=$(cd "$build" && pwd)/smtbench
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/smtbench-bench-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT
sizes=(100000 1000000 10000000)
[[ ${BENCH_QUICK:-0} == 1 ]] && sizes=(100000 1000000)

# make_folder DIR ROWS: the synthetic folder.
make_folder() { "$root/tests/e2e/big_synth.sh" "$1" "$2"; }

# timed WHAT COMMAND...: its wall time and peak memory.
timed() {
	local what=$1; shift
	if [[ -x /usr/bin/time ]]; then
		/usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>"$work/err"
		local rc=$?
		read -r secs kb <"$work/time" 2>/dev/null || { secs=?; kb=0; }
		[[ $secs == Command* ]] && read -r secs kb < <(tail -1 "$work/time")
		printf '  %-34s %8s s  peak %6d MB  (exit %d)\n' "$what" "$secs" "$((kb / 1024))" "$rc"
	else
		local start=$SECONDS
		"$@" >/dev/null 2>"$work/err"
		printf '  %-34s %8d s  (peak memory: no /usr/bin/time here)\n' "$what" "$((SECONDS - start))"
	fi
}

echo "report and fleet on synthetic samples.csv (sibling vs non-sibling, 2 copies):"
for rows in "${sizes[@]}"; do
	dir=$work/run-$rows
	make_folder "$dir" "$rows"
	timed "report, $rows rows" "$smtbench" report "$dir"
	html=$(stat -c %s "$dir/report.html" 2>/dev/null || echo 0)
	printf '  %-34s %8.2f MB (report.md %.2f MB, report.json %.2f MB)\n' "report.html, $rows rows" \
		"$(echo "$html / 1048576" | bc -l)" \
		"$(echo "$(stat -c %s "$dir/report.md") / 1048576" | bc -l)" \
		"$(echo "$(stat -c %s "$dir/report.json") / 1048576" | bc -l)"
	timed "fleet, $rows rows" "$smtbench" fleet "$dir" --out "$work/fleet-$rows"
	rm -rf "$dir" "$work/fleet-$rows"
done
