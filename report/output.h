/*
 * output.h — what `analyze` prints: an analysis result as text for a person and as the --json
 * contract (whose keys report.json's "analysis" member reuses).
 */
#ifndef SMTBENCH_REPORT_OUTPUT_H
#define SMTBENCH_REPORT_OUTPUT_H

#include <stdio.h>

#include <jansson.h>

#include "analysis/analysis.h"

/* The summary for a person: for each comparison the answer in plain words first, then the
 * numbers, then the diagnostics. Returns 0, or -1 when writing failed (errno set). */
int output_analysis_text(FILE *out, const struct analysis_result *r);

/* The --json contract: two files → the comparison object itself (plus "diagnostics"); a
 * folder → {"source", "unit", "model", "comparisons": [...], "groups": [...], "warnings",
 * "notes", ...}. A new reference the caller releases with json_decref(); NULL on out of memory. */
json_t *output_analysis_json(const struct analysis_result *r);

/* One comparison as its JSON object (the keys of the contract). New reference. */
json_t *output_comparison_json(const struct analysis_comparison *c);

/* What SMT gives one core, in the one sentence every output uses: "With SMT this core did 1.24×
 * the work of one copy alone (95% CI 1.18–1.30): SMT on is worth +24% throughput for `w`
 * (baseline solo, paired by block)", or what it costs, or that the interval includes 1. workload
 * may be NULL. A new string (NULL on out of memory, or when the yield is not known). */
char *output_smt_yield_sentence(const struct analysis_smt_yield *y, const char *workload);

#endif
