/*
 * bench_analysis — how long the analysis takes: analysis_run() (normal model) for 10^3 to 10^7
 * samples per group at the default grid, and for grids of 101 to 1001 points at 10^4 samples.
 * Loading is timed apart (it sorts for the robust outlier flags). Prints a table; asserts nothing.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "analysis/analysis.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Sum of 4 uniforms: near-normal, cheap; quantized to the microsecond like rusage. */
static void fill(double *x, size_t n, double mean, uint64_t *s)
{
	for (size_t i = 0; i < n; i++) {
		double u = 0;
		for (int k = 0; k < 4; k++)
			u += (double)(next(s) >> 11) / 9007199254740992.0;
		x[i] = (double)(long)((mean + 0.02 * (u - 2.0)) * 1e6) / 1e6;
	}
}

static int bench(size_t n, int grid)
{
	uint64_t s = n * 7919 + (uint64_t)grid;
	double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
	if (!a || !b)
		return -1;
	fill(a, n, 1.00, &s);
	fill(b, n, 1.01, &s);
	char err[256];
	double t0 = now_s();
	struct analysis_dataset *d = analysis_dataset_from_arrays("A", a, n, "B", b, n, err, sizeof err);
	double t1 = now_s();
	if (!d) {
		fprintf(stderr, "bench_analysis: %s\n", err);
		return -1;
	}
	struct analysis_options opt;
	analysis_options_init(&opt);
	opt.grid_points = grid;
	struct analysis_result *r = analysis_run(d, &opt, err, sizeof err);
	double t2 = now_s();
	if (!r) {
		fprintf(stderr, "bench_analysis: %s\n", err);
		return -1;
	}
	const struct analysis_comparison *c = &r->comparisons[0];
	printf("%10zu %6d %10.3f %10.3f   mu %zu+%zu, sigma %zu, widened %d\n", n, grid,
	       1e3 * (t1 - t0), 1e3 * (t2 - t1), c->grid.mu_points[0], c->grid.mu_points[1],
	       c->grid.sigma_points, c->grid.widenings);
	analysis_result_free(&r);
	analysis_dataset_free(&d);
	free(a);
	free(b);
	return 0;
}

int main(void)
{
	printf("analysis time, normal model (load = copy + outlier flags; analyse = analysis_run)\n");
	printf("%10s %6s %10s %10s\n", "n/group", "grid", "load ms", "analyse ms");
	for (size_t n = 1000; n <= 10000000; n *= 10)
		if (bench(n, ANALYSIS_GRID_DEFAULT) < 0)
			return 1;
	static const int grids[] = { 101, 201, 401, 1001 };
	for (size_t i = 0; i < sizeof grids / sizeof grids[0]; i++)
		if (bench(10000, grids[i]) < 0)
			return 1;
	return 0;
}
