#include "cli/commands.h"

#include <string.h>

const struct subcommand subcommands[] = {
	{ "topo", cmd_topo,
	  "show cores, SMT siblings and the CPU pair each placement would use",
	  "smtbench topo [--topology SPEC|FILE.xml] [--pair A,B] [--json]" },
	{ "run", cmd_run,
	  "run interleaved paired trials of a kernel or command in each placement",
	  "smtbench run [--placements LIST] [--kernel NAME] [--iters N | --trial-time S]\n"
	  "             [--trials N | --duration T] [--precision PCT] [--warmup N]\n"
	  "             [--pair A,B] [--seed N] [--out DIR] [--trial-timeout SECONDS]\n"
	  "             [--beside-kernel NAME [--beside-iters N]]\n"
	  "             [-- COMMAND [ARG ...] [--beside COMMAND [ARG ...]]]\n"
	  "smtbench run --resume DIR\n"
	  "smtbench run --list-kernels" },
	{ "analyze", cmd_analyze,
	  "Bayesian comparison of the placements of a results folder, or of two files",
	  "smtbench analyze DIR | FILE_A FILE_B  [--seed-grid] [--model normal|t]\n"
	  "                 [--unit trial|process] [--rope PCT] [--grid N] [--json]\n"
	  "                 [--exclude-contaminated]" },
	{ "report", cmd_report,
	  "(re)write report.md, report.json, the plots and report.html of a folder",
	  "smtbench report DIR [--exclude-contaminated]" },
	{ "fleet", cmd_fleet,
	  "one answer for many nodes' results folders: pooled per CPU model, outliers",
	  "smtbench fleet DIR... [--json] [--out DIR]" },
};
const size_t subcommand_count = sizeof subcommands / sizeof subcommands[0];

const struct subcommand *subcommand_find(const char *name)
{
	for (size_t i = 0; i < subcommand_count; i++)
		if (!strcmp(subcommands[i].name, name))
			return &subcommands[i];
	return NULL;
}

void synopsis_print(FILE *out, const char *prefix, const char *synopsis)
{
	int indent = (int)strlen(prefix);
	for (const char *line = synopsis; *line;) {
		size_t len = strcspn(line, "\n");
		fprintf(out, "%*s%.*s\n", indent, line == synopsis ? prefix : "", (int)len, line);
		line += len + (line[len] == '\n');
	}
}

void subcommand_usage(FILE *out, const char *name)
{
	const struct subcommand *c = subcommand_find(name);
	if (c)
		synopsis_print(out, "usage: ", c->synopsis);
}
