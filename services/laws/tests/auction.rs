//! The auction's correct procedure (Laws 17-22 of both codes), digital play, and properties
//! of random legal auctions.
#![allow(clippy::unwrap_used)] // tests may unwrap: a panic is the failure report

#[path = "auction_helpers.rs"]
mod helpers;

use helpers::*;
use laws::auction::{Auction, AuctionError, AuctionOutcome, Recorded};
use laws::irregularities::auction::DoubleFault;
use laws::{Call, CitesLaw, Code, Denomination, Doubling, Law, Seat, Side};
use proptest::prelude::*;

#[test]
fn law_17_the_dealer_calls_first_and_each_player_calls_in_rotation() {
    let auction = Auction::new(E, Code::Rubber);
    assert_eq!(auction.next_to_call(), Some(E));
    let auction = auction.call(call("P")).unwrap();
    assert_eq!(auction.next_to_call(), Some(S));
    let auction = auction.call(call("1C")).unwrap();
    assert_eq!(auction.next_to_call(), Some(W));
    assert_eq!(auction.standing_calls().collect::<Vec<_>>(), vec![(E, Call::Pass), (S, call("1C"))]);
}

#[test]
fn law_17_three_passes_in_rotation_after_any_call_close_the_auction() {
    let auction = digital(N, Code::Rubber, &["1H", "P", "P"]);
    assert!(!auction.is_closed());
    let auction = auction.call(call("P")).unwrap();
    assert!(auction.is_closed());
    assert_eq!(auction.next_to_call(), None);
}

#[test]
fn law_18_a_bid_must_supersede_the_last_bid_or_it_is_insufficient_law_27() {
    let auction = digital(N, Code::Rubber, &["1S"]);
    let err = auction.call(call("1H")).unwrap_err();
    assert_eq!(err.to_string(), "insufficient bid 1H over 1S (Law 27 of the Laws of Rubber Bridge)");
    assert_eq!(err.law(), Law::rubber(27, ""));
    assert!(auction.call(call("1S")).is_err(), "the same bid does not supersede");
    assert!(auction.call(call("1NT")).is_ok(), "same level, higher denomination");
    assert!(auction.call(call("2C")).is_ok(), "greater level, any denomination");
}

#[test]
fn law_19_a_player_may_double_only_the_last_bid_made_by_an_opponent_with_only_passes_since() {
    let opening = digital(N, Code::Duplicate, &["1H"]);
    assert!(opening.call(call("X")).is_ok(), "East doubles North's bid");
    let err = digital(N, Code::Duplicate, &["1H", "P"]).call(call("X")).unwrap_err();
    assert!(matches!(err, AuctionError::InadmissibleDouble { fault: DoubleFault::OwnSideBid, .. }), "{err}");
    assert_eq!(
        err.to_string(),
        "South may not call X: the last bid was made by his own side (Law 19 of the Laws of Duplicate Bridge)"
    );
    assert!(digital(N, Code::Duplicate, &["1H", "P", "P"]).call(call("X")).is_ok(), "passes may intervene");
    let err = Auction::new(N, Code::Rubber).call(call("X")).unwrap_err();
    assert!(matches!(err, AuctionError::InadmissibleDouble { fault: DoubleFault::NoBid, .. }));
    let err = digital(N, Code::Rubber, &["1H", "X", "P"]).call(call("X")).unwrap_err();
    assert!(matches!(err, AuctionError::InadmissibleDouble { fault: DoubleFault::AlreadyDoubled, .. }));
}

#[test]
fn law_19_a_player_may_redouble_only_the_last_double_made_by_an_opponent() {
    assert!(digital(N, Code::Rubber, &["1H", "X"]).call(call("XX")).is_ok());
    assert!(digital(N, Code::Rubber, &["1H", "X", "P", "P"]).call(call("XX")).is_ok(), "passes may intervene");
    let err = digital(N, Code::Rubber, &["1H", "X", "P"]).call(call("XX")).unwrap_err();
    assert!(matches!(err, AuctionError::InadmissibleDouble { fault: DoubleFault::OwnSideDouble, .. }), "{err}");
    let err = digital(N, Code::Rubber, &["1H", "P"]).call(call("XX")).unwrap_err();
    assert!(matches!(err, AuctionError::InadmissibleDouble { fault: DoubleFault::NoDouble, .. }));
    let err = digital(N, Code::Rubber, &["1H", "X", "XX", "P"]).call(call("XX")).unwrap_err();
    assert!(matches!(err, AuctionError::InadmissibleDouble { .. }));
}

#[test]
fn law_19_doubles_and_redoubles_are_superseded_by_a_later_legal_bid() {
    let auction = digital(N, Code::Rubber, &["1H", "X", "XX", "2C", "P", "P", "P"]);
    let result = contract(&auction);
    assert_eq!(result.contract.contract.doubling, Doubling::Undoubled);
    assert_eq!(result.contract.to_string(), "2C by West");
}

#[test]
fn law_22_the_final_bid_doubled_or_redoubled_becomes_the_contract() {
    let auction = digital(S, Code::Duplicate, &["1NT", "X", "XX", "P", "P", "P"]);
    let result = contract(&auction);
    assert_eq!(result.contract.to_string(), "1NTXX by South");
    assert!(result.lead_penalties.is_empty() && result.penalty_cards.is_empty());
}

#[test]
fn law_22_four_passes_pass_the_deal_out() {
    let auction = digital(W, Code::Rubber, &["P", "P", "P", "P"]);
    assert_eq!(auction.outcome(), Some(AuctionOutcome::PassedOut));
    assert_eq!(digital(W, Code::Duplicate, &["P", "P", "P", "P"]).outcome(), Some(AuctionOutcome::PassedOut));
}

#[test]
fn definitions_declarer_is_the_first_of_the_contracting_side_to_name_the_denomination() {
    // North opens 1C, South responds 1H, North raises to 2H: South named hearts first.
    let auction = digital(N, Code::Rubber, &["1C", "P", "1H", "P", "2H", "P", "4H", "P", "P", "P"]);
    assert_eq!(contract(&auction).contract.declarer, S);
    // West bid the final 4H, but his partner East named hearts first.
    let auction = digital(N, Code::Rubber, &["1S", "2H", "2S", "4H", "P", "P", "P"]);
    assert_eq!(contract(&auction).contract.declarer, E);
}

#[test]
fn law_39_digital_play_refuses_a_call_after_the_auction_closed() {
    let auction = digital(N, Code::Rubber, &["1H", "P", "P", "P"]);
    let err = auction.call(call("2H")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the auction is closed: a call after the final pass is cancelled (Law 39 of the Laws of Rubber Bridge)"
    );
}

#[test]
fn legal_calls_are_what_a_digital_table_offers() {
    let opening = Auction::new(N, Code::Rubber);
    assert_eq!(opening.legal_calls().len(), 36, "pass and the 35 bids; nothing to double");
    let after_1h = digital(N, Code::Rubber, &["1H"]);
    let calls = after_1h.legal_calls();
    assert!(calls.contains(&Call::Double) && !calls.contains(&Call::Redouble));
    assert!(!calls.contains(&call("1D")) && !calls.contains(&call("1H")) && calls.contains(&call("1S")));
    assert_eq!(calls.len(), 1 + 1 + 32);
    assert!(digital(N, Code::Rubber, &["1H", "P", "P", "P"]).legal_calls().is_empty());
    assert_eq!(digital(N, Code::Rubber, &["7NT", "X"]).legal_calls(), vec![Call::Pass, Call::Redouble]);
}

#[test]
fn chicago_and_club_use_the_rubber_auction_laws() {
    for code in [Code::Chicago, Code::Club] {
        let err = digital(N, code, &["1S"]).call(call("1H")).unwrap_err();
        assert_eq!(err.law(), Law::rubber(27, ""));
    }
}

#[test]
fn the_auction_displays_as_a_score_sheet() {
    assert_eq!(shown(&digital(E, Code::Rubber, &["P", "1D", "X"])), "E: Pass 1D X");
}

#[test]
fn law_18_a_recorded_bid_must_name_a_level() {
    let err = Auction::new(N, Code::Rubber)
        .record(N, laws::irregularities::auction::RecordedCall::Bid { level: 0, denomination: Denomination::Spades })
        .unwrap_err();
    assert_eq!(err.law(), Law::rubber(18, ""));
}

// ----- properties -----

/// An auction from random legal calls: each byte below 110 passes, others pick among all
/// legal calls. Returns the auction and the calls made with their seats.
fn random_auction(dealer: Seat, code: Code, picks: &[u8]) -> (Auction, Vec<(Seat, Call)>) {
    let mut auction = Auction::new(dealer, code);
    let mut made = Vec::new();
    for &pick in picks {
        let Some(seat) = auction.next_to_call() else { break };
        let legal = auction.legal_calls();
        let call = if pick < 110 { Call::Pass } else { legal[usize::from(pick) % legal.len()] };
        auction = auction.call(call).unwrap_or_else(|e| panic!("legal call refused: {e}"));
        made.push((seat, call));
    }
    (auction, made)
}

/// The contract computed directly from the Definitions, independently of the engine.
fn expected_contract(made: &[(Seat, Call)]) -> Option<(laws::Bid, Doubling, Seat)> {
    let (last_index, bidder, final_bid) = made.iter().enumerate().rev().find_map(|(i, (s, c))| match c {
        Call::Bid(b) => Some((i, *s, *b)),
        _ => None,
    })?;
    let doubling = made[last_index..].iter().fold(Doubling::Undoubled, |d, (_, c)| match c {
        Call::Double => Doubling::Doubled,
        Call::Redouble => Doubling::Redoubled,
        _ => d,
    });
    let side: Side = bidder.side();
    let declarer = made
        .iter()
        .find(|(s, c)| s.side() == side && matches!(c, Call::Bid(b) if b.denomination() == final_bid.denomination()))
        .map(|(s, _)| *s)?;
    Some((final_bid, doubling, declarer))
}

fn any_seat() -> impl Strategy<Value = Seat> {
    (0usize..4).prop_map(Seat::from_index)
}

fn any_code() -> impl Strategy<Value = Code> {
    prop_oneof![Just(Code::Rubber), Just(Code::Duplicate), Just(Code::Chicago), Just(Code::Club)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Laws 17-22: every random legal auction ends, with the declarer (Definitions) and
    /// doubling (Law 19) computed independently.
    #[test]
    fn every_random_legal_auction_ends_with_the_right_declarer_and_doubling(
        dealer in any_seat(),
        code in any_code(),
        picks in proptest::collection::vec(any::<u8>(), 320),
    ) {
        let (auction, made) = random_auction(dealer, code, &picks);
        prop_assert!(auction.is_closed(), "not closed after {} calls: {}", made.len(), auction);
        // Rotation: every call was made by the player after the previous caller (Law 17).
        for (i, (seat, _)) in made.iter().enumerate() {
            prop_assert_eq!(*seat, dealer.after(i));
        }
        // Closure: exactly three passes end it, after at least one call.
        prop_assert!(made.len() >= 4);
        prop_assert!(made[made.len() - 3..].iter().all(|(_, c)| *c == Call::Pass));
        prop_assert!(made[..made.len() - 3].last().is_some_and(|(_, c)| *c != Call::Pass) || made.len() == 4);
        match (auction.outcome(), expected_contract(&made)) {
            (Some(AuctionOutcome::PassedOut), None) => prop_assert_eq!(made.len(), 4),
            (Some(AuctionOutcome::Contract(result)), Some((bid, doubling, declarer))) => {
                prop_assert_eq!(result.contract.contract.bid, bid);
                prop_assert_eq!(result.contract.contract.doubling, doubling);
                prop_assert_eq!(result.contract.declarer, declarer);
                prop_assert!(result.lead_penalties.is_empty() && result.penalty_cards.is_empty());
            }
            (outcome, expected) => prop_assert!(false, "outcome {:?} but expected {:?}", outcome, expected),
        }
    }

    /// A random legal auction recorded call by call (recorded play) gives the same state as
    /// the same calls made in digital play.
    #[test]
    fn recording_a_legal_auction_gives_the_same_state_as_digital_play(
        dealer in any_seat(),
        code in any_code(),
        picks in proptest::collection::vec(any::<u8>(), 320),
    ) {
        let (digital, made) = random_auction(dealer, code, &picks);
        let mut recorded = Auction::new(dealer, code);
        for (seat, call) in &made {
            match recorded.record(*seat, (*call).into()) {
                Ok(Recorded::Made(next)) => recorded = next,
                other => prop_assert!(false, "{seat} {call}: {other:?}"),
            }
        }
        prop_assert_eq!(&recorded, &digital);
        prop_assert_eq!(recorded.outcome(), digital.outcome());
    }
}
