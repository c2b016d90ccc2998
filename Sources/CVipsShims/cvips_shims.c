#include "cvips_shims.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

// GLib is linked into every program that uses this module (GIO, GTK); only these calls of it
// are needed here, declared as GLib declares them.
typedef void (*cvips_log_function)(const char *domain, int level, const char *message, void *data);
extern unsigned int g_log_set_handler(const char *domain, int levels, cvips_log_function function, void *data);
extern void g_object_unref(void *object);
extern void g_free(void *memory);

// G_LOG_LEVEL_WARNING; VIPS_SIZE_DOWN in libvips' VipsSize.
enum { cvips_log_level_warning = 1 << 4, cvips_size_down = 2 };

// libvips' functions, found once by name in the loaded library.
static struct {
    int (*init)(const char *argv0);
    void (*cache_set_max)(int max);
    VipsSource *(*source_new_from_file)(const char *filename);
    VipsImage *(*image_new_from_source)(VipsSource *source, const char *option_string, ...);
    int (*thumbnail_source)(VipsSource *source, VipsImage **out, int width, ...);
    int (*jpegsave)(VipsImage *in, const char *filename, ...);
    int (*pngsave)(VipsImage *in, const char *filename, ...);
    int (*webpsave)(VipsImage *in, const char *filename, ...);
    int (*image_get_width)(const VipsImage *image);
    int (*image_get_height)(const VipsImage *image);
    int (*image_get_orientation)(VipsImage *image);
    char *(*error_buffer_copy)(void);
} vips;

static const char *load_error = NULL;
static int started = -1;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *start_name = "sharesheet";

// libvips' warnings (a HEIC's "ignoring nclx profile", each damaged tile of a truncated JPEG)
// would otherwise reach the terminal of whatever program shares the photo; what matters comes
// back as an error from the failing call. The same as libvips' own VIPS_WARNING=0.
static void drop_warning(const char *domain, int level, const char *message, void *data) {
    (void)domain;
    (void)level;
    (void)message;
    (void)data;
}

#define FIND(field, name)                                   \
    do {                                                    \
        *(void **)(&vips.field) = dlsym(library, name);     \
        if (vips.field == NULL) {                           \
            load_error = "libvips.so.42 lacks " name;       \
            return;                                         \
        }                                                   \
    } while (0)

static void load_and_start(void) {
    // RTLD_GLOBAL: libvips' own format modules (vips-modules-8.14) are loaded by it and link it.
    void *library = dlopen("libvips.so.42", RTLD_NOW | RTLD_GLOBAL);
    if (library == NULL) {
        const char *why = dlerror();
        load_error = why != NULL ? why : "libvips.so.42 cannot be loaded";
        return;
    }
    FIND(init, "vips_init");
    FIND(cache_set_max, "vips_cache_set_max");
    FIND(source_new_from_file, "vips_source_new_from_file");
    FIND(image_new_from_source, "vips_image_new_from_source");
    FIND(thumbnail_source, "vips_thumbnail_source");
    FIND(jpegsave, "vips_jpegsave");
    FIND(pngsave, "vips_pngsave");
    FIND(webpsave, "vips_webpsave");
    FIND(image_get_width, "vips_image_get_width");
    FIND(image_get_height, "vips_image_get_height");
    FIND(image_get_orientation, "vips_image_get_orientation");
    FIND(error_buffer_copy, "vips_error_buffer_copy");
    g_log_set_handler("VIPS", cvips_log_level_warning, drop_warning, NULL);
    // VIPS_INIT is vips_init after a check of the headers' ABI, which a library loaded by its
    // soname already fixes.
    if (vips.init(start_name) != 0) return;
    vips.cache_set_max(0);
    started = 0;
}

int cvips_shims_initialize(const char *program_name) {
    start_name = program_name;
    pthread_once(&once, load_and_start);
    return started;
}

const char *cvips_shims_load_error(void) { return load_error; }

VipsSource *cvips_shims_source_new_from_file(const char *path) { return vips.source_new_from_file(path); }

VipsImage *cvips_shims_header(VipsSource *source) { return vips.image_new_from_source(source, "", NULL); }

int cvips_shims_thumbnail(VipsSource *source, VipsImage **out, int width, int height) {
    return vips.thumbnail_source(source, out, width, "height", height, "size", cvips_size_down, "option_string",
                                 "fail_on=truncated", NULL);
}

// gboolean FALSE, as libvips reads the "strip" argument.
int cvips_shims_jpegsave(VipsImage *image, const char *path, int quality) {
    return vips.jpegsave(image, path, "Q", quality, "strip", 0, NULL);
}

int cvips_shims_pngsave(VipsImage *image, const char *path) { return vips.pngsave(image, path, "strip", 0, NULL); }

int cvips_shims_webpsave(VipsImage *image, const char *path, int quality) {
    return vips.webpsave(image, path, "Q", quality, "strip", 0, NULL);
}

int cvips_shims_width(VipsImage *image) { return vips.image_get_width(image); }
int cvips_shims_height(VipsImage *image) { return vips.image_get_height(image); }
int cvips_shims_orientation(VipsImage *image) { return vips.image_get_orientation(image); }

char *cvips_shims_error_buffer_copy(void) {
    return vips.error_buffer_copy != NULL ? vips.error_buffer_copy() : NULL;
}

void cvips_shims_unref(void *object) { g_object_unref(object); }

void cvips_shims_free(void *memory) { g_free(memory); }
