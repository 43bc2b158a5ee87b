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
 * "calibration"}], "cells": [{"victim", "aggressor" (null: the baseline), "placement"}]}. */
json_t *matrix_meta_json(const struct experiment *e);

/*
 * Reads meta.json's "matrix" object back into e (its workloads' recorded files and counts, and
 * the plan's cells; the files are checked by resume). -1 with a one-line err naming the key.
 */
int matrix_meta_load(const char *dir, const json_t *matrix, struct experiment *e, char *err,
                     size_t err_size);

#endif
