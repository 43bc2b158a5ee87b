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

done_testing
