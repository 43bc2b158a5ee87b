/*
 * hyperfine.c — a `hyperfine --export-json` file as a dataset (analysis_load_hyperfine: what it
 * takes, what it refuses and why, in analysis.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "analysis/internal.h"
#include "common/fileio.h"

/* At most this many commands in one export: a hostile file cannot make a million groups. */
#define HYPERFINE_COMMANDS_MAX 64

/* The samples of one result under the metric: its array, or NULL with why in err. */
static json_t *samples_of(const char *path, size_t k, json_t *result, enum analysis_metric metric,
                          char *err, size_t err_size)
{
	const char *key = metric == ANALYSIS_METRIC_USER ? "user" : "times";
	json_t *values = json_object_get(result, key);
	if (json_is_array(values))
		return values;
	if (metric == ANALYSIS_METRIC_USER && json_is_number(values))
		set_error(err, err_size, "%s: hyperfine recorded only the mean user time of each "
		          "command, not one per run (results[%zu].user is a number): compare the "
		          "wall times (leave out --metric user), or measure user time per run with "
		          "`smtbench run -- COMMAND`", path, k);
	else
		set_error(err, err_size, "%s: results[%zu] has no \"%s\" array of per-run times: "
		          "not a hyperfine --export-json file", path, k, key);
	return NULL;
}

/* One command's group from results[k]. -1 with err. */
static int add_command(struct dataset_builder *b, const char *path, size_t k, json_t *result,
                       enum analysis_metric metric, char *err, size_t err_size)
{
	const char *command = json_string_value(json_object_get(result, "command"));
	if (!command) {
		set_error(err, err_size, "%s: results[%zu] has no \"command\" string: not a hyperfine "
		          "--export-json file", path, k);
		return -1;
	}
	json_t *values = samples_of(path, k, result, metric, err, err_size);
	if (!values)
		return -1;
	/* hyperfine -i keeps failed runs: their times are of something else (a crash, a usage
	 * error), never a timing of the command. */
	json_t *codes = json_object_get(result, "exit_codes");
	size_t ci;
	json_t *code;
	json_array_foreach(codes, ci, code)
		if (!json_is_integer(code) || json_integer_value(code) != 0) {
			char *shown = xescaped(command);
			set_error(err, err_size, "%s: results[%zu] (%s): run %zu exited with %s, so its time "
			          "is not the command's; rerun hyperfine without -i, or fix the command",
			          path, k, shown, ci,
			          json_is_integer(code) ? "a non-zero status" : "no status");
			free(shown);
			return -1;
		}
	int group = builder_add_group(b, command);
	builder_reserve_points(b, b->data->point_count + json_array_size(values));
	size_t i;
	json_t *v;
	json_array_foreach(values, i, v) {
		double s = json_number_value(v);
		if (!json_is_number(v) || !isfinite(s) || s < 0 || s > SAMPLES_TIME_MAX_S) {
			set_error(err, err_size, "%s: results[%zu] (%s): run %zu is not a time in seconds "
			          "(a number from 0 to 1e100)", path, k, b->data->groups[group].name, i);
			return -1;
		}
		builder_add_sample(b, group, (long)i, (long)i, s, false);
	}
	if (b->data->groups[group].n < 2) {
		set_error(err, err_size, "%s: results[%zu] (%s): %zu run(s); at least 2 are needed",
		          path, k, b->data->groups[group].name, b->data->groups[group].n);
		return -1;
	}
	return 0;
}

/* The export's "results" array of 2 to HYPERFINE_COMMANDS_MAX commands, or NULL with err. */
static json_t *results_of(const char *path, json_t *root, char *err, size_t err_size)
{
	json_t *results = json_object_get(root, "results");
	if (!json_is_array(results)) {
		set_error(err, err_size, "%s: no \"results\" array: not a hyperfine --export-json file",
		          path);
		return NULL;
	}
	size_t n = json_array_size(results);
	if (n < 2 || n > HYPERFINE_COMMANDS_MAX) {
		set_error(err, err_size, "%s: %zu command(s) in \"results\"; give an export of 2 to %d "
		          "commands (hyperfine --export-json FILE CMD1 CMD2 ...)", path, n,
		          HYPERFINE_COMMANDS_MAX);
		return NULL;
	}
	return results;
}

/* All of standard input (a pipe from hyperfine, or a redirected file), at most
 * FILEIO_READ_ALL_MAX bytes, NUL-terminated; NULL with err. */
static char *read_stdin_all(char *err, size_t err_size)
{
	int fd = stdin_fd("pipe the export in (hyperfine --export-json /dev/stdout ... | "
	                  "smtbench analyze -) or redirect a file", err, err_size);
	if (fd < 0)
		return NULL;
	char *text = fileio_read_fd(fd, "standard input", FILEIO_READ_ALL_MAX, NULL, err, err_size);
	if (!text && errno == EFBIG)
		set_error(err, err_size, "-: more than %zu MiB on standard input; this is not a hyperfine "
		          "export", FILEIO_READ_ALL_MAX >> 20);
	return text;
}

struct analysis_dataset *analysis_load_hyperfine(const char *path, enum analysis_metric metric,
                                                 char *err, size_t err_size)
{
	char *text = !strcmp(path, "-") ? read_stdin_all(err, err_size)
	                                : fileio_read_all(path, NULL, err, err_size);
	if (!text)
		return NULL;
	json_error_t jerr;
	json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	free(text);
	if (!root) {
		set_error(err, err_size, "%s:%d:%d: not JSON: %s", path, jerr.line, jerr.column,
		          jerr.text);
		return NULL;
	}
	struct dataset_builder b = { 0 };
	json_t *results = results_of(path, root, err, err_size);
	if (results) {
		b.data = dataset_new(path, false, ANALYSIS_UNIT_TRIAL);
		b.data->metric = metric;
		b.data->from_hyperfine = true;
	}
	bool ok = results;
	for (size_t k = 0; ok && k < json_array_size(results); k++)
		ok = add_command(&b, path, k, json_array_get(results, k), metric, err, err_size) == 0;
	if (ok)
		builder_flag_outliers(&b, 0.0);
	json_decref(root);
	if (!ok)
		analysis_dataset_free(&b.data);
	return b.data;
}

bool analysis_is_hyperfine_json(const char *path)
{
	size_t len = strlen(path);
	return len > 5 && !strcmp(path + len - 5, ".json");
}
