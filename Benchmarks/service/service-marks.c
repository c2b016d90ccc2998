/*
 * service-marks: an LD_PRELOAD library that says when an activated GDBus service reaches each
 * step between its start and its first reply, for scripts/bench-service's step table (MARKS=N).
 * It wraps calls that both share --service and minimal-service make, passes each on unchanged,
 * and appends one line per step to the file named by SERVICE_MARKS:
 *
 *   PID MS STEP
 *
 * MS is CLOCK_MONOTONIC in milliseconds, the clock bench-client reports its call's start in, so
 * the steps line up with the client's call. Without SERVICE_MARKS it writes nothing. Only the
 * first time each step is reached counts.
 *
 * Each method call handled on the thread that called g_dbus_message_get_unix_fd_list (share's
 * handler does, first thing) and then answered there adds a line
 *
 *   PID MS handler KIND MICROSECONDS
 *
 * with the time from that call to the end of the reply call (the reply built, serialized and
 * queued for GDBus's worker thread): the handler's own work, without the bus. KIND
 * is "fds" when the call carried descriptors, else "plain". (minimal-service makes no such call.)
 *
 * Steps: "loaded" (this library's constructor: the libraries are loaded and relocated),
 * "main loop" (the first g_unix_fd_add: share's GLibMainLoop starting, before the command runs;
 * minimal-service has none), "own name" (g_bus_own_name called), "bus acquired" (the first
 * g_dbus_connection_register_object: connected, authenticated, Hello answered, in the
 * bus_acquired callback), "reply" (the first g_dbus_method_invocation_return_value or
 * g_dbus_method_invocation_return_dbus_error, before GDBus sends it).
 *
 * Build: cc -O2 -shared -fPIC -o service-marks.so service-marks.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void append(const char *line, int length) {
    const char *path = getenv("SERVICE_MARKS");
    if (path == NULL || path[0] == '\0') return;
    int file = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (file >= 0) {
        if (write(file, line, (size_t)length) < 0) { /* nothing to do: the line is missing */ }
        close(file);
    }
}

/* Appends "PID MS STEP" the first time `step` is reached. */
static void once(const char *step) {
    static const char *seen[8];
    static int count;
    double ms = now_ms();
    pthread_mutex_lock(&lock);
    for (int i = 0; i < count; i++)
        if (!strcmp(seen[i], step)) {
            pthread_mutex_unlock(&lock);
            return;
        }
    if (count < 8) seen[count++] = step;
    pthread_mutex_unlock(&lock);
    char line[128];
    int length = snprintf(line, sizeof line, "%d %.3f %s\n", (int)getpid(), ms, step);
    append(line, length);
}

/* The handler in progress on this thread: when it started (0: none), whether it has descriptors. */
static __thread double handler_started;
static __thread int handler_has_descriptors;

static void handler_replied(void) {
    if (handler_started == 0) return;
    double ms = now_ms();
    char line[128];
    int length = snprintf(line, sizeof line, "%d %.3f handler %s %.1f\n", (int)getpid(), ms,
                          handler_has_descriptors ? "fds" : "plain", (ms - handler_started) * 1e3);
    handler_started = 0;
    append(line, length);
}

/* The wrapped function, looked up once. */
#define REAL(type, name)                                   \
    static type real_##name;                               \
    if (!real_##name) real_##name = (type)dlsym(RTLD_NEXT, #name)

__attribute__((constructor)) static void loaded(void) { once("loaded"); }

typedef unsigned (*fd_add_fn)(int, int, void *, void *);
unsigned g_unix_fd_add(int fd, int condition, void *function, void *data) {
    REAL(fd_add_fn, g_unix_fd_add);
    once("main loop");
    return real_g_unix_fd_add(fd, condition, function, data);
}

typedef unsigned (*own_name_fn)(int, const char *, int, void *, void *, void *, void *, void *);
unsigned g_bus_own_name(int bus_type, const char *name, int flags, void *bus_acquired, void *name_acquired,
                        void *name_lost, void *data, void *destroy) {
    REAL(own_name_fn, g_bus_own_name);
    once("own name");
    return real_g_bus_own_name(bus_type, name, flags, bus_acquired, name_acquired, name_lost, data, destroy);
}

typedef unsigned (*register_fn)(void *, const char *, void *, const void *, void *, void *, void *);
unsigned g_dbus_connection_register_object(void *connection, const char *path, void *interface, const void *vtable,
                                           void *data, void *free_data, void *error) {
    REAL(register_fn, g_dbus_connection_register_object);
    once("bus acquired");
    return real_g_dbus_connection_register_object(connection, path, interface, vtable, data, free_data, error);
}

typedef void *(*fd_list_fn)(void *);
void *g_dbus_message_get_unix_fd_list(void *message) {
    REAL(fd_list_fn, g_dbus_message_get_unix_fd_list);
    double started = now_ms();
    void *list = real_g_dbus_message_get_unix_fd_list(message);
    handler_started = started;
    handler_has_descriptors = list != NULL;
    return list;
}

typedef void (*return_value_fn)(void *, void *);
void g_dbus_method_invocation_return_value(void *invocation, void *parameters) {
    REAL(return_value_fn, g_dbus_method_invocation_return_value);
    once("reply");
    double started = handler_started;
    handler_started = 0;
    real_g_dbus_method_invocation_return_value(invocation, parameters);
    handler_started = started;
    handler_replied();
}

typedef void (*return_error_fn)(void *, const char *, const char *);
void g_dbus_method_invocation_return_dbus_error(void *invocation, const char *name, const char *message) {
    REAL(return_error_fn, g_dbus_method_invocation_return_dbus_error);
    once("reply");
    handler_started = 0;
    real_g_dbus_method_invocation_return_dbus_error(invocation, name, message);
}
