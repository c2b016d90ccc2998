/*
 * The baseline of scripts/bench-window: a minimal GTK 4 window with one button ("Copy"),
 * presented at startup.
 *
 * It starts the way `share --gui` does, so the comparison is about what each draws, not about
 * how it starts: GTK initialised in-process (`gtk_init`; share calls `gtk_init_check`), a window
 * built completely and presented, then a plain GMainLoop of its own. No GtkApplication: that
 * would register a name on the session bus and check for a primary instance before the window
 * exists, work `share` does not do (with G_APPLICATION_NON_UNIQUE it would skip the check but
 * still pay for GApplication's startup and activation signals). Both windows ask for the same
 * default size, 480 x 600.
 *
 * Built with -DWITH_ADWAITA (and libadwaita-1's flags) it calls `adw_init` and uses an AdwWindow
 * holding the same button, as share does: the difference to the plain build is libadwaita's
 * share of the startup time.
 *
 * It runs until it is killed (scripts/bench-window sends SIGTERM) or its window is closed.
 */
#include <gtk/gtk.h>
#ifdef WITH_ADWAITA
#include <adwaita.h>
#endif

static void quit_loop(GtkWidget *window, gpointer loop) {
    (void)window;
    g_main_loop_quit(loop);
}

int main(void) {
    gtk_init();
#ifdef WITH_ADWAITA
    adw_init();
    GtkWidget *window = adw_window_new();
    adw_window_set_content(ADW_WINDOW(window), gtk_button_new_with_label("Copy"));
#else
    GtkWidget *window = gtk_window_new();
    gtk_window_set_child(GTK_WINDOW(window), gtk_button_new_with_label("Copy"));
#endif
    gtk_window_set_title(GTK_WINDOW(window), "Minimal");
    gtk_window_set_default_size(GTK_WINDOW(window), 480, 600);

    GMainLoop *loop = g_main_loop_new(NULL, FALSE);
    g_signal_connect(window, "destroy", G_CALLBACK(quit_loop), loop);
    gtk_window_present(GTK_WINDOW(window));
    g_main_loop_run(loop);
    g_main_loop_unref(loop);
    return 0;
}
