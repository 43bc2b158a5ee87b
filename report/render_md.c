/*
 * render_md.c — a document (doc.h) as Markdown (GitHub's): headings, "**Lead:** text"
 * paragraphs, lists, pipe tables (numbers right-aligned), figures as images of their files.
 */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "report/doc.h"

/* Where a piece of text is written: a table's cell ('|' ends it) or a line that begins a block
 * (a paragraph without a lead, which a leading "#", ">", "-", "1." or blanks would make into
 * something else). */
enum md_place { MD_INLINE, MD_CELL, MD_BLOCK_START };

/*
 * Plain text (outside a code span), so that Markdown shows it as it is and reads no structure
 * into it: text comes from outside too (commands, paths, host names), and Markdown renderers
 * (GitHub's, GitLab's) pass HTML through. '<', and '&' where it would begin a character
 * reference, as entities ('>' too within in_html, a <code> element's text); the punctuation that
 * marks emphasis, links, code, strikethrough and escapes backslashed ('|' in a cell, '_' unless
 * between letters); a block's first character when it would begin a heading, quote or list; a
 * newline as a blank.
 */
static void md_plain(FILE *out, const char *text, size_t len, enum md_place place, bool in_html)
{
	for (size_t i = 0; i < len; i++) {
		char c = text[i];
		if (place == MD_BLOCK_START && i == 0) {
			size_t digits = strspn(text, "0123456789");
			if (c == ' ') { /* four would be a code block */
				fputs("&#32;", out);
				continue;
			}
			if (strchr("#>-+", c) || (digits > 0 && digits < len
			                           && (text[digits] == '.' || text[digits] == ')'))) {
				if (digits > 0) { /* "1." begins a numbered list: "1\." does not */
					fwrite(text, 1, digits, out);
					i += digits;
					c = text[i];
				}
				fputc('\\', out);
				fputc(c, out);
				continue;
			}
		}
		if (c == '<') /* what opens a tag, a comment or an autolink */
			fputs("&lt;", out);
		else if (c == '>' && in_html)
			fputs("&gt;", out); /* elsewhere a '>' begins nothing but at a line's start */
		else if (c == '&' && (isalnum((unsigned char)text[i + 1]) || text[i + 1] == '#'))
			fputs("&amp;", out); /* what would begin a character reference */
		else if (c == '\n' || c == '\r')
			fputc(' ', out);
		else {
			/* '_' between letters or digits never marks emphasis (GFM): left as it is, so
			 * that names such as cpu_model read as they are; '|' ends only a table's cell. */
			bool inside_word = c == '_' && i > 0 && i + 1 < len && isalnum((unsigned char)text[i - 1])
			                   && isalnum((unsigned char)text[i + 1]);
			if ((strchr("\\`*_[]~", c) && !inside_word) || (c == '|' && place == MD_CELL))
				fputc('\\', out);
			fputc(c, out);
		}
	}
}

/* A code span's text. Markdown shows a span as it is, but a name that holds '<' or '>' is written
 * as <code> with escaped text instead, so that report.md holds no tag from outside whatever
 * reads it. In a table '|' ends the cell even in a span (GFM), so it is backslashed. */
static void md_code(FILE *out, const char *text, size_t len, enum md_place place)
{
	if (memchr(text, '<', len) || memchr(text, '>', len)) {
		fputs("<code>", out);
		md_plain(out, text, len, place == MD_CELL ? MD_CELL : MD_INLINE, true);
		fputs("</code>", out);
		return;
	}
	fputc('`', out);
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '|' && place == MD_CELL)
			fputc('\\', out);
		fputc(text[i] == '\n' || text[i] == '\r' ? ' ' : text[i], out);
	}
	fputc('`', out);
}

/* Text of the document (doc.h): its `code` spans, paired as the HTML renderer pairs them, kept as
 * spans; everything else plain; an unpaired backtick shown as itself. Everything on one line. */
static void md_text(FILE *out, const char *text, enum md_place place)
{
	const char *open, *close;
	while ((open = strchr(text, '`')) && (close = strchr(open + 1, '`'))) {
		md_plain(out, text, (size_t)(open - text), place, false);
		md_code(out, open + 1, (size_t)(close - open - 1), place);
		place = place == MD_BLOCK_START ? MD_INLINE : place;
		text = close + 1;
	}
	md_plain(out, text, strlen(text), place, false);
}

static void md_cell(FILE *out, const char *text)
{
	fputc(' ', out);
	md_text(out, text, MD_CELL);
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
	md_text(out, d->title, MD_INLINE);
	fputc('\n', out);
	bool in_list = false;
	for (size_t i = 0; i < d->count; i++) {
		const struct doc_block *b = &d->blocks[i];
		if (!(b->outputs & DOC_MARKDOWN) || (b->kind == DOC_FIGURE && !b->file))
			continue;
		if (!(in_list && b->kind == DOC_ITEM)) /* blocks apart, a list's items together */
			fputc('\n', out);
		in_list = b->kind == DOC_ITEM;
		switch (b->kind) {
		case DOC_HEADING:
			fputs("## ", out);
			md_text(out, b->text, MD_INLINE);
			break;
		case DOC_PARAGRAPH:
			if (b->lead) {
				fputs("**", out);
				md_text(out, b->lead, MD_INLINE);
				fputs(":** ", out);
			}
			md_text(out, b->text, b->lead ? MD_INLINE : MD_BLOCK_START);
			break;
		case DOC_ITEM:
			fputs("- ", out);
			md_text(out, b->text, MD_BLOCK_START);
			break;
		case DOC_TABLE:
			md_table(b, out);
			continue; /* it ends its last row */
		case DOC_FIGURE:
			fputs("![", out);
			md_text(out, b->text, MD_INLINE);
			fprintf(out, "](%s)", b->file); /* the builder's own file name */
			break;
		}
		fputc('\n', out);
	}
}
