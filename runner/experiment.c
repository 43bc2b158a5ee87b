#include "runner/experiment.h"

#include <err.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runner/meta.h"
#include "runner/trial.h"
#include "runner/util.h"

/* Failures are listed one line each up to this many; the rest are counted. */
#define FAILURES_SHOWN 5

void experiment_free(struct experiment *e)
{
	free(e->kernel);
	free(e->beside_kernel);
	strings_free(e->command_line);
	workload_free(&e->a);
	workload_free(&e->b);
	free(e->out_dir);
	json_decref(e->meta);
	memset(e, 0, sizeof *e);
}

/* Running means per placement for the progress line. */
struct running_means {
	double sum[PLACEMENT_COUNT];
	long n[PLACEMENT_COUNT];
};

static void format_hms(double seconds, char *out, size_t len)
{
	if (!isfinite(seconds) || seconds < 0) {
		snprintf(out, len, "?");
		return;
	}
	long s = lround(seconds);
	snprintf(out, len, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
}

static void show_progress(const struct experiment *e, long done, long total, double elapsed_s,
                          long run_done, double run_elapsed_s, const struct running_means *m)
{
	char elapsed[32], eta[32];
	format_hms(elapsed_s, elapsed, sizeof elapsed);
	double per_trial = run_done > 0 ? run_elapsed_s / (double)run_done : NAN;
	double remaining = total >= 0 ? per_trial * (double)(total - done)
	                              : e->duration_s - elapsed_s;
	format_hms(remaining, eta, sizeof eta);
	long blocks_done = done / e->plan.nplacements;
	if (blocks_done < e->plan.warmup_blocks)
		fprintf(stderr, "\r\033[Kwarm-up %ld/%ld", blocks_done, e->plan.warmup_blocks);
	else if (total >= 0)
		fprintf(stderr, "\r\033[K%ld/%ld blocks", blocks_done - e->plan.warmup_blocks,
		        e->plan.measured_blocks);
	else
		fprintf(stderr, "\r\033[K%ld blocks", blocks_done - e->plan.warmup_blocks);
	fprintf(stderr, "  %s elapsed, %s %s", elapsed, total >= 0 ? "ETA" : "left", eta);
	for (int i = 0; i < e->plan.nplacements; i++) {
		enum placement p = e->plan.placements[i];
		if (m->n[p] > 0)
			fprintf(stderr, "  %s %.4g s", placement_name(p), m->sum[p] / (double)m->n[p]);
	}
	fflush(stderr);
}

static void count_trial(struct running_means *m, enum placement p, bool warmup, bool ok,
                        double utime_a_s)
{
	if (warmup || !ok || isnan(utime_a_s))
		return;
	m->sum[p] += utime_a_s;
	m->n[p]++;
}

static const char *trial_failure(const struct trial_result *r, int *proc)
{
	for (int i = 0; i < r->nprocs; i++)
		if (!r->procs[i].status || strcmp(r->procs[i].status, "ok") != 0) {
			*proc = i;
			return r->procs[i].status ? r->procs[i].status : "exec-failed";
		}
	return NULL;
}

static double mean_role_a_utime(const struct trial_result *r, const struct trial_labels *l)
{
	double sum = 0;
	int n = 0;
	for (int i = 0; i < r->nprocs; i++)
		if (!strcmp(l->role[i], "a")) {
			sum += r->procs[i].utime_s;
			n++;
		}
	return n ? sum / n : NAN;
}

enum run_outcome experiment_run(struct experiment *e, struct store *s, long first_trial,
                                const struct stored_trial *previous, long nprevious)
{
	char err[STORE_ERR_LEN];
	struct running_means means = { { 0 }, { 0 } };
	double time_offset_s = 0;
	long warmup_trials = e->plan.warmup_blocks * e->plan.nplacements;
	double measured_origin_s = NAN; /* run time at which the first measured trial started */
	for (long i = 0; i < nprevious; i++) {
		if (previous[i].trial == warmup_trials)
			measured_origin_s = previous[i].start_s;
		count_trial(&means, previous[i].placement, previous[i].warmup, previous[i].ok,
		            previous[i].utime_a_s);
		if (previous[i].end_s > time_offset_s)
			time_offset_s = previous[i].end_s;
	}
	/* start_s and end_s continue across a resume: the time spent stopped is left out. */
	double origin_s = trial_now_s() - time_offset_s;
	long total = plan_total_trials(&e->plan);
	bool progress = isatty(STDERR_FILENO);

	char *log_path = xasprintf("%s/workload-stderr.log", store_dir(s));
	int log_fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
	if (log_fd < 0)
		warn("cannot open %s; the workloads' error output is discarded", log_path);

	meta_begin_segment(e->meta, first_trial);
	if (meta_save(e->meta, store_dir(s), err) != 0)
		warnx("%s", err);

	enum run_outcome outcome = RUN_COMPLETE;
	/* If the first block this call runs fails whole, the workload is broken: stop rather than
	 * fill a night with failed trials. That holds for a resumed run as much as a new one. */
	long failures = 0, early_failures = 0;
	long t = first_trial;
	double run_start_s = trial_now_s();
	for (;; t++) {
		if (total >= 0 && t >= total)
			break;
		double run_time_s = trial_now_s() - origin_s;
		if (t == warmup_trials && isnan(measured_origin_s))
			measured_origin_s = run_time_s;
		if (total < 0 && t % e->plan.nplacements == 0 && t > warmup_trials) {
			/* The budget is for measured blocks, and a block is never cut in half: start
			 * one only if it should fit, judging by the measured blocks so far. */
			double measured_s = run_time_s - measured_origin_s;
			double per_block_s = measured_s / (double)((t - warmup_trials) / e->plan.nplacements);
			if (measured_s + per_block_s > e->duration_s)
				break;
		}
		int stop = trial_pending_stop_signal();
		if (stop) {
			e->interrupt_signal = stop;
			meta_set_interrupt(e->meta, stop);
			outcome = RUN_INTERRUPTED;
			break;
		}

		enum placement p = plan_placement_of(&e->plan, t);
		const struct topo_pair *pair = &e->pairs[p];
		struct trial_spec spec = {
			.nprocs = placement_nprocs(p),
			.stderr_fd = log_fd,
			.run_origin_s = origin_s,
			.child_sigmask = &e->child_sigmask,
		};
		struct trial_labels labels = {
			.trial = t,
			.block = plan_block_of(&e->plan, t),
			.warmup = plan_is_warmup(&e->plan, t),
			.placement = p,
		};
		for (int i = 0; i < spec.nprocs; i++) {
			const struct workload *w = (i == 1 && e->b.argv) ? &e->b : &e->a;
			spec.procs[i] = (struct trial_proc_spec){ pair->pus[i], w->path, w->argv };
			labels.role[i] = w == &e->b ? "b" : "a";
			labels.workload[i] = w->name;
		}

		struct trial_result result;
		int interrupt_signal = 0;
		enum trial_outcome o = trial_run(&spec, &result, &interrupt_signal);
		if (o == TRIAL_INTERRUPTED) {
			/* The interrupted trial is not stored: --resume runs it again, whole. */
			e->interrupt_signal = interrupt_signal;
			meta_set_interrupt(e->meta, interrupt_signal);
			outcome = RUN_INTERRUPTED;
			break;
		}
		if (o == TRIAL_SYSTEM_ERROR) {
			warn("trial %ld (%s): cannot start its processes", t, placement_name(p));
			outcome = RUN_FAILED;
			break;
		}
		if (store_append_trial(s, &labels, &result, err) != 0) {
			warnx("%s", err);
			outcome = RUN_FAILED;
			break;
		}

		int failed_proc = 0;
		const char *failure = trial_failure(&result, &failed_proc);
		if (failure) {
			failures++;
			if (t - first_trial < e->plan.nplacements)
				early_failures++;
			if (progress)
				fprintf(stderr, "\r\033[K");
			if (failures <= FAILURES_SHOWN)
				warnx("trial %ld (%s) failed: process %d on CPU %d %s", t, placement_name(p),
				      failed_proc, pair->pus[failed_proc], result.procs[failed_proc].error);
			if (!strcmp(failure, "unsupported")) {
				warnx("the workload is not supported on this CPU; stopping");
				outcome = RUN_FAILED;
				t++;
				break;
			}
		}
		count_trial(&means, p, labels.warmup, failure == NULL,
		            mean_role_a_utime(&result, &labels));
		if (early_failures == e->plan.nplacements && t + 1 - first_trial == e->plan.nplacements) {
			off_t logged = log_fd >= 0 ? lseek(log_fd, 0, SEEK_END) : 0;
			if (logged > 0)
				warnx("every trial of the first block failed; stopping (the workloads' error "
				      "output is in %s)", log_path);
			else
				warnx("every trial of the first block failed; stopping (the workloads wrote "
				      "nothing on their error output)");
			outcome = RUN_FAILED;
			t++;
			break;
		}
		if (progress)
			show_progress(e, t + 1, total, trial_now_s() - origin_s, t + 1 - first_trial,
			              trial_now_s() - run_start_s, &means);
	}
	if (progress)
		fprintf(stderr, "\r\033[K");
	if (failures > FAILURES_SHOWN)
		warnx("%ld failed trials in all (recorded in samples.csv with their status)", failures);

	meta_end_segment(e->meta, t,
	                 outcome == RUN_COMPLETE ? "complete"
	                 : outcome == RUN_INTERRUPTED ? "interrupted" : "failed");
	if (meta_save(e->meta, store_dir(s), err) != 0)
		warnx("%s", err);
	if (log_fd >= 0) {
		/* An empty log says nothing: leave no file behind. */
		off_t size = lseek(log_fd, 0, SEEK_END);
		close(log_fd);
		if (size == 0)
			unlink(log_path);
	}
	free(log_path);
	return outcome;
}
