/*
 * topology.c — load a topology with hwloc, keep only the PUs this process may use, and choose
 * the pair of PUs each placement should use (DESIGN.md, "Choosing pairs").
 *
 * The model built at load time:
 *   pus[]   usable PUs in hwloc's logical (tree) order;
 *   cores[] the cores holding them, each a run of consecutive entries of pus[]. A PU without a
 *           Core ancestor (a topology without a Core level) becomes a "pseudo" core of its own:
 *           it is never counted as a core and never gives a sibling pair, and two pseudo cores
 *           count as different cores only when the tree proves it (see proven_separate).
 * Pairs are chosen once, at load time, so every caller sees the same answer.
 *
 * How "shares" names NUMA nodes: in hwloc 2 a NUMA node is a memory child, outside the parent
 * chain of PUs, and its cpuset is that of the object it hangs from. The deepest normal common
 * ancestor is reported, with two exceptions where both PUs lie in one NUMA node:
 *   - the ancestor is a Group with the NUMA node's cpuset: a Group says only that hwloc found
 *     some grouping, the NUMA node says what it is (a memory domain: an AMD die, a POWER chip);
 *   - the NUMA node's cpuset is strictly smaller than the ancestor's (unusual XML files).
 * Then "NUMANode" is reported. Caches, Die and Package keep their names (they say more), and
 * Machine stays Machine (a NUMA node spanning the whole machine adds nothing).
 */
#include "topology/topology.h"

#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <hwloc.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define HAVE_X86_CPUID 1
#endif

static const char *const placement_names[PLACEMENT_COUNT] = {
	[PLACEMENT_SOLO] = "solo",
	[PLACEMENT_SAME_PU] = "same-pu",
	[PLACEMENT_SIBLING] = "sibling",
	[PLACEMENT_NON_SIBLING] = "non-sibling",
	[PLACEMENT_CROSS_PACKAGE] = "cross-package",
};

const char *placement_name(enum placement p)
{
	if ((int)p < 0 || p >= PLACEMENT_COUNT)
		return "unknown";
	return placement_names[p];
}

int placement_parse(const char *name, enum placement *out)
{
	for (int i = 0; name && i < PLACEMENT_COUNT; i++) {
		if (!strcmp(name, placement_names[i])) {
			*out = (enum placement)i;
			return 0;
		}
	}
	return -1;
}

int placement_nprocs(enum placement p)
{
	return p == PLACEMENT_SOLO ? 1 : 2;
}

const char *topo_hwloc_version(void)
{
	return HWLOC_VERSION;
}

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
	int kind;
	int package;      /* logical index of its Package, -1 when there is none */
};

struct topo {
	hwloc_topology_t hw;
	hwloc_bitmap_t usable;
	struct topo_pu *pus;
	int npus;
	struct topo_core *cores;
	int ncores;
	hwloc_obj_t pu0_core;        /* Core (or PU) holding OS PU 0, whether usable or not */
	int nkinds_hw;               /* hwloc's kind count */
	char (*kind_names)[TOPO_NAME_LEN];
	struct topo_info info;
	struct topo_pair pairs[PLACEMENT_COUNT];
};

/* ---------------------------------------------------------------------------------------- */
/* Small readers for this system.                                                             */

/* First line of a small file, without its newline; -1 when unreadable or empty. */
static int read_first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char *got = fgets(buf, (int)len, f);
	fclose(f);
	if (!got)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return buf[0] ? 0 : -1;
}

static void copy_trimmed(char *dst, size_t len, const char *src)
{
	while (isspace((unsigned char)*src))
		src++;
	snprintf(dst, len, "%s", src);
	size_t n = strlen(dst);
	while (n > 0 && isspace((unsigned char)dst[n - 1]))
		dst[--n] = '\0';
}

static bool contains_nocase(const char *haystack, const char *needle)
{
	size_t n = strlen(needle);
	for (; *haystack; haystack++)
		if (!strncasecmp(haystack, needle, n))
			return true;
	return false;
}

/* Words that, found in a DMI vendor/product or a CPU model, mean a virtual machine. */
static const struct { const char *marker, *name; } vm_markers[] = {
	{ "QEMU", "QEMU" },           { "KVM", "KVM" },
	{ "VMware", "VMware" },       { "VirtualBox", "VirtualBox" },
	{ "innotek", "VirtualBox" },  { "Xen", "Xen" },
	{ "Bochs", "Bochs" },         { "Parallels", "Parallels" },
	{ "BHYVE", "bhyve" },         { "Virtual Machine", "Hyper-V" },
	{ "Hyper-V", "Hyper-V" },     { "Virtual CPU", "" },
};

/* Names the hypervisor if text carries a marker; returns whether it did. */
static bool match_vm_marker(const char *text, char name[TOPO_NAME_LEN])
{
	if (!text)
		return false;
	for (size_t i = 0; i < sizeof vm_markers / sizeof vm_markers[0]; i++) {
		if (contains_nocase(text, vm_markers[i].marker)) {
			snprintf(name, TOPO_NAME_LEN, "%s", vm_markers[i].name);
			return true;
		}
	}
	return false;
}

#ifdef HAVE_X86_CPUID
/* CPUID leaf 1 ECX bit 31 says "running under a hypervisor"; leaf 0x40000000 then carries the
 * hypervisor's 12-byte signature (what lscpu shows as "Hypervisor vendor"). */
static bool cpuid_hypervisor(char name[TOPO_NAME_LEN])
{
	static const struct { const char *signature, *name; } signatures[] = {
		{ "KVMKVMKVM", "KVM" },          { "Microsoft Hv", "Hyper-V" },
		{ "VMwareVMware", "VMware" },    { "XenVMMXenVMM", "Xen" },
		{ "TCGTCGTCGTCG", "QEMU" },      { "VBoxVBoxVBox", "VirtualBox" },
		{ " lrpepyh  vr", "Parallels" }, { "bhyve bhyve ", "bhyve" },
		{ "ACRNACRNACRN", "ACRN" },      { " QNXQVMBSQG ", "QNX" },
	};
	unsigned a, b, c, d;
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 31)))
		return false;
	__cpuid(0x40000000, a, b, c, d);
	char sig[13];
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	name[0] = '\0';
	for (size_t i = 0; i < sizeof signatures / sizeof signatures[0]; i++) {
		if (!strncmp(sig, signatures[i].signature, strlen(signatures[i].signature))) {
			snprintf(name, TOPO_NAME_LEN, "%s", signatures[i].name);
			break;
		}
	}
	return true;
}
#endif

static bool cpuinfo_has_hypervisor_flag(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return false;
	char *line = NULL;
	size_t cap = 0;
	bool found = false;
	while (!found && getline(&line, &cap, f) > 0) {
		if (strncmp(line, "flags", 5))
			continue;
		for (char *word = strtok(line + 5, " \t\n:"); word; word = strtok(NULL, " \t\n:"))
			if (!strcmp(word, "hypervisor"))
				found = true;
	}
	free(line);
	fclose(f);
	return found;
}

static void detect_vm_this_system(struct topo_info *info)
{
	char name[TOPO_NAME_LEN] = "";
	char text[256];
	bool vm = false;
#ifdef HAVE_X86_CPUID
	vm = cpuid_hypervisor(name);
#endif
	if (cpuinfo_has_hypervisor_flag())
		vm = true;
	if (read_first_line("/sys/hypervisor/type", text, sizeof text) == 0) {
		vm = true;
		if (!name[0] && !strcmp(text, "xen"))
			snprintf(name, sizeof name, "Xen");
	}
	static const char *const dmi_files[] = {
		"/sys/class/dmi/id/sys_vendor", "/sys/class/dmi/id/product_name",
	};
	for (size_t i = 0; i < sizeof dmi_files / sizeof dmi_files[0]; i++) {
		char dmi_name[TOPO_NAME_LEN] = "";
		if (read_first_line(dmi_files[i], text, sizeof text) == 0 &&
		    match_vm_marker(text, dmi_name)) {
			vm = true;
			if (!name[0])
				snprintf(name, sizeof name, "%s", dmi_name);
		}
	}
	info->virtual_machine = vm;
	snprintf(info->hypervisor, sizeof info->hypervisor, "%s", vm ? name : "");
}

/* A loaded topology says it is a VM through its info attributes: DMI vendor and product names
 * (Linux backend) or a CPU model such as "QEMU Virtual CPU" (x86 backend). */
static void detect_vm_loaded(hwloc_topology_t hw, struct topo_info *info)
{
	static const char *const keys[] = {
		"DMISysVendor", "DMIProductName", "DMIBoardVendor", "DMIChassisVendor", "CPUModel",
		"Hypervisor", "HypervisorVendor",
	};
	hwloc_obj_t root = hwloc_get_root_obj(hw);
	info->virtual_machine = false;
	info->hypervisor[0] = '\0';
	for (hwloc_obj_t obj = root; obj; ) {
		for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
			char name[TOPO_NAME_LEN] = "";
			if (match_vm_marker(hwloc_obj_get_info_by_name(obj, keys[k]), name)) {
				info->virtual_machine = true;
				if (!info->hypervisor[0])
					snprintf(info->hypervisor, sizeof info->hypervisor, "%s", name);
			}
		}
		obj = obj == root ? hwloc_get_next_obj_by_type(hw, HWLOC_OBJ_PACKAGE, NULL)
		                  : hwloc_get_next_obj_by_type(hw, HWLOC_OBJ_PACKAGE, obj);
	}
}

/* This process's affinity mask into set; -1 when it cannot be read. */
static int read_affinity(hwloc_bitmap_t set, int max_cpu)
{
	for (int ncpus = max_cpu + 1 > 1024 ? max_cpu + 1 : 1024; ncpus <= (1 << 22); ncpus *= 2) {
		cpu_set_t *mask = CPU_ALLOC(ncpus);
		if (!mask)
			return -1;
		size_t size = CPU_ALLOC_SIZE(ncpus);
		CPU_ZERO_S(size, mask);
		if (sched_getaffinity(0, size, mask) == 0) {
			hwloc_bitmap_zero(set);
			for (int cpu = 0; cpu < ncpus; cpu++)
				if (CPU_ISSET_S(cpu, size, mask))
					hwloc_bitmap_set(set, (unsigned)cpu);
			CPU_FREE(mask);
			return 0;
		}
		CPU_FREE(mask);
		if (errno != EINVAL)
			return -1;
	}
	return -1;
}

/* ---------------------------------------------------------------------------------------- */
/* Relations between PUs.                                                                      */

static hwloc_obj_t common_ancestor(const struct topo *t, hwloc_obj_t a, hwloc_obj_t b)
{
	return a == b ? a : hwloc_get_common_ancestor_obj(t->hw, a, b);
}

/* The smallest NUMA node whose cpuset holds both PUs, or NULL. */
static hwloc_obj_t shared_numa_node(const struct topo *t, hwloc_obj_t a, hwloc_obj_t b)
{
	hwloc_obj_t best = NULL;
	for (hwloc_obj_t node = hwloc_get_next_obj_by_type(t->hw, HWLOC_OBJ_NUMANODE, NULL); node;
	     node = hwloc_get_next_obj_by_type(t->hw, HWLOC_OBJ_NUMANODE, node)) {
		if (!node->cpuset || !hwloc_bitmap_isset(node->cpuset, a->os_index) ||
		    !hwloc_bitmap_isset(node->cpuset, b->os_index))
			continue;
		if (!best || hwloc_bitmap_weight(node->cpuset) < hwloc_bitmap_weight(best->cpuset))
			best = node;
	}
	return best;
}

/* True when "NUMANode" names what the two PUs share better than their common ancestor does
 * (the rule is in the comment at the top of this file). */
static bool numa_is_deeper(const struct topo *t, hwloc_obj_t a, hwloc_obj_t b)
{
	hwloc_obj_t anc = common_ancestor(t, a, b);
	hwloc_obj_t node = shared_numa_node(t, a, b);
	if (!node || !hwloc_bitmap_isincluded(node->cpuset, anc->cpuset))
		return false;
	if (!hwloc_bitmap_isequal(node->cpuset, anc->cpuset))
		return true;
	return anc->type == HWLOC_OBJ_GROUP;
}

static void shares_name(const struct topo *t, hwloc_obj_t a, hwloc_obj_t b, char out[TOPO_NAME_LEN])
{
	hwloc_obj_t anc = common_ancestor(t, a, b);
	const char *name = numa_is_deeper(t, a, b) ? hwloc_obj_type_string(HWLOC_OBJ_NUMANODE)
	                                           : hwloc_obj_type_string(anc->type);
	snprintf(out, TOPO_NAME_LEN, "%s", name);
}

/* Without Core objects, two PUs are known to be on different cores only when one of them sits
 * in a Core, an L2 or deeper-level cache, a Die or a Package that the other is not in: SMT
 * siblings always share those. L1 caches are not taken as proof, because virtual machines
 * (the qemu fixture) show one L1 per hardware thread. */
static bool proven_separate(const struct topo *t, hwloc_obj_t a, hwloc_obj_t b)
{
	hwloc_obj_t anc = common_ancestor(t, a, b);
	hwloc_obj_t ends[2] = { a, b };
	for (int i = 0; i < 2; i++) {
		for (hwloc_obj_t o = ends[i]->parent; o && o != anc; o = o->parent) {
			if (o->type == HWLOC_OBJ_CORE || o->type == HWLOC_OBJ_PACKAGE ||
			    o->type == HWLOC_OBJ_DIE ||
			    (hwloc_obj_type_is_cache(o->type) && o->attr && o->attr->cache.depth >= 2))
				return true;
		}
	}
	return false;
}

static bool distinct_cores(const struct topo *t, int ci, int cj)
{
	if (ci == cj)
		return false;
	const struct topo_core *a = &t->cores[ci], *b = &t->cores[cj];
	if (!a->pseudo && !b->pseudo)
		return true;
	return proven_separate(t, t->pus[a->first].obj, t->pus[b->first].obj);
}

static bool touches_pu0(const struct topo *t, int core)
{
	return t->pu0_core && t->cores[core].obj == t->pu0_core;
}

/* The usable PUs of a core as indexes into pus[], ordered by OS index with PU 0 last (it takes
 * the system's interrupts and housekeeping); returns how many were written, at most max. */
static int core_pus_ordered(const struct topo *t, int core, int *out, int max)
{
	const struct topo_core *c = &t->cores[core];
	int n = 0;
	for (int pass = 0; pass < 2; pass++) {
		/* pass 0: every PU but OS 0, ascending; pass 1: OS 0 if present */
		int last = -1;
		for (;;) {
			int next = -1;
			for (int i = c->first; i < c->first + c->count; i++) {
				int os = t->pus[i].os;
				if ((pass == 0) != (os != 0))
					continue;
				if (os > last && (next < 0 || os < t->pus[next].os))
					next = i;
			}
			if (next < 0)
				break;
			if (n < max)
				out[n++] = next;
			last = t->pus[next].os;
		}
	}
	return n;
}

/* How good a partner PU is for an anchor PU: deeper shared ancestor first, then a shared NUMA
 * node below it, then staying off PU 0's core. Compared lexicographically. */
struct partner_score {
	int depth, numa, avoid_pu0;
};

static int score_cmp(const struct partner_score *a, const struct partner_score *b)
{
	if (a->depth != b->depth)
		return a->depth < b->depth ? -1 : 1;
	if (a->numa != b->numa)
		return a->numa < b->numa ? -1 : 1;
	if (a->avoid_pu0 != b->avoid_pu0)
		return a->avoid_pu0 < b->avoid_pu0 ? -1 : 1;
	return 0;
}

/* The best partner core for the anchor PU (an index into pus[]) on core `from`: another core
 * of the same kind (and, when cross_package, in another package). -1 when there is none. */
static int best_partner(const struct topo *t, int from, int anchor_pu, bool cross_package,
                        struct partner_score *score_out)
{
	const struct topo_core *c = &t->cores[from];
	hwloc_obj_t anchor = t->pus[anchor_pu].obj;
	int best = -1;
	struct partner_score best_score = { -1, 0, 0 };
	for (int d = 0; d < t->ncores; d++) {
		const struct topo_core *other = &t->cores[d];
		if (other->kind != c->kind || !distinct_cores(t, from, d))
			continue;
		if (cross_package &&
		    (c->package < 0 || other->package < 0 || other->package == c->package))
			continue;
		int partner_pu;
		core_pus_ordered(t, d, &partner_pu, 1);
		hwloc_obj_t partner = t->pus[partner_pu].obj;
		struct partner_score s = {
			.depth = (int)common_ancestor(t, anchor, partner)->depth,
			.numa = numa_is_deeper(t, anchor, partner),
			.avoid_pu0 = !touches_pu0(t, d),
		};
		if (best < 0 || score_cmp(&s, &best_score) > 0) {
			best = d;
			best_score = s;
		}
	}
	if (score_out)
		*score_out = best_score;
	return best;
}

/* The core whose first PU anchors every placement: a core with SMT when there is one (biggest
 * kind first), one with a good non-sibling partner, off PU 0's core when another will do. */
static int choose_anchor_core(const struct topo *t, bool sibling_mode)
{
	int best = -1;
	int best_key[3] = { 0 };
	struct partner_score best_score = { -1, 0, 0 };
	for (int c = 0; c < t->ncores; c++) {
		const struct topo_core *core = &t->cores[c];
		if (sibling_mode && (core->pseudo || core->count < 2))
			continue;
		int anchor;
		core_pus_ordered(t, c, &anchor, 1);
		struct partner_score s;
		int partner = best_partner(t, c, anchor, false, &s);
		int key[3] = { partner >= 0, core->kind, !touches_pu0(t, c) };
		int cmp = 0;
		for (int i = 0; i < 3 && !cmp; i++)
			cmp = key[i] < best_key[i] ? -1 : key[i] > best_key[i];
		if (!cmp)
			cmp = score_cmp(&s, &best_score);
		if (best < 0 || cmp > 0) {
			best = c;
			memcpy(best_key, key, sizeof key);
			best_score = s;
		}
	}
	return best;
}

static const char *kind_name(const struct topo *t, int kind)
{
	if (kind < 0 || kind >= t->nkinds_hw)
		return "all";
	return t->kind_names[kind];
}

static void set_unavailable(struct topo_pair *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_unavailable(struct topo_pair *p, const char *fmt, ...)
{
	va_list ap;
	p->available = false;
	p->npus = 0;
	p->pus[0] = p->pus[1] = -1;
	p->shares[0] = '\0';
	va_start(ap, fmt);
	vsnprintf(p->reason, sizeof p->reason, fmt, ap);
	va_end(ap);
}

/* a and b are indexes into pus[]. */
static void set_pair(const struct topo *t, struct topo_pair *p, int a, int b)
{
	p->available = true;
	p->reason[0] = '\0';
	p->pus[0] = t->pus[a].os;
	p->pus[1] = t->pus[b].os;
	p->npus = p->placement == PLACEMENT_SOLO ? 1 : 2;
	if (p->placement == PLACEMENT_SOLO)
		p->shares[0] = '\0';
	else
		shares_name(t, t->pus[a].obj, t->pus[b].obj, p->shares);
}

/* True when some Core of the whole topology, usable PUs or not, has two or more PUs. */
static bool topology_has_smt_cores(const struct topo *t)
{
	for (hwloc_obj_t core = hwloc_get_next_obj_by_type(t->hw, HWLOC_OBJ_CORE, NULL); core;
	     core = hwloc_get_next_obj_by_type(t->hw, HWLOC_OBJ_CORE, core))
		if (hwloc_bitmap_weight(core->complete_cpuset ? core->complete_cpuset : core->cpuset) >= 2)
			return true;
	return false;
}

static void plan_pairs(struct topo *t)
{
	const struct topo_info *info = &t->info;
	for (int p = 0; p < PLACEMENT_COUNT; p++) {
		memset(&t->pairs[p], 0, sizeof t->pairs[p]);
		t->pairs[p].placement = (enum placement)p;
		t->pairs[p].core = -1;
	}
	if (t->npus == 0) {
		for (int p = 0; p < PLACEMENT_COUNT; p++)
			set_unavailable(&t->pairs[p], "no usable PU");
		return;
	}
	bool sibling_mode = info->max_threads_per_core >= 2;
	int anchor_core = choose_anchor_core(t, sibling_mode);
	int order[2];
	int n = core_pus_ordered(t, anchor_core, order, 2);
	int anchor = order[0];
	bool this_system = info->source == TOPO_THIS_SYSTEM;
	const char *what = this_system ? "this machine" : "this topology";

	set_pair(t, &t->pairs[PLACEMENT_SOLO], anchor, anchor);
	set_pair(t, &t->pairs[PLACEMENT_SAME_PU], anchor, anchor);

	struct topo_pair *sib = &t->pairs[PLACEMENT_SIBLING];
	if (sibling_mode && n == 2) {
		set_pair(t, sib, order[0], order[1]);
		sib->core = (int)t->cores[anchor_core].obj->logical_index;
	} else if (info->cores == 0) {
		set_unavailable(sib, "the topology has no Core level, so SMT siblings cannot be known");
	} else if (topology_has_smt_cores(t)) {
		set_unavailable(sib, "no core has two usable PUs: %d PUs of the topology are offline, "
		                "disallowed (cgroup) or outside this process's affinity mask",
		                info->disallowed_pus);
	} else if (this_system) {
		set_unavailable(sib, "this machine has no SMT: every core has one usable PU "
		                "(SMT control: %s)", info->smt);
	} else {
		set_unavailable(sib, "%s has no SMT: every core has one usable PU", what);
	}

	struct topo_pair *non = &t->pairs[PLACEMENT_NON_SIBLING];
	int partner = best_partner(t, anchor_core, anchor, false, NULL);
	if (partner >= 0) {
		int partner_pu;
		core_pus_ordered(t, partner, &partner_pu, 1);
		set_pair(t, non, anchor, partner_pu);
	} else if (info->cores == 0) {
		set_unavailable(non, "the topology has no Core level and no two usable PUs are known "
		                "to be on different cores");
	} else if (info->cores == 1) {
		set_unavailable(non, "only one usable core");
	} else {
		set_unavailable(non, "no other usable core of the same CPU kind (%s)",
		                kind_name(t, t->cores[anchor_core].kind));
	}

	struct topo_pair *cross = &t->pairs[PLACEMENT_CROSS_PACKAGE];
	partner = best_partner(t, anchor_core, anchor, true, NULL);
	if (partner >= 0) {
		int partner_pu;
		core_pus_ordered(t, partner, &partner_pu, 1);
		set_pair(t, cross, anchor, partner_pu);
	} else if (hwloc_get_type_depth(t->hw, HWLOC_OBJ_PACKAGE) == HWLOC_TYPE_DEPTH_UNKNOWN) {
		set_unavailable(cross, "the topology has no Package level");
	} else if (info->packages <= 1) {
		int all = hwloc_get_nbobjs_by_type(t->hw, HWLOC_OBJ_PACKAGE);
		if (all > 1)
			set_unavailable(cross, "only one package has usable PUs (%d packages present)",
			                all);
		else
			set_unavailable(cross, "only one package");
	} else {
		set_unavailable(cross, "no usable core of the same CPU kind (%s) in another package",
		                kind_name(t, t->cores[anchor_core].kind));
	}
}

/* ---------------------------------------------------------------------------------------- */
/* Loading.                                                                                    */

static bool spec_is_file(const char *spec)
{
	size_t n = strlen(spec);
	struct stat st;
	return (n >= 4 && !strcasecmp(spec + n - 4, ".xml")) || strchr(spec, '/') ||
	       stat(spec, &st) == 0;
}

static void load_kinds(struct topo *t)
{
	int nk = hwloc_cpukinds_get_nr(t->hw, 0);
	t->nkinds_hw = nk > 0 ? nk : 0;
	t->kind_names = t->nkinds_hw ? calloc((size_t)t->nkinds_hw, sizeof *t->kind_names) : NULL;
	if (!t->kind_names)
		t->nkinds_hw = 0;
	for (int i = 0; i < t->npus; i++)
		t->pus[i].kind = t->nkinds_hw ? -1 : 0;
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	for (int k = 0; set && k < t->nkinds_hw; k++) {
		unsigned ninfos = 0;
		struct hwloc_info_s *infos = NULL;
		if (hwloc_cpukinds_get_info(t->hw, (unsigned)k, set, NULL, &ninfos, &infos, 0) < 0)
			continue;
		const char *core_type = NULL, *freq = NULL, *capacity = NULL;
		for (unsigned i = 0; i < ninfos; i++) {
			if (!strcmp(infos[i].name, "CoreType"))
				core_type = infos[i].value;
			else if (!strcmp(infos[i].name, "FrequencyMaxMHz"))
				freq = infos[i].value;
			else if (!strcmp(infos[i].name, "LinuxCapacity"))
				capacity = infos[i].value;
		}
		if (core_type)
			snprintf(t->kind_names[k], TOPO_NAME_LEN, "%s", core_type);
		else if (freq)
			snprintf(t->kind_names[k], TOPO_NAME_LEN, "%sMHz", freq);
		else if (capacity && t->nkinds_hw > 1)
			snprintf(t->kind_names[k], TOPO_NAME_LEN, "capacity %s", capacity);
		else if (t->nkinds_hw == 1)
			snprintf(t->kind_names[k], TOPO_NAME_LEN, "all");
		else
			snprintf(t->kind_names[k], TOPO_NAME_LEN, "kind%d", k);
		for (int i = 0; i < t->npus; i++)
			if (hwloc_bitmap_isset(set, (unsigned)t->pus[i].os))
				t->pus[i].kind = k;
	}
	hwloc_bitmap_free(set);
}

/* Fills pus[] and cores[] from the usable set; -1 on out of memory. */
static int build_model(struct topo *t)
{
	int max = hwloc_bitmap_weight(t->usable);
	t->pus = calloc(max > 0 ? (size_t)max : 1, sizeof *t->pus);
	t->cores = calloc(max > 0 ? (size_t)max : 1, sizeof *t->cores);
	if (!t->pus || !t->cores)
		return -1;
	for (hwloc_obj_t pu = hwloc_get_next_obj_by_type(t->hw, HWLOC_OBJ_PU, NULL); pu;
	     pu = hwloc_get_next_obj_by_type(t->hw, HWLOC_OBJ_PU, pu)) {
		if (!hwloc_bitmap_isset(t->usable, pu->os_index) || t->npus >= max)
			continue;
		hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(t->hw, HWLOC_OBJ_CORE, pu);
		hwloc_obj_t key = core ? core : pu;
		/* Logical order follows the tree, so a core's PUs are consecutive. */
		if (t->ncores == 0 || t->cores[t->ncores - 1].obj != key) {
			hwloc_obj_t pack = hwloc_get_ancestor_obj_by_type(t->hw, HWLOC_OBJ_PACKAGE, pu);
			t->cores[t->ncores++] = (struct topo_core){
				.obj = key, .pseudo = !core, .first = t->npus, .count = 0,
				.package = pack ? (int)pack->logical_index : -1,
			};
		}
		t->cores[t->ncores - 1].count++;
		t->pus[t->npus++] = (struct topo_pu){
			.os = (int)pu->os_index, .obj = pu, .core = t->ncores - 1,
		};
	}
	hwloc_obj_t pu0 = hwloc_get_pu_obj_by_os_index(t->hw, 0);
	if (pu0) {
		hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(t->hw, HWLOC_OBJ_CORE, pu0);
		t->pu0_core = core ? core : pu0;
	}
	load_kinds(t);
	for (int c = 0; c < t->ncores; c++)
		t->cores[c].kind = t->pus[t->cores[c].first].kind;
	return 0;
}

static void fill_info(struct topo *t)
{
	struct topo_info *info = &t->info;
	static const char *const source_names[] = {
		[TOPO_THIS_SYSTEM] = "this-system", [TOPO_SYNTHETIC] = "synthetic", [TOPO_XML] = "xml",
	};
	info->source_name = source_names[info->source];
	info->pus = t->npus;
	hwloc_bitmap_t packages = hwloc_bitmap_alloc();
	for (int c = 0; c < t->ncores; c++) {
		const struct topo_core *core = &t->cores[c];
		if (packages && core->package >= 0)
			hwloc_bitmap_set(packages, (unsigned)core->package);
		if (core->pseudo)
			continue;
		info->cores++;
		if (core->count > info->max_threads_per_core)
			info->max_threads_per_core = core->count;
	}
	info->packages = packages ? hwloc_bitmap_weight(packages) : 0;
	hwloc_bitmap_free(packages);

	hwloc_const_cpuset_t complete = hwloc_topology_get_complete_cpuset(t->hw);
	int present = complete ? hwloc_bitmap_weight(complete) : t->npus;
	info->disallowed_pus = present > t->npus ? present - t->npus : 0;

	if (info->source == TOPO_THIS_SYSTEM) {
		char control[TOPO_NAME_LEN];
		if (read_first_line("/sys/devices/system/cpu/smt/control", control, sizeof control))
			snprintf(control, sizeof control, "unknown");
		copy_trimmed(info->smt, sizeof info->smt, control);
		detect_vm_this_system(info);
	} else {
		snprintf(info->smt, sizeof info->smt, "%s",
		         info->cores == 0 ? "unknown" : info->max_threads_per_core >= 2 ? "on" : "off");
		detect_vm_loaded(t->hw, info);
	}

	const char *model = hwloc_obj_get_info_by_name(hwloc_get_root_obj(t->hw), "CPUModel");
	for (hwloc_obj_t pack = hwloc_get_next_obj_by_type(t->hw, HWLOC_OBJ_PACKAGE, NULL);
	     pack && !model; pack = hwloc_get_next_obj_by_type(t->hw, HWLOC_OBJ_PACKAGE, pack))
		model = hwloc_obj_get_info_by_name(pack, "CPUModel");
	copy_trimmed(info->cpu_model, sizeof info->cpu_model, model ? model : "");

	/* Kinds, biggest first; a topology without kinds is one kind. */
	int nk = t->nkinds_hw ? t->nkinds_hw : 1;
	for (int k = nk - 1; k >= 0 && info->nkinds < TOPO_MAX_KINDS; k--) {
		int kind = t->nkinds_hw ? k : 0;
		struct topo_kind out = { .cores = 0 };
		snprintf(out.name, sizeof out.name, "%s", kind_name(t, t->nkinds_hw ? kind : -1));
		for (int c = 0; c < t->ncores; c++) {
			const struct topo_core *core = &t->cores[c];
			if (core->kind != kind)
				continue;
			out.pus += core->count;
			if (core->pseudo)
				continue;
			out.cores++;
			if (core->count > out.max_threads_per_core)
				out.max_threads_per_core = core->count;
		}
		if (out.pus > 0)
			info->kinds[info->nkinds++] = out;
	}
}

struct topo *topo_load(const char *spec, char err[TOPO_ERR_LEN])
{
	struct topo *t = calloc(1, sizeof *t);
	if (!t) {
		snprintf(err, TOPO_ERR_LEN, "out of memory while loading the topology");
		return NULL;
	}
	if (hwloc_topology_init(&t->hw) < 0) {
		snprintf(err, TOPO_ERR_LEN, "hwloc_topology_init failed: %s", strerror(errno));
		free(t);
		return NULL;
	}
	/* Keep disallowed PUs in the tree so that they can be counted and named in errors;
	 * usable ones are chosen below from the allowed set. */
	hwloc_topology_set_flags(t->hw, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
	hwloc_topology_set_io_types_filter(t->hw, HWLOC_TYPE_FILTER_KEEP_NONE);

	if (!spec) {
		t->info.source = TOPO_THIS_SYSTEM;
	} else if (!*spec) {
		snprintf(err, TOPO_ERR_LEN, "empty topology: give an XML file or an hwloc synthetic "
		         "description such as \"pack:2 core:4 pu:2\"");
		goto fail;
	} else if (spec_is_file(spec)) {
		t->info.source = TOPO_XML;
		struct stat st;
		if (stat(spec, &st) < 0) {
			snprintf(err, TOPO_ERR_LEN, "cannot read topology file '%s': %s", spec,
			         strerror(errno));
			goto fail;
		}
		if (S_ISDIR(st.st_mode)) {
			snprintf(err, TOPO_ERR_LEN, "topology file '%s' is a directory", spec);
			goto fail;
		}
		if (hwloc_topology_set_xml(t->hw, spec) < 0) {
			snprintf(err, TOPO_ERR_LEN, "'%s' is not a valid hwloc XML topology file (make "
			         "one with: lstopo-no-graphics --of xml FILE.xml)", spec);
			goto fail;
		}
	} else {
		t->info.source = TOPO_SYNTHETIC;
		if (hwloc_topology_set_synthetic(t->hw, spec) < 0) {
			snprintf(err, TOPO_ERR_LEN, "'%s' is neither an XML file nor a valid hwloc "
			         "synthetic topology (e.g. \"pack:2 core:4 pu:2\")", spec);
			goto fail;
		}
	}
	if (hwloc_topology_load(t->hw) < 0) {
		if (t->info.source == TOPO_XML)
			snprintf(err, TOPO_ERR_LEN, "'%s' is not a valid hwloc XML topology file", spec);
		else
			snprintf(err, TOPO_ERR_LEN, "cannot load the %s topology: %s",
			         spec ? "synthetic" : "system's", strerror(errno));
		goto fail;
	}

	t->usable = hwloc_bitmap_dup(hwloc_topology_get_topology_cpuset(t->hw));
	if (!t->usable)
		goto oom;
	hwloc_bitmap_and(t->usable, t->usable, hwloc_topology_get_allowed_cpuset(t->hw));
	if (t->info.source == TOPO_THIS_SYSTEM) {
		hwloc_bitmap_t affinity = hwloc_bitmap_alloc();
		if (!affinity)
			goto oom;
		if (read_affinity(affinity, hwloc_bitmap_last(hwloc_topology_get_complete_cpuset(t->hw))) < 0) {
			snprintf(err, TOPO_ERR_LEN, "cannot read this process's CPU affinity "
			         "(sched_getaffinity): %s", strerror(errno));
			hwloc_bitmap_free(affinity);
			goto fail;
		}
		hwloc_bitmap_and(t->usable, t->usable, affinity);
		hwloc_bitmap_free(affinity);
	}
	if (build_model(t) < 0)
		goto oom;
	fill_info(t);
	plan_pairs(t);
	return t;
oom:
	snprintf(err, TOPO_ERR_LEN, "out of memory while loading the topology");
fail:
	topo_free(&t);
	return NULL;
}

void topo_free(struct topo **tp)
{
	if (!tp || !*tp)
		return;
	struct topo *t = *tp;
	free(t->pus);
	free(t->cores);
	free(t->kind_names);
	hwloc_bitmap_free(t->usable);
	if (t->hw)
		hwloc_topology_destroy(t->hw);
	free(t);
	*tp = NULL;
}

void topo_get_info(const struct topo *t, struct topo_info *out)
{
	*out = t->info;
}

int topo_choose(const struct topo *t, enum placement p, struct topo_pair *out)
{
	if ((int)p < 0 || p >= PLACEMENT_COUNT) {
		memset(out, 0, sizeof *out);
		out->placement = p;
		out->core = -1;
		set_unavailable(out, "unknown placement %d", (int)p);
		return -1;
	}
	*out = t->pairs[p];
	return out->available ? 0 : -1;
}

/* The PU with this OS index if this process may use it; otherwise NULL and a reason. */
static const struct topo_pu *usable_pu(const struct topo *t, int os, char err[TOPO_ERR_LEN])
{
	for (int i = 0; i < t->npus; i++)
		if (t->pus[i].os == os)
			return &t->pus[i];
	char *list = NULL;
	if (hwloc_bitmap_list_asprintf(&list, t->usable) < 0)
		list = NULL;
	const char *usable = list && *list ? list : "none";
	hwloc_const_cpuset_t complete = hwloc_topology_get_complete_cpuset(t->hw);
	if (!complete || !hwloc_bitmap_isset(complete, (unsigned)os))
		snprintf(err, TOPO_ERR_LEN, "CPU %d does not exist in this topology (usable CPUs: %s)",
		         os, usable);
	else if (!hwloc_bitmap_isset(hwloc_topology_get_topology_cpuset(t->hw), (unsigned)os))
		snprintf(err, TOPO_ERR_LEN, "CPU %d is offline (usable CPUs: %s)", os, usable);
	else if (!hwloc_bitmap_isset(hwloc_topology_get_allowed_cpuset(t->hw), (unsigned)os))
		snprintf(err, TOPO_ERR_LEN, "CPU %d may not be used here: it is outside the allowed "
		         "cpuset (cgroup) (usable CPUs: %s)", os, usable);
	else
		snprintf(err, TOPO_ERR_LEN, "CPU %d may not be used here: it is outside this "
		         "process's affinity mask (usable CPUs: %s)", os, usable);
	free(list);
	return NULL;
}

int topo_relate(const struct topo *t, const int pus[2], struct topo_relation *out,
                char err[TOPO_ERR_LEN])
{
	const struct topo_pu *a = usable_pu(t, pus[0], err);
	if (!a)
		return -1;
	const struct topo_pu *b = usable_pu(t, pus[1], err);
	if (!b)
		return -1;
	memset(out, 0, sizeof *out);
	out->pus[0] = pus[0];
	out->pus[1] = pus[1];
	out->core = -1;
	shares_name(t, a->obj, b->obj, out->shares);
	if (a == b) {
		out->relation = PLACEMENT_SAME_PU;
	} else if (a->core == b->core) {
		out->relation = PLACEMENT_SIBLING;
		out->core = (int)t->cores[a->core].obj->logical_index;
	} else if (distinct_cores(t, a->core, b->core)) {
		int pa = t->cores[a->core].package, pb = t->cores[b->core].package;
		out->relation = pa >= 0 && pb >= 0 && pa != pb ? PLACEMENT_CROSS_PACKAGE
		                                               : PLACEMENT_NON_SIBLING;
	} else {
		snprintf(err, TOPO_ERR_LEN, "cannot tell whether CPUs %d and %d share a core: the "
		         "topology has no Core level", pus[0], pus[1]);
		return -1;
	}
	return 0;
}

int topo_export_xml(const struct topo *t, const char *path, char err[TOPO_ERR_LEN])
{
	if (hwloc_topology_export_xml(t->hw, path, 0) < 0) {
		snprintf(err, TOPO_ERR_LEN, "cannot write topology XML to '%s': %s", path,
		         strerror(errno));
		return -1;
	}
	return 0;
}
