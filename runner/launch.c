/*
 * launch.c — the set-up that `run` and `matrix` share (see launch.h).
 */
#include "runner/launch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/text.h"
#include "runner/cpusplit.h"
#include "runner/meta.h"
#include "runner/precision.h"
#include "runner/trial.h"

/* results/<UTC time>-<host> (-2, -3... when taken); a new string. */
static char *default_dir(void)
{
	char host[64] = "host";
	gethostname(host, sizeof host - 1);
	host[sizeof host - 1] = '\0';
	char stamp[32];
	trial_utc_now("%Y%m%dT%H%M%SZ", stamp, sizeof stamp);
	char *dir = xasprintf("results/%s-%s", stamp, host);
	/* Two runs in the same second get -2, -3, ...; an explicit --out is never renamed. */
	for (int i = 2; access(dir, F_OK) == 0 && i < 100; i++) {
		free(dir);
		dir = xasprintf("results/%s-%s-%d", stamp, host, i);
	}
	return dir;
}

void launch_choose_pairs(struct experiment *e, const struct topo *topo,
                         const bool wanted[PLACEMENT_COUNT])
{
	char err[ERR_LEN];
	struct topo_relation rel;
	if (e->have_pair && topo_relate(topo, e->pair, &rel, err, sizeof err) != 0)
		text_errx(EXIT_USAGE, "--pair %d,%d: %s", e->pair[0], e->pair[1], err);
	e->plan.nplacements = 0;
	for (int p = 0; p < PLACEMENT_COUNT; p++) {
		if (!wanted[p])
			continue;
		struct topo_pair *pair = &e->pairs[p];
		if (e->have_pair) {
			if (topo_pair_from_cpus(&rel, (enum placement)p, pair, err, sizeof err) != 0)
				text_errx(EXIT_USAGE, "%s", err);
		} else if (topo_choose(topo, (enum placement)p, pair) != 0) {
			snprintf(e->skipped_reason[p], sizeof e->skipped_reason[p], "%s", pair->reason);
			text_warnx("skipping %s: %s", placement_name((enum placement)p), pair->reason);
			continue;
		}
		e->plan.placements[e->plan.nplacements++] = (enum placement)p;
	}
}

/* A signal that stopped the run while it tried or calibrated a kernel, before the results folder
 * is made: said, and the exit status a signal gives (128 + its number). */
static void exit_interrupted_before_folder(int sig, const char *doing, const char *kernel, int pu)
{
	text_errx(128 + sig, "interrupted by SIG%s while %s kernel %s on CPU %d, before the run "
	          "began: nothing was written (no results folder was made)",
	          sigabbrev_np(sig) ? sigabbrev_np(sig) : "?", doing, kernel, pu);
}

bool launch_preflight(const struct experiment *e, const struct workload *w, bool required)
{
	int pu = e->pairs[e->plan.placements[0]].pus[0];
	sigset_t old; /* the mask before the block, which the kernel's process restores */
	trial_block_signals(&old);
	struct trial_result r;
	int sig = 0;
	enum trial_outcome o = calibrate_run(w->path, w->argv[0], pu, 1, &old, &r, &sig);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (o == TRIAL_INTERRUPTED)
		exit_interrupted_before_folder(sig, "trying", w->name, pu);
	if (o != TRIAL_COMPLETED)
		text_err(EXIT_FAILURE_RUNTIME, "cannot start kernel %s", w->name);
	if (r.procs[0].status == PROC_UNSUPPORTED && !required)
		return false;
	if (r.procs[0].status == PROC_UNSUPPORTED)
		text_errx(EXIT_UNAVAILABLE, "kernel %s cannot run on this CPU (it lacks the "
		          "instructions the kernel needs); choose another with --kernel", w->name);
	if (r.procs[0].status != PROC_OK)
		text_errx(EXIT_FAILURE_RUNTIME, "kernel %s failed a trial run on CPU %d: %s",
		          w->name, pu, r.procs[0].error);
	return true;
}

void launch_calibrate(const struct experiment *e, struct workload *w, unsigned long *iters,
                      struct calibration *cal)
{
	int pu = e->pairs[e->plan.placements[0]].pus[0];
	for (int i = 0; i < e->plan.nplacements; i++)
		if (e->plan.placements[i] == PLACEMENT_SOLO)
			pu = e->pairs[PLACEMENT_SOLO].pus[0];
	char *kernel = xstrdup(w->argv[0]), err[ERR_LEN];
	sigset_t old;
	trial_block_signals(&old);
	int rc = calibrate_kernel(w->path, kernel, pu, e->trial_time_s, &old, cal, err, sizeof err);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (rc > 0)
		exit_interrupted_before_folder(rc, "calibrating", kernel, pu);
	if (rc < 0)
		text_errx(EXIT_FAILURE_RUNTIME, "%s", err);
	*iters = cal->iters;
	workload_release(w);
	xworkload_kernel(w, kernel, *iters);
	free(kernel);
}

void launch_print_calibration(const char *role, const char *kernel, const struct calibration *c)
{
	printf("  %s%s: %lu iterations, calibrated for %g s alone on CPU %d (%.4g ns/iteration, "
	       "%.3g s start-up; calibration took %.2f s)\n", role, kernel, c->iters,
	       c->trial_time_s, c->pu, c->ns_per_iter, c->startup_s, c->calibration_s);
}

/* Seconds as the plan says them: "45 s", "12 min 30 s", "5 h 0 min". */
static void format_duration(double s, char *out, size_t size)
{
	long t = (long)(s + 0.5);
	if (t < 60)
		snprintf(out, size, "%ld s", t < 1 ? 1 : t);
	else if (t < 3600)
		snprintf(out, size, "%ld min %ld s", t / 60, t % 60);
	else
		snprintf(out, size, "%ld h %ld min", t / 3600, t % 3600 / 60);
}

/* A calibrated trial's CPU seconds per copy of workload i of a matrix (a, b: the cell's), or
 * of the run's measured (i = 0) and beside (i = 1) kernel; NAN when not calibrated. */
static double calibrated_s(const struct experiment *e, int i)
{
	const struct calibration *c = e->nworkloads > 0 ? &e->cal_workloads[i]
	                              : i == 0 ? &e->cal_a : &e->cal_b;
	return c->iters ? c->trial_time_s : NAN;
}

/* One block's expected wall seconds from the calibration: each trial takes its longest copy's
 * calibrated time, twice that where the copies take turns on one PU; NAN when a workload is not
 * calibrated (a command, or --iters). */
static double block_seconds(const struct experiment *e)
{
	double sum = 0;
	int n = plan_block_size(&e->plan);
	for (int k = 0; k < n; k++) {
		enum placement p;
		double t;
		if (e->plan.ncells > 0) {
			const struct plan_cell *c = &e->plan.cells[k];
			p = c->placement;
			t = calibrated_s(e, c->a);
			if (c->b >= 0)
				t = fmax(t, calibrated_s(e, c->b));
		} else {
			p = e->plan.placements[k];
			t = calibrated_s(e, 0);
			if (e->beside_kernel && p != PLACEMENT_SOLO)
				t = fmax(t, calibrated_s(e, 1));
			else if ((e->b.argv || e->beside_kernel) && p != PLACEMENT_SOLO)
				t = NAN; /* a command beside: its length is its own */
		}
		if (isnan(t))
			return NAN;
		bool shared = placement_table[p].time_shared && !e->one_process;
		sum += shared ? 2 * t : t;
	}
	return sum;
}

void launch_print_duration(const struct experiment *e)
{
	long total = plan_total_trials(&e->plan);
	int per_block = plan_block_size(&e->plan);
	double block_s = block_seconds(e);
	if (isnan(block_s)) {
		printf("  expected duration: not known before the warm-up (%s not calibrated; the "
		       "length of a trial is shown after it)\n",
		       e->kernel || e->nworkloads > 0 ? "--iters is" : "a command is");
		return;
	}
	double trial_s = block_s / per_block;
	char when[64];
	if (total < 0 && e->plan.measured_blocks > 0) /* --precision with a budget of blocks */
		total = (e->plan.warmup_blocks + e->plan.measured_blocks) * per_block;
	if (total >= 0) {
		bool at_most = e->precision_pct > 0;
		format_duration((double)total * trial_s, when, sizeof when);
		printf("  expected duration: %s%ld trials of ~%.2g s: %s%s (from the calibration)\n",
		       at_most ? "at most " : "", total, trial_s, at_most ? "up to " : "about ", when);
		return;
	}
	format_duration(e->duration_s + (double)e->plan.warmup_blocks * block_s, when, sizeof when);
	printf("  expected duration: whole blocks of %d trials of ~%.2g s for %.0f s, after %ld "
	       "warm-up block%s: about %s, as the last block ends (from the calibration)\n",
	       per_block, trial_s, e->duration_s, e->plan.warmup_blocks,
	       e->plan.warmup_blocks == 1 ? "" : "s", when);
}

void launch_check_machine(const struct experiment *e, const struct topo_info *info)
{
	/* Two placements or more were to run (asked for, or the default) and the machine skipped
	 * all but one: the run would end with nothing to compare, so it does not start. */
	if (e->plan.nplacements == 0)
		text_errx(EXIT_UNAVAILABLE, "none of the placements asked for is possible on "
		          "this machine (reasons above); `smtbench topo` shows what it can do");
	bool skipped = false;
	for (int p = 0; p < PLACEMENT_COUNT; p++)
		skipped |= e->skipped_reason[p][0] != '\0';
	if (e->plan.nplacements == 1 && skipped)
		text_errx(EXIT_UNAVAILABLE, "of the placements to run, only %s is possible on this "
		          "machine (the others skipped above), and one placement has nothing to compare "
		          "it with: the run would end without an answer; choose two that `smtbench "
		          "topo` lists (same-pu,solo needs one CPU)",
		          placement_name(e->plan.placements[0]));
	if (e->plan.nplacements == 1)
		text_warnx("only %s will run: with one placement there is nothing to compare it "
		           "with, so the run ends without an answer (%s)",
		           placement_name(e->plan.placements[0]),
		           e->plan.placements[0] == PLACEMENT_SOLO
		           ? "add another placement: --placements non-sibling,solo, for one"
		           : "add solo, for one");
	if (info->virtual_machine)
		text_warnx("this is a virtual machine (%s): its CPU numbering and siblings need "
		           "not be the host's", info->hypervisor[0] ? info->hypervisor
		                                                     : "hypervisor unknown");
	struct topo_cpu_quota quota;
	topo_cpu_quota(&quota);
	if (quota.cpus > 0 && quota.cpus < 2)
		text_warnx("a CPU quota of %.3g CPUs applies to this run (%s): two busy processes "
		           "cannot run at the same time, so a pair's contention is not what its "
		           "placement says (see the overlap in the report); run outside that "
		           "cgroup", quota.cpus, quota.source);
}

/* samples.csv's header, meta.json's first state and topology.xml are written under a temporary
 * name (store_create), then renamed into place. */
struct store *launch_create_folder(struct experiment *e, const struct topo *topo,
                                   const struct topo_info *info)
{
	if (!e->out_dir)
		e->out_dir = default_dir();
	trial_block_signals(&e->child_sigmask);
	char err[ERR_LEN];
	struct store *s = store_create(e->out_dir, err, sizeof err);
	if (!s)
		text_errx(EXIT_USAGE, "%s", err);
	e->meta = meta_new(e, info);
	int rc = topo_export_xml(topo, store_dir(s), "topology.xml", err, sizeof err);
	if (rc == 0)
		rc = meta_save(e->meta, store_dir(s), err, sizeof err);
	if (rc == 0)
		rc = store_publish(s, err, sizeof err);
	if (rc != 0) {
		store_close(&s); /* removes the temporary folder: nothing of value is in it */
		text_errx(EXIT_FAILURE_RUNTIME, "cannot create results folder %s: %s", e->out_dir,
		          err);
	}
	return s;
}

void launch_print_precision(const struct experiment *e)
{
	struct precision_tracker t;
	precision_init(&t, e->precision_pct, e->plan.placements, e->plan.nplacements);
	if (e->precision_pct > 0 && t.have_comparison)
		printf("  stops when %s/%s%s is known to ±%g%% (95%% interval, paired by block, as "
		       "analyze gives it), after at least %d blocks, or at the limit above\n",
		       placement_name(t.a), placement_name(t.b), e->one_process ? " (wall time)" : "",
		       e->precision_pct, PRECISION_MIN_BLOCKS);
	else if (e->precision_pct > 0)
		printf("  --precision %g: one placement has nothing to compare with; the run goes to "
		       "the limit above\n", e->precision_pct);
}

void launch_print_kinds(const struct experiment *e)
{
	const char *kind = NULL;
	for (int i = 0; i < e->plan.nplacements; i++) {
		const struct topo_pair *pair = &e->pairs[e->plan.placements[i]];
		if (pair->kind[0] && !kind)
			kind = pair->kind;
	}
	if (!kind)
		return;
	char *name = xescaped(kind);
	printf("  CPU kind: %s (the baseline's CPU and every pair's, unless warned below: the "
	       "most performant kind that keeps the pairs within one kind)\n", name);
	free(name);
	for (int i = 0; i < e->plan.nplacements; i++) {
		const struct topo_pair *pair = &e->pairs[e->plan.placements[i]];
		if (pair->mixed_kinds)
			printf("  warning: %s's CPUs %d,%d are of different CPU kinds: this machine has no "
			       "%s pair within one kind, so its comparison is confounded by the kinds' "
			       "speeds\n", placement_name(pair->placement), pair->pus[0], pair->pus[1],
			       placement_name(pair->placement));
	}
}

void launch_print_protections(const struct experiment *e)
{
	if (e->trial_timeout_s > 0)
		printf("  trial time limit: %g s (--trial-timeout)\n", e->trial_timeout_s);
	else if (e->trial_timeout_s == 0)
		printf("  trial time limit: none (--trial-timeout 0)\n");
	else
		printf("  trial time limit: %g x the slowest warm-up trial, at least %g s (%g s until "
		       "the warm-up has run)\n", TRIAL_TIMEOUT_FACTOR, TRIAL_TIMEOUT_MIN_S,
		       TRIAL_TIMEOUT_UNCALIBRATED_S);
	char why[200];
	if (e->one_process && cpusplit_available(why, sizeof why))
		printf("  per trial, the process's CPU time on each of its CPUs (samples.csv's "
		       "per_cpu_s): the report names trials in which it ran on one of them\n");
	else if (e->one_process)
		printf("  the process's CPU time on each of its CPUs (per_cpu_s): not measured here, "
		       "%s\n", why);
	static const int stops[] = { SIGHUP, SIGINT, SIGTERM };
	for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++)
		if (trial_signal_ignored(stops[i]))
			printf("  SIG%s is ignored (inherited so, as under nohup or in a background job): "
			       "it will not stop this run\n", sigabbrev_np(stops[i]));
}
