/*
 * diagnostics.h — what is wrong with one group's samples, in the words every output uses: the
 * report's warnings and `analyze`'s diagnostics read the same sentences from here.
 */
#ifndef SMTBENCH_REPORT_DIAGNOSTICS_H
#define SMTBENCH_REPORT_DIAGNOSTICS_H

#include <stddef.h>

#include "analysis/analysis.h"

/* Every problem of group d, in the order shown: drift (its slope's interval excludes 0),
 * outliers (kept), poor overlap, wall time above CPU time (not for a placement that time-shares
 * one PU by design). unit: what one sample is ("trial", "sample"). Appends new strings to
 * *list (count *n, grown with realloc); 0, or -1 on out of memory. */
int diagnostics_of_group(const struct analysis_group_diagnostics *d, const char *unit,
                         char ***list, size_t *n);

#endif
