/*
 * report.c — what every report shares (report.h): a folder's report by its kind, the files
 * every report writes (STEM.md, STEM.json, its figures, STEM.html: each atomically), and the
 * terminal summary with where the files are.
 */
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error.h"
#include "common/fileio.h"
#include "common/folder.h"
#include "report/doc.h"
#include "report/internal.h"
#include "report/report.h"

struct report *report_new(struct doc *doc, json_t *json, const char *stem, const char *lead,
                          char *rewrite)
{
	struct report *r = xcalloc(1, sizeof *r);
	*r = (struct report){ doc, json, stem, lead, rewrite };
	return r;
}

void report_free(struct report **r)
{
	if (!*r)
		return;
	doc_free(&(*r)->doc);
	json_decref((*r)->json);
	free((*r)->rewrite);
	free(*r);
	*r = NULL;
}

struct report *report_folder(struct results_folder *f, const struct report_options *o,
                             char *err, size_t err_size)
{
	return f->kind == FOLDER_MATRIX ? matrix_report(f, o, err, err_size)
	                                : run_report(f, o, err, err_size);
}

/* One file of the report: its name and text (taken). */
struct report_file {
	char *name, *text;
};

/* Every file, in the order written: STEM.md, STEM.json, the figures', STEM.html. The JSON is
 * NULL when it could not be made (a string that is not UTF-8: never a part left out). */
static size_t report_files_of(const struct report *r, struct report_file **files)
{
	size_t count = 0;
	*files = xcalloc(r->doc->count + 3, sizeof **files);
	char *json = r->json ? json_dumps(r->json, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
	(*files)[count++] = (struct report_file){ xasprintf("%s.md", r->stem),
	                                          doc_render(r->doc, DOC_MARKDOWN) };
	(*files)[count++] = (struct report_file){ xasprintf("%s.json", r->stem),
	                                          json ? xasprintf("%s\n", json) : NULL };
	free(json);
	for (size_t i = 0; i < r->doc->count; i++)
		if (r->doc->blocks[i].kind == DOC_FIGURE && r->doc->blocks[i].file)
			(*files)[count++] = (struct report_file){ xstrdup(r->doc->blocks[i].file),
			                                          xstrdup(r->doc->blocks[i].svg) };
	(*files)[count++] = (struct report_file){ xasprintf("%s.html", r->stem),
	                                          doc_render(r->doc, DOC_HTML) };
	return count;
}

json_t *report_files(const struct doc *d, const char *stem)
{
	json_t *names = json_array();
	char *md = xasprintf("%s.md", stem), *json = xasprintf("%s.json", stem);
	char *html = xasprintf("%s.html", stem);
	json_array_append_new(names, json_string(md));
	json_array_append_new(names, json_string(json));
	for (size_t i = 0; i < d->count; i++)
		if (d->blocks[i].kind == DOC_FIGURE && d->blocks[i].file)
			json_array_append_new(names, json_string(d->blocks[i].file));
	json_array_append_new(names, json_string(html));
	free(md);
	free(json);
	free(html);
	return names;
}

int report_write(const struct report *r, const char *dir, char *err, size_t err_size)
{
	struct report_file *files;
	size_t count = report_files_of(r, &files);
	int rc = 0;
	for (size_t i = 0; i < count; i++) {
		if (rc == 0 && !files[i].text) {
			set_error(err, err_size, "%s/%s: its text could not be made (a name that is not "
			          "UTF-8)", dir, files[i].name);
			rc = -1;
		} else if (rc == 0) {
			rc = fileio_write_atomic(dir, files[i].name, files[i].text, strlen(files[i].text),
			                         err, err_size);
		}
		free(files[i].name);
		free(files[i].text);
	}
	free(files);
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
		char *shown = xescaped(dir);
		fprintf(out, "\n%s: %s/%s.html (open it in a browser); also %s.md, %s.json", r->lead,
		        shown, r->stem, r->stem, r->stem);
		for (size_t i = 0; i < r->doc->count; i++)
			if (r->doc->blocks[i].kind == DOC_FIGURE && r->doc->blocks[i].file)
				fprintf(out, ", %s", r->doc->blocks[i].file);
		fputc('\n', out);
		free(shown);
	} else if (r->rewrite) {
		fprintf(out, "\n%s: not written (the error above says why); the samples are safe: "
		        "write it with `%s` once that is mended\n", r->lead, r->rewrite);
	}
	return fflush(out) != 0 || ferror(out) ? -1 : 0;
}
