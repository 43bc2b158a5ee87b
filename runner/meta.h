/*
 * meta.h — meta.json: everything needed to interpret a results folder later (the machine, the
 * pairs and what they share, the settings, the seed) and to continue it with --resume.
 * The keys are a contract like samples.csv's; see results/README.md.
 */
#ifndef SMTBENCH_RUNNER_META_H
#define SMTBENCH_RUNNER_META_H

#include <jansson.h>

#include "common/folder.h"
#include "runner/experiment.h"
#include "runner/store.h"

/* A new document for experiment e on this machine. The caller owns it (json_decref). */
json_t *meta_new(const struct experiment *e, const struct topo_info *info);

/* Status bookkeeping: each call of `run` or `run --resume` is one segment. At its end,
 * meta.json's stop_reason: one of experiment.h's STOP_... strings, or NULL (null: failed). */
void meta_begin_segment(json_t *meta, long first_trial);
void meta_end_segment(json_t *meta, long trials_done, const char *status,
                      const char *stop_reason);
void meta_set_interrupt(json_t *meta, int signal_number);

/* "precision": the runner's paired interval of the comparison --precision follows (a / b) when
 * the run ended, as the analysis will find it: {"comparison", "target_pct" (null: none), "blocks",
 * "ratio", "ci", "half_pct"}; null when the run has no two placements to compare. */
struct precision_tracker;
void meta_set_precision(json_t *meta, const struct precision_tracker *t);
/* The automatic trial time limit once calibrated: limit_s from the slowest warm-up trial's
 * slowest_s (meta.json's trial_timeout object). */
void meta_set_trial_timeout(json_t *meta, double limit_s, double slowest_s);

/* workload_stderr_log {"cap_bytes", "cut"}: "cut" set true once the log passed its cap. */
void meta_set_workload_stderr_cut(json_t *meta);

/* Writes DIR/meta.json atomically. -1 with err. */
int meta_save(const json_t *meta, const char *dir, char *err, size_t err_size);

/*
 * Reads the folder's meta.json (common/folder.h) back into e's settings (kernel or commands, iterations, trials or
 * duration, warm-up, seed, placements and their pairs) for --resume; e->meta receives the
 * document. The workloads are not resolved here. -1 with a one-line err naming the key that is
 * missing or wrong.
 */
int meta_load(const struct results_folder *f, struct experiment *e, char *err,
              size_t err_size);

#endif
