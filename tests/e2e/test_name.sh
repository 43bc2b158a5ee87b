#!/usr/bin/env bash
# End to end: `smtbench run --name A[,B]` names a command (and the one beside it) in every
# output: the plan line, samples.csv's workload column, meta.json, the summary, report.json,
# analyze and fleet's groups; bad names are refused before anything is written; --resume keeps
# the names.
source "$(dirname "$0")/lib.sh"

(($(nproc) >= 2)) || skip_all "needs 2 CPUs for non-sibling (this machine has $(nproc))"
command -v python3 >/dev/null || skip_all "reads JSON with python3 (apt-get install python3)"

# json FILE EXPR: a Python expression over the file's JSON as d, printed.
json() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
columns() { head -1 "$1/samples.csv" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }
col() { # col DIR NAME: that column of every data row
	local c; c=$(columns "$1" "$2"); tail -n +2 "$1/samples.csv" | cut -d, -f"$c"
}
# rows DIR ROLE: the workload column of that role's rows, each name once.
names_of_role() { paste -d, <(col "$1" role) <(col "$1" workload) | awk -F, -v r="$2" '$1 == r { print $2 }' | sort -u | tr '\n' ' '; }

named=(--placements non-sibling,solo --blocks 3 --warmup-blocks 0 --progress none)
# The runs that must answer (exit 0) give each copy work the clock can count: a loop of some
# 20-40 ms of user time; `true` measures 0 s in most trials, and a comparison of such times is
# refused (exit 1, no answer).
loop='i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'
r=$t_tmp/named
check_status 0 "run --name fast,slow with --beside" "$SMTBENCH" run --name fast,slow "${named[@]}" \
	--out "$r" -- sh -c "$loop" --beside sh -c "$loop"
check "the plan line names both: 'smtbench run: fast beside slow'" contains "$t_out" "smtbench run: fast beside slow → $r"
check "the plan says which command the name stands for" contains "$t_out" "fast (sh) is a command"
check "the summary's workload line uses the names" contains "$t_out" "Workload: fast, run beside slow"
check "samples.csv: every role-a row's workload is fast" test "$(names_of_role "$r" a)" = "fast "
check "samples.csv: every role-b row's workload is slow" test "$(names_of_role "$r" b)" = "slow "
check "meta.json: settings.name is [fast, slow]" test "$(json "$r/meta.json" 'd["settings"]["name"]')" = "['fast', 'slow']"
check "meta.json: workloads.a.name and .b.name are the names" \
	test "$(json "$r/meta.json" 'd["workloads"]["a"]["name"] + " " + d["workloads"]["b"]["name"]')" = "fast slow"
check "meta.json: the argv is kept as given (argv[0] sh)" \
	test "$(json "$r/meta.json" 'd["workloads"]["a"]["argv"] + d["settings"]["command"]')" = "['sh', '-c', '$loop', 'sh', '-c', '$loop']"
check "report.json: workload fast" test "$(json "$r/report.json" 'd["workload"]')" = "fast"
check "report.md names fast beside slow" grep -q 'fast' "$r/report.md"
check_status 0 "analyze of the named folder" "$SMTBENCH" analyze "$r"
check "analyze's first line names the workload by its names" test "$(head -n 1 <<<"$t_out")" = "smtbench analyze $r (fast beside slow): normal model, unpaired, unit trial"
check_status 0 "analyze --json of the named folder" "$SMTBENCH" analyze --json "$r"
check "analyze --json: workload fast, beside_workload slow" \
	test "$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["workload"], d["beside_workload"])' <<<"$t_out")" = "fast slow"
check_status 0 "report rewrites the named folder" "$SMTBENCH" report "$r"
check "…with the names" contains "$t_out" "Workload: fast, run beside slow"

# One name with --beside names A only; -n is --name.
check_status 0 "run -n fast (one name, with --beside)" "$SMTBENCH" run -n fast "${named[@]}" \
	--out "$t_tmp/one" -- sh -c "$loop" --beside sh -c "$loop"
check "…A is fast, B keeps its file name sh" \
	test "$(names_of_role "$t_tmp/one" a)/$(names_of_role "$t_tmp/one" b)" = "fast /sh "
check "…settings.name is [fast]" test "$(json "$t_tmp/one/meta.json" 'd["settings"]["name"]')" = "['fast']"

# A run without --name records null and names by argv[0] as before.
check_status 0 "run without --name" "$SMTBENCH" run "${named[@]}" --out "$t_tmp/plain" -- sh -c "$loop" --beside sh -c "$loop"
check "…settings.name is null and the workload is sh" \
	test "$(json "$t_tmp/plain/meta.json" 'd["settings"]["name"]')/$(names_of_role "$t_tmp/plain" a)" = "None/sh "

# --- bad names: exit 2, the option and the rule named, nothing written ------------------------
long=$(printf 'x%.0s' $(seq 65))
for bad in "" "a b" "$long" "gzip/6" "a,b,c" "fast," ",slow" "$(printf 'caf\xc3\xa9')"; do
	check_status 2 "--name '${bad:0:12}' is refused" "$SMTBENCH" run --name "$bad" "${named[@]}" \
		--out "$t_tmp/bad" -- true --beside true
	check "…naming --name and the rule" eval 'contains "$t_err" "--name" && { contains "$t_err" "1 to 64 bytes" || contains "$t_err" "more than two names"; }'
	check "…nothing written" test ! -e "$t_tmp/bad"
done
check_status 0 "a name of 64 bytes of every allowed kind is taken" "$SMTBENCH" run \
	--name "A-z_0.9+$(printf 'y%.0s' $(seq 56))" "${named[@]}" --out "$t_tmp/long64" -- sh -c "$loop"
check_status 2 "--name with a kernel is refused" "$SMTBENCH" run --name fast --kernel nop \
	--iters 1000 "${named[@]}" --out "$t_tmp/bad"
check "…saying a kernel has its own name" contains "$t_err" "a kernel has its own name"
check "…nothing written" test ! -e "$t_tmp/bad"
check_status 2 "--name with the default kernel is refused too" "$SMTBENCH" run --name fast \
	"${named[@]}" --out "$t_tmp/bad"
check_status 2 "two names without --beside are refused" "$SMTBENCH" run --name fast,slow \
	"${named[@]}" --out "$t_tmp/bad" -- true
check "…saying the second is for --beside" contains "$t_err" "the second name is for the command after '--beside'"
check "…nothing written" test ! -e "$t_tmp/bad"
check_status 2 "--resume takes no --name (the names are the run's settings)" "$SMTBENCH" run \
	--resume "$r" --name other

# --- --resume after SIGTERM keeps the names ---------------------------------------------------
busy='i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'
"$SMTBENCH" run --name fast,slow --placements non-sibling,solo --blocks 40 --warmup-blocks 0 \
	--progress none --out "$t_tmp/term" -- sh -c "$busy" --beside sh -c "$busy" \
	>"$t_tmp/term.out" 2>"$t_tmp/term.err" &
runner=$!
for _ in $(seq 200); do
	(($(wc -l <"$t_tmp/term/samples.csv" 2>/dev/null || echo 0) > 6)) && break
	sleep 0.05
done
kill -TERM "$runner"
wait "$runner"
rc=$?
check "SIGTERM: the runner exits 143 (got $rc)" test "$rc" -eq 143
check "SIGTERM: meta.json says interrupted" test "$(json "$t_tmp/term/meta.json" 'd["status"]')" = "interrupted"
stored=$(($(wc -l <"$t_tmp/term/samples.csv") - 1))
check_status 0 "--resume of the named run" "$SMTBENCH" run --resume "$t_tmp/term" --progress none
check "…it completes" test "$(json "$t_tmp/term/meta.json" 'd["status"]')" = "complete"
check "…it wrote rows after the $stored before" test "$(($(wc -l <"$t_tmp/term/samples.csv") - 1))" -gt "$stored"
check "…every role-a row, before and after, is fast" test "$(names_of_role "$t_tmp/term" a)" = "fast "
check "…every role-b row is slow" test "$(names_of_role "$t_tmp/term" b)" = "slow "
check "…meta.json keeps settings.name and the workloads' names" \
	test "$(json "$t_tmp/term/meta.json" '[d["settings"]["name"], d["workloads"]["a"]["name"], d["workloads"]["b"]["name"]]')" = "[['fast', 'slow'], 'fast', 'slow']"
check "…the summary uses the names" contains "$t_out" "Workload: fast, run beside slow"
# A meta.json whose name breaks the rule is refused, not run under it.
cp -r "$t_tmp/term" "$t_tmp/damaged"
python3 - "$t_tmp/damaged/meta.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["settings"]["name"] = ["a b"]
d["status"] = "interrupted"
json.dump(d, open(sys.argv[1], "w"), indent=2)
EOF
check_status 2 "--resume of a meta.json with a bad settings.name is refused" "$SMTBENCH" run \
	--resume "$t_tmp/damaged"
check "…naming settings.name" contains "$t_err" "settings.name"

# --- fleet: the names are part of the workload's group ----------------------------------------
check_status 0 "a second run named fast,slow" "$SMTBENCH" run --name fast,slow "${named[@]}" \
	--out "$t_tmp/named2" -- sh -c "$loop" --beside sh -c "$loop"
check_status 0 "a run named quick,slow, same command" "$SMTBENCH" run --name quick,slow "${named[@]}" \
	--out "$t_tmp/quick" -- sh -c "$loop" --beside sh -c "$loop"
check_status 0 "fleet of the named, renamed and unnamed folders" "$SMTBENCH" fleet --json \
	"$r" "$t_tmp/named2" "$t_tmp/quick" "$t_tmp/plain"
groups=$(python3 -c '
import json, os, sys
d = json.load(sys.stdin)
for g in sorted(d["groups"], key=lambda g: g["workload"]):
    print(g["workload"] + ": " + " ".join(sorted(os.path.basename(h["dir"]) for h in g["hosts"])))' <<<"$t_out")
check "fleet: one group per name, the two fast,slow folders together, the unnamed apart by argv[0]" \
	test "$groups" = "$(printf '%s\n' 'fast beside slow: named named2' 'quick beside slow: quick' 'sh beside sh: plain')"
check_status 0 "fleet's text" "$SMTBENCH" fleet "$r" "$t_tmp/named2" "$t_tmp/quick"
check "…titles its groups by the names" eval 'contains "$t_out" "workload fast beside slow" && contains "$t_out" "workload quick beside slow"'

done_testing
