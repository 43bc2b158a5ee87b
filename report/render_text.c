/*
 * render_text.c — a document (doc.h) on a terminal: a section's heading after a blank line,
 * "Lead: text" paragraphs, "  - " items, tables in aligned columns (numbers on the right),
 * no figures.
 */
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"

#include "report/doc.h"

/* A cell is shown without the backticks of its `code` spans: they mark names for the files, and
 * on a terminal would only push the columns apart. */
static void put_plain(FILE *out, const char *text)
{
	for (size_t n; *text; text += n + (text[n] == '`')) {
		n = strcspn(text, "`");
		fwrite(text, 1, n, out);
	}
}

/* The columns that put_plain's text takes on a terminal: a character, not a byte, per column (×
 * and – are two and three bytes in UTF-8). */
static size_t columns_of(const char *text)
{
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		n += (*p & 0xc0) != 0x80 && *p != '`';
	return n;
}

/* One row: the titles (row SIZE_MAX) or cells, each in its column's width, without the blanks
 * at its end (an empty last column leaves none). */
static void text_row(const struct doc_block *b, size_t row, const size_t *width, FILE *file)
{
	char *line = NULL;
	size_t len = 0;
	FILE *out = xmemstream(&line, &len);
	fputs("  ", out);
	for (size_t c = 0; c < b->ncolumns; c++) {
		const struct doc_column *col = &b->columns[c];
		const char *text = row == (size_t)-1 ? col->title : doc_cell(b, row, c);
		int pad = (int)(width[c] - columns_of(text));
		if (c > 0)
			fprintf(out, "%*s", col->gap ? col->gap : 1, "");
		fprintf(out, "%*s", col->numeric ? pad : 0, "");
		put_plain(out, text);
		fprintf(out, "%*s", col->numeric ? 0 : pad, "");
	}
	xmemstream_close(out, &line);
	len = strlen(line);
	while (len > 0 && line[len - 1] == ' ')
		line[--len] = '\0';
	fprintf(file, "%s\n", line);
	free(line);
}

static void text_table(const struct doc_block *b, FILE *out)
{
	size_t width[b->ncolumns ? b->ncolumns : 1];
	for (size_t c = 0; c < b->ncolumns; c++) {
		width[c] = (size_t)(b->columns[c].width > 0 ? b->columns[c].width : 0);
		for (size_t r = 0; r <= b->nrows; r++) { /* the title, then each row's cell */
			size_t n = columns_of(r ? doc_cell(b, r - 1, c) : b->columns[c].title);
			width[c] = n > width[c] ? n : width[c];
		}
	}
	text_row(b, (size_t)-1, width, out);
	for (size_t r = 0; r < b->nrows; r++)
		text_row(b, r, width, out);
}

void doc_render_text(const struct doc *d, FILE *out)
{
	fprintf(out, "%s\n\n", d->title);
	bool blank = true; /* the last line written is blank */
	for (size_t i = 0; i < d->count; i++) {
		const struct doc_block *b = &d->blocks[i];
		if (!(b->outputs & DOC_TEXT))
			continue;
		bool before = b->kind == DOC_TABLE || b->kind == DOC_HEADING;
		if (before && !blank)
			fputc('\n', out);
		blank = before;
		switch (b->kind) {
		case DOC_HEADING:
			fprintf(out, "%s:\n", b->text);
			blank = false;
			break;
		case DOC_PARAGRAPH:
			if (b->lead)
				fprintf(out, "%s: ", b->lead);
			fprintf(out, "%s\n", b->text);
			break;
		case DOC_ITEM:
			fprintf(out, "  - %s\n", b->text);
			break;
		case DOC_TABLE:
			text_table(b, out);
			fputc('\n', out);
			break;
		case DOC_FIGURE:
			break;
		}
	}
}
