//! Auction irregularities under the Laws of Rubber Bridge 2014 (and the Alternative Club Laws
//! where they add to them): one test per Law, quoting or paraphrasing its case.
#![allow(clippy::unwrap_used)] // tests may unwrap: a panic is the failure report

#[path = "auction_helpers.rs"]
mod helpers;

use helpers::*;
use laws::auction::{Auction, AuctionError, CallStatus, Recorded};
use laws::cards::{Card, Rank, Suit};
use laws::irregularities::Chooser;
use laws::irregularities::auction::{
    AfterCloseRole, AuctionChoice, CallRequirement, IrregularityKind, OptionKind, ReservedAdjustment, TurnOf,
};
use laws::penalty::{LeadPenalty, PenaltyCardKind, PendingLeadPenalty};
use laws::{CitesLaw, Code, Law, Side};

const RUBBER: Code = Code::Rubber;

fn lead_penalty(player: laws::Seat, penalty: LeadPenalty, section: &'static str) -> PendingLeadPenalty {
    PendingLeadPenalty { player, penalty, law: Law::rubber(26, section) }
}

// ----- Law 27: insufficient bid -----

#[test]
fn law_27_the_insufficient_bid_is_accepted_if_the_offenders_lho_calls() {
    // "Any insufficient bid may be accepted (treated as legal) at the option of offender's LHO
    // and is accepted if that opponent calls."
    let auction = rec(&digital(N, RUBBER, &["1S"]), E, "1H");
    assert_eq!(pending_kind(&auction), IrregularityKind::InsufficientBid { over: bid("1S") });
    assert_eq!(options(&auction), vec![OptionKind::AcceptByCalling, OptionKind::RejectInsufficientBid]);
    let accept = auction.pending().unwrap().option(OptionKind::AcceptByCalling).unwrap().clone();
    assert_eq!((accept.chooser, accept.chooser_seat), (Chooser::OffendersLho, Some(S)));
    // Nobody else may call meanwhile (Law 13).
    let err = auction.record(W, made("P")).unwrap_err();
    assert!(matches!(err, AuctionError::RectificationPending { .. }), "{err}");
    assert_eq!(err.law(), Law::rubber(13, ""));
    // South's call accepts it; the accepted 1H is now the bid to supersede, so 1S is sufficient.
    let accepted = rec(&auction, S, "1S");
    assert!(accepted.pending().is_none());
    assert_eq!(shown(&accepted), "N: 1S 1H 1S");
    assert_eq!(accepted.next_to_call(), Some(W));
}

#[test]
fn law_27a_lowest_sufficient_bid_in_the_same_denomination_the_auction_proceeds_as_though_no_irregularity() {
    let auction = choose(&rec(&digital(N, RUBBER, &["1S"]), E, "1H"), OptionKind::RejectInsufficientBid);
    assert_eq!(
        options(&auction),
        vec![
            OptionKind::LowestSufficientBid,
            OptionKind::SameOrMorePreciseMeaning,
            OptionKind::OtherSufficientBidOrPass,
            OptionKind::DoubleOrRedouble
        ]
    );
    let lowest = auction.pending().unwrap().option(OptionKind::LowestSufficientBid).unwrap();
    assert_eq!(lowest.call, CallRequirement::Exactly(call("2H")));
    let err = auction.rectify(AuctionChoice::with_call(OptionKind::LowestSufficientBid, call("3H"))).unwrap_err();
    assert_eq!(
        err.to_string(),
        "3H is not allowed with this option: it must be exactly 2H (Law 27A of the Laws of Rubber Bridge)"
    );
    let corrected = choose_call(&auction, OptionKind::LowestSufficientBid, "2H");
    assert_eq!(shown(&corrected), "N: 1S 2H");
    assert!(corrected.restrictions().is_empty(), "no penalty");
    // Footnote 10: offender's partner must not use information from the withdrawn bid.
    assert!(
        corrected
            .reserved_adjustments()
            .contains(&ReservedAdjustment { offending_side: Side::EastWest, law: Law::rubber(16, "B1") })
    );
    let done = rec_all(&corrected, &["P", "P", "P"]);
    assert!(contract(&done).lead_penalties.is_empty());
}

#[test]
fn law_27b_1c_1s_1h_replaced_by_a_negative_double_proceeds_without_penalty() {
    // "[an example, 1C-1S-1H, if 1H is replaced by Double (negative), then the bidding
    // proceeds without penalty]"
    let auction = rec(&digital(N, RUBBER, &["1C", "1S"]), S, "1H");
    let auction = choose(&auction, OptionKind::RejectInsufficientBid);
    let option = auction.pending().unwrap().option(OptionKind::SameOrMorePreciseMeaning).unwrap();
    assert_eq!((option.chooser, option.chooser_seat), (Chooser::Offender, Some(S)));
    let corrected = choose_call(&auction, OptionKind::SameOrMorePreciseMeaning, "X");
    assert_eq!(shown(&corrected), "N: 1C 1S X");
    assert!(corrected.restrictions().is_empty());
    assert_eq!(corrected.next_to_call(), Some(W));
    // "If it is found at the end of play that the replaced bid did not conform ... redress".
    assert!(
        corrected
            .reserved_adjustments()
            .contains(&ReservedAdjustment { offending_side: Side::NorthSouth, law: Law::rubber(27, "B") })
    );
    // The Law's preamble: "Law 16B1 may apply" to the withdrawn insufficient bid.
    assert!(
        corrected
            .reserved_adjustments()
            .contains(&ReservedAdjustment { offending_side: Side::NorthSouth, law: Law::rubber(16, "B1") })
    );
}

#[test]
fn club_law_27_the_arbiter_decides_whether_the_replacement_conforms_to_law_27b() {
    let auction = rec(&digital(N, Code::Club, &["1C", "1S"]), S, "1H");
    let auction = choose(&auction, OptionKind::RejectInsufficientBid);
    let option = auction.pending().unwrap().option(OptionKind::SameOrMorePreciseMeaning).unwrap();
    assert_eq!(option.chooser, Chooser::Official);
    assert_eq!(option.law, Law::club(27, ""));
}

#[test]
fn law_27c_any_other_sufficient_bid_or_pass_bars_partner_and_law_26a_applies_if_he_defends() {
    let auction = choose(&rec(&digital(N, RUBBER, &["1S"]), E, "1H"), OptionKind::RejectInsufficientBid);
    let err = auction.rectify(AuctionChoice::with_call(OptionKind::OtherSufficientBidOrPass, call("X"))).unwrap_err();
    assert!(matches!(err, AuctionError::ReplacementNotAllowed { .. }), "not a double: {err}");
    let auction = choose_call(&auction, OptionKind::OtherSufficientBidOrPass, "P");
    assert!(barred_throughout(&auction, W));
    let auction = auction.call(call("2S")).unwrap();
    let err = auction.call(call("2NT")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "West must pass at this turn (Law 27C of the Laws of Rubber Bridge); a call by a player required to pass is \
         cancelled under Law 37"
    );
    assert_eq!(auction.legal_calls(), vec![laws::Call::Pass]);
    let done = then(&auction, &["P", "P", "P"]);
    let result = contract(&done);
    assert_eq!(result.contract.to_string(), "2S by North");
    // The insufficient 1H was changed to a pass, which did not repeat hearts: Law 26A.
    assert_eq!(result.lead_penalties, vec![lead_penalty(W, LeadPenalty::RequireOrForbid(vec![Suit::Hearts]), "A")]);
}

#[test]
fn law_27c_a_replacement_repeating_the_suit_carries_no_lead_penalty_and_none_if_the_offenders_side_declares() {
    let auction = choose(&rec(&digital(N, RUBBER, &["1S"]), E, "1H"), OptionKind::RejectInsufficientBid);
    let auction = choose_call(&auction, OptionKind::OtherSufficientBidOrPass, "3H");
    let done = then(&auction, &["P", "P", "P"]);
    let result = contract(&done);
    assert_eq!(result.contract.to_string(), "3H by East");
    assert!(result.lead_penalties.is_empty());
}

#[test]
fn law_27d_an_attempted_double_is_cancelled_the_offender_must_pass_and_27c_applies() {
    let auction = choose(&rec(&digital(N, RUBBER, &["1S"]), E, "1H"), OptionKind::RejectInsufficientBid);
    let auction = choose_call(&auction, OptionKind::DoubleOrRedouble, "X");
    assert_eq!(shown(&auction), "N: 1S Pass");
    let statuses: Vec<CallStatus> = auction.calls().iter().map(|e| e.status).collect();
    assert_eq!(
        statuses,
        vec![
            CallStatus::Made,
            CallStatus::Cancelled { law: Law::rubber(27, "") },
            CallStatus::Cancelled { law: Law::rubber(27, "D") },
            CallStatus::Substituted { law: Law::rubber(27, "D") },
        ]
    );
    assert!(barred_throughout(&auction, W));
    let result = contract(&then(&auction, &["P", "P"]));
    assert_eq!(
        result.lead_penalties,
        vec![
            lead_penalty(W, LeadPenalty::RequireOrForbid(vec![Suit::Hearts]), "A"),
            lead_penalty(W, LeadPenalty::ForbidAnyOneSuit, "B"),
        ]
    );
}

#[test]
fn law_27_footnote_9_a_premature_replacement_is_cancelled_but_law_26_applies_to_it() {
    // "The offender is entitled to select his final call at that turn after the applicable
    // penalties have been stated, and any call he has previously attempted to substitute is
    // canceled, but the lead penalties of Law 26 will apply if he becomes a defender."
    let auction = rec(&digital(N, RUBBER, &["1S"]), E, "1H");
    let auction = rec(&auction, E, "2D");
    assert!(options(&auction).contains(&OptionKind::UnintendedCall));
    let auction = choose(&auction, OptionKind::RejectInsufficientBid);
    let auction = choose_call(&auction, OptionKind::LowestSufficientBid, "2H");
    assert_eq!(shown(&auction), "N: 1S 2H");
    assert!(auction.restrictions().is_empty());
    let result = contract(&then(&auction, &["2S", "P", "P", "P"]));
    assert_eq!(result.lead_penalties, vec![lead_penalty(W, LeadPenalty::RequireOrForbid(vec![Suit::Diamonds]), "A")]);
}

#[test]
fn law_25a_an_insufficient_bid_corrected_without_pause_for_thought_is_replaced_without_penalty() {
    let auction = rec(&rec(&digital(N, RUBBER, &["1S"]), E, "1H"), E, "2H");
    let option = auction.pending().unwrap().option(OptionKind::UnintendedCall).unwrap();
    assert_eq!(option.chooser, Chooser::NonOffendingSide, "the opponents agree it was a slip");
    let auction = choose(&auction, OptionKind::UnintendedCall);
    assert!(auction.pending().is_none());
    assert_eq!(shown(&auction), "N: 1S 2H");
    assert!(auction.restrictions().is_empty());
}

// ----- Law 25: changes of call -----

#[test]
fn law_25a_an_unintended_call_replaced_without_pause_for_thought_stands_without_penalty() {
    let auction = rec(&digital(N, RUBBER, &[]), N, "1H");
    let auction = rec(&auction, N, "1S");
    assert_eq!(pending_kind(&auction), IrregularityKind::ChangeOfCall { first: made("1H") });
    assert_eq!(
        options(&auction),
        vec![
            OptionKind::UnintendedCall,
            OptionKind::FirstCallStands,
            OptionKind::OtherLegalCall,
            OptionKind::AcceptByCalling
        ]
    );
    let auction = choose(&auction, OptionKind::UnintendedCall);
    assert_eq!(shown(&auction), "N: 1S");
    assert!(auction.restrictions().is_empty() && auction.next_to_call() == Some(E));
}

#[test]
fn law_25b_the_offender_lets_his_first_call_stand_and_partner_must_pass_when_next_it_is_his_turn() {
    let auction = rec(&rec(&digital(N, RUBBER, &[]), N, "1H"), N, "2C");
    let auction = choose(&auction, OptionKind::FirstCallStands);
    assert_eq!(shown(&auction), "N: 1H");
    assert!(barred_next_turn(&auction, S));
    let auction = then(&auction, &["1S", "P", "P", "P"]);
    let result = contract(&auction);
    assert_eq!(result.contract.to_string(), "1S by East");
    // The attempted 2C was changed back to 1H, which does not repeat clubs (Law 26A).
    assert_eq!(result.lead_penalties, vec![lead_penalty(S, LeadPenalty::RequireOrForbid(vec![Suit::Clubs]), "A")]);
}

#[test]
fn law_25b_any_other_legal_call_bars_partner_throughout_and_law_26_applies() {
    let auction = rec(&rec(&digital(N, RUBBER, &[]), N, "1H"), N, "2C");
    let err = auction.rectify(AuctionChoice::with_call(OptionKind::OtherLegalCall, call("1H"))).unwrap_err();
    assert!(matches!(err, AuctionError::ReplacementNotAllowed { .. }), "any *other* call: {err}");
    let auction = choose_call(&auction, OptionKind::OtherLegalCall, "1NT");
    assert_eq!(shown(&auction), "N: 1NT");
    assert!(barred_throughout(&auction, S));
    let result = contract(&then(&auction, &["2D", "P", "P", "P"]));
    assert_eq!(
        result.lead_penalties,
        vec![
            lead_penalty(S, LeadPenalty::RequireOrForbid(vec![Suit::Hearts]), "A"),
            lead_penalty(S, LeadPenalty::RequireOrForbid(vec![Suit::Clubs]), "A"),
        ]
    );
}

#[test]
fn law_15b_the_lho_calling_after_a_change_of_call_forfeits_the_penalty() {
    let auction = rec(&rec(&digital(N, RUBBER, &[]), N, "1H"), N, "1S");
    let auction = rec(&auction, E, "P");
    assert!(auction.pending().is_none());
    assert_eq!(shown(&auction), "N: 1S Pass");
    assert!(auction.restrictions().is_empty());
}

#[test]
fn law_25_a_player_has_no_call_to_change_once_another_player_has_called() {
    let auction = digital(N, RUBBER, &["1H", "P"]);
    let err = auction.change_call(N, made("1S")).unwrap_err();
    assert_eq!(err.law(), Law::rubber(25, ""));
}

// ----- Laws 28-34: calls out of rotation -----

#[test]
fn law_29a_the_offenders_lho_calls_and_the_call_out_of_rotation_stands_as_if_legal() {
    // Dealer North; East bids 1H at North's turn; South calls over it.
    let auction = rec(&Auction::new(N, RUBBER), E, "1H");
    assert_eq!(
        pending_kind(&auction),
        IrregularityKind::CallOutOfRotation { turn_of: N, position: TurnOf::RightHandOpponent }
    );
    let auction = rec(&auction, S, "1S");
    assert_eq!(shown(&auction), "N: 1H 1S");
    assert_eq!(auction.calls()[0].status, CallStatus::MadeOutOfRotation { turn_of: N });
    assert_eq!(auction.next_to_call(), Some(W), "the auction continues from the accepted call");
    assert!(auction.restrictions().is_empty());
}

#[test]
fn law_28b_the_player_whose_turn_it_was_calls_and_waives_the_penalty() {
    // "It waives any penalty for the call out of rotation, and the auction proceeds as though
    // that opponent had not called at that turn."
    let auction = rec(&Auction::new(N, RUBBER), E, "1H");
    let auction = rec(&auction, N, "P");
    assert_eq!(shown(&auction), "N: Pass");
    assert_eq!(auction.next_to_call(), Some(E));
    assert!(auction.restrictions().is_empty());
    assert_eq!(auction.calls()[0].status, CallStatus::Cancelled { law: Law::rubber(28, "B") });
    assert!(auction.call(call("2C")).is_ok(), "East calls freely");
    // Law 29: "Information arising from withdrawn calls out of rotation ... is unauthorized
    // Information for the offending side ... and Law 16B1 applies."
    assert_eq!(
        auction.reserved_adjustments(),
        &[ReservedAdjustment { offending_side: Side::EastWest, law: Law::rubber(16, "B1") }]
    );
}

#[test]
fn law_28a_a_call_at_rhos_turn_is_in_rotation_when_rho_is_required_to_pass() {
    // South must pass at his next turn (Law 25B); West calls at South's turn.
    let auction = choose(&rec(&rec(&digital(N, RUBBER, &[]), N, "1H"), N, "2C"), OptionKind::FirstCallStands);
    let auction = then(&auction, &["P"]);
    assert_eq!(auction.next_to_call(), Some(S));
    let auction = rec(&auction, W, "1S");
    assert!(auction.pending().is_none());
    assert_eq!(shown(&auction), "N: 1H Pass Pass 1S");
    assert_eq!(auction.calls()[3].status, CallStatus::DeemedPass { law: Law::rubber(28, "A") });
    assert!(!barred_next_turn(&auction, S), "the deemed pass spent South's obligation");
}

#[test]
fn law_30a_pass_out_of_rotation_before_any_bid_offender_must_pass_when_next_it_is_his_turn() {
    let auction = rec(&Auction::new(N, RUBBER), E, "P");
    let cancel = auction.pending().unwrap().option(OptionKind::CancelCall).unwrap().clone();
    assert_eq!((cancel.chooser, cancel.law), (Chooser::OffendersLho, Law::rubber(30, "A")));
    let auction = choose(&auction, OptionKind::CancelCall);
    assert_eq!(auction.next_to_call(), Some(N), "the auction reverts to the player whose turn it was");
    let auction = auction.call(call("1H")).unwrap();
    let err = auction.call(call("1S")).unwrap_err();
    assert_eq!(err.law(), Law::rubber(30, "A"));
    let auction = auction.call(call("P")).unwrap();
    assert!(auction.restrictions().is_empty());
    let result = contract(&then(&auction, &["P", "P"]));
    assert!(result.lead_penalties.is_empty(), "Law 26B excepts a call out of rotation repeated under Law 30A");
}

#[test]
fn law_30b_pass_at_partners_turn_after_a_bid_offender_passes_throughout_partner_may_not_double() {
    // North opens 1H; West passes at East's turn.
    let auction = choose(&rec(&digital(N, RUBBER, &["1H"]), W, "P"), OptionKind::CancelCall);
    assert!(barred_throughout(&auction, W));
    let err = auction.call(call("X")).unwrap_err();
    assert_eq!(err.to_string(), "East may not double or redouble here (Law 30B of the Laws of Rubber Bridge)");
    assert!(!auction.legal_calls().contains(&laws::Call::Double));
    let auction = auction.call(call("2C")).unwrap();
    assert!(auction.restrictions().iter().all(|r| r.seat() == W), "East's restriction was for that turn");
}

#[test]
fn law_31a_bid_at_partners_turn_partner_must_pass_throughout_and_law_26_applies() {
    // North opens 1H; West bids 1S at East's turn; North cancels it.
    let auction = choose(&rec(&digital(N, RUBBER, &["1H"]), W, "1S"), OptionKind::CancelCall);
    assert!(barred_throughout(&auction, E));
    // East passes, South raises, West does not repeat spades.
    let auction = then(&auction, &["P", "2H", "P", "P", "P"]);
    let result = contract(&auction);
    assert_eq!(result.contract.to_string(), "2H by North");
    assert_eq!(result.lead_penalties, vec![lead_penalty(E, LeadPenalty::RequireOrForbid(vec![Suit::Spades]), "A")]);
}

#[test]
fn law_31a_a_bid_before_any_call_when_the_offenders_lho_was_dealer() {
    let auction = rec(&Auction::new(N, RUBBER), W, "1C");
    assert_eq!(
        pending_kind(&auction),
        IrregularityKind::CallOutOfRotation { turn_of: N, position: TurnOf::LeftHandOpponent }
    );
    let auction = choose(&auction, OptionKind::CancelCall);
    assert!(barred_throughout(&auction, E));
    assert_eq!(auction.next_to_call(), Some(N));
}

#[test]
fn law_31b1_rho_passes_the_bid_out_of_rotation_must_be_repeated_without_penalty() {
    let auction = choose(&rec(&Auction::new(N, RUBBER), E, "1H"), OptionKind::CancelCall);
    let auction = auction.call(call("P")).unwrap();
    let err = auction.call(call("1S")).unwrap_err();
    assert_eq!(err.to_string(), "East must repeat 1H (Law 31B1 of the Laws of Rubber Bridge)");
    assert_eq!(auction.legal_calls(), vec![call("1H")]);
    let auction = auction.call(call("1H")).unwrap();
    assert!(auction.restrictions().is_empty());
    assert!(contract(&then(&auction, &["P", "P", "P"])).lead_penalties.is_empty());
}

#[test]
fn law_31b1_an_insufficient_bid_out_of_rotation_must_be_repeated_and_is_then_corrected_under_law_27() {
    // North 1S, East passes; West bids 1H at South's turn (an insufficient bid out of
    // rotation, Law 27E -> Law 31); North cancels; South passes; West must repeat 1H.
    let auction = rec(&digital(N, RUBBER, &["1S", "P"]), W, "1H");
    assert!(matches!(pending_kind(&auction), IrregularityKind::CallOutOfRotation { .. }));
    let auction = then(&choose(&auction, OptionKind::CancelCall), &["P"]);
    let auction = rec(&auction, W, "1H");
    assert_eq!(pending_kind(&auction), IrregularityKind::InsufficientBid { over: bid("1S") });
}

#[test]
fn law_31b2_rho_bids_and_the_offender_repeats_the_denomination_partner_passes_once() {
    let auction = choose(&rec(&Auction::new(N, RUBBER), E, "1H"), OptionKind::CancelCall);
    let auction = then(&auction, &["1S", "2H"]);
    assert!(barred_next_turn(&auction, W) && !barred_throughout(&auction, W));
    let result = contract(&then(&auction, &["P", "P", "P"]));
    assert!(result.lead_penalties.is_empty());
}

#[test]
fn law_31b2_rho_bids_and_the_offender_changes_denomination_partner_passes_throughout_and_law_26() {
    let auction = choose(&rec(&Auction::new(N, RUBBER), E, "1H"), OptionKind::CancelCall);
    let auction = then(&auction, &["1S", "1NT"]);
    assert!(barred_throughout(&auction, W));
    let result = contract(&then(&auction, &["P", "P", "2S", "P", "P", "P"]));
    assert_eq!(result.lead_penalties, vec![lead_penalty(W, LeadPenalty::RequireOrForbid(vec![Suit::Hearts]), "A")]);
}

#[test]
fn law_32a_double_at_partners_turn_partner_passes_throughout_and_the_offender_may_not_double_that_bid() {
    let auction = choose(&rec(&digital(N, RUBBER, &["1H"]), W, "X"), OptionKind::CancelCall);
    assert!(barred_throughout(&auction, E));
    let auction = then(&auction, &["P", "P"]);
    let err = auction.call(call("X")).unwrap_err();
    assert_eq!(err.law(), Law::rubber(32, "A"));
    let result = contract(&then(&auction, &["P"]));
    assert_eq!(result.lead_penalties, vec![lead_penalty(E, LeadPenalty::ForbidAnyOneSuit, "B")]);
}

#[test]
fn law_32b1_rho_passes_and_the_double_out_of_rotation_must_be_repeated_without_penalty() {
    let auction = choose(&rec(&digital(N, RUBBER, &["1H", "P"]), W, "X"), OptionKind::CancelCall);
    let auction = then(&auction, &["P", "X"]);
    assert!(auction.restrictions().is_empty());
    let result = contract(&then(&auction, &["P", "P", "P"]));
    assert_eq!(result.contract.to_string(), "1HX by North");
    assert!(result.lead_penalties.is_empty(), "Law 26B excepts a double repeated under Law 32B1");
}

#[test]
fn law_32b2_rho_bids_partner_passes_when_next_it_is_his_turn_and_law_26b_applies() {
    let auction = choose(&rec(&digital(N, RUBBER, &["1H", "P"]), W, "X"), OptionKind::CancelCall);
    let auction = then(&auction, &["2H", "P"]);
    assert!(barred_next_turn(&auction, E));
    let result = contract(&then(&auction, &["P", "P"]));
    assert_eq!(result.lead_penalties, vec![lead_penalty(E, LeadPenalty::ForbidAnyOneSuit, "B")]);
}

#[test]
fn law_33_a_call_simultaneous_with_the_call_in_turn_is_deemed_to_come_after_it() {
    let both = Auction::new(N, RUBBER).record_simultaneous(made("1C"), E, made("1D")).unwrap();
    let auction = both.into_auction();
    assert!(auction.pending().is_none());
    assert_eq!(shown(&auction), "N: 1C 1D");
    // South's simultaneous call with North's is out of rotation after North's.
    let auction = Auction::new(N, RUBBER).record_simultaneous(made("P"), S, made("1S")).unwrap().into_auction();
    assert_eq!(
        pending_kind(&auction),
        IrregularityKind::CallOutOfRotation { turn_of: E, position: TurnOf::RightHandOpponent }
    );
}

#[test]
fn law_34_a_pass_out_of_rotation_among_the_closing_passes_does_not_end_the_auction() {
    // North 1H, East passes; West passes at South's turn and North calls over it (accepting
    // it, Law 29A): three passes follow 1H, but South was robbed of his turn.
    let auction = rec(&digital(N, RUBBER, &["1H", "P"]), W, "P");
    let auction = rec(&auction, N, "P");
    assert!(!auction.is_closed());
    assert_eq!(auction.next_to_call(), Some(S), "the auction reverts to the player who missed his turn");
    assert_eq!(shown(&auction), "N: 1H Pass");
    assert!(auction.restrictions().is_empty(), "as though there had been no irregularity");
    let law_34 = CallStatus::Cancelled { law: Law::rubber(34, "") };
    assert_eq!(auction.calls()[2].status, law_34);
    assert_eq!(auction.calls()[3].status, law_34);
}

// ----- Laws 35-39: inadmissible calls -----

#[test]
fn law_35a_an_inadmissible_double_condoned_by_the_lho_is_cancelled_with_every_later_call() {
    let auction = rec(&digital(N, RUBBER, &["1H", "P"]), S, "X");
    assert!(matches!(pending_kind(&auction), IrregularityKind::InadmissibleDouble { out_of_rotation: false, .. }));
    let auction = rec(&auction, W, "2C");
    assert!(auction.pending().is_none());
    assert_eq!(shown(&auction), "N: 1H Pass", "the double and West's call are both cancelled");
    assert_eq!(auction.next_to_call(), Some(S));
    assert!(auction.restrictions().is_empty());
    assert!(contract(&then(&auction, &["P", "P"])).lead_penalties.is_empty());
}

#[test]
fn law_36_an_inadmissible_double_is_cancelled_partner_passes_throughout_and_law_26b_applies() {
    let auction = rec(&digital(N, RUBBER, &["1H", "P"]), S, "X");
    let enforce = auction.pending().unwrap().option(OptionKind::Enforce).unwrap();
    assert_eq!(enforce.chooser, Chooser::NonOffendingSide);
    let auction = choose(&auction, OptionKind::Enforce);
    assert_eq!(auction.next_to_call(), Some(S), "the offender substitutes a legal call");
    assert!(barred_throughout(&auction, N));
    let result = contract(&then(&auction, &["P", "1S", "P", "P", "P"]));
    assert_eq!(result.contract.to_string(), "1S by West");
    assert_eq!(result.lead_penalties, vec![lead_penalty(N, LeadPenalty::ForbidAnyOneSuit, "B")]);
}

#[test]
fn law_15a_the_non_offending_side_may_waive_the_penalty_for_an_inadmissible_double() {
    let auction = choose(&rec(&digital(N, RUBBER, &["1H", "P"]), S, "X"), OptionKind::Waive);
    assert_eq!(shown(&auction), "N: 1H Pass");
    assert!(auction.restrictions().is_empty());
}

#[test]
fn law_37_a_bid_by_a_player_required_to_pass_is_cancelled_and_both_offenders_pass_throughout() {
    // East's pass out of rotation obliges him to pass at his next turn (Law 30A); he bids.
    let auction = choose(&rec(&Auction::new(N, RUBBER), E, "P"), OptionKind::CancelCall);
    let auction = rec(&then(&auction, &["1H"]), E, "1S");
    assert_eq!(pending_kind(&auction), IrregularityKind::CallWhenRequiredToPass { required_by: Law::rubber(30, "A") });
    let auction = choose(&auction, OptionKind::Enforce);
    assert_eq!(shown(&auction), "N: 1H Pass");
    assert!(barred_throughout(&auction, E) && barred_throughout(&auction, W));
    let result = contract(&then(&auction, &["P", "P"]));
    assert_eq!(result.lead_penalties, vec![lead_penalty(W, LeadPenalty::RequireOrForbid(vec![Suit::Spades]), "A")]);
}

#[test]
fn law_35b_a_bid_by_a_player_required_to_pass_condoned_by_the_lho_stands() {
    let auction = choose(&rec(&Auction::new(N, RUBBER), E, "P"), OptionKind::CancelCall);
    let auction = rec(&then(&auction, &["1H"]), E, "1S");
    let auction = rec(&auction, S, "2H");
    assert!(auction.pending().is_none());
    assert_eq!(shown(&auction), "N: 1H 1S 2H");
    assert!(auction.restrictions().is_empty());
}

#[test]
fn law_38_a_bid_of_more_than_seven_is_cancelled_a_pass_substituted_and_both_offenders_pass_throughout() {
    let auction = rec(&digital(N, RUBBER, &["7S", "P"]), S, "8S");
    assert_eq!(pending_kind(&auction), IrregularityKind::BidAboveSeven);
    let auction = choose(&auction, OptionKind::Enforce);
    assert_eq!(shown(&auction), "N: 7S Pass Pass");
    assert!(barred_throughout(&auction, N) && barred_throughout(&auction, S));
    let auction = then(&auction, &["7NT", "P", "P", "P"]);
    let result = contract(&auction);
    assert_eq!(result.contract.to_string(), "7NT by West");
    assert_eq!(result.lead_penalties, vec![lead_penalty(N, LeadPenalty::RequireOrForbid(vec![Suit::Spades]), "A")]);
}

#[test]
fn law_35c_a_bid_of_more_than_seven_condoned_is_cancelled_with_the_lhos_call_and_a_pass_substituted() {
    let auction = rec(&rec(&digital(N, RUBBER, &["7S", "P"]), S, "8S"), W, "P");
    assert!(auction.pending().is_none());
    assert_eq!(shown(&auction), "N: 7S Pass Pass");
    assert!(auction.restrictions().is_empty(), "no penalty");
    assert_eq!(auction.next_to_call(), Some(W));
}

#[test]
fn law_39a_a_call_by_declarer_after_the_close_is_cancelled_without_penalty() {
    let auction = rec(&digital(N, RUBBER, &["1H", "P", "P", "P"]), N, "2H");
    assert_eq!(pending_kind(&auction), IrregularityKind::CallAfterClose { role: AfterCloseRole::DeclaringSide });
    assert_eq!(options(&auction), vec![OptionKind::AcceptByCalling, OptionKind::Enforce]);
    let auction = choose(&auction, OptionKind::Enforce);
    assert!(contract(&auction).lead_penalties.is_empty());
}

#[test]
fn law_39b_a_bid_by_a_defender_after_the_close_is_cancelled_and_law_26_may_apply() {
    let auction = rec(&digital(N, RUBBER, &["1H", "P", "P", "P"]), W, "2S");
    assert_eq!(pending_kind(&auction), IrregularityKind::CallAfterClose { role: AfterCloseRole::Defender });
    assert!(auction.outcome().is_none(), "not settled yet");
    let result = contract(&choose(&auction, OptionKind::Enforce));
    assert_eq!(result.lead_penalties, vec![lead_penalty(E, LeadPenalty::RequireOrForbid(vec![Suit::Spades]), "A")]);
    let waived = contract(&choose(&auction, OptionKind::Waive));
    assert!(waived.lead_penalties.is_empty());
}

#[test]
fn law_35d_a_call_after_the_close_condoned_by_the_lho_is_cancelled_with_the_lhos_call() {
    let auction = rec(&rec(&digital(N, RUBBER, &["1H", "P", "P", "P"]), W, "2S"), N, "P");
    assert!(auction.pending().is_none());
    assert!(contract(&auction).lead_penalties.is_empty());
    assert_eq!(shown(&auction), "N: 1H Pass Pass Pass");
}

// ----- Law 24: cards exposed during the auction -----

fn card(text: &str) -> Card {
    text.parse().unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn law_24a_a_single_low_card_no_further_penalty_but_a_penalty_card_if_the_offender_defends() {
    let auction = digital(N, RUBBER, &["1H"]).expose_cards(E, &[card("C5")], false).unwrap().into_auction();
    let auction = choose(&auction, OptionKind::Enforce);
    assert!(auction.restrictions().is_empty());
    let result = contract(&then(&auction, &["P", "P", "P"]));
    let [penalty_card] = result.penalty_cards.as_slice() else { panic!("{:?}", result.penalty_cards) };
    assert_eq!((penalty_card.card, penalty_card.owner, penalty_card.kind), (card("C5"), E, PenaltyCardKind::Minor));
}

#[test]
fn law_24b_a_single_honor_partner_must_pass_when_next_it_is_his_turn_and_it_is_a_major_penalty_card() {
    let auction = digital(N, RUBBER, &["1H"]).expose_cards(E, &[card("SK")], false).unwrap().into_auction();
    let auction = choose(&auction, OptionKind::Enforce);
    assert!(barred_next_turn(&auction, W));
    let result = contract(&then(&auction, &["P", "P", "P"]));
    assert_eq!(result.penalty_cards[0].kind, PenaltyCardKind::Major);
}

#[test]
fn law_24b_more_than_one_card_exposed_every_one_is_a_penalty_card_and_partner_must_pass_once() {
    let auction = digital(N, RUBBER, &["1H"]).expose_cards(E, &[card("C5"), card("D2")], false).unwrap().into_auction();
    let auction = choose(&auction, OptionKind::Enforce);
    assert!(barred_next_turn(&auction, W));
    let result = contract(&then(&auction, &["P", "P", "P"]));
    assert_eq!(result.penalty_cards.len(), 2);
    assert!(result.penalty_cards.iter().all(|c| c.kind == PenaltyCardKind::Major));
}

#[test]
fn law_24_cards_exposed_by_the_future_declaring_side_are_not_penalty_cards() {
    let auction = digital(N, RUBBER, &["1H"]).expose_cards(S, &[card("HA")], true).unwrap().into_auction();
    let auction = choose(&auction, OptionKind::Enforce);
    let result = contract(&then(&auction, &["P", "P", "P"]));
    assert!(result.penalty_cards.is_empty());
    assert_eq!(auction.exposed_cards()[0].cards, vec![Card::new(Suit::Hearts, Rank::Ace)]);
}

#[test]
fn law_15b_the_lho_calling_after_an_exposed_card_forfeits_the_penalty() {
    let auction = digital(N, RUBBER, &[]).expose_cards(W, &[card("SA")], false).unwrap().into_auction();
    let auction = rec(&auction, N, "1H");
    assert!(auction.pending().is_none());
    assert!(auction.restrictions().is_empty());
    let result = contract(&then(&auction, &["P", "P", "P"]));
    assert!(result.penalty_cards.is_empty());
}

#[test]
fn law_24_a_card_exposed_after_the_auction_belongs_to_the_play() {
    let err = digital(N, RUBBER, &["1H", "P", "P", "P"]).expose_cards(E, &[card("C5")], false).unwrap_err();
    assert_eq!(err.law(), Law::rubber(49, ""));
}

// ----- general -----

#[test]
fn law_13_a_rectification_must_be_one_of_the_options_offered() {
    let auction = rec(&digital(N, RUBBER, &["1S"]), E, "1H");
    let err = auction.rectify(AuctionChoice::new(OptionKind::Enforce)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "\"apply the rectification\" is not an option here (Law 27 of the Laws of Rubber Bridge)"
    );
    let err = digital(N, RUBBER, &[]).rectify(AuctionChoice::new(OptionKind::Enforce)).unwrap_err();
    assert_eq!(err.law(), Law::rubber(13, ""));
    let err = auction.rectify(AuctionChoice::new(OptionKind::AcceptByCalling)).unwrap_err();
    assert!(matches!(err, AuctionError::WrongCallForOption { .. }), "accepting is by calling: {err}");
    // Accepting through rectify is the same as the LHO's call through record.
    let by_rectify = choose_call(&auction, OptionKind::AcceptByCalling, "P");
    let by_record = rec(&auction, S, "P");
    assert_eq!(by_rectify, by_record);
}

#[test]
fn options_are_described_with_their_chooser_and_law() {
    let auction = rec(&digital(N, RUBBER, &["1S"]), E, "1H");
    let text = auction.pending().unwrap().options()[0].to_string();
    assert!(
        text.starts_with("South (the offender's left-hand opponent) may accept the call by calling over it"),
        "{text}"
    );
    assert!(text.contains("(Law 27 of the Laws of Rubber Bridge)"), "{text}");
    let irregularity = auction.pending().unwrap().irregularity().to_string();
    assert_eq!(irregularity, "East made an insufficient bid of 1H over 1S (Law 27 of the Laws of Rubber Bridge)");
}

#[test]
fn a_recorded_call_is_made_or_awaits_rectification() {
    let auction = Auction::new(N, RUBBER);
    assert!(matches!(auction.record(N, made("1C")), Ok(Recorded::Made(_))));
    assert!(matches!(auction.record(E, made("1C")), Ok(Recorded::AwaitingRectification(_))));
}

#[test]
fn law_35_the_lhos_call_before_a_penalty_is_assessed_condones_each_inadmissible_call() {
    let inadmissible = rec(&digital(N, RUBBER, &["1H", "P"]), S, "X");
    assert_eq!(accept_law(&inadmissible), Law::rubber(35, "A"));
    let barred = choose(&rec(&Auction::new(N, RUBBER), E, "P"), OptionKind::CancelCall);
    let barred = rec(&then(&barred, &["1H"]), E, "1S");
    assert_eq!(accept_law(&barred), Law::rubber(35, "B"));
    let above_seven = rec(&digital(N, RUBBER, &["7NT"]), E, "8C");
    assert_eq!(accept_law(&above_seven), Law::rubber(35, "C"));
    let after_close = rec(&digital(N, RUBBER, &["1H", "P", "P", "P"]), E, "2S");
    assert_eq!(accept_law(&after_close), Law::rubber(35, "D"));
}

#[test]
fn law_36_an_inadmissible_double_out_of_rotation_reverts_to_the_player_in_turn() {
    // North opens 1H; South (North's partner) doubles at East's turn.
    let auction = rec(&digital(N, RUBBER, &["1H"]), S, "X");
    assert!(matches!(pending_kind(&auction), IrregularityKind::InadmissibleDouble { out_of_rotation: true, .. }));
    let auction = choose(&auction, OptionKind::Enforce);
    assert_eq!(auction.next_to_call(), Some(E));
    assert!(barred_throughout(&auction, N));
}

#[test]
fn law_31b2_footnote_14_an_illegal_call_by_the_rho_is_penalized_and_then_b2_applies() {
    // East bids 1H at North's turn (North is dealer), cancelled; North then bids 1S but
    // changes it to a pass (Law 25B(1) is not chosen: he makes "any other legal call").
    let auction = choose(&rec(&Auction::new(N, RUBBER), E, "1H"), OptionKind::CancelCall);
    let auction = rec(&rec(&auction, N, "1S"), N, "2C");
    let auction = choose_call(&auction, OptionKind::OtherLegalCall, "P");
    // North's final call is a pass, but after his irregularity B2 applies, not B1.
    assert!(
        auction
            .restrictions()
            .iter()
            .all(|r| !matches!(r, laws::irregularities::auction::Restriction::MustRepeat { .. }))
    );
    let auction = then(&auction, &["2H"]);
    assert!(barred_next_turn(&auction, W), "2H repeats the denomination of 1H");
}

#[test]
fn law_37_a_player_barred_throughout_who_bids_out_of_turn_is_dealt_with_under_law_37() {
    let auction = choose(&rec(&digital(N, RUBBER, &["1S"]), E, "1H"), OptionKind::RejectInsufficientBid);
    let auction = choose_call(&auction, OptionKind::OtherSufficientBidOrPass, "P");
    // West is barred throughout; he bids at South's turn.
    let auction = rec(&auction, W, "2H");
    assert_eq!(pending_kind(&auction), IrregularityKind::CallWhenRequiredToPass { required_by: Law::rubber(27, "C") });
    let auction = choose(&auction, OptionKind::Enforce);
    assert_eq!(auction.next_to_call(), Some(S), "the auction reverts to the player in turn");
    assert!(barred_throughout(&auction, E) && barred_throughout(&auction, W));
}

#[test]
fn law_39_a_call_after_a_passed_out_auction_is_simply_cancelled() {
    let auction = rec(&digital(N, RUBBER, &["P", "P", "P", "P"]), E, "1NT");
    assert_eq!(pending_kind(&auction), IrregularityKind::CallAfterClose { role: AfterCloseRole::PassedOut });
    let auction = choose(&auction, OptionKind::Enforce);
    assert_eq!(auction.outcome(), Some(laws::auction::AuctionOutcome::PassedOut));
}

#[test]
fn club_laws_the_arbiter_finds_whether_a_call_was_unintended_and_confirms_penalties() {
    let auction = rec(&rec(&Auction::new(N, Code::Club), N, "1H"), N, "1S");
    let unintended = auction.pending().unwrap().option(OptionKind::UnintendedCall).unwrap();
    assert_eq!((unintended.chooser, unintended.law), (Chooser::Official, Law::rubber(25, "A")));
    let auction = rec(&digital(N, Code::Club, &["1H", "P"]), S, "X");
    assert_eq!(auction.pending().unwrap().option(OptionKind::Enforce).unwrap().chooser, Chooser::Official);
    assert_eq!(auction.pending().unwrap().irregularity().law, Law::rubber(36, ""));
}
