#ifndef CVIPS_SHIMS_H
#define CVIPS_SHIMS_H

// libvips, loaded on first use: `share` is not linked against it, so a share that sends no
// photo never maps libvips and the 25 libraries only it needs (HEIF, AVIF, OpenEXR, FITS…),
// which were the largest part of the window's startup (BENCHMARKS.md, "Window startup").
// Every call goes through these functions; none of libvips' headers is needed to build, and
// its types are opaque here.

typedef struct _VipsImage VipsImage;
typedef struct _VipsSource VipsSource;

/// Loads libvips (`libvips.so.42`), then VIPS_INIT and the operation cache turned off: each
/// photo is loaded once, so a cache would only keep decoded images alive. libvips' warnings (log
/// domain "VIPS") are dropped; failures still come back through the error buffer. Returns 0 on
/// success; -1 with `cvips_shims_load_error()` set when libvips cannot be loaded, or with the
/// error buffer set when it cannot start.
int cvips_shims_initialize(const char *program_name);

/// Why libvips could not be loaded (the dynamic loader's words), or NULL when it was.
const char *cvips_shims_load_error(void);

/// `vips_source_new_from_file`, or NULL with the error buffer set.
VipsSource *cvips_shims_source_new_from_file(const char *path);

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

/// `vips_image_get_width`, `_height` and `_orientation` (1 when the image has no orientation).
int cvips_shims_width(VipsImage *image);
int cvips_shims_height(VipsImage *image);
int cvips_shims_orientation(VipsImage *image);

/// `vips_error_buffer_copy`: the error buffer, cleared; free it with `cvips_shims_free`. NULL
/// when libvips is not loaded.
char *cvips_shims_error_buffer_copy(void);

/// `g_object_unref` of an image or a source.
void cvips_shims_unref(void *object);

/// `g_free`.
void cvips_shims_free(void *memory);

#endif
