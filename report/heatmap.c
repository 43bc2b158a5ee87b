/*
 * heatmap.c — the one heat map of every matrix report (a folder's cells, a fleet's pooled cells;
 * svg.h): victims as rows, aggressors as columns, colour the slowdown on a log scale, each cell
 * its ratio and interval, a cell without a verdict hatched, one without a settled answer grey.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/alloc.h"
#include "report/svg.h"
#include "report/words.h"

#define HM_LEFT 140
#define HM_TOP 78
#define HM_CELL_W 124
#define HM_CELL_H 54
#define HM_LEGEND_H 78

/* The slowdown's colour: white at 1×, red towards 2× and above, blue towards 0.5× and below
 * (log scale); true when the text on it should be white. */
static bool ratio_colour(double ratio, char buf[8])
{
	double t = isfinite(ratio) && ratio > 0 ? log(ratio) / log(2.0) : 0;
	t = t > 1 ? 1 : t < -1 ? -1 : t;
	static const int white[3] = { 247, 247, 247 }, red[3] = { 178, 24, 43 },
	                 blue[3] = { 33, 102, 172 };
	const int *to = t >= 0 ? red : blue;
	double a = fabs(t);
	int rgb[3];
	for (int i = 0; i < 3; i++)
		rgb[i] = (int)lround(white[i] + (to[i] - white[i]) * a);
	snprintf(buf, 8, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
	return a > 0.55;
}

static void heatmap_cell(FILE *out, const struct svg_heat_cell *c, const char *unit, double x,
                         double y)
{
	char fill[8] = "#dddddd";
	bool dark = c->settled && ratio_colour(c->ratio_mean, fill);
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"%s\" "
	        "stroke=\"#fff\" stroke-width=\"2\"/>\n", x, y, HM_CELL_W, HM_CELL_H, fill);
	if (!c->settled || !c->decided)
		fprintf(out, "<rect class=\"undecided\" x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" "
		        "fill=\"url(#hatch)\"/>\n", x, y, HM_CELL_W, HM_CELL_H);
	const char *colour = dark ? "#fff" : "#111";
	double cx = x + HM_CELL_W / 2.0;
	if (!c->settled) { /* the grid's mean, not the data's: no number, no colour */
		fprintf(out, "<text class=\"ratio\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
		        "font-size=\"15\" font-weight=\"bold\">?</text>\n<text x=\"%.1f\" y=\"%.1f\" "
		        "text-anchor=\"middle\" font-size=\"11\">%zu %s: too few</text>\n", cx, y + 23,
		        cx, y + 41, c->n, unit);
		return;
	}
	struct format_ring ns = { .next = 0 };
	double res = half_width(c->ratio_ci);
	fprintf(out, "<text class=\"ratio\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
	        "font-size=\"15\" font-weight=\"bold\" fill=\"%s\">%s×</text>\n", cx, y + 23, colour,
	        format_num(&ns, c->ratio_mean, res));
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\" "
	        "fill=\"%s\">%s</text>\n", cx, y + 41, colour, format_ci(&ns, c->ratio_ci, res));
}

/* The colour scale, the hatching's key and caption (the colour's words) under them. */
static void heatmap_legend(FILE *out, double y, int width, const char *caption)
{
	double x0 = HM_LEFT, w = 240;
	fputs("<defs><linearGradient id=\"slowdown\" x1=\"0\" x2=\"1\" y1=\"0\" y2=\"0\">", out);
	for (int i = 0; i <= 8; i++) {
		char c[8];
		ratio_colour(pow(2.0, -1 + i / 4.0), c);
		fprintf(out, "<stop offset=\"%.3f\" stop-color=\"%s\"/>", i / 8.0, c);
	}
	fputs("</linearGradient></defs>\n", out);
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"14\" "
	        "fill=\"url(#slowdown)\" stroke=\"#999\"/>\n", x0, y, w);
	static const char *const labels[] = { "0.5× (faster)", "1×", "2× (slower)" };
	for (int i = 0; i < 3; i++)
		svg_text(out, x0 + w * i / 2.0, y + 30, i == 0 ? "start" : i == 1 ? "middle" : "end", 11,
		         NULL, labels[i]);
	double hx = x0 + w + 30;
	if (hx + 200 > width)
		hx = width - 200;
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"28\" height=\"14\" fill=\"#f7f7f7\" "
	        "stroke=\"#999\"/><rect x=\"%.1f\" y=\"%.1f\" width=\"28\" height=\"14\" "
	        "fill=\"url(#hatch)\"/>\n", hx, y, hx, y);
	svg_text(out, hx + 34, y + 12, "start", 11, NULL, "hatched: not enough data to say");
	svg_text(out, x0, y + 52, "start", 11, NULL, caption);
}

char *svg_heatmap(const char *title, const char *description, const char *const *names,
                  size_t count, const struct svg_heat_cell *cells, const char *unit)
{
	int n = (int)count;
	int width = HM_LEFT + n * HM_CELL_W + 20;
	if (width < HM_LEFT + 520)
		width = HM_LEFT + 520;
	/* Wide enough for the title and the legend's caption: nothing cut off at the right. */
	char caption[200];
	snprintf(caption, sizeof caption, "colour: the victim's slowdown against itself alone (log "
	         "scale; 2× and above darkest); grey, ?: too few %s for a number", unit);
	double need = fmax(10 + svg_text_width(title, 14, true), HM_LEFT + svg_text_width(caption, 11, false));
	for (size_t k = 0; k < count; k++)
		need = fmax(need, HM_LEFT + ((double)k + 0.5) * HM_CELL_W
		                  + svg_text_width(names[k], 12, true) / 2);
	if (need + 10 > width)
		width = (int)ceil(need + 10);
	int height = HM_TOP + n * HM_CELL_H + HM_LEGEND_H;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = xmemstream(&buf, &len);
	svg_begin(out, width, height, title, description);
	fputs("<defs><pattern id=\"hatch\" patternUnits=\"userSpaceOnUse\" width=\"8\" height=\"8\" "
	      "patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"8\" "
	      "stroke=\"#555\" stroke-width=\"2\" stroke-opacity=\"0.45\"/></pattern></defs>\n", out);
	svg_text(out, 10, 20, "start", 14, "bold", title);
	svg_text(out, HM_LEFT + n * HM_CELL_W / 2.0, 44, "middle", 12, NULL, "aggressor →");
	svg_text(out, 10, HM_TOP - 8, "start", 12, NULL, "victim ↓");
	for (int g = 0; g < n; g++)
		svg_text(out, HM_LEFT + (g + 0.5) * HM_CELL_W, HM_TOP - 8, "middle", 12, "bold",
		         names[g]);
	for (int v = 0; v < n; v++) {
		double y = HM_TOP + v * HM_CELL_H;
		svg_text(out, HM_LEFT - 8, y + HM_CELL_H / 2.0 + 4, "end", 12, "bold", names[v]);
		for (int g = 0; g < n; g++)
			heatmap_cell(out, &cells[v * n + g], unit, HM_LEFT + g * HM_CELL_W, y);
	}
	heatmap_legend(out, HM_TOP + n * HM_CELL_H + 16, width, caption);
	svg_end(out);
	return xmemstream_close(out, &buf);
}
