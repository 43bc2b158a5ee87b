/*
 * stats.c — the statistics every part of the analysis shares: Welford's sums, medians, GSL's
 * Student-t CDF and quantile, and quantiles, CDFs and intervals of discrete distributions.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_statistics_double.h>

#include "analysis/internal.h"

double welford_sd(const struct welford *w)
{
	return w->n > 1 ? sqrt(w->ss / (double)(w->n - 1)) : 0.0;
}

struct welford welford_of(const double *x, size_t n)
{
	struct welford w = { 0, 0.0, 0.0 };
	for (size_t i = 0; i < n; i++) {
		w.n++;
		double delta = x[i] - w.mean;
		w.mean += delta / (double)w.n;
		w.ss += delta * (x[i] - w.mean);
	}
	return w;
}

/* GSL's median selects (O(n) on average, where a full sort was the cost of the outlier flags
 * for millions of samples), rearranging what it is given: a copy here. */
double median_of(const double *x, size_t n)
{
	if (n == 0)
		return 0.0;
	double *copy = xmalloc(n * sizeof *copy);
	memcpy(copy, x, n * sizeof *copy);
	double m = gsl_stats_median(copy, 1, n);
	free(copy);
	return m;
}

double mad_of(const double *x, size_t n, double center)
{
	if (n == 0)
		return 0.0;
	double *dev = xmalloc(n * sizeof *dev);
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(x[i] - center);
	double m = gsl_stats_median(dev, 1, n);
	free(dev);
	return m;
}

/* GSL reports a domain or precision problem through its error handler, which by default
 * aborts the program; a library must not, so the handler is switched off before the first use
 * and the functions' return values (NaN for a bad argument) are what callers see. The handler is
 * a GSL global: it is written once (pthread_once), never again, so that the fleet's worker
 * threads calling these at once do not race on it. */
static pthread_once_t gsl_quiet_once = PTHREAD_ONCE_INIT;

static void gsl_quiet_now(void)
{
	gsl_set_error_handler_off();
}

void gsl_quiet(void)
{
	pthread_once(&gsl_quiet_once, gsl_quiet_now);
}

double bisect_quantile(double (*cdf)(const void *ctx, double x), const void *ctx, double q,
                       double lo, double hi, int steps, double tol)
{
	for (int k = 0; k < steps && hi - lo > tol; k++) {
		double mid = 0.5 * (lo + hi);
		if (cdf(ctx, mid) < q)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

double analysis_student_t_cdf(double t, double dof)
{
	if (isnan(t) || !(dof > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1.0 : 0.0;
	gsl_quiet();
	return gsl_cdf_tdist_P(t, dof);
}

double analysis_student_t_quantile(double p, double dof)
{
	if (!(p > 0 && p < 1) || !(dof > 0))
		return NAN;
	gsl_quiet();
	return gsl_cdf_tdist_Pinv(p, dof);
}

/* Cell i of a distribution read as piecewise uniform: halfway to each neighbour. */
static void dist_cell(const struct analysis_dist *d, size_t i, double *lo, double *hi)
{
	const double *v = d->values;
	size_t n = d->count;
	if (n == 1) {
		*lo = *hi = v[0];
		return;
	}
	*lo = i > 0 ? 0.5 * (v[i - 1] + v[i]) : v[0] - 0.5 * (v[1] - v[0]);
	*hi = i + 1 < n ? 0.5 * (v[i] + v[i + 1]) : v[n - 1] + 0.5 * (v[n - 1] - v[n - 2]);
}

double analysis_dist_quantile(const struct analysis_dist *d, double q)
{
	if (d->count == 0)
		return NAN;
	double cum = 0;
	size_t last_positive = 0;
	for (size_t i = 0; i < d->count; i++) {
		double p = d->probs[i];
		if (!(p > 0))
			continue;
		last_positive = i;
		if (cum + p >= q) {
			double lo, hi;
			dist_cell(d, i, &lo, &hi);
			double frac = (q - cum) / p;
			frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
			return lo + frac * (hi - lo);
		}
		cum += p;
	}
	double lo, hi;
	dist_cell(d, last_positive, &lo, &hi);
	return hi;
}

double dist_cdf(const struct analysis_dist *d, double x)
{
	double cum = 0;
	for (size_t i = 0; i < d->count; i++) {
		double lo, hi;
		dist_cell(d, i, &lo, &hi);
		if (x >= hi) {
			cum += d->probs[i];
			continue;
		}
		if (x > lo)
			cum += d->probs[i] * (x - lo) / (hi - lo);
		break;
	}
	return cum;
}

double analysis_dist_mean(const struct analysis_dist *d)
{
	double sum = 0;
	for (size_t i = 0; i < d->count; i++)
		sum += d->probs[i] * d->values[i];
	return sum;
}

struct density_index {
	double density;
	size_t index;
};

static int compare_density_desc(const void *pa, const void *pb)
{
	const struct density_index *a = pa, *b = pb;
	if (a->density != b->density)
		return a->density < b->density ? 1 : -1;
	return (a->index > b->index) - (a->index < b->index);
}

void analysis_dist_hdi(const struct analysis_dist *d, double mass, double out[2])
{
	out[0] = out[1] = NAN;
	if (d->count == 0)
		return;
	if (d->count == 1) {
		out[0] = out[1] = d->values[0];
		return;
	}
	struct density_index *order = xmalloc(d->count * sizeof *order);
	for (size_t i = 0; i < d->count; i++) {
		double lo, hi;
		dist_cell(d, i, &lo, &hi);
		order[i].density = hi > lo ? d->probs[i] / (hi - lo) : d->probs[i];
		order[i].index = i;
	}
	qsort(order, d->count, sizeof *order, compare_density_desc);
	double cum = 0, lo_all = INFINITY, hi_all = -INFINITY;
	for (size_t k = 0; k < d->count; k++) {
		size_t i = order[k].index;
		double p = d->probs[i], lo, hi;
		dist_cell(d, i, &lo, &hi);
		if (cum + p < mass || !(p > 0)) {
			cum += p;
			lo_all = fmin(lo_all, lo);
			hi_all = fmax(hi_all, hi);
			continue;
		}
		/* The last cell counts only for the part that completes the mass, taken on the
		 * side that touches the region already chosen. */
		double frac = (mass - cum) / p, width = (hi - lo) * frac;
		if (k == 0) {
			double mid = 0.5 * (lo + hi);
			lo_all = mid - 0.5 * width;
			hi_all = mid + 0.5 * width;
		} else if (hi <= lo_all) {
			lo_all = hi - width;
		} else if (lo >= hi_all) {
			hi_all = lo + width;
		}
		break;
	}
	free(order);
	out[0] = lo_all;
	out[1] = hi_all;
}

void dist_release(struct analysis_dist *d)
{
	free(d->values);
	free(d->probs);
	*d = (struct analysis_dist){ 0 };
}

void analysis_format_shortest(double x, char *buf, size_t size)
{
	if (!isfinite(x)) {
		snprintf(buf, size, "%s", isnan(x) ? "nan" : x > 0 ? "inf" : "-inf");
		return;
	}
	for (int precision = 1; precision <= 17; precision++) {
		snprintf(buf, size, "%.*g", precision, x);
		if (strtod(buf, NULL) == x)
			break;
	}
	/* Python writes a whole number as "20.0"; so do we, to match the seed's output. */
	if (!strpbrk(buf, ".e") && strlen(buf) + 3 <= size)
		strcat(buf, ".0");
}

double cell_cdf(const double *values, const double *probs, size_t n, const double *prefix,
                double x)
{
	if (n == 1)
		return x >= values[0] ? 1.0 : 0.0;
	/* Binary search for the cell holding x; the cells are contiguous. */
	size_t lo = 0, hi = n; /* the answer in [lo, hi) */
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (x >= 0.5 * (values[mid - 1] + values[mid]))
			lo = mid;
		else
			hi = mid;
	}
	double cell_lo, cell_hi;
	dist_cell(&(const struct analysis_dist){ (double *)values, (double *)probs, n }, lo, &cell_lo,
	          &cell_hi);
	double frac = (x - cell_lo) / (cell_hi - cell_lo);
	frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
	return prefix[lo] + frac * probs[lo];
}
