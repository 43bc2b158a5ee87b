/*
 * pairs.c — choose the pair of PUs each placement should use (docs/DESIGN.md, "Choosing pairs"),
 * and say how two PUs named by the user are related. Works on the model that topology.c
 * builds (internal.h). A pair is chosen from the model when asked for: the choice depends on
 * nothing else, so every caller sees the same answer.
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
#include "topology/internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>
#include <hwloc/glibc-sched.h>

#include "common/text.h"

/* ---------------------------------------------------------------------------------------- */
/* Relations between PUs.                                                                      */

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
	hwloc_obj_t anc = hwloc_get_common_ancestor_obj(t->hw, a, b);
	hwloc_obj_t node = shared_numa_node(t, a, b);
	if (!node || !hwloc_bitmap_isincluded(node->cpuset, anc->cpuset))
		return false;
	if (!hwloc_bitmap_isequal(node->cpuset, anc->cpuset))
		return true;
	return anc->type == HWLOC_OBJ_GROUP;
}

static void shares_name(const struct topo *t, hwloc_obj_t a, hwloc_obj_t b, char out[TOPO_NAME_LEN])
{
	hwloc_obj_t anc = hwloc_get_common_ancestor_obj(t->hw, a, b);
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
	hwloc_obj_t anc = hwloc_get_common_ancestor_obj(t->hw, a, b);
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

/* Whether the core holds PU 0, usable or not: an object's cpuset has every PU below it. */
static bool touches_pu0(const struct topo *t, int core)
{
	return hwloc_bitmap_isset(t->cores[core].obj->cpuset, 0);
}

/* How good a partner PU is for an anchor PU: the depth of their shared ancestor, then whether
 * they share a NUMA node below it, then whether it stays off PU 0's core; { -1, 0, 0 } for no
 * partner. Scores and keys compare lexicographically (lex_cmp), greater is better. */
enum { SCORE_LEN = 3 };

static int lex_cmp(const int *a, const int *b, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

/* The first usable PU of core `core` of CPU kind `kind`, as an index into pus[]; -1 when it
 * has none. */
static int core_pu_of_kind(const struct topo *t, int core, int kind)
{
	const struct topo_core *c = &t->cores[core];
	for (int i = c->first; i < c->first + c->count; i++)
		if (t->pus[i].kind == kind)
			return i;
	return -1;
}

/* The best partner for the anchor PU (an index into pus[]) on core `from`: the PU of the
 * anchor's kind on the best other core (in another package, when cross_package), as an index
 * into pus[], its score into score; -1 when there is none. */
static int best_partner(const struct topo *t, int from, int anchor_pu, bool cross_package,
                        int score[SCORE_LEN])
{
	const struct topo_core *c = &t->cores[from];
	hwloc_obj_t anchor = t->pus[anchor_pu].obj;
	int best_pu = -1;
	memcpy(score, (int[SCORE_LEN]){ -1, 0, 0 }, SCORE_LEN * sizeof *score);
	for (int d = 0; d < t->ncores; d++) {
		const struct topo_core *other = &t->cores[d];
		if (!distinct_cores(t, from, d))
			continue;
		if (cross_package &&
		    (c->package < 0 || other->package < 0 || other->package == c->package))
			continue;
		int pu = core_pu_of_kind(t, d, t->pus[anchor_pu].kind);
		if (pu < 0)
			continue;
		hwloc_obj_t partner = t->pus[pu].obj;
		int s[SCORE_LEN] = { (int)hwloc_get_common_ancestor_obj(t->hw, anchor, partner)->depth,
		                     numa_is_deeper(t, anchor, partner), !touches_pu0(t, d) };
		if (best_pu < 0 || lex_cmp(s, score, SCORE_LEN) > 0) {
			best_pu = pu;
			memcpy(score, s, sizeof s);
		}
	}
	return best_pu;
}

/* Whether the PU anchor (an index into pus[]) has a sibling of its own kind on its core. */
static bool sibling_of_kind(const struct topo *t, int anchor)
{
	const struct topo_core *c = &t->cores[t->pus[anchor].core];
	for (int i = c->first; i < c->first + c->count; i++)
		if (i != anchor && t->pus[i].kind == t->pus[anchor].kind)
			return true;
	return false;
}

/* The PU that anchors every placement (an index into pus[]): on a core with SMT when there is
 * one; with a sibling and a non-sibling partner of its own CPU kind (both when one PU has them,
 * else either), of the most performant such kind; off PU 0's core when another will do; the
 * deepest partner. Each core's PUs in their order (internal.h), the first winning ties. */
static int choose_anchor(const struct topo *t, bool sibling_mode)
{
	int best = -1, best_key[5 + SCORE_LEN];
	for (int c = 0; c < t->ncores; c++) {
		const struct topo_core *core = &t->cores[c];
		if (sibling_mode && (core->pseudo || core->count < 2))
			continue;
		for (int i = core->first; i < core->first + core->count; i++) {
			int key[5 + SCORE_LEN]; /* the anchor's own merits, then its partner's score */
			int partner = best_partner(t, c, i, false, key + 5);
			bool sibling = !sibling_mode || sibling_of_kind(t, i);
			memcpy(key, (int[5]){ partner >= 0 && sibling, partner >= 0, sibling,
			                      t->pus[i].kind, !touches_pu0(t, c) }, 5 * sizeof *key);
			if (best < 0 || lex_cmp(key, best_key, 5 + SCORE_LEN) > 0) {
				best = i;
				memcpy(best_key, key, sizeof key);
			}
		}
	}
	return best;
}

static void __attribute__((format(printf, 2, 3)))
set_unavailable(struct topo_pair *p, const char *fmt, ...)
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

/* How two usable PUs are related, into out; -1 when a topology without a Core level cannot
 * tell whether they share a core. */
static int relate_pus(const struct topo *t, const struct topo_pu *a, const struct topo_pu *b,
                      struct topo_relation *out)
{
	*out = (struct topo_relation){ .pus = { a->os, b->os }, .core = -1,
	                               .mixed_kinds = a->kind != b->kind };
	shares_name(t, a->obj, b->obj, out->shares);
	if (t->info.nkinds >= 2)
		snprintf(out->kind, sizeof out->kind, "%s", topo_kind_name(t, a->kind));
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
		return -1;
	}
	return 0;
}

/* a and b are indexes into pus[], chosen so that their relation serves p's placement. */
static void set_pair(const struct topo *t, struct topo_pair *p, int a, int b)
{
	struct topo_relation rel;
	relate_pus(t, &t->pus[a], &t->pus[b], &rel);
	topo_pair_from_cpus(&rel, p->placement, p, p->reason, sizeof p->reason);
}

/* Why a PU of the topology may not be used here, by the first cause in this order (a cgroup's
 * cpuset also narrows the affinity mask, so the cgroup is blamed before it). */
enum pu_use { PU_USABLE, PU_ABSENT, PU_OFFLINE, PU_CGROUP, PU_MASKED, PU_USE_COUNT };

static enum pu_use pu_use(const struct topo *t, int os)
{
	hwloc_const_cpuset_t complete = hwloc_topology_get_complete_cpuset(t->hw);
	if (hwloc_bitmap_isset(t->usable, (unsigned)os))
		return PU_USABLE;
	if (!complete || !hwloc_bitmap_isset(complete, (unsigned)os))
		return PU_ABSENT;
	if (!hwloc_bitmap_isset(hwloc_topology_get_topology_cpuset(t->hw), (unsigned)os))
		return PU_OFFLINE;
	if (!hwloc_bitmap_isset(hwloc_topology_get_allowed_cpuset(t->hw), (unsigned)os))
		return PU_CGROUP;
	return PU_MASKED;
}

/* Why PUs of the topology cannot be used here, counted by cause, e.g. "2 PUs are outside this
 * process's affinity mask (taskset)". */
static void describe_unusable(const struct topo *t, char *buf, size_t len)
{
	static const char *const what[PU_USE_COUNT] = {
		[PU_OFFLINE] = "offline", [PU_CGROUP] = "outside the allowed cpuset (cgroup)",
		[PU_MASKED] = "outside this process's affinity mask (taskset)",
	};
	int count[PU_USE_COUNT] = { 0 };
	int os;
	hwloc_bitmap_foreach_begin(os, hwloc_topology_get_complete_cpuset(t->hw)) {
		count[pu_use(t, os)]++;
	} hwloc_bitmap_foreach_end();
	size_t used = 0;
	buf[0] = '\0';
	for (int c = PU_OFFLINE; c < PU_USE_COUNT && used < len; c++) {
		if (count[c] == 0)
			continue;
		int w = snprintf(buf + used, len - used, "%s%d PU%s %s %s", used ? "; " : "", count[c],
		                 count[c] == 1 ? "" : "s", count[c] == 1 ? "is" : "are", what[c]);
		used += w > 0 ? (size_t)w : 0;
	}
	if (!buf[0])
		snprintf(buf, len, "every core has one PU here");
}

/* What every placement's pair starts from: the anchor PU and its core's other one. */
struct anchor {
	int pus[2];    /* the anchor core's PUs (indexes into pus[]), in order */
	int npus;      /* how many of pus[] are set */
};

static void choose_alone(const struct topo *t, struct topo_pair *p, const struct anchor *a)
{
	set_pair(t, p, a->pus[0], a->pus[0]);
}

static void choose_sibling(const struct topo *t, struct topo_pair *sib, const struct anchor *a)
{
	const struct topo_info *info = &t->info;
	bool this_system = info->source == TOPO_THIS_SYSTEM;
	if (info->max_threads_per_core >= 2 && a->npus == 2) {
		set_pair(t, sib, a->pus[0], a->pus[1]);
	} else if (info->cores == 0) {
		set_unavailable(sib, "the topology has no Core level, so SMT siblings cannot be known");
	} else if (info->smt_cores_present) {
		char why[TOPO_ERR_LEN];
		describe_unusable(t, why, sizeof why);
		set_unavailable(sib, "no core has two usable PUs: %s", why);
	} else if (this_system && strcmp(info->smt, "off") == 0) {
		set_unavailable(sib, "SMT is turned off (SMT control: off), so every core has one "
		                "usable PU; as root, `echo on > /sys/devices/system/cpu/smt/control` "
		                "turns it back on (and without `nosmt` on the kernel command line it "
		                "stays on after a reboot)");
	} else if (this_system && strcmp(info->smt, "forceoff") == 0) {
		set_unavailable(sib, "SMT is turned off for good (SMT control: forceoff, from "
		                "`nosmt=force` on the kernel command line), so every core has one "
		                "usable PU; remove it from the kernel command line and reboot to turn "
		                "SMT back on");
	} else if (this_system) {
		set_unavailable(sib, "this machine has no SMT: every core has one usable PU "
		                "(SMT control: %s)", info->smt);
	} else {
		set_unavailable(sib, "this topology has no SMT: every core has one usable PU");
	}
}

/* non-sibling and cross-package: the anchor PU with the first PU of its best partner core (in
 * another package for cross-package), or why there is none. */
static void choose_apart(const struct topo *t, struct topo_pair *p, const struct anchor *a)
{
	const struct topo_info *info = &t->info;
	bool cross = p->placement == PLACEMENT_CROSS_PACKAGE;
	int unused[SCORE_LEN], packages = hwloc_get_nbobjs_by_type(t->hw, HWLOC_OBJ_PACKAGE);
	int partner_pu = best_partner(t, t->pus[a->pus[0]].core, a->pus[0], cross, unused);
	const char *kind = topo_kind_name(t, t->pus[a->pus[0]].kind);
	if (partner_pu >= 0)
		set_pair(t, p, a->pus[0], partner_pu);
	else if (!cross && info->cores == 0)
		set_unavailable(p, "the topology has no Core level and no two usable PUs are known "
		                "to be on different cores");
	else if (!cross && info->cores == 1)
		set_unavailable(p, "only one usable core");
	else if (!cross)
		set_unavailable(p, "no other usable core with a PU of the same CPU kind (%s)", kind);
	else if (hwloc_get_type_depth(t->hw, HWLOC_OBJ_PACKAGE) == HWLOC_TYPE_DEPTH_UNKNOWN)
		set_unavailable(p, "the topology has no Package level");
	else if (info->packages <= 1 && packages > 1)
		set_unavailable(p, "only one package has usable PUs (%d packages present)", packages);
	else if (info->packages <= 1)
		set_unavailable(p, "only one package");
	else
		set_unavailable(p, "no usable core of the same CPU kind (%s) in another package", kind);
}

/* Each placement's pair-choice function: a row in placements.h needs one here. */
static void (*const choose_pair[PLACEMENT_COUNT])(const struct topo *, struct topo_pair *,
                                                  const struct anchor *) = {
	[PLACEMENT_SOLO] = choose_alone,
	[PLACEMENT_SAME_PU] = choose_alone,
	[PLACEMENT_SIBLING] = choose_sibling,
	[PLACEMENT_NON_SIBLING] = choose_apart,
	[PLACEMENT_CROSS_PACKAGE] = choose_apart,
};

/* What every pair starts from, from the model: t has a usable PU. */
static void find_anchor(const struct topo *t, struct anchor *a)
{
	/* The anchor PU first, then its sibling: one of its own kind where the core has one. */
	*a = (struct anchor){ .pus = { choose_anchor(t, t->info.max_threads_per_core >= 2) },
	                      .npus = 1 };
	const struct topo_core *core = &t->cores[t->pus[a->pus[0]].core];
	for (int pass = 0; pass < 2 && a->npus < 2; pass++)
		for (int i = core->first; i < core->first + core->count && a->npus < 2; i++)
			if (i != a->pus[0] && (pass == 1 || t->pus[i].kind == t->pus[a->pus[0]].kind))
				a->pus[a->npus++] = i;
}

int topo_choose(const struct topo *t, enum placement p, struct topo_pair *out)
{
	memset(out, 0, sizeof *out);
	out->placement = p;
	out->core = -1;
	if ((int)p < 0 || p >= PLACEMENT_COUNT)
		set_unavailable(out, "unknown placement %d", (int)p);
	else if (t->npus == 0)
		set_unavailable(out, "no usable PU");
	else if (!choose_pair[p])
		set_unavailable(out, "no pair-choice function for %s (a bug)", placement_name(p));
	else {
		struct anchor a;
		find_anchor(t, &a);
		choose_pair[p](t, out, &a);
	}
	return out->available ? 0 : -1;
}

/* The PU with this OS index if this process may use it; otherwise NULL and a reason. */
static const struct topo_pu *usable_pu(const struct topo *t, int os, char *err, size_t err_size)
{
	static const char *const why[PU_USE_COUNT] = {
		[PU_ABSENT] = "does not exist in this topology", [PU_OFFLINE] = "is offline",
		[PU_CGROUP] = "may not be used here: it is outside the allowed cpuset (cgroup)",
		[PU_MASKED] = "may not be used here: it is outside this process's affinity mask",
	};
	for (int i = 0; i < t->npus; i++)
		if (t->pus[i].os == os)
			return &t->pus[i];
	cpu_set_t set; /* listed as every CPU list is (common/text.h) */
	hwloc_cpuset_to_glibc_sched_affinity(t->hw, t->usable, &set, sizeof set);
	char *list = text_cpu_list(&set, true);
	enum pu_use use = pu_use(t, os);
	set_error(err, err_size, "CPU %d %s (usable CPUs: %s)", os,
	          why[use == PU_USABLE ? PU_MASKED : use], *list ? list : "none");
	free(list);
	return NULL;
}

int topo_relate(const struct topo *t, const int pus[2], struct topo_relation *out,
                char *err, size_t err_size)
{
	const struct topo_pu *a = usable_pu(t, pus[0], err, err_size);
	const struct topo_pu *b = a ? usable_pu(t, pus[1], err, err_size) : NULL;
	if (!b)
		return -1;
	if (relate_pus(t, a, b, out) == 0)
		return 0;
	set_error(err, err_size, "cannot tell whether CPUs %d and %d share a core: the topology "
	          "has no Core level", pus[0], pus[1]);
	return -1;
}

bool topo_relation_serves(enum placement relation, enum placement placement)
{
	return relation == placement
	       || (placement == PLACEMENT_NON_SIBLING && relation == PLACEMENT_CROSS_PACKAGE);
}

int topo_pair_cpus(const struct topo_pair *pair, int cpus[2])
{
	int n = 0;
	for (int i = 0; i < pair->npus && i < 2; i++)
		if (n == 0 || cpus[0] != pair->pus[i])
			cpus[n++] = pair->pus[i];
	return n;
}

int topo_pair_from_cpus(const struct topo_relation *rel, enum placement p, struct topo_pair *out,
                        char *err, size_t err_size)
{
	memset(out, 0, sizeof *out);
	out->placement = p;
	out->available = true;
	out->npus = placement_nprocs(p);
	out->core = -1;
	snprintf(out->kind, sizeof out->kind, "%s", rel->kind); /* the first CPU's, as the pair's */
	if (p == PLACEMENT_SOLO || p == PLACEMENT_SAME_PU) {
		out->pus[0] = out->pus[1] = rel->pus[0];
		snprintf(out->shares, sizeof out->shares, "%s", p == PLACEMENT_SAME_PU ? "PU" : "");
		return 0;
	}
	if (!topo_relation_serves(rel->relation, p)) {
		set_error(err, err_size, "--pair %d,%d is a %s pair (sharing %s), not %s; drop %s "
		          "from --placements or choose another pair (`smtbench topo` shows one)",
		          rel->pus[0], rel->pus[1], placement_name(rel->relation), rel->shares,
		          placement_name(p), placement_name(p));
		out->available = false;
		return -1;
	}
	out->pus[0] = rel->pus[0];
	out->pus[1] = rel->pus[1];
	out->core = rel->core;
	out->mixed_kinds = rel->mixed_kinds;
	snprintf(out->shares, sizeof out->shares, "%s", rel->shares);
	return 0;
}
