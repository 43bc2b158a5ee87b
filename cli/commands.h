/*
 * commands.h — the subcommands of smtbench, registered once in a table (commands.c), and their
 * options as data: every row of a command's option table (its cmd_NAME.c) says what parsing,
 * `--help`, the shell completions and the man page's OPTIONS need. help.c writes the help and
 * the man page's generated parts from the rows, cmd_completions.c the bash, zsh and fish
 * completions; cli_getopt (help.c) parses with them. Nothing about an option is written twice.
 *
 * Each entry point takes the arguments after the program name (argv[0] is the subcommand's own
 * name, ready for getopt_long) and returns the exit status. Bad input exits 2 through
 * usage_exit, which names the command's --help.
 */
#ifndef SMTBENCH_CLI_COMMANDS_H
#define SMTBENCH_CLI_COMMANDS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "common/alloc.h"
#include "common/error.h"

/* What an option's value is: how help names it and what completions offer for it. */
enum cli_value {
	CLI_FLAG,       /* no value */
	CLI_WORD,       /* a value to type (a number, a duration, a name): nothing is offered */
	CLI_CHOICE,     /* one of the row's choices */
	CLI_KERNEL,     /* a kernel's name, or a comma list of them (run --list-kernels) */
	CLI_PLACEMENTS, /* placements' names, comma-separated */
	CLI_FILE,       /* a file's name */
	CLI_DIR,        /* a folder's name */
	CLI_PID,        /* a running process's ID */
};

/* One option of a command. A row without help is an alias of the row before it (same id): the
 * man page lists it with that row, --help leaves it to that row's sentence. */
struct cli_option {
	const char *name;      /* long name, without "--" */
	char letter;           /* short form, or 0; one letter means one option in every command */
	int id;                /* what cli_getopt returns for it */
	enum cli_value value;
	const char *arg;       /* the value's name ("N", "DIR"); NULL for a flag or a choice */
	const char *choices;   /* CLI_CHOICE: the words, blank-separated */
	const char *help;      /* one sentence, no final period */
};

/* An example of a command: what it does, and the command line. */
struct cli_example {
	const char *what;
	const char *line;
};

struct subcommand {
	const char *name;
	int (*run)(int argc, char **argv);
	const struct cli_option *options; /* its table (cmd_NAME.c), ending in a zeroed row */
	const struct cli_example *examples; /* ending in a zeroed row */
	const char *summary;  /* one line: `smtbench --help`, the zsh and fish completions, help */
	/* Every form of the command, one per line starting "smtbench NAME"; continuation lines
	 * are indented to follow the command's name. The man page's SYNOPSIS is made from it. */
	const char *synopsis;
	bool options_first;   /* options end at the first operand (a command follows) */
	enum cli_value operands; /* what its operands are, for completions (CLI_FLAG: none) */
	const char *operand_choices; /* CLI_CHOICE: the words */
};

/* Each command's entry point, cmd_NAME, its option table and its examples; its cmd_NAME.c owns
 * them. */
#define CLI_TABLES(name) \
	int cmd_##name(int argc, char **argv); \
	extern const struct cli_option name##_options[]; \
	extern const struct cli_example name##_examples[];
CLI_TABLES(topo) CLI_TABLES(threads) CLI_TABLES(run) CLI_TABLES(matrix) CLI_TABLES(advise)
CLI_TABLES(analyze) CLI_TABLES(report) CLI_TABLES(fleet) CLI_TABLES(completions)
#undef CLI_TABLES

extern const struct subcommand subcommands[];
extern const size_t subcommand_count;
/* What every command also takes (cli_getopt adds them): -h/--help and -V/--version. */
extern const struct cli_option cli_common_options[];
/* The ids cli_getopt gives them: no table uses them. */
enum { CLI_OPT_HELP = INT_MAX - 2, CLI_OPT_VERSION };

/* A number's macro as a string, for the option tables' sentences ("default " STR(30)). */
#define STR_(x) #x
#define STR(x) STR_(x)

/* The row named name, or NULL. */
const struct subcommand *subcommand_find(const char *name);

/* smtbench's own help on out: its usage lines, and with full (--help) its commands and exit
 * statuses too. */
void cli_top_help(FILE *out, bool full);

/* The man page in, with every generated part (between `.\" generated: NAME` and `.\" end of
 * generated: NAME` lines: the SYNOPSIS, each command's OPTIONS, the EXAMPLES) written anew from
 * the tables, out. `make man` runs it on cli/smtbench.1; tests/e2e/test_man.sh checks that the
 * page is what it writes. -1 with a message on stderr for a marker that names nothing. */
int cli_man_refresh(FILE *in, FILE *out);

/*
 * getopt_long for command NAME (optind and opterr as getopt_long reads them) over its rows and
 * cli_common_options. Returns the id of the option found, the same for its short letter as for
 * its long name, or -1 at the end. --help prints cli_help and exits 0; --version prints
 * "smtbench VERSION" and exits 0. An unknown, ambiguous or valueless option is one line on
 * stderr, with a suggestion where one is close ("did you mean --trials or --trial-time?"), and
 * exit 2.
 */
int cli_getopt(int argc, char **argv, const char *name);
/* The row of the option cli_getopt returned last (--trials' row for --trials, --out's for -o). */
extern const struct cli_option *cli_option;

/* root (taken) as JSON (indented by 2, with flags, e.g. JSON_PRESERVE_ORDER) and a newline on
 * stdout, flushed: EXIT_OK, or EXIT_FAILURE_RUNTIME after saying so (root NULL: it could not be
 * made). */
int cli_print_json(json_t *root, size_t flags);

struct report;
/* A report of advise or fleet on stdout: its text, or with json its JSON; the exit status. */
int summary_print(const struct report *r, bool json);

/* A bad command line: prints one line, "smtbench: MESSAGE (see 'smtbench COMMAND --help')",
 * and exits with EXIT_USAGE. */
void usage_exit(const char *command, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));

/* Values of the command line, parsed strictly (whole string, no sign, no blanks); 0 or -1. */
/* A decimal integer in [min, max]. */
int parse_ulong(const char *text, unsigned long min, unsigned long max, unsigned long *out);
/* "A,B": two CPU numbers (OS indexes), each in [0, 1<<20]. */
int parse_cpu_pair(const char *text, int out[2]);
/* Durations: "90" or "90s", "15m", "8h", "2d", also "1h30m"; result in seconds, > 0. */
int parse_duration_s(const char *text, double *out_s);

/* The value of the option cli_getopt returned last (optarg), or exit 2 naming it as typed
 * (--trials or --blocks) with what it must be: a whole number in [min, max]; a number in
 * [min, max], or (0, max] for min 0 (what names the unit: "of seconds", "of percent"); a
 * duration such as 90s in (0, max_s]; the index of one of its row's choices. */
unsigned long cli_whole(const char *command, unsigned long min, unsigned long max);
double cli_real(const char *command, double min, double max, const char *what);
double cli_duration(const char *command, double max_s);
int cli_choice(const char *command);

/* --rope PCT, one definition for analyze, report and matrix: the region of practical
 * equivalence, a ratio between 1/(1+PCT/100) and 1+PCT/100, symmetric in log (analysis.h's enum
 * analysis_verdict says what it decides): a whole-string number above 0 and below 100.
 * Otherwise one line naming command's --rope, and exit 2. CLI_ROPE_HELP is what each command's
 * --rope row says first (--help, the man page, the completions). */
#define CLI_ROPE_HELP "region of practical equivalence: a ratio between 1/(1+PCT/100) and " \
	"1+PCT/100, symmetric in log"
double cli_rope_pct(const char *command, const char *text);

#endif
