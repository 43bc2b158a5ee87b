;; pause — 16 `pause` instructions per iteration.
;;
;; Bound by: the pause instruction's own delay. `pause` is the spin-wait hint: the core stalls
;; the thread for a fixed, model-specific time (a few cycles on older cores, tens to over a
;; hundred on recent Intel and AMD ones) and, on an SMT core, hands its share of the pipeline to
;; the sibling meanwhile. So this kernel barely uses the core; running it beside another kernel
;; on a sibling shows how much a spinning neighbour costs, and two pause loops on siblings should
;; hardly slow each other. 16 per iteration so that the decrement and branch are noise.
;; In a virtual machine, beware: KVM's pause-loop exiting (Intel PLE, AMD pause filter) treats
;; a long run of pauses as a spinning lock and traps to the hypervisor, which may run something
;; else; the guest still counts that time as this process's. Measured on a 2.6 GHz EPYC KVM
;; guest: about 25 ns per pause.

%include "kernel.inc"

KERNEL "pause"
align 64
.loop:
%rep 16
	pause
%endrep
	dec ITERS
	jnz .loop
	jmp kernel_exit_success
