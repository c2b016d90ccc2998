#ifndef CGTK_H
#define CGTK_H

// The GTK 4 and libadwaita calls Swift cannot import: GObject cast macros, variadic
// g_object_new/g_object_set and gtk_accessible_update_property, and the X11/Wayland
// transient-for calls. Declared here, defined in shim.c; the libraries' own headers come from
// CGtkSystem (pkg-config), which this target depends on.
#include <gtk/gtk.h>
#include <adwaita.h>

// GObject casts: Swift sees most widget types as opaque pointers.
GtkWidget *cg_widget(void *p);
GtkWindow *cg_window(void *p);
GtkBox *cg_box(void *p);
GtkButton *cg_button(void *p);
GtkLabel *cg_label(void *p);
GtkImage *cg_image(void *p);
GtkEntry *cg_entry(void *p);
GtkEditable *cg_editable(void *p);
GtkStack *cg_stack(void *p);
GtkScrolledWindow *cg_scrolled(void *p);
GtkProgressBar *cg_progress(void *p);
GtkCheckButton *cg_check(void *p);
GtkToggleButton *cg_toggle(void *p);
GtkTextView *cg_text_view(void *p);
GtkSpinButton *cg_spin(void *p);
GtkExpander *cg_expander(void *p);
GtkSpinner *cg_spinner(void *p);
GtkSearchEntry *cg_search_entry(void *p);
GtkSwitch *cg_switch(void *p);
GtkEventController *cg_controller(void *p);
AdwWindow *cg_adw_window(void *p);
AdwToastOverlay *cg_toast_overlay(void *p);
AdwHeaderBar *cg_header_bar(void *p);
GObject *cg_object(void *p);

// GTK 4.8 names a button that holds an image and a label "GtkButton" for assistive technology:
// give every control its visible title as its accessible name.
void cg_set_accessible_label(void *widget, const char *label);
// Its accessible description, the same way.
void cg_set_accessible_description(void *widget, const char *text);
// A toggle button that assistive technology sees as a radio button, with the "click" action
// GTK 4.8 gives only to GtkButton and its subclasses (a GtkCheckButton has none, and keeps the
// check-box role even in a group). The role can only be given at construction.
GtkWidget *cg_radio_button_new(const char *label);
// A toggle button that assistive technology sees as a check box, with the "click" action a
// GtkCheckButton lacks in GTK 4.8; its "checked" state is kept with cg_set_accessible_checked.
GtkWidget *cg_check_toggle_new(void);
// Says whether a check-box-like widget is checked (gtk_accessible_update_state is variadic).
void cg_set_accessible_checked(void *widget, gboolean checked);
// A horizontal box that assistive technology sees as one group of radio buttons.
GtkWidget *cg_radio_group_new(int spacing);

// g_object_set is variadic: one string property at a time.
void cg_set_string_property(void *object, const char *name, const char *value);

// Makes a realized window transient for another application's window: an X11 window id, or a
// Wayland xdg-foreign handle. False when the display is not of that kind.
gboolean cg_set_transient_for_x11(void *window, unsigned long parent);
gboolean cg_set_transient_for_wayland(void *window, const char *handle);

#endif
