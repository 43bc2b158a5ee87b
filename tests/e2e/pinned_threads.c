/*
 * pinned_threads.c — a two-thread workload for test_one_process.sh that decides itself where
 * its threads run, so that whether the process used both of its CPUs is known without timing.
 *
 * usage: pinned_threads together|apart ITERATIONS
 *
 * Reads its CPUs from SMTBENCH_CPUS (as run --one-process gives them, "A,B", or "A"); starts two
 * threads, each of which pins itself (sched_setaffinity of the calling thread) to the first of
 * them (together) or to one each (apart), and counts to ITERATIONS. The main thread only waits,
 * its own affinity left as it was given (a process that changed it would be recorded as moved).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct worker {
	int cpu;
	unsigned long iterations;
};

static void *work(void *arg)
{
	const struct worker *w = arg;
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(w->cpu, &one);
	if (sched_setaffinity(0, sizeof one, &one) != 0) {
		perror("pinned_threads: sched_setaffinity");
		exit(1);
	}
	for (volatile unsigned long i = 0; i < w->iterations; i++)
		;
	return NULL;
}

int main(int argc, char **argv)
{
	const char *cpus = getenv("SMTBENCH_CPUS");
	int a, b, got = cpus ? sscanf(cpus, "%d,%d", &a, &b) : 0;
	if (got == 1)
		b = a;
	if (argc != 3 || (strcmp(argv[1], "together") && strcmp(argv[1], "apart")) || got < 1) {
		fprintf(stderr, "usage: SMTBENCH_CPUS=A[,B] pinned_threads together|apart ITERATIONS\n");
		return 2;
	}
	unsigned long iterations = strtoul(argv[2], NULL, 10);
	bool apart = !strcmp(argv[1], "apart");
	struct worker workers[2] = { { a, iterations }, { apart ? b : a, iterations } };
	pthread_t threads[2];
	for (int k = 0; k < 2; k++)
		if (pthread_create(&threads[k], NULL, work, &workers[k]) != 0) {
			fprintf(stderr, "pinned_threads: cannot start a thread\n");
			return 1;
		}
	for (int k = 0; k < 2; k++)
		pthread_join(threads[k], NULL);
	return 0;
}
