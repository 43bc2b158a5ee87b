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

done_testing
