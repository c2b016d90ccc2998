#!/bin/sh
# Nautilus script: Scripts › Share… shares the selected files through the share service (the
# sheet opens as a window). `make install-file-manager-actions` installs it as
# $(PREFIX)/share/nautilus/scripts/Share… with the installed share's path.
# Nautilus gives local paths in NAUTILUS_SCRIPT_SELECTED_FILE_PATHS, one per line, and every
# selected item, remote ones too, in NAUTILUS_SCRIPT_SELECTED_URIS.
selected=${NAUTILUS_SCRIPT_SELECTED_FILE_PATHS:-$NAUTILUS_SCRIPT_SELECTED_URIS}
# One word per line, no globbing: names with spaces or * stay whole.
IFS='
'
set -f
# shellcheck disable=SC2086
exec share --via-service --gui -- $selected
