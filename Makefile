# Contrail: the two commands a person needs are `make demo` and `make test`.
# both install what is missing first (npm packages; Debian packages some tests start for real).

SHELL := /bin/bash
STAMP := node_modules/.contrail-installed

.PHONY: install system-deps test check demo serve nightly bench typecheck clean

# Debian packages the tests start for real: Chromium (the /docs page), nginx (the CDN front) and
# redis-server (rate limits shared by replicas)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

install: $(STAMP)

system-deps:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	{ command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; } || missing="$$missing nginx"; \
	{ command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ]; } || missing="$$missing redis-server"; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

$(STAMP): package.json package-lock.json
	@command -v node >/dev/null || { echo "Node.js 20 is required (https://nodejs.org)"; exit 1; }
	@node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)' || { echo "Node.js 20 or newer is required; found $$(node --version)"; exit 1; }
	@# not `npm ci`: it insists on every platform's optional DuckDB binding being resolvable, and a
	@# registry mirror may carry only this platform's; `npm install` installs from the same lock
	npm install --no-audit --no-fund
	@touch $@

# the full suite, as CI runs it. its temporary files go in a folder of their own, removed at the
# end: fixtures and killed processes leave folders behind, and CI's machine is reused (its /tmp
# once ran out of inodes). readable by all, as /tmp is: nginx's workers serve files from under it.
# on a memory file system when there is one with room (CONTRAIL_TEST_TMP names another): the
# suite writes and deletes hundreds of thousands of small files, and on this machine's ext4 that
# cost 2.4x the CPU of a nightly (docs/perf-log/test-suite.md, "Temporary files in memory")
TEST_TMP_ROOT ?= $(or $(CONTRAIL_TEST_TMP),$(shell [ "$$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ -w /dev/shm ] && [ "$$(df -P -BG /dev/shm | awk 'NR==2 {print int($$4)}')" -ge 8 ] && echo /dev/shm || echo /tmp))
test: install system-deps
	@tmp=$$(mktemp -d $(TEST_TMP_ROOT)/contrail-test-XXXXXX); chmod 755 "$$tmp"; echo "test files under $$tmp"; TMPDIR=$$tmp npm test; rc=$$?; rm -rf "$$tmp"; exit $$rc

# the edit-test loop: incremental typecheck + every test not named *.slow.test.ts (docs/ARCHITECTURE.md "Tests")
check: install
	npm run --silent check

typecheck: install
	npx tsc --noEmit -p .

demo: install
	npx tsx sim/demo.ts

serve: install
	npm run --silent serve

nightly: install
	npm run --silent nightly

bench: install
	npx tsx bench/live.ts

clean:
	rm -rf var
