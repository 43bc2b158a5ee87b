;; nop-2t — one process, two threads, each running the seed's `nop` loop for the full count.
;;
;; Bound by: the front end, as `nop` (each thread is exactly that loop). It is the built-in
;; family's multi-threaded member, for `run --one-process`: the process is given the
;; placement's CPUs and the scheduler puts its two threads on them. On two cores (non-sibling)
;; the threads run side by side and the process takes about the time of one thread; on one PU
;; (same-pu, solo) they take turns and it takes about twice as long; on SMT siblings they share
;; one core's front end, which the seed found nearly three times slower than apart.
;;
;; The iteration count is per thread, so the process's CPU time is twice one thread's: the
;; runner's calibration (--trial-time) measures the whole process alone on one CPU and sizes
;; the count from that, as for any kernel.
;;
;; The second thread is made with the raw clone system call (no libc): it shares the address
;; space, files, signal handlers and thread group (CLONE_THREAD, so its CPU time is the
;; process's), and the kernel clears the word `child_tid` and wakes a futex on it when the
;; thread exits (CLONE_CHILD_CLEARTID). CLONE_PARENT_SETTID writes the thread's id there before
;; clone returns in the main thread, so the main thread can never see 0 before the thread has
;; run. The main thread runs its own loop, then waits on that futex until the word is 0, then
;; exits the group: the process ends only after both loops have finished, and wait4's times
;; include both threads.

%include "kernel.inc"

SYS_CLONE           equ 56
SYS_EXIT            equ 60          ; this thread only (the group exits by exit_group)
SYS_FUTEX           equ 202
FUTEX_WAIT          equ 0
CLONE_VM            equ 0x00000100
CLONE_FS            equ 0x00000200
CLONE_FILES         equ 0x00000400
CLONE_SIGHAND       equ 0x00000800
CLONE_THREAD        equ 0x00010000
CLONE_SYSVSEM       equ 0x00040000
CLONE_PARENT_SETTID equ 0x00100000
CLONE_CHILD_CLEARTID equ 0x00200000
THREAD_FLAGS        equ CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD \
                        | CLONE_SYSVSEM | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID
; The second thread only runs the loop and two system calls: a small stack is plenty.
THREAD_STACK_BYTES  equ 16384

section .rodata
msg_clone_failed:   db "cannot start the second thread (clone failed)", 10
msg_clone_failed_len equ $ - msg_clone_failed

section .bss
alignb 64
thread_stack:       resb THREAD_STACK_BYTES
thread_stack_top:
alignb 64
child_tid:          resd 1          ; the second thread's id until it exits, then 0

section .text
KERNEL "nop-2t"
	mov edi, THREAD_FLAGS
	lea rsi, [thread_stack_top]     ; the new thread's stack (it starts with rsp here)
	lea rdx, [child_tid]            ; CLONE_PARENT_SETTID: its id, before clone returns
	lea r10, [child_tid]            ; CLONE_CHILD_CLEARTID: 0 and a futex wake at its exit
	xor r8d, r8d                    ; no TLS
	mov eax, SYS_CLONE
	syscall
	test rax, rax
	jz second_thread                ; the new thread: registers copied, ITERS included
	js .clone_failed
	call nop_loop                   ; the main thread's own loop
.wait:
	mov edx, [child_tid]            ; the value FUTEX_WAIT expects still to be there
	test edx, edx
	jz kernel_exit_success          ; the second thread has finished its loop and exited
	lea rdi, [child_tid]
	mov esi, FUTEX_WAIT
	xor r10d, r10d                  ; no time limit
	mov eax, SYS_FUTEX
	syscall                         ; returns at the wake, or at once if the word changed
	jmp .wait
.clone_failed:
	; No second thread: clone fails for a limit (EAGAIN from pids.max or RLIMIT_NPROC, ENOMEM),
	; never for the CPU, so this is an ordinary failure (exit 1), not "unsupported" (77), which
	; would stop the run as if this CPU could not run the kernel.
	lea rsi, [msg_clone_failed]
	mov rdx, msg_clone_failed_len
	jmp kernel_exit_failed

;; The second thread: the loop, then exit this thread alone (the kernel then clears child_tid
;; and wakes the main thread).
second_thread:
	call nop_loop
	xor edi, edi
	mov eax, SYS_EXIT
	syscall
	hlt                             ; never reached

;; nop_loop: ITERS iterations of the seed's loop (2048 one-byte NOPs, dec, jnz). Clobbers ITERS.
align 64
nop_loop:
.loop:
	SEED_NOPS
	dec ITERS
	jnz .loop
	ret
