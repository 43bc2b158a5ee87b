# lib.sh — helpers for end-to-end tests written in bash; same TAP lines as tests/harness.h.
# Sourced by tests/e2e/test_*.sh, which tests/run.sh runs with SMTBENCH pointing at the binary.
set -u
: "${SMTBENCH:?run through tests/run.sh or make test}"
t_n=0 t_fail=0 t_skip=0
t_tmp=$(mktemp -d "${TMPDIR:-/tmp}/smtbench-e2e.XXXXXX")
trap '[[ -n ${KEEP_TMP:-} ]] || rm -rf "$t_tmp"' EXIT

ok()     { t_n=$((t_n + 1)); echo "ok $t_n - $*"; }
not_ok() { t_n=$((t_n + 1)); t_fail=$((t_fail + 1)); echo "not ok $t_n - $*"; }
# skip "why": a check that cannot run here; counted as skipped, never as passed. Say what is
# missing and how to get it.
skip()   { t_n=$((t_n + 1)); t_skip=$((t_skip + 1)); echo "ok $t_n - # SKIP $*"; }
# skip_all "why": this whole script cannot run here (TAP's "1..0 # SKIP why"); exits 0.
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
# check "what" command...: passes when the command succeeds
check()  { local what=$1; shift; if "$@"; then ok "$what"; else not_ok "$what"; fi; }
# check_status WANT "what" command...: runs the command, passes when its exit status is WANT.
# Its stdout and stderr are kept in $t_out and $t_err for further checks.
check_status() {
	local want=$1 what=$2; shift 2
	"$@" >"$t_tmp/out" 2>"$t_tmp/err"
	local rc=$?
	t_out=$(cat "$t_tmp/out"); t_err=$(cat "$t_tmp/err")
	if ((rc == want)); then ok "$what (exit $rc)"; else
		not_ok "$what: exit $rc, want $want; stderr: $(head -c 300 "$t_tmp/err")"; fi
}
contains() { [[ $1 == *"$2"* ]]; }
# done_testing: the plan (TAP's "1..N", at the end) and this script's own count line.
done_testing() {
	echo "1..$t_n"
	echo "# $(basename "$0"): $((t_n - t_fail - t_skip)) passed, $t_fail failed, $t_skip skipped"
	((t_fail == 0))
}
