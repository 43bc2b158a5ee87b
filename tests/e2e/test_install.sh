#!/usr/bin/env bash
# `make install` honours PREFIX and DESTDIR, and an installed smtbench finds its kernels under
# PREFIX/libexec/smtbench with no build tree beside it.
source "$(dirname "$0")/lib.sh"

prefix=$t_tmp/prefix
build=$t_tmp/build
# make's output goes to a log (not the check's own "ok" line, which must reach tests/run.sh).
logged_make() { make "$@" >>"$t_tmp/make.log" 2>&1; }
check "make install PREFIX=$prefix (a fresh build of its own)" \
	logged_make -s -C "$SMTBENCH_ROOT" -j2 BUILD="$build" PREFIX="$prefix" install
check "bin/smtbench is installed" test -x "$prefix/bin/smtbench"
for k in "$SMTBENCH_ROOT"/asm/*.asm; do
	name=$(basename "$k" .asm)
	check "kernel $name is installed under libexec/smtbench" test -x "$prefix/libexec/smtbench/$name"
done
check_status 0 "the installed program runs a trial with an installed kernel" \
	env -u SMTBENCH_KERNEL_DIR "$prefix/bin/smtbench" run --placements solo --trials 1 --warmup 0 \
	--iters 1000 --out "$t_tmp/run"
check "…and wrote its results" test -s "$t_tmp/run/samples.csv"
check "the man page is installed as share/man/man1/smtbench.1" test -s "$prefix/share/man/man1/smtbench.1"
if command -v man >/dev/null 2>&1; then
	check "man smtbench finds it (MANPATH=PREFIX/share/man)" \
		test "$(MANPATH=$prefix/share/man man -w smtbench 2>/dev/null)" = "$prefix/share/man/man1/smtbench.1"
else
	skip "man is not installed (apt-get install man-db): man smtbench not tried"
fi

outside_before=$(ls /usr/libexec/smtbench /usr/bin/smtbench 2>/dev/null)
check "make install DESTDIR=stage PREFIX=/usr stages everything under stage/usr" \
	logged_make -s -C "$SMTBENCH_ROOT" -j2 BUILD="$build" PREFIX=/usr DESTDIR="$t_tmp/stage" install
check "staged bin/smtbench" test -x "$t_tmp/stage/usr/bin/smtbench"
check "staged kernels" test -x "$t_tmp/stage/usr/libexec/smtbench/nop"
check "staged man page" test -s "$t_tmp/stage/usr/share/man/man1/smtbench.1"
check "the staged program looks for kernels under /usr/libexec/smtbench, not the stage" \
	grep -q "/usr/libexec/smtbench" "$t_tmp/stage/usr/bin/smtbench"
check "nothing was installed outside the stage" \
	test "$(ls /usr/libexec/smtbench /usr/bin/smtbench 2>/dev/null)" = "$outside_before"
check "make uninstall removes it again" \
	make -s -C "$SMTBENCH_ROOT" BUILD="$build" PREFIX="$prefix" uninstall
check "…the program, the kernels and the man page" test ! -e "$prefix/bin/smtbench" -a ! -e "$prefix/libexec/smtbench" -a ! -e "$prefix/share/man/man1/smtbench.1"

# A missing build dependency is one line that names exactly the packages to install.
make -s -C "$SMTBENCH_ROOT" BUILD="$t_tmp/nodeps" NASM=no-such-nasm >"$t_tmp/nodeps.log" 2>&1
check "without nasm, make fails with one line naming the package" \
	grep -q "missing build dependencies; on Debian or Ubuntu run: apt-get install nasm\.  Stop\." "$t_tmp/nodeps.log"
make -s -C "$SMTBENCH_ROOT" BUILD="$t_tmp/nodeps" PKG_CONFIG=no-such-pkg-config >"$t_tmp/nodeps.log" 2>&1
check "without pkg-config, only pkg-config is named (the libraries' headers are there)" \
	grep -q "apt-get install pkg-config\.  Stop\." "$t_tmp/nodeps.log"
# (-n: a real clean would take the build/ that the other tests are using.)
check "make clean works without any of the tools" \
	make -n -s -C "$SMTBENCH_ROOT" BUILD="$t_tmp/nodeps" NASM=no-such-nasm PKG_CONFIG=no-such-pkg-config clean
# Nor does it look for anything: every $(shell ...) that probes a tool is guarded from clean. A
# SHELL that logs what make runs shows it (a probe is `command -v TOOL`).
printf '#!/bin/sh\necho "$*" >>"%s"\nexec /bin/sh "$@"\n' "$t_tmp/shell.log" >"$t_tmp/logsh"
chmod +x "$t_tmp/logsh"
: >"$t_tmp/shell.log"
make -n -s -C "$SMTBENCH_ROOT" BUILD="$t_tmp/nodeps" SHELL="$t_tmp/logsh" clean >/dev/null
probe=$(grep 'command -v' "$t_tmp/shell.log" | tr '\n' ' ')
check "make clean probes for no tool at parse time${probe:+ (ran: $probe)}" test -z "$probe"

done_testing
