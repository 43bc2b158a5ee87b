/*
 * test_paired.c — the paired design, on generated results folders (samples.csv written to disk
 * and loaded as `analyze DIR` loads it):
 *   - coverage: with a known ratio and drift shared by a block's placements, the 95% interval
 *     of the ratio covers the truth 95 ± 2.5% of the time over 600 folders, and its median
 *     width is within 1.1x of the classic t interval on the same blocks' log ratios (and far
 *     narrower than the unpaired interval, which carries the drift);
 *   - no drift at all: the paired interval is no wider than 1.1x the unpaired one (median);
 *   - A/A with drift: "slower" or "faster" in at most 5% of 400 folders;
 *   - dropped blocks counted, the fallback to unpaired below 4 blocks and without a block
 *     column (said in a note), two plain files paired value by value, --seed-grid unpaired;
 *   - the SMT yield from known samples: sibling copies 1.6x solo's time give 2 / 1.6 = 1.25;
 *   - placements no planned comparison joins are compared directly (unplanned);
 *   - each half's ratio interval against the closed form, and how often a stationary ratio's
 *     halves disagree.
 * Every random number comes from a fixed seed: the test is deterministic, never lucky.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>

#include "analysis/analysis.h"
#include "tests/harness.h"
#include "tests/unit/analysis_testdata.h"

static char tmp_root[] = "/tmp/smtbench-test-paired.XXXXXX";

/* How a folder is generated: blocks of sibling and non-sibling (in random order within each
 * block), user time = base * drift(block) * ratio(placement) * lognormal noise. */
struct scenario {
	int blocks;
	double ratio;        /* sibling / non-sibling, the truth */
	double noise_sd;     /* per trial, in log units */
	double drift_sd;     /* the block effect's random-walk step, in log units */
	double drift_wave;   /* a slow wave on top, amplitude in log units */
	bool with_block_column;
	int fail_sibling_every; /* > 0: every k-th block's sibling trial failed */
	const char *baseline;   /* the second placement: "non-sibling" when NULL */
	const char *extra;      /* a third placement at the baseline's times, or NULL */
};

static void write_folder(const char *dir, const struct scenario *sc, struct rng *r)
{
	mkdir(dir, 0755);
	char path[512];
	snprintf(path, sizeof path, "%s/samples.csv", dir);
	FILE *f = fopen(path, "w");
	if (!f)
		abort();
	fprintf(f, sc->with_block_column ? "trial,block,warmup,placement,proc,role,status,utime_s\n"
	                                 : "trial,warmup,placement,proc,role,status,utime_s\n");
	double walk = 0;
	long trial = 0;
	for (int b = 0; b < sc->blocks; b++) {
		walk += rng_normal(r, 0, sc->drift_sd);
		double drift = walk + sc->drift_wave * sin(b * 0.3);
		bool sibling_first = rng_uniform(r) < 0.5;
		for (int k = 0; k < 2; k++) {
			bool sibling = (k == 0) == sibling_first;
			double log_t = log(0.25) + drift + (sibling ? log(sc->ratio) : 0)
			               + rng_normal(r, 0, sc->noise_sd);
			bool failed = sibling && sc->fail_sibling_every > 0
			              && b % sc->fail_sibling_every == 0;
			const char *placement = sibling ? "sibling"
			                        : sc->baseline ? sc->baseline : "non-sibling";
			int procs = strcmp(placement, "solo") ? 2 : 1;
			for (int proc = 0; proc < procs; proc++) {
				if (sc->with_block_column)
					fprintf(f, "%ld,%d,0,%s,%d,a,%s,%.6f\n", trial, b, placement, proc,
					        failed && proc == 0 ? "crashed" : "ok", exp(log_t));
				else
					fprintf(f, "%ld,0,%s,%d,a,%s,%.6f\n", trial, placement, proc,
					        failed && proc == 0 ? "crashed" : "ok", exp(log_t));
			}
			trial++;
		}
		if (sc->extra && sc->with_block_column) {
			double log_t = log(0.25) + drift + rng_normal(r, 0, sc->noise_sd);
			for (int proc = 0; proc < 2; proc++)
				fprintf(f, "%ld,%d,0,%s,%d,a,ok,%.6f\n", trial, b, sc->extra, proc, exp(log_t));
			trial++;
		}
	}
	fclose(f);
}

static struct analysis_result *analyze_dir(const char *dir, enum analysis_design_request design)
{
	char err[512];
	struct analysis_dataset *d = load_dir(dir, ANALYSIS_UNIT_TRIAL, err, sizeof err);
	if (!d) {
		printf("# load %s: %s\n", dir, err);
		return NULL;
	}
	struct analysis_options opt;
	analysis_options_init(&opt);
	opt.design = design;
	struct analysis_result *res = analysis_run(d, &opt, err, sizeof err);
	if (!res) {
		printf("# analyze %s: %s\n", dir, err);
		analysis_dataset_free(&d);
	}
	return res;
}

static const struct analysis_comparison *headline(const struct analysis_result *r)
{
	for (size_t i = 0; r && i < r->comparison_count; i++)
		if (r->comparisons[i].kind == COMPARISON_HEADLINE)
			return &r->comparisons[i];
	return NULL;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, compare_doubles);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The classic t interval's width of exp(mean d) on the paired comparison's own statistics. */
static double t_interval_width(const struct analysis_comparison *c)
{
	double n = (double)c->blocks_paired;
	double half = gsl_cdf_tdist_Pinv(0.975, n - 1) * c->log_ratio_sd / sqrt(n);
	return exp(c->log_ratio_mean + half) - exp(c->log_ratio_mean - half);
}

enum { COVERAGE_FOLDERS = 600, AA_FOLDERS = 400, NO_DRIFT_FOLDERS = 200 };

static void test_coverage_with_drift(void)
{
	struct scenario sc = { .blocks = 20, .ratio = 1.3, .noise_sd = 0.03, .drift_sd = 0.04,
	                       .drift_wave = 0.1, .with_block_column = true };
	struct rng r = { 2026 };
	int covered = 0, runs = 0, paired_all = 1;
	static double width_ratio[COVERAGE_FOLDERS], vs_unpaired[COVERAGE_FOLDERS];
	for (int i = 0; i < COVERAGE_FOLDERS; i++) {
		char dir[256];
		snprintf(dir, sizeof dir, "%s/cover-%d", tmp_root, i);
		write_folder(dir, &sc, &r);
		struct analysis_result *paired = analyze_dir(dir, ANALYSIS_PAIR_AUTO);
		struct analysis_result *unpaired = analyze_dir(dir, ANALYSIS_PAIR_NEVER);
		const struct analysis_comparison *c = headline(paired), *u = headline(unpaired);
		if (c && u) {
			paired_all &= c->design == ANALYSIS_DESIGN_PAIRED && c->blocks_paired == 20
			              && u->design == ANALYSIS_DESIGN_UNPAIRED;
			covered += c->ratio_ci[0] <= sc.ratio && sc.ratio <= c->ratio_ci[1];
			double w = c->ratio_ci[1] - c->ratio_ci[0];
			width_ratio[runs] = w / t_interval_width(c);
			vs_unpaired[runs] = w / (u->ratio_ci[1] - u->ratio_ci[0]);
			runs++;
		}
		compared_free(&paired);
		compared_free(&unpaired);
	}
	CHECK_INT(runs, COVERAGE_FOLDERS, "every generated folder analyses, paired and unpaired");
	CHECK(paired_all, "a folder with a block column is paired by default (20 blocks), and "
	      "--unpaired gives the independent groups");
	double coverage = 100.0 * covered / (runs ? runs : 1);
	CHECK(coverage >= 92.5 && coverage <= 97.5, "with drift shared by a block, the 95%% "
	      "interval covers the true ratio in %.1f%% of %d folders (95 ± 2.5 wanted)",
	      coverage, runs);
	double vs_t = median(width_ratio, (size_t)runs);
	CHECK(vs_t >= 0.95 && vs_t <= 1.1, "its median width is %.3fx the t interval's on the "
	      "same blocks' log ratios (at most 1.1x)", vs_t);
	double gain = median(vs_unpaired, (size_t)runs);
	CHECK(gain < 0.5, "and %.2fx the unpaired interval's, which carries the drift", gain);
}

static void test_no_drift_no_wider(void)
{
	struct scenario sc = { .blocks = 20, .ratio = 1.1, .noise_sd = 0.03,
	                       .with_block_column = true };
	struct rng r = { 77 };
	static double widths[NO_DRIFT_FOLDERS];
	int runs = 0;
	for (int i = 0; i < NO_DRIFT_FOLDERS; i++) {
		char dir[256];
		snprintf(dir, sizeof dir, "%s/still-%d", tmp_root, i);
		write_folder(dir, &sc, &r);
		struct analysis_result *paired = analyze_dir(dir, ANALYSIS_PAIR_AUTO);
		struct analysis_result *unpaired = analyze_dir(dir, ANALYSIS_PAIR_NEVER);
		const struct analysis_comparison *c = headline(paired), *u = headline(unpaired);
		if (c && u)
			widths[runs++] = (c->ratio_ci[1] - c->ratio_ci[0]) / (u->ratio_ci[1] - u->ratio_ci[0]);
		compared_free(&paired);
		compared_free(&unpaired);
	}
	double m = runs ? median(widths, (size_t)runs) : NAN;
	CHECK(runs == NO_DRIFT_FOLDERS && m <= 1.1, "without any drift the paired interval is "
	      "%.3fx the unpaired one (median of %d folders; at most 1.1x)", m, runs);
}

static void test_a_a(void)
{
	struct scenario sc = { .blocks = 20, .ratio = 1.0, .noise_sd = 0.03, .drift_sd = 0.04,
	                       .drift_wave = 0.1, .with_block_column = true };
	struct rng r = { 4242 };
	int verdicts = 0, runs = 0;
	for (int i = 0; i < AA_FOLDERS; i++) {
		char dir[256];
		snprintf(dir, sizeof dir, "%s/aa-%d", tmp_root, i);
		write_folder(dir, &sc, &r);
		struct analysis_result *res = analyze_dir(dir, ANALYSIS_PAIR_AUTO);
		const struct analysis_comparison *c = headline(res);
		if (c) {
			runs++;
			verdicts += c->verdict == ANALYSIS_VERDICT_SLOWER
			            || c->verdict == ANALYSIS_VERDICT_FASTER;
		}
		compared_free(&res);
	}
	CHECK(runs == AA_FOLDERS && verdicts * 20 <= runs, "A/A with drift: 'slower' or 'faster' "
	      "in %d of %d folders (at most 5%%)", verdicts, runs);
}

/* Few blocks, noisy: the ratio's point estimate lies inside its own 95% interval. It was the
 * posterior mean of exp(delta), which Student-t tails leave to the grid's edge: a 4-trial
 * folder read 2.79x beside an interval of 0.492-2.00. */
static void test_point_inside_interval(void)
{
	struct scenario sc = { .blocks = 4, .ratio = 1.3, .noise_sd = 0.4, .drift_sd = 0.05,
	                       .with_block_column = true };
	struct rng r = { 99 };
	int inside = 0, runs = 0;
	double worst = 0;
	for (int i = 0; i < 100; i++) {
		char dir[256];
		snprintf(dir, sizeof dir, "%s/few-%d", tmp_root, i);
		write_folder(dir, &sc, &r);
		struct analysis_result *res = analyze_dir(dir, ANALYSIS_PAIR_AUTO);
		const struct analysis_comparison *c = headline(res);
		if (c && c->design == ANALYSIS_DESIGN_PAIRED) {
			runs++;
			bool in = c->ratio_ci[0] <= c->ratio_mean && c->ratio_mean <= c->ratio_ci[1];
			inside += in;
			if (!in && c->ratio_mean / c->ratio_ci[1] > worst)
				worst = c->ratio_mean / c->ratio_ci[1];
		}
		compared_free(&res);
	}
	CHECK(runs == 100 && inside == runs, "4 noisy blocks: the ratio's point estimate lies inside "
	      "its 95%% interval in %d of %d paired folders (the worst %.3gx its upper end)", inside,
	      runs, worst);
}

/* A note of the result containing text. */
static bool has_note(const struct analysis_result *r, const char *text)
{
	for (size_t i = 0; r && i < r->note_count; i++)
		if (strstr(r->notes[i], text))
			return true;
	return false;
}

static void test_dropped_and_fallback(void)
{
	struct rng r = { 5 };
	char dir[256];
	struct scenario sc = { .blocks = 20, .ratio = 1.2, .noise_sd = 0.03, .drift_sd = 0.02,
	                       .with_block_column = true, .fail_sibling_every = 5 };
	snprintf(dir, sizeof dir, "%s/failed", tmp_root);
	write_folder(dir, &sc, &r);
	struct analysis_result *res = analyze_dir(dir, ANALYSIS_PAIR_AUTO);
	const struct analysis_comparison *c = headline(res);
	CHECK(c && c->design == ANALYSIS_DESIGN_PAIRED && c->blocks_paired == 16
	      && c->blocks_dropped == 4, "4 blocks whose sibling trial failed are dropped and "
	      "counted: %zu paired, %zu dropped", c ? c->blocks_paired : 0,
	      c ? c->blocks_dropped : 0);
	compared_free(&res);

	sc = (struct scenario){ .blocks = 3, .ratio = 1.2, .noise_sd = 0.03,
	                        .with_block_column = true };
	snprintf(dir, sizeof dir, "%s/three", tmp_root);
	write_folder(dir, &sc, &r);
	res = analyze_dir(dir, ANALYSIS_PAIR_AUTO);
	c = headline(res);
	CHECK(c && c->design == ANALYSIS_DESIGN_UNPAIRED
	      && has_note(res, "3 block(s) hold both, fewer than the 4"),
	      "3 blocks: compared unpaired, and a note says why");
	compared_free(&res);

	sc = (struct scenario){ .blocks = 12, .ratio = 1.2, .noise_sd = 0.03 };
	snprintf(dir, sizeof dir, "%s/old", tmp_root);
	write_folder(dir, &sc, &r);
	res = analyze_dir(dir, ANALYSIS_PAIR_AUTO);
	c = headline(res);
	CHECK(c && c->design == ANALYSIS_DESIGN_UNPAIRED && has_note(res, "block column is missing or empty"),
	      "a samples.csv without a block column: unpaired, said in a note");
	compared_free(&res);
}

static void test_files_and_seed(void)
{
	double a[12], b[12];
	struct rng r = { 9 };
	for (int i = 0; i < 12; i++) {
		double drift = 0.3 * i;
		b[i] = 1.0 + drift + rng_normal(&r, 0, 0.002);
		a[i] = 1.1 * (1.0 + drift) + rng_normal(&r, 0, 0.002);
	}
	struct analysis_options opt;
	analysis_options_init(&opt);
	struct analysis_result *res = compare_arrays(a, 12, b, 12, &opt);
	CHECK(res && res->comparisons[0].design == ANALYSIS_DESIGN_UNPAIRED,
	      "two plain files stay unpaired by default");
	compared_free(&res);
	opt.design = ANALYSIS_PAIR_ALWAYS;
	res = compare_arrays(a, 12, b, 12, &opt);
	const struct analysis_comparison *c = res ? &res->comparisons[0] : NULL;
	CHECK(c && c->design == ANALYSIS_DESIGN_PAIRED && c->blocks_paired == 12
	      && c->ratio_ci[0] < 1.1 && 1.1 < c->ratio_ci[1] && c->ratio_ci[1] - c->ratio_ci[0] < 0.02,
	      "--paired pairs them value by value: the 1.1 ratio under a 4x drift, to ±1%% "
	      "([%.4f, %.4f])", c ? c->ratio_ci[0] : NAN, c ? c->ratio_ci[1] : NAN);
	compared_free(&res);
	char err[512] = "";
	struct analysis_dataset *d = analysis_dataset_from_arrays("A", a, 12, "B", b, 11, err,
	                                                          sizeof err);
	res = d ? analysis_run(d, &opt, err, sizeof err) : NULL;
	CHECK(!res && strstr(err, "A has 12 values but B has 11"),
	      "--paired on files of 12 and 11 values is refused, naming both counts: %s", err);
	analysis_result_free(&res);
	analysis_dataset_free(&d);
	analysis_options_init(&opt);
	opt.seed_grid = true;
	res = compare_arrays(seed_ht, 18, seed_noht, 20, &opt);
	CHECK(res && res->comparisons[0].design == ANALYSIS_DESIGN_UNPAIRED,
	      "--seed-grid is the seed's unpaired computation");
	compared_free(&res);
	opt.design = ANALYSIS_PAIR_ALWAYS;
	res = compare_arrays(seed_ht, 18, seed_noht, 20, &opt);
	CHECK(!res, "--seed-grid with --paired is refused");
	compared_free(&res);
}

static void test_smt_yield(void)
{
	struct rng r = { 31 };
	char dir[256];
	struct scenario sc = { .blocks = 30, .ratio = 1.6, .noise_sd = 0.01, .drift_sd = 0.03,
	                       .with_block_column = true, .baseline = "solo" };
	snprintf(dir, sizeof dir, "%s/yield", tmp_root);
	write_folder(dir, &sc, &r);
	struct analysis_result *res = analyze_dir(dir, ANALYSIS_PAIR_AUTO);
	const struct analysis_smt_yield *y = res ? &res->smt_yield : NULL;
	CHECK(y && y->known && !strcmp(y->baseline, "solo") && y->design == ANALYSIS_DESIGN_PAIRED
	      && y->settled && y->ci[0] < 1.25 && 1.25 < y->ci[1] && fabs(y->mean - 1.25) < 0.01,
	      "sibling copies at 1.6x solo's time: SMT yield 2 / 1.6 = 1.25 (got %.4f, %.4f-%.4f)",
	      y ? y->mean : NAN, y ? y->ci[0] : NAN, y ? y->ci[1] : NAN);
	compared_free(&res);
	res = analyze_dir(dir, ANALYSIS_PAIR_NEVER);
	y = res ? &res->smt_yield : NULL;
	CHECK(y && y->known && y->design == ANALYSIS_DESIGN_UNPAIRED && y->ci[0] < 1.25
	      && 1.25 < y->ci[1], "…and unpaired too (%.4f-%.4f)", y ? y->ci[0] : NAN,
	      y ? y->ci[1] : NAN);
	compared_free(&res);
	/* Without solo, same-pu is the one-PU baseline (each copy's user time is its time alone),
	 * before non-sibling. */
	sc.baseline = "same-pu";
	sc.extra = "non-sibling";
	snprintf(dir, sizeof dir, "%s/yield-same-pu", tmp_root);
	write_folder(dir, &sc, &r);
	res = analyze_dir(dir, ANALYSIS_PAIR_AUTO);
	y = res ? &res->smt_yield : NULL;
	CHECK(y && y->known && !strcmp(y->baseline, "same-pu") && y->design == ANALYSIS_DESIGN_PAIRED
	      && y->ci[0] < 1.25 && 1.25 < y->ci[1], "no solo (sibling, same-pu, non-sibling): the yield against "
	      "same-pu, 1.25 (got %.4f, %.4f-%.4f)", y ? y->mean : NAN, y ? y->ci[0] : NAN,
	      y ? y->ci[1] : NAN);
	compared_free(&res);
	struct analysis_options opt;
	analysis_options_init(&opt);
	res = compare_arrays(seed_ht, 18, seed_noht, 20, &opt);
	CHECK(res && !res->smt_yield.known, "two plain files: no placements, so no yield");
	compared_free(&res);
}

/* Two placements that no planned comparison joins (sibling and same-pu: neither the headline's
 * non-sibling nor solo ran) are compared directly, the later one in table order as A. */
static void test_unplanned(void)
{
	struct rng r = { 11 };
	char dir[256];
	struct scenario sc = { .blocks = 12, .ratio = 1.3, .noise_sd = 0.02,
	                       .with_block_column = true, .baseline = "same-pu" };
	snprintf(dir, sizeof dir, "%s/unplanned", tmp_root);
	write_folder(dir, &sc, &r);
	struct analysis_result *res = analyze_dir(dir, ANALYSIS_PAIR_AUTO);
	const struct analysis_comparison *c = res && res->comparison_count == 1
	                                      ? &res->comparisons[0] : NULL;
	CHECK(c && c->kind == COMPARISON_UNPLANNED && !strcmp(comparison_kind_name(c->kind), "unplanned")
	      && !strcmp(c->a.name, "sibling") && !strcmp(c->b.name, "same-pu")
	      && c->design == ANALYSIS_DESIGN_PAIRED && c->ratio_ci[0] < 1.3 && 1.3 < c->ratio_ci[1],
	      "sibling and same-pu alone: one comparison, unplanned, sibling vs same-pu, paired, "
	      "its interval holding 1.3 (got %s)", res ? "a result" : "no result");
	compared_free(&res);
	/* With non-sibling too, the headline joins sibling and non-sibling; same-pu is joined to
	 * them by one unplanned comparison, not one per placement. */
	sc.extra = "non-sibling";
	snprintf(dir, sizeof dir, "%s/joined", tmp_root);
	write_folder(dir, &sc, &r);
	res = analyze_dir(dir, ANALYSIS_PAIR_AUTO);
	size_t unplanned = 0, headlines = 0;
	for (size_t i = 0; res && i < res->comparison_count; i++) {
		unplanned += res->comparisons[i].kind == COMPARISON_UNPLANNED;
		headlines += res->comparisons[i].kind == COMPARISON_HEADLINE;
	}
	CHECK(res && res->comparison_count == 2 && headlines == 1 && unplanned == 1
	      && !strcmp(res->comparisons[1].a.name, "sibling")
	      && !strcmp(res->comparisons[1].b.name, "same-pu"), "sibling, non-sibling and same-pu: "
	      "the headline, and one unplanned comparison joining same-pu (sibling vs same-pu)");
	compared_free(&res);
}

/* Each half's interval is the closed form's n - 2 Student-t of its blocks: checked against the
 * formula written here (the mean, SS and GSL's t quantile of each half's blocks); a
 * stationary ratio says "doubtful" rarely (two 95% intervals of the same ratio that do not
 * overlap: measured over 2000 runs, at most 1%), a ratio that moved says it. */
static void test_halves(void)
{
	struct analysis_options opt;
	analysis_options_init(&opt);
	double d[16];
	struct rng r = { 21 };
	for (int i = 0; i < 16; i++)
		d[i] = (i < 8 ? 0.0 : 0.3) + rng_normal(&r, 0, 0.02);
	struct analysis_comparison c;
	char err[256];
	int rc = analysis_compare_log_ratios(d, 16, 0.25, &opt, &c, err, sizeof err);
	bool exact = rc == 0 && c.halves_known;
	for (int h = 0; exact && h < 2; h++) {
		double m = 0, ss = 0;
		for (int i = 0; i < 8; i++)
			m += d[8 * h + i] / 8;
		for (int i = 0; i < 8; i++)
			ss += (d[8 * h + i] - m) * (d[8 * h + i] - m);
		double half = gsl_cdf_tdist_Pinv(0.975, 6) * sqrt(ss / (8.0 * 6.0));
		exact = fabs(c.half_ratio[h] / exp(m) - 1) < 1e-9
		        && fabs(c.half_ratio_ci[h][0] / exp(m - half) - 1) < 1e-6
		        && fabs(c.half_ratio_ci[h][1] / exp(m + half) - 1) < 1e-6;
	}
	CHECK(exact && c.halves_disagree, "a ratio that went from 1.0 to 1.35 halfway: each half's "
	      "interval is the closed form's (t with 6 dof), and they disagree (%.4f, %.4f)",
	      rc == 0 ? c.half_ratio[0] : NAN, rc == 0 ? c.half_ratio[1] : NAN);
	if (rc == 0)
		analysis_comparison_release(&c);
	rc = analysis_compare_log_ratios(d, 7, 0.25, &opt, &c, err, sizeof err);
	CHECK(rc == 0 && !c.halves_known && !c.halves_disagree, "7 blocks: halves of 3 and 4 are "
	      "too few, so nothing is said of them");
	if (rc == 0)
		analysis_comparison_release(&c);
	int runs = 2000, doubtful = 0, known = 0;
	for (int k = 0; k < runs; k++) {
		for (int i = 0; i < 12; i++)
			d[i] = 0.1 + rng_normal(&r, 0, 0.05);
		if (analysis_compare_log_ratios(d, 12, 0.25, &opt, &c, err, sizeof err) != 0)
			continue;
		known += c.halves_known;
		doubtful += c.halves_disagree;
		analysis_comparison_release(&c);
	}
	CHECK(known == runs && doubtful <= runs / 100, "a stationary ratio, 12 blocks: 'doubtful' "
	      "in %d of %d runs (at most 1%%)", doubtful, runs);
}

int main(void)
{
	if (!mkdtemp(tmp_root)) {
		printf("# mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	test_coverage_with_drift();
	test_no_drift_no_wider();
	test_a_a();
	test_dropped_and_fallback();
	test_files_and_seed();
	test_smt_yield();
	test_point_inside_interval();
	test_unplanned();
	test_halves();
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_root);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmp_root);
	return test_done("test_paired");
}
