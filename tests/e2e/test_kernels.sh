#!/usr/bin/env bash
# test_kernels.sh — the NASM kernels as built: each runs and exits 0 with a small count, bad
# arguments exit 2 with one line on stderr, the nop loop really holds 2048 NOPs, every binary is
# static with no libc and a non-executable stack, and each source says what bounds its loop.
source "$(dirname "$0")/lib.sh"

root=$SMTBENCH_ROOT
kdir=${SMTBENCH_BUILD:-$(dirname "$SMTBENCH")}/kernels
names=()
for src in "$root"/asm/*.asm; do
	names+=("$(basename "$src" .asm)")
done
check "asm/ holds kernels (${#names[@]})" test "${#names[@]}" -ge 7

# --- they run --------------------------------------------------------------------------------
for k in "${names[@]}"; do
	bin=$kdir/$k
	if [[ ! -x $bin ]]; then
		not_ok "$k: $bin is not built"
		continue
	fi
	if [[ $k == avx2-fma ]]; then
		"$bin" 1000 >"$t_tmp/out" 2>"$t_tmp/err"
		rc=$?
		if ((rc == 0)) && [[ ! -s $t_tmp/err ]]; then
			ok "$k 1000 exits 0 silently"
		elif ((rc == 77)) && [[ $(cat "$t_tmp/err") == "avx2-fma: this CPU does not support AVX2+FMA" ]]; then
			ok "$k 1000 exits 77 with the unsupported message (this CPU lacks AVX2+FMA)"
		else
			not_ok "$k 1000: exit $rc, stderr: $(head -c 300 "$t_tmp/err")"
		fi
	else
		check_status 0 "$k 1000 runs" "$bin" 1000
		check "$k 1000 writes nothing" test -z "$t_out$t_err"
	fi
	check_status 0 "$k 1 runs (the smallest count)" "$bin" 1
done
# The unsupported path, on any CPU: a test build that pretends the CPUID check failed.
if command -v "${NASM:-nasm}" >/dev/null; then
	if "${NASM:-nasm}" -f elf64 -I "$root/asm/" -DTEST_PRETEND_UNSUPPORTED -o "$t_tmp/fma.o" \
		"$root/asm/avx2-fma.asm" && "${CC:-cc}" -nostdlib -static -o "$t_tmp/avx2-fma" "$t_tmp/fma.o"; then
		check_status 77 "avx2-fma on a CPU without AVX2+FMA" "$t_tmp/avx2-fma" 1000
		check "it says why, in one line" test "$t_err" = "avx2-fma: this CPU does not support AVX2+FMA"
		check_status 2 "a bad argument still comes first" "$t_tmp/avx2-fma" x
	else
		not_ok "could not build the avx2-fma test variant"
	fi
else
	skip "nasm not installed: the avx2-fma unsupported path is not checked"
fi
# Leading zeros are still strict decimal, and a value with more than 20 digits can be small.
check_status 0 "nop 0000000000000000000000002 runs" "$kdir/nop" 0000000000000000000000002

# --- bad arguments: exit 2, one line on stderr naming the kernel -----------------------------
bad_args=("" "0" "-5" "12x" "+3" " 7" "7 " "0x10" "1e3" "99999999999999999999999"
          "18446744073709551616")
for k in "${names[@]}"; do
	bin=$kdir/$k
	[[ -x $bin ]] || continue
	check_status 2 "$k with no argument" "$bin"
	check "$k with no argument: one line on stderr" \
		test "$t_err" = "$k: expects exactly one argument, the iteration count (a positive decimal integer)"
	check_status 2 "$k with two arguments" "$bin" 1 2
	for a in "${bad_args[@]}"; do
		check_status 2 "$k '$a'" "$bin" "$a"
		want="$k: iteration count must be a positive decimal integer, got '$a'"
		if [[ $t_err == "$want" && -z $t_out ]]; then ok "$k '$a': message names the argument"
		else not_ok "$k '$a': stderr '$t_err', want '$want'"; fi
	done
done
# A long argument is echoed truncated, still on one line.
long=$(printf 'x%.0s' {1..300})
check_status 2 "nop with a 300-byte argument" "$kdir/nop" "$long"
check "the echo is truncated to 64 bytes and '...'" \
	test "$t_err" = "nop: iteration count must be a positive decimal integer, got '${long:0:64}...'"

# --- the binaries: static, no libc, non-executable stack, 64-bit exit -------------------------
if command -v readelf >/dev/null && command -v objdump >/dev/null; then
	for k in "${names[@]}"; do
		bin=$kdir/$k
		[[ -x $bin ]] || continue
		phdrs=$(readelf -lW "$bin")
		check "$k: ELF64 x86-64 executable" \
			bash -c 'readelf -hW "$1" | grep -q "Class:.*ELF64" && readelf -hW "$1" | grep -q "Type:.*EXEC"' _ "$bin"
		check "$k: no INTERP (static)" bash -c '! grep -q INTERP <<<"$1"' _ "$phdrs"
		check "$k: no dynamic section (no NEEDED, no libc)" \
			bash -c 'readelf -dW "$1" | grep -q "no dynamic section"' _ "$bin"
		check "$k: no libc symbols" \
			bash -c '! readelf -sW "$1" | grep -qE "__libc|GLIBC|printf|malloc"' _ "$bin"
		stack=$(awk '$1 == "GNU_STACK" { print $(NF - 1) }' <<<"$phdrs")
		check "$k: GNU_STACK is RW, not executable (got '$stack')" test "$stack" = RW
		check "$k: no int 0x80 (exits through the 64-bit syscall)" \
			bash -c '! objdump -d "$1" | grep -qE "int +\\\$0x80"' _ "$bin"
		check "$k: calls exit_group (mov \$0xe7,%eax; syscall)" \
			bash -c 'objdump -d "$1" | grep -qE "mov +\\\$0xe7,%eax"' _ "$bin"
	done

	# The nop loop: from the backward branch's target up to the branch, exactly 2048 one-byte
	# 0x90 NOPs, then the decrement, then the branch itself.
	nop_bin=$kdir/nop
	if [[ -x $nop_bin ]]; then
		objdump -d "$nop_bin" | awk '/^[0-9a-f]+ <_start>:/ { on = 1; next } /^[0-9a-f]+ <[^.>]*>:/ { on = 0 } on' \
			>"$t_tmp/nop.dis"
		# The backward conditional branch: "addr: bytes  jne  target <...>" with target < addr.
		branch_addr='' target=''
		while read -r a t; do
			if ((16#$t < 16#$a)); then branch_addr=$a target=$t; fi
		done < <(awk -F'\t' '$3 ~ /^j(ne|nz) / { a = $1; gsub(/[ :]/, "", a); split($3, w, " "); print a, w[2] }' \
			"$t_tmp/nop.dis")
		check "nop: the loop ends in a backward jne (at ${branch_addr:-none}, to ${target:-none})" \
			test -n "${branch_addr:-}"
		if [[ -n ${branch_addr:-} ]]; then
			awk -F'\t' -v from="$target" -v to="$branch_addr" '
				{ a = substr($1, 1, length($1) - 1); sub(/^ +/, "", a) }
				a == from { on = 1 }
				on { gsub(/ +$/, "", $2); print a "\t" $2 "\t" $3 }
				a == to { on = 0 }' "$t_tmp/nop.dis" >"$t_tmp/loop"
			nops=$(awk -F'\t' '$2 == "90" && $3 ~ /^nop *$/' "$t_tmp/loop" | wc -l)
			total=$(wc -l <"$t_tmp/loop")
			check "nop: the loop holds exactly 2048 one-byte NOPs (found $nops)" test "$nops" -eq 2048
			check "nop: the branch goes back to the first NOP" \
				bash -c 'head -n 1 "$1" | awk -F"\t" "\$2 == \"90\" { ok = 1 } END { exit !ok }"' _ "$t_tmp/loop"
			check "nop: the loop is the NOPs, one decrement and the branch ($total instructions)" \
				test "$total" -eq 2050
			check "nop: the instruction before the branch decrements the counter" \
				bash -c 'tail -n 2 "$1" | head -n 1 | awk -F"\t" "\$3 ~ /^(dec|sub) / { ok = 1 } END { exit !ok }"' _ "$t_tmp/loop"
		fi
	fi
else
	skip "readelf/objdump not installed: binary checks skipped"
fi

# --- the sources -----------------------------------------------------------------------------
inc=$root/asm/kernel.inc
check "kernel.inc has an include guard" grep -q '^%ifndef SMTBENCH_KERNEL_INC' "$inc"
check "kernel.inc sets BITS 64 and default rel" bash -c 'grep -q "^BITS 64" "$1" && grep -q "^default rel" "$1"' _ "$inc"
check "kernel.inc declares a non-executable stack" \
	grep -q '^section .note.GNU-stack noalloc noexec nowrite progbits' "$inc"
check "kernel.inc defines the KERNEL macro" grep -q '^%macro KERNEL 1' "$inc"
for k in "${names[@]}"; do
	src=$root/asm/$k.asm
	check "$k.asm says what bounds its loop (a ';; Bound by:' paragraph)" grep -q '^;; Bound by:' "$src"
	check "$k.asm includes kernel.inc and declares itself once with KERNEL \"$k\"" \
		bash -c 'grep -q "^%include \"kernel.inc\"" "$1" && [[ $(grep -c "^KERNEL " "$1") == 1 ]] &&
		         grep -q "^KERNEL \"$2\"$" "$1"' _ "$src" "$k"
done
check "the nop loop is SEED_NOPS, kernel.inc's %rep 2048 (nop-2t's threads run the same)" \
	bash -c 'grep -q "^[[:space:]]*SEED_NOPS$" "$1/asm/nop.asm" && grep -q "^[[:space:]]*SEED_NOPS$" "$1/asm/nop-2t.asm" &&
	         grep -A1 "^%macro SEED_NOPS 0" "$1/asm/kernel.inc" | grep -q "^%rep 2048"' _ "$root"

# --- nop-2t when its second thread cannot start ------------------------------------------------
# clone fails for a limit (here RLIMIT_NPROC of 1 for an unprivileged user who then has one
# process), never for the CPU: an ordinary failure, exit 1, not 77 ("not supported on this CPU",
# which stops a run as if no retry could help).
if ((EUID == 0)) && command -v setpriv >/dev/null && command -v prlimit >/dev/null; then
	cp "$kdir/nop-2t" "$t_tmp/nop-2t" && chmod 755 "$t_tmp" "$t_tmp/nop-2t"
	check_status 1 "nop-2t whose second thread cannot start (RLIMIT_NPROC 1, as nobody)" \
		prlimit --nproc=1:1 setpriv --reuid=65534 --regid=65534 --clear-groups "$t_tmp/nop-2t" 1000
	check "…says why" test "$t_err" = "nop-2t: cannot start the second thread (clone failed)"
else
	skip "nop-2t with clone failing needs root, setpriv and prlimit (util-linux) to run it as nobody under RLIMIT_NPROC"
	skip "…its message, as above"
fi

# --- the table the runner lists matches asm/ -------------------------------------------------
if "$SMTBENCH" run --list-kernels >"$t_tmp/list" 2>/dev/null; then
	listed=$(awk 'NR > 1 { print $1 }' "$t_tmp/list" | sort | tr '\n' ' ')
	built=$(printf '%s\n' "${names[@]}" | sort | tr '\n' ' ')
	check "smtbench run --list-kernels lists exactly asm/*.asm ($listed)" test "$listed" = "$built"
else
	not_ok "smtbench run --list-kernels failed"
fi

done_testing
