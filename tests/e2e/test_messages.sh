#!/usr/bin/env bash
# Messages that help (issue 28): each mistake a newcomer makes gets a line that names what is
# wrong and says what to write instead, and nothing is written where the message says so.
source "$(dirname "$0")/lib.sh"

# --beside before '--': it is not an option but the start of the second command, after the first.
check_status 2 "run --beside CMD before '--' is refused" \
	"$SMTBENCH" run --beside gzip -c f -- gzip -c g
check "…saying that it goes after the command, with the form to write" \
	contains "$t_err" "'--beside' goes after the command to run, not among the options: smtbench run [OPTION ...] -- COMMAND [ARG ...] [--beside COMMAND [ARG ...]]"
check "…and not that it is an ambiguous option" eval '! contains "$t_err" ambiguous'
check "…naming the options that begin so" contains "$t_err" "--beside-iters or --beside-kernel"
# The form it gives is one run accepts: the command parses, and only the existing --out stops it.
: >"$t_tmp/a-file"
check_status 2 "…and the form it gives is accepted (only the existing --out stops it)" \
	"$SMTBENCH" run --out "$t_tmp/a-file" -- gzip -c f --beside gzip -c g
check "…which is what it says" contains "$t_err" "already exists and is not a folder"
check_status 2 "an abbreviation of two options is still ambiguous" "$SMTBENCH" run --besid 1
check "…and says so" contains "$t_err" "ambiguous option '--besid'; did you mean --beside-iters or --beside-kernel?"

# A command quoted as one word: no shell splits it, and the message says how to write it.
check_status 2 "run -- 'gzip -c f' (one word) is refused" "$SMTBENCH" run --out "$t_tmp/one-word" -- "gzip -c f"
check "…saying that no shell splits it, and both ways to write it" \
	contains "$t_err" "cannot execute 'gzip -c f': No such file or directory; it is one word holding blanks, and no shell splits it here: write its words apart (gzip -c f, not quoted as one), or run a shell (sh -c 'gzip -c f')"
check "…and nothing is written" test ! -e "$t_tmp/one-word"
check_status 2 "the same after --beside" "$SMTBENCH" run --out "$t_tmp/one-word" -- true --beside "gzip -c f"
check "…says the same" contains "$t_err" "no shell splits it here"
check_status 2 "a command that is simply not there" "$SMTBENCH" run --out "$t_tmp/one-word" -- no-such-command-here
check "…gets no word about blanks" eval '! contains "$t_err" blanks'

# A mistyped placement or kernel gets the nearest names (one function for both: text_suggest).
check_status 2 "run --placements sibbling is refused" "$SMTBENCH" run --placements sibbling --out "$t_tmp/typo"
check "…with a did-you-mean and the list" \
	contains "$t_err" "unknown placement 'sibbling'; did you mean sibling? (the placements are solo, same-pu, sibling, non-sibling and cross-package)"
check_status 2 "run --placements solo,nonsibling" "$SMTBENCH" run --placements solo,nonsibling --out "$t_tmp/typo"
check "…suggests non-sibling" contains "$t_err" "unknown placement 'nonsibling'; did you mean non-sibling?"
check_status 2 "a placement far from every name" "$SMTBENCH" run --placements sideways --out "$t_tmp/typo"
check "…gets the list and no guess" \
	eval 'contains "$t_err" "the placements are solo" && ! contains "$t_err" "did you mean"'
check_status 2 "matrix --placement sibbling" "$SMTBENCH" matrix --placement sibbling --out "$t_tmp/typo"
check "…suggests sibling" contains "$t_err" "'sibbling': did you mean sibling? (use sibling, non-sibling or same-pu)"
check_status 2 "run --kernel nopp" "$SMTBENCH" run --kernel nopp --out "$t_tmp/typo"
check "…suggests nop" contains "$t_err" "unknown kernel 'nopp'; did you mean nop? (\`smtbench run --list-kernels\` lists them)"
check_status 2 "run --beside-kernel mul-latncy" "$SMTBENCH" run --beside-kernel mul-latncy --out "$t_tmp/typo"
check "…suggests mul-latency" contains "$t_err" "unknown kernel 'mul-latncy'; did you mean mul-latency?"
check_status 2 "matrix --kernels nop,mem-chace" "$SMTBENCH" matrix --kernels nop,mem-chace --out "$t_tmp/typo"
check "…suggests mem-chase" contains "$t_err" "--kernels: unknown kernel 'mem-chace'; did you mean mem-chase?"
check_status 2 "run --kernel mul (the start of two kernels' names)" "$SMTBENCH" run --kernel mul --out "$t_tmp/typo"
check "…suggests both" contains "$t_err" "did you mean mul-latency or mul-throughput?"
check "nothing was written by any of them" test ! -e "$t_tmp/typo"

# Ctrl-C while a kernel is calibrated (before the results folder is made): said, and nothing written.
# A kernel of the runner's with a count other than the preflight's 1, while its folder does not
# exist yet: calibration under way (its runs last about 0.1 s each; pgrep is quick enough).
calibrating() { # calibrating RUNNER_PID DIR
	[[ ! -e $2 ]] && pgrep -a -P "$1" | grep -Eq '^[0-9]+ [a-z0-9-]+ ([02-9]|1[0-9])[0-9]*$'
}
# A background job ignores SIGINT; env gives it the default action a foreground Ctrl-C meets.
interrupt_calibration() { # interrupt_calibration DIR COMMAND...: its exit status, or 255
	local dir=$1; shift
	env --default-signal=INT "$SMTBENCH" "$@" --out "$dir" >"$t_tmp/cal.out" 2>"$t_tmp/cal.err" &
	local runner=$! seen=0
	for _ in $(seq 2000); do # 20 s at most
		calibrating "$runner" "$dir" && { seen=1; break; }
		kill -0 "$runner" 2>/dev/null || break
		sleep 0.01
	done
	((seen)) && kill -INT "$runner"
	wait "$runner"; local rc=$?
	((seen)) && return "$rc"
	kill -TERM "$runner" 2>/dev/null; wait "$runner" 2>/dev/null
	return 255
}
interrupt_calibration "$t_tmp/cal-matrix" matrix --placement same-pu --kernels nop,mul-latency,pause --blocks 2
rc=$?
if ((rc == 255)); then
	skip "matrix's calibration was not caught under way within 20 s (too quick here to interrupt)"
else
	check "Ctrl-C during matrix's calibration exits 130 (got $rc)" test "$rc" = 130
	check "…saying what it interrupted and that nothing was written" \
		grep -q "interrupted by SIGINT while calibrating kernel [a-z-]* on CPU [0-9]*, before the run began: nothing was written (no results folder was made)" "$t_tmp/cal.err"
	check "…and nothing was" test ! -e "$t_tmp/cal-matrix"
fi

# --rope's help, from the one definition (CLI_ROPE_HELP): the ROPE is a ratio between
# 1/(1+PCT/100) and 1+PCT/100, symmetric in log, not ±PCT% of the ratio.
for command in analyze matrix report; do
	rope=$("$SMTBENCH" "$command" --help | sed -n '/^ *--rope PCT/,/^ *--[a-z]/p' | tr -s ' \n' ' ')
	check "$command --help says what --rope means now" contains "$rope" "a ratio between 1/(1+PCT/100) and 1+PCT/100, symmetric in log"
	check "…and no longer ±PCT%" eval '! contains "$rope" "±PCT%"'
done
check "the man page says it for each of them" \
	test "$(grep -c '^Region of practical equivalence: a ratio between 1/(1+PCT/100) and 1+PCT/100, symmetric in log' "$SMTBENCH_ROOT/cli/smtbench.1")" = 3

# --out whose parent is missing: refused by run, matrix and report alike (one check), naming the
# parent and what to do, before anything is written; none of them makes parents.
for command in run matrix; do
	check_status 2 "$command --out with a missing parent is refused" \
		"$SMTBENCH" "$command" --placement"$([[ $command == run ]] && echo s)" same-pu --out "$t_tmp/no-such/deeper/x"
	check "…naming the parent and mkdir -p" contains "$t_err" \
		"--out $t_tmp/no-such/deeper/x: the folder $t_tmp/no-such/deeper, where $t_tmp/no-such/deeper/x would go, does not exist; make it first (mkdir -p $t_tmp/no-such/deeper) or choose another"
	check "…and makes nothing" test ! -e "$t_tmp/no-such"
done
check_status 2 "report --out with a missing parent is refused the same way" \
	"$SMTBENCH" report "$SMTBENCH_FIXTURES/folders/run" --out "$t_tmp/no-such/x"
check "…in the same words" contains "$t_err" \
	"--out $t_tmp/no-such/x: the folder $t_tmp/no-such, where $t_tmp/no-such/x would go, does not exist; make it first (mkdir -p $t_tmp/no-such)"
: >"$t_tmp/plain-file"
check_status 2 "run --out under a file is refused" "$SMTBENCH" run --out "$t_tmp/plain-file/x"
check "…saying the parent is no folder" contains "$t_err" "$t_tmp/plain-file, where $t_tmp/plain-file/x would go, is not a folder"

# A workload that fails: the message quotes the first line of its error output, escaped and cut.
check_status 1 "a command that fails every trial stops the run" \
	"$SMTBENCH" run --placements solo --blocks 2 --warmup-blocks 0 --out "$t_tmp/fails" -- \
	sh -c 'printf "boom: \033[31mred\nsecond line\n" >&2; exit 3'
check "…quoting the first line of its error output, escaped" contains "$t_err" \
	"every trial of the first block failed; stopping. The workloads' error output begins \"boom: \\x1b[31mred\" (all of it is in $t_tmp/fails/workload-stderr.log)"
check "…and only the first" eval '! contains "$t_err" "second line"'
long=$(printf 'x%.0s' $(seq 300))
check_status 1 "a command whose error line is 300 bytes long" \
	"$SMTBENCH" run --placements solo --blocks 2 --warmup-blocks 0 --out "$t_tmp/fails-long" -- \
	sh -c "echo $long >&2; exit 3"
check "…is quoted up to 200 bytes, then '...'" contains "$t_err" "begins \"${long:0:200}...\" (all of it"
check "…and no further" eval '! contains "$t_err" "${long:0:201}"'

done_testing
