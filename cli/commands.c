#include "cli/commands.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/number.h"
#include "runner/util.h"

const struct subcommand subcommands[] = {
	{ "topo", cmd_topo,
	  "show cores, SMT siblings and the CPU pair each placement would use",
	  "smtbench topo [--topology SPEC|FILE.xml] [--pair A,B] [--json]",
	  topo_long_options, false },
	{ "threads", cmd_threads,
	  "which cores a running program's threads share, and whether cores sat idle",
	  "smtbench threads PID... [--for DURATION] [--interval MS] [--json]",
	  threads_long_options, false },
	{ "run", cmd_run,
	  "run interleaved paired trials of a kernel or command in each placement",
	  "smtbench run [--placements LIST] [--kernel NAME] [--iters N | --trial-time S]\n"
	  "             [--blocks N | --duration T] [--precision PCT] [--warmup-blocks N]\n"
	  "             [--pair A,B] [--seed N] [--out DIR] [--trial-timeout SECONDS]\n"
	  "             [--beside-kernel NAME [--beside-iters N] | --one-process]\n"
	  "             [--progress auto|bar|lines|none] [--progress-interval T]\n"
	  "             [[--name A[,B]] -- COMMAND [ARG ...] [--beside COMMAND [ARG ...]]]\n"
	  "smtbench run --resume DIR [--progress MODE] [--progress-interval T]\n"
	  "smtbench run --list-kernels",
	  run_long_options, true },
	{ "matrix", cmd_matrix,
	  "the interference matrix: each workload's slowdown beside each other workload",
	  "smtbench matrix [--kernels LIST | --commands FILE] [--placement sibling|non-sibling|same-pu]\n"
	  "                [--blocks N | --duration T] [--precision PCT] [--rope PCT] [--warmup-blocks N]\n"
	  "                [--trial-time S] [--seed N] [--out DIR] [--trial-timeout SECONDS]\n"
	  "                [--progress auto|bar|lines|none] [--progress-interval T]\n"
	  "smtbench matrix --resume DIR [--progress MODE] [--progress-interval T]",
	  matrix_long_options, false },
	{ "analyze", cmd_analyze,
	  "Bayesian comparison of the placements of a results folder, or of two files",
	  "smtbench analyze DIR | FILE_A FILE_B | HYPERFINE.json  [--seed-grid]\n"
	  "                 [--model normal|t] [--unit trial|process] [--rope PCT] [--grid N]\n"
	  "                 [--json] [--exclude-contaminated] [--unpaired | --paired]\n"
	  "                 [--metric user|wall]",
	  analyze_long_options, false },
	{ "report", cmd_report,
	  "(re)write report.md, report.json, the plots and report.html of a folder",
	  "smtbench report DIR [--exclude-contaminated] [--rope PCT] [--out DIR]",
	  report_long_options, false },
	{ "fleet", cmd_fleet,
	  "one answer for many nodes' results folders: pooled per CPU model, outliers",
	  "smtbench fleet DIR... [--json] [--out DIR]",
	  fleet_long_options, false },
	{ "completions", cmd_completions,
	  "shell completions generated from this table: bash, zsh or fish",
	  "smtbench completions bash|zsh|fish|options",
	  completions_long_options, false },
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

/*
 * The short options, chosen once for every command: a command with the long option answers to
 * its letter as well (cli_getopt). A letter means one thing everywhere; a long option without a
 * row here has no short form.
 */
static const struct short_option {
	const char *name;
	char letter;
} short_options[] = {
	{ "help", 'h' },
	{ "version", 'V' },
	{ "json", 'j' },
	{ "out", 'o' },
	{ "name", 'n' },
	{ "topology", 't' },
	{ "pair", 'p' },
	{ "kernel", 'k' },
	{ "iters", 'i' },
	{ "blocks", 'b' },
	{ "warmup-blocks", 'w' },
	{ "duration", 'd' },
	{ "seed", 's' },
};

char short_option_letter(const char *name)
{
	for (size_t i = 0; i < sizeof short_options / sizeof short_options[0]; i++)
		if (!strcmp(short_options[i].name, name))
			return short_options[i].letter;
	return 0;
}

/* The val cli_getopt gives --version: no command's table uses it. */
#define VERSION_VAL (INT_MAX - 1)
#define MAX_OPTIONS 64

const char *cli_option_name = "";

/* Optimal string alignment distance (edits, with a swap of two neighbours as one), capped. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 63 || lb > 63)
		return SIZE_MAX;
	size_t d[64][64];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}

void suggest_names(const char *word, const char *const *names, size_t count, const char *prefix,
                   char *out, size_t out_size)
{
	bool chosen[MAX_OPTIONS] = { false };
	size_t nchosen = 0, len = strlen(word);
	if (count > MAX_OPTIONS)
		count = MAX_OPTIONS;
	for (size_t i = 0; i < count && len > 0; i++)
		if (!strncmp(names[i], word, len) && strlen(names[i]) > len)
			chosen[i] = true, nchosen++;
	if (nchosen == 0) {
		/* A typo: the nearest names, within one edit for a short word and two for a longer. */
		size_t best = len <= 5 ? 1 : 2;
		for (size_t i = 0; i < count; i++) {
			size_t d = edit_distance(word, names[i]);
			if (d < best && d > 0) {
				best = d;
				memset(chosen, 0, sizeof chosen);
			}
			chosen[i] = d == best;
		}
		for (size_t i = 0; i < count; i++)
			nchosen += chosen[i];
	}
	/* Shortest first (--trials before --trial-time), else in the table's order. */
	size_t used = 0, listed = 0;
	if (out_size)
		out[0] = '\0';
	for (size_t length = 1; length < 64 && listed < nchosen; length++)
		for (size_t i = 0; i < count && used < out_size; i++) {
			if (!chosen[i] || strlen(names[i]) != length)
				continue;
			listed++;
			const char *sep = listed == 1 ? "" : listed == nchosen ? " or " : ", ";
			int n = snprintf(out + used, out_size - used, "%s%s%s", sep, prefix, names[i]);
			if (n < 0)
				return;
			used += (size_t)n;
		}
}

/* One line for an option getopt_long refused (c is '?' or ':'), with a suggestion; exits 2. */
static void option_failure(const char *command, int c, const struct option *options,
                           char *const *argv)
{
	const char *given = argv[optind - 1];
	if (c == ':')
		usage_exit(command, "option '%s' needs a value", given);
	if (strncmp(given, "--", 2) != 0)
		usage_exit(command, "unknown option '-%c'", optopt > 0 ? optopt : '?');
	char word[64];
	snprintf(word, sizeof word, "%.*s", (int)strcspn(given + 2, "="), given + 2);
	const char *names[MAX_OPTIONS] = { NULL };
	size_t count = 0, begun = 0; /* the options word begins, an alias of the first not counted */
	const struct option *exact = NULL, *first = NULL;
	for (const struct option *o = options; o->name && count < MAX_OPTIONS; o++) {
		names[count++] = o->name;
		if (!*word || strncmp(o->name, word, strlen(word)) != 0)
			continue;
		if (!strcmp(o->name, word))
			exact = o;
		if (!first)
			first = o, begun = 1;
		else if (o->val != first->val)
			begun++;
	}
	const struct option *meant = exact ? exact : begun == 1 ? first : NULL;
	if (meant && meant->has_arg == no_argument && strchr(given, '='))
		usage_exit(command, "option '--%s' takes no value", meant->name);
	char suggestion[256];
	suggest_names(word, names, count, "--", suggestion, sizeof suggestion);
	if (!*suggestion)
		usage_exit(command, "unknown option '%s'", given);
	usage_exit(command, "%s option '%s'; did you mean %s?", begun > 1 ? "ambiguous" : "unknown",
	           given, suggestion);
}

int cli_getopt(int argc, char **argv, const char *name)
{
	static struct option options[MAX_OPTIONS + 3];
	static char optstring[3 * MAX_OPTIONS + 8];
	const struct subcommand *command = subcommand_find(name);
	if (!command)
		abort(); /* a command that is not in the table: a bug */
	/* The row's options, then --version and --help where the row has none. */
	size_t n = 0, len = 0;
	bool have_help = false;
	optstring[len++] = command->options_first ? '+' : ':';
	if (command->options_first)
		optstring[len++] = ':';
	for (const struct option *o = command->options; o->name && n < MAX_OPTIONS; o++) {
		options[n++] = *o;
		have_help |= !strcmp(o->name, "help");
	}
	options[n++] = (struct option){ "version", no_argument, NULL, VERSION_VAL };
	if (!have_help)
		options[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	options[n] = (struct option){ NULL, 0, NULL, 0 };
	for (size_t i = 0; i < n; i++) {
		char letter = short_option_letter(options[i].name);
		if (!letter)
			continue;
		optstring[len++] = letter;
		if (options[i].has_arg != no_argument)
			optstring[len++] = ':';
		if (options[i].has_arg == optional_argument)
			optstring[len++] = ':';
	}
	optstring[len] = '\0';

	opterr = 0; /* errors are ours: one line with the program's name */
	int index = -1;
	int c = getopt_long(argc, argv, optstring, options, &index);
	if (c == -1)
		return -1;
	if (c == '?' || c == ':')
		option_failure(name, c, options, argv);
	if (index < 0) /* a short letter: the option it stands for */
		for (size_t i = 0; i < n && index < 0; i++)
			if (short_option_letter(options[i].name) == c)
				index = (int)i;
	if (index < 0)
		abort(); /* getopt_long returned a letter it was not given */
	cli_option_name = options[index].name;
	if (options[index].val == VERSION_VAL) {
		printf("smtbench %s\n", SMTBENCH_VERSION);
		exit(fflush(stdout) == 0 ? EXIT_OK : EXIT_FAILURE_RUNTIME);
	}
	return options[index].val;
}

double cli_rope_pct(const char *command, const char *text)
{
	double pct = NAN; /* a number by the one rule (common/number.h) */
	if (number_parse_real(text, &pct) != NUMBER_OK || !(pct > 0) || !(pct < 100))
		usage_exit(command, "--rope '%s': give a percentage above 0 and below 100, e.g. "
		           "--rope 1", text);
	return pct;
}
