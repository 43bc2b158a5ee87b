/*
 * fleet.c — from folders to groups: finds the results folders, reads each as `smtbench report`
 * does (report_new), keeps its headline comparison, says why a folder cannot be used, groups
 * comparable nodes and pools each group (fleet_model.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fleet/fleet.h"
#include "fleet/internal.h"
#include "analysis/analysis.h"
#include "analysis/matrix.h"
#include "common/alloc.h"
#include "common/cpu_model.h"
#include "common/error.h"
#include "common/folder.h"
#include "common/text.h"
#include "report/matrix.h"
#include "report/report.h"

/* Folders nested deeper than this under a given folder are not searched (a loop of links, or a
 * path given by mistake); the folder at this depth that has subfolders is listed as skipped. */
enum { FLEET_MAX_DEPTH = 8 };
/* The most folders read at once. */
enum { FLEET_MAX_THREADS = 16 };

/* A folder found: a results folder to read, or one that cannot be read (reason set). */
struct found {
	char *path;                /* as found: what is opened */
	char *shown;               /* as reported (text_escape) */
	char *reason;              /* why it is skipped without reading it, or NULL */
	dev_t dev;                 /* the folder's identity: two paths to one folder (a link, */
	ino_t ino;                 /* the same folder given twice) are one node */
};

struct paths {
	struct found *items;
	size_t count;
};

/* Adds path (taken) with the reason it is skipped (taken; NULL: to be read). A path that is
 * not printable text is skipped: the reports could not name it, and must not drop it. */
static int push_path(struct paths *p, char *path, char *reason)
{
	if (reason) { /* it may quote a link's target or another path: escaped, as every path */
		char *clean = text_escape(reason);
		free(reason);
		if (!clean) {
			free(path);
			return -1;
		}
		reason = clean;
	}
	bool escaped = path && !text_is_printable(path);
	char *shown = path ? text_escape(path) : NULL;
	if (shown && escaped && !reason)
		reason = strdup("its name is not printable UTF-8 text (shown here with \\xNN escapes): "
		                "rename it to be reported");
	struct found *grown = shown && (reason || !escaped)
	                      ? realloc(p->items, (p->count + 1) * sizeof *grown) : NULL;
	if (!grown) {
		free(path);
		free(shown);
		free(reason);
		return -1;
	}
	struct stat st;
	bool known = stat(path, &st) == 0;
	p->items = grown;
	p->items[p->count++] = (struct found){ path, shown, reason, known ? st.st_dev : 0,
	                                       known ? st.st_ino : 0 };
	return 0;
}

static void paths_release(struct paths *p)
{
	for (size_t i = 0; i < p->count; i++) {
		free(p->items[i].path);
		free(p->items[i].shown);
		free(p->items[i].reason);
	}
	free(p->items);
}

static bool has_file(const char *dir, const char *name)
{
	char *path = text_printf("%s/%s", dir, name);
	bool yes = path && access(path, F_OK) == 0;
	free(path);
	return yes;
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The walk of the folders given. Every folder searched is remembered by its identity (device
 * and inode), so that none is searched twice however many paths lead to it: a link to a
 * folder of nodes (`latest -> run1`) or a folder given twice is listed once, as the same folder,
 * instead of once per node inside it. Links are followed after the real folders (in the order
 * found), so that the nodes are read and named through the paths without a link. A link back
 * to a folder it is in (`ln -s . again`, `ln -s .. up`) is listed once as a loop. A link that
 * leads out of the folders given is not followed (it is listed, with its target, to be given by
 * itself), so that `ln -s /usr x` does not walk /usr. Two paths to one results folder (a link
 * to a node) are told apart later (mark_duplicates). */
struct walk {
	struct paths *out;
	char **roots;              /* realpath() of each folder given */
	size_t root_count;
	struct searched { dev_t dev; ino_t ino; char *path; } *searched; /* every folder searched */
	size_t searched_count, searched_cap;
	struct link { char *path; int depth; } *links; /* links to folders, to follow after */
	size_t link_count, link_cap, links_followed;
};

/* The path a folder st was searched through, or NULL when it has not been. */
static const char *searched_as(const struct walk *w, const struct stat *st)
{
	for (size_t i = 0; i < w->searched_count; i++)
		if (w->searched[i].dev == st->st_dev && w->searched[i].ino == st->st_ino)
			return w->searched[i].path;
	return NULL;
}

/* Remembers the folder st, searched through path. 0, or -1 on out of memory. */
static int remember_searched(struct walk *w, const struct stat *st, const char *path)
{
	if (w->searched_count == w->searched_cap) {
		size_t cap = w->searched_cap ? 2 * w->searched_cap : 16;
		struct searched *grown = realloc(w->searched, cap * sizeof *grown);
		if (!grown)
			return -1;
		w->searched = grown;
		w->searched_cap = cap;
	}
	char *copy = strdup(path);
	if (!copy)
		return -1;
	w->searched[w->searched_count++] = (struct searched){ st->st_dev, st->st_ino, copy };
	return 0;
}

/* Keeps the link at path (a folder depth levels below the folder given) to follow later. */
static int defer_link(struct walk *w, const char *path, int depth)
{
	if (w->link_count == w->link_cap) {
		size_t cap = w->link_cap ? 2 * w->link_cap : 16;
		struct link *grown = realloc(w->links, cap * sizeof *grown);
		if (!grown)
			return -1;
		w->links = grown;
		w->link_cap = cap;
	}
	char *copy = strdup(path);
	if (!copy)
		return -1;
	w->links[w->link_count++] = (struct link){ copy, depth };
	return 0;
}

/* Whether the real path real lies in one of the folders given. */
static bool inside_roots(const struct walk *w, const char *real)
{
	for (size_t i = 0; i < w->root_count; i++) {
		size_t len = strlen(w->roots[i]);
		if (!strncmp(real, w->roots[i], len)
		    && (real[len] == '/' || real[len] == '\0' || !strcmp(w->roots[i], "/")))
			return true;
	}
	return false;
}

/* Whether the real path real is the folder the link at path lies in, or one above it. */
static bool link_is_loop(const char *path, const char *real)
{
	/* The folder the link is in, cut from its path: "path/.." would go through the link. */
	char *parent = strdup(path);
	char *slash = parent ? strrchr(parent, '/') : NULL;
	if (slash)
		*slash = '\0';
	char *parent_real = parent ? realpath(slash ? (*parent ? parent : "/") : ".", NULL) : NULL;
	size_t len = strlen(real);
	bool loop = parent_real && !strncmp(parent_real, real, len)
	            && (parent_real[len] == '/' || parent_real[len] == '\0' || !strcmp(real, "/"));
	free(parent);
	free(parent_real);
	return loop;
}

static void walk_release(struct walk *w)
{
	for (size_t i = 0; i < w->root_count; i++)
		free(w->roots[i]);
	free(w->roots);
	for (size_t i = 0; i < w->searched_count; i++)
		free(w->searched[i].path);
	free(w->searched);
	for (size_t i = 0; i < w->link_count; i++)
		free(w->links[i].path);
	free(w->links);
}

static int find_folders(struct walk *w, const char *dir, int depth);

/* One entry of a folder being searched: a folder to search, a link to a folder (kept for
 * follow_links), or anything else (ignored). *too_deep set for a folder past the depth. */
static int visit_entry(struct walk *w, const char *sub, int depth, bool *too_deep)
{
	struct stat lst, st;
	if (lstat(sub, &lst) != 0 || stat(sub, &st) != 0 || !S_ISDIR(st.st_mode))
		return 0;
	if (S_ISLNK(lst.st_mode))
		return defer_link(w, sub, depth + 1);
	if (depth >= FLEET_MAX_DEPTH) {
		*too_deep = true;
		return 0;
	}
	return find_folders(w, sub, depth + 1);
}

/* Follows the links found, after the real folders (the links found on the way are appended and
 * followed in turn): each is searched only when its target lies inside the folders given, is not
 * a folder the link is in, and has not been searched already; else it is listed once with why. */
static int follow_links(struct walk *w)
{
	int rc = 0;
	while (rc == 0 && w->links_followed < w->link_count) {
		struct link l = w->links[w->links_followed++];
		char *real = realpath(l.path, NULL);
		struct stat st;
		const char *as;
		if (!real)
			rc = push_path(w->out, strdup(l.path),
			               text_printf("a link whose target cannot be resolved (%s): not "
			                           "followed", strerror(errno)));
		else if (!inside_roots(w, real))
			rc = push_path(w->out, strdup(l.path),
			               text_printf("a link to %s, outside the folders given: not "
			                           "followed; give that folder itself to include it", real));
		else if (link_is_loop(l.path, real))
			rc = push_path(w->out, strdup(l.path),
			               strdup("a link back to a folder it is in (a loop): not followed"));
		else if (stat(real, &st) == 0 && !has_file(real, "meta.json")
		         && !has_file(real, "samples.csv") && (as = searched_as(w, &st)))
			rc = push_path(w->out, strdup(l.path),
			               text_printf("a link to the same folder as %s, searched there: "
			                           "counted once", as));
		else if (l.depth > FLEET_MAX_DEPTH)
			rc = push_path(w->out, strdup(l.path),
			               text_printf("a link deeper than %d levels below the folder given: "
			                           "not followed; give a folder nearer to it",
			                           FLEET_MAX_DEPTH));
		else
			rc = find_folders(w, l.path, l.depth);
		free(real);
	}
	return rc;
}

/* A results folder holds meta.json or samples.csv; other folders are searched, down to
 * FLEET_MAX_DEPTH levels, once each (struct walk). Hidden folders (a fleet report's temporary
 * files, .git) are not. A folder that cannot be listed or searched, or whose subfolders are too
 * deep, is listed as skipped with its reason. */
static int find_folders(struct walk *w, const char *dir, int depth)
{
	if (access(dir, X_OK) != 0) /* no search permission: not even meta.json can be seen */
		return push_path(w->out, strdup(dir), access(dir, R_OK) != 0
		                 ? text_printf("cannot be listed (%s): not searched for results "
		                               "folders; make it readable", strerror(errno))
		                 : text_printf("cannot be searched (it is readable but has no search "
		                               "permission): make it searchable (chmod +x)"));
	if (has_file(dir, "meta.json") || has_file(dir, "samples.csv"))
		return push_path(w->out, strdup(dir), NULL);
	struct stat st;
	if (stat(dir, &st) != 0)
		return push_path(w->out, strdup(dir),
		                 text_printf("cannot be read (%s): not searched", strerror(errno)));
	const char *as = searched_as(w, &st);
	if (as) /* given twice, or one given inside another */
		return push_path(w->out, strdup(dir),
		                 text_printf("the same folder as %s, searched there: counted once", as));
	if (remember_searched(w, &st, dir) < 0)
		return -1;
	struct dirent **names = NULL;
	int count = scandir(dir, &names, NULL, alphasort);
	if (count < 0)
		return push_path(w->out, strdup(dir),
		                 text_printf("cannot be listed (%s): not searched for "
		                                        "results folders; make it readable",
		                                        strerror(errno)));
	int rc = 0;
	bool too_deep = false;
	for (int i = 0; i < count; i++) {
		if (rc == 0 && names[i]->d_name[0] != '.') {
			char *sub = strcmp(dir, ".") ? text_printf("%s/%s", dir, names[i]->d_name)
			                             : strdup(names[i]->d_name);
			rc = sub ? visit_entry(w, sub, depth, &too_deep) : -1;
			free(sub);
		}
		free(names[i]);
	}
	free(names);
	if (rc == 0 && too_deep)
		rc = push_path(w->out, strdup(dir),
		               text_printf("its subfolders are deeper than %d levels below "
		                                      "the folder given: not searched; give a folder "
		                                      "nearer to them", FLEET_MAX_DEPTH));
	return rc;
}

/* ---- one folder ------------------------------------------------------------------------- */

static const char *meta_str(const json_t *meta, const char *key)
{
	const char *s = report_meta_string(meta, key);
	return s && *s ? s : "unknown";
}

static const char *smt_state(const json_t *meta)
{
	const char *control = report_meta_string(meta, "smt_control");
	const char *active = report_meta_string(meta, "smt_active");
	if (control && (!strcmp(control, "notsupported") || !strcmp(control, "notimplemented")))
		return "not supported";
	if (active && !strcmp(active, "1"))
		return "on";
	if (active && !strcmp(active, "0"))
		return "off";
	return "unknown";
}

/* The measured workload's name, and the one run beside it. */
/* A name or an argument meta.json stored as bytes (text, or {"hex": ...}: text_to_json) as it
 * is shown: escaped; NULL when absent or on out of memory. */
static char *shown_bytes(const json_t *value)
{
	char *raw = text_from_json(value);
	char *shown = raw ? text_escape(raw) : NULL;
	free(raw);
	return shown;
}

static char *workload_text(const json_t *meta)
{
	json_t *w = json_object_get(meta, "workloads");
	char *a = shown_bytes(json_object_get(json_object_get(w, "a"), "name"));
	char *b = shown_bytes(json_object_get(json_object_get(w, "b"), "name"));
	char *text = b ? text_printf("%s beside %s", a ? a : "unknown", b)
	               : strdup(a ? a : "unknown");
	free(a);
	free(b);
	return text;
}

/* The run's settings that make nodes comparable besides the machine: the measured command with
 * its arguments (a kernel's iterations among them), the one beside it, --iters, the placements
 * and the names given with --name (only when given). A new reference, or NULL. */
static json_t *run_settings(const json_t *meta)
{
	json_t *w = json_object_get(meta, "workloads");
	json_t *settings = json_object_get(meta, "settings");
	json_t *out = json_pack("{s:O?, s:O?, s:O?, s:O?}",
	                        "iters", json_object_get(settings, "iters"),
	                        "placements", json_object_get(settings, "placements"),
	                        "command", json_object_get(json_object_get(w, "a"), "argv"),
	                        "beside_command", json_object_get(json_object_get(w, "b"), "argv"));
	/* run --name: the names given are part of the workload, so a folder named otherwise is
	 * another group; a folder without them keeps the key it always had. */
	json_t *names = json_object_get(settings, "name");
	if (out && json_is_array(names) && json_object_set(out, "name", names) != 0) {
		json_decref(out);
		return NULL;
	}
	/* run --one-process: one process's wall time is another measure than copies' user time,
	 * so such folders are their own group; other folders keep the key they always had. */
	if (out && json_is_true(json_object_get(settings, "one_process"))
	    && json_object_set_new(out, "one_process", json_true()) != 0) {
		json_decref(out);
		return NULL;
	}
	return out;
}

/* What must be equal for nodes to be pooled: CPU model (by the one rule, cpu_model_of_meta, so
 * that folders written before meta.json kept both sources group with newer ones), SMT state,
 * the run's settings and the comparison. */
static char *group_key(const char *cpu_model, const char *smt, const json_t *settings,
                       const char *comparison)
{
	json_t *key = json_pack("{s:s, s:s, s:O, s:s}", "cpu_model", cpu_model,
	                        "smt", smt, "settings", settings, "comparison", comparison);
	char *text = key ? json_dumps(key, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	json_decref(key);
	return text;
}

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

static char *incomplete_reason(const struct results_folder *f, const char *status)
{
	const char *kind = f->kind == FOLDER_MATRIX ? "matrix" : "run";
	json_t *done = json_object_get(f->meta, "trials_done");
	char count[64];
	if (json_is_integer(done) && json_integer_value(done) >= 0)
		snprintf(count, sizeof count, "%lld trials done",
		         (long long)json_integer_value(done));
	else
		snprintf(count, sizeof count, "trials done unknown: meta.json's trials_done is %s",
		         done ? "damaged" : "missing");
	return xasprintf("incomplete: its %s is %s (%s); continue it with smtbench %s --resume %s",
	                 kind, status ? status : "of unknown status", count, kind, f->dir);
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
	const char *status = folder_meta_string(f, "status");
	const char *command = f->kind == FOLDER_MATRIX ? "matrix" : "run";
	if (f->state == FOLDER_RUNNING && f->runner_pid)
		return xasprintf("being written: its runner (pid %ld on %s) is still running; wait for "
		                 "it to end", f->runner_pid, f->runner_host);
	if (f->state == FOLDER_KILLED)
		return xasprintf("incomplete: its runner (pid %ld on %s) was killed, and meta.json "
		                 "still says running; continue it with smtbench %s --resume %s",
		                 f->runner_pid, f->runner_host, command, f->dir);
	if (f->state != FOLDER_COMPLETE)
		return incomplete_reason(f, status);
	if (!has_file(f->dir, "samples.csv"))
		return xstrdup("no samples.csv; rerun it");
	if (f->kind == FOLDER_MATRIX) /* a matrix's rows hold every workload by design */
		return NULL;
	char *mixed = mixed_workloads(f);
	char *why = mixed ? xasprintf("samples.csv mixes measured workloads (%s): one folder must "
	                              "hold one workload's runs", mixed) : NULL;
	free(mixed);
	return why;
}

/* The normal summary of the node's log ratio. Paired: the moments of delta's posterior (the
 * mean per-block log ratio), the node's own answer. Unpaired: the two posteriors are
 * independent (separate samples), so the mean and variance of log(mu_A) and log(mu_B) add. */
void fleet_log_ratio_summary(const struct analysis_comparison *c, double *mean, double *sd)
{
	if (c->design == ANALYSIS_DESIGN_PAIRED) {
		double m = analysis_dist_mean(&c->log_ratio), v = 0;
		for (size_t i = 0; i < c->log_ratio.count; i++) {
			double e = c->log_ratio.values[i] - m;
			v += c->log_ratio.probs[i] * e * e;
		}
		*mean = m;
		*sd = sqrt(v);
		return;
	}
	const struct analysis_dist *d[2] = { &c->a.mu, &c->b.mu };
	double m[2] = { 0, 0 }, v[2] = { 0, 0 };
	for (int k = 0; k < 2; k++) {
		for (size_t i = 0; i < d[k]->count; i++)
			m[k] += d[k]->probs[i] * log(d[k]->values[i]);
		for (size_t i = 0; i < d[k]->count; i++) {
			double e = log(d[k]->values[i]) - m[k];
			v[k] += d[k]->probs[i] * e * e;
		}
	}
	*mean = m[0] - m[1];
	*sd = sqrt(v[0] + v[1]);
}

static int host_fill(struct fleet_host *h, const char *dir, const json_t *meta,
                     const struct report *rep)
{
	const struct analysis_comparison *c = report_headline_comparison(rep);
	h->dir = strdup(dir);
	h->host = text_escape(meta_str(meta, "host"));
	char *model = cpu_model_of_meta(meta);
	const char *named = model && *model ? model : "unknown";
	h->cpu_model = model ? text_escape(named) : NULL;
	h->smt = strdup(smt_state(meta));
	h->os_kernel = text_escape(meta_str(meta, "os_kernel"));
	char *workload = workload_text(meta);
	h->workload = workload ? text_escape(workload) : NULL;
	free(workload);
	char *comparison = text_printf("%s vs %s", c->a.name, c->b.name);
	h->comparison = comparison ? text_escape(comparison) : NULL;
	h->smt_question = c->kind == COMPARISON_HEADLINE;
	free(comparison);
	if (!h->comparison) {
		free(model);
		return -1;
	}
	h->settings = run_settings(meta);
	h->group_key = h->settings && model ? group_key(named, h->smt, h->settings, h->comparison)
	                                    : NULL;
	free(model);
	/* Paired, the evidence is the blocks that hold both; unpaired, the smaller group. */
	h->n = c->design == ANALYSIS_DESIGN_PAIRED ? c->blocks_paired
	                                           : c->a.n < c->b.n ? c->a.n : c->b.n;
	h->ratio_mean = c->ratio_mean;
	h->ratio_ci[0] = c->ratio_ci[0];
	h->ratio_ci[1] = c->ratio_ci[1];
	h->verdict = analysis_verdict_name(c->verdict);
	h->settled = analysis_comparison_settled(c);
	fleet_log_ratio_summary(c, &h->log_mean, &h->log_sd);
	h->loo_ci[0] = h->loo_ci[1] = NAN;
	return h->dir && h->host && h->cpu_model && h->smt && h->os_kernel && h->workload
	       && h->group_key ? 0 : -1;
}

static void host_release(struct fleet_host *h)
{
	free(h->dir);
	free(h->host);
	free(h->cpu_model);
	free(h->smt);
	free(h->os_kernel);
	free(h->workload);
	free(h->comparison);
	free(h->group_key);
	json_decref(h->settings);
}

/* One folder's outcome: a host (or a matrix node), or the reason it is skipped. */
struct outcome {
	const char *dir;           /* opened */
	const char *shown;         /* reported */
	bool usable;
	bool matrix;               /* usable as a matrix node (node), not a host */
	struct fleet_host host;
	struct fleet_matrix_node node;
	char *reason;
	int rc;                    /* -1: out of memory */
};

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

/* A matrix's folder (smtbench matrix) into a matrix node, or a skip with its reason. */
static void examine_matrix(struct outcome *o, struct results_folder *f)
{
	char err[ERR_LEN];
	struct matrix_report *rep = matrix_report_new(f, false, NAN, err, sizeof err);
	const struct analysis_matrix *m = rep ? matrix_report_matrix(rep) : NULL;
	if (!rep) {
		o->reason = strstr(err, ANALYSIS_DAMAGED)
		            ? text_printf("%s; continue it with smtbench matrix --resume, or rerun it",
		                          without_dir(err, o->dir))
		            : text_printf("cannot be analysed: %s", without_dir(err, o->dir));
	} else if (m->warning_count) {
		o->reason = text_printf(
			"samples.csv is damaged or cut short (%zu line(s) unreadable; the first: %s); "
			"continue it with smtbench matrix --resume, or rerun it", m->warning_count,
			m->warnings[0]);
	} else {
		char *model = cpu_model_of_meta(f->shown_meta);
		o->usable = o->matrix = true;
		o->rc = model ? fleet_matrix_node_fill(&o->node, o->dir, meta_str(f->shown_meta, "host"),
		                                       *model ? model : "unknown", smt_state(f->shown_meta),
		                                       meta_str(f->shown_meta, "os_kernel"), rep) : -1;
		free(model);
	}
	matrix_report_free(&rep);
}

/* Reads one folder into a host, or a skip with its reason. */
static void examine(struct outcome *o)
{
	const char *dir = o->dir;
	if (o->reason)             /* skipped before reading it */
		return;
	struct results_folder *f = folder_open(dir);
	struct report *rep = NULL;
	o->reason = meta_problem(f);
	if (o->reason)
		goto escape;   /* it may quote meta.json (jansson's message quotes the bad bytes) */
	if (f->kind == FOLDER_MATRIX) {
		examine_matrix(o, f);
		goto escape;
	}
	char err[ERR_LEN];
	rep = report_new(f, false, NAN, err, sizeof err);
	if (!rep) {
		/* the loader's message starts with the folder ("DIR: ..." or "DIR/samples.csv:1:
		 * ..."), already named in the list */
		const char *why_not = without_dir(err, dir);
		o->reason = strstr(err, ANALYSIS_DAMAGED)
		            ? text_printf("%s; continue it with smtbench run --resume, or rerun it",
		                          why_not)
		            : text_printf("%s: %s", strstr(err, "no two placements")
		                          ? "no comparison" : "cannot be analysed", why_not);
	} else if (report_dataset(rep)->warning_count) {
		const struct analysis_dataset *data = report_dataset(rep);
		o->reason = text_printf(
			"samples.csv is damaged or cut short (%zu line(s) unreadable; the first: %s); "
			"continue it with smtbench run --resume, or rerun it", data->warning_count,
			data->warnings[0]);
	} else {
		o->usable = true;
		o->rc = host_fill(&o->host, dir, f->shown_meta, rep);
	}
escape:
	if (o->reason) { /* it may quote meta.json or samples.csv */
		char *clean = text_escape(o->reason);
		free(o->reason);
		o->reason = clean;
	}
	if (!o->usable && !o->reason)
		o->rc = -1;
	report_free(&rep);
	folder_free(&f);
}

/* Folders are read and analysed in parallel (each one alone: report_new shares nothing), one
 * worker per online CPU; the outcomes keep the folders' order. */
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

/* Moves the outcomes into the fleet, in order. */
static int collect(struct fleet *f, struct outcome *outcomes, size_t count)
{
	int rc = 0;
	f->hosts = calloc(count ? count : 1, sizeof *f->hosts);
	f->matrix_nodes = calloc(count ? count : 1, sizeof *f->matrix_nodes);
	f->skipped = calloc(count ? count : 1, sizeof *f->skipped);
	if (!f->hosts || !f->matrix_nodes || !f->skipped)
		rc = -1;
	for (size_t i = 0; i < count; i++) {
		struct outcome *o = &outcomes[i];
		if (o->rc < 0)
			rc = -1;
		if (rc == 0 && o->usable && o->matrix) {
			f->matrix_nodes[f->matrix_node_count++] = o->node;
		} else if (rc == 0 && o->usable) {
			f->hosts[f->host_count++] = o->host;
		} else if (rc == 0 && o->reason && (f->skipped[f->skipped_count].dir = strdup(o->shown))) {
			f->skipped[f->skipped_count++].reason = o->reason;
		} else {
			if (o->usable && o->matrix)
				fleet_matrix_node_release(&o->node);
			else if (o->usable)
				host_release(&o->host);
			free(o->reason);
			rc = -1;
		}
	}
	return rc;
}

/* ---- groups ------------------------------------------------------------------------------ */

static struct fleet_group *group_for(struct fleet *f, const struct fleet_host *h)
{
	for (size_t g = 0; g < f->group_count; g++)
		if (!strcmp(f->groups[g].key, h->group_key))
			return &f->groups[g];
	struct fleet_group *grown = realloc(f->groups, (f->group_count + 1) * sizeof *grown);
	if (!grown)
		return NULL;
	f->groups = grown;
	struct fleet_group *g = &grown[f->group_count];
	memset(g, 0, sizeof *g);
	f->group_count++;
	g->cpu_model = strdup(h->cpu_model);
	g->smt = strdup(h->smt);
	g->workload = strdup(h->workload);
	g->comparison = strdup(h->comparison);
	g->smt_question = h->smt_question;
	g->key = strdup(h->group_key);
	g->settings = json_incref(h->settings);
	g->hosts = calloc(f->host_count, sizeof *g->hosts);
	if (!g->cpu_model || !g->smt || !g->workload || !g->comparison || !g->key || !g->hosts)
		return NULL;
	return g;
}

/* Pools a group's settled nodes and checks each of them against the others. */
static int pool_group(struct fleet *f, struct fleet_group *g)
{
	size_t n = 0, cap = g->host_count ? g->host_count : 1;
	double *m = malloc(cap * sizeof *m), *s = malloc(cap * sizeof *s);
	double *lo = malloc(cap * sizeof *lo), *hi = malloc(cap * sizeof *hi);
	double *loo = malloc(2 * cap * sizeof *loo);
	bool *out = malloc(cap * sizeof *out);
	size_t *which = malloc(cap * sizeof *which);
	int rc = -1;
	if (!m || !s || !lo || !hi || !loo || !out || !which)
		goto done;
	for (size_t k = 0; k < g->host_count; k++) {
		const struct fleet_host *h = &f->hosts[g->hosts[k]];
		if (!h->settled || !(h->log_sd > 0) || !isfinite(h->log_sd) || !isfinite(h->log_mean))
			continue;
		m[n] = h->log_mean;
		s[n] = h->log_sd;
		lo[n] = log(h->ratio_ci[0]);
		hi[n] = log(h->ratio_ci[1]);
		which[n++] = g->hosts[k];
	}
	if (fleet_pool(m, s, n, &g->pooled) < 0 || fleet_outliers(m, s, lo, hi, n, out, loo) < 0)
		goto done;
	for (size_t k = 0; k < n; k++) {
		struct fleet_host *h = &f->hosts[which[k]];
		h->pooled = true;
		h->outlier = out[k];
		h->loo_known = !isnan(loo[2 * k]);
		h->loo_ci[0] = exp(loo[2 * k]);
		h->loo_ci[1] = exp(loo[2 * k + 1]);
	}
	rc = 0;
done:
	free(m);
	free(s);
	free(lo);
	free(hi);
	free(loo);
	free(out);
	free(which);
	return rc;
}

/* "command nop 1000000; placements non-sibling, solo": a group's settings in words. */
static char *settings_words(const json_t *settings)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	if (!out)
		return NULL;
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
	if (fclose(out) != 0) {
		free(text);
		return NULL;
	}
	char *clean = text_escape(text);
	free(text);
	return clean;
}

/* Groups that the title (CPU model, SMT, workload, comparison) would not tell apart (they differ
 * in --iters, arguments or placements) get their settings in words for the title. */
static int name_settings(struct fleet *f)
{
	for (size_t a = 0; a < f->group_count; a++)
		for (size_t b = 0; b < f->group_count; b++) {
			struct fleet_group *g = &f->groups[a];
			const struct fleet_group *o = &f->groups[b];
			if (a == b || g->settings_text || strcmp(g->cpu_model, o->cpu_model)
			    || strcmp(g->smt, o->smt) || strcmp(g->workload, o->workload)
			    || strcmp(g->comparison, o->comparison))
				continue;
			if (!(g->settings_text = settings_words(g->settings)))
				return -1;
		}
	return 0;
}

static int build_groups(struct fleet *f)
{
	for (size_t i = 0; i < f->host_count; i++) {
		struct fleet_group *g = group_for(f, &f->hosts[i]);
		if (!g)
			return -1;
		g->hosts[g->host_count++] = i;
	}
	for (size_t g = 0; g < f->group_count; g++)
		if (pool_group(f, &f->groups[g]) < 0)
			return -1;
	return name_settings(f);
}

static int compare_paths(const void *pa, const void *pb)
{
	const struct found *a = pa, *b = pb;
	return strcmp(a->path, b->path);
}

/* How many of the path's components are symbolic links. */
static size_t links_in(const char *path)
{
	char *prefix = strdup(path);
	size_t links = 0;
	for (char *cut = prefix; cut && *cut;) {
		char *slash = strchr(cut + (*cut == '/'), '/');
		if (slash)
			*slash = '\0';
		struct stat st;
		links += lstat(prefix, &st) == 0 && S_ISLNK(st.st_mode);
		if (slash)
			*slash = '/';
		cut = slash;
	}
	free(prefix);
	return links;
}

/* The same folder found twice (through a link, or given twice) is read once: through the path
 * with the fewest links (the first of those, in path order); each other path to it is skipped,
 * naming that one. */
static int mark_duplicates(struct paths *found)
{
	for (size_t i = 0; i < found->count; i++) {
		struct found *it = &found->items[i];
		if (it->reason || !it->ino)
			continue;
		size_t keep = i, fewest = links_in(it->path);
		for (size_t k = i + 1; k < found->count; k++) {
			const struct found *other = &found->items[k];
			size_t links;
			if (!other->reason && other->dev == it->dev && other->ino == it->ino
			    && (links = links_in(other->path)) < fewest) {
				keep = k;
				fewest = links;
			}
		}
		for (size_t k = i; k < found->count; k++) {
			struct found *other = &found->items[k];
			if (k == keep || other->reason || other->dev != it->dev || other->ino != it->ino)
				continue;
			other->reason = text_printf("same folder as %s (a link, or given "
			                                       "twice): counted once",
			                                       found->items[keep].shown);
			if (!other->reason)
				return -1;
		}
	}
	return 0;
}

/* One folder given on the command line, searched for results folders. 0; -1 on out of memory;
 * -2 with err when it is not a folder that can be read (a usage error). */
static int search_given(struct walk *w, const char *dir, char *err, size_t err_size)
{
	if (!is_dir(dir)) {
		set_error(err, err_size, "%s is not a directory; give the folder the runs wrote into "
		          "(FLEET_DIR)", dir);
		return -2;
	}
	DIR *readable = opendir(dir);
	if (!readable) {
		set_error(err, err_size, "%s cannot be read (%s); give a folder you can read", dir,
		          strerror(errno));
		return -2;
	}
	closedir(readable);
	char *trimmed = strdup(dir);
	if (!trimmed)
		return -1;
	for (size_t len = strlen(trimmed); len > 1 && trimmed[len - 1] == '/'; len--)
		trimmed[len - 1] = '\0';
	/* "./x" is shown as "x", the way a person would type it */
	if (!strncmp(trimmed, "./", 2) && trimmed[2])
		memmove(trimmed, trimmed + 2, strlen(trimmed + 2) + 1);
	int rc = find_folders(w, trimmed, 0);
	free(trimmed);
	return rc;
}

struct fleet *fleet_load(char *const *dirs, size_t count, char *err, size_t err_size)
{
	struct paths found = { NULL, 0 };
	struct fleet *f = NULL;
	struct walk walk = { .out = &found, .roots = calloc(count ? count : 1, sizeof(char *)) };
	if (!walk.roots)
		goto oom;
	for (size_t i = 0; i < count; i++)
		if ((walk.roots[walk.root_count] = realpath(dirs[i], NULL)))
			walk.root_count++;
	for (size_t i = 0; i < count; i++) {
		int rc = search_given(&walk, dirs[i], err, err_size);
		if (rc == -2)
			goto fail;
		if (rc < 0)
			goto oom;
	}
	if (follow_links(&walk) < 0)
		goto oom;
	if (found.count) /* none found: items is NULL, which qsort may not be given */
		qsort(found.items, found.count, sizeof *found.items, compare_paths);
	if (!(f = calloc(1, sizeof *f)))
		goto oom;
	struct outcome *outcomes = calloc(found.count ? found.count : 1, sizeof *outcomes);
	if (!outcomes)
		goto oom;
	if (mark_duplicates(&found) < 0)
		goto oom;
	for (size_t i = 0; i < found.count; i++) {
		struct found *it = &found.items[i];
		outcomes[i] = (struct outcome){ .dir = it->path, .shown = it->shown,
		                                .reason = it->reason };
		it->reason = NULL; /* the outcome's now */
	}
	examine_all(outcomes, found.count);
	int rc = collect(f, outcomes, found.count);
	free(outcomes);
	if (rc < 0 || build_groups(f) < 0 || fleet_matrix_build_groups(f) < 0)
		goto oom;
	paths_release(&found);
	walk_release(&walk);
	return f;
oom:
	set_error(err, err_size, "out of memory");
fail:
	paths_release(&found);
	walk_release(&walk);
	fleet_free(&f);
	return NULL;
}

void fleet_free(struct fleet **p)
{
	if (!p || !*p)
		return;
	struct fleet *f = *p;
	for (size_t i = 0; i < f->host_count; i++)
		host_release(&f->hosts[i]);
	free(f->hosts);
	for (size_t g = 0; g < f->group_count; g++) {
		struct fleet_group *gr = &f->groups[g];
		free(gr->cpu_model);
		free(gr->smt);
		free(gr->workload);
		free(gr->comparison);
		free(gr->key);
		json_decref(gr->settings);
		free(gr->settings_text);
		free(gr->hosts);
	}
	free(f->groups);
	for (size_t i = 0; i < f->skipped_count; i++) {
		free(f->skipped[i].dir);
		free(f->skipped[i].reason);
	}
	free(f->skipped);
	fleet_matrix_release(f);
	free(f);
	*p = NULL;
}
