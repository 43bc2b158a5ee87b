/*
 * fleet.c — from folders to groups (fleet.h): each folder found (walk.c) read once
 * (common/folder.h), why it cannot be used, its answer (a run's headline comparison, each cell of
 * a matrix), comparable nodes grouped, and each group's answers pooled (fleet_model.c).
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/matrix.h"
#include "common/alloc.h"
#include "common/cpu_model.h"
#include "common/error.h"
#include "common/folder.h"
#include "common/text.h"
#include "fleet/fleet.h"
#include "fleet/internal.h"
#include "report/report.h"
#include "report/words.h"

/* The most folders read at once. */
enum { FLEET_MAX_THREADS = 16 };

/* ---- what a folder's meta.json says of its node ------------------------------------------- */

static const char *meta_str(const json_t *meta, const char *key)
{
	const char *s = json_string_value(json_object_get(meta, key));
	return s && *s ? s : "unknown";
}

static const char *smt_state(const json_t *meta)
{
	const char *control = json_string_value(json_object_get(meta, "smt_control"));
	const char *active = json_string_value(json_object_get(meta, "smt_active"));
	if (control && (!strcmp(control, "notsupported") || !strcmp(control, "notimplemented")))
		return "not supported";
	if (active && !strcmp(active, "1"))
		return "on";
	if (active && !strcmp(active, "0"))
		return "off";
	return "unknown";
}

/* The node's facts from meta.json, each a new string. */
static void node_facts(const json_t *meta, char **host, char **cpu_model, char **smt,
                       char **os_kernel)
{
	char *model = cpu_model_of_meta(meta);
	*host = xstrdup(meta_str(meta, "host"));
	*cpu_model = xstrdup(model && *model ? model : "unknown");
	*smt = xstrdup(smt_state(meta));
	*os_kernel = xstrdup(meta_str(meta, "os_kernel"));
	free(model);
}

/* A name or an argument meta.json stored as bytes (text, or {"hex": ...}: text_to_json) as it
 * is shown: escaped; NULL when absent. */
static char *shown_bytes(const json_t *value)
{
	char *raw = text_from_json(value);
	char *shown = raw ? xescaped(raw) : NULL;
	free(raw);
	return shown;
}

/* The measured workload's name, and the one run beside it. */
static char *workload_text(const json_t *meta)
{
	json_t *w = json_object_get(meta, "workloads");
	char *a = shown_bytes(json_object_get(json_object_get(w, "a"), "name"));
	char *b = shown_bytes(json_object_get(json_object_get(w, "b"), "name"));
	char *text = b ? xasprintf("%s beside %s", a ? a : "unknown", b) : xstrdup(a ? a : "unknown");
	free(a);
	free(b);
	return text;
}

/* The run's settings that make nodes comparable besides the machine: the measured command with
 * its arguments (a kernel's iterations among them), the one beside it, --iters, the placements,
 * the names given with --name and one process (only when given: a folder without them keeps
 * the key it always had). */
static json_t *run_settings(const json_t *meta)
{
	json_t *w = json_object_get(meta, "workloads"), *settings = json_object_get(meta, "settings");
	json_t *names = json_object_get(settings, "name");
	/* run --one-process: one process's wall time is another measure than copies' user time. */
	bool one_process = json_is_true(json_object_get(settings, "one_process"));
	return json_pack("{s:O?, s:O?, s:O?, s:O?, s:O*, s:o*}",
	                 "iters", json_object_get(settings, "iters"),
	                 "placements", json_object_get(settings, "placements"),
	                 "command", json_object_get(json_object_get(w, "a"), "argv"),
	                 "beside_command", json_object_get(json_object_get(w, "b"), "argv"),
	                 "name", json_is_array(names) ? names : NULL,
	                 "one_process", one_process ? json_true() : NULL);
}

/* What must be equal for nodes to be pooled, as one text. */
static char *group_key(json_t *parts)
{
	char *text = json_dumps(parts, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(parts);
	return text ? text : xstrdup("?");
}

/* ---- why a folder cannot be used ---------------------------------------------------------- */

/* Different measured workloads among samples.csv's role-a rows: the first two, else NULL. */
static char *mixed_workloads(struct results_folder *f)
{
	const struct samples_table *t = folder_samples(f, NULL, 0);
	const char *first = NULL;
	for (size_t i = 0; t && i < t->workload_count; i++) {
		if (!t->workloads[i].first_line_as[0])
			continue;
		if (first)
			return xasprintf("%s and %s", first, t->workloads[i].name);
		first = t->workloads[i].name;
	}
	return NULL;
}

/* "(72 trials done, from samples.csv)", with what is wrong with meta.json's count if anything. */
static char *progress_of(struct results_folder *f)
{
	json_t *done = json_object_get(f->meta, "trials_done");
	const char *wrong = json_is_integer(done) && json_integer_value(done) >= 0 ? NULL
	                           : done ? "damaged" : "missing";
	long on_disk = folder_samples(f, NULL, 0) ? folder_trials_written(f) : -1; /* -1: unread */
	if (on_disk < 0 && wrong)
		return xasprintf("trials done unknown: meta.json's trials_done is %s and samples.csv "
		                 "cannot be read", wrong);
	if (on_disk < 0)
		return xasprintf("%lld trials done, from meta.json; samples.csv cannot be read",
		                 (long long)json_integer_value(done));
	return xasprintf("%ld trials done, from samples.csv%s%s", on_disk,
	                 wrong ? "; meta.json's trials_done is " : "",
	                 wrong ? wrong : "");
}

/* Why a folder whose run did not end is not used: being written, its runner killed, or
 * stopped; with how far it got. */
static char *incomplete_reason(struct results_folder *f)
{
	const char *command = f->kind == FOLDER_MATRIX ? "matrix" : "run";
	const char *status = folder_meta_string(f, "status");
	char *count = progress_of(f), *s;
	if (f->state == FOLDER_RUNNING && f->runner_pid)
		s = xasprintf("being written: its runner (pid %ld on %s) is still running (%s); wait "
		              "for it to end", f->runner_pid, f->runner_host, count);
	else if (f->state == FOLDER_KILLED)
		s = xasprintf("incomplete: its runner (pid %ld on %s) was killed, and meta.json still "
		              "says running (%s); continue it with smtbench %s --resume %s",
		              f->runner_pid, f->runner_host, count, command, f->dir);
	else
		s = xasprintf("incomplete: its %s is %s (%s); continue it with smtbench %s --resume %s",
		              command, status ? status : "of unknown status", count, command, f->dir);
	free(count);
	return s;
}

/* What to do about a meta.json fileio_read_all refused, by what it is: the advice follows the
 * cause (permissions are no help for a FIFO). */
static const char *unreadable_advice(const char *path)
{
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return "replace it with the run's own meta.json (a regular file) or rerun it";
	if (access(path, R_OK) != 0 && errno == EACCES)
		return "fix its permissions or rerun it";
	return "rerun it";
}

/* Why the folder's meta.json rules it out, or NULL when it does not. */
static char *meta_problem(struct results_folder *f)
{
	switch (f->meta_status) {
	case FOLDER_META_ABSENT:
		return xstrdup("no meta.json: not a finished smtbench results folder (a run that did "
		               "not start, or samples copied without it); rerun it");
	case FOLDER_META_UNREADABLE: /* not a regular file, too big: said as it is, not "damaged" */
		return xasprintf("meta.json cannot be read (%s); %s", f->meta_error,
		                 unreadable_advice(f->meta_path));
	case FOLDER_META_NOT_JSON:
		return xasprintf("meta.json is damaged (line %d: %s); rerun it", f->meta_error_line,
		                 f->meta_error);
	case FOLDER_META_NOT_OBJECT:
	case FOLDER_META_OK:
		break;
	}
	const char *tool = folder_meta_string(f, "tool");
	const char *version = folder_meta_string(f, "version");
	if (!f->meta || !tool || strcmp(tool, "smtbench"))
		return xstrdup("meta.json was not written by smtbench run");
	if (!version || strcmp(version, SMTBENCH_VERSION))
		return xasprintf("made by smtbench %s, this is smtbench %s: not pooled with this "
		                 "version's runs; rerun it with this version",
		                 version ? version : "(no version)", SMTBENCH_VERSION);
	if (f->state != FOLDER_COMPLETE)
		return incomplete_reason(f);
	if (!fleet_has_file(f->dir, "samples.csv"))
		return xstrdup("no samples.csv; rerun it");
	if (f->kind == FOLDER_MATRIX) /* a matrix's rows hold every workload by design */
		return NULL;
	char *mixed = mixed_workloads(f);
	char *why = mixed ? xasprintf("samples.csv mixes measured workloads (%s): one folder must "
	                              "hold one workload's runs", mixed) : NULL;
	free(mixed);
	return why;
}

/* The mean of a distribution's values, or (logs) of their logarithms; their variance in *var. */
static double moments(const struct analysis_dist *d, bool logs, double *var)
{
	double mean = 0;
	*var = 0;
	for (size_t i = 0; i < d->count; i++)
		mean += d->probs[i] * (logs ? log(d->values[i]) : d->values[i]);
	for (size_t i = 0; i < d->count; i++) {
		double e = (logs ? log(d->values[i]) : d->values[i]) - mean;
		*var += d->probs[i] * e * e;
	}
	return mean;
}

/* The normal summary of the node's log ratio. Paired: the moments of delta's posterior (the
 * mean per-block log ratio), the node's own answer. Unpaired: the two posteriors are
 * independent (separate samples), so the mean and variance of log(mu_A) and log(mu_B) add. */
static void log_ratio_summary(const struct analysis_comparison *c, double *mean, double *sd)
{
	double va, vb = 0;
	if (c->design == ANALYSIS_DESIGN_PAIRED)
		*mean = moments(&c->log_ratio, false, &va);
	else
		*mean = moments(&c->a.mu, true, &va) - moments(&c->b.mu, true, &vb);
	*sd = sqrt(va + vb);
}

/* A node's answer to comparison c (pooling fills the rest). */
static struct fleet_answer answer_of(const struct analysis_comparison *c)
{
	struct fleet_answer a = {
		/* Paired, the evidence is the blocks that hold both; unpaired, the smaller group. */
		.n = c->design == ANALYSIS_DESIGN_PAIRED ? c->blocks_paired
		     : c->a.n < c->b.n ? c->a.n : c->b.n,
		.ratio_mean = c->ratio_mean, .ratio_ci = { c->ratio_ci[0], c->ratio_ci[1] },
		.verdict = verdict_name(c->verdict), .settled = analysis_comparison_settled(c),
		.loo_ci = { NAN, NAN } };
	log_ratio_summary(c, &a.log_mean, &a.log_sd);
	return a;
}

/* The loader's message without the folder it starts with ("DIR: ..." or "DIR/samples.csv:1:
 * ..."): the folder is named in the list already. */
static const char *without_dir(const char *err, const char *dir)
{
	size_t len = strlen(dir);
	if (!strncmp(err, dir, len) && !strncmp(err + len, ": ", 2))
		return err + len + 2;
	if (!strncmp(err, dir, len) && err[len] == '/')
		return err + len + 1;
	return err;
}

/* ---- one folder --------------------------------------------------------------------------- */

/* One folder's outcome: a host (or a matrix node), or the reason it is skipped (reason set). */
struct outcome {
	const struct found *in;    /* opened by its path, reported by its shown name */
	bool matrix;               /* usable as a matrix node (node), not a host */
	struct fleet_host host;
	struct fleet_matrix_node node;
	char *reason;
};

/* The reason for a folder that cannot be analysed, by what the analysis said (err). */
static char *analysis_problem(const char *err, const char *dir, const char *command)
{
	const char *why = without_dir(err, dir);
	if (strstr(err, ANALYSIS_DAMAGED))
		return xasprintf("%s; continue it with smtbench %s --resume, or rerun it", why, command);
	bool nothing = strstr(err, ANALYSIS_TOO_FEW) || strstr(err, ANALYSIS_NOT_COMPARED)
	               || strstr(err, ANALYSIS_ONE_PLACEMENT)
	               || strstr(err, ANALYSIS_ALL_EXCLUDED);
	return xasprintf("%s: %s", nothing ? "no comparison" : "cannot be analysed", why);
}

static char *damaged(size_t lines, char *const *warnings, const char *command)
{
	for (size_t i = 0; i < lines; i++)
		if (strstr(warnings[i], FOLDER_NOT_NAMED_BY_META))
			return xasprintf("samples.csv holds trials that meta.json does not describe (the "
			                 "first: %s): edited, or another run's rows added; not pooled (its "
			                 "report leaves them out)", warnings[i]);
	return xasprintf("samples.csv is damaged or cut short (%zu line(s) unreadable; the first: "
	                 "%s); continue it with smtbench %s --resume, or rerun it", lines,
	                 warnings[0], command);
}

/* A run's folder into a host: its headline comparison, as its report leads with it. */
static void examine_run(struct outcome *o, struct results_folder *f)
{
	char err[ERR_LEN];
	struct analysis_options opt;
	analysis_options_init(&opt);
	struct analysis_dataset *d = analysis_load_folder(f, NULL, err, sizeof err);
	struct analysis_result *r = d ? analysis_run(d, &opt, err, sizeof err) : NULL;
	if (!r) {
		o->reason = analysis_problem(err, o->in->path, "run");
	} else if (d->warning_count) {
		o->reason = damaged(d->warning_count, d->warnings, "run");
	} else {
		const struct analysis_comparison *c = report_headline(r, d);
		const json_t *meta = f->shown_meta;
		struct fleet_host *h = &o->host;
		h->dir = xstrdup(o->in->path);
		node_facts(meta, &h->host, &h->cpu_model, &h->smt, &h->os_kernel);
		h->workload = workload_text(meta);
		h->comparison = xasprintf("%s vs %s", c->a.name, c->b.name);
		h->smt_question = c->kind == COMPARISON_HEADLINE;
		h->settings = run_settings(meta);
		h->group_key = group_key(json_pack("{s:s, s:s, s:O, s:s}", "cpu_model", h->cpu_model,
		                                   "smt", h->smt, "settings", h->settings,
		                                   "comparison", h->comparison));
		h->answer = answer_of(c);
	}
	analysis_result_free(&r);
	analysis_dataset_free(&d);
}

/* A matrix's folder into a matrix node: each cell's answer, as its report compares them. */
static void examine_matrix(struct outcome *o, struct results_folder *f)
{
	char err[ERR_LEN];
	bool commands;
	struct analysis_matrix *m = report_matrix_cells(f, &commands, err, sizeof err);
	if (!m) {
		o->reason = analysis_problem(err, o->in->path, "matrix");
		return;
	}
	if (m->warning_count) {
		o->reason = damaged(m->warning_count, m->warnings, "matrix");
		analysis_matrix_free(&m);
		return;
	}
	const json_t *meta = f->shown_meta;
	struct fleet_matrix_node *n = &o->node;
	json_int_t cores = 0; /* what meta.json says the node's machine has, where it says it */
	json_unpack(f->meta, "{s:{s:I}}", "topology", "cores", &cores);
	o->matrix = true;
	*n = (struct fleet_matrix_node){
		.dir = xstrdup(o->in->path), .placement = xstrdup(m->placement ? m->placement : "none"),
		.workloads = xstrdup(commands ? "commands" : "kernels"), .name_count = m->nkernels,
		.safe_slowdown = m->safe_slowdown, .cores = cores > 0 ? (size_t)cores : 0,
		.names = xcalloc(m->nkernels, sizeof *n->names),
		.cells = xcalloc(m->nkernels * m->nkernels, sizeof *n->cells) };
	node_facts(meta, &n->host, &n->cpu_model, &n->smt, &n->os_kernel);
	for (size_t v = 0; v < m->nkernels; v++) {
		n->names[v] = xstrdup(m->kernels[v]);
		for (size_t g = 0; g < m->nkernels; g++) {
			const struct analysis_matrix_cell *c = analysis_matrix_cell(m, (int)v, (int)g);
			n->cells[v * m->nkernels + g] = c->compared ? answer_of(&c->vs_baseline)
			        : (struct fleet_answer){ .ratio_mean = NAN, .ratio_ci = { NAN, NAN },
			                                 .log_mean = NAN, .log_sd = NAN, .loo_ci = { NAN, NAN },
			                                 .verdict = verdict_name(ANALYSIS_VERDICT_UNDECIDED) };
		}
	}
	/* Comparable nodes: the machine, and what the cells ran on and ran. */
	n->group_key = group_key(json_pack("{s:s, s:s, s:s, s:s, s:s}", "matrix", n->workloads,
	                                   "cpu_model", n->cpu_model, "smt", n->smt, "placement",
	                                   n->placement, "kind", "matrix"));
	analysis_matrix_free(&m);
}

/* Reads one folder into a host or a matrix node, or a skip with its reason. */
static void examine(struct outcome *o)
{
	if (o->reason) /* skipped before reading it */
		return;
	struct results_folder *f = folder_open(o->in->path);
	o->reason = meta_problem(f);
	if (!o->reason && f->kind == FOLDER_MATRIX)
		examine_matrix(o, f);
	else if (!o->reason)
		examine_run(o, f);
	if (o->reason) { /* it may quote meta.json (jansson quotes the bad bytes) or samples.csv */
		char *clean = xescaped(o->reason);
		free(o->reason);
		o->reason = clean;
	}
	folder_free(&f);
}

/* Folders are read and analysed in parallel (each one alone: nothing is shared), one worker
 * per online CPU; the outcomes keep the folders' order. */
struct work {
	struct outcome *outcomes;
	size_t count;
	size_t next;               /* taken with __atomic_fetch_add */
};

static void *worker(void *arg)
{
	struct work *w = arg;
	for (;;) {
		size_t i = __atomic_fetch_add(&w->next, 1, __ATOMIC_RELAXED);
		if (i >= w->count)
			return NULL;
		examine(&w->outcomes[i]);
	}
}

static void examine_all(struct outcome *outcomes, size_t count)
{
	struct work w = { outcomes, count, 0 };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t threads = cpus > 1 ? (size_t)cpus : 1;
	if (threads > FLEET_MAX_THREADS)
		threads = FLEET_MAX_THREADS;
	if (threads > count)
		threads = count;
	pthread_t ids[FLEET_MAX_THREADS];
	size_t started = 0;
	for (size_t t = 1; t < threads; t++) /* this thread is one of them */
		if (pthread_create(&ids[started], NULL, worker, &w) == 0)
			started++;
	worker(&w);
	for (size_t t = 0; t < started; t++)
		pthread_join(ids[t], NULL);
}
/* "command nop 1000000; placements non-sibling, solo": a group's settings in words. */
static char *settings_words(const json_t *settings)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = xmemstream(&text, &size);
	static const char *const keys[] = { "command", "beside_command", "iters", "placements",
	                                    "name" };
	static const char *const words[] = { "command", "beside it", "iters", "placements",
	                                     "named" };
	const char *sep = "";
	if (json_is_true(json_object_get(settings, "one_process"))) {
		fputs("one process (wall time)", out);
		sep = "; ";
	}
	for (size_t k = 0; k < 5; k++) {
		json_t *v = json_object_get(settings, keys[k]);
		if (!v || json_is_null(v))
			continue;
		fprintf(out, "%s%s ", sep, words[k]);
		sep = "; ";
		if (json_is_integer(v))
			fprintf(out, "%lld", (long long)json_integer_value(v));
		size_t i;
		json_t *item;
		json_array_foreach(v, i, item) {
			char *arg = shown_bytes(item);
			fprintf(out, "%s%s", i ? (k >= 3 ? ", " : " ") : "", arg ? arg : "?");
			free(arg);
		}
	}
	xmemstream_close(out, &text);
	char *clean = xescaped(text);
	free(text);
	return clean;
}

/* Groups that the title (CPU model, SMT, workload, comparison) would not tell apart (they differ
 * in --iters, arguments or placements) get their settings in words for the title. */
static void name_settings(struct fleet *f)
{
	for (size_t a = 0; a < f->group_count; a++)
		for (size_t b = 0; b < f->group_count; b++) {
			struct fleet_group *g = &f->groups[a];
			const struct fleet_host *h = g->first, *o = f->groups[b].first;
			if (a == b || g->settings_text || strcmp(h->cpu_model, o->cpu_model)
			    || strcmp(h->smt, o->smt) || strcmp(h->workload, o->workload)
			    || strcmp(h->comparison, o->comparison))
				continue;
			g->settings_text = settings_words(h->settings);
		}
}


/* ---- groups, pooled --------------------------------------------------------------------------- */

/* Pools the settled answers among count (those with a usable summary) and checks each of them
 * against the others (fleet.h's model and rule); mix (or NULL): the pooled mu's mixture. The
 * pooled answers are moved to the front of answers; returns how many of them deviate. */
static size_t pool_answers(struct fleet_answer **answers, size_t count, double bound,
                           struct fleet_pooled *out, struct analysis_log_mixture *mix)
{
	size_t cap = count ? count : 1, n = 0, deviating = 0;
	double *m = xmalloc(6 * cap * sizeof *m), *s = m + cap, *lo = s + cap, *hi = lo + cap;
	double *loo = hi + cap;
	bool *outlier = xmalloc(cap * sizeof *outlier);
	for (size_t k = 0; k < count; k++) {
		struct fleet_answer *a = answers[k];
		if (!a->settled || !(a->log_sd > 0) || !isfinite(a->log_sd) || !isfinite(a->log_mean))
			continue;
		m[n] = a->log_mean;
		s[n] = a->log_sd;
		lo[n] = log(a->ratio_ci[0]);
		hi[n] = log(a->ratio_ci[1]);
		answers[n++] = a;
	}
	fleet_pool(m, s, n, bound, out, mix, &(struct fleet_outlier_check){ lo, hi, outlier, loo });
	for (size_t k = 0; k < n; k++) {
		answers[k]->pooled = true;
		answers[k]->outlier = outlier[k];
		deviating += outlier[k];
		answers[k]->loo_ci[0] = exp(loo[2 * k]);
		answers[k]->loo_ci[1] = exp(loo[2 * k + 1]);
	}
	free(m);
	free(outlier);
	return deviating;
}

/* The group of host h, made when it is the first of its kind. */
static struct fleet_group *group_for(struct fleet *f, const struct fleet_host *h)
{
	for (size_t g = 0; g < f->group_count; g++)
		if (!strcmp(f->groups[g].first->group_key, h->group_key))
			return &f->groups[g];
	f->groups = xreallocarray(f->groups, f->group_count + 1, sizeof *f->groups);
	struct fleet_group *g = &f->groups[f->group_count++];
	*g = (struct fleet_group){ .first = h, .hosts = xcalloc(f->host_count, sizeof *g->hosts) };
	return g;
}

static void build_groups(struct fleet *f)
{
	for (size_t i = 0; i < f->host_count; i++) {
		struct fleet_group *g = group_for(f, &f->hosts[i]);
		g->hosts[g->host_count++] = i;
	}
	for (size_t gi = 0; gi < f->group_count; gi++) {
		struct fleet_group *g = &f->groups[gi];
		struct fleet_answer **answers = xcalloc(g->host_count, sizeof *answers);
		for (size_t k = 0; k < g->host_count; k++)
			answers[k] = &f->hosts[g->hosts[k]].answer;
		pool_answers(answers, g->host_count, NAN, &g->pooled, NULL);
		free(answers);
	}
	name_settings(f);
}

static long name_index(char *const *names, size_t count, const char *name)
{
	for (size_t k = 0; k < count; k++)
		if (!strcmp(names[k], name))
			return (long)k;
	return -1;
}

const struct fleet_answer *fleet_matrix_node_cell(const struct fleet_matrix_node *n,
                                                  const char *victim, const char *aggressor)
{
	long v = name_index(n->names, n->name_count, victim);
	long g = name_index(n->names, n->name_count, aggressor);
	return v < 0 || g < 0 ? NULL : &n->cells[(size_t)v * n->name_count + (size_t)g];
}

/* The matrix group of node n, made when it is the first of its kind; n's workloads that the
 * group does not have yet added, in n's order. */
static struct fleet_matrix_group *matrix_group_for(struct fleet *f,
                                                   const struct fleet_matrix_node *n)
{
	struct fleet_matrix_group *g = NULL;
	for (size_t i = 0; i < f->matrix_group_count && !g; i++)
		if (!strcmp(f->matrix_groups[i].first->group_key, n->group_key))
			g = &f->matrix_groups[i];
	if (!g) {
		f->matrix_groups = xreallocarray(f->matrix_groups, f->matrix_group_count + 1,
		                                 sizeof *f->matrix_groups);
		g = &f->matrix_groups[f->matrix_group_count++];
		*g = (struct fleet_matrix_group){
			.first = n, .nodes = xcalloc(f->matrix_node_count, sizeof *g->nodes),
			.names = xcalloc(ANALYSIS_MATRIX_MAX_KERNELS * 2, sizeof *g->names) };
	}
	for (size_t k = 0; k < n->name_count; k++) /* more than any matrix holds: left out of it */
		if (name_index(g->names, g->name_count, n->names[k]) < 0
		    && g->name_count < ANALYSIS_MATRIX_MAX_KERNELS * 2)
			g->names[g->name_count++] = xstrdup(n->names[k]);
	return g;
}

/* Cell (v, a) of matrix group gr pooled across its nodes that measured it; the nodes whose
 * answer deviates from what the others predict are marked. */
static void pool_cell(struct fleet *f, struct fleet_matrix_group *gr, size_t v, size_t a)
{
	struct fleet_matrix_cell *cell = &gr->cells[v * gr->name_count + a];
	struct fleet_answer **answers = xcalloc(gr->node_count, sizeof *answers);
	for (size_t k = 0; k < gr->node_count; k++) {
		const struct fleet_answer *c = fleet_matrix_node_cell(&f->matrix_nodes[gr->nodes[k]],
		                                                      gr->names[v], gr->names[a]);
		if (c)
			answers[cell->nodes++] = (struct fleet_answer *)c;
	}
	cell->deviating = pool_answers(answers, cell->nodes, gr->safe_slowdown, &cell->pooled,
	                               &cell->mixture);
	free(answers);
}

/* The group's joint safe list (analysis/matrix.h's rule, on the pooled cells). */
static void choose_safe_pairs(struct fleet_matrix_group *gr)
{
	size_t n = gr->name_count;
	double *p = xcalloc(n * n + 1, sizeof *p);
	for (size_t i = 0; i < n * n; i++)
		p[i] = fleet_pooled_p_safe(&gr->cells[i].pooled);
	gr->safe_pairs = xcalloc(n * (n + 1) / 2 + 1, sizeof *gr->safe_pairs);
	gr->safe_pair_count = analysis_safe_pairs(n, p, ANALYSIS_MATRIX_SAFE_PROBABILITY,
	                                          gr->safe_pairs, &gr->safe_joint_probability,
	                                          &gr->safe_candidates);
	for (size_t i = 0; i < gr->safe_pair_count; i++) {
		size_t a = (size_t)gr->safe_pairs[i].a, b = (size_t)gr->safe_pairs[i].b;
		gr->cells[a * n + b].safe = gr->cells[b * n + a].safe = true;
	}
	free(p);
}

static void build_matrix_groups(struct fleet *f)
{
	for (size_t i = 0; i < f->matrix_node_count; i++) {
		struct fleet_matrix_group *g = matrix_group_for(f, &f->matrix_nodes[i]);
		g->nodes[g->node_count++] = i;
		/* The narrowest bound of its nodes: a pair safe for the group is safe for each. */
		if (g->node_count == 1 || f->matrix_nodes[i].safe_slowdown < g->safe_slowdown)
			g->safe_slowdown = f->matrix_nodes[i].safe_slowdown;
	}
	for (size_t gi = 0; gi < f->matrix_group_count; gi++) {
		struct fleet_matrix_group *gr = &f->matrix_groups[gi];
		gr->cells = xcalloc(gr->name_count * gr->name_count, sizeof *gr->cells);
		for (size_t v = 0; v < gr->name_count; v++)
			for (size_t a = 0; a < gr->name_count; a++)
				pool_cell(f, gr, v, a);
		choose_safe_pairs(gr);
	}
}

/* ---- the fleet -------------------------------------------------------------------------------- */

/* Moves the outcomes into the fleet, in order. */
static void collect(struct fleet *f, struct outcome *outcomes, size_t count)
{
	f->hosts = xcalloc(count, sizeof *f->hosts);
	f->matrix_nodes = xcalloc(count, sizeof *f->matrix_nodes);
	f->skipped = xcalloc(count, sizeof *f->skipped);
	for (size_t i = 0; i < count; i++) {
		struct outcome *o = &outcomes[i];
		if (o->reason)
			f->skipped[f->skipped_count++] = (struct fleet_skip){ xstrdup(o->in->shown),
			                                                      o->reason };
		else if (o->matrix)
			f->matrix_nodes[f->matrix_node_count++] = o->node;
		else
			f->hosts[f->host_count++] = o->host;
	}
}

struct fleet *fleet_load(char *const *dirs, size_t count, char *err, size_t err_size)
{
	struct found_list found;
	if (fleet_find(dirs, count, &found, err, err_size) < 0)
		return NULL;
	struct fleet *f = xcalloc(1, sizeof *f);
	struct outcome *outcomes = xcalloc(found.count, sizeof *outcomes);
	for (size_t i = 0; i < found.count; i++) {
		struct found *it = &found.items[i];
		outcomes[i] = (struct outcome){ .in = it, .reason = it->reason };
		it->reason = NULL; /* the outcome's now */
	}
	examine_all(outcomes, found.count);
	collect(f, outcomes, found.count);
	free(outcomes);
	found_list_release(&found);
	build_groups(f);
	build_matrix_groups(f);
	return f;
}

/* Frees each of count strings (the array itself is not freed: a list of a struct's members). */
static void free_each(char *const *strings, size_t count)
{
	for (size_t k = 0; k < count; k++)
		free(strings[k]);
}

static void free_nodes(struct fleet *f)
{
	for (size_t i = 0; i < f->host_count; i++) {
		struct fleet_host *h = &f->hosts[i];
		free_each((char *[]){ h->dir, h->host, h->cpu_model, h->smt, h->os_kernel, h->workload,
		                      h->comparison, h->group_key }, 8);
		json_decref(h->settings);
	}
	for (size_t i = 0; i < f->matrix_node_count; i++) {
		struct fleet_matrix_node *n = &f->matrix_nodes[i];
		free_each((char *[]){ n->dir, n->host, n->cpu_model, n->smt, n->os_kernel, n->placement,
		                      n->workloads, n->group_key }, 8);
		strings_release(&n->names, &n->name_count);
		free(n->cells);
	}
	for (size_t i = 0; i < f->skipped_count; i++) {
		free(f->skipped[i].dir);
		free(f->skipped[i].reason);
	}
	free(f->hosts);
	free(f->matrix_nodes);
	free(f->skipped);
}

void fleet_free(struct fleet **p)
{
	if (!*p)
		return;
	struct fleet *f = *p;
	free_nodes(f);
	for (size_t i = 0; i < f->group_count; i++) {
		struct fleet_group *g = &f->groups[i];
		free(g->settings_text);
		free(g->hosts);
	}
	for (size_t i = 0; i < f->matrix_group_count; i++) {
		struct fleet_matrix_group *g = &f->matrix_groups[i];
		for (size_t c = 0; c < g->name_count * g->name_count && g->cells; c++)
			fleet_mixture_release(&g->cells[c].mixture);
		strings_release(&g->names, &g->name_count);
		free(g->nodes);
		free(g->cells);
		free(g->safe_pairs);
	}
	free(f->groups);
	free(f->matrix_groups);
	free(f);
	*p = NULL;
}
