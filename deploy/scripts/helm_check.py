"""Renders helm/reelforge with every values file and checks what comes out (deploy/scripts/helm-check.sh).

For each of values.yaml and values-<carrier>.yaml: helm lint, values.schema.json, a render (Helm v4's
engine through helm-python-sdk), every manifest against the Kubernetes schemas (kubernetes-validate,
strict: unknown fields refused), the security context of every pod, probes and resources, the worker
scaler (a KEDA ScaledObject on the render queue, or the CPU HPA), the migration hook Job, the
PodDisruptionBudgets and the Ingress. Then each bad configuration must be refused at render time with
one line naming the value, and the Grafana dashboard may name only metrics that exist. Prints what
failed and exits 1 after reporting every failure.
"""

import copy
import json
import pathlib
import re
import sys

import helm_python as helm
import kubernetes_validate
import yaml
from kubernetes_validate.utils import SchemaNotFoundError

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHART = ROOT / "helm" / "reelforge"
KUBE = "1.30.0"
RELEASE = "rf"
TARGETS = ["gateway", "auth", "material", "category", "favourite", "font", "task", "ai", "ring", "worker"]
GRPC = {"auth": 7101, "material": 7102, "category": 7103, "favourite": 7104, "task": 7105, "ai": 7106, "font": 7107, "ring": 7108}

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print(f"  FAIL {what}")
    return ok


def render_queue_name():
    src = (ROOT / "services/kit/src/queue/mod.rs").read_text()
    m = re.search(r'pub const RENDER_QUEUE: &str = "([^"]+)"', src)
    if not m:
        raise SystemExit("helm-check: RENDER_QUEUE not found in services/kit/src/queue/mod.rs")
    return m.group(1)


def callers_of_services():
    """Which targets call each gRPC service, from the `calls` of the target table
    (services/reelforge/src/target.rs), the gateway's and the worker's included."""
    src = (ROOT / "services/reelforge/src/target.rs").read_text()
    table = src[src.index("const DEPENDENCIES"):src.index("];", src.index("const DEPENDENCIES"))]
    table = re.sub(r"//[^\n]*", "", table)
    callers = {svc: set() for svc in GRPC}
    rows = re.findall(r"\(\s*Target::(\w+),\s*&\[[^\]]*\],\s*&\[([^\]]*)\]", table)
    if not rows:
        raise SystemExit("helm-check: no rows in DEPENDENCIES of services/reelforge/src/target.rs")
    for caller, called in rows:
        for svc in re.findall(r"Target::(\w+)", called):
            callers.setdefault(svc.lower(), set()).add(caller.lower())
    return callers


def merged(values):
    with helm.Chart.load(str(CHART)) as chart:
        return chart.merge_values(values)


def render(values):
    """The manifests of a fresh install with these values, as a list of objects."""
    with helm.Chart.load(str(CHART)) as chart:
        chart.validate_schema(values)
        files = chart.render(values, name=RELEASE, namespace="reelforge", is_install=True)
    objects = []
    for path, text in sorted(files.items()):
        if path.endswith("NOTES.txt"):
            continue
        for doc in yaml.safe_load_all(text):
            if doc:
                doc.setdefault("__file", path)
                objects.append(doc)
    return objects


def pod_spec(obj):
    if obj["kind"] in ("Deployment", "Job"):
        return obj["spec"]["template"]["spec"]
    return None


def check_security(obj):
    name = f'{obj["kind"]}/{obj["metadata"]["name"]}'
    spec = pod_spec(obj)
    psc = spec.get("securityContext", {})
    check(psc.get("runAsNonRoot") is True and psc.get("runAsUser") == 10001, f"{name}: pod runs as uid 10001, non-root")
    check(psc.get("seccompProfile", {}).get("type") == "RuntimeDefault", f"{name}: pod seccomp RuntimeDefault")
    check(spec.get("automountServiceAccountToken") is False, f"{name}: no service account token")
    for c in spec["containers"]:
        sc = c.get("securityContext", {})
        cn = f'{name} container {c["name"]}'
        check(sc.get("allowPrivilegeEscalation") is False, f"{cn}: allowPrivilegeEscalation false")
        check(sc.get("readOnlyRootFilesystem") is True, f"{cn}: readOnlyRootFilesystem")
        check(sc.get("capabilities", {}).get("drop") == ["ALL"], f"{cn}: capabilities drop ALL")
        check(sc.get("runAsNonRoot") is True and sc.get("runAsUser") == 10001, f"{cn}: uid 10001")
        check(sc.get("seccompProfile", {}).get("type") == "RuntimeDefault", f"{cn}: seccomp RuntimeDefault")
        mounts = {m["mountPath"] for m in c.get("volumeMounts", [])}
        check({"/tmp", "/var/lib/reelforge"} <= mounts, f"{cn}: /tmp and the data directory writable (volumes)")
        check(bool(c.get("resources", {}).get("requests")), f"{cn}: resource requests")
        check(bool(c.get("resources", {}).get("limits", {}).get("memory")), f"{cn}: a memory limit")
        if obj["kind"] == "Deployment":
            for probe in ("livenessProbe", "readinessProbe", "startupProbe"):
                check(probe in c, f"{cn}: {probe}")


def validate_kubernetes(obj):
    name = f'{obj["kind"]}/{obj["metadata"]["name"]}'
    body = {k: v for k, v in obj.items() if k != "__file"}
    try:
        kubernetes_validate.validate(body, KUBE, strict=True)
        return True
    except SchemaNotFoundError:
        return check(obj["apiVersion"].startswith("keda.sh/"), f"{name}: a schema for {obj['apiVersion']}")
    except kubernetes_validate.ValidationError as e:
        path = ".".join(str(p) for p in e.path)
        return check(False, f"{name}: Kubernetes {KUBE} schema: {path}: {e.message}")


def check_keda(objs, values, queue):
    by = {(o["kind"], o["metadata"]["name"]): o for o in objs}
    so = by.get(("ScaledObject", f"{RELEASE}-worker"))
    if not check(so is not None, "KEDA ScaledObject for the workers"):
        return
    spec = so["spec"]
    w = values["autoscaling"]["worker"]
    check(spec["scaleTargetRef"]["name"] == f"{RELEASE}-worker", "ScaledObject scales the worker Deployment")
    check((spec["minReplicaCount"], spec["maxReplicaCount"]) == (w["minReplicas"], w["maxReplicas"]),
          "ScaledObject min/max replicas from autoscaling.worker")
    (trigger,) = spec["triggers"]
    meta = trigger["metadata"]
    check(trigger["type"] == "rabbitmq", "ScaledObject trigger is rabbitmq")
    check(meta["queueName"] == queue, f"ScaledObject watches queue {queue} (services/kit/src/queue/mod.rs)")
    check(meta["mode"] == "QueueLength" and int(meta["value"]) >= 1, "ScaledObject mode QueueLength, value >= 1")
    check(meta["protocol"] in ("http", "amqp"), "ScaledObject protocol http or amqp")
    auth = by.get(("TriggerAuthentication", trigger["authenticationRef"]["name"]))
    if check(auth is not None, "the TriggerAuthentication the ScaledObject names exists"):
        (ref,) = auth["spec"]["secretTargetRef"]
        check(ref["parameter"] == "host" and ref["name"] and ref["key"], "TriggerAuthentication: host from a Secret key")
        chart_secret = by.get(("Secret", ref["name"]))
        if chart_secret is not None:
            check(ref["key"] in chart_secret.get("stringData", {}), "TriggerAuthentication's key is in the chart's Secret")
    check(("HorizontalPodAutoscaler", f"{RELEASE}-worker") not in by, "no HPA beside KEDA (KEDA makes its own)")


def check_hpa(objs, values):
    by = {(o["kind"], o["metadata"]["name"]): o for o in objs}
    hpa = by.get(("HorizontalPodAutoscaler", f"{RELEASE}-worker"))
    if not check(hpa is not None, "CPU HPA for the workers (no KEDA)"):
        return
    w = values["autoscaling"]["worker"]
    check(hpa["spec"]["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": f"{RELEASE}-worker"},
          "HPA scales the worker Deployment")
    check((hpa["spec"]["minReplicas"], hpa["spec"]["maxReplicas"]) == (w["minReplicas"], w["maxReplicas"]),
          "HPA min/max replicas from autoscaling.worker")
    check(hpa["spec"]["metrics"][0]["resource"]["name"] == "cpu", "HPA on CPU")


def check_release(label, values, queue):
    print(f"helm-check: {label}")
    lint = helm.lint(str(CHART), values, strict=True, kube_version=f"v{KUBE}")
    errors = [m for m in lint.get("messages", []) if m.get("severity", 0) >= 2] + [
        {"error": e} for e in lint.get("errors", []) or []
    ]
    check(not errors, f"helm lint --strict: {errors}")
    v = merged(values)
    objs = render(values)
    kinds = {}
    for o in objs:
        kinds.setdefault(o["kind"], []).append(o["metadata"]["name"])
    print("  rendered: " + ", ".join(f"{k} {len(n)}" for k, n in sorted(kinds.items())))
    valid = sum(1 for o in objs if validate_kubernetes(o))
    print(f"  {valid}/{len(objs)} manifests valid against the Kubernetes {KUBE} schemas (strict)")
    by = {(o["kind"], o["metadata"]["name"]): o for o in objs}
    for o in objs:
        if pod_spec(o) is not None:
            check_security(o)
    deployments = {o["metadata"]["name"]: o for o in objs if o["kind"] == "Deployment"}
    config = by[("ConfigMap", f"{RELEASE}-config")]["data"]
    if v["mode"] == "distributed":
        check(sorted(deployments) == sorted(f"{RELEASE}-{t}" for t in TARGETS), "a Deployment per target")
        for t in TARGETS:
            d = deployments.get(f"{RELEASE}-{t}")
            if d is None:
                continue
            c = d["spec"]["template"]["spec"]["containers"][0]
            check(c["args"] == [t], f"{t}: runs `reelforge {t}`")
            if t in GRPC:
                check(("Service", f"{RELEASE}-{t}") in by, f"{t}: a Service for its gRPC port")
                check(config.get(f"REELFORGE_SERVICES__{t.upper()}__URL") == f"http://{RELEASE}-{t}:{GRPC[t]}",
                      f"{t}: its URL in the ConfigMap")
            check(("PodDisruptionBudget", f"{RELEASE}-{t}") in by, f"{t}: a PodDisruptionBudget")
        if v["networkPolicy"]["enabled"]:
            for svc, want in callers_of_services().items():
                policy = by.get(("NetworkPolicy", f"{RELEASE}-{svc}-callers"))
                if not check(policy is not None, f"{svc}: a NetworkPolicy of its callers"):
                    continue
                allowed = set()
                for rule in policy["spec"]["ingress"]:
                    for peer in rule.get("from", []):
                        for e in peer.get("podSelector", {}).get("matchExpressions", []):
                            if e["key"] == "app.kubernetes.io/component":
                                allowed |= set(e["values"])
                check(allowed == want, f"{svc}: reached by exactly its callers in target.rs {sorted(want)}, the policy allows {sorted(allowed)}")
        worker = deployments[f"{RELEASE}-worker"]["spec"]
        grace = worker["template"]["spec"]["terminationGracePeriodSeconds"]
        check(grace > v["worker"]["handBackSeconds"],
              f"worker grace {grace} s longer than its hand-back ({v['worker']['handBackSeconds']} s)")
        job = by.get(("Job", f"{RELEASE}-migrate"))
        if check(job is not None, "the migration Job"):
            hooks = job["metadata"].get("annotations", {}).get("helm.sh/hook", "")
            check(set(hooks.split(",")) == {"pre-install", "pre-upgrade"}, "migration Job is a pre-install/pre-upgrade hook")
            check(job["spec"]["template"]["spec"]["containers"][0]["args"] == ["admin", "migrate"],
                  "migration Job runs `reelforge admin migrate`")
        check(config.get("REELFORGE_SKIP_MIGRATIONS") == "true", "targets skip migrating at start")
        for var in ("REELFORGE_DATABASE__URL", "REELFORGE_CACHE__URL", "REELFORGE_QUEUE__URL", "REELFORGE_STORAGE__URL"):
            env = {e["name"]: e for e in deployments[f"{RELEASE}-task"]["spec"]["template"]["spec"]["containers"][0]["env"]}
            check(var in env and "secretKeyRef" in env[var].get("valueFrom", {}), f"{var} from a Secret")
        if v["autoscaling"]["worker"]["enabled"]:
            check("replicas" not in worker, "autoscaled worker Deployment leaves replicas to the scaler")
            if ("ScaledObject", f"{RELEASE}-worker") in by or v["autoscaling"]["worker"]["scaler"] == "keda":
                check_keda(objs, v, queue)
            else:
                check_hpa(objs, v)
    else:
        check(list(deployments) == [f"{RELEASE}-all"], "mode all: one Deployment, reelforge all")
        d = deployments[f"{RELEASE}-all"]["spec"]
        check(d["replicas"] == 1 and d["strategy"]["type"] == "Recreate", "mode all: one replica, Recreate")
        wants_claim = v["all"]["persistence"]["enabled"] and not v["all"]["persistence"]["existingClaim"]
        check((("PersistentVolumeClaim", f"{RELEASE}-data") in by) == wants_claim,
              "mode all: a data volume claim when all.persistence asks for one")
        check(("Job", f"{RELEASE}-migrate") not in by, "mode all: no migration Job (all migrates at start)")
        check("REELFORGE_SKIP_MIGRATIONS" not in config, "mode all: migrates at start")
    if v["ingress"]["enabled"]:
        ing = by.get(("Ingress", RELEASE))
        if check(ing is not None, "the Ingress"):
            hosts = sorted(r["host"] for r in ing["spec"]["rules"])
            want = sorted({h for t in v["tenants"].values() for h in t["hosts"]})
            check(hosts == want, f"Ingress hosts are the variants' hosts {want}")
            front = "gateway" if v["mode"] == "distributed" else "all"
            backends = {r["http"]["paths"][0]["backend"]["service"]["name"] for r in ing["spec"]["rules"]}
            check(backends == {f"{RELEASE}-{front}"}, f"every host goes to the one {front}")
            for variant, t in v["tenants"].items():
                if t["hosts"]:
                    check(f"REELFORGE_TENANTS__{variant.upper()}__HOSTS" in config, f"{variant} hosts in the ConfigMap")


# Values that must be refused, and the words the refusal must contain: the chart's own checks
# (`fail`) answer one line; values.schema.json's answer is Helm's, a line per value at fault.
DISTRIBUTED = {
    "mode": "distributed",
    "cache": {"url": "redis://:p@redis:6379/0"},
    "queue": {"url": "amqp://u:p@rabbitmq:5672/%2f", "managementUrl": "http://u:p@rabbitmq:15672/%2f"},
    "storage": {"url": "s3://b?endpoint=http://s3:8333"},
    "database": {"url": "postgres://u:p@pg:5432/reelforge"},
}


def with_(base, **changes):
    out = copy.deepcopy(base)
    for dotted, value in changes.items():
        node = out
        *parents, leaf = dotted.split("__")
        for p in parents:
            node = node.setdefault(p, {})
        node[leaf] = value
    return out


BAD = [
    ("distributed without a database URL", with_(DISTRIBUTED, database__url=""), "database.url"),
    ("distributed with SQLite", with_(DISTRIBUTED, database__url="sqlite:///var/lib/reelforge/x.db"), "database.url"),
    ("distributed on the database queue", with_(DISTRIBUTED, queue__url="db://"), "queue.url"),
    ("KEDA scaler without the queue connection (http)",
     with_(DISTRIBUTED, queue__managementUrl="", autoscaling__worker__scaler="keda"), "queue.managementUrl"),
    ("KEDA scaler without the queue connection (amqp)",
     with_(DISTRIBUTED, queue__managementUrl="", queue__url="db://", autoscaling__worker__scaler="keda",
           autoscaling__worker__keda__protocol="amqp"), "queue.url"),
    ("worker grace period shorter than its hand-back",
     with_(DISTRIBUTED, targets__worker__terminationGracePeriodSeconds=30), "targets.worker.terminationGracePeriodSeconds"),
    ("worker grace period equal to its hand-back",
     with_(DISTRIBUTED, worker__handBackSeconds=120), "targets.worker.terminationGracePeriodSeconds"),
    ("all's grace period shorter than the worker's hand-back", {"all": {"terminationGracePeriodSeconds": 20}},
     "all.terminationGracePeriodSeconds"),
    ("more minimum workers than maximum", with_(DISTRIBUTED, autoscaling__worker__minReplicas=5,
                                                autoscaling__worker__maxReplicas=2), "autoscaling.worker.minReplicas"),
    ("an Ingress without hosts", {"ingress": {"enabled": True}}, "tenants.<variant>.hosts"),
    ("an unknown mode (schema)", {"mode": "both"}, "mode"),
    ("an unknown scaler (schema)", {"autoscaling": {"worker": {"scaler": "prometheus"}}}, "scaler"),
    ("a misspelt key (schema)", {"autoscalling": {}}, "autoscalling"),
    ("a negative handBackSeconds (schema)", {"worker": {"handBackSeconds": -1}}, "handBackSeconds"),
]


def check_refusals():
    print("helm-check: bad configurations are refused")
    for label, values, needle in BAD:
        try:
            render(values)
        except helm.HelmError as e:
            msg = str(e).strip()
            lines = [line for line in msg.splitlines() if line.strip()]
            naming = [line for line in lines if needle in line]
            ok = bool(naming) and (len(lines) == 1 or "(schema)" in label)
            check(ok, f"{label}: refused in one line naming {needle!r} (got: {msg})")
            if ok:
                print(f"  refused: {label}: {re.sub(r'^.*?execution error at [(][^)]*[)]: ', '', naming[0])}")
        else:
            check(False, f"{label}: rendered, should be refused")


def check_dashboard():
    """deploy/grafana-dashboard.json names only metrics that services/kit/src/metrics.rs defines."""
    print("helm-check: deploy/grafana-dashboard.json")
    defined = set(re.findall(r'"(reelforge_[a-z_]+)"', (ROOT / "services/kit/src/metrics.rs").read_text()))
    text = (ROOT / "deploy/grafana-dashboard.json").read_text()
    exprs = [t["expr"] for p in json.loads(text)["panels"] for t in p.get("targets", [])]
    used = {re.sub(r"_(bucket|sum|count)$", "", m) for e in exprs for m in re.findall(r"reelforge_[a-z_]+", e)}
    check(bool(used) and used <= defined, f"dashboard metrics {sorted(used)} are defined (unknown: {sorted(used - defined)})")


def main():
    check_dashboard()
    queue = render_queue_name()
    files = ["values.yaml"] + sorted(p.name for p in CHART.glob("values-*.yaml"))
    for name in files:
        values = {} if name == "values.yaml" else yaml.safe_load((CHART / name).read_text())
        check_release(name, values, queue)
    # The switches the carrier files leave alone: distributed with the chart's own Secret, KEDA on
    # the management API and on AMQP, the HPA, no autoscaling, no persistence in mode all.
    check_release("distributed, chart Secret, KEDA (http)", with_(DISTRIBUTED, autoscaling__worker__scaler="keda"), queue)
    check_release("distributed, KEDA (amqp)", with_(DISTRIBUTED, autoscaling__worker__scaler="keda",
                                                    autoscaling__worker__keda__protocol="amqp"), queue)
    check_release("distributed, fixed worker replicas", with_(DISTRIBUTED, autoscaling__worker__enabled=False), queue)
    check_release("all, ingress, no persistence", {"all": {"persistence": {"enabled": False}}, "ingress": {"enabled": True},
                                                   "tenants": {"qs": {"hosts": ["qs.example"]}}}, queue)
    check_refusals()
    if failures:
        print(f"helm-check: {len(failures)} failed")
        return 1
    print("helm-check: all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
