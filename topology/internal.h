/*
 * internal.h — what topology.c (loading, facts) and pairs.c (choosing and relating pairs)
 * share. Private to topology/: the module's interface is topology.h.
 *
 * The model built at load time:
 *   pus[]   usable PUs, core by core in hwloc's logical (tree) order, each core's by OS index
 *           with PU 0 last (the order in which pairs.c tries them);
 *   cores[] the cores holding them, each a run of consecutive entries of pus[]. A PU without a
 *           Core ancestor (a topology without a Core level) becomes a "pseudo" core of its own:
 *           it is never counted as a core and never gives a sibling pair, and two pseudo cores
 *           count as different cores only when the tree proves it (see proven_separate, pairs.c).
 */
#ifndef SMTBENCH_TOPOLOGY_INTERNAL_H
#define SMTBENCH_TOPOLOGY_INTERNAL_H

#include <stdbool.h>

#include <hwloc.h>

#include "topology/topology.h"

struct topo_pu {
	int os;           /* OS index */
	hwloc_obj_t obj;
	int core;         /* index into topo.cores */
	int kind;         /* hwloc cpukind index (higher is bigger), -1 when in no kind */
};

struct topo_core {
	hwloc_obj_t obj;  /* the Core, or the PU itself for a pseudo core */
	bool pseudo;      /* no Core ancestor: a PU standing alone, not a known core */
	int first, count; /* its usable PUs: pus[first .. first+count-1] */
	int package;      /* logical index of its Package, -1 when there is none */
};

struct topo {
	hwloc_topology_t hw;
	hwloc_bitmap_t usable;
	struct topo_pu *pus;
	int npus;
	struct topo_core *cores;
	int ncores;
	int nkinds_hw;               /* hwloc's kind count */
	char (*kind_names)[TOPO_NAME_LEN];
	struct topo_info info;
};

/* Where Linux says whether SMT is on, off, forced off or not supported. */
#define TOPO_SMT_CONTROL_PATH "/sys/devices/system/cpu/smt/control"

/* The name of a cpukind of t (an index into kind_names): "all" for -1, an index out of range,
 * or a topology without kinds. The string belongs to t (or is static). */
const char *topo_kind_name(const struct topo *t, int kind);

/* The value of this system's first /proc/cpuinfo line starting with field ("model name",
 * "flags"), after its colon and blanks, into out; "" when there is none (arm64 and POWER
 * kernels write no "model name") or it cannot be read. machine.c. */
void topo_read_cpuinfo(const char *field, char *out, size_t len);

#endif
