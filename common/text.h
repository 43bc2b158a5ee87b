/*
 * text.h — strings every layer builds, and the one sanitiser for text that came from outside.
 *
 * Command lines, paths, meta.json's strings and samples.csv's fields may hold any bytes: a
 * terminal escape sequence, a newline, bytes that are not UTF-8. Every reader passes such text
 * through text_escape() once, where it enters (the loaders, the report's meta.json, fleet), so
 * that no byte of it reaches a terminal, a report or a JSON file raw; the runner's lines escape
 * what they quote, and every message on stderr goes through text_warnx() and its kin, which
 * escape it whole. The one exception is the runner's progress (runner/experiment.c), written
 * with fprintf: a redrawn line and timestamped lines that hold only numbers and names the tool
 * has checked (placements, kernels, and --name and --commands names, which allow only
 * A-Z a-z 0-9 . _ + -), so that nothing in them needs an escape. Text that needs an escape
 * has its backslashes doubled too, so that its escapes read back to the bytes they stand for;
 * printable text is shown as it is (a literal "\x1b" in it then reads like an escape: where the
 * exact bytes matter, meta.json keeps them, text_to_json).
 */
#ifndef SMTBENCH_COMMON_TEXT_H
#define SMTBENCH_COMMON_TEXT_H

#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>

#include <jansson.h>

/* The UTF-8 byte-order mark some editors write at a file's start: the readers skip it. */
#define UTF8_BOM "\xEF\xBB\xBF"

/* Whether text is printable UTF-8 throughout: no control character (C0, DEL, C1), no
 * bidirectional control (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069: they make a line
 * read in another order than its bytes) nor line or paragraph separator (U+2028, U+2029), no
 * byte that is not part of a valid, shortest UTF-8 sequence. */
bool text_is_printable(const char *text);

/* text as it may be shown: itself when printable (text_is_printable), else every byte that is
 * not printable UTF-8 as \xNN and each backslash as \\, so that within an escaped text the
 * escapes are unambiguous. Printable text keeps its backslashes as they are, so that a command
 * such as `printf 'a\n'` reads as typed: a printable text that spells "\x1b" therefore shows as
 * an escaped ESC would. meta.json keeps the bytes exactly; samples.csv's workload column is this
 * form (results/README.md).
 * A new string the caller frees; NULL on out of memory. */
char *text_escape(const char *text);
/* The same, exiting on out of memory as common/alloc.h's helpers do. */
char *xescaped(const char *text);

/* Every string in a JSON value (object members' values and their keys, arrays, nested)
 * replaced by text_escape() of it, in place. Exits on out of memory (common/alloc.h). */
void text_escape_json(json_t *value);

/*
 * The err(3) family for every message this program writes on stderr: "smtbench: MESSAGE\n",
 * where MESSAGE is the text formatted and then passed through text_escape() whole, so that a
 * path, an argument or a name quoted in it reaches the terminal escaped whatever the caller
 * did (a message that also quotes already escaped text then shows its backslashes doubled:
 * still unambiguous). text_warn and text_err append ": " and errno's text, as warn(3) does;
 * text_errx and text_err exit with status. A message that cannot be escaped (out of memory)
 * is written with every byte outside printable ASCII as '?'.
 */
void text_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void text_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define text_errx(status, ...) (text_warnx(__VA_ARGS__), exit(status))
#define text_err(status, ...) (text_warn(__VA_ARGS__), exit(status))

/*
 * Bytes that must come back exactly (a command's arguments, a path) in JSON, which holds only
 * UTF-8: a string when text is valid UTF-8, else {"hex": "2f746d70ff"}, its bytes in hex. NULL
 * when jansson runs out of memory (ours exits: common/alloc.h). text_from_json() reads either
 * form back to the same bytes: a new string, or NULL for any other value (or hex that is not an
 * even count of hex digits, or holds a NUL).
 */
json_t *text_to_json(const char *text);
char *text_from_json(const json_t *value);

/* The one formatter of a set of CPUs, ascending, into a new string (exits on out of memory):
 * a list with ranges of three or more ("0-3,8,9", as taskset -c writes it) for what a person
 * reads, or without ranges ("0,1,2,3,8,9") for SMTBENCH_CPUS, one number per CPU as programs
 * split it; "" for none. */
char *text_cpu_list(const cpu_set_t *set, bool ranges);

/* The names closest to word, each after prefix, as "--a, --b or --c" into out ("" if none is
 * close): those that word begins (an abbreviation, maybe ambiguous), else those one edit away
 * (two for a word of six letters or more: a typo), shortest first. The one did-you-mean of every
 * name the user types: options, commands, placements, kernels. At most TEXT_SUGGEST_MAX names
 * are looked at. */
#define TEXT_SUGGEST_MAX 64
void text_suggest(const char *word, const char *const *names, size_t count, const char *prefix,
                  char *out, size_t out_size);

#endif
