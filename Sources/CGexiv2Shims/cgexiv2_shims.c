#include "cgexiv2_shims.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

// GLib is linked into every program that uses this module.
extern void g_object_unref(void *object);
extern void g_strfreev(char **list);

static struct {
    int (*initialize)(void);
    GExiv2Metadata *(*metadata_new)(void);
    int (*open_path)(GExiv2Metadata *metadata, const char *path, void **error);
    char **(*get_exif_tags)(GExiv2Metadata *metadata);
    char **(*get_xmp_tags)(GExiv2Metadata *metadata);
    int (*get_pixel_width)(GExiv2Metadata *metadata);
    int (*get_pixel_height)(GExiv2Metadata *metadata);
    void (*try_delete_gps_info)(GExiv2Metadata *metadata, void **error);
    int (*try_clear_tag)(GExiv2Metadata *metadata, const char *tag, void **error);
    int (*try_set_tag_string)(GExiv2Metadata *metadata, const char *tag, const char *value, void **error);
    void (*try_set_orientation)(GExiv2Metadata *metadata, int orientation, void **error);
    int (*save_file)(GExiv2Metadata *metadata, const char *path, void **error);
} gexiv2;

static const char *load_error = NULL;
static int started = 0;
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define FIND(field, name)                                  \
    do {                                                   \
        *(void **)(&gexiv2.field) = dlsym(library, name);  \
        if (gexiv2.field == NULL) {                        \
            load_error = "libgexiv2.so.2 lacks " name;     \
            return;                                        \
        }                                                  \
    } while (0)

static void load_and_start(void) {
    void *library = dlopen("libgexiv2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        load_error = why != NULL ? why : "libgexiv2.so.2 cannot be loaded";
        return;
    }
    FIND(initialize, "gexiv2_initialize");
    FIND(metadata_new, "gexiv2_metadata_new");
    FIND(open_path, "gexiv2_metadata_open_path");
    FIND(get_exif_tags, "gexiv2_metadata_get_exif_tags");
    FIND(get_xmp_tags, "gexiv2_metadata_get_xmp_tags");
    FIND(get_pixel_width, "gexiv2_metadata_get_pixel_width");
    FIND(get_pixel_height, "gexiv2_metadata_get_pixel_height");
    FIND(try_delete_gps_info, "gexiv2_metadata_try_delete_gps_info");
    FIND(try_clear_tag, "gexiv2_metadata_try_clear_tag");
    FIND(try_set_tag_string, "gexiv2_metadata_try_set_tag_string");
    FIND(try_set_orientation, "gexiv2_metadata_try_set_orientation");
    FIND(save_file, "gexiv2_metadata_save_file");
    started = gexiv2.initialize() != 0;
}

int cgexiv2_shims_start(void) {
    pthread_once(&once, load_and_start);
    return started;
}

const char *cgexiv2_shims_load_error(void) { return load_error; }

GExiv2Metadata *cgexiv2_shims_new(void) { return gexiv2.metadata_new(); }
int cgexiv2_shims_open_path(GExiv2Metadata *metadata, const char *path, void **error) {
    return gexiv2.open_path(metadata, path, error);
}
char **cgexiv2_shims_exif_tags(GExiv2Metadata *metadata) { return gexiv2.get_exif_tags(metadata); }
char **cgexiv2_shims_xmp_tags(GExiv2Metadata *metadata) { return gexiv2.get_xmp_tags(metadata); }
int cgexiv2_shims_pixel_width(GExiv2Metadata *metadata) { return gexiv2.get_pixel_width(metadata); }
int cgexiv2_shims_pixel_height(GExiv2Metadata *metadata) { return gexiv2.get_pixel_height(metadata); }
void cgexiv2_shims_delete_gps_info(GExiv2Metadata *metadata, void **error) {
    gexiv2.try_delete_gps_info(metadata, error);
}
int cgexiv2_shims_clear_tag(GExiv2Metadata *metadata, const char *tag, void **error) {
    return gexiv2.try_clear_tag(metadata, tag, error);
}
int cgexiv2_shims_set_tag_string(GExiv2Metadata *metadata, const char *tag, const char *value, void **error) {
    return gexiv2.try_set_tag_string(metadata, tag, value, error);
}
void cgexiv2_shims_set_upright(GExiv2Metadata *metadata, void **error) {
    gexiv2.try_set_orientation(metadata, 1, error);
}
int cgexiv2_shims_save_file(GExiv2Metadata *metadata, const char *path, void **error) {
    return gexiv2.save_file(metadata, path, error);
}

void cgexiv2_shims_unref(void *object) { g_object_unref(object); }
void cgexiv2_shims_strfreev(char **list) { g_strfreev(list); }
