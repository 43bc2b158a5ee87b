/*
 * smtbench — do these two threads share a core, and does it hurt?
 *
 * main() only dispatches: each subcommand is a row of the table in commands.c and lives in its
 * own file.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "runner/util.h"

static void usage(FILE *out)
{
	fprintf(out, "usage:\n");
	for (size_t i = 0; i < subcommand_count; i++)
		synopsis_print(out, "  ", subcommands[i].synopsis);
	fprintf(out, "  smtbench --help | --version\n");
}

static void help(void)
{
	printf("smtbench %s — do these two threads share a core (SMT), and does it hurt?\n\n",
	       SMTBENCH_VERSION);
	usage(stdout);
	printf("\n");
	for (size_t i = 0; i < subcommand_count; i++)
		printf("  %-9s %s\n", subcommands[i].name, subcommands[i].summary);
	printf("\n"
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
	const struct subcommand *command = subcommand_find(name);
	if (command)
		return command->run(argc - 1, argv + 1);
	fprintf(stderr, "%s: unknown command '%s'; the commands are", program_invocation_short_name,
	        name);
	for (size_t i = 0; i < subcommand_count; i++)
		fprintf(stderr, "%s %s", i == 0 ? "" : i + 1 == subcommand_count ? " and" : ",",
		        subcommands[i].name);
	fprintf(stderr, "\n");
	usage(stderr);
	return EXIT_USAGE;
}
