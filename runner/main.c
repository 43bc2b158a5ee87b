/*
 * smtbench — do these two threads share a core, and does it hurt?
 *
 * main() only dispatches: each subcommand is a row of the table below and lives in its own file.
 */
#include <err.h>
#include <stdio.h>
#include <string.h>

#include "runner/commands.h"
#include "runner/util.h"

struct subcommand {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *synopsis;
};

static const struct subcommand subcommands[] = {
	{ "topo", cmd_topo,
	  "smtbench topo    [--topology SPEC|FILE.xml] [--pair A,B] [--json]" },
	{ "run", cmd_run,
	  "smtbench run     [--placements LIST] [--kernel NAME] [--iters N] [--trials N | --duration T]\n"
	  "                 [--warmup N] [--pair A,B] [--seed N] [--out DIR] [--list-kernels]\n"
	  "                 [--beside-kernel NAME [--beside-iters N]]\n"
	  "                 [-- COMMAND [ARG ...] [--beside COMMAND [ARG ...]]]\n"
	  "smtbench run     --resume DIR" },
	{ "analyze", cmd_analyze,
	  "smtbench analyze DIR | FILE_A FILE_B  [--seed-grid] [--model normal|t] [--unit trial|process]\n"
	  "                 [--rope PCT] [--grid N] [--json]" },
	{ "report", cmd_report,
	  "smtbench report  DIR" },
	{ "fleet", cmd_fleet,
	  "smtbench fleet   DIR... [--json] [--out DIR]" },
};
enum { SUBCOMMAND_COUNT = sizeof subcommands / sizeof subcommands[0] };

static void usage(FILE *out)
{
	fprintf(out, "usage:\n");
	for (int i = 0; i < SUBCOMMAND_COUNT; i++) {
		/* A synopsis may span lines; indent each one. */
		const char *line = subcommands[i].synopsis;
		while (*line) {
			size_t len = strcspn(line, "\n");
			fprintf(out, "  %.*s\n", (int)len, line);
			line += len + (line[len] == '\n');
		}
	}
	fprintf(out, "  smtbench --help | --version\n");
}

static void help(void)
{
	printf("smtbench %s — do these two threads share a core (SMT), and does it hurt?\n\n",
	       SMTBENCH_VERSION);
	usage(stdout);
	printf("\n"
	       "  topo      show cores, SMT siblings and the CPU pair each placement would use\n"
	       "  run       run interleaved paired trials of a kernel or command in each placement\n"
	       "  analyze   Bayesian comparison of the placements of a results folder, or of two files\n"
	       "  report    (re)write report.md, report.json, the plots and report.html of a folder\n"
	       "  fleet     one answer for many nodes' results folders: pooled per CPU model, outliers\n"
	       "\n"
	       "`smtbench COMMAND --help` describes each command's options.\n"
	       "\n"
	       "Exit status: 0 success; 1 a failure while running; 2 bad input (nothing written);\n"
	       "3 not possible on this machine (e.g. no placement it can give); 128+signal when\n"
	       "interrupted (130 for ^C: the results folder is valid; continue it with --resume).\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	const char *name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
		help();
		return EXIT_OK;
	}
	if (!strcmp(name, "--version")) {
		printf("smtbench %s\n", SMTBENCH_VERSION);
		return EXIT_OK;
	}
	for (int i = 0; i < SUBCOMMAND_COUNT; i++)
		if (!strcmp(name, subcommands[i].name))
			return subcommands[i].run(argc - 1, argv + 1);
	warnx("unknown command '%s'; the commands are topo, run, analyze, report and fleet", name);
	usage(stderr);
	return EXIT_USAGE;
}
