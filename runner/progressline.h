/*
 * progressline.h — the progress bar's one redrawn line, fitted to the terminal's width.
 *
 * The line is made of parts, each with a rank (0: always shown; higher: dropped first). Drawn
 * as a bar, the parts that fit in the terminal's columns less one are shown, in their order,
 * lowest ranks first: a line wider than the terminal wraps, and "\r\e[K" would clear only its
 * last row, so the bar would scroll. The width comes from TIOCGWINSZ on stderr, read again
 * after SIGWINCH (a flag its handler sets, read when the next line is drawn); 80 columns where
 * stderr is not a terminal that says.
 */
#ifndef SMTBENCH_RUNNER_PROGRESSLINE_H
#define SMTBENCH_RUNNER_PROGRESSLINE_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#define PROGRESSLINE_MAX_PARTS 16
#define PROGRESSLINE_PART_LEN 160

struct progressline {
	int nparts;
	char text[PROGRESSLINE_MAX_PARTS][PROGRESSLINE_PART_LEN];
	int rank[PROGRESSLINE_MAX_PARTS];
	bool instead[PROGRESSLINE_MAX_PARTS]; /* shown only when the part before it is not */
};

/* Appends a part (printf-style; cut at PROGRESSLINE_PART_LEN; ignored past the last part).
 * instead: a shorter form of the part just added, shown in its place when that one does not
 * fit (rank above that part's); never in the whole line. */
void progressline_add(struct progressline *l, int rank, bool instead, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The parts that fit in width columns (UTF-8 characters, one column each), lowest ranks
 * first and in their order; the first part is cut to the width when even it does not fit.
 * PROGRESSLINE_WHOLE: every part fits, so none shown instead (for timestamped lines). */
void progressline_fit(const struct progressline *l, int width, char *out, size_t size);
#define PROGRESSLINE_WHOLE INT_MAX

/* Installs the SIGWINCH handler (SA_RESTART) that makes progressline_columns read the width
 * again. */
void progressline_watch_resize(void);

/* stderr's terminal width in columns: known (the caller's last answer; 0 at first) unless a
 * SIGWINCH came since, else read again. */
int progressline_columns(int known);

#endif
