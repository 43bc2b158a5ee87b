/*
 * format.c — the one rule for numbers shown to a person (format.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "report/format.h"

const char *format_number(char *buf, size_t size, double v, double resolution)
{
	if (isnan(v)) {
		snprintf(buf, size, "n/a");
		return buf;
	}
	if (isinf(v)) {
		snprintf(buf, size, v > 0 ? "inf" : "-inf");
		return buf;
	}
	/* No resolution, or one below a double's own noise (an interval of zero width, as a drift
	 * fitted to perfectly linear data has, is 1e-18 wide after rounding): three or four
	 * significant digits, not twelve decimals of nothing. */
	if (!(resolution > 0) || !isfinite(resolution) || resolution < fabs(v) * 1e-9)
		resolution = v != 0 ? fabs(v) * 1e-3 : 1e-6;
	/* In double and clamped before the conversion to int: for a subnormal v the fallback
	 * resolution is 0 and its logarithm infinite. */
	double wanted = -floor(log10(resolution));
	/* At least three significant digits, so a narrow interval never prints as one number. */
	if (v != 0)
		wanted = fmax(wanted, 2 - floor(log10(fabs(v))));
	int decimals = wanted < 0 ? 0 : !(wanted < 12) ? 12 : (int)wanted;
	if (v != 0 && (fabs(v) < 1e-4 || fabs(v) >= 1e9))
		snprintf(buf, size, "%.3e", v);
	else
		snprintf(buf, size, "%.*f", decimals, v);
	if (!strcmp(buf, "-0") || (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1)))
		memmove(buf, buf + 1, strlen(buf)); /* "-0.00" reads as a sign that is not there */
	return buf;
}

const char *format_num(struct format_ring *ring, double v, double resolution)
{
	char *b = ring->buf[ring->next++ % FORMAT_RING_SIZE];
	return format_number(b, sizeof ring->buf[0], v, resolution);
}

const char *format_design(char *buf, size_t size, const struct analysis_comparison *c)
{
	if (c->design != ANALYSIS_DESIGN_PAIRED)
		snprintf(buf, size, "unpaired (independent groups)");
	else if (c->blocks_dropped)
		snprintf(buf, size, "paired by block (%zu block%s; %zu dropped)", c->blocks_paired,
		         c->blocks_paired == 1 ? "" : "s", c->blocks_dropped);
	else
		snprintf(buf, size, "paired by block (%zu block%s)", c->blocks_paired,
		         c->blocks_paired == 1 ? "" : "s");
	return buf;
}

const char *format_rope(char *buf, size_t size, double rope_pct)
{
	double hi = 1 + rope_pct / 100;
	snprintf(buf, size, "%.3g–%.3g×", 1 / hi, hi);
	return buf;
}

const char *format_interval(char *buf, size_t size, const double ci[2], double res)
{
	char lo[48], hi[48];
	format_number(lo, sizeof lo, ci[0], res);
	format_number(hi, sizeof hi, ci[1], res);
	snprintf(buf, size, "%s%s%s", lo, ci[0] < 0 || ci[1] < 0 ? " to " : "–", hi);
	return buf;
}
