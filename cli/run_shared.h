/*
 * run_shared.h — what `smtbench run` (cmd_run.c) and `smtbench matrix` (cmd_matrix.c) share on
 * the command line: the options both take (their rows and their parsing), --resume, and the
 * end of a run (folder made, plan printed, trials, reports). The set-up between is
 * runner/launch.h's.
 */
#ifndef SMTBENCH_CLI_RUN_SHARED_H
#define SMTBENCH_CLI_RUN_SHARED_H

#include <stdbool.h>

#include "cli/commands.h"
#include "runner/experiment.h"
#include "topology/topology.h"

/* The ids of the options both commands take; each command's own follow RUN_OPT_OWN. */
enum {
	OPT_BLOCKS = 1, OPT_DURATION, OPT_WARMUP, OPT_TRIAL_TIME, OPT_PRECISION, OPT_SEED, OPT_OUT,
	OPT_TRIAL_TIMEOUT, OPT_RESUME, OPT_PROGRESS, OPT_PROGRESS_INTERVAL, RUN_OPT_OWN
};

/* Their rows, alike in both tables; what is "run" or "matrix". */
#define RUN_SHARED_OPTIONS(what) \
	{ "seed", 's', OPT_SEED, CLI_WORD, "N", NULL, \
	  "seed of the block order (default: random; always recorded)" }, \
	{ "out", 'o', OPT_OUT, CLI_DIR, "DIR", NULL, "the results folder, which must not exist; " \
	  "its parent must (default results/<UTC time>-<host>)" }, \
	{ "trial-timeout", 0, OPT_TRIAL_TIMEOUT, CLI_WORD, "SECONDS", NULL, "kill a trial still " \
	  "running after SECONDS (or 90s, 15m, 2h) with its process tree and record it as a " \
	  "timeout; 0: no limit (default: 10 x the slowest warm-up trial, at least 10 s)" }, \
	{ "resume", 0, OPT_RESUME, CLI_DIR, "DIR", NULL, "continue an interrupted " what " where " \
	  "it stopped, with the settings in DIR/meta.json" }, \
	{ "progress", 0, OPT_PROGRESS, CLI_CHOICE, NULL, "auto bar lines none", "how progress " \
	  "is shown on stderr: bar (one redrawn line), lines (a timestamped line per measured " \
	  "block, for a log), none; auto (the default) is bar on a terminal, else lines" }, \
	{ "progress-interval", 0, OPT_PROGRESS_INTERVAL, CLI_WORD, "T", NULL, "with lines: at " \
	  "most one line per T, 1s to 10m (default 1m)" }

/* What the command line says beyond the experiment's settings. */
struct run_cli {
	const char *resume_dir;  /* --resume, or NULL */
	bool have_seed;
	int settings_given;      /* options that set the run: all but --resume and --progress* */
	enum progress_mode progress_mode;
	double progress_interval_s;
};

/* Option id (cli_getopt's, of a row above or of --blocks, --duration, --warmup-blocks,
 * --trial-time or --precision) into e or o; bad values exit 2. false when id is none of them
 * (the command's own). Every id but --resume's and --progress*'s counts in settings_given. */
bool run_take_option(const char *command, int id, struct experiment *e, struct run_cli *o);

/* --blocks or --duration, and the warm-up, settled: the given ones, else the defaults (with
 * --precision, PRECISION_DEFAULT_MAX_BLOCKS blocks at most); the plan's blocks and seed (--seed,
 * else a fresh one) set from them. Both given exits 2. */
void run_settle_budget(const char *command, const struct run_cli *o, struct experiment *e,
                       long blocks, long warmup);

/* After the options: with --resume (which takes no setting, exit 2 otherwise), the stopped run
 * in it continued (runner/resume.h) and its exit status; otherwise -1, and e has the command
 * line (for meta.json) and the progress options. */
int run_resume_or_begin(const char *command, const struct run_cli *o, int argc, char **argv,
                        struct experiment *e);

/* --out, checked before anything is written: one that exists is one line saying what it holds
 * (--resume only for a run that --resume can continue), and so is a missing parent; exit 2. */
void run_check_out(const char *command, const char *dir);

/* A new run from its plan: the folder made (the topology freed), print_plan, the trials, the
 * reports; the exit status (128+signal when interrupted, 1 when the reports could not be
 * written). */
int run_new(struct experiment *e, struct topo **topo, const struct topo_info *info,
            void (*print_plan)(const struct experiment *e));

#endif
