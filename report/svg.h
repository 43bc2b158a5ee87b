/*
 * svg.h — the drawing helpers of every plot: the report's and fleet's. Writes SVG 1.1 text to a
 * FILE; text given to it is escaped (report_xml_escape).
 */
#ifndef SMTBENCH_REPORT_SVG_H
#define SMTBENCH_REPORT_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Writes text to out with &, <, >, " and ' escaped for XML and HTML (a control character, which
 * XML 1.0 cannot hold, as '?'). */
void report_xml_escape(FILE *out, const char *text);

/* A stable 0..4 palette and marker index for a placement name (the registry's order). */
int svg_placement_style(const char *name);
const char *svg_color(int style);
const char *svg_dash(int style); /* stroke-dasharray or "none" */

/* Marker of a style centred at (x, y), radius r: filled or hollow. */
void svg_marker(FILE *out, int style, double x, double y, double r, const char *color,
                bool filled);

/* A line of colour stroke; more: further attributes, each after a blank (" stroke-width=\"2\""). */
void svg_line(FILE *out, double x1, double y1, double x2, double y2, const char *stroke,
              const char *more);

/* Linear map of data onto pixels. */
struct svg_axis {
	double lo, hi;       /* data */
	double p0, p1;       /* pixels (p1 < p0 for y) */
};
double svg_map(const struct svg_axis *a, double v);
/* Axis line, ticks, tick labels and the axis title (x: below; y: rotated, left). */
void svg_x_axis(FILE *out, const struct svg_axis *x, double y_px, const char *title);
void svg_y_axis(FILE *out, const struct svg_axis *y, double x_px, const char *title,
                bool labels);
void svg_text(FILE *out, double x, double y, const char *anchor, int size, const char *weight,
              const char *text);
/* A text's width in px at size, estimated on the wide side (0.62 em a character, 0.68 bold,
 * counted in UTF-8 code points; DejaVu Sans and Arial draw most text narrower), so that a
 * figure made this wide cuts nothing off; tests/e2e/svg_fit.py checks by the same rule. */
double svg_text_width(const char *text, int size, bool bold);
void svg_begin(FILE *out, int width, int height, const char *title, const char *desc);
void svg_end(FILE *out);

/* One cell of a heat map. */
struct svg_heat_cell {
	bool settled;           /* ratio_mean and ratio_ci are the data's: printed and coloured */
	bool decided;           /* it has a verdict (slower, faster, practically the same) */
	double ratio_mean, ratio_ci[2];
	size_t n;               /* what it rests on (blocks, nodes), printed when not settled */
};

/* The heat map of count workloads named names[], cells[v * count + g] the victim v beside the
 * aggressor g; a cell that is not settled grey with "?" and its n in unit ("blocks", "nodes");
 * one not decided hatched. A new SVG string (heatmap.c). */
char *svg_heatmap(const char *title, const char *description, const char *const *names,
                  size_t count, const struct svg_heat_cell *cells, const char *unit);

#endif
