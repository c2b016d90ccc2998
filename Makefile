# ShareSheet: `make demo` to see it, `make test` to check it.
SWIFT ?= swift
PREFIX ?= $(HOME)/.local
# Our own symbolic icons (AirDrop, the social services), installed into the hicolor theme.
ICONS := $(wildcard Resources/icons/hicolor/scalable/actions/*.svg)

.PHONY: bootstrap build demo test bench bench-window bench-service install install-icons \
	install-desktop-entry install-share-targets install-dbus-service install-file-manager-actions clean

bootstrap:
	@scripts/bootstrap

build: bootstrap
	$(SWIFT) build -Xswiftc -warnings-as-errors

demo: build
	@scripts/demo

test: bootstrap
	@scripts/test

bench: bootstrap
	$(SWIFT) run -c release share-bench

# Window startup against a minimal C GTK 4 window (BENCHMARKS.md, "Window startup").
bench-window: bootstrap
	@scripts/bench-window

# The share service's latency: warm ListActivities against Ping, cold activation against a
# minimal GDBus service in C (BENCHMARKS.md, "Share service").
bench-service: bootstrap
	@scripts/bench-service

# The Swift runtime and Foundation are linked in: the installed program needs no toolchain, and
# starts about 30 ms sooner (fewer shared libraries to load and bind; BENCHMARKS.md).
RELEASE_FLAGS = -c release --static-swift-stdlib

# Only the programs that are installed: a plain `swift build` would also build the test support,
# which needs the Testing module that the static Swift runtime does not have.
INSTALLED_PRODUCTS = share sharesheet-service sharesheet-clipboard-owner

install: bootstrap
	for product in $(INSTALLED_PRODUCTS); do $(SWIFT) build $(RELEASE_FLAGS) --product $$product || exit 1; done
	install -d $(PREFIX)/bin
	install -m 755 "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/share" $(PREFIX)/bin/share
	install -m 755 "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/sharesheet-clipboard-owner" $(PREFIX)/bin/sharesheet-clipboard-owner
	install -d $(PREFIX)/libexec
	install -m 755 "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/sharesheet-service" $(PREFIX)/libexec/sharesheet-service
	@$(MAKE) --no-print-directory install-icons PREFIX="$(PREFIX)"
	@$(MAKE) --no-print-directory install-desktop-entry PREFIX="$(PREFIX)"
	@$(MAKE) --no-print-directory install-dbus-service PREFIX="$(PREFIX)"
	@$(MAKE) --no-print-directory install-file-manager-actions PREFIX="$(PREFIX)"
	@$(MAKE) --no-print-directory install-share-targets PREFIX="$(PREFIX)"

# The window's icons; GTK finds them in $(PREFIX)/share/icons. A missing or failing
# gtk-update-icon-cache only costs the cache: GTK reads the folder without one.
install-icons:
	install -d "$(PREFIX)/share/icons/hicolor/scalable/actions"
	install -m 644 $(ICONS) "$(PREFIX)/share/icons/hicolor/scalable/actions/"
	@if command -v gtk-update-icon-cache >/dev/null; then \
		gtk-update-icon-cache -q -t -f "$(PREFIX)/share/icons/hicolor" || \
			echo "gtk-update-icon-cache failed; the icons work without a cache" >&2; \
	fi

# A desktop entry that accepts any file, so file managers offer "Share…" under "Open With".
install-desktop-entry:
	install -d "$(PREFIX)/share/applications"
	sed -e 's|^Exec=share |Exec="$(PREFIX)/bin/share" |' -e 's|^TryExec=share$$|TryExec=$(PREFIX)/bin/share|' \
		Resources/share.desktop > "$(PREFIX)/share/applications/.share.desktop.tmp"
	chmod 644 "$(PREFIX)/share/applications/.share.desktop.tmp"
	mv "$(PREFIX)/share/applications/.share.desktop.tmp" "$(PREFIX)/share/applications/share.desktop"
	-command -v update-desktop-database >/dev/null && update-desktop-database "$(PREFIX)/share/applications"

# Share targets for applications people already have (Thunderbird, GIMP, LocalSend): each entry
# is NoDisplay (never in a menu) and has TryExec=, so the sheet lists it only where the
# application is installed. `share targets check` passes on each (ShareTargetsTests).
install-share-targets:
	install -d "$(PREFIX)/share/applications"
	install -m 644 Resources/targets/*.desktop "$(PREFIX)/share/applications/"

# The share service's D-Bus activation file: the session bus starts the installed front,
# $(PREFIX)/libexec/sharesheet-service, on the first call to org.sharesheet.ShareSheet; it answers
# at once and starts $(PREFIX)/bin/share --service, which takes over (the bus reads
# $(PREFIX)/share/dbus-1/services when that is ~/.local/share or in XDG_DATA_DIRS).
DBUS_SERVICES = $(PREFIX)/share/dbus-1/services
install-dbus-service:
	install -d "$(DBUS_SERVICES)"
	sed -e 's|^Exec=@LIBEXECDIR@/sharesheet-service$$|Exec="$(PREFIX)/libexec/sharesheet-service"|' Resources/dbus/org.sharesheet.ShareSheet.service \
		> "$(DBUS_SERVICES)/.org.sharesheet.ShareSheet.service.tmp"
	chmod 644 "$(DBUS_SERVICES)/.org.sharesheet.ShareSheet.service.tmp"
	mv "$(DBUS_SERVICES)/.org.sharesheet.ShareSheet.service.tmp" "$(DBUS_SERVICES)/org.sharesheet.ShareSheet.service"

# "Share…" in the file managers' context menus, each running `share --via-service --gui FILES`:
# a Nautilus script, a Nemo action, a Dolphin service menu (executable, as KF6 requires) and a
# Thunar custom action, added to the one file Thunar reads (THUNAR_UCA) beside the user's own.
FILE_MANAGERS = Resources/file-managers
THUNAR_UCA ?= $${XDG_CONFIG_HOME:-$(HOME)/.config}/Thunar/uca.xml
INSTALLED_SHARE = -e 's|share --via-service|"$(PREFIX)/bin/share" --via-service|'
install-file-manager-actions:
	install -d "$(PREFIX)/share/nautilus/scripts" "$(PREFIX)/share/nemo/actions" "$(PREFIX)/share/kio/servicemenus"
	sed $(INSTALLED_SHARE) $(FILE_MANAGERS)/nautilus-share.sh > "$(PREFIX)/share/nautilus/scripts/.Share….tmp"
	chmod 755 "$(PREFIX)/share/nautilus/scripts/.Share….tmp"
	mv "$(PREFIX)/share/nautilus/scripts/.Share….tmp" "$(PREFIX)/share/nautilus/scripts/Share…"
	sed $(INSTALLED_SHARE) $(FILE_MANAGERS)/sharesheet.nemo_action > "$(PREFIX)/share/nemo/actions/.sharesheet.nemo_action.tmp"
	chmod 644 "$(PREFIX)/share/nemo/actions/.sharesheet.nemo_action.tmp"
	mv "$(PREFIX)/share/nemo/actions/.sharesheet.nemo_action.tmp" "$(PREFIX)/share/nemo/actions/sharesheet.nemo_action"
	sed $(INSTALLED_SHARE) $(FILE_MANAGERS)/sharesheet-dolphin.desktop > "$(PREFIX)/share/kio/servicemenus/.sharesheet.desktop.tmp"
	chmod 755 "$(PREFIX)/share/kio/servicemenus/.sharesheet.desktop.tmp"
	mv "$(PREFIX)/share/kio/servicemenus/.sharesheet.desktop.tmp" "$(PREFIX)/share/kio/servicemenus/sharesheet.desktop"
	sed $(INSTALLED_SHARE) $(FILE_MANAGERS)/thunar-action.xml | sh $(FILE_MANAGERS)/thunar-add-action "$(THUNAR_UCA)"

clean:
	rm -rf .build .build-tsan
