#ifndef CVIPS_SHIMS_H
#define CVIPS_SHIMS_H

// Non-variadic entry points for the libvips calls Swift cannot import: VIPS_INIT is a macro,
// and every operation takes its optional arguments as a NULL-terminated name/value list.
#include <vips/vips.h>

/// VIPS_INIT, then the operation cache turned off: each photo is loaded once, so a cache would
/// only keep decoded images alive. libvips' warnings (log domain "VIPS") are dropped; failures
/// still come back through the error buffer. Returns 0 on success.
int cvips_shims_initialize(const char *program_name);

/// The image header of `source` (its pixels are not decoded), or NULL with the error buffer set.
VipsImage *cvips_shims_header(VipsSource *source);

/// `vips_thumbnail_source`: fit inside width×height, never enlarge (`size=down`), shrink on
/// load, turn the pixels upright (the orientation tag removed), truncated data an error.
int cvips_shims_thumbnail(VipsSource *source, VipsImage **out, int width, int height);

/// `vips_jpegsave` at `quality`, metadata kept (not stripped).
int cvips_shims_jpegsave(VipsImage *image, const char *path, int quality);

/// `vips_pngsave`, metadata kept.
int cvips_shims_pngsave(VipsImage *image, const char *path);

/// `vips_webpsave` at `quality`, metadata kept.
int cvips_shims_webpsave(VipsImage *image, const char *path, int quality);

#endif
