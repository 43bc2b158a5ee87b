/*
 * run_shared.c — the command line that `run` and `matrix` share (see run_shared.h), and what
 * both print when they end: the folder's report (report/report.h: a run's or a matrix's, by
 * its kind), written into it.
 */
#include "cli/run_shared.h"

#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/fileio.h"
#include "common/folder.h"
#include "common/text.h"
#include "report/report.h"
#include "runner/launch.h"
#include "runner/precision.h"
#include "runner/resume.h"

bool run_take_option(const char *command, int id, struct experiment *e, struct run_cli *o)
{
	o->settings_given += id != OPT_RESUME && id != OPT_PROGRESS && id != OPT_PROGRESS_INTERVAL;
	switch (id) {
	case OPT_BLOCKS: e->plan.measured_blocks = (long)cli_whole(command, 1, RUN_MAX_TRIALS); break;
	case OPT_WARMUP: e->plan.warmup_blocks = (long)cli_whole(command, 0, RUN_MAX_WARMUP); break;
	case OPT_DURATION: e->duration_s = cli_duration(command, RUN_MAX_DURATION_S); break;
	case OPT_TRIAL_TIME:
		e->trial_time_s = cli_real(command, RUN_TRIAL_TIME_MIN_S, RUN_TRIAL_TIME_MAX_S,
		                           "of seconds");
		break;
	case OPT_PRECISION:
		e->precision_pct = cli_real(command, 0, RUN_MAX_PRECISION_PCT, "of percent");
		break;
	case OPT_SEED:
		e->plan.seed = cli_whole(command, 0, (unsigned long)INT64_MAX);
		o->have_seed = true;
		break;
	case OPT_OUT:
		if (!*optarg)
			usage_exit(command, "--out: the folder's name is empty");
		free(e->out_dir);
		e->out_dir = xstrdup(optarg);
		break;
	case OPT_TRIAL_TIMEOUT:
		e->trial_timeout_s = strcmp(optarg, "0") ? cli_duration(command, TRIAL_TIMEOUT_MAX_S) : 0;
		break;
	case OPT_RESUME: o->resume_dir = optarg; break;
	case OPT_PROGRESS: /* its row's choices, in enum progress_mode's order */
		o->progress_mode = (enum progress_mode)cli_choice(command);
		break;
	case OPT_PROGRESS_INTERVAL:
		o->progress_interval_s = cli_duration(command, PROGRESS_LINES_MAX_GAP_S);
		if (o->progress_interval_s < PROGRESS_INTERVAL_MIN_S)
			usage_exit(command, "--progress-interval: '%s' is shorter than %g s", optarg,
			           PROGRESS_INTERVAL_MIN_S);
		break;
	default: return false;
	}
	return true;
}

void run_settle_budget(const char *command, const struct run_cli *o, struct experiment *e,
                       long blocks, long warmup)
{
	long *measured = &e->plan.measured_blocks;
	if (*measured != -2 && e->duration_s > 0)
		usage_exit(command, "--blocks (--trials) and --duration exclude each other; give one");
	*measured = e->duration_s > 0 ? -1 : *measured != -2 ? *measured
	            : e->precision_pct > 0 ? PRECISION_DEFAULT_MAX_BLOCKS : blocks;
	if (e->plan.warmup_blocks < 0)
		e->plan.warmup_blocks = warmup;
	if (!o->have_seed)
		e->plan.seed = plan_fresh_seed();
}

/* The smtbench command line, for meta.json: "smtbench" and then argv, NULL-terminated. */
static char **copy_command_line(int argc, char **argv)
{
	char **command_line = xcalloc((size_t)argc + 2, sizeof *command_line);
	command_line[0] = xstrdup("smtbench");
	for (int i = 0; i < argc; i++)
		command_line[i + 1] = xstrdup(argv[i]);
	return command_line;
}

/* Analyses dir, writes its reports and prints the summary on stdout; without an answer, its true
 * reason after missing ("no analysis yet", "no comparison"), or with missing NULL (a run that
 * had to answer) as "no answer: WHY" on stderr. Whether it failed: the reports not written
 * (said; the summary then points to none), or with missing NULL no answer (a matrix: no cell
 * compared). */
static bool summary_failed(const char *dir, const char *missing)
{
	char err[ERR_LEN];
	struct results_folder *f = folder_open(dir);
	struct report_options o = { .rope_pct = NAN };
	struct report *r = report_folder(f, &o, err, sizeof err);
	bool failed = !r && !missing;
	if (!r) {
		char *why = xescaped(err);
		if (!missing)
			text_warnx("no answer: %s", why);
		else
			printf("%s: %s\n", missing, why);
		printf("results: %s\n", f->shown_dir);
		free(why);
	} else {
		printf("\n");
		bool written = report_write(r, dir, err, sizeof err) == 0;
		if (!written)
			text_warnx("cannot write the reports: %s", err);
		report_print(r, stdout);
		report_print_files(r, written ? dir : NULL, stdout);
		/* A matrix none of whose cells could be compared: its page is written (every cell
		 * says why), and a complete run of it failed to answer, as a run's does. */
		if (r->no_answer && !missing) {
			char *why = xescaped(r->no_answer);
			text_warnx("no answer: %s", why);
			free(why);
		}
		failed = !written || (r->no_answer && !missing);
	}
	report_free(&r);
	folder_free(&f);
	return failed;
}

/* After experiment_run: the interrupt said, the summary (the reports written); the exit status.
 * Reports that could not be written are a failure too (exit 1), and so is a complete run of two
 * placements or more with no answer, unless a signal or a failure set the status already: the
 * samples are safe, and `smtbench report DIR` writes the reports later. */
static int run_finish(struct experiment *e, struct store *s, enum run_outcome outcome)
{
	sigprocmask(SIG_SETMASK, &e->child_sigmask, NULL); /* ^C may stop the report */
	const char *dir = store_dir(s);
	int status = outcome == RUN_FAILED ? EXIT_FAILURE_RUNTIME : EXIT_OK;
	if (outcome == RUN_INTERRUPTED) {
		text_warnx("interrupted by SIG%s after %lld trials; the results so far are valid. "
		           "Continue with: smtbench %s --resume %s", sigabbrev_np(e->interrupt_signal),
		           (long long)json_integer_value(json_object_get(e->meta, "trials_done")),
		           e->nworkloads > 0 ? "matrix" : "run", dir);
		status = 128 + e->interrupt_signal;
	}
	/* A run of two placements or more, or a matrix, that ran as planned and still has no
	 * answer (a matrix: no cell compared) failed to give what it promised (its reason said);
	 * a run of one placement has nothing to compare by design, and an interrupted one may get
	 * its answer after --resume. */
	bool comparable = e->nworkloads > 0 || e->plan.nplacements > 1;
	const char *missing = outcome != RUN_COMPLETE ? "no analysis yet"
	                      : comparable ? NULL : "no comparison";
	if (summary_failed(dir, missing) && status == EXIT_OK)
		status = EXIT_FAILURE_RUNTIME;
	return status;
}

int run_resume_or_begin(const char *command, const struct run_cli *o, int argc, char **argv,
                        struct experiment *e)
{
	if (!o->resume_dir) {
		e->command_line = copy_command_line(argc, argv);
		e->progress_mode = o->progress_mode;
		e->progress_interval_s = o->progress_interval_s;
		return -1;
	}
	if (o->settings_given || optind < argc)
		usage_exit(command, "--resume takes no other options but --progress and "
		           "--progress-interval: the %s continues with the settings recorded in "
		           "%s/meta.json", command, o->resume_dir);
	experiment_release(e);
	struct resumed r;
	resume_open(o->resume_dir, copy_command_line(argc, argv), &r);
	r.e.progress_mode = o->progress_mode;
	r.e.progress_interval_s = o->progress_interval_s;
	int rc = EXIT_OK;
	if (!r.complete)
		rc = run_finish(&r.e, r.store, experiment_run(&r.e, r.store, r.scan.ntrials,
		                                              r.scan.trials, r.scan.ntrials));
	resume_release(&r);
	return rc;
}

void run_check_out(const char *command, const char *dir)
{
	char err[ERR_LEN] = "";
	bool complete;
	struct stat st;
	if (!dir)
		return;
	if (lstat(dir, &st) != 0) {
		if (fileio_check_parent(dir, err, sizeof err) != 0)
			usage_exit(command, "--out %s: %s", dir, err);
		return;
	}
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) /* a file, or a link to nowhere */
		usage_exit(command, "--out %s already exists and is not a folder; choose another "
		           "--out", dir);
	if (!resume_possible(dir, &complete, err, sizeof err))
		usage_exit(command, "results folder %s already exists and is not a %s smtbench can "
		           "resume (%s); choose another --out", dir, command, err);
	if (complete)
		usage_exit(command, "results folder %s already exists and holds a complete %s "
		           "(nothing to resume); choose another --out", dir, command);
	usage_exit(command, "results folder %s already exists; choose another --out, or continue "
	           "it with --resume %s", dir, dir);
}

int run_new(struct experiment *e, struct topo **topo, const struct topo_info *info,
            void (*print_plan)(const struct experiment *e))
{
	struct store *s = launch_create_folder(e, *topo, info);
	topo_free(topo);
	print_plan(e);
	int rc = run_finish(e, s, experiment_run(e, s, 0, NULL, 0));
	store_close(&s);
	return rc;
}
