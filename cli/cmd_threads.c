/*
 * cmd_threads.c — `smtbench threads PID...`: which cores a running program's threads share.
 * The sampling is runner/threads.c's; this file parses the command line and words the answer.
 */
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "cli/commands.h"
#include "common/text.h"
#include "runner/threads.h"
#include "topology/topology.h"

/* Pairs the text lists; --json lists them all. */
#define TEXT_MAX_PAIRS 20

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	stop_requested = sig;
}

static const char *thread_label(const struct threads_thread *th, char *buf, size_t size)
{
	snprintf(buf, size, "%d (%s)", th->tid, th->comm);
	return buf;
}

/* The warning's sentence, into a new string. */
static char *warning_text(const struct threads_result *r, const struct threads_warning *w)
{
	const struct threads_pair *p = &r->pairs[w->pair];
	const struct threads_thread *a = &r->threads[p->a], *b = &r->threads[p->b];
	char la[96], lb[96], where[64], tail[192] = "";
	if (w->same_pu)
		snprintf(where, sizeof where, "PU %d (core %d)", w->pu, w->core);
	else
		snprintf(where, sizeof where, "core %d as SMT siblings", w->core);
	if (!w->idle_allowed) {
		cpu_set_t both;
		CPU_OR(&both, &a->allowed, &b->allowed);
		char *allowed = text_cpu_list(&both, true);
		snprintf(tail, sizeof tail, "; their allowed CPUs (%.100s) keep them off it", allowed);
		free(allowed);
	}
	return xasprintf("threads %s and %s shared %s in %.0f%% of the samples where both ran, "
	                 "while core %d was idle (busy %.0f%% of the window)%s",
	                 thread_label(a, la, sizeof la), thread_label(b, lb, sizeof lb), where,
	                 100 * w->share, w->idle_core, 100 * w->idle_busy, tail);
}

/* The processes sampled, "1234 (gzip), 5678 (xz) and 9012 (zstd)": a new string. */
static char *process_list(const struct threads_result *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = xmemstream(&text, &len);
	for (int i = 0; i < r->nprocesses; i++)
		fprintf(out, "%s%d (%s)", i == 0 ? "" : i + 1 == r->nprocesses ? " and " : ", ",
		        r->processes[i].pid, r->processes[i].comm);
	return xmemstream_close(out, &text);
}

/* ---- Text, answer first ---- */

static void print_pairs(const struct threads_result *r)
{
	if (r->npairs == 0) {
		printf("No two threads were running (state R) in the same sample: none shared a core "
		       "or a PU while busy.\n");
		return;
	}
	printf("Pairs of threads both running (state R) in a sample, and where:\n");
	printf("  %-40s %8s %8s %13s %16s\n", "threads", "samples", "one PU", "SMT siblings",
	       "different cores");
	for (int i = 0; i < r->npairs && i < TEXT_MAX_PAIRS; i++) {
		const struct threads_pair *p = &r->pairs[i];
		char la[96], lb[96], both[200];
		snprintf(both, sizeof both, "%s + %s", thread_label(&r->threads[p->a], la, sizeof la),
		         thread_label(&r->threads[p->b], lb, sizeof lb));
		double n = p->both_running;
		printf("  %-40s %8d %7.0f%% %12.0f%% %15.0f%%\n", both, p->both_running,
		       100 * p->same_pu / n, 100 * p->siblings / n, 100 * p->different_cores / n);
	}
	if (r->npairs > TEXT_MAX_PAIRS)
		printf("  ... and %d more pairs (--json lists them all)\n", r->npairs - TEXT_MAX_PAIRS);
}

/* "0 (97%), 1 (3%)": the CPUs a thread ran on, with their share of its samples there. */
static void ran_on_text(const struct threads_result *r, const struct threads_thread *th,
                        char *out, size_t size)
{
	long total = 0;
	for (int cpu = 0; cpu < r->ncpus; cpu++)
		total += th->ran_on[cpu];
	size_t used = 0;
	out[0] = '\0';
	for (int cpu = 0; cpu < r->ncpus && total > 0; cpu++) {
		if (!th->ran_on[cpu])
			continue;
		int n = snprintf(out + used, size - used, "%s%d (%.0f%%)", used ? ", " : "", cpu,
		                 100.0 * th->ran_on[cpu] / (double)total);
		if (n < 0 || (size_t)n >= size - used) {
			snprintf(out + (used < size - 4 ? used : size - 4), 4, "...");
			return;
		}
		used += (size_t)n;
	}
	if (!used)
		snprintf(out, size, "-");
}

static void print_threads(const struct threads_result *r)
{
	printf("\nThreads over the %.2f s window:\n", r->window_s);
	printf("  %-8s %-8s %-16s %-10s %-24s %s\n", "PID", "TID", "name", "allowed", "ran on",
	       "CPU time");
	for (int i = 0; i < r->nthreads; i++) {
		const struct threads_thread *th = &r->threads[i];
		char ran[128], *allowed = th->allowed_known ? text_cpu_list(&th->allowed, true)
		                                            : xstrdup("?");
		ran_on_text(r, th, ran, sizeof ran);
		printf("  %-8d %-8d %-16s %-10s %-24s %.2f s (%.0f%%)%s\n", th->pid, th->tid, th->comm,
		       *allowed ? allowed : "none", ran, th->cpu_s,
		       r->window_s > 0 ? 100 * th->cpu_s / r->window_s : 0, th->exited ? ", exited" : "");
		free(allowed);
	}
}

static void print_text(const struct threads_result *r, const struct topo_info *info)
{
	char *names = process_list(r);
	printf("Sampled %d thread%s of %s", r->nthreads, r->nthreads == 1 ? "" : "s", names);
	free(names);
	printf(": %d samples", r->samples);
	/* Whether the sampler fell behind its interval (more than 10% over it, on average): reading
	 * many threads can take longer than the interval, and the missed slots were skipped. */
	if (!isnan(r->achieved_interval_ms) && r->achieved_interval_ms > 1.1 * r->interval_ms)
		printf(", every %d ms asked, %.1f ms achieved (reading %d threads took longer than "
		       "that),", r->interval_ms, r->achieved_interval_ms, r->nthreads);
	else
		printf(" every %d ms", r->interval_ms);
	printf(" over %.2f s%s.\n\n", r->window_s, r->interrupted ? " (interrupted)" : "");
	print_pairs(r);
	bool no_smt = info->cores > 0 && info->max_threads_per_core < 2 && !info->smt_cores_present;
	bool exited = false;
	for (int i = 0; i < r->nprocesses; i++)
		exited |= r->processes[i].exited;
	if (r->nwarnings > 0 || no_smt || exited)
		printf("\n");
	for (int i = 0; i < r->nwarnings; i++) {
		char *text = warning_text(r, &r->warnings[i]);
		printf("warning: %s\n", text);
		free(text);
	}
	if (no_smt)
		printf("This machine has no SMT (one PU per core): threads can share a PU or run on "
		       "different cores, never on siblings.\n");
	for (int i = 0; i < r->nprocesses; i++)
		if (r->processes[i].exited)
			printf("Process %d (%s) exited %.2f s into the window: what was seen until then is "
			       "reported.\n", r->processes[i].pid, r->processes[i].comm,
			       r->processes[i].exited_after_s);
	print_threads(r);
	if (r->samples >= 2)
		printf("\nCost of sampling: %.3f s of CPU over the %.2f s window (%.1f%% of one CPU); "
		       "the sampler was %s.\n", r->sampler_cpu_s, r->window_s,
		       100 * r->sampler_cpu_s / r->window_s, r->sampler_note);
	else /* one sample has no window to share the cost over */
		printf("\nCost of sampling: %.3f s of CPU for one sample; the sampler was %s.\n",
		       r->sampler_cpu_s, r->sampler_note);
}

/* ---- JSON: a contract (docs/usage.md, "threads") ---- */

static json_t *json_cpu_set(const cpu_set_t *set, int ncpus)
{
	json_t *a = json_array();
	for (int cpu = 0; cpu < ncpus && cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, set))
			json_array_append_new(a, json_integer(cpu));
	return a;
}

static json_t *json_share(int count, int of)
{
	return json_real(of > 0 ? (double)count / of : 0);
}

static json_t *json_threads(const struct threads_result *r)
{
	json_t *threads = json_array();
	for (int i = 0; i < r->nthreads; i++) {
		const struct threads_thread *th = &r->threads[i];
		json_t *ran_on = json_array(), *ran_on_samples = json_array();
		for (int cpu = 0; cpu < r->ncpus; cpu++)
			if (th->ran_on[cpu]) {
				json_array_append_new(ran_on, json_integer(cpu));
				json_array_append_new(ran_on_samples, json_integer(th->ran_on[cpu]));
			}
		json_array_append_new(threads, json_pack(
			"{s:i, s:i, s:s, s:o, s:o, s:o, s:f, s:i, s:b}", "pid", th->pid, "tid", th->tid,
			"comm", th->comm, "allowed_cpus", th->allowed_known
			? json_cpu_set(&th->allowed, r->ncpus) : json_null(), "ran_on", ran_on,
			"ran_on_samples", ran_on_samples, "cpu_s", th->cpu_s, "running_samples",
			th->running_samples, "exited", th->exited));
	}
	return threads;
}

/* The pairs, the CPUs and the warnings. */
static void json_answer(const struct threads_result *r, json_t *root)
{
	json_t *pairs = json_array(), *cpus = json_array(), *warnings = json_array();
	for (int i = 0; i < r->npairs; i++) {
		const struct threads_pair *p = &r->pairs[i];
		json_array_append_new(pairs, json_pack(
			"{s:i, s:i, s:i, s:o, s:o, s:o}", "a", r->threads[p->a].tid, "b",
			r->threads[p->b].tid, "both_running", p->both_running, "same_core_siblings",
			json_share(p->siblings, p->both_running), "same_pu",
			json_share(p->same_pu, p->both_running), "different_cores",
			json_share(p->different_cores, p->both_running)));
	}
	for (int i = 0; i < r->ncpus; i++)
		json_array_append_new(cpus, json_pack("{s:i, s:o, s:o}", "cpu", r->cpus[i].cpu, "core",
		                                      r->cpus[i].core >= 0
		                                      ? json_integer(r->cpus[i].core) : json_null(),
		                                      "busy", r->cpus[i].busy >= 0
		                                      ? json_real(r->cpus[i].busy) : json_null()));
	for (int i = 0; i < r->nwarnings; i++) {
		char *text = warning_text(r, &r->warnings[i]);
		json_array_append_new(warnings, json_string(text));
		free(text);
	}
	json_object_update_new(root, json_pack("{s:o, s:o, s:o}", "pairs", pairs, "cpus", cpus,
	                                       "warnings", warnings));
}

static json_t *json_result(const struct threads_result *r)
{
	json_t *pids = json_array(), *processes = json_array();
	for (int i = 0; i < r->nprocesses; i++) {
		const struct threads_process *p = &r->processes[i];
		json_array_append_new(pids, json_integer(p->pid));
		json_array_append_new(processes, json_pack("{s:i, s:s, s:b, s:o}", "pid", p->pid,
		                                           "comm", p->comm, "exited", p->exited,
		                                           "exited_after_s", p->exited
		                                           ? json_real(p->exited_after_s)
		                                           : json_null()));
	}
	json_t *root = json_pack("{s:o, s:f, s:i, s:i, s:b, s:f, s:o, s:s, s:o, s:o, s:o}", "pids",
	                         pids, "window_s", r->window_s, "interval_ms", r->interval_ms,
	                         "samples", r->samples, "interrupted", r->interrupted,
	                         "sampler_cpu_s", r->sampler_cpu_s, "sampler_cpu", r->sampler_cpu >= 0
	                         ? json_integer(r->sampler_cpu) : json_null(), "sampler_note",
	                         r->sampler_note, "processes", processes, "threads", json_threads(r),
	                         "interval_achieved_ms", isnan(r->achieved_interval_ms)
	                         ? json_null() : json_real(r->achieved_interval_ms));
	json_answer(r, root);
	return root;
}

enum { OPT_FOR = 1, OPT_INTERVAL, OPT_JSON };

const struct cli_option threads_options[] = {
	{ "for", 0, OPT_FOR, CLI_WORD, "DURATION", NULL, "how long to sample, as run --duration: "
	  "90s, 15m, 1h30m (default 5s, at most a week)" },
	{ "interval", 0, OPT_INTERVAL, CLI_WORD, "MS", NULL, "milliseconds between samples, "
	  STR(THREADS_MIN_INTERVAL_MS) " to " STR(THREADS_MAX_INTERVAL_MS) " (default "
	  STR(THREADS_DEFAULT_INTERVAL_MS) ")" },
	{ "json", 'j', OPT_JSON, CLI_FLAG, NULL, NULL, "print JSON instead (a stable format for "
	  "other programs)" },
	{ 0 },
};

const struct cli_example threads_examples[] = {
	{ "which cores the threads of a running server share, sampled for 10 seconds",
	  "smtbench threads $(pidof myserver) --for 10s" },
	{ "two processes, sampled every 50 ms, as JSON", "smtbench threads 1234 5678 --interval 50 "
	  "--json" },
	{ 0 },
};

/* What threads' command line asked for. */
struct threads_args {
	double window_s;
	unsigned long interval_ms;
	bool json;
};

static void parse_threads_options(int argc, char **argv, struct threads_args *a)
{
	optind = 1;
	for (int opt; (opt = cli_getopt(argc, argv, "threads")) != -1;) {
		if (opt == OPT_FOR)
			a->window_s = cli_duration("threads", THREADS_MAX_WINDOW_S);
		else if (opt == OPT_INTERVAL)
			a->interval_ms = cli_whole("threads", THREADS_MIN_INTERVAL_MS,
			                           THREADS_MAX_INTERVAL_MS);
		else
			a->json = true;
	}
}

/* The PIDs after the options, each checked before sampling starts; NULL after saying why
 * (exit 2 for a bad one). */
static int *checked_pids(int argc, char **argv, int *npids)
{
	*npids = argc - optind;
	int *pids = xcalloc((size_t)*npids, sizeof *pids);
	char err[ERR_LEN];
	for (int i = 0; i < *npids; i++) {
		unsigned long pid;
		if (parse_ulong(argv[optind + i], 1, INT_MAX, &pid) != 0) {
			free(pids);
			usage_exit("threads", "'%s' is not a process ID", argv[optind + i]);
		}
		pids[i] = (int)pid;
		if (threads_check_pid(pids[i], err, sizeof err) != 0) {
			free(pids);
			text_warnx("%s", err);
			return NULL;
		}
	}
	return pids;
}

/* Samples with ^C and a kill ending the window early (what was seen is reported); a signal
 * the caller ignored (nohup, a background job) stays ignored. */
static int sample_until_stopped(const struct topo *t, const int *pids, int npids,
                                const struct threads_args *a, struct threads_result *r,
                                char *err, size_t err_size)
{
	static const int signals[] = { SIGINT, SIGTERM };
	struct sigaction sa = { .sa_handler = on_stop }, old[2];
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 2; i++)
		if (sigaction(signals[i], NULL, &old[i]) == 0 && old[i].sa_handler != SIG_IGN)
			sigaction(signals[i], &sa, NULL);
	int rc = threads_sample(t, pids, npids, a->window_s, (int)a->interval_ms, &stop_requested,
	                        r, err, err_size);
	for (int i = 0; i < 2; i++)
		sigaction(signals[i], &old[i], NULL);
	return rc;
}

/* No thread was seen: one line, as for a PID without threads found before sampling. */
static void say_no_threads(const struct threads_result *r)
{
	char *names = process_list(r);
	text_warnx("no threads to sample: %s %s exited, or become a zombie, before the first sample",
	           names, r->nprocesses == 1 ? "had" : "had each");
	free(names);
}

/* The result as JSON or text on stdout; the exit status. */
static int print_result(const struct threads_result *r, const struct topo_info *info, bool json)
{
	int status = r->interrupted ? 128 + (int)stop_requested : EXIT_OK, written = EXIT_OK;
	if (json) {
		written = cli_print_json(json_result(r), 0);
	} else {
		print_text(r, info);
		if (fflush(stdout) == EOF) {
			text_warn("cannot write to standard output");
			written = EXIT_FAILURE_RUNTIME;
		}
	}
	return written == EXIT_OK ? status : written;
}

int cmd_threads(int argc, char **argv)
{
	struct threads_args a = { .window_s = THREADS_DEFAULT_WINDOW_S,
	                          .interval_ms = THREADS_DEFAULT_INTERVAL_MS };
	parse_threads_options(argc, argv, &a);
	if (optind >= argc)
		usage_exit("threads", "give the PID of at least one running process");
	if (a.interval_ms > a.window_s * 1000)
		usage_exit("threads", "--interval %lu ms is longer than the window (--for %g s)",
		           a.interval_ms, a.window_s);
	int npids;
	int *pids = checked_pids(argc, argv, &npids);
	if (!pids)
		return EXIT_USAGE;
	char err[ERR_LEN];
	struct topo *t = topo_load(NULL, err, sizeof err);
	struct topo_info info;
	struct threads_result r;
	int status = EXIT_FAILURE_RUNTIME;
	if (t)
		topo_get_info(t, &info);
	bool sampled = t && sample_until_stopped(t, pids, npids, &a, &r, err, sizeof err) == 0;
	if (!sampled) {
		text_warnx("%s", err);
	} else if (r.nthreads == 0) { /* each exited (or became a zombie) before the first sample */
		say_no_threads(&r);
		status = EXIT_USAGE;
	} else {
		status = print_result(&r, &info, a.json);
	}
	if (sampled)
		threads_result_free(&r);
	free(pids);
	topo_free(&t);
	return status;
}
