//! Inadmissible doubles and redoubles nobody drew attention to (recorded play): duplicate Law
//! 36A when attention is drawn during the auction period, duplicate Law 36C when only after
//! the opening lead has been faced; rubber Laws 35A and 36. One test per case, quoting the Law.
#![allow(clippy::unwrap_used)] // tests may unwrap: a panic is the failure report

#[path = "auction_helpers.rs"]
mod helpers;

use helpers::*;
use laws::auction::{Auction, AuctionError, CallStatus, Recorded};
use laws::irregularities::Chooser;
use laws::irregularities::auction::{DoubleFault, IrregularityKind, OptionKind};
use laws::{CitesLaw, Code, Law, Seat};

const DUP: Code = Code::Duplicate;

/// Records `seat`'s call with nobody drawing attention to it.
fn unnoticed(auction: &Auction, seat: Seat, text: &str) -> Auction {
    auction.record_unnoticed(seat, made(text)).unwrap_or_else(|e| panic!("{seat} {text}: {e}")).into_auction()
}

/// North opens 1H, East passes, South doubles his partner's bid and nobody notices.
fn south_doubles_partner(code: Code) -> Auction {
    unnoticed(&digital(N, code, &["1H", "P"]), S, "X")
}

#[test]
fn law_36c_the_contract_is_scored_as_if_the_inadmissible_double_had_not_been_made() {
    // Law 36C: "When attention is drawn to an inadmissible double or redouble only after the
    // opening lead has been faced, the final contract is scored as if the inadmissible call had
    // not been made."
    let auction = south_doubles_partner(DUP);
    assert!(auction.pending().is_none(), "nobody drew attention to it");
    assert_eq!(
        auction.calls()[2].status,
        CallStatus::Unnoticed { fault: DoubleFault::OwnSideBid, law: Law::duplicate(36, "C") }
    );
    let done = rec_all(&auction, &["P", "P", "P"]);
    // The play goes on as the players bid it ...
    assert_eq!(contract(&done).contract.to_string(), "1HX by North");
    // ... and the contract is scored undoubled.
    let scored = done.contract_to_score_if_found_after_opening_lead().unwrap();
    assert_eq!(scored.to_string(), "1H by North");
}

#[test]
fn law_36c_a_redouble_of_the_inadmissible_double_goes_with_it() {
    // "scored as if the inadmissible call had not been made": without South's double there is
    // no double for West to redouble (Law 19B1).
    let done = rec_all(&south_doubles_partner(DUP), &["XX", "P", "P", "P"]);
    assert_eq!(contract(&done).contract.to_string(), "1HXX by North");
    assert_eq!(done.contract_to_score_if_found_after_opening_lead().unwrap().to_string(), "1H by North");
}

#[test]
fn law_36c_a_legal_double_before_the_inadmissible_one_still_counts() {
    // East doubles 1H; West doubles again (the bid "has already been doubled", Law 19A1) and
    // nobody notices. Without West's double the contract is still doubled by East.
    let auction = unnoticed(&digital(N, DUP, &["1H", "X", "P"]), W, "X");
    let done = rec_all(&auction, &["P", "P", "P"]);
    assert_eq!(contract(&done).contract.to_string(), "1HX by North");
    assert_eq!(done.contract_to_score_if_found_after_opening_lead().unwrap().to_string(), "1HX by North");
    // With no unnoticed call the contract to score is the contract bid.
    let plain = digital(N, DUP, &["1H", "X", "P", "P", "P"]);
    assert_eq!(plain.contract_to_score_if_found_after_opening_lead(), Some(contract(&plain).contract));
}

#[test]
fn law_36a_attention_drawn_after_the_lho_called_cancels_the_double_and_every_later_call() {
    // Law 36A: "If offender's LHO calls before rectification of an inadmissible double or
    // redouble the inadmissible call and all subsequent calls are cancelled. The auction
    // reverts to the player whose turn it was to call and proceeds as though there had been no
    // irregularity. The lead restrictions in Law 26B do not apply."
    let auction = rec_all(&south_doubles_partner(DUP), &["P", "2H"]);
    let auction = auction.draw_attention_to(2).unwrap().into_auction();
    assert_eq!(
        pending_kind(&auction),
        IrregularityKind::InadmissibleDouble { fault: DoubleFault::OwnSideBid, out_of_rotation: false }
    );
    assert_eq!(options(&auction), vec![OptionKind::Enforce]);
    let option = auction.pending().unwrap().option(OptionKind::Enforce).unwrap();
    assert_eq!((option.chooser, option.law), (Chooser::Official, Law::duplicate(36, "A")));
    let auction = choose(&auction, OptionKind::Enforce);
    assert_eq!(shown(&auction), "N: 1H Pass");
    assert_eq!(auction.next_to_call(), Some(S));
    assert!(auction.restrictions().is_empty(), "as though there had been no irregularity");
    let done = rec_all(&auction, &["2H", "P", "P", "P"]);
    assert!(contract(&done).lead_penalties.is_empty(), "Law 26B does not apply");
}

#[test]
fn law_36a_in_the_clarification_period_reopens_the_auction() {
    // The auction has closed but no opening lead is faced (duplicate Law 17D1: the auction
    // period lasts until then): Law 36A still cancels the double and the calls after it.
    let done = rec_all(&south_doubles_partner(DUP), &["P", "P", "P"]);
    assert!(done.is_closed());
    let auction = choose(&done.draw_attention_to(2).unwrap().into_auction(), OptionKind::Enforce);
    assert!(!auction.is_closed());
    assert_eq!(shown(&auction), "N: 1H Pass");
    assert_eq!(auction.next_to_call(), Some(S));
}

#[test]
fn law_36b_attention_drawn_before_anyone_called_is_the_ordinary_case() {
    // Law 36B: "When A does not apply: 1. any double or redouble not permitted by Law 19 is
    // cancelled. 2. the offender must substitute a legal call ... his partner must pass
    // whenever it is his turn to call."
    let recorded = south_doubles_partner(DUP).draw_attention_to(2).unwrap();
    assert!(matches!(recorded, Recorded::AwaitingRectification(_)));
    let late = recorded.into_auction();
    let at_once = rec(&digital(N, DUP, &["1H", "P"]), S, "X");
    assert_eq!(late.pending(), at_once.pending());
    let auction = choose(&late, OptionKind::Enforce);
    assert!(barred_throughout(&auction, N));
}

#[test]
fn law_36_only_an_unnoticed_inadmissible_call_can_have_attention_drawn_to_it() {
    let auction = south_doubles_partner(DUP);
    let err = auction.draw_attention_to(0).unwrap_err();
    assert!(matches!(err, AuctionError::NotUnnoticed { entry: 0, .. }), "{err}");
    assert_eq!(err.law(), Law::duplicate(36, ""));
    // A legal call recorded "unnoticed" is simply made.
    let legal = unnoticed(&digital(N, DUP, &["1H"]), E, "X");
    assert_eq!(legal.calls()[1].status, CallStatus::Made);
    // Digital play still refuses the double outright (Law 19).
    assert_eq!(digital(N, DUP, &["1H", "P"]).call(call("X")).unwrap_err().law(), Law::duplicate(19, ""));
}

#[test]
fn rubber_laws_35a_and_36_apply_when_attention_is_drawn_after_the_lho_called_and_there_is_no_36c() {
    // Rubber Law 35: "When, after an inadmissible call specified below, offender's LHO makes a
    // call before a penalty has been assessed, there is no penalty for the offence ... A. a
    // double or redouble not permitted by Law 19, that call and all subsequent calls are
    // cancelled. The auction reverts to the player whose turn it is to call and proceeds as
    // though there had been no irregularity."
    let auction = rec_all(&south_doubles_partner(Code::Rubber), &["P"]);
    let auction = auction.draw_attention_to(2).unwrap().into_auction();
    let option = auction.pending().unwrap().option(OptionKind::Enforce).unwrap();
    assert_eq!((option.chooser, option.law), (Chooser::NonOffendingSide, Law::rubber(35, "A")));
    assert_eq!(shown(&choose(&auction, OptionKind::Enforce)), "N: 1H Pass");
    // The Laws of Rubber Bridge have no Law 36C: the engine gives no contract to score.
    let done = rec_all(&south_doubles_partner(Code::Rubber), &["P", "P", "P"]);
    assert_eq!(contract(&done).contract.to_string(), "1HX by North");
    assert_eq!(done.contract_to_score_if_found_after_opening_lead(), None);
}
