#include "runner/progressline.h"

#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define DEFAULT_COLUMNS 80

/* Set by the SIGWINCH handler, cleared when the width is read again: the only state a signal
 * handler may share with the loop. */
static volatile sig_atomic_t resized = 1;

void progressline_add(struct progressline *l, int rank, bool instead, const char *fmt, ...)
{
	if (l->nparts >= PROGRESSLINE_MAX_PARTS)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(l->text[l->nparts], PROGRESSLINE_PART_LEN, fmt, ap);
	va_end(ap);
	l->rank[l->nparts] = rank;
	l->instead[l->nparts] = instead && l->nparts > 0;
	l->nparts++;
}

/* Columns of UTF-8 text: its characters (every one the progress line uses is one column). */
static int columns_of(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* s cut to at most width columns, on a character's boundary, into out. */
static void cut_to(const char *s, int width, char *out, size_t size)
{
	size_t i = 0;
	int cols = 0;
	for (; s[i] && i + 1 < size; i++) {
		bool starts = ((unsigned char)s[i] & 0xC0) != 0x80;
		if (starts && cols == width)
			break;
		cols += starts;
	}
	memcpy(out, s, i);
	out[i] = '\0';
}

void progressline_fit(const struct progressline *l, int width, char *out, size_t size)
{
	bool shown[PROGRESSLINE_MAX_PARTS] = { false };
	int used = 0, max_rank = 0;
	for (int i = 0; i < l->nparts; i++)
		max_rank = l->rank[i] > max_rank ? l->rank[i] : max_rank;
	for (int r = 0; r <= max_rank; r++)
		for (int i = 0; i < l->nparts; i++) {
			int w = columns_of(l->text[i]);
			if (l->rank[i] == r && used + w <= width && !(l->instead[i] && shown[i - 1])) {
				shown[i] = true;
				used += w;
			}
		}
	out[0] = '\0';
	if (l->nparts > 0 && !shown[0]) { /* not even the first part fits: it, cut */
		cut_to(l->text[0], width, out, size);
		return;
	}
	size_t len = 0;
	for (int i = 0; i < l->nparts && len < size; i++)
		if (shown[i])
			len += (size_t)snprintf(out + len, size - len, "%s", l->text[i]);
}

static void on_resize(int sig)
{
	(void)sig;
	resized = 1;
}

void progressline_watch_resize(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_resize;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGWINCH, &sa, NULL);
}

int progressline_columns(int known)
{
	if (!resized && known > 0)
		return known;
	resized = 0;
	struct winsize ws;
	return ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 ? ws.ws_col
	                                                                    : DEFAULT_COLUMNS;
}
