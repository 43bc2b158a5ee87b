/*
 * help.c — what the option tables tell a person: cli_getopt's answers (--help, a refused option
 * and the one meant), `smtbench --help` and `smtbench COMMAND --help`, the man page's generated
 * parts. See commands.h.
 */
#include "cli/commands.h"

#include <ctype.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "common/text.h"

/* Help's width, and where an option's sentence starts at the latest. */
#define HELP_WIDTH 79
#define HELP_COLUMN 28

/* The synopsis of `smtbench help`, after the commands'. */
static const char help_synopsis[] = "smtbench help [COMMAND] | --help | --version";
/* The exit statuses, as one paragraph (the top help's and each command's). */
static const char exit_status[] =
	"Exit status: 0 success; 1 a failure while running; 2 bad input (nothing written); 3 not "
	"possible on this machine (e.g. no placement it can give, a kernel this CPU cannot run); "
	"128+signal when interrupted (130 for ^C: the results folder is valid; continue it with "
	"--resume).";

/* Writes each line of synopsis after prefix; later lines get as many spaces instead. */
static void synopsis_print(FILE *out, const char *prefix, const char *synopsis)
{
	int indent = (int)strlen(prefix);
	for (const char *line = synopsis; *line;) {
		size_t len = strcspn(line, "\n");
		fprintf(out, "%*s%.*s\n", indent, line == synopsis ? prefix : "", (int)len, line);
		line += len + (line[len] == '\n');
	}
}

void cli_top_help(FILE *out, bool full)
{
	if (full)
		fprintf(out, "smtbench %s — do these two threads share a core (SMT), and does it "
		        "hurt?\n\n", SMTBENCH_VERSION);
	fprintf(out, "usage:\n");
	for (size_t i = 0; i < subcommand_count; i++)
		synopsis_print(out, "  ", subcommands[i].synopsis);
	synopsis_print(out, "  ", help_synopsis);
	if (!full)
		return;
	fprintf(out, "\n");
	for (size_t i = 0; i < subcommand_count; i++)
		fprintf(out, "  %-9s %s\n", subcommands[i].name, subcommands[i].summary);
	fprintf(out, "\n`smtbench COMMAND --help` (or `smtbench help COMMAND`) describes each "
	        "command's\noptions; every command takes -h/--help and -V/--version.\n\n%s\n",
	        exit_status);
}

/* text from column `at`, words wrapped before HELP_WIDTH, continuation lines indented by
 * `indent`; ends the line. */
static void wrap(FILE *out, const char *text, int at, int indent)
{
	for (const char *p = text; *p;) {
		int len = (int)strcspn(p, " ");
		if (at > indent && at + 1 + len > HELP_WIDTH) {
			fprintf(out, "\n%*s", indent, "");
			at = indent;
		} else if (at > indent) {
			fputc(' ', out);
			at++;
		}
		at += fprintf(out, "%.*s", len, p);
		p += len + strspn(p + len, " ");
	}
	fputc('\n', out);
}

static void help_option(FILE *out, const struct cli_option *o)
{
	/* The value as help names it: its arg, or its choices as a|b|c. */
	char value[96], left[128];
	snprintf(value, sizeof value, "%s", o->value == CLI_FLAG ? "" : o->arg ? o->arg : o->choices);
	for (char *p = value; *p; p++)
		if (*p == ' ' && !o->arg)
			*p = '|';
	snprintf(left, sizeof left, "%c%c%c --%s%s%s", o->letter ? '-' : ' ', o->letter ? o->letter
	         : ' ', o->letter ? ',' : ' ', o->name, *value ? " " : "", value);
	int at = fprintf(out, "  %s", left);
	if (at >= HELP_COLUMN) {
		fputc('\n', out);
		at = 0;
	}
	fprintf(out, "%*s", HELP_COLUMN - at, "");
	wrap(out, o->help, HELP_COLUMN, HELP_COLUMN);
}

/* `smtbench COMMAND --help` from c's rows: usage, summary, options, examples, exit status. */
static void cli_help(FILE *out, const struct subcommand *c)
{
	synopsis_print(out, "usage: ", c->synopsis);
	fprintf(out, "\n%c%s.\n\nOptions:\n", toupper((unsigned char)c->summary[0]), c->summary + 1);
	for (int table = 0; table < 2; table++)
		for (const struct cli_option *o = table ? cli_common_options : c->options; o->name; o++)
			if (o->help)
				help_option(out, o);
	fprintf(out, "\nExamples:\n");
	for (const struct cli_example *e = c->examples; e->line; e++) {
		char *what = xasprintf("%s:", e->what);
		fprintf(out, "  ");
		wrap(out, what, 2, 2);
		fprintf(out, "    %s\n", e->line);
		free(what);
	}
	fputc('\n', out);
	wrap(out, exit_status, 0, 0);
	fprintf(out, "The manual: man smtbench.\n");
}

#define MAX_OPTIONS 64

/*
 * The command's synopsis from its " -- " on, when word is one of the words written there (run's
 * --beside): such a word belongs after the command the user runs, not among the options. Into
 * form, the brackets left open by the cut line closed away; false if word is not there.
 */
static bool form_after_dashes(const char *command, const char *word, char *form, size_t size)
{
	const struct subcommand *c = subcommand_find(command);
	const char *dashes = c ? strstr(c->synopsis, " -- ") : NULL;
	if (!dashes)
		return false;
	size_t len = strcspn(dashes + 1, "\n"), wlen = strlen(word);
	bool found = false;
	for (const char *p = dashes + 1; p < dashes + 1 + len && !found; p++)
		found = !strncmp(p, word, wlen) && p[-1] != '-' && !isalnum((unsigned char)p[wlen])
		        && p[wlen] != '-';
	int open = 0;
	for (size_t i = 0; i < len; i++)
		open += dashes[1 + i] == '[' ? 1 : dashes[1 + i] == ']' ? -1 : 0;
	while (open < 0 && len > 0 && dashes[len] == ']') /* the last of the line */
		len--, open++;
	snprintf(form, size, "%.*s", (int)len, dashes + 1);
	return found;
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
	char suggestion[256], form[256];
	text_suggest(word, names, count, "--", suggestion, sizeof suggestion);
	if (!strchr(given, '=') && form_after_dashes(command, given, form, sizeof form))
		usage_exit(command, "'%s' goes after the command to run, not among the options: "
		           "smtbench %s [OPTION ...] %s%s%s%s", given, command, form,
		           *suggestion ? " (an option instead: " : "", suggestion,
		           *suggestion ? ")" : "");
	usage_exit(command, "%s option '%s'%s%s%s", *suggestion && begun > 1 ? "ambiguous"
	           : "unknown", given, *suggestion ? "; did you mean " : "", suggestion,
	           *suggestion ? "?" : "");
}

/* getopt_long's view of a command's rows and the common ones: the options (each row's val 128
 * plus the index in rows[] of the first row of its id, apart from every letter) and the short
 * letters. Returns how many rows. */
static size_t getopt_tables(const struct subcommand *c, const struct cli_option **rows,
                            struct option *options, char *optstring)
{
	size_t n = 0, len = 0;
	optstring[len++] = c->options_first ? '+' : ':';
	if (c->options_first)
		optstring[len++] = ':';
	for (int table = 0; table < 2; table++)
		for (const struct cli_option *o = table ? cli_common_options : c->options;
		     o->name && n < MAX_OPTIONS; o++) {
			bool value = o->value != CLI_FLAG;
			size_t first = 0; /* an alias shares its option's val: no ambiguity between them */
			while (first < n && rows[first]->id != o->id)
				first++;
			rows[n] = o;
			options[n++] = (struct option){ o->name, value ? required_argument : no_argument,
			                                NULL, 128 + (int)first };
			if (o->letter) {
				optstring[len++] = o->letter;
				if (value)
					optstring[len++] = ':';
			}
		}
	options[n] = (struct option){ NULL, 0, NULL, 0 };
	optstring[len] = '\0';
	return n;
}

int cli_getopt(int argc, char **argv, const char *name)
{
	static struct option options[MAX_OPTIONS + 1];
	static const struct cli_option *rows[MAX_OPTIONS];
	static char optstring[3 * MAX_OPTIONS + 4];
	const struct subcommand *command = subcommand_find(name);
	if (!command)
		abort(); /* a command that is not in the table: a bug */
	size_t n = getopt_tables(command, rows, options, optstring);
	opterr = 0; /* errors are ours: one line with the program's name */
	int index = -1;
	int c = getopt_long(argc, argv, optstring, options, &index);
	if (c == -1)
		return -1;
	if (c == '?' || c == ':')
		option_failure(name, c, options, argv);
	const struct cli_option *row = index >= 0 ? rows[index] : NULL; /* as typed: --trials */
	for (size_t i = 0; i < n && !row; i++) /* a short letter */
		if (rows[i]->letter == c)
			row = rows[i];
	if (!row)
		abort(); /* getopt_long returned what it was not given */
	cli_option = row;
	if (row->id == CLI_OPT_HELP || row->id == CLI_OPT_VERSION) {
		if (row->id == CLI_OPT_HELP)
			cli_help(stdout, command);
		else
			printf("smtbench %s\n", SMTBENCH_VERSION);
		exit(fflush(stdout) == 0 ? EXIT_OK : EXIT_FAILURE_RUNTIME);
	}
	return row->id;
}

/* ---- The man page ---- */

/* text for roff: '-' as \-, a backslash as \e, '±' as \(+-, a leading '.' or '\'' kept from
 * being a request; with bold_options, every --word in bold. */
static void roff_text(FILE *out, const char *text, size_t len, bool bold_options)
{
	static const char plus_minus[] = "±";
	if (len && (text[0] == '.' || text[0] == '\''))
		fputs("\\&", out);
	bool bold = false;
	for (size_t i = 0; i < len; i++) {
		if (bold_options && !bold && !strncmp(text + i, "--", 2) && i + 2 < len
		    && islower((unsigned char)text[i + 2]) && (i == 0 || strchr(" (/", text[i - 1])))
			bold = fputs("\\fB", out) >= 0;
		if (!strncmp(text + i, plus_minus, strlen(plus_minus)) && i + 1 < len) {
			fputs("\\(+-", out);
			i += strlen(plus_minus) - 1;
		} else if (text[i] == '-' || text[i] == '\\') {
			fputs(text[i] == '-' ? "\\-" : "\\e", out);
		} else {
			fputc(text[i], out);
		}
		if (bold && (i + 1 == len || !strchr("-abcdefghijklmnopqrstuvwxyz", text[i + 1])))
			bold = fputs("\\fR", out) < 0;
	}
}

/* A synopsis line in roff: options and literal words bold, the names of values (upper case)
 * italic, punctuation as it is. */
static void roff_synopsis(FILE *out, const char *line, size_t len)
{
	const char *word_chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._";
	for (size_t i = 0; i < len;) {
		size_t n = strspn(line + i, word_chars);
		if (n > len - i)
			n = len - i;
		if (n == 0) {
			fputc(line[i++], out);
			continue;
		}
		bool name = isupper((unsigned char)line[i]);
		bool plain = !name && !islower((unsigned char)line[i]) && line[i] != '-';
		fputs(plain ? "" : name ? "\\fI" : "\\fB", out);
		roff_text(out, line + i, n, false);
		fputs(plain ? "" : "\\fR", out);
		i += n;
	}
	fputc('\n', out);
}

static void man_synopsis(FILE *out)
{
	fprintf(out, ".nf\n");
	for (size_t i = 0; i <= subcommand_count; i++) {
		const char *s = i < subcommand_count ? subcommands[i].synopsis : help_synopsis;
		for (const char *line = s; *line;) {
			size_t len = strcspn(line, "\n");
			roff_synopsis(out, line, len);
			line += len + (line[len] == '\n');
		}
	}
	fprintf(out, ".fi\n");
}

/* One option's heading: -L, --NAME VALUE. */
static void man_heading(FILE *out, const struct cli_option *o)
{
	if (o->letter)
		fprintf(out, "\\fB\\-%c\\fR, ", o->letter);
	fprintf(out, "\\fB\\-\\-");
	roff_text(out, o->name, strlen(o->name), false);
	fprintf(out, "\\fR");
	if (o->arg) {
		fprintf(out, " \\fI");
		roff_text(out, o->arg, strlen(o->arg), false);
		fprintf(out, "\\fR");
	}
	const char *choices = o->value == CLI_CHOICE ? o->choices : "";
	for (const char *v = choices; *v;) { /* each word bold, as a|b|c */
		size_t len = strcspn(v, " ");
		fprintf(out, "%s\\fB", v == choices ? " " : "|");
		roff_text(out, v, len, false);
		fprintf(out, "\\fR");
		v += len + (v[len] == ' ');
	}
	fputc('\n', out);
}

static void man_options(FILE *out, const struct cli_option *rows)
{
	for (const struct cli_option *o = rows; o->name; o++) {
		fprintf(out, o->help ? ".TP\n" : ".TQ\n");
		man_heading(out, o);
		if (o->help && o[1].name && !o[1].help)
			continue; /* its aliases first, then the sentence */
		const struct cli_option *said = o;
		while (!said->help)
			said--;
		char *sentence = xasprintf("%c%s.", toupper((unsigned char)said->help[0]),
		                           said->help + 1);
		roff_text(out, sentence, strlen(sentence), true);
		fputc('\n', out);
		free(sentence);
	}
}

static void man_examples(FILE *out)
{
	for (size_t i = 0; i < subcommand_count; i++)
		for (const struct cli_example *e = subcommands[i].examples; e->line; e++) {
			char *what = xasprintf("%c%s:", toupper((unsigned char)e->what[0]), e->what + 1);
			fprintf(out, ".PP\n");
			roff_text(out, what, strlen(what), true);
			fprintf(out, "\n.PP\n.RS\n.nf\n");
			roff_text(out, e->line, strlen(e->line), false);
			fprintf(out, "\n.fi\n.RE\n");
			free(what);
		}
}

/* The generated part called name; -1 when there is none of that name. */
static int man_part(FILE *out, const char *name)
{
	const struct subcommand *c = subcommand_find(name);
	if (c)
		man_options(out, c->options);
	else if (!strcmp(name, "every command"))
		man_options(out, cli_common_options);
	else if (!strcmp(name, "synopsis"))
		man_synopsis(out);
	else if (!strcmp(name, "examples"))
		man_examples(out);
	else
		return -1;
	return 0;
}

int cli_man_refresh(FILE *in, FILE *out)
{
	static const char begin[] = ".\\\" generated: ", end[] = ".\\\" end of generated: ";
	char *line = NULL, part[128] = "";
	size_t cap = 0;
	while (fileio_read_line(in, &line, &cap, 1 << 16) > 0) {
		bool opens = !part[0] && !strncmp(line, begin, strlen(begin));
		bool closes = part[0] && !strncmp(line, end, strlen(end));
		if (!part[0] || closes)
			fputs(line, out);
		if (closes)
			part[0] = '\0';
		if (!opens)
			continue;
		snprintf(part, sizeof part, "%.*s", (int)strcspn(line + strlen(begin), "\n"),
		         line + strlen(begin));
		if (man_part(out, part) != 0) {
			text_warnx("the man page names a generated part '%s' that no table has", part);
			free(line);
			return -1;
		}
	}
	free(line);
	if (part[0])
		text_warnx("the man page's generated part '%s' has no end line", part);
	return part[0] || ferror(in) ? -1 : 0;
}
