{{- define "bridge-club.labels" -}}
app.kubernetes.io/part-of: bridge-club
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version }}
{{- end -}}

{{/* The labels that pick one service's pods. */}}
{{- define "bridge-club.selector" -}}
app.kubernetes.io/instance: {{ .release }}
app.kubernetes.io/name: {{ .service }}
{{- end -}}

{{- define "bridge-club.endpoint" -}}
dns+{{ if .tls }}https{{ else }}http{{ end }}://{{ .release }}-{{ .service }}-replicas:{{ .port }}
{{- end -}}

{{/* A probe of the service on `port`: the kubelet's own gRPC probe, which cannot speak TLS, or
`bridgectl health` over TLS checked against the release's CA. */}}
{{- define "bridge-club.probe" -}}
{{- if .tls }}
exec:
  command: ["/usr/local/bin/bridgectl", "--server", "https://localhost:{{ .port }}", "health", "--service", ""]
timeoutSeconds: 5
{{- else }}
grpc: { port: {{ .port }} }
{{- end }}
{{- end -}}

{{/* The pod-level security every pod of the chart runs with: not root, the runtime's seccomp profile. */}}
{{- define "bridge-club.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 65532
runAsGroup: 65532
fsGroup: 65532
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* The container-level security: a read-only root filesystem, no privilege escalation, no capabilities. */}}
{{- define "bridge-club.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
privileged: false
capabilities:
  drop: ["ALL"]
{{- end -}}
