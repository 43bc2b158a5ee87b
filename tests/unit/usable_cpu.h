/*
 * usable_cpu.h — for the tests that start trials on the real CPUs: the first CPU this process
 * may run on (a CI runner or a cgroup may leave out CPU 0).
 */
#ifndef SMTBENCH_TESTS_USABLE_CPU_H
#define SMTBENCH_TESTS_USABLE_CPU_H

#include <sched.h>

static inline int first_usable_cpu(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) != 0)
		return 0;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set))
			return cpu;
	return 0;
}

#endif
