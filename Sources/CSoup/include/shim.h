#ifndef CSOUP_SHIM_H
#define CSOUP_SHIM_H

// libsoup 3 (and the GIO it sits on), as one umbrella header for the CSoup system-library module.
#include <libsoup/soup.h>
#include <gio/gio.h>

#endif
