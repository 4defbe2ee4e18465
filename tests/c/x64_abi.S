/* ABI trampoline for tests/c/test_x64.c: calls c->fn(c->arg[0..5]) with the callee-saved
 * registers rbx, rbp, r12-r15 set to the canaries c->cin[0..5], stores what they hold after
 * the call in c->cout[0..5] and the return value in c->ret. The caller's own values are
 * saved and restored around it. Layout: fn 0, arg 8..48, ret 56, cin 64..104, cout 112..152. */
	.intel_syntax noprefix
	.text
	.globl	x64_abi_call
	.type	x64_abi_call, @function
	.p2align 4
x64_abi_call:
	.cfi_startproc
	endbr64
	push	rbx
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset rbx, 0
	push	rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset rbp, 0
	push	r12
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset r12, 0
	push	r13
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset r13, 0
	push	r14
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset r14, 0
	push	r15
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset r15, 0
	push	rdi
	.cfi_adjust_cfa_offset 8
	mov	rbx, qword ptr [rdi + 64]
	mov	rbp, qword ptr [rdi + 72]
	mov	r12, qword ptr [rdi + 80]
	mov	r13, qword ptr [rdi + 88]
	mov	r14, qword ptr [rdi + 96]
	mov	r15, qword ptr [rdi + 104]
	mov	r11, qword ptr [rdi]
	mov	rsi, qword ptr [rdi + 16]
	mov	rdx, qword ptr [rdi + 24]
	mov	rcx, qword ptr [rdi + 32]
	mov	r8, qword ptr [rdi + 40]
	mov	r9, qword ptr [rdi + 48]
	mov	rdi, qword ptr [rdi + 8]
	call	r11
	mov	rdi, qword ptr [rsp]
	mov	qword ptr [rdi + 56], rax
	mov	qword ptr [rdi + 112], rbx
	mov	qword ptr [rdi + 120], rbp
	mov	qword ptr [rdi + 128], r12
	mov	qword ptr [rdi + 136], r13
	mov	qword ptr [rdi + 144], r14
	mov	qword ptr [rdi + 152], r15
	pop	rdi
	.cfi_adjust_cfa_offset -8
	pop	r15
	.cfi_adjust_cfa_offset -8
	.cfi_restore r15
	pop	r14
	.cfi_adjust_cfa_offset -8
	.cfi_restore r14
	pop	r13
	.cfi_adjust_cfa_offset -8
	.cfi_restore r13
	pop	r12
	.cfi_adjust_cfa_offset -8
	.cfi_restore r12
	pop	rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore rbp
	pop	rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore rbx
	ret
	.cfi_endproc
	.size	x64_abi_call, .-x64_abi_call

	.section .note.GNU-stack,"",@progbits
