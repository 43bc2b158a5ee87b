/*
 * topology.h — which logical CPUs (PUs) share what, and which pair each placement should use.
 *
 * Built on hwloc 2.x. A topology is either this system (restricted to the PUs this process may
 * use: hwloc's allowed cpuset, this process's affinity mask, online CPUs only) or a loaded one
 * (an hwloc synthetic string or an XML file) used only to plan and to explain: nothing is ever
 * bound through a loaded topology. All PU numbers in this interface are OS indexes.
 *
 * Errors: functions that can fail return -1 (or NULL) and write one line, naming the thing that
 * is wrong and what to do, into the caller's `char *err, size_t err_size` (common/error.h).
 * Nothing here exits, prints, or keeps global state.
 */
#ifndef SMTBENCH_TOPOLOGY_TOPOLOGY_H
#define SMTBENCH_TOPOLOGY_TOPOLOGY_H

#include <stdbool.h>

#include "common/cpu_model.h"  /* CPU_MODEL_LEN, the rule that names the CPU model */
#include "common/error.h"
#include "common/placements.h" /* enum placement, placement_name/parse/nprocs */

#define TOPO_ERR_LEN 256
#define TOPO_NAME_LEN 32

enum topo_source { TOPO_THIS_SYSTEM, TOPO_SYNTHETIC, TOPO_XML };

struct topo; /* opaque; owned by the caller of topo_load, released with topo_free */

/*
 * spec NULL: this system. Otherwise an XML file (a spec naming an existing file, or ending in
 * ".xml") or an hwloc synthetic description such as "pack:2 core:4 pu:2(indexes=core)".
 * Returns NULL with a reason in err when the topology cannot be loaded.
 */
struct topo *topo_load(const char *spec, char *err, size_t err_size);
/* Frees *t and sets it to NULL; NULL and *t == NULL are fine. */
void topo_free(struct topo **t);

#define TOPO_MAX_KINDS 4
struct topo_kind {
	char name[TOPO_NAME_LEN]; /* hwloc's CoreType/FrequencyMaxMHz-derived name, e.g. "IntelCore";
	                           * "all" when the topology has a single kind or none */
	int cores;                /* usable cores of this kind */
	int pus;                  /* usable PUs of this kind */
	int max_threads_per_core; /* usable PUs on the fullest core of this kind */
};

/* Counts are of usable objects: PUs this process may use and the cores/packages holding them.
 * A topology without a Core level has cores == 0 and max_threads_per_core == 0 (unknown, not
 * invented); one without a Package level has packages == 0. */
struct topo_info {
	enum topo_source source;
	const char *source_name;  /* "this-system", "synthetic" or "xml" (static string) */
	int pus, cores, packages;
	int max_threads_per_core;
	/* This system: the content of /sys/devices/system/cpu/smt/control ("on", "off",
	 * "forceoff", "notsupported", "notimplemented") or "unknown" when unreadable.
	 * Loaded topologies: "on" when some core has two or more PUs, else "off" (inferred);
	 * "unknown" when the topology has no Core level. */
	char smt[TOPO_NAME_LEN];
	bool virtual_machine;
	char hypervisor[TOPO_NAME_LEN]; /* e.g. "KVM"; "" when not known or not a VM */
	/* The CPU model by the one rule (common/cpu_model.h): /proc/cpuinfo's on this system when
	 * it names one, else hwloc's; "" when neither says. The two sources as read, "" when
	 * silent (cpu_model_proc always for a loaded topology: it describes another machine). */
	char cpu_model[CPU_MODEL_LEN];
	char cpu_model_hwloc[CPU_MODEL_LEN];
	char cpu_model_proc[CPU_MODEL_LEN];
	int nkinds;                     /* 1 on ordinary machines, 2 on hybrids */
	struct topo_kind kinds[TOPO_MAX_KINDS]; /* biggest (most performant) kind first */
	int mixed_kind_cores;           /* cores whose usable PUs are of different kinds */
	int disallowed_pus;             /* present but not usable here (cgroup, affinity, offline) */
	bool smt_cores_present;         /* some core has 2+ PUs, usable here or not */
};

void topo_get_info(const struct topo *t, struct topo_info *out);

/* The pair a placement uses, or why it is unavailable. */
struct topo_pair {
	enum placement placement;
	bool available;
	int npus;                   /* 1 for solo; 2 otherwise (same-pu repeats its PU) */
	int pus[2];                 /* OS indexes */
	int core;                   /* for sibling: hwloc logical index of the shared core (as
	                             * lstopo's "Core L#n"; a Core's OS index repeats across
	                             * packages, so it cannot name a core), else -1 */
	char shares[TOPO_NAME_LEN]; /* deepest hwloc object both PUs are in, by hwloc's type name:
	                             * "PU", "Core", "L2Cache", "L3Cache", "Group", "Package",
	                             * "NUMANode", "Machine"; "" for solo */
	char reason[TOPO_ERR_LEN];  /* one line, when !available */
	/* The CPU kind of its PUs where the topology has several (hwloc's cpukinds: a hybrid
	 * machine's performance and efficiency cores), "" where it has one or none; mixed_kinds:
	 * its two PUs are of different kinds (kind names the first's), the machine allowing no
	 * pair of this placement within one kind. */
	char kind[TOPO_NAME_LEN];
	bool mixed_kinds;
};

/*
 * Chooses the pair for placement p the careful way (docs/DESIGN.md, "Choosing pairs"): siblings from
 * each Core's cpuset, usable PUs only, PU 0's core avoided when another will do; non-sibling
 * keeps the sibling pair's first PU and the same CPU kind, and shares the deepest level below
 * Core; solo and same-pu use that same first PU. On a machine with several CPU kinds every pair
 * and the baseline are chosen within one kind, PU by PU (a core's PUs may differ): the most
 * performant kind (hwloc's highest efficiency) that gives both a sibling pair and a non-sibling
 * partner within it, else the one that gives most of them; a pair that must mix kinds says so
 * (mixed_kinds). Always fills *out; returns 0 when available,
 * -1 when not (out->reason says why, e.g. "this machine has no SMT: every core has one PU").
 */
int topo_choose(const struct topo *t, enum placement p, struct topo_pair *out);

/* The CPUs one process gets in placement pair's place (run --one-process): its PUs, each once
 * (solo and same-pu: {A}; sibling: {A, A's sibling}; non-sibling: {A, B}; cross-package:
 * {A, C}), in the pair's order, into cpus; returns how many (1 or 2). */
int topo_pair_cpus(const struct topo_pair *pair, int cpus[2]);

/* What two PUs given by the user share. relation is same-pu, sibling, non-sibling or
 * cross-package. Returns -1 with err when a PU does not exist or may not be used here. */
struct topo_relation {
	int pus[2];
	enum placement relation;
	int core;                   /* for sibling: hwloc logical index of the shared core, else -1 */
	char shares[TOPO_NAME_LEN];
	char kind[TOPO_NAME_LEN];   /* the first CPU's kind, as topo_pair's (several kinds; else "") */
	bool mixed_kinds;           /* the two CPUs are of different kinds */
};
int topo_relate(const struct topo *t, const int pus[2], struct topo_relation *out,
                char *err, size_t err_size);

/* Whether two PUs in this relation serve the placement: non-sibling means "different cores,
 * sharing as much as possible", so on a machine with one core per package (many VMs, POWER7)
 * its best pair is also a cross-package pair. */
bool topo_relation_serves(enum placement relation, enum placement placement);

/*
 * The pair of placement p on two CPUs the user gave (`--pair A,B`, related by topo_relate into
 * rel): solo and same-pu use the first CPU; a two-CPU placement takes both when their relation
 * serves it (topo_relation_serves). Returns -1 with err when it does not: asking for sibling on
 * a non-sibling pair is a contradiction, and err says so and what to do.
 */
int topo_pair_from_cpus(const struct topo_relation *rel, enum placement p, struct topo_pair *out,
                        char *err, size_t err_size);

/* ---- Every CPU of the machine, usable here or not (`smtbench threads` relates the CPUs other
 * processes ran on). Cores are named by hwloc's logical index ("core L#n", as lstopo). ---- */
/* The core of CPU cpu (OS index); -1 when there is no such PU or no Core above it. */
int topo_cpu_core(const struct topo *t, int cpu);
/* How many cores the topology has (0 when it has no Core level). */
int topo_core_count(const struct topo *t);
/* The CPUs (OS indexes, ascending) of core `core` into out, at most max of them; returns how
 * many the core has (more than max when out was too short), 0 when there is no such core. */
int topo_core_cpus(const struct topo *t, int core, int *out, int max);

/* Writes the topology as hwloc XML into dir/name, atomically (for the results folder). -1 with
 * err on failure. */
int topo_export_xml(const struct topo *t, const char *dir, const char *name, char *err,
                    size_t err_size);

/* hwloc's version as "2.9.0" (static string). */
const char *topo_hwloc_version(void);

/* ---- Facts about this machine, read from /proc and /sys (never from a loaded topology) ----
 * For meta.json, `topo` and the report: what may confound a comparison (frequency governor, SMT
 * control, a CPU quota) and what identifies the run. Each text field is "" when this system
 * does not expose it. The virtual-machine facts and the CPU model are in struct topo_info. */
struct topo_machine {
	char host[128];
	char os_kernel[256];   /* "Linux 6.1.0-... #1 SMP ..." */
	char governor[64];     /* cpu0's scaling_governor */
	char smt_control[32];  /* /sys/devices/system/cpu/smt/control */
	char smt_active[8];    /* /sys/devices/system/cpu/smt/active */
};

/* Fills *out from this system; never fails. */
void topo_machine_read(struct topo_machine *out);

/* A cgroup CPU bandwidth limit (a quota): throttling makes two busy processes take turns, which
 * distorts every comparison of placements, so the runner and `topo` say when there is one. */
struct topo_cpu_quota {
	double cpus;        /* quota / period of the tightest limit on this process; 0: none */
	char source[4200];  /* the file that sets it, e.g. /sys/fs/cgroup/x/cpu.max */
};

/* This process's CPU quota, from /proc/self/mountinfo, /proc/self/cgroup and the cgroup files
 * (v2 cpu.max, v1 cpu.cfs_quota_us / cpu.cfs_period_us) of its cgroup and every ancestor. */
void topo_cpu_quota(struct topo_cpu_quota *out);
/* The same from other files: root is put in front of every mount point (tests build a fake
 * cgroup tree under it). */
void topo_cpu_quota_from(const char *mountinfo, const char *proc_cgroup, const char *root,
                         struct topo_cpu_quota *out);

#endif
