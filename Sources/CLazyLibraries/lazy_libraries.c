#define _GNU_SOURCE
#include "clazy_libraries.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) && defined(__linux__)

// One library: its soname, and its handle once loaded.
struct clazy_library {
    const char *soname;
    void *handle;
};

// One function: where it is once found (read by its trampoline), its name, its library.
// The layout is the trampolines' too: they read `function` at offset 0.
struct clazy_function {
    void *function;
    const char *name;
    struct clazy_library *library;
};

#define CLAZY_HIDDEN __attribute__((visibility("hidden")))

CLAZY_HIDDEN struct clazy_library clazy_library_curl = {"libcurl.so.4", NULL};
CLAZY_HIDDEN struct clazy_library clazy_library_cups = {"libcups.so.2", NULL};
CLAZY_HIDDEN struct clazy_library clazy_library_gmime = {"libgmime-3.0.so.0", NULL};
CLAZY_HIDDEN struct clazy_library clazy_library_secret = {"libsecret-1.so.0", NULL};
CLAZY_HIDDEN struct clazy_library clazy_library_soup = {"libsoup-3.0.so.0", NULL};
CLAZY_HIDDEN struct clazy_library clazy_library_ssl = {"libssl.so.3", NULL};
CLAZY_HIDDEN struct clazy_library clazy_library_crypto = {"libcrypto.so.3", NULL};

static struct clazy_library *const clazy_libraries[] = {
    &clazy_library_curl, &clazy_library_cups, &clazy_library_gmime, &clazy_library_secret,
    &clazy_library_soup, &clazy_library_ssl, &clazy_library_crypto,
};

static pthread_mutex_t clazy_lock = PTHREAD_MUTEX_INITIALIZER;

// A library that cannot be loaded or lacks a function is a broken installation: the caller
// cannot be given an error through a signature that has none, so the program says which
// library and why, and exits with EX_UNAVAILABLE.
static void clazy_fail(const char *what, const char *detail) {
    char line[1024];
    int length = snprintf(line, sizeof line, "%s: %s: %s (reinstall the package that provides it)\n",
                          program_invocation_short_name, what, detail ? detail : "unknown error");
    if (length > 0) {
        ssize_t written = write(STDERR_FILENO, line, (size_t)length < sizeof line ? (size_t)length : sizeof line - 1);
        (void)written;
    }
    _exit(69);
}

// Called by clazy_resolve_and_jump with the function's record; returns its address.
CLAZY_HIDDEN void *clazy_resolve(struct clazy_function *record) {
    pthread_mutex_lock(&clazy_lock);
    void *function = __atomic_load_n(&record->function, __ATOMIC_ACQUIRE);
    if (function == NULL) {
        struct clazy_library *library = record->library;
        if (library->handle == NULL) {
            // RTLD_GLOBAL, as linking would have made it: GMime's and libsoup's own modules and
            // libcurl's TLS back end find the symbols they expect.
            void *handle = dlopen(library->soname, RTLD_NOW | RTLD_GLOBAL);
            if (handle == NULL) clazy_fail(library->soname, dlerror());
            __atomic_store_n(&library->handle, handle, __ATOMIC_RELEASE);
        }
        function = dlsym(library->handle, record->name);
        if (function == NULL) clazy_fail(record->name, dlerror());
        __atomic_store_n(&record->function, function, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&clazy_lock);
    return function;
}

int clazy_libraries_loaded(const char *soname) {
    for (size_t i = 0; i < sizeof clazy_libraries / sizeof clazy_libraries[0]; i++) {
        if (strcmp(clazy_libraries[i]->soname, soname) == 0)
            return __atomic_load_n(&clazy_libraries[i]->handle, __ATOMIC_ACQUIRE) != NULL;
    }
    return 0;
}

// The slow path every trampoline jumps to with its record in %r11: keeps the argument
// registers (the six integer ones, %rax — the vector register count of a variadic call — and
// %xmm0-7), resolves the function, restores them and jumps to it, so the function sees the
// call exactly as its caller made it, stack arguments and return address included.
__asm__(
    "    .pushsection .text\n"
    "    .p2align 4\n"
    "    .type clazy_resolve_and_jump, @function\n"
    "clazy_resolve_and_jump:\n"
    "    pushq %rbp\n"
    "    movq %rsp, %rbp\n"
    "    pushq %rdi\n"
    "    pushq %rsi\n"
    "    pushq %rdx\n"
    "    pushq %rcx\n"
    "    pushq %r8\n"
    "    pushq %r9\n"
    "    pushq %rax\n"
    // 8 pushes of 8 bytes after the caller's return address: %rsp is 16-byte aligned less 8;
    // 136 more bytes (the vector registers and 8 to align) make the call's alignment right.
    "    subq $136, %rsp\n"
    "    movdqu %xmm0, 0(%rsp)\n"
    "    movdqu %xmm1, 16(%rsp)\n"
    "    movdqu %xmm2, 32(%rsp)\n"
    "    movdqu %xmm3, 48(%rsp)\n"
    "    movdqu %xmm4, 64(%rsp)\n"
    "    movdqu %xmm5, 80(%rsp)\n"
    "    movdqu %xmm6, 96(%rsp)\n"
    "    movdqu %xmm7, 112(%rsp)\n"
    "    movq %r11, %rdi\n"
    "    call clazy_resolve\n"
    "    movq %rax, %r11\n"
    "    movdqu 0(%rsp), %xmm0\n"
    "    movdqu 16(%rsp), %xmm1\n"
    "    movdqu 32(%rsp), %xmm2\n"
    "    movdqu 48(%rsp), %xmm3\n"
    "    movdqu 64(%rsp), %xmm4\n"
    "    movdqu 80(%rsp), %xmm5\n"
    "    movdqu 96(%rsp), %xmm6\n"
    "    movdqu 112(%rsp), %xmm7\n"
    "    addq $136, %rsp\n"
    "    popq %rax\n"
    "    popq %r9\n"
    "    popq %r8\n"
    "    popq %rcx\n"
    "    popq %rdx\n"
    "    popq %rsi\n"
    "    popq %rdi\n"
    "    popq %rbp\n"
    "    jmp *%r11\n"
    "    .size clazy_resolve_and_jump, . - clazy_resolve_and_jump\n"
    "    .popsection\n");

// A trampoline named `name`, hidden (the executable exports its symbols for backtraces; these
// must not stand in for the library's own when it is loaded), with its record and name string.
// Found: one load, a test and an indirect jump.
#define CLAZY_FUNCTION(library, name)                                            \
    __asm__("    .pushsection .rodata\n"           \
            "clazy_name_" #name ":\n"                                             \
            "    .asciz \"" #name "\"\n"                                          \
            "    .popsection\n"                                                   \
            "    .pushsection .data\n"                                            \
            "    .p2align 3\n"                                                    \
            "clazy_record_" #name ":\n"                                           \
            "    .quad 0, clazy_name_" #name ", clazy_library_" #library "\n"      \
            "    .popsection\n"                                                   \
            "    .pushsection .text\n"                                            \
            "    .globl " #name "\n"                                              \
            "    .hidden " #name "\n"                                             \
            "    .type " #name ", @function\n"                                    \
            "    .p2align 4\n"                                                    \
            #name ":\n"                                                           \
            "    movq clazy_record_" #name "(%rip), %r11\n"                       \
            "    testq %r11, %r11\n"                                              \
            "    jz 1f\n"                                                         \
            "    jmp *%r11\n"                                                     \
            "1:  leaq clazy_record_" #name "(%rip), %r11\n"                       \
            "    jmp clazy_resolve_and_jump\n"                                    \
            "    .size " #name ", . - " #name "\n"                                \
            "    .popsection\n");

// The functions the Swift code calls, by library. A function used from one of these libraries
// and missing here links the library again, which LinkedLibrariesTests reports.
#include "lazy_functions.h"

#else

int clazy_libraries_loaded(const char *soname) {
    (void)soname;
    return 0;
}

#endif
