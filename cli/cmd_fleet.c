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

struct fleet_options {
	bool json;
	const char *out_dir;
};

enum { OPT_JSON = 1, OPT_OUT };

const struct cli_option fleet_options[] = {
	{ "json", 'j', OPT_JSON, CLI_FLAG, NULL, NULL, "print the JSON contract instead of the text" },
	{ "out", 'o', OPT_OUT, CLI_DIR, "DIR", NULL, "also write DIR/fleet.md, DIR/fleet.json and "
	  "DIR/fleet.html (a forest plot, a heat map per matrix group), each atomically; DIR is "
	  "created if absent" },
	{ 0 },
};

const struct cli_example fleet_examples[] = {
	{ "every node's folder that the SLURM scripts wrote under FLEET_DIR, with fleet.html",
	  "smtbench fleet /shared/fleet --out /shared/fleet/fleet-report" },
	{ "the same answer as JSON, for a script", "smtbench fleet /shared/fleet --json" },
	{ 0 },
};

/* The options; returns optind (the first folder), or exits for --help or a bad option. */
static int parse_fleet_options(int argc, char **argv, struct fleet_options *o)
{
	optind = 1;
	for (int c; (c = cli_getopt(argc, argv, "fleet")) != -1;) {
		if (c == OPT_JSON)
			o->json = true;
		else
			o->out_dir = optarg;
	}
	if (argc - optind < 1)
		usage_exit("fleet", "give at least one folder holding results folders (FLEET_DIR)");
	return optind;
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
	int printed = summary_print(r, o.json);
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
