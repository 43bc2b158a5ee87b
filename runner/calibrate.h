/*
 * calibrate.h — the kernel's iteration count for a trial of the length asked for.
 *
 * Kernels differ by 4x and more from machine to machine, so a fixed count does not give a fixed
 * trial length. Before the warm-up, the runner runs the kernel alone on one PU: first with one
 * iteration (the start-up cost: exec, page faults, a kernel's own set-up), then with counts that
 * grow geometrically until the loop itself takes CALIBRATE_MIN_LOOP_S of user time, then that
 * count CALIBRATE_REPEATS times. The cost per iteration is the median run's CPU time less the
 * median start-up, over the count: medians, so that one run slowed by a noisy neighbour does not
 * skew it. CPU time (wait4's user + system) is what is sized: the analysis compares user time,
 * which for a busy loop is nearly all of it, but Linux splits the exact total into user and
 * system by timer ticks, too coarse for a calibration run of a few ticks.
 */
#ifndef SMTBENCH_RUNNER_CALIBRATE_H
#define SMTBENCH_RUNNER_CALIBRATE_H

#include <signal.h>

#include <jansson.h>

#include "common/error.h"
#include "runner/trial.h"

/* One copy's CPU time a calibrated kernel aims at, without --trial-time (seconds). */
#define CALIBRATE_DEFAULT_TRIAL_S 0.25
/* The loop must run at least this long (CPU time) before its cost per iteration is trusted. */
#define CALIBRATE_MIN_LOOP_S 0.1
/* Runs of the start-up and of the final count whose median is taken. */
#define CALIBRATE_REPEATS 3

struct calibration {
	unsigned long iters;   /* the count for a trial of trial_time_s */
	double trial_time_s;   /* what was asked for */
	double ns_per_iter;    /* measured cost of one iteration (CPU time) */
	double startup_s;      /* measured CPU time of a run of one iteration */
	double calibration_s;  /* wall time the calibration took */
	int pu;                /* where it ran */
};

/*
 * Calibrates the kernel executable at path (argv[0] name, argv[1] the count) on PU pu for
 * trial_time_s of CPU time. child_sigmask: the mask children restore (see trial.h); the caller
 * has blocked the stop signals. Returns 0; a signal number (> 0) when a stop signal came (the
 * calibration is abandoned); -1 with err when a run failed.
 */
int calibrate_kernel(const char *path, const char *name, int pu, double trial_time_s,
                     const sigset_t *child_sigmask, struct calibration *out, char *err,
                     size_t err_size);

/* One run of the kernel at path (its argv[0] name) alone on PU pu with count iterations, as a
 * trial (child_sigmask as above): the outcome, *r the result, *sig the stop signal on
 * TRIAL_INTERRUPTED. Calibration's runs, and launch_preflight's trial run. */
enum trial_outcome calibrate_run(const char *path, const char *name, int pu, unsigned long count,
                                 const sigset_t *child_sigmask, struct trial_result *r,
                                 int *sig);

/* meta.json's record of a calibration: {"iters", "trial_time_s", "ns_per_iter", "startup_s",
 * "calibration_s", "pu"}, or null when the count was not calibrated (iters 0). */
json_t *calibration_to_json(const struct calibration *c);

#endif
