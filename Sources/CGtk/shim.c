#include "CGtk.h"

#include <gdk/wayland/gdkwayland.h>
#include <gdk/x11/gdkx.h>

GtkWidget *cg_widget(void *p) { return GTK_WIDGET(p); }
GtkWindow *cg_window(void *p) { return GTK_WINDOW(p); }
GtkBox *cg_box(void *p) { return GTK_BOX(p); }
GtkButton *cg_button(void *p) { return GTK_BUTTON(p); }
GtkLabel *cg_label(void *p) { return GTK_LABEL(p); }
GtkImage *cg_image(void *p) { return GTK_IMAGE(p); }
GtkEntry *cg_entry(void *p) { return GTK_ENTRY(p); }
GtkEditable *cg_editable(void *p) { return GTK_EDITABLE(p); }
GtkStack *cg_stack(void *p) { return GTK_STACK(p); }
GtkScrolledWindow *cg_scrolled(void *p) { return GTK_SCROLLED_WINDOW(p); }
GtkProgressBar *cg_progress(void *p) { return GTK_PROGRESS_BAR(p); }
GtkCheckButton *cg_check(void *p) { return GTK_CHECK_BUTTON(p); }
GtkToggleButton *cg_toggle(void *p) { return GTK_TOGGLE_BUTTON(p); }
GtkTextView *cg_text_view(void *p) { return GTK_TEXT_VIEW(p); }
GtkSpinButton *cg_spin(void *p) { return GTK_SPIN_BUTTON(p); }
GtkExpander *cg_expander(void *p) { return GTK_EXPANDER(p); }
GtkSpinner *cg_spinner(void *p) { return GTK_SPINNER(p); }
GtkSearchEntry *cg_search_entry(void *p) { return GTK_SEARCH_ENTRY(p); }
GtkSwitch *cg_switch(void *p) { return GTK_SWITCH(p); }
GtkEventController *cg_controller(void *p) { return GTK_EVENT_CONTROLLER(p); }
AdwWindow *cg_adw_window(void *p) { return ADW_WINDOW(p); }
AdwToastOverlay *cg_toast_overlay(void *p) { return ADW_TOAST_OVERLAY(p); }
AdwHeaderBar *cg_header_bar(void *p) { return ADW_HEADER_BAR(p); }
GObject *cg_object(void *p) { return G_OBJECT(p); }

void cg_set_accessible_label(void *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

void cg_set_accessible_description(void *widget, const char *text) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

GtkWidget *cg_radio_button_new(const char *label) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_TOGGLE_BUTTON, "label", label,
                                   "accessible-role", GTK_ACCESSIBLE_ROLE_RADIO, NULL));
}

GtkWidget *cg_check_toggle_new(void) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_TOGGLE_BUTTON, "accessible-role", GTK_ACCESSIBLE_ROLE_CHECKBOX, NULL));
}

void cg_set_accessible_checked(void *widget, gboolean checked) {
    gtk_accessible_update_state(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_STATE_CHECKED,
                                checked ? GTK_ACCESSIBLE_TRISTATE_TRUE : GTK_ACCESSIBLE_TRISTATE_FALSE, -1);
}

GtkWidget *cg_radio_group_new(int spacing) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_BOX, "orientation", GTK_ORIENTATION_HORIZONTAL, "spacing", spacing,
                                   "accessible-role", GTK_ACCESSIBLE_ROLE_RADIO_GROUP, NULL));
}

void cg_set_string_property(void *object, const char *name, const char *value) {
    g_object_set(G_OBJECT(object), name, value, NULL);
}

gboolean cg_set_transient_for_x11(void *window, unsigned long parent) {
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(window));
    if (surface == NULL || !GDK_IS_X11_SURFACE(surface)) return FALSE;
    Display *xdisplay = gdk_x11_display_get_xdisplay(gdk_surface_get_display(surface));
    XSetTransientForHint(xdisplay, gdk_x11_surface_get_xid(surface), parent);
    return TRUE;
}

gboolean cg_set_transient_for_wayland(void *window, const char *handle) {
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(window));
    if (surface == NULL || !GDK_IS_WAYLAND_TOPLEVEL(surface)) return FALSE;
    return gdk_wayland_toplevel_set_transient_for_exported(GDK_TOPLEVEL(surface), (char *)handle);
}
