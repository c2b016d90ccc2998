// The libsecret headers come from include/libsecret, a link to where the -dev package puts them: a C
// target, not a system library, so pkg-config does not add -l flags. lazy_libraries.c (CLazyLibraries)
// defines the functions and loads the library on their first call.
#include "shim.h"
