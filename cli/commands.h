/*
 * commands.h — the subcommands of smtbench, registered once in a table (commands.c): name,
 * entry point, one-line summary and synopsis. The synopsis is the one source of every usage
 * line (`smtbench --help`, `smtbench COMMAND --help`) and matches the man page's SYNOPSIS
 * (cli/smtbench.1; tests/e2e/test_man.sh checks that they agree).
 *
 * Each entry point takes the arguments after the program name (argv[0] is the subcommand's own
 * name, ready for getopt_long) and returns the exit status.
 *
 * A row also names the command's long options (the array in its cmd_NAME.c). Every command
 * parses them with cli_getopt, which adds what every command shares: the short letters chosen
 * once for all commands (short_options in commands.c: -j is --json wherever there is a --json),
 * -V/--version, and a suggestion for an unknown or ambiguous option. `smtbench completions`
 * generates the bash, zsh and fish completions from the same rows.
 */
#ifndef SMTBENCH_CLI_COMMANDS_H
#define SMTBENCH_CLI_COMMANDS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

int cmd_topo(int argc, char **argv);
int cmd_threads(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_matrix(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_fleet(int argc, char **argv);
int cmd_completions(int argc, char **argv);

/* Each command's long options, ending in a zeroed row; its cmd_NAME.c owns the array. */
extern const struct option topo_long_options[];
extern const struct option threads_long_options[];
extern const struct option run_long_options[];
extern const struct option matrix_long_options[];
extern const struct option analyze_long_options[];
extern const struct option report_long_options[];
extern const struct option fleet_long_options[];
extern const struct option completions_long_options[];

struct subcommand {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;  /* one line for `smtbench --help` */
	/* Every form of the command, one per line starting "smtbench NAME"; continuation lines
	 * are indented to follow the command's name. */
	const char *synopsis;
	const struct option *options; /* its long options (cmd_NAME.c) */
	bool options_first;           /* options end at the first operand (a command follows) */
};

extern const struct subcommand subcommands[];
extern const size_t subcommand_count;

/* The row named name, or NULL. */
const struct subcommand *subcommand_find(const char *name);

/* Writes each line of synopsis after prefix; later lines get as many spaces instead. */
void synopsis_print(FILE *out, const char *prefix, const char *synopsis);

/* "usage: smtbench NAME ..." with every form of the command, on out. */
void subcommand_usage(FILE *out, const char *name);

/* The short letter that every command gives long option name, or 0 (short_options). */
char short_option_letter(const char *name);

/*
 * getopt_long for command NAME (optind and opterr as getopt_long reads them) over its row's
 * options, with the short letters of short_options and -V/--version added. Returns the val of
 * the option found, the same for its short letter as for its long name, or -1 at the end.
 * --version prints "smtbench VERSION" and exits 0. An unknown, ambiguous or valueless option is
 * one line on stderr, with a suggestion where one is close ("did you mean --trials or
 * --trial-time?"), and exit 2.
 */
int cli_getopt(int argc, char **argv, const char *name);
/* The long name of the option cli_getopt returned last ("trials" for --trials, "out" for -o). */
extern const char *cli_option_name;

/* --rope PCT, one definition for analyze, report and matrix: the region of practical
 * equivalence, ±PCT % (analysis.h's enum analysis_verdict says what it decides): a whole-string
 * number above 0 and below 100. Otherwise one line naming command's --rope, and exit 2. */
double cli_rope_pct(const char *command, const char *text);

/* The names closest to word, each after prefix, as "--a, --b or --c" into out ("" if none is
 * close): those that word begins (an ambiguous abbreviation), else those one or two edits away
 * (a typo). For options and for commands alike. */
void suggest_names(const char *word, const char *const *names, size_t count, const char *prefix,
                   char *out, size_t out_size);

#endif
