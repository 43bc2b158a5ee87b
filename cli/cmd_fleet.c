/*
 * cmd_fleet.c — `smtbench fleet DIR... [--json] [--out DIR]`: one answer for many nodes' results
 * folders (fleet/fleet.h): per node its headline comparison, per group of comparable nodes
 * the pooled slowdown, the node-to-node spread and the nodes that disagree, and every folder
 * that could not be used with its reason.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/error.h"
#include "common/text.h"
#include "fleet/fleet.h"
#include "report/report.h"
#include "cli/commands.h"
#include "runner/util.h"

static void fleet_help(void)
{
	subcommand_usage(stdout, "fleet");
	printf("\n"
	       "Finds every results folder (one holding meta.json or samples.csv) under the given\n"
	       "folders, e.g. the FLEET_DIR the SLURM scripts in contrib/slurm/ write into, and\n"
	       "reports:\n"
	       "  per node   host, kernel, the headline comparison (sibling vs non-sibling where\n"
	       "             measured, else the best the node allows): ratio, 95%% CI, verdict;\n"
	       "  per group  (same CPU model, SMT state, workload and its settings, placements and\n"
	       "             comparison) the pooled slowdown with its 95%% CI, the node-to-node\n"
	       "             spread (sd of the log ratio: 0.05 is about 5 %%) and the interval a new\n"
	       "             node would fall in, from a hierarchical model;\n"
	       "  the nodes whose interval lies outside what the other nodes predict, to check;\n"
	       "  matrix folders (smtbench matrix) apart, cell by cell: per group (same CPU model,\n"
	       "             SMT state, placement, kind of workload) each cell pooled across the\n"
	       "             nodes, as a heat map, and per cell the nodes that deviate;\n"
	       "  every folder that could not be used, with its reason.\n"
	       "\n"
	       "  -j, --json     print the JSON contract instead of the text\n"
	       "  -o, --out DIR  also write DIR/fleet.md, DIR/fleet.json and DIR/fleet.html (with\n"
	       "                 a forest plot, and a heat map per matrix group), each\n"
	       "                 atomically; DIR is created if absent\n"
	       "\n"
	       "Exit status: 0 reported; 1 a file could not be written; 2 bad input (a DIR that is\n"
	       "not a directory), or no usable results folder at all.\n");
}

struct fleet_options {
	bool json;
	const char *out_dir;
};

enum { OPT_HELP = 256, OPT_JSON, OPT_OUT };

/* fleet's options; their short letters come from the command table (cli/commands.c). */
const struct option fleet_long_options[] = {
	{ "help", no_argument, NULL, OPT_HELP },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "out", required_argument, NULL, OPT_OUT },
	{ NULL, 0, NULL, 0 },
};

/* The options; returns optind (the first folder), or exits for --help or a bad option. */
static int parse_fleet_options(int argc, char **argv, struct fleet_options *o)
{
	int c;
	optind = 1;
	while ((c = cli_getopt(argc, argv, "fleet")) != -1) {
		switch (c) {
		case 'h':
		case OPT_HELP:
			fleet_help();
			exit(EXIT_OK);
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_OUT:
			o->out_dir = optarg;
			break;
		default:
			getopt_failure("fleet", c, argv);
		}
	}
	if (argc - optind < 1)
		usage_exit("fleet", "give at least one folder holding results folders (FLEET_DIR)");
	return optind;
}

/* The answer on stdout: the JSON contract or the text. EXIT_OK or EXIT_FAILURE_RUNTIME. */
static int print_fleet(const struct report *r, bool json)
{
	if (!json)
		return report_print(r, stdout) == 0 ? EXIT_OK : EXIT_FAILURE_RUNTIME;
	if (!r->json) {
		text_warnx("fleet: the JSON could not be made (a name that is not UTF-8)");
		return EXIT_FAILURE_RUNTIME;
	}
	if (json_dumpf(r->json, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0)
		return EXIT_FAILURE_RUNTIME;
	putchar('\n');
	return EXIT_OK;
}

/* --out DIR: made when absent, then fleet.md, fleet.json and fleet.html written into it. */
static int write_fleet(const struct report *r, const char *dir)
{
	char err[ERR_LEN];
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		text_warnx("fleet: cannot write the fleet report: %s: cannot create it: %s", dir,
		           strerror(errno));
		return EXIT_FAILURE_RUNTIME;
	}
	if (report_write(r, dir, err, sizeof err) != 0) {
		text_warnx("fleet: cannot write the fleet report: %s", err);
		return EXIT_FAILURE_RUNTIME;
	}
	return EXIT_OK;
}

int cmd_fleet(int argc, char **argv)
{
	struct fleet_options o = { false, NULL };
	int first = parse_fleet_options(argc, argv, &o);
	struct stat st;
	if (o.out_dir && stat(o.out_dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
		text_warnx("fleet: --out %s is not a folder; give a folder for fleet.md, "
		           "fleet.json and fleet.html", o.out_dir);
		return EXIT_USAGE;
	}
	char err[ERR_LEN];
	struct fleet *f = fleet_load(argv + first, (size_t)(argc - first), err, sizeof err);
	if (!f) {
		text_warnx("fleet: %s", err);
		return EXIT_USAGE;
	}
	struct report *r = fleet_report(f);
	/* No usable folder: nothing worth writing; the skipped ones are still listed. */
	bool usable = f->host_count + f->matrix_node_count > 0;
	int status = o.out_dir && usable ? write_fleet(r, o.out_dir) : EXIT_OK;
	int printed = print_fleet(r, o.json);
	if (status == EXIT_OK)
		status = printed;
	if (status == EXIT_OK && !usable) {
		text_warnx("fleet: no usable results folder under the given folder(s)%s; nothing "
		           "written", f->skipped_count ? " (see the skipped ones and their reasons)" : "");
		status = EXIT_USAGE;
	}
	if (status == EXIT_OK && o.out_dir && !o.json)
		report_print_files(r, o.out_dir, stdout);
	report_free(&r);
	fleet_free(&f);
	return status;
}
