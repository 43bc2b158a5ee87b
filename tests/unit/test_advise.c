/*
 * test_advise.c — the advice's optimiser and its uncertainty against oracles written apart from
 * the code:
 *   - the plan against brute force: every assignment of 4 to 10 workloads to cores (two on a
 *     core or one alone) enumerated here, for both objectives, their worst plans, with copies
 *     (--count) and with unknown pairs, at every number of cores from the fewest to more than
 *     enough: the plan's value equals the enumeration's best;
 *   - the heuristic (above 20 items) gives a plan that fits and is no worse than the naive one;
 *   - a count that does not fit the cores is an error that says so, and so is a plan that needs
 *     an unknown pair;
 *   - coverage: matrices with known cells, each cell's per-block log ratios drawn with noise
 *     (fixed seeds), compared as the matrix compares them, advised: the 95% interval of the
 *     chosen plan's value holds its true value in 95 +- 2% of the simulations, for throughput
 *     and for the worst slowdown;
 *   - SMT on or off: a yield clearly above 1 keeps it on, clearly below turns it off, one inside
 *     the ROPE with many blocks is "either", and a cell with few blocks is "not enough data".
 * Every random number comes from a fixed seed: the test is deterministic.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/error.h"
#include "tests/harness.h"

/* ---- the oracle: every plan, enumerated ------------------------------------------------- */

struct brute {
	size_t n, pmin;
	const double *s;            /* item slowdowns, NAN unknown */
	int partner[32];
	double best_thr, worst_thr;             /* highest and lowest throughput */
	double best_worst, best_worst_thr;      /* smallest worst slowdown, its best throughput */
	double worst_worst;                     /* largest worst slowdown */
	long plans;
};

static void brute_value(struct brute *b)
{
	double rate = 0, worst = 0;
	size_t pairs = 0;
	for (size_t i = 0; i < b->n; i++) {
		double s = b->partner[i] < 0 ? 1 : b->s[i * b->n + (size_t)b->partner[i]];
		if (isnan(s))
			return;
		pairs += b->partner[i] > (int)i;
		rate += 1 / s;
		if (s > worst)
			worst = s;
	}
	if (pairs < b->pmin)
		return;
	double thr = rate / (double)b->n;
	b->plans++;
	if (isnan(b->best_thr) || thr > b->best_thr)
		b->best_thr = thr;
	if (isnan(b->worst_thr) || thr < b->worst_thr)
		b->worst_thr = thr;
	if (isnan(b->worst_worst) || worst > b->worst_worst)
		b->worst_worst = worst;
	if (isnan(b->best_worst) || worst < b->best_worst - 1e-12) {
		b->best_worst = worst;
		b->best_worst_thr = thr;
	} else if (fabs(worst - b->best_worst) <= 1e-12 && thr > b->best_worst_thr) {
		b->best_worst_thr = thr;
	}
}

static void brute_walk(struct brute *b, size_t i)
{
	while (i < b->n && b->partner[i] != -2)
		i++;
	if (i == b->n) {
		brute_value(b);
		return;
	}
	b->partner[i] = -1;
	brute_walk(b, i + 1);
	for (size_t j = i + 1; j < b->n; j++) {
		if (b->partner[j] != -2)
			continue;
		b->partner[i] = (int)j;
		b->partner[j] = (int)i;
		brute_walk(b, i + 1);
		b->partner[j] = -2;
	}
	b->partner[i] = -2;
}

static struct brute brute_force(size_t n, const double *s, size_t cores)
{
	struct brute b = { .n = n, .pmin = n > cores ? n - cores : 0, .s = s, .best_thr = NAN,
	                   .worst_thr = NAN, .best_worst = NAN, .best_worst_thr = NAN,
	                   .worst_worst = NAN };
	for (size_t i = 0; i < n; i++)
		b.partner[i] = -2;
	brute_walk(&b, 0);
	return b;
}

/* ---- helpers ----------------------------------------------------------------------------- */

static uint64_t rng_state;

static double uniform(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) * 0x1.0p-53;
}

static double normal(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/* Items from workload slowdowns: counts[w] copies of each. */
static size_t items_of(size_t nw, const double *cell, const size_t *counts, double *s)
{
	int iw[32];
	size_t n = 0;
	for (size_t w = 0; w < nw; w++)
		for (size_t k = 0; k < counts[w]; k++)
			iw[n++] = (int)w;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			s[i * n + j] = i == j ? NAN : cell[iw[i] * nw + iw[j]];
	return n;
}

static bool plan_fits(size_t n, const int *p, size_t cores)
{
	size_t pairs = 0;
	for (size_t i = 0; i < n; i++) {
		if (p[i] >= (int)n || p[i] == (int)i || (p[i] >= 0 && p[p[i]] != (int)i))
			return false;
		pairs += p[i] > (int)i;
	}
	return n - pairs <= cores;
}

/* ---- the plan against brute force -------------------------------------------------------- */

static void check_against_brute(size_t n, const double *s, size_t cores, const char *what)
{
	struct brute b = brute_force(n, s, cores);
	int p[32];
	bool exact;
	char err[ERR_LEN];
	bool all_ok = true;
	for (int obj = 0; obj < 2; obj++)
		for (int wc = 0; wc < 2; wc++) {
			int rc = analysis_plan_best(n, s, cores, (enum analysis_objective)obj, wc, p, &exact,
			                            err, sizeof err);
			if (rc != 0 || !exact || !plan_fits(n, p, cores)) {
				CHECK(0, "%s, %zu cores, objective %d%s: a plan that fits (%s)", what, cores,
				      obj, wc ? " (worst plan)" : "", rc ? err : "");
				all_ok = false;
				continue;
			}
			double thr = analysis_plan_throughput(n, s, p), worst = analysis_plan_worst(n, s, p);
			bool ok;
			if (obj == ANALYSIS_OBJECTIVE_THROUGHPUT)
				ok = fabs(thr - (wc ? b.worst_thr : b.best_thr)) < 1e-9;
			else if (!wc)
				ok = fabs(worst - b.best_worst) < 1e-9 && fabs(thr - b.best_worst_thr) < 1e-9;
			else
				ok = fabs(worst - b.worst_worst) < 1e-9;
			if (!ok) {
				CHECK(0, "%s, %zu cores, objective %d%s: throughput %.12g worst %.12g; brute "
				      "force's best throughput %.12g, worst %.12g (its throughput %.12g)", what,
				      cores, obj, wc ? " (worst plan)" : "", thr, worst,
				      wc ? b.worst_thr : b.best_thr, wc ? b.worst_worst : b.best_worst,
				      b.best_worst_thr);
				all_ok = false;
			}
		}
	if (all_ok)
		CHECK(1, "%s, %zu cores: both objectives and both worst plans equal brute force over %ld "
		      "plans", what, cores, b.plans);
}

static void test_brute_force(void)
{
	rng_state = 11;
	for (size_t nw = 4; nw <= 10; nw++) {
		for (int rep = 0; rep < 3; rep++) {
			double cell[100], s[400];
			size_t ones[10] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
			for (size_t k = 0; k < nw * nw; k++)
				cell[k] = exp(0.8 * uniform() - 0.05); /* 0.95 to 2.1: some pairs pay */
			/* a repeat: rounded slowdowns, so that ties occur */
			if (rep == 2)
				for (size_t k = 0; k < nw * nw; k++)
					cell[k] = round(cell[k] * 4) / 4;
			size_t n = items_of(nw, cell, ones, s);
			char what[80];
			snprintf(what, sizeof what, "%zu workloads (draw %d)", nw, rep);
			for (size_t cores = (n + 1) / 2; cores <= n + 1; cores += (n > 7 ? 2 : 1))
				check_against_brute(n, s, cores, what);
		}
	}
	/* copies: 3 workloads, counts 3, 2, 3 */
	double cell[9], s[64];
	for (int k = 0; k < 9; k++)
		cell[k] = exp(0.7 * uniform());
	size_t counts[3] = { 3, 2, 3 };
	size_t n = items_of(3, cell, counts, s);
	for (size_t cores = 4; cores <= 8; cores++)
		check_against_brute(n, s, cores, "8 copies of 3 workloads");
	/* unknown pairs: one workload never measured beside two others */
	double cell6[36], s6[36];
	size_t ones6[6] = { 1, 1, 1, 1, 1, 1 };
	for (int k = 0; k < 36; k++)
		cell6[k] = exp(0.5 * uniform());
	cell6[0 * 6 + 1] = cell6[2 * 6 + 0] = NAN;
	n = items_of(6, cell6, ones6, s6);
	for (size_t cores = 3; cores <= 6; cores++)
		check_against_brute(n, s6, cores, "6 workloads, 2 pairs unknown");
}

static void test_errors(void)
{
	double s[36];
	for (int k = 0; k < 36; k++)
		s[k] = 1.2;
	int p[6];
	bool exact;
	char err[ERR_LEN] = "";
	int rc = analysis_plan_best(6, s, 2, ANALYSIS_OBJECTIVE_THROUGHPUT, false, p, &exact, err,
	                            sizeof err);
	CHECK(rc == -1 && strstr(err, "6 workloads do not fit on 2 cores")
	      && strstr(err, "--cores 3"), "6 workloads on 2 cores: an error naming the counts and "
	      "the cores needed (%s)", err);
	/* every pair unknown, and pairing needed */
	for (int k = 0; k < 36; k++)
		s[k] = NAN;
	rc = analysis_plan_best(6, s, 4, ANALYSIS_OBJECTIVE_WORST, false, p, &exact, err, sizeof err);
	CHECK(rc == -1 && strstr(err, "no usable cell"), "pairing needed but no pair measured: an "
	      "error that says so (%s)", err);
	rc = analysis_plan_best(6, s, 6, ANALYSIS_OBJECTIVE_WORST, false, p, &exact, err, sizeof err);
	CHECK(rc == 0 && plan_fits(6, p, 6) && analysis_plan_worst(6, s, p) == 1, "no pair measured, "
	      "enough cores: every workload alone");
}

static void test_heuristic(void)
{
	rng_state = 5;
	enum { N = 30 };
	static double s[N * N];
	for (size_t k = 0; k < N * N; k++)
		s[k] = exp(0.8 * uniform());
	int p[N], naive[N];
	for (int i = 0; i < N; i++)
		naive[i] = i ^ 1;
	bool exact = true;
	char err[ERR_LEN];
	for (size_t cores = 15; cores <= 31; cores += 8) {
		int rc = analysis_plan_best(N, s, cores, ANALYSIS_OBJECTIVE_THROUGHPUT, false, p, &exact,
		                            err, sizeof err);
		CHECK(rc == 0 && !exact && plan_fits(N, p, cores)
		      && analysis_plan_throughput(N, s, p) >= analysis_plan_throughput(N, s, naive),
		      "30 items on %zu cores: the heuristic's plan fits and beats the naive one "
		      "(%.4f against %.4f)", cores, analysis_plan_throughput(N, s, p),
		      analysis_plan_throughput(N, s, naive));
		rc = analysis_plan_best(N, s, cores, ANALYSIS_OBJECTIVE_WORST, false, p, &exact, err,
		                        sizeof err);
		CHECK(rc == 0 && plan_fits(N, p, cores)
		      && analysis_plan_worst(N, s, p) <= analysis_plan_worst(N, s, naive),
		      "30 items on %zu cores, worst: fits, no worse than naive (%.4f against %.4f)",
		      cores, analysis_plan_worst(N, s, p), analysis_plan_worst(N, s, naive));
	}
}

/* ---- coverage ---------------------------------------------------------------------------- */

/* One simulated matrix: nw workloads with true slowdowns truth[], each cell's blocks drawn with
 * noise sd sigma, compared as the matrix compares them, then advised. Whether the interval of
 * the chosen plan's value (by the objective) holds its true value. */
static int simulate_once(size_t nw, const double *truth, size_t blocks, double sigma,
                         size_t cores, enum analysis_objective obj, uint64_t seed)
{
	struct analysis_comparison cmp[16];
	const struct analysis_comparison *cells[16];
	struct analysis_options opt;
	analysis_options_init(&opt);
	double d[64];
	char err[ERR_LEN];
	for (size_t k = 0; k < nw * nw; k++) {
		for (size_t b = 0; b < blocks; b++)
			d[b] = log(truth[k]) + sigma * normal();
		if (analysis_compare_log_ratios(d, blocks, 1.0, &opt, &cmp[k], err, sizeof err) != 0)
			return -1;
		cells[k] = &cmp[k];
	}
	struct analysis_advise_request rq = { .nworkloads = nw, .cells = cells, .cores = cores,
	                                      .objective = obj, .draws = 1000, .seed = seed,
	                                      .rope_pct = 5 };
	struct analysis_advice *a = analysis_advise(&rq, err, sizeof err);
	int covered = -1;
	if (a) {
		double s[16];
		size_t ones[4] = { 1, 1, 1, 1 };
		size_t n = items_of(nw, truth, ones, s);
		double v = obj == ANALYSIS_OBJECTIVE_THROUGHPUT
		           ? analysis_plan_throughput(n, s, a->best.partner)
		           : analysis_plan_worst(n, s, a->best.partner);
		const double *ci = obj == ANALYSIS_OBJECTIVE_THROUGHPUT ? a->best.throughput_ci
		                                                        : a->best.worst_ci;
		covered = v >= ci[0] && v <= ci[1];
	}
	analysis_advice_free(&a);
	for (size_t k = 0; k < nw * nw; k++)
		analysis_comparison_release(&cmp[k]);
	return covered;
}

static double coverage(size_t nw, const double *truth, size_t blocks, size_t cores,
                       enum analysis_objective obj, uint64_t seed, int reps, int *done)
{
	rng_state = seed;
	int hits = 0;
	*done = 0;
	for (int r = 0; r < reps; r++) {
		int k = simulate_once(nw, truth, blocks, 0.05, cores, obj, (uint64_t)r + 1);
		if (k >= 0) {
			hits += k;
			(*done)++;
		}
	}
	return *done ? (double)hits / *done : 0;
}

static void test_coverage(void)
{
	/* 4 workloads on 2 cores, one clear best pairing (0-1 and 2-3), whose worst cell (0 beside
	 * 1, 1.25) stands well above the plan's other cells */
	const double truth[16] = { 1.30, 1.25, 1.60, 1.45,
	                           1.10, 1.25, 1.50, 1.70,
	                           1.55, 1.40, 1.35, 1.08,
	                           1.65, 1.60, 1.12, 1.20 };
	int reps = 1000, done;
	double share = coverage(4, truth, 30, 2, ANALYSIS_OBJECTIVE_THROUGHPUT, 1000, reps, &done);
	CHECK(done == reps && fabs(share - 0.95) <= 0.02, "coverage of the plan's throughput "
	      "interval, 30 blocks, %d simulations: %.1f%% (95 +- 2)", done, 100 * share);
	share = coverage(4, truth, 30, 2, ANALYSIS_OBJECTIVE_WORST, 1001, reps, &done);
	CHECK(done == reps && fabs(share - 0.95) <= 0.02, "coverage of the plan's worst-slowdown "
	      "interval, one cell the worst, 30 blocks, %d simulations: %.1f%% (95 +- 2)", done,
	      100 * share);
	/* Near ties: the plan's four cells within 4% of each other. The worst slowdown is their
	 * maximum, whose posterior interval is conservative there (a maximum of close noisy cells);
	 * measured, and held to never cover less than 93%. */
	const double ties[16] = { 1.30, 1.10, 1.60, 1.45,
	                          1.12, 1.25, 1.50, 1.70,
	                          1.55, 1.40, 1.35, 1.08,
	                          1.65, 1.60, 1.10, 1.20 };
	share = coverage(4, ties, 30, 2, ANALYSIS_OBJECTIVE_WORST, 1002, reps, &done);
	CHECK(done == reps && share >= 0.93, "coverage of the worst-slowdown interval with the "
	      "plan's cells near ties, %d simulations: %.1f%% (at least 93: conservative)", done,
	      100 * share);
	share = coverage(4, ties, 10, 2, ANALYSIS_OBJECTIVE_THROUGHPUT, 1003, reps, &done);
	CHECK(done == reps && share >= 0.93 && share <= 0.99, "coverage of the throughput interval "
	      "at 10 blocks (each cell's t interval, n - 2 dof, is itself a little conservative "
	      "there), %d simulations: %.1f%%", done, 100 * share);
}

/* ---- SMT on or off ----------------------------------------------------------------------- */

static void smt_case(double slowdown, size_t blocks, double sigma,
                     enum analysis_smt_decision want, const char *what)
{
	double d[200];
	rng_state = 77;
	for (size_t b = 0; b < blocks; b++)
		d[b] = log(slowdown) + sigma * normal();
	struct analysis_options opt;
	analysis_options_init(&opt);
	opt.rope_pct = 5;
	struct analysis_comparison c;
	char err[ERR_LEN];
	if (analysis_compare_log_ratios(d, blocks, 1.0, &opt, &c, err, sizeof err) != 0) {
		CHECK(0, "%s: compared (%s)", what, err);
		return;
	}
	struct analysis_smt_advice a;
	analysis_smt_advise(&c, NULL, 5, &a);
	CHECK(a.measured && a.decision == want && (want == ANALYSIS_SMT_UNKNOWN
	      || (a.yield_ci[0] < 2 / slowdown && a.yield_ci[1] > 2 / slowdown)),
	      "%s: yield %.3f (%.3f-%.3f), decision %d", what, a.yield, a.yield_ci[0], a.yield_ci[1],
	      (int)a.decision);
	analysis_comparison_release(&c);
}

static void test_smt(void)
{
	smt_case(1.6, 20, 0.03, ANALYSIS_SMT_KEEP_ON, "slowdown 1.6 beside itself (yield 1.25): keep on");
	smt_case(2.4, 20, 0.03, ANALYSIS_SMT_TURN_OFF, "slowdown 2.4 (yield 0.83): turn off");
	smt_case(2.0, 150, 0.02, ANALYSIS_SMT_EITHER, "slowdown 2.0 (yield 1), 150 blocks: either");
	smt_case(1.9, 5, 0.3, ANALYSIS_SMT_UNKNOWN, "5 noisy blocks: not enough data to say");
	struct analysis_smt_advice a;
	analysis_smt_advise(NULL, NULL, 5, &a);
	CHECK(!a.measured && a.decision == ANALYSIS_SMT_UNKNOWN, "no cell beside itself: not "
	      "measured, no decision");
}

int main(void)
{
	test_brute_force();
	test_errors();
	test_heuristic();
	test_smt();
	test_coverage();
	return test_done("test_advise");
}
