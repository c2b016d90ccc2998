# ShareSheet: `make demo` to see it, `make test` to check it.
SWIFT ?= swift
PREFIX ?= $(HOME)/.local
# Our own symbolic icons (AirDrop, the social services), installed into the hicolor theme.
ICONS := $(wildcard Resources/icons/hicolor/scalable/actions/*.svg)

.PHONY: bootstrap bootstrap-runtime build demo test bench bench-window bench-service install install-icons \
	install-desktop-entry install-share-targets install-dbus-service install-file-manager-actions install-manual uninstall clean docs

bootstrap:
	@scripts/bootstrap

# What building and running the installed program needs, without the test peers.
bootstrap-runtime:
	@scripts/bootstrap --runtime

build: bootstrap
	$(SWIFT) build -Xswiftc -warnings-as-errors

demo: build
	@scripts/demo

test: bootstrap
	@scripts/test

bench: bootstrap
	$(SWIFT) run -c release share-bench

# libFuzzer on the readers (README, "Fuzzing"): each target FUZZ_SECONDS on a copy of its corpus,
# built into .build-fuzz; fails when one crashes. `make fuzz FUZZ_TARGETS=vcard` runs one.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
.PHONY: fuzz
fuzz: bootstrap
	@SWIFT="$(SWIFT)" FUZZ_SECONDS="$(FUZZ_SECONDS)" scripts/fuzz $(FUZZ_TARGETS)

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

install: bootstrap-runtime
	for product in $(INSTALLED_PRODUCTS); do $(SWIFT) build $(RELEASE_FLAGS) --product $$product || exit 1; done
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/share" $(DESTDIR)$(PREFIX)/bin/share
	install -m 755 "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/sharesheet-clipboard-owner" $(DESTDIR)$(PREFIX)/bin/sharesheet-clipboard-owner
	install -d $(DESTDIR)$(PREFIX)/libexec
	install -m 755 "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/sharesheet-service" $(DESTDIR)$(PREFIX)/libexec/sharesheet-service
	@$(MAKE) --no-print-directory install-icons PREFIX="$(PREFIX)"
	@$(MAKE) --no-print-directory install-desktop-entry PREFIX="$(PREFIX)"
	@$(MAKE) --no-print-directory install-dbus-service PREFIX="$(PREFIX)"
	@$(MAKE) --no-print-directory install-file-manager-actions PREFIX="$(PREFIX)"
	@$(MAKE) --no-print-directory install-share-targets PREFIX="$(PREFIX)"
	@$(MAKE) --no-print-directory install-manual PREFIX="$(PREFIX)"

# The window's icons; GTK finds them in $(PREFIX)/share/icons. A missing or failing
# gtk-update-icon-cache only costs the cache: GTK reads the folder without one.
install-icons:
	install -d "$(DESTDIR)$(PREFIX)/share/icons/hicolor/scalable/actions"
	install -m 644 $(ICONS) "$(DESTDIR)$(PREFIX)/share/icons/hicolor/scalable/actions/"
	@if command -v gtk-update-icon-cache >/dev/null; then \
		gtk-update-icon-cache -q -t -f "$(DESTDIR)$(PREFIX)/share/icons/hicolor" || \
			echo "gtk-update-icon-cache failed; the icons work without a cache" >&2; \
	fi

# A desktop entry that accepts any file, so file managers offer "Share…" under "Open With".
install-desktop-entry:
	install -d "$(DESTDIR)$(PREFIX)/share/applications"
	sed -e 's|^Exec=share |Exec="$(PREFIX)/bin/share" |' -e 's|^TryExec=share$$|TryExec=$(PREFIX)/bin/share|' \
		Resources/share.desktop > "$(DESTDIR)$(PREFIX)/share/applications/.share.desktop.tmp"
	chmod 644 "$(DESTDIR)$(PREFIX)/share/applications/.share.desktop.tmp"
	mv "$(DESTDIR)$(PREFIX)/share/applications/.share.desktop.tmp" "$(DESTDIR)$(PREFIX)/share/applications/share.desktop"
	-command -v update-desktop-database >/dev/null && update-desktop-database "$(DESTDIR)$(PREFIX)/share/applications"

# Share targets for applications people already have (Thunderbird, GIMP, LocalSend): each entry
# is NoDisplay (never in a menu) and has TryExec=, so the sheet lists it only where the
# application is installed. `share targets check` passes on each (ShareTargetsTests).
install-share-targets:
	install -d "$(DESTDIR)$(PREFIX)/share/applications"
	install -m 644 Resources/targets/*.desktop "$(DESTDIR)$(PREFIX)/share/applications/"

# The share service's D-Bus activation file: the session bus starts the installed front,
# $(PREFIX)/libexec/sharesheet-service, on the first call to org.sharesheet.ShareSheet; it answers
# at once and starts $(PREFIX)/bin/share --service, which takes over (the bus reads
# $(PREFIX)/share/dbus-1/services when that is ~/.local/share or in XDG_DATA_DIRS).
DBUS_SERVICES = $(DESTDIR)$(PREFIX)/share/dbus-1/services
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
	install -d "$(DESTDIR)$(PREFIX)/share/nautilus/scripts" "$(DESTDIR)$(PREFIX)/share/nemo/actions" "$(DESTDIR)$(PREFIX)/share/kio/servicemenus"
	sed $(INSTALLED_SHARE) $(FILE_MANAGERS)/nautilus-share.sh > "$(DESTDIR)$(PREFIX)/share/nautilus/scripts/.Share….tmp"
	chmod 755 "$(DESTDIR)$(PREFIX)/share/nautilus/scripts/.Share….tmp"
	mv "$(DESTDIR)$(PREFIX)/share/nautilus/scripts/.Share….tmp" "$(DESTDIR)$(PREFIX)/share/nautilus/scripts/Share…"
	sed $(INSTALLED_SHARE) $(FILE_MANAGERS)/sharesheet.nemo_action > "$(DESTDIR)$(PREFIX)/share/nemo/actions/.sharesheet.nemo_action.tmp"
	chmod 644 "$(DESTDIR)$(PREFIX)/share/nemo/actions/.sharesheet.nemo_action.tmp"
	mv "$(DESTDIR)$(PREFIX)/share/nemo/actions/.sharesheet.nemo_action.tmp" "$(DESTDIR)$(PREFIX)/share/nemo/actions/sharesheet.nemo_action"
	sed $(INSTALLED_SHARE) $(FILE_MANAGERS)/sharesheet-dolphin.desktop > "$(DESTDIR)$(PREFIX)/share/kio/servicemenus/.sharesheet.desktop.tmp"
	chmod 755 "$(DESTDIR)$(PREFIX)/share/kio/servicemenus/.sharesheet.desktop.tmp"
	mv "$(DESTDIR)$(PREFIX)/share/kio/servicemenus/.sharesheet.desktop.tmp" "$(DESTDIR)$(PREFIX)/share/kio/servicemenus/sharesheet.desktop"
	@# Thunar reads one file in the person's own folder: a staged install (DESTDIR) cannot add to it.
	if [ -z "$(DESTDIR)" ]; then sed $(INSTALLED_SHARE) $(FILE_MANAGERS)/thunar-action.xml | sh $(FILE_MANAGERS)/thunar-add-action "$(THUNAR_UCA)"; fi

# The manual page and the bash, zsh and fish completions, made by the built `share` from the
# same declarations as its --help (with the built-in activities only: no XDG folder is read).
BUILT_SHARE = "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/share"
ONLY_BUILTINS = env XDG_DATA_HOME=/nonexistent XDG_DATA_DIRS=/nonexistent XDG_CONFIG_HOME=/nonexistent
install-manual:
	$(SWIFT) build $(RELEASE_FLAGS) --product share
	install -d "$(DESTDIR)$(PREFIX)/share/man/man1" "$(DESTDIR)$(PREFIX)/share/bash-completion/completions" \
		"$(DESTDIR)$(PREFIX)/share/zsh/site-functions" "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d"
	$(ONLY_BUILTINS) $(BUILT_SHARE) man-page > "$(DESTDIR)$(PREFIX)/share/man/man1/.share.1.tmp"
	mv "$(DESTDIR)$(PREFIX)/share/man/man1/.share.1.tmp" "$(DESTDIR)$(PREFIX)/share/man/man1/share.1"
	$(ONLY_BUILTINS) $(BUILT_SHARE) completions bash > "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/.share.tmp"
	mv "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/.share.tmp" "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/share"
	$(ONLY_BUILTINS) $(BUILT_SHARE) completions zsh > "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/._share.tmp"
	mv "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/._share.tmp" "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_share"
	$(ONLY_BUILTINS) $(BUILT_SHARE) completions fish > "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/.share.fish.tmp"
	mv "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/.share.fish.tmp" "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/share.fish"

# Removes what `make install` put under PREFIX (the same DESTDIR and PREFIX). The Thunar action
# stays in uca.xml: it is the person's own file; remove it in Thunar's Custom Actions.
INSTALLED_FILES = bin/share bin/sharesheet-clipboard-owner libexec/sharesheet-service \
	share/applications/share.desktop $(addprefix share/applications/,$(notdir $(wildcard Resources/targets/*.desktop))) \
	share/dbus-1/services/org.sharesheet.ShareSheet.service share/nautilus/scripts/Share… \
	share/nemo/actions/sharesheet.nemo_action share/kio/servicemenus/sharesheet.desktop \
	share/man/man1/share.1 share/bash-completion/completions/share share/zsh/site-functions/_share \
	share/fish/vendor_completions.d/share.fish \
	$(addprefix share/icons/hicolor/scalable/actions/,$(notdir $(ICONS)))
uninstall:
	cd "$(DESTDIR)$(PREFIX)" && rm -f $(foreach file,$(INSTALLED_FILES),"$(file)")
	-command -v update-desktop-database >/dev/null && update-desktop-database "$(DESTDIR)$(PREFIX)/share/applications"

clean:
	rm -rf .build .build-tsan

# The API reference of the modules with a DocC catalog of articles, built with the toolchain's
# own docc (no SwiftPM plugin: none can be fetched). SwiftPM's dump-symbol-graph builds as
# `make build` does, so the build is shared, and it leaves out what a module re-exports: the
# compiler's -emit-symbol-graph would document all of Foundation under ShareSheetUIKit (300 MB,
# minutes). It also fails for the test runner's modules when the tests are not built, so its
# status is not what counts: every documented module must have a fresh graph. Each module is
# converted with its own graph and its extensions of other modules (Module@Other.symbols.json,
# as extension blocks: ShareSheetUIKit's builtIns and initializer) only, so its warnings are its
# own. A warning fails the target.
DOCS_MODULES = ShareSheet ShareSheetUIKit Mail Nearby Sharing ShareSheetClient
DOCS_DIR = .build/docs
DOCC ?= docc
docs: bootstrap
	graphs="$$(dirname "$$($(SWIFT) build --show-bin-path)")/symbolgraph"; \
	rm -rf "$$graphs"; \
	$(SWIFT) package -Xswiftc -warnings-as-errors dump-symbol-graph --emit-extension-block-symbols; \
	for module in $(DOCS_MODULES); do \
		if [ ! -e "$$graphs/$$module.symbols.json" ]; then echo "docs: no symbol graph for $$module" >&2; exit 1; fi; \
		rm -rf "$(DOCS_DIR)/graphs/$$module" "$(DOCS_DIR)/$$module.doccarchive" && mkdir -p "$(DOCS_DIR)/graphs/$$module" || exit 1; \
		for graph in "$$graphs/$$module.symbols.json" "$$graphs/$$module@"*.symbols.json; do \
			if [ -e "$$graph" ]; then cp "$$graph" "$(DOCS_DIR)/graphs/$$module/" || exit 1; fi; \
		done; \
		$(DOCC) convert "Sources/$$module/$$module.docc" --additional-symbol-graph-dir "$(DOCS_DIR)/graphs/$$module" \
			--fallback-display-name "$$module" --fallback-bundle-identifier "org.sharesheet.$$module" \
			--output-path "$(DOCS_DIR)/$$module.doccarchive" --warnings-as-errors || exit 1; \
	done
	@echo "API reference: $(DOCS_DIR)/<module>.doccarchive (docc preview, or any static web server)"
