/*
 * smtbench matrix — the interference matrix: every ordered pair of kernels (the victim on CPU A,
 * the aggressor on the placement's partner CPU) and every victim alone on A, its baseline, all
 * interleaved in randomized blocks in one results folder, through run's trial loop, store and
 * meta.json (runner/matrix.h), and reported per cell (report/report.h: report_folder picks
 * report/matrix.c by the folder's kind).
 *
 * Everything the user gave is checked before anything is written: a bad option or kernel is one
 * line and exit 2 with no folder created; a placement this machine cannot give is exit 3.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/analysis.h"
#include "cli/run_shared.h"
#include "common/text.h"
#include "runner/kernels.h"
#include "runner/launch.h"
#include "runner/meta.h"
#include "runner/matrix.h"
#include "runner/precision.h"
#include "runner/workload.h"

#define MATRIX_DEFAULT_BLOCKS 10
#define MATRIX_DEFAULT_WARMUP 1

enum { OPT_KERNELS = RUN_OPT_OWN, OPT_COMMANDS, OPT_PLACEMENT, OPT_ROPE };

const struct cli_option matrix_options[] = {
	{ "kernels", 0, OPT_KERNELS, CLI_KERNEL, "LIST", NULL, "comma-separated kernels, at most "
	  STR(PLAN_MAX_WORKLOADS) " (default: every kernel this CPU runs; see run --list-kernels)" },
	{ "commands", 0, OPT_COMMANDS, CLI_FILE, "FILE", NULL, "instead of kernels, your commands, "
	  "one a line: `name: command args` ('...' and \"...\" quote, with no escapes: it is not a "
	  "shell; blank lines and # comments skipped); commands are not calibrated" },
	{ "placement", 0, OPT_PLACEMENT, CLI_CHOICE, NULL, "sibling non-sibling same-pu", "where "
	  "the aggressor runs beside the victim's CPU A (default sibling)" },
	{ "blocks", 'b', OPT_BLOCKS, CLI_WORD, "N", NULL, "measured blocks (each runs every cell "
	  "once, in a random order; default " STR(MATRIX_DEFAULT_BLOCKS) "; at least 2: a cell is "
	  "compared with its baseline)" },
	{ "duration", 'd', OPT_DURATION, CLI_WORD, "T", NULL, "instead of --blocks: as many whole "
	  "blocks as fit in T" },
	{ "precision", 0, OPT_PRECISION, CLI_WORD, "PCT", NULL, "after " STR(PRECISION_MIN_BLOCKS)
	  " measured blocks of every cell, each block runs only the pairs whose 95% interval is not "
	  "yet within ±PCT%, with their baselines, until all are or the budget ends (--blocks, at "
	  "most " STR(PRECISION_DEFAULT_MAX_BLOCKS) " by default, or --duration)" },
	{ "rope", 0, OPT_ROPE, CLI_WORD, "PCT", NULL, CLI_ROPE_HELP ", as analyze "
	  "--rope, for the reports' verdicts and safe pairs (default 5); recorded, it changes no trial" },
	{ "warmup-blocks", 'w', OPT_WARMUP, CLI_WORD, "N", NULL, "warm-up blocks, stored, never "
	  "analysed (default " STR(MATRIX_DEFAULT_WARMUP) ")" },
	{ "trial-time", 0, OPT_TRIAL_TIME, CLI_WORD, "S", NULL, "each kernel calibrated alone on "
	  "CPU A for S seconds of CPU time per copy (default " STR(CALIBRATE_DEFAULT_TRIAL_S) ")" },
	RUN_SHARED_OPTIONS("matrix"),
	{ 0 },
};

const struct cli_example matrix_examples[] = {
	{ "which of the kernels this CPU runs may share a core: 10 blocks of every cell",
	  "smtbench matrix" },
	{ "your own workloads, one a line in a file, each cell to ±5% within two hours",
	  "smtbench matrix --commands workloads.txt --precision 5 --duration 2h" },
	{ "then smtbench fleet pools the matrix folders of many nodes cell by cell per CPU model",
	  "smtbench fleet /shared/fleet --out /shared/fleet/fleet-report" },
	{ 0 },
};

struct matrix_options {
	struct run_cli run;
	const char *kernels;    /* --kernels, or NULL: every kernel this CPU runs */
	const char *commands;   /* --commands FILE, or NULL */
	enum placement placement;
};

static void take_option(int opt, struct experiment *e, struct matrix_options *o)
{
	if (run_take_option("matrix", opt, e, &o->run))
		return;
	switch (opt) {
	case OPT_KERNELS: o->kernels = optarg; break;
	case OPT_COMMANDS: o->commands = optarg; break;
	case OPT_ROPE: e->rope_pct = cli_rope_pct("matrix", optarg); break;
	case OPT_PLACEMENT:
		cli_choice("matrix"); /* the row's choices are placements' names */
		placement_parse(optarg, &o->placement);
		break;
	}
}

/* --kernels into e->workloads (not yet calibrated): every name a kernel, none twice. */
static void take_kernel_names(struct experiment *e, const char *list)
{
	char *copy = xstrdup(list), *save = NULL;
	for (char *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		const struct kernel *k = kernel_find(name);
		char message[512];
		if (!k)
			usage_exit("matrix", "--kernels: %s", kernel_unknown_message(name, message,
			                                                             sizeof message));
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
	for (int i = 0; i < e->nworkloads && o->kernels; i++)
		launch_preflight(e, &e->workloads[i], true);
	for (size_t i = 0; i < kernel_count() && !o->kernels && !o->commands; i++) {
		const struct kernel *k = kernel_at(i);
		struct workload *w = &e->workloads[e->nworkloads];
		if (k->threads > 1 || e->nworkloads == PLAN_MAX_WORKLOADS)
			continue;
		xworkload_kernel(w, k->name, k->default_iters);
		if (launch_preflight(e, w, false)) {
			e->nworkloads++;
			continue;
		}
		text_warnx("leaving out kernel %s: this CPU cannot run it", k->name);
		workload_release(w);
	}
}

/* Its blocks, as the plan states them: a budget with --precision, else a count or a time. */
static void print_blocks(const struct experiment *e)
{
	unsigned long long seed = (unsigned long long)e->plan.seed;
	long blocks = e->plan.measured_blocks, warmup = e->plan.warmup_blocks;
	const char *s = warmup == 1 ? "" : "s";
	long total = plan_total_trials(&e->plan);
	if (e->precision_pct > 0)
		printf("  --precision %g: every cell in the first %d measured blocks; then each block "
		       "runs only the pairs whose 95%% interval is wider than ±%g%% and their victims' "
		       "baselines; it stops when every pair of the %d cells is within ±%g%%, or at the "
		       "budget: ", e->precision_pct, PRECISION_MIN_BLOCKS, e->precision_pct,
		       e->plan.ncells, e->precision_pct);
	if (e->precision_pct > 0 && blocks > 0)
		printf("%ld measured blocks (at most %ld trials after %ld warm-up block%s), seed %llu\n",
		       blocks, blocks * e->plan.ncells, warmup, s, seed);
	else if (e->precision_pct > 0)
		printf("whole blocks for %.0f s (after %ld warm-up block%s), seed %llu\n",
		       e->duration_s, warmup, s, seed);
	else if (total >= 0)
		printf("  %ld trials: %ld warm-up + %ld measured block%s of %d, seed %llu\n", total,
		       warmup, blocks, blocks == 1 ? "" : "s", e->plan.ncells, seed);
	else
		printf("  whole blocks of %d for %.0f s (%ld warm-up block%s first), seed %llu\n",
		       e->plan.ncells, e->duration_s, warmup, s, seed);
}

/* A command's words as its line in the file would give them: quoted when they hold a blank or
 * a quote. */
static void print_command(const struct workload *w)
{
	printf("  %s:", w->name);
	for (char **a = w->argv; *a; a++) {
		char *shown = xescaped(*a);
		const char *q = !strpbrk(shown, " \t'\"") && *shown ? "" : strchr(shown, '\'') ? "\""
		                : "'";
		printf(" %s%s%s", q, shown, q);
		free(shown);
	}
	printf("\n");
}

static void print_plan(const struct experiment *e)
{
	enum placement p = matrix_placement(&e->plan);
	const struct topo_pair *pair = &e->pairs[p];
	bool commands = !e->workloads[0].is_kernel;
	int n = e->nworkloads;
	char *out = xescaped(e->out_dir);
	printf("smtbench matrix: %d %s%s on %s → %s\n", n, commands ? "command" : "kernel",
	       n == 1 ? "" : "s", placement_name(p), out);
	free(out);
	printf("  victim on CPU %d; aggressor on CPU %d (%s%s%s); baseline: the victim alone on "
	       "CPU %d\n", pair->pus[0], pair->pus[1], placement_name(p),
	       pair->shares[0] ? ", share " : "", pair->shares, e->pairs[PLACEMENT_SOLO].pus[0]);
	printf("  %d cells (%d pairs + %d baselines) in every block, each once, in a random order\n",
	       e->plan.ncells, n * n, n);
	print_blocks(e);
	launch_print_kinds(e);
	for (int i = 0; i < n; i++)
		if (commands)
			print_command(&e->workloads[i]);
		else
			launch_print_calibration("", e->workloads[i].name, &e->cal_workloads[i]);
	if (commands)
		printf("  commands are not calibrated: each trial runs its command once, however long "
		       "it takes\n");
	launch_print_duration(e);
	launch_print_protections(e);
	fflush(stdout);
}

/* The workloads and the budget from the options, checked before anything is written. */
static void settle_matrix_settings(struct experiment *e, const struct matrix_options *o)
{
	if (o->kernels && o->commands)
		usage_exit("matrix", "--kernels and --commands exclude each other; give one");
	if (o->commands && e->trial_time_s > 0)
		usage_exit("matrix", "--trial-time calibrates kernels; commands are not calibrated (a "
		           "trial runs the command once), so it does not apply with --commands");
	if (o->kernels)
		take_kernel_names(e, o->kernels);
	char err[ERR_LEN];
	if (o->commands && matrix_commands_read(o->commands, e, err, sizeof err) != 0)
		usage_exit("matrix", "--commands: %s", err);
	run_settle_budget("matrix", &o->run, e, MATRIX_DEFAULT_BLOCKS, MATRIX_DEFAULT_WARMUP);
	/* Every cell is a comparison with its baseline: one block could answer nothing (as run). */
	if (e->plan.measured_blocks == 1)
		usage_exit("matrix", "--blocks 1 gives each cell one sample, and a comparison needs at "
		           "least 2 (the paired design %d): give --blocks 2 or more",
		           ANALYSIS_PAIRED_MIN_BLOCKS);
	if (e->trial_time_s <= 0)
		e->trial_time_s = CALIBRATE_DEFAULT_TRIAL_S;
	run_check_out("matrix", e->out_dir);
}

/* The placement's pair and solo's on this machine (exit 3 when it cannot give them), the
 * kernels this CPU runs, the cells and their plan, each kernel calibrated. */
static void plan_matrix(struct experiment *e, const struct matrix_options *o, struct topo *topo,
                        struct topo_info *info)
{
	bool wanted[PLACEMENT_COUNT] = { false };
	wanted[PLACEMENT_SOLO] = wanted[o->placement] = true;
	launch_choose_pairs(e, topo, wanted);
	const char *why = e->skipped_reason[o->placement];
	if (!e->pairs[o->placement].available || why[0] || !e->pairs[PLACEMENT_SOLO].available)
		text_errx(EXIT_UNAVAILABLE, "matrix: the %s placement is not possible on this machine "
		          "(%s); --placement non-sibling or same-pu give comparison maps",
		          placement_name(o->placement), why[0] ? why : "see smtbench topo");
	topo_get_info(topo, info);
	launch_check_machine(e, info);
	choose_kernels(e, o);
	if (e->nworkloads == 0)
		text_errx(EXIT_UNAVAILABLE, "matrix: this CPU runs none of the kernels");
	matrix_plan_cells(&e->plan, e->nworkloads, o->placement);
	if (e->precision_pct > 0) { /* blocks chosen by need after the first ones (allocate.h) */
		e->plan.adaptive_from = e->plan.warmup_blocks + PRECISION_MIN_BLOCKS;
		e->allocation = allocation_new(&e->plan, e->precision_pct);
	}
	for (int i = 0; i < e->nworkloads && !o->commands; i++) {
		unsigned long iters = 0;
		launch_calibrate(e, &e->workloads[i], &iters, &e->cal_workloads[i]);
	}
}

/* --resume of a run's folder: said, pointing to run --resume (before anything is allocated, so
 * that the exit leaves nothing behind). Only a meta.json read whole without a "matrix" is a
 * run's: one that cannot be read (damaged, missing, a partial folder) is left to resume_open,
 * which names the file, the position and what is wrong. */
static void refuse_resume_of_a_run(const char *dir)
{
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || store_is_partial(dir))
		return;
	struct results_folder *f = folder_open(dir);
	bool a_run = f->meta_status == FOLDER_META_OK && f->kind != FOLDER_MATRIX;
	folder_free(&f);
	if (a_run)
		usage_exit("matrix", "%s is not a matrix's folder (its meta.json has no \"matrix\"); "
		           "a run is continued with smtbench run --resume %s", dir, dir);
}

int cmd_matrix(int argc, char **argv)
{
	struct experiment e = { .plan.measured_blocks = -2, .plan.warmup_blocks = -1,
	                        .trial_timeout_s = -1 };
	struct matrix_options o = { .placement = PLACEMENT_SIBLING };
	/* run's --one-process has no meaning here: said as such, not as an unknown option. */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--one-process"))
			usage_exit("matrix", "--one-process is for run: a matrix measures each workload "
			           "beside another, one process per CPU; `smtbench run --one-process -- "
			           "COMMAND` gives one process a placement's CPUs");
	optind = 1;
	for (int opt; (opt = cli_getopt(argc, argv, "matrix")) != -1;)
		take_option(opt, &e, &o);
	if (optind < argc)
		usage_exit("matrix", "unexpected argument '%s'", argv[optind]);
	if (o.run.resume_dir && !o.run.settings_given)
		refuse_resume_of_a_run(o.run.resume_dir);
	int rc = run_resume_or_begin("matrix", &o.run, argc, argv, &e);
	if (rc >= 0)
		return rc;
	settle_matrix_settings(&e, &o);
	char err[ERR_LEN];
	struct topo *topo = topo_load(NULL, err, sizeof err);
	if (!topo)
		text_errx(EXIT_FAILURE_RUNTIME, "cannot read this machine's topology: %s", err);
	struct topo_info info;
	plan_matrix(&e, &o, topo, &info);
	rc = run_new(&e, &topo, &info, print_plan);
	experiment_release(&e);
	return rc;
}
