#!/usr/bin/env bash
# big_synth.sh DIR ROWS — writes a SYNTHETIC run folder of ROWS samples.csv rows fast (awk), for
# the report's and fleet's scaling (tests/bench/bench_report_scale.sh, test_report.sh): meta.json
# from fleet_synth.py (sibling and non-sibling, nop), then ROWS/4 blocks of one trial of each
# placement with two copies each, sibling 1.25x non-sibling with 1% noise. Not a measurement.
set -eu
dir=$1 rows=$2 blocks=$(($2 / 4))
here=$(cd "$(dirname "$0")" && pwd)
python3 "$here/fleet_synth.py" "$dir" "big-$rows" --sibling --trials 2 >/dev/null
awk -v blocks="$blocks" 'BEGIN {
	print "trial,block,warmup,placement,proc,role,pu,workload,status,exit_code,signal,utime_s,stime_s,wall_s,start_s,end_s,nvcsw,nivcsw,maxrss_kb,overlap,freq_mhz,loadavg_1m,started_utc"
	srand(7); trial = 0
	for (b = 0; b < blocks; b++)
		for (p = 0; p < 2; p++) {
			pl = p ? "non-sibling" : "sibling"; m = p ? 0.1 : 0.125
			for (c = 0; c < 2; c++) {
				u = m * (1 + 0.02 * (rand() + rand() + rand() - 1.5))
				printf "%d,%d,0,%s,%d,a,%d,nop,ok,0,,%.6f,0.000000,%.6f,0.0,%.6f,1,0,1300,0.99,,0.10,2026-11-30T00:00:00Z\n", trial, b, pl, c, c, u, u, u
			}
			trial++
		}
}' >"$dir/samples.csv"
python3 - "$dir/meta.json" "$blocks" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["settings"]["trials"] = int(sys.argv[2]); m["trials_done"] = 2 * int(sys.argv[2])
json.dump(m, open(sys.argv[1], "w"), indent=2)
PY
