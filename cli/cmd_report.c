/*
 * cmd_report.c — `smtbench report DIR`: regenerates a results folder's reports (report.md,
 * report.json, the SVG plots, report.html) from its samples.csv and meta.json, then prints the
 * terminal summary. For a folder after --resume, an older folder, or the seed's example;
 * --exclude-contaminated leaves out the trials that shared their CPUs, as `analyze` does.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "common/error.h"
#include "common/folder.h"
#include "analysis/analysis.h"
#include "common/text.h"
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
	       "  -o, --out DIR      write the files into DIR instead (made if missing; its parent\n"
	       "                     must exist): for a read-only results folder, or to keep it\n"
	       "                     as it is\n"
	       "  --exclude-contaminated  leave out the trials that shared their CPUs: foreign CPU\n"
	       "                     time or steal (samples.csv's foreign_s, steal_s) above %g%%\n"
	       "                     of the trial's duration; every report says how many\n"
	       "  --rope PCT         region of practical equivalence, ±PCT %%, as analyze --rope:\n"
	       "                     a comparison (a matrix's cell) can then be 'practically the\n"
	       "                     same'; a matrix's safe pairs are those whose slowdown both\n"
	       "                     ways is under PCT %% with probability 0.95 (5 %% without a\n"
	       "                     ROPE). A matrix's folder uses the --rope it was run with\n"
	       "                     unless one is given here\n"
	       "\n"
	       "Exit status: 0 written; 1 a file could not be written; 2 bad input (DIR missing,\n"
	       "not a results folder, or too few samples to compare).\n",
	       100 * ANALYSIS_CONTAMINATED_SHARE);
}

enum { OPT_HELP = 256, OPT_EXCLUDE_CONTAMINATED, OPT_ROPE };

/* report's options; their short letters come from the command table (cli/commands.c). */
const struct option report_long_options[] = {
	{ "help", no_argument, NULL, OPT_HELP },
	{ "exclude-contaminated", no_argument, NULL, OPT_EXCLUDE_CONTAMINATED },
	{ "out", required_argument, NULL, 'o' },
	{ "rope", required_argument, NULL, OPT_ROPE },
	{ NULL, 0, NULL, 0 },
};

/* What report's command line asked for. */
struct report_args {
	const char *dir;
	const char *out_dir;        /* --out, or NULL: the results folder itself */
	bool exclude_contaminated;
	double rope_pct;            /* --rope, or NAN */
	bool done;                  /* --help answered */
};

/* --out DIR, checked before anything is read or written: an existing folder, or one made here
 * (its parent must exist). Exit 2 naming it otherwise. */
static void prepare_out_dir(const char *out_dir)
{
	struct stat st;
	if (stat(out_dir, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			usage_exit("report", "--out %s: not a folder; give a folder for the reports", out_dir);
		return;
	}
	if (errno != ENOENT || mkdir(out_dir, 0777) != 0)
		usage_exit("report", "--out %s: cannot make this folder: %s", out_dir, strerror(errno));
}

static void parse_report_options(int argc, char **argv, struct report_args *a)
{
	int c;
	optind = 1;
	while (!a->done && (c = cli_getopt(argc, argv, "report")) != -1) {
		switch (c) {
		case 'h':
		case OPT_HELP:
			report_help();
			a->done = true;
			break;
		case OPT_EXCLUDE_CONTAMINATED:
			a->exclude_contaminated = true;
			break;
		case OPT_ROPE:
			a->rope_pct = cli_rope_pct("report", optarg);
			break;
		case 'o':
			if (!*optarg)
				usage_exit("report", "--out: the folder's name is empty");
			a->out_dir = optarg;
			break;
		default:
			getopt_failure("report", c, argv);
		}
	}
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { .dir = NULL, .rope_pct = NAN };
	parse_report_options(argc, argv, &a);
	if (a.done)
		return EXIT_OK;
	if (argc - optind != 1)
		usage_exit("report", "give exactly one results folder (a directory holding samples.csv)");
	a.dir = argv[optind];
	struct stat st;
	if (stat(a.dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		text_warnx("report: %s is not a directory; give a results folder (e.g. "
		           "results/seed-example)", a.dir);
		return EXIT_USAGE;
	}
	if (a.out_dir)
		prepare_out_dir(a.out_dir);
	char err[ERR_LEN];
	struct results_folder *f = folder_open(a.dir);
	struct report_options o = { a.exclude_contaminated, a.rope_pct };
	struct report *rep = report_folder(f, &o, err, sizeof err);
	if (!rep) {
		text_warnx("report: %s", err);
		folder_free(&f);
		return EXIT_USAGE;
	}
	const char *into = a.out_dir ? a.out_dir : a.dir;
	int status = EXIT_OK;
	bool written = report_write(rep, into, err, sizeof err) == 0;
	if (!written) {
		text_warnx("report: cannot write the reports: %s", err);
		status = EXIT_FAILURE_RUNTIME;
	}
	if (report_print(rep, stdout) != 0 || report_print_files(rep, written ? into : NULL,
	                                                          stdout) != 0)
		status = EXIT_FAILURE_RUNTIME;
	report_free(&rep);
	folder_free(&f);
	return status;
}
