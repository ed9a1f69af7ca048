# Board Records — see README.md.
SHELL := /bin/bash
CORPUS ?= ../shared/corpus
LAKE ?= lake
PORT ?= 8080
HOST ?= 127.0.0.1
SCALE ?= 1
DEST ?= .cache/corpus
SINCE ?=
PLAN ?=

TSX = node --import tsx
export CORPUS LAKE PORT HOST

.PHONY: install lake serve serve-cluster test typecheck lint bench clean fetch update corpus-synthetic fuzz soak chaos openapi-examples schema-types

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

install: node_modules/.installed

lake: install
	$(TSX) pipelines/build.ts

$(LAKE)/current:
	$(MAKE) lake

serve: install $(LAKE)/current
	$(TSX) src/main.ts

# REPLICAS (2) server processes over $(LAKE) behind nginx on $(PORT): load balancer and HTTP cache (deploy/README.md).
serve-cluster: install $(LAKE)/current
	$(TSX) deploy/cluster.ts

# Type-checks, lints, runs the whole suite, then prints one line `N passed, N failed` (tap's assertion counts).
test: install typecheck lint
	@mkdir -p .cache
	@set -o pipefail; npx tap 2>&1 | tee .cache/test.log; status=$$?; \
	sed 's/\x1b\[[0-9;?]*[A-Za-z]//g' .cache/test.log | grep -E '^Asserts:' | tail -1 | \
	awk '{ print $$2 " passed, " $$4 " failed" }'; exit $$status

# Fetch new and changed agendas/minutes into $(DEST) (pdfs/ + MANIFEST.tsv, legistar/meeting_items.csv) and write
# $(DEST)/fetch-report.json; exit 1 if any source or document failed. PLAN=1: print what would be fetched, download nothing.
fetch: install
	$(TSX) pipelines/fetch/cli.ts --dest $(DEST) $(if $(SINCE),--since $(SINCE)) $(if $(filter-out 0,$(PLAN)),--plan)

# Fetch, then build a release from $(DEST): an unchanged corpus has the same content hash and publishes nothing;
# a running server picks up the new lake/current by itself. Exits non-zero if any document failed to fetch.
update: install
	@$(TSX) pipelines/fetch/cli.ts --dest $(DEST) $(if $(SINCE),--since $(SINCE)); fetched=$$?; \
	  CORPUS=$(DEST) $(TSX) pipelines/build.ts || exit 1; exit $$fetched

# Synthetic corpus: SCALE x ~685 meetings 2012-2026 into bench/corpus/scale-$(SCALE) (or DEST= if given on the command line).
corpus-synthetic: install
	$(TSX) pipelines/synthetic/cli.ts --scale $(SCALE) $(if $(filter-out file,$(origin DEST)),--dest $(DEST))

# N generated requests (default 100k) against a server over lake/current: counts by status; fails on any 5xx or broken rule.
fuzz: install $(LAKE)/current
	$(TSX) test/fuzz/run.ts

# Hostile clients (aborted POSTs and NDJSON pages, slow readers, slow bodies, header-only connections, MCP batches)
# against a server over the test fixture release, ROUNDS (5) rounds of CONNECTIONS (50) each, ordinary requests
# alongside: counts per scenario; fails on a leaked admission slot, a 5xx other than 503, or a slow or failed health.
chaos: install
	$(TSX) test/chaos/run.ts

# 60 s of mixed load at 32 connections with a release switch mid-way, then 3 minutes of warm-up and a 10-minute soak
# at 8 connections sampling server memory.
soak: install
	$(TSX) bench/soak.ts

# Rewrites schemas/examples/openapi.json (the OpenAPI document's examples) from the fixture release of ../shared/corpus;
# test/openapi.test.ts sends them again. Run it when a release id or an answer's shape changes.
openapi-examples: install
	$(TSX) scripts/openapi-examples.ts

# Rewrites src/schema-types.ts (the TypeScript types of schemas/*.json) with scripts/schema-types.ts; run it after
# changing a schema. test/schema-types.test.ts fails while the committed file is stale.
schema-types: install
	$(TSX) scripts/schema-types.ts

typecheck: install
	npx tsc --noEmit

# eslint (eslint.config.js: typescript-eslint, sorted imports, the import directions of ARCHITECTURE.md), prettier
# over the tree (.prettierignore: fixtures, goldens, generated files, prose), no import cycles (madge), and the two
# seams: pipelines/ import nothing from src/, queries nothing from http/.
lint: install
	npx eslint --max-warnings 0 .
	npx prettier --check .
	npx madge --circular --no-spinner --extensions ts --ts-config tsconfig.json core src pipelines test bench scripts deploy
	@if grep -r "from '../src\|from '../../src" pipelines/; then echo "lint: pipelines/ imports src/"; exit 1; fi
	@if grep -rE "from '(\.\./)+http/" src/queries/; then echo "lint: src/queries/ imports src/http/"; exit 1; fi

# Builds (or reuses) the synthetic lakes of SCALES (default 1) and measures them: bench/results.json. ARGS: see bench/run.ts.
bench: install
	$(TSX) bench/run.ts $(ARGS)

clean:
	rm -rf .cache lake/releases lake/current
