/*
 * diagnostics.c — what is wrong with one group's samples, in one set of words (diagnostics.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/placements.h"
#include "common/text.h"
#include "report/diagnostics.h"
#include "report/format.h"

static double half_width(const double ci[2])
{
	return fabs(ci[1] - ci[0]) / 2;
}

/* Each producer sets *out to its sentence, or to NULL when it has nothing to say of d; -1 when
 * it had something and memory ran out. */
#define SAY(text) return (*out = (text)) ? 0 : -1

static int drift_of(const struct analysis_group_diagnostics *d, const char *unit, char **out)
{
	*out = NULL;
	if (!isfinite(d->drift_slope_ci[0]) || !(d->drift_slope_ci[0] > 0 || d->drift_slope_ci[1] < 0))
		return 0;
	struct format_ring ns = { .next = 0 };
	double res = half_width(d->drift_slope_ci);
	double hres = fabs(d->second_half_mean_s - d->first_half_mean_s) / 4;
	SAY(text_printf(
		"drift in %s: %s s per %s (95%% CI %s to %s); first half %s s, second half %s s",
		d->name, format_num(&ns, d->drift_slope_s, res), unit,
		format_num(&ns, d->drift_slope_ci[0], res), format_num(&ns, d->drift_slope_ci[1], res),
		format_num(&ns, d->first_half_mean_s, hres), format_num(&ns, d->second_half_mean_s, hres)));
}

/* Plain files name their outliers by line (where a person finds them), folders by trial. */
static int outliers_of(const struct analysis_group_diagnostics *d, const char *unit, char **out)
{
	*out = NULL;
	if (!d->outlier_count)
		return 0;
	const long *at = d->outlier_lines ? d->outlier_lines : d->outlier_trials;
	char list[160] = "";
	size_t used = 0;
	for (size_t k = 0; k < d->outlier_count && k < 8 && used < sizeof list; k++)
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%ld", k ? ", " : "", at[k]);
	SAY(text_printf("%zu outlier(s) in %s (robust |z| > %g; kept, not dropped): %s %s%s",
	                d->outlier_count, d->name, ANALYSIS_OUTLIER_Z,
	                d->outlier_lines ? "line" : strcmp(unit, "sample") ? "trial" : "sample", list,
	                d->outlier_count > 8 ? ", ..." : ""));
}

static int poor_overlap_of(const struct analysis_group_diagnostics *d, const char *unit,
                           char **out)
{
	(void)unit;
	*out = NULL;
	if (!d->poor_overlap_trials)
		return 0;
	if (d->overlap_of_measured)
		SAY(text_printf("poor overlap in %s: in %zu of %zu trials the workload beside (role b) "
		                "ended before the measured one had run %g%% of its time, leaving it "
		                "alone for the rest", d->name, d->poor_overlap_trials, d->overlap_known,
		                100 * ANALYSIS_POOR_OVERLAP));
	SAY(text_printf("poor overlap in %s: in %zu of %zu trials the two processes ran together "
	                "less than %g%% of the time", d->name, d->poor_overlap_trials,
	                d->overlap_known, 100 * ANALYSIS_POOR_OVERLAP));
}

/* Not for a placement whose processes take turns on one PU by design (same-pu). */
static int wall_above_cpu_of(const struct analysis_group_diagnostics *d, const char *unit,
                             char **out)
{
	(void)unit;
	*out = NULL;
	if (!d->wall_above_cpu_trials || placement_info_time_shared(d->name))
		return 0;
	SAY(text_printf("wall time above %gx CPU time in %zu of %zu %s trials: the processes waited "
	                "(other load on the machine?)", ANALYSIS_WALL_ABOVE_CPU,
	                d->wall_above_cpu_trials, d->wall_known, d->name));
}

/* Each problem a group can have, in the order shown. A new one is one line more here. */
static int (*const producers[])(const struct analysis_group_diagnostics *, const char *,
                                char **) = {
	drift_of, outliers_of, poor_overlap_of, wall_above_cpu_of,
};

int diagnostics_of_group(const struct analysis_group_diagnostics *d, const char *unit,
                         char ***list, size_t *n)
{
	for (size_t k = 0; k < sizeof producers / sizeof producers[0]; k++) {
		char *s;
		if (producers[k](d, unit, &s) < 0)
			return -1;
		if (!s)
			continue;
		char **grown = realloc(*list, (*n + 1) * sizeof *grown);
		if (!grown) {
			free(s);
			return -1;
		}
		*list = grown;
		grown[(*n)++] = s;
	}
	return 0;
}
