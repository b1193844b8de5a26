//! The `google.rpc` details of every kind of error: each reason is the contract docs/errors.md
//! states, so a change here is a change to what clients match on.

use std::collections::HashMap;
use std::time::Duration;

use laws::Law;
use tonic::{Code, Status};
use tonic_types::StatusExt;

use crate::error::*;

/// The code, reason and metadata of `error` as a client decodes them from the status.
fn decoded(error: ServiceError) -> (Status, String, HashMap<String, String>) {
    let status = Status::from(error);
    let info = status.get_details_error_info().unwrap_or_else(|| panic!("no ErrorInfo: {status:?}"));
    assert_eq!(info.domain, ERROR_DOMAIN);
    (status, info.reason, info.metadata)
}

#[test]
fn every_kind_but_internal_has_its_reason() {
    let cases = [
        (ServiceError::invalid("seat", "missing"), Code::InvalidArgument, REASON_FIELD_INVALID),
        (
            ServiceError::InvalidArgument("the request is empty".to_owned().into()),
            Code::InvalidArgument,
            REASON_REQUEST_INVALID,
        ),
        (
            ServiceError::Rule { message: "no".into(), law: Law::rubber(17, "") },
            Code::FailedPrecondition,
            REASON_LAW_FORBIDS,
        ),
        (ServiceError::FailedPrecondition("the table is closed".into()), Code::FailedPrecondition, REASON_NOT_NOW),
        (
            ServiceError::Precondition { reason: REASON_MAIL_NOT_CONFIGURED, message: "no [mail]".into() },
            Code::FailedPrecondition,
            REASON_MAIL_NOT_CONFIGURED,
        ),
        (
            ServiceError::Precondition { reason: REASON_NO_EMAIL_ADDRESS, message: "no address".into() },
            Code::FailedPrecondition,
            REASON_NO_EMAIL_ADDRESS,
        ),
        (ServiceError::not_found("table 7"), Code::NotFound, REASON_NOT_FOUND),
        (ServiceError::AlreadyExists("player p".into()), Code::AlreadyExists, REASON_ALREADY_EXISTS),
        (ServiceError::PermissionDenied("no".into()), Code::PermissionDenied, REASON_PERMISSION_DENIED),
        (ServiceError::Conflict("stale".into()), Code::Aborted, REASON_STALE_VERSION),
        (ServiceError::Stale { message: "stale".into(), current: 2, expected: 1 }, Code::Aborted, REASON_STALE_VERSION),
        (ServiceError::Unavailable("redis".into()), Code::Unavailable, REASON_DEPENDENCY_UNAVAILABLE),
    ];
    for (error, code, reason) in cases {
        assert_eq!(error.reason(), Some(reason));
        let (status, decoded_reason, _) = decoded(error);
        assert_eq!(status.code(), code);
        assert_eq!(decoded_reason, reason);
        assert!(
            decoded_reason.chars().all(|c| c.is_ascii_uppercase() || c == '_'),
            "reasons are UPPER_SNAKE_CASE: {decoded_reason}"
        );
    }
}

#[test]
fn internal_carries_no_details_at_all() {
    let error = ServiceError::internal("password=hunter2");
    assert_eq!(error.reason(), None);
    let status = Status::from(error);
    assert_eq!(status.code(), Code::Internal);
    assert!(status.details().is_empty(), "{:?}", status.details());
    let details = status.get_error_details();
    assert!(details.error_info().is_none() && details.retry_info().is_none() && details.bad_request().is_none());
}

#[test]
fn a_refusal_under_the_laws_cites_the_law_in_parts() {
    let law = Law::rubber(27, "B");
    let (status, _, metadata) = decoded(ServiceError::Rule { message: "insufficient bid".into(), law });
    assert_eq!(metadata.get(LAW_KEY).map(String::as_str), Some("Law 27B of the Laws of Rubber Bridge"));
    assert_eq!(metadata.get(LAW_CODE_KEY).map(String::as_str), Some("LAW_CODE_RUBBER"));
    assert_eq!(metadata.get(LAW_NUMBER_KEY).map(String::as_str), Some("27"));
    assert_eq!(metadata.get(LAW_SECTION_KEY).map(String::as_str), Some("B"));
    // The header older clients read stays.
    assert_eq!(
        status.metadata().get(LAW_METADATA_KEY).and_then(|v| v.to_str().ok()),
        Some("Law 27B of the Laws of Rubber Bridge")
    );

    let (_, _, metadata) = decoded(ServiceError::Rule { message: "r".into(), law: Law::club_procedure('E') });
    assert_eq!(metadata.get(LAW_KEY).map(String::as_str), Some("rule E of the Rules for Club Procedure"));
    assert_eq!(metadata.get(LAW_CODE_KEY).map(String::as_str), Some("LAW_CODE_CLUB_PROCEDURE"));
    assert_eq!(metadata.get(LAW_NUMBER_KEY).map(String::as_str), Some("5"));
    assert!(!metadata.contains_key(LAW_SECTION_KEY), "no section, no key: {metadata:?}");
}

#[test]
fn a_malformed_field_is_a_bad_request_violation() {
    let status = Status::from(ServiceError::invalid("call.bid.level", "bid level 9 is not 1 to 7 (Law 18)"));
    assert_eq!(status.message(), "call.bid.level: bid level 9 is not 1 to 7 (Law 18)");
    let violations = status.get_details_bad_request().expect("BadRequest").field_violations;
    assert_eq!(violations.len(), 1);
    assert_eq!(violations[0].field, "call.bid.level");
    assert_eq!(violations[0].description, "bid level 9 is not 1 to 7 (Law 18)");
    assert!(status.get_details_retry_info().is_none(), "retrying a malformed request is useless");

    // A conversion error keeps its path; one about the whole message names no field.
    let converted = api::convert::ConversionError::new("seat", api::convert::Problem::Missing).within("deal");
    let status = Status::from(ServiceError::from(converted));
    let violations = status.get_details_bad_request().expect("BadRequest").field_violations;
    assert_eq!(violations[0].field, "deal.seat");
    assert_eq!(status.message(), "deal.seat: missing; a value is required");
    let whole = api::convert::ConversionError::new("", api::convert::Problem::Invalid("no such deal"));
    let status = Status::from(ServiceError::from(whole));
    assert!(status.get_details_bad_request().is_none());
    assert_eq!(status.get_details_error_info().unwrap().reason, REASON_REQUEST_INVALID);
}

#[test]
fn a_stale_version_says_to_read_again_at_once() {
    let message = "game table t-1 is at version 7, not 5: another command came first; read it and try again";
    let (status, _, metadata) = decoded(ServiceError::Stale { message: message.into(), current: 7, expected: 5 });
    assert_eq!(status.message(), message);
    assert_eq!(status.get_details_retry_info().unwrap().retry_delay, Some(Duration::ZERO));
    assert_eq!(metadata.get(CURRENT_VERSION_KEY).map(String::as_str), Some("7"));
    assert_eq!(metadata.get(EXPECTED_VERSION_KEY).map(String::as_str), Some("5"));

    let (status, _, metadata) = decoded(ServiceError::Conflict("a concurrent change conflicted".into()));
    assert!(metadata.is_empty(), "{metadata:?}");
    assert!(status.get_details_retry_info().is_some());
}

#[test]
fn unavailable_says_when_to_retry_in_both_forms() {
    for status in [Status::from(ServiceError::Unavailable("redis".into())), unavailable("upstream away")] {
        let delay = status.get_details_retry_info().unwrap().retry_delay;
        assert_eq!(delay, Some(Duration::from_millis(UNAVAILABLE_RETRY_AFTER_MS)));
        assert_eq!(status.metadata().get(RETRY_PUSHBACK_KEY).and_then(|v| v.to_str().ok()), Some("1000"));
        assert_eq!(status.get_details_error_info().unwrap().reason, REASON_DEPENDENCY_UNAVAILABLE);
    }
}

#[test]
fn details_of_a_long_field_stay_bounded() {
    let status = Status::from(ServiceError::invalid(&"f".repeat(5000), "é".repeat(5000)));
    let violation = &status.get_details_bad_request().unwrap().field_violations[0];
    assert!(violation.field.len() <= MAX_STATUS_MESSAGE_BYTES);
    assert!(violation.description.len() <= MAX_STATUS_MESSAGE_BYTES);
    assert!(status.details().len() < 4 * MAX_STATUS_MESSAGE_BYTES, "{}", status.details().len());
}

#[test]
fn the_edge_refusals_have_their_reasons_too() {
    let status = unauthenticated("token expired");
    assert_eq!(status.code(), Code::Unauthenticated);
    assert_eq!(status.get_details_error_info().unwrap().reason, REASON_UNAUTHENTICATED);

    let status = rate_limited("rate limit", Duration::from_millis(2500));
    assert_eq!(status.code(), Code::ResourceExhausted);
    assert_eq!(status.get_details_error_info().unwrap().reason, REASON_RATE_LIMITED);
    assert_eq!(status.get_details_retry_info().unwrap().retry_delay, Some(Duration::from_millis(2500)));
    assert_eq!(status.metadata().get(RETRY_PUSHBACK_KEY).and_then(|v| v.to_str().ok()), Some("2500"));
}
