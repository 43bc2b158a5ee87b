# test_folder_state.sh — a results folder's state as every reader tells it (common/folder.h):
# a run still being written (its runner marks meta.json's segment with its pid, host and boot
# id), the same run once its runner is killed by SIGKILL (meta.json still says running), and
# once --resume has taken it up and a signal stopped it. report says which; fleet skips it with
# the reason and what to do; --resume continues the killed run.
source "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip_all "meta.json is read by python3 here (apt-get install python3)"

dir=$t_tmp/live
# segment_pid DIR: the pid meta.json's last segment records (empty when none yet).
segment_pid() {
	python3 - "$1" <<'EOF' 2>/dev/null
import json, sys
s = json.load(open(sys.argv[1] + "/meta.json"))["segments"]
print(s[-1].get("pid", "") if s else "")
EOF
}
# wait_for WHAT SECONDS COMMAND...: until the command succeeds, at most SECONDS.
wait_for() {
	local what=$1 deadline=$((SECONDS + $2)); shift 2
	until "$@"; do
		((SECONDS < deadline)) || { echo "# timed out waiting for $what"; return 1; }
		sleep 0.1
	done
}
rows_at_least() { [[ -f $1/samples.csv ]] && (($(wc -l <"$1/samples.csv") > $2)); }

"$SMTBENCH" run --placements solo,same-pu --kernel nop --iters 20000 --blocks 100000 \
	--warmup-blocks 0 --seed 3 --out "$dir" --progress none >"$t_tmp/run.out" 2>&1 &
runner=$!
disown "$runner" # its death by SIGKILL is the point, not news
if ! wait_for "the runner's first trials" 60 rows_at_least "$dir" 6; then
	kill -KILL "$runner" 2>/dev/null
	skip_all "the run did not start within 60 s: $(head -c 300 "$t_tmp/run.out")"
fi
check "meta.json's segment records the runner's pid ($runner)" test "$(segment_pid "$dir")" = "$runner"

check_status 0 "report on a run being written" "$SMTBENCH" report "$dir" --out "$t_tmp/r1"
check "...says it is still running, naming its runner" \
	contains "$t_out" "Still running: its runner (pid $runner on"
check_status 2 "fleet over it alone: nothing usable" "$SMTBENCH" fleet "$dir"
check "...skips it as being written, to wait for" \
	contains "$t_out" "being written: its runner (pid $runner on"

kill -KILL "$runner"
gone() { ! kill -0 "$runner" 2>/dev/null; }
wait_for "the killed runner to go" 10 gone
check "after SIGKILL, meta.json still says running" \
	grep -q '"status": "running"' "$dir/meta.json"
check_status 0 "report on the killed run" "$SMTBENCH" report "$dir" --out "$t_tmp/r2"
check "...says it is incomplete, killed, and how to continue it" \
	contains "$t_out" "Incomplete: killed (meta.json says running, but its runner (pid $runner on"
check "...with smtbench run --resume" contains "$t_out" "continue with smtbench run --resume $dir"
# meta.json's trials_done is written when a segment ends: after SIGKILL it still says 0, while
# samples.csv holds every trial done (each written whole in one append).
written=$(awk -F, 'NR == 1 { n = NF } NR > 1 && NF == n { print $1 }' "$dir/samples.csv" | sort -u | wc -l)
check "...counting the $written trials samples.csv holds, not meta.json's trials_done" \
	contains "$t_out" "this answer is of the $written trials written"
check "report.md says so too" grep -q "Incomplete: killed" "$t_tmp/r2/report.md"
check "report.json's incomplete says so" \
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["incomplete"].startswith("Incomplete: killed"), d["incomplete"]' "$t_tmp/r2/report.json"
"$SMTBENCH" analyze "$dir" >"$t_tmp/a.out" 2>"$t_tmp/a.err"
check "analyze on the killed run says it is incomplete, with the --resume line" \
	grep -q "Incomplete: killed (meta.json says running, but its runner (pid $runner on.*continue with smtbench run --resume $dir" "$t_tmp/a.err"
"$SMTBENCH" analyze --json "$dir" >"$t_tmp/a.json" 2>/dev/null
check "analyze --json's incomplete says so too" \
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert "--resume" in d["incomplete"], d["incomplete"]' "$t_tmp/a.json"
check_status 2 "fleet over the killed run" "$SMTBENCH" fleet "$dir"
check "...skips it: killed, continue it with --resume" \
	contains "$t_out" "incomplete: its runner (pid $runner on"
check "...naming the command" contains "$t_out" "continue it with smtbench run --resume $dir"

# --resume takes it up: a new segment, marked by the new runner; stopped by SIGTERM (a background
# job of a script ignores SIGINT, and the runner keeps what it inherited ignored).
"$SMTBENCH" run --resume "$dir" --progress none >"$t_tmp/resume.out" 2>&1 &
resumer=$!
resumed() { [[ $(segment_pid "$dir") == "$resumer" ]]; }
if wait_for "the resumed runner's mark" 60 resumed; then
	ok "--resume continues the killed run, and marks its own segment"
	kill -TERM "$resumer"
	wait "$resumer"
	check_status 0 "report once the resumed run was interrupted" "$SMTBENCH" report "$dir" \
		--out "$t_tmp/r3"
	check "...says it was interrupted (not killed, not running)" \
		contains "$t_out" "Stopped: interrupted"
else
	kill -KILL "$resumer" 2>/dev/null
	not_ok "--resume continues the killed run: $(head -c 300 "$t_tmp/resume.out")"
fi

done_testing
