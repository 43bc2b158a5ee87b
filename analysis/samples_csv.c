/*
 * samples_csv.c — the column table's names, the line splitter and the row formatter.
 */
#include "analysis/samples_csv.h"

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

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

/* Bit 7 of each byte of the result is set where w has a comma: exact per byte (no borrow
 * from one byte into the next, unlike the shorter has-zero trick). */
static uint64_t comma_bytes(uint64_t w)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7fULL;
	uint64_t x = w ^ 0x2c2c2c2c2c2c2c2cULL; /* commas become zero bytes */
	return ~(((x & low7) + low7) | x | low7);
}

size_t samples_csv_split(char *line, char **fields, size_t max)
{
	/* Eight bytes at a time where there is no comma: the loader splits ten million lines. */
	size_t count = 1, len = strlen(line), i = 0;
	if (max)
		fields[0] = line;
	for (;;) {
		uint64_t commas = 0;
		size_t base = i;
		if (i + 8 <= len) {
			uint64_t w;
			memcpy(&w, line + i, sizeof w);
			commas = comma_bytes(w);
			i += 8;
		} else if (i < len) {
			commas = line[i] == ',' ? 0x80 : 0;
			i++;
		} else {
			break;
		}
		for (; commas; commas &= commas - 1) {
			size_t at = base + (size_t)__builtin_ctzll(commas) / 8;
			line[at] = '\0';
			if (count < max)
				fields[count] = line + at + 1;
			count++;
		}
	}
	return count;
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
