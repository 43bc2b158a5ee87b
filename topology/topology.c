/*
 * topology.c — load a topology with hwloc, keep only the PUs this process may use, and read the
 * facts about it that reports show: counts, CPU kinds, SMT state, virtual machine, CPU model.
 * The model it builds (internal.h) is handed to pairs.c, which chooses the pairs.
 */
#include "topology/internal.h"

#include "common/alloc.h"
#include "common/fileio.h"
#include "common/text.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hwloc.h>
#include <hwloc/linux.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define HAVE_X86_CPUID 1
#endif

const char *topo_hwloc_version(void)
{
	return HWLOC_VERSION;
}

/* ---------------------------------------------------------------------------------------- */
/* Small readers for this system.                                                             */

static void copy_trimmed(char *dst, size_t len, const char *src)
{
	while (isspace((unsigned char)*src))
		src++;
	snprintf(dst, len, "%s", src);
	size_t n = strlen(dst);
	while (n > 0 && isspace((unsigned char)dst[n - 1]))
		dst[--n] = '\0';
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

/* Whether text carries a marker; if so, names the hypervisor in name unless it names one
 * already (the first source to name it wins). */
static bool match_vm_marker(const char *text, char name[TOPO_NAME_LEN])
{
	for (size_t i = 0; text && i < sizeof vm_markers / sizeof vm_markers[0]; i++) {
		if (strcasestr(text, vm_markers[i].marker)) {
			if (!name[0])
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
	char sig[13] = "";
	memcpy(sig, (unsigned[3]){ b, c, d }, 12);
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
	char flags[1 << 16], *save = NULL;
	topo_read_cpuinfo("flags", flags, sizeof flags);
	for (char *word = strtok_r(flags, " \t", &save); word; word = strtok_r(NULL, " \t", &save))
		if (!strcmp(word, "hypervisor"))
			return true;
	return false;
}

static void detect_vm_this_system(struct topo_info *info)
{
	char name[TOPO_NAME_LEN] = "";
	char text[256];
	bool vm = false;
#ifdef HAVE_X86_CPUID
	vm = cpuid_hypervisor(name);
#endif
	vm |= cpuinfo_has_hypervisor_flag();
	if (fileio_read_first_line("/sys/hypervisor/type", text, sizeof text) == 0) {
		vm = true;
		if (!name[0] && !strcmp(text, "xen"))
			snprintf(name, sizeof name, "Xen");
	}
	static const char *const dmi_files[] = {
		"/sys/class/dmi/id/sys_vendor", "/sys/class/dmi/id/product_name",
	};
	for (size_t i = 0; i < sizeof dmi_files / sizeof dmi_files[0]; i++)
		vm |= fileio_read_first_line(dmi_files[i], text, sizeof text) == 0 &&
		      match_vm_marker(text, name);
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
	for (hwloc_obj_t obj = root; obj;
	     obj = hwloc_get_next_obj_by_type(hw, HWLOC_OBJ_PACKAGE, obj == root ? NULL : obj))
		for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
			info->virtual_machine |= match_vm_marker(hwloc_obj_get_info_by_name(obj, keys[k]),
			                                         info->hypervisor);
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

/* An XML topology file whole, refused when larger than this: a real machine's export is tens of
 * kilobytes (a few MB for the largest), so a bigger file is not one. */
#define TOPO_XML_MAX_BYTES ((size_t)64 << 20)
/* What the parser in the trial child may use before it is stopped. */
#define TOPO_XML_CPU_LIMIT_S 30

/* The file at path into a new NUL-terminated buffer (*len without the NUL): a regular file,
 * or a pipe (`--topology <(lstopo --of xml)`); a FIFO with no writer reads as empty instead of
 * blocking the open, and a device is refused (fileio.h). -1 with err. */
static int read_xml_file(const char *path, char **out, size_t *len, char *err, size_t err_size)
{
	char why[ERR_LEN];
	int fd = fileio_open_readable(path, why, sizeof why);
	*out = fd < 0 ? NULL : fileio_read_fd(fd, path, TOPO_XML_MAX_BYTES, len, why, sizeof why);
	if (!*out)
		set_error(err, err_size, "cannot read topology file: %s", why);
	else if (*len == 0)
		set_error(err, err_size, "topology file '%s' is empty", path);
	return *out && *len ? 0 : -1;
}

/* The XML format of an hwloc export, from its <topology version="MAJOR.MINOR"> tag. False when
 * the tag or its version is missing (hwloc 1.x wrote none). */
static bool xml_format_version(const char *xml, unsigned *major, unsigned *minor)
{
	const char *tag = strstr(xml, "<topology");
	const char *end = tag ? strchr(tag, '>') : NULL;
	const char *v = tag ? strstr(tag, " version=") : NULL;
	if (!v || !end || v > end || (v[9] != '"' && v[9] != '\''))
		return false;
	return sscanf(v + 10, "%u.%u", major, minor) == 2;
}

/* The hwloc release that wrote an export (its root's hwlocVersion info, e.g. "3.0.0") into out,
 * version characters only; "" when the file does not say. */
static void xml_writer_version(const char *xml, char out[32])
{
	static const char attr[] = "name=\"hwlocVersion\" value=\"";
	const char *v = strstr(xml, attr);
	if (!v || sscanf(v + sizeof attr - 1, "%31[0-9A-Za-z.+_~-]", out) != 1)
		out[0] = '\0';
}

/*
 * Why hwloc refused an XML file, in err. hwloc reads the XML formats of its own major release
 * and older ones; hwloc 3 writes format 3.0 by default, which hwloc 2 refuses though the file
 * may be perfectly good. Such a file is named for what it is, with the way to write one this
 * build reads (hwloc 3's lstopo exports format 2 with --export-xml-flags v2, i.e. the
 * HWLOC_TOPOLOGY_EXPORT_XML_FLAG_V2 of its export.h); anything else is not an hwloc topology.
 */
static void xml_refused(const char *path, const char *xml, char *err, size_t err_size)
{
	unsigned major = 0, minor = 0;
	unsigned reads = hwloc_get_api_version() >> 16;
	if (!xml_format_version(xml, &major, &minor) || major <= reads) {
		set_error(err, err_size, "'%s' is not a valid hwloc XML topology file (make one with: "
		          "lstopo-no-graphics --of xml FILE.xml)", path);
		return;
	}
	char writer[32], by[64];
	xml_writer_version(xml, writer);
	if (writer[0] && strtoul(writer, NULL, 10) >= major) /* else the file contradicts itself */
		snprintf(by, sizeof by, "hwloc %s", writer);
	else
		snprintf(by, sizeof by, "hwloc %u or newer", major);
	char how[160];
	if (reads == 2)
		snprintf(how, sizeof how, "lstopo-no-graphics --of xml --export-xml-flags v2 FILE.xml");
	else
		snprintf(how, sizeof how, "lstopo-no-graphics --of xml FILE.xml, in a format hwloc %u "
		         "reads (see its --export-xml-flags)", reads);
	set_error(err, err_size, "'%s' was written by %s (XML format %u.%u); this smtbench uses "
	          "hwloc %s, which reads format %u and older: on the machine that wrote it, export "
	          "it with: %s", path, by, major, minor, topo_hwloc_version(), reads, how);
}

/* In the trial child: hwloc loads the buffer into hw, topo_load's topology set up but not loaded
 * (the parent's is untouched). Exit 0 when it loads, 3 when hwloc refuses it; a crash shows as
 * a signal (or a sanitizer's exit status). */
_Noreturn static void try_xml_child(hwloc_topology_t hw, const char *xml, size_t len)
{
	int null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null_fd >= 0)
		dup2(null_fd, STDERR_FILENO); /* hwloc's complaints: the parent words the error */
	struct rlimit cpu = { TOPO_XML_CPU_LIMIT_S, TOPO_XML_CPU_LIMIT_S };
	setrlimit(RLIMIT_CPU, &cpu);
	if (hwloc_topology_set_xmlbuffer(hw, xml, (int)len + 1) < 0 || hwloc_topology_load(hw) < 0)
		_exit(3);
	_exit(0);
}

/*
 * hwloc's XML readers crash on some malformed files (2.9's libxml backend on a DOCTYPE alone,
 * the plain backend on an unterminated <topology>): the file is first loaded in a child
 * process, where a crash cannot take the tool down. 0 when it loaded there; -1 with err.
 */
static int try_xml_apart(hwloc_topology_t hw, const char *path, const char *xml, size_t len,
                         char *err, size_t err_size)
{
	pid_t pid = fork();
	if (pid < 0) {
		set_error(err, err_size, "cannot check topology file '%s': fork: %s", path,
		          strerror(errno));
		return -1;
	}
	if (pid == 0)
		try_xml_child(hw, xml, len);
	int status = 0;
	pid_t got;
	while ((got = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	if (got == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (got == pid && WIFEXITED(status) && WEXITSTATUS(status) == 3)
		xml_refused(path, xml, err, err_size);
	else if (got == pid && WIFSIGNALED(status))
		set_error(err, err_size, "'%s' is not a topology smtbench can read: hwloc's XML "
		          "parser crashed on it (signal SIG%s, in a separate process)", path,
		          sigabbrev_np(WTERMSIG(status)) ? sigabbrev_np(WTERMSIG(status)) : "?");
	else
		set_error(err, err_size, "'%s' is not a topology smtbench can read: hwloc's XML "
		          "parser failed on it (status %d, in a separate process)", path,
		          got == pid && WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return -1;
}

static void load_kinds(struct topo *t)
{
	int nk = hwloc_cpukinds_get_nr(t->hw, 0);
	t->nkinds_hw = nk > 0 ? nk : 0;
	t->kind_names = xcalloc((size_t)t->nkinds_hw, sizeof *t->kind_names);
	for (int i = 0; i < t->npus; i++) /* -1: in no kind */
		t->pus[i].kind = t->nkinds_hw ? hwloc_cpukinds_get_by_cpuset(t->hw, t->pus[i].obj->cpuset,
		                                                             0) : 0;
	for (int k = 0; k < t->nkinds_hw; k++) {
		unsigned ninfos = 0;
		struct hwloc_info_s *infos = NULL;
		if (hwloc_cpukinds_get_info(t->hw, (unsigned)k, NULL, NULL, &ninfos, &infos, 0) < 0)
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
	}
}

const char *topo_kind_name(const struct topo *t, int kind)
{
	if (kind < 0 || kind >= t->nkinds_hw)
		return "all";
	return t->kind_names[kind];
}

/* PUs by OS index, PU 0 last (it takes the system's interrupts and housekeeping). */
static int compare_pu_rank(const void *pa, const void *pb)
{
	const struct topo_pu *a = pa, *b = pb;
	unsigned ra = a->os == 0 ? UINT_MAX : (unsigned)a->os;
	unsigned rb = b->os == 0 ? UINT_MAX : (unsigned)b->os;
	return (ra > rb) - (ra < rb);
}

/* Fills pus[] and cores[] from the usable set. */
static void build_model(struct topo *t)
{
	int max = hwloc_bitmap_weight(t->usable);
	t->pus = xcalloc(max > 0 ? (size_t)max : 1, sizeof *t->pus);
	t->cores = xcalloc(max > 0 ? (size_t)max : 1, sizeof *t->cores);
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
	/* The order in which every choice of pairs tries a core's PUs. */
	for (int c = 0; c < t->ncores; c++)
		qsort(t->pus + t->cores[c].first, (size_t)t->cores[c].count, sizeof *t->pus,
		      compare_pu_rank);
	load_kinds(t);
}

#define TOPO_KIND_ANY (-3)

/* The usable PUs and cores of CPU kind `kind` (TOPO_KIND_ANY: of every kind) into out, PU by
 * PU: a core whose PUs are of several kinds counts its PUs in each. */
static void count_kind(const struct topo *t, int kind, struct topo_kind *out)
{
	for (int c = 0; c < t->ncores; c++) {
		const struct topo_core *core = &t->cores[c];
		int here = 0;
		for (int i = core->first; i < core->first + core->count; i++)
			here += kind == TOPO_KIND_ANY || t->pus[i].kind == kind;
		out->pus += here;
		if (here == 0 || core->pseudo)
			continue;
		out->cores++;
		if (here > out->max_threads_per_core)
			out->max_threads_per_core = here;
	}
}

/* Cores, packages, threads per core, and what is present but not usable here. */
static void count_shape(struct topo *t, struct topo_info *info)
{
	struct topo_kind all = { .cores = 0 };
	count_kind(t, TOPO_KIND_ANY, &all);
	info->pus = all.pus;
	info->cores = all.cores;
	info->max_threads_per_core = all.max_threads_per_core;
	for (hwloc_obj_t pack = hwloc_get_next_obj_by_type(t->hw, HWLOC_OBJ_PACKAGE, NULL); pack;
	     pack = hwloc_get_next_obj_by_type(t->hw, HWLOC_OBJ_PACKAGE, pack))
		info->packages += hwloc_bitmap_intersects(pack->cpuset, t->usable);

	hwloc_const_cpuset_t complete = hwloc_topology_get_complete_cpuset(t->hw);
	int present = complete ? hwloc_bitmap_weight(complete) : t->npus;
	info->disallowed_pus = present > t->npus ? present - t->npus : 0;
	for (hwloc_obj_t core = hwloc_get_next_obj_by_type(t->hw, HWLOC_OBJ_CORE, NULL); core;
	     core = hwloc_get_next_obj_by_type(t->hw, HWLOC_OBJ_CORE, core))
		if (hwloc_bitmap_weight(core->complete_cpuset ? core->complete_cpuset : core->cpuset) >= 2)
			info->smt_cores_present = true;
}

/* The SMT state and whether this is a virtual machine: from /sys and CPUID on this system, from
 * the topology's own shape and attributes for a loaded one. Then the CPU model, by the one rule
 * (common/cpu_model.c): /proc/cpuinfo's is read only for this system, as a loaded topology is
 * another machine's. */
static void read_smt_vm_model(struct topo *t, struct topo_info *info)
{
	if (info->source == TOPO_THIS_SYSTEM) {
		char control[TOPO_NAME_LEN];
		if (fileio_read_first_line(TOPO_SMT_CONTROL_PATH, control, sizeof control))
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
	copy_trimmed(info->cpu_model_hwloc, sizeof info->cpu_model_hwloc, model ? model : "");
	if (info->source == TOPO_THIS_SYSTEM)
		topo_read_cpuinfo("model name", info->cpu_model_proc, sizeof info->cpu_model_proc);
	cpu_model_choose(info->cpu_model_proc, info->cpu_model_hwloc, info->cpu_model,
	                 sizeof info->cpu_model);
}

/* CPU kinds, biggest first; a topology without kinds is one kind. */
static void count_kinds(struct topo *t, struct topo_info *info)
{
	/* Without hwloc kinds every PU is of kind 0, which topo_kind_name calls "all". */
	for (int k = t->nkinds_hw ? t->nkinds_hw - 1 : 0; k >= 0 && info->nkinds < TOPO_MAX_KINDS; k--) {
		struct topo_kind out = { .cores = 0 };
		snprintf(out.name, sizeof out.name, "%s", topo_kind_name(t, k));
		count_kind(t, k, &out);
		if (out.pus > 0)
			info->kinds[info->nkinds++] = out;
	}
	for (int c = 0; c < t->ncores; c++) {
		const struct topo_core *core = &t->cores[c];
		bool mixed = false;
		for (int i = core->first + 1; i < core->first + core->count; i++)
			mixed |= t->pus[i].kind != t->pus[core->first].kind;
		info->mixed_kind_cores += mixed && !core->pseudo;
	}
}

static void fill_info(struct topo *t)
{
	struct topo_info *info = &t->info;
	static const char *const source_names[] = {
		[TOPO_THIS_SYSTEM] = "this-system", [TOPO_SYNTHETIC] = "synthetic", [TOPO_XML] = "xml",
	};
	info->source_name = source_names[info->source];
	count_shape(t, info);
	read_smt_vm_model(t, info);
	count_kinds(t, info);
}

/* Points hwloc at the topology spec names (this system, an XML file or a synthetic string);
 * an XML file's content into *xml, which must outlive hwloc's load (the caller frees it). */
static int set_source(struct topo *t, const char *spec, char **xml, char *err, size_t err_size)
{
	if (!spec) {
		t->info.source = TOPO_THIS_SYSTEM;
		return 0;
	}
	if (!*spec) {
		set_error(err, err_size, "empty topology: give an XML file or an hwloc synthetic "
		          "description such as \"pack:2 core:4 pu:2\"");
		return -1;
	}
	if (!spec_is_file(spec)) {
		t->info.source = TOPO_SYNTHETIC;
		if (hwloc_topology_set_synthetic(t->hw, spec) == 0)
			return 0;
		set_error(err, err_size, "'%s' is neither an XML file nor a valid hwloc synthetic "
		          "topology (e.g. \"pack:2 core:4 pu:2\")", spec);
		return -1;
	}
	t->info.source = TOPO_XML;
	size_t len = 0;
	if (read_xml_file(spec, xml, &len, err, err_size) != 0
	    || try_xml_apart(t->hw, spec, *xml, len, err, err_size) != 0)
		return -1;
	if (hwloc_topology_set_xmlbuffer(t->hw, *xml, (int)len + 1) < 0) {
		xml_refused(spec, *xml, err, err_size);
		return -1;
	}
	return 0;
}

/* t->usable: PUs present, allowed, and (for this system) in this process's affinity mask.
 * -1 with err when the mask cannot be read. */
static int find_usable(struct topo *t, char *err, size_t err_size)
{
	t->usable = hwloc_bitmap_dup(hwloc_topology_get_topology_cpuset(t->hw));
	hwloc_bitmap_t affinity = hwloc_bitmap_alloc_full(); /* a loaded topology's: no limit */
	if (!t->usable || !affinity)
		text_errx(EXIT_FAILURE_RUNTIME, "out of memory (hwloc's bitmaps)");
	hwloc_bitmap_and(t->usable, t->usable, hwloc_topology_get_allowed_cpuset(t->hw));
	/* The calling thread's mask (sched_getaffinity(0), the one children inherit), read from the
	 * kernel even where hwloc was handed a topology file: hwloc_get_cpubind then answers
	 * with the whole machine. */
	int rc = t->info.source == TOPO_THIS_SYSTEM ? hwloc_linux_get_tid_cpubind(t->hw, 0, affinity)
	                                            : 0;
	if (rc < 0)
		set_error(err, err_size, "cannot read this process's CPU affinity "
		          "(sched_getaffinity): %s", strerror(errno));
	hwloc_bitmap_and(t->usable, t->usable, affinity);
	hwloc_bitmap_free(affinity);
	return rc < 0 ? -1 : 0;
}

struct topo *topo_load(const char *spec, char *err, size_t err_size)
{
	struct topo *t = xcalloc(1, sizeof *t);
	if (hwloc_topology_init(&t->hw) < 0) {
		set_error(err, err_size, "hwloc_topology_init failed: %s", strerror(errno));
		free(t);
		return NULL;
	}
	/* Keep disallowed PUs in the tree so that they can be counted and named in errors;
	 * usable ones are chosen below from the allowed set. */
	hwloc_topology_set_flags(t->hw, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
	hwloc_topology_set_io_types_filter(t->hw, HWLOC_TYPE_FILTER_KEEP_NONE);
	char *xml = NULL;
	int loaded = set_source(t, spec, &xml, err, err_size) == 0 ? hwloc_topology_load(t->hw) : -2;
	free(xml); /* hwloc keeps no reference to it once loaded */
	if (loaded == -1 && t->info.source == TOPO_XML)
		set_error(err, err_size, "'%s' is not a valid hwloc XML topology file", spec);
	else if (loaded == -1)
		set_error(err, err_size, "cannot load the %s topology: %s", spec ? "synthetic"
		          : "system's", strerror(errno));
	if (loaded < 0 || find_usable(t, err, err_size) != 0) {
		topo_free(&t);
		return NULL;
	}
	build_model(t);
	fill_info(t);
	return t;
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

int topo_export_xml(const struct topo *t, const char *dir, const char *name, char *err,
                    size_t err_size)
{
	char *xml = NULL, why[ERR_LEN] = "";
	int len = 0;
	if (hwloc_topology_export_xmlbuffer(t->hw, &xml, &len, 0) < 0 || len <= 0)
		snprintf(why, sizeof why, "hwloc cannot export it: %s", strerror(errno));
	/* Written atomically beside its final name (len counts hwloc's ending NUL). */
	else if (fileio_write_atomic(dir, name, xml, (size_t)len - 1, why, sizeof why) == 0)
		why[0] = '\0';
	if (xml)
		hwloc_free_xmlbuffer(t->hw, xml);
	if (why[0])
		set_error(err, err_size, "cannot write topology XML to %s/%s: %s", dir, name, why);
	return why[0] ? -1 : 0;
}
