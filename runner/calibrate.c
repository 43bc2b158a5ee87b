#include "runner/calibrate.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "runner/trial.h"

/* Counts grow at most this much from one run to the next, and at least by GROWTH_MIN. */
#define GROWTH_MAX 100.0
#define GROWTH_MIN 2.0
/* The largest count tried: a kernel this cheap per iteration is broken. */
#define ITERS_MAX 1e15

enum trial_outcome calibrate_run(const char *path, const char *name, int pu, unsigned long count,
                                 const sigset_t *child_sigmask, struct trial_result *r, int *sig)
{
	char count_text[32];
	snprintf(count_text, sizeof count_text, "%lu", count);
	char *argv[] = { (char *)name, count_text, NULL };
	struct trial_spec spec = {
		.nprocs = 1,
		/* only kernels are calibrated */
		.procs = { { .pu = pu, .path = path, .argv = argv, .kernel = true } },
		.stderr_fd = -1,
		.run_origin_s = trial_now_s(),
		.child_sigmask = child_sigmask,
	};
	return trial_run(&spec, r, sig);
}

/* One run of count iterations alone on pu: its CPU time in *cpu_s. 0, a signal, or -1. */
static int run_once(const char *path, const char *name, int pu, unsigned long count,
                    const sigset_t *child_sigmask, double *cpu_s, char *err, size_t err_size)
{
	struct trial_result r;
	int sig = 0;
	enum trial_outcome o = calibrate_run(path, name, pu, count, child_sigmask, &r, &sig);
	if (o == TRIAL_INTERRUPTED)
		return sig;
	if (o != TRIAL_COMPLETED || r.procs[0].status != PROC_OK) {
		set_error(err, err_size, "calibrating kernel %s on CPU %d: a run of %lu iterations %s",
		          name, pu, count, o != TRIAL_COMPLETED ? "could not start"
		          : r.procs[0].error[0] ? r.procs[0].error : "failed");
		return -1;
	}
	/* User plus system time: the kernel's total is exact (its scheduler clock), while its split
	 * into user and system is by timer ticks, too coarse for a run of a few ticks. */
	*cpu_s = r.procs[0].utime_s + r.procs[0].stime_s;
	return 0;
}

/* The median CPU time of CALIBRATE_REPEATS runs of count (first: one already measured, or NaN). */
static int median_of_runs(const char *path, const char *name, int pu, unsigned long count,
                          double first, const sigset_t *mask, double *median, char *err,
                          size_t err_size)
{
	double t[CALIBRATE_REPEATS];
	for (int i = 0; i < CALIBRATE_REPEATS; i++) {
		if (i == 0 && !isnan(first)) {
			t[i] = first;
			continue;
		}
		int rc = run_once(path, name, pu, count, mask, &t[i], err, err_size);
		if (rc != 0)
			return rc;
	}
	gsl_sort(t, 1, CALIBRATE_REPEATS);
	*median = gsl_stats_median_from_sorted_data(t, 1, CALIBRATE_REPEATS);
	return 0;
}

/* Grows the count until the loop (CPU time less start-up) takes CALIBRATE_MIN_LOOP_S; the
 * count and its run's time in *count and *cpu_s. */
static int grow_count(const char *path, const char *name, int pu, double startup_s,
                      const sigset_t *mask, unsigned long *count, double *cpu_s, char *err,
                      size_t err_size)
{
	double n = 1000;
	for (;;) {
		double t;
		int rc = run_once(path, name, pu, (unsigned long)n, mask, &t, err, err_size);
		if (rc != 0)
			return rc;
		double loop_s = t - startup_s;
		if (loop_s >= CALIBRATE_MIN_LOOP_S) {
			*count = (unsigned long)n;
			*cpu_s = t;
			return 0;
		}
		/* Aim at 1.5 times the minimum from what this run says, within the growth bounds. */
		double growth = loop_s > 0 ? 1.5 * CALIBRATE_MIN_LOOP_S / loop_s : GROWTH_MAX;
		n = ceil(n * fmin(GROWTH_MAX, fmax(GROWTH_MIN, growth)));
		if (n > ITERS_MAX) {
			set_error(err, err_size, "calibrating kernel %s on CPU %d: %.0f iterations still "
			          "take under %.0f ms; give --iters", name, pu, n, CALIBRATE_MIN_LOOP_S * 1e3);
			return -1;
		}
	}
}

int calibrate_kernel(const char *path, const char *name, int pu, double trial_time_s,
                     const sigset_t *child_sigmask, struct calibration *out, char *err,
                     size_t err_size)
{
	double started = trial_now_s();
	memset(out, 0, sizeof *out);
	out->trial_time_s = trial_time_s;
	out->pu = pu;
	int rc = median_of_runs(path, name, pu, 1, NAN, child_sigmask, &out->startup_s, err,
	                        err_size);
	unsigned long count = 0;
	double first = NAN, median = NAN;
	if (rc == 0)
		rc = grow_count(path, name, pu, out->startup_s, child_sigmask, &count, &first, err,
		                err_size);
	if (rc == 0)
		rc = median_of_runs(path, name, pu, count, first, child_sigmask, &median, err,
		                    err_size);
	if (rc != 0)
		return rc;
	double loop_s = median - out->startup_s;
	/* A median below the start-up (noise) still leaves the grown run's own cost. */
	if (!(loop_s > 0))
		loop_s = first - out->startup_s;
	double per_iter_s = loop_s / (double)count;
	double iters = (trial_time_s - out->startup_s) / per_iter_s;
	out->iters = iters < 1 ? 1 : iters > ITERS_MAX ? (unsigned long)ITERS_MAX
	                                               : (unsigned long)llround(iters);
	out->ns_per_iter = per_iter_s * 1e9;
	out->calibration_s = trial_now_s() - started;
	return 0;
}

json_t *calibration_to_json(const struct calibration *c)
{
	if (c->iters == 0)
		return json_null();
	return json_pack("{s:I, s:f, s:f, s:f, s:f, s:i}", "iters", (json_int_t)c->iters,
	                 "trial_time_s", c->trial_time_s, "ns_per_iter", c->ns_per_iter,
	                 "startup_s", c->startup_s, "calibration_s", c->calibration_s, "pu", c->pu);
}
