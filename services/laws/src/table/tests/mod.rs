//! The deal in progress at one table, driven through its actions as a service drives it:
//! the helpers every test shares, and one module per way a table plays or ends a deal.

mod claim_play;
mod digital;
mod endings;
mod misinformation;
mod recorded_auction;
mod recorded_play;

use super::*;
use crate::cards::{CardSet, Suit, SuitSet};
use crate::contract::Vulnerability;
use crate::irregularities::play::Designation;
use crate::play::{Play, PlayError};
use crate::score::honors::{Honors, HonorsClaim, honors_claim};
use crate::seat::Side;

/// North: S AKQJ H T98 D 765 C 432; East: S T98 H 765 D 432 C AKQJ; South: S 765 H 432 D AKQJ
/// C T98; West: S 432 H AKQJ D T98 C 765.
const PBN: &str = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765";

fn deal() -> Deal {
    PBN.parse().unwrap()
}

fn setup(code: Code, mode: Mode) -> Setup {
    let hands = match mode {
        Mode::Digital => Hands::Seeded(DealSeed([7; 32])),
        Mode::Recorded => Hands::Entered(deal()),
    };
    Setup { code, mode, dealer: Seat::North, vulnerability: Vulnerability::None, hands, result_only: false }
}

fn start(code: Code, mode: Mode) -> DealInProgress {
    DealInProgress::start(setup(code, mode)).unwrap().0
}

fn apply(table: &DealInProgress, action: Action) -> (DealInProgress, Vec<Event>) {
    table.apply(&action).unwrap_or_else(|e| panic!("{action:?} refused: {e}"))
}

fn call(table: &DealInProgress, seat: Seat, call: &str) -> DealInProgress {
    apply(table, Action::Call { seat, call: call.parse().unwrap(), relates_to: None }).0
}

fn calls(mut table: DealInProgress, calls: &[(Seat, &str)]) -> DealInProgress {
    for (seat, c) in calls {
        table = call(&table, *seat, c);
    }
    table
}

fn card(table: &DealInProgress, seat: Seat, card: &str) -> (DealInProgress, Vec<Event>) {
    apply(table, Action::Play { seat, card: card.parse().unwrap() })
}

/// 1S by North, raised to 4S: North declares, East leads, South is dummy.
fn four_spades(table: DealInProgress) -> DealInProgress {
    use Seat::*;
    calls(table, &[(North, "1S"), (East, "Pass"), (South, "2S"), (West, "Pass"), (North, "4S")])
        .pipe(|t| calls(t, &[(East, "Pass"), (South, "Pass"), (West, "Pass")]))
}

trait Pipe: Sized {
    fn pipe<T>(self, f: impl FnOnce(Self) -> T) -> T {
        f(self)
    }
}
impl<T> Pipe for T {}

/// Plays the rest of the deal, each hand its first legal card.
fn play_out(mut table: DealInProgress) -> DealInProgress {
    while let Some(play) = table.play().filter(|p| !table.is_over() && !p.is_complete()) {
        let seat = play.next_to_play().unwrap();
        let card = play.legal_cards().iter().next().unwrap();
        table = apply(&table, Action::Play { seat, card }).0;
    }
    table
}

fn option(table: &DealInProgress, name: &str) -> (u32, usize) {
    let decision = table.open_decision().unwrap_or_else(|| panic!("no decision open; wanted {name}"));
    let index = decision.options.iter().position(|o| o.name == name).unwrap_or_else(|| {
        panic!("{name} not offered: {:?}", decision.options.iter().map(|o| &o.name).collect::<Vec<_>>())
    });
    (decision.id, index)
}

fn choose(table: &DealInProgress, name: &str, call: Option<&str>, by: Actor) -> (DealInProgress, Vec<Event>) {
    let (decision, option) = option(table, name);
    apply(table, Action::Choose { decision, option, call: call.map(|c| c.parse().unwrap()), by, relates_to: None })
}

fn play_fact(kind: FactKind, offender: Seat, card: &str) -> Fact {
    Fact {
        kind,
        offender,
        call: None,
        card: Some(card.parse().unwrap()),
        trick: None,
        deliberate: false,
        designation: None,
        also_visible: Vec::new(),
        misinformed: None,
        relates_to: None,
        description: String::new(),
    }
}

fn call_fact(kind: FactKind, offender: Seat, call: &str) -> Fact {
    Fact { call: Some(call.parse().unwrap()), card: None, ..play_fact(kind, offender, "C2") }
}
