/*
 * report.c — what every report shares (report.h): a report's parts, the files every report
 * writes (STEM.md, STEM.json, its figures, STEM.html: each atomically), and the terminal summary
 * with where the files are.
 */
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error.h"
#include "common/fileio.h"
#include "common/text.h"
#include "report/doc.h"
#include "report/internal.h"
#include "report/report.h"

struct report *report_new(struct doc *doc, json_t *json, const char *stem, const char *lead,
                          char *rewrite)
{
	struct report *r = xcalloc(1, sizeof *r);
	*r = (struct report){ .doc = doc, .json = json, .stem = stem, .lead = lead,
	                      .rewrite = rewrite };
	return r;
}

void report_free(struct report **r)
{
	if (!*r)
		return;
	doc_free(&(*r)->doc);
	json_decref((*r)->json);
	free((*r)->rewrite);
	free((*r)->no_answer);
	free(*r);
	*r = NULL;
}

/* One file of the report: its name and, when made, its text (taken). */
struct report_file {
	char *name, *text;
};

/* Every file, in the order written: each renderer's that holds no figure (STEM.md), STEM.json,
 * the figures', then each renderer's that inlines them (STEM.html), so that the page a reader
 * opens is written last. With texts, each file's text too; the JSON's is NULL when it could not
 * be made (a string that is not UTF-8: never a part left out). */
static size_t report_files_of(const struct report *r, bool texts, struct report_file **files)
{
	size_t count = 0;
	*files = xcalloc(r->doc->count + doc_renderer_count + 1, sizeof **files);
	for (int inlining = 0; inlining <= 1; inlining++) {
		for (size_t i = 0; i < doc_renderer_count; i++) {
			const struct doc_renderer *f = &doc_renderers[i];
			if (!f->extension || f->inlines_figures != (inlining == 1))
				continue;
			(*files)[count++] = (struct report_file){
				xasprintf("%s.%s", r->stem, f->extension),
				texts ? doc_render(r->doc, f->output) : NULL };
		}
		if (inlining)
			break;
		char *json = texts && r->json
		                     ? json_dumps(r->json, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
		(*files)[count++] = (struct report_file){ xasprintf("%s.json", r->stem),
		                                          json ? xasprintf("%s\n", json) : NULL };
		free(json);
		for (size_t b = 0; b < r->doc->count; b++)
			if (r->doc->blocks[b].kind == DOC_FIGURE && r->doc->blocks[b].file)
				(*files)[count++] = (struct report_file){
					xstrdup(r->doc->blocks[b].file),
					texts ? xstrdup(r->doc->blocks[b].svg) : NULL };
	}
	return count;
}

static void report_files_free(struct report_file *files, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		free(files[i].name);
		free(files[i].text);
	}
	free(files);
}

json_t *report_files(const struct doc *d, const char *stem)
{
	struct report r = { .doc = (struct doc *)d, .stem = stem };
	struct report_file *files;
	size_t count = report_files_of(&r, false, &files);
	json_t *names = json_array();
	for (size_t i = 0; i < count; i++)
		json_array_append_new(names, json_string(files[i].name));
	report_files_free(files, count);
	return names;
}

int report_write(const struct report *r, const char *dir, char *err, size_t err_size)
{
	struct report_file *files;
	size_t count = report_files_of(r, true, &files);
	int rc = 0;
	for (size_t i = 0; i < count && rc == 0; i++) {
		if (!files[i].text) {
			set_error(err, err_size, "%s/%s: its text could not be made (a name that is not "
			          "UTF-8)", dir, files[i].name);
			rc = -1;
		} else {
			rc = fileio_write_atomic(dir, files[i].name, files[i].text, strlen(files[i].text),
			                         err, err_size);
		}
	}
	report_files_free(files, count);
	return rc;
}

int report_print(const struct report *r, FILE *out)
{
	doc_render_text(r->doc, out);
	return fflush(out) != 0 || ferror(out) ? -1 : 0;
}

int report_print_files(const struct report *r, const char *dir, FILE *out)
{
	if (dir) {
		/* The page to open (the last file written), then the others in their order. */
		struct report_file *files;
		size_t count = report_files_of(r, false, &files);
		char *shown = xescaped(dir);
		fprintf(out, "\n%s: %s/%s (open it in a browser); also ", r->lead, shown,
		        files[count - 1].name);
		for (size_t i = 0; i + 1 < count; i++)
			fprintf(out, "%s%s", i ? ", " : "", files[i].name);
		fputc('\n', out);
		free(shown);
		report_files_free(files, count);
	} else if (r->rewrite) {
		fprintf(out, "\n%s: not written (the error above says why); the samples are safe: "
		        "write it with `%s` once that is mended\n", r->lead, r->rewrite);
	}
	return fflush(out) != 0 || ferror(out) ? -1 : 0;
}
