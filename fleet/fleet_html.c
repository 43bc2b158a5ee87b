/*
 * fleet_html.c — the forest plot (one row per node with its 95% interval, grouped; each group's
 * predictive interval as a shaded band, its pooled slowdown as a diamond; nodes that disagree in
 * red and named) and fleet.html, one self-contained page (no scripts, no network) around it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"
#include "fleet/internal.h"
#include "report/report.h"
#include "report/svg.h"

enum { ROW_PX = 22, TOP_PX = 40, BOTTOM_PX = 60, WIDTH_PX = 900, LABEL_PX = 260 };
static const char OUTLIER_COLOR[] = "#D55E00", NODE_COLOR[] = "#0072B2",
                  POOLED_COLOR[] = "#000000", BAND_COLOR[] = "#CFE3F2";

/* The x range: every interval drawn, and 1 (no slowdown). */
static void ratio_range(const struct fleet *f, double *lo, double *hi)
{
	*lo = 1;
	*hi = 1;
	for (size_t i = 0; i < f->host_count; i++) {
		if (!isfinite(f->hosts[i].ratio_ci[0]) || !isfinite(f->hosts[i].ratio_ci[1]))
			continue;
		*lo = fmin(*lo, f->hosts[i].ratio_ci[0]);
		*hi = fmax(*hi, f->hosts[i].ratio_ci[1]);
	}
	for (size_t g = 0; g < f->group_count; g++)
		if (f->groups[g].pooled.ok) {
			*lo = fmin(*lo, f->groups[g].pooled.predictive_ci[0]);
			*hi = fmax(*hi, f->groups[g].pooled.predictive_ci[1]);
		}
	double pad = (*hi - *lo) * 0.05 + 1e-3;
	*lo -= pad;
	*hi += pad;
}

static size_t row_count(const struct fleet *f)
{
	size_t rows = 0;
	for (size_t g = 0; g < f->group_count; g++)
		rows += f->groups[g].host_count + 3; /* title, nodes, pooled, gap */
	return rows ? rows : 1;
}

/* A label cut by snprintf may end inside a UTF-8 sequence, which would make the SVG invalid
 * XML: the incomplete character is dropped. */
static void utf8_whole(char *text)
{
	size_t len = strlen(text), lead = len;
	while (lead > 0 && ((unsigned char)text[lead - 1] & 0xc0) == 0x80)
		lead--;
	if (lead == 0 || ((unsigned char)text[lead - 1] & 0x80) == 0)
		return;
	unsigned char c = (unsigned char)text[lead - 1];
	size_t need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
	if (len - (lead - 1) < need)
		text[lead - 1] = '\0';
}

static void node_row(FILE *out, const struct svg_axis *x, const struct fleet_host *h, double y)
{
	const char *color = h->outlier ? OUTLIER_COLOR : NODE_COLOR;
	char label[300];
	snprintf(label, sizeof label, "%s%s", h->host, h->outlier ? " — check this node" : "");
	utf8_whole(label);
	fprintf(out, "<g class=\"node%s\" data-dir=\"", h->outlier ? " outlier" : "");
	report_xml_escape(out, h->dir);
	fputs("\">\n", out);
	svg_text(out, LABEL_PX - 8, y + 4, "end", 12, h->outlier ? "bold" : NULL, label);
	if (isfinite(h->ratio_ci[0]) && isfinite(h->ratio_ci[1])) {
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		        "stroke-width=\"2\"%s/>\n", svg_map(x, h->ratio_ci[0]), y,
		        svg_map(x, h->ratio_ci[1]), y, color,
		        h->pooled ? "" : " stroke-dasharray=\"4 3\"");
		svg_marker(out, h->outlier ? 1 : 0, svg_map(x, h->ratio_mean), y, 4.5, color, h->settled);
	}
	fputs("</g>\n", out);
}

static void group_rows(FILE *out, const struct svg_axis *x, const struct fleet *f,
                       const struct fleet_group *g, size_t index, double *y)
{
	char title[600];
	snprintf(title, sizeof title, "Group %zu: %s, SMT %s, %s%s%s%s, %s", index + 1, g->cpu_model,
	         g->smt, g->workload, g->settings_text ? " (" : "",
	         g->settings_text ? g->settings_text : "", g->settings_text ? ")" : "", g->comparison);
	utf8_whole(title);
	svg_text(out, 10, *y + 4, "start", 13, "bold", title);
	*y += ROW_PX;
	if (g->pooled.ok) { /* the band a new node would fall in, behind the group's nodes */
		double x0 = svg_map(x, g->pooled.predictive_ci[0]);
		double x1 = svg_map(x, g->pooled.predictive_ci[1]);
		fprintf(out, "<rect class=\"predictive\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		        "height=\"%.1f\" fill=\"%s\" opacity=\"0.7\"/>\n", x0, *y - ROW_PX / 2.0,
		        x1 - x0, (double)ROW_PX * (double)(g->host_count + 1), BAND_COLOR);
	}
	for (size_t k = 0; k < g->host_count; k++, *y += ROW_PX)
		node_row(out, x, &f->hosts[g->hosts[k]], *y);
	if (g->pooled.ok) {
		const struct fleet_pooled *p = &g->pooled;
		svg_text(out, LABEL_PX - 8, *y + 4, "end", 12, "bold", "pooled");
		fprintf(out, "<path class=\"pooled\" d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" "
		        "fill=\"%s\"/>\n", svg_map(x, p->ratio_ci[0]), *y, svg_map(x, p->ratio_mean),
		        *y - 7, svg_map(x, p->ratio_ci[1]), *y, svg_map(x, p->ratio_mean), *y + 7,
		        POOLED_COLOR);
	}
	*y += 2 * ROW_PX;
}

char *fleet_svg_forest(const struct fleet *f)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	if (!out)
		return NULL;
	int height = (int)(TOP_PX + BOTTOM_PX + ROW_PX * row_count(f));
	svg_begin(out, WIDTH_PX, height, "Forest plot: each node's slowdown with its 95% interval",
	          "One row per node, grouped by CPU model, SMT state and workload; the shaded band "
	          "is the 95% interval a new node of the group would fall in, the diamond the pooled "
	          "slowdown with its 95% interval; nodes that disagree are red squares.");
	double lo, hi;
	ratio_range(f, &lo, &hi);
	struct svg_axis x = { lo, hi, LABEL_PX, WIDTH_PX - 30 };
	double bottom = height - BOTTOM_PX + 10;
	fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\" "
	        "stroke-dasharray=\"3 3\"/>\n", svg_map(&x, 1), TOP_PX - 20, svg_map(&x, 1), bottom);
	double y = TOP_PX;
	for (size_t g = 0; g < f->group_count; g++)
		group_rows(out, &x, f, &f->groups[g], g, &y);
	svg_x_axis(out, &x, bottom, "slowdown (time of the first placement / the second); 1 = none");
	svg_end(out);
	if (fclose(out) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

static const char style_sheet[] =
	"body{font-family:'DejaVu Sans',Arial,Helvetica,sans-serif;max-width:62rem;margin:1.5rem auto;"
	"padding:0 1rem;color:#111;line-height:1.4}h1{font-size:1.35rem}"
	"h2{font-size:1.15rem;margin-top:2rem}pre{background:#f6f6f6;padding:.6rem;white-space:pre-wrap;"
	"font-size:.85rem}.act{border-left:6px solid #D55E00;padding:.4rem 1rem;background:#fbeee6}"
	"figure{margin:1rem 0}svg{max-width:100%;height:auto}";

char *fleet_html(const struct fleet *f)
{
	char *svg = fleet_svg_forest(f);
	char *summary = NULL, *text = NULL;
	size_t summary_size = 0, size = 0;
	FILE *sum = svg ? open_memstream(&summary, &summary_size) : NULL;
	if (!sum || fleet_print_text(f, sum) != 0 || fclose(sum) != 0) {
		free(svg);
		free(summary);
		return NULL;
	}
	FILE *out = open_memstream(&text, &size);
	if (out) {
		report_html_begin(out, "smtbench fleet", NULL, style_sheet);
		for (size_t i = 0; i < f->host_count; i++)
			if (f->hosts[i].outlier) {
				fputs("<p class=\"act\">Disagrees with its group: <b>", out);
				report_xml_escape(out, f->hosts[i].host);
				fputs("</b> (", out);
				report_xml_escape(out, f->hosts[i].dir);
				fputs("): check this node: BIOS SMT setting, microcode, load?</p>\n", out);
			}
		if (f->host_count) /* runs' folders; matrix folders have their heat maps below */
			fprintf(out, "<h2>Forest plot</h2>\n<figure>\n%s</figure>\n", svg);
		if (fleet_matrix_html(f, out) < 0)
			fputs("<p>(out of memory drawing the matrix heat maps)</p>\n", out);
		fputs("<h2>Report</h2>\n<pre>", out);
		report_xml_escape(out, summary);
		fputs("</pre>\n<p>Every number is in fleet.json; the tables in fleet.md.</p>\n"
		      "</body>\n</html>\n", out);
		if (fclose(out) != 0) {
			free(text);
			text = NULL;
		}
	}
	free(svg);
	free(summary);
	return text;
}
