//! The stages of an appeal beyond the committee's hearing, as the club arranges them
//! ([`ProcedureOptions`], published with the club's appeal policy):
//!
//! - Who hears ([`who_hears`]): in duplicate, the Director in charge hears and rules upon an
//!   appeal when there is no Appeals Committee (Law 93A); with one, appeals are referred to it
//!   (Law 93B2). The Club Appeals Committee text has no such fallback: a club without a
//!   published procedure hears no rubber or Chicago appeals.
//! - The Director's review ([`check_reviewable`], [`check_review_done`]): where a committee is
//!   available, the Director in charge first hears and rules upon the part of an appeal that
//!   deals solely with the Law or regulations, and his ruling may then be appealed to the
//!   committee (Law 93B1).
//! - A further appeal ([`check_further_appeal`]): beyond the club, to the body the club names,
//!   "after the foregoing procedures have been exhausted" (Law 93C1).
//! - A deposit ([`check_deposit`], [`deposit_fate`]): an appeal "deemed to lack merit, may be the
//!   subject of a sanction imposed by regulation" (Law 92A); the club's regulation is a deposit
//!   lodged with the appeal and kept when the appeal is found to lack merit.

use crate::appeals::{AppealForm, Conflict, RulingKind};
use crate::law::{CitesLaw, Law};

/// Who hears and rules upon an appeal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bench {
    /// The club's Appeals Committee (the Club Appeals Committee; duplicate Law 93B).
    Committee,
    /// The Director in charge, because there is no Appeals Committee (duplicate Law 93A).
    DirectorInCharge,
}

/// A sum of money: an amount in the currency's minor units (pence, cents) and its ISO 4217 code.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Money {
    amount_minor_units: u64,
    currency: String,
}

impl Money {
    /// A sum: more than nothing, in a currency named by three capital letters.
    pub fn new(amount_minor_units: u64, currency: &str) -> Result<Money, OptionsError> {
        if amount_minor_units == 0 {
            return Err(OptionsError::NoAmount);
        }
        if currency.len() != 3 || !currency.bytes().all(|b| b.is_ascii_uppercase()) {
            return Err(OptionsError::Currency(currency.chars().take(16).collect()));
        }
        Ok(Money { amount_minor_units, currency: currency.to_owned() })
    }

    /// The amount, in minor units.
    pub const fn amount_minor_units(&self) -> u64 {
        self.amount_minor_units
    }

    /// The ISO 4217 code.
    pub fn currency(&self) -> &str {
        &self.currency
    }
}

impl std::fmt::Display for Money {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} (minor units)", self.amount_minor_units, self.currency)
    }
}

/// The longest name of a further-appeal body the club may publish.
pub const MAX_BODY_NAME: usize = 200;

/// The club's options for the stages of an appeal, published with its appeal policy and versioned
/// with it: the Director's review before the committee (Law 93B1), a further appeal beyond the
/// club (Law 93C1), and a deposit with every appeal (Law 92A's sanction "imposed by regulation").
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProcedureOptions {
    director_review: bool,
    further_appeal_to: Option<String>,
    deposit: Option<Money>,
}

impl ProcedureOptions {
    /// Options: `further_appeal_to` names the body a further appeal goes to (none when absent or
    /// blank), at most [`MAX_BODY_NAME`] bytes.
    pub fn new(
        director_review: bool,
        further_appeal_to: Option<&str>,
        deposit: Option<Money>,
    ) -> Result<ProcedureOptions, OptionsError> {
        let further_appeal_to = further_appeal_to.map(str::trim).filter(|body| !body.is_empty());
        if further_appeal_to.is_some_and(|body| body.len() > MAX_BODY_NAME) {
            return Err(OptionsError::BodyName);
        }
        Ok(ProcedureOptions { director_review, further_appeal_to: further_appeal_to.map(str::to_owned), deposit })
    }

    /// Whether a duplicate appeal on law or regulation goes to the Director in charge before the
    /// committee (Law 93B1).
    pub const fn director_review(&self) -> bool {
        self.director_review
    }

    /// The body a further appeal goes to, if the club allows one (Law 93C1).
    pub fn further_appeal_to(&self) -> Option<&str> {
        self.further_appeal_to.as_deref()
    }

    /// The deposit an appeal is lodged with, if the club asks one.
    pub const fn deposit(&self) -> Option<&Money> {
        self.deposit.as_ref()
    }
}

/// Why procedure options cannot be published.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    /// A deposit of nothing.
    #[error("a deposit is more than nothing: give an amount in minor units, or no deposit")]
    NoAmount,
    /// Not an ISO 4217 code.
    #[error("{0:?} is not a currency code: three capital letters (ISO 4217), such as GBP")]
    Currency(String),
    /// A body's name too long.
    #[error("the further-appeal body's name is at most 200 bytes")]
    BodyName,
}

/// Who hears an appeal on `form` under a policy that does (`committee`) or does not provide an
/// Appeals Committee:
/// - duplicate: the committee if there is one (Law 93B2: "The Director in charge shall refer all
///   other appeals for adjudication"); otherwise the Director in charge, who "shall hear and rule
///   upon all appeals if there is no Appeals Committee" (Law 93A). The contestant's right to appeal
///   is the Laws' (Law 92A), not the club's, so a club without a committee still hears appeals;
/// - rubber bridge and Chicago: the committee, and only under a procedure "agreed to or
///   published in advance" (the Club Appeals Committee); otherwise no appeal is heard.
pub fn who_hears(form: AppealForm, committee: bool) -> Result<Bench, ProcedureRefusal> {
    match (form, committee) {
        (_, true) => Ok(Bench::Committee),
        (AppealForm::Duplicate(_), false) => Ok(Bench::DirectorInCharge),
        (AppealForm::Rubber | AppealForm::Chicago, false) => Err(ProcedureRefusal::NoProcedure),
    }
}

/// Whether `bench` is the one that hears this appeal, `heard_by` being the bench the Laws give it
/// ([`who_hears`]): a committee does not sit on an appeal the Director in charge hears under Law
/// 93A, and the Director does not adjudicate one he must refer to the committee (Law 93B2).
pub fn check_bench(form: AppealForm, heard_by: Bench, bench: Bench) -> Result<(), ProcedureRefusal> {
    match (heard_by, bench) {
        (Bench::Committee, Bench::DirectorInCharge) => Err(ProcedureRefusal::ReferToCommittee {
            law: if form.is_duplicate() { Law::duplicate(93, "B2") } else { Law::club_appeals() },
        }),
        (Bench::DirectorInCharge, Bench::Committee) => Err(ProcedureRefusal::DirectorHears),
        _ => Ok(()),
    }
}

/// The conflicts that bar someone from hearing an appeal on `bench`. Before a committee, all of
/// them (see [`crate::appeals::check_impartial`]). Before the Director in charge under Law 93A,
/// having given the ruling does not bar him: the Law itself has the Director in charge "hear and
/// rule upon all appeals", his own and his assistants' rulings among them; a party to the deal is
/// still barred, since no one judges his own cause.
pub fn bars(bench: Bench, conflict: Conflict) -> bool {
    !(bench == Bench::DirectorInCharge && matches!(conflict, Conflict::GaveTheRuling | Conflict::CorrectedTheRuling))
}

/// Whether the Director in charge reviews an appeal on a ruling of `kind` before the committee
/// hears it: in duplicate, with a committee, where the club's options ask for the review, and
/// only "such part of the appeal as deals solely with the Law or regulations" (Law 93B1); the
/// other appeals are referred for adjudication at once (Law 93B2).
pub fn review_required(form: AppealForm, heard_by: Bench, options: &ProcedureOptions, kind: RulingKind) -> bool {
    form.is_duplicate() && heard_by == Bench::Committee && options.director_review && kind == RulingKind::Law
}

/// Whether the Director in charge may review this appeal (see [`review_required`]), and refuses
/// naming the rule when he may not.
pub fn check_reviewable(
    form: AppealForm,
    heard_by: Bench,
    options: &ProcedureOptions,
    kind: RulingKind,
) -> Result<(), ProcedureRefusal> {
    if !form.is_duplicate() {
        return Err(ProcedureRefusal::NoReviewInClubLaws);
    }
    if heard_by == Bench::DirectorInCharge {
        return Err(ProcedureRefusal::DirectorHears);
    }
    if !options.director_review {
        return Err(ProcedureRefusal::ReviewNotArranged);
    }
    if kind != RulingKind::Law {
        return Err(ProcedureRefusal::ReferToCommittee { law: Law::duplicate(93, "B2") });
    }
    Ok(())
}

/// Whether the committee may hear an appeal now: where the review is required
/// ([`review_required`]), only once the Director in charge has ruled on it (Law 93B1: "His ruling
/// may be appealed to the committee").
pub fn check_review_done(required: bool, reviewed: bool) -> Result<(), ProcedureRefusal> {
    if required && !reviewed { Err(ProcedureRefusal::ReviewFirst) } else { Ok(()) }
}

/// Whether a decided appeal on `form` may be appealed further, and to whom: in duplicate, where
/// the club's options name a body, "after the foregoing procedures have been exhausted" (Law
/// 93C1), that is once the appeal is decided. The Club Appeals Committee text provides no further
/// appeal: its committee "may overrule any of his decisions", and there it ends.
pub fn check_further_appeal(
    form: AppealForm,
    options: &ProcedureOptions,
    decided: bool,
) -> Result<&str, ProcedureRefusal> {
    if !form.is_duplicate() {
        return Err(ProcedureRefusal::NoFurtherAppealInClubLaws);
    }
    let Some(body) = options.further_appeal_to() else {
        return Err(ProcedureRefusal::NoFurtherAppeal);
    };
    if !decided {
        return Err(ProcedureRefusal::NotExhausted);
    }
    Ok(body)
}

/// Whether the deposit `lodged` with an appeal on `form` is the one the club asks (`asked`): an
/// appeal is lodged with exactly the published deposit, and none is taken where none is asked.
/// The deposit is the club's regulation for an appeal "deemed to lack merit" (Law 92A); in rubber
/// bridge and Chicago, part of the procedure "published in advance" (the Club Appeals Committee).
pub fn check_deposit(form: AppealForm, asked: Option<&Money>, lodged: Option<&Money>) -> Result<(), ProcedureRefusal> {
    let law = deposit_law(form);
    match (asked, lodged) {
        (None, None) => Ok(()),
        (Some(asked), Some(lodged)) if asked == lodged => Ok(()),
        (Some(asked), _) => Err(ProcedureRefusal::DepositRequired { asked: asked.clone(), law }),
        (None, Some(_)) => Err(ProcedureRefusal::NoDepositAsked { law }),
    }
}

/// The rule a deposit stands on: Law 92A in duplicate, the club's published procedure (the Club
/// Appeals Committee) in rubber bridge and Chicago.
pub const fn deposit_law(form: AppealForm) -> Law {
    match form {
        AppealForm::Duplicate(_) => Law::duplicate(92, "A"),
        AppealForm::Rubber | AppealForm::Chicago => Law::club_appeals(),
    }
}

/// What becomes of a deposit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DepositFate {
    /// Given back to the appellant.
    Returned,
    /// Kept by the club: the appeal was found to lack merit.
    Retained,
}

/// What becomes of a deposit when the appeal is decided: kept only when those deciding find that
/// the appeal lacked merit (Law 92A: "Any such request, if deemed to lack merit, may be the subject
/// of a sanction imposed by regulation"); returned otherwise. An appeal that fails is not for that
/// reason without merit: the finding is the deciders' own. A withdrawn appeal is not decided, so
/// its deposit is returned.
pub const fn deposit_fate(lacked_merit: bool) -> DepositFate {
    if lacked_merit { DepositFate::Retained } else { DepositFate::Returned }
}

/// Why a stage of an appeal is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProcedureRefusal {
    /// Rubber or Chicago without a published procedure.
    #[error("the club's published policy hears no appeals (the Club Appeals Committee (Alternative Club Laws))")]
    NoProcedure,
    /// The Director adjudicating an appeal he must refer.
    #[error(
        "the appeal is referred to the Appeals Committee for adjudication; the director does not decide it ({law})"
    )]
    ReferToCommittee {
        /// Law 93B2, or the Club Appeals Committee.
        law: Law,
    },
    /// The committee sitting on an appeal the Director hears.
    #[error(
        "the club has no Appeals Committee for this appeal: the Director in charge hears and rules upon it \
         (Law 93A of the Laws of Duplicate Bridge)"
    )]
    DirectorHears,
    /// A review asked in rubber bridge or Chicago.
    #[error(
        "the Club Appeals Committee reviews the arbiter's decisions itself; there is no director's review \
         before it (the Club Appeals Committee (Alternative Club Laws))"
    )]
    NoReviewInClubLaws,
    /// A review the club's policy does not hold.
    #[error(
        "the club's policy holds no director's review before the committee (Law 93B1 of the Laws of Duplicate Bridge)"
    )]
    ReviewNotArranged,
    /// The committee asked to hear an appeal before the Director's review.
    #[error(
        "the Director in charge first hears and rules upon an appeal on a point of law or regulation; his ruling \
         may then be appealed to the committee (Law 93B1 of the Laws of Duplicate Bridge)"
    )]
    ReviewFirst,
    /// A further appeal in rubber bridge or Chicago.
    #[error(
        "the Club Appeals Committee's decision ends an appeal at the club; the Club Laws provide no further appeal \
         (the Club Appeals Committee (Alternative Club Laws))"
    )]
    NoFurtherAppealInClubLaws,
    /// A further appeal the club's policy does not provide.
    #[error("the club's policy provides no further appeal (Law 93C1 of the Laws of Duplicate Bridge)")]
    NoFurtherAppeal,
    /// A further appeal before the appeal is decided.
    #[error(
        "a further appeal lies only after the club's procedures have been exhausted: the appeal is not decided \
         (Law 93C1 of the Laws of Duplicate Bridge)"
    )]
    NotExhausted,
    /// The deposit asked was not lodged.
    #[error("the club's policy asks a deposit of {asked} with an appeal ({law})")]
    DepositRequired {
        /// The deposit asked.
        asked: Money,
        /// Law 92A, or the Club Appeals Committee.
        law: Law,
    },
    /// A deposit lodged where none is asked.
    #[error("the club's policy asks no deposit with an appeal; none is taken ({law})")]
    NoDepositAsked {
        /// Law 92A, or the Club Appeals Committee.
        law: Law,
    },
}

impl CitesLaw for ProcedureRefusal {
    fn law(&self) -> Law {
        match self {
            ProcedureRefusal::NoProcedure
            | ProcedureRefusal::NoReviewInClubLaws
            | ProcedureRefusal::NoFurtherAppealInClubLaws => Law::club_appeals(),
            ProcedureRefusal::ReferToCommittee { law }
            | ProcedureRefusal::DepositRequired { law, .. }
            | ProcedureRefusal::NoDepositAsked { law } => *law,
            ProcedureRefusal::DirectorHears => Law::duplicate(93, "A"),
            ProcedureRefusal::ReviewNotArranged | ProcedureRefusal::ReviewFirst => Law::duplicate(93, "B1"),
            ProcedureRefusal::NoFurtherAppeal | ProcedureRefusal::NotExhausted => Law::duplicate(93, "C1"),
        }
    }
}
