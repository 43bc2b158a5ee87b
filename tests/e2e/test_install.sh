#!/usr/bin/env bash
# `make install` honours PREFIX and DESTDIR, and an installed smtbench finds its kernels under
# PREFIX/libexec/smtbench with no build tree beside it; the SLURM scripts of contrib/slurm/ go to
# PREFIX/share/smtbench/slurm/ and, installed, run the smtbench installed with them.
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
# The shell completions, generated from the command table by the program just built.
completions=(share/bash-completion/completions/smtbench share/zsh/site-functions/_smtbench
             share/fish/vendor_completions.d/smtbench.fish)
for f in "${completions[@]}"; do
	check "the completions $f are installed" test -s "$prefix/$f"
done
check "…bash's is what the installed smtbench completions bash prints" \
	diff "$prefix/share/bash-completion/completions/smtbench" <("$prefix/bin/smtbench" completions bash)

# The SLURM scripts: submit.sh runnable, the job scripts (given to sbatch) not.
slurm=$prefix/share/smtbench/slurm
jobs=(smtbench-array.sbatch smtbench-fleet.sbatch smtbench-report.sbatch)
slurm_modes() { # DIR: "name mode" of submit.sh and each job script, one line
	local f out=""
	for f in submit.sh "${jobs[@]}"; do out+="$f $(stat -c %a "$1/$f" 2>/dev/null || echo missing) "; done
	echo "$out"
}
want_modes="submit.sh 755 smtbench-array.sbatch 644 smtbench-fleet.sbatch 644 smtbench-report.sbatch 644 "
got=$(slurm_modes "$slurm")
check "share/smtbench/slurm/ holds submit.sh (755) and the three job scripts (644): $got" \
	test "$got" = "$want_modes"
check "…every file of contrib/slurm/ is installed" \
	test "$(ls "$SMTBENCH_ROOT/contrib/slurm" | tr '\n' ' ')" = "$(ls "$slurm" | tr '\n' ' ')"
# sbatch runs a copy of a job script from the node's spool, so the installed ones name the
# installed program; otherwise they are the sources.
check "…the job scripts default SMTBENCH to the installed $prefix/bin/smtbench" \
	eval 'for j in "${jobs[@]}"; do grep -qF "\${SMTBENCH:-$prefix/bin/smtbench}" "$slurm/$j" || exit 1; done'
check "…and differ from contrib/slurm/ in that alone" eval '
	for j in "${jobs[@]}"; do
		diff <(sed -e "s|$prefix/bin/smtbench, where it was installed|smtbench in PATH|" \
		           -e "s|$prefix/bin/smtbench|smtbench|" "$slurm/$j") \
		     "$SMTBENCH_ROOT/contrib/slurm/$j" >/dev/null || exit 1
	done'
# Run as sbatch would, with no smtbench in PATH: the report job reaches the installed program,
# which answers for an empty FLEET_DIR (exit 2, its own message), not "command not found".
mkdir -p "$t_tmp/empty-fleet"
check_status 2 "the installed report job, no smtbench in PATH, runs the installed smtbench" \
	env -u SMTBENCH PATH=/nonexistent FLEET_DIR="$t_tmp/empty-fleet" /bin/bash "$slurm/smtbench-report.sbatch"
check "…which says the folder holds no results folder" contains "$t_err" "fleet: no usable results folder"
# submit.sh, with an sbatch that records what it is given: it submits the installed job scripts.
mkdir -p "$t_tmp/fake"
printf '#!/bin/sh\necho "$*" >>"%s"\necho 42\n' "$t_tmp/sbatch.log" >"$t_tmp/fake/sbatch"
chmod +x "$t_tmp/fake/sbatch"
check_status 0 "the installed submit.sh submits the runs and the report" \
	env PATH="$t_tmp/fake:$PATH" FLEET_DIR="$t_tmp/fleet" "$slurm/submit.sh" fleet --nodes=2 -- --trials 6
check "…the installed job scripts, beside it" eval '
	grep -qxF -- "--parsable --chdir=$t_tmp/fleet --nodes=2 $slurm/smtbench-fleet.sbatch --trials 6" "$t_tmp/sbatch.log" &&
	grep -qxF -- "--parsable --chdir=$t_tmp/fleet --dependency=afterany:42 $slurm/smtbench-report.sbatch" "$t_tmp/sbatch.log"'

outside_before=$(ls /usr/libexec/smtbench /usr/bin/smtbench /usr/share/smtbench 2>/dev/null)
check "make install DESTDIR=stage PREFIX=/usr stages everything under stage/usr" \
	logged_make -s -C "$SMTBENCH_ROOT" -j2 BUILD="$build" PREFIX=/usr DESTDIR="$t_tmp/stage" install
check "staged bin/smtbench" test -x "$t_tmp/stage/usr/bin/smtbench"
check "staged kernels" test -x "$t_tmp/stage/usr/libexec/smtbench/nop"
check "staged man page" test -s "$t_tmp/stage/usr/share/man/man1/smtbench.1"
check "staged completions" eval 'for f in "${completions[@]}"; do [[ -s $t_tmp/stage/usr/$f ]] || exit 1; done'
check "the staged program looks for kernels under /usr/libexec/smtbench, not the stage" \
	grep -q "/usr/libexec/smtbench" "$t_tmp/stage/usr/bin/smtbench"
stage_slurm=$t_tmp/stage/usr/share/smtbench/slurm
got=$(slurm_modes "$stage_slurm")
check "staged SLURM scripts under usr/share/smtbench/slurm, with their modes: $got" \
	test "$got" = "$want_modes"
check "…the staged job scripts name /usr/bin/smtbench, not the stage" eval '
	for j in "${jobs[@]}"; do grep -qF "\${SMTBENCH:-/usr/bin/smtbench}" "$stage_slurm/$j" || exit 1; done
	! grep -rqF "$t_tmp/stage" "$stage_slurm"'
check "nothing was installed outside the stage" \
	test "$(ls /usr/libexec/smtbench /usr/bin/smtbench /usr/share/smtbench 2>/dev/null)" = "$outside_before"
check "make uninstall DESTDIR=stage PREFIX=/usr removes what it staged" \
	logged_make -s -C "$SMTBENCH_ROOT" BUILD="$build" PREFIX=/usr DESTDIR="$t_tmp/stage" uninstall
check "…the program, the kernels, the man page and usr/share/smtbench/ with the SLURM scripts" \
	test ! -e "$t_tmp/stage/usr/bin/smtbench" -a ! -e "$t_tmp/stage/usr/libexec/smtbench" \
	     -a ! -e "$t_tmp/stage/usr/share/man/man1/smtbench.1" -a ! -e "$t_tmp/stage/usr/share/smtbench"
check "make uninstall removes it again" \
	make -s -C "$SMTBENCH_ROOT" BUILD="$build" PREFIX="$prefix" uninstall
check "…the completions" eval 'for f in "${completions[@]}"; do [[ ! -e $prefix/$f ]] || exit 1; done'
check "…the program, the kernels, the man page and share/smtbench/" \
	test ! -e "$prefix/bin/smtbench" -a ! -e "$prefix/libexec/smtbench" \
	     -a ! -e "$prefix/share/man/man1/smtbench.1" -a ! -e "$prefix/share/smtbench"

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
