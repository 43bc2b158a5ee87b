;; mem-chase — a pointer chase: each iteration loads the address the previous load returned.
;;
;; Bound by: memory latency. The buffer is 64 MiB (larger than the L2 of any current core and
;; than most L3s), one pointer per 64-byte cache line, linked into a single random cycle through
;; all 1 Mi lines. Each load's address is the previous load's result, so nothing overlaps, and
;; the order is random, so no prefetcher can guess the next line: most steps pay a full
;; DRAM access plus a TLB miss, on the order of 100 ns, while the core idles. SMT siblings idle
;; in parallel, so two chases on siblings should barely slow each other, unless they contend
;; for the shared caches and the memory controller.
;;
;; Set-up, once before the loop, counted in the process's CPU time: write the identity (line i
;; points to itself), then Sattolo's shuffle (for i = n-1 .. 1: swap a[i] with a[j], j uniform in
;; [0, i)), which turns the identity into one cycle through every line. j comes from an
;; xorshift64 generator in registers, scaled by a multiply (Lemire's method) instead of a slow
;; division. The shuffle's loads do not depend on each other, so they overlap: the set-up costs
;; about 20 ms of user time (measured on a 2.6 GHz EPYC, KVM), under a tenth of the default
;; 0.25 s run, plus about 30 ms of system time to fault in the 64 MiB. Every placement pays the
;; same set-up, so it shifts the times without biasing a comparison. Each iteration of the loop
;; is exactly one load.

%include "kernel.inc"

CHASE_BYTES     equ 64 * 1024 * 1024
LINE_BYTES      equ 64
CHASE_LINES     equ CHASE_BYTES / LINE_BYTES
XORSHIFT_SEED   equ 0x9e3779b97f4a7c15

section .bss
alignb 4096
chase_buffer:   resb CHASE_BYTES

section .text
KERNEL "mem-chase"
	lea rsi, [chase_buffer]

	; The identity: line i holds its own address.
	mov rdi, rsi
	mov ecx, CHASE_LINES
.identity:
	mov [rdi], rdi
	add rdi, LINE_BYTES
	dec ecx
	jnz .identity

	; Sattolo's shuffle, i from n-1 down to 1 (r8 = i, r9 = the xorshift64 state).
	mov r8d, CHASE_LINES - 1
	mov r9, XORSHIFT_SEED
.shuffle:
	mov rax, r9                     ; xorshift64: x ^= x << 13; x ^= x >> 7; x ^= x << 17
	shl rax, 13
	xor r9, rax
	mov rax, r9
	shr rax, 7
	xor r9, rax
	mov rax, r9
	shl rax, 17
	xor r9, rax
	mov rax, r9
	shr rax, 32                     ; 32 random bits
	imul rax, r8
	shr rax, 32                     ; j = bits * i / 2^32, in [0, i)
	shl rax, 6                      ; byte offsets of lines j and i
	mov rdx, r8
	shl rdx, 6
	mov r10, [rsi + rax]            ; swap a[i] and a[j]
	mov r11, [rsi + rdx]
	mov [rsi + rax], r11
	mov [rsi + rdx], r10
	dec r8
	jnz .shuffle

	mov rax, rsi                    ; start anywhere: the cycle goes through every line
align 64
.loop:
	mov rax, [rax]
	dec ITERS
	jnz .loop
	jmp kernel_exit_success
