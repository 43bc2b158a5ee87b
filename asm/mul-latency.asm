;; mul-latency — one dependent chain of splitmix64's mixing function, x = mix(x), per iteration.
;;
;; Bound by: latency. mix is x ^= x >> 30; x *= C1; x ^= x >> 27; x *= C2; x ^= x >> 31 (seed
;; 000), and every instruction needs the result of the one before it, so one iteration costs
;; the sum of the latencies: 3 shifts and 3 xors at 1 cycle, 2 multiplies at 3 cycles, about
;; 12 cycles, while the core could issue far more. Most execution slots stay idle, so an SMT
;; sibling can fill them: this is the kernel that SMT may help (compare mul-throughput, the same
;; operations as independent chains). The copy into rdx before each shift is what a compiler
;; emits too; it is eliminated at rename on recent cores and does not lengthen the chain.
;; mix is a bijection with mix(0) = 0, so starting at 1 the chain never reaches 0; the values
;; do not matter for the timing anyway (integer multiply latency is data-independent).

%include "kernel.inc"

MIX_C1 equ 0xbf58476d1ce4e5b9
MIX_C2 equ 0x94d049bb133111eb

KERNEL "mul-latency"
	mov r8, MIX_C1
	mov r9, MIX_C2
	mov eax, 1                      ; x
align 64
.loop:
	mov rdx, rax
	shr rdx, 30
	xor rax, rdx
	imul rax, r8
	mov rdx, rax
	shr rdx, 27
	xor rax, rdx
	imul rax, r9
	mov rdx, rax
	shr rdx, 31
	xor rax, rdx
	dec ITERS
	jnz .loop
	jmp kernel_exit_success
