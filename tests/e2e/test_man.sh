#!/usr/bin/env bash
# The man page (cli/smtbench.1): its generated parts (SYNOPSIS, each command's options, EXAMPLES)
# are what the option tables give (`make man` writes them), it renders without warnings, its
# SYNOPSIS is what `smtbench --help` prints, and it names every option each command's --help
# lists.
source "$(dirname "$0")/lib.sh"

page=$SMTBENCH_ROOT/cli/smtbench.1
check "the man page exists" test -s "$page"
"$SMTBENCH" --refresh-man-page <"$page" >"$t_tmp/refreshed.1"
check "its generated parts are what the option tables give (else: make man)" \
	diff "$page" "$t_tmp/refreshed.1"
[[ -s $t_tmp/refreshed.1 ]] && diff "$page" "$t_tmp/refreshed.1" | head -n 20 | sed 's/^/# /'
for part in synopsis topo threads run matrix advise analyze report fleet completions "every command" examples; do
	check "…the part '$part' is generated" grep -qxF ".\\\" generated: $part" "$page"
done
# A table that disagrees with the page: its option renamed in the page is written back.
sed 's/^\\fB\\-\\-for\\fR \\fIDURATION\\fR$/\\fB\\-\\-four\\fR/' "$page" >"$t_tmp/stale.1"
check "…a page whose option differs from its table is not what the table gives" \
	eval '! cmp -s "$t_tmp/stale.1" "$page" && "$SMTBENCH" --refresh-man-page <"$t_tmp/stale.1" | cmp -s - "$page"'
printf '.\\" generated: nosuch\n.\\" end of generated: nosuch\n' >"$t_tmp/unknown.1"
check_status 1 "a generated part that no table has is refused" "$SMTBENCH" --refresh-man-page <"$t_tmp/unknown.1"
check "…naming it" contains "$t_err" "'nosuch'"
# usage lines of a --help text, leading blanks and the "usage:" label removed.
usage_lines() { sed -n '/^usage:/,/^$/p' | sed -e 's/^usage://' -e 's/^ *//' -e '/^$/d'; }

# The page says every command takes -h and --help: each prints its help and exits 0.
for command in topo threads run matrix advise analyze report fleet completions; do
	"$SMTBENCH" "$command" --help >"$t_tmp/long.$command" 2>&1
	check_status 0 "smtbench $command -h" "$SMTBENCH" "$command" -h
	check "... prints what --help prints" test "$t_out" = "$(cat "$t_tmp/long.$command")"
done

if ! command -v man >/dev/null 2>&1; then
	skip "man is not installed (apt-get install man-db): the page is not rendered or compared"
	done_testing
	exit 0
fi
render() { LC_ALL=C MANWIDTH=200 man --warnings -l "$page" 2>"$t_tmp/man.err" | col -bx; }
rendered=$(render)
check "man --warnings -l renders it without a warning" test ! -s "$t_tmp/man.err"
[[ -s $t_tmp/man.err ]] && sed 's/^/# /' "$t_tmp/man.err"
synopsis=$(sed -n '/^SYNOPSIS/,/^[A-Z]/p' <<<"$rendered" | sed -e '1d;$d' -e 's/^ *//' -e '/^$/d')
"$SMTBENCH" --help >"$t_tmp/help"
check "its SYNOPSIS is, line for line, the usage of smtbench --help" \
	diff <(usage_lines <"$t_tmp/help") <(echo "$synopsis")
for command in topo threads run matrix advise analyze report fleet completions; do
	"$SMTBENCH" "$command" --help >"$t_tmp/help.$command"
	# The command's own usage: the same forms, each indented after "usage: ".
	check "smtbench $command --help's usage is the page's $command lines" \
		diff <(usage_lines <"$t_tmp/help.$command") \
		     <(awk -v c="smtbench $command " 'index($0, "smtbench ") == 1 { on = index($0, c) == 1 } on' <<<"$synopsis")
	missing=""
	for option in $(sed -n '/^Options:/,/^$/p' "$t_tmp/help.$command" | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		[[ $option == --help ]] && continue
		grep -Eq -- "^ *(-[a-zA-Z], )?$option\b" <<<"$rendered" || missing+=" $option"
	done
	check "every option of smtbench $command --help is described in the page${missing:+ (missing:$missing)}" \
		test -z "$missing"
done
for section in NAME SYNOPSIS DESCRIPTION COMMANDS FILES "EXIT STATUS" EXAMPLES; do
	check "section $section" grep -qx "$section" <<<"$rendered"
done
done_testing
