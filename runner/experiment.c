#include "runner/experiment.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/samples_csv.h"
#include "common/text.h"
#include "runner/matrix.h"
#include "runner/meta.h"
#include "runner/precision.h"
#include "runner/progressline.h"
#include "runner/trial.h"
#include "common/alloc.h"

/* Failures are listed one line each up to this many; the rest are counted. */
#define FAILURES_SHOWN 5

void experiment_release(struct experiment *e)
{
	free(e->kernel);
	free(e->beside_kernel);
	strings_free(e->command_line);
	workload_release(&e->a);
	workload_release(&e->b);
	for (int i = 0; i < e->nworkloads; i++)
		workload_release(&e->workloads[i]);
	free(e->out_dir);
	json_decref(e->meta);
	allocation_free(&e->allocation);
	plan_release(&e->plan);
	memset(e, 0, sizeof *e);
}

/* Running statistics per placement: means for the progress line, and the sufficient
 * statistics of the precision target's interval. every_sum/every_n: every ok trial's role-a user
 * time, warm-up included (a command's length, shown once). */
struct running_means {
	double sum[PLACEMENT_COUNT];
	long n[PLACEMENT_COUNT];
	struct precision_tracker precision;
	double every_sum;
	long every_n;
	long zero_n;       /* of every_n, trials whose user time was 0 s (below the clock's tick) */
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

/* The precision target's part of the progress line: the interval now, and the time the blocks
 * it still needs should take at this pace. */
static void show_precision(struct progressline *l, const struct experiment *e, long blocks_done,
                           double per_trial_s, const struct running_means *m)
{
	struct precision_interval iv;
	precision_interval(&m->precision, &iv);
	if (!iv.known)
		return;
	char target[64] = "";
	if (e->precision_pct > 0) {
		double blocks_left = fmax(fmax(iv.blocks_needed, PRECISION_MIN_BLOCKS)
		                          - (double)blocks_done, 0);
		char eta[32];
		format_hms(blocks_left * per_trial_s * plan_block_size(&e->plan), eta, sizeof eta);
		snprintf(target, sizeof target, " → ±%g%% ETA %s", e->precision_pct, eta);
	}
	progressline_add(l, 1, false, "  %s/%s %.4f [%.4f, %.4f] ±%.2f%% (paired, %ld blocks)%s",
	                 placement_name(m->precision.a), placement_name(m->precision.b), iv.ratio,
	                 iv.low, iv.high, iv.half_pct, iv.blocks, target);
	progressline_add(l, 2, true, "  ±%.2f%%%s", iv.half_pct, target);
}

/* The progress text's parts: blocks, elapsed, ETA, each placement's mean so far, and the
 * precision target's interval; ranked for a narrow terminal (progressline.h): the blocks, the
 * ETA and the interval first, the means and the elapsed time dropped first. */
static void write_progress(struct progressline *l, const struct experiment *e, long done,
                           long total, double elapsed_s, long run_done, double run_elapsed_s,
                           const struct running_means *m)
{
	char elapsed[32], eta[32];
	format_hms(elapsed_s, elapsed, sizeof elapsed);
	double per_trial = run_done > 0 ? run_elapsed_s / (double)run_done : NAN;
	double remaining = total >= 0 ? per_trial * (double)(total - done)
	                              : e->duration_s - elapsed_s;
	format_hms(remaining, eta, sizeof eta);
	long blocks_done = plan_block_of(&e->plan, done);
	if (blocks_done < e->plan.warmup_blocks)
		progressline_add(l, 0, false, "warm-up %ld/%ld", blocks_done, e->plan.warmup_blocks);
	else if (total >= 0 || (e->allocation && e->plan.measured_blocks >= 0))
		progressline_add(l, 0, false, "%ld/%ld blocks", blocks_done - e->plan.warmup_blocks,
		                 e->plan.measured_blocks);
	else
		progressline_add(l, 0, false, "%ld blocks", blocks_done - e->plan.warmup_blocks);
	progressline_add(l, 3, false, "  %s elapsed,", elapsed);
	progressline_add(l, 0, false, " %s %s", total >= 0 ? "ETA" : "left", eta);
	/* A matrix's placements hold every kernel: their means say nothing. */
	for (int i = 0; i < e->plan.nplacements && e->plan.ncells == 0; i++) {
		enum placement p = e->plan.placements[i];
		if (m->n[p] > 0)
			progressline_add(l, 5, false, "  %s %.4g s", placement_name(p),
			                 m->sum[p] / (double)m->n[p]);
	}
	show_precision(l, e, blocks_done - e->plan.warmup_blocks, per_trial, m);
}

static void count_trial(struct running_means *m, long block, enum placement p, bool warmup,
                        bool ok, double utime_a_s)
{
	if (!ok || isnan(utime_a_s))
		return;
	m->every_sum += utime_a_s;
	m->every_n++;
	m->zero_n += !(utime_a_s > 0);
	if (warmup)
		return;
	m->sum[p] += utime_a_s;
	m->n[p]++;
	precision_add(&m->precision, block, p, utime_a_s);
}

/* The first process of the trial that did not end ok; -1 when every one did. */
static int failed_proc(const struct trial_result *r)
{
	for (int i = 0; i < r->nprocs; i++)
		if (r->procs[i].status != PROC_OK)
			return i;
	return -1;
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

/* The time the run follows (progress means, --precision): the role-a processes' mean user time
 * for copies, the one process's wall time with --one-process (the metric its folder is
 * analysed by). */
static double headline_time(const struct experiment *e, const struct trial_result *r,
                            const struct trial_labels *l)
{
	return e->one_process && r->nprocs == 1 ? r->procs[0].wall_s : mean_role_a_utime(r, l);
}

/* What the trial loop carries from trial to trial. */
struct run_state {
	struct experiment *e;
	struct store *s;
	long first_trial, total, warmup_trials;
	double origin_s;          /* start_s and end_s count from here (continued across --resume) */
	double measured_origin_s; /* run time at which the first measured trial started */
	double run_start_s;       /* when this call started, for the progress line's ETA */
	bool progress;            /* the redrawn progress line (--progress bar, or auto on a tty) */
	int columns;              /* the terminal's width for it (0: not read yet) */
	bool lines;               /* timestamped progress lines (--progress lines, or auto) */
	double last_line_s;       /* when the last progress line was printed (trial_now_s) */
	long contaminated_seen;   /* trials that shared their CPUs, for the lines */
	struct running_means means;
	const char *stop_reason;  /* STOP_..., or NULL after a failure */
	char *log_path;           /* workload-stderr.log; log_fd is -1 when it cannot be opened */
	int log_fd;
	bool log_capped;          /* past WORKLOAD_STDERR_MAX_BYTES: log_fd is /dev/null now */
	long failures, early_failures;
	/* The trial time limit: timeout_s (0: none), fixed when given, else calibrated once the
	 * trials before calib_end have run, from the slowest of those that ended ok. */
	double timeout_s, slowest_ok_s;
	bool timeout_fixed;
	long calib_end;
	int timeouts_in_row;
	long leftover_trials, leftovers;
	enum run_outcome outcome;
	/* Each process's environment (SMTBENCH_CPUS, SMTBENCH_PLACEMENT) by placement and
	 * process, made once for the placements planned; and with --one-process the CPUs the
	 * process of each placement is bound to. */
	struct workload_env env[PLACEMENT_COUNT][TRIAL_MAX_PROCS];
	int one_cpus[PLACEMENT_COUNT][TRIAL_MAX_PUS];
	int one_ncpus[PLACEMENT_COUNT];
};

/* meta.json as it stands written out; a failure is said, and the run goes on. */
static void save_meta(const struct run_state *st)
{
	char err[ERR_LEN];
	if (meta_save(st->e->meta, store_dir(st->s), err, sizeof err) != 0)
		text_warnx("%s", err);
}

/* The redrawn progress line cleared, so that a message can take its place. */
static void clear_progress(const struct run_state *st)
{
	if (st->progress)
		fprintf(stderr, "\r\033[K");
}

/* At WORKLOAD_STDERR_MAX_BYTES (a trial's stderr overflowed what the log had left: the
 * runner's pipe discarded the rest), workload-stderr.log gives way to /dev/null, and meta.json
 * says so at once (a run killed later must still say it). At a resume's open the log may
 * already be past its cap (its note already at its end): it stays capped, the note not
 * written twice. */
static void cap_workload_log(struct run_state *st, bool at_open, bool overflowed)
{
	if (st->log_fd < 0 || st->log_capped
	    || (!overflowed && lseek(st->log_fd, 0, SEEK_END) <= WORKLOAD_STDERR_MAX_BYTES))
		return;
	if (!at_open) {
		char note[160];
		int len = snprintf(note, sizeof note, "\n[smtbench: this log passed its cap of %lld MiB; "
		                   "the workloads' later error output is discarded]\n",
		                   WORKLOAD_STDERR_MAX_BYTES >> 20);
		if (write(st->log_fd, note, (size_t)len) < 0) {
			/* the note is a courtesy: the cap holds without it */
		}
	}
	int null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null_fd < 0)
		return;
	close(st->log_fd);
	st->log_fd = null_fd;
	st->log_capped = true;
	meta_set_workload_stderr_cut(st->e->meta);
	save_meta(st);
	text_warnx("%s %s its cap of %lld MiB; the workloads' later error output is discarded",
	           st->log_path, at_open ? "is past" : "passed", WORKLOAD_STDERR_MAX_BYTES >> 20);
}

/* After trial t (done trials in all): the redrawn line, or a timestamped line when a measured
 * block has just ended and the interval has passed (or the longest gap, whatever ended). */
static void show_progress(struct run_state *st, long t, long first_trial)
{
	const struct experiment *e = st->e;
	long done = t + 1;
	double now = trial_now_s();
	bool block_end = plan_block_ends(&e->plan, t) && done > st->warmup_trials;
	double since = now - st->last_line_s;
	double interval = e->progress_interval_s > 0 ? e->progress_interval_s
	                                             : PROGRESS_INTERVAL_DEFAULT_S;
	if (st->lines && !((block_end && since >= interval)
	                   || since >= PROGRESS_LINES_MAX_GAP_S))
		return;
	if (!st->progress && !st->lines)
		return;
	struct progressline l = { .nparts = 0 };
	write_progress(&l, e, done, st->total, now - st->origin_s, done - first_trial,
	               now - st->run_start_s, &st->means);
	char text[PROGRESSLINE_MAX_PARTS * PROGRESSLINE_PART_LEN];
	if (st->progress) {
		/* One column short of the width: a line that fills the last column leaves some
		 * terminals' cursor on the next row. */
		st->columns = progressline_columns(st->columns);
		progressline_fit(&l, st->columns - 1, text, sizeof text);
		fprintf(stderr, "\r\033[K%s", text);
	} else {
		char stamp[32];
		trial_utc_now(TRIAL_UTC, stamp, sizeof stamp);
		progressline_fit(&l, PROGRESSLINE_WHOLE, text, sizeof text);
		fprintf(stderr, "%s  %s\n", stamp, text);
		st->last_line_s = now;
	}
	fflush(stderr);
}

/* Progress lines: a measured trial that shared its CPUs (foreign or steal time above
 * SAMPLES_CONTAMINATED_SHARE of its span, the analysis's rule) as it happens. */
static void line_if_contaminated(struct run_state *st, long t, const struct trial_labels *l,
                                 const struct trial_result *r, double span_s)
{
	enum placement p = l->placement;
	bool warmup = l->warmup;
	double shared = fmax(isnan(r->foreign_s) ? 0 : r->foreign_s,
	                     isnan(r->steal_s) ? 0 : r->steal_s);
	if (!st->lines || warmup || !(span_s >= PROGRESS_CONTAMINATION_MIN_SPAN_S)
	    || !(shared > SAMPLES_CONTAMINATED_SHARE * span_s))
		return;
	if (++st->contaminated_seen > PROGRESS_CONTAMINATED_SHOWN + 1)
		return;
	char stamp[32];
	trial_utc_now(TRIAL_UTC, stamp, sizeof stamp);
	if (st->contaminated_seen > PROGRESS_CONTAMINATED_SHOWN)
		fprintf(stderr, "%s  warning: more trials shared their CPUs; the summary counts them\n",
		        stamp);
	else
		fprintf(stderr, "%s  warning: trial %ld (%s%s%s%s%s) shared its CPUs: foreign %.3g s, "
		        "steal %.3g s in %.3g s\n", stamp, t,
		        /* a matrix's cell: its victim, and its aggressor when it has one */
		        st->e->nworkloads ? l->workload[0] : "",
		        st->e->nworkloads && r->nprocs > 1 ? " beside " : st->e->nworkloads ? " alone" : "",
		        st->e->nworkloads && r->nprocs > 1 ? l->workload[1] : "",
		        st->e->nworkloads ? ", " : "", placement_name(p), r->foreign_s, r->steal_s,
		        span_s);
	fflush(stderr);
}

/* The calibrated limit said on stdout; stored: ", as stored" (a resumed run's). */
static void say_timeout(const struct run_state *st, const char *stored)
{
	printf("trial time limit: %.3g s (%g x the slowest warm-up trial, %.3g s%s; at least %g s)\n",
	       st->timeout_s, TRIAL_TIMEOUT_FACTOR, st->slowest_ok_s, stored, TRIAL_TIMEOUT_MIN_S);
	fflush(stdout);
}

/* Trial t (ok or not, taking span_s) seen: with an automatic limit, the slowest ok trial so far
 * is noted until the limit is calibrated, which happens once the trials before calib_end have
 * run and one of them (or, failing that, a later one) ended ok. announce: say so on stdout. */
static void calibrate_timeout(struct run_state *st, long t, bool ok, double span_s, bool announce)
{
	if (st->timeout_fixed)
		return;
	if (ok && span_s > st->slowest_ok_s)
		st->slowest_ok_s = span_s;
	if (t + 1 < st->calib_end || !(st->slowest_ok_s > 0))
		return;
	st->timeout_fixed = true;
	st->timeout_s = fmax(TRIAL_TIMEOUT_FACTOR * st->slowest_ok_s, TRIAL_TIMEOUT_MIN_S);
	meta_set_trial_timeout(st->e->meta, st->timeout_s, st->slowest_ok_s);
	if (!announce)
		return;
	clear_progress(st);
	say_timeout(st, "");
}

/* The CPUs and environment of each process of each planned placement: with --one-process one
 * process on all of the placement's CPUs, else one process per CPU of the pair. */
static void make_environments(struct run_state *st)
{
	const struct experiment *e = st->e;
	for (int i = 0; i < e->plan.nplacements; i++) {
		enum placement p = e->plan.placements[i];
		const char *name = placement_name(p);
		if (e->one_process) {
			st->one_ncpus[p] = topo_pair_cpus(&e->pairs[p], st->one_cpus[p]);
			workload_env_init(&st->env[p][0], st->one_cpus[p], st->one_ncpus[p], name);
			continue;
		}
		for (int k = 0; k < placement_nprocs(p) && k < TRIAL_MAX_PROCS; k++)
			workload_env_init(&st->env[p][k], &e->pairs[p].pus[k], 1, name);
	}
}

/* The trials already stored (and the time limit they set, when it is not fixed), the time
 * origin, the workloads' error log, and meta.json's new segment. */
static void run_state_init(struct run_state *st, long first_trial,
                           const struct stored_trial *previous, long nprevious)
{
	double time_offset_s = 0;
	st->first_trial = first_trial;
	st->warmup_trials = st->e->plan.warmup_blocks * plan_block_size(&st->e->plan);
	st->measured_origin_s = NAN;
	/* The time limit at the start of this call: given, or automatic (from the trials already
	 * stored, by the same rule as while running, so a resumed run gets the limit it had). */
	st->calib_end = st->warmup_trials > 0 ? st->warmup_trials : plan_block_size(&st->e->plan);
	st->timeout_fixed = st->e->trial_timeout_s >= 0;
	st->timeout_s = st->timeout_fixed ? st->e->trial_timeout_s : TRIAL_TIMEOUT_UNCALIBRATED_S;
	/* A matrix has no one headline to follow: its cells are compared by the report. */
	precision_init(&st->means.precision, st->e->precision_pct, st->e->plan.placements,
	               st->e->plan.ncells ? 0 : st->e->plan.nplacements);
	for (long i = 0; i < nprevious; i++) {
		if (previous[i].trial == st->warmup_trials)
			st->measured_origin_s = previous[i].start_s;
		count_trial(&st->means, previous[i].block, previous[i].placement, previous[i].warmup,
		            previous[i].ok, st->e->one_process ? previous[i].wall_a_s
		                                               : previous[i].utime_a_s);
		time_offset_s = fmax(time_offset_s, previous[i].end_s);
		calibrate_timeout(st, previous[i].trial, previous[i].ok,
		                  previous[i].end_s - previous[i].start_s, false);
	}
	/* start_s and end_s continue across a resume: the time spent stopped is left out. */
	st->origin_s = trial_now_s() - time_offset_s;
	st->total = plan_total_trials(&st->e->plan);
	enum progress_mode mode = st->e->progress_mode;
	if (mode == PROGRESS_AUTO)
		mode = isatty(STDERR_FILENO) ? PROGRESS_BAR : PROGRESS_LINES;
	st->progress = mode == PROGRESS_BAR;
	if (st->progress)
		progressline_watch_resize();
	st->lines = mode == PROGRESS_LINES;
	/* A resumed run's plan states only the rule: say the limit its stored warm-up set. */
	if (st->e->trial_timeout_s < 0 && st->timeout_fixed)
		say_timeout(st, ", as stored");
	make_environments(st);
	st->log_path = xasprintf("%s/workload-stderr.log", store_dir(st->s));
	st->log_fd = store_open_file(st->s, "workload-stderr.log", O_WRONLY | O_CREAT | O_APPEND,
	                             0666);
	if (st->log_fd < 0)
		text_warn("cannot open %s; the workloads' error output is discarded", st->log_path);
	meta_begin_segment(st->e->meta, first_trial);
	cap_workload_log(st, true, false);
	save_meta(st);
	st->outcome = RUN_COMPLETE;
	st->run_start_s = st->last_line_s = trial_now_s();
}

/* Whether trial t should start: the plan's end, or with a duration the time budget. */
static bool time_for_trial(struct run_state *st, long t)
{
	const struct experiment *e = st->e;
	if (st->total >= 0)
		return t < st->total;
	if (e->allocation && e->plan.measured_blocks >= 0) /* a matrix's --precision, --blocks */
		return plan_block_of(&e->plan, t) < e->plan.warmup_blocks + e->plan.measured_blocks;
	double run_time_s = trial_now_s() - st->origin_s;
	if (t == st->warmup_trials && isnan(st->measured_origin_s))
		st->measured_origin_s = run_time_s;
	if (!plan_block_starts(&e->plan, t) || t <= st->warmup_trials)
		return true;
	/* The budget is for measured blocks, and a block is never cut in half: start one only
	 * if it should fit, judging by the measured blocks so far. */
	double measured_s = run_time_s - st->measured_origin_s;
	double per_block_s = measured_s / (double)(plan_block_of(&e->plan, t) - e->plan.warmup_blocks);
	return !(measured_s + per_block_s > e->duration_s); /* NaN: not known yet, go on */
}

static void stop_interrupted(struct run_state *st, int sig)
{
	st->stop_reason = STOP_INTERRUPTED;
	st->e->interrupt_signal = sig;
	meta_set_interrupt(st->e->meta, sig);
	st->outcome = RUN_INTERRUPTED;
}

/* The bytes of stderr the next trial may add to workload-stderr.log (its pipe discards the
 * rest); -1 once the log is /dev/null or was never opened: the workloads get it as it is. */
static long long log_room(const struct run_state *st)
{
	if (st->log_fd < 0 || st->log_capped)
		return -1;
	off_t size = lseek(st->log_fd, 0, SEEK_END);
	if (size < 0)
		return -1;
	return size < WORKLOAD_STDERR_MAX_BYTES ? WORKLOAD_STDERR_MAX_BYTES - size : 0;
}

/* Trial t's processes (CPU, program, role) from its placement and the workloads. */
static void describe_trial(const struct run_state *st, long t, struct trial_spec *spec,
                           struct trial_labels *labels)
{
	const struct experiment *e = st->e;
	enum placement p = plan_placement_of(&e->plan, t);
	*spec = (struct trial_spec){
		.nprocs = e->one_process ? 1 : placement_nprocs(p),
		.stderr_fd = st->log_fd,
		.cap_stderr = true,
		.stderr_cap = log_room(st),
		.run_origin_s = st->origin_s,
		.child_sigmask = &e->child_sigmask,
		.timeout_s = st->timeout_s,
	};
	*labels = (struct trial_labels){
		.trial = t,
		.block = plan_block_of(&e->plan, t),
		.warmup = plan_is_warmup(&e->plan, t),
		.placement = p,
	};
	int cell = plan_cell_of(&e->plan, t);
	for (int i = 0; i < spec->nprocs; i++) {
		const struct workload *w = (i == 1 && e->b.argv) ? &e->b : &e->a;
		bool beside = w == &e->b;
		if (cell >= 0) { /* a matrix: the victim (a) and the aggressor (b) of the cell */
			const struct plan_cell *c = &e->plan.cells[cell];
			w = &e->workloads[i == 1 && c->b >= 0 ? c->b : c->a];
			beside = i == 1;
		}
		spec->procs[i] = (struct trial_proc_spec){
			.pu = e->pairs[p].pus[i], .path = w->path, .argv = w->argv,
			.kernel = w->is_kernel, .envp = st->env[p][i].envp,
			/* --one-process: all of the placement's CPUs (pu is the first of them) */
			.cpus = e->one_process ? st->one_cpus[p] : NULL,
			.ncpus = e->one_process ? st->one_ncpus[p] : 0,
		};
		labels->role[i] = beside ? "b" : "a";
		labels->workload[i] = w->name;
	}
}

/* A stored trial in which a process failed: said (the first few) and counted. True when the
 * run must stop: the workload is not supported on this CPU. */
static bool note_failure(struct run_state *st, long t, const struct trial_result *result,
                         int failed_proc)
{
	enum placement p = plan_placement_of(&st->e->plan, t);
	st->failures++;
	if (t - st->first_trial < plan_block_size(&st->e->plan))
		st->early_failures++;
	clear_progress(st);
	if (st->failures <= FAILURES_SHOWN && st->one_ncpus[p] == 2) /* --one-process on a pair */
		text_warnx("trial %ld (%s) failed: its process on CPUs %d,%d %s", t, placement_name(p),
		           st->one_cpus[p][0], st->one_cpus[p][1], result->procs[failed_proc].error);
	else if (st->failures <= FAILURES_SHOWN)
		text_warnx("trial %ld (%s) failed: process %d on CPU %d %s", t, placement_name(p),
		           failed_proc, st->e->pairs[p].pus[failed_proc],
		           result->procs[failed_proc].error);
	if (result->procs[failed_proc].status != PROC_UNSUPPORTED)
		return false;
	text_warnx("the workload is not supported on this CPU; stopping");
	return true;
}

/* The most of workload-stderr.log's first line that a message quotes, with "..." when it is
 * longer. No more is read: the log may hold one endless line. */
#define STDERR_QUOTE_BYTES 200

/* If the first block this call runs fails whole, the workload is broken: stop rather than fill
 * a night with failed trials. That holds for a resumed run as much as a new one. */
static bool first_block_failed(const struct run_state *st, long t)
{
	long n = plan_block_size(&st->e->plan);
	if (st->early_failures != n || t + 1 - st->first_trial != n)
		return false;
	off_t logged = st->log_capped ? 1 : st->log_fd >= 0 ? lseek(st->log_fd, 0, SEEK_END) : 0;
	char first[STDERR_QUOTE_BYTES + 2]; /* one byte past the quote tells a longer line */
	if (logged > 0)
		fileio_read_first_line(st->log_path, first, sizeof first);
	if (logged > 0 && *first)
		text_warnx("every trial of the first block failed; stopping. The workloads' error "
		           "output begins \"%.*s%s\" (all of it is in %s)", STDERR_QUOTE_BYTES, first,
		           strlen(first) > STDERR_QUOTE_BYTES ? "..." : "", st->log_path);
	else if (logged > 0)
		text_warnx("every trial of the first block failed; stopping (the workloads' error "
		           "output is in %s)", st->log_path);
	else
		text_warnx("every trial of the first block failed; stopping (the workloads wrote "
		           "nothing on their error output)");
	return true;
}

/* The slowest process's wall time: the trial's span. */
static double trial_span_s(const struct trial_result *r)
{
	double span = 0;
	for (int i = 0; i < r->nprocs; i++)
		span = fmax(span, r->procs[i].wall_s);
	return span;
}

/* After a stored trial: its leftovers counted, the time limit calibrated, and timeouts in a
 * row counted. True when the run must stop: TRIAL_TIMEOUTS_IN_A_ROW trials timed out. */
static bool after_trial_checks(struct run_state *st, long t, const struct trial_result *r,
                               bool ok)
{
	if (r->leftovers > 0) {
		st->leftover_trials++;
		st->leftovers += r->leftovers;
	}
	calibrate_timeout(st, t, ok, trial_span_s(r), true);
	st->timeouts_in_row = r->timed_out ? st->timeouts_in_row + 1 : 0;
	if (st->timeouts_in_row < TRIAL_TIMEOUTS_IN_A_ROW)
		return false;
	clear_progress(st);
	text_warnx("%d trials in a row ran past the trial time limit of %g s and were killed; "
	           "stopping (the workload hangs, or needs longer: set the limit with "
	           "--trial-timeout SECONDS, 0 for none)", st->timeouts_in_row, st->timeout_s);
	return true;
}

/* How a trial left the loop: go on, stop without it (not stored), or stop after it (stored). */
enum step { STEP_NEXT, STEP_STOP_BEFORE, STEP_STOP_AFTER };

/* The run failed: it stops, before trial t is stored or after (step). */
static enum step run_failed(struct run_state *st, enum step step)
{
	st->outcome = RUN_FAILED;
	return step;
}

/* Runs trial t and appends it to samples.csv. */
static enum step run_one_trial(struct run_state *st, long t)
{
	struct trial_spec spec;
	struct trial_labels labels;
	describe_trial(st, t, &spec, &labels);
	struct trial_result result;
	int interrupt_signal = 0;
	enum trial_outcome o = trial_run(&spec, &result, &interrupt_signal);
	if (o != TRIAL_SYSTEM_ERROR)
		cap_workload_log(st, false, result.stderr_discarded > 0);
	if (o == TRIAL_INTERRUPTED) {
		/* The interrupted trial is not stored: --resume runs it again, whole. */
		stop_interrupted(st, interrupt_signal);
		return STEP_STOP_BEFORE;
	}
	if (o == TRIAL_SYSTEM_ERROR) {
		text_warn("trial %ld (%s): cannot start its processes", t,
		          placement_name(labels.placement));
		return run_failed(st, STEP_STOP_BEFORE);
	}
	char err[ERR_LEN];
	if (store_append_trial(st->s, &labels, &result, err, sizeof err) != 0) {
		text_warnx("%s", err);
		return run_failed(st, STEP_STOP_BEFORE);
	}
	int failed = failed_proc(&result);
	if ((failed >= 0 && note_failure(st, t, &result, failed))
	    || after_trial_checks(st, t, &result, failed < 0))
		return run_failed(st, STEP_STOP_AFTER);
	count_trial(&st->means, labels.block, labels.placement, labels.warmup, failed < 0,
	            headline_time(st->e, &result, &labels));
	if (st->e->allocation)
		allocation_add(st->e->allocation, labels.block, plan_cell_of(&st->e->plan, t),
		               failed < 0, mean_role_a_utime(&result, &labels));
	line_if_contaminated(st, t, &labels, &result, trial_span_s(&result));
	return first_block_failed(st, t) ? run_failed(st, STEP_STOP_AFTER) : STEP_NEXT;
}

/* meta.json's segment closed with the outcome; an empty error log removed (it says nothing). */
static void run_state_finish(struct run_state *st, long trials_done)
{
	clear_progress(st);
	if (st->failures > FAILURES_SHOWN)
		text_warnx("%ld failed trials in all (recorded in samples.csv with their status)",
		           st->failures);
	if (st->leftover_trials > 0)
		text_warnx("%ld trial(s) left processes running after they ended; %ld process(es) "
		           "killed in all (see the leftovers column of samples.csv)",
		           st->leftover_trials, st->leftovers);
	/* Every trial meta.json counts is on disk before meta.json says so. */
	char err[ERR_LEN];
	if (store_sync(st->s, err, sizeof err) != 0)
		text_warnx("%s", err);
	meta_end_segment(st->e->meta, trials_done,
	                 st->outcome == RUN_COMPLETE ? "complete"
	                 : st->outcome == RUN_INTERRUPTED ? "interrupted" : "failed",
	                 st->stop_reason);
	meta_set_precision(st->e->meta, &st->means.precision);
	if (st->e->allocation)
		matrix_meta_set_stops(st->e, st->outcome == RUN_COMPLETE);
	save_meta(st);
	for (int p = 0; p < PLACEMENT_COUNT; p++)
		for (int k = 0; k < TRIAL_MAX_PROCS; k++)
			workload_env_release(&st->env[p][k]);
	if (st->log_fd >= 0) {
		off_t size = st->log_capped ? 1 : lseek(st->log_fd, 0, SEEK_END);
		close(st->log_fd);
		if (size == 0)
			unlink(st->log_path);
	}
	free(st->log_path);
}

/* After the warm-up: a command whose user time per copy is under what the clock resolves
 * well (SAMPLES_USER_TICKS_WANTED ticks) is said, with the length measured and how many of
 * its trials measured 0 s, which the analysis leaves out. */
static void warn_below_resolution(const struct run_state *st, const struct experiment *e)
{
	double mean = st->means.every_sum / (double)st->means.every_n;
	double floor_s = SAMPLES_USER_TICKS_WANTED * SAMPLES_USER_TICK_S;
	if (e->one_process || !(mean < floor_s))
		return;
	text_warnx("%s's trials are too short for the clock: %.3g s of user time per copy, under "
	           "the %g s (%d clock ticks of %g s) that user time, counted in clock ticks, "
	           "resolves well; %ld of %ld trial(s) so far measured 0 s, which the analysis leaves "
	           "out (and refuses a comparison where more than half are 0): give the command "
	           "more work, e.g. a loop (sh -c 'for i in $(seq 100); do CMD; done')", e->a.name,
	           mean, floor_s, SAMPLES_USER_TICKS_WANTED, SAMPLES_USER_TICK_S,
	           st->means.zero_n, st->means.every_n);
}

/* A command cannot be calibrated: its length is shown once, after the warm-up (or after the
 * first block without one), from every ok trial so far. */
static void show_command_length(const struct run_state *st, long t)
{
	const struct experiment *e = st->e;
	long shown_after = st->warmup_trials > 0 ? st->warmup_trials : plan_block_size(&e->plan);
	if (e->a.is_kernel || e->nworkloads > 0 || t + 1 != shown_after || st->means.every_n == 0)
		return;
	clear_progress(st);
	text_warnx("%s is a command, which cannot be calibrated: it ran %.3g s of %s in the %s (its "
	           "own length sets the trial's)", e->a.name,
	           st->means.every_sum / (double)st->means.every_n,
	           e->one_process ? "wall time per trial" : "user time per copy",
	           st->warmup_trials > 0 ? "warm-up" : "first block");
	/* The plan could not say how long the run takes: at this pace, now it can. */
	long total = plan_total_trials(&e->plan), done = t + 1 - st->first_trial;
	if (total > t + 1 && done > 0) {
		double per_trial = (trial_now_s() - st->run_start_s) / (double)done;
		char left[32];
		format_hms(per_trial * (double)(total - t - 1), left, sizeof left);
		text_warnx("expected duration: at %.3g s of wall time per trial so far, the %ld trials "
		           "left take about %s (h:mm:ss)%s", per_trial, total - t - 1, left,
		           e->precision_pct > 0 ? " at most" : "");
	}
	warn_below_resolution(st, e);
}

/* After a whole measured block: whether the precision target is met. */
static bool precision_done(const struct run_state *st, long t)
{
	long n = plan_block_size(&st->e->plan);
	if (st->e->precision_pct <= 0 || st->e->allocation || (t + 1) % n != 0
	    || t + 1 <= st->warmup_trials)
		return false; /* a matrix's cells stop by allocate.h's rule (next_block_chosen) */
	return precision_reached(&st->means.precision, (t + 1 - st->warmup_trials) / n);
}

/* A matrix with --precision, before trial t: when t starts a block whose cells are not chosen
 * yet, allocate.h chooses them; false (stop_reason "precision reached") when every cell is
 * within the target. */
static bool next_block_chosen(struct run_state *st, long t)
{
	struct experiment *e = st->e;
	if (!e->allocation || !plan_needs_schedule(&e->plan, t))
		return true;
	bool active[PLAN_MAX_CELLS];
	if (allocation_choose(e->allocation, active) == 0) {
		st->stop_reason = STOP_PRECISION;
		return false;
	}
	plan_schedule(&e->plan, active);
	return true;
}

enum run_outcome experiment_run(struct experiment *e, struct store *s, long first_trial,
                                const struct stored_trial *previous, long nprevious)
{
	struct run_state st = { .e = e, .s = s };
	/* A runner killed by SIGKILL could not end its last trial's daemons: they carry the
	 * folder's mark (trial.h), so the runner that continues the folder ends them first. */
	int orphans = trial_kill_marked(store_dir(s));
	if (orphans)
		text_warnx("killed %d process(es) left by an earlier runner of %s that was killed "
		           "(SIGKILL) during a trial: its workloads' daemons, which only a live runner "
		           "can end", orphans, store_dir(s));
	trial_mark_workloads(store_dir(s));
	run_state_init(&st, first_trial, previous, nprevious);
	long t = first_trial;
	if (precision_done(&st, t - 1)) /* a resumed run that had reached it already */
		st.stop_reason = STOP_PRECISION;
	for (; !st.stop_reason && next_block_chosen(&st, t) && time_for_trial(&st, t); t++) {
		int stop = trial_pending_stop_signal();
		if (stop) {
			stop_interrupted(&st, stop);
			break;
		}
		enum step step = run_one_trial(&st, t);
		if (step == STEP_STOP_BEFORE)
			break;
		if (step == STEP_STOP_AFTER) {
			t++;
			break;
		}
		show_command_length(&st, t);
		if (precision_done(&st, t))
			st.stop_reason = STOP_PRECISION;
		else
			show_progress(&st, t, first_trial);
	}
	if (st.outcome == RUN_COMPLETE && !st.stop_reason)
		st.stop_reason = st.total >= 0 || (e->allocation && e->plan.measured_blocks >= 0)
		                 ? STOP_TRIALS : STOP_DURATION;
	run_state_finish(&st, t);
	return st.outcome;
}
