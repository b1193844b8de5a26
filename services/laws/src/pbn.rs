//! PBN 2.1 notation for the records the platform exports (the deal itself is
//! [`crate::cards::Deal::to_pbn`]; vulnerability is [`crate::Vulnerability::pbn`]).
//!
//! ```
//! use laws::pbn::{GameResult, result_tags, tag};
//!
//! let mut out = String::new();
//! tag(&mut out, "Event", "Club \"pairs\"");
//! result_tags(&mut out, GameResult::Played { contract: "4HX".parse()?, declarer: laws::Seat::South, tricks: 9 });
//! assert_eq!(out, "[Event \"Club \\\"pairs\\\"\"]\n[Declarer \"S\"]\n[Contract \"4HX\"]\n[Result \"9\"]\n");
//! # Ok::<(), laws::contract::ParseContractError>(())
//! ```

use std::fmt::Write;

use crate::contract::Contract;
use crate::seat::Seat;

/// Writes one tag pair, `[Name "value"]`, escaping `\` and `"` as PBN 2.1 (section 3.1) asks.
pub fn tag(out: &mut String, name: &str, value: &str) {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(out, "[{name} \"{escaped}\"]");
}

/// What a game's Declarer, Contract and Result tags say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    /// A contract played: declarer, contract, and the tricks declarer's side won (Law 77/81
    /// count, after any Law 64 transfer).
    Played {
        /// The contract.
        contract: Contract,
        /// Declarer.
        declarer: Seat,
        /// Tricks won by declarer's side.
        tricks: u8,
    },
    /// Four passes (Law 22A): the contract tag is `Pass`, declarer and result empty.
    PassedOut,
    /// Not known (not yet played, or an adjusted score): `?` in all three tags.
    Unknown,
}

/// Writes the Declarer, Contract and Result tags of `result` (PBN 2.1 sections 3.4.8-3.4.10).
pub fn result_tags(out: &mut String, result: GameResult) {
    match result {
        GameResult::Played { contract, declarer, tricks } => {
            tag(out, "Declarer", &declarer.letter().to_string());
            tag(out, "Contract", &contract.to_string());
            tag(out, "Result", &tricks.to_string());
        }
        GameResult::PassedOut => {
            tag(out, "Declarer", "");
            tag(out, "Contract", "Pass");
            tag(out, "Result", "");
        }
        GameResult::Unknown => {
            tag(out, "Declarer", "?");
            tag(out, "Contract", "?");
            tag(out, "Result", "?");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn law_22a_a_passed_out_deal_has_no_declarer_and_the_contract_pass() {
        let mut out = String::new();
        result_tags(&mut out, GameResult::PassedOut);
        assert_eq!(out, "[Declarer \"\"]\n[Contract \"Pass\"]\n[Result \"\"]\n");
        out.clear();
        result_tags(&mut out, GameResult::Unknown);
        assert_eq!(out, "[Declarer \"?\"]\n[Contract \"?\"]\n[Result \"?\"]\n");
    }
}
