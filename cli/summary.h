/*
 * summary.h — what `smtbench run` prints when it ends: the analysis of the folder so far and
 * where its reports are.
 */
#ifndef SMTBENCH_CLI_SUMMARY_H
#define SMTBENCH_CLI_SUMMARY_H

#include <stdbool.h>
#include <stdio.h>

/* Analyses dir, writes its reports and prints the summary to out. False when the reports could
 * not be written (said on stderr; the summary then points to none): the run failed to give what
 * it promised, though its samples are safe. True otherwise, also when there is nothing to
 * analyse yet (a short or interrupted run; said). */
bool summary_after_run(const char *dir, FILE *out);

#endif
