#!/usr/bin/env bash
# The conventions every command shares (issue 19), all read from the one command table in
# cli/commands.c: -V/--version and -h/--help everywhere, `smtbench help CMD`, one short letter per
# long option in every command that has it, a suggestion for an unknown or ambiguous option, one
# line for an unknown command, --blocks/--warmup-blocks with --trials/--warmup as exact aliases,
# contrib/slurm/submit.sh -h, and the bash, zsh and fish completions generated from the table.
source "$(dirname "$0")/lib.sh"

cd "$t_tmp" || exit 1 # a run that wrongly went ahead would write results/ here
version=$("$SMTBENCH" --version)
check "smtbench --version names it: $version" grep -Eq '^smtbench [0-9]' <<<"$version"
check_status 0 "smtbench -V" "$SMTBENCH" -V
check "…prints what --version prints" test "$t_out" = "$version"
"$SMTBENCH" --help >"$t_tmp/top-help"
check_status 0 "smtbench help" "$SMTBENCH" help
check "…prints what --help prints" test "$t_out" = "$(cat "$t_tmp/top-help")"

# The table itself: "COMMAND --LONG -L|- value|flag" per option.
check_status 0 "smtbench completions options prints the command table" "$SMTBENCH" completions options
table=$t_out
commands=$(awk '{ print $1 }' <<<"$table" | uniq | tr '\n' ' ')
listed=$(grep -E '^  [a-z]+ +[^ ]' "$t_tmp/top-help" | grep -v '^  smtbench' | awk '{ print $1 }' | tr '\n' ' ')
check "…with every command smtbench --help lists, in its order: $commands" test "$commands" = "$listed"
for command in topo run advise analyze report fleet completions; do
	check "…among them $command" contains " $commands" " $command "
done

# -V, --version, -h, --help and `help CMD` on every command.
for command in $commands; do
	check_status 0 "smtbench $command -V" "$SMTBENCH" "$command" -V
	check "…is the version" test "$t_out" = "$version"
	check_status 0 "smtbench $command --version" "$SMTBENCH" "$command" --version
	check "…is the version" test "$t_out" = "$version"
	check_status 0 "smtbench $command -h" "$SMTBENCH" "$command" -h
	check "…begins with its usage" grep -q "^usage: smtbench $command" <<<"$t_out"
	help_text=$t_out
	check_status 0 "smtbench help $command" "$SMTBENCH" help "$command"
	check "…prints what smtbench $command -h prints" test "$t_out" = "$help_text"
	check_status 0 "smtbench $command --help" "$SMTBENCH" "$command" --help
	check "…the same" test "$t_out" = "$help_text"
	# Every short form the table gives this command is in its help, as "-L, --LONG".
	missing=""
	while read -r _ long short _; do
		[[ $short == - || $long == --help || $long == --version ]] && continue
		grep -q -- "$short, $long\b" <<<"$help_text" || missing+=" $short,$long"
	done < <(grep "^$command " <<<"$table")
	check "…shows every short form of its options${missing:+ (missing:$missing)}" test -z "$missing"
done
check "a letter is one option in every command (the table: letter → one long name)" \
	test "$(awk '$3 != "-" { print $3, $2 }' <<<"$table" | sort -u | awk '{ print $1 }' | uniq -d)" = ""
check "-j is --json, -o is --out wherever those exist" \
	test "$(awk '$2 == "--json" && $3 != "-j" || $2 == "--out" && $3 != "-o"' <<<"$table")" = ""

# A short letter does what its long option does.
check_status 0 "topo -j" "$SMTBENCH" topo -j --topology "pack:1 core:2 pu:2"
short=$t_out
check_status 0 "topo --json" "$SMTBENCH" topo --json --topology "pack:1 core:2 pu:2"
check "…print the same" test "$short" = "$t_out"
printf '1.0\n1.1\n0.9\n1.05\n' >"$t_tmp/a.txt"
printf '2.0\n2.1\n1.9\n2.05\n' >"$t_tmp/b.txt"
check_status 0 "analyze -j FILE_A FILE_B" "$SMTBENCH" analyze -j "$t_tmp/a.txt" "$t_tmp/b.txt"
short=$t_out
check_status 0 "analyze --json FILE_A FILE_B" "$SMTBENCH" analyze --json "$t_tmp/a.txt" "$t_tmp/b.txt"
check "…print the same JSON" test "$short" = "$t_out"
check "…which parses" python3 -c 'import json, sys; json.loads(sys.argv[1])' "$t_out"

# A bad option: one line, exit 2, naming the command, with the closest names.
one_line() { [[ $(wc -l <<<"$1") == 1 && -n $1 ]]; }
check_status 2 "run --trial 3 (a prefix of three options)" "$SMTBENCH" run --trial 3
check "…one line" one_line "$t_err"
check "…says it is ambiguous and suggests --trials and --trial-time: $t_err" \
	contains "$t_err" "ambiguous option '--trial'; did you mean --trials, --trial-time or --trial-timeout?"
check "…naming the command" contains "$t_err" "'smtbench run --help'"
check "…and writes nothing" test ! -e "$t_tmp/results"
check_status 2 "run --trails 3 (a typo)" "$SMTBENCH" run --trails 3
check "…one line: did you mean --trials?" eval 'one_line "$t_err" && contains "$t_err" "unknown option '\''--trails'\''; did you mean --trials?"'
check_status 2 "analyze --jsno" "$SMTBENCH" analyze --jsno "$t_tmp/a.txt" "$t_tmp/b.txt"
check "…did you mean --json?, naming analyze" eval 'one_line "$t_err" && contains "$t_err" "did you mean --json?" && contains "$t_err" "smtbench analyze --help"'
check_status 2 "fleet --frobnicate (nothing close)" "$SMTBENCH" fleet --frobnicate "$t_tmp"
check "…one line, no suggestion" eval 'one_line "$t_err" && contains "$t_err" "unknown option '\''--frobnicate'\''" && ! contains "$t_err" "did you mean"'
check_status 2 "topo --json=yes" "$SMTBENCH" topo --json=yes
check "…says --json takes no value" eval 'one_line "$t_err" && contains "$t_err" "'\''--json'\'' takes no value"'
check_status 2 "topo --js=yes (an abbreviation)" "$SMTBENCH" topo --js=yes
check "…says --json takes no value" contains "$t_err" "'--json' takes no value"
check_status 0 "run --warm 0 (an abbreviation of two names of one option)" \
	"$SMTBENCH" run --placements solo --warm 0 --blocks 1 --iters 1000 --out "$t_tmp/warm"
check_status 2 "smtbench r (a prefix of two commands)" "$SMTBENCH" r
check "…did you mean run or report?" contains "$t_err" "unknown command 'r'; did you mean run or report?"
check_status 2 "run --out with no value" "$SMTBENCH" run --out
check "…says it needs a value" eval 'one_line "$t_err" && contains "$t_err" "needs a value"'

# An unknown command: one line pointing to --help, a suggestion when close.
check_status 2 "smtbench foo" "$SMTBENCH" foo
check "…one line on stderr, pointing to smtbench --help, nothing on stdout: $t_err" eval '
	one_line "$t_err" && contains "$t_err" "unknown command '\''foo'\''" &&
	contains "$t_err" "smtbench --help" && test -z "$t_out"'
check_status 2 "smtbench rn" "$SMTBENCH" rn
check "…did you mean run?" eval 'one_line "$t_err" && contains "$t_err" "did you mean run?"'
check_status 2 "smtbench analyse (the British spelling)" "$SMTBENCH" analyse
check "…did you mean analyze?" contains "$t_err" "did you mean analyze?"
check_status 2 "smtbench help nope" "$SMTBENCH" help nope
check "…one line" eval 'one_line "$t_err" && contains "$t_err" "unknown command '\''nope'\''"'
check_status 2 "smtbench --frobnicate" "$SMTBENCH" --frobnicate
check "…one line" one_line "$t_err"

# --blocks and --warmup-blocks; --trials and --warmup as aliases that do exactly the same.
run_plan() { # DIR OPTIONS...: a short run; its plan line (the one that counts the trials)
	local dir=$1; shift
	"$SMTBENCH" run --placements solo,same-pu --iters 200000 --seed 7 "$@" --out "$dir" \
		>"$dir.out" 2>"$dir.err" || return 1
	grep 'measured block' "$dir.out"
}
rows() { python3 -c 'import csv, sys; print(sum(1 for _ in csv.DictReader(open(sys.argv[1]))))' "$1/samples.csv"; }
settings() { python3 -c 'import json, sys; m = json.load(open(sys.argv[1] + "/meta.json")); s = m["settings"]; print(s.get("trials"), s.get("warmup"), m.get("seed", s.get("seed")))' "$1"; }
plan_blocks=$(run_plan "$t_tmp/blocks" --blocks 3 --warmup-blocks 1)
check "run --blocks 3 --warmup-blocks 1: $plan_blocks" test -n "$plan_blocks"
check "…the plan line says what a block is" \
	contains "$plan_blocks" "8 trials: 1 warm-up + 3 measured blocks of 2 (each block runs every placement once), seed 7"
plan_trials=$(run_plan "$t_tmp/trials" --trials 3 --warmup 1)
check "run --trials 3 --warmup 1 prints the same plan line" test "$plan_trials" = "$plan_blocks"
plan_short=$(run_plan "$t_tmp/short" -b 3 -w 1)
check "run -b 3 -w 1 prints the same plan line" test "$plan_short" = "$plan_blocks"
check "…all three write the same number of samples ($(rows "$t_tmp/blocks"))" eval '
	test "$(rows "$t_tmp/blocks")" = "$(rows "$t_tmp/trials")" &&
	test "$(rows "$t_tmp/blocks")" = "$(rows "$t_tmp/short")" && test "$(rows "$t_tmp/blocks")" -gt 0'
check "…and the same settings in meta.json ($(settings "$t_tmp/blocks"))" eval '
	test "$(settings "$t_tmp/blocks")" = "$(settings "$t_tmp/trials")" &&
	test "$(settings "$t_tmp/blocks")" = "$(settings "$t_tmp/short")"'
check_status 0 "run -o DIR is run --out DIR" "$SMTBENCH" run --placements solo -b 1 -w 0 --iters 1000 -o "$t_tmp/o"
check "…which wrote there" test -s "$t_tmp/o/samples.csv"
check_status 2 "run --blocks 3 --duration 1m" "$SMTBENCH" run --blocks 3 --duration 1m
check "…names --blocks (--trials)" contains "$t_err" "--blocks (--trials) and --duration exclude each other"
check_status 2 "run --blocks x" "$SMTBENCH" run --blocks x
check "…names --blocks, as typed" contains "$t_err" "--blocks: 'x' is not a whole number"
check_status 2 "run --trials x" "$SMTBENCH" run --trials x
check "…names --trials, as typed" contains "$t_err" "--trials: 'x' is not a whole number"
"$SMTBENCH" run --help >"$t_tmp/run-help"
check "run --help says what a block is" grep -q "blocks (each runs every placement once" "$t_tmp/run-help"
check "…and keeps --trials and --warmup as the former names" eval '
	tr -s " \n" " " <"$t_tmp/run-help" | grep -q -- "--trials N is the same option" &&
	tr -s " \n" " " <"$t_tmp/run-help" | grep -q -- "--warmup N is the same option"'

# contrib/slurm/submit.sh -h: its usage, exit 0, not a bash error.
submit=$SMTBENCH_ROOT/contrib/slurm/submit.sh
for flag in -h --help; do
	check_status 0 "submit.sh $flag" env -u FLEET_DIR "$submit" "$flag"
	check "…prints its usage, nothing on stderr" eval 'grep -q "^usage: .*submit.sh fleet|array" <<<"$t_out" && test -z "$t_err"'
done
check_status 2 "submit.sh with no arguments: its usage on stderr" env -u FLEET_DIR "$submit"
check "…usage" contains "$t_err" "usage:"

# The completions: each shell's script lists every option of every command of the table (and
# its short form), and nothing the table does not have.
check_status 2 "completions with no shell" "$SMTBENCH" completions
check_status 2 "completions tcsh" "$SMTBENCH" completions tcsh
for shell in bash zsh fish; do
	"$SMTBENCH" completions $shell >"$t_tmp/completion.$shell"
	check "completions $shell: the script lists every command and every option of the table" \
		python3 - "$shell" "$t_tmp/completion.$shell" "$table" <<'EOF'
import re, sys
shell, path, table = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(path).read()
want = {}
for line in table.splitlines():
    command, long, short, _ = line.split()
    want.setdefault(command, set()).add(long)
    if short != "-":
        want[command].add(short)
got = {}
for command in want:
    if shell == "bash":
        m = re.search(r"^\t%s\)\n\t\twords='([^']*)'" % re.escape(command), text, re.M)
        got[command] = set(m.group(1).split()) if m else set()
    elif shell == "zsh":
        m = re.search(r"^\t%s\)\n(.*?)^\t\t;;" % re.escape(command), text, re.M | re.S)
        body = m.group(1) if m else ""
        got[command] = set(re.findall(r"'(--?[A-Za-z][A-Za-z-]*)[=+]?(?:\[(?:[^]\\]|\\.)*\])?[:']", body))
    else:
        got[command] = set()
        cond = "'__fish_seen_subcommand_from %s;" % command
        for line in text.splitlines():
            if cond in line:
                m = re.search(r" -l (\S+)", line)
                if m:
                    got[command].add("--" + m.group(1))
                m = re.search(r" -s (\S)", line)
                if m:
                    got[command].add("-" + m.group(1))
    missing, extra = want[command] - got[command], got[command] - want[command]
    if missing or extra:
        print("# %s %s: missing %s, not in the table %s" % (shell, command, sorted(missing), sorted(extra)))
        sys.exit(1)
    names = re.findall(r"\b%s\b" % re.escape(command), text)
    if not names:
        print("# %s: command %s missing" % (shell, command))
        sys.exit(1)
EOF
done
# bash: the function completes as bash would call it.
# It is called as bash calls it: the command, the word to complete (empty after a '=', where bash
# splits --option=VALUE) and the word before.
bash_calls='source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); cur=${COMP_WORDS[-1]}; [[ $cur == = ]] && cur=; _smtbench smtbench "$cur" "${COMP_WORDS[-2]}"'
complete_bash() { # WORDS...: what _smtbench offers for the last word
	bash -c "$bash_calls"'; echo "${COMPREPLY[*]}"' _ "$t_tmp/completion.bash" "$@"
}
check "bash: smtbench ru<TAB> → run" test "$(complete_bash smtbench ru)" = "run"
check "bash: smtbench run --bl<TAB> → --blocks" test "$(complete_bash smtbench run --bl)" = "--blocks"
check "bash: smtbench analyze --js<TAB> → --json" test "$(complete_bash smtbench analyze --js)" = "--json"
check "bash: smtbench help fl<TAB> → fleet" test "$(complete_bash smtbench help fl)" = "fleet"
check "bash: nothing offered for --blocks's value" test -z "$(complete_bash smtbench run --blocks '')"
kernels=$("$SMTBENCH" run --list-kernels | awk 'NR > 1 { print $1 }' | tr '\n' ' ')
check "bash: smtbench run -k <TAB> → the kernels of run --list-kernels ($kernels)" \
	test "$(complete_bash smtbench run -k '') " = "$kernels"
check "bash: smtbench run --placements s<TAB> → the placements that begin with s" \
	test "$(complete_bash smtbench run --placements s)" = "solo same-pu sibling"
# File names are offered where an option (or the operand) is a file, each as one word: never
# split at a blank nor glob-expanded (issue 29, item 9); matrix --commands FILE takes a file; a
# command of the user's follows '--', so nothing is offered after it.
complete_lines() { # WORDS...: what _smtbench offers, one entry a line
	(cd "$t_tmp/names" && bash -c "$bash_calls"'; printf "%s\n" "${COMPREPLY[@]}"' _ "$t_tmp/completion.bash" "$@")
}
mkdir -p "$t_tmp/names/a dir" && touch "$t_tmp/names/my results.csv" "$t_tmp/names/x*" "$t_tmp/names/xa"
check "bash: analyze my<TAB> → 'my results.csv', one word" test "$(complete_lines smtbench analyze my)" = "my results.csv"
check "bash: analyze x*<TAB> → the file 'x*' alone, not glob-expanded to xa as well" \
	test "$(complete_lines smtbench analyze 'x*')" = "x*"
check "bash: matrix --commands my<TAB> → the file" test "$(complete_lines smtbench matrix --commands my)" = "my results.csv"
check "bash: run --out a<TAB> → the folder 'a dir', one word" test "$(complete_lines smtbench run --out a)" = "a dir"
check "bash: nothing after --, neither files" test -z "$(complete_lines smtbench run -- x)"
check "bash: …nor smtbench's options" test -z "$(complete_lines smtbench run -- sh --bl)"
# The word comes as typed: bash inserts a common part of two names as my\ results, and the next
# tab must still find them; --option=VALUE reaches the function split at '='.
check "bash: analyze my\\ re<TAB> → 'my results.csv' (the backslash is the typist's quoting)" \
	test "$(complete_lines smtbench analyze 'my\ re')" = "my results.csv"
check "bash: matrix --commands=my<TAB> → the file" test "$(complete_lines smtbench matrix --commands = my)" = "my results.csv"
check "bash: matrix --commands=<TAB> → the files" contains "$(complete_lines smtbench matrix --commands =)" "my results.csv"
check "bash: run --placements=so<TAB> → solo" test "$(complete_lines smtbench run --placements = so)" = "solo"
check "bash: nothing for a name with '=' in it that is no option (analyze k=<TAB>)" \
	test -z "$(complete_lines smtbench analyze k =)"
# What bash itself does with the replies, on a terminal: file names quoted as inserted, a command
# or a placement named like a folder here left without a '/', the next tab after a common part.
mkdir -p "$t_tmp/tty/run" "$t_tmp/tty/sibling" &&
	touch "$t_tmp/tty/my results.csv" "$t_tmp/tty/my results2.csv" "$t_tmp/tty/x*" "$t_tmp/tty/xa"
tty_lines=('smtbench ru\t' 'smtbench run --placements sib\t' 'smtbench analyze my\t' 'smtbench analyze my\ results.\t'
	'smtbench matrix --commands=my\ results.\t' 'smtbench analyze x\*\t' 'smtbench run -- my\t')
tty_want=$'smtbench run \nsmtbench run --placements sibling \nsmtbench analyze my\\ results\nsmtbench analyze my\\ results.csv \nsmtbench matrix --commands=my\\ results.csv \nsmtbench analyze x\\* \nsmtbench run -- my'
got=$(python3 "$SMTBENCH_ROOT/tests/e2e/pty_complete.py" bash "$t_tmp/completion.bash" "$t_tmp/tty" 60 "${tty_lines[@]}" 2>&1)
check "bash on a terminal: ru<TAB> → 'run ' beside a folder run/; my<TAB> → my\\ results, then my\\ results.<TAB> → the file; --commands=my…<TAB>; x\\*; nothing after -- (got: ${got//$'\n'/ | })" \
	test "$got" = "$tty_want"
# Every option the table says takes a file or a folder gets file names in every shell.
check "zsh and fish: every file or folder option is completed with file or folder names" \
	python3 - "$t_tmp/completion.zsh" "$t_tmp/completion.fish" "$table" <<'EOF2'
import re, sys
zsh, fish, table = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3]
bad = []
for line in table.splitlines():
    command, long, short, kind = line.split()
    if kind not in ("file", "dir"):
        continue
    m = re.search(r"^\t%s\)\n(.*?)^\t\t;;" % re.escape(command), zsh, re.M | re.S)
    want = ":_files'" if kind == "file" else ":_files -/'"
    if not m or not re.search(r"'%s=\[(?:[^]\\]|\\.)*\]:value%s" % (re.escape(long), re.escape(want)), m.group(1)):
        bad.append("zsh %s %s" % (command, long))
    f = [l for l in fish.splitlines() if "from %s;" % command in l and " -l %s " % long[2:] in l]
    want = " -r -F" if kind == "file" else "__fish_complete_directories"
    if len(f) != 1 or want not in f[0]:
        bad.append("fish %s %s" % (command, long))
print("# not completed as a path:", bad) if bad else None
sys.exit(1 if bad or "matrix --commands file" not in table.replace(" - ", " ") else 0)
EOF2
check "zsh and fish describe each option by its sentence's first clause (--blocks: measured blocks)" eval \
	'grep -qF "'"'"'--blocks=[measured blocks]:value: '"'"'" "$t_tmp/completion.zsh" &&
	 grep -q -- "from run; .* -l blocks -s b -x -d '"'"'measured blocks'"'"'" "$t_tmp/completion.fish"'
if command -v zsh >/dev/null 2>&1; then
	check "zsh -n reads the zsh script" zsh -n "$t_tmp/completion.zsh"
	got=$(python3 "$SMTBENCH_ROOT/tests/e2e/pty_complete.py" zsh "$t_tmp/completion.zsh" "$t_tmp/tty" 60 \
		'smtbench matrix --commands my\ results.\t' 'smtbench matrix --commands=my\ results.\t' \
		'smtbench run --out=ru\t' 'smtbench run --pl\t' 'smtbench run -- my\t' 2>&1)
	check "zsh on a terminal: matrix --commands my…<TAB> and --commands=my…<TAB> → the file, quoted; --out=ru<TAB> → run/; --pl<TAB> → --placements=; nothing after -- (got: ${got//$'\n'/ | })" \
		test "$got" = $'smtbench matrix --commands my\\ results.csv \nsmtbench matrix --commands=my\\ results.csv \nsmtbench run --out=run/\nsmtbench run --placements=\nsmtbench run -- my'
else
	skip "zsh is not installed (apt-get install zsh): the zsh script is not parsed"
fi
if command -v fish >/dev/null 2>&1; then
	check "fish -n reads the fish script" fish -n "$t_tmp/completion.fish"
	got=$(fish -c 'source $argv[1]; complete -C"smtbench run --bl"' "$t_tmp/completion.fish" | cut -f1)
	check "fish: smtbench run --bl<TAB> → --blocks ($got)" test "$got" = "--blocks"
	got=$(fish -c 'source $argv[1]; complete -C"smtbench fleet -"' "$t_tmp/completion.fish" | cut -f1 | tr '\n' ' ')
	check "fish: smtbench fleet -<TAB> → its options and their letters ($got)" \
		test "$got" = "-h -j -o -V --help --json --out --version "
	fish_complete() { (cd "$t_tmp/names" && fish -c 'source $argv[1]; complete -C$argv[2]' "$t_tmp/completion.fish" "$1" | cut -f1); }
	check "fish: matrix --commands my<TAB> → 'my results.csv'" test "$(fish_complete "smtbench matrix --commands my")" = "my results.csv"
	check "fish: analyze x<TAB> → the files x* and xa, each once" test "$(fish_complete "smtbench analyze x" | sort | tr '\n' ' ')" = "x* xa "
	check "fish: nothing after --" test -z "$(fish_complete "smtbench run -- x")"
else
	skip "fish is not installed (apt-get install fish): the fish script is not run"
fi
done_testing
