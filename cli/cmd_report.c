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
#include "common/fileio.h"
#include "common/text.h"
#include "report/report.h"
#include "cli/commands.h"

enum { OPT_EXCLUDE_CONTAMINATED = 1, OPT_ROPE, OPT_OUT };

const struct cli_option report_options[] = {
	{ "out", 'o', OPT_OUT, CLI_DIR, "DIR", NULL, "write the files into DIR instead (made if "
	  "missing; its parent must exist): for a read-only results folder, or to keep it as it is" },
	{ "exclude-contaminated", 0, OPT_EXCLUDE_CONTAMINATED, CLI_FLAG, NULL, NULL, "leave out the "
	  "trials that shared their CPUs, as analyze does; every report says how many" },
	{ "rope", 0, OPT_ROPE, CLI_WORD, "PCT", NULL, CLI_ROPE_HELP ", as analyze "
	  "--rope; a matrix's folder uses the --rope it was run with unless one is given" },
	{ 0 },
};

const struct cli_example report_examples[] = {
	{ "rewrite a folder's report.md, report.json, plots and report.html, e.g. after --resume",
	  "smtbench report results/20261129T192606Z-host" },
	{ "into another folder, leaving out the trials that shared their CPUs",
	  "smtbench report results/seed-example --exclude-contaminated --out /tmp/seed-report" },
	{ 0 },
};

/* What report's command line asked for. */
struct report_args {
	const char *dir;
	const char *out_dir;        /* --out, or NULL: the results folder itself */
	bool exclude_contaminated;
	double rope_pct;            /* --rope, or NAN */
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
	char err[ERR_LEN];
	if (errno == ENOENT && fileio_check_parent(out_dir, err, sizeof err) != 0)
		usage_exit("report", "--out %s: %s", out_dir, err);
	if (errno != ENOENT || mkdir(out_dir, 0777) != 0)
		usage_exit("report", "--out %s: cannot make this folder: %s", out_dir, strerror(errno));
}

static void parse_report_options(int argc, char **argv, struct report_args *a)
{
	optind = 1;
	for (int c; (c = cli_getopt(argc, argv, "report")) != -1;) {
		if (c == OPT_EXCLUDE_CONTAMINATED)
			a->exclude_contaminated = true;
		else if (c == OPT_ROPE)
			a->rope_pct = cli_rope_pct("report", optarg);
		else if (!*optarg)
			usage_exit("report", "--out: the folder's name is empty");
		else
			a->out_dir = optarg;
	}
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { .dir = NULL, .rope_pct = NAN };
	parse_report_options(argc, argv, &a);
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
