//! The resolver and the traced entry on Windows x64 (see `shared_resolver.rs` for what they
//! do): the Microsoft x64 calling convention (arguments in rcx, rdx, r8, r9 and xmm0-3, 32 bytes
//! of home space above the return address, rsi/rdi preserved), with unwind data as `.seh_*`
//! directives (`.pdata`/`.xdata`), which Windows needs to unwind through a frame at all (an
//! exception, a debugger's stack). x86-64 is the only Windows target.

/// Body of the resolver on Windows x64: r11 holds the index; `$bind` is `extern "C" fn(u32)
/// -> *mut ()` (index in ecx). The four argument registers go to the caller's home space
/// (which belongs to the callee), xmm0-3 to the frame; the frame is a fixed `sub rsp`, so its
/// unwind data is one allocation.
#[macro_export]
macro_rules! resolver_body {
    ($bind:path, $me:path) => {
        ::core::arch::naked_asm!(
            ".seh_proc {me}",
            // entry rsp = 8 (mod 16): 120 realigns it for the call.
            "sub rsp, 120",
            ".seh_stackalloc 120",
            ".seh_endprologue",
            "mov [rsp + 128], rcx",
            "mov [rsp + 136], rdx",
            "mov [rsp + 144], r8",
            "mov [rsp + 152], r9",
            "movdqu [rsp + 32], xmm0",
            "movdqu [rsp + 48], xmm1",
            "movdqu [rsp + 64], xmm2",
            "movdqu [rsp + 80], xmm3",
            "mov [rsp + 96], r11",
            "mov ecx, r11d",
            "call {bind}",
            "mov r10, rax",
            "mov rcx, [rsp + 128]",
            "mov rdx, [rsp + 136]",
            "mov r8, [rsp + 144]",
            "mov r9, [rsp + 152]",
            "movdqu xmm0, [rsp + 32]",
            "movdqu xmm1, [rsp + 48]",
            "movdqu xmm2, [rsp + 64]",
            "movdqu xmm3, [rsp + 80]",
            // r11 keeps the index for the traced entry.
            "mov r11, [rsp + 96]",
            "add rsp, 120",
            "jmp r10",
            ".seh_endproc",
            bind = sym $bind,
            me = sym $me,
        )
    };
}

/// Body of the traced entry on Windows x64: r11 holds the index (see the SysV variant for
/// `$enter` and `$exit`). Frame from rsp: 32 bytes of home space for the calls it makes, the
/// copied stack arguments (what the caller put above its home space), the index, the state,
/// xmm0-3, the result; rcx, rdx, r8, r9 wait in the caller's home space. Copies with rax and
/// r10 (rsi and rdi are callee-saved on Windows, so no `rep movsq`).
#[macro_export]
macro_rules! traced_body {
    ($enter:path, $exit:path, $me:path) => {
        ::core::arch::naked_asm!(
            ".seh_proc {me}",
            "sub rsp, {frame}",
            ".seh_stackalloc {frame}",
            ".seh_endprologue",
            "mov [rsp + {frame} + 8], rcx",
            "mov [rsp + {frame} + 16], rdx",
            "mov [rsp + {frame} + 24], r8",
            "mov [rsp + {frame} + 32], r9",
            "mov [rsp + {index}], r11",
            "movdqu [rsp + {xmm}], xmm0",
            "movdqu [rsp + {xmm} + 16], xmm1",
            "movdqu [rsp + {xmm} + 32], xmm2",
            "movdqu [rsp + {xmm} + 48], xmm3",
            "xor eax, eax",
            "2:",
            "mov r10, [rsp + {frame} + 40 + rax * 8]",
            "mov [rsp + 32 + rax * 8], r10",
            "inc eax",
            "cmp eax, {words}",
            "jne 2b",
            "mov ecx, dword ptr [rsp + {index}]",
            "lea rdx, [rsp + {state}]",
            "call {enter}",
            "test rax, rax",
            "jz 3f",
            "mov r10, rax",
            "mov rcx, [rsp + {frame} + 8]",
            "mov rdx, [rsp + {frame} + 16]",
            "mov r8, [rsp + {frame} + 24]",
            "mov r9, [rsp + {frame} + 32]",
            "movdqu xmm0, [rsp + {xmm}]",
            "movdqu xmm1, [rsp + {xmm} + 16]",
            "movdqu xmm2, [rsp + {xmm} + 32]",
            "movdqu xmm3, [rsp + {xmm} + 48]",
            "call r10",
            "mov [rsp + {result}], rax",
            "movdqu [rsp + {xmm}], xmm0",
            "mov ecx, dword ptr [rsp + {index}]",
            "mov rdx, [rsp + {state}]",
            "mov r8, rax",
            "call {exit}",
            "mov rax, [rsp + {result}]",
            "movdqu xmm0, [rsp + {xmm}]",
            "add rsp, {frame}",
            "ret",
            "3:",
            "mov rax, [rsp + {state}]",
            "add rsp, {frame}",
            "ret",
            ".seh_endproc",
            enter = sym $enter,
            exit = sym $exit,
            me = sym $me,
            index = const 32 + 8 * $crate::TRACED_ARG_WORDS,
            state = const 40 + 8 * $crate::TRACED_ARG_WORDS,
            xmm = const 48 + 8 * $crate::TRACED_ARG_WORDS,
            result = const 112 + 8 * $crate::TRACED_ARG_WORDS,
            // entry rsp = 8 (mod 16) and the frame = 8 (mod 16): aligned for the calls.
            frame = const 120 + 8 * $crate::TRACED_ARG_WORDS,
            words = const $crate::TRACED_ARG_WORDS,
        )
    };
}
