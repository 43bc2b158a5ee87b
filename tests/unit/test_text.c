/*
 * test_text.c — common/text.h: the one sanitiser (what is printable UTF-8, its \xNN escapes, in
 * place over a JSON value, keys included), bytes that must come back exactly through JSON, and
 * the program's messages on stderr, escaped whole.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "common/text.h"
#include "tests/harness.h"

static void escapes(void)
{
	static const struct { const char *in, *want; } cases[] = {
		{ "plain text", "plain text" },
		{ "caf\xc3\xa9 \xe2\x80\x93 \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x80\x93 \xf0\x9f\x98\x80" },
		{ "a\x1b[31mb", "a\\x1b[31mb" },
		{ "line\nbreak", "line\\x0abreak" },
		{ "del\x7f", "del\\x7f" },
		{ "c1 \xc2\x9b", "c1 \\xc2\\x9b" },             /* C1 control (CSI) in UTF-8 */
		{ "bad \xff end", "bad \\xff end" },
		{ "lead F8 \xf8\x80\x80", "lead F8 \\xf8\\x80\\x80" }, /* F5-FF never start UTF-8 */
		{ "lead FF \xff\xbf\xbf", "lead FF \\xff\\xbf\\xbf" },
		{ "overlong \xe0\x80\xaf", "overlong \\xe0\\x80\\xaf" },
		{ "surrogate \xed\xa0\x80", "surrogate \\xed\\xa0\\x80" },
		{ "cut \xe2\x80", "cut \\xe2\\x80" },
		{ "back\\slash", "back\\slash" },              /* printable: shown as it is */
		{ "back\\slash\x1b", "back\\\\slash\\x1b" },   /* needs escapes: backslash doubled */
		{ "evil\xe2\x80\xaegnp.sh", "evil\\xe2\\x80\\xaegnp.sh" }, /* U+202E right-to-left override */
		{ "a\xe2\x81\xa6" "b\xe2\x81\xa9", "a\\xe2\\x81\\xa6b\\xe2\\x81\\xa9" }, /* U+2066, U+2069 isolates */
		{ "\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c", "\\xe2\\x80\\x8e\\xe2\\x80\\x8f\\xd8\\x9c" }, /* LRM, RLM, ALM */
		{ "line\xe2\x80\xa8sep", "line\\xe2\\x80\\xa8sep" },  /* U+2028 line separator */
		{ "dash \xe2\x80\x90 \xe2\x81\xb0", "dash \xe2\x80\x90 \xe2\x81\xb0" }, /* neighbours stay */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *got = text_escape(cases[i].in);
		CHECK_STR(got, cases[i].want, "text_escape");
		CHECK(got && text_is_printable(got), "case %zu: the escape is printable text", i);
		char *again = got ? text_escape(got) : NULL;
		CHECK(again && got && !strcmp(again, got), "case %zu: escaping twice changes nothing", i);
		free(again);
		free(got);
	}
}

static void json_values_and_keys(void)
{
	json_t *j = json_pack("{s:s, s:[s, i], s:{s:s}}", "host", "evil\x1b[2J", "list", "ok\n", 3,
	                      "nested", "k", "v");
	json_object_set_new(json_object_get(j, "nested"), "key\x1b]0;x\x07", json_string("value"));
	CHECK(j != NULL, "the JSON to escape is made");
	text_escape_json(j); /* exits on out of memory: it has no failure to return */
	CHECK_STR(json_string_value(json_object_get(j, "host")), "evil\\x1b[2J", "a value");
	CHECK_STR(json_string_value(json_array_get(json_object_get(j, "list"), 0)), "ok\\x0a",
	          "an array's string");
	json_t *nested = json_object_get(j, "nested");
	CHECK(json_object_get(nested, "key\\x1b]0;x\\x07") && !json_object_get(nested, "key\x1b]0;x\x07"),
	      "a key with an escape sequence is renamed to its escape");
	CHECK_STR(json_string_value(json_object_get(nested, "k")), "v", "other members stay");
	json_decref(j);
}

static void bytes_round_trip(void)
{
	static const char *const texts[] = { "plain", "", "caf\xc3\xa9", "\xff", "/tmp/caf\xe9",
	                                     "a\x1b[31mb", "\xf8\x80\x80" };
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		json_t *j = text_to_json(texts[i]);
		char *dumped = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
		json_t *back = dumped ? json_loads(dumped, JSON_DECODE_ANY, NULL) : NULL;
		char *got = back ? text_from_json(back) : NULL;
		CHECK(got && !strcmp(got, texts[i]), "case %zu: bytes come back exactly through JSON "
		      "(%s)", i, dumped ? dumped : "(none)");
		free(got);
		free(dumped);
		json_decref(back);
		json_decref(j);
	}
	json_t *odd = json_pack("{s:s}", "hex", "fff");
	json_t *nul = json_pack("{s:s}", "hex", "6100");
	json_t *bad = json_pack("{s:s}", "hex", "zz");
	json_t *num = json_integer(3);
	CHECK(!text_from_json(odd) && !text_from_json(nul) && !text_from_json(bad) &&
	      !text_from_json(num), "odd hex, a NUL byte, non-hex and a number are refused");
	json_decref(odd);
	json_decref(nul);
	json_decref(bad);
	json_decref(num);
}

/* What a child writes on stderr when it calls say(kind): text_warnx, text_warn with errno
 * ENOENT, or text_errx, which exits 3. *status is the child's exit status. */
static char *stderr_of(int kind, const char *arg, int *status)
{
	int fds[2];
	if (pipe(fds) != 0)
		return NULL;
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		if (kind == 0)
			text_warnx("cannot open '%s'", arg);
		errno = ENOENT;
		if (kind == 1)
			text_warn("cannot open '%s'", arg);
		if (kind == 2)
			text_errx(3, "cannot open '%s'", arg);
		_exit(0);
	}
	close(fds[1]);
	static char buf[512];
	size_t len = 0;
	ssize_t n;
	while (len + 1 < sizeof buf && (n = read(fds[0], buf + len, sizeof buf - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	close(fds[0]);
	waitpid(pid, status, 0);
	*status = WIFEXITED(*status) ? WEXITSTATUS(*status) : -1;
	return buf;
}

static void messages(void)
{
	const char *hostile = "/tmp/ev\xff\x1b[31mil\na|b";
	int status;
	char *got = stderr_of(0, hostile, &status);
	CHECK_STR(got, "test_text: cannot open '/tmp/ev\\xff\\x1b[31mil\\x0aa|b'\n",
	          "text_warnx escapes a quoted path's bytes, escape sequence and newline");
	got = stderr_of(1, hostile, &status);
	CHECK_STR(got, "test_text: cannot open '/tmp/ev\\xff\\x1b[31mil\\x0aa|b': No such file or "
	          "directory\n", "text_warn adds errno's text as it was when called");
	got = stderr_of(2, "plain \\ path", &status);
	CHECK(status == 3 && !strcmp(got, "test_text: cannot open 'plain \\ path'\n"),
	      "text_errx exits with its status; printable text is shown as it is (got %d, %s)",
	      status, got);
}

/* The one CPU list formatter: ranges of three or more for a person (as taskset writes them),
 * one number per CPU for SMTBENCH_CPUS. */
static void cpu_lists(void)
{
	static const struct { int cpus[8], n; const char *ranges, *plain; } cases[] = {
		{ { 0 }, 0, "", "" },
		{ { 3 }, 1, "3", "3" },
		{ { 1, 0 }, 2, "0,1", "0,1" },
		{ { 4, 5, 6 }, 3, "4-6", "4,5,6" },
		{ { 0, 1, 2, 3, 8 }, 5, "0-3,8", "0,1,2,3,8" },
		{ { 5, 7, 9, 10 }, 4, "5,7,9,10", "5,7,9,10" },
		{ { CPU_SETSIZE - 3, CPU_SETSIZE - 2, CPU_SETSIZE - 1 }, 3, "1021-1023", "1021,1022,1023" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cpu_set_t set;
		CPU_ZERO(&set);
		for (int k = 0; k < cases[i].n; k++)
			CPU_SET(cases[i].cpus[k], &set);
		char *ranges = text_cpu_list(&set, true), *plain = text_cpu_list(&set, false);
		CHECK_STR(ranges, cases[i].ranges, "CPUs as a list with ranges");
		CHECK_STR(plain, cases[i].plain, "… and one number per CPU");
		free(ranges);
		free(plain);
	}
}

int main(void)
{
	cpu_lists();
	escapes();
	json_values_and_keys();
	bytes_round_trip();
	messages();
	return test_done("test_text");
}
