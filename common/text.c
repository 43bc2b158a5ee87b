#include "common/text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error.h"

/* The bidirectional controls and the line and paragraph separators that text.h names (the
 * "Trojan Source" trick; newlines in disguise): escaped as the C0 and C1 controls are. */
static bool is_format_control(unsigned cp)
{
	return cp == 0x061c || cp == 0x200e || cp == 0x200f || (cp >= 0x2028 && cp <= 0x202e)
	       || (cp >= 0x2066 && cp <= 0x2069);
}

/* Length of the valid UTF-8 sequence at s that is not a control character (C0, DEL, C1), or
 * 0: a terminal must never be sent the first byte of an escape sequence. */
static size_t printable_len(const unsigned char *s)
{
	if (s[0] < 0x20 || s[0] == 0x7f)
		return 0;
	if (s[0] < 0x80)
		return 1;
	/* Lead bytes: C2-DF two, E0-EF three, F0-F4 four; C0, C1 and F5-FF are never UTF-8. */
	size_t len = s[0] >= 0xf5 ? 0 : s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	if (len == 0)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	unsigned cp = len == 2 ? (s[0] & 0x1fu) << 6 | (s[1] & 0x3fu)
	            : len == 3 ? (s[0] & 0x0fu) << 12 | (s[1] & 0x3fu) << 6 | (s[2] & 0x3fu)
	                       : (s[0] & 0x07u) << 18 | (s[1] & 0x3fu) << 12 | (s[2] & 0x3fu) << 6
	                         | (s[3] & 0x3fu);
	bool overlong = (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
	bool bad = overlong || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)
	           || (cp >= 0x80 && cp <= 0x9f) || is_format_control(cp);
	return bad ? 0 : len;
}

bool text_is_printable(const char *text)
{
	const unsigned char *s = (const unsigned char *)text;
	for (size_t i = 0, len; s[i]; i += len)
		if (!(len = printable_len(s + i)))
			return false;
	return true;
}

char *text_escape(const char *text)
{
	if (text_is_printable(text))
		return strdup(text);
	const unsigned char *s = (const unsigned char *)text;
	char *out = malloc(4 * strlen(text) + 1), *o = out;
	if (!out)
		return NULL;
	for (size_t i = 0; s[i];) {
		size_t len = printable_len(s + i);
		if (len == 0 || s[i] == '\\') {
			o += s[i] == '\\' ? sprintf(o, "\\\\") : sprintf(o, "\\x%02x", s[i]);
			i++;
		} else {
			memcpy(o, s + i, len);
			o += len;
			i += len;
		}
	}
	*o = '\0';
	return out;
}

char *xescaped(const char *text)
{
	char *shown = text_escape(text);
	if (!shown)
		text_errx(EXIT_FAILURE_RUNTIME, "out of memory (%zu bytes)", 4 * strlen(text) + 1);
	return shown;
}

/* One message on stderr, escaped whole (text.h); with_errno appends errno's text as it was on
 * entry (formatting may change errno). */
static void say(bool with_errno, const char *fmt, va_list ap)
{
	int saved_errno = errno;
	va_list again;
	va_copy(again, ap);
	char *message = NULL, fallback[1024];
	if (vasprintf(&message, fmt, ap) < 0)
		message = NULL;
	char *shown = message ? text_escape(message) : NULL;
	if (!shown) { /* out of memory: no escapes, but no control byte either */
		vsnprintf(fallback, sizeof fallback, fmt, again);
		for (unsigned char *c = (unsigned char *)fallback; *c; c++)
			if (*c < 0x20 || *c >= 0x7f)
				*c = '?';
	}
	va_end(again);
	error_say(shown ? shown : fallback, with_errno ? strerror(saved_errno) : NULL);
	free(shown);
	free(message);
	errno = saved_errno;
}

void text_warnx(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(false, fmt, ap);
	va_end(ap);
}

void text_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(true, fmt, ap);
	va_end(ap);
}

/* An object's keys that are not printable, renamed to their escapes (a key is shown too: a
 * report lists meta.json's members by name). Collected first, then renamed: the walk must not
 * change the object it walks. */
static void escape_keys(json_t *object)
{
	char **bad = NULL;
	size_t count = 0;
	const char *key;
	json_t *item;
	json_object_foreach(object, key, item)
		if (!text_is_printable(key))
			strings_push(&bad, &count, xstrdup(key));
	for (size_t i = 0; i < count; i++) {
		char *shown = xescaped(bad[i]);
		if (json_object_set(object, shown, json_object_get(object, bad[i])) != 0
		    || json_object_del(object, bad[i]) != 0)
			text_errx(EXIT_FAILURE_RUNTIME, "out of memory (escaping a JSON key)");
		free(shown);
	}
	strings_release(&bad, &count);
}

void text_escape_json(json_t *value)
{
	const char *key;
	json_t *item;
	size_t i;
	if (json_is_string(value)) {
		const char *text = json_string_value(value);
		bool cut = strlen(text) != json_string_length(value);
		if (text_is_printable(text) && !cut)
			return;
		/* A string with a NUL inside (\u0000) is cut there, and the cut said. */
		char *clean = xescaped(text), *shown = xasprintf("%s%s", clean, cut ? "\\x00..." : "");
		if (json_string_set(value, shown) != 0)
			text_errx(EXIT_FAILURE_RUNTIME, "out of memory (escaping a JSON string)");
		free(shown);
		free(clean);
	} else if (json_is_array(value)) {
		json_array_foreach(value, i, item)
			text_escape_json(item);
	} else if (json_is_object(value)) {
		json_object_foreach(value, key, item)
			text_escape_json(item);
		escape_keys(value);
	}
}

json_t *text_to_json(const char *text)
{
	json_t *j = json_string(text); /* NULL for text that is not UTF-8 */
	if (j)
		return j;
	size_t len = strlen(text);
	char *hex = xmalloc(2 * len + 1);
	for (size_t i = 0; i < len; i++)
		sprintf(hex + 2 * i, "%02x", (unsigned char)text[i]);
	hex[2 * len] = '\0';
	j = json_pack("{s:s}", "hex", hex);
	free(hex);
	return j;
}

char *text_from_json(const json_t *value)
{
	if (json_is_string(value)) {
		const char *s = json_string_value(value);
		return strlen(s) == json_string_length(value) ? xstrdup(s) : NULL;
	}
	const char *hex = json_string_value(json_object_get(value, "hex"));
	if (!json_is_object(value) || json_object_size(value) != 1 || !hex || strlen(hex) % 2
	    || hex[strspn(hex, "0123456789abcdefABCDEF")])
		return NULL;
	size_t len = strlen(hex) / 2;
	char *out = xmalloc(len + 1);
	for (size_t i = 0; i < len; i++) {
		unsigned byte = 0;
		if (sscanf(hex + 2 * i, "%2x", &byte) != 1 || byte == 0) {
			free(out);
			return NULL;
		}
		out[i] = (char)byte;
	}
	out[len] = '\0';
	return out;
}

char *text_cpu_list(const cpu_set_t *set, bool ranges)
{
	char *list = NULL;
	size_t len = 0;
	FILE *out = xmemstream(&list, &len);
	for (int cpu = 0, last = 0; cpu < CPU_SETSIZE; cpu = last + 1) {
		for (last = cpu; CPU_ISSET(cpu, set) && ranges && last + 1 < CPU_SETSIZE
		     && CPU_ISSET(last + 1, set);)
			last++;
		if (last == cpu + 1) /* two in a row are two numbers, as taskset writes them */
			last = cpu;
		if (CPU_ISSET(cpu, set))
			fprintf(out, "%s%d", ftell(out) ? "," : "", cpu);
		if (last > cpu)
			fprintf(out, "-%d", last);
	}
	return xmemstream_close(out, &list);
}

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

/* Which names to suggest for word, into chosen[]: those word begins, else the nearest typos
 * (within one edit for a short word and two for a longer). Returns how many. */
static size_t choose_names(const char *word, const char *const *names, size_t count,
                           bool chosen[TEXT_SUGGEST_MAX])
{
	size_t nchosen = 0, len = strlen(word);
	for (size_t i = 0; i < count && len > 0; i++)
		if (!strncmp(names[i], word, len) && strlen(names[i]) > len)
			chosen[i] = true, nchosen++;
	if (nchosen > 0)
		return nchosen;
	size_t best = len <= 5 ? 1 : 2;
	for (size_t i = 0; i < count; i++) {
		size_t d = edit_distance(word, names[i]);
		if (d < best && d > 0) {
			best = d;
			memset(chosen, 0, TEXT_SUGGEST_MAX * sizeof *chosen);
		}
		chosen[i] = d == best;
	}
	for (size_t i = 0; i < count; i++)
		nchosen += chosen[i];
	return nchosen;
}

void text_suggest(const char *word, const char *const *names, size_t count, const char *prefix,
                   char *out, size_t out_size)
{
	bool chosen[TEXT_SUGGEST_MAX] = { false };
	if (count > TEXT_SUGGEST_MAX)
		count = TEXT_SUGGEST_MAX;
	size_t nchosen = choose_names(word, names, count, chosen);
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
