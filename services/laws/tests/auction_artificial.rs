//! Artificial calls in the auction Laws: rubber Law 26A ("such suit" is the suit or suits an
//! artificial call relates to), rubber Law 27A (both bids not artificial), duplicate Law 26B
//! (suits "specified" in the legal auction) and duplicate Law 27B1(a) ("specifies the same
//! denomination(s)"). One test per case, quoting the Law.
#![allow(clippy::unwrap_used)] // tests may unwrap: a panic is the failure report

#[path = "auction_helpers.rs"]
mod helpers;

use helpers::*;
use laws::auction::{Auction, AuctionError};
use laws::cards::{Suit, SuitSet};
use laws::irregularities::Chooser;
use laws::irregularities::auction::{AuctionChoice, CallRequirement, OptionKind};
use laws::penalty::{LeadPenalty, PendingLeadPenalty};
use laws::{Code, Law, Seat};

const RUBBER: Code = Code::Rubber;
const DUP: Code = Code::Duplicate;

const MAJORS: [Suit; 2] = [Suit::Hearts, Suit::Spades];
const MINORS: [Suit; 2] = [Suit::Clubs, Suit::Diamonds];

fn rubber_26(player: Seat, penalty: LeadPenalty, section: &'static str) -> PendingLeadPenalty {
    PendingLeadPenalty { player, penalty, law: Law::rubber(26, section) }
}

fn forbid_one_of(player: Seat, suits: &[Suit]) -> PendingLeadPenalty {
    PendingLeadPenalty { player, penalty: LeadPenalty::ForbidOneOf(suits.to_vec()), law: Law::duplicate(26, "B") }
}

/// Records `seat`'s artificial call relating to `suits`.
fn artificial(auction: &Auction, seat: Seat, text: &str, suits: &[Suit]) -> Auction {
    auction
        .record_artificial(seat, made(text), SuitSet::of(suits))
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .into_auction()
}

/// North opens `first` (artificial, relating to `relates_to`, or natural), changes it at the
/// same turn to 2D, and under Law 25B makes "any other legal call", `replacement`; East then
/// buys the contract in 2S. The lead penalties South carries.
fn changed_then_defends(first: &str, relates_to: Option<&[Suit]>, replacement: &str) -> Vec<PendingLeadPenalty> {
    let auction = Auction::new(N, RUBBER);
    let auction = match relates_to {
        Some(suits) => artificial(&auction, N, first, suits),
        None => rec(&auction, N, first),
    };
    let auction = rec(&auction, N, "2D");
    let auction = choose_call(&auction, OptionKind::OtherLegalCall, replacement);
    let done = then(&auction, &["2S", "P", "P", "P"]);
    let result = contract(&done);
    assert_eq!(result.contract.to_string(), "2S by East");
    result.lead_penalties
}

// ----- rubber Law 26A -----

#[test]
fn law_26a_an_artificial_2c_relating_to_hearts_and_spades_changed_to_2d_lets_declarer_require_or_forbid_them() {
    // Law 26A: "if the changed call was in a suit, and the substituted call did not repeat
    // that suit, declarer may either require the offender's partner to lead, or prohibit him
    // from leading, such suit when first the offender's partner has the lead ... When the
    // irregular call artificially relates to a denomination other than the one actually named,
    // 'such suit' is the suit or suits to which the call relates."
    let auction = artificial(&Auction::new(N, RUBBER), N, "2C", &MAJORS);
    assert_eq!(auction.calls()[0].relates_to, Some(SuitSet::of(&MAJORS)));
    assert_eq!(auction.calls()[0].suits_specified(), SuitSet::of(&MAJORS));
    let penalties = changed_then_defends("2C", Some(&MAJORS), "2D");
    assert_eq!(penalties, vec![rubber_26(S, LeadPenalty::RequireOrForbid(MAJORS.to_vec()), "A")]);
}

#[test]
fn law_26a_a_natural_2c_changed_to_2d_still_names_clubs() {
    // The same case with a natural 2C: "such suit" is the suit named.
    let penalties = changed_then_defends("2C", None, "2D");
    assert_eq!(penalties, vec![rubber_26(S, LeadPenalty::RequireOrForbid(vec![Suit::Clubs]), "A")]);
}

#[test]
fn law_26a_did_not_repeat_that_suit_compares_the_suits_the_calls_relate_to() {
    // "the substituted call did not repeat that suit": the final 2H repeats hearts, one of the
    // two suits the artificial 2C related to, so only spades is "such suit" for the 2C (and
    // diamonds for the natural 2D, also changed).
    let penalties = changed_then_defends("2C", Some(&MAJORS), "2H");
    assert_eq!(
        penalties,
        vec![
            rubber_26(S, LeadPenalty::RequireOrForbid(vec![Suit::Spades]), "A"),
            rubber_26(S, LeadPenalty::RequireOrForbid(vec![Suit::Diamonds]), "A"),
        ]
    );
}

#[test]
fn law_26a_an_artificial_substituted_call_relating_to_the_same_suit_repeats_it() {
    // North opens 1H and changes it at the same turn to 2D, a transfer showing hearts; under
    // Law 25B he makes any other legal call, the same 2D: it repeats hearts, so Law 26A gives
    // nothing for the 1H (and 2D "changed" to 2D was not changed).
    let hearts = SuitSet::single(Suit::Hearts);
    let auction = rec(&Auction::new(N, RUBBER), N, "1H").change_call_artificial(N, made("2D"), hearts).unwrap();
    let auction = auction.into_auction();
    assert_eq!(auction.calls()[1].relates_to, Some(hearts));
    let choice = AuctionChoice::with_call(OptionKind::OtherLegalCall, call("2D"));
    let auction = auction.rectify_artificial(choice, hearts).unwrap();
    assert_eq!(auction.calls().last().map(|e| e.relates_to), Some(Some(hearts)));
    let result = contract(&then(&auction, &["2S", "P", "P", "P"]));
    assert!(result.lead_penalties.is_empty(), "{:?}", result.lead_penalties);
}

#[test]
fn law_26a_not_26b_for_an_artificial_notrump_bid_showing_suits() {
    // Law 26B1 is for a changed call "in no-trump"; a 1NT that artificially shows the minors
    // "artificially relates to a denomination other than the one actually named", so Law 26A
    // applies to the minors.
    let auction = artificial(&Auction::new(N, RUBBER), N, "1NT", &MINORS);
    let auction = choose_call(&rec(&auction, N, "2D"), OptionKind::OtherLegalCall, "2S");
    let result = contract(&then(&auction, &["3H", "P", "P", "P"]));
    // 1NT (minors) not repeated by 2S: 26A on clubs and diamonds. 2D (natural) not repeated: 26A.
    assert_eq!(
        result.lead_penalties,
        vec![
            rubber_26(S, LeadPenalty::RequireOrForbid(MINORS.to_vec()), "A"),
            rubber_26(S, LeadPenalty::RequireOrForbid(vec![Suit::Diamonds]), "A"),
        ]
    );
    // A natural 1NT in the same case is Law 26B: "if the changed call was 1. in no-trump and
    // the player's ... final call at that turn was not".
    let natural =
        choose_call(&rec(&rec(&Auction::new(N, RUBBER), N, "1NT"), N, "2D"), OptionKind::OtherLegalCall, "2S");
    let result = contract(&then(&natural, &["3H", "P", "P", "P"]));
    assert_eq!(result.lead_penalties[0], rubber_26(S, LeadPenalty::ForbidAnyOneSuit, "B"));
}

#[test]
fn law_26_an_artificial_bid_relating_to_no_suit_is_treated_as_naming_no_denomination() {
    // Our reading: a strong artificial 2C relates to no suit, so there is no "such suit" for
    // Law 26A; like a pass, double or redouble it gives Law 26B.
    let auction = artificial(&Auction::new(N, RUBBER), N, "2C", &[]);
    let auction = choose_call(&rec(&auction, N, "2D"), OptionKind::OtherLegalCall, "2S");
    let result = contract(&then(&auction, &["3H", "P", "P", "P"]));
    assert_eq!(result.lead_penalties[0], rubber_26(S, LeadPenalty::ForbidAnyOneSuit, "B"));
}

#[test]
fn law_27c_an_artificial_insufficient_bid_replaced_by_a_pass_gives_26a_on_the_suits_it_related_to() {
    // Law 27C: "any other sufficient bid or pass ... the lead penalties of Law 26 may apply if
    // he becomes a defender"; the insufficient 1C showed the majors (Law 26A, "such suit").
    let auction = artificial(&digital(N, RUBBER, &["1NT"]), E, "1C", &MAJORS);
    let auction = choose(&auction, OptionKind::RejectInsufficientBid);
    let auction = choose_call(&auction, OptionKind::OtherSufficientBidOrPass, "P");
    let result = contract(&then(&auction, &["3NT", "P", "P", "P"]));
    assert_eq!(result.lead_penalties, vec![rubber_26(W, LeadPenalty::RequireOrForbid(MAJORS.to_vec()), "A")]);
}

// ----- rubber Law 27A -----

#[test]
fn law_27a_needs_both_bids_natural() {
    // Law 27A: "the lowest sufficient bid in the same denomination, and if the insufficient
    // bid and sufficient bid are both not artificial, the auction proceeds as though the
    // irregularity had not occurred."
    let auction = artificial(&digital(N, RUBBER, &["1NT"]), E, "1C", &MAJORS);
    let auction = choose(&auction, OptionKind::RejectInsufficientBid);
    assert!(!options(&auction).contains(&OptionKind::LowestSufficientBid), "the insufficient bid was artificial");
    // A natural insufficient 1H may not be corrected by an artificial 2H under 27A.
    let auction = choose(&rec(&digital(N, RUBBER, &["1NT"]), E, "1H"), OptionKind::RejectInsufficientBid);
    let choice = AuctionChoice::with_call(OptionKind::LowestSufficientBid, call("2H"));
    let err = auction.rectify_artificial(choice, SuitSet::of(&[Suit::Hearts, Suit::Clubs])).unwrap_err();
    assert!(matches!(err, AuctionError::ReplacementNotAllowed { law, .. } if law == Law::rubber(27, "A")), "{err}");
    assert!(auction.rectify(choice).is_ok(), "the natural 2H is the 27A correction");
}

// ----- duplicate Law 26B -----

#[test]
fn law_26b_suits_specified_by_an_artificial_call_are_the_suits_it_relates_to() {
    // Law 26B: "declarer may ... prohibit offender's partner from leading any (one) suit which
    // has not been specified in the legal auction by the offender." East's insufficient 1S is
    // replaced by 2H (27B2: West passes throughout); East later bids an artificial 3C showing
    // hearts and spades. He has specified hearts and spades, not clubs.
    let start = choose(&rec(&digital(N, DUP, &["1NT"]), E, "1S"), OptionKind::RejectInsufficientBid);
    let start = choose_call(&start, OptionKind::OtherSufficientBidOrPass, "2H");
    let start = then(&start, &["2NT", "P", "P"]);
    let finish = |auction: Auction| contract(&then(&auction, &["3NT", "P", "P", "P"])).lead_penalties;
    let with_artificial = finish(artificial(&start, E, "3C", &MAJORS));
    assert_eq!(with_artificial, vec![forbid_one_of(W, &MINORS)]);
    // The same auction with a natural 3C: clubs and hearts specified.
    let with_natural = finish(rec(&start, E, "3C"));
    assert_eq!(with_natural, vec![forbid_one_of(W, &[Suit::Diamonds, Suit::Spades])]);
}

// ----- duplicate Law 27B1(a) -----

#[test]
fn law_27b1a_an_artificial_insufficient_bid_is_corrected_by_a_sufficient_bid_specifying_the_same_suits() {
    // Law 27B1(a): "if the insufficient bid is corrected by the lowest sufficient bid which
    // specifies the same denomination(s) as that specified by the withdrawn call, the auction
    // proceeds without further rectification." East's insufficient 1C showed the majors.
    let auction = artificial(&digital(N, DUP, &["1NT"]), E, "1C", &MAJORS);
    let auction = choose(&auction, OptionKind::RejectInsufficientBid);
    let option = auction.pending().unwrap().option(OptionKind::LowestSufficientBid).unwrap().clone();
    assert_eq!(option.call, CallRequirement::SufficientBidSpecifying(SuitSet::of(&MAJORS)));
    assert_eq!(option.chooser, Chooser::Official, "which bid is the lowest in their methods is the director's ruling");
    assert_eq!(option.law, Law::duplicate(27, "B1a"));
    // A natural 2C specifies clubs, not the majors.
    let choice = AuctionChoice::with_call(OptionKind::LowestSufficientBid, call("2C"));
    let err = auction.rectify(choice).unwrap_err();
    assert!(matches!(err, AuctionError::ReplacementNotAllowed { .. }), "{err}");
    // An artificial 2C showing the majors does.
    let corrected = auction.rectify_artificial(choice, SuitSet::of(&MAJORS)).unwrap();
    assert!(corrected.pending().is_none());
    assert_eq!(shown(&corrected), "N: 1NT 2C");
    assert!(corrected.restrictions().is_empty(), "no further rectification");
    let result = contract(&then(&corrected, &["3NT", "P", "P", "P"]));
    assert!(result.lead_penalties.is_empty(), "Law 26B does not apply");
}

#[test]
fn law_27b1a_a_natural_insufficient_bid_is_not_corrected_by_a_bid_specifying_other_suits() {
    // The natural insufficient 1H specified hearts; an artificial 2H showing spades does not
    // "specify the same denomination(s)".
    let auction = choose(&rec(&digital(N, DUP, &["1NT"]), E, "1H"), OptionKind::RejectInsufficientBid);
    let choice = AuctionChoice::with_call(OptionKind::LowestSufficientBid, call("2H"));
    let err = auction.rectify_artificial(choice, SuitSet::single(Suit::Spades)).unwrap_err();
    assert!(matches!(err, AuctionError::ReplacementNotAllowed { law, .. } if law == Law::duplicate(27, "B1a")));
    assert!(auction.rectify_artificial(choice, SuitSet::single(Suit::Hearts)).is_ok());
    assert!(auction.rectify(choice).is_ok());
}

#[test]
fn an_artificial_call_is_recorded_only_on_its_own_entry() {
    let auction = artificial(&digital(N, DUP, &["1NT"]), E, "2C", &MAJORS);
    let auction = rec_all(&auction, &["2NT", "P"]);
    let relations: Vec<Option<SuitSet>> = auction.calls().iter().map(|e| e.relates_to).collect();
    assert_eq!(relations, vec![None, Some(SuitSet::of(&MAJORS)), None, None]);
    assert!(auction.calls()[1].is_artificial() && !auction.calls()[2].is_artificial());
    // The announcement is spent: the auction equals one rebuilt the same way.
    let rebuilt = rec_all(&artificial(&digital(N, DUP, &["1NT"]), E, "2C", &MAJORS), &["2NT", "P"]);
    assert_eq!(auction, rebuilt);
}

#[test]
fn an_artificial_call_condoning_an_irregularity_is_recorded_on_the_callers_entry() {
    // Law 27A1: "Any insufficient bid may be accepted (treated as legal) at the option of
    // offender's LHO. It is accepted if that player calls." South's call over East's
    // insufficient 1H is an artificial 2H showing spades (a cue bid).
    let auction = rec(&digital(N, DUP, &["1S"]), E, "1H");
    let choice = AuctionChoice::with_call(OptionKind::AcceptByCalling, call("2H"));
    let accepted = auction.rectify_artificial(choice, SuitSet::single(Suit::Spades)).unwrap();
    let last = *accepted.calls().last().unwrap();
    assert_eq!((last.seat, last.relates_to), (S, Some(SuitSet::single(Suit::Spades))));
    assert_eq!(accepted.calls()[1].relates_to, None, "East's insufficient bid was natural");
    // A choice that carries no call has nothing to relate.
    let err = auction.rectify_artificial(AuctionChoice::new(OptionKind::AcceptByCalling), SuitSet::EMPTY).unwrap_err();
    assert!(matches!(err, AuctionError::WrongCallForOption { .. }), "{err}");
}
