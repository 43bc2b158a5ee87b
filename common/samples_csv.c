/*
 * samples_csv.c — the column table's names, the line splitter, the row formatter, the form
 * of per_cpu_s, and the workload's token.
 */
#include "common/samples_csv.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "common/number.h"
#include "common/text.h"

const char *const samples_csv_names[SAMPLES_COLUMN_COUNT] = {
#define SAMPLES_CSV_NAME_(id, name, required) name,
	SAMPLES_CSV_COLUMNS(SAMPLES_CSV_NAME_)
#undef SAMPLES_CSV_NAME_
};

const bool samples_csv_required[SAMPLES_COLUMN_COUNT] = {
#define SAMPLES_CSV_REQUIRED_(id, name, required) required,
	SAMPLES_CSV_COLUMNS(SAMPLES_CSV_REQUIRED_)
#undef SAMPLES_CSV_REQUIRED_
};

size_t samples_csv_split_n(char *line, size_t len, char **fields, size_t max)
{
	size_t count = 1, i = 0;
	if (max)
		fields[0] = line;
#ifdef __SSE2__
	/* Sixteen bytes at a time, the commas as the bits of a mask: the loader splits ten
	 * million lines. */
	const __m128i comma = _mm_set1_epi8(',');
	for (; i + 16 <= len; i += 16) {
		__m128i bytes = _mm_loadu_si128((const __m128i *)(const void *)(line + i));
		unsigned commas = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, comma));
		for (; commas; commas &= commas - 1) {
			size_t at = i + (size_t)__builtin_ctz(commas);
			line[at] = '\0';
			if (count < max)
				fields[count] = line + at + 1;
			count++;
		}
	}
#endif
	for (; i < len; i++)
		if (line[i] == ',') {
			line[i] = '\0';
			if (count < max)
				fields[count] = line + i + 1;
			count++;
		}
	return count;
}

size_t samples_csv_split(char *line, char **fields, size_t max)
{
	return samples_csv_split_n(line, strlen(line), fields, max);
}

void samples_row_clear(struct samples_row *row)
{
	memset(row, 0, sizeof *row);
}

void samples_row_set(struct samples_row *row, enum samples_column col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(row->text[col], sizeof row->text[col], fmt, ap);
	va_end(ap);
	row->set[col] = true;
}

int samples_row_print(const struct samples_row *row, FILE *out)
{
	for (int c = 0; c < SAMPLES_COLUMN_COUNT; c++)
		if (!row->set[c])
			return c;
	for (int c = 0; c < SAMPLES_COLUMN_COUNT; c++)
		fprintf(out, "%s%s", c ? "," : "", row->text[c]);
	fputc('\n', out);
	return -1;
}

void samples_per_cpu_format(char *buf, size_t len, const int *cpus, const double *seconds,
                            int n)
{
	size_t used = 0;
	if (len)
		buf[0] = '\0';
	for (int k = 0; k < n && used < len; k++) {
		int wrote = snprintf(buf + used, len - used, "%s%d:%.6f", k ? ";" : "", cpus[k],
		                     seconds[k]);
		if (wrote < 0)
			break;
		used += (size_t)wrote;
	}
}

/* A CPU number: digits only, at most 7 of them (CPU_SETSIZE's and the kernel's are far
 * below). */
static int parse_cpu_number(const char *p, const char *end, int *out)
{
	if (p == end || end - p > 7)
		return -1;
	int v = 0;
	for (; p < end; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (*p - '0');
	}
	*out = v;
	return 0;
}

int samples_per_cpu_parse(const char *text, size_t len, int cpus[SAMPLES_PER_CPU_MAX],
                          double seconds[SAMPLES_PER_CPU_MAX])
{
	const char *p = text, *end = text + len;
	int n = 0;
	while (p < end) {
		if (n == SAMPLES_PER_CPU_MAX)
			return -1;
		const char *item_end = memchr(p, ';', (size_t)(end - p));
		if (!item_end)
			item_end = end;
		const char *colon = memchr(p, ':', (size_t)(item_end - p));
		if (!colon || parse_cpu_number(p, colon, &cpus[n]) != 0
		    /* seconds as the runner writes them: digits, a point and digits */
		    || !number_parse_plain(colon + 1, (size_t)(item_end - colon - 1), &seconds[n]))
			return -1;
		n++;
		if (item_end < end && item_end + 1 == end)
			return -1; /* a trailing ';' */
		p = item_end < end ? item_end + 1 : end;
	}
	return n;
}

int samples_per_cpu_unspread(const double *seconds, int n)
{
	double total = 0, most = 0;
	for (int k = 0; k < n; k++) {
		total += seconds[k];
		most = seconds[k] > most ? seconds[k] : most;
	}
	if (n < 2 || !(total > 0))
		return -1;
	return total - most < SAMPLES_UNSPREAD_SHARE * total;
}

void samples_csv_token(const char *in, char *out, size_t outlen)
{
	char *shown = in ? xescaped(in) : NULL;
	size_t i = 0;
	while (shown && shown[i]) {
		unsigned char c = (unsigned char)shown[i];
		/* one escape (\xNN or \\) or one character: all of it, or nothing of it */
		size_t len = c == '\\' ? (shown[i + 1] == 'x' ? 4 : 2)
		             : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
		if (i + len + 1 > outlen)
			break;
		for (size_t k = 0; k < len; k++, i++)
			out[i] = shown[i] == ',' || shown[i] == '"' ? '_' : shown[i];
	}
	out[i] = '\0';
	free(shown);
}
