/*
 * render_md.c — a document (doc.h) as Markdown (GitHub's): headings, "**Lead:** text"
 * paragraphs, lists, pipe tables (numbers right-aligned), figures as images of their files.
 */
#include "report/doc.h"

/* Text on one line (a heading, a paragraph, a list item): a newline would end it. Outside a
 * table '|' is an ordinary character, and "\|" in a `code span` would show its backslash. */
static void md_line(FILE *out, const char *text)
{
	for (const char *p = text; *p; p++)
		fputc(*p == '\n' ? ' ' : *p, out);
}

/* A table's cell: '|' would end the cell (escaped so even in a `code span`, as GFM reads it),
 * and a newline the row. */
static void md_cell(FILE *out, const char *text)
{
	fputc(' ', out);
	for (const char *p = text; *p; p++) {
		if (*p == '|')
			fputc('\\', out);
		fputc(*p == '\n' ? ' ' : *p, out);
	}
	fputs(" |", out);
}

static void md_table(const struct doc_block *b, FILE *out)
{
	fputc('|', out);
	for (size_t c = 0; c < b->ncolumns; c++)
		md_cell(out, b->columns[c].title);
	fputs("\n|", out);
	for (size_t c = 0; c < b->ncolumns; c++)
		fputs(b->columns[c].numeric ? "---:|" : "---|", out);
	fputc('\n', out);
	for (size_t r = 0; r < b->nrows; r++) {
		fputc('|', out);
		for (size_t c = 0; c < b->ncolumns; c++)
			md_cell(out, doc_cell(b, r, c));
		fputc('\n', out);
	}
}

void doc_render_markdown(const struct doc *d, FILE *out)
{
	fputs("# ", out);
	md_line(out, d->title);
	fputc('\n', out);
	bool in_list = false;
	for (size_t i = 0; i < d->count; i++) {
		const struct doc_block *b = &d->blocks[i];
		if (!(b->outputs & DOC_MARKDOWN) || b->kind == DOC_BREAK
		    || (b->kind == DOC_FIGURE && !b->file))
			continue;
		if (!(in_list && b->kind == DOC_ITEM)) /* blocks apart, a list's items together */
			fputc('\n', out);
		in_list = b->kind == DOC_ITEM;
		switch (b->kind) {
		case DOC_HEADING:
			fputs(b->level == 2 ? "## " : "### ", out);
			md_line(out, b->text);
			break;
		case DOC_PARAGRAPH:
			if (b->lead)
				fprintf(out, "**%s:** ", b->lead);
			md_line(out, b->text);
			break;
		case DOC_ITEM:
			fputs("- ", out);
			md_line(out, b->text);
			break;
		case DOC_TABLE:
			md_table(b, out);
			continue; /* it ends its last row */
		case DOC_FIGURE:
			fprintf(out, "![%s](%s)", b->text, b->file);
			break;
		case DOC_BREAK:
			break;
		}
		fputc('\n', out);
	}
}
