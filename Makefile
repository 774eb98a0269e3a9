# haul: `make run` and `make test` work on a fresh Debian machine: they install the system
# packages that are missing (apt-get, as root or through sudo), build, then run or test.

SWIFT      ?= swift
CONFIG     ?= release
ARGS       ?=
# The release binary carries the Swift runtime and Foundation inside it: it starts about 10 ms
# sooner (no relocating a dozen shared libraries), which counts when a queue is many small files,
# and it runs on a machine without the Swift toolchain.
# It carries the C++ runtime too (libstdc++, which the Swift runtime and TOMLKit's toml++ use)
# where its archive is installed: one shared library fewer to load and bind, some 1.2 ms of
# every start. The Swift driver asks for `-lstdc++` itself, so during that link a linker script
# of that name in the build's own library directory, which the linker searches before the
# system's, points the request at the archive. It is taken away after, so that no other link
# (one whose Swift runtime is shared and brings its own libstdc++) finds it.
CXX_ARCHIVE := $(shell for cc in gcc clang; do f=$$($$cc -print-file-name=libstdc++.a 2>/dev/null) && \
	[ -f "$$f" ] && echo "$$f" && break; done)
define release_build
	@dir=$$($(SWIFT) build -c release --show-bin-path) && mkdir -p "$$dir" && \
	if [ -n "$(CXX_ARCHIVE)" ]; then echo 'INPUT($(CXX_ARCHIVE))' > "$$dir/libstdc++.so"; fi; \
	echo "$(SWIFT) build -c release --static-swift-stdlib --product haul"; \
	$(SWIFT) build -c release --static-swift-stdlib --product haul; status=$$?; \
	rm -f "$$dir/libstdc++.so"; exit $$status
	$(MAKE) --no-print-directory .build/release/libHaulTorrentEngine.so
endef

# The BitTorrent engine of a release (and of the .deb), built by the C++ compiler itself from
# the engine's sources and pkg-config's flags for libtorrent (Package.swift's defines, which
# the debug build and the tests use, are checked against the same flags): SwiftPM links every
# product with the Swift runtime's registration object, which made the engine need libswiftCore,
# which a machine with the .deb does not have.
ENGINE_SOURCES := $(wildcard Sources/HaulTorrentEngine/*.cpp)
CXX ?= c++
.build/release/libHaulTorrentEngine.so: $(ENGINE_SOURCES) Sources/HaulTorrentEngine/Engine.hpp \
	Sources/CTorrent/include/CTorrent.h
	mkdir -p .build/release
	$(CXX) -shared -fPIC -O2 -std=c++17 -fvisibility=hidden -I Sources/CTorrent/include $(ENGINE_SOURCES) \
	  $$(pkg-config --cflags --libs libtorrent-rasterbar) -o $@
RUN_PKGS   := libcurl4-openssl-dev libncurses-dev libsqlite3-dev zlib1g-dev libssl-dev libxml2 \
	libtorrent-rasterbar-dev
TEST_PKGS  := $(RUN_PKGS) nginx openssl tmux microsocks aria2 python3 python3-venv openssh-server chromium \
	chromium-driver python3-libtorrent opentracker
BENCH_PKGS := $(TEST_PKGS) curl wget2 aria2 axel time bc python3 gcc linux-perf valgrind
# Python test tools (aria2p) live here, made by make test.
VENV       := .build/venv
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

FUZZ_SECONDS ?= 600

PREFIX     ?= /usr/local
DESTDIR    ?=

.PHONY: run build test check fuzz deps deps-test deps-bench packages install deb screenshot bench bench-check clean

run: deps build
	.build/$(CONFIG)/haul $(ARGS)

# The binary, with the shipped themes beside it (a copy of both runs anywhere).
build:
	$(if $(filter release,$(CONFIG)),$(release_build),$(SWIFT) build -c $(CONFIG) --product haul && \
	  $(SWIFT) build -c $(CONFIG) --product HaulTorrentEngine)
	mkdir -p .build/$(CONFIG)/themes && cp Themes/*.toml .build/$(CONFIG)/themes/

# The tests talk to servers on 127.0.0.1 only; a proxy set in the environment (libcurl reads
# these variables) would send those loads elsewhere, so the test run goes without them. They
# run one at a time: many of them time real transfers, and on two cores a run of everything at
# once starves some of them (2.3 minutes in all, against 0.7 with every core contended).
PROXY_VARS := http_proxy https_proxy all_proxy no_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY NO_PROXY

# The style gate first: swift-format's rules (.swift-format: 120 columns, no force unwrap, no
# force try, doc comments that match their signatures) on the sources and the tests, and DocC's
# sections on every public function of HaulText, HaulNet and HaulCore (Tests/Lint/api_docs.py).
# The .deb is made first, and a test installs it (haulTests/DebianPackageTests).
test: deps-test $(VENV)/tools-3
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift
	python3 Tests/Lint/api_docs.py Sources/HaulText Sources/HaulNet Sources/HaulCore
	$(MAKE) --no-print-directory deb
	$(SWIFT) build --build-tests
	env $(addprefix -u ,$(PROXY_VARS)) HAUL_DEB="$$(cat .build/deb-path)" $(SWIFT) test --skip-build --no-parallel
	bash Tests/HaulFuzz/fuzz.sh 4

# The unit set: the suites under Tests/*/Unit, which start no server and touch no network (no
# browser either); seconds while working. make test runs them with the rest (Tests/*/Integration).
# Tests/Lint/unit_suites.py names them, and fails on a file whose tests it cannot place.
check:
	$(SWIFT) build --build-tests
	units=$$(python3 Tests/Lint/unit_suites.py) && \
	  env $(addprefix -u ,$(PROXY_VARS)) $(SWIFT) test --skip-build --filter "$$units"

# Python test tools from PyPI, in a virtual environment of the build's own: aria2p drives haul's
# daemon as aria2's users drive aria2 (haulTests/DaemonAria2pTests); pyftpdlib (with pyOpenSSL
# for FTPS) is the FTP server of the FTP tests; selenium drives AriaNg in Chromium
# (haulTests/DaemonAriaNgTests); aioaria2 is a second aria2 client (haulTests/DaemonAioaria2Tests);
# h2 is the HTTP/2 server that resets streams and says GOAWAY (haulTests/GetCommandStreamsTests).
# The stamp's number changes with the list.
$(VENV)/tools-3:
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check aria2p==0.12.3 pyftpdlib==2.2.0 pyopenssl==26.4.0 \
	  selenium==4.40.0 aioaria2==1.3.7 h2==4.1.0
	touch $@

# Every libFuzzer target for FUZZ_SECONDS each (make fuzz FUZZ_SECONDS=3600); crashes are kept
# under .build-fuzz/crashes/.
fuzz:
	bash Tests/HaulFuzz/fuzz.sh $(FUZZ_SECONDS)

bench: deps-bench
	$(release_build)
	$(SWIFT) build -c release --product LinkEmulatorTool
	bash bench/run.sh

# The figures that do not move with the machine (instructions, memory per queued entry), and the
# ratio goals of scenarios C, D and F (RATIOS=0 skips those), against bench/thresholds.json; exit
# status 1 when one is above its threshold.
bench-check: deps-bench
	$(release_build)
	$(SWIFT) build -c release --product LinkEmulatorTool
	bash bench/check.sh

deps:
	@$(MAKE) --no-print-directory packages PKGS="$(RUN_PKGS)"
deps-test:
	@$(MAKE) --no-print-directory packages PKGS="$(TEST_PKGS)"
deps-bench:
	@$(MAKE) --no-print-directory packages PKGS="$(BENCH_PKGS)"

# Installs haul under $(DESTDIR)$(PREFIX): the binary, the themes, the man page, bash, zsh
# and fish completions and the systemd user unit haul-daemon.service (made by the binary itself from its option tables: --generate-manual,
# --generate-completion-script).
install: deps build
	install -Dm755 .build/$(CONFIG)/haul $(DESTDIR)$(PREFIX)/bin/haul
	install -Dm644 .build/$(CONFIG)/libHaulTorrentEngine.so $(DESTDIR)$(PREFIX)/lib/haul/libHaulTorrentEngine.so
	install -d $(DESTDIR)$(PREFIX)/share/haul/themes
	install -m644 Themes/*.toml $(DESTDIR)$(PREFIX)/share/haul/themes/
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	.build/$(CONFIG)/haul --generate-manual > $(DESTDIR)$(PREFIX)/share/man/man1/haul.1
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	.build/$(CONFIG)/haul --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/haul
	.build/$(CONFIG)/haul --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_haul
	.build/$(CONFIG)/haul --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/haul.fish
	install -d $(DESTDIR)$(PREFIX)/lib/systemd/user
	sed 's|@BINDIR@|$(PREFIX)/bin|' contrib/haul-daemon.service > $(DESTDIR)$(PREFIX)/lib/systemd/user/haul-daemon.service

# haul_VERSION_ARCH.deb in .build/: the release binary (the Swift runtime inside it), its themes,
# man page, completions and the systemd user unit haul-daemon.service, depending on Debian's own
# libraries only: `apt install ./.build/haul_VERSION_ARCH.deb` on a machine without Swift.
deb: deps
	$(MAKE) --no-print-directory build CONFIG=release
	bash contrib/deb.sh .build/release/haul $(CURDIR)/.build > .build/deb-path
	@echo "made $$(cat .build/deb-path)"

# docs/queue.png, README's picture of the live queue, made from the real screen: haul in a tmux
# pane against a local demo server, captured with its colours and photographed by Chromium.
screenshot: deps-test build
	bash contrib/screenshot/screenshot.sh .build/$(CONFIG)/haul docs/queue.png

# Installs whichever of $(PKGS) dpkg does not list as installed; runs apt-get update once first.
# It says what it installs before it does; NO_APT=1 (make run NO_APT=1) installs nothing and
# names what is missing.
NO_APT ?=
packages:
	@missing=""; for p in $(PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ] && [ -n "$(NO_APT)" ]; then \
	  echo "missing Debian packages:$$missing (NO_APT is set: not installed; the build may fail without them)"; \
	elif [ -n "$$missing" ]; then \
	  echo "haul needs these Debian packages:$$missing"; \
	  echo "installing them with $(SUDO) apt-get (run make with NO_APT=1 to install nothing)"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

clean:
	rm -rf .build
