# ShareSheet: `make demo` to see it, `make test` to check it.
SWIFT ?= swift
PREFIX ?= $(HOME)/.local

.PHONY: bootstrap build demo test bench install install-desktop-entry clean

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

install: bootstrap
	$(SWIFT) build -c release
	install -d $(PREFIX)/bin
	install -m 755 "$$($(SWIFT) build -c release --show-bin-path)/share" $(PREFIX)/bin/share
	install -m 755 "$$($(SWIFT) build -c release --show-bin-path)/sharesheet-clipboard-owner" $(PREFIX)/bin/sharesheet-clipboard-owner
	@$(MAKE) --no-print-directory install-desktop-entry PREFIX="$(PREFIX)"

# A desktop entry that accepts any file, so file managers offer "Share…" under "Open With".
install-desktop-entry:
	install -d "$(PREFIX)/share/applications"
	sed -e 's|^Exec=share |Exec="$(PREFIX)/bin/share" |' -e 's|^TryExec=share$$|TryExec=$(PREFIX)/bin/share|' \
		Resources/share.desktop > "$(PREFIX)/share/applications/.share.desktop.tmp"
	chmod 644 "$(PREFIX)/share/applications/.share.desktop.tmp"
	mv "$(PREFIX)/share/applications/.share.desktop.tmp" "$(PREFIX)/share/applications/share.desktop"
	-command -v update-desktop-database >/dev/null && update-desktop-database "$(PREFIX)/share/applications"

clean:
	rm -rf .build .build-tsan
