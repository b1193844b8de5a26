//! The one mapping from service errors to gRPC status codes.
//!
//! Every service returns [`ServiceError`] from its domain layer and converts it to a
//! `tonic::Status` here and nowhere else, so that clients see the same code for the same kind
//! of failure across the platform (ARCHITECTURE.md, "Errors"):
//!
//! | error | status |
//! |---|---|
//! | malformed input | `INVALID_ARGUMENT` |
//! | an action the Laws do not allow now | `FAILED_PRECONDITION`, message names the Law |
//! | missing entity | `NOT_FOUND` |
//! | duplicate entity | `ALREADY_EXISTS` |
//! | principal lacks the role | `PERMISSION_DENIED` |
//! | stale expected version | `ABORTED` |
//! | storage down | `UNAVAILABLE` |
//! | anything else | `INTERNAL` (details logged, not sent) |

use laws::{CitesLaw, Law};
use tonic::{Code, Status};

/// Metadata key carrying the Law citation of a `FAILED_PRECONDITION`, so that clients can show
/// it without parsing the message.
pub const LAW_METADATA_KEY: &str = "x-bridge-law";

/// A failure a service reports to its caller.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The request is malformed: a field is missing, out of range or unparsable.
    #[error("{0}")]
    InvalidArgument(String),
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
    /// The entity does not exist.
    #[error("{0}")]
    NotFound(String),
    /// The entity already exists.
    #[error("{0}")]
    AlreadyExists(String),
    /// The principal may not do this.
    #[error("{0}")]
    PermissionDenied(String),
    /// The caller's expected version is stale: someone else changed the state first.
    #[error("{0}")]
    Conflict(String),
    /// A dependency (database, Redis, another service) is unreachable; the call may be retried.
    #[error("{0}")]
    Unavailable(String),
    /// A bug or an unexpected failure. The message is logged, not sent to the client.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ServiceError {
    /// A refusal under the Laws, from any rule error of the `laws` crate. The message is the
    /// error's own, which already names the Law.
    pub fn rule<E: CitesLaw + std::fmt::Display>(error: E) -> Self {
        ServiceError::Rule { message: error.to_string(), law: error.law() }
    }

    /// Shorthand for [`ServiceError::InvalidArgument`] naming the field at fault.
    pub fn invalid(field: &str, problem: impl std::fmt::Display) -> Self {
        ServiceError::InvalidArgument(format!("{field}: {problem}"))
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
            ServiceError::Rule { .. } | ServiceError::FailedPrecondition(_) => Code::FailedPrecondition,
            ServiceError::NotFound(_) => Code::NotFound,
            ServiceError::AlreadyExists(_) => Code::AlreadyExists,
            ServiceError::PermissionDenied(_) => Code::PermissionDenied,
            ServiceError::Conflict(_) => Code::Aborted,
            ServiceError::Unavailable(_) => Code::Unavailable,
            ServiceError::Internal(_) => Code::Internal,
        }
    }
}

impl From<ServiceError> for Status {
    fn from(error: ServiceError) -> Status {
        match error {
            ServiceError::Internal(detail) => {
                tracing::error!(%detail, "internal error");
                Status::internal("internal error; the incident was logged")
            }
            ServiceError::Rule { message, law } => {
                let mut status = Status::failed_precondition(message);
                if let Ok(value) = law.to_string().parse() {
                    status.metadata_mut().insert(LAW_METADATA_KEY, value);
                }
                status
            }
            other => Status::new(other.code(), other.to_string()),
        }
    }
}

impl From<sea_orm::DbErr> for ServiceError {
    fn from(error: sea_orm::DbErr) -> Self {
        match &error {
            sea_orm::DbErr::Conn(_) | sea_orm::DbErr::ConnectionAcquire(_) => {
                ServiceError::Unavailable(format!("database unavailable: {error}"))
            }
            sea_orm::DbErr::RecordNotFound(what) => ServiceError::NotFound(what.clone()),
            _ => ServiceError::Internal(format!("database: {error}")),
        }
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
        ServiceError::InvalidArgument(error.to_string())
    }
}

/// The result type of service handlers.
pub type ServiceResult<T> = Result<T, ServiceError>;

#[cfg(test)]
mod tests {
    use super::*;

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
    fn each_kind_has_its_code() {
        assert_eq!(Status::from(ServiceError::invalid("seat", "missing")).code(), Code::InvalidArgument);
        assert_eq!(Status::from(ServiceError::not_found("table 7")).code(), Code::NotFound);
        assert_eq!(Status::from(ServiceError::Conflict("stale".into())).code(), Code::Aborted);
        assert_eq!(Status::from(ServiceError::PermissionDenied("no".into())).code(), Code::PermissionDenied);
        assert_eq!(Status::from(ServiceError::Unavailable("redis".into())).code(), Code::Unavailable);
    }
}
