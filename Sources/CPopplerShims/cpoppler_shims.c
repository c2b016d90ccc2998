#include "cpoppler_shims.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

// GLib is linked into every program that uses this module; GError is read as GLib lays it out.
typedef struct {
    unsigned int domain;
    int code;
    char *message;
} cpoppler_error;
extern void g_object_unref(void *object);
extern void g_free(void *memory);
extern void g_error_free(cpoppler_error *error);
extern char *g_strdup(const char *text);

static struct {
    PopplerDocument *(*document_new_from_file)(const char *uri, const char *password, cpoppler_error **error);
    int (*document_get_n_pages)(PopplerDocument *document);
    PopplerPage *(*document_get_page)(PopplerDocument *document, int index);
    void (*page_get_size)(PopplerPage *page, double *width, double *height);
    void (*page_render)(PopplerPage *page, void *cairo);
} poppler;

static const char *load_error = "poppler-glib is not loaded yet";
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define FIND(field, name)                                     \
    do {                                                      \
        *(void **)(&poppler.field) = dlsym(library, name);    \
        if (poppler.field == NULL) {                          \
            load_error = "libpoppler-glib.so.8 lacks " name;  \
            return;                                           \
        }                                                     \
    } while (0)

static void load(void) {
    void *library = dlopen("libpoppler-glib.so.8", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        load_error = why != NULL ? why : "libpoppler-glib.so.8 cannot be loaded";
        return;
    }
    FIND(document_new_from_file, "poppler_document_new_from_file");
    FIND(document_get_n_pages, "poppler_document_get_n_pages");
    FIND(document_get_page, "poppler_document_get_page");
    FIND(page_get_size, "poppler_page_get_size");
    FIND(page_render, "poppler_page_render");
    load_error = NULL;
}

int cpoppler_shims_load(void) {
    pthread_once(&once, load);
    return load_error == NULL ? 0 : -1;
}

const char *cpoppler_shims_load_error(void) { return load_error; }

PopplerDocument *cpoppler_shims_open(const char *uri, char **message) {
    cpoppler_error *error = NULL;
    PopplerDocument *document = poppler.document_new_from_file(uri, NULL, &error);
    if (document == NULL) {
        *message = g_strdup(error != NULL && error->message != NULL ? error->message : "cannot be opened");
        if (error != NULL) g_error_free(error);
    }
    return document;
}

int cpoppler_shims_page_count(PopplerDocument *document) { return poppler.document_get_n_pages(document); }

PopplerPage *cpoppler_shims_page(PopplerDocument *document, int index) {
    return poppler.document_get_page(document, index);
}

void cpoppler_shims_page_size(PopplerPage *page, double *width, double *height) {
    poppler.page_get_size(page, width, height);
}

void cpoppler_shims_render(PopplerPage *page, void *cairo) { poppler.page_render(page, cairo); }

void cpoppler_shims_unref(void *object) { g_object_unref(object); }

void cpoppler_shims_free(void *memory) { g_free(memory); }
