#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

// libcurl, as one umbrella header for the CCurl system-library module.
#include <curl/curl.h>

#endif
