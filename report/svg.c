/*
 * svg.c — a small SVG writer for the report's plots: axes with "nice" 1-2-5 ticks, text that is
 * always XML-escaped, and markers that differ in shape as well as colour so that a plot printed
 * in grey still tells placements apart.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/placements.h"
#include "report/report.h"
#include "report/svg.h"

int report_nice_ticks(double lo, double hi, int max_ticks, double *first, double *step)
{
	if (!isfinite(lo) || !isfinite(hi) || max_ticks < 2)
		return 0;
	if (hi < lo) {
		double t = lo;
		lo = hi;
		hi = t;
	}
	if (hi == lo) {
		double pad = lo != 0 ? fabs(lo) * 0.01 : 1;
		lo -= pad;
		hi += pad;
	}
	double raw = (hi - lo) / (max_ticks - 1);
	/* A range the doubles cannot tick: subnormal (its padding underflows to nothing) or wider
	 * than the largest double. */
	if (!(raw > 0) || !isfinite(raw))
		return 0;
	double power = pow(10, floor(log10(raw)));
	static const double mantissas[] = { 1, 2, 5, 10 };
	double s = 0, count = 0;
	for (size_t i = 0; i < sizeof mantissas / sizeof mantissas[0]; i++) {
		s = mantissas[i] * power;
		/* The count of multiples of s inside [lo, hi]: the first step with few enough, or 10. */
		count = floor(hi / s + 1e-9) - ceil(lo / s - 1e-9) + 1;
		if (count <= max_ticks)
			break;
	}
	double f = ceil(lo / s - 1e-9) * s;
	int n = count >= 1 && count <= 1000 ? (int)count : count > 1000 ? 1000 : 0;
	if (n < 1) {
		n = 1;
		f = lo;
	}
	*first = f == 0 ? 0 : f; /* no "-0" */
	*step = s;
	return n;
}

void report_xml_escape(FILE *out, const char *text)
{
	for (const char *p = text ? text : ""; *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			/* Control characters are not allowed in XML 1.0: show them as '?'. */
			if ((unsigned char)*p < 0x20 && *p != '\n' && *p != '\t')
				fputc('?', out);
			else
				fputc(*p, out);
		}
	}
}

/* Styles are the placement registry's rows (common/placements.h); other names (two-file
 * datasets) share them. */
int svg_placement_style(const char *name)
{
	size_t rank = placement_info_rank(name);
	if (rank < PLACEMENT_COUNT)
		return (int)rank;
	/* A file's name (two-file datasets): spread them over the palette by their first byte. */
	return name && *name ? (unsigned char)name[0] % PLACEMENT_COUNT : 0;
}

/* How a plot marks a placement's points, so that print in grey still tells them apart. */
enum marker { MARKER_CIRCLE, MARKER_SQUARE, MARKER_TRIANGLE_UP, MARKER_DIAMOND, MARKER_TRIANGLE_DOWN };

/* Each placement's colour (Okabe and Ito's colour-blind-safe palette), marker and line dash (an
 * SVG stroke-dasharray), by the registry's enum; a placement added there without a row here
 * fails test_schema. */
static const struct placement_style {
	const char *colour;
	enum marker marker;
	const char *dash;
} placement_styles[PLACEMENT_COUNT] = {
	[PLACEMENT_SOLO] = { "#0072B2", MARKER_CIRCLE, "none" },
	[PLACEMENT_SAME_PU] = { "#009E73", MARKER_SQUARE, "2,3" },
	[PLACEMENT_SIBLING] = { "#D55E00", MARKER_TRIANGLE_UP, "8,3" },
	[PLACEMENT_NON_SIBLING] = { "#CC79A7", MARKER_DIAMOND, "8,3,2,3" },
	[PLACEMENT_CROSS_PACKAGE] = { "#E69F00", MARKER_TRIANGLE_DOWN, "12,4" },
};

static const struct placement_style *style_row(int style)
{
	return &placement_styles[((style % PLACEMENT_COUNT) + PLACEMENT_COUNT) % PLACEMENT_COUNT];
}

const char *svg_color(int style)
{
	return style_row(style)->colour;
}

const char *svg_dash(int style)
{
	return style_row(style)->dash;
}

void svg_marker(FILE *out, int style, double x, double y, double r, const char *color,
                bool filled)
{
	const char *fill = filled ? color : "none", *common = "stroke-width=\"1.3\"";
	switch (style_row(style)->marker) {
	case MARKER_CIRCLE:
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" stroke=\"%s\" %s/>",
		        x, y, r, fill, color, common);
		break;
	case MARKER_SQUARE:
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
		        "stroke=\"%s\" %s/>", x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7, fill, color,
		        common);
		break;
	case MARKER_TRIANGLE_UP:
	case MARKER_TRIANGLE_DOWN: { /* the one mirrored: its apex below */
		double s = style_row(style)->marker == MARKER_TRIANGLE_UP ? 1 : -1;
		fprintf(out, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\" stroke=\"%s\" %s/>",
		        x, y - s * r * 1.15, x + r, y + s * r * 0.75, x - r, y + s * r * 0.75, fill, color,
		        common);
		break;
	}
	case MARKER_DIAMOND:
		fprintf(out, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\" "
		        "stroke=\"%s\" %s/>", x, y - r * 1.2, x + r * 1.2, y, x, y + r * 1.2, x - r * 1.2,
		        y, fill, color, common);
		break;
	}
	fputc('\n', out);
}

void svg_line(FILE *out, double x1, double y1, double x2, double y2, const char *stroke,
              const char *more)
{
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"%s/>\n", x1, y1,
	        x2, y2, stroke, more);
}

double svg_map(const struct svg_axis *a, double v)
{
	if (a->hi == a->lo)
		return (a->p0 + a->p1) / 2;
	return a->p0 + (v - a->lo) / (a->hi - a->lo) * (a->p1 - a->p0);
}

/* Tick labels with the decimals the step needs, the same for every tick of an axis. */
static void tick_label(char *buf, size_t size, double v, double step)
{
	double wanted = -floor(log10(step) + 1e-9);
	int decimals = wanted < 0 ? 0 : !(wanted < 10) ? 10 : (int)wanted;
	if (fabs(v) < step * 1e-6)
		v = 0;
	snprintf(buf, size, "%.*f", decimals, v);
}

void svg_text(FILE *out, double x, double y, const char *anchor, int size, const char *weight,
              const char *text)
{
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\"%s%s%s>", x, y,
	        anchor, size, weight ? " font-weight=\"" : "", weight ? weight : "",
	        weight ? "\"" : "");
	report_xml_escape(out, text);
	fputs("</text>\n", out);
}

double svg_text_width(const char *text, int size, bool bold)
{
	size_t chars = 0;
	for (const char *s = text; *s; s++)
		chars += ((unsigned char)*s & 0xc0) != 0x80;
	return (double)chars * size * (bold ? 0.68 : 0.62);
}

void svg_x_axis(FILE *out, const struct svg_axis *x, double y_px, const char *title)
{
	svg_line(out, x->p0, y_px, x->p1, y_px, "#000", "");
	double first, step;
	int n = report_nice_ticks(x->lo, x->hi, 7, &first, &step);
	for (int i = 0; i < n; i++) {
		double v = first + i * step;
		double px = svg_map(x, v);
		char label[48];
		tick_label(label, sizeof label, v, step);
		svg_line(out, px, y_px, px, y_px + 5, "#000", "");
		svg_text(out, px, y_px + 18, "middle", 12, NULL, label);
	}
	svg_text(out, (x->p0 + x->p1) / 2, y_px + 36, "middle", 13, NULL, title);
}

void svg_y_axis(FILE *out, const struct svg_axis *y, double x_px, const char *title,
                bool labels)
{
	svg_line(out, x_px, y->p0, x_px, y->p1, "#000", "");
	double title_gap = labels ? 62 : 14;
	if (labels) {
		double first, step;
		int n = report_nice_ticks(y->lo, y->hi, 6, &first, &step);
		for (int i = 0; i < n; i++) {
			double v = first + i * step;
			double py = svg_map(y, v);
			char label[48];
			tick_label(label, sizeof label, v, step);
			/* Keep the title clear of long tick labels (about 7 px a character at 12 px). */
			title_gap = fmax(title_gap, 8 + 7.0 * (double)strlen(label) + 14);
			svg_line(out, x_px - 5, py, x_px, py, "#000", "");
			svg_text(out, x_px - 8, py + 4, "end", 12, NULL, label);
		}
	}
	/* The title, rotated; a '\n' in it starts a second line (nearer the axis), for panels too
	 * short to hold the whole title on one line. */
	if (!title || !*title)
		return; /* panels that share one title written elsewhere */
	double cy = (y->p0 + y->p1) / 2;
	int lines = 1;
	for (const char *p = title; *p; p++)
		lines += *p == '\n';
	/* strsep, not strtok_r: an empty line keeps its place, as `lines` counts it. */
	char *copy = xstrdup(title), *rest = copy;
	for (int i = 0; rest; i++) {
		char *line = strsep(&rest, "\n");
		fprintf(out, "<text transform=\"translate(%.1f %.1f) rotate(-90)\" "
		        "text-anchor=\"middle\" font-size=\"13\">",
		        x_px - title_gap - 15.0 * (lines - 1 - i), cy);
		report_xml_escape(out, line);
		fputs("</text>\n", out);
	}
	free(copy);
}

void svg_begin(FILE *out, int width, int height, const char *title, const char *desc)
{
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	        "viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\" "
	        "role=\"img\">\n<title>", width, height, width, height);
	report_xml_escape(out, title);
	fputs("</title>\n<desc>", out);
	report_xml_escape(out, desc);
	fprintf(out, "</desc>\n<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", width, height);
}

void svg_end(FILE *out)
{
	fputs("</svg>\n", out);
}
