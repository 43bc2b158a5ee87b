/*
 * cmd_analyze.c — `smtbench analyze DIR | FILE_A FILE_B [options]`: loads the samples, runs the
 * analysis module, and prints the answer (text, or the --json contract).
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "analysis/analysis.h"
#include "cli/commands.h"
#include "common/text.h"
#include "common/error.h"
#include "common/folder.h"
#include "report/report.h"
#include "report/words.h"

/* What `analyze`'s options asked for. */
struct analyze_args {
	struct analysis_options opt;
	enum analysis_unit unit;
	bool json, unit_given;
	bool exclude_contaminated;
	enum analysis_metric metric;
	bool metric_given;
	char *incomplete;  /* a folder whose run did not end: words.h's incomplete_sentence */
};

enum { OPT_SEED_GRID = 256, OPT_MODEL, OPT_UNIT, OPT_ROPE, OPT_GRID, OPT_JSON,
       OPT_EXCLUDE_CONTAMINATED, OPT_PAIRED, OPT_UNPAIRED, OPT_METRIC };

/* The index of optarg among its row's two choices, or exit 2: "--model 'x': use normal or t". */
static int two_choices(void)
{
	const char *words = cli_option->choices, *second = strchr(words, ' ') + 1;
	int first_len = (int)(second - 1 - words);
	if ((int)strlen(optarg) == first_len && !strncmp(optarg, words, (size_t)first_len))
		return 0;
	if (!strcmp(optarg, second))
		return 1;
	usage_exit("analyze", "--%s '%s': use %.*s or %s", cli_option->name, optarg, first_len,
	           words, second);
}

/* One option of getopt_long into a; bad values exit 2. */
static void take_analyze_option(int c, struct analyze_args *a)
{
	unsigned long n;
	enum analysis_design_request want = c == OPT_PAIRED ? ANALYSIS_PAIR_ALWAYS
	                                                    : ANALYSIS_PAIR_NEVER;
	switch (c) {
	case OPT_SEED_GRID:
		a->opt.seed_grid = true;
		break;
	case OPT_MODEL:
		a->opt.model = two_choices() ? ANALYSIS_MODEL_T : ANALYSIS_MODEL_NORMAL;
		break;
	case OPT_UNIT:
		a->unit = two_choices() ? ANALYSIS_UNIT_PROCESS : ANALYSIS_UNIT_TRIAL;
		a->unit_given = true;
		break;
	case OPT_METRIC:
		a->metric = two_choices() ? ANALYSIS_METRIC_WALL : ANALYSIS_METRIC_USER;
		a->metric_given = true;
		break;
	case OPT_ROPE:
		a->opt.rope_pct = cli_rope_pct("analyze", optarg);
		break;
	case OPT_GRID:
		if (parse_ulong(optarg, ANALYSIS_GRID_MIN, ANALYSIS_GRID_MAX, &n))
			usage_exit("analyze", "--grid '%s': give the points per axis, %d to %d", optarg,
			           ANALYSIS_GRID_MIN, ANALYSIS_GRID_MAX);
		a->opt.grid_points = (int)n;
		break;
	case OPT_JSON:
		a->json = true;
		break;
	case OPT_EXCLUDE_CONTAMINATED:
		a->exclude_contaminated = true;
		break;
	case OPT_PAIRED:
	case OPT_UNPAIRED: /* what a sample is matched with */
		if (a->opt.design != ANALYSIS_PAIR_AUTO && a->opt.design != want)
			usage_exit("analyze", "--paired and --unpaired: give one of them");
		a->opt.design = want;
		break;
	}
}

const struct cli_option analyze_options[] = {
	{ "unpaired", 0, OPT_UNPAIRED, CLI_FLAG, NULL, NULL, "each placement an independent group: "
	  "samples ~ Normal(mu, sigma), the ratio mu_A / mu_B" },
	{ "paired", 0, OPT_PAIRED, CLI_FLAG, NULL, NULL, "two files: pair them value by value "
	  "(equal counts needed); a folder is paired by block by default" },
	{ "metric", 0, OPT_METRIC, CLI_CHOICE, NULL, "user wall", "what a sample measures: user "
	  "CPU time (a folder of copies' default) or wall time (the default of a folder of one "
	  "process, and of a hyperfine export)" },
	{ "seed-grid", 0, OPT_SEED_GRID, CLI_FLAG, NULL, NULL, "reproduce seed 003 exactly (grids "
	  "linspace(5, 35, 101)); on a folder it implies --unit process unless --unit is given" },
	{ "model", 0, OPT_MODEL, CLI_CHOICE, NULL, "normal t", "the likelihood; t (4 degrees of "
	  "freedom) resists outliers" },
	{ "unit", 0, OPT_UNIT, CLI_CHOICE, NULL, "trial process", "in a folder, a sample is a "
	  "trial's mean (the default) or each process's time" },
	{ "rope", 0, OPT_ROPE, CLI_WORD, "PCT", NULL, CLI_ROPE_HELP "; then a "
	  "comparison can be 'practically the same'" },
	{ "grid", 0, OPT_GRID, CLI_WORD, "N", NULL, "points per axis, " STR(ANALYSIS_GRID_MIN) " to "
	  STR(ANALYSIS_GRID_MAX) " (default " STR(ANALYSIS_GRID_DEFAULT) ")" },
	{ "json", 'j', OPT_JSON, CLI_FLAG, NULL, NULL, "the stable machine-readable result" },
	{ "exclude-contaminated", 0, OPT_EXCLUDE_CONTAMINATED, CLI_FLAG, NULL, NULL, "leave out the "
	  "trials that shared their CPUs (foreign CPU time or steal above 10% of the trial's "
	  "duration); says how many" },
	{ 0 },
};

const struct cli_example analyze_examples[] = {
	{ "the seed article's data: sibling against non-sibling, paired by block",
	  "smtbench analyze results/seed-example" },
	{ "the seed article's own computation, exactly", "smtbench analyze results/seed-example "
	  "--seed-grid" },
	{ "two files of times in seconds, one a line, as JSON", "smtbench analyze --json "
	  "with-ht.txt without-ht.txt" },
	{ 0 },
};

static void parse_analyze_options(int argc, char **argv, struct analyze_args *a)
{
	analysis_options_init(&a->opt);
	a->unit = ANALYSIS_UNIT_TRIAL;
	int c;
	optind = 1;
	while ((c = cli_getopt(argc, argv, "analyze")) != -1)
		take_analyze_option(c, a);
	/* The seed analysed every process time: --seed-grid reproduces it only with that unit. */
	if (a->opt.seed_grid && !a->unit_given)
		a->unit = ANALYSIS_UNIT_PROCESS;
}

/* One path: a results folder, or a hyperfine export (a file, or standard input). NULL with err,
 * or after saying why. */
static struct analysis_dataset *load_one(const char *path, struct analyze_args *a,
                                         char *err, size_t err_size)
{
	struct stat st;
	bool from_stdin = !strcmp(path, "-");
	bool is_folder = !from_stdin && (stat(path, &st) != 0 || S_ISDIR(st.st_mode));
	if (from_stdin || (!is_folder && analysis_is_hyperfine_json(path)))
		/* hyperfine's own measure is the wall time of each run. */
		return analysis_load_hyperfine(path, a->metric_given ? a->metric : ANALYSIS_METRIC_WALL,
		                               err, err_size);
	if (!is_folder) {
		set_error(err, err_size, "%s: not a folder; give a results folder, a hyperfine "
		          "--export-json file (FILE.json), or two files of numbers", path);
		return NULL;
	}
	/* Without --metric, the folder's own: wall time for one process given the placement's
	 * CPUs (run --one-process), user time for copies. */
	struct results_folder *f = folder_open(path);
	struct analysis_dataset *data = analysis_load_folder(f, &(struct analysis_take){
		.unit = a->unit, .metric_given = a->metric_given, .metric = a->metric,
		.exclude_contaminated = a->exclude_contaminated }, err, err_size);
	bool matrix = f->kind == FOLDER_MATRIX;
	a->incomplete = incomplete_sentence(f);
	folder_free(&f);
	if (data && matrix) {
		/* --rope's meaning for the cells is report's: say how to ask it there. */
		char rope[64] = "";
		if (!isnan(a->opt.rope_pct))
			snprintf(rope, sizeof rope, " --rope %g", a->opt.rope_pct);
		text_warnx("%s is an interference matrix (smtbench matrix): each placement here pools "
		           "every kernel; `smtbench report %s%s` compares its cells", path, path, rope);
	}
	return data;
}

/* Two files of numbers; the options that do not apply to them said (or refused). NULL with
 * err. */
static struct analysis_dataset *load_two(char **paths, const struct analyze_args *a, char *err,
                                         size_t err_size)
{
	if (a->exclude_contaminated)
		text_warnx("--exclude-contaminated: plain files have no foreign_s or steal_s; nothing "
		           "is left out");
	if (a->unit_given && a->unit == ANALYSIS_UNIT_PROCESS)
		text_warnx("--unit process: plain files hold one sample per line already");
	if (a->metric_given)
		usage_exit("analyze", "--metric: two files of numbers hold one kind of time already; "
		           "--metric is for a results folder or a hyperfine export");
	if (!strcmp(paths[0], "-") && !strcmp(paths[1], "-"))
		usage_exit("analyze", "standard input (-) can be one of the two files, not both");
	return analysis_load_files(paths[0], paths[1], err, err_size);
}

/* A results folder, or two files of numbers; NULL after saying why. */
static struct analysis_dataset *load_dataset(char **paths, int npaths,
                                             struct analyze_args *a)
{
	char err[ERR_LEN] = "";
	struct analysis_dataset *data = npaths == 1 ? load_one(paths[0], a, err, sizeof err)
	                                            : load_two(paths, a, err, sizeof err);
	if (!data) {
		text_warnx("%s", err);
		return NULL;
	}
	for (size_t i = 0; i < data->warning_count; i++)
		text_warnx("%s/%s", paths[0], data->warnings[i]);
	if (a->incomplete)
		text_warnx("%s", a->incomplete);
	size_t contaminated = 0;
	for (size_t i = 0; i < data->group_count; i++)
		contaminated += data->groups[i].contaminated_trials;
	if (npaths == 1 && a->exclude_contaminated)
		text_warnx("--exclude-contaminated: %zu trial(s) left out (foreign CPU time or "
		           "steal above %g%% of the trial's duration)", data->excluded_contaminated,
		           100 * ANALYSIS_CONTAMINATED_SHARE);
	else if (contaminated)
		text_warnx("%zu trial(s) shared their CPUs (foreign CPU time or steal above %g%% "
		           "of the trial's duration); --exclude-contaminated leaves them out",
		           contaminated, 100 * ANALYSIS_CONTAMINATED_SHARE);
	return data;
}

/* The result as text or JSON on stdout; the exit status. */
static int print_result(const struct analysis_result *result, bool json, const char *incomplete)
{
	if (json) {
		json_t *root = analyze_json(result);
		/* A folder whose run did not end says so, as report.json's "incomplete" does. */
		if (root && result->data->from_folder)
			json_object_set_new(root, "incomplete", incomplete ? json_string(incomplete)
			                                                   : json_null());
		return cli_print_json(root, JSON_PRESERVE_ORDER);
	}
	if (analyze_print(stdout, result) < 0 || fflush(stdout) != 0) {
		text_warn("writing the result");
		return EXIT_FAILURE_RUNTIME;
	}
	return EXIT_OK;
}

int cmd_analyze(int argc, char **argv)
{
	struct analyze_args a = { .json = false };
	parse_analyze_options(argc, argv, &a);
	int rest = argc - optind;
	if (rest != 1 && rest != 2)
		usage_exit("analyze", "give a results folder, a hyperfine --export-json file, or two "
		           "files of numbers");
	struct analysis_dataset *data = load_dataset(argv + optind, rest, &a);
	if (!data) {
		free(a.incomplete);
		return EXIT_USAGE;
	}
	char err[ERR_LEN] = "";
	struct analysis_result *result = analysis_run(data, &a.opt, err, sizeof err);
	int status = EXIT_USAGE;
	if (!result)
		text_warnx("%s", err);
	else
		status = print_result(result, a.json, a.incomplete);
	analysis_result_free(&result);
	analysis_dataset_free(&data);
	free(a.incomplete);
	return status;
}
