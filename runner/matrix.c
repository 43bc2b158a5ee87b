/*
 * matrix.c — the matrix's cells and its part of meta.json (see matrix.h).
 */
#include "runner/matrix.h"

#include <err.h>
#include <stdint.h>
#include <string.h>

#include "common/text.h"
#include "runner/util.h"

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

static json_t *calibration_json(const struct calibration *c)
{
	if (c->iters == 0)
		return json_null();
	return json_pack("{s:I, s:f, s:f, s:f, s:f, s:i}", "iters", (json_int_t)c->iters,
	                 "trial_time_s", c->trial_time_s, "ns_per_iter", c->ns_per_iter,
	                 "startup_s", c->startup_s, "calibration_s", c->calibration_s, "pu", c->pu);
}

json_t *matrix_meta_json(const struct experiment *e)
{
	json_t *kernels = json_array(), *cells = json_array();
	for (int i = 0; i < e->nworkloads; i++) {
		const struct workload *w = &e->workloads[i];
		json_array_append_new(kernels, json_pack(
			"{s:s, s:I, s:o, s:s, s:o}", "name", w->name,
			"iters", (json_int_t)strtoull(w->argv[1], NULL, 10),
			"path", text_to_json(w->path), "sha256", w->sha256,
			"calibration", calibration_json(&e->cal_workloads[i])));
	}
	for (int i = 0; i < e->plan.ncells; i++) {
		const struct plan_cell *c = &e->plan.cells[i];
		json_array_append_new(cells, json_pack(
			"{s:s, s:o, s:s}", "victim", e->workloads[c->a].name,
			"aggressor", c->b >= 0 ? json_string(e->workloads[c->b].name) : json_null(),
			"placement", placement_name(c->placement)));
	}
	json_t *m = json_pack("{s:s, s:o, s:o}", "placement",
	                      placement_name(matrix_placement(&e->plan)), "kernels", kernels,
	                      "cells", cells);
	if (!m)
		errx(EXIT_FAILURE_RUNTIME, "internal error: cannot build meta.json's matrix");
	return m;
}

/* kernels[i] into e->workloads[i]: its name (a kernel of this build), count and file. */
static int load_kernel(const char *dir, const json_t *k, size_t i, struct experiment *e,
                       char *err, size_t err_size)
{
	const char *name = json_string_value(json_object_get(k, "name"));
	const json_t *iters = json_object_get(k, "iters");
	const char *sha = json_string_value(json_object_get(k, "sha256"));
	char *path = text_from_json(json_object_get(k, "path"));
	if (!name || !json_is_integer(iters) || json_integer_value(iters) < 1 || !sha
	    || strlen(sha) != 64 || strspn(sha, "0123456789abcdef") != 64 || !path
	    || path[0] != '/') {
		free(path);
		set_error(err, err_size, "%s/meta.json: matrix.kernels[%zu] needs a name, iters (at "
		          "least 1), an absolute path and a sha256", dir, i);
		return -1;
	}
	struct workload *w = &e->workloads[i];
	w->path = path;
	snprintf(w->sha256, sizeof w->sha256, "%s", sha);
	/* The name and argv are made by xworkload_recorded, once the file is checked. */
	w->argv = xcalloc(3, sizeof *w->argv);
	w->argv[0] = xstrdup(name);
	w->argv[1] = xasprintf("%lld", (long long)json_integer_value(iters));
	w->is_kernel = true;
	return 0;
}

/* The kernel named name among the first n, or -1. */
static int kernel_index(const struct experiment *e, int n, const char *name)
{
	for (int i = 0; name && i < n; i++)
		if (!strcmp(e->workloads[i].argv[0], name))
			return i;
	return -1;
}

int matrix_meta_load(const char *dir, const json_t *matrix, struct experiment *e, char *err,
                     size_t err_size)
{
	const json_t *kernels = json_object_get(matrix, "kernels");
	const json_t *cells = json_object_get(matrix, "cells");
	const char *placement = json_string_value(json_object_get(matrix, "placement"));
	enum placement pairing;
	size_t n = json_array_size(kernels);
	if (!json_is_array(kernels) || n == 0 || n > PLAN_MAX_WORKLOADS || !json_is_array(cells)
	    || !placement || placement_parse(placement, &pairing) != 0
	    || placement_nprocs(pairing) != 2) {
		set_error(err, err_size, "%s/meta.json: matrix needs a placement of two CPUs, 1 to %d "
		          "kernels and its cells", dir, PLAN_MAX_WORKLOADS);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (load_kernel(dir, json_array_get(kernels, i), i, e, err, err_size) != 0)
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
