//! The deposit lodged with an appeal, where the club's policy asks one: checked and recorded on
//! filing, and returned or retained when the appeal ends. The rules are
//! [`laws::appeal_procedure`]'s (`check_deposit`, `deposit_fate`); this module records them.

use api::appeals::v1 as pb;
use chrono::{DateTime, Utc};
use laws::appeal_procedure::{DepositFate, ProcedureOptions};
use laws::appeals::AppealForm;
use platform::ServiceError;

use crate::entity::policy;
use crate::procedure::{money_message, money_of};
use crate::records::timestamp;
use crate::store;

/// The deposit lodged with an appeal on `form`, held, if it is the one the policy asks
/// (`laws::appeal_procedure::check_deposit`); a refusal names the policy.
pub fn lodge(
    row: &policy::Model,
    options: &ProcedureOptions,
    form: AppealForm,
    lodged: Option<&pb::Money>,
    now: DateTime<Utc>,
) -> Result<Option<pb::AppealDeposit>, ServiceError> {
    let lodged = lodged.map(|money| money_of("deposit", money)).transpose()?;
    laws::appeal_procedure::check_deposit(form, options.deposit(), lodged.as_ref())
        .map_err(|refusal| store::refused_under(row, refusal))?;
    Ok(lodged.map(|money| pb::AppealDeposit {
        amount: Some(money_message(&money)),
        status: pb::DepositStatus::Held as i32,
        lodged_at: Some(timestamp(now)),
        settled_at: None,
        reason: String::new(),
    }))
}

/// Settles the deposit held with `appeal`, if any: returned or retained, for `reason`.
pub fn settle(appeal: &mut pb::Appeal, fate: DepositFate, reason: &str, now: DateTime<Utc>) {
    let Some(deposit) = appeal.deposit.as_mut() else { return };
    if deposit.status != pb::DepositStatus::Held as i32 {
        return;
    }
    deposit.status = match fate {
        DepositFate::Returned => pb::DepositStatus::Returned as i32,
        DepositFate::Retained => pb::DepositStatus::Retained as i32,
    };
    deposit.settled_at = Some(timestamp(now));
    reason.clone_into(&mut deposit.reason);
}

/// Settles the deposit of an appeal being decided: retained when those deciding found it lacked
/// merit, returned otherwise (`laws::appeal_procedure::deposit_fate`, Law 92A).
pub fn settle_on_decision(appeal: &mut pb::Appeal, lacked_merit: bool, now: DateTime<Utc>) {
    let fate = laws::appeal_procedure::deposit_fate(lacked_merit);
    let reason = match fate {
        DepositFate::Retained => "retained: the appeal was found to lack merit",
        DepositFate::Returned => "returned: the appeal was not found to lack merit",
    };
    settle(appeal, fate, reason, now);
}
