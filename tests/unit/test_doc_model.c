/*
 * test_doc_model.c — the report model's promise (report/doc.h), checked on real reports: a new
 * output format is one renderer, and a statistic added once to a builder's document is shown
 * in every format.
 *
 * The format: an AsciiDoc renderer written here, one function over the blocks, that touches no
 * builder; the run's and the matrix's reports of tests/fixtures/folders render through it with
 * every heading, paragraph, item and table cell that their Markdown shows. The statistic: one
 * paragraph and one table appended to each report's document, as a builder appends them, and
 * found in the terminal text, report.md and report.html alike.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error.h"
#include "common/folder.h"
#include "report/doc.h"
#include "report/report.h"
#include "tests/harness.h"

/* The whole format: AsciiDoc's section titles, paragraphs, lists, tables and images. */
static void render_asciidoc(const struct doc *d, FILE *out)
{
	fprintf(out, "= %s\n", d->title);
	for (size_t i = 0; i < d->count; i++) {
		const struct doc_block *b = &d->blocks[i];
		if (!(b->outputs & DOC_MARKDOWN))
			continue; /* shown where the files are: the terminal's own blocks stay there */
		char *text = b->kind == DOC_PARAGRAPH ? doc_lead_text(b) : NULL;
		switch (b->kind) {
		case DOC_HEADING: fprintf(out, "\n=== %s\n", b->text); break;
		case DOC_PARAGRAPH: fprintf(out, "\n%s\n", text); break;
		case DOC_ITEM: fprintf(out, "* %s\n", b->text); break;
		case DOC_FIGURE: fprintf(out, "\nimage::%s[%s]\n", b->file ? b->file : "", b->text); break;
		case DOC_TABLE:
			fputs("\n|===\n", out);
			for (size_t c = 0; c < b->ncolumns; c++)
				fprintf(out, "|%s ", b->columns[c].title);
			for (size_t r = 0; r < b->nrows; r++) {
				fputc('\n', out);
				for (size_t c = 0; c < b->ncolumns; c++)
					fprintf(out, "|%s ", doc_cell(b, r, c));
			}
			fputs("\n|===\n", out);
			break;
		}
		free(text);
	}
}

static char *render_with(void (*render)(const struct doc *, FILE *), const struct doc *d)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = xmemstream(&text, &len);
	render(d, out);
	xmemstream_close(out, &text);
	return text;
}

/* How many of the texts of the blocks report.md shows (headings, paragraphs with their leads,
 * items, figure titles, table titles and cells) are not in out; *looked counts them. */
static size_t texts_missing(const struct doc *d, const char *out, size_t *looked)
{
	size_t missing = 0;
	*looked = 0;
	for (size_t i = 0; i < d->count; i++) {
		const struct doc_block *b = &d->blocks[i];
		if (!(b->outputs & DOC_MARKDOWN))
			continue;
		for (size_t c = 0; b->kind == DOC_TABLE && c < b->ncolumns; c++, ++*looked)
			missing += !strstr(out, b->columns[c].title);
		for (size_t r = 0; b->kind == DOC_TABLE && r < b->nrows; r++)
			for (size_t c = 0; c < b->ncolumns; c++, ++*looked)
				missing += !strstr(out, doc_cell(b, r, c));
		if (b->kind != DOC_TABLE && b->text) {
			char *text = b->kind == DOC_PARAGRAPH ? doc_lead_text(b) : xstrdup(b->text);
			++*looked;
			missing += !strstr(out, text);
			free(text);
		}
	}
	return missing;
}

/* The AsciiDoc shows every text the document gives report.md: the renderer needed nothing from
 * the builder but the document. How many of them report.md holds as they are is said beside
 * (Markdown escapes the rest: `|`, `<`, a leading `#`). */
static void check_shows_all(const struct doc *d, const char *adoc, const char *what)
{
	char *md = doc_render(d, DOC_MARKDOWN);
	size_t looked_md, looked_adoc;
	size_t missing_md = texts_missing(d, md, &looked_md);
	size_t missing_adoc = texts_missing(d, adoc, &looked_adoc);
	CHECK(looked_adoc > 20 && missing_adoc == 0, "%s: the AsciiDoc renderer shows all %zu texts "
	      "of the blocks report.md shows (%zu missing; report.md itself has %zu of them as "
	      "plain text, the rest escaped for Markdown)", what, looked_adoc, missing_adoc,
	      looked_md - missing_md);
	free(md);
}

/* A statistic a builder adds: a paragraph and a one-row table, shown in every output. */
static void added_everywhere(struct doc *d, const char *what)
{
	static const struct doc_column columns[] = { { "new statistic", 0, false, 0 },
	                                             { "value", 0, true, 0 } };
	doc_para(d, DOC_ALL, "Test statistic", NULL, NULL, "the new number is %s", "7.654321");
	doc_table(d, DOC_ALL, NULL, columns, 2);
	doc_row(d, "probe-row", "0.123456");
	static const struct {
		enum doc_output output;
		const char *name;
	} outputs[] = { { DOC_TEXT, "text" }, { DOC_MARKDOWN, "Markdown" }, { DOC_HTML, "HTML" } };
	for (size_t i = 0; i < 3; i++) {
		char *text = doc_render(d, outputs[i].output);
		CHECK(strstr(text, "Test statistic") && strstr(text, "7.654321")
		      && strstr(text, "probe-row") && strstr(text, "0.123456"),
		      "%s: a paragraph and a table added once to the document are in its %s", what,
		      outputs[i].name);
		free(text);
	}
	char *adoc = render_with(render_asciidoc, d);
	CHECK(strstr(adoc, "7.654321") && strstr(adoc, "|probe-row |0.123456"),
	      "%s: …and in the AsciiDoc", what);
	free(adoc);
}

static void check_folder(const char *root, const char *name)
{
	char dir[1024], err[ERR_LEN];
	snprintf(dir, sizeof dir, "%s/tests/fixtures/folders/%s", root, name);
	struct results_folder *f = folder_open(dir);
	struct report_options o = { .rope_pct = NAN };
	struct report *r = report_folder(f, &o, err, sizeof err);
	if (CHECK(r != NULL, "%s: the fixture's report is made (%s)", name, r ? "ok" : err)) {
		char *adoc = render_with(render_asciidoc, r->doc);
		check_shows_all(r->doc, adoc, name);
		CHECK(!strncmp(adoc, "= ", 2) && strstr(adoc, r->doc->title),
		      "%s: the AsciiDoc opens with the report's title", name);
		free(adoc);
		added_everywhere(r->doc, name);
	}
	report_free(&r);
	folder_free(&f);
}

int main(void)
{
	const char *root = getenv("SMTBENCH_ROOT") ? getenv("SMTBENCH_ROOT") : ".";
	check_folder(root, "run");
	check_folder(root, "matrix");
	check_folder(root, "one-process");
	return test_done("test_doc_model");
}
