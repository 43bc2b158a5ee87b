/*
 * grid_t.c — the Student-t log-likelihood of one group's samples at every (mu, sigma) of its
 * grid, exactly or fast with a stated bound on its error.
 *
 * Per sample, with z = (x - mu) / sigma and a = sqrt(nu), the log-density (less -log sigma and
 * constants) is g(z) = -(nu+1)/2 log(1 + z^2/nu) = -(nu+1)/2 [log(z - ia) + log(z + ia)] + c.
 * Its k-th derivative is -(nu+1) (-1)^(k-1) (k-1)! Re[(z - ia)^-k], and |z - ia| >= a, so
 *     |g^(k)(z)| <= (nu+1) (k-1)! / nu^(k/2)         for every z (k >= 1).
 *
 * EXACT: every distinct value, with its count, at every grid point: O(distinct x grid), the
 * slow reference (105 s for 10^6 samples of 1 µs-quantized data at the default grid).
 *
 * BINNED, two approximations, each bounded:
 *  1. Bins. The sorted samples are cut into bins no wider than h; a bin keeps its count c, its
 *     centroid m and S2 = sum (x - m)^2. Its samples' sum is replaced by
 *         c g(zm) + 1/2 g''(zm) S2 / sigma^2             (zm = (m - mu) / sigma)
 *     (the first-order term is zero about the centroid). By Taylor's theorem the rest is at
 *     most sup|g'''| / 6 sum |x - m|^3 / sigma^3 = (nu+1) / (3 nu^1.5) S3 / sigma^3, S3 summed
 *     over every sample: computed from the data, not guessed.
 *  2. A series in mu. With mu = mu0 + u sigma and w = 1 / (zm0 - ia),
 *         log(zm0 - u - ia) = log(zm0 - ia) - sum_k (u w)^k / k,
 *     so a sigma row costs one pass over the bins for the sums P_k = sum c Re w^k and
 *     Q_k = sum S2 Re w^k / sigma^2, then a polynomial in u at each mu:
 *         L(u) = L(0) + (nu+1) sum_{k=1..K} u^k [P_k / k + (k+1)/2 Q_(k+2)].
 *     With r = max|u| / a < 1 the terms left out are at most, summed over all samples,
 *         (nu+1) [n r^(K+1) / ((K+1)(1-r)) + S2 / (2 nu sigma^2) (K+2) r^(K+1) / (1-r)^2].
 * Both bounds fall as sigma grows, so they are taken at the grid's smallest sigma. h is chosen
 * (and halved until it holds) so that the bins' bound is 0.8 x ANALYSIS_T_LOGLIK_TOLERANCE, and
 * K so that the series' bound is 0.1 of it; the last 0.1 holds n x 4 x 2^-52 for taking
 * log(1 + z^2/nu) as the log of the rounded argument (up to 10^7 samples; above, the bound
 * stated in the grid report exceeds the tolerance, and says by how much). With the
 * log-likelihood within eps everywhere, every posterior probability is within a factor
 * exp(+-2 eps) of the exact one.
 * Cost: O(n) for the bins, then O(bins x K x sigma points + mu points x K x sigma points).
 * AUTO keeps EXACT where it is cheap (distinct values x mu points <= T_EXACT_ROW_WORK) and
 * wherever the series cannot converge fast (r > T_SERIES_RATIO_MAX), so small data give the
 * same numbers as always.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/internal.h"

enum {
	T_EXACT_ROW_WORK = 1 << 14,  /* distinct values x mu points per sigma row kept exact */
	T_HALVINGS_MAX = 60,
};
static const double T_SERIES_RATIO_MAX = 0.5;
static const double T_BINS_SHARE = 0.8; /* of the tolerance; the series gets 0.1 */
/* log(1 + z^2/nu) is taken as log of the rounded 1 + z^2/nu (log1p costs twice as much here):
 * at most this much more per sample (the argument's relative rounding, three operations). */
static const double LOG_ARG_ROUNDING = 4 * DBL_EPSILON;

typedef double v4d __attribute__((vector_size(4 * sizeof(double))));

/* The bits of a double as an unsigned key in the same order (negatives flipped whole, the
 * others with their sign bit set): -0.0 sorts just before 0.0, which it equals. */
static uint64_t order_key(double v)
{
	uint64_t u;
	memcpy(&u, &v, sizeof u);
	return u >> 63 ? ~u : u | (UINT64_C(1) << 63);
}

/* Sorts x ascending: least-significant-digit radix sort on order_key, 16 bits a pass (a
 * million samples in a few tens of milliseconds, where qsort takes a few hundred). */
static void sort_doubles(double *x, size_t n)
{
	enum { DIGIT_BITS = 16, DIGITS = 1 << DIGIT_BITS };
	uint64_t *keys = xmalloc(2 * n * sizeof *keys);
	size_t *count = xmalloc(DIGITS * sizeof *count);
	uint64_t *from = keys, *to = keys + n;
	for (size_t i = 0; i < n; i++)
		from[i] = order_key(x[i]);
	for (int shift = 0; shift < 64; shift += DIGIT_BITS) {
		memset(count, 0, DIGITS * sizeof *count);
		for (size_t i = 0; i < n; i++)
			count[(from[i] >> shift) & (DIGITS - 1)]++;
		size_t sum = 0;
		for (size_t d = 0; d < DIGITS; d++) {
			size_t c = count[d];
			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			to[count[(from[i] >> shift) & (DIGITS - 1)]++] = from[i];
		uint64_t *swap = from;
		from = to;
		to = swap;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t u = from[i] >> 63 ? from[i] & ~(UINT64_C(1) << 63) : ~from[i];
		memcpy(&x[i], &u, sizeof x[i]);
	}
	free(keys);
	free(count);
}

void t_samples_init(struct t_samples *ts, const double *values, size_t n)
{
	*ts = (struct t_samples){ .n = n, .sorted = xmalloc(n * sizeof *ts->sorted),
	                          .unique = xmalloc(n * sizeof *ts->unique),
	                          .counts = xmalloc(n * sizeof *ts->counts) };
	memcpy(ts->sorted, values, n * sizeof *ts->sorted);
	sort_doubles(ts->sorted, n);
	for (size_t i = 0; i < n; i++) {
		if (ts->unique_count && ts->sorted[i] == ts->unique[ts->unique_count - 1]) {
			ts->counts[ts->unique_count - 1] += 1;
			continue;
		}
		ts->unique[ts->unique_count] = ts->sorted[i];
		ts->counts[ts->unique_count++] = 1;
	}
}

void t_samples_release(struct t_samples *ts)
{
	free(ts->sorted);
	free(ts->unique);
	free(ts->counts);
	memset(ts, 0, sizeof *ts);
}

/* Cuts the sorted samples into bins no wider than h (h = 0: one bin per distinct value),
 * centroids offset by ref. Returns the bins' S3 (the sum of |x - m|^3). */
static double bins_build(struct t_loglik *tl, const struct t_samples *ts, double h, double ref)
{
	const double *x = ts->sorted;
	double s3 = 0;
	tl->bin_count = 0;
	tl->s2_total = 0;
	for (size_t start = 0, end; start < ts->n; start = end) {
		double sum = 0;
		for (end = start; end < ts->n && x[end] - x[start] <= h; end++)
			sum += x[end] - x[start];
		double count = (double)(end - start), offset = sum / count;
		double s2 = 0;
		for (size_t i = start; i < end; i++) {
			double d = (x[i] - x[start]) - offset;
			s2 += d * d;
			s3 += d * d * fabs(d);
		}
		size_t b = tl->bin_count++;
		tl->bin_mean[b] = (x[start] - ref) + offset;
		tl->bin_count_of[b] = count;
		tl->bin_s2[b] = s2;
		tl->s2_total += s2;
	}
	while (tl->bin_count % 4) { /* empty bins, so that bins_sums runs four abreast */
		size_t b = tl->bin_count++;
		tl->bin_mean[b] = tl->bin_mean[0];
		tl->bin_count_of[b] = tl->bin_s2[b] = 0;
	}
	return s3;
}

/* The series' bound at ratio r with K terms (see the top of the file), in log-likelihood. */
static double series_bound(const struct t_loglik *tl, double r, int K, double sigma_lo)
{
	double rk = pow(r, K + 1), nu = tl->nu;
	double samples = (double)tl->ts->n * rk / ((K + 1) * (1 - r));
	double curvature = tl->s2_total / (2 * nu * sigma_lo * sigma_lo) * (K + 2) * rk /
	                   ((1 - r) * (1 - r));
	return (nu + 1) * (samples + curvature);
}

/* Bins fine enough for the bins' share of the tolerance at sigma_lo. */
static void choose_bins(struct t_loglik *tl, const struct t_samples *ts, double ref,
                        double sigma_lo)
{
	size_t cap = ts->unique_count + 4;
	tl->bin_mean = xmalloc(cap * sizeof *tl->bin_mean);
	tl->bin_count_of = xmalloc(cap * sizeof *tl->bin_count_of);
	tl->bin_s2 = xmalloc(cap * sizeof *tl->bin_s2);
	tl->scratch = xmalloc(4 * cap * sizeof *tl->scratch);
	double nu = tl->nu, budget = T_BINS_SHARE * ANALYSIS_T_LOGLIK_TOLERANCE;
	/* S3 per unit budget; uniform samples in a bin of width h give S3 = n h^3 / 32. */
	double s3_max = budget * 3 * pow(nu, 1.5) * pow(sigma_lo, 3) / (nu + 1);
	double h = cbrt(32 * s3_max / (double)ts->n);
	for (int halving = 0;; halving++) {
		double s3 = bins_build(tl, ts, halving == T_HALVINGS_MAX ? 0.0 : h, ref);
		if (s3 <= s3_max || halving == T_HALVINGS_MAX) {
			tl->bins_error = (nu + 1) * s3 / (3 * pow(nu, 1.5) * pow(sigma_lo, 3));
			return;
		}
		h /= 2;
	}
}

/* Whether the series fits: the smallest K whose bound is within its share. */
static bool choose_order(struct t_loglik *tl, double r, double sigma_lo)
{
	double budget = (1 - T_BINS_SHARE) * ANALYSIS_T_LOGLIK_TOLERANCE;
	for (int K = 1; K <= T_ORDER_MAX; K++) {
		double bound = series_bound(tl, r, K, sigma_lo);
		if (bound <= budget) {
			tl->order = K;
			tl->error_bound = tl->bins_error + bound + LOG_ARG_ROUNDING * (double)tl->ts->n;
			return true;
		}
	}
	return false;
}

void t_loglik_begin(struct t_loglik *tl, const struct t_samples *ts, const double *mu_offset,
                    size_t mu_count, double ref, double sigma_lo,
                    const struct analysis_options *opt)
{
	*tl = (struct t_loglik){ .ts = ts, .nu = ANALYSIS_T_DOF, .ref = ref, .mu_offset = mu_offset,
	                         .mu_count = mu_count, .mu0 = mu_offset[mu_count / 2] };
	double reach = fmax(fabs(mu_offset[0] - tl->mu0), fabs(mu_offset[mu_count - 1] - tl->mu0));
	double r = reach / (sigma_lo * sqrt(tl->nu));
	bool small = (double)ts->unique_count * (double)mu_count <= T_EXACT_ROW_WORK;
	if (opt->t_method == ANALYSIS_T_EXACT || (opt->t_method == ANALYSIS_T_AUTO && small) ||
	    !(r <= T_SERIES_RATIO_MAX))
		return;
	choose_bins(tl, ts, ref, sigma_lo);
	tl->binned = choose_order(tl, r, sigma_lo);
	if (!tl->binned) {
		t_loglik_end(tl);
		tl->error_bound = 0;
	}
}

void t_loglik_end(struct t_loglik *tl)
{
	free(tl->bin_mean);
	free(tl->bin_count_of);
	free(tl->bin_s2);
	free(tl->scratch);
	tl->bin_mean = tl->bin_count_of = tl->bin_s2 = tl->scratch = NULL;
}

/* Every distinct value at every mu: the reference. */
static void row_exact(const struct t_loglik *tl, double sigma, double base, double *row)
{
	const struct t_samples *ts = tl->ts;
	double inv = 1.0 / sigma, half_dof1 = 0.5 * (tl->nu + 1.0);
	for (size_t i = 0; i < tl->mu_count; i++) {
		double l = base;
		for (size_t u = 0; u < ts->unique_count; u++) {
			double z = ((ts->unique[u] - tl->ref) - tl->mu_offset[i]) * inv;
			l -= ts->counts[u] * half_dof1 * log1p(z * z / tl->nu);
		}
		row[i] = l;
	}
}

/* The bins' sums at mu0: returns L(0), and fills coef[k] = P_k / k + (k+1)/2 Q_(k+2). Runs
 * over the bins once per power, four bins abreast in the compilers' vector type (bin_count is
 * padded to a multiple of 4 with empty bins). */
static double bins_sums(struct t_loglik *tl, double sigma, double coef[T_ORDER_MAX + 1])
{
	double nu = tl->nu, a = sqrt(nu), inv = 1.0 / sigma, log_sum = 0;
	double *wr = tl->scratch, *wi = wr + tl->bin_count, *pr = wi + tl->bin_count,
	       *pi = pr + tl->bin_count;
	for (size_t b = 0; b < tl->bin_count; b++) {
		double z = (tl->bin_mean[b] - tl->mu0) * inv, q2 = z * z + nu;
		log_sum += tl->bin_count_of[b] * log(q2 / nu); /* log1p is slower; see LOG_ARG_ROUNDING */
		pr[b] = wr[b] = z / q2;
		pi[b] = wi[b] = a / q2;
	}
	double p[T_ORDER_MAX + 3] = { 0 }, q[T_ORDER_MAX + 3] = { 0 };
	int top = tl->s2_total > 0 ? tl->order + 2 : tl->order; /* Q is 0 without spread in bins */
	for (int k = 1; k <= top; k++) {
		v4d sp = { 0 }, sq = { 0 };
		for (size_t b = 0; b < tl->bin_count; b += 4) {
			v4d re, im, xr, xi, c, s2;
			memcpy(&re, pr + b, sizeof re);
			memcpy(&im, pi + b, sizeof im);
			memcpy(&xr, wr + b, sizeof xr);
			memcpy(&xi, wi + b, sizeof xi);
			memcpy(&c, tl->bin_count_of + b, sizeof c);
			memcpy(&s2, tl->bin_s2 + b, sizeof s2);
			sp += c * re;
			sq += s2 * re;
			v4d next_re = re * xr - im * xi, next_im = re * xi + im * xr;
			memcpy(pr + b, &next_re, sizeof next_re);
			memcpy(pi + b, &next_im, sizeof next_im);
		}
		p[k] = (sp[0] + sp[1]) + (sp[2] + sp[3]);
		q[k] = ((sq[0] + sq[1]) + (sq[2] + sq[3])) * inv * inv;
	}
	for (int k = 1; k <= tl->order; k++)
		coef[k] = p[k] / k + 0.5 * (k + 1) * q[k + 2];
	return -0.5 * (nu + 1) * log_sum + 0.5 * (nu + 1) * q[2];
}

void t_loglik_row(struct t_loglik *tl, double sigma, double base, double *row)
{
	if (!tl->binned) {
		row_exact(tl, sigma, base, row);
		return;
	}
	double coef[T_ORDER_MAX + 1];
	double l0 = base + bins_sums(tl, sigma, coef), scale = tl->nu + 1;
	for (size_t i = 0; i < tl->mu_count; i++) {
		double u = (tl->mu_offset[i] - tl->mu0) / sigma, poly = 0;
		for (int k = tl->order; k >= 1; k--)
			poly = (poly + coef[k]) * u;
		row[i] = l0 + scale * poly;
	}
}
