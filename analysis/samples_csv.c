/*
 * samples_csv.c — the column table's names, the line splitter and the row formatter.
 */
#include "analysis/samples_csv.h"

#include <stdarg.h>
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

size_t samples_csv_split(char *line, char **fields, size_t max)
{
	size_t count = 0;
	char *p = line;
	for (;;) {
		if (count < max)
			fields[count] = p;
		count++;
		char *comma = strchr(p, ',');
		if (!comma)
			break;
		*comma = '\0';
		p = comma + 1;
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
