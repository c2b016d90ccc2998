#include "cvips_shims.h"

// libvips' warnings (a HEIC's "ignoring nclx profile", each damaged tile of a truncated JPEG)
// would otherwise reach the terminal of whatever program shares the photo; what matters comes
// back as an error from the failing call. The same as libvips' own VIPS_WARNING=0.
static void cvips_shims_drop_warning(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain;
    (void)level;
    (void)message;
    (void)data;
}

int cvips_shims_initialize(const char *program_name) {
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, cvips_shims_drop_warning, NULL);
    if (VIPS_INIT(program_name) != 0) return -1;
    vips_cache_set_max(0);
    return 0;
}

VipsImage *cvips_shims_header(VipsSource *source) {
    return vips_image_new_from_source(source, "", NULL);
}

int cvips_shims_thumbnail(VipsSource *source, VipsImage **out, int width, int height) {
    return vips_thumbnail_source(source, out, width, "height", height, "size", VIPS_SIZE_DOWN, "option_string",
                                 "fail_on=truncated", NULL);
}

int cvips_shims_jpegsave(VipsImage *image, const char *path, int quality) {
    return vips_jpegsave(image, path, "Q", quality, "strip", FALSE, NULL);
}

int cvips_shims_pngsave(VipsImage *image, const char *path) {
    return vips_pngsave(image, path, "strip", FALSE, NULL);
}

int cvips_shims_webpsave(VipsImage *image, const char *path, int quality) {
    return vips_webpsave(image, path, "Q", quality, "strip", FALSE, NULL);
}
