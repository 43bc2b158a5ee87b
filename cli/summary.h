/*
 * summary.h — what `smtbench run` prints when it ends: the analysis of the folder so far and
 * where its reports are; and a report printed as text or JSON.
 */
#ifndef SMTBENCH_CLI_SUMMARY_H
#define SMTBENCH_CLI_SUMMARY_H

#include <stdbool.h>
#include <stdio.h>

/* How the summary ended. */
enum summary_outcome {
	SUMMARY_WRITTEN,     /* the reports written and the answer printed */
	SUMMARY_NOT_WRITTEN, /* the reports could not be written (said on stderr; the summary then
	                      * points to none): the run failed to give what it promised, though its
	                      * samples are safe */
	SUMMARY_NO_ANSWER,   /* nothing to analyse, or (a matrix) reports written but no cell
	                      * compared: the true reason printed */
};

/* What a folder with no answer means after this run. */
enum summary_missing {
	MISSING_NOT_YET,  /* a short or interrupted run: "no analysis yet: WHY" */
	MISSING_NO_NEED,  /* a run of one placement: nothing to compare, "no comparison: WHY" */
	MISSING_FAILED,   /* a run of two placements or more, or a matrix, that ran as planned:
	                   * "no answer: WHY" on stderr, the run failed to answer */
};

/* Analyses dir, writes its reports and prints the summary to out; when there is no answer, its
 * true reason in the words `missing` chooses. */
enum summary_outcome summary_after_run(const char *dir, enum summary_missing missing, FILE *out);

struct report;
/* A report of advise or fleet on stdout: its text, or with json its JSON; the exit status. */
int summary_print(const struct report *r, bool json);

#endif
