# threads_lib.sh — what test_threads.sh and test_threads_where.sh share: busy threads of
# threads_busy.py started and stopped, and questions about a JSON output. Sourced after lib.sh.
busy=$SMTBENCH_ROOT/tests/e2e/threads_busy.py
command -v python3 >/dev/null || skip_all "needs python3 for its busy threads (apt-get install python3)"

# Starts threads_busy.py in the background (arguments after the ready file) and waits until its
# threads are pinned and named (at most 30 s: a loaded machine); sets $pid. A process meant to outlive its checks
# runs for 600 s and is ended by stop_busy (one of 20 s once ended before the text run, on a
# loaded machine); one meant to exit during a 10 s window runs for 5 s after it is ready.
started=()
start_busy() {
	local ready=$t_tmp/ready.$RANDOM
	python3 "$busy" "$ready" "$@" &
	started+=($!)
	await 30 test -s "$ready"
	pid=$(cat "$ready" 2>/dev/null)
}
stop_busy() { for p in "${started[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; started=(); }
trap 'in_main_shell && { stop_busy; [[ -n ${KEEP_TMP:-} ]] || rm -rf "$t_tmp"; }' EXIT

# python3 -c CODE FILE: a question about a JSON output; exits 0 for yes.
ask() { python3 -c "import json, sys; j = json.load(open(sys.argv[1])); $1" "$2"; }
