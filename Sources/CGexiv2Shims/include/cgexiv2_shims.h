#ifndef CGEXIV2_SHIMS_H
#define CGEXIV2_SHIMS_H

// gexiv2 (and exiv2, a large C++ library), loaded on first use: only a photo that leaves the
// machine has its metadata rewritten, so `share` is not linked against them and a share of
// anything else never maps them (BENCHMARKS.md, "Window startup"). Types are opaque here; a
// `GError **` is passed as `void **` and read by the caller as GLib's GError.

typedef struct _GExiv2Metadata GExiv2Metadata;

/// Loads `libgexiv2.so.2` and calls `gexiv2_initialize`; 1 on success, 0 otherwise (with
/// `cgexiv2_shims_load_error()` set when the library could not be loaded).
int cgexiv2_shims_start(void);

/// Why gexiv2 could not be loaded (the dynamic loader's words), or NULL.
const char *cgexiv2_shims_load_error(void);

GExiv2Metadata *cgexiv2_shims_new(void);
int cgexiv2_shims_open_path(GExiv2Metadata *metadata, const char *path, void **error);
/// NULL-terminated lists; free them with `cgexiv2_shims_strfreev`.
char **cgexiv2_shims_exif_tags(GExiv2Metadata *metadata);
char **cgexiv2_shims_xmp_tags(GExiv2Metadata *metadata);
int cgexiv2_shims_pixel_width(GExiv2Metadata *metadata);
int cgexiv2_shims_pixel_height(GExiv2Metadata *metadata);
void cgexiv2_shims_delete_gps_info(GExiv2Metadata *metadata, void **error);
int cgexiv2_shims_clear_tag(GExiv2Metadata *metadata, const char *tag, void **error);
int cgexiv2_shims_set_tag_string(GExiv2Metadata *metadata, const char *tag, const char *value, void **error);
/// `gexiv2_metadata_try_set_orientation` to GEXIV2_ORIENTATION_NORMAL (1).
void cgexiv2_shims_set_upright(GExiv2Metadata *metadata, void **error);
int cgexiv2_shims_save_file(GExiv2Metadata *metadata, const char *path, void **error);

/// `g_object_unref` and `g_strfreev`.
void cgexiv2_shims_unref(void *object);
void cgexiv2_shims_strfreev(char **list);

#endif
