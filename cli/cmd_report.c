/*
 * cmd_report.c — `smtbench report DIR`: regenerates a results folder's reports (report.md,
 * report.json, the SVG plots, report.html) from its samples.csv and meta.json, then prints the
 * terminal summary. For a folder after --resume, an older folder, or the seed's example;
 * --exclude-contaminated leaves out the trials that shared their CPUs, as `analyze` does.
 */
#include <err.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "common/error.h"
#include "analysis/analysis.h"
#include "report/matrix.h"
#include "report/report.h"
#include "cli/commands.h"
#include "runner/util.h"

static void report_help(void)
{
	subcommand_usage(stdout, "report");
	printf("\n"
	       "Rewrites the reports of results folder DIR from DIR/samples.csv and DIR/meta.json\n"
	       "(meta.json is optional: without it the machine and the pairs read \"not\n"
	       "recorded\"), then prints the summary. Files written into DIR, each replaced\n"
	       "atomically:\n"
	       "  report.md      the summary as tables, with the settings and the machine\n"
	       "  report.json    every number: the analysis (as `analyze --json`) and meta.json\n"
	       "  posterior.svg  posterior of each placement's mean, the difference, the slowdown\n"
	       "  run-order.svg  every sample in run order (drift, outliers, warm-ups)\n"
	       "  samples.svg    each placement's samples with a box of quartiles\n"
	       "  report.html    one self-contained page with the verdict, tables and plots\n"
	       "\n"
	       "  --exclude-contaminated  leave out the trials that shared their CPUs: foreign CPU\n"
	       "                     time or steal (samples.csv's foreign_s, steal_s) above %g%%\n"
	       "                     of the trial's duration; every report says how many\n"
	       "\n"
	       "Exit status: 0 written; 1 a file could not be written; 2 bad input (DIR missing,\n"
	       "not a results folder, or too few samples to compare).\n",
	       100 * ANALYSIS_CONTAMINATED_SHARE);
}

enum { OPT_HELP = 256, OPT_EXCLUDE_CONTAMINATED };

/* report's options; their short letters come from the command table (cli/commands.c). */
const struct option report_long_options[] = {
	{ "help", no_argument, NULL, OPT_HELP },
	{ "exclude-contaminated", no_argument, NULL, OPT_EXCLUDE_CONTAMINATED },
	{ NULL, 0, NULL, 0 },
};

/* A matrix's folder (smtbench matrix, meta.json's "matrix"): report.md, report.json,
 * heatmap.svg and report.html of its cells (report/matrix.h). */
static int matrix_report(const char *dir, bool exclude_contaminated)
{
	char err[ERR_LEN];
	struct matrix_report *rep = matrix_report_new(dir, exclude_contaminated, err, sizeof err);
	if (!rep) {
		warnx("report: %s", err);
		return EXIT_USAGE;
	}
	int status = EXIT_OK;
	bool written = matrix_report_write_files(rep, err, sizeof err) == 0;
	if (!written) {
		warnx("report: cannot write the reports: %s", err);
		status = EXIT_FAILURE_RUNTIME;
	}
	if (matrix_report_print_summary(rep, written, stdout) != 0)
		status = EXIT_FAILURE_RUNTIME;
	matrix_report_free(&rep);
	return status;
}

int cmd_report(int argc, char **argv)
{
	bool exclude_contaminated = false;
	int c;
	optind = 1;
	while ((c = cli_getopt(argc, argv, "report")) != -1) {
		switch (c) {
		case 'h':
		case OPT_HELP:
			report_help();
			return EXIT_OK;
		case OPT_EXCLUDE_CONTAMINATED:
			exclude_contaminated = true;
			break;
		default:
			getopt_failure("report", c, argv);
		}
	}
	if (argc - optind != 1)
		usage_exit("report", "give exactly one results folder (a directory holding samples.csv)");
	const char *dir = argv[optind];
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		warnx("report: %s is not a directory; give a results folder (e.g. results/seed-example)",
		      dir);
		return EXIT_USAGE;
	}
	char err[ERR_LEN];
	if (matrix_report_applies(dir))
		return matrix_report(dir, exclude_contaminated);
	struct report *rep = report_new_excluding(dir, exclude_contaminated, err, sizeof err);
	if (!rep) {
		warnx("report: %s", err);
		return EXIT_USAGE;
	}
	int status = EXIT_OK;
	bool written = report_write_files(rep, err, sizeof err) == 0;
	if (!written) {
		warnx("report: cannot write the reports: %s", err);
		status = EXIT_FAILURE_RUNTIME;
	}
	if (report_print_summary(rep, written, stdout) != 0)
		status = EXIT_FAILURE_RUNTIME;
	report_free(&rep);
	return status;
}
