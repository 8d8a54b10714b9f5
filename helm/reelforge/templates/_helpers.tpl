{{/* The targets this release runs: `all` alone, or one Deployment per target. */}}
{{- define "reelforge.targets" -}}
{{- if eq .Values.mode "distributed" -}}
{{- toJson (list "gateway" "auth" "material" "category" "favourite" "font" "task" "ai" "ring" "worker") -}}
{{- else -}}
{{- toJson (list "all") -}}
{{- end -}}
{{- end -}}

{{/* The gRPC port of each service target (services.<svc>.listen / .url). */}}
{{- define "reelforge.grpcPorts" -}}
{{- toJson (dict "auth" 7101 "material" 7102 "category" 7103 "favourite" 7104 "task" 7105 "ai" 7106 "font" 7107 "ring" 7108) -}}
{{- end -}}

{{/* The Deployment that answers browsers: gateway, or all. */}}
{{- define "reelforge.front" -}}
{{- ternary "gateway" "all" (eq .Values.mode "distributed") -}}
{{- end -}}

{{- define "reelforge.selector" -}}
app.kubernetes.io/name: reelforge
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{- define "reelforge.labels" -}}
{{ include "reelforge.selector" . }}
app.kubernetes.io/version: {{ .root.Values.image.tag | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
reelforge.io/variant: {{ .root.Values.variant }}
{{- end -}}

{{/* A target's settings: targets.<name> in distributed mode, `all` in mode all. */}}
{{- define "reelforge.target" -}}
{{- if eq .name "all" -}}
{{- toJson .root.Values.all -}}
{{- else -}}
{{- toJson (get .root.Values.targets .name) -}}
{{- end -}}
{{- end -}}

{{/* The pod's and the container's security context: uid 10001 (the image's user), nothing to
     escalate to, read-only root file system, no capabilities, the runtime's seccomp profile. */}}
{{- define "reelforge.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 10001
runAsGroup: 10001
fsGroup: 10001
fsGroupChangePolicy: OnRootMismatch
seccompProfile: { type: RuntimeDefault }
{{- end -}}

{{- define "reelforge.containerSecurityContext" -}}
runAsNonRoot: true
runAsUser: 10001
runAsGroup: 10001
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
privileged: false
capabilities: { drop: [ALL] }
seccompProfile: { type: RuntimeDefault }
{{- end -}}

{{/* The Secret and key a backend URL comes from: the user's Secret, or the chart's. */}}
{{- define "reelforge.backendRef" -}}
{{- $b := get .root.Values .backend -}}
{{- if $b.existingSecret -}}
{ name: {{ $b.existingSecret }}, key: {{ $b.existingSecretKey }} }
{{- else -}}
{ name: {{ .root.Release.Name }}-backends, key: {{ $b.existingSecretKey }} }
{{- end -}}
{{- end -}}

{{/* Whether a backend URL is set, in values or in a Secret of the user's. */}}
{{- define "reelforge.backendSet" -}}
{{- $b := get .root.Values .backend -}}
{{- if or $b.url $b.existingSecret }}true{{ end -}}
{{- end -}}

{{/* The environment of every reelforge container: backend URLs from Secrets (distributed), the
     rest from the ConfigMap and the Secrets through envFrom. */}}
{{- define "reelforge.backendEnv" -}}
{{- $root := . -}}
{{- range $backend, $var := dict "database" "REELFORGE_DATABASE__URL" "cache" "REELFORGE_CACHE__URL" "queue" "REELFORGE_QUEUE__URL" "storage" "REELFORGE_STORAGE__URL" }}
{{- if include "reelforge.backendSet" (dict "root" $root "backend" $backend) }}
- name: {{ $var }}
  valueFrom:
    secretKeyRef: {{ include "reelforge.backendRef" (dict "root" $root "backend" $backend) }}
{{- end }}
{{- end }}
{{- end -}}

{{/* Bad configuration is refused at render time, with one line naming the value. */}}
{{- define "reelforge.validate" -}}
{{- $v := .Values -}}
{{- if not (has $v.mode (list "all" "distributed")) -}}
{{- fail (printf "mode must be all or distributed, not %q" $v.mode) -}}
{{- end -}}
{{- if eq $v.mode "distributed" -}}
{{- if not (or $v.database.url $v.database.existingSecret) -}}
{{- fail "database.url (or database.existingSecret) is required when mode is distributed: the services share one PostgreSQL" -}}
{{- end -}}
{{- if and $v.database.url (not (hasPrefix "postgres" $v.database.url)) -}}
{{- fail "database.url must be postgres://… when mode is distributed (SQLite cannot be shared between pods)" -}}
{{- end -}}
{{- if not (or (hasPrefix "redis" $v.cache.url) $v.cache.existingSecret) -}}
{{- fail "cache.url must be redis://… (or set cache.existingSecret) when mode is distributed: codes, limits and progress are shared" -}}
{{- end -}}
{{- if not (or (hasPrefix "amqp" $v.queue.url) $v.queue.existingSecret) -}}
{{- fail "queue.url must be amqp://… (or set queue.existingSecret) when mode is distributed: the render queue and its events cross pods" -}}
{{- end -}}
{{- if not (or (hasPrefix "s3://" $v.storage.url) $v.storage.existingSecret) -}}
{{- fail "storage.url must be s3://… (or set storage.existingSecret) when mode is distributed: every pod reads and writes the same blobs" -}}
{{- end -}}
{{- $w := $v.autoscaling.worker -}}
{{- if and $w.enabled (eq (include "reelforge.scaler" .) "keda") -}}
{{- if eq $w.keda.protocol "http" -}}
{{- if not (or $v.queue.managementUrl $v.queue.existingSecret) -}}
{{- fail "queue.managementUrl (or queue.existingSecret with queue.managementUrlKey) is required by the KEDA scaler (autoscaling.worker.keda.protocol http): it reads the render queue's depth from the RabbitMQ management API" -}}
{{- end -}}
{{- else if not (or (hasPrefix "amqp" $v.queue.url) $v.queue.existingSecret) -}}
{{- fail "queue.url (amqp://…) or queue.existingSecret is required by the KEDA scaler (autoscaling.worker.keda.protocol amqp)" -}}
{{- end -}}
{{- end -}}
{{- if and $w.enabled (gt (int $w.minReplicas) (int $w.maxReplicas)) -}}
{{- fail (printf "autoscaling.worker.minReplicas (%v) is above autoscaling.worker.maxReplicas (%v)" $w.minReplicas $w.maxReplicas) -}}
{{- end -}}
{{- $grace := int $v.targets.worker.terminationGracePeriodSeconds -}}
{{- if le $grace (int $v.worker.handBackSeconds) -}}
{{- fail (printf "targets.worker.terminationGracePeriodSeconds (%d) must be longer than worker.handBackSeconds (%v): a worker stopped before its hand-back leaves its render to the reaper (worker.staleSeconds later)" $grace $v.worker.handBackSeconds) -}}
{{- end -}}
{{- else -}}
{{- $grace := int $v.all.terminationGracePeriodSeconds -}}
{{- if le $grace (int $v.worker.handBackSeconds) -}}
{{- fail (printf "all.terminationGracePeriodSeconds (%d) must be longer than worker.handBackSeconds (%v): the render worker inside `all` hands its job back on SIGTERM" $grace $v.worker.handBackSeconds) -}}
{{- end -}}
{{- end -}}
{{- if $v.ingress.enabled -}}
{{- $hosts := list -}}
{{- range $name, $t := $v.tenants }}{{ $hosts = concat $hosts $t.hosts }}{{ end -}}
{{- if not $hosts -}}
{{- fail "ingress.enabled needs host names: set tenants.<variant>.hosts (qs, cc, migu, cu)" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* keda or hpa: autoscaling.worker.scaler, where `auto` is KEDA when the cluster serves it. */}}
{{- define "reelforge.scaler" -}}
{{- $s := .Values.autoscaling.worker.scaler -}}
{{- if eq $s "auto" -}}
{{- ternary "keda" "hpa" (.Capabilities.APIVersions.Has "keda.sh/v1alpha1") -}}
{{- else -}}
{{- $s -}}
{{- end -}}
{{- end -}}
