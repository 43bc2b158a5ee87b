;; nop — the seed's kernel: 2048 single-byte NOPs, then the counter decrement and the branch.
;;
;; Bound by: the front end. A NOP needs no execution port and produces no result, so each
;; iteration costs what it takes to fetch, decode, dispatch and retire 2050 instructions
;; (2 KiB of code): a few cycles per 4-6 NOPs, depending on the core's width and on whether
;; the loop fits its micro-op cache. Two SMT siblings share that front end, which is why the
;; seed found them nearly three times slower together than apart.
;; The loop has the seed's shape so that its numbers are comparable: 2048 NOPs (kernel.inc's
;; SEED_NOPS, a `%rep`, which nop-2t's threads run too; checked in the binary by
;; tests/e2e/test_kernels.sh), one `dec`, one backward `jnz`. The counter is
;; 64-bit (the seed's was 32-bit) and the exit is the 64-bit syscall instead of `int 0x80`.

%include "kernel.inc"

KERNEL "nop"
align 64
.loop:
	SEED_NOPS
	dec ITERS
	jnz .loop
	jmp kernel_exit_success
