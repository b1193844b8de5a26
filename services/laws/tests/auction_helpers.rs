//! Helpers shared by the auction tests (included with `#[path]`; as a test target of its own
//! it has no tests).
#![allow(dead_code)]

use laws::auction::{Auction, AuctionOutcome, ContractOutcome, Recorded};
use laws::irregularities::auction::{AuctionChoice, IrregularityKind, OptionKind, RecordedCall, Restriction};
use laws::{Bid, Call, Code, Denomination, Seat};

pub use laws::Seat::{East as E, North as N, South as S, West as W};

/// A call from score-sheet text: `1H`, `3NT`, `P`, `X`, `XX`.
pub fn call(text: &str) -> Call {
    text.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// A bid from score-sheet text.
pub fn bid(text: &str) -> Bid {
    text.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// A call as made at the table, allowing levels above seven: `8S`, `1H`, `P`.
pub fn made(text: &str) -> RecordedCall {
    let t = text.trim().to_ascii_uppercase();
    match t.as_str() {
        "P" | "PASS" => RecordedCall::Pass,
        "X" => RecordedCall::Double,
        "XX" => RecordedCall::Redouble,
        _ => {
            let level = t[..1].parse::<u8>().unwrap_or_else(|e| panic!("{text}: {e}"));
            let denomination = match &t[1..] {
                "C" => Denomination::Clubs,
                "D" => Denomination::Diamonds,
                "H" => Denomination::Hearts,
                "S" => Denomination::Spades,
                "N" | "NT" => Denomination::NoTrump,
                other => panic!("unknown denomination {other}"),
            };
            RecordedCall::Bid { level, denomination }
        }
    }
}

/// An auction made through digital play from `dealer`.
pub fn digital(dealer: Seat, code: Code, calls: &[&str]) -> Auction {
    calls.iter().fold(Auction::new(dealer, code), |a, c| a.call(call(c)).unwrap_or_else(|e| panic!("{c}: {e}")))
}

/// Continues an auction with calls in digital play.
pub fn then(auction: &Auction, calls: &[&str]) -> Auction {
    calls.iter().fold(auction.clone(), |a, c| a.call(call(c)).unwrap_or_else(|e| panic!("{c}: {e}")))
}

/// The Law of the option by which the offender's left-hand opponent condones by calling.
pub fn accept_law(auction: &Auction) -> laws::Law {
    auction
        .pending()
        .and_then(|p| p.option(OptionKind::AcceptByCalling))
        .unwrap_or_else(|| panic!("no acceptance by calling offered in {auction}"))
        .law
}

/// Records `seat`'s call; panics if the record itself is refused.
pub fn rec(auction: &Auction, seat: Seat, text: &str) -> Auction {
    auction.record(seat, made(text)).unwrap_or_else(|e| panic!("{seat} {text}: {e}")).into_auction()
}

/// Records calls in turn, each expected to be simply made.
pub fn rec_all(auction: &Auction, calls: &[&str]) -> Auction {
    calls.iter().fold(auction.clone(), |a, c| {
        let seat = a.next_to_call().unwrap_or_else(|| panic!("closed before {c}"));
        match a.record(seat, made(c)).unwrap_or_else(|e| panic!("{c}: {e}")) {
            Recorded::Made(next) => next,
            Recorded::AwaitingRectification(next) => panic!("{c} was irregular: {:?}", next.pending()),
        }
    })
}

/// Applies the option `kind`.
pub fn choose(auction: &Auction, kind: OptionKind) -> Auction {
    auction.rectify(AuctionChoice::new(kind)).unwrap_or_else(|e| panic!("{kind:?}: {e}"))
}

/// Applies the option `kind` carrying `text`.
pub fn choose_call(auction: &Auction, kind: OptionKind, text: &str) -> Auction {
    auction.rectify(AuctionChoice::with_call(kind, call(text))).unwrap_or_else(|e| panic!("{kind:?} {text}: {e}"))
}

/// The kind of the pending irregularity.
pub fn pending_kind(auction: &Auction) -> IrregularityKind {
    auction.pending().unwrap_or_else(|| panic!("nothing pending in {auction}")).irregularity().kind.clone()
}

/// The kinds of the options offered.
pub fn options(auction: &Auction) -> Vec<OptionKind> {
    auction.pending().map(|p| p.options().iter().map(|o| o.kind).collect()).unwrap_or_default()
}

/// The legal auction as text: `N: 1H P 2H`.
pub fn shown(auction: &Auction) -> String {
    auction.to_string()
}

/// The contract outcome, which must exist.
pub fn contract(auction: &Auction) -> ContractOutcome {
    match auction.outcome() {
        Some(AuctionOutcome::Contract(c)) => c,
        other => panic!("expected a contract, got {other:?} for {auction}"),
    }
}

/// Whether `seat` is barred from calling for the rest of the auction.
pub fn barred_throughout(auction: &Auction, seat: Seat) -> bool {
    auction.restrictions().iter().any(|r| {
        matches!(r, Restriction::MustPass { seat: s, duration: laws::irregularities::auction::PassDuration::RestOfAuction, .. } if *s == seat)
    })
}

/// Whether `seat` must pass at his next turn only.
pub fn barred_next_turn(auction: &Auction, seat: Seat) -> bool {
    auction.restrictions().iter().any(|r| {
        matches!(r, Restriction::MustPass { seat: s, duration: laws::irregularities::auction::PassDuration::NextTurn, .. } if *s == seat)
    })
}
