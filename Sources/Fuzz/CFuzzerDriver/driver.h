#ifndef CFUZZERDRIVER_H
#define CFUZZERDRIVER_H

#include <stddef.h>
#include <stdint.h>

// libFuzzer's entry point for programs that have a main of their own. SwiftPM names an
// executable's top-level code `main` at link time (so tests can link the module), which hides
// libFuzzer's main; the fuzz programs call this from their top-level code instead.
// Declared only: it is defined by libclang_rt.fuzzer, linked by -sanitize=fuzzer.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
