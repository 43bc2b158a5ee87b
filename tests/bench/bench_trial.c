/*
 * bench_trial — what one trial costs the runner beyond the workload: fork, bind, barrier, exec,
 * wait4 and the CSV append (fsynced at least once a second), measured with the 1-iteration nop kernel so the workload is ~nothing.
 * Prints the median and the 90th percentile over many trials, for one and two processes.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/kernels.h"
#include "runner/store.h"
#include "runner/trial.h"
#include "common/alloc.h"

#define TRIALS 400

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void measure(const char *label, int nprocs, const char *path, struct store *store,
                    const sigset_t *child_mask)
{
	char *argv[] = { "nop", "1", NULL };
	double *costs = xcalloc(TRIALS, sizeof *costs);
	int cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	for (int t = 0; t < TRIALS; t++) {
		struct trial_spec spec = { .nprocs = nprocs, .stderr_fd = -1,
		                           .run_origin_s = trial_now_s(),
		                           .child_sigmask = child_mask };
		for (int i = 0; i < nprocs; i++)
			spec.procs[i] = (struct trial_proc_spec){ .pu = i % cpus, .path = path, .argv = argv,
			                                          .kernel = true };
		struct trial_result r;
		int sig = 0;
		double start = trial_now_s();
		if (trial_run(&spec, &r, &sig) != TRIAL_COMPLETED) {
			fprintf(stderr, "bench_trial: a trial did not complete\n");
			exit(1);
		}
		struct trial_labels labels = { .trial = t, .placement = PLACEMENT_SOLO,
		                               .role = { "a", "a" }, .workload = { "nop", "nop" } };
		char err[ERR_LEN];
		if (store_append_trial(store, &labels, &r, err, sizeof err) != 0) {
			fprintf(stderr, "bench_trial: %s\n", err);
			exit(1);
		}
		costs[t] = trial_now_s() - start;
	}
	qsort(costs, TRIALS, sizeof *costs, compare_doubles);
	printf("  %-28s median %7.3f ms   p90 %7.3f ms   (%d trials, with samples.csv's group commit)\n",
	       label, costs[TRIALS / 2] * 1e3, costs[TRIALS * 9 / 10] * 1e3, TRIALS);
	free(costs);
}

int main(void)
{
	char err[512];
	char *path = kernel_path("nop", err, sizeof err);
	if (!path) {
		fprintf(stderr, "bench_trial: %s\n", err);
		return 1;
	}
	char dir[] = "/tmp/smtbench-bench-XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	char *run_dir = xasprintf("%s/run", dir);
	char serr[ERR_LEN];
	struct store *store = store_create(run_dir, serr, sizeof serr);
	if (!store) {
		fprintf(stderr, "bench_trial: %s\n", serr);
		return 1;
	}
	sigset_t child_mask;
	trial_block_signals(&child_mask);
	printf("bench_trial: runner overhead per trial (workload: nop 1, about 1 µs of work)\n");
	measure("one process (solo)", 1, path, store, &child_mask);
	measure("two processes (a pair)", 2, path, store, &child_mask);
	store_close(&store);
	char *cleanup = xasprintf("rm -rf %s", dir);
	int rc = system(cleanup);
	free(cleanup);
	free(run_dir);
	free(path);
	return rc == 0 ? 0 : 1;
}
