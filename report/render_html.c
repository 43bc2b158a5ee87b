/*
 * render_html.c — a document (doc.h) as one self-contained page: no scripts, no network, the
 * style sheet and the figures (SVG) inline; headings, paragraphs with their id and class, lists,
 * tables (numbers right-aligned), figures.
 */
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "report/doc.h"
#include "report/svg.h"

static const char style_sheet[] =
	"body{font-family:'DejaVu Sans',Arial,Helvetica,sans-serif;max-width:70rem;margin:1.5rem auto;"
	"padding:0 1rem;color:#111;line-height:1.4}h1{font-size:1.35rem}"
	"h2{font-size:1.15rem;margin-top:2rem}h3{font-size:1rem}"
	".verdict{font-size:1.15rem;font-weight:bold;border-left:6px solid #0072B2;padding:.6rem 1rem;"
	"background:#f2f6fa}.nosmt{border-left:6px solid #E69F00;padding:.4rem 1rem;background:#fdf6e8}"
	".act{border-left:6px solid #D55E00;padding:.4rem 1rem;background:#fbeee6}"
	/* A table wider than a phone's screen scrolls in its own box, never the page. */
	"table{border-collapse:collapse;margin:.5rem 0;display:block;max-width:100%;overflow-x:auto}"
	"h1,h2,p,li,.verdict{overflow-wrap:anywhere}td,th{border:1px solid #bbb;padding:.25rem .5rem;"
	"text-align:left}td.num{text-align:right;font-variant-numeric:tabular-nums}th{background:#eee}"
	"figure{margin:1rem 0;max-width:100%}svg{max-width:100%;height:auto}.warn li{margin:.2rem 0}"
	".muted{color:#555;font-size:.9rem}";

/* Escapes text, each `x` (a name or a command, as every text marks them) as <code>x</code>; an
 * unpaired backtick stays as it is. */
static void html_text(FILE *out, const char *text)
{
	char *copy = xstrdup(text), *rest = copy, *open, *close;
	while ((open = strchr(rest, '`')) && (close = strchr(open + 1, '`'))) {
		*open = *close = '\0';
		report_xml_escape(out, rest);
		fputs("<code>", out);
		report_xml_escape(out, open + 1);
		fputs("</code>", out);
		rest = close + 1;
	}
	report_xml_escape(out, rest);
	free(copy);
}

/* "<tag id="..." class="...">". */
static void html_open(FILE *out, const char *tag, const char *id, const char *css)
{
	fprintf(out, "<%s", tag);
	if (id)
		fprintf(out, " id=\"%s\"", id);
	if (css)
		fprintf(out, " class=\"%s\"", css);
	fputc('>', out);
}

static void html_table(const struct doc_block *b, FILE *out)
{
	html_open(out, "table", b->id, NULL);
	fputc('\n', out);
	for (size_t r = 0; r <= b->nrows; r++) { /* the titles, then each row's cells */
		fputs("<tr>", out);
		for (size_t c = 0; c < b->ncolumns; c++) {
			fputs(!r ? "<th>" : b->columns[c].numeric ? "<td class=\"num\">" : "<td>", out);
			html_text(out, r ? doc_cell(b, r - 1, c) : b->columns[c].title);
			fputs(!r ? "</th>" : "</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void html_block(const struct doc_block *b, FILE *out)
{
	switch (b->kind) {
	case DOC_HEADING:
		html_open(out, "h2", b->id, NULL);
		report_xml_escape(out, b->text);
		fputs("</h2>\n", out);
		break;
	case DOC_PARAGRAPH: {
		char *text = doc_lead_text(b);
		html_open(out, "p", b->id, b->css);
		html_text(out, text);
		fputs("</p>\n", out);
		free(text);
		break;
	}
	case DOC_ITEM:
		fputs("<li>", out);
		html_text(out, b->text);
		fputs("</li>\n", out);
		break;
	case DOC_TABLE:
		html_table(b, out);
		break;
	case DOC_FIGURE: /* our own SVG: well-formed, escaped, without an XML declaration */
		html_open(out, "figure", b->id, NULL);
		fprintf(out, "%s</figure>\n", b->svg);
		break;
	}
}

void doc_render_html(const struct doc *d, FILE *out)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
	      out);
	report_xml_escape(out, d->title);
	fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", style_sheet);
	report_xml_escape(out, d->title);
	fputs("</h1>\n", out);
	bool in_list = false; /* a list's items are one <ul>, with the first item's id and class */
	for (size_t i = 0; i < d->count; i++) {
		const struct doc_block *b = &d->blocks[i];
		if (!(b->outputs & DOC_HTML))
			continue;
		if (in_list && b->kind != DOC_ITEM)
			fputs("</ul>\n", out);
		if (!in_list && b->kind == DOC_ITEM) {
			html_open(out, "ul", b->id, b->css);
			fputc('\n', out);
		}
		in_list = b->kind == DOC_ITEM;
		html_block(b, out);
	}
	if (in_list)
		fputs("</ul>\n", out);
	fputs("</body>\n</html>\n", out);
}
