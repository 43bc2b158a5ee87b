/*
 * internal.h — what the fleet's files share and nothing outside fleet/ sees: matrix folders
 * (fleet_matrix.c) read, grouped and pooled, and their parts of each report.
 */
#ifndef SMTBENCH_FLEET_INTERNAL_H
#define SMTBENCH_FLEET_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "fleet/fleet.h"

struct matrix_report;

/* A matrix folder's node from its report (report/matrix.h) and meta.json; the machine's words
 * (host, CPU model, SMT state, kernel) as fleet.c reads them for a run. -1 on out of memory. */
int fleet_matrix_node_fill(struct fleet_matrix_node *n, const char *dir, const char *host,
                           const char *cpu_model, const char *smt, const char *os_kernel,
                           const struct matrix_report *rep);
void fleet_matrix_node_release(struct fleet_matrix_node *n);

/* Groups f->matrix_nodes and pools every cell of each group. -1 on out of memory. */
int fleet_matrix_build_groups(struct fleet *f);
/* Releases the matrix nodes and groups. */
void fleet_matrix_release(struct fleet *f);

/* The matrix groups in the terminal report (markdown: in fleet.md's), after the run groups. */
void fleet_matrix_print(const struct fleet *f, FILE *out, bool markdown);
/* fleet.json's "matrix_groups"; NULL when any part could not be made. */
json_t *fleet_matrix_json(const struct fleet *f);
/* fleet.html's part: per group its heat map and the nodes that deviate. -1 on out of memory. */
int fleet_matrix_html(const struct fleet *f, FILE *out);

/* The normal summary (mean, sd) of a comparison's log-ratio posterior (fleet.c). */
struct analysis_comparison;
void fleet_log_ratio_summary(const struct analysis_comparison *c, double *mean, double *sd);

/* fleet.json's pieces (fleet_report.c): a number or null when not finite; a pair of them; a
 * pooled answer with the same keys either way (nulls where nothing is pooled); appending a
 * new value to an array, false when either is NULL or the append failed. */
json_t *fleet_num_or_null(double v);
json_t *fleet_pair_json(const double v[2]);
json_t *fleet_pooled_json(const struct fleet_pooled *p);
bool fleet_json_append(json_t *array, json_t *value);

/* Shared with fleet_report.c: what to check on a node that deviates. */
extern const char fleet_act[];

#endif
