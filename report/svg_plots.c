/*
 * svg_plots.c — the report's three plots, drawn by hand as SVG:
 *   posterior.svg  the posterior of each placement's mean, of the difference and of the
 *                  ratio, 95% interval shaded, the "no effect" line marked;
 *   run-order.svg  every sample in run order (warm-ups greyed, outliers ringed): drift shows;
 *   samples.svg    each placement's samples as a strip with a box of quartiles.
 * Placements differ by marker shape and dash pattern as well as colour (grey print).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort_double.h>

#include "analysis/analysis.h"
#include "common/alloc.h"
#include "report/internal.h"
#include "report/report.h"
#include "report/svg.h"
#include "report/words.h"

enum { WIDTH = 780, LEFT = 90, RIGHT = 30 };

/* A panel draws at most PLOT_POINTS_MAX markers, so that the report's size and time stay
 * bounded at any number of samples: past it the run-order panel is drawn from a summary (the
 * range and mean of the samples in each of PLOT_BINS bins of run order), the other panels from
 * every k-th sample, and at most PLOT_RINGS_MAX outliers are ringed (every k-th); each panel so
 * drawn says so. The box, the means and the axes are always of every sample. */
enum { PLOT_POINTS_MAX = 2000, PLOT_BINS = 400, PLOT_RINGS_MAX = 200 };
/* A run-order panel's header above its plot: the title, and a summary's note under it. */
enum { RUN_HEADER = 24, RUN_NOTE_HEADER = 40 };

/* Every how many of n items one is drawn so that at most max are. */
static size_t thinning(size_t n, size_t max)
{
	return n <= max ? 1 : (n + max - 1) / max;
}

/* "every 500th": the ordinal of k. */
static const char *ordinal_suffix(size_t k)
{
	if (k % 100 >= 11 && k % 100 <= 13)
		return "th";
	return k % 10 == 1 ? "st" : k % 10 == 2 ? "nd" : k % 10 == 3 ? "rd" : "th";
}

/* ---- posterior.svg ------------------------------------------------------------------------ */

struct curve {
	const double *values, *probs;
	size_t count;
	double ci[2];
	double mean;
	char label[200];
	int style;
};

/* Probability per unit of x at point i: the mass over the cell that reaches halfway to its
 * neighbours, so that uneven grids draw the same shape. */
static double density_at(const struct curve *c, size_t i)
{
	double left = i > 0 ? c->values[i] - c->values[i - 1] : 0;
	double right = i + 1 < c->count ? c->values[i + 1] - c->values[i] : 0;
	double cell = (left + right) / ((i > 0) + (i + 1 < c->count));
	if (c->count < 2 || !(cell > 0))
		return c->probs[i];
	return c->probs[i] / cell;
}

static double density_interp(const struct curve *c, double x)
{
	for (size_t i = 0; i + 1 < c->count; i++)
		if (c->values[i] <= x && x <= c->values[i + 1]) {
			double f = (x - c->values[i]) / (c->values[i + 1] - c->values[i]);
			return density_at(c, i) * (1 - f) + density_at(c, i + 1) * f;
		}
	return 0;
}

/* The x range that holds all but 0.1% of the mass, from the cumulative sum. */
static void curve_range(const struct curve *c, double *lo, double *hi)
{
	double total = 0, cum = 0;
	for (size_t i = 0; i < c->count; i++)
		total += c->probs[i];
	*lo = c->values[0];
	*hi = c->values[c->count - 1];
	bool have_lo = false;
	for (size_t i = 0; i < c->count; i++) {
		cum += c->probs[i];
		if (!have_lo && cum >= total * 0.0005) {
			*lo = c->values[i > 0 ? i - 1 : 0];
			have_lo = true;
		}
		if (cum >= total * 0.9995) {
			*hi = c->values[i + 1 < c->count ? i + 1 : i];
			break;
		}
	}
	if (c->ci[0] < *lo)
		*lo = c->ci[0];
	if (c->ci[1] > *hi)
		*hi = c->ci[1];
}

struct panel {
	char title[240];
	char x_title[120];
	struct curve *curves;
	int ncurves;
	double ref;             /* the "no effect" value, or NAN */
	char ref_label[80];
};

enum { PANEL_TITLE_H = 24, LEGEND_LINE_H = 17, PLOT_H = 120, AXIS_H = 52 };

static double panel_height(const struct panel *p)
{
	return PANEL_TITLE_H + LEGEND_LINE_H * p->ncurves + 10 + PLOT_H + AXIS_H;
}

/* The panel's x range around its curves; the "no effect" line is brought into view when that
 * does not squash the curves, else *ref_side says where it lies (NULL: in view, or none). */
static void panel_x_range(const struct panel *p, double *lo_out, double *hi_out,
                          const char **ref_side)
{
	double lo = INFINITY, hi = -INFINITY;
	for (int k = 0; k < p->ncurves; k++) {
		double a, b;
		curve_range(&p->curves[k], &a, &b);
		lo = fmin(lo, a);
		hi = fmax(hi, b);
	}
	double span = hi > lo ? hi - lo : fmax(fabs(lo) * 1e-3, 1e-9);
	lo -= span * 0.06;
	hi += span * 0.06;
	*ref_side = NULL;
	if (isfinite(p->ref) && p->ref < lo && lo - p->ref <= (hi - lo) * 0.75)
		lo = p->ref - (hi - lo) * 0.04;
	else if (isfinite(p->ref) && p->ref > hi && p->ref - hi <= (hi - lo) * 0.75)
		hi = p->ref + (hi - lo) * 0.04;
	else if (isfinite(p->ref) && (p->ref < lo || p->ref > hi))
		*ref_side = p->ref < lo ? "left" : "right";
	*lo_out = lo;
	*hi_out = hi;
}

/* One curve: its legend line, its shaded 95% interval, the density and the posterior mean. */
static void draw_curve(FILE *out, const struct curve *c, const struct svg_axis *x,
                       const struct svg_axis *y, double legend_y, double plot_bottom, int id)
{
	const char *color = svg_color(c->style);
	double lo = x->lo, hi = x->hi, ly = legend_y;
	/* Legend: the line as drawn, the shading, the words. */
	fprintf(out, "<rect x=\"%d\" y=\"%.1f\" width=\"34\" height=\"10\" fill=\"%s\" "
	        "fill-opacity=\"0.3\"/>\n", LEFT, ly - 5, color);
	fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" "
	        "stroke-width=\"2.5\" stroke-dasharray=\"%s\"/>\n", LEFT, ly - 5, LEFT + 34,
	        ly - 5, color, svg_dash(c->style));
	svg_text(out, LEFT + 42, ly, "start", 12, NULL, c->label);

	fprintf(out, "<g clip-path=\"url(#post%d)\">\n", id);
	/* The 95% interval, shaded under the curve. */
	fprintf(out, "<path fill=\"%s\" fill-opacity=\"0.3\" stroke=\"none\" d=\"M%.1f %.1f",
	        color, svg_map(x, c->ci[0]), plot_bottom);
	fprintf(out, " L%.1f %.1f", svg_map(x, c->ci[0]), svg_map(y, density_interp(c, c->ci[0])));
	for (size_t i = 0; i < c->count; i++)
		if (c->values[i] > c->ci[0] && c->values[i] < c->ci[1])
			fprintf(out, " L%.1f %.1f", svg_map(x, c->values[i]), svg_map(y, density_at(c, i)));
	fprintf(out, " L%.1f %.1f L%.1f %.1fZ\"/>\n", svg_map(x, c->ci[1]),
	        svg_map(y, density_interp(c, c->ci[1])), svg_map(x, c->ci[1]), plot_bottom);
	/* The density. */
	fprintf(out, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"2.5\" "
	        "stroke-dasharray=\"%s\" d=\"", color, svg_dash(c->style));
	bool started = false;
	for (size_t i = 0; i < c->count; i++) {
		/* One point beyond each side, so the curve runs off the edge, not stops. */
		bool inside = c->values[i] >= lo && c->values[i] <= hi;
		bool next_inside = i + 1 < c->count && c->values[i + 1] >= lo;
		if (!inside && !(c->values[i] < lo && next_inside)
		    && !(c->values[i] > hi && i > 0 && c->values[i - 1] <= hi))
			continue;
		fprintf(out, "%s%.1f %.1f", started ? " L" : "M", svg_map(x, c->values[i]),
		        svg_map(y, density_at(c, i)));
		started = true;
	}
	fputs("\"/>\n", out);
	/* The posterior mean. */
	svg_line(out, svg_map(x, c->mean), plot_bottom, svg_map(x, c->mean),
	         svg_map(y, density_interp(c, c->mean)), color, " stroke-width=\"1.2\"");
	fputs("</g>\n", out);
}

/* The "no effect" line, or a note saying on which side it lies off the scale. */
static void draw_reference(FILE *out, const struct panel *p, const struct svg_axis *x,
                           const char *ref_side, double plot_top, double plot_bottom)
{
	if (isfinite(p->ref) && !ref_side) {
		double rx = svg_map(x, p->ref);
		svg_line(out, rx, plot_bottom, rx, plot_top, "#000",
		         " stroke-width=\"1.5\" stroke-dasharray=\"5,4\"");
		bool right_half = rx > (LEFT + WIDTH - RIGHT) / 2.0;
		svg_text(out, rx + (right_half ? -5 : 5), plot_top + 12, right_half ? "end" : "start",
		         12, NULL, p->ref_label);
	} else if (ref_side) { /* the labels and the sides are this file's: nothing to escape */
		bool left = !strcmp(ref_side, "left");
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"12\">%s%s is far "
		        "off this scale to the %s%s</text>\n", left ? LEFT + 6.0 : WIDTH - RIGHT - 6.0,
		        plot_top + 12, left ? "start" : "end", left ? "&#8592; " : "", p->ref_label,
		        ref_side, left ? "" : " &#8594;");
	}
}

static void draw_panel(FILE *out, const struct panel *p, double top, int id)
{
	double lo, hi;
	const char *ref_side;
	panel_x_range(p, &lo, &hi, &ref_side);
	double plot_top = top + PANEL_TITLE_H + LEGEND_LINE_H * p->ncurves + 10;
	double plot_bottom = plot_top + PLOT_H;
	struct svg_axis x = { lo, hi, LEFT, WIDTH - RIGHT };
	double peak = 0;
	for (int k = 0; k < p->ncurves; k++)
		for (size_t i = 0; i < p->curves[k].count; i++)
			if (p->curves[k].values[i] >= lo && p->curves[k].values[i] <= hi)
				peak = fmax(peak, density_at(&p->curves[k], i));
	if (!(peak > 0))
		peak = 1;
	struct svg_axis y = { 0, peak * 1.08, plot_bottom, plot_top };

	svg_text(out, LEFT, top + 17, "start", 14, "bold", p->title);
	fprintf(out, "<clipPath id=\"post%d\"><rect x=\"%d\" y=\"%.1f\" width=\"%d\" "
	        "height=\"%d\"/></clipPath>\n", id, LEFT, plot_top - 2, WIDTH - RIGHT - LEFT,
	        PLOT_H + 2);
	for (int k = 0; k < p->ncurves; k++)
		draw_curve(out, &p->curves[k], &x, &y, top + PANEL_TITLE_H + LEGEND_LINE_H * k + 8,
		           plot_bottom, id);
	draw_reference(out, p, &x, ref_side, plot_top, plot_bottom);
	svg_x_axis(out, &x, plot_bottom, p->x_title);
	svg_y_axis(out, &y, LEFT, "density", false);
}

int report_ratio_distribution(const struct analysis_comparison *c, double **values,
                              double **probs, size_t *count)
{
	const struct analysis_dist *a = &c->a.mu, *b = &c->b.mu;
	double w = c->ratio_ci[1] - c->ratio_ci[0];
	if (!(w > 0) || a->count == 0 || b->count == 0 || b->values[0] <= 0)
		return -1;
	double lo = fmax(c->ratio_ci[0] - 1.5 * w, 0.0), hi = c->ratio_ci[1] + 1.5 * w;
	enum { BINS = 161 };
	double *v = xcalloc(BINS, sizeof *v), *p = xcalloc(BINS, sizeof *p);
	double *prefix = xmalloc(a->count * sizeof *prefix);
	double cum = 0;
	for (size_t i = 0; i < a->count; i++) {
		prefix[i] = cum;
		cum += a->probs[i];
	}
	/* P(A / B <= r) = sum_j P(B = b_j) F_A(r b_j); each bin gets the CDF's rise across it. */
	double bw = (hi - lo) / BINS, below = 0;
	for (size_t k = 0; k <= BINS; k++) {
		double edge = lo + (double)k * bw, f = 0;
		for (size_t j = 0; j < b->count; j++)
			if (b->probs[j] > 0)
				f += b->probs[j] * cell_cdf(a->values, a->probs, a->count, prefix, edge * b->values[j]);
		if (k > 0) {
			v[k - 1] = edge - 0.5 * bw;
			p[k - 1] = fmax(f - below, 0.0);
		}
		below = f;
	}
	free(prefix);
	*values = v;
	*probs = p;
	*count = BINS;
	return 0;
}

static void fill_curve(struct curve *c, const struct analysis_dist *d, const double ci[2],
                       double mean, int style)
{
	*c = (struct curve){ d->values, d->probs, d->count, { ci[0], ci[1] }, mean, "", style };
}

/* The posterior of each side's mean: one panel with both curves when both stay wide enough
 * on a shared axis, otherwise one panel each. Returns the panels written. */
static int mean_panels(const struct run_model *m, const struct analysis_comparison *c,
                       const char *grid_note, struct curve mu[2], struct panel *panels)
{
	const char *unit = unit_name(m->data->unit), *metric = metric_name(m->data->metric);
	const struct analysis_group_summary *sides[2] = { &c->a, &c->b };
	for (int s = 0; s < 2; s++) {
		struct format_ring ns = { .next = 0 };
		double res = half_width(sides[s]->mu_ci);
		fill_curve(&mu[s], &sides[s]->mu, sides[s]->mu_ci, sides[s]->mu_mean,
		           svg_placement_style(sides[s]->name));
		snprintf(mu[s].label, sizeof mu[s].label, "%s (n = %zu): mean %s s%s, 95%% CI %s s",
		         sides[s]->name, sides[s]->n, format_num(&ns, sides[s]->mu_mean, res), grid_note,
		         format_ci(&ns, sides[s]->mu_ci, res));
	}
	double alo, ahi, blo, bhi;
	curve_range(&mu[0], &alo, &ahi);
	curve_range(&mu[1], &blo, &bhi);
	double joint = fmax(ahi, bhi) - fmin(alo, blo);
	bool shared = joint > 0 && fmin(ahi - alo, bhi - blo) / joint >= 0.12;
	for (int s = 0; s < (shared ? 1 : 2); s++) {
		struct panel *p = &panels[s];
		*p = (struct panel){ .curves = shared ? mu : &mu[s], .ncurves = shared ? 2 : 1,
		                     .ref = NAN };
		snprintf(p->title, sizeof p->title, "Posterior of the mean %s per %s%s%s",
		         metric, unit, shared ? "" : ": ", shared ? "" : sides[s]->name);
		snprintf(p->x_title, sizeof p->x_title, "mean %s per %s (s)", metric, unit);
	}
	return shared ? 1 : 2;
}

static void difference_panel(const struct analysis_comparison *c, const char *metric,
                             const char *grid_note,
                             struct curve *diff, struct panel *p)
{
	struct format_ring ns = { .next = 0 };
	double res = half_width(c->diff_ci);
	fill_curve(diff, &c->diff, c->diff_ci, c->diff_mean, 2);
	snprintf(diff->label, sizeof diff->label, "%s − %s: mean %s s%s, 95%% CI %s s; "
	         "P(%s slower) = %.2f", c->a.name, c->b.name, format_num(&ns, c->diff_mean, res),
	         grid_note, format_ci(&ns, c->diff_ci, res), c->a.name, c->p_a_gt_b);
	*p = (struct panel){ .curves = diff, .ncurves = 1, .ref = 0,
	                     .ref_label = "0 s: no difference" };
	snprintf(p->title, sizeof p->title, "Posterior of the difference of means: %s − %s",
	         c->a.name, c->b.name);
	snprintf(p->x_title, sizeof p->x_title, "difference of mean %s (s)", metric);
}

/* The ratio's panel when the ratio is known, its points in the new arrays *rv and *rp (the
 * caller frees them). False when there is no ratio to draw. */
static bool ratio_panel(const struct analysis_comparison *c, const char *metric,
                        const char *grid_note,
                        struct curve *ratio, struct panel *p, double **rv, double **rp)
{
	size_t rn = 0;
	if (!isfinite(c->ratio_mean) || report_ratio_distribution(c, rv, rp, &rn) != 0)
		return false;
	struct format_ring ns = { .next = 0 };
	double res = half_width(c->ratio_ci);
	fill_curve(ratio, &(struct analysis_dist){ .values = *rv, .probs = *rp, .count = rn },
	           c->ratio_ci, c->ratio_mean, 3);
	/* The answer's own framing beside the curve's: a decided speed-up is quoted as its factor
	 * (A/B 0.84 is "1.19× faster"), as the answer sentence and the table quote it. */
	bool framed = effect_decided(c);
	snprintf(ratio->label, sizeof ratio->label, "%s / %s: mean %s×%s, 95%% CI %s×%s%s",
	         c->a.name, c->b.name, format_num(&ns, c->ratio_mean, res), grid_note,
	         format_ci(&ns, c->ratio_ci, res), framed ? "; the answer: " : "",
	         framed ? format_effect(&ns, c) : "");
	*p = (struct panel){ .curves = ratio, .ncurves = 1, .ref = 1,
	                     .ref_label = "1×: no difference" };
	snprintf(p->title, sizeof p->title, "Posterior of the ratio: %s / %s", c->a.name,
	         c->b.name);
	snprintf(p->x_title, sizeof p->x_title, "ratio of mean %ss, %s / %s (×)", metric,
	         c->a.name, c->b.name);
	return true;
}

/* The panels stacked under one title; a new string, NULL on out of memory. */
static char *posterior_svg(const struct analysis_comparison *c, const struct panel *panels,
                           int np)
{
	double height = 50;
	for (int i = 0; i < np; i++)
		height += panel_height(&panels[i]) + 14;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = xmemstream(&buf, &len);
	char title[300];
	snprintf(title, sizeof title, "Posterior distributions: %s vs %s", c->a.name, c->b.name);
	/* Wide enough for every title and legend line (their widths estimated on the wide side);
	 * the panels keep their places, so a wider figure only adds room at the right. */
	double need = fmax(WIDTH, WIDTH / 2.0 + svg_text_width(title, 16, true) / 2);
	for (int i = 0; i < np; i++) {
		need = fmax(need, LEFT + svg_text_width(panels[i].title, 14, true));
		for (size_t k = 0; k < (size_t)panels[i].ncurves; k++)
			need = fmax(need, LEFT + 42 + svg_text_width(panels[i].curves[k].label, 12, false));
	}
	svg_begin(out, (int)ceil(need + 8), (int)ceil(height), title,
	          "Grid posterior of each placement's mean, of their difference and of their ratio; "
	          "the shaded band is the 95% credible interval, the thin line the posterior mean, "
	          "the dashed black line no effect.");
	svg_text(out, WIDTH / 2.0, 26, "middle", 16, "bold", title);
	double top = 40;
	for (int i = 0; i < np; i++) {
		draw_panel(out, &panels[i], top, i);
		top += panel_height(&panels[i]) + 14;
	}
	svg_end(out);
	return xmemstream_close(out, &buf);
}

char *plot_posterior(const struct run_model *m)
{
	const struct analysis_comparison *c = m->headline;
	/* Too few samples: the means drawn are the grid's, and the legends say so. */
	const char *grid_note = analysis_comparison_settled(c) ? "" : " (depends on the grid)";
	struct curve mu[2], diff, ratio;
	struct panel panels[4];
	int np = mean_panels(m, c, grid_note, mu, panels);
	difference_panel(c, metric_name(m->data->metric), grid_note, &diff, &panels[np++]);
	double *rv = NULL, *rp = NULL;
	np += ratio_panel(c, metric_name(m->data->metric), grid_note, &ratio, &panels[np], &rv, &rp);
	char *svg = posterior_svg(c, panels, np);
	free(rv);
	free(rp);
	return svg;
}

/* ---- run-order.svg ------------------------------------------------------------------------ */

/* The run-order plot's left margin: room for tick labels and a two-line y title. */
enum { RUN_LEFT = 104 };

/* Legend entries in a row, wrapped to a new row when the text would run off the plot: a
 * marker and its words; returns the x after it (and moves *y down when it wrapped). */
static double legend_entry(FILE *out, double x, double *yp, int style, const char *color,
                           bool filled, bool ring, const char *text)
{
	double needed = 18 + 6.6 * (double)strlen(text);
	if (x > RUN_LEFT && x + needed > WIDTH - RIGHT) {
		x = RUN_LEFT;
		*yp += 20;
	}
	double y = *yp;
	if (ring)
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"8\" fill=\"none\" stroke=\"#000\" "
		        "stroke-width=\"1.6\"/>\n", x + 6, y - 4);
	else
		svg_marker(out, style, x + 6, y - 4, 5, color, filled);
	svg_text(out, x + 18, y, "start", 12, NULL, text);
	return x + needed + 18;
}

/* How a placement's run-order panel is drawn: every point, or (past PLOT_POINTS_MAX analysed
 * samples) a summary by bins; how many of its outliers are ringed; its y range. */
struct run_order_drawing {
	bool shown;             /* false: the placement has no points at all (no panel) */
	double lo, hi;
	bool binned;
	size_t outliers, ring_every;
	size_t warmups, warmup_every;
};

/* The y range is of the analysed samples, widened to take in each warm-up that lies within one
 * span of them. A warm-up further off (a cold first trial) would squash the analysed samples
 * into a line, so it is pinned to the panel's edge instead and labelled with its value. */
static struct run_order_drawing run_order_drawing_of(const struct analysis_dataset *d, int group)
{
	struct run_order_drawing w = { .binned = d->groups[group].n > PLOT_POINTS_MAX };
	double alo = INFINITY, ahi = -INFINITY, wlo = INFINITY, whi = -INFINITY;
	for (size_t i = 0; i < d->point_count; i++) {
		const struct analysis_point *pt = &d->points[i];
		if (pt->group != group)
			continue;
		w.outliers += pt->outlier;
		w.warmups += pt->warmup;
		if (pt->warmup) {
			wlo = fmin(wlo, pt->value_s);
			whi = fmax(whi, pt->value_s);
		} else {
			alo = fmin(alo, pt->value_s);
			ahi = fmax(ahi, pt->value_s);
		}
	}
	w.ring_every = w.binned ? thinning(w.outliers, PLOT_RINGS_MAX) : 1;
	w.warmup_every = w.binned ? thinning(w.warmups, PLOT_POINTS_MAX) : 1;
	w.shown = isfinite(alo) || isfinite(wlo);
	if (!isfinite(alo)) { /* warm-ups only: they are all there is to show */
		alo = wlo;
		ahi = whi;
	}
	double reach = fmax(ahi - alo, fmax(fabs(ahi) * 0.01, 1e-9));
	if (isfinite(wlo) && wlo < alo && alo - wlo <= reach)
		alo = wlo;
	if (isfinite(whi) && whi > ahi && whi - ahi <= reach)
		ahi = whi;
	double pad = ahi > alo ? (ahi - alo) * 0.08 : fmax(fabs(ahi) * 0.01, 1e-6);
	w.lo = alo - pad;
	w.hi = ahi + pad;
	return w;
}

/* One bin of run order: its analysed samples' range and sum. */
struct run_order_bin {
	double lo, hi, sum;
	size_t n;
};

/* The summary of a placement's many analysed samples: for each bin of run order (PLOT_BINS
 * across the x axis) with samples, a line over their range and a marker at their mean. */
static void run_order_bins(FILE *out, const struct analysis_dataset *d, int group,
                           const struct svg_axis *x, const struct svg_axis *y, double r)
{
	int style = svg_placement_style(d->groups[group].name);
	const char *color = svg_color(style);
	struct run_order_bin *bins = xcalloc(PLOT_BINS, sizeof *bins);
	double span = x->p1 - x->p0;
	for (size_t i = 0; i < d->point_count; i++) {
		const struct analysis_point *pt = &d->points[i];
		if (pt->group != group || pt->warmup)
			continue;
		double at = (svg_map(x, (double)pt->trial) - x->p0) / span * PLOT_BINS;
		size_t b = at <= 0 ? 0 : at >= PLOT_BINS - 1 ? PLOT_BINS - 1 : (size_t)at;
		struct run_order_bin *bin = &bins[b];
		bin->lo = bin->n ? fmin(bin->lo, pt->value_s) : pt->value_s;
		bin->hi = bin->n ? fmax(bin->hi, pt->value_s) : pt->value_s;
		bin->sum += pt->value_s;
		bin->n++;
	}
	for (size_t b = 0; b < PLOT_BINS; b++) {
		if (!bins[b].n)
			continue;
		double px = x->p0 + span * ((double)b + 0.5) / PLOT_BINS;
		svg_line(out, px, svg_map(y, bins[b].lo), px, svg_map(y, bins[b].hi), color,
		         " stroke-opacity=\"0.5\"");
		svg_marker(out, style, px, svg_map(y, bins[b].sum / (double)bins[b].n), r, color, true);
	}
	free(bins);
}

/* A placement's trials in run order: warm-ups grey and hollow, outliers ringed, a far-off
 * warm-up pinned inside the edge with its value; past PLOT_POINTS_MAX analysed samples, their
 * summary by bins instead of a marker each (w says how). */
static void run_order_markers(FILE *out, const struct analysis_dataset *d, int group,
                              const struct svg_axis *x, const struct svg_axis *y, double r,
                              const struct run_order_drawing *w)
{
	int style = svg_placement_style(d->groups[group].name);
	const char *color = svg_color(style);
	double lo = y->lo, hi = y->hi, plot_top = y->p1, plot_bottom = y->p0;
	if (w->binned)
		run_order_bins(out, d, group, x, y, r);
	size_t outliers = 0, warmups = 0;
	for (size_t i = 0; i < d->point_count; i++) {
		const struct analysis_point *pt = &d->points[i];
		if (pt->group != group)
			continue;
		bool ringed = pt->outlier && outliers++ % w->ring_every == 0;
		bool drawn = pt->warmup ? warmups++ % w->warmup_every == 0 : !w->binned;
		if (!drawn && !ringed)
			continue;
		double px = svg_map(x, (double)pt->trial), v = pt->value_s;
		/* Off the scale (only a far-off warm-up can be): pinned inside the edge, labelled. */
		bool above = v > hi, below = v < lo;
		double py = above ? plot_top + r + 3 : below ? plot_bottom - r - 3 : svg_map(y, v);
		if (drawn)
			svg_marker(out, style, px, py, r, pt->warmup ? "#888" : color, !pt->warmup);
		if (drawn && (above || below)) {
			char value[48], note[80];
			snprintf(note, sizeof note, "%s %s s", above ? "↑" : "↓",
			         format_number(value, sizeof value, v, fabs(v) * 0.01));
			bool right_half = px > (RUN_LEFT + WIDTH - RIGHT) / 2.0;
			svg_text(out, px + (right_half ? -r - 4 : r + 4), py + 4,
			         right_half ? "end" : "start", 11, NULL, note);
		}
		if (ringed)
			fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"none\" "
			        "stroke=\"#000\" stroke-width=\"1.6\"/>\n", px, py, r * 2.2);
	}
}

/* A run-order panel's head and frame, inside the <g> its caller opened: its title at title_x (a
 * placement's marker drawn before it by the caller) and a summary's note on a line of its own
 * under it, both counted into *need; faint vertical lines at the x ticks (the stacked panels read
 * against one x axis), a band, the frame and a dashed line, in colour. */
struct run_frame {
	double top, plot_h, lo, hi;  /* where the panel begins, its plot's height, its y range */
	double title_x;
	const char *title, *note;    /* note: NULL for none */
	const double *band, *mean;   /* the band from band[0] to band[1], the dashed line at *mean:
	                              * NULL for none */
	const char *color;
};

/* Its y axis; *header gets the height of the head above the plot. */
static struct svg_axis run_frame(FILE *out, const struct run_frame *f, const struct svg_axis *x,
                                 double *header, double *need)
{
	*header = f->note ? RUN_NOTE_HEADER : RUN_HEADER;
	double plot_top = f->top + *header, plot_bottom = plot_top + f->plot_h;
	struct svg_axis y = { f->lo, f->hi, plot_bottom, plot_top };
	svg_text(out, f->title_x, f->top + 16, "start", 13, "bold", f->title);
	*need = fmax(*need, f->title_x + svg_text_width(f->title, 13, true));
	if (f->note) {
		svg_text(out, f->title_x, f->top + 32, "start", 11, NULL, f->note);
		*need = fmax(*need, f->title_x + svg_text_width(f->note, 11, false));
	}
	double first, step;
	int ticks = report_nice_ticks(x->lo, x->hi, 7, &first, &step);
	for (int i = 0; i < ticks; i++) {
		double px = svg_map(x, first + i * step);
		svg_line(out, px, plot_top, px, plot_bottom, "#e4e4e4", "");
	}
	if (f->band) {
		double band_top = svg_map(&y, f->band[1]), band_bottom = svg_map(&y, f->band[0]);
		fprintf(out, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\" "
		        "fill-opacity=\"0.15\"/>\n", RUN_LEFT, band_top, WIDTH - RIGHT - RUN_LEFT,
		        fmax(band_bottom - band_top, 0.5), f->color);
	}
	fprintf(out, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"none\" "
	        "stroke=\"#ccc\"/>\n", RUN_LEFT, plot_top, WIDTH - RIGHT - RUN_LEFT, f->plot_h);
	if (f->mean) {
		double py = svg_map(&y, *f->mean);
		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" "
		        "stroke-width=\"1.2\" stroke-dasharray=\"6,4\"/>\n", RUN_LEFT, py, WIDTH - RIGHT,
		        py, f->color);
	}
	return y;
}

/* One placement's panel: its title (the placement's marker, its name, n and its mean; a
 * summary's note under it), frame, grid, mean, markers (warm-ups grey and hollow, outliers
 * ringed, far-off warm-ups pinned to the edge with their value), its own y axis. */
static double run_order_panel(FILE *out, const struct run_model *m, int group,
                              const struct svg_axis *x, double top, double plot_h, double r,
                              double *need)
{
	const struct analysis_dataset *d = m->data;
	const struct analysis_group *grp = &d->groups[group];
	const struct run_placement *pl = &m->placements[group]; /* one per group (run.c) */
	int style = svg_placement_style(grp->name);
	struct run_order_drawing w = run_order_drawing_of(d, group);
	char mean[48] = "", title[600], extra[64] = "", note[300], rings[120] = "";
	double mean_s = group_mean(grp);
	if (grp->n && isfinite(mean_s)) {
		double res = pl->mu ? (pl->mu->mu_ci[1] - pl->mu->mu_ci[0]) / 2 : (w.hi - w.lo) / 20;
		format_number(mean, sizeof mean, mean_s, res);
	}
	if (w.warmups)
		snprintf(extra, sizeof extra, ", %zu warm-up%s", w.warmups, w.warmups == 1 ? "" : "s");
	snprintf(title, sizeof title, "%s (n = %zu%s)%s%s%s", grp->name, grp->n, extra,
	         mean[0] ? ": mean " : "", mean, mean[0] ? " s (dashed line)" : "");
	if (w.ring_every > 1) /* outliers are thinned only in a summary */
		snprintf(rings, sizeof rings, "; every %zu%s of its %zu outliers ringed",
		         w.ring_every, ordinal_suffix(w.ring_every), w.outliers);
	snprintf(note, sizeof note, "A summary: each bin of run order shows its samples' "
	         "range (line) and mean (marker)%s", rings);

	fputs("<g class=\"panel\" data-placement=\"", out);
	report_xml_escape(out, grp->name);
	fputs("\">\n", out);
	svg_marker(out, style, RUN_LEFT + 6, top + 11, 5, svg_color(style), true);
	double header;
	struct svg_axis y = run_frame(out, &(struct run_frame){
		.top = top, .plot_h = plot_h, .lo = w.lo, .hi = w.hi, .title_x = RUN_LEFT + 18,
		.title = title, .note = w.binned ? note : NULL, .mean = mean[0] ? &mean_s : NULL,
		.color = svg_color(style) }, x, &header, need);
	run_order_markers(out, d, group, x, &y, r, &w);
	char ytitle[80];
	snprintf(ytitle, sizeof ytitle, "%s\nper %s (s)", metric_name(m->data->metric),
	         unit_name(m->data->unit));
	svg_y_axis(out, &y, RUN_LEFT, ytitle, true);
	fputs("</g>\n", out);
	return header;
}

/* The headline comparison's per-block ratio, when the paired design answered it: drift that
 * hits a block's placements alike cancels here, while a block effect that does not cancel (a
 * trend, a step) shows. The band is the ratio's 95% interval, the dashed line its mean. NULL
 * when there is nothing to draw (unpaired, or out of memory); else the points, *n of them. */
static struct analysis_block_ratio *block_ratio_points(const struct run_model *m, long *n)
{
	const struct analysis_comparison *c = m->headline;
	int ia = analysis_dataset_find(m->data, c->a.name);
	int ib = analysis_dataset_find(m->data, c->b.name);
	struct analysis_block_ratio *points = NULL;
	if (c->design != ANALYSIS_DESIGN_PAIRED || ia < 0 || ib < 0)
		return NULL;
	*n = analysis_block_ratios(&m->data->groups[ia], &m->data->groups[ib], &points);
	if (*n <= 0) {
		free(points);
		return NULL;
	}
	return points;
}

static double block_ratio_panel(FILE *out, const struct run_model *m,
                                const struct analysis_block_ratio *points, long n,
                                const struct svg_axis *x, double top, double plot_h, double r,
                                double *need)
{
	const struct analysis_comparison *c = m->headline;
	double lo = fmin(c->ratio_ci[0], 1.0), hi = fmax(c->ratio_ci[1], 1.0);
	for (long i = 0; i < n; i++) {
		lo = fmin(lo, points[i].ratio);
		hi = fmax(hi, points[i].ratio);
	}
	double pad = (hi - lo) * 0.08 + 1e-9;
	size_t every = thinning((size_t)n, PLOT_POINTS_MAX);
	char title[300], note[80];
	snprintf(title, sizeof title, "%s / %s per block (%zu paired): band, its 95%% interval; "
	         "dashed, its mean", c->a.name, c->b.name, c->blocks_paired);
	snprintf(note, sizeof note, "Every %zu%s block drawn", every, ordinal_suffix(every));
	fputs("<g class=\"panel\" data-panel=\"block-ratio\">\n", out);
	double header;
	struct svg_axis y = run_frame(out, &(struct run_frame){
		.top = top, .plot_h = plot_h, .lo = lo - pad, .hi = hi + pad, .title_x = RUN_LEFT,
		.title = title, .note = every > 1 ? note : NULL, .band = c->ratio_ci,
		.mean = &c->ratio_mean, .color = "#1f77b4" }, x, &header, need);
	double one_y = svg_map(&y, 1.0);
	fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#888\"/>\n",
	        RUN_LEFT, one_y, WIDTH - RIGHT, one_y);
	for (long i = 0; i < n; i += (long)every)
		svg_marker(out, 0, svg_map(x, (double)points[i].trial), svg_map(&y, points[i].ratio), r,
		           "#1f77b4", true);
	svg_y_axis(out, &y, RUN_LEFT, "ratio A / B\nper block", true);
	fputs("</g>\n", out);
	return header;
}

/* The run-order plot's x axis: every sample's run-order index, padded. */
static struct svg_axis run_order_x(const struct analysis_dataset *d)
{
	double tlo = INFINITY, thi = -INFINITY;
	for (size_t i = 0; i < d->point_count; i++) {
		tlo = fmin(tlo, (double)d->points[i].trial);
		thi = fmax(thi, (double)d->points[i].trial);
	}
	if (!d->point_count)
		tlo = 0, thi = 1;
	double tpad = thi > tlo ? (thi - tlo) * 0.02 + 0.5 : 1;
	return (struct svg_axis){ tlo - tpad, thi + tpad, RUN_LEFT, WIDTH - RIGHT };
}

/* The title and the legend (wrapped as it goes); the y below them. */
static double run_order_legend(FILE *out, const struct analysis_dataset *d, const char *title,
                               int panels)
{
	svg_text(out, WIDTH / 2.0, 24, "middle", 16, "bold", title);
	double lx = RUN_LEFT, ly = 50;
	for (size_t g = 0; g < d->group_count; g++) {
		int style = svg_placement_style(d->groups[g].name);
		char text[120];
		snprintf(text, sizeof text, "%s (n = %zu)", d->groups[g].name, d->groups[g].n);
		lx = legend_entry(out, lx, &ly, style, svg_color(style), true, false, text);
	}
	if (d->warmup_trials)
		lx = legend_entry(out, lx, &ly, 0, "#888", false, false, "warm-up (not analysed)");
	legend_entry(out, lx, &ly, 0, "#000", false, true, "outlier (kept)");
	svg_text(out, RUN_LEFT, ly + 20, "start", 12, NULL,
	         panels > 1 ? "One panel per placement, each with its own y scale; dashed line: "
	                      "the placement's mean."
	                    : "Dashed line: the placement's mean.");
	return ly + 34;
}

enum { RUN_PANEL_GAP = 18, RUN_X_AXIS_H = 56 };

/* The body of the plot (legend, a panel per placement, the per-block ratio panel, the x axis)
 * as a new string; *height gets the plot's height. */
static char *run_order_body(const struct run_model *m, const char *title, double *height,
                            double *width)
{
	const struct analysis_dataset *d = m->data;
	struct svg_axis x = run_order_x(d);
	int panels = 0;
	for (size_t g = 0; g < d->group_count; g++)
		panels += run_order_drawing_of(d, (int)g).shown;
	long block_count = 0;
	struct analysis_block_ratio *blocks = block_ratio_points(m, &block_count);
	panels += blocks != NULL;
	/* Panels tall enough for their axis title, shorter when there are many of them. */
	double plot_h = panels <= 2 ? 150 : panels <= 3 ? 130 : 112;
	char *body = NULL;
	size_t body_len = 0;
	FILE *out = xmemstream(&body, &body_len);
	double top = run_order_legend(out, d, title, panels);
	for (size_t g = 0; g < d->group_count; g++) {
		if (!run_order_drawing_of(d, (int)g).shown)
			continue;
		top += run_order_panel(out, m, (int)g, &x, top, plot_h,
		                       d->point_count > 400 ? 2.5 : 4, width) + plot_h + RUN_PANEL_GAP;
	}
	if (blocks) {
		top += block_ratio_panel(out, m, blocks, block_count, &x, top, plot_h,
		                         block_count > 200 ? 2.5 : 4, width) + plot_h + RUN_PANEL_GAP;
		free(blocks);
	}
	double axis_y = panels ? top - RUN_PANEL_GAP : top + 24;
	svg_x_axis(out, &x, axis_y, d->from_folder ? "trial, in the order run (warm-up included)"
	                                           : "sample, in file order");
	*height = axis_y + RUN_X_AXIS_H;
	return xmemstream_close(out, &body);
}

char *plot_run_order(const struct run_model *m)
{
	char title[200];
	snprintf(title, sizeof title, "Every sample in run order: mean %s per %s",
	         metric_name(m->data->metric), unit_name(m->data->unit));
	/* The body first: the height is known only after the legend wraps. */
	double height = 0, width = fmax(WIDTH, WIDTH / 2.0 + svg_text_width(title, 16, true) / 2);
	char *body = run_order_body(m, title, &height, &width), *buf = NULL;
	size_t len = 0;
	FILE *out = xmemstream(&buf, &len);
	char *description = xasprintf(
		"Each marker is one sample, placed by its run-order index; one panel per placement, "
		"each with its own y scale, all sharing the x axis; placements differ by colour and "
		"shape; warm-ups are grey and hollow; outliers are ringed; the dashed line is the "
		"placement's mean. When the headline comparison is paired by block, a last panel shows "
		"its ratio in each block, where drift shared by a block cancels. A panel of more than "
		"%d samples is drawn from a summary (the range and mean of each bin of run order, some "
		"outliers ringed) and says so in its title.", PLOT_POINTS_MAX);
	/* As wide as its panel titles need (estimated on the wide side): nothing cut off. */
	svg_begin(out, (int)ceil(width + 8), (int)ceil(height), title, description);
	free(description);
	fputs(body, out);
	free(body);
	svg_end(out);
	return xmemstream_close(out, &buf);
}

/* ---- samples.svg -------------------------------------------------------------------------- */

/* Linear-interpolation quantile of sorted x. */
static double quantile_sorted(const double *x, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t i = (size_t)floor(pos);
	if (i + 1 >= n)
		return x[n - 1];
	return x[i] + (pos - (double)i) * (x[i + 1] - x[i]);
}

/* A column's box: quartiles, median and whiskers (the farthest samples within 1.5 box lengths). */
struct box {
	double lo, hi, q1, median, q3, whisker_lo, whisker_hi;
};

static struct box box_of(const double *values, size_t n)
{
	double *sorted = xmalloc(n * sizeof *sorted);
	memcpy(sorted, values, n * sizeof *sorted);
	gsl_sort(sorted, 1, n);
	struct box b = { sorted[0], sorted[n - 1], quantile_sorted(sorted, n, 0.25),
	                 quantile_sorted(sorted, n, 0.5), quantile_sorted(sorted, n, 0.75), 0, 0 };
	double iqr = b.q3 - b.q1;
	b.whisker_lo = b.q1;
	b.whisker_hi = b.q3;
	for (size_t i = 0; i < n; i++) {
		if (sorted[i] >= b.q1 - 1.5 * iqr && sorted[i] < b.whisker_lo)
			b.whisker_lo = sorted[i];
		if (sorted[i] <= b.q3 + 1.5 * iqr && sorted[i] > b.whisker_hi)
			b.whisker_hi = sorted[i];
	}
	free(sorted);
	return b;
}

static void draw_box(FILE *out, const struct box *b, const struct svg_axis *y, double cx,
                     double half, const char *color)
{
	svg_line(out, cx, svg_map(y, b->whisker_lo), cx, svg_map(y, b->q1), "#333", "");
	svg_line(out, cx, svg_map(y, b->q3), cx, svg_map(y, b->whisker_hi), "#333", "");
	for (int w = 0; w < 2; w++) {
		double v = w ? b->whisker_hi : b->whisker_lo;
		svg_line(out, cx - half / 3, svg_map(y, v), cx + half / 3, svg_map(y, v), "#333", "");
	}
	double by = svg_map(y, b->q3), bh = svg_map(y, b->q1) - by;
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
	        "fill-opacity=\"0.12\" stroke=\"#333\" stroke-width=\"1.2\"/>\n", cx - half, by,
	        2 * half, bh < 1 ? 1 : bh, color);
	svg_line(out, cx - half, svg_map(y, b->median), cx + half, svg_map(y, b->median), "#000",
	         " stroke-width=\"3\"");
}

/* Group g's samples, spread sideways by a low-discrepancy sequence (the same picture every
 * time), its outliers ringed: a group's k-th sample is its k-th measured point, so one pass
 * over the points marks them all. */
static void draw_samples(FILE *out, const struct analysis_dataset *d, size_t g,
                         const struct svg_axis *y, double cx, double half)
{
	const struct analysis_group *grp = &d->groups[g];
	int style = svg_placement_style(grp->name);
	bool *ringed = xcalloc(grp->n, sizeof *ringed);
	size_t k = 0;
	for (size_t i = 0; i < d->point_count && k < grp->n; i++)
		if (d->points[i].group == (int)g && !d->points[i].warmup)
			ringed[k++] = d->points[i].outlier;
	/* Past PLOT_POINTS_MAX, every k-th sample (the column says so): the box is of them all. */
	for (size_t i = 0; i < grp->n; i += thinning(grp->n, PLOT_POINTS_MAX)) {
		double jitter = fmod((double)i * 0.6180339887498949, 1.0) * 2 - 1;
		double px = cx + jitter * half * 0.8, py = svg_map(y, grp->values_s[i]);
		svg_marker(out, style, px, py, 4, svg_color(style), false);
		if (ringed[i])
			fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"9\" fill=\"none\" "
			        "stroke=\"#000\" stroke-width=\"1.6\"/>\n", px, py);
	}
	free(ringed);
}

/* One placement's column of samples.svg, on its own y axis: box of quartiles, median, whiskers,
 * every analysed sample (outliers ringed), and its name and n below. */
static void samples_column(FILE *out, const struct analysis_dataset *d, size_t g, double left,
                           double right, double top, double bottom)
{
	const struct analysis_group *grp = &d->groups[g];
	int style = svg_placement_style(grp->name);
	struct box b = box_of(grp->values_s, grp->n);
	double ypad = b.hi > b.lo ? (b.hi - b.lo) * 0.08 : fmax(fabs(b.hi) * 0.01, 1e-6);
	struct svg_axis y = { b.lo - ypad, b.hi + ypad, bottom, top };
	double axis_x = left + 62; /* room for this column's tick labels */
	double cx = (axis_x + right) / 2, half = fmin((right - axis_x) * 0.3, 70);
	fputs("<g class=\"panel\" data-placement=\"", out);
	report_xml_escape(out, grp->name);
	fputs("\">\n", out);
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
	        "stroke=\"#ccc\"/>\n", axis_x, top, right - axis_x, bottom - top);
	draw_box(out, &b, &y, cx, half, svg_color(style));
	draw_samples(out, d, g, &y, cx, half);
	/* Name and n below, on two lines: columns can be narrow. */
	double name_w = 8.2 * (double)strlen(grp->name);
	svg_marker(out, style, cx - name_w / 2 - 14, bottom + 16, 5, svg_color(style), false);
	svg_text(out, cx, bottom + 20, "middle", 13, "bold", grp->name);
	char n_text[96], drawn[48] = "";
	size_t every = thinning(grp->n, PLOT_POINTS_MAX);
	if (every > 1)
		snprintf(drawn, sizeof drawn, " (every %zu%s drawn)", every, ordinal_suffix(every));
	snprintf(n_text, sizeof n_text, "n = %zu%s", grp->n, drawn);
	svg_text(out, cx, bottom + 36, "middle", 12, NULL, n_text);
	svg_y_axis(out, &y, axis_x, "", true);
	fputs("</g>\n", out);
}

char *plot_samples(const struct run_model *m)
{
	const struct analysis_dataset *d = m->data;
	const char *unit = unit_name(m->data->unit);
	enum { HEIGHT = 460, TOP = 76, BOTTOM = 64, PLOT_LEFT = 34 };
	size_t shown = 0;
	for (size_t g = 0; g < d->group_count; g++)
		shown += d->groups[g].n > 0;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = xmemstream(&buf, &len);
	char title[200];
	snprintf(title, sizeof title, "Analysed samples per placement: %s per %s",
	         metric_name(m->data->metric), unit);
	char *description = xasprintf(
		"One column per placement, each on its own y scale so that its spread shows; each "
		"marker is one analysed sample (warm-ups excluded), spread sideways so they do not "
		"hide each other; the box spans the quartiles, the thick line is the median, whiskers "
		"reach the farthest sample within 1.5 box lengths; outliers are ringed. A column of "
		"more than %d samples draws every k-th of them (its label says which); its box is of "
		"them all.", PLOT_POINTS_MAX);
	svg_begin(out, WIDTH, HEIGHT, title, description);
	free(description);
	svg_text(out, WIDTH / 2.0, 24, "middle", 16, "bold", title);
	svg_text(out, WIDTH / 2.0, 44, "middle", 12, NULL,
	         "box: quartiles, thick line: median, whiskers: within 1.5 IQR, markers: samples, "
	         "rings: outliers");
	svg_text(out, WIDTH / 2.0, 60, "middle", 12, NULL,
	         shown > 1 ? "Each placement on its own y scale (compare their means in the "
	                     "posterior plot and the table)"
	                   : "");
	double col_w = (double)(WIDTH - RIGHT - PLOT_LEFT) / (double)(shown ? shown : 1);
	size_t k = 0;
	for (size_t g = 0; g < d->group_count; g++) {
		if (!d->groups[g].n)
			continue;
		double left = PLOT_LEFT + col_w * (double)k;
		k++;
		samples_column(out, d, g, left, left + col_w - (k < shown ? 10 : 0), TOP,
		               HEIGHT - BOTTOM);
	}
	if (!shown)
		svg_text(out, WIDTH / 2.0, HEIGHT / 2.0, "middle", 13, NULL, "no analysed samples");
	/* The metric's and the unit's names are words.c's: nothing to escape. */
	fprintf(out, "<text transform=\"translate(16 %.1f) rotate(-90)\" text-anchor=\"middle\" "
	        "font-size=\"13\">%s per %s (s)</text>\n", (TOP + HEIGHT - BOTTOM) / 2.0,
	        metric_name(m->data->metric), unit);
	svg_end(out);
	return xmemstream_close(out, &buf);
}
