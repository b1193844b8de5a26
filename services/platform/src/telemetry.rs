//! Logs, traces and metrics.
//!
//! `tracing` everywhere; spans are exported with OpenTelemetry (OTLP over gRPC) when an endpoint
//! is configured. W3C trace context crosses every gRPC hop: [`GrpcTraceLayer`] extracts it from
//! every incoming request and opens the request's span under it; [`inject_trace_context`]
//! (used by every platform client, see [`crate::client`]) writes the current span's context
//! into every outgoing request. So one trace shows a card played, the deal finishing, and the
//! score being written.

use std::sync::OnceLock;
use std::task::{Context, Poll};
use std::time::Instant;

use opentelemetry::global;
use opentelemetry::metrics::{Counter, Histogram};
use opentelemetry::propagation::{Extractor, Injector};
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::WithExportConfig;
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::SdkMeterProvider;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::{SdkTracerProvider, SpanExporter};
use tracing::Instrument;
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer};

use crate::config::TelemetryConfig;

/// Keeps the exporters alive; flushes and shuts them down when dropped (at process exit).
#[derive(Debug, Default)]
pub struct TelemetryGuard {
    tracer: Option<SdkTracerProvider>,
    meter: Option<SdkMeterProvider>,
}

impl TelemetryGuard {
    /// Flushes pending spans now (tests call this before reading an in-memory exporter).
    pub fn flush(&self) {
        if let Some(tracer) = &self.tracer {
            let _ = tracer.force_flush();
        }
    }
}

impl Drop for TelemetryGuard {
    fn drop(&mut self) {
        if let Some(tracer) = self.tracer.take() {
            let _ = tracer.shutdown();
        }
        if let Some(meter) = self.meter.take() {
            let _ = meter.shutdown();
        }
    }
}

/// A telemetry set-up that failed.
#[derive(Debug, thiserror::Error)]
#[error("telemetry: {0}")]
pub struct TelemetryError(String);

fn resource(service_name: &str) -> Resource {
    Resource::builder().with_service_name(service_name.to_owned()).build()
}

fn filter(directives: &str) -> EnvFilter {
    EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(directives))
}

/// Installs the process-wide subscriber: a log formatter filtered by `config.log` (or
/// `RUST_LOG`), and, when `config.otlp_endpoint` is set, OTLP export of spans and metrics.
/// Call once, at the start of `main`.
pub fn init(service_name: &str, config: &TelemetryConfig) -> Result<TelemetryGuard, TelemetryError> {
    global::set_text_map_propagator(TraceContextPropagator::new());
    let fmt = tracing_subscriber::fmt::layer().with_target(false).with_filter(filter(&config.log));
    let Some(endpoint) = &config.otlp_endpoint else {
        tracing_subscriber::registry().with(fmt).try_init().map_err(|e| TelemetryError(e.to_string()))?;
        return Ok(TelemetryGuard::default());
    };
    let spans = opentelemetry_otlp::SpanExporter::builder()
        .with_tonic()
        .with_endpoint(endpoint.clone())
        .build()
        .map_err(|e| TelemetryError(e.to_string()))?;
    let metrics = opentelemetry_otlp::MetricExporter::builder()
        .with_tonic()
        .with_endpoint(endpoint.clone())
        .build()
        .map_err(|e| TelemetryError(e.to_string()))?;
    let meter =
        SdkMeterProvider::builder().with_periodic_exporter(metrics).with_resource(resource(service_name)).build();
    global::set_meter_provider(meter.clone());
    let mut guard = init_with_exporter(service_name, &config.log, spans, fmt)?;
    guard.meter = Some(meter);
    Ok(guard)
}

/// Installs the process-wide subscriber exporting spans to `exporter` (batched), beside the log
/// layer `logs`. [`init`] uses it with the OTLP exporter; tests use it with an in-memory one.
pub fn init_with_exporter<E, L>(
    service_name: &str,
    log: &str,
    exporter: E,
    logs: L,
) -> Result<TelemetryGuard, TelemetryError>
where
    E: SpanExporter + 'static,
    L: Layer<tracing_subscriber::Registry> + Send + Sync + 'static,
{
    global::set_text_map_propagator(TraceContextPropagator::new());
    let provider =
        SdkTracerProvider::builder().with_batch_exporter(exporter).with_resource(resource(service_name)).build();
    let tracer = provider.tracer(service_name.to_owned());
    global::set_tracer_provider(provider.clone());
    let otel = tracing_opentelemetry::layer().with_tracer(tracer).with_filter(filter(log));
    tracing_subscriber::registry().with(logs).with(otel).try_init().map_err(|e| TelemetryError(e.to_string()))?;
    Ok(TelemetryGuard { tracer: Some(provider), meter: None })
}

struct HeaderExtractor<'a>(&'a http::HeaderMap);

impl Extractor for HeaderExtractor<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(|v| v.to_str().ok())
    }

    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(|k| k.as_str()).collect()
    }
}

struct MetadataInjector<'a>(&'a mut tonic::metadata::MetadataMap);

impl Injector for MetadataInjector<'_> {
    fn set(&mut self, key: &str, value: String) {
        if let (Ok(key), Ok(value)) =
            (tonic::metadata::MetadataKey::from_bytes(key.as_bytes()), tonic::metadata::MetadataValue::try_from(value))
        {
            self.0.insert(key, value);
        }
    }
}

/// Writes the current span's W3C trace context (`traceparent`, `tracestate`) into outgoing
/// request metadata.
pub fn inject_trace_context(metadata: &mut tonic::metadata::MetadataMap) {
    let context = tracing::Span::current().context();
    global::get_text_map_propagator(|propagator| propagator.inject_context(&context, &mut MetadataInjector(metadata)));
}

struct RequestMetrics {
    requests: Counter<u64>,
    duration: Histogram<f64>,
}

fn request_metrics() -> &'static RequestMetrics {
    static METRICS: OnceLock<RequestMetrics> = OnceLock::new();
    METRICS.get_or_init(|| {
        let meter = global::meter("bridge-club");
        RequestMetrics {
            requests: meter.u64_counter("rpc.server.requests").with_description("gRPC requests served").build(),
            duration: meter
                .f64_histogram("rpc.server.duration")
                .with_unit("ms")
                .with_description("time to the response headers of a gRPC request")
                .build(),
        }
    })
}

/// Server layer: opens a span for each request under the caller's trace context, and counts
/// requests and their latency.
#[derive(Debug, Clone, Default)]
pub struct GrpcTraceLayer;

impl<S> tower::Layer<S> for GrpcTraceLayer {
    type Service = GrpcTraceService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        GrpcTraceService { inner }
    }
}

/// The service [`GrpcTraceLayer`] wraps around the routes.
#[derive(Debug, Clone)]
pub struct GrpcTraceService<S> {
    inner: S,
}

impl<S, B, ResBody> tower::Service<http::Request<B>> for GrpcTraceService<S>
where
    S: tower::Service<http::Request<B>, Response = http::Response<ResBody>>,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = futures::future::BoxFuture<'static, Result<Self::Response, Self::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let path = request.uri().path().to_owned();
        let parent = global::get_text_map_propagator(|p| p.extract(&HeaderExtractor(request.headers())));
        let span = tracing::info_span!(
            "grpc.request",
            otel.name = %path,
            otel.kind = "server",
            rpc.system = "grpc",
            rpc.method = %path,
            rpc.grpc.status_code = tracing::field::Empty,
            enduser.id = tracing::field::Empty,
        );
        let _ = span.set_parent(parent);
        let started = Instant::now();
        let future = {
            let _entered = span.enter();
            self.inner.call(request)
        };
        Box::pin(
            async move {
                let result = future.await;
                let code = match &result {
                    Ok(response) => response
                        .headers()
                        .get("grpc-status")
                        .and_then(|v| v.to_str().ok())
                        .and_then(|v| v.parse::<i32>().ok())
                        .unwrap_or(0),
                    Err(_) => 2,
                };
                tracing::Span::current().record("rpc.grpc.status_code", code);
                let metrics = request_metrics();
                let attributes = [
                    opentelemetry::KeyValue::new("rpc.method", path),
                    opentelemetry::KeyValue::new("rpc.grpc.status_code", i64::from(code)),
                ];
                metrics.requests.add(1, &attributes);
                metrics.duration.record(started.elapsed().as_secs_f64() * 1000.0, &attributes);
                result
            }
            .instrument(span),
        )
    }
}
