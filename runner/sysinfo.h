/*
 * sysinfo.h — facts about the machine a run is on, for meta.json and the report: things that
 * may confound a comparison (frequency governor, SMT control) and things that identify the run.
 * Each field is "" when this system does not expose it.
 */
#ifndef SMTBENCH_RUNNER_SYSINFO_H
#define SMTBENCH_RUNNER_SYSINFO_H

struct sysinfo_facts {
	char host[128];
	char os_kernel[256];   /* "Linux 6.1.0-... #1 SMP ..." */
	char cpu_model[160];   /* /proc/cpuinfo "model name" */
	char governor[64];     /* cpu0's scaling_governor */
	char smt_control[32];  /* /sys/devices/system/cpu/smt/control */
	char smt_active[8];    /* /sys/devices/system/cpu/smt/active */
};

void sysinfo_read(struct sysinfo_facts *out);

/* A cgroup CPU bandwidth limit (a quota): throttling makes two busy processes take turns, which
 * distorts every comparison of placements, so the runner and `topo` say when there is one. */
struct cpu_quota {
	double cpus;        /* quota / period of the tightest limit on this process; 0: none */
	char source[4200];  /* the file that sets it, e.g. /sys/fs/cgroup/x/cpu.max */
};

/* This process's CPU quota, from /proc/self/mountinfo, /proc/self/cgroup and the cgroup files
 * (v2 cpu.max, v1 cpu.cfs_quota_us / cpu.cfs_period_us) of its cgroup and every ancestor. */
void sysinfo_cpu_quota(struct cpu_quota *out);
/* The same from other files: root is put in front of every mount point (tests build a fake
 * cgroup tree under it). */
void sysinfo_cpu_quota_from(const char *mountinfo, const char *proc_cgroup, const char *root,
                            struct cpu_quota *out);

#endif
