/*
 * advise.c — from a measured matrix to a decision: which workloads share a core (the plan), what
 * it is worth with its uncertainty, and SMT on or off per workload (analysis.h, "Advice", states
 * the method). The cells' posteriors are drawn independently, as the matrix's safe list takes
 * them; the plans chosen from the point estimates are valued in each draw, and an interval is
 * the draws' 2.5% and 97.5% quantiles.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort_double.h>

#include "analysis/internal.h"

/* ---- the optimiser ----------------------------------------------------------------------- */

/* How a plan's value is made of its pairs and singles: a sum (throughput) or a maximum (the
 * worst slowdown), maximised or minimised. NAN is "no such plan". */
struct dp_rule {
	bool sum;
	bool maximise;
};

/* a strictly better than b (b NAN: anything is) */
static bool rule_better(struct dp_rule r, double a, double b)
{
	if (isnan(a))
		return false;
	if (isnan(b))
		return true;
	return r.maximise ? a > b : a < b;
}

/*
 * The best plan of n items (n <= ANALYSIS_ADVISE_EXACT_MAX) with at least pmin pairs: edge[i*n+j]
 * is a pair's term (NAN: forbidden), single an item alone's (NAN: none may be alone). f[S], for
 * S a set of even size, is the best value of pairing all of S; S's lowest member pairs with each
 * other member in turn. Then the best S to pair, the rest alone. Returns the value (NAN: none).
 */
static double dp_exact(size_t n, const double *edge, double single, size_t pmin,
                       struct dp_rule r, int *partner)
{
	size_t all = (size_t)1 << n;
	double *f = xmalloc(all * sizeof *f);
	unsigned char *pick = xmalloc(all);
	f[0] = r.sum ? 0 : -INFINITY;
	for (size_t s = 1; s < all; s++) {
		f[s] = NAN;
		if (__builtin_popcountll(s) & 1)
			continue;
		unsigned low = (unsigned)__builtin_ctzll(s);
		size_t rest = s & ~((size_t)1 << low);
		for (size_t m = rest; m; m &= m - 1) {
			unsigned j = (unsigned)__builtin_ctzll(m);
			double e = edge[low * n + j], sub = f[rest & ~((size_t)1 << j)];
			if (isnan(e) || isnan(sub))
				continue;
			double v = r.sum ? sub + e : fmax(sub, e);
			if (rule_better(r, v, f[s])) {
				f[s] = v;
				pick[s] = (unsigned char)j;
			}
		}
	}
	double best = NAN;
	size_t best_set = 0;
	for (size_t s = 0; s < all; s++) {
		size_t pc = (size_t)__builtin_popcountll(s);
		size_t singles = n - pc;
		if ((pc & 1) || pc / 2 < pmin || isnan(f[s]) || (singles && isnan(single)))
			continue;
		double v = f[s];
		if (singles)
			v = r.sum ? v + (double)singles * single : fmax(v, single);
		if (rule_better(r, v, best)) {
			best = v;
			best_set = s;
		}
	}
	for (size_t i = 0; i < n; i++)
		partner[i] = -1;
	for (size_t s = best_set; !isnan(best) && s;) {
		unsigned low = (unsigned)__builtin_ctzll(s), j = pick[s];
		partner[low] = (int)j;
		partner[j] = (int)low;
		s &= ~(((size_t)1 << low) | ((size_t)1 << j));
	}
	free(f);
	free(pick);
	return best;
}

double analysis_plan_throughput(size_t n, const double *slowdown, const int *partner)
{
	double rate = 0;
	for (size_t i = 0; i < n; i++)
		rate += partner[i] < 0 ? 1 : 1 / slowdown[i * n + (size_t)partner[i]];
	return n ? rate / (double)n : NAN;
}

double analysis_plan_worst(size_t n, const double *slowdown, const int *partner)
{
	double worst = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		double s = partner[i] < 0 ? 1 : slowdown[i * n + (size_t)partner[i]];
		if (isnan(s))
			return NAN;
		worst = fmax(worst, s);
	}
	return n ? worst : NAN;
}

/* What a plan is judged by: the objective's value, then throughput to break WORST's ties. */
struct plan_score {
	double primary, secondary;
};

static struct plan_score plan_score(size_t n, const double *slowdown, const int *partner,
                                    size_t pmin, enum analysis_objective objective)
{
	size_t pairs = 0;
	for (size_t i = 0; i < n; i++)
		pairs += partner[i] > (int)i;
	double t = analysis_plan_throughput(n, slowdown, partner);
	if (pairs < pmin || isnan(t))
		return (struct plan_score){ NAN, NAN };
	if (objective == ANALYSIS_OBJECTIVE_THROUGHPUT)
		return (struct plan_score){ t, t };
	return (struct plan_score){ analysis_plan_worst(n, slowdown, partner), t };
}

/* a better than b for the objective (worst_case: worse) */
static bool score_better(struct plan_score a, struct plan_score b,
                         enum analysis_objective objective, bool worst_case)
{
	if (isnan(a.primary))
		return false;
	if (isnan(b.primary))
		return true;
	/* higher is better for throughput, lower for the worst slowdown */
	double sign = (objective == ANALYSIS_OBJECTIVE_THROUGHPUT) != worst_case ? 1 : -1;
	double tie = ANALYSIS_ADVISE_TIE * fmax(1, fabs(b.primary));
	if (sign * (a.primary - b.primary) > tie)
		return true;
	if (sign * (b.primary - a.primary) > tie)
		return false;
	double sign2 = worst_case ? -1 : 1;
	return sign2 * (a.secondary - b.secondary) > ANALYSIS_ADVISE_TIE * fmax(1, fabs(b.secondary));
}

/* One move of the local search tried on partner: kept when it improves the score. */
static bool try_move(size_t n, const double *slowdown, int *partner, const int *moved,
                     size_t pmin, enum analysis_objective objective, bool worst_case,
                     struct plan_score *score)
{
	struct plan_score s = plan_score(n, slowdown, moved, pmin, objective);
	if (!score_better(s, *score, objective, worst_case))
		return false;
	memcpy(partner, moved, n * sizeof *partner);
	*score = s;
	return true;
}

static void set_pair(int *p, int a, int b)
{
	p[a] = b;
	p[b] = a;
}

/* partner with the pairs of undo's items (any -1) undone, then pair[0]-pair[1] and
 * pair[2]-pair[3] paired (a -1 leaves the other alone), into m. */
static void rearranged(size_t n, const int *partner, int *m, const int undo[4],
                       const int pair[4])
{
	memcpy(m, partner, n * sizeof *m);
	for (int k = 0; k < 4; k++)
		if (undo[k] >= 0)
			m[undo[k]] = -1;
	for (int k = 0; k < 4; k += 2)
		if (pair[k] >= 0 && pair[k + 1] >= 0)
			set_pair(m, pair[k], pair[k + 1]);
}

/* One pass over every move from partner's plan; whether one improved it. The moves on items a
 * and c (a's partner b, c's partner d, either -1 when alone): both paired, a-d with c-b and a-c
 * with b-d; one alone, it takes the other's place or its partner's; both alone, a-c; and a's
 * pair split. */
static bool improve_once(size_t n, const double *slowdown, int *partner, size_t pmin,
                         enum analysis_objective objective, bool worst_case,
                         struct plan_score *score)
{
	int *m = xmalloc(n * sizeof *m);
	bool improved = false;
	for (size_t a = 0; a < n; a++) {
		for (size_t c = a + 1; c < n; c++) {
			int b = partner[a], d = partner[c], ia = (int)a, ic = (int)c;
			if (ic == b)
				continue;
			int undo[4] = { ia, b, ic, d };
			/* a-d and c-b (one alone: it takes the other's partner), then a-c and b-d (a -1
			 * pairs nothing); both alone, the first is no move at all and is skipped. */
			int moves[2][4] = { { ia, d, ic, b }, { ia, ic, b, d } };
			for (int k = b < 0 && d < 0; k < 2; k++) {
				rearranged(n, partner, m, undo, moves[k]);
				if (try_move(n, slowdown, partner, m, pmin, objective, worst_case, score)) {
					improved = true;
					break; /* partner changed: the next pair of items starts from it */
				}
			}
		}
		if (partner[a] >= 0) {
			int undo[4] = { (int)a, partner[a], -1, -1 };
			rearranged(n, partner, m, undo, (const int[4]){ -1, -1, -1, -1 });
			improved |= try_move(n, slowdown, partner, m, pmin, objective, worst_case, score);
		}
	}
	free(m);
	return improved;
}

/* The heuristic: pmin pairs taken greedily (each the best pair of items still alone by the
 * objective's pair value), then local search until no move improves the plan. */
static struct plan_score heuristic(size_t n, const double *slowdown, size_t pmin,
                                   enum analysis_objective objective, bool worst_case,
                                   int *partner)
{
	for (size_t i = 0; i < n; i++)
		partner[i] = -1;
	for (size_t k = 0; k < pmin; k++) {
		double best = NAN;
		size_t bi = 0, bj = 0;
		for (size_t i = 0; i < n; i++)
			for (size_t j = i + 1; j < n; j++) {
				if (partner[i] >= 0 || partner[j] >= 0)
					continue;
				double s1 = slowdown[i * n + j], s2 = slowdown[j * n + i], v;
				if (objective == ANALYSIS_OBJECTIVE_THROUGHPUT)
					v = 1 / s1 + 1 / s2;
				else
					v = -fmax(s1, s2);
				if (worst_case)
					v = -v;
				if (!isnan(v) && (isnan(best) || v > best)) {
					best = v;
					bi = i;
					bj = j;
				}
			}
		if (isnan(best))
			break;
		set_pair(partner, (int)bi, (int)bj);
	}
	struct plan_score score = plan_score(n, slowdown, partner, pmin, objective);
	for (int pass = 0; pass < 1000; pass++)
		if (!improve_once(n, slowdown, partner, pmin, objective, worst_case, &score))
			break;
	return score;
}

/* The DP's pair terms into edge: i and j's throughput together (1/a + 1/b), or for WORST their
 * larger slowdown; NAN for an unknown pair, or one whose larger slowdown is above bound. */
static void pair_edges(size_t n, const double *slowdown, bool throughput, double bound,
                       double *edge)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			double a = slowdown[i * n + j], b = slowdown[j * n + i];
			edge[i * n + j] = i == j || isnan(a) || isnan(b) || fmax(a, b) > bound ? NAN
			                  : throughput ? 1 / a + 1 / b : fmax(a, b);
		}
}

/* The exact optimum: for WORST, the smallest worst slowdown first, then the best throughput
 * among the plans that reach it. */
static double exact_best(size_t n, const double *slowdown, size_t pmin,
                         enum analysis_objective objective, bool worst_case, int *partner)
{
	double *edge = xmalloc(n * n * sizeof *edge);
	bool throughput = objective == ANALYSIS_OBJECTIVE_THROUGHPUT;
	pair_edges(n, slowdown, throughput, INFINITY, edge);
	double v;
	if (throughput) {
		v = dp_exact(n, edge, 1, pmin, (struct dp_rule){ true, !worst_case }, partner);
	} else {
		v = dp_exact(n, edge, 1, pmin, (struct dp_rule){ false, worst_case }, partner);
		if (!worst_case && !isnan(v)) {
			/* Among the plans whose worst is v, the best throughput. */
			double bound = v + ANALYSIS_ADVISE_TIE * fmax(1, fabs(v));
			pair_edges(n, slowdown, true, bound, edge);
			int *tied = xmalloc(n * sizeof *tied);
			if (!isnan(dp_exact(n, edge, 1 <= bound ? 1 : NAN, pmin,
			                    (struct dp_rule){ true, true }, tied)))
				memcpy(partner, tied, n * sizeof *partner);
			free(tied);
		}
	}
	free(edge);
	return v;
}

int analysis_plan_best(size_t n, const double *slowdown, size_t cores,
                       enum analysis_objective objective, bool worst_case, int *partner,
                       bool *exact, char *err, size_t err_size)
{
	if (n == 0 || n > ANALYSIS_ADVISE_MAX_ITEMS) {
		set_error(err, err_size, "%zu workloads to place: give between 1 and %d", n,
		          ANALYSIS_ADVISE_MAX_ITEMS);
		return -1;
	}
	if (n > 2 * cores) {
		set_error(err, err_size, "%zu workloads do not fit on %zu cores, two at most on each "
		          "(give --cores %zu or more, or fewer copies with --count)", n, cores,
		          (n + 1) / 2);
		return -1;
	}
	size_t pmin = n > cores ? n - cores : 0;
	*exact = n <= ANALYSIS_ADVISE_EXACT_MAX;
	double v = *exact ? exact_best(n, slowdown, pmin, objective, worst_case, partner)
	                  : heuristic(n, slowdown, pmin, objective, worst_case, partner).primary;
	if (isnan(v)) {
		set_error(err, err_size, "no plan puts these %zu workloads on %zu cores: the pairs it "
		          "would need have no usable cell in the matrix (measure more blocks, or give "
		          "more --cores)", n, cores);
		return -1;
	}
	return 0;
}

/* ---- drawing the cells' posteriors -------------------------------------------------------- */

/* xoshiro256** (Blackman and Vigna 2018), seeded by splitmix64: fixed seeds, the same draws on
 * every platform. */
struct rng {
	uint64_t s[4];
};

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++) {
		uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		r->s[i] = z ^ (z >> 31);
	}
}

static uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s, result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/* uniform on (0, 1) */
static double rng_uniform(struct rng *r)
{
	return ((double)(rng_next(r) >> 11) + 0.5) * 0x1.0p-53;
}

/* standard normal (Marsaglia's polar method; one of the pair is dropped, for simplicity) */
static double rng_normal(struct rng *r)
{
	for (;;) {
		double u = 2 * rng_uniform(r) - 1, v = 2 * rng_uniform(r) - 1, s = u * u + v * v;
		if (s > 0 && s < 1)
			return u * sqrt(-2 * log(s) / s);
	}
}

/* Gamma(shape, 1) for shape >= 1 (Marsaglia and Tsang 2000): a t cell is settled, so it has 4
 * blocks or more and its dof / 2 is at least 1. */
static double rng_gamma(struct rng *r, double shape)
{
	double d = shape - 1.0 / 3, c = 1 / sqrt(9 * d);
	for (;;) {
		double x = rng_normal(r), v = 1 + c * x;
		if (v <= 0)
			continue;
		v = v * v * v;
		double u = rng_uniform(r);
		if (log(u) < 0.5 * x * x + d - d * v + d * log(v))
			return d * v;
	}
}

/* Student-t with dof degrees of freedom */
static double rng_student_t(struct rng *r, double dof)
{
	return rng_normal(r) / sqrt(2 * rng_gamma(r, dof / 2) / dof);
}

/* How one cell's log slowdown is drawn. */
enum cell_draw { DRAW_NONE, DRAW_T, DRAW_GRID, DRAW_NORMAL, DRAW_MIXTURE };
struct cell_sampler {
	enum cell_draw kind;
	double centre, scale, dof;    /* DRAW_T: t; DRAW_NORMAL: normal on the log scale */
	const struct analysis_comparison *c; /* DRAW_GRID: its posterior's quantiles */
	double point;                 /* the slowdown at the posterior median of delta */
	const struct analysis_log_mixture *mix; /* DRAW_MIXTURE: its components */
};

/* ---- mixtures of normals (fleet's pooled cells) -------------------------------------------- */

double analysis_log_mixture_cdf(const struct analysis_log_mixture *m, double x)
{
	if (!m || !m->count)
		return NAN;
	double f = 0;
	for (size_t t = 0; t < m->count; t++) {
		double z = (x - m->mean[t]) / m->sd[t];
		f += m->weight[t] * (0.5 * erfc(-z / sqrt(2.0)));
	}
	return f;
}

static double mixture_cdf(const void *m, double x)
{
	return analysis_log_mixture_cdf(m, x);
}

/* A usable mixture's q quantile (bisection on its CDF). */
static double mixture_quantile(const struct analysis_log_mixture *m, double q)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t t = 0; t < m->count; t++) {
		lo = fmin(lo, m->mean[t] - 12 * m->sd[t]);
		hi = fmax(hi, m->mean[t] + 12 * m->sd[t]);
	}
	return bisect_quantile(mixture_cdf, m, q, lo, hi, 200, 1e-12);
}

/* Whether the mixture can be drawn: weights that sum to about 1, sds above 0, finite means. */
static bool mixture_usable(const struct analysis_log_mixture *m)
{
	if (!m || !m->count)
		return false;
	double total = 0;
	for (size_t t = 0; t < m->count; t++) {
		if (!(m->weight[t] >= 0) || !isfinite(m->mean[t]) || !(m->sd[t] > 0)
		    || !isfinite(m->sd[t]))
			return false;
		total += m->weight[t];
	}
	return fabs(total - 1) < 1e-6;
}

/* A component by its weight (the first whose running sum passes u), then its normal. */
static double mixture_draw(const struct analysis_log_mixture *m, struct rng *r)
{
	double u = rng_uniform(r), sum = 0;
	size_t t = 0;
	for (; t + 1 < m->count; t++) {
		sum += m->weight[t];
		if (u < sum)
			break;
	}
	return m->mean[t] + m->sd[t] * rng_normal(r);
}

void analysis_log_mixture_draws(const struct analysis_log_mixture *m, uint64_t seed, size_t n,
                                double *out)
{
	struct rng r;
	rng_seed(&r, seed);
	for (size_t i = 0; i < n; i++)
		out[i] = mixture_usable(m) ? mixture_draw(m, &r) : NAN;
}

/* A matrix's cell c, else (c NULL) a mixture m; NULL both, or not usable: DRAW_NONE. */
static struct cell_sampler cell_sampler_of(const struct analysis_comparison *c,
                                           const struct analysis_log_mixture *m)
{
	struct cell_sampler s = { .kind = DRAW_NONE, .point = NAN };
	if (!c && mixture_usable(m)) {
		s = (struct cell_sampler){ .kind = DRAW_MIXTURE, .mix = m,
		                           .point = exp(mixture_quantile(m, 0.5)) };
	} else if (!c || !analysis_comparison_settled(c)) {
		return s;
	} else if (c->design == ANALYSIS_DESIGN_PAIRED && c->paired_grid.closed_form) {
		s = (struct cell_sampler){ DRAW_T, c->log_ratio_mean, c->paired_grid.scale,
		                           c->paired_grid.dof, c, exp(c->log_ratio_mean), NULL };
	} else if (c->design == ANALYSIS_DESIGN_PAIRED) {
		s = (struct cell_sampler){ .kind = DRAW_GRID, .c = c,
		                           .point = exp(analysis_log_ratio_quantile(c, 0.5)) };
	} else if (c->ratio_ci[0] > 0 && c->ratio_ci[1] >= c->ratio_ci[0]) {
		/* unpaired: a normal on the log scale through its 95% interval */
		double lo = log(c->ratio_ci[0]), hi = log(c->ratio_ci[1]);
		s = (struct cell_sampler){ DRAW_NORMAL, (lo + hi) / 2, (hi - lo) / (2 * 1.959963984540054),
		                           0, c, exp((lo + hi) / 2), NULL };
	}
	if (!isfinite(s.point))
		s.kind = DRAW_NONE;
	return s;
}

static double cell_draw(const struct cell_sampler *s, struct rng *r)
{
	switch (s->kind) {
	case DRAW_MIXTURE:
		return exp(mixture_draw(s->mix, r));
	case DRAW_T:
		return exp(s->centre + s->scale * rng_student_t(r, s->dof));
	case DRAW_GRID:
		return exp(analysis_log_ratio_quantile(s->c, rng_uniform(r)));
	case DRAW_NORMAL:
		return exp(s->centre + s->scale * rng_normal(r));
	case DRAW_NONE:
		break;
	}
	return NAN;
}

/* ---- SMT on or off ------------------------------------------------------------------------ */

/* The posterior of delta (the log slowdown beside itself): a comparison's, else a mixture's. */
static double delta_quantile(const struct analysis_comparison *c,
                             const struct analysis_log_mixture *m, double q)
{
	return c ? analysis_log_ratio_quantile(c, q) : mixture_quantile(m, q);
}

static double delta_cdf(const struct analysis_comparison *c, const struct analysis_log_mixture *m,
                        double x)
{
	return c ? analysis_log_ratio_cdf(c, x) : analysis_log_mixture_cdf(m, x);
}

void analysis_smt_advise(const struct analysis_comparison *self,
                         const struct analysis_log_mixture *mix, double rope_pct,
                         struct analysis_smt_advice *out)
{
	*out = (struct analysis_smt_advice){ .yield = NAN, .yield_ci = { NAN, NAN }, .p_on = NAN,
	                                     .p_off = NAN, .decision = ANALYSIS_SMT_UNKNOWN };
	if (!self && (!mix || !mix->count))
		return;
	out->measured = true;
	if (self ? self->design != ANALYSIS_DESIGN_PAIRED || !analysis_comparison_settled(self)
	         : !mixture_usable(mix))
		return;
	/* yield = 2 / exp(delta): above y exactly when delta below log(2 / y) */
	out->yield = 2 / exp(delta_quantile(self, mix, 0.5));
	out->yield_ci[0] = 2 / exp(delta_quantile(self, mix, 0.975));
	out->yield_ci[1] = 2 / exp(delta_quantile(self, mix, 0.025));
	double r = isnan(rope_pct) || rope_pct <= 0 ? 0 : rope_pct / 100;
	out->p_on = delta_cdf(self, mix, log(2 / (1 + r)));
	out->p_off = 1 - delta_cdf(self, mix, log(2 * (1 + r)));
	if (out->p_on >= ANALYSIS_DIRECTION_PROBABILITY)
		out->decision = ANALYSIS_SMT_KEEP_ON;
	else if (out->p_off >= ANALYSIS_DIRECTION_PROBABILITY)
		out->decision = ANALYSIS_SMT_TURN_OFF;
	else if (r > 0 && 1 - out->p_on - out->p_off >= ANALYSIS_EQUIVALENCE_PROBABILITY)
		out->decision = ANALYSIS_SMT_EITHER;
}

/* ---- the advice --------------------------------------------------------------------------- */

static void plan_value_init(struct analysis_plan_value *v, size_t n)
{
	*v = (struct analysis_plan_value){ .partner = xmalloc(n * sizeof *v->partner),
	                                   .slowdown = xmalloc(n * sizeof *v->slowdown),
	                                   .slowdown_ci = xmalloc(2 * n * sizeof *v->slowdown_ci) };
	for (size_t i = 0; i < n; i++)
		v->partner[i] = -1;
}

/* A plan's items' slowdowns (1 alone) at the slowdowns s into items, its throughput and worst
 * slowdown; returns its pairs. */
static size_t plan_eval(size_t n, const double *s, const int *partner, double *items,
                        double *throughput, double *worst)
{
	size_t pairs = 0;
	for (size_t i = 0; i < n; i++) {
		pairs += partner[i] > (int)i;
		items[i] = partner[i] < 0 ? 1 : s[i * n + (size_t)partner[i]];
	}
	*throughput = analysis_plan_throughput(n, s, partner);
	*worst = analysis_plan_worst(n, s, partner);
	return pairs;
}

/* The plan's point values at the cells' point slowdowns. */
static void plan_value_point(struct analysis_plan_value *v, size_t n, const double *slowdown)
{
	v->cores_used = n - plan_eval(n, slowdown, v->partner, v->slowdown, &v->throughput,
	                              &v->worst);
	v->known = !isnan(v->throughput) && !isnan(v->worst);
}

/* The 2.5% and 97.5% quantiles of the values at `column` of n rows of `width` (the draws'), NAN
 * values left out; x: room for n, sorted there. */
static void interval_of(const double *rows, size_t width, size_t column, size_t n, double *x,
                        double out[2])
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(rows[i * width + column]))
			x[k++] = rows[i * width + column];
	if (!k) {
		out[0] = out[1] = NAN;
		return;
	}
	gsl_sort(x, 1, k);
	/* type 7 quantiles (linear between order statistics) */
	for (int e = 0; e < 2; e++) {
		double h = (k - 1) * (e ? 0.975 : 0.025);
		size_t lo = (size_t)floor(h);
		size_t hi = lo + 1 < k ? lo + 1 : lo;
		out[e] = x[lo] + (h - (double)lo) * (x[hi] - x[lo]);
	}
}

/* Items: each workload's copies in the workloads' order. */
static size_t expand_items(const struct analysis_advise_request *rq, int **item_workload)
{
	size_t n = 0;
	for (size_t w = 0; w < rq->nworkloads; w++)
		n += rq->counts ? rq->counts[w] : 1;
	*item_workload = xmalloc((n ? n : 1) * sizeof **item_workload);
	n = 0;
	for (size_t w = 0; w < rq->nworkloads; w++)
		for (size_t k = 0; k < (rq->counts ? rq->counts[w] : 1); k++)
			(*item_workload)[n++] = (int)w;
	return n;
}

/* Item slowdowns from workload slowdowns: out[i * n + j] = cell[w(i) * nw + w(j)]. */
static void item_slowdowns(size_t n, const int *iw, size_t nw, const double *cell, double *out)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			out[i * n + j] = i == j ? NAN : cell[(size_t)iw[i] * nw + (size_t)iw[j]];
}

/* The plans the draws value, in this order: the chosen, the naive, the worst, the packed. */
enum { PLAN_BEST, PLAN_NAIVE, PLAN_WORST, PLAN_PACKED, PLAN_COUNT };

/* Per-draw values of the plans, gathered for their intervals. */
struct draw_values {
	bool use[PLAN_COUNT];
	struct analysis_plan_value *plans[PLAN_COUNT];
	/* Each plan's values, draw by draw: [draw * (n + 2) + k] with n the advice's nitems, its
	 * items' slowdowns (k < n), then its throughput (k = n) and its worst slowdown (k = n + 1). */
	double *row[PLAN_COUNT];
	/* [draw * 3 + k]: the chosen plan's gain over the naive plan, over the worst plan, and the
	 * packed plan's work per core. */
	double *extra;
	size_t best_count, pays;   /* draws where no plan beat the chosen one; where pairing paid */
};

/* The chosen plan's gain over another: throughput best / other; worst other / best. */
static double gain(enum analysis_objective o, double bt, double ot, double bw, double ow)
{
	return o == ANALYSIS_OBJECTIVE_THROUGHPUT ? bt / ot : ow / bw;
}

static void draw_values_init(struct draw_values *dv, struct analysis_advice *a)
{
	size_t D = a->draws, n = a->nitems;
	*dv = (struct draw_values){ .use = { true, a->naive.known, a->worst.known, a->packed_known },
	                            .plans = { &a->best, &a->naive, &a->worst, &a->packed },
	                            .extra = xmalloc(D * 3 * sizeof(double)) };
	for (int p = 0; p < PLAN_COUNT; p++)
		dv->row[p] = xmalloc(D * (n + 2) * sizeof(double));
}

/* Every plan valued in draw d, whose item slowdowns are s. */
static void value_draw(struct draw_values *dv, const struct analysis_advice *a, size_t d,
                       const double *s)
{
	size_t n = a->nitems;
	for (int p = 0; p < PLAN_COUNT; p++) {
		double *v = dv->row[p] + d * (n + 2);
		if (dv->use[p])
			plan_eval(n, s, dv->plans[p]->partner, v, &v[n], &v[n + 1]);
	}
	const double *best = dv->row[PLAN_BEST] + d * (n + 2);
	double *x = dv->extra + d * 3;
	for (int k = 0; k < 2; k++) {
		int p = k ? PLAN_WORST : PLAN_NAIVE;
		const double *o = dv->row[p] + d * (n + 2);
		x[k] = dv->use[p] ? gain(a->objective, best[n], o[n], best[n + 1], o[n + 1]) : NAN;
	}
	if (dv->use[PLAN_PACKED]) {
		x[2] = dv->row[PLAN_PACKED][d * (n + 2) + n] * (double)n / (double)a->packed.cores_used;
		dv->pays += x[2] > 1;
	}
}

/* The intervals from the draws into the advice, and the draws' arrays freed. */
static void draw_values_summarise(struct draw_values *dv, struct analysis_advice *a)
{
	size_t D = a->draws, n = a->nitems;
	double *col = xmalloc(D * sizeof *col);
	for (int p = 0; p < PLAN_COUNT; p++) {
		struct analysis_plan_value *plan = dv->plans[p];
		for (size_t k = 0; dv->use[p] && k < n + 2; k++)
			interval_of(dv->row[p], n + 2, k, D, col, k < n ? &plan->slowdown_ci[2 * k]
			                : k == n ? plan->throughput_ci : plan->worst_ci);
		free(dv->row[p]);
	}
	double *extra_ci[3] = { a->gain_naive_ci, a->gain_worst_ci, a->packed_per_core_ci };
	for (size_t k = 0; k < (dv->use[PLAN_PACKED] ? 3u : 2u); k++)
		interval_of(dv->extra, 3, k, D, col, extra_ci[k]);
	if (dv->use[PLAN_PACKED])
		a->packed_p_pays = (double)dv->pays / (double)D;
	a->p_best = a->p_best_draws ? (double)dv->best_count / (double)a->p_best_draws : NAN;
	free(col);
	free(dv->extra);
}

/* Each draw's optimum costs 2^n n / 2 steps: P(best) is taken over as many draws as about 4e8
 * steps allow, at least 100 (all of them when fewer); none for the heuristic. */
static size_t p_best_draws(const struct analysis_advice *a)
{
	if (!a->exact)
		return 0;
	double k = floor(4e8 / ldexp((double)a->nitems / 2 + 1, (int)a->nitems));
	size_t least = a->draws < 100 ? a->draws : 100;
	return k >= (double)a->draws ? a->draws : k < (double)least ? least : (size_t)k;
}

/* Draws every cell draws times, values the plans in each, and counts the draws in which no plan
 * beats the chosen one. */
static void run_draws(struct analysis_advice *a, const struct cell_sampler *samplers,
                      const struct analysis_advise_request *rq)
{
	size_t n = a->nitems, nw = a->nworkloads;
	struct draw_values dv;
	draw_values_init(&dv, a);
	double *cell = xmalloc((nw * nw + 1) * sizeof *cell), *s = xmalloc((n * n + 1) * sizeof *s);
	int *opt = xmalloc((n + 1) * sizeof *opt);
	struct rng r;
	rng_seed(&r, rq->seed);
	a->p_best_draws = p_best_draws(a);
	for (size_t d = 0; d < a->draws; d++) {
		for (size_t k = 0; k < nw * nw; k++)
			cell[k] = cell_draw(&samplers[k], &r);
		item_slowdowns(n, a->item_workload, nw, cell, s);
		value_draw(&dv, a, d, s);
		if (d < a->p_best_draws) {
			struct plan_score mine = plan_score(n, s, a->best.partner, a->pairs_needed,
			                                    a->objective);
			exact_best(n, s, a->pairs_needed, a->objective, false, opt);
			struct plan_score top = plan_score(n, s, opt, a->pairs_needed, a->objective);
			dv.best_count += !score_better(top, mine, a->objective, false);
		}
	}
	draw_values_summarise(&dv, a);
	free(cell);
	free(s);
	free(opt);
}

/* The naive, the worst and (when every item fits alone) the packed plan beside the chosen one,
 * at the point slowdowns s, and the chosen plan's gains over them. */
static void value_other_plans(struct analysis_advice *a, const double *s)
{
	size_t n = a->nitems;
	bool exact;
	/* The naive plan: items paired in the order given, (0, 1), (2, 3), ..., the last alone
	 * when n is odd (as plan_value_init left it): two on each core, filled in order. */
	for (size_t i = 0; i + 1 < n; i += 2)
		set_pair(a->naive.partner, (int)i, (int)i + 1);
	plan_value_point(&a->naive, n, s);
	if (analysis_plan_best(n, s, a->cores, a->objective, true, a->worst.partner, &exact, NULL,
	                       0) == 0)
		plan_value_point(&a->worst, n, s);
	/* Every item fits alone: would pairing pay? The best plan on the fewest cores. */
	if (a->cores >= n && n >= 2
	    && analysis_plan_best(n, s, (n + 1) / 2, ANALYSIS_OBJECTIVE_THROUGHPUT, false,
	                          a->packed.partner, &exact, NULL, 0) == 0) {
		plan_value_point(&a->packed, n, s);
		a->packed_known = a->packed.known;
		a->packed_per_core = a->packed.throughput * (double)n / (double)a->packed.cores_used;
	}
	a->gain_naive = a->naive.known ? gain(a->objective, a->best.throughput, a->naive.throughput,
	                                      a->best.worst, a->naive.worst) : NAN;
	a->gain_worst = a->worst.known ? gain(a->objective, a->best.throughput, a->worst.throughput,
	                                      a->best.worst, a->worst.worst) : NAN;
}

struct analysis_advice *analysis_advise(const struct analysis_advise_request *rq, char *err,
                                        size_t err_size)
{
	struct analysis_advice *a = xcalloc(1, sizeof *a);
	a->objective = rq->objective;
	a->nworkloads = rq->nworkloads;
	a->cores = rq->cores;
	a->draws = rq->draws ? rq->draws : ANALYSIS_ADVISE_DRAWS;
	a->nitems = expand_items(rq, &a->item_workload);
	size_t n = a->nitems, nw = rq->nworkloads;
	a->pairs_needed = n > rq->cores ? n - rq->cores : 0;
	struct cell_sampler *samplers = xcalloc(nw * nw + 1, sizeof *samplers);
	double *point = xmalloc((nw * nw + 1) * sizeof *point);
	a->smt = xcalloc(nw ? nw : 1, sizeof *a->smt);
	for (size_t k = 0; k < nw * nw; k++) {
		const struct analysis_comparison *c = rq->cells ? rq->cells[k] : NULL;
		const struct analysis_log_mixture *m = rq->cells || !rq->mixtures ? NULL
		                                       : &rq->mixtures[k];
		samplers[k] = cell_sampler_of(c, m);
		point[k] = samplers[k].point;
		if (k % (nw + 1) == 0) /* a workload beside itself: SMT on or off */
			analysis_smt_advise(c, m, rq->rope_pct, &a->smt[k / (nw + 1)]);
	}
	for (size_t v = 0; v < nw; v++)
		for (size_t g = v; g < nw; g++)
			a->unknown_pairs += isnan(point[v * nw + g]) || isnan(point[g * nw + v]);
	double *s = xmalloc((n * n + 1) * sizeof *s);
	item_slowdowns(n, a->item_workload, nw, point, s);
	struct analysis_plan_value *plans[] = { &a->best, &a->naive, &a->worst, &a->packed };
	for (size_t k = 0; k < 4; k++)
		plan_value_init(plans[k], n ? n : 1);
	int rc = analysis_plan_best(n, s, rq->cores, rq->objective, false, a->best.partner,
	                            &a->exact, err, err_size);
	if (rc == 0) {
		plan_value_point(&a->best, n, s);
		value_other_plans(a, s);
		run_draws(a, samplers, rq);
	}
	free(samplers);
	free(point);
	free(s);
	if (rc != 0)
		analysis_advice_free(&a);
	return a;
}

void analysis_advice_free(struct analysis_advice **p)
{
	if (!p || !*p)
		return;
	struct analysis_advice *a = *p;
	struct analysis_plan_value *plans[] = { &a->best, &a->naive, &a->worst, &a->packed };
	for (size_t k = 0; k < 4; k++) {
		free(plans[k]->partner);
		free(plans[k]->slowdown);
		free(plans[k]->slowdown_ci);
	}
	free(a->item_workload);
	free(a->smt);
	free(a);
	*p = NULL;
}
