//! The screens: the web application (`web/`, built into `web/dist`) served beside gRPC on the
//! same port, so that a browser needs nothing but the club's address and no Node runs in
//! production.
//!
//! A request is for the screens when it is a GET or HEAD: gRPC and grpc-web calls are always
//! POST and a CORS preflight is OPTIONS, so the method tells the two apart without a list of
//! paths to keep in step with the contract. Files come from the directory as they are (content
//! type from the extension); a path that names no file gets `index.html`, so that a screen's
//! address (`/table/t1`) can be reloaded or bookmarked, except under `/assets/`, where a missing
//! file is a plain 404 rather than a page the browser would try to run as a script.
//!
//! Vite names every file under `/assets/` after a hash of its content, so those may be kept for a
//! year; everything else (`index.html` above all, which names the current assets) is revalidated
//! on every load, so a new build reaches phones at once.
//!
//! The build writes each file compressed beside it (`.br`, `.gz`), and a browser that accepts
//! either gets it (a quarter of the bytes, for a phone on the club's Wi-Fi) with no compression
//! work at request time; without one, the file goes as it is.

use std::convert::Infallible;
use std::path::{Path, PathBuf};
use std::task::{Context, Poll};

use http::header::{CACHE_CONTROL, CONTENT_TYPE};
use http::{HeaderValue, Method, StatusCode};
use platform::server::GrpcService;
use tonic::body::Body;
use tower::{Service, ServiceExt};
use tower_http::services::{ServeDir, ServeFile};

/// Where the built screens' content-hashed files live, under the served directory.
const ASSETS: &str = "/assets/";

/// `Cache-Control` of a content-hashed file: its name changes whenever its content does.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// `Cache-Control` of everything else: always asked again (a 304 when unchanged).
const REVALIDATE: &str = "no-cache";

/// Whether `request` is for the screens rather than for a service (see the module docs).
pub fn is_for_screens<B>(request: &http::Request<B>) -> bool {
    matches!(*request.method(), Method::GET | Method::HEAD)
}

/// Serves the screens from `dir` and sends every other request to `grpc`.
pub fn beside(grpc: GrpcService, dir: PathBuf) -> GrpcService {
    GrpcService::new(Screens { grpc, files: Files::new(dir) })
}

#[derive(Clone)]
struct Screens {
    grpc: GrpcService,
    files: Files,
}

impl Service<http::Request<Body>> for Screens {
    type Response = http::Response<Body>;
    type Error = Infallible;
    type Future = futures::future::BoxFuture<'static, Result<Self::Response, Infallible>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.grpc.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<Body>) -> Self::Future {
        if is_for_screens(&request) {
            let files = self.files.clone();
            return Box::pin(async move { Ok(files.serve(request).await) });
        }
        // The ready inner service goes with this request; a fresh clone waits for the next.
        let grpc = self.grpc.clone();
        let mut ready = std::mem::replace(&mut self.grpc, grpc);
        Box::pin(async move { ready.call(request).await })
    }
}

/// The built screens' directory.
#[derive(Clone)]
struct Files {
    dir: PathBuf,
    index: PathBuf,
    /// Any path: the file, else `index.html` (a screen's address).
    pages: ServeDir<ServeFile>,
    /// Under `/assets/`: the file or 404.
    assets: ServeDir,
}

impl Files {
    fn new(dir: PathBuf) -> Files {
        let index = dir.join("index.html");
        Files {
            pages: ServeDir::new(&dir)
                .precompressed_br()
                .precompressed_gzip()
                .fallback(ServeFile::new(&index).precompressed_br().precompressed_gzip()),
            assets: ServeDir::new(&dir).precompressed_br().precompressed_gzip(),
            index,
            dir,
        }
    }

    async fn serve(self, request: http::Request<Body>) -> http::Response<Body> {
        // Checked on every request rather than at start, so that screens built while the server
        // runs are served at once.
        if !tokio::fs::try_exists(&self.index).await.unwrap_or(false) {
            return not_built(&self.dir);
        }
        let hashed = request.uri().path().starts_with(ASSETS);
        let response = if hashed { self.assets.oneshot(request).await } else { self.pages.oneshot(request).await };
        let Ok(mut response) = response;
        let cache = if hashed && response.status().is_success() { IMMUTABLE } else { REVALIDATE };
        response.headers_mut().insert(CACHE_CONTROL, HeaderValue::from_static(cache));
        response.map(Body::new)
    }
}

/// What `/` answers when the screens have not been built: how to build them. The services are
/// unaffected.
fn not_built(dir: &Path) -> http::Response<Body> {
    let dir = html_escape(&dir.display().to_string());
    let page = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>Bridge club: screens not built</title></head>\n<body>\
         <h1>The screens are not built</h1>\
         <p>This server serves every service (gRPC and grpc-web) on this address, but it found no \
         <code>index.html</code> in <code>{dir}</code>.</p>\
         <p>Build the screens from the repository's root with Node.js 20 or later:</p>\
         <pre>npm ci --prefix web\nnpm run build --prefix web</pre>\
         <p>then reload this page; or point <code>screens_dir</code> in <code>[club]</code> \
         (<code>BRIDGE_CLUB__SCREENS_DIR</code>) at a built copy.</p></body></html>\n"
    );
    let mut response = http::Response::new(Body::new(http_body_full(page)));
    *response.status_mut() = StatusCode::NOT_FOUND;
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static(REVALIDATE));
    response
}

fn http_body_full(text: String) -> http_body_util::Full<bytes::Bytes> {
    http_body_util::Full::new(bytes::Bytes::from(text))
}

fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
