//! Journals replay as history: an action the Laws accepted when it was made replays as it was
//! accepted, whatever today's rules would say of it.
//!
//! A service stores the actions a table accepted and rebuilds the deal by replaying them. If
//! replay judged each stored action again, a later fix to a rule would make an old deal
//! unreadable (or different). So an action is stored with the [`crate::RULES_VERSION`] that
//! accepted it, and [`DealInProgress::replay`] judges again only what these rules accepted (a
//! refusal there means the record is not what it claims); an action another version accepted goes
//! through [`DealInProgress::apply_unchecked`], the trusted path, as a chess library's
//! `play_unchecked` sits beside its checked `play`. New actions only ever go through the checked
//! [`DealInProgress::apply`].
//!
//! What the trusted path takes as given is what a rule change could have judged differently:
//! whether a digital call was legal (Laws 18, 19, 27, 36-37 and the restrictions rectifications
//! leave; [`crate::auction::Auction::call_unchecked`]), whether a digital card was
//! ([`crate::play::Play::card_unchecked`]: Laws 44, 26, 50-57), whether play waits for the official
//! (Club Law 13; duplicate Law 9B2), and whether an entered result agrees with the auction and its
//! honors with the hands (Laws 22, 77, 81). What no version of the rules could accept still
//! fails, with an error, never a panic: a call after the auction closed, a card not in the hand
//! due to play, an action after the deal ended, a choice of a decision that does not exist.
//! Every other action replays through the same code as a new one.

use super::{Action, DealInProgress, Event, TableError};
use crate::RULES_VERSION;

/// The first rules version that asks for the word on equity after an established revoke before a
/// deal ends (Law 64).
const EQUITY_ENTRY_VERSION: u32 = 2;

/// Whether an action is judged by the Laws or trusted as judged already.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Checks {
    /// Judged by these rules: every new action.
    Laws,
    /// Accepted when it was made (see the module docs).
    Trusted,
}

/// Why a stored action did not replay: the record is at fault, never the caller.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// These rules accepted the action when it was made, and refuse it now on the same deal: the
    /// record is not what it says it is.
    #[error("rules version {version} accepted it when it was made and refuses it now: {error}")]
    Refused {
        /// The version that stored it (this one).
        version: u32,
        /// The refusal.
        error: TableError,
    },
    /// No version of the rules could have accepted it on this deal: it cannot be applied.
    #[error("it cannot be applied to the deal as replayed (stored under rules version {version}): {error}")]
    Impossible {
        /// The version that stored it.
        version: u32,
        /// Why it cannot be applied.
        error: TableError,
    },
}

impl DealInProgress {
    /// **Trusted input only**: applies `action` as the Laws accepted it when it was made (see
    /// the [module docs](self) for what is taken as given). For an action [`DealInProgress::apply`]
    /// accepts, the result is the same; what is refused cannot be applied under any rules.
    ///
    /// ```
    /// use laws::table::{Action, DealInProgress, Hands, Mode, Setup};
    /// use laws::{Code, DealSeed, Seat, Vulnerability};
    ///
    /// let setup = Setup {
    ///     code: Code::Duplicate,
    ///     mode: Mode::Digital,
    ///     dealer: Seat::North,
    ///     vulnerability: Vulnerability::None,
    ///     hands: Hands::Seeded(DealSeed([3; 32])),
    ///     result_only: false,
    /// };
    /// let (table, _) = DealInProgress::start(setup)?;
    /// let call = |seat, call: &str| Action::Call { seat, call: call.parse().unwrap(), relates_to: None };
    /// let (table, _) = table.apply(&call(Seat::North, "1S"))?;
    /// // Today's Laws refuse East's insufficient 1H at a digital table (Law 27)...
    /// assert!(table.apply(&call(Seat::East, "1H")).is_err());
    /// // ...but a journal that kept it as accepted replays it as made.
    /// let (replayed, _) = table.apply_unchecked(&call(Seat::East, "1H"))?;
    /// assert_eq!(replayed.auction().to_string(), "N: 1S 1H");
    /// assert_eq!(replayed.next_to_act(), Some(Seat::South));
    /// // Nothing makes a call out of turn at a digital table possible.
    /// assert!(table.apply_unchecked(&call(Seat::West, "2S")).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn apply_unchecked(&self, action: &Action) -> Result<(DealInProgress, Vec<Event>), TableError> {
        self.advance(action, Checks::Trusted)
    }

    /// Replays an action a journal kept, which the rules of `version` accepted when it was made:
    /// judged again by these rules if they are that version (so a record that does not match them
    /// is found out), trusted ([`DealInProgress::apply_unchecked`]) if another version accepted
    /// it.
    pub fn replay(&self, action: &Action, version: u32) -> Result<(DealInProgress, Vec<Event>), ReplayError> {
        if version == RULES_VERSION {
            self.apply(action).map_err(|error| ReplayError::Refused { version, error })
        } else if version < EQUITY_ENTRY_VERSION && !self.before_equity_entry {
            let mut earlier = self.clone();
            earlier.before_equity_entry = true;
            earlier.apply_unchecked(action).map_err(|error| ReplayError::Impossible { version, error })
        } else {
            self.apply_unchecked(action).map_err(|error| ReplayError::Impossible { version, error })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Card, DealSeed};
    use crate::contract::{Call, Vulnerability};
    use crate::law::Code;
    use crate::seat::Seat;
    use crate::table::{Hands, Mode, Phase, Setup};

    fn digital(code: Code) -> DealInProgress {
        let setup = Setup {
            code,
            mode: Mode::Digital,
            dealer: Seat::North,
            vulnerability: Vulnerability::None,
            hands: Hands::Seeded(DealSeed([11; 32])),
            result_only: false,
        };
        DealInProgress::start(setup).unwrap().0
    }

    fn call(seat: Seat, call: &str) -> Action {
        Action::Call { seat, call: call.parse::<Call>().unwrap(), relates_to: None }
    }

    /// Plays a deal through the checked path, the lowest legal card each time, and checks that
    /// every action gives the same state and events on the trusted path.
    #[test]
    fn every_action_the_laws_accept_replays_the_same_on_the_trusted_path() {
        for code in [Code::Rubber, Code::Club, Code::Duplicate] {
            let mut table = digital(code);
            let calls = [(Seat::North, "1C"), (Seat::East, "X"), (Seat::South, "XX"), (Seat::West, "1S")];
            let passes = [(Seat::North, "Pass"), (Seat::East, "Pass"), (Seat::South, "Pass")];
            for (seat, text) in calls.into_iter().chain(passes) {
                let action = call(seat, text);
                let checked = table.apply(&action).unwrap();
                assert_eq!(table.apply_unchecked(&action).unwrap(), checked, "{code:?} {seat} {text}");
                assert_eq!(table.replay(&action, RULES_VERSION).unwrap(), checked);
                assert_eq!(table.replay(&action, RULES_VERSION + 1).unwrap(), checked);
                table = checked.0;
            }
            while table.phase() == Phase::Play {
                let play = table.play().unwrap();
                let card: Card = play.legal_cards().iter().next().unwrap();
                let action = Action::Play { seat: play.next_to_play().unwrap(), card };
                let checked = table.apply(&action).unwrap();
                assert_eq!(table.apply_unchecked(&action).unwrap(), checked, "{code:?} {card}");
                table = checked.0;
            }
            assert_eq!(table.phase(), Phase::Finished);
        }
    }

    #[test]
    fn a_revoke_these_rules_refuse_replays_as_played_when_another_version_accepted_it() {
        let deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765".parse().unwrap();
        let setup = Setup {
            code: Code::Duplicate,
            mode: Mode::Digital,
            dealer: Seat::North,
            vulnerability: Vulnerability::None,
            hands: Hands::Entered(deal),
            result_only: false,
        };
        let mut table = DealInProgress::start(setup).unwrap().0;
        for (seat, text) in [(Seat::North, "1NT"), (Seat::East, "Pass"), (Seat::South, "Pass"), (Seat::West, "Pass")] {
            table = table.apply(&call(seat, text)).unwrap().0;
        }
        let play = |seat, card: &str| Action::Play { seat, card: card.parse().unwrap() };
        table = table.apply(&play(Seat::East, "ST")).unwrap().0;
        // Dummy (South) holds spades: a heart is a revoke, which Law 44C refuses at a digital table.
        let revoke = play(Seat::South, "H4");
        assert!(table.apply(&revoke).is_err());
        let refused = table.replay(&revoke, RULES_VERSION).unwrap_err();
        assert!(matches!(refused, ReplayError::Refused { .. }), "{refused}");
        let (replayed, events) = table.replay(&revoke, RULES_VERSION - 1).unwrap();
        let trick = replayed.play().unwrap().current_trick().unwrap().cards();
        assert_eq!(trick.iter().flatten().count(), 2, "{events:?}");
        assert_eq!(replayed.play().unwrap().next_to_play(), Some(Seat::West));
        assert!(replayed.play().unwrap().revokes().is_empty(), "as accepted: no revoke was noted then");
    }

    #[test]
    fn what_no_rules_could_accept_fails_with_an_error() {
        let table = digital(Code::Rubber);
        let error = table.replay(&Action::Play { seat: Seat::East, card: "SA".parse().unwrap() }, 0).unwrap_err();
        assert!(matches!(error, ReplayError::Impossible { version: 0, .. }), "{error}");
        assert!(error.to_string().contains("rules version 0"), "{error}");
        let out_of_turn = table.replay(&call(Seat::South, "1H"), 0).unwrap_err();
        assert!(matches!(out_of_turn, ReplayError::Impossible { .. }), "{out_of_turn}");
    }
}
