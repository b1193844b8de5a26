//! Irregularities (Law 9 onward, and the Alternative Club Laws): what happened, the options
//! the Laws give and to whom, and the effects of each option.
//!
//! Nothing is decided silently: an irregularity becomes a pending decision whose options are
//! values; the player or official the Law names picks one, and the engine then enforces its
//! effects in later calls and plays.

pub mod auction;
pub mod play;

use std::fmt;

/// Who the Laws give a choice to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Chooser {
    /// The offender himself (for example, the replacement call after Law 27 or Law 25B).
    Offender,
    /// The offender's left-hand opponent (Law 27 acceptance, Law 29 acceptance of a call out
    /// of rotation).
    OffendersLho,
    /// Declarer (Law 26 lead penalties, Law 50D and 54 options after a lead out of turn).
    Declarer,
    /// Either member of the non-offending side (Law 64, Law 53, Law 55: "declarer or either
    /// defender" as the Law says).
    NonOffendingSide,
    /// The Arbiter (Alternative Club Laws) or the Director (duplicate), who rules where the
    /// Laws give the decision to an official or where a judgement is needed.
    Official,
}

impl fmt::Display for Chooser {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Chooser::Offender => "the offender",
            Chooser::OffendersLho => "the offender's left-hand opponent",
            Chooser::Declarer => "declarer",
            Chooser::NonOffendingSide => "the non-offending side",
            Chooser::Official => "the arbiter or director",
        })
    }
}
