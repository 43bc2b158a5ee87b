/*
 * The seed's numbers, exactly: with --seed-grid, seed 003's data must give probability 1.00, a
 * mean difference of 19.58 s and the interval 16.2 to 22.8 s, printed to the digit, whether the
 * data come as arrays, as the shipped plain files, or as the shipped results folder (--unit
 * process, as the seed treats every process time as a sample).
 */
#include <stdlib.h>

#include "tests/harness.h"
#include "report/report.h"
#include "tests/unit/analysis_testdata.h"

static void check_seed_numbers(const struct analysis_result *r, const char *how)
{
	if (!CHECK(r && r->comparison_count == 1, "%s: one comparison", how))
		return;
	const struct analysis_comparison *c = &r->comparisons[0];
	char text[64];
	const char *shown = text; /* CHECK_STR wants a pointer */
	snprintf(text, sizeof text, "%.2f", c->p_a_gt_b);
	CHECK_STR(shown, "1.00", "probability that HT is slower");
	snprintf(text, sizeof text, "%.2f", c->diff_mean);
	CHECK_STR(shown, "19.58", "mean difference");
	analysis_format_shortest(c->diff_ci[0], text, sizeof text);
	CHECK_STR(shown, "16.2", "credible interval, low end");
	analysis_format_shortest(c->diff_ci[1], text, sizeof text);
	CHECK_STR(shown, "22.8", "credible interval, high end");
	/* The seed merges equal float differences only: 925 distinct values (computed with the
	 * seed's own arithmetic in Python), not the 201 of an exact lattice. */
	CHECK_INT(c->diff.count, 925, "distinct differences after the seed's merge");
	CHECK(c->grid.seed_grid && c->grid.mu_points[0] == 101 && c->grid.sigma_points == 101,
	      "%s: the seed's 101-point grids", how);
	/* The default method on the same data is far narrower, and the report says so. */
	CHECK(c->has_default && c->default_diff_ci[1] - c->default_diff_ci[0] <
	      0.1 * (c->diff_ci[1] - c->diff_ci[0]), "%s: default interval far narrower (%g to %g)",
	      how, c->default_diff_ci[0], c->default_diff_ci[1]);
}

int main(void)
{
	struct analysis_options opt;
	analysis_options_init(&opt);
	opt.seed_grid = true;

	struct analysis_result *r = compare_arrays(seed_ht, sizeof seed_ht / sizeof seed_ht[0],
	                                           seed_noht, sizeof seed_noht / sizeof seed_noht[0],
	                                           &opt);
	check_seed_numbers(r, "arrays");
	if (r) {
		/* The printed text carries the seed's sentences to the digit. */
		char *text = NULL;
		size_t size = 0;
		FILE *mem = open_memstream(&text, &size);
		analyze_print(mem, r);
		fclose(mem);
		CHECK(strstr(text, "slower with probability of 1.00"), "text: probability 1.00");
		CHECK(strstr(text, "on average 19.58s slower"), "text: 19.58 s");
		CHECK(strstr(text, "between 16.2 and 22.8 seconds"), "text: 16.2 to 22.8");
		CHECK(strstr(text, "sigma grid starts at 5 s"), "text: explains why the default differs");
		free(text);
	}
	compared_free(&r);
	CHECK(r == NULL, "analysis_result_free sets the pointer to NULL");

	const char *root = getenv("SMTBENCH_ROOT") ? getenv("SMTBENCH_ROOT") : ".";
	char path_a[1024], path_b[1024], dir[1024], err[512];
	snprintf(path_a, sizeof path_a, "%s/results/seed-example/data_ht.txt", root);
	snprintf(path_b, sizeof path_b, "%s/results/seed-example/data_noht.txt", root);
	snprintf(dir, sizeof dir, "%s/results/seed-example", root);

	struct analysis_dataset *d = analysis_load_files(path_a, path_b, err, sizeof err);
	if (CHECK(d != NULL, "load the shipped files: %s", d ? "ok" : err)) {
		CHECK_INT(d->groups[0].n, 18, "with HT: 18 samples");
		CHECK_INT(d->groups[1].n, 20, "without HT: 20 samples");
		r = analysis_run(d, &opt, err, sizeof err);
		check_seed_numbers(r, "files");
		analysis_result_free(&r);
	}
	analysis_dataset_free(&d);

	d = load_dir(dir, ANALYSIS_UNIT_PROCESS, err, sizeof err);
	if (CHECK(d != NULL, "load the shipped folder: %s", d ? "ok" : err)) {
		int sib = analysis_dataset_find(d, "sibling"), non = analysis_dataset_find(d, "non-sibling");
		CHECK(sib >= 0 && non >= 0 && d->groups[sib].n == 18 && d->groups[non].n == 20,
		      "folder, unit process: 18 sibling and 20 non-sibling samples");
		CHECK_INT(d->warning_count, 0, "the shipped samples.csv has no damaged line");
		r = analysis_run(d, &opt, err, sizeof err);
		check_seed_numbers(r, "folder");
		if (r)
			CHECK_STR(comparison_kind_name(r->comparisons[0].kind), "headline", "sibling vs non-sibling is the headline");
		analysis_result_free(&r);
	}
	analysis_dataset_free(&d);

	/* Unit trial: 9 and 10 trials, each the mean of its two processes. */
	d = load_dir(dir, ANALYSIS_UNIT_TRIAL, err, sizeof err);
	if (CHECK(d != NULL, "load the folder by trial")) {
		int sib = analysis_dataset_find(d, "sibling");
		CHECK(sib >= 0 && d->groups[sib].n == 9, "9 sibling trials");
		CHECK(sib >= 0 && fabs(d->groups[sib].values_s[0] - (31.17 + 31.10) / 2) < 1e-12,
		      "a trial is the mean of its processes");
	}
	analysis_dataset_free(&d);
	return test_done("test_analysis_seed");
}
