#ifndef CGTK_SHIM_H
#define CGTK_SHIM_H

// GTK 4 and libadwaita, as one umbrella header for the CGtk system-library module, with the
// casts and variadic calls Swift cannot spell.
#include <gtk/gtk.h>
#include <adwaita.h>
#include <gdk/x11/gdkx.h>
#include <gdk/wayland/gdkwayland.h>

// GObject casts: Swift sees most widget types as opaque pointers.
static inline GtkWidget *cg_widget(void *p) { return GTK_WIDGET(p); }
static inline GtkWindow *cg_window(void *p) { return GTK_WINDOW(p); }
static inline GtkBox *cg_box(void *p) { return GTK_BOX(p); }
static inline GtkButton *cg_button(void *p) { return GTK_BUTTON(p); }
static inline GtkLabel *cg_label(void *p) { return GTK_LABEL(p); }
static inline GtkImage *cg_image(void *p) { return GTK_IMAGE(p); }
static inline GtkEntry *cg_entry(void *p) { return GTK_ENTRY(p); }
static inline GtkEditable *cg_editable(void *p) { return GTK_EDITABLE(p); }
static inline GtkStack *cg_stack(void *p) { return GTK_STACK(p); }
static inline GtkScrolledWindow *cg_scrolled(void *p) { return GTK_SCROLLED_WINDOW(p); }
static inline GtkProgressBar *cg_progress(void *p) { return GTK_PROGRESS_BAR(p); }
static inline GtkCheckButton *cg_check(void *p) { return GTK_CHECK_BUTTON(p); }
static inline GtkToggleButton *cg_toggle(void *p) { return GTK_TOGGLE_BUTTON(p); }
static inline GtkTextView *cg_text_view(void *p) { return GTK_TEXT_VIEW(p); }
static inline GtkSpinButton *cg_spin(void *p) { return GTK_SPIN_BUTTON(p); }
static inline GtkExpander *cg_expander(void *p) { return GTK_EXPANDER(p); }
static inline GtkSpinner *cg_spinner(void *p) { return GTK_SPINNER(p); }
static inline GtkSearchEntry *cg_search_entry(void *p) { return GTK_SEARCH_ENTRY(p); }
static inline GtkSwitch *cg_switch(void *p) { return GTK_SWITCH(p); }
static inline GtkEventController *cg_controller(void *p) { return GTK_EVENT_CONTROLLER(p); }
static inline AdwWindow *cg_adw_window(void *p) { return ADW_WINDOW(p); }
static inline AdwToastOverlay *cg_toast_overlay(void *p) { return ADW_TOAST_OVERLAY(p); }
static inline AdwHeaderBar *cg_header_bar(void *p) { return ADW_HEADER_BAR(p); }
static inline GObject *cg_object(void *p) { return G_OBJECT(p); }

// GTK 4.8 names a button that holds an image and a label "GtkButton" for assistive technology:
// give every control its visible title as its accessible name.
static inline void cg_set_accessible_label(void *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}
// A toggle button that assistive technology sees as a radio button, with the "click" action
// GTK 4.8 gives only to GtkButton and its subclasses (a GtkCheckButton has none, and keeps the
// check-box role even in a group). The role can only be given at construction.
static inline GtkWidget *cg_radio_button_new(const char *label) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_TOGGLE_BUTTON, "label", label,
                                   "accessible-role", GTK_ACCESSIBLE_ROLE_RADIO, NULL));
}

// g_object_set is variadic: one string property at a time.
static inline void cg_set_string_property(void *object, const char *name, const char *value) {
    g_object_set(G_OBJECT(object), name, value, NULL);
}
static inline void cg_set_accessible_description(void *widget, const char *text) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

// Makes a realized window transient for another application's window: an X11 window id, or a
// Wayland xdg-foreign handle. False when the display is not of that kind.
static inline gboolean cg_set_transient_for_x11(void *window, unsigned long parent) {
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(window));
    if (surface == NULL || !GDK_IS_X11_SURFACE(surface)) return FALSE;
    Display *xdisplay = gdk_x11_display_get_xdisplay(gdk_surface_get_display(surface));
    XSetTransientForHint(xdisplay, gdk_x11_surface_get_xid(surface), parent);
    return TRUE;
}
static inline gboolean cg_set_transient_for_wayland(void *window, const char *handle) {
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(window));
    if (surface == NULL || !GDK_IS_WAYLAND_TOPLEVEL(surface)) return FALSE;
    return gdk_wayland_toplevel_set_transient_for_exported(GDK_TOPLEVEL(surface), (char *)handle);
}

#endif
