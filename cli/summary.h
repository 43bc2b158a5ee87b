/*
 * summary.h — what `smtbench run` prints when it ends: the analysis of the folder so far and
 * where its reports are.
 */
#ifndef SMTBENCH_CLI_SUMMARY_H
#define SMTBENCH_CLI_SUMMARY_H

#include <stdio.h>

void summary_after_run(const char *dir, FILE *out);

#endif
