#ifndef CLAZY_LIBRARIES_H
#define CLAZY_LIBRARIES_H

// The backends' C libraries, loaded the first time one of their functions is called.
//
// `share` shows a window in about 80 ms; mapping libcurl, libcups, GMime, libsoup, libsecret and
// OpenSSL with the 40 libraries they bring (Kerberos, LDAP, GnuTLS, Avahi, GPGME…) cost a share
// that mails, prints or posts nothing a tenth of that (BENCHMARKS.md, "Window startup").
// lazy_libraries.c defines each function the Swift code calls from them as a small trampoline:
// the first call loads the library with dlopen and finds the function by name, every call
// jumps to it with the caller's registers untouched. The Swift code and the system headers are
// unchanged; no module names these libraries for the linker (no `link` line, no pkg-config),
// so no program's DT_NEEDED list holds them (LinkedLibrariesTests reads `ldd share`).
//
// On an architecture other than x86-64 nothing is defined and the libraries are linked as usual.

/// Whether `soname` (e.g. "libcurl.so.4") has been loaded by a trampoline in this process.
int clazy_libraries_loaded(const char *soname);

#endif
