# smtbench — GNU Make build.
#
#   make                 build build/smtbench and the kernels under build/kernels/
#   make test            build and run every test: those that do not measure time at once (J of
#                        them; default: the CPUs + 1), then those that do, alone; the wall time
#                        and the ten slowest, then the last line "N passed, N failed, N skipped".
#                        With QEMU and busybox installed the lab runs, its kernel fetched first
#                        (LAB=0 leaves it out, its checks counted as skipped); T=NAME filters;
#                        TIMED=0 leaves out those that measure time (counted as skipped)
#   make test SANITIZE=1 the same, built with ASan+UBSan under build/sanitize/
#   make run             run the default experiment on this machine (calibrated, to ±1% or 45 s)
#   make bench           time the analysis for growing sample counts and grids, the runner's
#                        overhead beside hyperfine -N, and the experiment itself (minutes;
#                        BENCH_QUICK=1 leaves out the two experiment runs)
#   make fuzz            build the libFuzzer harnesses into $(BUILD)/fuzz/ (clang; see tests/fuzz/README.md)
#   make lab             boot real SMT kernels in QEMU and check the known truths (tests/lab/)
#   make lab-kernel      fetch the lab's guest kernel into build/lab-kernel/ (apt-get download)
#   make dist            the source tarball build/smtbench-VERSION.tar.gz (the files git tracks)
#   make deb             the Debian package, built from that tarball: build/deb/smtbench_VERSION_*.deb
#   make version         print the version (VERSION below: the one place it is written)
#   make man             write the man page's generated parts (SYNOPSIS, each command's
#                        options, EXAMPLES) into cli/smtbench.1 from the option tables
#   make install         install under $(DESTDIR)$(PREFIX): bin/, libexec/smtbench/, share/man/man1/,
#                        share/smtbench/slurm/ (contrib/slurm's job scripts and submit.sh), and
#                        the bash, zsh and fish completions (`smtbench completions SHELL`)
#   make V=1             show full command lines
#
# Every setting below is ?= so that the command line or the environment can override it.

CC       ?= cc
NASM     ?= nasm
PKG_CONFIG ?= pkg-config
PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
LIBEXECDIR ?= $(PREFIX)/libexec/smtbench
MANDIR   ?= $(PREFIX)/share/man
SHAREDIR ?= $(PREFIX)/share/smtbench
SLURMDIR ?= $(SHAREDIR)/slurm
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
DESTDIR  ?=
CFLAGS   ?= -O2 -g
CPPFLAGS ?=
LDFLAGS  ?=
SANITIZE ?= 0
BENCH_QUICK ?= 0

ifeq ($(SANITIZE),1)
BUILD    ?= build/sanitize
SAN_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
BUILD    ?= build
SAN_FLAGS =
endif

# The version, in this one place: `smtbench -V`, meta.json's "version" and the tarball's name
# come from it; debian/changelog's top entry must say the same (debian/rules refuses to build a
# package otherwise, and test_package checks it): a release changes this line and adds that entry.
VERSION := 0.1.0

ifeq ($(V),1)
Q :=
else
Q := @
endif

# Goals that build nothing need none of the build's tools: clean, version and dist run anywhere.
NO_BUILD_GOALS := clean version dist
BUILDING := $(if $(MAKECMDGOALS),$(filter-out $(NO_BUILD_GOALS),$(MAKECMDGOALS)),all)

# One line that says exactly what to install, instead of a cascade of compiler errors.
# `make clean` must work on a machine without any of it.
ifneq ($(BUILDING),)
HAVE_PKG_CONFIG := $(shell command -v $(PKG_CONFIG) 2>/dev/null)
# $(call lib_missing,MODULE VERSION,PACKAGE,HEADER): PACKAGE when the library is not there; without
# pkg-config, judged by its header alone, so that only what is really missing is named.
lib_missing = $(if $(HAVE_PKG_CONFIG),$(if $(shell $(PKG_CONFIG) --exists '$(1)' 2>/dev/null \
              && echo y),,$(2)),$(if $(wildcard /usr/include/$(3)),,$(2)))
MISSING := $(strip \
  $(if $(shell command -v $(NASM) 2>/dev/null),,nasm) \
  $(if $(HAVE_PKG_CONFIG),,pkg-config) \
  $(call lib_missing,hwloc >= 2.0,libhwloc-dev,hwloc.h) \
  $(call lib_missing,jansson >= 2.10,libjansson-dev,jansson.h) \
  $(call lib_missing,gsl >= 2.0,libgsl-dev,gsl/gsl_cdf.h) \
  $(call lib_missing,nettle >= 3.4,nettle-dev,nettle/sha2.h))
ifneq ($(MISSING),)
$(error missing build dependencies; on Debian or Ubuntu run: apt-get install $(MISSING))
endif
DEP_CFLAGS := $(shell $(PKG_CONFIG) --cflags hwloc jansson gsl nettle)
DEP_LIBS   := $(shell $(PKG_CONFIG) --libs hwloc jansson gsl nettle)
endif

ALL_CFLAGS  = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
              -I. $(DEP_CFLAGS) -DSMTBENCH_VERSION='"$(VERSION)"' \
              $(SAN_FLAGS) $(CPPFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(SAN_FLAGS) $(LDFLAGS)
LIBS        = $(DEP_LIBS) -lm -pthread

# Layers (docs/DESIGN.md): one folder each, built as one static library each. Includes go one way,
# common <- topology <- runner <- cli and common <- analysis <- report <- fleet <- cli
# (tests/e2e/test_layers.sh checks every #include against this). LINK_ORDER lists them users
# first, as the linker wants archives; cli/main.c holds main() and is left out of cli's library,
# so that a test or a bench links the libraries and takes only the objects it uses.
LAYERS      := common topology runner analysis report fleet cli
LINK_ORDER  := cli fleet report analysis runner topology common
MAIN_SRC    := cli/main.c
MAIN_OBJ    := $(MAIN_SRC:%.c=$(BUILD)/obj/%.o)
layer_srcs   = $(filter-out $(MAIN_SRC),$(sort $(wildcard $(1)/*.c)))
layer_objs   = $(patsubst %.c,$(BUILD)/obj/%.o,$(call layer_srcs,$(1)))
LIB_SRCS    := $(foreach l,$(LAYERS),$(call layer_srcs,$(l)))
LIB_OBJS    := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
LAYER_LIBS  := $(foreach l,$(LINK_ORDER),$(BUILD)/lib/libsmtbench-$(l).a)

KERNEL_SRCS := $(filter-out asm/%.inc,$(sort $(wildcard asm/*.asm)))
KERNELS     := $(KERNEL_SRCS:asm/%.asm=$(BUILD)/kernels/%)

TEST_SRCS   := $(sort $(wildcard tests/unit/test_*.c))
TEST_BINS   := $(TEST_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
BENCH_SRCS  := $(sort $(wildcard tests/bench/bench_*.c))
BENCH_BINS  := $(BENCH_SRCS:tests/bench/%.c=$(BUILD)/tests/%)

PROGRAM     := $(BUILD)/smtbench

# The lab (tests/lab): the guest's initramfs is made from what `make` built, whenever busybox is
# there to make it; without it (or QEMU, or the kernel) the lab's scenarios say SKIP and why.
LAB_INITRAMFS := $(BUILD)/lab/initramfs.cpio.gz
LAB_SRCS      := tests/lab/init tests/lab/mkinitramfs.sh $(wildcard tests/lab/guest/*.sh)
LAB_KERNEL_DIR := build/lab-kernel
ifneq ($(BUILDING),)
LAB_IMAGE     := $(if $(shell command -v busybox 2>/dev/null),$(LAB_INITRAMFS))
endif

.PHONY: all test run bench fuzz lab lab-kernel man install uninstall clean version dist deb
.DELETE_ON_ERROR:
# Keep the kernels' intermediate objects, so that a second make rebuilds nothing.
.SECONDARY:

all: $(PROGRAM) $(KERNELS)

$(PROGRAM): $(MAIN_OBJ) $(LAYER_LIBS)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $(MAIN_OBJ) $(LAYER_LIBS) $(LIBS)

# One archive per layer, from its folder's objects.
.SECONDEXPANSION:
$(BUILD)/lib/libsmtbench-%.a: $$(call layer_objs,$$*)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && $(AR) rcs $@ $^

# Where an installed smtbench finds its kernels is compiled in. The stamp holds that path and is
# rewritten only when it changes, so `make install PREFIX=/opt/x` rebuilds what depends on it.
# The flags stamp does the same for everything a C object depends on besides its sources: the
# compiler, the flags (CFLAGS, SANITIZE, the libraries' -I) and the version. Both are written
# when make reads this file, but never for `make clean`, which must run nothing.
LIBEXEC_STAMP := $(BUILD)/libexecdir.stamp
FLAGS_STAMP   := $(BUILD)/cflags.stamp
# $(call write_if_changed,FILE,TEXT): FILE holds TEXT afterwards, rewritten only when it differed.
quote = '$(subst ','\'',$(1))'
write_if_changed = $(shell mkdir -p $(dir $(1)) && [ "$$(cat $(1) 2>/dev/null)" = $(call quote,$(2)) ] \
                   || printf '%s' $(call quote,$(2)) > $(1))
ifneq ($(BUILDING),)
$(call write_if_changed,$(LIBEXEC_STAMP),$(LIBEXECDIR))
$(call write_if_changed,$(FLAGS_STAMP),$(CC) $(ALL_CFLAGS) | $(ALL_LDFLAGS) $(LIBS))
endif
$(BUILD)/obj/runner/kernels.o: $(LIBEXEC_STAMP)
$(BUILD)/obj/runner/kernels.o: ALL_CFLAGS += -DSMTBENCH_LIBEXECDIR='"$(LIBEXECDIR)"'

$(BUILD)/obj/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# Kernels are static, libc-free executables: nasm → ELF64 object → ld with no start files.
# Every kernel also depends on the shared include(s) by name: NASM 2.16.01's -MD leaves included
# files out of the dependency file (fixed in 2.16.02).
$(BUILD)/kernels/%.o: asm/%.asm $(wildcard asm/*.inc)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  NASM    $<")
	$(Q)$(NASM) -f elf64 -I asm/ -MD $(@:.o=.d) -MP -o $@ $<

# -static alone links a non-PIE executable (only -static-pie makes a PIE); an added -no-pie
# would just draw clang's "unused argument" warning.
$(BUILD)/kernels/%: $(BUILD)/kernels/%.o
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -nostdlib -static -Wl,--build-id=none -Wl,-z,noexecstack -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(LAYER_LIBS) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -o $@ $< $(LAYER_LIBS) $(ALL_LDFLAGS) $(LIBS)

$(BUILD)/tests/bench_%: tests/bench/bench_%.c $(LAYER_LIBS) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -o $@ $< $(LAYER_LIBS) $(ALL_LDFLAGS) $(LIBS)

# `make test J=N` runs N tests at once (tests/run.sh: default the CPUs + 1); LAB=0 leaves the lab
# out. Where QEMU and busybox are installed the lab runs: its kernel is fetched first if missing,
# or make test stops with the command to run (tests/lab/ensure-kernel.sh).
# TIMED=0 leaves out the tests that measure time (a package build does: a build machine is busy),
# each counted as one skip with its reason.
J     ?=
LAB   ?= 1
TIMED ?= 1
test: all $(TEST_BINS) $(LAB_IMAGE)
	$(Q)SMTBENCH_LAB=$(LAB) tests/lab/ensure-kernel.sh $(LAB_KERNEL_DIR) '$(T)'
	$(Q)SMTBENCH_SANITIZE=$(SANITIZE) SMTBENCH_LAB=$(LAB) SMTBENCH_TEST_TIMED=$(TIMED) \
	  $(if $(J),SMTBENCH_TEST_JOBS=$(J)) tests/run.sh $(BUILD) $(T)

$(LAB_INITRAMFS): $(PROGRAM) $(KERNELS) $(LAB_SRCS)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CPIO    $@")
	$(Q)tests/lab/mkinitramfs.sh $(BUILD) $@

lab: all $(LAB_INITRAMFS)
	$(Q)ls $(LAB_KERNEL_DIR)/boot/vmlinuz-* >/dev/null 2>&1 || tests/lab/fetch-kernel.sh $(LAB_KERNEL_DIR)
	$(Q)python3 tests/lab/lab.py --build $(BUILD) --table

lab-kernel:
	$(Q)tests/lab/fetch-kernel.sh $(LAB_KERNEL_DIR)

# The page's generated parts come from the tables of the program just built; tests/e2e/test_man.sh
# fails while the page and the tables disagree.
man: $(PROGRAM)
	$(Q)$(PROGRAM) --refresh-man-page <cli/smtbench.1 >$(BUILD)/smtbench.1.new
	$(Q)mv $(BUILD)/smtbench.1.new cli/smtbench.1

# Calibrated trials (about 0.25 s each) and a precision target, capped by a time budget, so that
# it ends in about a minute on any machine: the README says what it measured.
run: all
	$(Q)$(PROGRAM) run --placements sibling,non-sibling,same-pu,solo --precision 1 --duration 45s \
	  --warmup-blocks 2

bench: all $(BENCH_BINS)
	$(Q)for b in $(BENCH_BINS); do SMTBENCH_KERNEL_DIR=$(abspath $(BUILD))/kernels SMTBENCH_BUILD=$(abspath $(BUILD)) $$b || exit 1; done
	$(Q)BENCH_QUICK=$(BENCH_QUICK) tests/bench/bench_experiment.sh $(BUILD)
	$(Q)BENCH_QUICK=$(BENCH_QUICK) tests/bench/bench_report_scale.sh $(BUILD)

# Fuzz harnesses (not part of `make test`): each is built from the sources in one clang command,
# all of it instrumented for libFuzzer with ASan+UBSan.
FUZZ_CC     ?= clang
FUZZ_SRCS   := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS   := $(FUZZ_SRCS:tests/fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_FLAGS  := -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -g -O1

fuzz: $(FUZZ_BINS)

$(BUILD)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz_common.h $(LIB_SRCS) $(wildcard */*.h)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  FUZZ    $@")
	$(Q)$(FUZZ_CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wstrict-prototypes \
	  -Wmissing-prototypes -I. $(DEP_CFLAGS) \
	  -DSMTBENCH_VERSION='"$(VERSION)"' $(FUZZ_FLAGS) -o $@ $< $(LIB_SRCS) $(LIBS)

# The SLURM job scripts are given to sbatch, never run themselves (0644), and sbatch runs a copy
# from the node's spool folder, so a script cannot look for smtbench beside itself: the installed
# copies default to the smtbench installed with them ($(BINDIR), never the DESTDIR stage) instead
# of the one in PATH. submit.sh is run (0755) and finds the job scripts beside itself.
SLURM_JOBS := $(notdir $(wildcard contrib/slurm/*.sbatch))

# The shell completions are generated from the command table by the program just built.
COMPLETIONS := $(BUILD)/completions/smtbench.bash $(BUILD)/completions/_smtbench \
               $(BUILD)/completions/smtbench.fish
$(BUILD)/completions/smtbench.bash: $(PROGRAM)
	@mkdir -p $(@D)
	$(Q)$(PROGRAM) completions bash >$@
$(BUILD)/completions/_smtbench: $(PROGRAM)
	@mkdir -p $(@D)
	$(Q)$(PROGRAM) completions zsh >$@
$(BUILD)/completions/smtbench.fish: $(PROGRAM)
	@mkdir -p $(@D)
	$(Q)$(PROGRAM) completions fish >$@

install: all $(COMPLETIONS)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(MANDIR)/man1 \
	  $(DESTDIR)$(SLURMDIR) $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	install -m 755 $(PROGRAM) $(DESTDIR)$(BINDIR)/smtbench
	install -m 755 $(KERNELS) $(DESTDIR)$(LIBEXECDIR)/
	install -m 644 cli/smtbench.1 $(DESTDIR)$(MANDIR)/man1/smtbench.1
	@mkdir -p $(BUILD)/slurm
	for job in $(SLURM_JOBS); do \
	  sed -e 's|$${SMTBENCH:-smtbench}|$${SMTBENCH:-$(BINDIR)/smtbench}|' \
	      -e 's|(default: smtbench in PATH)|(default: $(BINDIR)/smtbench, where it was installed)|' \
	      contrib/slurm/$$job >$(BUILD)/slurm/$$job || exit 1; \
	done
	install -m 644 $(addprefix $(BUILD)/slurm/,$(SLURM_JOBS)) $(DESTDIR)$(SLURMDIR)/
	install -m 755 contrib/slurm/submit.sh $(DESTDIR)$(SLURMDIR)/submit.sh
	install -m 644 $(BUILD)/completions/smtbench.bash $(DESTDIR)$(BASHCOMPDIR)/smtbench
	install -m 644 $(BUILD)/completions/_smtbench $(DESTDIR)$(ZSHCOMPDIR)/_smtbench
	install -m 644 $(BUILD)/completions/smtbench.fish $(DESTDIR)$(FISHCOMPDIR)/smtbench.fish

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/smtbench $(DESTDIR)$(MANDIR)/man1/smtbench.1
	rm -rf $(DESTDIR)$(LIBEXECDIR)
	rm -f $(addprefix $(DESTDIR)$(SLURMDIR)/,$(SLURM_JOBS) submit.sh)
	rmdir $(DESTDIR)$(SLURMDIR) $(DESTDIR)$(SHAREDIR) 2>/dev/null || true
	rm -f $(DESTDIR)$(BASHCOMPDIR)/smtbench $(DESTDIR)$(ZSHCOMPDIR)/_smtbench \
	  $(DESTDIR)$(FISHCOMPDIR)/smtbench.fish
	-rmdir $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR) 2>/dev/null

clean:
	rm -rf build $(filter-out build build/%,$(BUILD))

version:
	@echo $(VERSION)

# The source tarball: the files git tracks, as they are in the work tree (a change not committed
# yet is in it, and said), under smtbench-VERSION/, owned by root, dated by the last commit, in a
# fixed order: the same tree gives the same bytes. debian/ is in it: it is the package's source.
DIST_NAME := smtbench-$(VERSION)
DISTDIR   ?= build
dist:
	@git rev-parse --is-inside-work-tree >/dev/null 2>&1 || \
	  { echo "make dist: it packs the files git tracks; run it in a git checkout" >&2; exit 1; }
	@git diff --quiet HEAD -- 2>/dev/null || \
	  echo "make dist: the work tree has changes not committed; the tarball has them"
	@mkdir -p $(DISTDIR)
	$(Q)set -e; list=$$(mktemp); trap 'rm -f "$$list"' EXIT; \
	git ls-files -z | xargs -0 -r sh -c 'for f do [ ! -e "$$f" ] || printf "%s\0" "$$f"; done' sh >"$$list"; \
	tar --null -T "$$list" --transform 's,^,$(DIST_NAME)/,S' --sort=name --owner=0 --group=0 \
	  --numeric-owner --mtime=@$$(git log -1 --format=%ct 2>/dev/null || echo 0) -cf - | \
	  gzip -n -9 >$(DISTDIR)/$(DIST_NAME).tar.gz.tmp; \
	mv $(DISTDIR)/$(DIST_NAME).tar.gz.tmp $(DISTDIR)/$(DIST_NAME).tar.gz
	@echo "$(DISTDIR)/$(DIST_NAME).tar.gz"

# The Debian package, built as a user would from the tarball (so it also shows that the tarball
# builds), unsigned, binary only; the .deb, .changes and .buildinfo are left in build/deb/.
deb: dist
	rm -rf build/deb && mkdir -p build/deb
	tar -xzf $(DISTDIR)/$(DIST_NAME).tar.gz -C build/deb
	cd build/deb/$(DIST_NAME) && dpkg-buildpackage -us -uc -b
	@ls build/deb/*.deb

# Dependency files of exactly the objects, tests and kernels this Makefile builds (never a stale
# one left behind by a removed source).
DEP_FILES := $(LIB_OBJS:.o=.d) $(MAIN_OBJ:.o=.d) $(TEST_BINS:=.d) $(BENCH_BINS:=.d) \
             $(KERNELS:=.d)
-include $(DEP_FILES)
