//! Auction irregularities under the 2017 Laws of Duplicate Bridge, where they differ from
//! rubber bridge: comparable calls (Law 23), lead restrictions (Law 26B), the insufficient bid
//! (Law 27), calls out of rotation (Laws 29-32), inadmissible calls (Laws 36-39), changes of
//! call (Law 25) and exposed cards (Law 24). One test per Law case, with the auction cases of
//! docs/worked-cases.md ("Duplicate cases").
#![allow(clippy::unwrap_used)] // tests may unwrap: a panic is the failure report

#[path = "auction_helpers.rs"]
mod helpers;

use helpers::*;
use laws::auction::{Auction, AuctionError, CallStatus};
use laws::cards::{Card, Suit};
use laws::irregularities::Chooser;
use laws::irregularities::auction::{
    AfterCloseRole, AuctionChoice, IrregularityKind, OptionKind, ReservedAdjustment, TurnOf,
};
use laws::penalty::{LeadPenalty, PendingLeadPenalty};
use laws::{CitesLaw, Code, Law, Seat, Side};

const DUP: Code = Code::Duplicate;

fn forbid_one_of(player: Seat, suits: &[Suit]) -> PendingLeadPenalty {
    PendingLeadPenalty { player, penalty: LeadPenalty::ForbidOneOf(suits.to_vec()), law: Law::duplicate(26, "B") }
}

fn reserved(auction: &Auction, side: Side, law: Law) -> bool {
    auction.reserved_adjustments().contains(&ReservedAdjustment { offending_side: side, law })
}

// ----- Law 27 -----

#[test]
fn law_27a1_south_accepts_1s_by_calling_and_it_stands_as_legal() {
    // The case: N 1NT - E 1S; S accepts 1S by calling, and 1S stands as legal (Law 27A1).
    let auction = rec(&digital(N, DUP, &["1NT"]), E, "1S");
    let accept = auction.pending().unwrap().option(OptionKind::AcceptByCalling).unwrap();
    assert_eq!((accept.chooser, accept.law), (Chooser::OffendersLho, Law::duplicate(27, "A1")));
    let auction = rec(&auction, S, "2C");
    assert_eq!(shown(&auction), "N: 1NT 1S 2C");
}

#[test]
fn law_27b1a_1nt_1s_not_accepted_corrected_to_2s_no_rectification_but_law_27d() {
    // The case: E changes to 2S: no rectification (Law 27B1(a)); adjust only under Law 27D.
    let auction = choose(&rec(&digital(N, DUP, &["1NT"]), E, "1S"), OptionKind::RejectInsufficientBid);
    let reject_law = Law::duplicate(27, "B");
    assert_eq!(auction.pending().unwrap().irregularity().law, Law::duplicate(27, ""));
    assert_eq!(
        options(&auction),
        vec![
            OptionKind::LowestSufficientBid,
            OptionKind::ComparableCall,
            OptionKind::OtherSufficientBidOrPass,
            OptionKind::DoubleOrRedouble,
            OptionKind::AnotherInsufficientBid
        ]
    );
    let auction = choose_call(&auction, OptionKind::LowestSufficientBid, "2S");
    assert_eq!(shown(&auction), "N: 1NT 2S");
    assert!(auction.restrictions().is_empty());
    assert!(reserved(&auction, Side::EastWest, Law::duplicate(27, "D")));
    assert!(!reserved(&auction, Side::EastWest, Law::duplicate(16, "C")), "Law 16C does not apply");
    assert_eq!(auction.calls()[1].status, CallStatus::Cancelled { law: reject_law });
    assert!(contract(&then(&auction, &["P", "P", "P"])).lead_penalties.is_empty());
}

#[test]
fn law_27b1b_a_comparable_replacement_is_the_directors_ruling_and_no_further_rectification() {
    // The director's guide's example: 2C-2S-2D, the 2D meant as a negative, is not accepted
    // and the bidder corrects it to Pass, a comparable call: no penalty.
    let auction = rec(&digital(N, DUP, &["2C", "2S"]), S, "2D");
    let auction = choose(&auction, OptionKind::RejectInsufficientBid);
    let option = auction.pending().unwrap().option(OptionKind::ComparableCall).unwrap();
    assert_eq!(option.chooser, Chooser::Official);
    let auction = choose_call(&auction, OptionKind::ComparableCall, "P");
    assert_eq!(shown(&auction), "N: 2C 2S Pass");
    assert!(auction.restrictions().is_empty());
    let result = contract(&then(&auction, &["P", "P"]));
    assert!(result.lead_penalties.is_empty());
}

#[test]
fn law_27b2_e_changes_to_3s_not_comparable_west_passes_throughout_and_law_26b() {
    // The case: E changes to 3S (not comparable): W passes for the rest of the auction
    // (Law 27B2). If EW defend, declarer may ban one suit that E has not specified on W's
    // first lead (Law 26B).
    let auction = choose(&rec(&digital(N, DUP, &["1NT"]), E, "1S"), OptionKind::RejectInsufficientBid);
    let auction = choose_call(&auction, OptionKind::OtherSufficientBidOrPass, "3S");
    assert!(barred_throughout(&auction, W));
    assert!(reserved(&auction, Side::EastWest, Law::duplicate(72, "C")));
    let result = contract(&then(&auction, &["3NT", "P", "P", "P"]));
    assert_eq!(result.contract.to_string(), "3NT by North");
    assert_eq!(result.lead_penalties, vec![forbid_one_of(W, &[Suit::Clubs, Suit::Diamonds, Suit::Hearts])]);
}

#[test]
fn law_27b3_an_attempted_double_is_cancelled_partner_passes_throughout_and_the_offender_replaces_it() {
    // The case: E tries a double (not comparable): it is cancelled; E must make a legal bid or
    // pass; W passes throughout (Law 27B3).
    let auction = choose(&rec(&digital(N, DUP, &["1NT"]), E, "1S"), OptionKind::RejectInsufficientBid);
    let auction = choose_call(&auction, OptionKind::DoubleOrRedouble, "X");
    assert!(barred_throughout(&auction, W));
    assert!(matches!(pending_kind(&auction), IrregularityKind::InsufficientBid { .. }));
    assert!(!options(&auction).contains(&OptionKind::DoubleOrRedouble));
    let auction = choose_call(&auction, OptionKind::LowestSufficientBid, "2S");
    assert_eq!(shown(&auction), "N: 1NT 2S");
    assert!(barred_throughout(&auction, W), "partner stays barred whatever the replacement");
    let result = contract(&then(&auction, &["3NT", "P", "P", "P"]));
    assert_eq!(result.lead_penalties, vec![forbid_one_of(W, &[Suit::Clubs, Suit::Diamonds, Suit::Hearts])]);
}

#[test]
fn law_27b4_a_second_insufficient_bid_is_ruled_as_27b3_unless_the_lho_accepts_it() {
    let first = choose(&rec(&digital(N, DUP, &["1NT"]), E, "1S"), OptionKind::RejectInsufficientBid);
    let second = choose_call(&first, OptionKind::AnotherInsufficientBid, "1H");
    assert_eq!(options(&second), vec![OptionKind::AcceptByCalling, OptionKind::RejectInsufficientBid]);
    // South accepts the second insufficient bid by calling.
    let accepted = rec(&second, S, "P");
    assert_eq!(shown(&accepted), "N: 1NT 1H Pass");
    assert!(accepted.restrictions().is_empty());
    // Or does not: West is barred and East must replace it.
    let rejected = choose(&second, OptionKind::RejectInsufficientBid);
    assert!(barred_throughout(&rejected, W));
    // The offender replaces his (first) insufficient 1S: its lowest sufficient bid is 2S.
    let lowest = rejected.pending().unwrap().option(OptionKind::LowestSufficientBid).unwrap();
    assert_eq!(lowest.call, laws::irregularities::auction::CallRequirement::Exactly(call("2S")));
    assert!(!options(&rejected).contains(&OptionKind::DoubleOrRedouble), "27B3 has been applied");
    let rejected = choose_call(&rejected, OptionKind::OtherSufficientBidOrPass, "2H");
    assert_eq!(shown(&rejected), "N: 1NT 2H");
    let statuses: Vec<CallStatus> = rejected.calls().iter().map(|e| e.status).collect();
    assert_eq!(
        statuses,
        vec![
            CallStatus::Made,
            CallStatus::Cancelled { law: Law::duplicate(27, "B") },
            CallStatus::Cancelled { law: Law::duplicate(27, "B4") },
            CallStatus::Made,
        ]
    );
}

#[test]
fn law_27c_a_premature_replacement_stands_unless_the_insufficient_bid_is_accepted_and_is_ruled_on() {
    // "If the offender replaces his insufficient bid before the Director has ruled on
    // rectification the substitution, if legal, stands unless the insufficient bid is accepted
    // as A1 allows. The Director applies the relevant foregoing section to the substitution."
    let auction = rec(&rec(&digital(N, DUP, &["1NT"]), E, "1S"), E, "3S");
    // Accepted: the insufficient 1S stands and the premature 3S is withdrawn.
    let accepted = rec(&auction, S, "P");
    assert_eq!(shown(&accepted), "N: 1NT 1S Pass");
    // Not accepted: 3S stands, and the director rules on it under 27B.
    let ruled = choose(&auction, OptionKind::RejectInsufficientBid);
    assert_eq!(options(&ruled), vec![OptionKind::ComparableCall, OptionKind::OtherSufficientBidOrPass]);
    assert!(ruled.pending().unwrap().options().iter().all(|o| o.chooser == Chooser::Official));
    let err = ruled.rectify(AuctionChoice::with_call(OptionKind::OtherSufficientBidOrPass, call("4S"))).unwrap_err();
    assert!(matches!(err, AuctionError::ReplacementNotAllowed { .. }), "{err}");
    let ruled = choose_call(&ruled, OptionKind::OtherSufficientBidOrPass, "3S");
    assert_eq!(shown(&ruled), "N: 1NT 3S");
    assert!(barred_throughout(&ruled, W));
}

// ----- Laws 28-32 -----

#[test]
fn law_30a_dealer_north_east_passes_at_norths_turn_cancelled_east_must_pass_at_his_next_turn() {
    // The case: dealer N; E passes out of rotation (at his right-hand opponent's turn): it is
    // cancelled unless S calls over it (Law 29A). N calls; E must pass at his next turn (Law 30A).
    let auction = rec(&Auction::new(N, DUP), E, "P");
    let cancel = auction.pending().unwrap().option(OptionKind::CancelCall).unwrap();
    assert_eq!((cancel.chooser, cancel.law), (Chooser::Official, Law::duplicate(30, "A")));
    let auction = choose(&auction, OptionKind::CancelCall);
    let auction = then(&auction, &["1H"]);
    assert_eq!(auction.call(call("1S")).unwrap_err().law(), Law::duplicate(30, "A"));
    let auction = then(&auction, &["P"]);
    assert!(auction.restrictions().is_empty());
}

#[test]
fn law_30b1_pass_at_partners_turn_the_offender_calls_freely_a_non_comparable_call_bars_partner_once() {
    // North 1H; West passes at East's turn; East calls freely (16C2); West's own call at his
    // turn is ruled comparable or not.
    let auction = choose(&rec(&digital(N, DUP, &["1H"]), W, "P"), OptionKind::CancelCall);
    assert!(auction.restrictions().is_empty(), "partner may make any legal call");
    let auction = then(&auction, &["X", "2H", "3C"]);
    assert_eq!(
        pending_kind(&auction),
        IrregularityKind::ComparableCallQuestion { withdrawn: made("P"), replacement: call("3C") }
    );
    assert!(auction.call(call("P")).is_err(), "nobody calls until the director rules");
    let comparable = choose(&auction, OptionKind::Comparable);
    assert!(comparable.restrictions().is_empty());
    assert!(reserved(&comparable, Side::EastWest, Law::duplicate(23, "C")));
    let not = choose(&auction, OptionKind::NotComparable);
    assert!(barred_next_turn(&not, E));
    let result = contract(&then(&not, &["3H", "P", "P", "P"]));
    assert_eq!(result.lead_penalties, vec![forbid_one_of(E, &[Suit::Diamonds, Suit::Hearts, Suit::Spades])]);
}

#[test]
fn law_31a1_bid_at_rhos_turn_rho_passes_and_the_offender_must_repeat_it_without_rectification() {
    let auction = choose(&rec(&Auction::new(N, DUP), E, "1H"), OptionKind::CancelCall);
    let auction = then(&auction, &["P"]);
    assert_eq!(auction.call(call("2H")).unwrap_err().law(), Law::duplicate(31, "A1"));
    let auction = then(&auction, &["1H", "P", "P", "P"]);
    assert!(contract(&auction).lead_penalties.is_empty());
}

#[test]
fn law_31a2_bid_at_rhos_turn_rho_bids_the_offenders_call_is_ruled_comparable_or_not() {
    let auction = choose(&rec(&Auction::new(N, DUP), E, "1H"), OptionKind::CancelCall);
    let auction = then(&auction, &["1S", "2H"]);
    let pending = auction.pending().unwrap();
    assert_eq!(pending.irregularity().law, Law::duplicate(23, "A"));
    let not = pending.option(OptionKind::NotComparable).unwrap();
    assert_eq!(not.law, Law::duplicate(31, "A2"));
    let comparable = choose(&auction, OptionKind::Comparable);
    assert!(comparable.restrictions().is_empty());
    assert!(contract(&then(&comparable, &["P", "P", "P"])).lead_penalties.is_empty());
}

#[test]
fn law_31b_east_bids_1h_at_partner_wests_turn_west_calls_freely_a_non_comparable_call_bars_him_once() {
    // The case: E bids 1H at partner W's turn (out of rotation), not accepted: W may call
    // (Law 16C2). If E's call at his turn is not comparable, W must pass at W's next turn, plus
    // Laws 26B and 72C (Law 31B).
    let auction = rec(&digital(N, DUP, &["P", "P", "P"]), E, "1H");
    assert_eq!(pending_kind(&auction), IrregularityKind::CallOutOfRotation { turn_of: W, position: TurnOf::Partner });
    let auction = choose(&auction, OptionKind::CancelCall);
    assert!(reserved(&auction, Side::EastWest, Law::duplicate(16, "C2")));
    let auction = then(&auction, &["1S", "P", "2C"]);
    let auction = choose(&auction, OptionKind::NotComparable);
    assert!(barred_next_turn(&auction, W));
    assert!(reserved(&auction, Side::EastWest, Law::duplicate(72, "C")));
}

#[test]
fn law_29c_30c_an_artificial_pass_out_of_rotation_is_dealt_with_under_law_31() {
    let auction = rec(&Auction::new(N, DUP), E, "P");
    let artificial = auction.pending().unwrap().option(OptionKind::CancelAsArtificialPass).unwrap();
    assert_eq!((artificial.chooser, artificial.law), (Chooser::Official, Law::duplicate(31, "A")));
    let auction = choose(&auction, OptionKind::CancelAsArtificialPass);
    // At RHO's turn, as a bid: if RHO passes, the offender must repeat the pass.
    let auction = then(&auction, &["P"]);
    assert!(auction.call(call("1C")).is_err());
    assert!(auction.call(call("P")).is_ok());
}

#[test]
fn law_32_an_admissible_double_out_of_rotation_at_partners_turn_offender_ruled_as_32a2() {
    let auction = choose(&rec(&digital(N, DUP, &["1H"]), W, "X"), OptionKind::CancelCall);
    assert!(auction.restrictions().is_empty(), "Law 32B1: partner may make any legal call");
    let auction = then(&auction, &["P", "P", "X"]);
    let auction = choose(&auction, OptionKind::Comparable);
    assert!(auction.restrictions().is_empty());
    assert_eq!(contract(&then(&auction, &["P", "P", "P"])).contract.to_string(), "1HX by North");
}

#[test]
fn law_32a2_double_at_rhos_turn_rho_bids_a_non_comparable_call_bars_partner_once_and_law_26b() {
    let auction = choose(&rec(&digital(N, DUP, &["1H", "P"]), W, "X"), OptionKind::CancelCall);
    let auction = then(&auction, &["2H", "P"]);
    let auction = choose(&auction, OptionKind::NotComparable);
    assert!(barred_next_turn(&auction, E));
    let result = contract(&then(&auction, &["P", "P"]));
    assert_eq!(result.lead_penalties, vec![forbid_one_of(E, &Suit::ALL)]);
}

// ----- Laws 36-39 -----

#[test]
fn law_36a_the_lho_calls_before_rectification_the_inadmissible_double_and_later_calls_are_cancelled() {
    let auction = rec(&rec(&digital(N, DUP, &["1H", "P"]), S, "X"), W, "P");
    assert_eq!(shown(&auction), "N: 1H Pass");
    assert!(auction.restrictions().is_empty());
}

#[test]
fn law_36b_the_double_is_cancelled_the_offender_substitutes_a_legal_call_partner_passes_throughout() {
    let auction = rec(&digital(N, DUP, &["1H", "P"]), S, "X");
    let enforce = auction.pending().unwrap().option(OptionKind::Enforce).unwrap();
    assert_eq!((enforce.chooser, enforce.law), (Chooser::Official, Law::duplicate(36, "B2")));
    assert!(!options(&auction).contains(&OptionKind::Waive), "players may not waive (Law 10A)");
    let auction = choose(&auction, OptionKind::Enforce);
    assert!(barred_throughout(&auction, N));
    let result = contract(&then(&auction, &["P", "1S", "P", "P", "P"]));
    // South, the offender, specified no suit in the legal auction (he passed twice).
    assert_eq!(result.lead_penalties, vec![forbid_one_of(N, &Suit::ALL)]);
}

#[test]
fn law_36b4_an_inadmissible_double_out_of_turn_reverts_to_the_player_in_turn_partner_passes_throughout() {
    // Dealer North: East doubles before North has called (nothing to double).
    let auction = rec(&Auction::new(N, DUP), E, "X");
    assert!(matches!(pending_kind(&auction), IrregularityKind::InadmissibleDouble { out_of_rotation: true, .. }));
    let auction = choose(&auction, OptionKind::Enforce);
    assert_eq!(auction.next_to_call(), Some(N));
    assert!(barred_throughout(&auction, W));
    let enforce_law = Law::duplicate(36, "B4");
    assert!(auction.restrictions().iter().all(|r| r.law() == enforce_law));
}

#[test]
fn law_37a_the_lho_calls_before_rectification_the_call_stands_but_a_pass_throughout_still_binds() {
    // West is barred for the rest of the auction (Law 27B2), then bids; North calls over it.
    let auction = choose(&rec(&digital(N, DUP, &["1NT"]), E, "1S"), OptionKind::RejectInsufficientBid);
    let auction = choose_call(&auction, OptionKind::OtherSufficientBidOrPass, "3S");
    let auction = rec(&then(&auction, &["P"]), W, "4S");
    assert!(matches!(pending_kind(&auction), IrregularityKind::CallWhenRequiredToPass { .. }));
    let auction = rec(&auction, N, "P");
    assert_eq!(shown(&auction), "N: 1NT 3S Pass 4S Pass");
    assert!(barred_throughout(&auction, W), "he must still pass at later turns");
}

#[test]
fn law_37b_a_call_by_a_player_required_to_pass_is_cancelled_a_pass_substituted_and_the_side_barred() {
    let auction = choose(&rec(&Auction::new(N, DUP), E, "P"), OptionKind::CancelCall);
    let auction = rec(&then(&auction, &["1H"]), E, "1S");
    let auction = choose(&auction, OptionKind::Enforce);
    assert_eq!(shown(&auction), "N: 1H Pass");
    assert_eq!(auction.calls().last().unwrap().status, CallStatus::Substituted { law: Law::duplicate(37, "B") });
    assert!(barred_throughout(&auction, E) && barred_throughout(&auction, W));
}

#[test]
fn law_38_a_bid_of_8c_is_cancelled_a_pass_substituted_and_the_offending_side_passes_throughout() {
    // The case: a bid of 8C is cancelled along with later calls; a pass is substituted; the
    // offending side passes throughout (Law 38).
    let auction = rec(&digital(N, DUP, &["7NT"]), E, "8C");
    let auction = choose(&auction, OptionKind::Enforce);
    assert_eq!(shown(&auction), "N: 7NT Pass");
    assert!(barred_throughout(&auction, E) && barred_throughout(&auction, W));
    let result = contract(&then(&auction, &["P", "P"]));
    assert_eq!(result.lead_penalties, vec![forbid_one_of(W, &Suit::ALL)]);
}

#[test]
fn law_38d_if_the_lho_called_the_side_still_passes_throughout_but_there_is_no_recourse_to_26b_or_72c() {
    let auction = rec(&rec(&digital(N, DUP, &["7NT"]), E, "8C"), S, "P");
    assert_eq!(shown(&auction), "N: 7NT Pass");
    assert!(barred_throughout(&auction, E) && barred_throughout(&auction, W));
    assert!(!reserved(&auction, Side::EastWest, Law::duplicate(72, "C")));
    assert!(contract(&then(&auction, &["P", "P"])).lead_penalties.is_empty());
}

#[test]
fn law_39_a_bid_by_a_defender_after_the_final_pass_is_cancelled_and_26b_may_apply() {
    let auction = rec(&digital(N, DUP, &["1H", "P", "P", "P"]), E, "2S");
    assert_eq!(pending_kind(&auction), IrregularityKind::CallAfterClose { role: AfterCloseRole::Defender });
    let enforce = auction.pending().unwrap().option(OptionKind::Enforce).unwrap();
    assert_eq!(enforce.law, Law::duplicate(39, "C"));
    let result = contract(&choose(&auction, OptionKind::Enforce));
    assert_eq!(result.lead_penalties, vec![forbid_one_of(W, &Suit::ALL)]);
    // A pass by a defender: no further rectification (39B).
    let pass = rec(&digital(N, DUP, &["1H", "P", "P", "P"]), E, "P");
    assert!(contract(&choose(&pass, OptionKind::Enforce)).lead_penalties.is_empty());
}

#[test]
fn law_26b_the_suits_the_offender_specified_in_the_legal_auction_may_not_be_forbidden() {
    // West is barred (27B2 after East's insufficient 1S replaced by 2H); East later names
    // spades and hearts; declarer may forbid clubs or diamonds.
    let auction = choose(&rec(&digital(N, DUP, &["1NT"]), E, "1S"), OptionKind::RejectInsufficientBid);
    let auction = choose_call(&auction, OptionKind::OtherSufficientBidOrPass, "2H");
    let auction = then(&auction, &["2NT", "P", "P", "3S", "3NT", "P", "P", "P"]);
    let result = contract(&auction);
    assert_eq!(result.contract.to_string(), "3NT by North");
    assert_eq!(result.lead_penalties, vec![forbid_one_of(W, &[Suit::Clubs, Suit::Diamonds])]);
}

// ----- Law 25 -----

#[test]
fn law_25a_an_unintended_call_may_be_replaced_until_partner_calls_and_the_lho_may_withdraw_his_call() {
    // North means 1S but pulls 1H; East passes; North notices before South calls.
    let auction = digital(N, DUP, &["1H", "P"]);
    let auction = auction.change_call(N, made("1S")).unwrap().into_auction();
    assert_eq!(options(&auction), vec![OptionKind::UnintendedCall, OptionKind::SubstitutionCancelled]);
    let auction = choose(&auction, OptionKind::UnintendedCall);
    assert_eq!(options(&auction), vec![OptionKind::KeepCall, OptionKind::WithdrawCall]);
    let kept = choose(&auction, OptionKind::KeepCall);
    assert_eq!(shown(&kept), "N: 1S Pass");
    assert_eq!(kept.next_to_call(), Some(S));
    let withdrawn = choose(&auction, OptionKind::WithdrawCall);
    assert_eq!(shown(&withdrawn), "N: 1S");
    assert_eq!(withdrawn.next_to_call(), Some(E));
    assert!(reserved(&withdrawn, Side::NorthSouth, Law::duplicate(25, "A6")), "unauthorized to the opponents");
    // Once partner has called, no substitution.
    let err = digital(N, DUP, &["1H", "P", "2H"]).change_call(N, made("1S")).unwrap_err();
    assert_eq!(err.law(), Law::duplicate(25, ""));
}

#[test]
fn law_25a_a_call_by_the_lho_that_the_intended_call_makes_illegal_is_withdrawn() {
    // North pulls 1H meaning 2S; East bids 1S over it; 1S is insufficient over 2S.
    let auction = digital(N, DUP, &["1H", "1S"]).change_call(N, made("2S")).unwrap().into_auction();
    let auction = choose(&auction, OptionKind::UnintendedCall);
    assert!(auction.pending().is_none());
    assert_eq!(shown(&auction), "N: 2S");
    assert_eq!(auction.next_to_call(), Some(E));
}

#[test]
fn law_25b2_a_substitution_not_permitted_by_25a_is_cancelled_the_original_call_stands_and_26_may_apply() {
    let auction = rec(&rec(&Auction::new(N, DUP), N, "1H"), N, "1S");
    let auction = choose(&auction, OptionKind::SubstitutionCancelled);
    assert_eq!(shown(&auction), "N: 1H");
    let result = contract(&then(&auction, &["2C", "P", "P", "P"]));
    assert_eq!(result.lead_penalties, vec![forbid_one_of(S, &[Suit::Clubs, Suit::Diamonds, Suit::Spades])]);
}

#[test]
fn law_25b1_the_lho_accepts_the_changed_call_by_calling_over_it_and_the_director_rules_on_26() {
    let auction = rec(&rec(&Auction::new(N, DUP), N, "1H"), N, "1S");
    let auction = rec(&auction, E, "P");
    assert_eq!(shown(&auction), "N: 1S Pass");
    let pending = auction.pending().unwrap();
    assert!(matches!(pending.irregularity().kind, IrregularityKind::ComparableCallQuestion { .. }));
    let not = choose(&auction, OptionKind::NotComparable);
    assert!(not.restrictions().is_empty(), "Law 25B1 bars nobody");
    let result = contract(&then(&not, &["P", "2H", "P", "P", "P"]));
    assert_eq!(result.contract.to_string(), "2H by West");
    // North specified spades in the legal auction: declarer may forbid any other one suit.
    assert_eq!(result.lead_penalties, vec![forbid_one_of(S, &[Suit::Clubs, Suit::Diamonds, Suit::Hearts])]);
}

// ----- Law 24 and Law 34 -----

#[test]
fn law_24c_two_or_more_cards_exposed_partner_must_pass_once_and_they_become_penalty_cards() {
    let c5: Card = "C5".parse().unwrap();
    let d2: Card = "D2".parse().unwrap();
    let auction = digital(N, DUP, &["1H"]).expose_cards(E, &[c5, d2], false).unwrap().into_auction();
    let enforce = auction.pending().unwrap().option(OptionKind::Enforce).unwrap();
    assert_eq!((enforce.chooser, enforce.law), (Chooser::Official, Law::duplicate(24, "C")));
    assert!(auction.record(S, made("P")).is_err(), "no call until the director rules (Law 9B2)");
    let auction = choose(&auction, OptionKind::Enforce);
    assert!(barred_next_turn(&auction, W));
    let result = contract(&then(&auction, &["P", "P", "P"]));
    assert_eq!(result.penalty_cards.len(), 2);
    assert_eq!(result.penalty_cards[0].law, Law::duplicate(24, "E"));
}

#[test]
fn law_17d3_a_pass_out_of_rotation_among_three_passes_reverts_to_the_robbed_player() {
    let auction = rec(&rec(&digital(N, DUP, &["1H", "P"]), W, "P"), N, "P");
    assert!(!auction.is_closed());
    assert_eq!(auction.next_to_call(), Some(S));
    assert_eq!(auction.calls()[3].status, CallStatus::Cancelled { law: Law::duplicate(17, "D3") });
    assert!(reserved(&auction, Side::EastWest, Law::duplicate(16, "C")), "the passer out of rotation is an offender");
}

#[test]
fn law_9b2_no_player_takes_any_action_until_the_director_has_explained_the_rectification() {
    let auction = rec(&digital(N, DUP, &["1NT"]), E, "1S");
    let err = auction.record(W, made("P")).unwrap_err();
    assert_eq!(err.law(), Law::duplicate(9, "B2"));
    assert_eq!(
        err.to_string(),
        "no call until the rectification is settled: East made an insufficient bid of 1S over 1NT (Law 27 of the Laws \
         of Duplicate Bridge) (Law 9B2 of the Laws of Duplicate Bridge)"
    );
}

#[test]
fn laws_36a_37a_38d_39b_the_lhos_call_before_rectification_is_each_laws_own_case() {
    // The 2017 Laws dropped the old Law 35 condonations into Laws 36-39 themselves.
    let inadmissible = rec(&digital(N, DUP, &["1H", "P"]), S, "X");
    assert_eq!(accept_law(&inadmissible), Law::duplicate(36, "A"));
    let barred = choose(&rec(&Auction::new(N, DUP), E, "P"), OptionKind::CancelCall);
    let barred = rec(&then(&barred, &["1H"]), E, "1S");
    assert_eq!(accept_law(&barred), Law::duplicate(37, "A"));
    let above_seven = rec(&digital(N, DUP, &["7NT"]), E, "8C");
    assert_eq!(accept_law(&above_seven), Law::duplicate(38, "D"));
    let after_close = rec(&digital(N, DUP, &["1H", "P", "P", "P"]), E, "2S");
    assert_eq!(accept_law(&after_close), Law::duplicate(39, "B"));
}

#[test]
fn law_28b_the_correct_player_calls_before_rectification_and_forfeits_it_law_26_does_not_apply() {
    // "A call is considered to be in rotation when made by a player whose turn it was to call
    // before rectification has been assessed for a call out of rotation by an opponent."
    let auction = rec(&Auction::new(N, DUP), E, "1H");
    let auction = rec(&auction, N, "1C");
    assert_eq!(shown(&auction), "N: 1C");
    assert_eq!(auction.calls()[0].status, CallStatus::Cancelled { law: Law::duplicate(28, "B") });
    assert!(auction.restrictions().is_empty());
    assert!(reserved(&auction, Side::EastWest, Law::duplicate(16, "C2")));
    let result = contract(&then(&auction, &["1S", "P", "P", "P"]));
    assert!(result.lead_penalties.is_empty());
}

#[test]
fn law_32_an_inadmissible_double_out_of_rotation_may_never_be_accepted() {
    // South doubles his partner's 1H at East's turn: Law 36, not Law 32.
    let auction = rec(&digital(N, DUP, &["1H"]), S, "X");
    assert!(matches!(pending_kind(&auction), IrregularityKind::InadmissibleDouble { out_of_rotation: true, .. }));
    // West's call does not accept it: it and every later call are cancelled (Law 36A).
    let auction = rec(&auction, W, "P");
    assert_eq!(shown(&auction), "N: 1H");
    assert_eq!(auction.next_to_call(), Some(E));
}
