/*
 * commands.h — the subcommands of smtbench, registered once in a table (commands.c): name,
 * entry point, one-line summary and synopsis. The synopsis is the one source of every usage
 * line (`smtbench --help`, `smtbench COMMAND --help`) and matches the man page's SYNOPSIS
 * (cli/smtbench.1; tests/e2e/test_man.sh checks that they agree).
 *
 * Each entry point takes the arguments after the program name (argv[0] is the subcommand's own
 * name, ready for getopt_long) and returns the exit status.
 */
#ifndef SMTBENCH_CLI_COMMANDS_H
#define SMTBENCH_CLI_COMMANDS_H

#include <stddef.h>
#include <stdio.h>

int cmd_topo(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_fleet(int argc, char **argv);

struct subcommand {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;  /* one line for `smtbench --help` */
	/* Every form of the command, one per line starting "smtbench NAME"; continuation lines
	 * are indented to follow the command's name. */
	const char *synopsis;
};

extern const struct subcommand subcommands[];
extern const size_t subcommand_count;

/* The row named name, or NULL. */
const struct subcommand *subcommand_find(const char *name);

/* Writes each line of synopsis after prefix; later lines get as many spaces instead. */
void synopsis_print(FILE *out, const char *prefix, const char *synopsis);

/* "usage: smtbench NAME ..." with every form of the command, on out. */
void subcommand_usage(FILE *out, const char *name);

#endif
