# ShareSheet: `make demo` to see it, `make test` to check it.
SWIFT ?= swift
PREFIX ?= $(HOME)/.local

.PHONY: bootstrap build demo test bench install clean

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

clean:
	rm -rf .build .build-tsan
