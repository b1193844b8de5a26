//! Properties of recorded play with irregularities: random calls by random seats (out of
//! rotation, insufficient, inadmissible, above seven, after the close), random changes of call,
//! exposed cards, artificial calls (Law 26A), inadmissible doubles nobody noticed and attention
//! drawn to them later (Law 36), and random rectification choices never panic, keep the
//! auction's invariants, and replay to the same state (the game service rebuilds a table by
//! replaying its journal).
#![allow(clippy::unwrap_used)] // tests may unwrap: a panic is the failure report

use laws::auction::{Auction, AuctionOutcome};
use laws::cards::Card;
use laws::irregularities::auction::{AuctionChoice, CallRequirement, RecordedCall};
use laws::{Bid, Call, Code, Denomination, Seat, Suit, SuitSet};
use proptest::prelude::*;

/// One accepted action, as a journal would store it.
#[derive(Debug, Clone)]
enum Action {
    Record(Seat, RecordedCall),
    Change(Seat, RecordedCall),
    Expose(Seat, Vec<Card>, bool),
    Rectify(AuctionChoice),
    Artificial(Seat, RecordedCall, SuitSet),
    Unnoticed(Seat, RecordedCall),
    Attention(usize),
}

fn apply(auction: &Auction, action: &Action) -> Result<Auction, laws::auction::AuctionError> {
    match action {
        Action::Record(seat, call) => auction.record(*seat, *call).map(|r| r.into_auction()),
        Action::Change(seat, call) => auction.change_call(*seat, *call).map(|r| r.into_auction()),
        Action::Expose(seat, cards, led) => auction.expose_cards(*seat, cards, *led).map(|r| r.into_auction()),
        Action::Rectify(choice) => auction.rectify(*choice),
        Action::Artificial(seat, call, suits) => {
            auction.record_artificial(*seat, *call, *suits).map(|r| r.into_auction())
        }
        Action::Unnoticed(seat, call) => auction.record_unnoticed(*seat, *call).map(|r| r.into_auction()),
        Action::Attention(entry) => auction.draw_attention_to(*entry).map(|r| r.into_auction()),
    }
}

const ALL_CALLS: usize = 38;

fn nth_call(n: usize) -> Call {
    match n % ALL_CALLS {
        0 => Call::Pass,
        1 => Call::Double,
        2 => Call::Redouble,
        k => Bid::all().nth(k - 3).map_or(Call::Pass, Call::Bid),
    }
}

/// A call as made at a table: mostly passes and low bids (so auctions end), sometimes a
/// double, a redouble or a bid above seven.
fn table_call(pick: u8, level_pick: u8) -> RecordedCall {
    match pick % 16 {
        0..=6 => RecordedCall::Pass,
        7 => RecordedCall::Double,
        8 => RecordedCall::Redouble,
        p => RecordedCall::Bid { level: 1 + level_pick % 8, denomination: Denomination::ALL[usize::from(p) % 5] },
    }
}

/// Builds an action from random bytes for the current state.
fn pick_action(auction: &Auction, bytes: [u8; 5]) -> Action {
    let [kind, seat, a, b, c] = bytes;
    let seat = Seat::from_index(usize::from(seat));
    if let Some(pending) = auction.pending()
        && kind % 4 != 0
    {
        let option = &pending.options()[usize::from(a) % pending.options().len()];
        let call = match option.call {
            CallRequirement::None => None,
            CallRequirement::Exactly(call) => Some(call),
            _ => Some(nth_call(usize::from(b))),
        };
        return Action::Rectify(AuctionChoice { option: option.kind, call });
    }
    match kind % 32 {
        0 => Action::Change(seat, table_call(a, b)),
        1 => {
            let first = Card::from_index(usize::from(a) % 52).unwrap_or_else(|| unreachable!());
            let second = Card::from_index(usize::from(b) % 52).unwrap_or_else(|| unreachable!());
            let cards = if c % 2 == 0 || first == second { vec![first] } else { vec![first, second] };
            Action::Expose(seat, cards, c % 3 == 0)
        }
        2 => Action::Artificial(
            auction.next_to_call().unwrap_or(seat),
            table_call(a, b),
            SuitSet::of(&Suit::ALL.iter().copied().filter(|s| c & (1 << s.index()) != 0).collect::<Vec<_>>()),
        ),
        3 => Action::Unnoticed(auction.next_to_call().unwrap_or(seat), table_call(a, b)),
        4 => Action::Attention(usize::from(a) % auction.calls().len().max(1)),
        // Mostly the player in turn, sometimes anyone.
        5..=9 => Action::Record(seat, table_call(a, b)),
        _ => Action::Record(auction.next_to_call().unwrap_or(seat), table_call(a, b)),
    }
}

fn check_invariants(auction: &Auction) -> Result<(), TestCaseError> {
    for entry in auction.calls() {
        if entry.status.stands() {
            prop_assert!(entry.call.legal().is_some(), "a bid above seven stands: {:?}", entry);
        }
    }
    if auction.pending().is_none() {
        let orphan = auction.calls().iter().find(|e| e.status == laws::auction::CallStatus::Pending);
        prop_assert!(orphan.is_none(), "a call left pending with nothing to rectify: {:?}", orphan);
    }
    match auction.pending() {
        Some(pending) => {
            prop_assert!(!pending.options().is_empty(), "an irregularity with no options: {:?}", pending);
            prop_assert!(auction.outcome().is_none());
            prop_assert!(auction.legal_calls().is_empty());
        }
        None if auction.is_closed() => {
            prop_assert!(auction.outcome().is_some());
            prop_assert!(auction.next_to_call().is_none());
        }
        None => {
            prop_assert!(auction.next_to_call().is_some());
            prop_assert!(auction.outcome().is_none());
            for call in auction.legal_calls() {
                prop_assert!(auction.call(call).is_ok(), "{} offered but refused in {}", call, auction);
            }
        }
    }
    if let Some(AuctionOutcome::Contract(result)) = auction.outcome() {
        let declaring = result.contract.declaring_side();
        for penalty in &result.lead_penalties {
            prop_assert!(penalty.player.side() != declaring, "a lead penalty on the declaring side");
        }
        for card in &result.penalty_cards {
            prop_assert!(card.owner.side() != declaring, "a penalty card on the declaring side");
        }
    }
    Ok(())
}

fn any_code() -> impl Strategy<Value = Code> {
    prop_oneof![Just(Code::Rubber), Just(Code::Duplicate), Just(Code::Club)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_recorded_play_keeps_the_invariants_and_replays_to_the_same_state(
        dealer in (0usize..4).prop_map(Seat::from_index),
        code in any_code(),
        steps in proptest::collection::vec(any::<[u8; 5]>(), 1..160),
    ) {
        let start = Auction::new(dealer, code);
        let mut auction = start.clone();
        let mut journal = Vec::new();
        for bytes in steps {
            let action = pick_action(&auction, bytes);
            let before = auction.clone();
            match apply(&auction, &action) {
                Ok(next) => {
                    auction = next;
                    journal.push(action);
                    check_invariants(&auction)?;
                }
                // A refused action changes nothing.
                Err(_) => prop_assert_eq!(&auction, &before),
            }
        }
        let replayed = journal
            .iter()
            .try_fold(start, |a, action| apply(&a, action))
            .map_err(|e| TestCaseError::fail(format!("replay refused: {e}")))?;
        prop_assert_eq!(replayed, auction);
    }
}
