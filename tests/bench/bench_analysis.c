/*
 * bench_analysis — how long the analysis takes: analysis_run() for 10^3 to 10^7 samples per
 * group at the default grid (normal model; the Student-t model up to 10^6, with the error bound
 * its fast form states), for grids of 101 to 1001 points at 10^4 samples, and loading a
 * samples.csv of 10^7 rows written under $SMTBENCH_BUILD (build/ by default; removed after),
 * read in one part and in parts on every CPU.
 * Loading arrays is timed apart (it sorts for the robust outlier flags). Prints tables;
 * asserts nothing.
 */
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/internal.h"
#include "common/samples_csv.h"

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

static int bench(size_t n, int grid, enum analysis_model model)
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
	clock_t c1 = clock();
	if (!d) {
		fprintf(stderr, "bench_analysis: %s\n", err);
		return -1;
	}
	struct analysis_options opt;
	analysis_options_init(&opt);
	opt.grid_points = grid;
	opt.model = model;
	struct analysis_result *r = analysis_run(d, &opt, err, sizeof err);
	double t2 = now_s();
	clock_t c2 = clock();
	if (!r) {
		fprintf(stderr, "bench_analysis: %s\n", err);
		return -1;
	}
	const struct analysis_comparison *c = &r->comparisons[0];
	printf("%-7s %10zu %6d %10.3f %10.3f %10.3f   mu %zu+%zu, sigma %zu, widened %d", model ==
	       ANALYSIS_MODEL_T ? "t" : "normal", n, grid, 1e3 * (t1 - t0), 1e3 * (t2 - t1),
	       1e3 * (double)(c2 - c1) / CLOCKS_PER_SEC, c->grid.mu_points[0], c->grid.mu_points[1], c->grid.sigma_points, c->grid.widenings);
	if (model == ANALYSIS_MODEL_T)
		printf(", log-likelihood error <= %.2g", c->grid.t_loglik_error);
	printf("\n");
	analysis_result_free(&r);
	analysis_dataset_free(&d);
	free(a);
	free(b);
	return 0;
}

/* Appends v >= 0 with `decimals` decimals (what "%.*f" writes, without printf's cost). */
static char *put_fixed(char *p, double v, int decimals)
{
	static const double scale[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6 };
	unsigned long long units = (unsigned long long)(v * scale[decimals] + 0.5), div = 1;
	for (int i = 0; i < decimals; i++)
		div *= 10;
	p += sprintf(p, "%llu", units / div);
	if (decimals) {
		*p++ = '.';
		for (unsigned long long d = div / 10, rest = units % div; d; d /= 10) {
			*p++ = (char)('0' + rest / d);
			rest %= d;
		}
	}
	return p;
}

static size_t fields_in(const char *line)
{
	size_t n = 1;
	for (; *line && *line != '\n'; line++)
		n += *line == ',';
	return n;
}

/* A samples.csv of `rows` rows as the runner writes them: trials of solo (one row) and of
 * non-sibling and sibling (two rows each), every column filled. */
static int write_samples(const char *path, size_t rows)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	static char buf[1 << 20];
	setvbuf(f, buf, _IOFBF, sizeof buf);
	fprintf(f, "%s\n", SAMPLES_CSV_HEADER);
	static const char *const places[] = { "solo", "non-sibling", "sibling" };
	uint64_t s = 42;
	long trial = 0;
	for (size_t written = 0; written < rows; trial++) {
		int p = (int)(trial % 3), procs = p == 0 ? 1 : 2;
		for (int proc = 0; proc < procs && written < rows; proc++, written++) {
			double u = 0.25 + 0.001 * (double)(next(&s) >> 40) / 16777216.0;
			char line[256], *q = line;
			q += sprintf(q, "%ld,%ld,%d,%s,%d,a,%d,nop,ok,0,,", trial, trial / 3, trial < 3,
			             places[p], proc, 2 * proc);
			const double times[] = { u, 0.000012, u + 0.0004, 0.3 * (double)trial,
			                         0.3 * (double)trial + u };
			for (size_t t = 0; t < sizeof times / sizeof times[0]; t++) {
				q = put_fixed(q, times[t], 6);
				*q++ = ',';
			}
			q += sprintf(q, "1,%d,1408,", (int)(next(&s) & 3));
			q = put_fixed(q, 0.9987, 4);
			q += sprintf(q, ",2994,0.52,2026-11-30T22:00:00Z,0.000000,0.000000,0,\n");
			if (written == 0 && fields_in(line) != SAMPLES_COLUMN_COUNT) {
				/* A writer left behind by a new column would time 10^7 warnings. */
				fprintf(stderr, "bench_analysis: the bench's rows have %zu fields, "
				        "samples.csv has %d columns: update write_samples\n",
				        fields_in(line), SAMPLES_COLUMN_COUNT);
				fclose(f);
				return -1;
			}
			fwrite(line, 1, (size_t)(q - line), f);
		}
	}
	return fclose(f);
}

/* Loads dir in `parts` parts (0: as analyze does, one per CPU) three times: the median wall
 * and CPU time, or -1 when it does not load whole. */
static int time_load(const char *dir, size_t parts, double *wall, double *cpu, size_t *points)
{
	double walls[3], cpus[3];
	for (int k = 0; k < 3; k++) {
		char err[512];
		double t0 = now_s();
		clock_t c0 = clock();
		struct analysis_dataset *d = samples_load(dir, ANALYSIS_UNIT_TRIAL, false, parts, err,
		                                          sizeof err);
		walls[k] = now_s() - t0;
		cpus[k] = (double)(clock() - c0) / CLOCKS_PER_SEC;
		if (!d) {
			fprintf(stderr, "bench_analysis: %s\n", err);
			return -1;
		}
		bool whole = d->warning_count == 0 && d->group_count == 3;
		if (!whole)
			fprintf(stderr, "bench_analysis: the bench's samples.csv did not load whole: %zu "
			        "groups, %zu warnings, the first: %s\n", d->group_count, d->warning_count,
			        d->warning_count ? d->warnings[0] : "(none)");
		*points = d->point_count;
		analysis_dataset_free(&d);
		if (!whole)
			return -1;
	}
	for (int a = 0; a < 3; a++) /* the middle of three, by wall time */
		for (int b = a + 1; b < 3; b++)
			if (walls[b] < walls[a]) {
				double w = walls[a], c = cpus[a];
				walls[a] = walls[b], cpus[a] = cpus[b];
				walls[b] = w, cpus[b] = c;
			}
	*wall = walls[1];
	*cpu = cpus[1];
	return 0;
}

static int bench_load(size_t rows)
{
	const char *build = getenv("SMTBENCH_BUILD");
	char dir[512], path[600];
	snprintf(dir, sizeof dir, "%s/bench-load", build && *build ? build : "build");
	snprintf(path, sizeof path, "%s/samples.csv", dir);
	if (mkdir(dir, 0755) < 0 && access(dir, W_OK) < 0) {
		fprintf(stderr, "bench_analysis: cannot make %s\n", dir);
		return -1;
	}
	double t0 = now_s();
	if (write_samples(path, rows) < 0) {
		fprintf(stderr, "bench_analysis: cannot write %s\n", path);
		return -1;
	}
	double written = now_s() - t0, wall1, cpu1, wall, cpu;
	struct stat st;
	long long bytes = stat(path, &st) == 0 ? (long long)st.st_size : -1;
	size_t points = 0;
	int rc = time_load(dir, 1, &wall1, &cpu1, &points) < 0 ||
	         time_load(dir, 0, &wall, &cpu, &points) < 0 ? -1 : 0;
	if (!getenv("SMTBENCH_BENCH_KEEP")) { /* kept for profiling the loader */
		unlink(path);
		rmdir(dir);
	}
	if (rc < 0)
		return -1;
	cpu_set_t cpus;
	int ncpu = sched_getaffinity(0, sizeof cpus, &cpus) == 0 ? CPU_COUNT(&cpus) : 1;
	printf("%10zu rows (%lld MB, written in %.1f s), %zu points; median of 3 loads:\n"
	       "  in one part:             %.3f s (CPU %.3f s)\n"
	       "  in parts on %2d CPU(s):   %.3f s (CPU %.3f s)   the target is under 2 s: %s\n",
	       rows, bytes >> 20, written, points, wall1, cpu1, ncpu, wall, cpu,
	       wall < 2.0 ? "met here" : "NOT met on this machine");
	return 0;
}

/* With an argument (normal, t or load), only that part. */
int main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : "";
	bool all = !*only;
	printf("analysis time (load = copy + outlier flags; analyse = analysis_run, wall and CPU)\n");
	printf("%-7s %10s %6s %10s %10s %10s\n", "model", "n/group", "grid", "load ms", "analyse ms",
	       "(CPU ms)");
	for (size_t n = 1000; (all || !strcmp(only, "normal")) && n <= 10000000; n *= 10)
		if (bench(n, ANALYSIS_GRID_DEFAULT, ANALYSIS_MODEL_NORMAL) < 0)
			return 1;
	static const int grids[] = { 101, 201, 401, 1001 };
	for (size_t i = 0; (all || !strcmp(only, "normal")) && i < sizeof grids / sizeof grids[0]; i++)
		if (bench(10000, grids[i], ANALYSIS_MODEL_NORMAL) < 0)
			return 1;
	for (size_t n = 1000; (all || !strcmp(only, "t")) && n <= 1000000; n *= 10)
		if (bench(n, ANALYSIS_GRID_DEFAULT, ANALYSIS_MODEL_T) < 0)
			return 1;
	if (!all && strcmp(only, "load"))
		return 0;
	printf("loading samples.csv (as analyze does: parse, trials, outlier flags), in one part and in "
	       "parts at once\n");
	return bench_load(10000000) < 0;
}
