# test_golden.sh — what every reading command prints and writes over fixed results folders is
# what tests/golden/reports/ holds: analyze (text and --json), report (the terminal summary,
# report.md, report.json, report.html and the SVGs; a matrix's too), fleet (text, --json,
# fleet.md, fleet.json, fleet.html). Text, Markdown and JSON must match exactly (only the output
# folder and the version are normalised, by tests/golden/reports.sh); HTML and SVG by their
# structure: every element with its id and class, and every text, in order
# (tests/golden/structure.py), so that a renderer may move a thing but not change what a person
# reads.
#
# An output changed on purpose: tests/golden/regen.sh (or SMTBENCH_UPDATE_GOLDEN=1 make test
# T=test_golden) rewrites the golden files in the same commit.
source "$(dirname "$0")/lib.sh"
golden=$SMTBENCH_ROOT/tests/golden/reports
tools=$SMTBENCH_ROOT/tests/golden
command -v python3 >/dev/null || skip_all "the structure of HTML and SVG is read by python3 (apt-get install python3)"

out=$t_tmp/reports
bash "$tools/reports.sh" "$out"
if [[ ${SMTBENCH_UPDATE_GOLDEN:-} == 1 ]]; then
	rm -rf "$golden"
	cp -r "$out" "$golden"
fi

list() { (cd "$1" && find . -type f | LC_ALL=C sort); }
check "the same files are printed and written as the golden ones" \
	diff <(list "$golden") <(list "$out")
if ! diff <(list "$golden") <(list "$out") >/dev/null; then
	diff <(list "$golden") <(list "$out") | head -n 20 | sed 's/^/# /'
fi

# The structure of every page and plot, both sides, in one python3 each.
python3 "$tools/structure.py" "$golden" "$t_tmp/want-structure"
python3 "$tools/structure.py" "$out" "$t_tmp/new-structure"
while IFS= read -r file; do
	file=${file#./}
	new=$out/$file want=$golden/$file
	[[ -f $new ]] || continue # said above
	case $file in
	*.html | *.svg)
		if diff -u "$t_tmp/want-structure/$file.txt" "$t_tmp/new-structure/$file.txt" \
			>"$t_tmp/diff"; then
			ok "$file: the same elements, ids and text"
		else
			not_ok "$file: its structure differs from the golden one"
			head -n 30 "$t_tmp/diff" | sed 's/^/# /'
		fi ;;
	*)
		if diff -u "$want" "$new" >"$t_tmp/diff"; then
			ok "$file: the same text"
		else
			not_ok "$file: differs from the golden one"
			head -n 30 "$t_tmp/diff" | sed 's/^/# /'
		fi ;;
	esac
done < <(list "$golden")

done_testing
