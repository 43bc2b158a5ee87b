/*
 * run_shared.h — the parts of `smtbench run` (cmd_run.c) that `smtbench matrix` (cmd_matrix.c)
 * runs the same way: the folder's name, the pairs, the kernel's preflight and calibration, the
 * folder's creation, the plan's protections, --resume, and the end of a run. One copy of each,
 * so that the two commands keep the same guarantees.
 */
#ifndef SMTBENCH_CLI_RUN_SHARED_H
#define SMTBENCH_CLI_RUN_SHARED_H

#include <stdbool.h>

#include "runner/calibrate.h"
#include "runner/experiment.h"
#include "runner/store.h"
#include "topology/topology.h"

/* results/<UTC time>-<host> (-2, -3... when taken); a new string. */
char *run_default_out_dir(void);
/* The smtbench command line, for meta.json: "smtbench" and then argv (argv[0] is the command's
 * own name, "run" or "matrix"), NULL-terminated; the caller owns it. */
char **run_copy_command_line(int argc, char **argv);

/* The pair of each wanted placement on this system into e (plan.placements), or the reason it
 * is skipped (said on stderr, kept for meta.json). A bad --pair exits 2. */
void run_choose_pairs(struct experiment *e, const struct topo *topo,
                      const bool wanted[PLACEMENT_COUNT]);

/* Runs kernel w once, briefly, on the first placement's first CPU. A kernel this CPU cannot run
 * is false when !required, else exit 3; any other failure exits 1. */
bool run_preflight_kernel(const struct experiment *e, const struct workload *w, bool required);

/* Calibrates kernel w for e->trial_time_s on solo's CPU (else the first placement's): *iters
 * and w's argv get the count. A stop signal exits 128+signal. */
void run_calibrate_workload(const struct experiment *e, struct workload *w, const char *kernel,
                            unsigned long *iters, struct calibration *cal);

/* The plan's line for a calibrated kernel. */
void run_print_calibration(const char *role, const char *kernel, const struct calibration *c);

/* The machine's caveats (a VM, a CPU quota), said before the run. */
void run_warn_about_machine(const struct experiment *e, const struct topo_info *info);

/* The results folder, complete or not at all, with meta.json and topology.xml; the stop signals
 * are blocked from here on (e->child_sigmask). Exits on failure. */
struct store *run_create_folder(struct experiment *e, const struct topo *topo,
                                const struct topo_info *info);

/* The trial time limit and the stop signals the run ignores, as the plan states them. */
void run_print_protections(const struct experiment *e);

/* After experiment_run: the interrupt said, the summary (the reports written); the exit status. */
int run_finish(struct experiment *e, struct store *s, enum run_outcome outcome);

/* `--resume DIR` of a run or a matrix (runner/resume.h checks everything first); the exit
 * status. command_line is taken. */
int run_resume(const char *dir, char **command_line, enum progress_mode progress_mode,
               double progress_interval_s);

#endif
