#ifndef CGTKSYSTEM_SHIM_H
#define CGTKSYSTEM_SHIM_H

// GTK 4 and libadwaita, as one umbrella header for the CGtkSystem system-library module: its
// pkg-config flags reach CGtk, the C target that wraps what Swift cannot call directly.
#include <gtk/gtk.h>
#include <adwaita.h>

#endif
