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

#endif
