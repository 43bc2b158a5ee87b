/*
 * matrix.c — the matrix's cells and its part of meta.json (see matrix.h).
 */
#include "runner/matrix.h"
#include "common/fileio.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "common/text.h"
#include "common/alloc.h"
#include "runner/workload.h"

void matrix_plan_cells(struct plan *p, int n, enum placement placement)
{
	p->ncells = 0;
	for (int v = 0; v < n; v++) {
		p->cells[p->ncells++] = (struct plan_cell){ PLACEMENT_SOLO, v, -1 };
		for (int g = 0; g < n; g++)
			p->cells[p->ncells++] = (struct plan_cell){ placement, v, g };
	}
}

enum placement matrix_placement(const struct plan *p)
{
	for (int i = 0; i < p->ncells; i++)
		if (p->cells[i].b >= 0)
			return p->cells[i].placement;
	return PLACEMENT_SOLO;
}

json_t *matrix_meta_json(const struct experiment *e)
{
	json_t *kernels = json_array(), *cells = json_array();
	bool commands = e->nworkloads > 0 && !e->workloads[0].is_kernel;
	for (int i = 0; i < e->nworkloads; i++) {
		/* A command's words, or a kernel's count; a command is never calibrated (null). */
		const struct workload *w = &e->workloads[i];
		json_array_append_new(kernels, json_pack(
			"{s:s, s:o, s:o, s:s, s:o}", "name", w->name, commands ? "command" : "iters",
			commands ? workload_argv_json(w->argv)
			         : json_integer((json_int_t)strtoull(w->argv[1], NULL, 10)),
			"path", text_to_json(w->path), "sha256", w->sha256,
			"calibration", calibration_to_json(&e->cal_workloads[i])));
	}
	for (int i = 0; i < e->plan.ncells; i++) {
		const struct plan_cell *c = &e->plan.cells[i];
		json_array_append_new(cells, json_pack(
			"{s:s, s:o, s:s}", "victim", e->workloads[c->a].name,
			"aggressor", c->b >= 0 ? json_string(e->workloads[c->b].name) : json_null(),
			"placement", placement_name(c->placement)));
	}
	json_t *m = json_pack(
		"{s:s, s:o, s:o, s:o, s:o}", "placement", placement_name(matrix_placement(&e->plan)),
		commands ? "commands" : "kernels", kernels, "cells", cells,
		"allocation", e->allocation ? json_pack(
			"{s:f, s:I, s:s}", "target_pct", e->allocation->target_pct,
			"from_block", (json_int_t)e->plan.adaptive_from, "rule", MATRIX_ALLOCATION_RULE)
			: json_null(),
		"rope_pct", e->rope_pct > 0 ? json_real(e->rope_pct) : json_null());
	if (!m)
		text_errx(EXIT_FAILURE_RUNTIME, "internal error: cannot build meta.json's matrix");
	return m;
}

void matrix_meta_set_stops(struct experiment *e, bool complete)
{
	const json_t *cells = json_object_get(json_object_get(e->meta, "matrix"), "cells");
	for (int c = 0; c < e->plan.ncells && e->allocation; c++) {
		json_t *cell = json_array_get(cells, (size_t)c);
		const struct allocation *a = e->allocation;
		bool reached = allocation_reached(a, c);
		json_object_set_new(cell, "blocks", json_integer((json_int_t)a->blocks[c]));
		json_object_set_new(cell, "stop", reached ? json_string(MATRIX_STOP_PRECISION)
		                                  : complete ? json_string(MATRIX_STOP_BUDGET)
		                                  : json_null());
		struct precision_interval iv;
		precision_interval(&a->stat[c], &iv);
		json_object_set_new(cell, "half_pct", c != a->baseline[c] && iv.known
		                                      ? json_real(iv.half_pct) : json_null());
	}
}

/* The workload named name among the first n, or -1. */
static int kernel_index(const struct experiment *e, int n, const char *name)
{
	for (int i = 0; name && i < n; i++)
		if (!strcmp(e->workloads[i].name, name))
			return i;
	return -1;
}

/* kernels[i] into e->workloads[i]: its name (a kernel of this build), count and file. */
static int load_kernel(const char *dir, const json_t *k, size_t i, struct experiment *e,
                       char *err, size_t err_size)
{
	const char *name = json_string_value(json_object_get(k, "name"));
	const json_t *iters = json_object_get(k, "iters");
	struct workload *w = &e->workloads[i];
	if (!name || !json_is_integer(iters) || json_integer_value(iters) < 1
	    || !workload_file_from_json(k, w)) {
		set_error(err, err_size, "%s/meta.json: matrix.kernels[%zu] needs a name, iters (at "
		          "least 1), an absolute path and a sha256", dir, i);
		return -1;
	}
	/* resume checks the file (xworkload_recorded) */
	workload_set_kernel(w, name, (unsigned long)json_integer_value(iters));
	return 0;
}

/* commands[i] into e->workloads[i]: its name, argv, file and hash, exactly as recorded. */
static int load_command(const char *dir, const json_t *c, size_t i, struct experiment *e,
                        char *err, size_t err_size)
{
	const char *name = json_string_value(json_object_get(c, "name"));
	struct workload *w = &e->workloads[i];
	char why[ERR_LEN] = "";
	if (name && *name && kernel_index(e, (int)i, name) < 0
	    && (w->argv = workload_argv_from_json(json_object_get(c, "command")))
	    && workload_file_from_json(c, w) && workload_argv_fits(w->argv, why, sizeof why) == 0) {
		w->name = xstrdup(name);
		w->is_kernel = false;
		return 0;
	}
	workload_release(w);
	if (*why)
		set_error(err, err_size, "%s/meta.json: matrix.commands[%zu] is too long to execute: "
		          "%s", dir, i, why);
	else
		set_error(err, err_size, "%s/meta.json: matrix.commands[%zu] needs a name (not used "
		          "before), a command (its words as strings or {\"hex\": ...}), an absolute "
		          "path and a sha256", dir, i);
	return -1;
}

int matrix_meta_load(const char *dir, const json_t *matrix, struct experiment *e, char *err,
                     size_t err_size)
{
	const json_t *commands = json_object_get(matrix, "commands");
	const json_t *kernels = commands ? commands : json_object_get(matrix, "kernels");
	const json_t *cells = json_object_get(matrix, "cells");
	const char *placement = json_string_value(json_object_get(matrix, "placement"));
	enum placement pairing;
	size_t n = json_array_size(kernels);
	if (!json_is_array(kernels) || n == 0 || n > PLAN_MAX_WORKLOADS || !json_is_array(cells)
	    || !placement || placement_parse(placement, &pairing) != 0
	    || placement_nprocs(pairing) != 2) {
		set_error(err, err_size, "%s/meta.json: matrix needs a placement of two CPUs, 1 to %d "
		          "kernels or commands and its cells", dir, PLAN_MAX_WORKLOADS);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if ((commands ? load_command : load_kernel)(dir, json_array_get(kernels, i), i, e, err,
		                                            err_size) != 0)
			return -1;
		e->nworkloads = (int)i + 1;
	}
	/* The cells are the rule's (matrix_plan_cells); the recorded ones must say the same, so
	 * that a hand-edited list cannot silently run another plan. */
	matrix_plan_cells(&e->plan, (int)n, pairing);
	if (json_array_size(cells) != (size_t)e->plan.ncells) {
		set_error(err, err_size, "%s/meta.json: matrix.cells has %zu cells; %zu kernels make "
		          "%d", dir, json_array_size(cells), n, e->plan.ncells);
		return -1;
	}
	for (int i = 0; i < e->plan.ncells; i++) {
		const json_t *c = json_array_get(cells, (size_t)i);
		const struct plan_cell *want = &e->plan.cells[i];
		const json_t *aggressor = json_object_get(c, "aggressor");
		const char *cell_placement = json_string_value(json_object_get(c, "placement"));
		int a = kernel_index(e, (int)n, json_string_value(json_object_get(c, "victim")));
		int b = json_is_null(aggressor) ? -1
		        : kernel_index(e, (int)n, json_string_value(aggressor));
		if (a != want->a || b != want->b || !cell_placement
		    || strcmp(cell_placement, placement_name(want->placement)) != 0) {
			set_error(err, err_size, "%s/meta.json: matrix.cells[%d] is not the cell the "
			          "kernels and placement make; the file was changed", dir, i);
			return -1;
		}
	}
	return 0;
}

/* A --commands line's error: "FILE:LINE: what" into err; -1. */
static int line_error(char *err, size_t err_size, const char *file, long line, const char *fmt,
                      ...) __attribute__((format(printf, 5, 6)));
static int line_error(char *err, size_t err_size, const char *file, long line, const char *fmt,
                      ...)
{
	char what[ERR_LEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	char *shown = xescaped(file);
	set_error(err, err_size, "%s:%ld: %s", shown, line, what);
	free(shown);
	return -1;
}

/* The words of a command: split on blanks (space, tab); '...' and "..." keep their bytes as
 * they are, blanks included (no escapes inside either), and join the text around them. A new
 * NULL-terminated array (*argc words), or NULL with *bad the unclosed quote. Linear in the
 * text: each word is built in one buffer of the text's length, then copied at its own length
 * (a 1 MB line of 500,000 words once took a minute and 2 GB, a buffer per word). */
static char **split_words(const char *text, int *argc, char *bad)
{
	size_t cap = 4, n = 0;
	char **argv = xcalloc(cap + 1, sizeof *argv), *word = xmalloc(strlen(text) + 1);
	for (const char *p = text + strspn(text, " \t"); *p; p += strspn(p, " \t")) {
		char *w = word;
		while (*p && *p != ' ' && *p != '\t') {
			const char *close = *p == '\'' || *p == '"' ? strchr(p + 1, *p) : p;
			if (!close) {
				*bad = *p;
				free(word);
				strings_free(argv);
				return NULL;
			}
			size_t len = close > p ? (size_t)(close - p - 1) : 1;
			memcpy(w, close > p ? p + 1 : p, len);
			w += len;
			p = close + 1;
		}
		*w = '\0';
		if (n == cap)
			argv = xreallocarray(argv, (cap *= 2) + 1, sizeof *argv);
		argv[n++] = xstrdup(word);
		argv[n] = NULL;
	}
	free(word);
	*argc = (int)n;
	return argv;
}

/* The name before a line's colon (blanks around it cut, in place): 0 when it follows the rule
 * of workload.h and is new, or -1 with err. */
static int check_name(const char *file, long number, char *name, const struct experiment *e,
                      const long lines[], char *err, size_t err_size)
{
	size_t len = strlen(name);
	while (len && (name[len - 1] == ' ' || name[len - 1] == '\t'))
		name[--len] = '\0';
	if (!len)
		return line_error(err, err_size, file, number, "empty name before the colon");
	if (name[strspn(name, WORKLOAD_NAME_CHARS)]) {
		char *shown = xescaped(name);
		int rc = line_error(err, err_size, file, number, "the name '%s' has characters other "
		                    "than A-Z a-z 0-9 . _ + -", shown);
		free(shown);
		return rc;
	}
	if (len > MATRIX_NAME_MAX)
		return line_error(err, err_size, file, number, "the name '%.20s...' is longer than %d "
		                  "characters", name, MATRIX_NAME_MAX);
	int used = kernel_index(e, e->nworkloads, name);
	if (used >= 0)
		return line_error(err, err_size, file, number, "the name '%s' is used already, on "
		                  "line %ld", name, lines[used]);
	return 0;
}

/* A command's words: something to execute, within execve's limits; else -1 with err. */
static int check_command(const char *file, long number, const char *name, char **argv, int argc,
                         char *err, size_t err_size)
{
	char why[ERR_LEN];
	if (argc == 0)
		return line_error(err, err_size, file, number, "empty command after '%s:'", name);
	if (workload_command_check(argv[0], why, sizeof why) != 0) {
		char *shown = xescaped(argv[0]);
		int rc = line_error(err, err_size, file, number, "%s: cannot execute '%s': %s", name,
		                    shown, why);
		free(shown);
		return rc;
	}
	if (workload_argv_fits(argv, why, sizeof why) != 0)
		return line_error(err, err_size, file, number, "%s: the command is too long to "
		                  "execute: %s", name, why);
	return 0;
}

/* One "name: command args" line (no newline) into e->workloads[e->nworkloads]; lines[] the line
 * number of each name so far. 0, or -1 with err. */
static int command_line(const char *file, long number, char *text, struct experiment *e,
                        const long lines[], char *err, size_t err_size)
{
	char *colon = strchr(text, ':');
	if (!colon)
		return line_error(err, err_size, file, number, "no colon: a line is `name: command "
		                  "args`");
	*colon = '\0';
	char *name = text + strspn(text, " \t"), bad = 0;
	if (check_name(file, number, name, e, lines, err, err_size) != 0)
		return -1;
	int argc = 0;
	char **argv = split_words(colon + 1, &argc, &bad);
	if (!argv)
		return line_error(err, err_size, file, number, "a %c quote is not closed (quotes do not "
		                  "span lines)", bad);
	int rc = check_command(file, number, name, argv, argc, err, err_size);
	if (rc == 0 && e->nworkloads == PLAN_MAX_WORKLOADS)
		rc = line_error(err, err_size, file, number, "more than %d commands",
		                PLAN_MAX_WORKLOADS);
	if (rc == 0) {
		struct workload *w = &e->workloads[e->nworkloads++];
		xworkload_command(w, argv, argc);
		free(w->name);
		w->name = xstrdup(name);
	}
	strings_free(argv);
	return rc;
}

/* One line of the file (len bytes at line, its newline cut off): skipped when blank or a
 * comment, else a command. -1 with err naming FILE:LINE. */
static int commands_file_line(const char *file, long number, char *line, size_t len,
                              struct experiment *e, long *lines, char *err, size_t err_size)
{
	if (memchr(line, '\0', len))
		return line_error(err, err_size, file, number, "a NUL byte in the line");
	if (len && line[len - 1] == '\r') /* a file from Windows: CRLF */
		line[--len] = '\0';
	if (memchr(line, '\r', len))
		return line_error(err, err_size, file, number, "a carriage return inside the line "
		                  "(it would hide what follows it)");
	line[len] = '\0';
	const char *first = line + strspn(line, " \t");
	if (!*first || *first == '#')
		return 0;
	if (command_line(file, number, line, e, lines, err, err_size) != 0)
		return -1;
	lines[e->nworkloads - 1] = number;
	return 0;
}

int matrix_commands_read(const char *file, struct experiment *e, char *err, size_t err_size)
{
	/* A regular file only, read whole with a cap: a FIFO would block, /dev/zero never end. */
	size_t size = 0;
	char *text = fileio_read_all(file, &size, err, err_size);
	if (!text)
		return -1;
	long number = 0, lines[PLAN_MAX_WORKLOADS];
	int rc = 0;
	for (size_t at = 0; rc == 0 && at < size; number++) {
		char *end = memchr(text + at, '\n', size - at);
		size_t len = end ? (size_t)(end - (text + at)) : size - at;
		rc = commands_file_line(file, number + 1, text + at, len, e, lines, err, err_size);
		at += len + 1;
	}
	free(text);
	if (rc == 0 && e->nworkloads == 0) {
		char *shown = xescaped(file);
		set_error(err, err_size, "%s: no commands in the file (a line is `name: command args`)",
		          shown);
		free(shown);
		rc = -1;
	}
	return rc;
}
