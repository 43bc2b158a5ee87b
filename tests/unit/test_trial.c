/*
 * test_trial.c — the runner's paths that start processes, on this machine's real CPUs, with
 * /bin/sh, true and false as workloads: a trial that succeeds, a failed bind, an exec that fails
 * (126 and 127), a non-zero exit, a child killed by a signal, a trial interrupted by SIGTERM;
 * experiment_run over a small plan (complete, and stopped when the whole first block fails);
 * meta.json saved and loaded back; workload resolution and its refusals.
 */
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runner/experiment.h"
#include "runner/meta.h"
#include "runner/trial.h"
#include "common/alloc.h"
#include "runner/workload.h"
#include "tests/harness.h"
#include "tests/unit/usable_cpu.h"

static sigset_t child_mask; /* the mask before trial_block_signals, restored in children */

/* A CPU this process may not use: the first one past its affinity mask. */
static int unusable_cpu(void)
{
	cpu_set_t set;
	int last = 0;
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
			if (CPU_ISSET(cpu, &set))
				last = cpu;
	return last + 1;
}

static enum trial_outcome run_procs(int n, const int pus[], const char *paths[],
                                    char *const *argvs[], struct trial_result *r, int *sig)
{
	struct trial_spec spec = { .nprocs = n, .stderr_fd = -1, .run_origin_s = trial_now_s(),
	                           .child_sigmask = &child_mask };
	for (int i = 0; i < n; i++)
		spec.procs[i] = (struct trial_proc_spec){ .pu = pus[i], .path = paths[i], .argv = argvs[i],
		                                          .kernel = true };
	*sig = 0;
	return trial_run(&spec, r, sig);
}

static void test_trial_paths(void)
{
	int cpu = first_usable_cpu(), sig;
	struct trial_result r;
	char *sh_true[] = { "sh", "-c", "exit 0", NULL };
	char *sh_exit3[] = { "sh", "-c", "exit 3", NULL };
	char *sh_kill[] = { "sh", "-c", "kill -KILL $$", NULL };
	char *none[] = { "none", NULL };

	const char *p1[] = { "/bin/sh" };
	char *const *a1[] = { sh_true };
	enum trial_outcome o = run_procs(1, (int[]){ cpu }, p1, a1, &r, &sig);
	CHECK(o == TRIAL_COMPLETED && r.procs[0].status == PROC_OK,
	      "a trial of `sh -c 'exit 0'` completes ok (%s)", proc_status_name(r.procs[0].status));
	CHECK_INT(r.procs[0].pu, cpu, "the child read back the CPU it was bound to");
	CHECK(r.procs[0].wall_s > 0 && r.procs[0].end_s >= r.procs[0].start_s,
	      "wall %g s, start %g s, end %g s", r.procs[0].wall_s, r.procs[0].start_s,
	      r.procs[0].end_s);

	a1[0] = sh_exit3;
	run_procs(1, (int[]){ cpu }, p1, a1, &r, &sig);
	CHECK(r.procs[0].status == PROC_EXIT && r.procs[0].exit_code == 3,
	      "exit 3: status \"%s\", exit code %d", proc_status_name(r.procs[0].status), r.procs[0].exit_code);

	a1[0] = sh_kill;
	run_procs(1, (int[]){ cpu }, p1, a1, &r, &sig);
	CHECK(r.procs[0].status == PROC_SIGNAL && r.procs[0].signal == SIGKILL &&
	      r.procs[0].exit_code == -1, "killed by SIGKILL: status \"%s\", signal %d: %s",
	      proc_status_name(r.procs[0].status), r.procs[0].signal, r.procs[0].error);

	const char *missing[] = { "/nonexistent/smtbench-no-such-program" };
	a1[0] = none;
	run_procs(1, (int[]){ cpu }, missing, a1, &r, &sig);
	CHECK(r.procs[0].status == PROC_EXEC_FAILED && r.procs[0].exit_code == 127 &&
	      strstr(r.procs[0].error, "No such file"),
	      "a missing program: exec-failed, exit 127: %s", r.procs[0].error);

	const char *directory[] = { "/" };
	run_procs(1, (int[]){ cpu }, directory, a1, &r, &sig);
	CHECK(r.procs[0].status == PROC_EXEC_FAILED && r.procs[0].exit_code == 126,
	      "a folder as the program: exec-failed, exit 126: %s", r.procs[0].error);

	/* Two processes, the second on a CPU this process may not use: neither runs alone. */
	const char *p2[] = { "/bin/sh", "/bin/sh" };
	char *const *a2[] = { sh_true, sh_true };
	o = run_procs(2, (int[]){ cpu, unusable_cpu() }, p2, a2, &r, &sig);
	CHECK(o == TRIAL_COMPLETED && r.procs[1].status == PROC_BIND_FAILED,
	      "CPU %d (not usable): bind-failed: %s", unusable_cpu(), r.procs[1].error);
	CHECK(r.procs[0].status == PROC_BIND_FAILED && strstr(r.procs[0].error, "partner"),
	      "its partner is not started alone: %s", r.procs[0].error);
	CHECK_INT(r.procs[1].pu, -1, "a process that never bound has pu -1");
}

/*
 * A pair starts together and never alone, whichever of its two processes cannot bind: the last
 * one is started only once the first is bound and opens the barrier for it (issue 17). Each
 * workload leaves a file, so a process that ran alone would show.
 */
static void test_pair_start(const char *base)
{
	int cpu = first_usable_cpu(), sig;
	struct trial_result r;
	char ran[2][600], script[2][2000];
	for (int i = 0; i < 2; i++)
		snprintf(ran[i], sizeof ran[i], "%s/pair-ran-%d", base, i);
	/* Each waits up to 5 s for the other's file: both ok only if they ran at the same time. */
	for (int i = 0; i < 2; i++)
		snprintf(script[i], sizeof script[i],
		         ": > '%s'; n=0; while [ ! -e '%s' ] && [ $n -lt 500 ]; do sleep 0.01; "
		         "n=$((n+1)); done; [ -e '%s' ]", ran[i], ran[1 - i], ran[1 - i]);
	char *s0[] = { "sh", "-c", script[0], NULL }, *s1[] = { "sh", "-c", script[1], NULL };
	const char *p2[] = { "/bin/sh", "/bin/sh" };
	char *const *a2[] = { s0, s1 };
	enum trial_outcome o = run_procs(2, (int[]){ cpu, cpu }, p2, a2, &r, &sig);
	CHECK(o == TRIAL_COMPLETED && r.procs[0].status == PROC_OK && r.procs[1].status == PROC_OK,
	      "a pair's two processes run at the same time (\"%s\", \"%s\": %s %s)",
	      proc_status_name(r.procs[0].status), proc_status_name(r.procs[1].status),
	      r.procs[0].error, r.procs[1].error);
	CHECK(r.procs[0].start_s == r.procs[1].start_s && r.procs[0].pu == cpu && r.procs[1].pu == cpu,
	      "both start at the trial's start (%g, %g s), bound to CPU %d", r.procs[0].start_s,
	      r.procs[1].start_s, cpu);

	for (int bad = 0; bad < 2; bad++) {
		unlink(ran[0]), unlink(ran[1]);
		int pus[2] = { cpu, cpu };
		pus[bad] = unusable_cpu();
		o = run_procs(2, pus, p2, a2, &r, &sig);
		CHECK(o == TRIAL_COMPLETED && r.procs[bad].status == PROC_BIND_FAILED
		      && strstr(r.procs[bad].error, "sched_setaffinity"),
		      "process %d on CPU %d (not usable): bind-failed: %s", bad, pus[bad],
		      r.procs[bad].error);
		CHECK(r.procs[1 - bad].status == PROC_BIND_FAILED
		      && strstr(r.procs[1 - bad].error, "partner"),
		      "process %d is not started: %s", 1 - bad, r.procs[1 - bad].error);
		CHECK(access(ran[0], F_OK) != 0 && access(ran[1], F_OK) != 0,
		      "neither workload ran (process %d could not bind)", bad);
		CHECK(r.leftovers == 0 && r.procs[bad].pu == -1,
		      "nothing left over, no PU recorded for the one that did not bind (leftovers %d)",
		      r.leftovers);
	}
	unlink(ran[0]), unlink(ran[1]);
}

/* A stop signal during a trial: every child killed and reaped, the trial marked interrupted. */
/* Exit status 77 is the kernels' "not supported on this CPU"; from a user's command it is an
 * ordinary failed exit, never a reason to stop the run as unsupported (issue 21, item 7). */
static void test_exit_77(void)
{
	int cpu = first_usable_cpu(), sig = 0;
	char *sh_77[] = { "sh", "-c", "exit 77", NULL };
	for (int kernel = 0; kernel <= 1; kernel++) {
		struct trial_spec spec = { .nprocs = 1, .stderr_fd = -1, .run_origin_s = trial_now_s(),
		                           .child_sigmask = &child_mask };
		spec.procs[0] = (struct trial_proc_spec){ .pu = cpu, .path = "/bin/sh", .argv = sh_77,
		                                          .kernel = kernel };
		struct trial_result r;
		enum trial_outcome o = trial_run(&spec, &r, &sig);
		const char *want = kernel ? "unsupported" : "exit";
		CHECK(o == TRIAL_COMPLETED && !strcmp(proc_status_name(r.procs[0].status), want)
		      && r.procs[0].exit_code == 77,
		      "exit 77 from %s is status '%s' (got '%s')", kernel ? "a kernel" : "a command",
		      want, proc_status_name(r.procs[0].status));
	}
}

/* Whether path exists within limit_s seconds: what a test waits for, it polls for. */
static bool await_file(const char *path, double limit_s)
{
	for (double end = trial_now_s() + limit_s; access(path, F_OK) != 0;) {
		if (trial_now_s() > end)
			return false;
		nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
	}
	return true;
}

static void test_trial_interrupted(const char *base)
{
	int cpu = first_usable_cpu(), sig;
	char started[600], script[700];
	snprintf(started, sizeof started, "%s/interrupted-started", base);
	snprintf(script, sizeof script, ": > '%s'; exec sleep 20", started);
	/* SIGTERM once the workload runs (it says so with a file), so that it is the running
	 * trial that the signal interrupts. */
	pid_t self = getpid();
	pid_t killer = fork();
	if (killer == 0) {
		await_file(started, 60);
		kill(self, SIGTERM);
		_exit(0);
	}
	char *sleeper[] = { "sh", "-c", script, NULL };
	const char *p1[] = { "/bin/sh" };
	char *const *a1[] = { sleeper };
	struct trial_result r;
	double start = trial_now_s();
	enum trial_outcome o = run_procs(1, (int[]){ cpu }, p1, a1, &r, &sig);
	waitpid(killer, NULL, 0);
	CHECK(o == TRIAL_INTERRUPTED && sig == SIGTERM, "SIGTERM interrupts the trial (signal %d)",
	      sig);
	CHECK(r.procs[0].status == PROC_KILLED, "its child is killed and reaped (\"%s\")",
	      proc_status_name(r.procs[0].status));
	CHECK(trial_now_s() - start < 15, "without waiting for the child's 20 s");
	CHECK_INT(trial_pending_stop_signal(), 0, "the signal was consumed by the trial");
}

static struct experiment small_experiment(const char *dir, const char *command, long trials)
{
	struct experiment e = { 0 };
	int cpu = first_usable_cpu();
	char *argv[] = { (char *)command, NULL };
	xworkload_command(&e.a, argv, 1);
	e.plan = (struct plan){ .seed = 42, .nplacements = 2,
	                        .placements = { PLACEMENT_SOLO, PLACEMENT_SAME_PU },
	                        .warmup_blocks = 1, .measured_blocks = trials };
	e.pairs[PLACEMENT_SOLO] = (struct topo_pair){ .placement = PLACEMENT_SOLO, .available = true,
	                                              .npus = 1, .pus = { cpu, cpu }, .core = -1 };
	e.pairs[PLACEMENT_SAME_PU] = (struct topo_pair){ .placement = PLACEMENT_SAME_PU,
	                                                 .available = true, .npus = 2,
	                                                 .pus = { cpu, cpu }, .core = -1,
	                                                 .shares = "PU" };
	e.out_dir = xstrdup(dir);
	e.child_sigmask = child_mask;
	char *cl[] = { "smtbench", "run", NULL };
	e.command_line = xcalloc(3, sizeof *e.command_line);
	for (int i = 0; cl[i]; i++)
		e.command_line[i] = xstrdup(cl[i]);
	struct topo_info info = { .pus = 1, .nkinds = 0 };
	e.meta = meta_new(&e, &info);
	return e;
}

static long data_lines(const char *dir)
{
	char path[600];
	snprintf(path, sizeof path, "%s/samples.csv", dir);
	FILE *f = fopen(path, "r");
	long n = -1; /* the header is not a data line */
	int c;
	if (!f)
		return -2;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/* DIR's meta.json back into e, as --resume reads it (through the folder). */
static int meta_load_dir(const char *dir, struct experiment *e, char *err, size_t err_size)
{
	struct results_folder *f = folder_open(dir);
	int rc = meta_load(f, e, err, err_size);
	folder_free(&f);
	return rc;
}

static void test_experiment(const char *base)
{
	char dir[600], err[ERR_LEN] = "";
	snprintf(dir, sizeof dir, "%s/ok", base);
	struct experiment e = small_experiment(dir, "true", 2);
	struct store *s = store_create(dir, err, sizeof err);
	if (!CHECK(s != NULL && store_publish(s, err, sizeof err) == 0, "store_create %s (%s)", dir, err))
		return;
	enum run_outcome o = experiment_run(&e, s, 0, NULL, 0);
	CHECK(o == RUN_COMPLETE, "experiment_run of `true`, 1 warm-up + 2 blocks of 2: complete");
	CHECK_INT(data_lines(dir), 3 * (1 + 2), "samples.csv: 3 blocks x 3 processes");
	CHECK_STR(json_string_value(json_object_get(e.meta, "status")), "complete",
	          "meta.json status");
	CHECK_INT(json_integer_value(json_object_get(e.meta, "trials_done")), 6, "trials_done");
	store_close(&s);

	/* meta.json back: the settings --resume needs. */
	struct experiment back = { .command_line = NULL };
	CHECK(meta_load_dir(dir, &back, err, sizeof err) == 0, "meta_load (%s)", err);
	CHECK(back.plan.measured_blocks == 2 && back.plan.warmup_blocks == 1 && back.plan.seed == 42
	      && back.kernel == NULL, "round trip: trials %ld, warmup %ld, seed %llu, no kernel",
	      back.plan.measured_blocks, back.plan.warmup_blocks,
	      (unsigned long long)back.plan.seed);
	CHECK(back.plan.nplacements == 2 && back.plan.placements[0] == PLACEMENT_SOLO &&
	      back.plan.placements[1] == PLACEMENT_SAME_PU &&
	      back.pairs[PLACEMENT_SAME_PU].pus[1] == e.pairs[PLACEMENT_SAME_PU].pus[1] &&
	      !strcmp(back.pairs[PLACEMENT_SAME_PU].shares, "PU"),
	      "round trip: placements, their CPUs and what they share");
	CHECK(back.a.argv && !strcmp(back.a.argv[0], "true") && !back.a.argv[1],
	      "round trip: the command");
	experiment_release(&back);
	experiment_release(&e);

	/* A workload that always fails: the whole first block fails, the run stops there. */
	snprintf(dir, sizeof dir, "%s/false", base);
	e = small_experiment(dir, "false", 50);
	s = store_create(dir, err, sizeof err);
	if (!CHECK(s != NULL && store_publish(s, err, sizeof err) == 0, "store_create %s (%s)", dir, err))
		return;
	o = experiment_run(&e, s, 0, NULL, 0);
	CHECK(o == RUN_FAILED, "experiment_run of `false`: failed");
	CHECK_INT(data_lines(dir), 3, "it stopped after the first block (3 processes stored)");
	CHECK_STR(json_string_value(json_object_get(e.meta, "status")), "failed", "meta status");
	store_close(&s);
	experiment_release(&e);

	snprintf(dir, sizeof dir, "%s/broken", base);
	mkdir(dir, 0777);
	FILE *f = fopen(strcat(dir, "/meta.json"), "w");
	if (f) {
		fputs("{\"seed\": 1}", f);
		fclose(f);
	}
	dir[strlen(dir) - strlen("/meta.json")] = '\0';
	CHECK(meta_load_dir(dir, &back, err, sizeof err) == -1 && strstr(err, "cannot be resumed"),
	      "meta.json without settings: \"%s\"", err);
	experiment_release(&back);
}

/* Runs fn in a child (the x… functions exit); its exit status. */
static int exit_status_of(void (*fn)(const char *), const char *arg)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		freopen("/dev/null", "w", stderr);
		fn(arg);
		_exit(0);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void resolve_command(const char *name)
{
	struct workload w = { 0 };
	char *argv[] = { (char *)name, NULL };
	xworkload_command(&w, argv, 1);
	workload_release(&w);
}

static void resolve_kernel(const char *name)
{
	struct workload w = { 0 };
	xworkload_kernel(&w, name, 10);
	workload_release(&w);
}

static void test_workload(const char *base)
{
	struct workload w = { 0 };
	char *argv[] = { "sh", "-c", "true", NULL };
	xworkload_command(&w, argv, 3);
	CHECK(w.path && w.path[0] == '/' && access(w.path, X_OK) == 0 && !w.is_kernel,
	      "`sh` found on PATH: %s", w.path);
	CHECK(!strcmp(w.name, "sh") && !strcmp(w.argv[2], "true") && !w.argv[3],
	      "name and argv copied");
	workload_release(&w);
	CHECK(w.path == NULL && w.argv == NULL, "workload_release zeroes it");

	w.argv = xcalloc(2, sizeof *w.argv);
	w.argv[0] = xstrdup("true");
	xworkload_resolve(&w);
	CHECK(w.path && access(w.path, X_OK) == 0, "xworkload_resolve (for --resume): %s", w.path);
	workload_release(&w);

	CHECK_INT(exit_status_of(resolve_command, "smtbench-no-such-command"), EXIT_USAGE,
	          "an unknown command exits 2");
	char text[600];
	snprintf(text, sizeof text, "%s/data.txt", base);
	FILE *f = fopen(text, "w");
	if (f) {
		fputs("not a program\n", f);
		fclose(f);
		chmod(text, 0755);
	}
	CHECK_INT(exit_status_of(resolve_command, text), EXIT_USAGE,
	          "an executable text file without #! exits 2");
	unlink(text);
	CHECK_INT(exit_status_of(resolve_command, "/"), EXIT_USAGE, "a folder exits 2");
	CHECK_INT(exit_status_of(resolve_kernel, "no-such-kernel"), EXIT_USAGE,
	          "an unknown kernel exits 2");

	const char *build = getenv("SMTBENCH_BUILD");
	if (!build) {
		test_skip("SMTBENCH_BUILD not set (the kernels' folder): run through tests/run.sh");
		return;
	}
	char kernels[600];
	snprintf(kernels, sizeof kernels, "%s/kernels", build);
	setenv("SMTBENCH_KERNEL_DIR", kernels, 1);
	xworkload_kernel(&w, "nop", 1234);
	CHECK(w.is_kernel && !strcmp(w.argv[0], "nop") && !strcmp(w.argv[1], "1234") && !w.argv[2]
	      && strstr(w.path, "/kernels/nop"), "kernel nop: %s %s %s", w.path, w.argv[0],
	      w.argv[1]);
	workload_release(&w);
}

int main(void)
{
	char base[] = "/tmp/smtbench-trial-XXXXXX";
	if (!mkdtemp(base)) {
		perror("mkdtemp");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0); /* before any fork: no line printed twice */
	trial_block_signals(&child_mask);
	test_trial_paths();
	test_exit_77();
	test_trial_interrupted(base);
	test_pair_start(base);
	test_experiment(base);
	test_workload(base);
	char cmd[700];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", base);
	return test_done("test_trial");
}
