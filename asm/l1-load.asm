;; l1-load — 12 independent 8-byte loads per iteration from a 4 KiB buffer that stays in L1.
;;
;; Bound by: load throughput (the load ports of the L1 data cache). The buffer is 4 KiB, far
;; below any L1D (32 KiB or more), so after the first iteration every load hits. The loads do
;; not depend on each other or on earlier results (fixed addresses, written to registers that
;; nothing reads), so nothing waits for latency: the core issues them as fast as its load ports
;; allow (2-3 per cycle), about 4-6 cycles per iteration. Twelve loads keep the loop overhead
;; small; they touch 12 different cache lines spread over the buffer so that they do not all
;; fall in one bank. SMT siblings share the L1D and its ports, so this kernel shows contention
;; for them. The buffer is written once before the loop so that it is backed by real pages
;; (untouched .bss would map the shared zero page).

%include "kernel.inc"

L1_BUFFER_BYTES equ 4096
LINE_BYTES      equ 64

section .bss
alignb 4096
l1_buffer:      resb L1_BUFFER_BYTES

section .text
KERNEL "l1-load"
	; Fill the buffer with its own offsets: any nonzero content will do.
	lea rdi, [l1_buffer]
	xor eax, eax
.fill:
	mov [rdi + rax], rax
	add rax, 8
	cmp rax, L1_BUFFER_BYTES
	jb .fill
	lea rsi, [l1_buffer]
align 64
.loop:
	mov rax, [rsi + 0 * 320]
	mov rbx, [rsi + 1 * 320 + 8]
	mov rcx, [rsi + 2 * 320 + 16]
	mov rdx, [rsi + 3 * 320 + 24]
	mov rdi, [rsi + 4 * 320 + 32]
	mov r8,  [rsi + 5 * 320 + 40]
	mov r9,  [rsi + 6 * 320 + 48]
	mov r10, [rsi + 7 * 320 + 56]
	mov r11, [rsi + 8 * 320]
	mov r12, [rsi + 9 * 320 + 8]
	mov r13, [rsi + 10 * 320 + 16]
	mov r14, [rsi + 11 * 320 + 24]
	dec ITERS
	jnz .loop
	jmp kernel_exit_success
