#include "runner/meta.h"
#include "runner/precision.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/samples_csv.h"
#include "common/text.h"
#include "runner/matrix.h"
#include "common/alloc.h"
#include "common/fileio.h"

/* Strings from the system or the user are bytes: stored so that they come back exactly, even
 * when they are not UTF-8 (text_to_json). A string that cannot be stored would make meta.json
 * fail to build, or (before) an argument silently dropped, so that --resume ran another command. */
static json_t *stored(const char *s)
{
	json_t *j = text_to_json(s);
	if (!j)
		text_errx(EXIT_FAILURE_RUNTIME, "out of memory building meta.json");
	return j;
}

static json_t *string_or_null(const char *s)
{
	return s && *s ? stored(s) : json_null();
}

/* A setting or measurement that is null when not asked for (0). */
static json_t *positive_or_null(double v)
{
	return v > 0 ? json_real(v) : json_null();
}

static json_t *pair_json(const struct topo_pair *pair)
{
	json_t *pus = json_array();
	for (int i = 0; i < pair->npus; i++)
		json_array_append_new(pus, json_integer(pair->pus[i]));
	/* The CPU kind its PUs were chosen within (a machine of several kinds; else null), and
	 * whether they mix kinds (topology.h). */
	return json_pack("{s:s, s:o, s:o, s:o*, s:o, s:b}", "name", placement_name(pair->placement),
	                 "pus", pus, "shares", string_or_null(pair->shares),
	                 "core", pair->core >= 0 ? json_integer(pair->core) : NULL,
	                 "cpu_kind", string_or_null(pair->kind), "mixed_kinds", pair->mixed_kinds);
}

static json_t *workload_json(const struct workload *w)
{
	if (!w->argv)
		return json_null();
	return json_pack("{s:o, s:o, s:s, s:o, s:b}", "name", stored(w->name), "path",
	                 stored(w->path), "sha256", w->sha256, "argv", workload_argv_json(w->argv),
	                 "kernel", w->is_kernel);
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

/* The run's placements (name, pus, shares), their names in run order (for settings) and the
 * ones asked for but skipped, with why. */
static void placements_json(const struct experiment *e, json_t **placements, json_t **names,
                            json_t **skipped)
{
	*placements = json_array();
	*names = json_array();
	*skipped = json_array();
	for (int i = 0; i < e->plan.nplacements; i++) {
		enum placement p = e->plan.placements[i];
		json_array_append_new(*placements, pair_json(&e->pairs[p]));
		json_array_append_new(*names, json_string(placement_name(p)));
	}
	for (int p = 0; p < PLACEMENT_COUNT; p++)
		if (e->skipped_reason[p][0])
			json_array_append_new(*skipped,
			                      json_pack("{s:s, s:o}", "name", placement_name(p), "reason",
			                                stored(e->skipped_reason[p])));
}

/* settings.name: --name as given ([A] or [A, B]), null when the workloads have their own names. */
static json_t *names_json(const struct experiment *e)
{
	if (!e->a.named)
		return json_null();
	return e->b.named ? json_pack("[s, s]", e->a.name, e->b.name) : json_pack("[s]", e->a.name);
}

/* settings: what was asked for, as --resume reads it back (meta_load). Takes names. The trial
 * length asked for and the precision target (issue 11) come last. */
static json_t *settings_json(const struct experiment *e, json_t *names)
{
	return json_pack(
		"{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:I, s:o, s:o, s:o, s:o, s:b, s:o, s:o}",
		"kernel", string_or_null(e->kernel),
		"beside_kernel", string_or_null(e->beside_kernel),
		"iters", e->iters ? json_integer((json_int_t)e->iters) : json_null(),
		"beside_iters", e->beside_iters ? json_integer((json_int_t)e->beside_iters) : json_null(),
		"command", e->kernel ? json_null() : workload_argv_json(e->a.argv),
		"beside_command", e->beside_kernel ? json_null() : workload_argv_json(e->b.argv),
		"trials", e->plan.measured_blocks >= 0 ? json_integer(e->plan.measured_blocks)
		                                       : json_null(),
		"duration_s", positive_or_null(e->duration_s),
		"warmup", (json_int_t)e->plan.warmup_blocks,
		"placements", names,
		"pair", e->have_pair ? json_pack("[i, i]", e->pair[0], e->pair[1]) : json_null(),
		/* as given: null for automatic, 0 for none */
		"trial_timeout_s", e->trial_timeout_s >= 0 ? json_real(e->trial_timeout_s) : json_null(),
		"name", names_json(e),
		"one_process", e->one_process,
		"trial_time_s", positive_or_null(e->trial_time_s),
		"precision_pct", positive_or_null(e->precision_pct));
}

/* topology: the machine's shape, with its CPU kinds (two on hybrids). */
static json_t *topology_json(const struct topo_info *info)
{
	json_t *cpu_kinds = json_array();
	for (int i = 0; i < info->nkinds; i++)
		json_array_append_new(cpu_kinds,
		                      json_pack("{s:o, s:i, s:i, s:i}", "name", stored(info->kinds[i].name),
		                                "cores", info->kinds[i].cores, "pus", info->kinds[i].pus,
		                                "max_threads_per_core",
		                                info->kinds[i].max_threads_per_core));
	return json_pack("{s:i, s:i, s:i, s:i, s:o}", "pus", info->pus, "cores", info->cores,
	                 "packages", info->packages, "max_threads_per_core",
	                 info->max_threads_per_core, "cpu_kinds", cpu_kinds);
}

static json_t *quota_json(void)
{
	struct topo_cpu_quota quota;
	topo_cpu_quota(&quota);
	return quota.cpus > 0 ? json_pack("{s:f, s:o}", "cpus", quota.cpus, "source",
	                                  stored(quota.source)) : json_null();
}

/* workload_stderr_log: its cap, and whether a run cut it there. */
static json_t *stderr_log_json(bool cut)
{
	return json_pack("{s:I, s:b}", "cap_bytes", (json_int_t)WORKLOAD_STDERR_MAX_BYTES, "cut", cut);
}

json_t *meta_new(const struct experiment *e, const struct topo_info *info)
{
	struct topo_machine facts;
	topo_machine_read(&facts);
	char created[32];
	trial_utc_now(TRIAL_UTC, created, sizeof created);
	json_t *placements, *names, *skipped;
	placements_json(e, &placements, &names, &skipped);
	json_t *meta = json_pack(
		"{s:s, s:s, s:o, s:s, s:o, s:o, s:o, s:o, s:s, s:o, s:o, s:o, s:b, s:o, s:o,"
		" s:o, s:o, s:o, s:I, s:o, s:o, s:{s:s, s:o, s:o}, s:o, s:s, s:I,"
		" s:{s:o, s:o}, s:n, s:s, s:o, s:o, s:o*}",
		"tool", "smtbench",
		"version", SMTBENCH_VERSION,
		"command_line", workload_argv_json(e->command_line),
		"created_utc", created,
		"host", string_or_null(facts.host),
		"os_kernel", string_or_null(facts.os_kernel),
		/* The one rule's choice (common/cpu_model.h), and both sources as read. */
		"cpu_model", string_or_null(info->cpu_model),
		"cpu_model_sources", json_pack("{s:o, s:o}",
		                               "hwloc", string_or_null(info->cpu_model_hwloc),
		                               "proc_cpuinfo", string_or_null(info->cpu_model_proc)),
		"hwloc_version", topo_hwloc_version(),
		"smt_control", string_or_null(facts.smt_control),
		"smt_active", string_or_null(facts.smt_active),
		"governor", string_or_null(facts.governor),
		"virtual_machine", info->virtual_machine,
		"cpu_quota", quota_json(),
		"hypervisor", string_or_null(info->hypervisor),
		"topology", topology_json(info),
		"placements", placements,
		"skipped_placements", skipped,
		"seed", (json_int_t)e->plan.seed,
		"settings", settings_json(e, names),
		"workloads", json_pack("{s:o, s:o}", "a", workload_json(&e->a), "b",
		                       workload_json(&e->b)),
		"plan", "order", "randomized complete blocks, order per block from (seed, block)",
		"trials_per_block", json_integer(plan_block_size(&e->plan)),
		"total_trials", plan_total_trials(&e->plan) >= 0
		                ? json_integer(plan_total_trials(&e->plan)) : json_null(),
		"segments", json_array(),
		"status", "running",
		"trials_done", (json_int_t)0,
		/* what calibration found (null for a count given with --iters, and for a command) */
		"calibration", "a", calibration_to_json(&e->cal_a), "b", calibration_to_json(&e->cal_b),
		"stop_reason", /* null until the run stops */
		/* What the analysis compares by default: one process's wall time, or each copy's user
		 * time (samples_csv.h). */
		"metric", e->one_process ? SAMPLES_METRIC_WALL : SAMPLES_METRIC_USER,
		"trial_timeout", trial_timeout_json(e),
		"workload_stderr_log", stderr_log_json(false),
		/* smtbench matrix: its kernels and cells (runner/matrix.h) */
		"matrix", e->plan.ncells > 0 ? matrix_meta_json(e) : NULL);
	if (!meta)
		text_errx(EXIT_FAILURE_RUNTIME, "internal error: cannot build meta.json");
	return meta;
}

void meta_set_workload_stderr_cut(json_t *meta)
{
	json_object_set_new(meta, "workload_stderr_log", stderr_log_json(true));
}

/* The segment this runner writes: the last one. */
static json_t *last_segment(json_t *meta)
{
	json_t *segments = json_object_get(meta, "segments");
	return json_array_get(segments, json_array_size(segments) - 1);
}

void meta_begin_segment(json_t *meta, long first_trial)
{
	char now[32];
	trial_utc_now(TRIAL_UTC, now, sizeof now);
	json_t *segment = json_pack("{s:s, s:I}", "started_utc", now, "first_trial",
	                            (json_int_t)first_trial);
	folder_mark_runner(segment); /* who writes it: a reader tells a killed run by it */
	json_array_append_new(json_object_get(meta, "segments"), segment);
	json_object_set_new(meta, "status", json_string("running"));
}

void meta_end_segment(json_t *meta, long trials_done, const char *status,
                      const char *stop_reason)
{
	char now[32];
	trial_utc_now(TRIAL_UTC, now, sizeof now);
	json_t *last = last_segment(meta);
	if (last)
		json_object_update_new(last, json_pack("{s:s, s:I, s:s}", "ended_utc", now,
		                                       "trials_done", (json_int_t)trials_done,
		                                       "status", status));
	json_object_update_new(meta, json_pack("{s:s, s:I, s:o}", "status", status, "trials_done",
	                                       (json_int_t)trials_done, "stop_reason",
	                                       stop_reason ? json_string(stop_reason) : json_null()));
}

void meta_set_precision(json_t *meta, const struct precision_tracker *t)
{
	if (!t->have_comparison) {
		json_object_set_new(meta, "precision", json_null());
		return;
	}
	struct precision_interval iv;
	precision_interval(t, &iv);
	char comparison[64];
	snprintf(comparison, sizeof comparison, "%s/%s", placement_name(t->a), placement_name(t->b));
	json_object_set_new(meta, "precision", json_pack(
		"{s:s, s:o, s:I, s:o, s:[o, o], s:o}", "comparison", comparison,
		"target_pct", positive_or_null(t->target_pct), "blocks", (json_int_t)iv.blocks,
		"ratio", iv.known ? json_real(iv.ratio) : json_null(),
		"ci", iv.known ? json_real(iv.low) : json_null(),
		iv.known ? json_real(iv.high) : json_null(),
		"half_pct", iv.known ? json_real(iv.half_pct) : json_null()));
}

void meta_set_interrupt(json_t *meta, int signal_number)
{
	json_t *last = last_segment(meta);
	if (last)
		json_object_set_new(last, "signal", json_string(sigabbrev_np(signal_number)
		                                                ? sigabbrev_np(signal_number) : "?"));
}

void meta_set_trial_timeout(json_t *meta, double limit_s, double slowest_s)
{
	/* An older folder's meta.json may lack the object: json_object_update_new leaves it so. */
	json_object_update_new(json_object_get(meta, "trial_timeout"),
	                       json_pack("{s:f, s:f}", "limit_s", limit_s,
	                                 "slowest_warmup_trial_s", slowest_s));
}

int meta_save(const json_t *meta, const char *dir, char *err, size_t err_size)
{
	char *text = json_dumps(meta, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (!text) {
		set_error(err, err_size, "cannot serialise meta.json");
		return -1;
	}
	char *file = xasprintf("%s\n", text);
	free(text);
	int rc = fileio_write_atomic(dir, "meta.json", file, strlen(file), err, err_size);
	free(file);
	return rc;
}

/* --- reading it back for --resume --- */

/* settings[key]: absent or null (*out = 0, unless required), or a whole number in [min, max].
 * -1 with err naming the key and its range. */
static int load_count(const char *dir, const json_t *settings, const char *key, bool required,
                      json_int_t min, json_int_t max, json_int_t *out, char *err,
                      size_t err_size)
{
	const json_t *v = json_object_get(settings, key);
	*out = 0;
	if ((!v || json_is_null(v)) && !required)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max) {
		set_error(err, err_size, "%s/meta.json: settings.%s is %s; it must be a whole number "
		          "from %lld to %lld", dir, key, v ? "out of range" : "missing",
		          (long long)min, (long long)max);
		return -1;
	}
	*out = json_integer_value(v);
	return 0;
}

/* The counts of settings, each within the range the command line accepts (so that nothing
 * computed from them, such as the plan's total, can overflow). */
static int load_counts(const char *dir, const json_t *settings, struct experiment *e,
                       char *err, size_t err_size)
{
	json_int_t iters, beside_iters, trials, warmup;
	if (load_count(dir, settings, "iters", e->kernel != NULL, 1, INT64_MAX, &iters, err,
	               err_size) != 0
	    || load_count(dir, settings, "beside_iters", false, 1, INT64_MAX, &beside_iters, err,
	                  err_size) != 0
	    || load_count(dir, settings, "trials", false, 1, RUN_MAX_TRIALS, &trials, err,
	                  err_size) != 0
	    || load_count(dir, settings, "warmup", true, 0, RUN_MAX_WARMUP, &warmup, err,
	                  err_size) != 0)
		return -1;
	e->iters = (unsigned long)iters;
	e->beside_iters = (unsigned long)beside_iters;
	if (e->beside_kernel && e->beside_iters == 0)
		e->beside_iters = e->iters;
	e->plan.measured_blocks = trials ? (long)trials : -1;
	e->plan.warmup_blocks = (long)warmup;
	const json_t *duration = json_object_get(settings, "duration_s");
	e->duration_s = json_number_value(duration);
	if ((duration && !json_is_null(duration) && !json_is_number(duration))
	    || !isfinite(e->duration_s) || e->duration_s < 0 || e->duration_s > RUN_MAX_DURATION_S
	    || (trials < 1 && e->duration_s <= 0) || (trials >= 1 && e->duration_s > 0)) {
		set_error(err, err_size, "%s/meta.json: settings need either trials or duration_s "
		          "(from 1 s to %.0f s)", dir, RUN_MAX_DURATION_S);
		return -1;
	}
	return 0;
}

/* A setting that is a number of [min, max] or null/absent (then 0: not asked for). */
static int load_optional_real(const char *dir, const json_t *settings, const char *key,
                              double min, double max, double *out, char *err, size_t err_size)
{
	const json_t *v = json_object_get(settings, key);
	*out = 0;
	if (!v || json_is_null(v))
		return 0;
	*out = json_number_value(v);
	if (!json_is_number(v) || !isfinite(*out) || *out < min || *out > max) {
		set_error(err, err_size, "%s/meta.json: settings.%s must be null or a number from %g "
		          "to %g", dir, key, min, max);
		return -1;
	}
	return 0;
}

/* settings.name checked as run --name checks it (--resume applies it: resume.c); absent (an
 * older folder) or null: the workloads have their own names. */
static int load_names(const char *dir, const json_t *settings, const struct experiment *e,
                      char *err, size_t err_size)
{
	const json_t *names = json_object_get(settings, "name");
	if (!names || json_is_null(names))
		return 0;
	size_t n = json_is_array(names) ? json_array_size(names) : 0;
	bool ok = n >= 1 && n <= 2 && !e->kernel && e->nworkloads == 0 && (n == 1 || e->b.argv);
	for (size_t i = 0; ok && i < n; i++) {
		const char *name = json_string_value(json_array_get(names, i));
		ok = name && workload_name_valid(name);
	}
	if (!ok)
		set_error(err, err_size, "%s/meta.json: settings.name must be null, or one name for "
		          "the command (two with a beside_command), each %s", dir, WORKLOAD_NAME_RULE);
	return ok ? 0 : -1;
}

/* settings.command and beside_command: a run's commands, as their words were recorded. */
static int load_commands(const char *dir, const json_t *settings, struct experiment *e,
                         char *err, size_t err_size)
{
	const json_t *command = json_object_get(settings, "command");
	const json_t *beside = json_object_get(settings, "beside_command");
	if (!e->kernel && e->nworkloads == 0 && !(e->a.argv = workload_argv_from_json(command))) {
		set_error(err, err_size, json_is_array(command)
		          ? "%s/meta.json: settings.command is damaged (an argument that is neither "
		            "text nor {\"hex\": ...} bytes)"
		          : "%s/meta.json: settings name neither a kernel nor a command", dir);
		return -1; /* a matrix names its kernels in "matrix" */
	}
	if (!e->beside_kernel && json_array_size(beside)
	    && !(e->b.argv = workload_argv_from_json(beside))) {
		set_error(err, err_size, "%s/meta.json: settings.beside_command is damaged (an "
		          "argument that is neither text nor {\"hex\": ...} bytes)", dir);
		return -1;
	}
	return load_names(dir, settings, e, err, err_size);
}

/* settings.one_process (missing in an older folder: copies) and settings.trial_timeout_s
 * (missing or null: automatic). */
static int load_process_settings(const char *dir, const json_t *settings, struct experiment *e,
                                 char *err, size_t err_size)
{
	const json_t *one_process = json_object_get(settings, "one_process");
	const json_t *timeout = json_object_get(settings, "trial_timeout_s");
	e->one_process = json_is_true(one_process);
	e->trial_timeout_s = json_is_number(timeout) ? json_number_value(timeout) : -1;
	if (one_process && !json_is_boolean(one_process))
		set_error(err, err_size, "%s/meta.json: settings.one_process must be true or false",
		          dir);
	else if (e->one_process && (e->b.argv || e->beside_kernel || e->nworkloads > 0))
		set_error(err, err_size, "%s/meta.json: settings.one_process is true beside a second "
		          "workload (a beside command or kernel, or a matrix): it runs one process "
		          "alone", dir);
	else if (json_is_number(timeout)
	         && !(e->trial_timeout_s >= 0 && e->trial_timeout_s <= TRIAL_TIMEOUT_MAX_S))
		set_error(err, err_size, "%s/meta.json: settings.trial_timeout_s is out of range "
		          "(0 to %g seconds, or null)", dir, TRIAL_TIMEOUT_MAX_S);
	else
		return 0;
	return -1;
}

/* A CPU number (a whole number from 0 to INT_MAX) into *cpu; false if v is none. */
static bool cpu_number(const json_t *v, int *cpu)
{
	if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > INT_MAX)
		return false;
	*cpu = (int)json_integer_value(v);
	return true;
}

/* settings.pair, --pair as given: absent or null, or two CPU numbers. */
static int load_pair(const char *dir, const json_t *settings, struct experiment *e, char *err,
                     size_t err_size)
{
	const json_t *pair = json_object_get(settings, "pair");
	if (!json_is_array(pair) || json_array_size(pair) != 2)
		return 0;
	for (int i = 0; i < 2; i++)
		if (!cpu_number(json_array_get(pair, (size_t)i), &e->pair[i])) {
			set_error(err, err_size, "%s/meta.json: settings.pair is not two CPU numbers", dir);
			return -1;
		}
	e->have_pair = true;
	return 0;
}

/* meta.json's settings into e: the workload, the counts, the pair. */
static int load_settings(const char *dir, const json_t *settings, struct experiment *e,
                         char *err, size_t err_size)
{
	const char *kernel = json_string_value(json_object_get(settings, "kernel"));
	const char *beside = json_string_value(json_object_get(settings, "beside_kernel"));
	e->kernel = kernel ? xstrdup(kernel) : NULL;
	e->beside_kernel = beside ? xstrdup(beside) : NULL;
	return load_counts(dir, settings, e, err, err_size)
	       || load_optional_real(dir, settings, "trial_time_s", RUN_TRIAL_TIME_MIN_S,
	                             RUN_TRIAL_TIME_MAX_S, &e->trial_time_s, err, err_size)
	       || load_optional_real(dir, settings, "precision_pct", 1e-9, RUN_MAX_PRECISION_PCT,
	                             &e->precision_pct, err, err_size)
	       || load_commands(dir, settings, e, err, err_size)
	       || load_process_settings(dir, settings, e, err, err_size)
	       || load_pair(dir, settings, e, err, err_size) ? -1 : 0;
}

/* Each workload's recorded file, which --resume checks (xworkload_recorded). Folders from before
 * it was recorded have no sha256. */
static int load_workloads(const char *dir, const json_t *workloads, struct experiment *e,
                          char *err, size_t err_size)
{
	static const char *const roles[] = { "a", "b" };
	struct workload *out[] = { &e->a, &e->b };
	for (int i = 0; i < 2; i++) {
		const json_t *w = json_object_get(workloads, roles[i]);
		if (json_is_string(json_object_get(w, "sha256")) && !workload_file_from_json(w, out[i])) {
			set_error(err, err_size, "%s/meta.json: workloads.%s has no absolute path or no "
			          "valid sha256", dir, roles[i]);
			return -1;
		}
	}
	if (e->b.path && !e->beside_kernel && !e->b.argv) {
		set_error(err, err_size, "%s/meta.json: workloads.b is recorded but settings have no "
		          "beside_kernel or beside_command", dir);
		return -1;
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
		for (int k = 0; k < tp->npus; k++)
			if (!cpu_number(json_array_get(pus, (size_t)k), &tp->pus[k])) {
				set_error(err, err_size, "%s/meta.json: placements[%zu].pus[%d] is not a "
				          "CPU number", dir, i, k);
				return -1;
			}
		if (tp->npus == 1)
			tp->pus[1] = -1;
		json_t *core = json_object_get(entry, "core");
		tp->core = json_is_integer(core) ? (int)json_integer_value(core) : -1;
		const char *shares = json_string_value(json_object_get(entry, "shares"));
		snprintf(tp->shares, sizeof tp->shares, "%s", shares ? shares : "");
		e->plan.placements[e->plan.nplacements++] = p;
	}
	return 0;
}

int meta_load(const struct results_folder *f, struct experiment *e, char *err, size_t err_size)
{
	const char *dir = f->dir;
	if (f->meta_status == FOLDER_META_ABSENT) {
		set_error(err, err_size, "%s: cannot open: %s", f->meta_path, strerror(ENOENT));
		return -1;
	}
	if (f->meta_status == FOLDER_META_UNREADABLE) {
		set_error(err, err_size, "%s", f->meta_error);
		return -1;
	}
	if (f->meta_status == FOLDER_META_NOT_JSON) {
		set_error(err, err_size, "%s/meta.json:%d: not valid JSON: %s", dir,
		          f->meta_error_line, f->meta_error);
		return -1;
	}
	/* The runner's own copy: it adds segments and counts as the run goes on. */
	json_t *meta = f->meta ? json_deep_copy(f->meta) : json_object();
	if (!meta)
		text_errx(EXIT_FAILURE_RUNTIME, "out of memory reading %s", f->meta_path);
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
	json_t *matrix = json_object_get(meta, "matrix");
	if (matrix && matrix_meta_load(dir, matrix, e, err, err_size) != 0)
		return -1;
	if (load_settings(dir, settings, e, err, err_size) != 0
	    || load_workloads(dir, json_object_get(meta, "workloads"), e, err, err_size) != 0)
		return -1;
	if (json_integer_value(seed) < 0) {
		set_error(err, err_size, "%s/meta.json: seed %lld is out of range (0 to 2^63-1)", dir,
		          (long long)json_integer_value(seed));
		return -1;
	}
	e->plan.seed = (uint64_t)json_integer_value(seed);
	return load_placements(dir, placements, e, err, err_size);
}
