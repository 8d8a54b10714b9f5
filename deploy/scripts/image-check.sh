#!/usr/bin/env bash
# The image and the Compose file (`make test`):
# 1. deploy/compose.yaml against the Compose specification's schema and its promises
#    (deploy/scripts/compose_check.py);
# 2. deploy/Dockerfile's promises, read from the file (non-root uid 10001, a HEALTHCHECK, the
#    runtime fonts and libraries, the read-only-root environment);
# 3. where a container builder works here (docker or podman with a reachable engine, or buildah), the
#    image is built and started the way the chart runs it: read-only root, uid 10001, /tmp and the data
#    directory writable, `reelforge all` healthy within 120 s, the renderer's plugins and fonts present.
#    Without one it says so and skips (the build needs the base images' registry and ~40 min on 2 cores).
# IMAGE_CHECK_BUILD=0 skips the build even where a builder works.
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/scripts/deploy-tools.sh
deploy_tools

echo "image-check: deploy/compose.yaml"
"$DEPLOY_PY" deploy/scripts/compose_check.py "$COMPOSE_SCHEMA"

echo "image-check: deploy/Dockerfile"
status=0
need() { # what, extended regex the Dockerfile must match
  if grep -Eq "$2" deploy/Dockerfile; then echo "  ok   $1"; else echo "  FAIL $1"; status=1; fi
}
need "runtime on debian:bookworm-slim" '^ARG RUNTIME_IMAGE=debian:bookworm-slim'
need "frontend installed with npm install (npm ci refuses this lock file)" 'npm install --no-audit --no-fund'
need "release build of the reelforge package" 'cargo build --release --locked -p reelforge'
need "runs as uid 10001" '^USER 10001:10001'
need "a HEALTHCHECK" '^HEALTHCHECK '
need "libheif1 (the binary links libheif)" 'libheif1'
need "CJK and colour emoji fonts" 'fonts-noto-cjk fonts-noto-color-emoji'
need "the local text-to-speech voice (espeak-ng, docs/ai.md)" 'espeak-ng espeak-ng-data'
need "PPT_CONVERTER's soffice and pdftoppm (docs/toolbox.md)" 'libreoffice-impress-nogui poppler-utils'
need "the local speech recogniser and its English model (pocketsphinx, docs/ai.md)" 'pocketsphinx pocketsphinx-en-us'
need "the OCR program and its English and Chinese data (tesseract, docs/ai.md)" 'tesseract-ocr tesseract-ocr-eng tesseract-ocr-chi-sim'
need "the GStreamer plugin sets" 'gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad'
need "GStreamer registry written at build time, read-only at run time" 'GST_REGISTRY_UPDATE=no'
need "caches under /tmp (read-only root)" 'XDG_CACHE_HOME=/tmp'
if grep -Eq '^[^#]*npm ci' deploy/Dockerfile; then echo "  FAIL npm ci (it refuses this lock file)"; status=1; fi
[ $status = 0 ] || { echo "image-check: deploy/Dockerfile failed"; exit 1; }

builder=""
if [ "${IMAGE_CHECK_BUILD:-1}" != 0 ]; then
  for b in docker podman buildah; do
    if command -v "$b" >/dev/null 2>&1 && "$b" info >/dev/null 2>&1; then builder=$b; break; fi
  done
fi
if [ -z "$builder" ]; then
  echo "image-check: skipped the image build: no working container builder here (docker/podman engine or buildah)"
  exit 0
fi

tag=reelforge:image-check
echo "image-check: building $tag with $builder"
"$builder" build -f deploy/Dockerfile -t "$tag" .
[ "$builder" = buildah ] && { echo "image-check: built with buildah (no engine to run it: start checks skipped)"; exit 0; }

run() { "$builder" run --rm --read-only --tmpfs /tmp --cap-drop ALL --security-opt no-new-privileges "$@"; }
[ "$(run --entrypoint id "$tag" -u)" = 10001 ] || { echo "image-check: the image does not run as uid 10001"; exit 1; }
run --entrypoint gst-inspect-1.0 "$tag" x264enc >/dev/null
run --entrypoint gst-inspect-1.0 "$tag" avenc_aac >/dev/null
# The AI audio filters (docs/ai.md "Media abilities"): webrtcdsp and its echo probe.
run --entrypoint gst-inspect-1.0 "$tag" webrtcdsp >/dev/null
run --entrypoint gst-inspect-1.0 "$tag" webrtcechoprobe >/dev/null
run --entrypoint fc-list "$tag" ':charset=94c3' family | grep -q 'Noto Sans CJK SC'
run --entrypoint fc-list "$tag" ':charset=1f3ac' family | grep -q 'Noto Color Emoji'
run "$tag" --list-targets | grep -q '^worker'
name="reelforge-image-check-$$"
"$builder" run -d --name "$name" --read-only --tmpfs /tmp --cap-drop ALL --security-opt no-new-privileges \
  -v "$name:/var/lib/reelforge" "$tag" all >/dev/null
trap '"$builder" rm -f "$name" >/dev/null 2>&1 || true; "$builder" volume rm "$name" >/dev/null 2>&1 || true' EXIT
for _ in $(seq 1 120); do
  if "$builder" exec "$name" curl -fsS -o /dev/null http://127.0.0.1:8080/readyz 2>/dev/null; then
    echo "image-check: reelforge all is ready on a read-only root as uid 10001"
    exit 0
  fi
  sleep 1
done
"$builder" logs "$name" 2>&1 | tail -20
echo "image-check: reelforge all did not become ready within 120 s"
exit 1
