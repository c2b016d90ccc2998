# Python's html.parser reading a Netscape bookmark file the way a browser's importer does: A tags
# with HREF and ADD_DATE, their text, and the DD after each, printed as JSON. Run by FormatTests.
import html.parser, json, sys
class Reader(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links, self.where = [], None
    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.links.append({"attrs": dict(attrs), "text": "", "dd": None}); self.where = "a"
        elif tag == "dd" and self.links:
            self.links[-1]["dd"] = ""; self.where = "dd"
        else:
            self.where = None
    def handle_endtag(self, tag):
        self.where = None
    def handle_data(self, data):
        if self.where == "a": self.links[-1]["text"] += data
        elif self.where == "dd": self.links[-1]["dd"] += data
reader = Reader()
reader.feed(open(sys.argv[1], encoding="utf-8").read())
print(json.dumps(reader.links))
