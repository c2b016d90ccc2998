/*
 * minimal-service: the least a D-Bus activated GDBus service can do, as the baseline of
 * scripts/bench-service's cold activation. It owns a name on the session bus and answers one
 * method with the share service's signature,
 *
 *   org.sharesheet.ShareSheet1.Share(s parent_window, aa{sv} items, a{sv} options) -> (o handle)
 *
 * on /org/sharesheet/ShareSheet, with a fixed object path and nothing else done. It exits once it
 * has been idle for the given seconds (after the name is given up and 250 ms more, as share
 * --service does), or on SIGTERM/SIGINT.
 *
 *   minimal-service NAME [IDLE_SECONDS]        (default 0.5)
 *
 * Exit status: 0 after the idle exit or a signal; 69 when the name cannot be had; 64 for a usage
 * error.
 */
#include <gio/gio.h>
#include <glib-unix.h>
#include <stdlib.h>

static const char interface_xml[] =
    "<node>"
    "  <interface name='org.sharesheet.ShareSheet1'>"
    "    <method name='Share'>"
    "      <arg type='s' name='parent_window' direction='in'/>"
    "      <arg type='aa{sv}' name='items' direction='in'/>"
    "      <arg type='a{sv}' name='options' direction='in'/>"
    "      <arg type='o' name='handle' direction='out'/>"
    "    </method>"
    "  </interface>"
    "</node>";

static GMainLoop *loop;
static guint owner_id;
static guint idle_source;
static guint idle_ms = 500;
static int status;

static gboolean quit(gpointer data) {
    (void)data;
    g_main_loop_quit(loop);
    return G_SOURCE_REMOVE;
}

static gboolean idle_exit(gpointer data) {
    (void)data;
    idle_source = 0;
    if (owner_id != 0) g_bus_unown_name(owner_id);
    owner_id = 0;
    g_timeout_add(250, quit, NULL);
    return G_SOURCE_REMOVE;
}

static void restart_idle_timer(void) {
    if (idle_source != 0) g_source_remove(idle_source);
    idle_source = g_timeout_add(idle_ms, idle_exit, NULL);
}

static void method_call(GDBusConnection *connection, const char *sender, const char *path,
                        const char *interface, const char *method, GVariant *parameters,
                        GDBusMethodInvocation *invocation, gpointer data) {
    (void)connection, (void)sender, (void)path, (void)interface, (void)parameters, (void)data;
    restart_idle_timer();
    if (g_strcmp0(method, "Share") == 0) {
        g_dbus_method_invocation_return_value(
            invocation, g_variant_new("(o)", "/org/sharesheet/ShareSheet/request/minimal/1"));
    } else {
        g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.UnknownMethod",
                                                   "no such method");
    }
}

static const GDBusInterfaceVTable vtable = {method_call, NULL, NULL, {0}};

static void bus_acquired(GDBusConnection *connection, const char *name, gpointer data) {
    (void)name;
    GDBusNodeInfo *node = data;
    GError *error = NULL;
    if (g_dbus_connection_register_object(connection, "/org/sharesheet/ShareSheet", node->interfaces[0],
                                          &vtable, NULL, NULL, &error) == 0) {
        g_printerr("minimal-service: cannot register the object: %s\n", error->message);
        g_error_free(error);
        status = 70;
        g_main_loop_quit(loop);
    }
}

static void name_acquired(GDBusConnection *connection, const char *name, gpointer data) {
    (void)connection, (void)name, (void)data;
    restart_idle_timer();
}

static void name_lost(GDBusConnection *connection, const char *name, gpointer data) {
    (void)connection, (void)data;
    g_printerr("minimal-service: cannot own %s\n", name);
    status = 69;
    g_main_loop_quit(loop);
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3) {
        g_printerr("usage: minimal-service NAME [IDLE_SECONDS]\n");
        return 64;
    }
    if (argc == 3) idle_ms = (guint)(strtod(argv[2], NULL) * 1000);
    GError *error = NULL;
    GDBusNodeInfo *node = g_dbus_node_info_new_for_xml(interface_xml, &error);
    if (node == NULL) {
        g_printerr("minimal-service: %s\n", error->message);
        return 70;
    }
    loop = g_main_loop_new(NULL, FALSE);
    g_unix_signal_add(SIGTERM, quit, NULL);
    g_unix_signal_add(SIGINT, quit, NULL);
    owner_id = g_bus_own_name(G_BUS_TYPE_SESSION, argv[1], G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE, bus_acquired,
                              name_acquired, name_lost, node, NULL);
    g_main_loop_run(loop);
    if (owner_id != 0) g_bus_unown_name(owner_id);
    g_dbus_node_info_unref(node);
    g_main_loop_unref(loop);
    return status;
}
