/*
 * launch.h — the steps between a command line and the first trial that `run` and `matrix`
 * share: the pairs chosen, the kernel tried and calibrated, the machine's caveats said, the
 * results folder made, the plan's protections stated. One copy of each, so that the two
 * commands keep the same guarantees. Everything here is set-up: a failure is one line on stderr
 * and an exit (2 for the user's input, 3 for what this machine cannot do, 1 otherwise).
 */
#ifndef SMTBENCH_RUNNER_LAUNCH_H
#define SMTBENCH_RUNNER_LAUNCH_H

#include <stdbool.h>

#include "runner/calibrate.h"
#include "runner/experiment.h"
#include "runner/store.h"
#include "topology/topology.h"

/* The pair of each wanted placement on this system into e (plan.placements), or the reason it
 * is skipped (said on stderr, kept for meta.json). With --pair (e->have_pair) the pair serves
 * the placement it forms, and solo and same-pu use its first CPU; another two-CPU placement
 * with it, or a bad pair, exits 2. */
void launch_choose_pairs(struct experiment *e, const struct topo *topo,
                         const bool wanted[PLACEMENT_COUNT]);

/* Runs kernel w once, briefly, on the first placement's first CPU, so that a CPU without AVX2
 * is told before a folder full of failed trials is made. A kernel this CPU cannot run is false
 * when !required, else exit 3; any other failure exits 1; a stop signal exits 128+signal,
 * saying what it interrupted and that nothing was written. */
bool launch_preflight(const struct experiment *e, const struct workload *w, bool required);

/* Calibrates kernel w for e->trial_time_s on solo's CPU (else the first placement's): *iters
 * and w's argv get the count. A stop signal exits 128+signal, saying what it interrupted and
 * that nothing was written (no folder exists yet). */
void launch_calibrate(const struct experiment *e, struct workload *w, unsigned long *iters,
                      struct calibration *cal);

/* The plan's line for a calibrated kernel. */
void launch_print_calibration(const char *role, const char *kernel, const struct calibration *c);

/* Before the run: exit 3 when the machine left none of the placements to run, or one of two or
 * more (nothing to compare); the caveats (one placement only, a VM, a CPU quota) said. */
void launch_check_machine(const struct experiment *e, const struct topo_info *info);

/* The results folder e->out_dir (when NULL, results/<UTC time>-<host>, -2, -3... when taken),
 * complete or not at all, with meta.json and topology.xml; the stop signals are blocked from
 * here on (e->child_sigmask), so a stop waits for a trial boundary and the folder stays
 * resumable. Exits on failure. */
struct store *launch_create_folder(struct experiment *e, const struct topo *topo,
                                   const struct topo_info *info);

/* With --precision, the comparison the run follows and the target, as run's plan states them. */
void launch_print_precision(const struct experiment *e);
/* The plan's line of expected duration, from the calibration: "at most 72000 trials of
 * ~0.25 s: up to 5 h 0 min"; for a workload not calibrated (a command, --iters), that it is
 * known only after the warm-up. */
void launch_print_duration(const struct experiment *e);

/* The trial time limit and the stop signals the run ignores, as the plan states them. */
void launch_print_protections(const struct experiment *e);
/* On a machine of several CPU kinds, the kind the planned pairs and baseline were chosen within
 * and each planned pair that mixes kinds (it cannot be kept apart); nothing on other machines. */
void launch_print_kinds(const struct experiment *e);

#endif
