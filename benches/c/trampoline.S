/* Implib.so-style trampolines (x86-64): the reference floor for a lazily bound forwarder.
 *   sym: cmpq $0, slot(%rip); je resolve; jmp *slot(%rip)
 * The slot table and the resolver are in trampoline_resolve.c. */
    .text

    .p2align 4
    .type tramp_save_regs_and_resolve, @function
tramp_save_regs_and_resolve:
    .cfi_startproc
    /* Entry: index at 8(%rsp). Save the argument registers (and %rax, the vararg count). */
    pushq %rdi
    pushq %rsi
    pushq %rdx
    pushq %rcx
    pushq %r8
    pushq %r9
    pushq %rax
    .cfi_adjust_cfa_offset 56
    movq 64(%rsp), %rdi
    call tramp_resolve
    popq %rax
    popq %r9
    popq %r8
    popq %rcx
    popq %rdx
    popq %rsi
    popq %rdi
    .cfi_adjust_cfa_offset -56
    ret
    .cfi_endproc
    .size tramp_save_regs_and_resolve, .-tramp_save_regs_and_resolve

.macro TRAMPOLINE name, index
    .globl \name
    .p2align 4
    .type \name, @function
\name:
    .cfi_startproc
    cmpq $0, tramp_table+8*\index(%rip)
    je 2f
1:
    jmp *tramp_table+8*\index(%rip)
2:
    pushq $\index
    .cfi_adjust_cfa_offset 8
    call tramp_save_regs_and_resolve
    addq $8, %rsp
    .cfi_adjust_cfa_offset -8
    jmp 1b
    .cfi_endproc
    .size \name, .-\name
.endm

    /* Indices match tramp_names[] in trampoline_resolve.c. */
    TRAMPOLINE nvrtcVersion, 0
    TRAMPOLINE cudaRuntimeGetVersion, 1
    TRAMPOLINE cudaGetLastError, 2
    TRAMPOLINE cuDriverGetVersion, 3

    .section .note.GNU-stack, "", @progbits
