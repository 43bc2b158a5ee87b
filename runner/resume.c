/*
 * resume.c — `run --resume`: every check before the first write (see resume.h).
 */
#include "runner/resume.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "common/alloc.h"
#include "common/text.h"
#include "runner/launch.h"
#include "runner/matrix.h"
#include "runner/meta.h"
#include "runner/trial.h"
#include "runner/workload.h"
#include "topology/topology.h"

/* samples.csv's trials must be the plan's trials 0, 1, 2...: same placement, block and warm-up
 * flag as the seed in meta.json gives them, and no more than the plan has. */
static void check_against_plan(struct experiment *e, const struct store_scan *scan,
                               const char *dir)
{
	long total = plan_total_trials(&e->plan);
	for (long i = 0; i < scan->ntrials; i++) {
		const struct stored_trial *t = &scan->trials[i];
		/* A matrix with --precision: its blocks' cells chosen again from the trials before
		 * them, as the run chose them (allocate.h), so that the plan below is the run's. */
		bool active[PLAN_MAX_CELLS];
		if (e->allocation && plan_needs_schedule(&e->plan, t->trial)) {
			if (allocation_choose(e->allocation, active) == 0)
				text_errx(EXIT_USAGE, "cannot resume: %s/samples.csv:%ld: trial "
				          "%ld comes after every cell was within the precision "
				          "target, where the run stops; the file was changed or "
				          "is not this matrix's", dir, t->line, t->trial);
			plan_schedule(&e->plan, active);
		}
		if (total >= 0 && t->trial >= total)
			text_errx(EXIT_USAGE, "cannot resume: %s/samples.csv:%ld: trial %ld is "
			          "beyond the plan's %ld trials in meta.json; the file was "
			          "changed or is not this run's", dir, t->line, t->trial, total);
		enum placement want = plan_placement_of(&e->plan, t->trial);
		long block = plan_block_of(&e->plan, t->trial);
		if (t->placement != want || t->block != block
		    || t->warmup != (plan_is_warmup(&e->plan, t->trial) != 0))
			text_errx(EXIT_USAGE, "cannot resume: %s/samples.csv:%ld: trial %ld is %s "
			          "in block %ld%s, where the plan in meta.json (seed %llu) has %s "
			          "in block %ld; the file was changed or is not this run's", dir,
			          t->line, t->trial, placement_name(t->placement), t->block,
			          t->warmup ? " (warm-up)" : "", (unsigned long long)e->plan.seed,
			          placement_name(want), block);
		int cell = plan_cell_of(&e->plan, t->trial);
		if (cell < 0)
			continue;
		/* A matrix: the cell's victim (role a) and aggressor (role b), as meta.json has them. */
		const struct plan_cell *c = &e->plan.cells[cell];
		const char *victim = e->workloads[c->a].name;
		const char *aggressor = c->b >= 0 ? e->workloads[c->b].name : NULL;
		const char *a = t->workload_a >= 0 ? scan->workloads[t->workload_a] : "?";
		const char *b = t->workload_b >= 0 ? scan->workloads[t->workload_b] : NULL;
		if (strcmp(a, victim) != 0 || (aggressor ? !b || strcmp(b, aggressor) != 0 : b != NULL))
			text_errx(EXIT_USAGE, "cannot resume: %s/samples.csv:%ld: trial %ld runs "
			          "%s beside %s, where the plan in meta.json (seed %llu) has %s "
			          "beside %s; the file was changed or is not this matrix's", dir,
			          t->line, t->trial, a, b ? b : "nothing",
			          (unsigned long long)e->plan.seed, victim,
			          aggressor ? aggressor : "nothing");
		if (e->allocation)
			allocation_add(e->allocation, t->block, cell, t->ok, t->utime_a_s);
	}
}

/* The workloads of a resumed run: exactly the files meta.json recorded (see workload.h); a
 * folder from before paths and hashes were recorded looks its command up again. */
static void resolve_recorded_workloads(struct experiment *e, const char *dir)
{
	/* A matrix's kernels and commands: their recorded words, names and files, as loaded. */
	for (int i = 0; i < e->nworkloads; i++)
		xworkload_recorded(&e->workloads[i], NULL, 0, dir);
	if (e->nworkloads > 0) {
		/* a matrix has no a and b of its own: its cells name the kernels above */
	} else if (e->a.path)
		xworkload_recorded(&e->a, e->kernel, e->iters, dir);
	else if (e->kernel)
		xworkload_kernel(&e->a, e->kernel, e->iters);
	else
		xworkload_resolve(&e->a);
	if (e->b.path)
		xworkload_recorded(&e->b, e->beside_kernel, e->beside_iters, dir);
	else if (e->beside_kernel)
		xworkload_kernel(&e->b, e->beside_kernel, e->beside_iters);
	else if (e->b.argv)
		xworkload_resolve(&e->b);
	/* The names given with --name are settings of the run (checked by meta_load): the rows
	 * written from here on carry them, as the rows before did. */
	const json_t *names = json_object_get(json_object_get(e->meta, "settings"), "name");
	if (json_is_array(names) && json_array_size(names) >= 1)
		workload_set_name(&e->a, json_string_value(json_array_get(names, 0)));
	if (json_is_array(names) && json_array_size(names) == 2)
		workload_set_name(&e->b, json_string_value(json_array_get(names, 1)));
	const char *version = json_string_value(json_object_get(e->meta, "version"));
	if (version && strcmp(version, SMTBENCH_VERSION) != 0)
		text_warnx("%s was started by smtbench %s; this is %s (its workloads are the same "
		           "files, checked by their SHA-256)", dir, version, SMTBENCH_VERSION);
}

/* For --resume: the recorded pairs must still be usable here and still be what they were. */
static void check_recorded_pairs(const struct experiment *e, const struct topo *topo,
                                 const char *dir)
{
	for (int i = 0; i < e->plan.nplacements; i++) {
		enum placement p = e->plan.placements[i];
		const struct topo_pair *pair = &e->pairs[p];
		int pus[2] = { pair->pus[0], pair->npus > 1 ? pair->pus[1] : pair->pus[0] };
		struct topo_relation rel;
		char err[ERR_LEN];
		if (topo_relate(topo, pus, &rel, err, sizeof err) != 0)
			text_errx(EXIT_USAGE, "cannot resume %s: its %s placement used CPUs "
			          "%d,%d: %s", dir, placement_name(p), pus[0], pus[1], err);
		enum placement want = p == PLACEMENT_SOLO ? PLACEMENT_SAME_PU : p;
		if (!topo_relation_serves(rel.relation, want))
			text_errx(EXIT_USAGE, "cannot resume %s: CPUs %d,%d are now a %s pair, "
			          "not %s", dir, pus[0], pus[1], placement_name(rel.relation),
			          placement_name(p));
		if (pair->npus > 1 && pair->shares[0] && strcmp(pair->shares, rel.shares) != 0)
			text_errx(EXIT_USAGE, "cannot resume %s: CPUs %d,%d now share %s, where "
			          "the run recorded %s; the machine's topology changed", dir,
			          pus[0], pus[1], rel.shares, pair->shares);
	}
}

/* The run must be resumed on the host that started it (its pairs are this machine's CPUs). */
static void check_host(const struct experiment *e, const char *dir)
{
	char host[128] = "";
	gethostname(host, sizeof host - 1);
	const char *recorded_host = json_string_value(json_object_get(e->meta, "host"));
	if (recorded_host && strcmp(recorded_host, host) != 0)
		text_errx(EXIT_USAGE, "cannot resume %s here: it was recorded on host %s, this is "
		          "%s", dir, recorded_host, host);
}

static void open_checked(const char *dir, char **command_line, struct resumed *r)
{
	*r = (struct resumed){ .e = { .command_line = command_line } };
	char err[ERR_LEN];
	if (store_is_partial(dir))
		text_errx(EXIT_USAGE, "cannot resume %s: it is the temporary folder of a run "
		          "killed while creating its results folder; it holds no trial: remove it "
		          "(rm -r) and start a new run", dir);
	/* From here on a stop signal waits for a trial boundary (see experiment_run). */
	trial_block_signals(&r->e.child_sigmask);
	r->store = store_open(dir, err, sizeof err);
	if (!r->store)
		text_errx(EXIT_USAGE, "cannot resume: %s", err);
	struct results_folder *f = folder_open(dir);
	int loaded = meta_load(f, &r->e, err, sizeof err);
	folder_free(&f);
	if (loaded != 0)
		text_errx(EXIT_USAGE, "cannot resume: %s", err);
	const char *status = json_string_value(json_object_get(r->e.meta, "status"));
	r->complete = status && !strcmp(status, "complete");
	if (!r->complete)
		check_host(&r->e, dir);
	if (store_scan(r->store, r->e.one_process, &r->scan, err, sizeof err) != 0)
		text_errx(EXIT_USAGE, "cannot resume: %s; nothing was changed (repair or remove "
		          "the damaged line by hand, then resume again)", err);
	if (r->e.plan.ncells > 0 && r->e.precision_pct > 0) { /* a matrix with --precision */
		r->e.plan.adaptive_from = r->e.plan.warmup_blocks + PRECISION_MIN_BLOCKS;
		r->e.allocation = allocation_new(&r->e.plan, r->e.precision_pct);
	}
	check_against_plan(&r->e, &r->scan, dir);
	if (r->complete)
		return;
	resolve_recorded_workloads(&r->e, dir);
	struct topo *topo = topo_load(NULL, err, sizeof err);
	if (!topo)
		text_errx(EXIT_FAILURE_RUNTIME, "cannot read this machine's topology: %s", err);
	check_recorded_pairs(&r->e, topo, dir);
	topo_free(&topo);

	if (store_cut_torn(r->store, &r->scan, err, sizeof err) != 0)
		text_errx(EXIT_FAILURE_RUNTIME, "cannot resume: %s", err);
	/* The folder as bytes (text_to_json): json_pack's "s" gives NULL for one that is not UTF-8,
	 * and resumed_with went missing. */
	json_t *with = json_pack("[s, s, s, o]", "smtbench", r->e.nworkloads ? "matrix" : "run",
	                         "--resume", text_to_json(dir));
	if (!with || json_object_set_new(r->e.meta, "resumed_with", with) != 0)
		text_errx(EXIT_FAILURE_RUNTIME, "out of memory (meta.json's resumed_with)");
}

/* What resume_open says: complete, or where it resumes and under which protections. */
static void say_resuming(const struct resumed *r, const char *dir)
{
	char *shown = xescaped(dir);
	long total = plan_total_trials(&r->e.plan);
	if (r->complete)
		printf("%s is complete; nothing to resume.\n", shown);
	else if (r->scan.cut_lines)
		text_warnx("%s/samples.csv: cut %ld line(s) of a trial that did not finish; it runs "
		           "again", dir, r->scan.cut_lines);
	if (!r->complete && total >= 0)
		printf("resuming %s at trial %ld of %ld\n", shown, r->scan.ntrials, total);
	else if (!r->complete)
		printf("resuming %s at trial %ld\n", shown, r->scan.ntrials);
	free(shown);
	if (!r->complete)
		launch_print_protections(&r->e);
	fflush(stdout);
}

bool resume_possible(const char *dir, bool *complete, char *err, size_t err_size)
{
	*complete = false;
	if (store_is_partial(dir)) {
		set_error(err, err_size, "it is the temporary folder of a run killed while creating "
		          "its results folder");
		return false;
	}
	struct experiment recorded = { .command_line = NULL };
	struct results_folder *f = folder_open(dir);
	bool ok = meta_load(f, &recorded, err, err_size) == 0;
	folder_free(&f);
	const char *status = json_string_value(json_object_get(recorded.meta, "status"));
	*complete = ok && status && !strcmp(status, "complete");
	experiment_release(&recorded);
	return ok;
}

void resume_open(const char *dir, char **command_line, struct resumed *r)
{
	open_checked(dir, command_line, r);
	say_resuming(r, dir);
}

void resume_release(struct resumed *r)
{
	store_scan_release(&r->scan);
	store_close(&r->store);
	experiment_release(&r->e);
}
