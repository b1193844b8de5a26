//! A call changed because of misinformation from an opponent: duplicate Law 21B, rubber Law 21
//! and Club Law 21, through [`Auction::change_after_misinformation`].
//!
//! Duplicate Law 21B1(a): "Until the end of the auction period (see Law 17D) and provided that
//! his partner has not subsequently called, a player may change a call without other
//! rectification for his side when the Director judges that the decision to make the call
//! could well have been influenced by misinformation given to the player by an opponent."
//! 21B1(b): "The Director is to presume Mistaken Explanation rather than Mistaken Call in the
//! absence of evidence to the contrary." 21B2: "When a player elects to change a call because
//! of misinformation (as in 1 preceding), his LHO may then in turn change any subsequent call
//! he may have made, but Law 16C applies." 21B3: "When it is too late to change a call and the
//! Director judges that the offending side gained an advantage from the irregularity he awards
//! an adjusted score."
//!
//! Rubber Law 21: "Until the auction is closed, a player may, without penalty, change any call
//! he may have made as a result of misinformation given him by an opponent, provided his
//! partner has not subsequently called. If he elects to correct his call, his LHO may then, in
//! turn and without penalty, change any subsequent call he may have made."
#![allow(clippy::unwrap_used)] // tests may unwrap: a panic is the failure report

#[path = "auction_helpers.rs"]
mod helpers;

use helpers::*;
use laws::auction::{Auction, AuctionError, CallStatus, Recorded};
use laws::irregularities::Chooser;
use laws::irregularities::auction::{IrregularityKind, OptionKind, RecordedCall, ReservedAdjustment};
use laws::{CitesLaw, Code, Law, Side};

const DUP: Code = Code::Duplicate;

fn reserved(auction: &Auction, side: Side, law: Law) -> bool {
    auction.reserved_adjustments().contains(&ReservedAdjustment { offending_side: side, law })
}

/// `seat` changes his last call to `text` because of misinformation from `by`.
fn change(auction: &Auction, seat: laws::Seat, text: &str, by: laws::Seat) -> Auction {
    match auction.change_after_misinformation(seat, made(text), by).unwrap_or_else(|e| panic!("{e}")) {
        Recorded::AwaitingRectification(next) => next,
        Recorded::Made(next) => panic!("the change awaits the judgement: {next}"),
    }
}

// ----- duplicate Law 21B -----

#[test]
fn duplicate_law_21b1a_the_director_judges_and_a_changed_call_is_replaced_without_other_rectification() {
    // North opens an artificial 1C that South explains as natural; East, misinformed, passes
    // and at once asks to change to 1S: his partner has not called.
    let auction = change(&digital(N, DUP, &["1C", "P"]), E, "1S", S);
    let pending = auction.pending().unwrap();
    assert_eq!(
        pending.irregularity().kind,
        IrregularityKind::CallChangedAfterMisinformation { first: RecordedCall::Pass, misinformed_by: S }
    );
    assert_eq!(pending.irregularity().offender, E, "the player acting");
    assert_eq!(pending.irregularity().law, Law::duplicate(21, "B1"));
    // "when the Director judges": the judgement is his, both ways.
    assert_eq!(options(&auction), vec![OptionKind::ChangeAfterMisinformation, OptionKind::NoMisinformation]);
    assert!(pending.options().iter().all(|o| o.chooser == Chooser::Official));
    // Nobody calls while the Director rules (Law 9B2).
    assert_eq!(auction.record(S, made("1H")).unwrap_err().law(), Law::duplicate(9, "B2"));

    let changed = choose(&auction, OptionKind::ChangeAfterMisinformation);
    assert_eq!(shown(&changed), "N: 1C 1S");
    assert_eq!(changed.next_to_call(), Some(S));
    assert!(matches!(changed.calls()[1].status, CallStatus::Cancelled { law } if law == Law::duplicate(21, "B1")));
    // "without other rectification for his side": no restriction, no lead penalty; Law 16C:
    // the withdrawn pass is unauthorised only for the side that misinformed.
    assert!(changed.restrictions().is_empty());
    assert!(reserved(&changed, Side::NorthSouth, Law::duplicate(16, "C")));
    assert!(!changed.reserved_adjustments().iter().any(|r| r.offending_side == Side::EastWest));
    let result = contract(&then(&changed, &["P", "P", "P"]));
    assert!(result.lead_penalties.is_empty());
}

#[test]
fn duplicate_law_21a_no_redress_for_a_player_who_acts_on_his_own_misunderstanding() {
    // "No rectification or redress is due to a player who acts on the basis of his own
    // misunderstanding." The Director finds the explanation was right (Law 21B1(b) presumes
    // otherwise only absent evidence): the change is cancelled and the pass stands.
    let auction = change(&digital(N, DUP, &["1C", "P", "1H"]), E, "1S", S);
    let stands = choose(&auction, OptionKind::NoMisinformation);
    assert_eq!(shown(&stands), "N: 1C Pass 1H");
    assert_eq!(stands.next_to_call(), Some(W));
    assert_eq!(stands.calls()[1].status, CallStatus::Made);
    assert!(matches!(stands.calls()[3].status, CallStatus::Cancelled { law } if law == Law::duplicate(21, "A")));
}

#[test]
fn duplicate_law_21b2_his_lho_may_then_in_turn_change_any_subsequent_call_but_law_16c_applies() {
    // East passed over 1C on South's misexplanation; South bid 2H; East changes to 1S.
    let auction = change(&digital(N, DUP, &["1C", "P", "2H"]), E, "1S", S);
    let auction = choose(&auction, OptionKind::ChangeAfterMisinformation);
    // South's 2H is not cancelled: it is his to keep or to change.
    assert_eq!(options(&auction), vec![OptionKind::KeepCall, OptionKind::WithdrawCall]);
    let pending = auction.pending().unwrap();
    assert!(pending.options().iter().all(|o| o.chooser == Chooser::OffendersLho && o.chooser_seat == Some(S)));
    assert!(pending.options().iter().all(|o| o.law == Law::duplicate(21, "B2")));

    let kept = choose(&auction, OptionKind::KeepCall);
    assert_eq!(shown(&kept), "N: 1C 1S 2H");
    assert_eq!(kept.next_to_call(), Some(W));

    let withdrawn = choose(&auction, OptionKind::WithdrawCall);
    assert_eq!(shown(&withdrawn), "N: 1C 1S");
    assert_eq!(withdrawn.next_to_call(), Some(S), "he changes it in turn");
    // "but Law 16C applies": his own withdrawn 2H is unauthorised for his side, the offending
    // side; no restriction on him.
    assert!(reserved(&withdrawn, Side::NorthSouth, Law::duplicate(16, "C")));
    assert!(withdrawn.restrictions().is_empty());
    let rebid = then(&withdrawn, &["2S"]);
    assert_eq!(shown(&rebid), "N: 1C 1S 2S");
}

#[test]
fn duplicate_law_21b2_a_subsequent_call_the_new_call_makes_illegal_is_changed() {
    // South's 1H over East's pass is insufficient over East's 1S: it cannot stand, and South
    // calls again, without penalty beyond Law 16C.
    let auction = change(&digital(N, DUP, &["1C", "P", "1H"]), E, "1S", S);
    let auction = choose(&auction, OptionKind::ChangeAfterMisinformation);
    assert!(auction.pending().is_none());
    assert_eq!(shown(&auction), "N: 1C 1S");
    assert_eq!(auction.next_to_call(), Some(S));
    assert!(auction.restrictions().is_empty());
    assert_eq!(shown(&then(&auction, &["2H"])), "N: 1C 1S 2H");
}

#[test]
fn duplicate_law_21b1a_provided_that_his_partner_has_not_subsequently_called() {
    // West has called after East's pass: too late; Law 21B3 reserves an adjustment instead.
    let auction = digital(N, DUP, &["1C", "P", "1H", "P"]);
    let err = auction.change_after_misinformation(E, made("1S"), S).unwrap_err();
    assert!(matches!(err, AuctionError::TooLateToChange { seat: E, .. }), "{err}");
    assert_eq!(err.law(), Law::duplicate(21, "B3"));
    assert!(err.to_string().contains("partner has called since"), "{err}");
    let reserved_now = auction.misinformation_too_late(E, S).unwrap();
    assert!(reserved(&reserved_now, Side::NorthSouth, Law::duplicate(21, "B3")));
    // North's 1C: South (his partner) has called since.
    let err = auction.change_after_misinformation(N, made("1D"), E).unwrap_err();
    assert_eq!(err.law(), Law::duplicate(21, "B3"));
}

#[test]
fn duplicate_law_21a_misinformation_must_come_from_an_opponent() {
    let auction = digital(N, DUP, &["1C", "P"]);
    for by in [W, E] {
        let err = auction.change_after_misinformation(E, made("1S"), by).unwrap_err();
        assert!(matches!(err, AuctionError::NotMisinformedByOpponent { seat: E, .. }), "{err}");
        assert_eq!(err.law(), Law::duplicate(21, "A"));
    }
    assert!(auction.misinformation_too_late(E, W).is_err());
}

#[test]
fn duplicate_law_21b1a_until_the_end_of_the_auction_period_so_in_the_clarification_period() {
    // Law 17D1: "The auction period ends when, subsequent to the end of the auction as in Law
    // 22A, either defender faces an opening lead." After the final pass, before the lead is
    // faced, East (the last to pass) changes his pass: the auction reopens.
    let closed = digital(N, DUP, &["1S", "P", "4S", "P", "P", "P"]);
    assert!(closed.is_closed());
    let auction = change(&closed, E, "5H", N);
    let auction = choose(&auction, OptionKind::ChangeAfterMisinformation);
    assert!(!auction.is_closed());
    assert_eq!(shown(&auction), "N: 1S Pass 4S Pass Pass 5H");
    assert_eq!(auction.next_to_call(), Some(S));
    // North, whose pass East's followed, may change his too; East may then change his pass.
    let auction = change(&closed, N, "5S", E);
    let auction = choose(&auction, OptionKind::ChangeAfterMisinformation);
    assert_eq!(options(&auction), vec![OptionKind::KeepCall, OptionKind::WithdrawCall]);
    let kept = choose(&auction, OptionKind::KeepCall);
    assert_eq!(shown(&kept), "N: 1S Pass 4S Pass 5S Pass");
    assert!(!kept.is_closed());
    // West's pass: East, his partner, has called since.
    let err = closed.change_after_misinformation(W, made("X"), S).unwrap_err();
    assert_eq!(err.law(), Law::duplicate(21, "B3"));
}

#[test]
fn law_21_the_new_call_must_be_one_he_could_make_in_place_of_the_changed_call() {
    // An insufficient bid in place of the pass: Law 27 names what is wrong with it.
    let auction = digital(N, DUP, &["1D", "P"]);
    let err = auction.change_after_misinformation(E, made("1C"), S).unwrap_err();
    assert!(matches!(err, AuctionError::InsufficientBid { .. }), "{err}");
    // A double of partner's bid (Law 19).
    let err = digital(N, DUP, &["1D", "P", "P"]).change_after_misinformation(S, made("X"), E).unwrap_err();
    assert!(matches!(err, AuctionError::InadmissibleDouble { .. }), "{err}");
    // A player with no call has nothing to change.
    let err = auction.change_after_misinformation(S, made("1S"), E).unwrap_err();
    assert!(matches!(err, AuctionError::NoCallToChange { seat: S, .. }), "{err}");
    assert_eq!(err.law().number, 21);
}

#[test]
fn law_21_nothing_is_changed_while_another_irregularity_awaits_rectification() {
    // West's insufficient bid is pending: Law 9B2 first.
    let auction = rec(&digital(N, DUP, &["1D", "1S", "P"]), W, "1H");
    let err = auction.change_after_misinformation(E, made("2S"), N).unwrap_err();
    assert!(matches!(err, AuctionError::RectificationPending { .. }), "{err}");
    // And a pending change holds up everything else, a second change included.
    let auction = change(&digital(N, DUP, &["1C", "P"]), E, "1S", S);
    assert!(auction.change_after_misinformation(E, made("1H"), S).is_err());
}

#[test]
fn law_21_an_artificial_new_call_keeps_what_it_relates_to() {
    use laws::cards::{Suit, SuitSet};
    let suits: SuitSet = [Suit::Hearts, Suit::Spades].into_iter().collect();
    let auction =
        digital(N, DUP, &["1NT", "P"]).change_after_misinformation_artificial(E, made("2C"), S, suits).unwrap();
    let auction = choose(&auction.into_auction(), OptionKind::ChangeAfterMisinformation);
    let entry = auction.calls().last().unwrap();
    assert_eq!((entry.seat, entry.call, entry.relates_to), (E, made("2C"), Some(suits)));
}

// ----- rubber Law 21 and Club Law 21 -----

#[test]
fn rubber_law_21_a_call_may_be_changed_without_penalty_until_the_auction_is_closed() {
    let auction = change(&digital(N, Code::Rubber, &["1C", "P", "2H"]), E, "1S", S);
    let pending = auction.pending().unwrap();
    assert_eq!(pending.irregularity().law, Law::rubber(21, ""));
    // The players settle it, the side that gave the explanation agreeing (either of them; the
    // record's offender is East, the player changing his call).
    assert!(pending.options().iter().all(|o| o.chooser == Chooser::NonOffendingSide && o.chooser_seat.is_none()));
    let auction = choose(&auction, OptionKind::ChangeAfterMisinformation);
    // "his LHO may then, in turn and without penalty, change any subsequent call".
    assert!(auction.pending().unwrap().options().iter().all(|o| o.law == Law::rubber(21, "")));
    let withdrawn = choose(&auction, OptionKind::WithdrawCall);
    assert_eq!(shown(&withdrawn), "N: 1C 1S");
    assert_eq!(withdrawn.next_to_call(), Some(S));
    // "without penalty": nothing reserved, nothing restricted.
    assert!(withdrawn.reserved_adjustments().is_empty());
    assert!(withdrawn.restrictions().is_empty());
}

#[test]
fn rubber_law_21_until_the_auction_is_closed() {
    // East passed last; the auction is closed, so under the rubber Laws it is too late.
    let closed = digital(N, Code::Rubber, &["1S", "P", "4S", "P", "P", "P"]);
    let err = closed.change_after_misinformation(E, made("5H"), N).unwrap_err();
    assert!(matches!(err, AuctionError::TooLateToChange { seat: E, .. }), "{err}");
    assert_eq!(err.law(), Law::rubber(21, ""));
    assert!(err.to_string().contains("the auction is closed"), "{err}");
    // "If it is too late to change a call, and it is determined at the end of play that the
    // offending side has gained advantage from the irregularity, an adjusted score should be
    // determined."
    assert!(reserved(&closed.misinformation_too_late(E, N).unwrap(), Side::NorthSouth, Law::rubber(21, "")));
}

#[test]
fn club_law_21_the_arbiter_is_called_and_may_adjust_at_the_end_of_play() {
    // Club Law 21: "When it is determined that misinformation has been given the Arbiter
    // should be called. ... at the end of play if the Arbiter determines that the
    // non-offending side was damaged due to the irregularity he should award an adjusted
    // score."
    let auction = change(&digital(N, Code::Club, &["1C", "P"]), E, "1S", S);
    let pending = auction.pending().unwrap();
    assert_eq!(pending.irregularity().law, Law::club(21, ""));
    assert!(pending.options().iter().all(|o| o.chooser == Chooser::Official));
    let changed = choose(&auction, OptionKind::ChangeAfterMisinformation);
    assert_eq!(shown(&changed), "N: 1C 1S");
    assert!(reserved(&changed, Side::NorthSouth, Law::club(21, "")));
    // "Regular Law 21 stands": until the auction is closed.
    let closed = digital(N, Code::Club, &["1S", "P", "4S", "P", "P", "P"]);
    assert_eq!(closed.change_after_misinformation(E, made("5H"), N).unwrap_err().law(), Law::club(21, ""));
}
