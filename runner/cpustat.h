/*
 * cpustat.h — what else used a trial's CPUs: the busy and steal time of chosen PUs from
 * /proc/stat, read before and after a trial.
 *
 * /proc/stat counts each PU's time in clock ticks (USER_HZ, sysconf(_SC_CLK_TCK)): user, nice,
 * system, idle, iowait, irq, softirq, steal, guest, guest_nice. Busy here is user + nice +
 * system + irq + softirq (guest time is already inside user); steal is the time the hypervisor
 * gave the PU's virtual CPU to someone else. A trial's "foreign" CPU time is the busy time of its
 * PUs that its own processes (their utime + stime) do not account for: cron jobs, other users,
 * the leftovers of an earlier trial. The resolution is one tick per PU (10 ms at 100 Hz).
 */
#ifndef SMTBENCH_RUNNER_CPUSTAT_H
#define SMTBENCH_RUNNER_CPUSTAT_H

#include <stdbool.h>

/* Ticks summed over the PUs asked for. */
struct cpustat {
	unsigned long long busy, steal;
};

/*
 * Reads the per-PU lines ("cpuN ...") of a /proc/stat-format file at path and sums busy and
 * steal over the npus PUs in pus[] (a PU named twice counts once). 0, or -1 when the file cannot
 * be read or lacks a line for one of the PUs, or a line is malformed (fewer than the eight
 * fields up to steal, which every kernel since 2.6.11 has).
 */
int cpustat_read(const char *path, const int *pus, int npus, struct cpustat *out);

/* Seconds per tick of /proc/stat (1 / USER_HZ). */
double cpustat_tick_s(void);

#endif
