#include "runner/meta.h"

#include <err.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runner/util.h"

static void utc_now(char *out, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static json_t *string_or_null(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

static json_t *string_array(char *const *argv)
{
	if (!argv)
		return json_null();
	json_t *a = json_array();
	for (; *argv; argv++)
		json_array_append_new(a, json_string(*argv));
	return a;
}

static json_t *pair_json(const struct topo_pair *pair)
{
	json_t *pus = json_array();
	for (int i = 0; i < pair->npus; i++)
		json_array_append_new(pus, json_integer(pair->pus[i]));
	json_t *o = json_pack("{s:s, s:o, s:o}", "name", placement_name(pair->placement), "pus", pus,
	                      "shares", string_or_null(pair->shares));
	if (pair->core >= 0)
		json_object_set_new(o, "core", json_integer(pair->core));
	return o;
}

static json_t *workload_json(const struct workload *w)
{
	if (!w->argv)
		return json_null();
	return json_pack("{s:s, s:s, s:o, s:b}", "name", w->name, "path", w->path, "argv",
	                 string_array(w->argv), "kernel", w->is_kernel);
}

/* The trial time limit as it stands at the start: given, none, or automatic (limit_s until the
 * warm-up calibrates it: meta_set_trial_timeout). */
static json_t *trial_timeout_json(const struct experiment *e)
{
	if (e->trial_timeout_s == 0)
		return json_pack("{s:s, s:n}", "rule", "none (--trial-timeout 0)", "limit_s");
	if (e->trial_timeout_s > 0)
		return json_pack("{s:s, s:f}", "rule", "--trial-timeout", "limit_s", e->trial_timeout_s);
	char rule[160];
	snprintf(rule, sizeof rule, "automatic: %g x the slowest warm-up trial's wall time, at "
	         "least %g s; %g s until the warm-up has run", TRIAL_TIMEOUT_FACTOR,
	         TRIAL_TIMEOUT_MIN_S, TRIAL_TIMEOUT_UNCALIBRATED_S);
	return json_pack("{s:s, s:f}", "rule", rule, "limit_s", TRIAL_TIMEOUT_UNCALIBRATED_S);
}

json_t *meta_new(const struct experiment *e, const struct topo_info *info)
{
	struct topo_machine facts;
	topo_machine_read(&facts);
	char created[32];
	utc_now(created, sizeof created);

	json_t *placements = json_array(), *skipped = json_array(), *names = json_array();
	for (int i = 0; i < e->plan.nplacements; i++) {
		enum placement p = e->plan.placements[i];
		json_array_append_new(placements, pair_json(&e->pairs[p]));
		json_array_append_new(names, json_string(placement_name(p)));
	}
	for (int p = 0; p < PLACEMENT_COUNT; p++)
		if (e->skipped_reason[p][0])
			json_array_append_new(skipped,
			                      json_pack("{s:s, s:s}", "name", placement_name(p), "reason",
			                                e->skipped_reason[p]));

	json_t *pair = e->have_pair ? json_pack("[i, i]", e->pair[0], e->pair[1]) : json_null();
	/* settings.trial_timeout_s as given: null for automatic, 0 for none. */
	json_t *timeout = e->trial_timeout_s >= 0 ? json_real(e->trial_timeout_s) : json_null();
	json_t *settings = json_pack(
		"{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:I, s:o, s:o}",
		"kernel", string_or_null(e->kernel),
		"beside_kernel", string_or_null(e->beside_kernel),
		"iters", e->iters ? json_integer((json_int_t)e->iters) : json_null(),
		"beside_iters", e->beside_iters ? json_integer((json_int_t)e->beside_iters) : json_null(),
		"command", e->kernel ? json_null() : string_array(e->a.argv),
		"beside_command", e->beside_kernel ? json_null() : string_array(e->b.argv),
		"trials", e->trials >= 0 ? json_integer(e->trials) : json_null(),
		"duration_s", e->duration_s > 0 ? json_real(e->duration_s) : json_null(),
		"warmup", (json_int_t)e->warmup,
		"placements", names,
		"pair", pair);
	json_object_set_new(settings, "trial_timeout_s", timeout);

	json_t *cpu_kinds = json_array();
	for (int i = 0; i < info->nkinds; i++)
		json_array_append_new(cpu_kinds,
		                      json_pack("{s:s, s:i, s:i, s:i}", "name", info->kinds[i].name,
		                                "cores", info->kinds[i].cores, "pus", info->kinds[i].pus,
		                                "max_threads_per_core",
		                                info->kinds[i].max_threads_per_core));

	struct topo_cpu_quota quota;
	topo_cpu_quota(&quota);
	json_t *meta = json_pack(
		"{s:s, s:s, s:o, s:s, s:o, s:o, s:o, s:s, s:o, s:o, s:o, s:b, s:o, s:o,"
		" s:{s:i, s:i, s:i, s:i, s:o}, s:o, s:o, s:I, s:o, s:o, s:{s:s, s:o, s:o}, s:o, s:s, s:I}",
		"tool", "smtbench",
		"version", SMTBENCH_VERSION,
		"command_line", string_array(e->command_line),
		"created_utc", created,
		"host", string_or_null(facts.host),
		"os_kernel", string_or_null(facts.os_kernel),
		"cpu_model", string_or_null(facts.cpu_model[0] ? facts.cpu_model : info->cpu_model),
		"hwloc_version", topo_hwloc_version(),
		"smt_control", string_or_null(facts.smt_control),
		"smt_active", string_or_null(facts.smt_active),
		"governor", string_or_null(facts.governor),
		"virtual_machine", info->virtual_machine,
		"cpu_quota", quota.cpus > 0 ? json_pack("{s:f, s:s}", "cpus", quota.cpus, "source",
		                                        quota.source) : json_null(),
		"hypervisor", string_or_null(info->hypervisor),
		"topology", "pus", info->pus, "cores", info->cores, "packages", info->packages,
		"max_threads_per_core", info->max_threads_per_core, "cpu_kinds", cpu_kinds,
		"placements", placements,
		"skipped_placements", skipped,
		"seed", (json_int_t)e->plan.seed,
		"settings", settings,
		"workloads", json_pack("{s:o, s:o}", "a", workload_json(&e->a), "b",
		                       workload_json(&e->b)),
		"plan", "order", "randomized complete blocks, order per block from (seed, block)",
		"trials_per_block", json_integer(e->plan.nplacements),
		"total_trials", plan_total_trials(&e->plan) >= 0
		                ? json_integer(plan_total_trials(&e->plan)) : json_null(),
		"segments", json_array(),
		"status", "running",
		"trials_done", (json_int_t)0);
	if (!meta)
		errx(EXIT_FAILURE_RUNTIME, "internal error: cannot build meta.json");
	json_object_set_new(meta, "trial_timeout", trial_timeout_json(e));
	return meta;
}

void meta_begin_segment(json_t *meta, long first_trial)
{
	char now[32];
	utc_now(now, sizeof now);
	json_array_append_new(json_object_get(meta, "segments"),
	                      json_pack("{s:s, s:I}", "started_utc", now, "first_trial",
	                                (json_int_t)first_trial));
	json_object_set_new(meta, "status", json_string("running"));
}

void meta_end_segment(json_t *meta, long trials_done, const char *status)
{
	char now[32];
	utc_now(now, sizeof now);
	json_t *segments = json_object_get(meta, "segments");
	json_t *last = json_array_get(segments, json_array_size(segments) - 1);
	if (last) {
		json_object_set_new(last, "ended_utc", json_string(now));
		json_object_set_new(last, "trials_done", json_integer(trials_done));
		json_object_set_new(last, "status", json_string(status));
	}
	json_object_set_new(meta, "status", json_string(status));
	json_object_set_new(meta, "trials_done", json_integer(trials_done));
}

void meta_set_interrupt(json_t *meta, int signal_number)
{
	json_t *segments = json_object_get(meta, "segments");
	json_t *last = json_array_get(segments, json_array_size(segments) - 1);
	if (last)
		json_object_set_new(last, "signal", json_string(sigabbrev_np(signal_number)
		                                                ? sigabbrev_np(signal_number) : "?"));
}

void meta_set_trial_timeout(json_t *meta, double limit_s, double slowest_s)
{
	json_t *t = json_object_get(meta, "trial_timeout");
	if (!json_is_object(t))
		return;
	json_object_set_new(t, "limit_s", json_real(limit_s));
	json_object_set_new(t, "slowest_warmup_trial_s", json_real(slowest_s));
}

int meta_save(const json_t *meta, const char *dir, char *err, size_t err_size)
{
	char *text = json_dumps(meta, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (!text) {
		set_error(err, err_size, "cannot serialise meta.json");
		return -1;
	}
	size_t len = strlen(text);
	text = xrealloc(text, len + 2);
	text[len++] = '\n';
	text[len] = '\0';
	int rc = store_write_file(dir, "meta.json", text, len, err, err_size);
	free(text);
	return rc;
}

/* --- reading it back for --resume --- */

static char **string_array_copy(const json_t *a)
{
	if (!json_is_array(a) || json_array_size(a) == 0)
		return NULL;
	size_t n = json_array_size(a);
	char **argv = xcalloc(n + 1, sizeof *argv);
	for (size_t i = 0; i < n; i++) {
		const char *s = json_string_value(json_array_get(a, i));
		argv[i] = xstrdup(s ? s : "");
	}
	return argv;
}

static int load_settings(const char *dir, const json_t *settings, struct experiment *e,
                         char *err, size_t err_size);
static int load_placements(const char *dir, const json_t *placements, struct experiment *e,
                           char *err, size_t err_size);

int meta_load(const char *dir, struct experiment *e, char *err, size_t err_size)
{
	char *text = store_read_file(dir, "meta.json", err, err_size);
	if (!text)
		return -1;
	json_error_t jerr;
	json_t *meta = json_loads(text, 0, &jerr);
	free(text);
	if (!meta) {
		set_error(err, err_size, "%s/meta.json:%d: not valid JSON: %s", dir, jerr.line,
		          jerr.text);
		return -1;
	}
	e->meta = meta;
	json_t *settings = json_object_get(meta, "settings");
	json_t *seed = json_object_get(meta, "seed");
	json_t *placements = json_object_get(meta, "placements");
	if (!json_is_object(settings) || !json_is_integer(seed) || !json_is_array(placements)
	    || json_array_size(placements) == 0) {
		set_error(err, err_size,
		          "%s/meta.json lacks its settings, seed or placements; it cannot be resumed",
		          dir);
		return -1;
	}
	if (load_settings(dir, settings, e, err, err_size) != 0)
		return -1;
	e->plan.seed = (uint64_t)json_integer_value(seed);
	e->plan.warmup_blocks = e->warmup;
	e->plan.measured_blocks = e->trials;
	return load_placements(dir, placements, e, err, err_size);
}

/* meta.json's settings into e: the workload, the counts, the pair. */
static int load_settings(const char *dir, const json_t *settings, struct experiment *e,
                         char *err, size_t err_size)
{
	const char *kernel = json_string_value(json_object_get(settings, "kernel"));
	const char *beside = json_string_value(json_object_get(settings, "beside_kernel"));
	e->kernel = kernel ? xstrdup(kernel) : NULL;
	e->beside_kernel = beside ? xstrdup(beside) : NULL;
	e->iters = (unsigned long)json_integer_value(json_object_get(settings, "iters"));
	e->beside_iters = (unsigned long)json_integer_value(json_object_get(settings, "beside_iters"));
	if (beside && e->beside_iters == 0)
		e->beside_iters = e->iters;
	json_t *trials = json_object_get(settings, "trials");
	e->trials = json_is_integer(trials) ? (long)json_integer_value(trials) : -1;
	e->duration_s = json_number_value(json_object_get(settings, "duration_s"));
	e->warmup = (long)json_integer_value(json_object_get(settings, "warmup"));
	if (!kernel) {
		e->a.argv = string_array_copy(json_object_get(settings, "command"));
		if (!e->a.argv) {
			set_error(err, err_size,
			          "%s/meta.json: settings name neither a kernel nor a command", dir);
			return -1;
		}
	}
	if (!beside)
		e->b.argv = string_array_copy(json_object_get(settings, "beside_command"));
	if ((e->trials < 1 && e->duration_s <= 0) || e->warmup < 0 || (kernel && e->iters == 0)) {
		set_error(err, err_size,
		          "%s/meta.json: settings trials/duration_s, warmup or iters are missing or "
		          "out of range", dir);
		return -1;
	}
	/* Missing (an older folder) or null: automatic. */
	json_t *timeout = json_object_get(settings, "trial_timeout_s");
	e->trial_timeout_s = json_is_number(timeout) ? json_number_value(timeout) : -1;
	if (json_is_number(timeout)
	    && !(e->trial_timeout_s >= 0 && e->trial_timeout_s <= TRIAL_TIMEOUT_MAX_S)) {
		set_error(err, err_size, "%s/meta.json: settings.trial_timeout_s is out of range "
		          "(0 to %g seconds, or null)", dir, TRIAL_TIMEOUT_MAX_S);
		return -1;
	}
	json_t *pair = json_object_get(settings, "pair");
	if (json_is_array(pair) && json_array_size(pair) == 2) {
		e->have_pair = true;
		e->pair[0] = (int)json_integer_value(json_array_get(pair, 0));
		e->pair[1] = (int)json_integer_value(json_array_get(pair, 1));
	}
	return 0;
}

/* meta.json's placements, each with its CPUs and what they share, into e's plan and pairs. */
static int load_placements(const char *dir, const json_t *placements, struct experiment *e,
                           char *err, size_t err_size)
{
	e->plan.nplacements = 0;
	for (size_t i = 0; i < json_array_size(placements); i++) {
		json_t *entry = json_array_get(placements, i);
		const char *name = json_string_value(json_object_get(entry, "name"));
		json_t *pus = json_object_get(entry, "pus");
		enum placement p;
		if (!name || placement_parse(name, &p) != 0 || !json_is_array(pus)
		    || (int)json_array_size(pus) != placement_nprocs(p) || i >= PLACEMENT_COUNT) {
			set_error(err, err_size, "%s/meta.json: placements[%zu] is not a valid "
			          "placement with its CPUs", dir, i);
			return -1;
		}
		struct topo_pair *tp = &e->pairs[p];
		memset(tp, 0, sizeof *tp);
		tp->placement = p;
		tp->available = true;
		tp->npus = placement_nprocs(p);
		tp->pus[0] = (int)json_integer_value(json_array_get(pus, 0));
		tp->pus[1] = tp->npus > 1 ? (int)json_integer_value(json_array_get(pus, 1)) : -1;
		json_t *core = json_object_get(entry, "core");
		tp->core = json_is_integer(core) ? (int)json_integer_value(core) : -1;
		const char *shares = json_string_value(json_object_get(entry, "shares"));
		snprintf(tp->shares, sizeof tp->shares, "%s", shares ? shares : "");
		e->plan.placements[e->plan.nplacements++] = p;
	}
	return 0;
}
