#!/usr/bin/env bash
# Catalogue B3 (issue 24): the build needs no network. With the network cut (`unshare -n`: a network
# namespace with only a loopback that is down), `cargo build --workspace --all-targets --locked` must
# succeed: a crate missing from the local registry cache, a git dependency, or a build script that
# downloads (a `vendored` feature fetching sources, swagger-ui's zip) fails it. After test-rust it is
# a no-op build (the same packages, targets and features), so it costs seconds. The frontend's
# installed packages are checked against package-lock.json the same way (`npm ls --all`, which reads
# node_modules only). Skipped, saying why, where this sandbox cannot cut the network.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! unshare -n true 2>/dev/null; then
  echo "offline-build: skipped: cannot cut the network here (unshare -n needs CAP_SYS_ADMIN or user namespaces)"
  exit 0
fi
offline() { unshare -n -- "$@"; }
# Proves the cut: nothing outside answers.
if offline bash -c 'exec 3<>/dev/tcp/1.1.1.1/443' 2>/dev/null; then
  echo "offline-build: the network is not cut inside unshare -n" >&2
  exit 1
fi
start=$(date +%s)
if ! offline env CARGO_NET_RETRY=0 "${CARGO:-cargo}" build --workspace --all-targets --locked --quiet; then
  echo "offline-build: cargo build failed with the network cut: something is downloaded at build time" >&2
  exit 1
fi
if [ -d frontend/node_modules ]; then
  if ! (cd frontend && offline npm ls --all --offline >/dev/null); then
    echo "offline-build: frontend/node_modules does not match package-lock.json without the network" >&2
    exit 1
  fi
fi
echo "offline-build: cargo build (workspace, all targets, --locked) and the frontend's packages need no network ($(( $(date +%s) - start )) s)"
