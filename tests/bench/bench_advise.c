/*
 * bench_advise — how long `advise` takes: analysis_advise() (the plan, its 4000 joint draws and
 * P(best)) for 4 to 20 workloads (exact) and 30 to 120 (the heuristic), both objectives, on
 * synthetic cells (12 paired blocks each, fixed seed), with the number of draws P(best) was taken
 * over. Prints a table; asserts nothing.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "analysis/analysis.h"
#include "common/error.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double uniform(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return ((double)((z ^ (z >> 31)) >> 11) + 0.5) * 0x1.0p-53;
}

int main(void)
{
	static const size_t sizes[] = { 4, 8, 12, 16, 18, 20, 30, 60, 120 };
	printf("%10s %6s %11s %8s %12s %10s\n", "workloads", "cores", "objective", "exact",
	       "P(best) of", "seconds");
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		size_t nw = sizes[k], cells = nw * nw;
		struct analysis_comparison *c = calloc(cells, sizeof *c);
		const struct analysis_comparison **p = calloc(cells, sizeof *p);
		struct analysis_options opt;
		analysis_options_init(&opt);
		uint64_t seed = 42;
		char err[ERR_LEN];
		for (size_t i = 0; i < cells; i++) {
			double d[12], truth = log(1 + uniform(&seed));
			for (int b = 0; b < 12; b++)
				d[b] = truth + 0.05 * (uniform(&seed) - 0.5);
			if (analysis_compare_log_ratios(d, 12, 1.0, &opt, &c[i], err, sizeof err) != 0) {
				fprintf(stderr, "bench_advise: %s\n", err);
				return 1;
			}
			p[i] = &c[i];
		}
		for (int o = 0; o < 2; o++) {
			struct analysis_advise_request rq = { .nworkloads = nw, .cells = p,
			                                      .cores = (nw + 1) / 2, .objective = o,
			                                      .seed = 1, .rope_pct = 5 };
			double t0 = now_s();
			struct analysis_advice *a = analysis_advise(&rq, err, sizeof err);
			double dt = now_s() - t0;
			if (!a) {
				fprintf(stderr, "bench_advise: %s\n", err);
				return 1;
			}
			printf("%10zu %6zu %11s %8s %12zu %10.3f\n", nw, rq.cores,
			       o ? "worst" : "throughput", a->exact ? "yes" : "heuristic",
			       a->p_best_draws, dt);
			fflush(stdout);
			analysis_advice_free(&a);
		}
		for (size_t i = 0; i < cells; i++)
			analysis_comparison_release(&c[i]);
		free(c);
		free(p);
	}
	return 0;
}
