#include "cli/commands.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/number.h"
#include "common/text.h"
#include "report/report.h"

/* A row's name, its entry point, option table and examples (commands.h's CLI_TABLES). */
#define COMMAND(cmd) \
	.name = #cmd, .run = cmd_##cmd, .options = cmd##_options, .examples = cmd##_examples

const struct subcommand subcommands[] = {
	{ COMMAND(topo),
	  "show cores, SMT siblings and the CPU pair each placement would use",
	  "smtbench topo [--topology SPEC|FILE.xml] [--pair A,B] [--json]" },
	{ COMMAND(threads),
	  "which cores a running program's threads share, and whether cores sat idle",
	  "smtbench threads PID... [--for DURATION] [--interval MS] [--json]", .operands = CLI_PID },
	{ COMMAND(run),
	  "run interleaved paired trials of a kernel or command in each placement",
	  "smtbench run [--placements LIST] [--kernel NAME] [--iters N | --trial-time S]\n"
	  "             [--blocks N | --duration T] [--precision PCT] [--warmup-blocks N]\n"
	  "             [--pair A,B] [--seed N] [--out DIR] [--trial-timeout SECONDS]\n"
	  "             [--beside-kernel NAME [--beside-iters N] | --one-process]\n"
	  "             [--progress auto|bar|lines|none] [--progress-interval T]\n"
	  "             [[--name A[,B]] -- COMMAND [ARG ...] [--beside COMMAND [ARG ...]]]\n"
	  "smtbench run --resume DIR [--progress MODE] [--progress-interval T]\n"
	  "smtbench run --list-kernels", .options_first = true },
	{ COMMAND(matrix),
	  "the interference matrix: each workload's slowdown beside each other workload",
	  "smtbench matrix [--kernels LIST | --commands FILE] [--placement sibling|non-sibling|same-pu]\n"
	  "                [--blocks N | --duration T] [--precision PCT] [--rope PCT] [--warmup-blocks N]\n"
	  "                [--trial-time S] [--seed N] [--out DIR] [--trial-timeout SECONDS]\n"
	  "                [--progress auto|bar|lines|none] [--progress-interval T]\n"
	  "smtbench matrix --resume DIR [--progress MODE] [--progress-interval T]" },
	{ COMMAND(advise),
	  "which workloads should share a core, SMT on or off, and a script that applies it",
	  "smtbench advise DIR [--objective throughput|worst] [--cores N] [--count NAME=N,...]\n"
	  "                [--draws N] [--seed N] [--json | --slurm] [--script FILE]\n"
	  "smtbench advise FLEETDIR [--objective throughput|worst] [--cores N] [--count NAME=N,...]\n"
	  "                [--draws N] [--seed N] [--json]", .operands = CLI_DIR },
	{ COMMAND(analyze),
	  "Bayesian comparison of the placements of a results folder, or of two files",
	  "smtbench analyze DIR | FILE_A FILE_B | HYPERFINE.json  [--seed-grid]\n"
	  "                 [--model normal|t] [--unit trial|process] [--rope PCT] [--grid N]\n"
	  "                 [--json] [--exclude-contaminated] [--unpaired | --paired]\n"
	  "                 [--metric user|wall]", .operands = CLI_FILE },
	{ COMMAND(report),
	  "(re)write report.md, report.json, the plots and report.html of a folder",
	  "smtbench report DIR [--exclude-contaminated] [--rope PCT] [--out DIR]",
	  .operands = CLI_DIR },
	{ COMMAND(fleet),
	  "one answer for many nodes' results folders: pooled per CPU model, outliers",
	  "smtbench fleet DIR... [--json] [--out DIR]", .operands = CLI_DIR },
	{ COMMAND(completions),
	  "shell completions generated from the option tables: bash, zsh or fish",
	  "smtbench completions bash|zsh|fish|options",
	  .operands = CLI_CHOICE, .operand_choices = "bash zsh fish options" },
};
const size_t subcommand_count = sizeof subcommands / sizeof subcommands[0];

const struct cli_option cli_common_options[] = {
	{ "help", 'h', CLI_OPT_HELP, CLI_FLAG, NULL, NULL, "show this help" },
	{ "version", 'V', CLI_OPT_VERSION, CLI_FLAG, NULL, NULL, "show smtbench's version" },
	{ 0 },
};

const struct subcommand *subcommand_find(const char *name)
{
	for (size_t i = 0; name && i < subcommand_count; i++)
		if (!strcmp(subcommands[i].name, name))
			return &subcommands[i];
	return NULL;
}

const struct cli_option *cli_option;

void usage_exit(const char *command, const char *fmt, ...)
{
	char message[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	text_errx(EXIT_USAGE, "%s (see 'smtbench %s --help')", message, command);
}

int cli_print_json(json_t *root, size_t flags)
{
	int status = EXIT_FAILURE_RUNTIME;
	if (!root)
		text_warnx("the JSON could not be made (a name that is not UTF-8)");
	else if (json_dumpf(root, stdout, JSON_INDENT(2) | flags) < 0 || putchar('\n') == EOF
	         || fflush(stdout) == EOF)
		text_warn("cannot write JSON to standard output");
	else
		status = EXIT_OK;
	json_decref(root);
	return status;
}

int summary_print(const struct report *r, bool json)
{
	if (!json)
		return report_print(r, stdout) == 0 ? EXIT_OK : EXIT_FAILURE_RUNTIME;
	return cli_print_json(json_incref(r->json), JSON_PRESERVE_ORDER);
}

int parse_ulong(const char *text, unsigned long min, unsigned long max, unsigned long *out)
{
	/* The one number rule (common/number.h), without a sign. */
	long long v;
	if (!text || text[0] == '-' || number_parse_whole(text, &v) != NUMBER_OK
	    || (unsigned long long)v < min || (unsigned long long)v > max)
		return -1;
	*out = (unsigned long)v;
	return 0;
}

int parse_cpu_pair(const char *text, int out[2])
{
	const char *comma = text ? strchr(text, ',') : NULL;
	if (!comma || comma - text > 15)
		return -1;
	char first[16];
	snprintf(first, sizeof first, "%.*s", (int)(comma - text), text);
	unsigned long a, b;
	if (parse_ulong(first, 0, 1UL << 20, &a) || parse_ulong(comma + 1, 0, 1UL << 20, &b))
		return -1;
	out[0] = (int)a;
	out[1] = (int)b;
	return 0;
}

int parse_duration_s(const char *text, double *out_s)
{
	static const char units[] = "smhd";
	static const double seconds[] = { 1, 60, 3600, 86400 };
	double total = 0;
	for (const char *p = text; p && *p;) {
		if (!isdigit((unsigned char)*p))
			return -1;
		errno = 0;
		char *end = NULL;
		unsigned long v = strtoul(p, &end, 10);
		const char *unit = *end ? strchr(units, *end) : NULL;
		/* A bare number is seconds, and only allowed alone or last. */
		if (errno || v > 100UL * 365 * 86400 || (*end && !unit))
			return -1;
		total += (double)v * (unit ? seconds[unit - units] : 1);
		p = unit ? end + 1 : end;
	}
	if (!(total > 0))
		return -1;
	*out_s = total;
	return 0;
}

unsigned long cli_whole(const char *command, unsigned long min, unsigned long max)
{
	unsigned long value;
	char top[32];
	snprintf(top, sizeof top, max == (unsigned long)INT64_MAX ? "2^63-1" : "%lu", max);
	if (parse_ulong(optarg, min, max, &value) != 0)
		usage_exit(command, "--%s: '%s' is not a whole number from %lu to %s", cli_option->name,
		           optarg, min, top);
	return value;
}

double cli_real(const char *command, double min, double max, const char *what)
{
	double value;
	if (number_parse_real(optarg, &value) != NUMBER_OK || !(min > 0 ? value >= min : value > min)
	    || !(value <= max))
		usage_exit(command, "--%s: '%s' is not a number %s %s %g %s %g", cli_option->name,
		           optarg, what, min > 0 ? "from" : "above", min, min > 0 ? "to" : "and at most",
		           max);
	return value;
}

double cli_duration(const char *command, double max_s)
{
	double value;
	if (parse_duration_s(optarg, &value) != 0 || value > max_s)
		usage_exit(command, "--%s: '%s' is not a time such as 60 (seconds), 90s, 15m, 8h, 2d "
		           "or 1h30m, at most %.0f s", cli_option->name, optarg, max_s);
	return value;
}

int cli_choice(const char *command)
{
	char copy[256], list[256] = "", *save = NULL;
	const char *words[TEXT_SUGGEST_MAX];
	size_t count = 0;
	snprintf(copy, sizeof copy, "%s", cli_option->choices);
	for (char *w = strtok_r(copy, " ", &save); w && count < TEXT_SUGGEST_MAX;
	     w = strtok_r(NULL, " ", &save))
		words[count++] = w;
	for (size_t i = 0; i < count; i++) {
		if (!strcmp(optarg, words[i]))
			return (int)i;
		size_t used = strlen(list);
		snprintf(list + used, sizeof list - used, "%s%s", i == 0 ? "" : i + 1 == count
		         ? " or " : ", ", words[i]);
	}
	char near[256];
	text_suggest(optarg, words, count, "", near, sizeof near);
	if (*near)
		usage_exit(command, "--%s: '%s': did you mean %s? (use %s)", cli_option->name, optarg,
		           near, list);
	usage_exit(command, "--%s: '%s': use %s", cli_option->name, optarg, list);
}

double cli_rope_pct(const char *command, const char *text)
{
	double pct = NAN; /* a number by the one rule (common/number.h) */
	if (number_parse_real(text, &pct) != NUMBER_OK || !(pct > 0) || !(pct < 100))
		usage_exit(command, "--rope '%s': give a percentage above 0 and below 100, e.g. "
		           "--rope 1", text);
	return pct;
}
