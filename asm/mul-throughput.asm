;; mul-throughput — the operations of mul-latency as 8 independent chains per iteration.
;;
;; Bound by: throughput of the integer ALUs. Each chain is splitmix64's mix (seed 000) applied
;; to its own value, so the 8 chains do not wait for each other and the core overlaps them out
;; of order. Per iteration that is 8 x (3 shifts + 3 xors + 2 multiplies) = 48 single-cycle ALU
;; operations and 16 multiplies: with 4 integer ALUs, about 12-16 cycles of issue, at least as
;; long as one chain's ~12-cycle latency, so the execution ports, not the dependencies, set the
;; pace. Eight chains, not four, for that reason: with four the loop would still be mostly
;; latency. An SMT sibling competes for the same busy ports, so SMT should hurt this kernel
;; (compare mul-latency, the same instructions as one dependent chain).
;; One scratch register (rdx) serves every chain: register renaming gives each write its own
;; physical register, so the reuse creates no dependency between chains.

%include "kernel.inc"

MIX_C1 equ 0xbf58476d1ce4e5b9
MIX_C2 equ 0x94d049bb133111eb

; MIX x: x = mix(x), with rdx as scratch, r8/r9 holding the multipliers.
%macro MIX 1
	mov rdx, %1
	shr rdx, 30
	xor %1, rdx
	imul %1, r8
	mov rdx, %1
	shr rdx, 27
	xor %1, rdx
	imul %1, r9
	mov rdx, %1
	shr rdx, 31
	xor %1, rdx
%endmacro

KERNEL "mul-throughput"
	mov r8, MIX_C1
	mov r9, MIX_C2
	; Eight different nonzero starting values (mix keeps nonzero values nonzero).
	mov eax, 1
	mov ebx, 2
	mov ecx, 3
	mov esi, 4
	mov edi, 5
	mov r10d, 6
	mov r11d, 7
	mov r12d, 8
align 64
.loop:
	; Written chain by chain; the out-of-order core interleaves them.
	MIX rax
	MIX rbx
	MIX rcx
	MIX rsi
	MIX rdi
	MIX r10
	MIX r11
	MIX r12
	dec ITERS
	jnz .loop
	jmp kernel_exit_success
