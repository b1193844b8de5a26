"""What the rendered chart must hold, beyond the Kubernetes schemas (deploy/chart-check.sh).

Reads the manifests `helm template` printed (a file, or standard input) and the values file they
were rendered with; exits non-zero naming each broken rule. The rules are the operator's promises
in charts/bridge-club/values.yaml and docs/runbook.md: who is given which secret, how every pod
is locked down, that only the Job migrates by default, and that the gateway alone is public.
"""

import sys

import yaml

SERVICES = ["membership", "game", "scoring", "appeals", "gateway"]


def env_of(container):
    return {e["name"]: e for e in container.get("env", [])}


def check(docs, values):
    broken = []
    by_kind = {}
    for doc in docs:
        by_kind.setdefault(doc["kind"], {})[doc["metadata"]["name"]] = doc

    def fail(rule):
        broken.append(rule)

    deployments = by_kind.get("Deployment", {})
    if len(deployments) != len(SERVICES):
        fail(f"expected one Deployment per service, found {sorted(deployments)}")
    services_migrate = str(values.get("migrations", {}).get("servicesMigrate", False)).lower()
    for name, deployment in deployments.items():
        service = deployment["metadata"]["labels"]["app.kubernetes.io/name"]
        pod = deployment["spec"]["template"]["spec"]
        security = pod.get("securityContext", {})
        if not security.get("runAsNonRoot") or security.get("runAsUser", 0) == 0:
            fail(f"{name}: the pod must run as a non-root user")
        if pod.get("automountServiceAccountToken") is not False:
            fail(f"{name}: the pod must not mount a Kubernetes API token")
        (container,) = pod["containers"]
        c = container.get("securityContext", {})
        if not c.get("readOnlyRootFilesystem"):
            fail(f"{name}: the root filesystem must be read-only")
        if c.get("allowPrivilegeEscalation") is not False:
            fail(f"{name}: privilege escalation must be off")
        if "ALL" not in c.get("capabilities", {}).get("drop", []):
            fail(f"{name}: every capability must be dropped")
        if not container.get("resources", {}).get("requests"):
            fail(f"{name}: the container must request resources")
        env = env_of(container)
        token = env.get("BRIDGE_AUTH__SERVICE_TOKEN", {}).get("valueFrom", {}).get("secretKeyRef", {})
        if token.get("key") != service:
            fail(f"{name}: must be given its own service token only, not {token.get('key')!r}")
        secrets = {v["secret"]["secretName"] for v in pod.get("volumes", []) if "secret" in v}
        private = values["auth"]["privateKeySecret"]
        if (private in secrets) != (service == "membership"):
            fail(f"{name}: only membership, which signs people in, may mount the signing key")
        # A peer is called at the headless Service of its replicas, so calls spread over every
        # ready pod; the Service's one virtual address would pin them all to one.
        services = by_kind.get("Service", {})
        for e in env.values():
            if not e["name"].startswith("BRIDGE_ENDPOINTS__"):
                continue
            peer = e["name"].removeprefix("BRIDGE_ENDPOINTS__").lower()
            host = e.get("value", "").removeprefix("dns+").split("://")[-1].split(":")[0]
            replicas = services.get(host, {})
            if not e.get("value", "").startswith("dns+") or replicas.get("spec", {}).get("clusterIP") != "None":
                fail(f"{name}: calls {peer} at {e.get('value')!r}, not by the headless Service of its replicas")
            elif replicas["spec"].get("selector", {}).get("app.kubernetes.io/name") != peer:
                fail(f"{name}: {host} does not select the {peer} pods")
        if values.get("tls", {}).get("enabled"):
            if "BRIDGE_TLS__CERT_FILE" not in env:
                fail(f"{name}: tls.enabled, but its port does not speak TLS")
            plain = [e["name"] for e in env.values() if e["name"].startswith("BRIDGE_ENDPOINTS__")
                     and not e.get("value", "").removeprefix("dns+").startswith("https://")]
            if plain:
                fail(f"{name}: tls.enabled, but it calls {plain} in plaintext")
            if any("grpc" in container.get(probe, {}) for probe in ("readinessProbe", "livenessProbe")):
                fail(f"{name}: the kubelet's gRPC probe cannot speak TLS")
        mail = values.get("mail", {})
        given_mail = sorted(k for k in env if k.startswith("BRIDGE_MAIL__"))
        if service != "membership" and given_mail:
            fail(f"{name}: only membership, which mails members their codes, may be given the mail server")
        if service == "membership" and bool(mail.get("host")) != ("BRIDGE_MAIL__HOST" in env):
            fail(f"{name}: is given the mail server exactly when mail.host is set")
        if mail.get("credentialsSecret") in secrets and service != "membership":
            fail(f"{name}: only membership may mount the mail server's login")
        if service == "gateway":
            if "DATABASE_URL" in env:
                fail("gateway: keeps no records and must not be given the database secret")
        else:
            if "DATABASE_URL" not in env:
                fail(f"{name}: needs the database")
            migrate = env.get("BRIDGE_DATABASE__MIGRATE_ON_START", {}).get("value")
            if migrate != services_migrate:
                fail(f"{name}: migrate_on_start is {migrate!r}, values say {services_migrate!r}")
    if not any(job["spec"]["template"]["spec"]["containers"][0]["command"][-1] == "migrate"
               for job in by_kind.get("Job", {}).values()):
        fail("the migration Job is missing")

    for name, service in by_kind.get("Service", {}).items():
        kind = service["spec"].get("type", "ClusterIP")
        if kind != "ClusterIP" and service["metadata"]["labels"]["app.kubernetes.io/name"] != "gateway":
            fail(f"{name}: only the gateway may be exposed outside the cluster (type {kind})")

    if values.get("networkPolicy", {}).get("enabled", True):
        policies = by_kind.get("NetworkPolicy", {})
        public = [p for p in policies.values()
                  if any("namespaceSelector" in peer for rule in p["spec"].get("ingress", [])
                         for peer in rule.get("from", []))]
        if len(public) != 1 or public[0]["spec"]["podSelector"]["matchLabels"].get("app.kubernetes.io/name") != "gateway":
            fail("exactly one NetworkPolicy may admit traffic from outside the release, and only to the gateway")
        for policy in policies.values():
            for rule in policy["spec"].get("ingress", []):
                if not rule.get("from"):
                    fail(f"{policy['metadata']['name']}: an ingress rule without `from` admits everyone")
        mail = values.get("mail", {})
        to_mail = [p for p in policies.values()
                   if p["spec"]["podSelector"].get("matchLabels", {}).get("app.kubernetes.io/name") == "membership"
                   and any(port.get("port") == mail.get("port")
                           for rule in p["spec"].get("egress", []) for port in rule.get("ports", []))]
        if bool(mail.get("host")) != bool(to_mail):
            fail("membership alone reaches the mail server's port, exactly when mail.host is set")
    for scaled, scaling in values.get("autoscaling", {}).items():
        hpa = [h for h in by_kind.get("HorizontalPodAutoscaler", {}).values()
               if h["spec"]["scaleTargetRef"]["name"].endswith("-" + scaled)]
        if bool(hpa) != bool(scaling.get("enabled")):
            fail(f"{scaled}: autoscaling enabled={scaling.get('enabled')} but {len(hpa)} autoscalers rendered")
    return broken


def main():
    manifests, values_file = sys.argv[1], sys.argv[2]
    with open(manifests) as f:
        docs = [d for d in yaml.safe_load_all(f) if d]
    with open("charts/bridge-club/values.yaml") as f:
        values = yaml.safe_load(f)
    with open(values_file) as f:
        overrides = yaml.safe_load(f) or {}
    for key, value in overrides.items():
        if isinstance(value, dict) and isinstance(values.get(key), dict):
            values[key] = {**values[key], **value}
        else:
            values[key] = value
    broken = check(docs, values)
    for rule in broken:
        print(f"chart policy: {values_file}: {rule}", file=sys.stderr)
    if broken:
        sys.exit(1)
    print(f"chart policy: {values_file}: {len(docs)} manifests hold every rule")


if __name__ == "__main__":
    main()
