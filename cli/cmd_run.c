/*
 * smtbench run — interleaved paired trials of a kernel or command in each placement.
 *
 * Everything the user gave is checked before anything is written: a bad option, kernel,
 * placement, pair or command is one line on stderr and exit 2 with no folder created.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/text.h"
#include "runner/calibrate.h"
#include "cli/commands.h"
#include "common/number.h"
#include "runner/experiment.h"
#include "runner/kernels.h"
#include "runner/meta.h"
#include "runner/precision.h"
#include "runner/resume.h"
#include "cli/run_shared.h"
#include "cli/summary.h"
#include "runner/util.h"
#include "runner/workload.h"

#define DEFAULT_TRIALS 30
#define DEFAULT_WARMUP 2
#define DEFAULT_PLACEMENTS "sibling,non-sibling,solo"

enum { OPT_BESIDE_KERNEL = 256, OPT_BESIDE_ITERS, OPT_LIST_KERNELS, OPT_RESUME, OPT_TRIAL_TIME,
       OPT_PRECISION, OPT_TRIAL_TIMEOUT, OPT_PROGRESS, OPT_PROGRESS_INTERVAL, OPT_NAME,
       OPT_ONE_PROCESS };

static void help(void)
{
	char placements[128];
	subcommand_usage(stdout, "run");
	printf("\n");
	printf("Runs two copies of a busy-loop kernel (or your command) on the pair of CPUs each\n"
	       "placement calls for, in randomized complete blocks, and records each process's user\n"
	       "and system CPU time (wait4), wall time and context switches in a results folder.\n\n"
	       "A block runs every placement once, in a random order; --blocks counts them.\n\n"
	       "      --placements LIST  comma-separated, from %s\n"
	       "                         (default %s); those this machine cannot\n"
	       "                         give are skipped with the reason\n"
	       "  -k, --kernel NAME      the workload (default nop; see --list-kernels)\n"
	       "  -i, --iters N          kernel iterations per process (default: calibrated, see\n"
	       "                         --trial-time)\n"
	       "      --trial-time S     without --iters, a short calibration on the first CPU\n"
	       "                         sizes the kernel so one copy runs about S seconds of user\n"
	       "                         time alone (default %g; a command cannot be calibrated)\n"
	       "      --precision PCT    stop once the headline ratio's 95%% interval (paired by\n"
	       "                         block, the one analyze gives) is within ±PCT%% of its\n"
	       "                         centre (after at least %d measured blocks),\n"
	       "                         or at --blocks/--duration if first (alone: at most %d\n"
	       "                         blocks)\n"
	       "  -b, --blocks N         measured blocks (each runs every placement once; default\n"
	       "                         %d); --trials N is the same option, by its former name\n"
	       "  -d, --duration T       instead of --blocks: after the warm-up, as many whole\n"
	       "                         blocks as fit in T (90s, 15m, 8h, 2d, 1h30m; a bare\n"
	       "                         number is seconds)\n"
	       "  -w, --warmup-blocks N  warm-up blocks (each runs every placement once), run\n"
	       "                         first, stored, and left out of the analysis (default %d);\n"
	       "                         --warmup N is the same option, by its former name\n"
	       "  -p, --pair A,B         use these CPUs (OS numbers) for the placement they form;\n"
	       "                         the placements default to that one and solo\n"
	       "  -s, --seed N           seed of the block order (default: random; always recorded)\n"
	       "  -o, --out DIR          results folder (default results/<UTC time>-<host>); must\n"
	       "                         not exist\n"
	       "      --trial-timeout S  kill a trial still running after S seconds (or 90s, 15m,\n"
	       "                         2h) with its process tree and record it as status\n"
	       "                         timeout; 0: no limit (default: %g x the slowest warm-up\n"
	       "                         trial, at least %g s; %g s until the warm-up has run);\n"
	       "                         %d timeouts in a row stop the run\n"
	       "      --resume DIR       continue an interrupted run where it stopped\n"
	       "      --one-process      one process per trial, bound to all of the placement's\n"
	       "                         CPUs (solo, same-pu: A; sibling: A and its sibling;\n"
	       "                         non-sibling: A and B), its threads placed by the\n"
	       "                         scheduler; judged by its wall time (analyze's default\n"
	       "                         for the folder), user time also analysed. For a\n"
	       "                         multi-threaded program, or --kernel nop-2t\n"
	       "      --beside-kernel K  run kernel K on the second CPU instead of a second copy\n"
	       "      --beside-iters N   its iterations (default: as long alone as the first kernel)\n"
	       "      -- COMMAND ...     run your command (exec'd directly, no shell) instead of a\n"
	       "                         kernel; a later '--beside COMMAND ...' runs that on the\n"
	       "                         second CPU (\"how much does B slow A down?\": only A's\n"
	       "                         times are analysed)\n"
	       "  -n, --name A[,B]       name the command (and with --beside the one beside it)\n"
	       "                         in samples.csv, meta.json and every report, instead of\n"
	       "                         its file name: %s\n"
	       "      --list-kernels     list the kernels and what bounds each\n"
	       "      --progress MODE    auto (default: bar on a terminal, else lines), bar (one\n"
	       "                         redrawn line), lines (a timestamped line per measured\n"
	       "                         block at most every --progress-interval, at least every\n"
	       "                         %g s, and a line per trial that shared its CPUs: for the\n"
	       "                         log of an unattended run), none; --resume takes it too\n"
	       "      --progress-interval T  lines: at most one per T (default %g s)\n"
	       "  -h, --help             show this help\n"
	       "  -V, --version          show smtbench's version\n\n"
	       "Every workload finds SMTBENCH_CPUS (the CPUs it is bound to, as \"2,3\") and\n"
	       "SMTBENCH_PLACEMENT (its placement's name) in its environment.\n\n"
	       "Exit status: 0 done; 1 a failure while running; 2 bad input, nothing written;\n"
	       "3 no placement possible on this machine, or a kernel this CPU cannot run;\n"
	       "128+signal when interrupted (the folder is valid: continue with --resume).\n",
	       placement_names_list(placements, sizeof placements), DEFAULT_PLACEMENTS,
	       CALIBRATE_DEFAULT_TRIAL_S, PRECISION_MIN_BLOCKS,
	       PRECISION_DEFAULT_MAX_BLOCKS, DEFAULT_TRIALS, DEFAULT_WARMUP, TRIAL_TIMEOUT_FACTOR,
	       TRIAL_TIMEOUT_MIN_S, TRIAL_TIMEOUT_UNCALIBRATED_S, TRIAL_TIMEOUTS_IN_A_ROW,
	       WORKLOAD_NAME_RULE, PROGRESS_LINES_MAX_GAP_S, PROGRESS_INTERVAL_DEFAULT_S);
}

static void list_kernels(void)
{
	/* Not a default: run calibrates its count unless --iters is given. This one took about
	 * 0.25 s alone where kernels.c measured it, and only scales --beside-kernel's count. */
	printf("%-16s %-26s %15s  %s\n", "kernel", "bound by", "reference iters", "what it does");
	for (size_t i = 0; i < kernel_count(); i++) {
		const struct kernel *k = kernel_at(i);
		printf("%-16s %-26s %15lu  %s\n", k->name, k->bound_by, k->default_iters, k->summary);
	}
}

/*
 * The beside kernel's default count: as long alone as the measured kernel runs alone (each
 * kernel's default is sized for the same time), so that B keeps A company for all of its run
 * instead of stopping early.
 */
static unsigned long beside_iters_for(const struct kernel *a, unsigned long a_iters,
                                      const struct kernel *b)
{
	double scaled = (double)b->default_iters * ((double)a_iters / (double)a->default_iters);
	return scaled < 1 ? 1 : scaled >= (double)RUN_MAX_ITERS ? RUN_MAX_ITERS : (unsigned long)scaled;
}

/* Parses --placements into the canonical order, without duplicates. */
static int parse_placements(const char *list, bool wanted[PLACEMENT_COUNT])
{
	char *copy = xstrdup(list);
	int count = 0;
	char *save = NULL;
	for (char *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		enum placement p;
		if (placement_parse(name, &p) != 0) {
			char known[256];
			text_warnx("unknown placement '%s' in --placements; the placements are %s",
			           name, placement_names_list(known, sizeof known));
			free(copy);
			exit(EXIT_USAGE);
		}
		if (!wanted[p])
			count++;
		wanted[p] = true;
	}
	free(copy);
	return count;
}

char *run_default_out_dir(void)
{
	char host[64] = "host";
	gethostname(host, sizeof host - 1);
	host[sizeof host - 1] = '\0';
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	char stamp[32];
	strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
	char *dir = xasprintf("results/%s-%s", stamp, host);
	/* Two runs in the same second get -2, -3, ...; an explicit --out is never renamed. */
	for (int i = 2; access(dir, F_OK) == 0 && i < 100; i++) {
		free(dir);
		dir = xasprintf("results/%s-%s-%d", stamp, host, i);
	}
	return dir;
}

/*
 * Decides the pair of each wanted placement on this system, or why it is skipped. With --pair,
 * the pair serves the placement it forms (and solo/same-pu use its first CPU); asking for
 * another two-CPU placement with it is a contradiction (exit 2).
 */
void run_choose_pairs(struct experiment *e, const struct topo *topo,
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
			text_warnx("skipping %s: %s", placement_name((enum placement)p),
			           pair->reason);
			continue;
		}
		e->plan.placements[e->plan.nplacements++] = (enum placement)p;
	}
}

/* Runs the kernel once, briefly, on the first CPU: a CPU without AVX2 is told before a folder
 * full of failed trials is made. */
bool run_preflight_kernel(const struct experiment *e, const struct workload *w, bool required)
{
	char *argv[] = { w->argv[0], "1", NULL };
	sigset_t mask;
	sigprocmask(SIG_SETMASK, NULL, &mask);
	struct trial_spec spec = {
		.nprocs = 1,
		.procs = { { .pu = e->pairs[e->plan.placements[0]].pus[0], .path = w->path,
		             .argv = argv, .kernel = w->is_kernel } },
		.stderr_fd = -1,
		.run_origin_s = trial_now_s(),
		.child_sigmask = &mask,
	};
	sigset_t old;
	trial_block_signals(&old);
	struct trial_result r;
	int sig = 0;
	enum trial_outcome o = trial_run(&spec, &r, &sig);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (o == TRIAL_INTERRUPTED)
		exit(128 + sig);
	if (o != TRIAL_COMPLETED)
		text_err(EXIT_FAILURE_RUNTIME, "cannot start kernel %s", w->name);
	if (r.procs[0].status == PROC_UNSUPPORTED && !required)
		return false;
	if (r.procs[0].status == PROC_UNSUPPORTED)
		text_errx(EXIT_UNAVAILABLE, "kernel %s cannot run on this CPU (it lacks the "
		          "instructions the kernel needs); choose another with --kernel", w->name);
	if (r.procs[0].status != PROC_OK)
		text_errx(EXIT_FAILURE_RUNTIME, "kernel %s failed a trial run on CPU %d: %s",
		          w->name, spec.procs[0].pu, r.procs[0].error);
	return true;
}

/* Where calibration runs: the solo placement's CPU, or the first CPU of the first placement. */
static int calibration_pu(const struct experiment *e)
{
	for (int i = 0; i < e->plan.nplacements; i++)
		if (e->plan.placements[i] == PLACEMENT_SOLO)
			return e->pairs[PLACEMENT_SOLO].pus[0];
	return e->pairs[e->plan.placements[0]].pus[0];
}

/* Calibrates kernel w for e->trial_time_s: *iters and w's argv get the count. A stop signal
 * exits 128+signal (nothing is written yet). */
void run_calibrate_workload(const struct experiment *e, struct workload *w,
                            const char *kernel, unsigned long *iters, struct calibration *cal)
{
	sigset_t old;
	trial_block_signals(&old);
	char err[ERR_LEN];
	int rc = calibrate_kernel(w->path, kernel, calibration_pu(e), e->trial_time_s, &old, cal,
	                          err, sizeof err);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (rc > 0)
		exit(128 + rc);
	if (rc < 0)
		text_errx(EXIT_FAILURE_RUNTIME, "%s", err);
	*iters = cal->iters;
	workload_release(w);
	xworkload_kernel(w, kernel, *iters);
}

void run_print_calibration(const char *role, const char *kernel, const struct calibration *c)
{
	printf("  %s%s: %lu iterations, calibrated for %g s alone on CPU %d (%.4g ns/iteration, "
	       "%.3g s start-up; calibration took %.2f s)\n", role, kernel, c->iters,
	       c->trial_time_s, c->pu, c->ns_per_iter, c->startup_s, c->calibration_s);
}

int run_finish(struct experiment *e, struct store *s, enum run_outcome outcome)
{
	const char *dir = store_dir(s);
	int status = EXIT_OK;
	if (outcome == RUN_INTERRUPTED) {
		text_warnx("interrupted by SIG%s after %lld trials; the results so far are valid. "
		           "Continue with: smtbench %s --resume %s",
		           sigabbrev_np(e->interrupt_signal),
		           (long long)json_integer_value(json_object_get(e->meta, "trials_done")),
		           e->nworkloads > 0 ? "matrix" : "run", dir);
		status = 128 + e->interrupt_signal;
	} else if (outcome == RUN_FAILED) {
		status = EXIT_FAILURE_RUNTIME;
	}
	/* Reports that could not be written are a failure too (exit 1), unless a signal or a
	 * failure set the status already. The samples are safe: `smtbench report DIR` writes
	 * the reports later. */
	if (!summary_after_run(dir, stdout) && status == EXIT_OK)
		status = EXIT_FAILURE_RUNTIME;
	return status;
}

/* The trial time limit and the stop signals the run ignores, as the plan states them. */
void run_print_protections(const struct experiment *e)
{
	if (e->trial_timeout_s > 0)
		printf("  trial time limit: %g s (--trial-timeout)\n", e->trial_timeout_s);
	else if (e->trial_timeout_s == 0)
		printf("  trial time limit: none (--trial-timeout 0)\n");
	else
		printf("  trial time limit: %g x the slowest warm-up trial, at least %g s (%g s until "
		       "the warm-up has run)\n", TRIAL_TIMEOUT_FACTOR, TRIAL_TIMEOUT_MIN_S,
		       TRIAL_TIMEOUT_UNCALIBRATED_S);
	static const int stops[] = { SIGHUP, SIGINT, SIGTERM };
	for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++)
		if (trial_signal_ignored(stops[i]))
			printf("  SIG%s is ignored (inherited so, as under nohup or in a background job): "
			       "it will not stop this run\n", sigabbrev_np(stops[i]));
}

/* What the command line said beyond the experiment's own settings. */
struct run_options {
	const char *placements; /* --placements, or NULL */
	const char *resume_dir; /* --resume, or NULL */
	char *names[2];         /* --name A[,B], checked; NULL where not given */
	bool have_seed;
	int settings_given;     /* options other than --help, --resume, --list-kernels and the
	                         * progress ones */
	enum progress_mode progress_mode;  /* --progress (default auto) */
	double progress_interval_s;        /* --progress-interval (0: the default) */
	bool done;              /* --help or --list-kernels answered: nothing to run */
};

/* --resume: the run taken up where it stopped (runner/resume.h checks everything first). */
int run_resume(const char *dir, char **command_line, enum progress_mode progress_mode,
               double progress_interval_s)
{
	struct resumed r;
	resume_open(dir, command_line, &r);
	r.e.progress_mode = progress_mode;
	r.e.progress_interval_s = progress_interval_s;
	char *shown = xescaped(dir);
	if (r.complete) {
		printf("%s is complete; nothing to resume.\n", shown);
		free(shown);
		resume_release(&r);
		return EXIT_OK;
	}
	if (r.scan.cut_lines)
		text_warnx("%s/samples.csv: cut %ld line(s) of a trial that did not finish; it "
		           "runs again", dir, r.scan.cut_lines);
	long total = plan_total_trials(&r.e.plan);
	if (total >= 0)
		printf("resuming %s at trial %ld of %ld\n", shown, r.scan.ntrials, total);
	else
		printf("resuming %s at trial %ld\n", shown, r.scan.ntrials);
	free(shown);
	run_print_protections(&r.e);
	fflush(stdout);
	enum run_outcome outcome = experiment_run(&r.e, r.store, r.scan.ntrials, r.scan.trials,
	                                          r.scan.ntrials);
	sigprocmask(SIG_SETMASK, &r.e.child_sigmask, NULL); /* ^C may stop the report */
	int rc = run_finish(&r.e, r.store, outcome);
	resume_release(&r);
	return rc;
}

/* Whether DIR holds a run that --resume would take up: not the temporary folder of a killed
 * creation, and a meta.json that meta_load accepts (resume's own check of the file). *complete:
 * that run has finished, so there is nothing to resume. false with the reason in err. */
static bool looks_resumable(const char *dir, bool *complete, char *err, size_t err_size)
{
	*complete = false;
	if (store_is_partial(dir)) {
		set_error(err, err_size, "it is the temporary folder of a run killed while creating "
		          "its results folder");
		return false;
	}
	struct experiment recorded = { .command_line = NULL };
	struct results_folder *f = folder_open(dir);
	bool ok = meta_load(f, &recorded, err, err_size) == 0;
	folder_free(&f);
	const char *status = json_string_value(json_object_get(recorded.meta, "status"));
	*complete = ok && status && !strcmp(status, "complete");
	experiment_release(&recorded);
	return ok;
}

/* An --out that exists is the user's mistake: one line saying what it holds, and --resume only
 * for a run that --resume can continue. */
static void refuse_existing_out(const char *dir)
{
	char err[ERR_LEN] = "";
	bool complete;
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) /* a file, or a link to nowhere */
		usage_exit("run", "--out %s already exists and is not a folder; choose another --out",
		           dir);
	if (!looks_resumable(dir, &complete, err, sizeof err))
		usage_exit("run", "results folder %s already exists and is not a run smtbench can "
		           "resume (%s); choose another --out", dir, err);
	if (complete)
		usage_exit("run", "results folder %s already exists and holds a complete run "
		           "(nothing to resume); choose another --out", dir);
	usage_exit("run", "results folder %s already exists; choose another --out, or continue "
	           "it with --resume %s", dir, dir);
}


/* run's options; their short letters come from the command table (cli/commands.c). --trials
 * and --warmup are the first names of --blocks and --warmup-blocks, kept as aliases. */
const struct option run_long_options[] = {
	{ "placements", required_argument, NULL, 'P' },
	{ "kernel", required_argument, NULL, 'k' },
	{ "beside-kernel", required_argument, NULL, OPT_BESIDE_KERNEL },
	{ "beside-iters", required_argument, NULL, OPT_BESIDE_ITERS },
	{ "iters", required_argument, NULL, 'i' },
	{ "trial-time", required_argument, NULL, OPT_TRIAL_TIME },
	{ "precision", required_argument, NULL, OPT_PRECISION },
	{ "blocks", required_argument, NULL, 'n' },
	{ "trials", required_argument, NULL, 'n' },
	{ "duration", required_argument, NULL, 'd' },
	{ "warmup-blocks", required_argument, NULL, 'w' },
	{ "warmup", required_argument, NULL, 'w' },
	{ "pair", required_argument, NULL, 'p' },
	{ "seed", required_argument, NULL, 's' },
	{ "out", required_argument, NULL, 'o' },
	{ "trial-timeout", required_argument, NULL, OPT_TRIAL_TIMEOUT },
	{ "resume", required_argument, NULL, OPT_RESUME },
	{ "list-kernels", no_argument, NULL, OPT_LIST_KERNELS },
	{ "progress", required_argument, NULL, OPT_PROGRESS },
	{ "progress-interval", required_argument, NULL, OPT_PROGRESS_INTERVAL },
	{ "name", required_argument, NULL, OPT_NAME },
	{ "one-process", no_argument, NULL, OPT_ONE_PROCESS },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* A whole number option in [min, max], or exit 2 naming the option and its range. */
static unsigned long option_ulong(const char *option, unsigned long min, unsigned long max,
                                  const char *range)
{
	unsigned long value;
	if (parse_ulong(optarg, min, max, &value) != 0)
		usage_exit("run", "--%s: '%s' is not a whole number %s", option, optarg, range);
	return value;
}

/* A number option in (min, max], or exit 2 naming the option and its range. */
static double option_double(const char *option, double min, double max, const char *range)
{
	double value;
	if (number_parse_real(optarg, &value) != NUMBER_OK || !(value > min) || !(value <= max))
		usage_exit("run", "--%s: '%s' is not a number %s", option, optarg, range);
	return value;
}

/* --progress MODE and --progress-interval T into o; bad values exit 2. */
static void take_progress_option(int opt, struct run_options *o)
{
	static const char *const modes[] = { "auto", "bar", "lines", "none" };
	static const enum progress_mode values[] = { PROGRESS_AUTO, PROGRESS_BAR, PROGRESS_LINES,
	                                             PROGRESS_NONE };
	if (opt == OPT_PROGRESS) {
		size_t k = 0;
		while (k < 4 && strcmp(optarg, modes[k]))
			k++;
		if (k == 4)
			usage_exit("run", "--progress: '%s': use auto, bar, lines or none", optarg);
		o->progress_mode = values[k];
		return;
	}
	if (parse_duration_s(optarg, &o->progress_interval_s) != 0
	    || o->progress_interval_s < PROGRESS_INTERVAL_MIN_S
	    || o->progress_interval_s > PROGRESS_LINES_MAX_GAP_S)
		usage_exit("run", "--progress-interval: '%s' is not a time from %g s to %g s (60, 90s, "
		           "5m)", optarg, PROGRESS_INTERVAL_MIN_S, PROGRESS_LINES_MAX_GAP_S);
}

/* --name A[,B]: one or two names, each by the rule of workload.h, into o; else exit 2. */
static void take_names(const char *list, struct run_options *o)
{
	free(o->names[0]);
	free(o->names[1]);
	o->names[0] = o->names[1] = NULL;
	const char *comma = strchr(list, ',');
	size_t len = comma ? (size_t)(comma - list) : strlen(list);
	o->names[0] = xasprintf("%.*s", (int)len, list);
	if (comma && strchr(comma + 1, ','))
		usage_exit("run", "--name: '%s' holds more than two names: --name A names the command, "
		           "--name A,B that one and the one after '--beside'", list);
	if (comma)
		o->names[1] = xstrdup(comma + 1);
	for (int i = 0; i < 2; i++)
		if (o->names[i] && !workload_name_valid(o->names[i]))
			usage_exit("run", "--name: '%s' is not a name: a name is %s (--name A or "
			           "--name A,B)", o->names[i], WORKLOAD_NAME_RULE);
}

/* One option of getopt_long into e or o; bad values exit 2. */
static void take_option(int opt, char **argv, struct experiment *e, struct run_options *o)
{
	switch (opt) {
	case 'P': o->placements = optarg; break;
	case 'k': free(e->kernel); e->kernel = xstrdup(optarg); break;
	case OPT_BESIDE_KERNEL: free(e->beside_kernel); e->beside_kernel = xstrdup(optarg); break;
	case OPT_BESIDE_ITERS:
		e->beside_iters = option_ulong("beside-iters", 1, RUN_MAX_ITERS, "from 1 to 2^63-1");
		break;
	case 'i': e->iters = option_ulong("iters", 1, RUN_MAX_ITERS, "from 1 to 2^63-1"); break;
	case 'n':
		e->trials = (long)option_ulong(cli_option_name, 1, RUN_MAX_TRIALS,
		                               "from 1 to 100000000");
		break;
	case 'w':
		e->warmup = (long)option_ulong(cli_option_name, 0, RUN_MAX_WARMUP, "from 0 to 1000000");
		break;
	case OPT_TRIAL_TIME:
		e->trial_time_s = option_double("trial-time", RUN_TRIAL_TIME_MIN_S - 1e-12,
		                                RUN_TRIAL_TIME_MAX_S, "of seconds from 0.001 to 3600");
		break;
	case OPT_PRECISION:
		e->precision_pct = option_double("precision", 0, RUN_MAX_PRECISION_PCT,
		                                 "of percent above 0 and at most 50");
		break;
	case 's':
		e->plan.seed = option_ulong("seed", 0, (unsigned long)INT64_MAX, "from 0 to 2^63-1");
		o->have_seed = true;
		break;
	case 'd':
		if (parse_duration_s(optarg, &e->duration_s) != 0)
			usage_exit("run", "--duration: '%s' is not a duration such as 90s, 15m, 8h, 2d "
			           "or 1h30m", optarg);
		if (e->duration_s > RUN_MAX_DURATION_S)
			usage_exit("run", "--duration: '%s' is longer than a century", optarg);
		break;
	case 'p':
		if (parse_cpu_pair(optarg, e->pair) != 0)
			usage_exit("run", "--pair: '%s' is not two CPU numbers such as 0,1", optarg);
		e->have_pair = true;
		break;
	case 'o':
		if (!*optarg)
			usage_exit("run", "--out: the folder's name is empty");
		free(e->out_dir);
		e->out_dir = xstrdup(optarg);
		break;
	case OPT_TRIAL_TIMEOUT:
		if (!strcmp(optarg, "0"))
			e->trial_timeout_s = 0;
		else if (parse_duration_s(optarg, &e->trial_timeout_s) != 0
		         || e->trial_timeout_s > TRIAL_TIMEOUT_MAX_S)
			usage_exit("run", "--trial-timeout: '%s' is not a time limit such as 60 (seconds), "
			           "90s, 15m or 2h, or 0 for none", optarg);
		break;
	case OPT_RESUME: o->resume_dir = optarg; break;
	case OPT_NAME: take_names(optarg, o); break;
	case OPT_ONE_PROCESS: e->one_process = true; break;
	case OPT_LIST_KERNELS: list_kernels(); o->done = true; break;
	case OPT_PROGRESS:
	case OPT_PROGRESS_INTERVAL: take_progress_option(opt, o); break;
	case 'h': help(); o->done = true; break;
	default: getopt_failure("run", opt, argv);
	}
}

/* Parses the options (stopping at the first non-option: a command's own options are left
 * alone); optind is then where a command after '--' starts. */
static void parse_options(int argc, char **argv, struct experiment *e, struct run_options *o)
{
	int opt;
	optind = 1;
	while (!o->done && (opt = cli_getopt(argc, argv, "run")) != -1) {
		/* How progress is shown is not a setting of the run: --resume takes it too. */
		if (opt != 'h' && opt != OPT_RESUME && opt != OPT_LIST_KERNELS && opt != OPT_PROGRESS
		    && opt != OPT_PROGRESS_INTERVAL)
			o->settings_given++;
		take_option(opt, argv, e, o);
	}
}

/* The user's command: after '--' (getopt leaves it at optind), split at '--beside'. */
static void set_command_workloads(struct experiment *e, int cmd_argc, char **cmd_argv)
{
	if (e->kernel || e->iters || e->beside_kernel || e->beside_iters || e->trial_time_s > 0)
		usage_exit("run", "--kernel, --iters, --trial-time, --beside-kernel and --beside-iters "
		           "are for kernels; with a command after '--', leave them out (a command "
		           "cannot be calibrated)");
	int split = -1;
	for (int i = 0; i < cmd_argc && split < 0; i++)
		if (!strcmp(cmd_argv[i], "--beside"))
			split = i;
	int a_argc = split >= 0 ? split : cmd_argc;
	if (a_argc == 0)
		usage_exit("run", "no command before --beside");
	if (split >= 0 && split + 1 == cmd_argc)
		usage_exit("run", "no command after --beside");
	xworkload_command(&e->a, cmd_argv, a_argc);
	if (split >= 0)
		xworkload_command(&e->b, cmd_argv + split + 1, cmd_argc - split - 1);
}

/* Without --iters a kernel is calibrated (new_run); until then it has its table count, which
 * the preflight uses. */
static void set_kernel_workloads(struct experiment *e)
{
	if (!e->kernel)
		e->kernel = xstrdup("nop");
	const struct kernel *k = kernel_find(e->kernel);
	if (e->iters && e->trial_time_s > 0)
		usage_exit("run", "--trial-time sizes a calibrated count and --iters gives the count; "
		           "give one of them");
	if (!e->iters && e->trial_time_s <= 0)
		e->trial_time_s = CALIBRATE_DEFAULT_TRIAL_S;
	if (k && e->iters == 0)
		e->iters = k->default_iters;
	xworkload_kernel(&e->a, e->kernel, e->iters);
	if (e->beside_kernel) {
		const struct kernel *b = kernel_find(e->beside_kernel);
		if (b && e->beside_iters == 0 && e->trial_time_s <= 0)
			e->beside_iters = beside_iters_for(k, e->iters, b);
		else if (b && e->beside_iters == 0) {
			e->beside_iters = b->default_iters;
			e->cal_b.trial_time_s = e->trial_time_s; /* to be calibrated too */
		}
		xworkload_kernel(&e->b, e->beside_kernel, e->beside_iters);
	} else if (e->beside_iters) {
		usage_exit("run", "--beside-iters goes with --beside-kernel");
	}
}

/* --name: a command's, and the one beside it's; a kernel has its name. */
static void set_names(struct experiment *e, char *const names[2])
{
	if (!names[0])
		return;
	if (e->a.is_kernel)
		usage_exit("run", "--name names a command after '--'; a kernel has its own name "
		           "(%s)", e->a.name);
	if (names[1] && !e->b.argv)
		usage_exit("run", "--name %s,%s: the second name is for the command after '--beside', "
		           "and there is none", names[0], names[1]);
	workload_set_name(&e->a, names[0]);
	if (names[1])
		workload_set_name(&e->b, names[1]);
}

/* Workloads, trial and warm-up counts from what the options left. */
static void settle_settings(struct experiment *e, const struct run_options *o, int argc,
                            char **argv)
{
	int cmd_argc = argc - optind;
	char **cmd_argv = argv + optind;
	if (cmd_argc == 0 && optind > 1 && !strcmp(argv[optind - 1], "--"))
		usage_exit("run", "no command after '--'");
	if (cmd_argc > 0 && strcmp(argv[optind - 1], "--") != 0)
		usage_exit("run", "unexpected argument '%s'; a command to run goes after '--'",
		           cmd_argv[0]);
	if (cmd_argc > 0)
		set_command_workloads(e, cmd_argc, cmd_argv);
	else
		set_kernel_workloads(e);
	if (e->one_process && (e->b.argv || e->beside_kernel))
		usage_exit("run", "--one-process runs one process on all of each placement's CPUs, "
		           "and %s runs a second workload beside the first: give one of them",
		           e->beside_kernel ? "--beside-kernel" : "--beside");
	const struct kernel *k = e->a.is_kernel ? kernel_find(e->kernel) : NULL;
	if (k && e->one_process && k->threads < 2)
		text_warnx("kernel %s has one thread: with --one-process it keeps one of a "
		           "placement's two CPUs busy (nop-2t has two threads)", k->name);
	else if (k && !e->one_process && k->threads > 1)
		text_warnx("kernel %s has %d threads: without --one-process each copy is bound to "
		           "one CPU, where its threads take turns", k->name, k->threads);
	set_names(e, o->names);
	if (e->trials != -2 && e->duration_s > 0)
		usage_exit("run", "--blocks (--trials) and --duration exclude each other; give one");
	if (e->duration_s > 0)
		e->trials = -1;
	else if (e->trials == -2)
		e->trials = e->precision_pct > 0 ? PRECISION_DEFAULT_MAX_BLOCKS : DEFAULT_TRIALS;
	if (e->warmup < 0)
		e->warmup = DEFAULT_WARMUP;
}

/* --placements checked against --pair; both are the user's input, so this runs before the
 * machine is read. */
static void parse_wanted(const struct experiment *e, const char *placements,
                         bool wanted[PLACEMENT_COUNT])
{
	if (!placements)
		return;
	if (parse_placements(placements, wanted) == 0)
		usage_exit("run", "--placements: the list is empty");
	bool two_cpus = false;
	for (int p = 0; p < PLACEMENT_COUNT; p++)
		if (wanted[p] && p != PLACEMENT_SOLO && p != PLACEMENT_SAME_PU)
			two_cpus = true;
	if (e->have_pair && !two_cpus)
		usage_exit("run", "--pair %d,%d names two CPUs, but --placements has no placement "
		           "of two CPUs (solo and same-pu use only CPU %d)", e->pair[0], e->pair[1],
		           e->pair[0]);
}

/* Without --placements: the placement --pair forms and solo, or the default list. */
static void default_wanted(const struct experiment *e, const struct topo *topo,
                           bool wanted[PLACEMENT_COUNT])
{
	if (!e->have_pair) {
		parse_placements(DEFAULT_PLACEMENTS, wanted);
		return;
	}
	char err[ERR_LEN];
	struct topo_relation rel;
	if (topo_relate(topo, e->pair, &rel, err, sizeof err) != 0)
		text_errx(EXIT_USAGE, "--pair %d,%d: %s", e->pair[0], e->pair[1], err);
	wanted[rel.relation] = true;
	wanted[PLACEMENT_SOLO] = true;
}

/* What about this machine may make the run mean less than it seems: said before it starts. */
void run_warn_about_machine(const struct experiment *e, const struct topo_info *info)
{
	if (e->plan.nplacements == 1) {
		bool solo = e->plan.placements[0] == PLACEMENT_SOLO;
		text_warnx("only %s will run: with one placement there is nothing to compare it "
		           "with, so the run ends without an answer (%s)",
		           placement_name(e->plan.placements[0]), solo
		           ? "add another placement: --placements non-sibling,solo, for one"
		           : "add solo, for one");
	}
	if (info->virtual_machine)
		text_warnx("this is a virtual machine (%s): its CPU numbering and siblings need "
		           "not be the host's",
		           info->hypervisor[0] ? info->hypervisor : "hypervisor unknown");
	struct topo_cpu_quota quota;
	topo_cpu_quota(&quota);
	if (quota.cpus > 0 && quota.cpus < 2)
		text_warnx("a CPU quota of %.3g CPUs applies to this run (%s): two busy processes "
		           "cannot run at the same time, so a pair's contention is not what its "
		           "placement says (see the overlap in the report); run outside that "
		           "cgroup", quota.cpus, quota.source);
}

/* The results folder, complete or not at all: samples.csv's header, meta.json's first state and
 * topology.xml written under a temporary name, then renamed into place. From its creation on,
 * a stop signal waits for a trial boundary, so the folder always gets its meta.json and stays
 * resumable. */
struct store *run_create_folder(struct experiment *e, const struct topo *topo,
                                const struct topo_info *info)
{
	if (!e->out_dir)
		e->out_dir = run_default_out_dir();
	trial_block_signals(&e->child_sigmask);
	char err[ERR_LEN];
	struct store *s = store_create(e->out_dir, err, sizeof err);
	if (!s)
		text_errx(EXIT_USAGE, "%s", err);
	e->meta = meta_new(e, info);
	char *xml_path = xasprintf("%s/topology.xml", store_dir(s));
	int rc = topo_export_xml(topo, xml_path, err, sizeof err);
	free(xml_path);
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

/* How long a copy runs: calibrated, given, or a command's own length. */
static void print_workload_sizes(const struct experiment *e)
{
	if (e->cal_a.iters)
		run_print_calibration("", e->kernel, &e->cal_a);
	else if (e->kernel)
		printf("  %s: %lu iterations (--iters: not calibrated)\n", e->kernel, e->iters);
	else {
		char *name = xescaped(e->a.name), *file = xescaped(e->a.argv[0]);
		printf("  %s%s%s%s is a command: it cannot be calibrated; its length is shown after "
		       "the warm-up\n", name, e->a.named ? " (" : "", e->a.named ? file : "",
		       e->a.named ? ")" : "");
		free(name);
		free(file);
	}
	if (e->one_process && e->cal_a.iters)
		printf("  (calibrated as one process alone on one CPU: its threads' CPU time together)\n");
	if (e->b.named) {
		char *name = xescaped(e->b.name), *file = xescaped(e->b.argv[0]);
		printf("  beside it: %s (%s)\n", name, file);
		free(name);
		free(file);
	}
	if (e->cal_b.iters)
		run_print_calibration("beside ", e->beside_kernel, &e->cal_b);
	else if (e->beside_kernel)
		printf("  beside %s: %lu iterations\n", e->beside_kernel, e->beside_iters);
	if (e->precision_pct > 0) {
		struct precision_tracker t;
		precision_init(&t, e->precision_pct, e->plan.placements, e->plan.nplacements);
		if (t.have_comparison)
			printf("  stops when %s/%s%s is known to ±%g%% (95%% interval, paired by block, as "
			       "analyze gives it), after at least %d blocks, or at the limit above\n",
			       placement_name(t.a), placement_name(t.b),
			       e->one_process ? " (wall time)" : "", e->precision_pct,
			       PRECISION_MIN_BLOCKS);
		else
			printf("  --precision %g: one placement has nothing to compare with; the run "
			       "goes to the limit above\n", e->precision_pct);
	}
}

static void print_plan(const struct experiment *e)
{
	long total = plan_total_trials(&e->plan);
	char *a = xescaped(e->a.name), *b = e->b.argv ? xescaped(e->b.name) : NULL;
	char *out = xescaped(e->out_dir);
	if (b)
		printf("smtbench run: %s beside %s → %s\n", a, b, out);
	else if (e->one_process)
		printf("smtbench run: %s, one process per trial on all of the placement's CPUs, judged "
		       "by its wall time → %s\n", a, out);
	else
		printf("smtbench run: %s → %s\n", a, out);
	free(a);
	free(b);
	free(out);
	for (int i = 0; i < e->plan.nplacements; i++) {
		const struct topo_pair *pair = &e->pairs[e->plan.placements[i]];
		int cpus[2];
		if (e->one_process && topo_pair_cpus(pair, cpus) == 1)
			printf("  %-13s CPU %d\n", placement_name(pair->placement), cpus[0]);
		else if (pair->npus == 1)
			printf("  %-13s CPU %d\n", placement_name(pair->placement), pair->pus[0]);
		else
			printf("  %-13s CPUs %d,%d (share %s)\n", placement_name(pair->placement),
			       pair->pus[0], pair->pus[1], pair->shares);
	}
	if (total >= 0)
		printf("  %ld trial%s%s: %ld warm-up + %ld measured block%s of %d (each block runs every "
		       "placement once), seed %llu\n", total, total == 1 ? "" : "s",
		       e->precision_pct > 0 ? " at most" : "", e->warmup, e->trials,
		       e->trials == 1 ? "" : "s", e->plan.nplacements, (unsigned long long)e->plan.seed);
	else
		printf("  whole blocks of %d (each block runs every placement once) for %.0f s (%ld "
		       "warm-up block%s first), seed %llu\n", e->plan.nplacements, e->duration_s,
		       e->warmup, e->warmup == 1 ? "" : "s", (unsigned long long)e->plan.seed);
	print_workload_sizes(e);
	run_print_protections(e);
	fflush(stdout);
}

char **run_copy_command_line(int argc, char **argv)
{
	char **command_line = xcalloc((size_t)argc + 2, sizeof *command_line);
	command_line[0] = xstrdup("smtbench");
	for (int i = 0; i < argc; i++)
		command_line[i + 1] = xstrdup(argv[i]);
	return command_line;
}

/* A new run: the user's input checked, the machine read (once), the pairs chosen, the kernel
 * tried, the folder made, then the trials. */
static int new_run(struct experiment *e, const struct run_options *o)
{
	bool wanted[PLACEMENT_COUNT] = { false };
	parse_wanted(e, o->placements, wanted);
	char err[ERR_LEN];
	struct topo *topo = topo_load(NULL, err, sizeof err);
	if (!topo)
		text_errx(EXIT_FAILURE_RUNTIME, "cannot read this machine's topology: %s", err);
	if (!o->placements)
		default_wanted(e, topo, wanted);
	/* An --out that exists is the user's mistake: say so before anything about the machine. */
	struct stat out_st;
	if (e->out_dir && lstat(e->out_dir, &out_st) == 0)
		refuse_existing_out(e->out_dir);
	struct topo_info info;
	topo_get_info(topo, &info);
	run_choose_pairs(e, topo, wanted);
	if (e->plan.nplacements == 0)
		text_errx(EXIT_UNAVAILABLE, "none of the placements asked for is possible on "
		          "this machine (reasons above); `smtbench topo` shows what it can do");
	run_warn_about_machine(e, &info);
	if (!o->have_seed)
		e->plan.seed = plan_fresh_seed();
	e->plan.warmup_blocks = e->warmup;
	e->plan.measured_blocks = e->trials;
	if (e->a.is_kernel)
		run_preflight_kernel(e, &e->a, true);
	if (e->b.argv && e->b.is_kernel)
		run_preflight_kernel(e, &e->b, true);
	if (e->a.is_kernel && e->trial_time_s > 0)
		run_calibrate_workload(e, &e->a, e->kernel, &e->iters, &e->cal_a);
	if (e->b.argv && e->b.is_kernel && e->cal_b.trial_time_s > 0)
		run_calibrate_workload(e, &e->b, e->beside_kernel, &e->beside_iters, &e->cal_b);
	struct store *s = run_create_folder(e, topo, &info);
	topo_free(&topo);
	print_plan(e);
	enum run_outcome outcome = experiment_run(e, s, 0, NULL, 0);
	sigprocmask(SIG_SETMASK, &e->child_sigmask, NULL); /* ^C may stop the report */
	int rc = run_finish(e, s, outcome);
	store_close(&s);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct experiment e = { .trials = -2, .warmup = -1, .trial_timeout_s = -1 };
	struct run_options o = { 0 };
	parse_options(argc, argv, &e, &o);
	if (o.done) {
		experiment_release(&e);
		free(o.names[0]);
		free(o.names[1]);
		return EXIT_OK;
	}
	char **command_line = run_copy_command_line(argc, argv);
	if (o.resume_dir) {
		if (o.settings_given || optind < argc)
			usage_exit("run", "--resume takes no other options but --progress and "
			           "--progress-interval: the run continues with the settings recorded in "
			           "%s/meta.json", o.resume_dir);
		experiment_release(&e);
		return run_resume(o.resume_dir, command_line, o.progress_mode, o.progress_interval_s);
	}
	e.command_line = command_line;
	e.progress_mode = o.progress_mode;
	e.progress_interval_s = o.progress_interval_s;
	settle_settings(&e, &o, argc, argv);
	int rc = new_run(&e, &o);
	experiment_release(&e);
	free(o.names[0]);
	free(o.names[1]);
	return rc;
}
