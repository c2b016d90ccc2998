#ifndef CGIO_SHIM_H
#define CGIO_SHIM_H

// GIO, as one umbrella header for the CGIO system-library module.
#include <gio/gio.h>
#include <glib-unix.h>
#include <gio/gunixfdlist.h>
#include <gio/gdesktopappinfo.h>

#endif
