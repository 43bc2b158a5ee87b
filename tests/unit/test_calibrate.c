/*
 * test_calibrate.c — calibration lands within ±30% of the trial time asked for, for every kernel
 * of the table: each kernel is calibrated for TARGET_S, then run TRIALS times with the count
 * found, and the median CPU time (user + system, what calibration sizes) of those runs is
 * compared with the target. A median of several runs, and CPU time rather than wall time, so
 * that a noisy neighbour cannot fail it; a count off by the 4x that machines differ by still
 * does. On this shared KVM guest a kernel's own speed moves by up to 2x within seconds (nop,
 * whose 2 KiB loop body other processes evict from the caches, measured 175 to 290 ns per
 * iteration a minute apart), so a kernel gets ATTEMPTS tries of calibration and check, each
 * printed; one within the bound passes it. User time alone is printed beside it (for a kernel with a large set-up, such as
 * mem-chase's page faults, it is the CPU time less that set-up's system time).
 *
 * serial: measures time (each kernel's CPU time against the target; other tests beside it move it)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/calibrate.h"
#include "runner/kernels.h"
#include "runner/trial.h"
#include "common/alloc.h"
#include "tests/harness.h"

#define TARGET_S CALIBRATE_DEFAULT_TRIAL_S
#define TRIALS 5
#define ATTEMPTS 3
#define TOLERANCE 0.30
#define PU 0

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* One run of the kernel alone on PU: "ok" and its CPU and user times, or the status. */
static const char *run_kernel(const char *path, const char *name, unsigned long iters,
                              const sigset_t *mask, double *cpu_s, double *user_s)
{
	char count[32];
	snprintf(count, sizeof count, "%lu", iters);
	char *argv[] = { (char *)name, count, NULL };
	struct trial_spec spec = { .nprocs = 1,
	                           .procs = { { .pu = PU, .path = path, .argv = argv, .kernel = true } },
	                           .stderr_fd = -1,
	                           .run_origin_s = trial_now_s(), .child_sigmask = mask };
	struct trial_result r;
	int sig = 0;
	if (trial_run(&spec, &r, &sig) != TRIAL_COMPLETED || r.procs[0].status == PROC_PENDING)
		return "not completed";
	*cpu_s = r.procs[0].utime_s + r.procs[0].stime_s;
	*user_s = r.procs[0].utime_s;
	return proc_status_name(r.procs[0].status);
}

/* One try: calibrate, run the count TRIALS times. -1 when something failed (said), else whether
 * the median is within the bound (printed as a diagnostic line). */
static int attempt(const struct kernel *k, const char *path, const sigset_t *mask, int n,
                   char *line, size_t line_size)
{
	char err[ERR_LEN];
	double cpu[TRIALS], user[TRIALS];
	struct calibration c;
	int rc = calibrate_kernel(path, k->name, PU, TARGET_S, mask, &c, err, sizeof err);
	if (!CHECK(rc == 0 && c.iters > 0, "%s: calibrated (%s)", k->name, rc ? err : "ok"))
		return -1;
	const char *status = "ok";
	for (int i = 0; i < TRIALS && !strcmp(status, "ok"); i++)
		status = run_kernel(path, k->name, c.iters, mask, &cpu[i], &user[i]);
	if (!CHECK(!strcmp(status, "ok"), "%s: %d runs of the calibrated count", k->name, TRIALS))
		return -1;
	qsort(cpu, TRIALS, sizeof cpu[0], compare_doubles);
	qsort(user, TRIALS, sizeof user[0], compare_doubles);
	double median = cpu[TRIALS / 2];
	snprintf(line, line_size, "%s, try %d: %lu iterations (%.4g ns each, %.3g s start-up, "
	         "calibrated in %.2f s) run a median %.4f s of CPU time (user %.4f s) for %.2f s "
	         "asked: %+.1f%%", k->name, n, c.iters, c.ns_per_iter, c.startup_s, c.calibration_s,
	         median, user[TRIALS / 2], TARGET_S, (median / TARGET_S - 1) * 100);
	printf("# %s\n", line);
	return median > TARGET_S * (1 - TOLERANCE) && median < TARGET_S * (1 + TOLERANCE);
}

static void test_kernel(const struct kernel *k, const sigset_t *mask)
{
	char err[ERR_LEN];
	char *path = kernel_path(k->name, err, sizeof err);
	if (!CHECK(path != NULL, "%s: its executable is built (%s)", k->name, path ? path : err))
		return;
	double cpu[TRIALS], user[TRIALS];
	if (strcmp(run_kernel(path, k->name, 1, mask, &cpu[0], &user[0]), "ok") != 0) {
		char why[200];
		snprintf(why, sizeof why, "%s: this CPU cannot run it (it lacks the instructions the "
		         "kernel needs), so it cannot be calibrated here", k->name);
		test_skip(why);
		free(path);
		return;
	}
	char line[400] = "";
	int within = 0;
	for (int n = 1; n <= ATTEMPTS && within == 0; n++)
		within = attempt(k, path, mask, n, line, sizeof line);
	if (within >= 0)
		CHECK(within == 1, "%s, within ±%.0f%%", line, TOLERANCE * 100);
	free(path);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0); /* before any fork: no line printed twice */
	const char *build = getenv("SMTBENCH_BUILD");
	if (!build) {
		test_skip("SMTBENCH_BUILD not set (the kernels' folder): run through tests/run.sh");
		return test_done("test_calibrate");
	}
	char *kernels = xasprintf("%s/kernels", build);
	setenv("SMTBENCH_KERNEL_DIR", kernels, 1);
	free(kernels);
	sigset_t mask;
	trial_block_signals(&mask);
	for (size_t i = 0; i < kernel_count(); i++)
		test_kernel(kernel_at(i), &mask);
	return test_done("test_calibrate");
}
