/*
 * phase-marks: an LD_PRELOAD library that says when a GTK program reaches each step of its
 * startup, for scripts/bench-window's phase table (PHASES=1). It wraps the calls both the C
 * windows and `share --gui` make, passes each on unchanged, and writes one line per step to
 * standard error:
 *
 *   phase-marks MS STEP
 *
 * MS is milliseconds since map-timer started the program (its MAP_TIMER_START, CLOCK_MONOTONIC),
 * so the steps line up with the map time map-timer reports. Without MAP_TIMER_START it writes
 * nothing (so map-timer itself, started with the same LD_PRELOAD, stays quiet). Only the first
 * time each step is reached counts (adw_init calls gtk_init again).
 *
 * Steps: "loaded" (this library's constructor: every library is loaded and relocated),
 * "main loop" (the first g_unix_fd_add: share's GLibMainLoop, before ShareCommand runs),
 * "gtk_init" and "gtk_init done" (gtk_init or gtk_init_check), "adw_init" and "adw_init done",
 * "window" (the first gtk_window_new or adw_window_new), "present" and "present done"
 * (gtk_window_present; GTK maps the window inside it).
 *
 * Build: cc -O2 -shared -fPIC -o phase-marks.so phase-marks.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double start_ms = -1;

static void mark(const char *step) {
    if (start_ms < 0) return;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    fprintf(stderr, "phase-marks %.3f %s\n", t.tv_sec * 1e3 + t.tv_nsec / 1e6 - start_ms, step);
}

/* Marks `step` the first time it is reached, wherever from (gtk_init and gtk_init_check share
 * their steps). Startup runs on the main thread, so no lock. */
static void once(const char *step) {
    static const char *seen[16];
    static int count;
    for (int i = 0; i < count; i++)
        if (!strcmp(seen[i], step)) return;
    if (count < 16) seen[count++] = step;
    mark(step);
}

/* The wrapped function, looked up once. */
#define REAL(type, name)                                   \
    static type real_##name;                               \
    if (!real_##name) real_##name = (type)dlsym(RTLD_NEXT, #name)

__attribute__((constructor)) static void loaded(void) {
    const char *start = getenv("MAP_TIMER_START");
    if (start) start_ms = atof(start);
    mark("loaded");
}

typedef unsigned (*fd_add_fn)(int, int, void *, void *);
unsigned g_unix_fd_add(int fd, int condition, void *function, void *data) {
    REAL(fd_add_fn, g_unix_fd_add);
    once("main loop");
    return real_g_unix_fd_add(fd, condition, function, data);
}

typedef int (*init_check_fn)(void);
int gtk_init_check(void) {
    REAL(init_check_fn, gtk_init_check);
    once("gtk_init");
    int opened = real_gtk_init_check();
    once("gtk_init done");
    return opened;
}

typedef void (*void_fn)(void);
void gtk_init(void) {
    REAL(void_fn, gtk_init);
    once("gtk_init");
    real_gtk_init();
    once("gtk_init done");
}

void adw_init(void) {
    REAL(void_fn, adw_init);
    once("adw_init");
    real_adw_init();
    once("adw_init done");
}

typedef void *(*new_fn)(void);
void *gtk_window_new(void) {
    REAL(new_fn, gtk_window_new);
    once("window");
    return real_gtk_window_new();
}

void *adw_window_new(void) {
    REAL(new_fn, adw_window_new);
    once("window");
    return real_adw_window_new();
}

typedef void (*present_fn)(void *);
void gtk_window_present(void *window) {
    REAL(present_fn, gtk_window_present);
    once("present");
    real_gtk_window_present(window);
    once("present done");
}
