/*
 * samples_csv.c — the column table's names, the line splitter and the row formatter.
 */
#include "common/samples_csv.h"

#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

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
