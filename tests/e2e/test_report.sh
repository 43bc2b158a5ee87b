#!/usr/bin/env bash
# End to end: `smtbench report DIR` on the seed's example and on a fresh small run; the SVGs are
# well-formed XML; the numbers of the terminal summary, report.md and report.json agree; and
# report.html, opened in headless Chromium, shows the verdict and every plot with no console
# errors.
source "$(dirname "$0")/lib.sh"

# agree DIR SUMMARY_FILE: every placement's n, mean and interval, and the headline, read back
# from the terminal summary and report.md, match report.json to the digits printed.
agree() {
	python3 - "$1" "$2" <<'EOF'
import json, re, sys
d, summary_path = sys.argv[1], sys.argv[2]
rep = json.load(open(d + "/report.json"))
term = open(summary_path, encoding="utf-8").read()
# The summary's own part: `run` prints its plan (with placement names) before it.
term = term[term.index("smtbench report: "):]
md = open(d + "/report.md", encoding="utf-8").read()

def close(text, value):
    """text printed from value: equal within half a unit of its last digit."""
    if text == "n/a":
        return value is None
    decimals = len(text.split(".")[1]) if "." in text and "e" not in text else 0
    tol = 0.5 * 10 ** -decimals * 1.001 + 1e-12 if "e" not in text else abs(value) * 1e-3
    return abs(float(text) - value) <= tol

h = rep["headline"]
c = rep["analysis"]["comparisons"][h["comparison"]]
assert c["label"] == h["label"] and c["a"]["name"] == h["a"], (c["label"], h)
assert c["ratio_mean"] == h["ratio_mean"] and c["p_a_gt_b"] == h["p_slower"], "headline vs analysis"
assert ("Answer: " + h["sentence"] + "\n") in term, "terminal headline"
assert ("**Answer:** " + h["sentence"] + "\n") in md, "report.md headline"
# The headline in one of its four forms: ratio or difference, decided or not. Every number it
# prints must match report.json's analysis (ratio_* or diff_mean / diff_ci).
N = r"(-?[0-9.e+-]+?)"
IV = N + r"(?:–| to )" + N
sentence = h["sentence"]
forms = 0
m = re.search(N + r"× (slower|faster) than \S+ \(95% CI " + IV + r"\); P\(slower\) = ([0-9.]+)",
              sentence)
if m:
    r, lo, hi = c["ratio_mean"], c["ratio_ci"][0], c["ratio_ci"][1]
    if m.group(2) == "faster":
        r, lo, hi = 1 / r, 1 / hi, 1 / lo
    assert close(m.group(1), r) and close(m.group(3), lo) and close(m.group(4), hi), m.groups()
    assert close(m.group(5), h["p_slower"]), "P(slower)"
    forms += 1
m = re.search(r" at " + N + r"× its \S+ time \(95% CI " + IV + r"\)", sentence)
if m:
    assert close(m.group(1), c["ratio_mean"]) and close(m.group(2), c["ratio_ci"][0]) \
        and close(m.group(3), c["ratio_ci"][1]), ("undecided ratio", m.groups())
    forms += 1
m = re.search(r" " + N + r" s (slower|faster) than \S+ \(95% CI " + IV + r" s\)", sentence)
if m:
    d, lo, hi = c["diff_mean"], c["diff_ci"][0], c["diff_ci"][1]
    if m.group(2) == "faster":
        d, lo, hi = -d, -hi, -lo
    assert close(m.group(1), d) and close(m.group(3), lo) and close(m.group(4), hi), \
        ("difference", m.groups(), c["diff_mean"], c["diff_ci"])
    forms += 1
m = re.search(r" differs from \S+ by " + N + r" s for .* \(95% CI " + IV + r" s\)", sentence)
if m:
    assert close(m.group(1), c["diff_mean"]) and close(m.group(2), c["diff_ci"][0]) \
        and close(m.group(3), c["diff_ci"][1]), ("undecided difference", m.groups())
    forms += 1
# Too few samples: no mean is quoted, only the groups' n and P(slower), and the verdict.
m = re.search(r"^Not enough data to say: .* cannot be told apart from \S+ with so few \S+ "
              r"\(n = ([0-9]+) and ([0-9]+)\).*; P\(slower\) = ([0-9.]+)", sentence)
if m:
    assert int(m.group(1)) == c["a"]["n"] and int(m.group(2)) == c["b"]["n"], m.groups()
    assert min(c["a"]["n"], c["b"]["n"]) < 4 and c["verdict"] == "not enough data to say"
    assert close(m.group(3), h["p_slower"]), "P(slower)"
    assert "×" not in sentence and " s " not in sentence, ("a mean quoted", sentence)
    forms += 1
assert forms == 1, ("the headline's numbers were not recognised", sentence)
checked = 0
for p in rep["placements"]:
    row = [l for l in term.splitlines() if l.startswith("  " + p["name"] + " ")]
    assert len(row) == 1, ("terminal row", p["name"])
    f = row[0].split()
    assert f[3] == str(p["n"]), ("n", f, p["n"])
    assert close(f[4], p["mean_s"]), ("mean", f[4], p["mean_s"])
    lo, hi = re.match(r"(-?[0-9.e+-]+?)–(-?[0-9.e+-]+)$", f[5]).groups()
    assert close(lo, p["mu_ci_s"][0]) and close(hi, p["mu_ci_s"][1]), ("interval", f[5], p)
    mrow = [l for l in md.splitlines() if l.startswith("| " + p["name"] + " |")]
    cells = [x.strip() for x in mrow[0].strip("|").split("|")]
    assert cells[3] == f[3] and cells[4] == f[4] and cells[5] == f[5], ("md vs terminal", cells, f)
    checked += 1
assert checked == len(rep["analysis"]["groups"]) >= 2, "every placement checked"
for w in rep["warnings"]:
    assert ("  - " + w + "\n") in term, ("warning missing from the terminal", w)
print(f"{checked} placements and the headline agree")
EOF
}

# panels DIR PLOT [NAME:LO:HI ...]: PLOT.svg (run-order or samples) has one panel per placement
# of report.json with analysed samples, in its order, each with at least two y ticks of its own;
# with NAME:LO:HI, every y tick of NAME's panel lies in [LO, HI] (its own scale, not a shared one).
panels() {
	python3 - "$@" <<'EOF'
import json, sys
import xml.etree.ElementTree as ET
d, plot, ranges = sys.argv[1], sys.argv[2], sys.argv[3:]
ns = "{http://www.w3.org/2000/svg}"
want = [g["name"] for g in json.load(open(d + "/report.json"))["analysis"]["groups"] if g["n"] > 0]
root = ET.parse("%s/%s.svg" % (d, plot)).getroot()
got = {}
order = []
for g in root.iter(ns + "g"):
    if g.get("class") == "panel":
        name = g.get("data-placement")
        order.append(name)
        # y tick labels: right-aligned numbers
        got[name] = [float(t.text) for t in g.iter(ns + "text")
                     if t.get("text-anchor") == "end" and t.text and t.text[0].isdigit()]
assert order == want, ("panels", order, "placements", want)
for name, ticks in got.items():
    assert len(ticks) >= 2, (name, "y ticks", ticks)
for spec in ranges:
    name, lo, hi = spec.split(":")
    assert all(float(lo) <= t <= float(hi) for t in got[name]), (name, got[name], lo, hi)
print(plot, "panels:", ", ".join("%s %g..%g" % (n, min(got[n]), max(got[n])) for n in order))
EOF
}

svgs_well_formed() {
	local f
	for f in posterior run-order samples; do
		xmllint --noout "$1/$f.svg" || return 1
	done
}

# --- usage and bad input ------------------------------------------------------------------------
check_status 0 "report --help" "$SMTBENCH" report --help
check "--help names the files it writes" contains "$t_out" "report.html"
check_status 2 "report without a folder" "$SMTBENCH" report
check_status 2 "report on a missing folder" "$SMTBENCH" report "$t_tmp/nowhere"
check "the error is one line naming the folder" \
	test "$(wc -l <<<"$t_err")" -eq 1 -a -n "$(grep -F "$t_tmp/nowhere" <<<"$t_err")"
mkdir -p "$t_tmp/empty"
check_status 2 "report on a folder without samples.csv" "$SMTBENCH" report "$t_tmp/empty"
check "... is one line" test "$(wc -l <<<"$t_err")" -eq 1

# --- the seed's example -------------------------------------------------------------------------
seed=$t_tmp/seed
cp -r "$SMTBENCH_ROOT/results/seed-example" "$seed"
check_status 0 "report on the seed's example" "$SMTBENCH" report "$seed"
printf '%s\n' "$t_out" >"$t_tmp/seed-summary.txt"
check "the seed's verdict: sibling 2.69× slower than non-sibling, P(slower) = 1.00" \
	contains "$t_out" "sibling placement makes each copy of \`nop\` 2.69"
for f in report.md report.json posterior.svg run-order.svg samples.svg report.html; do
	check "seed: $f written" test -s "$seed/$f"
done
check "seed: the SVGs are well-formed XML" svgs_well_formed "$seed"
# The seed's placements lie 20 s apart but vary by 0.3 s within: each needs its own y axis.
check "seed: run-order.svg has a panel per placement, each on its own scale" \
	panels "$seed" run-order sibling:30.8:31.3 non-sibling:11.5:11.7
check "seed: samples.svg has a column per placement, each on its own scale" \
	panels "$seed" samples sibling:30.8:31.3 non-sibling:11.5:11.7
check "seed: terminal, report.md and report.json agree" agree "$seed" "$t_tmp/seed-summary.txt"
check "seed: report.json carries meta.json and the analysis contract" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["meta"]["placements"]["sibling"]["pus"] == [0, 1]
assert {c["label"] for c in r["analysis"]["comparisons"]} == {"headline"}
assert r["analysis"]["groups"][0]["n"] == 9' "$seed/report.json"
cp "$seed/report.json" "$t_tmp/first.json"
check "the seed's data (no host, from an article) gets no note about this machine's cpufreq" \
	eval '! grep -q "CPU frequency was not readable" "$t_tmp/seed-summary.txt"'
check_status 0 "report again on the same folder" "$SMTBENCH" report "$seed"
check "the regenerated report.json is identical" cmp -s "$seed/report.json" "$t_tmp/first.json"

# --- warm-ups: one near its placement's samples is drawn to scale; one far off (a cold start) is
# pinned to the panel's edge with its value, so the analysed samples keep the panel's height ----
warm=$t_tmp/warm
cp -r "$SMTBENCH_ROOT/results/seed-example" "$warm"
printf '%s\n' 19,,1,non-sibling,0,a,0,nop,ok,,,20.00,,,,,,,,,,, \
	19,,1,non-sibling,1,a,1,nop,ok,,,20.00,,,,,,,,,,, 20,,1,sibling,0,a,0,nop,ok,,,31.25,,,,,,,,,,, \
	20,,1,sibling,1,a,1,nop,ok,,,31.25,,,,,,,,,,, >>"$warm/samples.csv"
check_status 0 "report on the seed with two warm-ups added" "$SMTBENCH" report "$warm"
check "warm-ups: the far one leaves non-sibling's scale alone" \
	panels "$warm" run-order sibling:30.8:31.3 non-sibling:11.5:11.7
check "warm-ups: the far one is pinned and labelled with its value" \
	grep -q '>↑ 20.0 s</text>' "$warm/run-order.svg"
check "warm-ups: the near one (31.25 s) is drawn to scale, not pinned" \
	test "$(grep -c -E '>[↑↓] ' "$warm/run-order.svg")" -eq 1
check "warm-ups: the panel titles count them" \
	grep -q 'non-sibling (n = 10, 1 warm-up)' "$warm/run-order.svg"

# --- a damaged meta.json: never analysed as another kind, its reports left as they are -------
bad=$t_tmp/badmeta
cp -r "$SMTBENCH_ROOT/results/seed-example" "$bad"
"$SMTBENCH" report "$bad" >/dev/null 2>&1
printf '{"cpu_model": "x",\n "host": \n' >"$bad/meta.json"
sums_before=$(cd "$bad" && md5sum report.* ./*.svg)
check_status 2 "report of a folder whose meta.json is damaged is refused" "$SMTBENCH" report "$bad"
check "…naming meta.json, the JSON error's line, and what to do" eval \
	'contains "$t_err" "$bad/meta.json is damaged: not valid JSON (line " && contains "$t_err" "restore meta.json"'
check "…and its reports are left as they were" test "$(cd "$bad" && md5sum report.* ./*.svg)" = "$sums_before"
check_status 2 "analyze of it is refused too" "$SMTBENCH" analyze "$bad"
check "…with the same reason" contains "$t_err" "meta.json is damaged"
mx=$t_tmp/badmatrix
python3 "$SMTBENCH_ROOT/tests/e2e/matrix_synth.py" "$mx" node1 --blocks 6 --seed 3 >/dev/null
"$SMTBENCH" report "$mx" >/dev/null 2>&1
head -c 300 "$mx/meta.json" >"$mx/meta.cut" && mv "$mx/meta.cut" "$mx/meta.json"
sums_before=$(cd "$mx" && md5sum report.* ./*.svg)
check_status 2 "a matrix folder whose meta.json is cut short is not reported as a plain run" \
	"$SMTBENCH" report "$mx"
check "…nothing says a placement's slowdown, and its matrix reports are left as they were" eval \
	'! contains "$t_out" "placement leaves" && test "$(cd "$mx" && md5sum report.* ./*.svg)" = "$sums_before"'

# --- rows that meta.json does not describe: warned about with their line, and left out ---------
ren=$t_tmp/renamed
python3 "$SMTBENCH_ROOT/tests/e2e/matrix_synth.py" "$ren" node1 --blocks 6 --seed 3 >/dev/null
awk -F, 'BEGIN { OFS = "," } NR > 1 && NR <= 4 && $6 == "a" { $8 = "zzz" } { print }' \
	"$ren/samples.csv" >"$ren/s.new" && mv "$ren/s.new" "$ren/samples.csv"
kernels=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["matrix"]["kernels"]))' "$ren/meta.json")
check_status 0 "report of a matrix with rows renamed to a workload meta.json does not name" \
	"$SMTBENCH" report "$ren"
check "…keeps meta.json's $kernels kernels (no 'zzz')" python3 -c '
import json, sys
r = json.load(open(sys.argv[1] + "/report.json"))
assert len(r["kernels"]) == int(sys.argv[2]) and "zzz" not in r["kernels"], r["kernels"]' "$ren" "$kernels"
check "…and warns of each such row with its line" eval \
	'contains "$t_out$t_err" "samples.csv:2: trial 0: workload '"'"'zzz'"'"' in role a is not named by meta.json"'
python3 "$SMTBENCH_ROOT/tests/e2e/matrix_synth.py" "$t_tmp/goodmatrix" node2 --blocks 6 --seed 4 >/dev/null
check_status 0 "fleet over it and a good matrix" "$SMTBENCH" fleet "$ren" "$t_tmp/goodmatrix"
check "…does not pool it, saying its rows disagree with meta.json" \
	contains "$t_out" "holds trials that meta.json does not describe"

# --- report --out: a read-only results folder gets its reports written elsewhere ---------------
ro=$t_tmp/readonly
cp -r "$seed" "$ro"
rm -f "$ro"/report.* "$ro"/*.svg
chmod -R a-w "$ro"
outdir=$t_tmp/elsewhere
as_nobody=()
if (($(id -u) == 0)); then
	# root writes through a+w-less folders: run as nobody, with a place nobody may write.
	as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	chmod o+x "$t_tmp"
	mkdir -m 0777 "$t_tmp/nobody"
	outdir=$t_tmp/nobody/elsewhere
fi
check_status 1 "report on a read-only folder cannot write there" "${as_nobody[@]}" \
	"$SMTBENCH" report "$ro"
check_status 0 "report --out DIR on it" "${as_nobody[@]}" "$SMTBENCH" report "$ro" --out "$outdir"
check "…writes every file into DIR (made if missing), and the summary names them there" bash -c \
	'for f in report.md report.json report.html posterior.svg run-order.svg samples.svg; do
		[[ -s $1/$f ]] || exit 1
	done
	[[ $2 == *"Report: $1/report.html"* ]]' _ "$outdir" "$t_out"
check "…and leaves the results folder as it was" \
	eval '[[ -z $(find "$ro" -name "report.*" -o -name "*.svg") ]]'
chmod -R u+w "$ro"
touch "$t_tmp/a-file"
check_status 2 "report --out naming a file" "$SMTBENCH" report "$seed" --out "$t_tmp/a-file"
check "…says it is not a folder" contains "$t_err" "--out $t_tmp/a-file: not a folder"
check_status 2 "report --out under a missing folder" "$SMTBENCH" report "$seed" \
	--out "$t_tmp/missing/deeper"
check "…names it, and nothing is written" eval \
	'contains "$t_err" "the folder $t_tmp/missing, where $t_tmp/missing/deeper would go, does not exist" && [[ ! -e $t_tmp/missing ]]'

# --- a fresh small run on this machine ----------------------------------------------------------
run=$t_tmp/fresh
placements=solo,same-pu
(($(nproc) >= 2)) && placements=solo,same-pu,non-sibling
check_status 0 "run $placements, 3 blocks" "$SMTBENCH" run --placements "$placements" \
	--trials 3 --warmup 1 --iters 400000 --seed 11 --out "$run"
printf '%s\n' "$t_out" >"$t_tmp/run-summary.txt"
check "the run's summary gives the answer and the report's path" \
	contains "$t_out" "Report: $run/report.html"
check "the run's summary says why it stopped" contains "$t_out" "Stopped: trials"
check "... and report.html says it too, as the summary words it (it was missing there)" \
	grep -q '<p id="stopped">Stopped: trials (every planned block ran' "$run/report.html"
if ! grep -q '^sibling' <(cut -d, -f4 "$run/samples.csv"); then
	check "without a sibling placement the summary says an SMT machine is needed" \
		contains "$t_out" "needs an SMT machine"
fi
# The clock is a confounder: where this machine has no cpufreq, the summary says it went unwatched.
if [[ -r /sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq ]]; then
	check "cpufreq exists: no 'frequency was not readable' note" \
		eval '! contains "$t_out" "CPU frequency was not readable"'
else
	check "no cpufreq here: the summary says the frequency was not readable" \
		contains "$t_out" "CPU frequency was not readable on this machine"
fi
check "fresh run: the SVGs are well-formed XML" svgs_well_formed "$run"
check "fresh run: run-order.svg has a panel per placement" panels "$run" run-order
check "fresh run: the run's summary, report.md and report.json agree" \
	agree "$run" "$t_tmp/run-summary.txt"
# One set of words (report/words.h): analyze's answer ends as the report's
# sentence does, and every problem the report warns of in a placement reads the same in analyze.
check_status 0 "analyze on the fresh run" "$SMTBENCH" analyze "$run"
check "analyze and the report word the answer and each placement's problems alike" python3 - \
	"$run/report.json" "$t_out" <<'EOF2'
import json, re, sys
rep, text = json.load(open(sys.argv[1])), sys.argv[2]
for sentence in rep["sentences"]:
    # From the effect on: "... × ... (95% CI ...); P(...) = ..., paired by block (N blocks)..."
    m = re.search(r"(\(95% CI [^)]*\); P\(.*)$", sentence) or re.search(r"(; P\(slower\).*)$", sentence)
    tail = m.group(1).replace(" (the accounting control: user time should match solo, 1×)", "")
    assert tail in text, ("not in analyze's output", tail)
for w in rep["warnings"]:
    if re.match(r"(drift in|[0-9]+ outlier\(s\) in|poor overlap in|wall time above)", w):
        assert "  - " + w in text, ("analyze words it otherwise", w)
EOF2
cp "$run/report.json" "$t_tmp/run.json"
check_status 0 "report regenerates the fresh run's reports" "$SMTBENCH" report "$run"
check "... with the same report.json" cmp -s "$run/report.json" "$t_tmp/run.json"

# --- in a real browser --------------------------------------------------------------------------
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
	skip "browser test: chromium is not installed (apt-get install chromium)"
else
	shot=$t_tmp/shot
	check "chromium renders report.html" \
		bash "$SMTBENCH_ROOT/tests/browser/render.sh" "$seed/report.html" "$shot" 1000 4200
	verdict=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["headline"]["sentence"])' \
		"$seed/report.json")
	check "the rendered DOM holds the verdict" python3 -c '
import html, re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
# `x` in the sentence is rendered as <code>x</code>.
want = re.sub(r"`([^`]*)`", r"<code>\1</code>", html.escape(sys.argv[2], quote=False))
assert want in dom, "verdict not in the DOM"
assert "`" not in dom, "a literal backtick on the page"
for plot in ("plot-posterior", "plot-run-order", "plot-samples"):
    assert "id=\"%s\"><svg" % plot in dom, plot' "$shot/dom.html" "$verdict"
	check "no messages on the page's console" \
		test "$(grep -c -E 'CONSOLE|Uncaught' "$shot/console.log")" -eq 0
	read -r w h frac colours < <(python3 "$SMTBENCH_ROOT/tests/browser/png_check.py" \
		"$shot/screenshot.png")
	check "the screenshot is 1000x4200 and drawn on (${frac:-?} non-white, ${colours:-?} colours)" \
		python3 -c 'import sys; w,h,f,c=sys.argv[1:]; assert (w,h)==("1000","4200") and float(f)>0.02 and int(c)>=8' \
		"${w:-0}" "${h:-0}" "${frac:-0}" "${colours:-0}"
	# Each plot alone, at its own size: something in the placements' colours was drawn.
	for f in posterior run-order samples; do
		size=$(grep -o 'width="[0-9]*" height="[0-9]*"' "$seed/$f.svg" | head -1 | tr -dc '0-9 ')
		read -r sw sh <<<"${size//  / }"
		bash "$SMTBENCH_ROOT/tests/browser/render.sh" "$seed/$f.svg" "$t_tmp/$f" "$sw" "$sh"
		read -r w h frac colours < <(python3 "$SMTBENCH_ROOT/tests/browser/png_check.py" \
			"$t_tmp/$f/screenshot.png")
		check "$f.svg drawn by chromium: ${w:-?}x${h:-?}, ${frac:-?} non-white, ${colours:-?} colours" \
			python3 -c 'import sys; w,h,sw,sh,f,c=sys.argv[1:]; assert (w,h)==(sw,sh) and float(f)>0.01 and int(c)>=6' \
			"${w:-0}" "${h:-0}" "$sw" "$sh" "${frac:-0}" "${colours:-0}"
	done
fi

# --- many samples: each plot drawn from a summary that says so, the report bounded in size ----
big=$t_tmp/big
"$SMTBENCH_ROOT/tests/e2e/big_synth.sh" "$big" 40000
check_status 0 "report on 40,000 rows" "$SMTBENCH" report "$big"
check "run-order.svg draws each placement of 10,000 samples from a summary, and says so" \
	test "$(grep -c 'A summary: each bin of run order shows its samples' "$big/run-order.svg")" -eq 2
check "samples.svg draws every 5th sample and says so" \
	test "$(grep -c 'every 5th drawn' "$big/samples.svg")" -eq 2
check "the per-block ratio panel draws every 5th block and says so" \
	grep -q 'Every 5th block drawn' "$big/run-order.svg"
check "…so the plots hold at most a few thousand markers each" eval \
	'(( $(grep -c "<circle\|<rect\|<path\|<polygon" "$big/run-order.svg") < 6000 && $(grep -c "<circle\|<rect\|<path\|<polygon" "$big/samples.svg") < 6000 ))'
check "…and report.html stays under 1 MB" test "$(stat -c %s "$big/report.html")" -lt 1000000

done_testing
