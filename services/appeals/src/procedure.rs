//! The club's procedure options as the service keeps them: published with each policy version
//! (`appeals_policies.procedure`, the contract's `AppealProcedure` encoded), read back as the laws
//! crate's [`ProcedureOptions`], and who hears an appeal ([`Bench`], recorded on the appeal as its
//! `heard_by`). The rules are [`laws::appeal_procedure`]'s; this module only converts.

use api::appeals::v1 as pb;
use laws::appeal_procedure::{Bench, Money, ProcedureOptions};
use laws::appeals::AppealForm;
use platform::ServiceError;

use crate::entity::policy;
use crate::records::{decode, encode};
use crate::store;

/// The options a policy's publisher gives, checked, and their stored form (none when absent).
pub fn options_given(given: Option<&pb::AppealProcedure>) -> Result<Option<Vec<u8>>, ServiceError> {
    let Some(given) = given else { return Ok(None) };
    let deposit = given.deposit.as_ref().map(|money| money_of("policy.procedure.deposit", money)).transpose()?;
    let options = ProcedureOptions::new(given.director_review, Some(&given.further_appeal_to), deposit)
        .map_err(|e| ServiceError::invalid("policy.procedure.further_appeal_to", e.to_string()))?;
    Ok(Some(encode(&message_of(&options))))
}

/// The contract's message of `options`.
pub fn message_of(options: &ProcedureOptions) -> pb::AppealProcedure {
    pb::AppealProcedure {
        director_review: options.director_review(),
        further_appeal_to: options.further_appeal_to().unwrap_or_default().to_owned(),
        deposit: options.deposit().map(money_message),
    }
}

/// The options of a stored policy as the contract shows them; none when it has none.
pub fn stored_message(row: &policy::Model) -> Option<pb::AppealProcedure> {
    row.procedure.as_deref().and_then(|bytes| decode::<pb::AppealProcedure>("policy procedure", bytes).ok())
}

/// The options of a stored policy (the defaults, none of them, when it has none).
pub fn options_of(row: &policy::Model) -> Result<ProcedureOptions, ServiceError> {
    let Some(bytes) = row.procedure.as_deref() else { return Ok(ProcedureOptions::default()) };
    let stored: pb::AppealProcedure = decode("policy procedure", bytes)?;
    let deposit = stored.deposit.as_ref().map(|money| money_of("deposit", money)).transpose();
    deposit
        .and_then(|deposit| {
            ProcedureOptions::new(stored.director_review, Some(&stored.further_appeal_to), deposit)
                .map_err(|e| ServiceError::invalid("further_appeal_to", e.to_string()))
        })
        .map_err(|e| ServiceError::internal(format!("stored policy {}: {e}", row.version)))
}

/// A sum of the contract as the laws crate's; INVALID_ARGUMENT naming `field` if it is none.
pub fn money_of(field: &str, money: &pb::Money) -> Result<Money, ServiceError> {
    Money::new(money.amount_minor_units, &money.currency).map_err(|e| ServiceError::invalid(field, e.to_string()))
}

/// The contract's message of a sum.
pub fn money_message(money: &Money) -> pb::Money {
    pb::Money { amount_minor_units: money.amount_minor_units(), currency: money.currency().to_owned() }
}

/// Who hears an appeal on `form` under the stored policy (`laws::appeal_procedure::who_hears`):
/// the committee when the policy provides one, otherwise in duplicate the Director in charge (Law
/// 93A). A refusal names the policy.
pub fn heard_by(row: &policy::Model, form: AppealForm) -> Result<Bench, ServiceError> {
    laws::appeal_procedure::who_hears(form, row.appeals_allowed).map_err(|refusal| store::refused_under(row, refusal))
}

/// Who hears `appeal`, as recorded when it was filed (an appeal filed before the service recorded
/// it went to the committee).
pub fn bench_of(appeal: &pb::Appeal) -> Bench {
    match pb::HearingBody::try_from(appeal.heard_by) {
        Ok(pb::HearingBody::DirectorInCharge) => Bench::DirectorInCharge,
        _ => Bench::Committee,
    }
}

/// The contract's value of a bench.
pub fn body_message(bench: Bench) -> i32 {
    match bench {
        Bench::Committee => pb::HearingBody::Committee as i32,
        Bench::DirectorInCharge => pb::HearingBody::DirectorInCharge as i32,
    }
}

/// Refuses `bench` sitting on `appeal` when the Laws give it to the other (Law 93A, Law 93B2),
/// naming the policy in force when the ruling was recorded.
pub fn check_bench(
    form: AppealForm,
    appeal: &pb::Appeal,
    bench: Bench,
    policy: &crate::entity::policy::Model,
) -> Result<(), ServiceError> {
    laws::appeal_procedure::check_bench(form, bench_of(appeal), bench)
        .map_err(|refusal| crate::store::refused_under(policy, refusal))
}

/// The stages of `appeal` besides the committee's, as a section of its decision notice
/// ([`crate::notice`]): who heard it when it was not the committee (Law 93A), the director's
/// review (Law 93B1), the deposit and what became of it (Law 92A), and a further appeal (Law
/// 93C). Empty when it went through none of them.
pub fn notice_section(appeal: &pb::Appeal) -> String {
    use crate::notice::escape;
    use std::fmt::Write as _;
    let mut entries = String::new();
    let mut entry = |term: &str, text: &str| {
        let _ = writeln!(entries, "<dt>{}</dt><dd>{}</dd>", escape(term), escape(text));
    };
    if bench_of(appeal) == Bench::DirectorInCharge {
        entry("Heard by", "the Director in charge, the club having no Appeals Committee for it (Law 93A)");
    }
    if let Some(review) = &appeal.review {
        let outcome = match pb::ReviewOutcome::try_from(review.outcome) {
            Ok(pb::ReviewOutcome::Corrected) => format!("corrected by ruling {}", review.corrected_ruling_id),
            _ => "confirmed".to_owned(),
        };
        entry("Director's review (Law 93B1)", &format!("{} by {}: {}", outcome, review.director_id, review.reasons));
    }
    if appeal.decision.as_ref().is_some_and(|d| d.lacked_merit) {
        entry("Merit", "the appeal was found to lack merit (Law 92A)");
    }
    if let Some(deposit) = &appeal.deposit {
        let amount = deposit
            .amount
            .as_ref()
            .map_or_else(String::new, |m| format!("{} {} (minor units)", m.amount_minor_units, m.currency));
        let status = match pb::DepositStatus::try_from(deposit.status) {
            Ok(pb::DepositStatus::Retained) => "retained",
            Ok(pb::DepositStatus::Returned) => "returned",
            _ => "held",
        };
        entry("Deposit", &format!("{amount}, {status}"));
    }
    if let Some(further) = &appeal.further_appeal {
        let status = pb::FurtherAppealStatus::try_from(further.status).map_or("?", |s| s.as_str_name());
        entry("Further appeal (Law 93C)", &format!("to {}: {status} {}", further.body, further.note));
    }
    if entries.is_empty() {
        String::new()
    } else {
        format!("<section id=\"procedure\">\n<h2>The stages of the appeal</h2>\n<dl>\n{entries}</dl>\n</section>\n")
    }
}
