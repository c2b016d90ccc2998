// libsecret: tokens and passwords in the desktop's Secret Service (GNOME Keyring, KWallet).
#include <libsecret/secret.h>
