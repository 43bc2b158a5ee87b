;; avx2-fma — 12 independent chains of 256-bit fused multiply-adds (vfmadd231pd) per iteration.
;;
;; Bound by: FMA throughput. Each chain is acc += a * b on 4 doubles; the 12 chains do not
;; depend on each other, and 12 is more than latency x ports on current cores (4 cycles x 2 FMA
;; pipes = 8 in flight), so the FMA units, not the chains' latency, set the pace: about 6 cycles
;; per iteration with two 256-bit FMA pipes. SMT siblings share those pipes, so SMT should hurt.
;; a = 0.5 and b = 1e-3, so an accumulator grows by 5e-4 per iteration: even after 2^64
;; iterations it is about 1e16, far from overflow, and never a denormal (which could take a
;; slow path and measure something else). The accumulators' values do not affect the timing.
;;
;; The CPU is checked before any AVX instruction: CPUID leaf 1 for FMA, AVX and OSXSAVE, leaf 7
;; for AVX2, and XGETBV for whether the OS saves the XMM and YMM state (XCR0 bits 1 and 2) —
;; without that, AVX instructions fault even on a CPU that has them. Lacking any of these, the
;; kernel says so and exits 77 (KERNEL_EXIT_UNSUPPORTED) instead of crashing.

%include "kernel.inc"

CPUID1_ECX_FMA      equ 1 << 12
CPUID1_ECX_OSXSAVE  equ 1 << 27
CPUID1_ECX_AVX      equ 1 << 28
CPUID7_EBX_AVX2     equ 1 << 5
XCR0_SSE_AVX        equ (1 << 1) | (1 << 2)

section .rodata
align 8
fma_a:              dq 0.5
fma_b:              dq 1.0e-3
msg_unsupported:    db "this CPU does not support AVX2+FMA", 10
msg_unsupported_len equ $ - msg_unsupported

section .text
KERNEL "avx2-fma"
%ifdef TEST_PRETEND_UNSUPPORTED
	; Only in a test build (nasm -DTEST_PRETEND_UNSUPPORTED): take the path a CPU without
	; AVX2 would take, so that tests/e2e/test_kernels.sh can check it on any machine.
	jmp .unsupported
%endif
	xor eax, eax
	cpuid
	cmp eax, 7
	jb .unsupported                 ; no leaf 7, so no AVX2
	mov eax, 1
	cpuid
	mov eax, ecx
	and eax, CPUID1_ECX_FMA | CPUID1_ECX_OSXSAVE | CPUID1_ECX_AVX
	cmp eax, CPUID1_ECX_FMA | CPUID1_ECX_OSXSAVE | CPUID1_ECX_AVX
	jne .unsupported
	mov eax, 7
	xor ecx, ecx
	cpuid
	test ebx, CPUID7_EBX_AVX2
	jz .unsupported
	xor ecx, ecx                    ; XCR0 (legal now: OSXSAVE is set)
	xgetbv
	and eax, XCR0_SSE_AVX
	cmp eax, XCR0_SSE_AVX
	jne .unsupported

	vbroadcastsd ymm14, [fma_a]
	vbroadcastsd ymm15, [fma_b]
%assign i 0
%rep 12
	vmovapd ymm %+ i, ymm15         ; twelve accumulators, 1e-3 each
%assign i i + 1
%endrep
align 64
.loop:
%assign i 0
%rep 12
	vfmadd231pd ymm %+ i, ymm14, ymm15      ; acc += a * b
%assign i i + 1
%endrep
	dec ITERS
	jnz .loop
	vzeroupper
	jmp kernel_exit_success

.unsupported:
	lea rsi, [msg_unsupported]
	mov edx, msg_unsupported_len
	jmp kernel_exit_unsupported
