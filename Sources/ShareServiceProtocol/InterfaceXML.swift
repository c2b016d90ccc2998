/// The service's introspection XML: the text of Resources/dbus/org.sharesheet.ShareSheet1.xml,
/// which a test compares with this copy, so the code, the file and the docs say the same.
public enum InterfaceXML {
    public static let text = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <!--
          The ShareSheet service (SPEC §8): any application opens the share sheet for its items over the
          session bus. Bus name org.sharesheet.ShareSheet, object /org/sharesheet/ShareSheet.
          The service code embeds this file's text; a test checks they are the same.
        -->
        <node>
          <interface name="org.sharesheet.ShareSheet1">
            <!--
              ListActivities: what the sheet would offer for these items, and what not and why.
              items: as for Share.
              options: excluded-activities (as), custom-actions (a(sss)).
              activities: one dictionary per activity, share row first, then the action row, then the
              unavailable ones: activity (s, the CLI name or app.ID), activity-type (s), title (s),
              icon-name (s), category (s: share or action), available (b), reason (s, when unavailable),
              reason-setting (s), reason-fix (s), reason-path (s): what would make it available, as facts.
            -->
            <method name="ListActivities">
              <arg type="aa{sv}" name="items" direction="in"/>
              <arg type="a{sv}" name="options" direction="in"/>
              <arg type="aa{sv}" name="activities" direction="out"/>
            </method>
            <!--
              ListSuggestions: the people, devices and applications the sheet would suggest for these
              items (SPEC §12), best first, at most 8, each for an activity the sheet offers; no sheet shows.
              items: as for Share.
              options: excluded-activities (as), custom-actions (a(sss)), as for ListActivities.
              suggestions: one dictionary per suggestion: id (s, for Share's suggestion option),
              activity (s, the CLI name), activity-type (s), title (s), subtitle (s), icon-name (s),
              photo (s, a contact's photo as a path; "" when none), presets (a{ss}, the values the
              suggestion sets ahead for the activity's form: to, fingerprint, app, printer).
            -->
            <method name="ListSuggestions">
              <arg type="aa{sv}" name="items" direction="in"/>
              <arg type="a{sv}" name="options" direction="in"/>
              <arg type="aa{sv}" name="suggestions" direction="out"/>
            </method>
            <!--
              Share: returns at once with a request object (org.sharesheet.Request1) that emits Response
              when the share ends.
              parent_window: "" or x11:XID or wayland:HANDLE; the window is made transient for it.
              items: {"text": s}, {"uri": s} (any scheme but file:), {"fd": h, "name": s, "mime-type": s}
              (files arrive only as descriptors; name and mime-type are optional).
              options: handle_token (s), subject (s), fields (a{ss}, preset values for the activity's
              form: to, cc, subject, body, printer…), excluded-activities (as, CLI names or activity
              types), activity (s, skip the sheet: a CLI name, an activity type or app.ID), suggestion
              (s, skip the sheet: the id of a ListSuggestions suggestion for the same items; its activity
              runs with its presets, its form shown filled when it still asks something and interactive
              is true; an id the sheet does not suggest fails with error-field suggestion), interactive
              (b, default true; false performs without any window and fails if input is needed),
              custom-actions (a(sss): id, title, icon-name; picking one ends the request with
              activity = app.ID).
            -->
            <method name="Share">
              <arg type="s" name="parent_window" direction="in"/>
              <arg type="aa{sv}" name="items" direction="in"/>
              <arg type="a{sv}" name="options" direction="in"/>
              <arg type="o" name="handle" direction="out"/>
            </method>
            <property name="version" type="u" access="read"/>
          </interface>
          <!--
            A request: /org/sharesheet/ShareSheet/request/SENDER/TOKEN, where SENDER is the caller's
            unique name without ':' and with '.' as '_', and TOKEN is handle_token (or one the service
            makes). Only the caller that made it may call Close; Response goes to that caller only.
          -->
          <interface name="org.sharesheet.Request1">
            <!-- Close: dismisses the sheet and cancels the work; Response 1 follows. -->
            <method name="Close"/>
            <!--
              Response: response 0 done, 1 dismissed or cancelled, 2 failed.
              results: activity (s), activity-type (s), completed (b), disposition (s), location (s),
              returned-items (as), fallback-message (s), fallback-hint (s) (plain words), fallback-setting (s),
              fallback-fix (s), fallback-path (s), error-code (s),
              error-message (s), error-field (s), error-setting (s) (group.key), error-fix (s), error-path (s),
              error-hint (s) (plain words), kept (s), kept-location (s), kept-resume (s) — the fields of the
              command's JSON result, present when they have a value.
            -->
            <signal name="Response">
              <arg type="u" name="response"/>
              <arg type="a{sv}" name="results"/>
            </signal>
          </interface>
        </node>
        """
}
