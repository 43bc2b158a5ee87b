/*
 * doc.h — the one document model of every report smtbench writes (a run's, a matrix's, a
 * fleet's, and analyze's own output): a title, then blocks in reading order (the answer first,
 * notes, tables, figures, warnings), each marked with the outputs it is shown in, so that the
 * terminal summary can be shorter than report.md while both come from one builder.
 *
 * A builder (report/run.c, report/matrix.c, report/analyze.c, fleet/fleet_report.c) fills a
 * document; one renderer per format writes it (report/render_text.c, render_md.c,
 * render_html.c, each one function over the blocks). A statistic shown in every report is one
 * block or one column in its builder; a format is one renderer and one row of doc_renderers.
 *
 * Text in a block may hold `code` spans (backticks), which Markdown keeps and HTML shows as
 * <code>; everything else is plain text, escaped by each renderer as its format needs. Out of
 * memory exits (common/alloc.h). Ownership: a document and its blocks are the builder's until
 * doc_free.
 */
#ifndef SMTBENCH_REPORT_DOC_H
#define SMTBENCH_REPORT_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The outputs a block is shown in. */
enum doc_output { DOC_TEXT = 1 << 0, DOC_MARKDOWN = 1 << 1, DOC_HTML = 1 << 2 };
enum { DOC_FILES = DOC_MARKDOWN | DOC_HTML, DOC_ALL = DOC_TEXT | DOC_FILES };

enum doc_kind {
	DOC_HEADING,    /* a section's title (HTML h2, Markdown ##) */
	DOC_PARAGRAPH,  /* "Lead: text" */
	DOC_ITEM,       /* one item of a list: consecutive items are one list */
	DOC_TABLE,
	DOC_FIGURE,     /* an SVG: inline in HTML, an image (its file) in Markdown */
};

struct doc_column {
	const char *title;
	int width;       /* text: at least this many columns (padded on the right, or on the left
	                  * when numeric); 0: as wide as its widest cell */
	bool numeric;    /* right-aligned in Markdown, class "num" in HTML, padded left in text */
	int gap;         /* text: blanks before it (0: one) */
};

struct doc_block {
	enum doc_kind kind;
	unsigned outputs;        /* enum doc_output bits */
	char *text;              /* heading, paragraph, item; a figure's title */
	char *lead;              /* paragraph: shown before the text as "Lead: " (NULL: none) */
	const char *id, *css;    /* HTML id and class of the element (NULL: none) */
	struct doc_column *columns;
	size_t ncolumns, nrows;
	char **cells;            /* nrows × ncolumns, row by row */
	char *svg;               /* figure */
	const char *file;        /* figure: the file it is also written to, or NULL (inline only) */
};

struct doc {
	char *title;
	struct doc_block *blocks;
	size_t count, cap;
};

struct doc *doc_new(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void doc_free(struct doc **d);

/* Appending blocks. */
void doc_heading(struct doc *d, unsigned outputs, const char *id, const char *text);
void doc_para(struct doc *d, unsigned outputs, const char *lead, const char *id,
              const char *css, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void doc_item(struct doc *d, unsigned outputs, const char *id, const char *css,
              const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* A table of ncolumns columns (copied), its rows added with doc_row. */
void doc_table(struct doc *d, unsigned outputs, const char *id,
               const struct doc_column *columns, size_t ncolumns);
/* Appends a row to the document's last block, a table: its ncolumns cells as strings (copied;
 * NULL reads "-"). */
void doc_row(struct doc *d, ...);
/* A matrix's table: a row per victim, a column per aggressor (numeric, at least width wide),
 * each of the n workloads named as `code`; cell(ctx, victim, aggressor) gives each cell's text
 * (a new string, taken). */
void doc_matrix_table(struct doc *d, const char *id, char *const *names, size_t n, int width,
                      char *(*cell)(const void *ctx, size_t victim, size_t aggressor),
                      const void *ctx);
/* The SVG (taken), titled, inline in HTML and written to file when file is not NULL. */
void doc_figure(struct doc *d, const char *id, const char *file, const char *title, char *svg);

/* A renderer: the whole document on out, as its format. */
struct doc_renderer {
	enum doc_output output;
	const char *extension;   /* the file it makes: "md", "html"; NULL: the terminal's */
	bool inlines_figures;    /* written after the figures' files it holds (HTML) */
	void (*render)(const struct doc *d, FILE *out);
};
extern const struct doc_renderer doc_renderers[];
extern const size_t doc_renderer_count;

void doc_render_text(const struct doc *d, FILE *out);
void doc_render_markdown(const struct doc *d, FILE *out);
void doc_render_html(const struct doc *d, FILE *out);

/* The document as output `output`, a new string. */
char *doc_render(const struct doc *d, enum doc_output output);

/* Helpers the renderers share: the block's text with its lead ("Lead: text"; a new string),
 * and the text of a table's cell. */
char *doc_lead_text(const struct doc_block *b);
const char *doc_cell(const struct doc_block *b, size_t row, size_t column);

#endif
