//! Helpers shared by the play tests.
#![allow(dead_code)]

use laws::play::{Play, Recorded};
use laws::{Card, Code, Contract, Deal, DeclaredContract, Seat};

/// Each suit has one hand with the top four cards:
/// spades N AKQJ, E T98, S 765, W 432; hearts W AKQJ, N T98, E 765, S 432;
/// diamonds S AKQJ, W T98, N 765, E 432; clubs E AKQJ, S T98, W 765, N 432.
pub const DEAL: &str = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765";

pub fn card(text: &str) -> Card {
    text.parse().unwrap_or_else(|e| panic!("{e}"))
}

pub fn deal(pbn: &str) -> Deal {
    pbn.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// The play of `pbn` in `contract` by `declarer` under `code`, with no obligations carried.
pub fn start(pbn: &str, contract: &str, declarer: Seat, code: Code) -> Play {
    let contract: Contract = contract.parse().unwrap_or_else(|e| panic!("{e}"));
    Play::new(deal(pbn), DeclaredContract { contract, declarer }, code, vec![], vec![])
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Plays the cards digitally in order.
pub fn cards(play: &Play, cards: &[&str]) -> Play {
    cards.iter().fold(play.clone(), |p, c| p.card(card(c)).unwrap_or_else(|e| panic!("{c}: {e}")))
}

/// Records cards at the table, each with its seat.
pub fn record(play: &Play, plays: &[(Seat, &str)]) -> Play {
    plays.iter().fold(play.clone(), |p, (seat, c)| recorded(&p, *seat, c).play)
}

pub fn recorded(play: &Play, seat: Seat, c: &str) -> Recorded {
    play.record(seat, card(c)).unwrap_or_else(|e| panic!("{seat} {c}: {e}"))
}

/// The error of an action the test expects the engine to refuse.
pub trait Refused<E> {
    fn refused(self) -> E;
}

impl<T: std::fmt::Debug, E> Refused<E> for Result<T, E> {
    fn refused(self) -> E {
        match self {
            Ok(value) => panic!("expected a refusal, got {value:?}"),
            Err(error) => error,
        }
    }
}
