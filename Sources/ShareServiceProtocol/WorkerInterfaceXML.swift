/// The private interface between the front (`sharesheet-service`) and the service it starts
/// (`share --service`), on a peer-to-peer connection over a socket pair, never on a bus.
///
/// The front is what D-Bus activation starts: it links GIO only, so it owns the name and answers
/// the first `Share` while `share`, with its hundred libraries, is still loading. Once `share`
/// has taken the name over, the front hands it every call it took meanwhile, with the caller's
/// unique name and the caller's descriptors, and ends. `share` then serves them as if it had
/// received them itself: the request objects, the `Response` signals and the caller watches are
/// all its own.
public enum WorkerInterfaceXML {
    /// The interface's name.
    public static let interface = "org.sharesheet.ServiceWorker1"

    public static let text = """
        <node>
          <interface name="org.sharesheet.ServiceWorker1">
            <!-- A Share the front has answered with handle: serve it from here on. -->
            <method name="Share">
              <arg type="s" name="sender" direction="in"/>
              <arg type="o" name="handle" direction="in"/>
              <arg type="s" name="parent_window" direction="in"/>
              <arg type="aa{sv}" name="items" direction="in"/>
              <arg type="a{sv}" name="options" direction="in"/>
            </method>
            <!-- A ListActivities the front took: the front relays the reply. -->
            <method name="ListActivities">
              <arg type="s" name="sender" direction="in"/>
              <arg type="aa{sv}" name="items" direction="in"/>
              <arg type="a{sv}" name="options" direction="in"/>
              <arg type="aa{sv}" name="activities" direction="out"/>
            </method>
            <!-- A ListSuggestions the front took: the front relays the reply. -->
            <method name="ListSuggestions">
              <arg type="s" name="sender" direction="in"/>
              <arg type="aa{sv}" name="items" direction="in"/>
              <arg type="a{sv}" name="options" direction="in"/>
              <arg type="aa{sv}" name="suggestions" direction="out"/>
            </method>
            <!-- A Close the front took from sender for the request at handle. -->
            <method name="Close">
              <arg type="s" name="sender" direction="in"/>
              <arg type="o" name="handle" direction="in"/>
            </method>
          </interface>
        </node>
        """
}
