{{- define "bridge-club.labels" -}}
app.kubernetes.io/part-of: bridge-club
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version }}
{{- end -}}

{{- define "bridge-club.endpoint" -}}
http://{{ .release }}-{{ .service }}:{{ .port }}
{{- end -}}
