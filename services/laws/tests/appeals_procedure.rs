//! The stages of an appeal the club arranges (`laws::appeal_procedure`): the Director in charge
//! hearing an appeal without a committee (Law 93A), his review before the committee (Law 93B1),
//! a further appeal beyond the club (Law 93C1), and a deposit kept from an appeal that lacked
//! merit (Law 92A). Each test quotes the text it applies.

use laws::appeal_procedure::{
    Bench, DepositFate, Money, OptionsError, ProcedureOptions, ProcedureRefusal, bars, check_bench, check_deposit,
    check_further_appeal, check_review_done, check_reviewable, deposit_fate, review_required, who_hears,
};
use laws::appeals::{AppealForm, Conflict, Contest, RulingKind};
use laws::{CitesLaw, Law};

const PAIRS: AppealForm = AppealForm::Duplicate(Contest::Pairs);

fn ok<T, E: std::fmt::Display>(result: Result<T, E>) -> T {
    result.unwrap_or_else(|e| panic!("{e}"))
}

fn refused<T: std::fmt::Debug>(result: Result<T, ProcedureRefusal>) -> ProcedureRefusal {
    match result {
        Ok(value) => panic!("expected a refusal, got {value:?}"),
        Err(refusal) => refusal,
    }
}

fn pounds(pence: u64) -> Money {
    ok(Money::new(pence, "GBP"))
}

#[test]
fn law_93a_without_a_committee_the_director_in_charge_hears_every_duplicate_appeal() {
    // "The Director in charge shall hear and rule upon all appeals if there is no Appeals
    // Committee [or if no alternative arrangement has been made under Law 80B2(k)]".
    for contest in [Contest::Pairs, Contest::Teams, Contest::Individuals] {
        assert_eq!(who_hears(AppealForm::Duplicate(contest), false), Ok(Bench::DirectorInCharge));
    }
    // "B. Appeals Committee Available ... 2. The Director in charge shall refer all other appeals
    // for adjudication."
    assert_eq!(who_hears(PAIRS, true), Ok(Bench::Committee));
    let committee_sits = refused(check_bench(PAIRS, Bench::DirectorInCharge, Bench::Committee));
    assert_eq!(committee_sits.law(), Law::duplicate(93, "A"));
    assert_eq!(
        committee_sits.to_string(),
        "the club has no Appeals Committee for this appeal: the Director in charge hears and rules upon it (Law 93A \
         of the Laws of Duplicate Bridge)"
    );
    let director_decides = refused(check_bench(PAIRS, Bench::Committee, Bench::DirectorInCharge));
    assert_eq!(director_decides.law(), Law::duplicate(93, "B2"));
    assert_eq!(check_bench(PAIRS, Bench::DirectorInCharge, Bench::DirectorInCharge), Ok(()));
}

#[test]
fn club_appeals_committee_without_a_published_procedure_no_rubber_appeal_is_heard() {
    // "If such a procedure has been agreed to or published in advance, any player may appeal any
    // decision by the Arbiter": Law 93A is duplicate's, and the Club Laws have no fallback.
    for form in [AppealForm::Rubber, AppealForm::Chicago] {
        let refusal = refused(who_hears(form, false));
        assert_eq!(refusal.law(), Law::club_appeals());
        assert_eq!(
            refusal.to_string(),
            "the club's published policy hears no appeals (the Club Appeals Committee (Alternative Club Laws))"
        );
        assert_eq!(who_hears(form, true), Ok(Bench::Committee));
        assert_eq!(refused(check_bench(form, Bench::Committee, Bench::DirectorInCharge)).law(), Law::club_appeals());
    }
}

/// Law 93B1: the Chief Director reviews the ruling and "His ruling may be appealed to the
/// committee". Once his correction is the ruling in force, the committee reviews his ruling, and
/// he sits on it no more than the director whose ruling was appealed.
#[test]
fn law_93b1_the_director_whose_correction_is_in_force_does_not_sit_on_the_committee() {
    assert!(bars(Bench::Committee, Conflict::CorrectedTheRuling));
    assert_eq!(Conflict::CorrectedTheRuling.to_string(), "gave the ruling the director's review put in force");
}

#[test]
fn law_93a_having_given_the_ruling_does_not_bar_the_director_in_charge() {
    // "The Director in charge shall hear and rule upon all appeals": the Law names him, so his
    // own ruling is among those he hears. Before a committee, "His ruling may be appealed to the
    // committee" (Law 93B1), not to him.
    assert!(!bars(Bench::DirectorInCharge, Conflict::GaveTheRuling));
    assert!(bars(Bench::Committee, Conflict::GaveTheRuling));
    // A party to the deal judges no appeal about it, on either bench.
    for bench in [Bench::Committee, Bench::DirectorInCharge] {
        assert!(bars(bench, Conflict::PlayedTheDeal));
        assert!(bars(bench, Conflict::ContestantConcerned));
    }
}

#[test]
fn law_93b1_the_director_in_charge_first_rules_on_the_law_and_his_ruling_may_be_appealed_to_the_committee() {
    // "1. The Director in charge shall hear and rule upon such part of the appeal as deals solely
    // with the Law or regulations. His ruling may be appealed to the committee."
    let review = ok(ProcedureOptions::new(true, None, None));
    assert!(review_required(PAIRS, Bench::Committee, &review, RulingKind::Law));
    assert_eq!(check_reviewable(PAIRS, Bench::Committee, &review, RulingKind::Law), Ok(()));
    let first = refused(check_review_done(true, false));
    assert_eq!(first.law(), Law::duplicate(93, "B1"));
    assert_eq!(
        first.to_string(),
        "the Director in charge first hears and rules upon an appeal on a point of law or regulation; his ruling may \
         then be appealed to the committee (Law 93B1 of the Laws of Duplicate Bridge)"
    );
    assert_eq!(check_review_done(true, true), Ok(()));
    assert_eq!(check_review_done(false, false), Ok(()));

    // "2. The Director in charge shall refer all other appeals for adjudication."
    for kind in [RulingKind::Fact, RulingKind::Judgement] {
        assert!(!review_required(PAIRS, Bench::Committee, &review, kind));
        assert_eq!(refused(check_reviewable(PAIRS, Bench::Committee, &review, kind)).law(), Law::duplicate(93, "B2"));
    }
    // Without a committee there is nothing to review before: the Director hears it all (93A).
    assert!(!review_required(PAIRS, Bench::DirectorInCharge, &review, RulingKind::Law));
    assert_eq!(
        refused(check_reviewable(PAIRS, Bench::DirectorInCharge, &review, RulingKind::Law)).law(),
        Law::duplicate(93, "A")
    );
    // A club whose policy holds no review stage.
    let none = ProcedureOptions::default();
    assert!(!review_required(PAIRS, Bench::Committee, &none, RulingKind::Law));
    assert_eq!(
        refused(check_reviewable(PAIRS, Bench::Committee, &none, RulingKind::Law)).law(),
        Law::duplicate(93, "B1")
    );
    // The Club Appeals Committee reviews "any decision by the Arbiter" itself.
    assert!(!review_required(AppealForm::Rubber, Bench::Committee, &review, RulingKind::Law));
    assert_eq!(
        refused(check_reviewable(AppealForm::Chicago, Bench::Committee, &review, RulingKind::Law)).law(),
        Law::club_appeals()
    );
}

#[test]
fn law_93c1_a_further_appeal_only_after_the_clubs_procedures_are_exhausted() {
    // "Regulating Authorities may establish procedures for further appeals after the foregoing
    // procedures have been exhausted."
    let options = ok(ProcedureOptions::new(false, Some("  the national authority "), None));
    assert_eq!(options.further_appeal_to(), Some("the national authority"));
    assert_eq!(check_further_appeal(PAIRS, &options, true), Ok("the national authority"));
    let early = refused(check_further_appeal(PAIRS, &options, false));
    assert_eq!(early.law(), Law::duplicate(93, "C1"));
    assert_eq!(
        early.to_string(),
        "a further appeal lies only after the club's procedures have been exhausted: the appeal is not decided (Law \
         93C1 of the Laws of Duplicate Bridge)"
    );
    let none = ok(ProcedureOptions::new(false, Some("   "), None));
    assert_eq!(refused(check_further_appeal(PAIRS, &none, true)), ProcedureRefusal::NoFurtherAppeal);
    // The Club Appeals Committee "may overrule any of his decisions", and no further appeal is
    // provided.
    assert_eq!(refused(check_further_appeal(AppealForm::Rubber, &options, true)).law(), Law::club_appeals());
    assert_eq!(ProcedureOptions::new(false, Some(&"x".repeat(201)), None), Err(OptionsError::BodyName));
}

#[test]
fn law_92a_an_appeal_lacking_merit_may_be_sanctioned_so_its_deposit_is_kept() {
    // "A contestant or his captain may appeal for a review of any ruling made at his table by the
    // Director. Any such request, if deemed to lack merit, may be the subject of a sanction
    // imposed by regulation."
    assert_eq!(deposit_fate(true), DepositFate::Retained);
    // An appeal that fails is not for that reason without merit.
    assert_eq!(deposit_fate(false), DepositFate::Returned);

    let asked = pounds(500);
    assert_eq!(check_deposit(PAIRS, Some(&asked), Some(&pounds(500))), Ok(()));
    let short = refused(check_deposit(PAIRS, Some(&asked), Some(&pounds(400))));
    assert_eq!(short.law(), Law::duplicate(92, "A"));
    assert_eq!(
        short.to_string(),
        "the club's policy asks a deposit of 500 GBP (minor units) with an appeal (Law 92A of the Laws of Duplicate \
         Bridge)"
    );
    assert!(check_deposit(PAIRS, Some(&asked), None).is_err());
    assert!(check_deposit(PAIRS, Some(&asked), Some(&ok(Money::new(500, "EUR")))).is_err());
    assert_eq!(check_deposit(PAIRS, None, None), Ok(()));
    assert!(matches!(check_deposit(PAIRS, None, Some(&asked)), Err(ProcedureRefusal::NoDepositAsked { .. })));
}

#[test]
fn club_appeals_committee_a_deposit_is_part_of_the_procedure_published_in_advance() {
    // "If such a procedure has been agreed to or published in advance, any player may appeal".
    let refusal = refused(check_deposit(AppealForm::Rubber, Some(&pounds(200)), None));
    assert_eq!(refusal.law(), Law::club_appeals());
    assert_eq!(Money::new(0, "GBP"), Err(OptionsError::NoAmount));
    assert!(matches!(Money::new(1, "gbp"), Err(OptionsError::Currency(_))));
    assert!(matches!(Money::new(1, "£"), Err(OptionsError::Currency(_))));
}
