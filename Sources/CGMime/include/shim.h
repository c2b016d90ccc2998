#ifndef CGMIME_SHIM_H
#define CGMIME_SHIM_H

// GMime 3, as one umbrella header for the CGMime system-library module.
#include <gmime/gmime.h>

#endif
