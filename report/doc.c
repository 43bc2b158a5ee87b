/*
 * doc.c — the document model's blocks (doc.h) and the table of renderers.
 */
#include "report/doc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"

const struct doc_renderer doc_renderers[] = {
	{ DOC_TEXT, NULL, false, doc_render_text },
	{ DOC_MARKDOWN, "md", false, doc_render_markdown },
	{ DOC_HTML, "html", true, doc_render_html },
};
const size_t doc_renderer_count = sizeof doc_renderers / sizeof doc_renderers[0];

struct doc *doc_new(const char *fmt, ...)
{
	struct doc *d = xcalloc(1, sizeof *d);
	va_list ap;
	va_start(ap, fmt);
	d->title = xvasprintf(fmt, ap);
	va_end(ap);
	return d;
}

static struct doc_block *append(struct doc *d, enum doc_kind kind, unsigned outputs)
{
	xgrow(&d->blocks, &d->cap, d->count + 1, sizeof *d->blocks);
	struct doc_block *b = &d->blocks[d->count++];
	*b = (struct doc_block){ .kind = kind, .outputs = outputs };
	return b;
}

void doc_heading(struct doc *d, unsigned outputs, const char *id, const char *text)
{
	struct doc_block *b = append(d, DOC_HEADING, outputs);
	b->id = id;
	b->text = xstrdup(text);
}

/* A paragraph or list item: its text from fmt. */
static struct doc_block *append_text(struct doc *d, enum doc_kind kind, unsigned outputs,
                                     const char *id, const char *css, const char *fmt,
                                     va_list ap)
{
	struct doc_block *b = append(d, kind, outputs);
	b->id = id;
	b->css = css;
	b->text = xvasprintf(fmt, ap);
	return b;
}

void doc_para(struct doc *d, unsigned outputs, const char *lead, const char *id,
              const char *css, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct doc_block *b = append_text(d, DOC_PARAGRAPH, outputs, id, css, fmt, ap);
	va_end(ap);
	b->lead = lead ? xstrdup(lead) : NULL;
}

void doc_item(struct doc *d, unsigned outputs, const char *id, const char *css,
              const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	append_text(d, DOC_ITEM, outputs, id, css, fmt, ap);
	va_end(ap);
}

void doc_table(struct doc *d, unsigned outputs, const char *id,
               const struct doc_column *columns, size_t ncolumns)
{
	struct doc_block *b = append(d, DOC_TABLE, outputs);
	b->id = id;
	b->columns = xmalloc(ncolumns * sizeof *b->columns);
	memcpy(b->columns, columns, ncolumns * sizeof *b->columns);
	for (size_t c = 0; c < ncolumns; c++) /* the document's own: a title may be a name */
		b->columns[c].title = xstrdup(columns[c].title);
	b->ncolumns = ncolumns;
}

/* A new row of the document's last block, a table: its cells, for the caller to fill. */
static char **new_row(struct doc *d)
{
	struct doc_block *b = &d->blocks[d->count - 1];
	b->cells = xreallocarray(b->cells, (b->nrows + 1) * b->ncolumns, sizeof *b->cells);
	return &b->cells[b->nrows++ * b->ncolumns];
}

void doc_row(struct doc *d, ...)
{
	char **row = new_row(d);
	va_list ap;
	va_start(ap, d);
	for (size_t c = 0; c < d->blocks[d->count - 1].ncolumns; c++) {
		const char *cell = va_arg(ap, const char *);
		row[c] = xstrdup(cell ? cell : "-");
	}
	va_end(ap);
}

void doc_matrix_table(struct doc *d, const char *id, char *const *names, size_t n, int width,
                      char *(*cell)(const void *ctx, size_t victim, size_t aggressor),
                      const void *ctx)
{
	struct doc_block *b = append(d, DOC_TABLE, DOC_ALL); /* its titles made here, taken */
	b->id = id;
	b->ncolumns = n + 1;
	b->columns = xcalloc(n + 1, sizeof *b->columns);
	b->columns[0] = (struct doc_column){ xstrdup("victim \\ aggressor"), 16, false, 0 };
	for (size_t g = 0; g < n; g++)
		b->columns[g + 1] = (struct doc_column){ xasprintf("`%s`", names[g]), width, true, 0 };
	for (size_t v = 0; v < n; v++) {
		char **row = new_row(d); /* the cells' strings taken as they are */
		row[0] = xasprintf("`%s`", names[v]);
		for (size_t g = 0; g < n; g++)
			row[g + 1] = cell(ctx, v, g);
	}
}

void doc_figure(struct doc *d, const char *id, const char *file, const char *title, char *svg)
{
	struct doc_block *b = append(d, DOC_FIGURE, DOC_FILES);
	b->id = id;
	b->file = file;
	b->text = xstrdup(title);
	b->svg = svg;
}

void doc_free(struct doc **d)
{
	if (!*d)
		return;
	for (size_t i = 0; i < (*d)->count; i++) {
		struct doc_block *b = &(*d)->blocks[i];
		free(b->text);
		free(b->lead);
		for (size_t c = 0; c < b->ncolumns; c++)
			free((char *)b->columns[c].title);
		free(b->columns);
		for (size_t c = 0; c < b->nrows * b->ncolumns; c++)
			free(b->cells[c]);
		free(b->cells);
		free(b->svg);
	}
	free((*d)->blocks);
	free((*d)->title);
	free(*d);
	*d = NULL;
}

char *doc_render(const struct doc *d, enum doc_output output)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = xmemstream(&text, &len);
	for (size_t i = 0; i < doc_renderer_count; i++)
		if (doc_renderers[i].output == output)
			doc_renderers[i].render(d, out);
	return xmemstream_close(out, &text);
}

char *doc_lead_text(const struct doc_block *b)
{
	return b->lead ? xasprintf("%s: %s", b->lead, b->text) : xstrdup(b->text);
}

const char *doc_cell(const struct doc_block *b, size_t row, size_t column)
{
	return b->cells[row * b->ncolumns + column];
}
