/*
 * test_report.c — the report module: nice ticks, number formatting and XML escaping against
 * known answers, then a hand-written results folder (a machine without SMT: solo, same-pu,
 * non-sibling; a virtual machine; frequencies that differ) through report_new, the summary and
 * the files.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "report/doc.h"
#include "report/report.h"
#include "report/svg.h"
#include "report/words.h"
#include "tests/harness.h"
#include "tests/unit/analysis_testdata.h"

/* The folders the reports are of: a report borrows its folder, so they are let go at the end. */
static struct results_folder *folders[32];
static size_t folder_count;

static struct report *report_of(const char *dir, char *err, size_t err_size)
{
	struct results_folder *f = folder_open(dir);
	if (folder_count < sizeof folders / sizeof folders[0])
		folders[folder_count++] = f;
	struct report_options o = { .rope_pct = NAN };
	return report_folder(f, &o, err, err_size);
}

/* The report's answer: its paragraph led by "Answer" (every output shows it). */
static const char *answer_of(const struct report *rep)
{
	for (size_t i = 0; i < rep->doc->count; i++)
		if (rep->doc->blocks[i].lead && !strcmp(rep->doc->blocks[i].lead, "Answer"))
			return rep->doc->blocks[i].text;
	return NULL;
}

/* The SVG of the report's figure id (borrowed). */
static const char *figure_of(const struct report *rep, const char *id)
{
	for (size_t i = 0; i < rep->doc->count; i++)
		if (rep->doc->blocks[i].kind == DOC_FIGURE && rep->doc->blocks[i].id
		    && !strcmp(rep->doc->blocks[i].id, id))
			return rep->doc->blocks[i].svg;
	return NULL;
}

/* The terminal summary, with where its files were written. */
static char *summary_of(const struct report *rep)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	if (!out)
		return NULL;
	report_print(rep, out);
	report_print_files(rep, "DIR", out);
	fclose(out);
	return text;
}

/* Removes a test's temporary folder and everything in it. */
static void remove_tree(const char *dir)
{
	char cmd[800];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n = getdelim(&buf, &cap, '\0', f);
	fclose(f);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* How many times needle occurs in text (0 for NULL text). */
static int count_of(const char *text, const char *needle)
{
	int n = 0;
	for (const char *p = text; p && (p = strstr(p, needle)) != NULL; p += strlen(needle))
		n++;
	return n;
}

/* Whether needle occurs in [from, to). */
static bool has_text_between(const char *from, const char *to, const char *needle)
{
	const char *p = strstr(from, needle);
	return p && p < to;
}

static void test_ticks(void)
{
	double first, step;
	int n = report_nice_ticks(0, 10, 6, &first, &step);
	CHECK(n == 6 && first == 0 && step == 2, "ticks of [0, 10], at most 6: 0, 2, ..., 10 "
	      "(got %d from %g by %g)", n, first, step);
	n = report_nice_ticks(-3, 7, 6, &first, &step);
	CHECK(n == 5 && first == -2 && step == 2, "ticks of [-3, 7]: -2, 0, ..., 6 (got %d from %g "
	      "by %g)", n, first, step);
	n = report_nice_ticks(0.2501, 0.2509, 7, &first, &step);
	CHECK(n == 4 && fabs(first - 0.2502) < 1e-12 && fabs(step - 2e-4) < 1e-15,
	      "ticks of [0.2501, 0.2509]: step 0.0002 from 0.2502 (got %d from %.10g by %g)", n,
	      first, step);
	n = report_nice_ticks(2.678, 2.713, 7, &first, &step);
	CHECK(n == 7 && fabs(step - 0.005) < 1e-15 && fabs(first - 2.68) < 1e-12,
	      "ticks of [2.678, 2.713]: 2.680 to 2.710 by 0.005 (got %d from %.10g by %g)", n, first,
	      step);
	n = report_nice_ticks(5, 5, 6, &first, &step);
	CHECK(n >= 2 && first <= 5 && first + (n - 1) * step >= 5, "a zero-width range is widened "
	      "around its value (got %d from %g by %g)", n, first, step);
	CHECK_INT(report_nice_ticks(NAN, 1, 6, &first, &step), 0, "no ticks for a NaN bound");
	/* Subnormal and overwide ranges: the padding underflows, or hi - lo overflows; no ticks
	 * rather than a NaN converted to int. */
	CHECK_INT(report_nice_ticks(5e-324, 5e-324, 6, &first, &step), 0,
	          "no ticks for a subnormal point");
	CHECK_INT(report_nice_ticks(-1e308, 1e308, 6, &first, &step), 0,
	          "no ticks for a range wider than the largest double");
}

static void test_format(void)
{
	char buf[48];
	CHECK_STR(format_number(buf, sizeof buf, 5e-324, 0), "4.941e-324",
	          "a subnormal value (its fallback resolution underflows to 0)");
	CHECK_STR(format_number(buf, sizeof buf, 2.6954674, 0.0076), "2.695",
	          "a ratio with an interval 0.015 wide");
	CHECK_STR(format_number(buf, sizeof buf, 31.1366667, 0.0675), "31.14",
	          "seconds with an interval 0.135 wide");
	CHECK_STR(format_number(buf, sizeof buf, 0.250123, 0.0002), "0.2501",
	          "a quarter second known to 0.0002");
	CHECK_STR(format_number(buf, sizeof buf, 19.585, 5), "19.6",
	          "at least three significant digits even for a wide interval");
	CHECK_STR(format_number(buf, sizeof buf, NAN, 1), "n/a", "NaN reads n/a");
}

static void test_escape(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	report_xml_escape(out, "<a & 'b'>\"");
	fclose(out);
	CHECK_STR(text, "&lt;a &amp; &#39;b&#39;&gt;&quot;", "XML escaping of the five specials");
	free(text);
}

/* The y axis's title: each '\n' starts a line nearer the axis, and an empty line keeps its
 * place, so a title's last line always sits at the same distance from the axis. */
static void test_y_title_lines(void)
{
	static const struct { const char *title, *shown; int lines; const char *last; } cases[] = {
		{ "ratio A / B\nper block", "ratio A / B\\nper block", 2, "per block" },
		{ "\nb", "\\nb", 2, "b" },
		{ "a\n", "a\\n", 2, "" },
		{ "a\n\nb", "a\\n\\nb", 3, "b" },
	};
	struct svg_axis y = { .lo = 0, .hi = 1, .p0 = 200, .p1 = 0 };
	double nearest = -1;
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		char *text = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&text, &len);
		svg_y_axis(out, &y, 60, cases[c].title, false);
		fclose(out);
		int n = 0;
		const char *last = NULL;
		for (const char *p = text; (p = strstr(p, "rotate(-90)")); p++, n++)
			last = p;
		CHECK(n == cases[c].lines, "title \"%s\": %d lines drawn, want %d", cases[c].shown, n,
		      cases[c].lines);
		double x = -1;
		char want[64];
		snprintf(want, sizeof want, ">%s</text>", cases[c].last);
		const char *t = last ? last : text;
		while (t > text && strncmp(t, "translate(", 10) != 0)
			t--;
		CHECK(sscanf(t, "translate(%lf", &x) == 1 && strstr(t, want) != NULL,
		      "title \"%s\": its last line \"%s\" is the one nearest the axis",
		      cases[c].shown, cases[c].last);
		if (nearest < 0)
			nearest = x;
		CHECK(x == nearest, "title \"%s\": its last line at x %.1f, as every title's (%.1f)",
		      cases[c].shown, x, nearest);
		free(text);
	}
}

/* A machine without SMT: solo, same-pu and non-sibling in blocks of three, one warm-up block.
 * non-sibling runs 4% slower, at a lower clock; the workload's name needs escaping. */
static int write_folder(const char *dir, double same_pu_base, double non_sibling_base)
{
	char path[1024];
	if (mkdir(dir, 0755) != 0)
		return -1;
	snprintf(path, sizeof path, "%s/samples.csv", dir);
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs("trial,block,warmup,placement,proc,role,pu,workload,status,exit_code,signal,utime_s,"
	      "stime_s,wall_s,start_s,end_s,nvcsw,nivcsw,maxrss_kb,overlap,freq_mhz,loadavg_1m,"
	      "started_utc\n", f);
	static const char *const order[3] = { "solo", "non-sibling", "same-pu" };
	static const double noise[] = { 0.0011, -0.0007, 0.0003, -0.0012, 0.0009, -0.0004, 0.0006 };
	long trial = 0;
	for (int block = 0; block < 7; block++)
		for (int k = 0; k < 3; k++, trial++) {
			const char *pl = order[(k + block) % 3];
			double base = !strcmp(pl, "non-sibling") ? non_sibling_base :
			              !strcmp(pl, "same-pu") ? same_pu_base : 0.25;
			double mhz = !strcmp(pl, "non-sibling") ? 3000 : 3500;
			int procs = !strcmp(pl, "solo") ? 1 : 2;
			for (int p = 0; p < procs; p++)
				fprintf(f, "%ld,%d,%d,%s,%d,a,%d,a&b<c,ok,0,,%.6f,0.001,%.6f,0,0,0,0,1000,1,"
				        "%.0f,0.5,2024-01-01T00:00:00Z\n", trial, block, block == 0, pl, p,
				        !strcmp(pl, "non-sibling") ? p : 1,
				        base + noise[block] + 0.0002 * p, base + 0.01, mhz);
		}
	fclose(f);
	snprintf(path, sizeof path, "%s/meta.json", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs("{\"cpu_model\": \"Test CPU\", \"host\": \"testhost\", \"virtual_machine\": true, "
	      "\"governor\": null, "
	      "\"hypervisor\": \"KVM\", \"topology\": {\"pus\": 2, \"cores\": 2, \"packages\": 1, "
	      "\"max_threads_per_core\": 1}, \"placements\": ["
	      "{\"name\": \"solo\", \"pus\": [1], \"shares\": null}, "
	      "{\"name\": \"same-pu\", \"pus\": [1, 1], \"shares\": \"PU\"}, "
	      "{\"name\": \"non-sibling\", \"pus\": [0, 1], \"shares\": \"L3\"}], "
	      "\"skipped_placements\": [{\"name\": \"sibling\", \"reason\": \"no core has two "
	      "CPUs\"}], \"settings\": {\"kernel\": \"nop\", \"trials\": 6}}\n", f);
	fclose(f);
	return 0;
}

static void test_folder(void)
{
	char dir[] = "/tmp/smtbench-test-report.XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	char run[600];
	snprintf(run, sizeof run, "%s/run", dir);
	CHECK(write_folder(run, 0.25, 0.26) == 0, "a hand-written results folder");
	char err[512] = "";
	struct report *rep = report_of(run, err, sizeof err);
	CHECK(rep != NULL, "report_folder on it succeeds (%s)", err);
	if (!rep)
		return;
	const char *h = answer_of(rep);
	CHECK(h && strstr(h, "non-sibling placement makes each copy of `a&b<c`")
	      && strstr(h, "slower than solo"),
	      "without SMT the headline is non-sibling vs solo, slower: %s", h ? h : "");
	CHECK(h && strstr(h, "1.04"), "the headline's slowdown is about 1.04×: %s", h ? h : "");

	char *text = summary_of(rep);
	CHECK(text != NULL, "the summary prints");
	CHECK(strstr(text, "needs an SMT machine") && strstr(text, "no core has two CPUs"),
	      "the summary says the sibling question needs an SMT machine, and why");
	CHECK(strstr(text, "Test CPU on host testhost") != NULL, "the summary names the machine");
	CHECK(strstr(text, "virtual machine (KVM)") != NULL, "it warns of the virtual machine");
	CHECK(strstr(text, "frequency differs between placements: solo 3500 MHz, non-sibling "
	                   "3000 MHz") != NULL, "it warns that the clock differed between placements");
	CHECK(strstr(text, "same-pu placement") && strstr(text, "accounting control"),
	      "the same-pu control is reported as such");
	CHECK(!strstr(text, "accounting control failed"),
	      "same-pu user time matches solo: no accounting warning");
	CHECK(strstr(text, "  non-sibling    0,1      L3                6  ") != NULL,
	      "the placement row shows the CPUs, what they share and n = 6 (warm-up excluded)");
	free(text);

	CHECK(report_write(rep, run, err, sizeof err) == 0, "the files are written (%s)", err);
	json_t *files = json_object_get(rep->json, "files");
	CHECK_INT(json_array_size(files), 6, "report.json lists the six files");
	for (size_t i = 0; i < json_array_size(files); i++) {
		const char *name = json_string_value(json_array_get(files, i));
		char path[700];
		snprintf(path, sizeof path, "%s/%s", run, name);
		struct stat st;
		CHECK(stat(path, &st) == 0 && st.st_size > 200, "%s written", name);
	}
	char path[700];
	snprintf(path, sizeof path, "%s/report.md", run);
	char *md = slurp(path);
	CHECK(md && strstr(md, "| governor | not readable |"),
	      "report.md's machine table says 'not readable' for a null value");
	CHECK(md && strstr(md, "| topology | 2 PUs, 2 cores, 1 package; 1 thread per core |"),
	      "report.md's machine table shows the topology in words");
	CHECK(md && !strstr(md, "null") && !strstr(md, "{\""), "report.md prints no raw JSON");
	CHECK(md && strstr(md, "the same evidence as a 95% interval of the difference that "
	                       "excludes 0") && !strstr(md, "excludes no difference"),
	      "report.md explains the 0.975 rule as an interval that excludes 0");
	free(md);
	snprintf(path, sizeof path, "%s/report.html", run);
	char *html = slurp(path);
	CHECK(html && strstr(html, "interval of the difference that excludes 0")
	      && !strstr(html, "excludes no difference"),
	      "report.html explains the 0.975 rule as an interval that excludes 0");
	CHECK(html && strstr(html, "a&amp;b&lt;c") && !strstr(html, "a&b<c"),
	      "report.html escapes the workload's name everywhere");
	CHECK(html && strstr(html, "each copy of <code>a&amp;b&lt;c</code>") && !strchr(html, '`'),
	      "report.html renders `name` as <code>name</code> (escaped), no literal backticks");
	CHECK(html && !strstr(html, "<script") && !strstr(html, "<link") && !strstr(html, "src=")
	      && !strstr(html, "https:") && !strstr(html, "url(http"),
	      "report.html loads nothing: no scripts, links or sources (only the SVG namespace)");
	CHECK(html && strstr(html, "<svg") && strstr(html, "id=\"plot-run-order\""),
	      "report.html holds the plots inline");
	free(html);
	const char *svg = figure_of(rep, "plot-run-order");
	CHECK(svg && strstr(svg, "warm-up (not analysed)") && strstr(svg, "non-sibling (n = 6)"),
	      "the run-order plot has a legend with the warm-ups and each placement's n");
	/* One panel per placement, each with its own y axis (its own title), in the stable order. */
	CHECK_INT(count_of(svg, "<g class=\"panel\" data-placement="), 3,
	          "run-order: one panel per placement");
	CHECK_INT(count_of(svg, ">per trial (s)</text>"), 3, "run-order: one y-axis title per panel");
	/* The headline (non-sibling / solo here) is paired: its per-block ratio gets a last panel. */
	const char *blocks = svg ? strstr(svg, "data-panel=\"block-ratio\"") : NULL;
	CHECK(blocks && strstr(blocks, "non-sibling / solo per block (6 paired)")
	      && strstr(blocks, ">per block</text>")
	      && count_of(blocks, "<circle") + count_of(blocks, "<path") >= 6,
	      "run-order: a last panel shows the headline's ratio in each of its 6 paired blocks");
	const char *solo = svg ? strstr(svg, "data-placement=\"solo\"") : NULL;
	const char *same_pu = svg ? strstr(svg, "data-placement=\"same-pu\"") : NULL;
	const char *non_sib = svg ? strstr(svg, "data-placement=\"non-sibling\"") : NULL;
	CHECK(solo && same_pu && non_sib && solo < same_pu && same_pu < non_sib,
	      "run-order: panels for solo, same-pu and non-sibling, in that order");
	CHECK(non_sib && strstr(non_sib, "non-sibling (n = 6, 1 warm-up): mean 0.26"),
	      "run-order: a panel's title names the placement, n, its warm-ups and its mean");
	/* Solo's samples lie in 0.2488..0.2511 and non-sibling's in 0.2588..0.2611: on a shared axis
	 * their ticks would be the same; on its own axis solo's stop below 0.2520. */
	CHECK(solo && same_pu && has_text_between(solo, same_pu, ">0.2500</text>")
	      && !has_text_between(solo, same_pu, ">0.2600</text>"),
	      "run-order: solo's y axis spans its own samples (0.2500 ticked, 0.2600 not)");
	CHECK(non_sib && strstr(non_sib, ">0.2600</text>") && !strstr(non_sib, ">0.2500</text>"),
	      "run-order: non-sibling's y axis spans its own samples (0.2600 ticked, 0.2500 not)");
	svg = figure_of(rep, "plot-samples");
	CHECK_INT(count_of(svg, "<g class=\"panel\""), 3,
	          "samples: one column per placement, each on its own y axis");
	svg = figure_of(rep, "plot-posterior");
	CHECK(svg && strstr(svg, "1×: no difference") && strstr(svg, "0 s: no difference"),
	      "the posterior plot marks 0 s and 1×");
	report_free(&rep);
	CHECK(rep == NULL, "report_free clears the pointer");

	char missing[700];
	snprintf(missing, sizeof missing, "%s/none", dir);
	rep = report_of(missing, err, sizeof err);
	CHECK(rep == NULL && err[0], "a folder without samples.csv is an error: %s", err);
	remove_tree(dir);
}

/* The same folder with same-pu's user time 8% above solo's: the control failed, and the summary
 * must say that the accounting (and so every comparison) is suspect. */
static void test_control_failed(void)
{
	char dir[] = "/tmp/smtbench-test-control.XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	char run[600];
	snprintf(run, sizeof run, "%s/run", dir);
	CHECK(write_folder(run, 0.27, 0.26) == 0, "a folder whose same-pu user time is 8%% above solo");
	char err[512] = "";
	struct report *rep = report_of(run, err, sizeof err);
	if (CHECK(rep != NULL, "report_folder on it succeeds (%s)", err)) {
		char *text = summary_of(rep);
		CHECK(text != NULL, "the summary prints");
		const char *w = strstr(text, "the accounting control failed: same-pu user time is 1.08");
		CHECK(w != NULL, "the summary warns that the accounting control failed, with the "
		      "ratio 1.08");
		CHECK(w && strstr(w, "suspect") && strstr(w, "every other comparison"),
		      "and says that the accounting and the other comparisons are suspect");
		free(text);
		report_free(&rep);
	}
	remove_tree(dir);
}

/* No difference between non-sibling and solo: the difference's interval straddles 0, and the
 * legend must write it "lo to hi", never "-0.006–0.02" (a dash beside a minus sign). */
static void test_legend_negative(void)
{
	char dir[] = "/tmp/smtbench-test-legend.XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	char run[600];
	snprintf(run, sizeof run, "%s/run", dir);
	/* 0.2499: the two copies' times (0.2499 and 0.2501 + the block's noise) average to solo's
	 * 0.25 exactly, so that even the paired design's interval straddles 0. */
	CHECK(write_folder(run, 0.25, 0.2499) == 0, "a folder where non-sibling matches solo");
	char err[512] = "";
	struct report *rep = report_of(run, err, sizeof err);
	if (CHECK(rep != NULL, "report_folder on it succeeds (%s)", err)) {
		const char *svg = figure_of(rep, "plot-posterior");
		const char *label = svg ? strstr(svg, "non-sibling − solo: mean") : NULL;
		/* The negative bound with the minus sign (U+2212), as every interval writes it. */
		const char *ci = label ? strstr(label, "95% CI −") : NULL;
		CHECK(ci && strstr(ci, " to ") && strstr(ci, " to ") < strstr(ci, " s;"),
		      "the difference's legend writes an interval with a negative bound as 'lo to hi'");
		bool dash_after_minus = false;
		for (const char *q = svg; q && (q = strstr(q, "CI −")); q++) {
			const char *end = strstr(q, " s;");
			const char *dash = strstr(q, "–");
			dash_after_minus = dash_after_minus || (dash && end && dash < end);
		}
		CHECK(svg && !dash_after_minus, "no legend interval joins a negative bound with a dash");
		report_free(&rep);
	}
	remove_tree(dir);
}

/* The slowdown plot's density for two normal-ish groups must be one smooth hump: binning the
 * ratios of lattice pairs gave bins uneven counts of pairs, and a saw-toothed curve. */
static void test_ratio_density(void)
{
	struct rng rng = { 77 };
	double a[40], b[40];
	for (int i = 0; i < 40; i++) {
		a[i] = rng_normal(&rng, 0.262, 0.004);
		b[i] = rng_normal(&rng, 0.250, 0.003);
	}
	struct analysis_options opt;
	analysis_options_init(&opt);
	/* 6 samples against 40: the old binning drew 12 peaks here. */
	struct analysis_result *r = compare_arrays(a, 6, b, 40, &opt);
	if (!CHECK(r != NULL, "two normal groups analysed"))
		return;
	const struct analysis_comparison *c = &r->comparisons[0];
	double *v = NULL, *p = NULL;
	size_t n = 0;
	int rc = report_ratio_distribution(c, &v, &p, &n);
	if (CHECK(rc == 0 && n > 50, "the slowdown's plotted distribution is computed (%zu bins)",
	          n)) {
		double peak = 0, total = 0;
		for (size_t i = 0; i < n; i++) {
			peak = fmax(peak, p[i]);
			total += p[i];
		}
		/* A local maximum: a rise, then a fall (steps below 1e-9 of the peak are flat). */
		int maxima = 0, direction = 0;
		for (size_t i = 1; i < n; i++) {
			double step = p[i] - p[i - 1];
			if (fabs(step) <= 1e-9 * peak)
				continue;
			int d = step > 0 ? 1 : -1;
			maxima += direction > 0 && d < 0;
			direction = d;
		}
		CHECK_INT(maxima, 1, "the plotted slowdown density has one peak");
		CHECK(total > 0.99 && total <= 1 + 1e-9, "the bins hold the mass around the interval "
		      "(%g)", total);
		size_t top = 0;
		for (size_t i = 0; i < n; i++)
			if (p[i] > p[top])
				top = i;
		CHECK(v[top] > c->ratio_ci[0] && v[top] < c->ratio_ci[1] && fabs(v[top] - 1.048) < 0.02,
		      "its peak lies inside the 95%% interval near 0.262 / 0.250 (%g)", v[top]);
	}
	free(v);
	free(p);
	compared_free(&r);
}

/* A folder of solo and non-sibling trials, `trials` of each, interleaved: the role-a workload
 * `nop`, and with `beside` the role-b workload `pause` on the second CPU (not measured). */
static int write_pair_folder(const char *dir, int trials, bool beside)
{
	char path[1024];
	if (mkdir(dir, 0755) != 0)
		return -1;
	snprintf(path, sizeof path, "%s/samples.csv", dir);
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs("trial,block,warmup,placement,proc,role,pu,workload,status,exit_code,signal,utime_s,"
	      "stime_s,wall_s,start_s,end_s,nvcsw,nivcsw,maxrss_kb,overlap,freq_mhz,loadavg_1m,"
	      "started_utc\n", f);
	static const double noise[] = { 0.0011, -0.0007, 0.0003, -0.0012, 0.0009, -0.0004, 0.0006,
	                                 -0.0002, 0.0008, -0.0010 };
	long trial = 0;
	for (int block = 0; block < trials; block++) {
		fprintf(f, "%ld,%d,0,solo,0,a,1,nop,ok,0,,%.6f,0,%.6f,,,,,,1,,,\n", trial, block,
		        0.0301 + noise[block % 10], 0.0302 + noise[block % 10]);
		trial++;
		fprintf(f, "%ld,%d,0,non-sibling,0,a,1,nop,ok,0,,%.6f,0,%.6f,,,,,,1,,,\n", trial, block,
		        0.0283 + noise[(block + 3) % 10], 0.0284 + noise[(block + 3) % 10]);
		fprintf(f, "%ld,%d,0,non-sibling,1,%s,0,%s,ok,0,,%.6f,0,%.6f,,,,,,1,,,\n", trial, block,
		        beside ? "b" : "a", beside ? "pause" : "nop", 0.0290 + noise[(block + 5) % 10],
		        0.0291 + noise[(block + 5) % 10]);
		trial++;
	}
	return fclose(f);
}


/* Three trials per placement (the walkthrough's `run --trials 3`): the posterior of each mean is
 * a Cauchy, so the headline must not quote a ratio or a difference as the answer. */
static void test_three_trials(void)
{
	char dir[] = "/tmp/smtbench-test-three.XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	char run[600];
	snprintf(run, sizeof run, "%s/run", dir);
	CHECK(write_pair_folder(run, 3, false) == 0, "a folder with 3 trials per placement");
	char err[512] = "";
	struct report *rep = report_of(run, err, sizeof err);
	if (CHECK(rep != NULL, "report_folder on it succeeds (%s)", err)) {
		const char *h = answer_of(rep);
		CHECK(h && strstr(h, "Not enough data to say: non-sibling placement cannot be told apart "
		                     "from solo with so few trials (n = 3 and 3): the interval is unbounded at this sample size; "
		                     "run more trials (10 or more per placement)"),
		      "3 trials: the headline says they cannot be told apart, and why: %s", h ? h : "");
		CHECK(h && strstr(h, "Not enough data to say") && !strstr(h, "×") && !strstr(h, " s ")
		      && !strstr(h, "CI"), "3 trials: the headline quotes no ratio, difference or "
		      "interval, and keeps the verdict");
		const char *svg = figure_of(rep, "plot-posterior");
		CHECK(svg && count_of(svg, " (depends on the grid), 95% CI ") == 4,
		      "3 trials: the posterior plot's four legends mark their means as the grid's");
		char *text = summary_of(rep);
		CHECK(text && strstr(text, "Answer: Not enough data to say: non-sibling placement cannot"),
		      "3 trials: the summary's answer is that sentence");
		free(text);
		CHECK(report_write(rep, run, err, sizeof err) == 0, "3 trials: files written (%s)", err);
		char path[700];
		snprintf(path, sizeof path, "%s/report.md", run);
		char *md = slurp(path);
		CHECK(md && strstr(md, "| non-sibling | solo | contention | ")
		      && count_of(md, " † |") == 2 && strstr(md, "† The mean depends on the grid"),
		      "3 trials: report.md keeps the table's means, marked as depending on the grid");
		free(md);
		snprintf(path, sizeof path, "%s/report.json", run);
		json_error_t jerr;
		json_t *j = json_load_file(path, 0, &jerr);
		json_t *hj = json_object_get(j, "headline");
		CHECK(json_is_real(json_object_get(hj, "ratio_mean"))
		      && !strcmp(json_string_value(json_object_get(hj, "verdict")),
		                 "not enough data to say"),
		      "3 trials: report.json keeps ratio_mean (the grid's) and the verdict");
		json_decref(j);
		report_free(&rep);
	}
	remove_tree(dir);
}

/* A second workload beside the first (role b rows): the words name both, never "each copy". */
static void test_beside(void)
{
	char dir[] = "/tmp/smtbench-test-beside.XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	char run[600];
	snprintf(run, sizeof run, "%s/run", dir);
	CHECK(write_pair_folder(run, 10, true) == 0, "a folder with `pause` beside `nop`");
	char err[512] = "";
	struct report *rep = report_of(run, err, sizeof err);
	if (CHECK(rep != NULL, "report_folder on it succeeds (%s)", err)) {
		const char *h = answer_of(rep);
		CHECK(h && strstr(h, "Non-sibling placement makes `nop` (run beside `pause`) ")
		      && !strstr(h, "copy"), "beside: the headline names both workloads: %s", h ? h : "");
		char *text = summary_of(rep);
		CHECK(text && strstr(text, "Workload: nop, run beside pause (role b, not measured)")
		      && strstr(text, "user CPU time of nop, the measured workload, role a")
		      && !strstr(text, "copies") && !strstr(text, "copy of"),
		      "beside: the summary says which workload is measured, and no 'copies'");
		free(text);
		CHECK(report_write(rep, run, err, sizeof err) == 0, "beside: files written (%s)", err);
		char path[700];
		snprintf(path, sizeof path, "%s/report.md", run);
		char *md = slurp(path);
		CHECK(md && strstr(md, "the user CPU time of `nop`, the measured workload (role a); "
		                       "`pause` ran beside it (role b)") && !strstr(md, "copies")
		      && !strstr(md, "copy of"), "beside: report.md words it likewise");
		free(md);
		snprintf(path, sizeof path, "%s/report.html", run);
		char *html = slurp(path);
		CHECK(html && strstr(html, "the user CPU time of <code>nop</code>, the measured workload "
		                           "(role a); <code>pause</code> ran beside it")
		      && strstr(html, "<code>nop</code> (run beside <code>pause</code>)")
		      && !strstr(html, "copies") && !strstr(html, "copy of"),
		      "beside: report.html words it likewise");
		free(html);
		report_free(&rep);
	}
	remove_tree(dir);
}

/* Inputs mishandled by the reading of a folder, minimized: the first found by fuzzing
 * (tests/fuzz/fuzz_report), the second by reading the code the fuzzer reaches. */
static void test_fuzz_regressions(void)
{
	char dir[] = "/tmp/smtbench-test-fuzz.XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	char path[256], err[512] = "";
	/* Every data line damaged: no row left, and the loader handed qsort a NULL array (UB). */
	snprintf(path, sizeof path, "%s/samples.csv", dir);
	FILE *f = fopen(path, "w");
	fputs("trial,warmup,placement,role,status,utime_s\nx,0,solo,a,ok,1\n", f);
	fclose(f);
	struct report *rep = report_of(dir, err, sizeof err);
	CHECK(rep == NULL && *err, "a folder without one good line: no report, a message (%s)", err);
	report_free(&rep);

	/* meta.json naming the skipped sibling placement twice: the first reason is the one told
	 * (the second used to replace it and leak it). */
	char run[128];
	snprintf(run, sizeof run, "%s/run", dir);
	CHECK(write_pair_folder(run, 6, false) == 0, "a folder with 6 trials per placement");
	snprintf(path, sizeof path, "%s/meta.json", run);
	f = fopen(path, "w");
	fputs("{\"skipped_placements\": [{\"name\": \"sibling\", \"reason\": \"first\"}, "
	      "{\"name\": \"sibling\", \"reason\": \"second\"}]}", f);
	fclose(f);
	rep = report_of(run, err, sizeof err);
	if (CHECK(rep != NULL, "report_folder with sibling skipped twice (%s)", rep ? "ok" : err)) {
		char *text = summary_of(rep);
		CHECK(text && strstr(text, "No sibling placement was measured (first)"),
		      "the first reason is the one told: %s", text ? text : "");
		free(text);
	}
	report_free(&rep);
	unlink(path);
	snprintf(path, sizeof path, "%s/samples.csv", run);
	unlink(path);
	rmdir(run);
	snprintf(path, sizeof path, "%s/samples.csv", dir);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	test_ticks();
	test_format();
	test_escape();
	test_y_title_lines();
	test_folder();
	test_control_failed();
	test_legend_negative();
	test_ratio_density();
	test_three_trials();
	test_beside();
	test_fuzz_regressions();
	for (size_t i = 0; i < folder_count; i++)
		folder_free(&folders[i]);
	return test_done("test_report");
}
