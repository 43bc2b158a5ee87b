/* Unit tests of the two registries the modules share: samples.csv's column table
 * (common/samples_csv.h) and the placement table (common/placements.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "report/words.h"
#include "report/report.h"
#include "report/svg.h"
#include "common/samples_csv.h"
#include "runner/store.h"
#include "common/alloc.h"
#include "tests/harness.h"
#include "tests/unit/analysis_testdata.h"
#include "common/placements.h"
#include "topology/topology.h"

/* The header is the contract of results/README.md: byte for byte what earlier versions wrote. */
static void test_header_is_the_contract(void)
{
	CHECK_STR(SAMPLES_CSV_HEADER,
	          "trial,block,warmup,placement,proc,role,pu,workload,status,exit_code,signal,"
	          "utime_s,stime_s,wall_s,start_s,end_s,nvcsw,nivcsw,maxrss_kb,overlap,freq_mhz,"
	          "loadavg_1m,started_utc,foreign_s,steal_s,leftovers,per_cpu_s",
	          "the header built from the column table");
	CHECK_STR(SAMPLES_CSV_HEADER, SAMPLES_CSV_HEADER, "the store writes the table's header");
	/* Every name of the table, in order, is the header's field at the same position. */
	char *copy = strdup(SAMPLES_CSV_HEADER);
	char *fields[SAMPLES_COLUMN_COUNT + 1];
	size_t n = samples_csv_split(copy, fields, SAMPLES_COLUMN_COUNT + 1);
	CHECK_INT(n, SAMPLES_COLUMN_COUNT, "the header has one field per column of the table");
	int same = 0;
	for (size_t i = 0; i < n && i < SAMPLES_COLUMN_COUNT; i++)
		same += !strcmp(fields[i], samples_csv_names[i]);
	CHECK_INT(same, SAMPLES_COLUMN_COUNT, "each header field is the table's name at its position");
	free(copy);
	int required = 0;
	for (int c = 0; c < SAMPLES_COLUMN_COUNT; c++)
		required += samples_csv_required[c];
	CHECK_INT(required, 6, "six columns are required (trial, warmup, placement, role, status, "
	          "utime_s)");
}

static void test_split(void)
{
	char line[] = "a,,b,";
	char *fields[8];
	size_t n = samples_csv_split(line, fields, 8);
	CHECK(n == 4 && !strcmp(fields[0], "a") && !*fields[1] && !strcmp(fields[2], "b") &&
	      !*fields[3], "a,,b, splits into four fields, two of them empty");
	char many[] = "1,2,3,4,5";
	n = samples_csv_split(many, fields, 3);
	CHECK(n == 5 && !strcmp(fields[2], "3"), "a line with more fields than asked counts them all");
}

static void test_row_writer(void)
{
	struct samples_row row;
	samples_row_clear(&row);
	for (int c = 0; c < SAMPLES_COLUMN_COUNT; c++)
		if (c != SAMPLES_COL_FREQ)
			samples_row_set(&row, (enum samples_column)c, "%d", c);
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int unset = samples_row_print(&row, mem);
	CHECK_INT(unset, SAMPLES_COL_FREQ, "a row with a column left unset is refused, naming it");
	samples_row_set(&row, SAMPLES_COL_FREQ, "%s", "");
	unset = samples_row_print(&row, mem);
	CHECK_INT(unset, -1, "a row with every column set is written");
	fclose(mem);
	CHECK(text && len > 0 && text[len - 1] == '\n', "the row ends with its newline");
	size_t commas = 0;
	for (size_t i = 0; text && i < len; i++)
		commas += text[i] == ',';
	CHECK_INT(commas, SAMPLES_COLUMN_COUNT - 1, "one comma between each two columns");
	free(text);
}

static struct trial_result make_result(int nprocs, double utime)
{
	struct trial_result r = { .nprocs = nprocs, .overlap = 0.98, .freq_mhz = 2400,
	                          .loadavg_1m = 0.5 };
	snprintf(r.started_utc, sizeof r.started_utc, "2026-01-01T00:00:00Z");
	for (int i = 0; i < nprocs; i++)
		r.procs[i] = (struct proc_result){ .pu = i, .status = PROC_OK, .exit_code = 0,
		                                   .utime_s = utime + 0.01 * i, .stime_s = 0.001,
		                                   .wall_s = utime + 0.01, .start_s = 0.1,
		                                   .end_s = 0.1 + utime };
	return r;
}

/* What store_append_trial writes, store_scan and analysis_load_folder read back. */
static void test_round_trip(void)
{
	char dir[] = "/tmp/smtbench-schema-XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	char *run = xasprintf("%s/run", dir);
	char err[ERR_LEN];
	struct store *s = store_create(run, err, sizeof err);
	CHECK(s != NULL && store_publish(s, err, sizeof err) == 0, "store_create: %s", s ? "ok" : err);
	const enum placement order[] = { PLACEMENT_SOLO, PLACEMENT_SIBLING };
	long trial = 0;
	for (int k = 0; s && k < 6; k++) {
		enum placement p = order[k % 2];
		struct trial_labels labels = { .trial = trial++, .block = k / 2, .warmup = k < 2,
		                               .placement = p, .role = { "a", "a" },
		                               .workload = { "nop,x", "nop,x" } };
		struct trial_result r = make_result(placement_nprocs(p), p == PLACEMENT_SOLO ? 1 : 2);
		CHECK(store_append_trial(s, &labels, &r, err, sizeof err) == 0, "append trial %ld", labels.trial);
	}
	store_close(&s);

	struct store_scan scan = { 0 };
	s = store_open(run, err, sizeof err);
	bool scanned = s && store_scan(s, false, &scan, err, sizeof err) == 0;
	long n = scan.ntrials;
	const struct stored_trial *trials = scan.trials;
	CHECK(scanned && n == 6 && scan.cut_lines == 0, "store_scan reads back 6 complete trials");
	if (n == 6)
		CHECK(trials[3].placement == PLACEMENT_SIBLING && !trials[3].warmup && trials[3].ok &&
		      trials[3].utime_a_s > 2.004 && trials[3].utime_a_s < 2.006,
		      "trial 3: a measured sibling trial, mean role-a user time 2.005 s");
	store_close(&s);
	store_scan_release(&scan);

	char aerr[256];
	struct analysis_dataset *d = load_dir(run, ANALYSIS_UNIT_TRIAL, aerr, sizeof aerr);
	CHECK(d != NULL, "analysis_load_folder: %s", d ? "ok" : aerr);
	if (d) {
		CHECK(d->group_count == 2 && !strcmp(d->groups[0].name, "solo") &&
		      !strcmp(d->groups[1].name, "sibling"), "groups in the registry's order");
		CHECK(d->warning_count == 0, "no line was damaged");
		CHECK(d->warmup_trials == 2 && d->groups[1].n == 2, "2 warm-ups, 2 sibling samples");
		CHECK_NEAR(d->groups[1].values_s[0], 2.005, 1e-9, "the sibling sample's value");
		CHECK(d->groups[0].freq_n == 2 && d->groups[0].freq_mhz == 2400,
		      "the frequency of solo's measured rows");
		CHECK_STR(d->workload, "nop_x", "the workload's name, its comma replaced");
		CHECK(d->groups[1].overlap_known == 2 && d->groups[1].poor_overlap_trials == 0,
		      "the overlap column is read");
	}
	analysis_dataset_free(&d);
	char *cmd = xasprintf("rm -rf %s", dir);
	CHECK(system(cmd) == 0, "clean up");
	free(cmd);
	free(run);
}

static void test_placement_registry(void)
{
	int named = 0, unique = 0, styled = 0;
	for (int i = 0; i < PLACEMENT_COUNT; i++) {
		const struct placement_info *p = &placement_table[i];
		named += p->name && *p->name && (p->nprocs == 1 || p->nprocs == 2);
		styled += svg_color(i) && svg_color(i)[0] == '#' && svg_dash(i) && *svg_dash(i);
		int same = 0;
		for (int k = 0; k < PLACEMENT_COUNT; k++)
			same += p->name && placement_table[k].name &&
			        !strcmp(p->name, placement_table[k].name);
		unique += same == 1;
		enum placement back;
		CHECK(placement_parse(p->name, &back) == 0 && back == (enum placement)i &&
		      !strcmp(placement_name((enum placement)i), p->name),
		      "%s: name and enum map to each other", p->name);
	}
	CHECK_INT(named, PLACEMENT_COUNT, "every placement has a row with a name and 1 or 2 processes");
	CHECK_INT(unique, PLACEMENT_COUNT, "placement names are unique");
	CHECK_INT(styled, PLACEMENT_COUNT, "every placement has a colour and a dash");
	/* A marker drawn in one colour: two styles whose SVG is the same share a shape. */
	char *marker[PLACEMENT_COUNT] = { 0 };
	for (int i = 0; i < PLACEMENT_COUNT; i++) {
		size_t len;
		FILE *out = open_memstream(&marker[i], &len);
		if (out) {
			svg_marker(out, i, 10, 10, 3, "#000000", true);
			fclose(out);
		}
	}
	int colours = 0;
	for (int i = 0; i < PLACEMENT_COUNT; i++)
		for (int k = i + 1; k < PLACEMENT_COUNT; k++)
			colours += !strcmp(svg_color(i), svg_color(k)) || !marker[i] || !marker[k] ||
			           !strcmp(marker[i], marker[k]);
	CHECK_INT(colours, 0, "no two placements share a colour or a marker");
	for (int i = 0; i < PLACEMENT_COUNT; i++)
		free(marker[i]);

	struct placement_comparison plan[PLACEMENT_COMPARISONS_MAX];
	size_t n = placement_comparisons(plan, PLACEMENT_COMPARISONS_MAX);
	CHECK(n > 0 && n <= PLACEMENT_COMPARISONS_MAX, "%zu comparisons", n);
	int known = 0;
	for (size_t i = 0; i < n && i < PLACEMENT_COMPARISONS_MAX; i++)
		known += placement_info_find(plan[i].a) && placement_info_find(plan[i].b) &&
		         strcmp(plan[i].a, plan[i].b);
	CHECK_INT(known, n, "every comparison names two different rows of the registry");
	/* The order is what reports and golden outputs show. */
	char got[512] = "";
	for (size_t i = 0; i < n && i < PLACEMENT_COMPARISONS_MAX; i++)
		snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s/%s/%s", i ? " " : "",
		         plan[i].a, plan[i].b, comparison_kind_name(plan[i].kind));
	const char *order = got;
	CHECK_STR(order, "sibling/non-sibling/headline sibling/solo/contention "
	          "non-sibling/solo/contention cross-package/solo/contention same-pu/solo/control",
	          "the comparisons in report order");
	char list[256];
	const char *names = placement_names_list(list, sizeof list);
	CHECK_STR(names,
	          "solo, same-pu, sibling, non-sibling and cross-package", "the names for messages");
	CHECK(placement_info_rank("data_a.txt") == PLACEMENT_COUNT && !placement_info_find(NULL),
	      "other names rank after the placements");
	CHECK(placement_info_time_shared("same-pu") && !placement_info_time_shared("sibling") &&
	      !placement_info_time_shared("solo") && !placement_info_time_shared("data_a.txt"),
	      "only same-pu's processes take turns on one PU");
}

/* Every row has its pair-choice function: on a topology where every placement is possible,
 * each gets a pair with as many PUs as the row's processes. */
static void test_every_placement_has_a_pair(void)
{
	char err[ERR_LEN];
	struct topo *t = topo_load("pack:2 core:2 pu:2", err, sizeof err);
	CHECK(t != NULL, "load a two-package SMT topology: %s", t ? "ok" : err);
	for (int p = 0; t && p < PLACEMENT_COUNT; p++) {
		struct topo_pair pair;
		int rc = topo_choose(t, (enum placement)p, &pair);
		CHECK(rc == 0 && pair.available && pair.npus == placement_table[p].nprocs,
		      "%s has a pair of %d PU(s): %s", placement_table[p].name,
		      placement_table[p].nprocs, pair.available ? "yes" : pair.reason);
	}
	topo_free(&t);
}

/* `analyze` and the reports print numbers by one rule: the same value and resolution give the
 * same text through either door, including where the two used to differ. */
static void test_one_number_rule(void)
{
	const double cases[][2] = {
		{ 19.585, 0.0705 }, { 2.69552, 0.0076 }, { 31.137, 0.0675 }, { 0.0021977, 0.0065 },
		{ -0.000626, 0.0027 }, { 5e-5, 1e-6 }, { 1234567.0, 0.5 }, { 2e9, 1e6 }, { -0.0, 0.1 },
	};
	int same = 0;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char a[48], b[48];
		format_number(a, sizeof a, cases[i][0], cases[i][1]);
		format_number(b, sizeof b, cases[i][0], cases[i][1]);
		same += !strcmp(a, b);
	}
	CHECK_INT(same, sizeof cases / sizeof cases[0], "analyze's and the reports' formatter agree");
	char buf[48];
	const char *t = format_number(buf, sizeof buf, 19.585, 0.0705);
	CHECK_STR(t, "19.59", "digits follow the interval's half width");
	t = format_number(buf, sizeof buf, -0.000626, 0.0027);
	CHECK_STR(t, "-0.000626", "three significant digits at least, fixed from 1e-4");
	t = format_number(buf, sizeof buf, 5e-5, 1e-6);
	CHECK_STR(t, "5.000e-05", "scientific below 1e-4");
	t = format_number(buf, sizeof buf, 0.01, 1.7e-18);
	CHECK_STR(t, "0.01000", "an interval of zero width (rounding's 1e-18) does not ask for 12 "
	          "decimals");
}

int main(void)
{
	test_one_number_rule();
	test_header_is_the_contract();
	test_split();
	test_row_writer();
	test_round_trip();
	test_placement_registry();
	test_every_placement_has_a_pair();
	return test_done("test_schema");
}
