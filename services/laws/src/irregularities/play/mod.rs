//! Irregularities of the play period (Laws 48-71 of both codes): what happened, the options the
//! Laws give and to whom, and the effects of each option.
//!
//! The play engine ([`crate::play::Play`]) turns an irregularity into a pending [`Decision`]. A
//! decision lists its [`Offer`]s; each offer is a [`PlayOption`] (plain data that a client can
//! send back), the Law that provides it and the [`Effect`]s it will have. The engine then
//! applies the chosen option with [`crate::play::Play::rectify`] and enforces its effects in
//! later plays.
//!
//! ```
//! use laws::irregularities::play::{LeadChoice, PlayOption, Suits};
//! use laws::Suit;
//!
//! let option = PlayOption::RejectLead { lead: Some(LeadChoice::Forbid(Suits::single(Suit::Hearts))) };
//! assert_eq!(
//!     option.to_string(),
//!     "refuse the lead: the card becomes a major penalty card, and forbid the lead of hearts \
//!      while the proper leader retains the lead"
//! );
//! ```

// The decision and its offers are here; the values they are made of are in modules by
// concern: sets of suits and seats, options, effects, situations, retractions, designations.
mod designation;
mod effect;
mod option;
mod retraction;
mod sets;
mod situation;

use std::fmt;

use crate::irregularities::Chooser;
use crate::law::Law;

pub use designation::Designation;
pub use effect::Effect;
pub use option::{LeadChoice, PlayOption, PlayRequirement, TwelfthTrickCard};
pub use retraction::Retraction;
pub use sets::{Seats, Suits};
pub use situation::Situation;

/// One option on offer: what the chooser may send back, the Law that provides it, and what it
/// will do.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Offer {
    /// The option, to send back to [`crate::play::Play::rectify`].
    pub option: PlayOption,
    /// The Law that provides it.
    pub law: Law,
    /// What choosing it does.
    pub effects: Vec<Effect>,
}

impl fmt::Display for Offer {
    /// A description a player can read: "accept the lead out of turn (Law 54B of the Laws of
    /// Duplicate Bridge)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.option, self.law)
    }
}

/// A decision the play is waiting for: nobody plays until it is made (Law 9B2 duplicate,
/// Law 13 rubber).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Decision {
    /// What happened.
    pub situation: Situation,
    /// Whom the Laws give the choice.
    pub chooser: Chooser,
    /// The players who may make it (empty when the official decides).
    pub seats: Seats,
    /// The Law that governs the situation.
    pub law: Law,
    /// The options, each with its Law and effects.
    pub offers: Vec<Offer>,
}

impl Decision {
    /// Whether `option` is one of the offers.
    pub fn offers(&self, option: &PlayOption) -> bool {
        self.offers.iter().any(|offer| offer.option == *option)
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}); {} chooses", self.situation, self.law, self.chooser)
    }
}
