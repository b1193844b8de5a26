//! One irregularity at a time: while an irregularity awaits rectification no player may act
//! (rubber Law 13, Club Law 13, duplicate Law 9B2), so a second irregularity is refused with
//! the Law, except for the calls the Laws give a meaning before rectification.
#![allow(clippy::unwrap_used)] // tests may unwrap: a panic is the failure report

#[path = "auction_helpers.rs"]
mod helpers;

use helpers::*;
use laws::auction::{Auction, AuctionError};
use laws::cards::SuitSet;
use laws::cards::{Card, Rank, Suit};
use laws::irregularities::auction::{IrregularityKind, OptionKind};
use laws::{CitesLaw, Code, Law, Seat};

/// East's insufficient 1H over North's 1S, awaiting rectification.
fn insufficient(code: Code) -> Auction {
    let auction = rec(&digital(N, code, &["1S"]), E, "1H");
    assert_eq!(pending_kind(&auction), IrregularityKind::InsufficientBid { over: bid("1S") });
    auction
}

/// Every action but the lawful ones is refused while East's insufficient bid is pending, with
/// the error citing `law` and naming the pending irregularity.
fn refuses_every_other_action(auction: &Auction, law: Law) {
    let refused = |what: &str, result: Result<laws::auction::Recorded, AuctionError>| {
        let err = result.err().unwrap_or_else(|| panic!("{what} was accepted"));
        assert!(matches!(&err, AuctionError::RectificationPending { irregularity, .. } if irregularity.offender == E));
        assert_eq!(err.law(), law, "{what}");
    };
    // The offender's partner calling at what would be his turn: a call out of rotation.
    refused("West's call", auction.record(W, made("2H")));
    // The offender's right-hand opponent (non-offending) calling out of turn.
    refused("North's call", auction.record(N, made("2S")));
    // An inadmissible double by the offender's partner, noticed or not.
    refused("West's double", auction.record(W, made("X")));
    refused("West's unnoticed double", auction.record_unnoticed(W, made("X")));
    refused("an artificial call", auction.record_artificial(N, made("2C"), SuitSet::single(Suit::Hearts)));
    // A change of call by anyone but the offender.
    refused("North's change of call", auction.change_call(N, made("2S")));
    // A card exposed during the auction (Law 24) waits too.
    refused("West's exposed card", auction.expose_cards(W, &[Card::new(Suit::Spades, Rank::Ace)], false));
    // Digital play is refused as well.
    let err = auction.call(call("2S")).unwrap_err();
    assert_eq!(err.law(), law);
    assert!(auction.legal_calls().is_empty());
}

#[test]
fn duplicate_law_9b2_no_player_takes_any_action_until_the_director_has_explained_the_rectification() {
    // Law 9B2: "No player shall take any action until the Director has explained all matters
    // in regard to rectification."
    let auction = insufficient(Code::Duplicate);
    refuses_every_other_action(&auction, Law::duplicate(9, "B2"));
    // The calls the Laws give a meaning before rectification are taken: the offender's LHO
    // accepts by calling (Law 27A1) ...
    assert!(rec(&auction, S, "P").pending().is_none());
    // ... and the offender's premature replacement stands to be ruled on (Law 27C, Law 9C).
    let premature = rec(&auction, E, "2H");
    assert_eq!(pending_kind(&premature), IrregularityKind::InsufficientBid { over: bid("1S") });
    // Once the first irregularity is settled, the next one can be recorded and rectified.
    let settled =
        choose_call(&choose(&auction, OptionKind::RejectInsufficientBid), OptionKind::LowestSufficientBid, "2H");
    let second = rec(&settled, N, "2S");
    assert!(matches!(pending_kind(&second), IrregularityKind::CallOutOfRotation { turn_of: Seat::South, .. }));
}

#[test]
fn rubber_law_13_no_player_should_call_until_the_penalty_is_determined() {
    // Law 13: "After attention has been drawn to an irregularity, no player should call or play
    // until all questions in regard to the assessment of a penalty have been determined.
    // Premature correction of an irregularity on the part of the offender may subject him to
    // further penalty (see Law 26)."
    let auction = insufficient(Code::Rubber);
    refuses_every_other_action(&auction, Law::rubber(13, ""));
    // The offender's premature correction is recorded, to be cancelled with Law 26 (footnote 9).
    let premature = rec(&auction, E, "2D");
    assert!(options(&premature).contains(&OptionKind::UnintendedCall));
}

#[test]
fn club_law_13_no_player_should_call_until_the_arbiter_has_explained_all_matters() {
    // Club Law 13: "No player should call or play until the Arbiter has determined and
    // explained all matters in regard to the irregularity."
    refuses_every_other_action(&insufficient(Code::Club), Law::club(13, ""));
}

#[test]
fn an_unnoticed_inadmissible_double_cannot_be_raised_while_another_irregularity_is_pending() {
    // Law 9B2 again: attention to a second irregularity waits for the first to be settled.
    let auction = unnoticed_then_insufficient();
    let err = auction.draw_attention_to(2).unwrap_err();
    assert_eq!(err.law(), Law::duplicate(9, "B2"));
}

/// North 1H, East pass, South doubles his partner's bid unnoticed, West passes, North 1C
/// (insufficient) is pending.
fn unnoticed_then_insufficient() -> Auction {
    let auction = digital(N, Code::Duplicate, &["1H", "P"]);
    let auction = auction.record_unnoticed(S, made("X")).unwrap().into_auction();
    rec(&rec(&auction, W, "P"), N, "1C")
}
