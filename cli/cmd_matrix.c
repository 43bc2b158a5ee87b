/*
 * smtbench matrix — the interference matrix: every ordered pair of kernels (the victim on CPU A,
 * the aggressor on the placement's partner CPU) and every victim alone on A, its baseline, all
 * interleaved in randomized blocks in one results folder, through run's trial loop, store and
 * meta.json (runner/matrix.h), and reported per cell (report/matrix.h).
 *
 * Everything the user gave is checked before anything is written: a bad option or kernel is one
 * line and exit 2 with no folder created; a placement this machine cannot give is exit 3.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "common/folder.h"
#include "common/number.h"
#include "cli/run_shared.h"
#include "common/text.h"
#include "runner/kernels.h"
#include "runner/matrix.h"
#include "runner/precision.h"
#include "runner/util.h"
#include "runner/workload.h"

#define MATRIX_DEFAULT_BLOCKS 10
#define MATRIX_DEFAULT_WARMUP 1
#define MATRIX_DEFAULT_PLACEMENT "sibling"

enum { OPT_KERNELS = 256, OPT_COMMANDS, OPT_PLACEMENT, OPT_TRIAL_TIME, OPT_TRIAL_TIMEOUT, OPT_RESUME,
       OPT_PROGRESS, OPT_PROGRESS_INTERVAL, OPT_PRECISION, OPT_ROPE };

/* matrix's options; their short letters come from the command table (cli/commands.c). */
const struct option matrix_long_options[] = {
	{ "kernels", required_argument, NULL, OPT_KERNELS },
	{ "commands", required_argument, NULL, OPT_COMMANDS },
	{ "placement", required_argument, NULL, OPT_PLACEMENT },
	{ "blocks", required_argument, NULL, 'b' },
	{ "duration", required_argument, NULL, 'd' },
	{ "precision", required_argument, NULL, OPT_PRECISION },
	{ "rope", required_argument, NULL, OPT_ROPE },
	{ "warmup-blocks", required_argument, NULL, 'w' },
	{ "trial-time", required_argument, NULL, OPT_TRIAL_TIME },
	{ "trial-timeout", required_argument, NULL, OPT_TRIAL_TIMEOUT },
	{ "seed", required_argument, NULL, 's' },
	{ "out", required_argument, NULL, 'o' },
	{ "resume", required_argument, NULL, OPT_RESUME },
	{ "progress", required_argument, NULL, OPT_PROGRESS },
	{ "progress-interval", required_argument, NULL, OPT_PROGRESS_INTERVAL },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void help(void)
{
	subcommand_usage(stdout, "matrix");
	printf("\n"
	       "The interference matrix: for every ordered pair of workloads (kernels, or the\n"
	       "commands of --commands FILE), the victim on CPU A and\n"
	       "the aggressor on A's partner in the placement (its SMT sibling by default), and\n"
	       "every victim alone on A as its baseline. A block runs every cell once, in a random\n"
	       "order; one results folder holds them all. Each cell's answer is the victim's\n"
	       "slowdown against its own baseline, paired by block, with its 95%% interval.\n\n"
	       "      --kernels LIST     comma-separated (default: every kernel this CPU runs; see\n"
	       "                         smtbench run --list-kernels); at most %d\n"
	       "      --commands FILE    instead of kernels: one workload a line, `name: command\n"
	       "                         args`; blank lines and lines starting with # skipped; the\n"
	       "                         name from A-Z a-z 0-9 . _ + - (at most %d characters), used\n"
	       "                         in every output; the command split on blanks, '...' and\n"
	       "                         \"...\" keep what they enclose (blanks too; no escapes, no\n"
	       "                         variables: it is not a shell) and join the text beside\n"
	       "                         them; each found on PATH. Commands are not calibrated:\n"
	       "                         a trial runs the command once, however long it takes\n"
	       "      --placement P      sibling (default), non-sibling or same-pu\n"
	       "  -b, --blocks N         measured blocks (each runs every cell once; default %d)\n"
	       "  -d, --duration T       instead of --blocks: as many whole blocks as fit in T\n"
	       "      --precision PCT    spend the blocks where they are needed: the first %d\n"
	       "                         measured blocks run every cell; then each block runs\n"
	       "                         only the pairs whose 95%% interval (paired by block, as\n"
	       "                         run --precision's) is not yet within +-PCT%%, with their\n"
	       "                         victims' baselines; the run stops when every pair is\n"
	       "                         within it, or at the budget: --blocks (at most that many\n"
	       "                         blocks; default %d) or --duration. Each cell's \"stop\"\n"
	       "                         (\"precision reached\" or \"budget\") is in meta.json and\n"
	       "                         report.json\n"
	       "      --rope PCT         region of practical equivalence, ±PCT %%, as analyze\n"
	       "                         --rope: a cell is then 'practically the same' when\n"
	       "                         P(within ±PCT %%) >= 0.95, and a pair is safe to share\n"
	       "                         when each one's slowdown beside the other is under PCT %%\n"
	       "                         with probability 0.95 (5 %% without it). Recorded in\n"
	       "                         meta.json for smtbench report; it changes no trial\n"
	       "  -w, --warmup-blocks N  warm-up blocks, stored, never analysed (default %d)\n"
	       "      --trial-time S     each kernel calibrated alone on CPU A for S seconds of CPU\n"
	       "                         time per copy (default %g)\n"
	       "      --trial-timeout S  kill a trial still running after S seconds (as run)\n"
	       "  -s, --seed N           seed of the block order (default: random; recorded)\n"
	       "  -o, --out DIR          results folder (default results/<UTC time>-<host>)\n"
	       "      --resume DIR       continue an interrupted matrix where it stopped\n"
	       "      --progress MODE    auto, bar, lines or none (as run)\n"
	       "      --progress-interval T  lines: at most one per T\n"
	       "  -h, --help             show this help\n"
	       "  -V, --version          show smtbench's version\n\n"
	       "smtbench fleet pools the matrix folders of many nodes cell by cell per CPU model.\n\n"
	       "Exit status: 0 done; 1 a failure while running; 2 bad input, nothing written;\n"
	       "3 the placement, or a kernel asked for, is not possible on this machine;\n"
	       "128+signal when interrupted (continue with --resume).\n",
	       PLAN_MAX_WORKLOADS, MATRIX_NAME_MAX, MATRIX_DEFAULT_BLOCKS, PRECISION_MIN_BLOCKS,
	       PRECISION_DEFAULT_MAX_BLOCKS, MATRIX_DEFAULT_WARMUP,
	       CALIBRATE_DEFAULT_TRIAL_S);
}

struct matrix_options {
	const char *kernels;    /* --kernels, or NULL: every kernel this CPU runs */
	const char *commands;   /* --commands FILE, or NULL */
	bool trial_time_given;
	enum placement placement;
	const char *resume_dir;
	bool have_seed, done;
	int settings_given;
	enum progress_mode progress_mode;
	double progress_interval_s;
};

static unsigned long option_ulong(unsigned long min, unsigned long max, const char *range)
{
	unsigned long value;
	if (parse_ulong(optarg, min, max, &value) != 0)
		usage_exit("matrix", "--%s: '%s' is not a whole number %s", cli_option_name, optarg,
		           range);
	return value;
}

static void take_placement(struct matrix_options *o)
{
	if (placement_parse(optarg, &o->placement) != 0 || o->placement == PLACEMENT_SOLO
	    || o->placement == PLACEMENT_CROSS_PACKAGE)
		usage_exit("matrix", "--placement: '%s': use sibling, non-sibling or same-pu", optarg);
}

static void take_progress(struct matrix_options *o)
{
	static const char *const modes[] = { "auto", "bar", "lines", "none" };
	static const enum progress_mode values[] = { PROGRESS_AUTO, PROGRESS_BAR, PROGRESS_LINES,
	                                             PROGRESS_NONE };
	for (size_t k = 0; k < 4; k++)
		if (!strcmp(optarg, modes[k])) {
			o->progress_mode = values[k];
			return;
		}
	usage_exit("matrix", "--progress: '%s': use auto, bar, lines or none", optarg);
}

static void take_option(int opt, char **argv, struct experiment *e, struct matrix_options *o)
{
	switch (opt) {
	case OPT_KERNELS: o->kernels = optarg; break;
	case OPT_COMMANDS: o->commands = optarg; break;
	case OPT_PRECISION: {
		if (number_parse_real(optarg, &e->precision_pct) != NUMBER_OK || !(e->precision_pct > 0)
		    || !(e->precision_pct <= RUN_MAX_PRECISION_PCT))
			usage_exit("matrix", "--precision: '%s' is not a number of percent above 0 and at "
			           "most 50", optarg);
		break;
	}
	case OPT_ROPE: e->rope_pct = cli_rope_pct("matrix", optarg); break;
	case OPT_PLACEMENT: take_placement(o); break;
	case 'b': e->trials = (long)option_ulong(1, RUN_MAX_TRIALS, "from 1 to 100000000"); break;
	case 'w': e->warmup = (long)option_ulong(0, RUN_MAX_WARMUP, "from 0 to 1000000"); break;
	case 's':
		e->plan.seed = option_ulong(0, (unsigned long)INT64_MAX, "from 0 to 2^63-1");
		o->have_seed = true;
		break;
	case 'd':
		if (parse_duration_s(optarg, &e->duration_s) != 0 || e->duration_s > RUN_MAX_DURATION_S)
			usage_exit("matrix", "--duration: '%s' is not a duration such as 90s, 15m, 8h or "
			           "1h30m (at most a century)", optarg);
		break;
	case OPT_TRIAL_TIME: {
		if (number_parse_real(optarg, &e->trial_time_s) != NUMBER_OK
		    || !(e->trial_time_s >= RUN_TRIAL_TIME_MIN_S)
		    || !(e->trial_time_s <= RUN_TRIAL_TIME_MAX_S))
			usage_exit("matrix", "--trial-time: '%s' is not a number of seconds from 0.001 "
			           "to 3600", optarg);
		o->trial_time_given = true;
		break;
	}
	case OPT_TRIAL_TIMEOUT:
		if (!strcmp(optarg, "0"))
			e->trial_timeout_s = 0;
		else if (parse_duration_s(optarg, &e->trial_timeout_s) != 0
		         || e->trial_timeout_s > TRIAL_TIMEOUT_MAX_S)
			usage_exit("matrix", "--trial-timeout: '%s' is not a time limit such as 60, 90s, "
			           "15m or 2h, or 0 for none", optarg);
		break;
	case 'o':
		if (!*optarg)
			usage_exit("matrix", "--out: the folder's name is empty");
		free(e->out_dir);
		e->out_dir = xstrdup(optarg);
		break;
	case OPT_RESUME: o->resume_dir = optarg; break;
	case OPT_PROGRESS: take_progress(o); break;
	case OPT_PROGRESS_INTERVAL:
		if (parse_duration_s(optarg, &o->progress_interval_s) != 0
		    || o->progress_interval_s < PROGRESS_INTERVAL_MIN_S
		    || o->progress_interval_s > PROGRESS_LINES_MAX_GAP_S)
			usage_exit("matrix", "--progress-interval: '%s' is not a time from %g s to %g s",
			           optarg, PROGRESS_INTERVAL_MIN_S, PROGRESS_LINES_MAX_GAP_S);
		break;
	case 'h': help(); o->done = true; break;
	default: getopt_failure("matrix", opt, argv);
	}
}

/* --kernels into e->workloads (not yet calibrated): every name a kernel, none twice. */
static void take_kernel_names(struct experiment *e, const char *list)
{
	char *copy = xstrdup(list), *save = NULL;
	for (char *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		const struct kernel *k = kernel_find(name);
		if (!k)
			usage_exit("matrix", "--kernels: unknown kernel '%s'; smtbench run --list-kernels "
			           "lists them", name);
		for (int i = 0; i < e->nworkloads; i++)
			if (!strcmp(e->workloads[i].name, name))
				usage_exit("matrix", "--kernels: '%s' is named twice", name);
		if (e->nworkloads == PLAN_MAX_WORKLOADS)
			usage_exit("matrix", "--kernels: at most %d kernels", PLAN_MAX_WORKLOADS);
		xworkload_kernel(&e->workloads[e->nworkloads++], name, k->default_iters);
	}
	free(copy);
	if (e->nworkloads == 0)
		usage_exit("matrix", "--kernels: the list is empty");
}

/* The kernels: those asked for (each must run here: exit 3), or every single-threaded kernel
 * this CPU runs (a matrix binds each process to one CPU: a multi-threaded kernel there is only
 * a longer one). */
static void choose_kernels(struct experiment *e, const struct matrix_options *o)
{
	if (o->commands)
		return; /* read and checked already (matrix_commands_read) */
	if (o->kernels) {
		for (int i = 0; i < e->nworkloads; i++)
			run_preflight_kernel(e, &e->workloads[i], true);
		return;
	}
	for (size_t i = 0; i < kernel_count() && e->nworkloads < PLAN_MAX_WORKLOADS; i++) {
		const struct kernel *k = kernel_at(i);
		if (k->threads > 1)
			continue;
		struct workload *w = &e->workloads[e->nworkloads];
		xworkload_kernel(w, k->name, k->default_iters);
		if (run_preflight_kernel(e, w, false)) {
			e->nworkloads++;
			continue;
		}
		text_warnx("leaving out kernel %s: this CPU cannot run it", k->name);
		workload_release(w);
	}
}

static void print_plan(const struct experiment *e)
{
	enum placement p = matrix_placement(&e->plan);
	const struct topo_pair *pair = &e->pairs[p];
	bool commands = !e->workloads[0].is_kernel;
	char *out = xescaped(e->out_dir);
	printf("smtbench matrix: %d %s%s on %s → %s\n", e->nworkloads,
	       commands ? "command" : "kernel", e->nworkloads == 1 ? "" : "s", placement_name(p),
	       out);
	free(out);
	printf("  victim on CPU %d; aggressor on CPU %d (%s%s%s); baseline: the victim alone on "
	       "CPU %d\n", pair->pus[0], pair->pus[1], placement_name(p),
	       pair->shares[0] ? ", share " : "", pair->shares, e->pairs[PLACEMENT_SOLO].pus[0]);
	int n = e->nworkloads;
	printf("  %d cells (%d pairs + %d baselines) in every block, each once, in a random order\n",
	       e->plan.ncells, n * n, n);
	long total = plan_total_trials(&e->plan);
	if (e->precision_pct > 0)
		printf("  --precision %g: every cell in the first %d measured blocks; then each block "
		       "runs only the pairs whose 95%% interval is wider than ±%g%% and their victims' "
		       "baselines; it stops when every pair of the %d cells is within ±%g%%, or at the "
		       "budget: %s", e->precision_pct, PRECISION_MIN_BLOCKS, e->precision_pct,
		       e->plan.ncells, e->precision_pct, e->trials > 0 ? "" : "whole blocks for ");
	if (e->precision_pct > 0 && e->trials > 0)
		printf("%ld measured blocks (at most %ld trials after %ld warm-up block%s), seed %llu\n",
		       e->trials, e->trials * e->plan.ncells, e->warmup, e->warmup == 1 ? "" : "s",
		       (unsigned long long)e->plan.seed);
	else if (e->precision_pct > 0)
		printf("%.0f s (after %ld warm-up block%s), seed %llu\n", e->duration_s, e->warmup,
		       e->warmup == 1 ? "" : "s", (unsigned long long)e->plan.seed);
	else if (total >= 0)
		printf("  %ld trials: %ld warm-up + %ld measured block%s of %d, seed %llu\n", total,
		       e->warmup, e->trials, e->trials == 1 ? "" : "s", e->plan.ncells,
		       (unsigned long long)e->plan.seed);
	else
		printf("  whole blocks of %d for %.0f s (%ld warm-up block%s first), seed %llu\n",
		       e->plan.ncells, e->duration_s, e->warmup, e->warmup == 1 ? "" : "s",
		       (unsigned long long)e->plan.seed);
	for (int i = 0; i < n && !commands; i++)
		run_print_calibration("", e->workloads[i].name, &e->cal_workloads[i]);
	for (int i = 0; i < n && commands; i++) {
		printf("  %s:", e->workloads[i].name);
		for (char **a = e->workloads[i].argv; *a; a++) {
			char *shown = text_escape(*a);
			/* as the file would give it: quoted when it holds a blank or a quote */
			const char *q = !strpbrk(shown, " \t'\"") && *shown ? "" : strchr(shown, '\'')
			                ? "\"" : "'";
			printf(" %s%s%s", q, shown, q);
			free(shown);
		}
		printf("\n");
	}
	if (commands)
		printf("  commands are not calibrated: each trial runs its command once, however long "
		       "it takes\n");
	run_print_protections(e);
	fflush(stdout);
}

/* The workloads and the budget from the options, checked before anything is written. */
static void settle_matrix_settings(struct experiment *e, const struct matrix_options *o)
{
	if (o->kernels && o->commands)
		usage_exit("matrix", "--kernels and --commands exclude each other; give one");
	if (o->commands && o->trial_time_given)
		usage_exit("matrix", "--trial-time calibrates kernels; commands are not calibrated (a "
		           "trial runs the command once), so it does not apply with --commands");
	if (o->kernels)
		take_kernel_names(e, o->kernels);
	if (o->commands) {
		char err[ERR_LEN];
		if (matrix_commands_read(o->commands, e, err, sizeof err) != 0)
			usage_exit("matrix", "--commands: %s", err);
	}
	if (e->trials != -2 && e->duration_s > 0)
		usage_exit("matrix", "--blocks and --duration exclude each other; give one");
	e->trials = e->duration_s > 0 ? -1 : e->trials != -2 ? e->trials
	            : e->precision_pct > 0 ? PRECISION_DEFAULT_MAX_BLOCKS : MATRIX_DEFAULT_BLOCKS;
	if (e->warmup < 0)
		e->warmup = MATRIX_DEFAULT_WARMUP;
	if (e->trial_time_s <= 0)
		e->trial_time_s = CALIBRATE_DEFAULT_TRIAL_S;
	struct stat st;
	if (e->out_dir && lstat(e->out_dir, &st) == 0)
		usage_exit("matrix", "%s already exists; choose another --out, or continue a stopped "
		           "matrix with --resume %s", e->out_dir, e->out_dir);
}

/* The placement's pair and solo's on this machine (exit 3 when it cannot give them), the
 * kernels this CPU runs, the cells and their plan, each kernel calibrated. */
static void plan_matrix(struct experiment *e, const struct matrix_options *o, struct topo *topo,
                        struct topo_info *info)
{
	bool wanted[PLACEMENT_COUNT] = { false };
	wanted[PLACEMENT_SOLO] = wanted[o->placement] = true;
	run_choose_pairs(e, topo, wanted);
	if (!e->pairs[o->placement].available || e->skipped_reason[o->placement][0]
	    || !e->pairs[PLACEMENT_SOLO].available)
		text_errx(EXIT_UNAVAILABLE, "matrix: the %s placement is not possible on this "
		          "machine (%s); --placement non-sibling or same-pu give comparison maps",
		          placement_name(o->placement), e->skipped_reason[o->placement][0]
		          ? e->skipped_reason[o->placement] : "see smtbench topo");
	topo_get_info(topo, info);
	run_warn_about_machine(e, info);
	choose_kernels(e, o);
	if (e->nworkloads == 0)
		text_errx(EXIT_UNAVAILABLE, "matrix: this CPU runs none of the kernels");
	if (!o->have_seed)
		e->plan.seed = plan_fresh_seed();
	e->plan.warmup_blocks = e->warmup;
	e->plan.measured_blocks = e->trials;
	matrix_plan_cells(&e->plan, e->nworkloads, o->placement);
	if (e->precision_pct > 0) { /* blocks chosen by need after the first ones (allocate.h) */
		e->plan.adaptive_from = e->warmup + PRECISION_MIN_BLOCKS;
		e->allocation = allocation_new(&e->plan, e->precision_pct);
	}
	for (int i = 0; i < e->nworkloads && !o->commands; i++) {
		struct workload *w = &e->workloads[i];
		char *name = xstrdup(w->name);
		unsigned long iters = 0;
		run_calibrate_workload(e, w, name, &iters, &e->cal_workloads[i]);
		free(name);
	}
}

static int new_matrix(struct experiment *e, const struct matrix_options *o)
{
	settle_matrix_settings(e, o);
	char err[ERR_LEN];
	struct topo *topo = topo_load(NULL, err, sizeof err);
	if (!topo)
		text_errx(EXIT_FAILURE_RUNTIME, "cannot read this machine's topology: %s", err);
	struct topo_info info;
	plan_matrix(e, o, topo, &info);
	if (!e->out_dir)
		e->out_dir = run_default_out_dir();
	struct store *s = run_create_folder(e, topo, &info);
	topo_free(&topo);
	print_plan(e);
	enum run_outcome outcome = experiment_run(e, s, 0, NULL, 0);
	sigprocmask(SIG_SETMASK, &e->child_sigmask, NULL); /* ^C may stop the report */
	int rc = run_finish(e, s, outcome);
	store_close(&s);
	return rc;
}

int cmd_matrix(int argc, char **argv)
{
	struct experiment e = { .trials = -2, .warmup = -1, .trial_timeout_s = -1 };
	struct matrix_options o = { .placement = PLACEMENT_SIBLING };
	/* run's --one-process has no meaning here: said as such, not as an unknown option. */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--one-process"))
			usage_exit("matrix", "--one-process is for run: a matrix measures each workload "
			           "beside another, one process per CPU; `smtbench run --one-process -- "
			           "COMMAND` gives one process a placement's CPUs");
	int opt;
	optind = 1;
	while (!o.done && (opt = cli_getopt(argc, argv, "matrix")) != -1) {
		if (opt != 'h' && opt != OPT_RESUME && opt != OPT_PROGRESS
		    && opt != OPT_PROGRESS_INTERVAL)
			o.settings_given++;
		take_option(opt, argv, &e, &o);
	}
	if (o.done) {
		experiment_release(&e);
		return EXIT_OK;
	}
	if (optind < argc)
		usage_exit("matrix", "unexpected argument '%s'", argv[optind]);
	char **command_line = run_copy_command_line(argc, argv);
	if (o.resume_dir) {
		if (o.settings_given)
			usage_exit("matrix", "--resume takes no other options but --progress and "
			           "--progress-interval: the matrix continues with the settings recorded "
			           "in %s/meta.json", o.resume_dir);
		struct stat st;
		struct results_folder *f = folder_open(o.resume_dir);
		bool matrix = f->kind == FOLDER_MATRIX;
		folder_free(&f);
		if (stat(o.resume_dir, &st) == 0 && S_ISDIR(st.st_mode)
		    && access(o.resume_dir, F_OK) == 0 && !matrix && !store_is_partial(o.resume_dir))
			usage_exit("matrix", "%s is not a matrix's folder (its meta.json has no \"matrix\"); "
			           "a run is continued with smtbench run --resume %s", o.resume_dir,
			           o.resume_dir);
		experiment_release(&e);
		return run_resume(o.resume_dir, command_line, o.progress_mode, o.progress_interval_s);
	}
	e.command_line = command_line;
	e.progress_mode = o.progress_mode;
	e.progress_interval_s = o.progress_interval_s;
	int rc = new_matrix(&e, &o);
	experiment_release(&e);
	return rc;
}
