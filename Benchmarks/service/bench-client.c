/*
 * bench-client: the timing client of scripts/bench-service, written with GIO so that nothing but
 * GDBus itself stands between the clock and the bus (PyGObject adds about 200 µs a call).
 * It talks to the session bus of DBUS_SESSION_BUS_ADDRESS.
 *
 *   bench-client warm COUNT TEXT_FILE PNG_FILE
 *       With the share service running (this activates it if not): 50 warm-up rounds, then COUNT
 *       rounds of three calls on one connection, in an order that rotates each round:
 *         list-mixed  ListActivities with 10 items: 5 texts, 3 https links, 2 file descriptors
 *                     (TEXT_FILE as text/plain, PNG_FILE as image/png, opened read-only once and
 *                     sent with every call)
 *         list-text   ListActivities with 10 texts
 *         ping        org.freedesktop.DBus.Peer.Ping to the same name and object (GDBus answers
 *                     it on its worker thread: the bus's own round trip, the floor)
 *       Prints one line per kind, "KIND COUNT MEDIAN_US P99_US MIN_US MAX_US", then
 *       "activities KIND TOTAL OFFERED" for the two lists and "pid BEFORE AFTER" (the service's
 *       PID before and after the rounds: the same service answered them all).
 *
 *   bench-client cold NAME [--no-response]
 *       The service NAME must not be running. Times Share("", [{"text": "cold start"}],
 *       {"activity": "copy", "interactive": false, "handle_token": "bench"}) from just before the
 *       call to its reply, which includes the bus starting the service. The time at which the
 *       bus announced NAME's new owner (NameOwnerChanged, seen by a filter on GDBus's worker
 *       thread as it arrives) splits it into "start → name owned" and "name owned → reply".
 *       Then waits for the request's Response (not with --no-response: the minimal service
 *       sends none). Prints "REPLY_MS OWNED_MS PID RESPONSE RESPONDER_PID" (PID: the name's owner
 *       at the reply, the front for share; RESPONDER_PID: the Response's sender, share --service;
 *       RESPONSE -1 and RESPONDER_PID 0 without one), then the
 *       call's start as "start-realtime SECONDS.MICROSECONDS" (to line it up with strace -ttt)
 *       and as "start-monotonic MS" (CLOCK_MONOTONIC, to line it up with service-marks.so).
 *
 *   bench-client environment NAME=VALUE...
 *       Sets variables of the bus's activation environment (UpdateActivationEnvironment): what
 *       the services it starts from now on get. An empty value is passed as such.
 *
 * Exit status: 0 with the numbers; 1 when a call failed or the service was already running;
 * 64 for a usage error.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <gio/gio.h>
#include <gio/gunixfdlist.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SERVICE "org.sharesheet.ShareSheet"
#define OBJECT "/org/sharesheet/ShareSheet"
#define INTERFACE "org.sharesheet.ShareSheet1"
#define CALL_TIMEOUT_MS 25000

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void fail(const char *what, GError *error) {
    fprintf(stderr, "bench-client: %s: %s\n", what, error ? error->message : "failed");
    exit(1);
}

static GDBusConnection *connect_bus(void) {
    GError *error = NULL;
    GDBusConnection *connection = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
    if (connection == NULL) fail("cannot connect to the session bus", error);
    return connection;
}

/* A call answered by the bus itself; returns its reply. */
static GVariant *bus_call(GDBusConnection *connection, const char *method, GVariant *parameters,
                          const char *reply_type) {
    GError *error = NULL;
    GVariant *reply = g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                  "org.freedesktop.DBus", method, parameters,
                                                  G_VARIANT_TYPE(reply_type), G_DBUS_CALL_FLAGS_NONE,
                                                  CALL_TIMEOUT_MS, NULL, &error);
    if (reply == NULL) fail(method, error);
    return reply;
}

static guint32 owner_pid(GDBusConnection *connection, const char *name) {
    guint32 pid;
    GVariant *reply = bus_call(connection, "GetConnectionUnixProcessID", g_variant_new("(s)", name), "(u)");
    g_variant_get(reply, "(u)", &pid);
    g_variant_unref(reply);
    return pid;
}

static gboolean has_owner(GDBusConnection *connection, const char *name) {
    gboolean owned;
    GVariant *reply = bus_call(connection, "NameHasOwner", g_variant_new("(s)", name), "(b)");
    g_variant_get(reply, "(b)", &owned);
    g_variant_unref(reply);
    return owned;
}

/* MARK: warm */

enum { LIST_MIXED, LIST_TEXT, PING, KINDS };
static const char *const kind_names[KINDS] = {"list-mixed", "list-text", "ping"};

static void add_entry(GVariantBuilder *items, const char *key, GVariant *value) {
    GVariantBuilder entry;
    g_variant_builder_init(&entry, G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(&entry, "{sv}", key, value);
    g_variant_builder_add_value(items, g_variant_builder_end(&entry));
}

static void add_descriptor(GVariantBuilder *items, gint32 handle, const char *name, const char *mime_type) {
    GVariantBuilder entry;
    g_variant_builder_init(&entry, G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(&entry, "{sv}", "fd", g_variant_new_handle(handle));
    g_variant_builder_add(&entry, "{sv}", "name", g_variant_new_string(name));
    g_variant_builder_add(&entry, "{sv}", "mime-type", g_variant_new_string(mime_type));
    g_variant_builder_add_value(items, g_variant_builder_end(&entry));
}

/* (aa{sv}a{sv}) for ListActivities, not floating: it is sent again and again. */
static GVariant *list_arguments(gboolean mixed) {
    GVariantBuilder items;
    g_variant_builder_init(&items, G_VARIANT_TYPE("aa{sv}"));
    for (int i = 0; i < (mixed ? 5 : 10); i++) {
        char text[64];
        snprintf(text, sizeof text, "Note %d: the quarterly numbers, revenue up 4 %%", i + 1);
        add_entry(&items, "text", g_variant_new_string(text));
    }
    if (mixed) {
        add_entry(&items, "uri", g_variant_new_string("https://swift.org/documentation/"));
        add_entry(&items, "uri", g_variant_new_string("https://www.debian.org/releases/bookworm/"));
        add_entry(&items, "uri", g_variant_new_string("https://example.com/report?quarter=3"));
        add_descriptor(&items, 0, "notes.txt", "text/plain");
        add_descriptor(&items, 1, "photo.png", "image/png");
    }
    GVariantBuilder options;
    g_variant_builder_init(&options, G_VARIANT_TYPE("a{sv}"));
    return g_variant_ref_sink(g_variant_new("(aa{sv}a{sv})", &items, &options));
}

/* One call; returns its time in µs and, for a list, how many activities it gave. */
static double timed_call(GDBusConnection *connection, int kind, GVariant *mixed, GVariant *text,
                         GUnixFDList *descriptors, int *total, int *offered) {
    GError *error = NULL;
    GVariant *reply;
    double started = now_us();
    if (kind == PING) {
        reply = g_dbus_connection_call_sync(connection, SERVICE, OBJECT, "org.freedesktop.DBus.Peer", "Ping", NULL,
                                            G_VARIANT_TYPE("()"), G_DBUS_CALL_FLAGS_NONE, CALL_TIMEOUT_MS, NULL,
                                            &error);
    } else {
        reply = g_dbus_connection_call_with_unix_fd_list_sync(
            connection, SERVICE, OBJECT, INTERFACE, "ListActivities", kind == LIST_MIXED ? mixed : text,
            G_VARIANT_TYPE("(aa{sv})"), G_DBUS_CALL_FLAGS_NONE, CALL_TIMEOUT_MS,
            kind == LIST_MIXED ? descriptors : NULL, NULL, NULL, &error);
    }
    double elapsed = now_us() - started;
    if (reply == NULL) fail(kind_names[kind], error);
    if (kind != PING && total != NULL) {
        GVariant *activities = g_variant_get_child_value(reply, 0);
        *total = (int)g_variant_n_children(activities);
        *offered = 0;
        for (gsize i = 0; i < g_variant_n_children(activities); i++) {
            GVariant *activity = g_variant_get_child_value(activities, i);
            gboolean available = FALSE;
            g_variant_lookup(activity, "available", "b", &available);
            *offered += available;
            g_variant_unref(activity);
        }
        g_variant_unref(activities);
    }
    g_variant_unref(reply);
    return elapsed;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nearest rank. */
static double percentile(const double *sorted, int count, double fraction) {
    int rank = (int)ceil(fraction * count);
    return sorted[rank < 1 ? 0 : rank - 1];
}

static int warm(int count, const char *text_file, const char *png_file) {
    GDBusConnection *connection = connect_bus();
    GUnixFDList *descriptors = g_unix_fd_list_new();
    const char *files[] = {text_file, png_file};
    for (int i = 0; i < 2; i++) {
        GError *error = NULL;
        int descriptor = open(files[i], O_RDONLY | O_CLOEXEC);
        if (descriptor < 0) {
            fprintf(stderr, "bench-client: cannot open %s: %s\n", files[i], strerror(errno));
            return 1;
        }
        if (g_unix_fd_list_append(descriptors, descriptor, &error) < 0) fail("g_unix_fd_list_append", error);
        close(descriptor);
    }
    GVariant *mixed = list_arguments(TRUE), *text = list_arguments(FALSE);

    /* Activation, then warm-up. A ListActivities, not a Ping: the front that activation starts
     * answers Ping itself, but passes ListActivities on once share --service has the name. */
    timed_call(connection, LIST_TEXT, mixed, text, descriptors, NULL, NULL);
    guint32 pid_before = owner_pid(connection, SERVICE);
    int totals[KINDS] = {0}, offered[KINDS] = {0};
    for (int i = 0; i < 50; i++)
        for (int kind = 0; kind < KINDS; kind++)
            timed_call(connection, kind, mixed, text, descriptors, &totals[kind], &offered[kind]);

    double *samples[KINDS];
    for (int kind = 0; kind < KINDS; kind++) samples[kind] = g_new(double, count);
    for (int i = 0; i < count; i++)
        for (int step = 0; step < KINDS; step++) {
            int kind = (i + step) % KINDS;
            samples[kind][i] = timed_call(connection, kind, mixed, text, descriptors, NULL, NULL);
        }
    guint32 pid_after = owner_pid(connection, SERVICE);

    for (int kind = 0; kind < KINDS; kind++) {
        qsort(samples[kind], count, sizeof(double), compare_doubles);
        printf("%s %d %.1f %.1f %.1f %.1f\n", kind_names[kind], count, percentile(samples[kind], count, 0.5),
               percentile(samples[kind], count, 0.99), samples[kind][0], samples[kind][count - 1]);
        g_free(samples[kind]);
    }
    printf("activities list-mixed %d %d\n", totals[LIST_MIXED], offered[LIST_MIXED]);
    printf("activities list-text %d %d\n", totals[LIST_TEXT], offered[LIST_TEXT]);
    printf("pid %u %u\n", pid_before, pid_after);
    g_variant_unref(mixed);
    g_variant_unref(text);
    g_object_unref(descriptors);
    g_object_unref(connection);
    return 0;
}

/* MARK: cold */

static const char *watched_name;
static double owned_at; /* µs, CLOCK_MONOTONIC; written on GDBus's worker thread */
static GMutex owned_lock;

/* Sees every incoming message on GDBus's worker thread, as it arrives. */
static GDBusMessage *watch_owner(GDBusConnection *connection, GDBusMessage *message, gboolean incoming,
                                 gpointer data) {
    (void)connection, (void)data;
    if (incoming && g_dbus_message_get_message_type(message) == G_DBUS_MESSAGE_TYPE_SIGNAL &&
        g_strcmp0(g_dbus_message_get_member(message), "NameOwnerChanged") == 0 &&
        g_strcmp0(g_dbus_message_get_sender(message), "org.freedesktop.DBus") == 0) {
        const char *name, *old_owner, *new_owner;
        GVariant *body = g_dbus_message_get_body(message);
        if (body != NULL && g_variant_is_of_type(body, G_VARIANT_TYPE("(sss)"))) {
            g_variant_get(body, "(&s&s&s)", &name, &old_owner, &new_owner);
            if (strcmp(name, watched_name) == 0 && new_owner[0] != '\0') {
                double at = now_us();
                g_mutex_lock(&owned_lock);
                if (owned_at == 0) owned_at = at;
                g_mutex_unlock(&owned_lock);
            }
        }
    }
    return message;
}

/* The subscription only adds the match rule; watch_owner reads the signal. */
static void ignore_signal(GDBusConnection *connection, const char *sender, const char *path, const char *interface,
                          const char *signal, GVariant *parameters, gpointer data) {
    (void)connection, (void)sender, (void)path, (void)interface, (void)signal, (void)parameters, (void)data;
}

/* The Response's sender: share --service, which took the name over from the front. */
static char *responder;

static void on_response(GDBusConnection *connection, const char *sender, const char *path, const char *interface,
                        const char *signal, GVariant *parameters, gpointer data) {
    (void)connection, (void)path, (void)interface, (void)signal;
    guint32 response;
    g_variant_get(parameters, "(ua{sv})", &response, NULL);
    g_free(responder);
    responder = g_strdup(sender);
    *(gint64 *)data = response;
}

static gboolean give_up(gpointer data) {
    *(gboolean *)data = TRUE;
    return G_SOURCE_REMOVE;
}

static int cold(const char *name, gboolean wants_response) {
    GDBusConnection *connection = connect_bus();
    watched_name = name;
    g_dbus_connection_add_filter(connection, watch_owner, NULL, NULL);
    guint owner_subscription = g_dbus_connection_signal_subscribe(
        connection, "org.freedesktop.DBus", "org.freedesktop.DBus", "NameOwnerChanged", "/org/freedesktop/DBus", name,
        G_DBUS_SIGNAL_FLAGS_NONE, ignore_signal, NULL, NULL);

    /* The request's path: our unique name without ':' and with '.' as '_', then the token. */
    char *caller = g_strdup(g_dbus_connection_get_unique_name(connection) + 1);
    g_strdelimit(caller, ".", '_');
    char *handle = g_strdup_printf(OBJECT "/request/%s/bench", caller);
    gint64 response = -1;
    guint response_subscription = 0;
    if (wants_response)
        response_subscription = g_dbus_connection_signal_subscribe(
            connection, NULL, "org.sharesheet.Request1", "Response", handle, NULL, G_DBUS_SIGNAL_FLAGS_NONE,
            on_response, &response, NULL);
    /* A round trip after the subscriptions: the bus has their match rules before the call. */
    if (has_owner(connection, name)) {
        fprintf(stderr, "bench-client: %s is already running (PID %u); cold runs need it stopped\n", name,
                owner_pid(connection, name));
        return 1;
    }

    GVariantBuilder items, options;
    g_variant_builder_init(&items, G_VARIANT_TYPE("aa{sv}"));
    add_entry(&items, "text", g_variant_new_string("cold start"));
    g_variant_builder_init(&options, G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(&options, "{sv}", "activity", g_variant_new_string("copy"));
    g_variant_builder_add(&options, "{sv}", "interactive", g_variant_new_boolean(FALSE));
    g_variant_builder_add(&options, "{sv}", "handle_token", g_variant_new_string("bench"));
    GVariant *arguments = g_variant_ref_sink(g_variant_new("(saa{sv}a{sv})", "", &items, &options));

    GError *error = NULL;
    struct timespec realtime;
    clock_gettime(CLOCK_REALTIME, &realtime);
    double started = now_us();
    GVariant *reply = g_dbus_connection_call_sync(connection, name, OBJECT, INTERFACE, "Share", arguments,
                                                  G_VARIANT_TYPE("(o)"), G_DBUS_CALL_FLAGS_NONE, CALL_TIMEOUT_MS,
                                                  NULL, &error);
    double replied = now_us();
    if (reply == NULL) fail("Share", error);
    guint32 pid = owner_pid(connection, name);

    if (wants_response) {
        const char *path;
        g_variant_get(reply, "(&o)", &path);
        if (strcmp(path, handle) != 0) {
            fprintf(stderr, "bench-client: Share returned %s, expected %s\n", path, handle);
            return 1;
        }
        gboolean late = FALSE;
        guint timeout = g_timeout_add_seconds(20, give_up, &late);
        while (response < 0 && !late) g_main_context_iteration(NULL, TRUE);
        if (late) {
            fprintf(stderr, "bench-client: no Response on %s within 20 s\n", handle);
            return 1;
        }
        g_source_remove(timeout);
        g_dbus_connection_signal_unsubscribe(connection, response_subscription);
    }
    guint32 responder_pid = responder != NULL ? owner_pid(connection, responder) : 0;
    g_mutex_lock(&owned_lock);
    double owned = owned_at;
    g_mutex_unlock(&owned_lock);
    printf("%.3f %.3f %u %" G_GINT64_FORMAT " %u\n", (replied - started) / 1e3,
           owned > 0 ? (owned - started) / 1e3 : -1.0, pid, response, responder_pid);
    printf("start-realtime %lld.%06ld\n", (long long)realtime.tv_sec, realtime.tv_nsec / 1000);
    printf("start-monotonic %.3f\n", started / 1e3);
    g_variant_unref(reply);
    g_variant_unref(arguments);
    g_dbus_connection_signal_unsubscribe(connection, owner_subscription);
    g_free(handle);
    g_free(caller);
    g_object_unref(connection);
    return 0;
}

/* MARK: environment */

static int environment(int count, char **assignments) {
    GDBusConnection *connection = connect_bus();
    GVariantBuilder variables;
    g_variant_builder_init(&variables, G_VARIANT_TYPE("a{ss}"));
    for (int i = 0; i < count; i++) {
        char *name = g_strdup(assignments[i]);
        char *equals = strchr(name, '=');
        if (equals == NULL || equals == name) {
            fprintf(stderr, "bench-client: '%s' is not NAME=VALUE\n", assignments[i]);
            return 64;
        }
        *equals = '\0';
        g_variant_builder_add(&variables, "{ss}", name, equals + 1);
        g_free(name);
    }
    g_variant_unref(bus_call(connection, "UpdateActivationEnvironment", g_variant_new("(a{ss})", &variables), "()"));
    g_object_unref(connection);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "warm") == 0 && atoi(argv[2]) > 0) return warm(atoi(argv[2]), argv[3], argv[4]);
    if ((argc == 3 || (argc == 4 && strcmp(argv[3], "--no-response") == 0)) && strcmp(argv[1], "cold") == 0)
        return cold(argv[2], argc == 3);
    if (argc >= 3 && strcmp(argv[1], "environment") == 0) return environment(argc - 2, argv + 2);
    fprintf(stderr, "usage: bench-client warm COUNT TEXT_FILE PNG_FILE\n"
                    "       bench-client cold NAME [--no-response]\n"
                    "       bench-client environment NAME=VALUE...\n");
    return 64;
}
