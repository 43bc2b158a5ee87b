/*
 * report_json.c — report.json, and the writing of every report file into the folder, each
 * atomically (common/fileio.h's one atomic write: temporary file, fsync, rename, fsync folder).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/samples_csv.h"
#include "report/internal.h"
#include "report/output.h"
#include "common/fileio.h"

const char *const report_file_names[REPORT_FILE_COUNT] = {
	"report.md", "report.json", "posterior.svg", "run-order.svg", "samples.svg", "report.html",
};

/* ---- report.json ------------------------------------------------------------------------- */

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *report_json(const struct report *rep)
{
	const struct analysis_result *r = rep->result;
	json_t *placements = json_array();
	for (size_t i = 0; i < rep->placement_count; i++) {
		const struct report_placement *p = &rep->placements[i];
		json_t *pus = json_array();
		for (int k = 0; k < p->npus; k++)
			json_array_append_new(pus, json_integer(p->pus[k]));
		json_array_append_new(placements, json_pack(
			"{s:s, s:o, s:o, s:o, s:I, s:o, s:o, s:[o, o], s:o, s:I}",
			"name", p->name, "pus", pus,
			"core", p->core >= 0 ? json_integer(p->core) : json_null(),
			"shares", p->shares ? json_string(p->shares) : json_null(),
			"n", (json_int_t)p->n, "mean_s", num_or_null(p->mean_s),
			"mu_mean_s", num_or_null(p->mu_mean), "mu_ci_s", num_or_null(p->mu_ci[0]),
			num_or_null(p->mu_ci[1]), "freq_mhz", num_or_null(p->freq_mhz),
			"freq_samples", (json_int_t)p->freq_n));
	}
	const struct analysis_comparison *h = &r->comparisons[rep->headline];
	json_t *sentences = json_array(), *warnings = json_array(), *files = json_array();
	for (size_t i = 0; i < r->comparison_count; i++)
		json_array_append_new(sentences, json_string(rep->sentences[i]));
	for (size_t i = 0; i < rep->warning_count; i++)
		json_array_append_new(warnings, json_string(rep->warnings[i]));
	for (size_t i = 0; i < REPORT_FILE_COUNT; i++)
		json_array_append_new(files, json_string(report_file_names[i]));
	json_t *analysis = output_analysis_json(r);
	json_t *o = json_pack(
		"{s:i, s:s, s:o, s:s, s:o, s:{s:I, s:s, s:s, s:s, s:s, s:o, s:[o, o], s:o, s:[o, o], "
		"s:o, s:s}, s:b, s:o, s:o, s:o, s:o, s:o, s:o}",
		"report_version", 1, "dir", rep->shown_dir,
		"workload", rep->workload ? json_string(rep->workload) : json_null(),
		"machine", rep->machine,
		"placements", placements,
		"headline", "comparison", (json_int_t)rep->headline, "label", h->label, "a", h->a.name,
		"b", h->b.name, "sentence", rep->headline_text,
		"ratio_mean", num_or_null(h->ratio_mean), "ratio_ci", num_or_null(h->ratio_ci[0]),
		num_or_null(h->ratio_ci[1]), "diff_mean_s", num_or_null(h->diff_mean), "diff_ci_s",
		num_or_null(h->diff_ci[0]), num_or_null(h->diff_ci[1]),
		"p_slower", num_or_null(h->p_a_gt_b), "verdict", analysis_verdict_name(h->verdict),
		"no_sibling", rep->no_sibling,
		"sentences", sentences, "warnings", warnings, "files", files,
		"analysis", analysis ? analysis : json_null(),
		"meta", rep->meta ? json_incref(rep->meta) : json_null(),
		"no_sibling_reason", rep->no_sibling_reason ? json_string(rep->no_sibling_reason)
		                                            : json_null());
	const char *stop_reason = report_meta_string(rep->meta, "stop_reason");
	json_object_set_new(o, "stop_reason", stop_reason ? json_string(stop_reason) : json_null());
	/* Which time answered (samples_csv.h's names), and how the trials were run. */
	json_object_set_new(o, "metric", json_string(rep->data->metric == ANALYSIS_METRIC_WALL
	                                             ? SAMPLES_METRIC_WALL : SAMPLES_METRIC_USER));
	json_object_set_new(o, "one_process", json_boolean(rep->data->one_process));
	/* A folder judged by wall time: the headline by user CPU time too (null otherwise). */
	json_object_set_new(o, "user_time", rep->user_time_text
	                    ? json_pack("{s:f, s:[f, f], s:s}", "ratio_mean", rep->user_ratio_mean,
	                                "ratio_ci", rep->user_ratio_ci[0], rep->user_ratio_ci[1],
	                                "sentence", rep->user_time_text)
	                    : json_null());
	/* null: not asked to leave anything out; a count (0 too) with --exclude-contaminated. */
	json_object_set_new(o, "excluded_contaminated",
	                    rep->exclude_contaminated
	                        ? json_integer((json_int_t)rep->data->excluded_contaminated)
	                        : json_null());
	return o;
}

/* ---- writing the folder ------------------------------------------------------------------ */

int report_set_files_dir(struct report *rep, const char *out_dir)
{
	free(rep->files_dir);
	free(rep->shown_files_dir);
	rep->files_dir = strdup(out_dir);
	rep->shown_files_dir = text_escape(out_dir);
	return rep->files_dir && rep->shown_files_dir ? 0 : -1;
}

int report_write_files(const struct report *rep, char *err, size_t err_size)
{
	char *texts[REPORT_FILE_COUNT] = { NULL };
	texts[0] = report_markdown(rep);
	json_t *j = report_json(rep);
	if (j) {
		char *dumped = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		if (dumped) {
			texts[1] = text_printf("%s\n", dumped);
			free(dumped);
		}
		json_decref(j);
	}
	texts[2] = report_svg_posterior(rep);
	texts[3] = report_svg_run_order(rep);
	texts[4] = report_svg_samples(rep);
	if (texts[2] && texts[3] && texts[4])
		texts[5] = report_html(rep, texts[2], texts[3], texts[4]);
	int rc = 0;
	const char *into = rep->files_dir ? rep->files_dir : rep->dir;
	for (size_t i = 0; i < REPORT_FILE_COUNT && rc == 0; i++) {
		if (!texts[i]) {
			set_error(err, err_size, "%s/%s: out of memory while writing it", into,
			          report_file_names[i]);
			rc = -1;
		} else {
			rc = fileio_write_atomic(into, report_file_names[i], texts[i], strlen(texts[i]),
			                         err, err_size);
		}
	}
	for (size_t i = 0; i < REPORT_FILE_COUNT; i++)
		free(texts[i]);
	return rc;
}
