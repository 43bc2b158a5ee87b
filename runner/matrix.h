/*
 * matrix.h — the interference matrix (smtbench matrix) as a plan of cells: every ordered pair
 * of kernels (victim on CPU A, aggressor on the placement's partner CPU) and every victim alone
 * on A, its baseline, each run once per randomized block by the same trial loop, store and
 * meta.json as `run` (experiment.h). This module builds the cells and writes and reads
 * meta.json's "matrix" object (results/README.md).
 */
#ifndef SMTBENCH_RUNNER_MATRIX_H
#define SMTBENCH_RUNNER_MATRIX_H

#include <jansson.h>

#include "runner/experiment.h"

/*
 * The cells of n workloads paired on placement, into p (ncells = n * (n + 1)): for each victim
 * v in order, its baseline (solo: a = v, b = -1), then v beside each aggressor g (placement:
 * a = v, b = g). n is at most PLAN_MAX_WORKLOADS.
 */
void matrix_plan_cells(struct plan *p, int n, enum placement placement);

/* The placement the matrix pairs its workloads on (its cells' other than solo). */
enum placement matrix_placement(const struct plan *p);

/* meta.json's "matrix": {"placement", "kernels": [{"name", "iters", "path", "sha256",
 * "calibration"}], "cells": [{"victim", "aggressor" (null: the baseline), "placement"}],
 * "allocation", "rope_pct" (matrix --rope, for the reports; null: none)}; a
 * matrix of commands has "commands": [{"name", "command" (its words, each a string or
 * {"hex": ...}: text_to_json), "path", "sha256", "calibration": null}] instead of "kernels". */
json_t *matrix_meta_json(const struct experiment *e);

/* With --precision, each cell's "stop" in meta.json's matrix.cells (and report.json's): within
 * the target, or still outside it when the budget (--blocks, --duration) ended the run. */
#define MATRIX_STOP_PRECISION "precision reached"
#define MATRIX_STOP_BUDGET "budget"
#define MATRIX_ALLOCATION_RULE "after from_block, each block runs the pair cells whose 95% " \
	"interval is not within target_pct and their victims' baselines"

/* meta.json's matrix.cells[i] given "blocks" (measured trials run), "stop" (null while an
 * interrupted run has not decided it) and "half_pct" (the pair's interval now, ±%; null for a
 * baseline or with too few blocks), from e->allocation. */
void matrix_meta_set_stops(struct experiment *e, bool complete);

/* The longest name a --commands line may give a workload. */
#define MATRIX_NAME_MAX WORKLOAD_NAME_MAX

/*
 * --commands FILE: one workload a line, `name: command args` (blank lines and lines whose first
 * non-blank is '#' skipped); the name of 1 to MATRIX_NAME_MAX characters from [A-Za-z0-9._+-],
 * unique; the command split on blanks, '...' and "..." keeping their bytes (blanks included, no
 * escapes) and joining the text beside them; its first word found and executable as execvp
 * would run it. Fills e->workloads (each named by its line's name, not calibrated). 0, or -1
 * with err "FILE:LINE: what is wrong" (or the file's own error); nothing is written.
 */
int matrix_commands_read(const char *file, struct experiment *e, char *err, size_t err_size);

/*
 * Reads meta.json's "matrix" object back into e (its workloads' recorded files and counts, and
 * the plan's cells; the files are checked by resume). -1 with a one-line err naming the key.
 */
int matrix_meta_load(const char *dir, const json_t *matrix, struct experiment *e, char *err,
                     size_t err_size);

#endif
