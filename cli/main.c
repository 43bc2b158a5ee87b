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
#include "common/text.h"

/* One line for a command that is not in the table, with the closest names; exits 2. */
static int unknown_command(const char *name)
{
	const char *names[16];
	size_t count = 0;
	for (size_t i = 0; i < subcommand_count && count < 16; i++)
		names[count++] = subcommands[i].name;
	char suggestion[256];
	text_suggest(name, names, count, "", suggestion, sizeof suggestion);
	text_warnx("unknown command '%s'%s%s%s (see 'smtbench --help')", name,
	           *suggestion ? "; did you mean " : "", suggestion, *suggestion ? "?" : "");
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		cli_top_help(stderr, false);
		return EXIT_USAGE;
	}
	const char *name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || (!strcmp(name, "help") && argc == 2)) {
		cli_top_help(stdout, true);
		return EXIT_OK;
	}
	if (!strcmp(name, "--refresh-man-page")) /* `make man`: cli/smtbench.1 on stdin */
		return cli_man_refresh(stdin, stdout) == 0 && fflush(stdout) == 0 ? EXIT_OK
		                                                                  : EXIT_FAILURE_RUNTIME;
	if (!strcmp(name, "--version") || !strcmp(name, "-V")) {
		printf("smtbench %s\n", SMTBENCH_VERSION);
		return EXIT_OK;
	}
	if (!strcmp(name, "help")) {
		/* `smtbench help CMD` is `smtbench CMD --help`. */
		const struct subcommand *command = subcommand_find(argv[2]);
		if (argc > 3) {
			fprintf(stderr, "%s: help takes one command, e.g. smtbench help run (see "
			        "'smtbench --help')\n", program_invocation_short_name);
			return EXIT_USAGE;
		}
		if (!command)
			return unknown_command(argv[2]);
		char *help_argv[] = { (char *)command->name, "--help", NULL };
		return command->run(2, help_argv);
	}
	if (name[0] == '-') {
		text_warnx("unknown option '%s'; give a command first, or --help or --version (see "
		           "'smtbench --help')", name);
		return EXIT_USAGE;
	}
	const struct subcommand *command = subcommand_find(name);
	if (command)
		return command->run(argc - 1, argv + 1);
	return unknown_command(name);
}
