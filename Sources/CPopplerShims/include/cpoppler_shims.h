#ifndef CPOPPLER_SHIMS_H
#define CPOPPLER_SHIMS_H

// poppler-glib, loaded on first use: only Print's preview draws a PDF's pages, so `share` is not
// linked against poppler and the NSS libraries it brings, and a share that previews nothing
// never maps them (BENCHMARKS.md, "Window startup"). Its types are opaque here.

typedef struct _PopplerDocument PopplerDocument;
typedef struct _PopplerPage PopplerPage;

/// Loads `libpoppler-glib.so.8`; 0 on success, -1 with `cpoppler_shims_load_error()` set.
int cpoppler_shims_load(void);

/// Why poppler-glib could not be loaded (the dynamic loader's words), or NULL when it was.
const char *cpoppler_shims_load_error(void);

/// `poppler_document_new_from_file` without a password; NULL with `*message` set to a string
/// to free with `cpoppler_shims_free` when the file cannot be opened.
PopplerDocument *cpoppler_shims_open(const char *uri, char **message);

/// `poppler_document_get_n_pages`.
int cpoppler_shims_page_count(PopplerDocument *document);

/// `poppler_document_get_page` (0-based); release it with `cpoppler_shims_unref`.
PopplerPage *cpoppler_shims_page(PopplerDocument *document, int index);

/// `poppler_page_get_size`, in points.
void cpoppler_shims_page_size(PopplerPage *page, double *width, double *height);

/// `poppler_page_render` onto a cairo context (`cairo_t *`).
void cpoppler_shims_render(PopplerPage *page, void *cairo);

/// `g_object_unref` of a document or a page.
void cpoppler_shims_unref(void *object);

/// `g_free`.
void cpoppler_shims_free(void *memory);

#endif
