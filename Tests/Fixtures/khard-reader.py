# Loads the address books of a khard configuration with khard's own code and prints, per
# contact, what khard (through vobject) read from the PHOTO property. Run by KhardTests.
import base64, json, sys
from khard.config import Config
config = Config(sys.argv[1])
config.init_address_books()
contacts = []
for book in config.abooks:
    book.load()
    for uid, contact in book.contacts.items():
        photo = getattr(contact.vcard, "photo", None)
        value = photo.value if photo is not None else None
        contacts.append({
            "uid": uid, "name": contact.formatted_name, "version": contact.version,
            "file": contact.filename,
            "photoBytes": base64.b64encode(value).decode() if isinstance(value, bytes) else None,
            "photoText": value if isinstance(value, str) else None,
        })
print(json.dumps(contacts))
