//! The one mapping from service errors to gRPC status codes and their details.
//!
//! Every service returns [`ServiceError`] from its domain layer and converts it to a
//! `tonic::Status` here and nowhere else, so that clients see the same code for the same kind
//! of failure across the platform (the README's "Status codes" section is the contract):
//!
//! | error | status | reason (the `REASON_*` constants) |
//! |---|---|---|
//! | malformed input | `INVALID_ARGUMENT`, with `BadRequest` naming the field | `FIELD_INVALID`, `REQUEST_INVALID` |
//! | an action the Laws do not allow now | `FAILED_PRECONDITION`, message names the Law | `LAW_FORBIDS` |
//! | another precondition (a closed table) | `FAILED_PRECONDITION` | `NOT_NOW` |
//! | a precondition with a finer reason (no mail server) | `FAILED_PRECONDITION` | `MAIL_NOT_CONFIGURED`, `NO_EMAIL_ADDRESS` |
//! | missing entity | `NOT_FOUND` | `NOT_FOUND` |
//! | duplicate entity | `ALREADY_EXISTS` | `ALREADY_EXISTS` |
//! | principal lacks the role | `PERMISSION_DENIED` | `PERMISSION_DENIED` |
//! | a wrong password, code or refresh token | `UNAUTHENTICATED` | `UNAUTHENTICATED` |
//! | too many wrong tries (signing in) | `RESOURCE_EXHAUSTED`, `RetryInfo` of the wait | `RATE_LIMITED` |
//! | stale expected version | `ABORTED`, `RetryInfo` of 0 (read again, then retry) | `STALE_VERSION` |
//! | storage down | `UNAVAILABLE`, `RetryInfo` of a second | `DEPENDENCY_UNAVAILABLE` |
//! | anything else | `INTERNAL` (details logged, not sent; no details at all) | none |
//!
//! Every status but INTERNAL carries a `google.rpc.ErrorInfo` in `grpc-status-details-bin`, so a
//! client (a browser too: the edge's CORS exposes that header) acts on a stable reason instead of
//! the message's words; docs/errors.md lists the reasons and what a client does about each.

use std::collections::HashMap;
use std::time::Duration;

use laws::{CitesLaw, Law};
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

/// Metadata key carrying the Law citation of a `FAILED_PRECONDITION`, so that clients can show
/// it without parsing the message.
pub const LAW_METADATA_KEY: &str = "x-bridge-law";

/// A failure a service reports to its caller.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The request is malformed: a field is missing, out of range or unparsable.
    #[error("{0}")]
    InvalidArgument(Invalid),
    /// The Laws (or a club rule) do not allow this action in the current state.
    #[error("{message}")]
    Rule {
        /// What was refused and why, naming the Law.
        message: String,
        /// The Law applied.
        law: Law,
    },
    /// A precondition that is not a bridge rule (for example, a table that is closed).
    #[error("{0}")]
    FailedPrecondition(String),
    /// A precondition that a client tells apart from the others and acts on in its own way, with
    /// a reason of its own (one of the `REASON_*` constants documented for FAILED_PRECONDITION).
    #[error("{message}")]
    Precondition {
        /// The reason: [`REASON_MAIL_NOT_CONFIGURED`], [`REASON_NO_EMAIL_ADDRESS`].
        reason: &'static str,
        /// What does not hold, and what to do about it, in words.
        message: String,
    },
    /// The entity does not exist.
    #[error("{0}")]
    NotFound(String),
    /// The entity already exists.
    #[error("{0}")]
    AlreadyExists(String),
    /// The principal may not do this.
    #[error("{0}")]
    PermissionDenied(String),
    /// The credentials in the request (a password, a sign-in code, a refresh token) are wrong.
    /// The message never says whether the account or code exists.
    #[error("{0}")]
    Unauthenticated(String),
    /// Too many wrong tries: the caller may try again after `retry_after`.
    #[error("{message}")]
    Throttled {
        /// What is refused, and for how long, in words.
        message: String,
        /// How long until the next try is taken.
        retry_after: Duration,
    },
    /// The caller's expected version is stale: someone else changed the state first.
    #[error("{0}")]
    Conflict(String),
    /// The caller's expected version is stale, and the versions are known: the client reads the
    /// state again (it is at `current`) before deciding again. Kept as numbers, not only in the
    /// message, so that the status can carry them for a client to read.
    #[error("{message}")]
    Stale {
        /// What was refused, with both versions in words.
        message: String,
        /// The version the state is at.
        current: u64,
        /// The version the caller expected.
        expected: u64,
    },
    /// A dependency (database, Redis, another service) is unreachable; the call may be retried.
    #[error("{0}")]
    Unavailable(String),
    /// A bug or an unexpected failure. The message is logged, not sent to the client.
    #[error("internal error: {0}")]
    Internal(String),
}

/// What is wrong with a malformed request: the field at fault, when the code that refused it
/// knows it, and the problem. Kept apart (not only in the message) so that the status can name
/// the field in a `BadRequest` a client reads without parsing text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    /// The request field, as a path of proto field names (`deals[2].tricks`), if known.
    pub field: Option<String>,
    /// What is wrong with it, in words for people.
    pub problem: String,
}

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.field {
            Some(field) => write!(f, "{field}: {}", self.problem),
            None => f.write_str(&self.problem),
        }
    }
}

/// A problem with the request as a whole, or with a field the refusing code cannot name (a
/// peer's refusal, a value the database would not store).
impl From<String> for Invalid {
    fn from(problem: String) -> Self {
        Invalid { field: None, problem }
    }
}

impl ServiceError {
    /// A refusal under the Laws, from any rule error of the `laws` crate. The message is the
    /// error's own, which already names the Law.
    pub fn rule<E: CitesLaw + std::fmt::Display>(error: E) -> Self {
        ServiceError::Rule { message: error.to_string(), law: error.law() }
    }

    /// Shorthand for [`ServiceError::InvalidArgument`] naming the field at fault, which the
    /// client also gets as a `BadRequest` field violation.
    pub fn invalid(field: &str, problem: impl std::fmt::Display) -> Self {
        ServiceError::InvalidArgument(Invalid { field: Some(field.to_owned()), problem: problem.to_string() })
    }

    /// Shorthand for [`ServiceError::NotFound`].
    pub fn not_found(what: impl std::fmt::Display) -> Self {
        ServiceError::NotFound(format!("{what} not found"))
    }

    /// Wraps an unexpected error as [`ServiceError::Internal`].
    pub fn internal(error: impl std::fmt::Display) -> Self {
        ServiceError::Internal(error.to_string())
    }

    /// The gRPC code this error maps to.
    pub fn code(&self) -> Code {
        match self {
            ServiceError::InvalidArgument(_) => Code::InvalidArgument,
            ServiceError::Rule { .. } | ServiceError::FailedPrecondition(_) | ServiceError::Precondition { .. } => {
                Code::FailedPrecondition
            }
            ServiceError::NotFound(_) => Code::NotFound,
            ServiceError::AlreadyExists(_) => Code::AlreadyExists,
            ServiceError::PermissionDenied(_) => Code::PermissionDenied,
            ServiceError::Unauthenticated(_) => Code::Unauthenticated,
            ServiceError::Throttled { .. } => Code::ResourceExhausted,
            ServiceError::Conflict(_) | ServiceError::Stale { .. } => Code::Aborted,
            ServiceError::Unavailable(_) => Code::Unavailable,
            ServiceError::Internal(_) => Code::Internal,
        }
    }
}

/// The `ErrorInfo` domain of every reason here: the reasons are the platform's, the same whichever
/// service answers (a service name would make a client match on the routing).
pub const ERROR_DOMAIN: &str = "bridgeclub.org";

/// A request field was malformed (`BadRequest` names it).
pub const REASON_FIELD_INVALID: &str = "FIELD_INVALID";
/// The request was malformed as a whole, or the refusing code could not name the field.
pub const REASON_REQUEST_INVALID: &str = "REQUEST_INVALID";
/// The Laws (or a club rule citing one) forbid this now; metadata `law` cites it.
pub const REASON_LAW_FORBIDS: &str = "LAW_FORBIDS";
/// A precondition that is no bridge rule does not hold now (a table closed, a deal finished).
pub const REASON_NOT_NOW: &str = "NOT_NOW";
/// The desk asked for a member's sign-in code by e-mail, and this deployment has no mail server
/// (`[mail]`): the desk hands the code over itself instead.
pub const REASON_MAIL_NOT_CONFIGURED: &str = "MAIL_NOT_CONFIGURED";
/// The desk asked for a member's sign-in code by e-mail, and the register holds no address mail can
/// be sent to for him: the desk adds one (UpdatePlayer) or hands the code over itself.
pub const REASON_NO_EMAIL_ADDRESS: &str = "NO_EMAIL_ADDRESS";
/// What the request names does not exist.
pub const REASON_NOT_FOUND: &str = "NOT_FOUND";
/// What the request would create exists already.
pub const REASON_ALREADY_EXISTS: &str = "ALREADY_EXISTS";
/// The caller's role or seat does not allow this.
pub const REASON_PERMISSION_DENIED: &str = "PERMISSION_DENIED";
/// Someone else changed the state first: read it again, then decide again.
pub const REASON_STALE_VERSION: &str = "STALE_VERSION";
/// A dependency (database, Redis, another service) is away: retry with the same idempotency key.
pub const REASON_DEPENDENCY_UNAVAILABLE: &str = "DEPENDENCY_UNAVAILABLE";
/// No token, or one that is bad, expired or of an ended session (UNAUTHENTICATED, from the edge's
/// auth); or, signing in, a wrong password, code or refresh token.
pub const REASON_UNAUTHENTICATED: &str = "UNAUTHENTICATED";
/// The caller spent its budget of calls (RESOURCE_EXHAUSTED, from the edge's rate limit), or made
/// too many wrong sign-in tries.
pub const REASON_RATE_LIMITED: &str = "RATE_LIMITED";

/// `ErrorInfo` metadata keys of a refusal under the Laws: the citation as people read it, and its
/// parts as the contract's `bridgeclub.common.v1.Law` has them (`law_code` is a `LawCode` name).
pub const LAW_KEY: &str = "law";
/// See [`LAW_KEY`].
pub const LAW_CODE_KEY: &str = "law_code";
/// See [`LAW_KEY`].
pub const LAW_NUMBER_KEY: &str = "law_number";
/// See [`LAW_KEY`]; absent when the Law is cited without a section.
pub const LAW_SECTION_KEY: &str = "law_section";
/// `ErrorInfo` metadata of a stale version: the version the state is at, and the one the client
/// expected, when the refusal says them (the command runtime's does).
pub const CURRENT_VERSION_KEY: &str = "current_version";
/// See [`CURRENT_VERSION_KEY`].
pub const EXPECTED_VERSION_KEY: &str = "expected_version";

impl ServiceError {
    /// The stable `ErrorInfo` reason of this error, or `None` for INTERNAL, which says nothing.
    pub fn reason(&self) -> Option<&'static str> {
        Some(match self {
            ServiceError::InvalidArgument(Invalid { field: Some(_), .. }) => REASON_FIELD_INVALID,
            ServiceError::InvalidArgument(Invalid { field: None, .. }) => REASON_REQUEST_INVALID,
            ServiceError::Rule { .. } => REASON_LAW_FORBIDS,
            ServiceError::FailedPrecondition(_) => REASON_NOT_NOW,
            ServiceError::Precondition { reason, .. } => reason,
            ServiceError::NotFound(_) => REASON_NOT_FOUND,
            ServiceError::AlreadyExists(_) => REASON_ALREADY_EXISTS,
            ServiceError::PermissionDenied(_) => REASON_PERMISSION_DENIED,
            ServiceError::Unauthenticated(_) => REASON_UNAUTHENTICATED,
            ServiceError::Throttled { .. } => REASON_RATE_LIMITED,
            ServiceError::Conflict(_) | ServiceError::Stale { .. } => REASON_STALE_VERSION,
            ServiceError::Unavailable(_) => REASON_DEPENDENCY_UNAVAILABLE,
            ServiceError::Internal(_) => return None,
        })
    }
}

impl From<ServiceError> for Status {
    fn from(error: ServiceError) -> Status {
        let Some(reason) = error.reason() else {
            if let ServiceError::Internal(detail) = &error {
                tracing::error!(%detail, "internal error");
            }
            return Status::internal("internal error; the incident was logged");
        };
        let code = error.code();
        let message = bounded(error.to_string());
        let mut metadata = HashMap::new();
        let mut details = ErrorDetails::new();
        let mut law_header = None;
        match &error {
            ServiceError::Rule { law, .. } => {
                let text = law.to_string();
                metadata
                    .insert(LAW_CODE_KEY.to_owned(), api::common::v1::LawCode::from(law.code).as_str_name().to_owned());
                metadata.insert(LAW_NUMBER_KEY.to_owned(), law.number.to_string());
                if !law.section.is_empty() {
                    metadata.insert(LAW_SECTION_KEY.to_owned(), law.section.to_owned());
                }
                law_header = text.parse().ok();
                metadata.insert(LAW_KEY.to_owned(), text);
            }
            ServiceError::InvalidArgument(Invalid { field: Some(field), problem }) => {
                details.add_bad_request_violation(bounded(field.clone()), bounded(problem.clone()));
            }
            ServiceError::Stale { current, expected, .. } => {
                metadata.insert(CURRENT_VERSION_KEY.to_owned(), current.to_string());
                metadata.insert(EXPECTED_VERSION_KEY.to_owned(), expected.to_string());
                // Retrying as it was is useless; reading again and deciding again is not.
                details.set_retry_info(Some(Duration::ZERO));
            }
            ServiceError::Conflict(_) => {
                details.set_retry_info(Some(Duration::ZERO));
            }
            ServiceError::Unavailable(_) => {
                details.set_retry_info(Some(Duration::from_millis(UNAVAILABLE_RETRY_AFTER_MS)));
            }
            ServiceError::Throttled { retry_after, .. } => {
                // One status for a throttle, whether the edge's budget or a sign-in's.
                return rate_limited(message, *retry_after);
            }
            _ => {}
        }
        details.set_error_info(reason, ERROR_DOMAIN, metadata);
        let mut status = Status::with_error_details(code, message, details);
        if let Some(law) = law_header {
            status.metadata_mut().insert(LAW_METADATA_KEY, law);
        }
        if code == Code::Unavailable {
            status.metadata_mut().insert(RETRY_PUSHBACK_KEY, UNAVAILABLE_RETRY_AFTER_MS.into());
        }
        status
    }
}

/// The metadata key that tells a client how long to wait before retrying (gRPC's own name for it).
pub const RETRY_PUSHBACK_KEY: &str = "grpc-retry-pushback-ms";

/// How long a client should wait before retrying after UNAVAILABLE: the breakers' default
/// cool-down, after which the dependency is probed again (docs/failures.md).
pub const UNAVAILABLE_RETRY_AFTER_MS: u64 = 1000;

/// UNAVAILABLE with `message`, carrying the retry delay: a dependency is away, and the client
/// retries with the same idempotency key after [`UNAVAILABLE_RETRY_AFTER_MS`].
pub fn unavailable(message: impl Into<String>) -> Status {
    Status::from(ServiceError::Unavailable(message.into()))
}

/// UNAUTHENTICATED with `message`, for the edge's auth, which answers before any service (and so
/// before [`ServiceError`]): the client signs in again.
pub fn unauthenticated(message: impl Into<String>) -> Status {
    let details = ErrorDetails::with_error_info(REASON_UNAUTHENTICATED, ERROR_DOMAIN, HashMap::new());
    Status::with_error_details(Code::Unauthenticated, bounded(message.into()), details)
}

/// RESOURCE_EXHAUSTED with `message` for a caller past its rate limit, who may call again after
/// `retry_after`: said in `RetryInfo` and, for clients that read only headers, in
/// [`RETRY_PUSHBACK_KEY`].
pub fn rate_limited(message: impl Into<String>, retry_after: Duration) -> Status {
    let mut details = ErrorDetails::with_error_info(REASON_RATE_LIMITED, ERROR_DOMAIN, HashMap::new());
    details.set_retry_info(Some(retry_after));
    let mut status = Status::with_error_details(Code::ResourceExhausted, bounded(message.into()), details);
    if let Ok(value) = retry_after.as_millis().to_string().parse() {
        status.metadata_mut().insert(RETRY_PUSHBACK_KEY, value);
    }
    status
}

impl From<sea_orm::DbErr> for ServiceError {
    fn from(error: sea_orm::DbErr) -> Self {
        match DbFailure::of(&error) {
            DbFailure::Away => ServiceError::Unavailable(format!("database unavailable: {error}")),
            DbFailure::Busy => {
                // The driver's words ("database is locked") mean nothing to a client.
                tracing::warn!(%error, "database busy");
                ServiceError::Unavailable("the database is too busy to take this now; try again".to_owned())
            }
            DbFailure::Conflict => ServiceError::Conflict(
                "another change made at the same moment conflicted with this one; try again".to_owned(),
            ),
            DbFailure::BadValue => ServiceError::InvalidArgument(
                format!(
                    "a value in the request cannot be stored: {}",
                    database_message(&error).unwrap_or("it has characters the database refuses, or is too long")
                )
                .into(),
            ),
            DbFailure::NotFound => match error {
                sea_orm::DbErr::RecordNotFound(what) => ServiceError::NotFound(what),
                other => ServiceError::NotFound(other.to_string()),
            },
            DbFailure::Other => ServiceError::Internal(format!("database: {error}")),
        }
    }
}

/// What a database failure means, the one reading of `sea_orm::DbErr` (SQLSTATEs for Postgres,
/// result codes for SQLite): the status a client gets ([`ServiceError`]'s `From<DbErr>`), and
/// whether the database counts as away ([`crate::db::Db`]'s breaker opens on [`DbFailure::Away`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DbFailure {
    /// The database cannot be reached: no connection (refused, lost, timed out, pool closed), or
    /// the server shuts down or is out of resources (SQLSTATE classes 08, 53, 57), or SQLite's
    /// file cannot be read or written. UNAVAILABLE.
    Away,
    /// The database is there but cannot take this call now: SQLite's write lock stayed taken
    /// (busy, locked), a Postgres statement was cancelled (57014). UNAVAILABLE; not an outage.
    Busy,
    /// A concurrent transaction conflicted (40001 serialization failure, 40P01 deadlock). ABORTED.
    Conflict,
    /// The request holds a value the database cannot store: a NUL or other character the
    /// encoding refuses (22021, 22P05), a value too long (22001, SQLite's TOOBIG). INVALID_ARGUMENT.
    BadValue,
    /// A record the code expected is missing. NOT_FOUND.
    NotFound,
    /// Anything else: a bug of ours. INTERNAL.
    Other,
}

impl DbFailure {
    /// The kind of `error`.
    pub fn of(error: &sea_orm::DbErr) -> DbFailure {
        use sea_orm::{DbErr, RuntimeErr};
        match error {
            DbErr::ConnectionAcquire(_) => DbFailure::Away,
            DbErr::Exec(RuntimeErr::SqlxError(e)) | DbErr::Query(RuntimeErr::SqlxError(e)) => Self::of_sqlx(e),
            // Whatever stopped a connection from being made or checked.
            DbErr::Conn(_) => DbFailure::Away,
            DbErr::RecordNotFound(_) => DbFailure::NotFound,
            _ => DbFailure::Other,
        }
    }

    fn of_sqlx(error: &sea_orm::sqlx::Error) -> DbFailure {
        use sea_orm::sqlx::Error;
        match error {
            Error::Io(_) | Error::Tls(_) | Error::PoolTimedOut | Error::PoolClosed | Error::WorkerCrashed => {
                DbFailure::Away
            }
            Error::Database(database) => Self::of_database(database.as_ref()),
            _ => DbFailure::Other,
        }
    }

    fn of_database(error: &dyn sea_orm::sqlx::error::DatabaseError) -> DbFailure {
        let code = error.code();
        let code = code.as_deref().unwrap_or_default();
        if error.try_downcast_ref::<sea_orm::sqlx::sqlite::SqliteError>().is_some() {
            // Extended result codes; the primary code is the low byte.
            return match code.parse::<i32>().unwrap_or_default() & 0xff {
                // SQLITE_BUSY, SQLITE_LOCKED
                5 | 6 => DbFailure::Busy,
                // SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN
                10 | 13 | 14 => DbFailure::Away,
                // SQLITE_TOOBIG
                18 => DbFailure::BadValue,
                _ => DbFailure::Other,
            };
        }
        match code {
            "57014" => DbFailure::Busy,
            "40001" | "40P01" => DbFailure::Conflict,
            "22021" | "22P05" | "22001" => DbFailure::BadValue,
            _ if code.starts_with("08") || code.starts_with("53") || code.starts_with("57") => DbFailure::Away,
            _ => DbFailure::Other,
        }
    }
}

/// The database's own words for a failure it reported (never connection details).
fn database_message(error: &sea_orm::DbErr) -> Option<&str> {
    match error {
        sea_orm::DbErr::Exec(sea_orm::RuntimeErr::SqlxError(e))
        | sea_orm::DbErr::Query(sea_orm::RuntimeErr::SqlxError(e)) => match e.as_ref() {
            sea_orm::sqlx::Error::Database(database) => Some(database.message()),
            _ => None,
        },
        _ => None,
    }
}

impl From<crate::live::LiveError> for ServiceError {
    fn from(error: crate::live::LiveError) -> Self {
        match error {
            crate::live::LiveError::Unavailable(_) => ServiceError::Unavailable(error.to_string()),
            crate::live::LiveError::Corrupt(_) => ServiceError::Internal(error.to_string()),
        }
    }
}

impl From<api::convert::ConversionError> for ServiceError {
    fn from(error: api::convert::ConversionError) -> Self {
        let field = Some(error.field()).filter(|f| !f.is_empty()).map(str::to_owned);
        ServiceError::InvalidArgument(Invalid { field, problem: error.problem().to_string() })
    }
}

/// The most bytes of a status message sent: it travels in an HTTP/2 header, which clients cap
/// (a message echoing a megabyte-long id would otherwise break the connection, which clients
/// read as UNAVAILABLE and retry for ever).
pub const MAX_STATUS_MESSAGE_BYTES: usize = 1024;

fn bounded(mut message: String) -> String {
    if message.len() > MAX_STATUS_MESSAGE_BYTES {
        let mut end = MAX_STATUS_MESSAGE_BYTES - 3;
        while !message.is_char_boundary(end) {
            end -= 1;
        }
        message.truncate(end);
        message.push_str("...");
    }
    message
}

/// The result type of service handlers.
pub type ServiceResult<T> = Result<T, ServiceError>;

#[cfg(test)]
mod tests {
    use super::*;

    mod details;

    #[derive(Debug)]
    struct Insufficient;
    impl std::fmt::Display for Insufficient {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("insufficient bid 1H over 1S (Law 27)")
        }
    }
    impl CitesLaw for Insufficient {
        fn law(&self) -> Law {
            Law::rubber(27, "")
        }
    }

    #[test]
    fn a_rule_refusal_is_failed_precondition_naming_the_law() {
        let status = Status::from(ServiceError::rule(Insufficient));
        assert_eq!(status.code(), Code::FailedPrecondition);
        assert_eq!(status.message(), "insufficient bid 1H over 1S (Law 27)");
        assert_eq!(
            status.metadata().get(LAW_METADATA_KEY).and_then(|v| v.to_str().ok()),
            Some("Law 27 of the Laws of Rubber Bridge")
        );
    }

    #[test]
    fn internal_details_stay_in_the_log() {
        let status = Status::from(ServiceError::internal("password=hunter2 in connection string"));
        assert_eq!(status.code(), Code::Internal);
        assert!(!status.message().contains("hunter2"));
    }

    #[test]
    fn a_long_message_is_cut_at_a_character_boundary() {
        let status = Status::from(ServiceError::not_found(format!("table {}", "é".repeat(4000))));
        assert_eq!(status.code(), Code::NotFound);
        assert!(status.message().len() <= MAX_STATUS_MESSAGE_BYTES);
        assert!(status.message().ends_with("..."));
    }

    #[test]
    fn a_refused_sign_in_is_unauthenticated_and_a_throttled_one_says_when_to_try_again() {
        let refused = Status::from(ServiceError::Unauthenticated("wrong name or password".into()));
        assert_eq!(refused.code(), Code::Unauthenticated);
        assert_eq!(refused.get_details_error_info().map(|i| i.reason), Some(REASON_UNAUTHENTICATED.to_owned()));
        let throttled = Status::from(ServiceError::Throttled {
            message: "too many wrong passwords".into(),
            retry_after: Duration::from_secs(30),
        });
        assert_eq!(throttled.code(), Code::ResourceExhausted);
        assert_eq!(throttled.get_details_error_info().map(|i| i.reason), Some(REASON_RATE_LIMITED.to_owned()));
        assert_eq!(throttled.get_details_retry_info().and_then(|r| r.retry_delay), Some(Duration::from_secs(30)));
        assert_eq!(throttled.metadata().get(RETRY_PUSHBACK_KEY).and_then(|v| v.to_str().ok()), Some("30000"));
    }

    #[test]
    fn each_kind_has_its_code() {
        assert_eq!(Status::from(ServiceError::invalid("seat", "missing")).code(), Code::InvalidArgument);
        assert_eq!(Status::from(ServiceError::not_found("table 7")).code(), Code::NotFound);
        assert_eq!(Status::from(ServiceError::Conflict("stale".into())).code(), Code::Aborted);
        assert_eq!(Status::from(ServiceError::PermissionDenied("no".into())).code(), Code::PermissionDenied);
        let away = Status::from(ServiceError::Unavailable("redis".into()));
        assert_eq!(away.code(), Code::Unavailable);
        assert_eq!(away.metadata().get(RETRY_PUSHBACK_KEY).and_then(|v| v.to_str().ok()), Some("1000"));
    }

    /// A Postgres error with a given SQLSTATE, as sqlx reports one.
    #[derive(Debug)]
    struct Sqlstate(&'static str);

    impl std::fmt::Display for Sqlstate {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "SQLSTATE {}", self.0)
        }
    }

    impl std::error::Error for Sqlstate {}

    impl sea_orm::sqlx::error::DatabaseError for Sqlstate {
        fn message(&self) -> &str {
            "the database's own message"
        }
        fn code(&self) -> Option<std::borrow::Cow<'_, str>> {
            Some(self.0.into())
        }
        fn as_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn as_error_mut(&mut self) -> &mut (dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn into_error(self: Box<Self>) -> Box<dyn std::error::Error + Send + Sync + 'static> {
            self
        }
        fn kind(&self) -> sea_orm::sqlx::error::ErrorKind {
            sea_orm::sqlx::error::ErrorKind::Other
        }
    }

    fn failed(error: sea_orm::sqlx::Error) -> sea_orm::DbErr {
        sea_orm::DbErr::Exec(sea_orm::RuntimeErr::SqlxError(std::sync::Arc::new(error)))
    }

    fn sqlstate(code: &'static str) -> sea_orm::DbErr {
        failed(sea_orm::sqlx::Error::Database(Box::new(Sqlstate(code))))
    }

    fn status_of(error: sea_orm::DbErr) -> Status {
        Status::from(ServiceError::from(error))
    }

    #[test]
    fn a_database_that_cannot_be_reached_is_unavailable() {
        use sea_orm::sqlx::Error;
        let errors = [
            // What an in-flight call sees when Postgres stops: "error communicating with database".
            failed(Error::Io(std::io::Error::from(std::io::ErrorKind::ConnectionReset))),
            failed(Error::Io(std::io::Error::from(std::io::ErrorKind::ConnectionRefused))),
            failed(Error::PoolTimedOut),
            failed(Error::PoolClosed),
            sea_orm::DbErr::ConnectionAcquire(sea_orm::error::ConnAcquireErr::Timeout),
            sea_orm::DbErr::ConnectionAcquire(sea_orm::error::ConnAcquireErr::ConnectionClosed),
            sea_orm::DbErr::Conn(sea_orm::RuntimeErr::Internal("connection refused".into())),
            sqlstate("08006"),
            sqlstate("57P01"),
            sqlstate("57P03"),
            sqlstate("53300"),
        ];
        for error in errors {
            assert_eq!(DbFailure::of(&error), DbFailure::Away, "{error}");
            assert_eq!(status_of(error).code(), Code::Unavailable);
        }
        assert_eq!(DbFailure::of(&sqlstate("57014")), DbFailure::Busy, "a cancelled statement is no outage");
        assert_eq!(status_of(sqlstate("57014")).code(), Code::Unavailable);
    }

    #[test]
    fn a_concurrent_conflict_is_aborted() {
        for code in ["40001", "40P01"] {
            assert_eq!(DbFailure::of(&sqlstate(code)), DbFailure::Conflict);
            assert_eq!(status_of(sqlstate(code)).code(), Code::Aborted);
        }
    }

    #[test]
    fn a_value_the_database_cannot_store_is_the_clients_mistake() {
        for code in ["22021", "22P05", "22001"] {
            assert_eq!(DbFailure::of(&sqlstate(code)), DbFailure::BadValue);
            let status = status_of(sqlstate(code));
            assert_eq!(status.code(), Code::InvalidArgument);
            assert!(status.message().contains("the database's own message"), "{}", status.message());
        }
    }

    #[test]
    fn other_database_failures_are_ours() {
        for error in [sqlstate("23502"), sqlstate("42P01"), failed(sea_orm::sqlx::Error::RowNotFound)] {
            assert_eq!(DbFailure::of(&error), DbFailure::Other, "{error}");
            assert_eq!(status_of(error).code(), Code::Internal);
        }
        let missing = sea_orm::DbErr::RecordNotFound("table 7".into());
        assert_eq!(status_of(missing).code(), Code::NotFound);
    }

    #[tokio::test]
    async fn sqlite_busy_is_unavailable() {
        use sea_orm::{ConnectOptions, Database, SqliteTransactionMode, TransactionOptions, TransactionTrait};
        let dir = std::env::temp_dir().join(format!("bc-busy-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.join("busy.db").display());
        let immediate = TransactionOptions {
            sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
            ..Default::default()
        };
        let holder = Database::connect(&url).await.unwrap();
        let mut options = ConnectOptions::new(url);
        options.map_sqlx_sqlite_opts(|options| options.busy_timeout(std::time::Duration::ZERO));
        let impatient = Database::connect(options).await.unwrap();

        let held = holder.begin_with_options(immediate).await.unwrap();
        let error = impatient.begin_with_options(immediate).await.unwrap_err();
        held.rollback().await.unwrap();
        holder.close().await.unwrap();
        impatient.close().await.unwrap();
        std::fs::remove_dir_all(&dir).unwrap();

        assert_eq!(DbFailure::of(&error), DbFailure::Busy, "{error}");
        let status = status_of(error);
        assert_eq!(status.code(), Code::Unavailable);
        assert!(!status.message().contains("locked"), "the driver's words stay in the log: {}", status.message());
    }
}
