//! Logs, traces and metrics.
//!
//! `tracing` everywhere; spans are exported with OpenTelemetry (OTLP over gRPC) when an endpoint
//! is configured. W3C trace context crosses every gRPC hop: [`GrpcTraceLayer`] extracts it from
//! every incoming request and opens the request's span under it; [`inject_trace_context`]
//! (used by every platform client, see [`crate::client`]) writes the current span's context
//! into every outgoing request. Work a request leaves to a background worker (an outbox row)
//! keeps the request's context with it ([`capture_trace_context`]) and is done under it
//! ([`delivery_span`]). So one trace shows a card played, the deal finishing, and the score
//! being written.

use std::sync::OnceLock;
use std::task::{Context, Poll};
use std::time::Instant;

use opentelemetry::global;
use opentelemetry::metrics::{Counter, Histogram};
use opentelemetry::propagation::{Extractor, Injector};
use opentelemetry::trace::TraceContextExt as _;
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

use crate::config::{LogFormat, TelemetryConfig};

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
    let fmt = log_layer(config.log_format).with_filter(filter(&config.log));
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

/// The layer writing log lines to standard output in `format`.
pub fn log_layer<S>(format: LogFormat) -> Box<dyn Layer<S> + Send + Sync + 'static>
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
{
    use std::io::IsTerminal as _;
    log_layer_to(format, std::io::stdout, std::io::stdout().is_terminal())
}

/// The layer writing log lines in `format` to `writer`, text in colour where `ansi` (a terminal;
/// in a file or a pipe the escape codes would only be noise).
pub fn log_layer_to<S, W>(format: LogFormat, writer: W, ansi: bool) -> Box<dyn Layer<S> + Send + Sync + 'static>
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    W: for<'w> tracing_subscriber::fmt::MakeWriter<'w> + Send + Sync + 'static,
{
    let layer = tracing_subscriber::fmt::layer().with_writer(writer).with_ansi(ansi && format == LogFormat::Text);
    match format {
        LogFormat::Text => layer.with_target(false).boxed(),
        // The current span and its parents go with each line, so a collector can group a
        // request's lines (the span fields carry the RPC and, under a trace, its ids).
        LogFormat::Json => layer.json().with_current_span(true).with_span_list(true).flatten_event(true).boxed(),
    }
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

/// The current span's W3C trace context (`traceparent` and any `tracestate`) as one string, to be
/// stored with work that another task does later (an outbox row): see [`resume_trace`]. `None`
/// when there is no trace to continue (spans are not exported, or no span is current).
pub fn capture_trace_context() -> Option<String> {
    let context = tracing::Span::current().context();
    if !context.span().span_context().is_valid() {
        return None;
    }
    let mut fields = std::collections::HashMap::<String, String>::new();
    global::get_text_map_propagator(|propagator| propagator.inject_context(&context, &mut fields));
    // Sorted, so that the same context is always the same string.
    let fields: std::collections::BTreeMap<String, String> = fields.into_iter().collect();
    if fields.is_empty() { None } else { serde_json::to_string(&fields).ok() }
}

/// Puts `span` (new, not yet entered) under the trace context `stored` by
/// [`capture_trace_context`], so that the work it covers, and every peer it calls through
/// [`crate::app::Peers`], shows in the trace of the request that owed it. The span the caller is
/// in (a background worker's round, a retry's request) is kept as a link. A missing or unreadable
/// `stored` leaves `span` where it is.
pub fn resume_trace(span: &tracing::Span, stored: Option<&str>) {
    let Some(fields) = stored.and_then(|s| serde_json::from_str::<std::collections::HashMap<String, String>>(s).ok())
    else {
        return;
    };
    let parent = global::get_text_map_propagator(|propagator| propagator.extract(&fields));
    let remote = parent.span().span_context().clone();
    if !remote.is_valid() {
        return;
    }
    let here = tracing::Span::current().context().span().span_context().clone();
    if span.set_parent(parent).is_ok() && here.is_valid() && here.trace_id() != remote.trace_id() {
        span.add_link(here);
    }
}

/// The span of attempt `attempt` (from 1) to deliver an outbox row (`topic` about
/// `aggregate_id`), under the trace of the request that wrote the row ([`resume_trace`] with the
/// row's stored context). Every outbox delivery opens it around the call to the peer, so the
/// peer's server span is its child.
pub fn delivery_span(topic: &str, aggregate_id: &str, attempt: i64, stored: Option<&str>) -> tracing::Span {
    let span = tracing::info_span!(
        "outbox.deliver",
        otel.name = %format!("outbox.deliver {topic}"),
        outbox.topic = %topic,
        outbox.aggregate_id = %aggregate_id,
        outbox.attempt = attempt,
    );
    resume_trace(&span, stored);
    span
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

/// Reports `read()` as the gauge `name` whenever metrics are collected (an observable gauge on
/// the platform's meter, exported with the others when an OTLP endpoint is configured). `read`
/// returning `None` reports nothing: what it measured is gone (a service that was shut down), so
/// hold it weakly. Call when a service starts.
pub fn observe_gauge(
    name: &'static str,
    description: &'static str,
    read: impl Fn() -> Option<u64> + Send + Sync + 'static,
) {
    observe_gauge_on(&global::meter("bridge-club"), name, description, Vec::new(), read);
}

/// [`observe_gauge`] with `attributes` on each value (which dependency, which outbox), so one
/// gauge name serves every instance of a thing.
pub fn observe_gauge_with(
    name: &'static str,
    description: &'static str,
    attributes: Vec<opentelemetry::KeyValue>,
    read: impl Fn() -> Option<u64> + Send + Sync + 'static,
) {
    observe_gauge_on(&global::meter("bridge-club"), name, description, attributes, read);
}

/// [`observe_gauge_with`] on `meter` (tests give their own provider's).
pub fn observe_gauge_on(
    meter: &opentelemetry::metrics::Meter,
    name: &'static str,
    description: &'static str,
    attributes: Vec<opentelemetry::KeyValue>,
    read: impl Fn() -> Option<u64> + Send + Sync + 'static,
) {
    // The SDK keeps the callback for the provider's lifetime; the handle need not be kept.
    let _ = meter
        .u64_observable_gauge(name)
        .with_description(description)
        .with_callback(move |observer| {
            if let Some(value) = read() {
                observer.observe(value, &attributes);
            }
        })
        .build();
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
                // The access log, off unless asked for (`RUST_LOG=bridge::requests=debug`): which
                // process answered what, as when a service runs as several replicas.
                tracing::debug!(
                    target: "bridge::requests",
                    method = %path,
                    code,
                    millis = started.elapsed().as_secs_f64() * 1000.0,
                    "answered"
                );
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};

    use opentelemetry::metrics::MeterProvider as _;
    use opentelemetry::trace::{SpanContext, TraceContextExt as _};
    use opentelemetry_sdk::error::OTelSdkResult;
    use opentelemetry_sdk::metrics::data::{AggregatedMetrics, MetricData, ResourceMetrics};
    use opentelemetry_sdk::metrics::exporter::PushMetricExporter;
    use opentelemetry_sdk::metrics::{PeriodicReader, Temporality};
    use tracing_subscriber::layer::SubscriberExt;

    use super::*;

    fn span_context(span: &tracing::Span) -> SpanContext {
        span.context().span().span_context().clone()
    }

    #[test]
    fn work_done_later_under_a_stored_context_joins_the_trace_that_stored_it() {
        global::set_text_map_propagator(TraceContextPropagator::new());
        let provider = SdkTracerProvider::builder().build();
        let subscriber =
            tracing_subscriber::registry().with(tracing_opentelemetry::layer().with_tracer(provider.tracer("test")));
        tracing::subscriber::with_default(subscriber, || {
            let request = tracing::info_span!("request");
            let stored = request.in_scope(capture_trace_context).expect("a traced request has a context to store");
            let owed_by = span_context(&request);
            assert!(stored.contains(&owed_by.trace_id().to_string()), "{stored}");
            assert!(stored.contains(&owed_by.span_id().to_string()), "{stored}");

            // A worker's round, in a trace of its own, delivers the row.
            let round = tracing::info_span!("worker round");
            let delivery = round.in_scope(|| delivery_span("scoring.RecordDealResult", "deal-1", 1, Some(&stored)));
            assert_eq!(span_context(&delivery).trace_id(), owed_by.trace_id());
            assert_ne!(span_context(&round).trace_id(), owed_by.trace_id());

            // Nothing stored, or something unreadable: the delivery stays in the worker's trace.
            for stored in [None, Some("not a context"), Some("{}")] {
                let delivery = round.in_scope(|| delivery_span("scoring.RecordDealResult", "deal-1", 1, stored));
                assert_eq!(span_context(&delivery).trace_id(), span_context(&round).trace_id(), "{stored:?}");
            }
        });
        // Spans not exported (no OpenTelemetry layer): nothing to store.
        let untraced = tracing::info_span!("untraced");
        assert_eq!(untraced.in_scope(capture_trace_context), None);
    }

    /// Keeps the values of the gauge named `.1` of every export (one list per export).
    #[derive(Debug, Clone)]
    struct Exports(Arc<std::sync::Mutex<Vec<Vec<u64>>>>, &'static str);

    impl Exports {
        fn of(name: &'static str) -> Exports {
            Exports(Arc::default(), name)
        }

        /// A provider whose gauges are collected when it is flushed (the periodic export is a
        /// day away).
        fn provider(&self) -> SdkMeterProvider {
            let reader = PeriodicReader::builder(self.clone()).with_interval(std::time::Duration::from_secs(86_400));
            SdkMeterProvider::builder().with_reader(reader.build()).build()
        }

        fn exported(&self) -> Vec<Vec<u64>> {
            self.0.lock().unwrap().iter().filter(|v| !v.is_empty()).cloned().collect()
        }
    }

    impl PushMetricExporter for Exports {
        fn export(&self, metrics: &ResourceMetrics) -> impl std::future::Future<Output = OTelSdkResult> + Send {
            let values = metrics
                .scope_metrics()
                .flat_map(|scope| scope.metrics())
                .filter(|metric| metric.name() == self.1)
                .flat_map(|metric| match metric.data() {
                    AggregatedMetrics::U64(MetricData::Gauge(gauge)) => {
                        gauge.data_points().map(|point| point.value()).collect::<Vec<_>>()
                    }
                    other => panic!("not a u64 gauge: {other:?}"),
                })
                .collect();
            self.0.lock().unwrap().push(values);
            std::future::ready(Ok(()))
        }
        fn force_flush(&self) -> OTelSdkResult {
            Ok(())
        }
        fn shutdown_with_timeout(&self, _: std::time::Duration) -> OTelSdkResult {
            Ok(())
        }
        fn temporality(&self) -> Temporality {
            Temporality::Cumulative
        }
    }

    #[test]
    fn a_gauge_reports_what_it_reads_at_each_collection_and_nothing_once_its_source_is_gone() {
        let exports = Exports::of("test.live_things");
        let provider = exports.provider();
        let source = Arc::new(AtomicU64::new(3));
        let weak = Arc::downgrade(&source);
        observe_gauge_on(&provider.meter("test"), "test.live_things", "things", Vec::new(), move || {
            weak.upgrade().map(|s| s.load(Ordering::Relaxed))
        });
        provider.force_flush().unwrap();
        source.store(5, Ordering::Relaxed);
        provider.force_flush().unwrap();
        drop(source);
        provider.force_flush().unwrap();
        // The last collection observed nothing (the SDK may skip exporting it at all).
        assert_eq!(exports.exported(), [vec![3], vec![5]]);
    }

    #[test]
    fn a_breaker_reports_whether_its_dependency_fails_fast() {
        let exports = Exports::of("dependency.breaker.open");
        let provider = exports.provider();
        let breaker = crate::breaker::Breaker::new("database", std::time::Duration::ZERO);
        breaker.report_on(&provider.meter("test"));
        provider.force_flush().unwrap();
        breaker.admit().unwrap().failed();
        provider.force_flush().unwrap();
        // The cool-down is over at once: the next call is the probe, and it succeeds.
        breaker.admit().unwrap().succeeded();
        provider.force_flush().unwrap();
        assert_eq!(exports.exported(), [vec![0], vec![1], vec![0]]);
    }

    /// Lines captured from a log layer.
    #[derive(Clone, Default)]
    struct Captured(Arc<std::sync::Mutex<Vec<u8>>>);

    impl std::io::Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn json_logs_are_one_object_a_line_with_their_fields_and_spans() {
        let captured = Captured::default();
        let writer = captured.clone();
        let subscriber =
            tracing_subscriber::registry().with(log_layer_to(LogFormat::Json, move || writer.clone(), false));
        tracing::subscriber::with_default(subscriber, || {
            let span = tracing::info_span!("grpc", rpc = "PlayCard");
            let _entered = span.enter();
            tracing::warn!(table_id = "t1", "deal \"quoted\"\nover two lines");
        });
        let text = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1, "one line for one event, even with a newline in the message: {text}");
        let line: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
        assert_eq!(line["level"], "WARN");
        assert_eq!(line["message"], "deal \"quoted\"\nover two lines");
        assert_eq!(line["table_id"], "t1", "fields stay fields: {line}");
        assert_eq!(line["span"]["rpc"], "PlayCard", "the span around the event goes with it: {line}");
        assert!(line["timestamp"].is_string());
    }

    #[test]
    fn text_logs_stay_for_people() {
        let captured = Captured::default();
        let writer = captured.clone();
        let subscriber =
            tracing_subscriber::registry().with(log_layer_to(LogFormat::Text, move || writer.clone(), false));
        tracing::subscriber::with_default(subscriber, || tracing::info!(table_id = "t1", "dealt"));
        let text = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
        assert!(text.contains("dealt") && text.contains("table_id=\"t1\""), "{text}");
        assert!(serde_json::from_str::<serde_json::Value>(text.trim()).is_err());
    }
}
