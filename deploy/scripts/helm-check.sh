#!/usr/bin/env bash
# The Helm chart (`make test`): renders helm/reelforge with values.yaml and every values-<carrier>.yaml
# through Helm's own engine (the helm-python-sdk wheel: Helm v4's Go SDK as a library, from PyPI; no
# helm binary or Go toolchain), lints it, checks values.schema.json, validates every manifest against
# the Kubernetes schemas offline (kubernetes-validate, strict), asserts the pods' security context,
# the worker scaler (KEDA on the render queue, or the CPU HPA), the migration hook, and that every bad
# configuration is refused at render time naming the value (deploy/scripts/helm_check.py).
# Installs its tools once under ~/.cache/reelforge/deploy-tools (deploy-tools.sh); nothing else is
# downloaded.
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/scripts/deploy-tools.sh
deploy_tools
"$DEPLOY_PY" deploy/scripts/helm_check.py
