/*
 * dbus-client.c: share one file through the share service (org.sharesheet.ShareSheet) with GIO.
 *
 *   cc -o dbus-client Examples/dbus-client.c $(pkg-config --cflags --libs gio-unix-2.0)
 *   ./dbus-client photo.png photos     # Save to Photos, no window
 *   ./dbus-client report.pdf           # the sheet opens (in the service), you pick
 *
 * The file goes as a descriptor (the caller needs no path the service can see, as in a
 * sandbox). Share returns at once with a request object; the outcome comes later as its
 * Response signal, so we subscribe to it first, then call, then run the main loop until it
 * arrives. The exit status is the response: 0 done, 1 dismissed, 2 failed.
 * The interface: Resources/dbus/org.sharesheet.ShareSheet1.xml.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <gio/gunixfdlist.h>

#define SERVICE "org.sharesheet.ShareSheet"
#define OBJECT "/org/sharesheet/ShareSheet"

static GMainLoop *loop;
static guint32 response = 2;

/* Response(u response, a{sv} results): print both, remember the response, stop the loop. */
static void
on_response (GDBusConnection *connection, const gchar *sender, const gchar *path,
             const gchar *interface, const gchar *signal, GVariant *parameters, gpointer data)
{
  GVariant *results;
  GVariantIter iter;
  const gchar *key;
  GVariant *value;

  (void) connection; (void) sender; (void) path; (void) interface; (void) signal; (void) data;
  g_variant_get (parameters, "(u@a{sv})", &response, &results);
  printf ("response %u\n", response);
  g_variant_iter_init (&iter, results);
  while (g_variant_iter_loop (&iter, "{&sv}", &key, &value))
    {
      gchar *text = g_variant_print (value, FALSE);
      printf ("%s %s\n", key, text);
      g_free (text);
    }
  g_variant_unref (results);
  g_main_loop_quit (loop);
}

int
main (int argc, char **argv)
{
  GError *error = NULL;
  GDBusConnection *bus;
  GUnixFDList *fds;
  GVariantBuilder item, items, options;
  GVariant *reply;
  gchar *sender, *token, *path, *name;
  int fd, index;

  if (argc < 2 || argc > 3)
    {
      fprintf (stderr, "usage: %s FILE [ACTIVITY]\n", argv[0]);
      return 64;
    }
  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  if (bus == NULL)
    {
      fprintf (stderr, "dbus-client: %s\n", error->message);
      return 69;
    }

  /* The request's path is known before the call: our unique name without ':' and with '.'
   * as '_', and a handle_token of our choosing. Subscribe to its Response first. */
  sender = g_strdup (g_dbus_connection_get_unique_name (bus) + 1);
  g_strdelimit (sender, ".", '_');
  token = g_strdup_printf ("dbus_client_%d", (int) getpid ());
  path = g_strdup_printf (OBJECT "/request/%s/%s", sender, token);
  g_dbus_connection_signal_subscribe (bus, SERVICE, "org.sharesheet.Request1", "Response", path,
                                      NULL, G_DBUS_SIGNAL_FLAGS_NONE, on_response, NULL, NULL);

  /* The file, opened read-only; the list keeps its own copy of the descriptor and the item
   * names it by its index in the list (type h). */
  fd = open (argv[1], O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      perror (argv[1]);
      return 66;
    }
  fds = g_unix_fd_list_new ();
  index = g_unix_fd_list_append (fds, fd, &error);
  close (fd);
  if (index < 0)
    {
      fprintf (stderr, "dbus-client: %s\n", error->message);
      return 71;
    }
  name = g_path_get_basename (argv[1]);

  /* items: [{"fd": <h>, "name": <s>}]; options: handle_token, and with an activity no sheet. */
  g_variant_builder_init (&item, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&item, "{sv}", "fd", g_variant_new_handle (index));
  g_variant_builder_add (&item, "{sv}", "name", g_variant_new_string (name));
  g_variant_builder_init (&items, G_VARIANT_TYPE ("aa{sv}"));
  g_variant_builder_add_value (&items, g_variant_builder_end (&item));
  g_variant_builder_init (&options, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&options, "{sv}", "handle_token", g_variant_new_string (token));
  if (argc == 3)
    {
      g_variant_builder_add (&options, "{sv}", "activity", g_variant_new_string (argv[2]));
      g_variant_builder_add (&options, "{sv}", "interactive", g_variant_new_boolean (FALSE));
    }

  /* Share(s parent_window, aa{sv} items, a{sv} options) -> (o handle). The bus starts the
   * service if it is not running (D-Bus activation). */
  reply = g_dbus_connection_call_with_unix_fd_list_sync (
      bus, SERVICE, OBJECT, "org.sharesheet.ShareSheet1", "Share",
      g_variant_new ("(s@aa{sv}@a{sv})", "", g_variant_builder_end (&items),
                     g_variant_builder_end (&options)),
      G_VARIANT_TYPE ("(o)"), G_DBUS_CALL_FLAGS_NONE, -1, fds, NULL, NULL, &error);
  g_object_unref (fds);
  if (reply == NULL)
    {
      g_dbus_error_strip_remote_error (error);
      fprintf (stderr, "dbus-client: Share: %s\n", error->message);
      return 69;
    }
  g_variant_unref (reply);

  /* The signal is delivered by the main loop; on_response stops it. */
  loop = g_main_loop_new (NULL, FALSE);
  g_main_loop_run (loop);

  g_main_loop_unref (loop);
  g_free (name);
  g_free (path);
  g_free (token);
  g_free (sender);
  g_object_unref (bus);
  return (int) response;
}
