# Reelforge. `make run` installs what is missing, builds, and starts the embedded default on
# http://localhost:8080; `make test` runs the whole suite. Builds share one target directory outside
# the clone so CI and later runs reuse it.
SHELL := /bin/bash
export CARGO_TARGET_DIR ?= $(HOME)/.cache/reelforge/target
CARGO ?= cargo
STAMP := $(HOME)/.cache/reelforge/stamps
DEBIAN_PACKAGES := pkg-config protobuf-compiler libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev \
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad \
  gstreamer1.0-plugins-ugly gstreamer1.0-libav gstreamer1.0-plugins-base-apps fonts-noto-cjk fonts-noto-color-emoji fonts-dejavu-core \
  fontconfig ffmpeg time bc curl libheif-dev espeak-ng espeak-ng-data \
  libreoffice-impress-nogui poppler-utils tesseract-ocr tesseract-ocr-eng tesseract-ocr-chi-sim \
  pocketsphinx pocketsphinx-en-us fonts-liberation2
E2E_PORT ?= 18080

.PHONY: run test deps deps-debian deps-node deps-browser services-up build build-release frontend \
  test-rust test-frontend e2e bench bench-render bench-farm bench-upload fmt lint lint-frontend clean

## Install what is missing, build the SPA and the binary, start `reelforge all` on :8080. The binary
## is the dev profile's (its pixel crates optimised, see Cargo.toml), which `make test` reuses: one
## build of the dependencies for both (docs/benchmarks.md, "Build"). The image builds the release one.
run:
	@echo "make run [1/4]: Debian packages and node modules (installs only what is missing)"
	@$(MAKE) --no-print-directory deps
	@echo "make run [2/4]: the web front end (webpack)"
	@$(MAKE) --no-print-directory frontend
	@echo "make run [3/4]: the reelforge binary (cargo; a fresh machine compiles ~770 crates)"
	@$(MAKE) --no-print-directory build
	@echo "make run [4/4]: starting reelforge all on http://localhost:8080 (data in ./data)"
	mkdir -p data
	REELFORGE_HTTP__STATIC_DIR=frontend/dist $(CARGO_TARGET_DIR)/debug/reelforge all

## The whole suite: frontend lint (tsc, ESLint), Rust (against real PostgreSQL, Redis, RabbitMQ, S3), frontend unit tests, e2e.
test: deps deps-browser services-up
	bash deploy/scripts/font-check.sh
	bash deploy/scripts/helm-check.sh
	bash deploy/scripts/image-check.sh
	$(MAKE) lint-frontend test-rust offline-build test-frontend e2e
	$(MAKE) e2e-distributed schema-fuzz

deps: deps-debian deps-node

deps-debian:
	@missing=""; for p in $(DEBIAN_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing:$$missing"; apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; fi

deps-node:
	@cd frontend && if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then npm install --no-audit --no-fund; fi

deps-browser:
	@dpkg -s chromium >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)

## Start PostgreSQL, Redis, RabbitMQ and an S3-compatible store on loopback when not running.
services-up:
	bash deploy/scripts/services-up.sh

build:
	$(CARGO) build --workspace

build-release:
	$(CARGO) build --release -p reelforge

frontend: deps-node
	cd frontend && npm run build

test-rust:
	$(CARGO) build --workspace --all-targets
	$(CARGO) test --workspace --no-fail-fast

## The build with the network cut (catalogue B3): a no-op cargo build after test-rust; skipped, saying
## why, where the sandbox cannot cut the network.
.PHONY: offline-build
offline-build:
	bash deploy/scripts/offline-build.sh

test-frontend: deps-node
	cd frontend && npm run typecheck && npm test

## End to end: the SPA served by `reelforge all` (debug build), driven in headless Chromium. The build
## is test-rust's own (same packages and targets, so the same features): a no-op after it, not a rebuild.
e2e: frontend
	$(CARGO) build --workspace --all-targets
	bash deploy/scripts/e2e.sh $(E2E_PORT)

## End to end in distributed mode (issue 25): the gateway, the seven services and two workers, each its
## own process on PostgreSQL, Redis, RabbitMQ and S3 (a fresh database, vhost and S3 prefix per run),
## and the sign-in, render, material and editor checks of frontend/e2e against them.
.PHONY: e2e-distributed
e2e-distributed: frontend services-up
	$(CARGO) build --workspace --all-targets
	bash deploy/scripts/e2e-distributed.sh

## Schema fuzzing (issue 24): schemathesis on every operation of the served OpenAPI document, signed
## in; no 5xx, no dropped connection, no panic. A short pass here, a long one in bench-schema.
.PHONY: schema-fuzz bench-schema
schema-fuzz: frontend
	$(CARGO) build --workspace --all-targets
	bash deploy/scripts/schema-fuzz.sh

bench-schema: frontend
	$(CARGO) build --workspace --all-targets
	SCHEMA_FUZZ_EXAMPLES=$${SCHEMA_FUZZ_EXAMPLES:-200} bash deploy/scripts/schema-fuzz.sh

bench: bench-render bench-farm

## The render benchmark on ref-15s against x264 alone and ffmpeg, in one run.
bench-render: deps
	bash services/render/benches/run.sh

## The render farm benchmark: N=20 copies of ref-15s through `reelforge all` against `reelforge render`
## back to back, in one run (FARM=distributed: PostgreSQL, RabbitMQ, Redis and S3; needs services-up).
bench-farm: deps
	bash services/worker/benches/farm.sh

## The upload benchmark: a 200 MB video through `reelforge all`; prints MB/s and the peak RSS growth
## of the process over its idle baseline (goal < 64 MB).
bench-upload: deps
	bash gateway/benches/upload.sh

## The load benchmark (issue 24): reads at 500 req/s, saves, uploads and rounds of 500 SSE watchers on
## `reelforge all` for LOAD_SECONDS (default 60; 600 for the memory check); prints req/s, p99 against
## /healthz's at the same rate, errors and the process's memory (docs/benchmarks.md, "Load").
.PHONY: bench-load
bench-load: deps
	bash gateway/benches/load.sh

## The ringtone check benchmark: measure + check of a 30 s 1080x1920 H.264/AAC MP4 (made once by ffmpeg,
## cached under ~/.cache/reelforge/bench) against ffmpeg's own EBU R128 pass on the same file, median
## of 3 each; prints `validate ms`, `ffmpeg ebur128 ms` and `ratio` (goal: validate <= 1500 ms). The dev
## profile, as `make run` serves it (reelforge-conform and ebur128 run optimised there, see Cargo.toml).
.PHONY: bench-ringtone
bench-ringtone: deps-debian
	$(CARGO) bench -p reelforge-conform --bench ringtone --profile dev

## The toolbox benchmark (issue 27): each transcoding tool against the equivalent ffmpeg command on
## the same input in one run; prints `tool <name>/ffmpeg: R` (docs/benchmarks.md, "Toolbox").
.PHONY: bench-tools
bench-tools: deps-debian
	$(CARGO) bench -p reelforge-tools --bench tools --profile dev

## The AI benchmark (issue 28): text to speech's real-time factor through the local voice (synthesis
## seconds / audio seconds) against plain `espeak-ng -w` on the same texts in one run; prints
## `tts rtf: N` (goal <= 0.2) and `tts rtf vs plain espeak-ng wav: R`; then speech recognition's
## (decode to 16 kHz + pocketsphinx, seconds / audio seconds, a ~30 s synthesised English clip):
## `asr rtf: N` (goal <= 0.3) (docs/benchmarks.md, "AI").
.PHONY: bench-ai
bench-ai: deps-debian
	$(CARGO) bench -p reelforge-ai --bench tts --profile dev
	$(CARGO) bench -p reelforge-worker --bench asr --profile dev

## The fuzz benchmark (issue 24): every parser's harness for FUZZ_SECONDS (default 600) each; prints
## cases, crashes (goal 0) and the slowest input per target (docs/benchmarks.md, "Fuzzing").
.PHONY: bench-fuzz
bench-fuzz:
	FUZZ_SECONDS=$(or $(FUZZ_SECONDS),600) bash deploy/scripts/bench-fuzz.sh

fmt:
	$(CARGO) fmt --all
lint: lint-frontend
	$(CARGO) clippy --workspace --all-targets -- -D warnings
lint-frontend: deps-node
	cd frontend && npm run lint

clean:
	rm -rf frontend/dist data

## The editor benchmark (issue 15): drag fps on a stage of 50 layers, the gzipped JavaScript of the
## first /diy load, add-layer latency; headless Chromium against `reelforge all` (see docs/benchmarks.md).
.PHONY: bench-editor
bench-editor: frontend
	$(CARGO) build -p reelforge
	E2E_SCRIPT=e2e/bench-editor.mjs bash deploy/scripts/e2e.sh $(E2E_PORT)

## How long a newcomer waits (issue 25): a fresh clone with an empty target directory, `make run` until
## /readyz answers (`cold start s`, goal <= 720), then `make test`'s build step (`test build after run
## s`, goal <= 180). Not in CI. See docs/benchmarks.md, "Build".
.PHONY: bench-setup
bench-setup: deps
	bash deploy/scripts/bench-setup.sh
