/*
 * test_zero_times — a time of 0 s is below the clock's resolution (user time is counted in clock
 * ticks), not a length: a comparison leaves such times out and says how many, refuses when more
 * than half of a side's are 0, and counts a block both sides ran in but one measured 0 s as
 * held by both (never as missing). Identical all-zero files get no ratio.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "report/words.h"
#include "tests/harness.h"
#include "tests/unit/analysis_testdata.h"

/* A group of n samples, block i for sample i, value values[i]. */
static struct analysis_group group_of(const char *name, const double *values, size_t n)
{
	struct analysis_group g = { 0 };
	g.name = (char *)name;
	g.values_s = (double *)values;
	g.n = n;
	g.trials = malloc(n * sizeof *g.trials);
	g.blocks = malloc(n * sizeof *g.blocks);
	for (size_t i = 0; i < n; i++) {
		g.trials[i] = (long)i;
		g.blocks[i] = (long)i;
	}
	return g;
}

static void group_free(struct analysis_group *g)
{
	free(g->trials);
	free(g->blocks);
}

static void test_identical_zero_files(void)
{
	const double zeros[4] = { 0, 0, 0, 0 };
	struct analysis_options opt;
	analysis_options_init(&opt);
	char err[1024] = "";
	struct analysis_dataset *d = analysis_dataset_from_arrays("z1", zeros, 4, "z2", zeros, 4,
	                                                          err, sizeof err);
	struct analysis_result *r = d ? analysis_run(d, &opt, err, sizeof err) : NULL;
	CHECK(d && !r && strstr(err, "4 of 4 times of z1 are 0 s")
	      && strstr(err, "clock ticks"), "identical all-zero files: refused with the count and "
	      "the clock's ticks, no ratio (got: %s)", r ? "an answer" : err);
	analysis_result_free(&r);
	analysis_dataset_free(&d);
}

static void test_few_zeros_left_out(void)
{
	double a[12], b[12];
	for (int i = 0; i < 12; i++) {
		a[i] = 0.2 * (1 + 0.01 * (i % 3));
		b[i] = 0.1 * (1 + 0.01 * ((i + 1) % 3));
	}
	a[3] = a[7] = 0; /* 2 of 12: under half */
	struct analysis_group ga = group_of("sibling", a, 12), gb = group_of("solo", b, 12);
	struct analysis_options opt;
	analysis_options_init(&opt);
	struct analysis_comparison c;
	char *note = NULL, err[1024] = "";
	int rc = analysis_compare_groups(&ga, &gb, ANALYSIS_DROPPED_OF_A, &opt, &c, &note, err,
	                                 sizeof err);
	CHECK(rc == 0 && c.zero_a == 2 && c.zero_b == 0 && c.a.n == 10 && c.b.n == 12,
	      "2 times of 0 s in 12: compared without them, counted (zero_a %zu, a.n %zu)",
	      rc == 0 ? c.zero_a : 0, rc == 0 ? c.a.n : 0);
	CHECK(rc == 0 && c.design == ANALYSIS_DESIGN_PAIRED && c.blocks_paired == 10
	      && c.blocks_dropped == 2 && c.blocks_zero == 2, "paired: the 2 blocks with a time "
	      "of 0 s are dropped and said to be (paired %zu, dropped %zu, zero %zu)",
	      rc == 0 ? c.blocks_paired : 0, rc == 0 ? c.blocks_dropped : 0,
	      rc == 0 ? c.blocks_zero : 0);
	CHECK(rc == 0 && c.ratio_ci[0] < 2 && 2 < c.ratio_ci[1], "the ratio of the times above 0 "
	      "is 2 ([%g, %g])", rc == 0 ? c.ratio_ci[0] : NAN, rc == 0 ? c.ratio_ci[1] : NAN);
	if (rc == 0) {
		const struct analysis_dataset folder = { .from_folder = true,
		                                         .unit = ANALYSIS_UNIT_TRIAL };
		struct verdict_words w = { .where = "", .a = "sibling placement", .subject = "`x`",
		                           .note = "", .data = &folder };
		char *s = verdict_sentence(&c, NAN, &w);
		CHECK(strstr(s, "2 of 12 times of sibling measured 0 s") != NULL,
		      "the answer's sentence says how many times of 0 s it left out: %s", s);
		CHECK(strstr(s, "2 dropped, 2 of them for a time of 0 s") != NULL,
		      "…and why its blocks were dropped: %s", s);
		free(s);
		analysis_comparison_release(&c);
	}
	free(note);

	a[1] = a[5] = a[0] = a[9] = a[10] = 0; /* 7 of 12: over half */
	rc = analysis_compare_groups(&ga, &gb, ANALYSIS_DROPPED_OF_A, &opt, &c, &note, err,
	                             sizeof err);
	CHECK(rc != 0 && strstr(err, "7 of 12 times of sibling are 0 s"), "7 times of 0 s in 12: "
	      "refused with the count (%s)", rc != 0 ? err : "compared");
	if (rc == 0)
		analysis_comparison_release(&c);
	free(note);
	group_free(&ga);
	group_free(&gb);
}

static void test_zero_blocks_counted_as_held(void)
{
	/* 4 blocks, each side 0 s in one block, not the same: 2 blocks pair, 2 hold both but a 0. */
	double a[4] = { 0.2, 0, 0.21, 0.2 }, b[4] = { 0.1, 0.1, 0.1, 0 };
	struct analysis_group ga = group_of("sibling", a, 4), gb = group_of("solo", b, 4);
	struct analysis_options opt;
	analysis_options_init(&opt);
	struct analysis_comparison c;
	char *note = NULL, err[1024] = "";
	int rc = analysis_compare_groups(&ga, &gb, 0, &opt, &c, &note, err, sizeof err);
	CHECK(rc == 0 && note && strstr(note, "2 block(s) hold both with times above 0 s (2 more "
	      "hold both but measured 0 s on one side"), "blocks that ran both but measured 0 s "
	      "are counted as held by both, not as missing: %s", note ? note : err);
	if (rc == 0)
		analysis_comparison_release(&c);
	free(note);
	group_free(&ga);
	group_free(&gb);
}

int main(void)
{
	test_identical_zero_files();
	test_few_zeros_left_out();
	test_zero_blocks_counted_as_held();
	return test_done("test_zero_times");
}
