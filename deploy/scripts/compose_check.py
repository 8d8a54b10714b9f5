"""Checks deploy/compose.yaml (deploy/scripts/image-check.sh): the Compose specification's JSON schema,
then what the file promises: the four backends with health checks, a migration step the targets wait
for, one container per target running `reelforge <target>`, two workers, every secret from the env
file (each ${VAR} the file uses is in compose.env.example), read-only containers without capabilities.
"""

import json
import pathlib
import re
import sys

import jsonschema
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "deploy" / "compose.yaml"
EXAMPLE = ROOT / "deploy" / "compose.env.example"
TARGETS = ["gateway", "auth", "material", "category", "favourite", "font", "task", "ai", "ring", "worker"]
BACKENDS = ["postgres", "redis", "rabbitmq", "s3"]

failures = []


def check(ok, what):
    print(f"  {'ok  ' if ok else 'FAIL'} {what}")
    if not ok:
        failures.append(what)


def main(schema_path):
    text = COMPOSE.read_text()
    doc = yaml.safe_load(text)  # merge keys (<<) resolved as Compose resolves them
    schema = json.loads(pathlib.Path(schema_path).read_text())
    # The packaged schema predates the top-level `name` (Compose v2's project name); check the rest.
    body = {k: v for k, v in doc.items() if k != "name"}
    errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(body), key=lambda e: list(e.path))
    for e in errors:
        print(f"  schema: {'/'.join(str(p) for p in e.path)}: {e.message}")
    check(not errors, "compose.yaml matches the Compose specification's schema")
    services = doc["services"]
    for name in BACKENDS:
        s = services.get(name)
        if check(s is not None, f"backend {name}"):
            check(":" in s["image"] and not s["image"].endswith(":latest"), f"{name}: a pinned image ({s['image']})")
            check("test" in s.get("healthcheck", {}), f"{name}: a health check")
    migrate = services.get("migrate", {})
    check(migrate.get("command") == ["admin", "migrate"], "migrate runs `reelforge admin migrate`")
    for target in TARGETS:
        s = services.get(target)
        if not check(s is not None, f"target {target}: one service"):
            continue
        check(s.get("command") == [target], f"{target}: runs `reelforge {target}`")
        check(s.get("image") == migrate.get("image"), f"{target}: the one reelforge image")
        deps = s.get("depends_on", {})
        check(deps.get("migrate", {}).get("condition") == "service_completed_successfully",
              f"{target}: starts after the migration")
        check(s.get("environment", {}).get("REELFORGE_SKIP_MIGRATIONS") == "true", f"{target}: skips migrating")
        check(s.get("read_only") is True and s.get("cap_drop") == ["ALL"], f"{target}: read-only, no capabilities")
        check("test" in s.get("healthcheck", {}), f"{target}: a health check")
        if target != "worker" and target != "gateway":
            listen = s.get("environment", {}).get(f"REELFORGE_SERVICES__{target.upper()}__LISTEN", "")
            check(listen.startswith("0.0.0.0:"), f"{target}: listens on the container network")
    check(services.get("worker", {}).get("deploy", {}).get("replicas") == 2, "two render workers")
    for name, s in services.items():
        for dep, cond in (s.get("depends_on") or {}).items():
            check(dep in services, f"{name} depends on {dep}, which exists")
            if dep in BACKENDS:
                check(cond.get("condition") == "service_healthy", f"{name} waits for {dep} to be healthy")
    used = set(re.findall(r"\$\{([A-Z0-9_]+)", text))
    example = set(re.findall(r"^([A-Z0-9_]+)=", EXAMPLE.read_text(), re.M))
    check(used <= example, f"every variable is in compose.env.example (missing: {sorted(used - example)})")
    secrets = {"POSTGRES_PASSWORD", "REDIS_PASSWORD", "RABBITMQ_PASSWORD", "S3_SECRET_KEY", "REELFORGE_AUTH_KEYS"}
    required = set(re.findall(r"\$\{([A-Z0-9_]+):\?", text))
    check(secrets <= required, "secrets are required from the env file (${VAR:?…}), no defaults")
    check(not re.search(r"(?i)password[ \t]*[:=][ \t]*['\"]?[a-z0-9]", re.sub(r"\$\{[^}]*\}", "", text)),
          "no password written in compose.yaml")
    if failures:
        print(f"compose-check: {len(failures)} failed")
        return 1
    print("compose-check: all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
