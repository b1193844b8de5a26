//! Why a played card is taken back ([`Retraction`]): the grounds of Laws 45 and 47 a table
//! records as a fact. Apart from the situations because a retraction is recorded as a fact, not
//! decided.

use std::fmt;

use crate::cards::Card;
use crate::law::{Code, Law};
use crate::seat::Seat;

/// Why a played card is taken back, among the grounds of Law 47 that a table records as a fact
/// ([`crate::play::Play::retract`]). The other grounds are part of rectifications the engine
/// applies itself: to comply with a rectification or to correct an illegal play (duplicate Law
/// 47A-B, rubber Law 47A: Laws 52, 58 and 62, where a defender's withdrawn card becomes a
/// penalty card), and the proper lead after a lead out of turn (duplicate Law 47F1, Law 53B).
/// Otherwise a card once played may not be withdrawn (duplicate Law 47F2; rubber Law 45).
/// None of these grounds makes a penalty card: the card goes back to the hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Retraction {
    /// The player changes an unintended designation to `card`: declarer's designation of a card
    /// from dummy, after a slip of the tongue, until he next plays a card from either hand
    /// (duplicate Law 45C4(b), 47C); any player's inadvertent designation, changed without pause
    /// for thought (rubber Law 45D, 47B). An opponent who played after it may withdraw his card.
    ChangeOfDesignation {
        /// The card designated instead.
        card: Card,
    },
    /// Dummy placed in the played position a card declarer did not name, and attention was
    /// drawn to it before each side played to the next trick: it is withdrawn and `named` is
    /// played instead; a defender who played after it may withdraw his card (duplicate Law
    /// 45D1; rubber Law 46).
    UndesignatedDummyCard {
        /// The card declarer named.
        named: Card,
    },
    /// The player led or played out of turn because an opponent, `by`, mistakenly told him it
    /// was his turn: the card is retracted without further rectification, his left-hand
    /// opponent may not accept it, and it establishes no revoke (duplicate Law 47E1; rubber Law
    /// 47D).
    ToldItWasHisTurn {
        /// The opponent who told him.
        by: Seat,
    },
    /// The player retracts the card he played because of a mistaken explanation of a call or
    /// play by an opponent, `by`, before a corrected explanation: without further
    /// rectification, only if no card has been played since, and an opening lead not once
    /// dummy has faced a card (duplicate Law 47E2(a); too late, the Director may adjust, Law
    /// 47E2(b)). Rubber Law 47D: to correct a play after misinformation by an opponent.
    MistakenExplanation {
        /// The opponent who explained.
        by: Seat,
    },
    /// The opening leader retracts his faced opening lead because of a mistaken explanation by
    /// an opponent, `by`, before a corrected explanation and before dummy has faced any card,
    /// as the table reports it: without further rectification (duplicate Law 47E2(a): "An
    /// opening lead may not be retracted after dummy has faced any card"). The engine faces
    /// dummy with the lead (Law 41), so whether dummy's cards were already on the table is the
    /// table's fact; the engine checks that nothing else happened since the lead. In rubber
    /// bridge it is [`Retraction::MistakenExplanation`] (Law 47D).
    OpeningLeadBeforeDummyFaced {
        /// The opponent who explained.
        by: Seat,
    },
}

impl Retraction {
    /// The Law that allows the retraction in `code`.
    pub const fn law(&self, code: Code) -> Law {
        let duplicate = matches!(code, Code::Duplicate);
        match self {
            Retraction::ChangeOfDesignation { .. } if duplicate => Law::duplicate(47, "C"),
            Retraction::ChangeOfDesignation { .. } => Law::rubber(47, "B"),
            Retraction::UndesignatedDummyCard { .. } if duplicate => Law::duplicate(45, "D1"),
            Retraction::UndesignatedDummyCard { .. } => Law::rubber(46, ""),
            Retraction::ToldItWasHisTurn { .. } if duplicate => Law::duplicate(47, "E1"),
            Retraction::MistakenExplanation { .. } | Retraction::OpeningLeadBeforeDummyFaced { .. } if duplicate => {
                Law::duplicate(47, "E2(a)")
            }
            Retraction::ToldItWasHisTurn { .. }
            | Retraction::MistakenExplanation { .. }
            | Retraction::OpeningLeadBeforeDummyFaced { .. } => Law::rubber(47, "D"),
        }
    }
}

impl fmt::Display for Retraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Retraction::ChangeOfDesignation { card } => {
                write!(f, "a change of an unintended designation to the {card}")
            }
            Retraction::UndesignatedDummyCard { named } => {
                write!(f, "dummy placed a card declarer did not name instead of the {named}")
            }
            Retraction::ToldItWasHisTurn { by } => write!(f, "{by} mistakenly told him it was his turn"),
            Retraction::MistakenExplanation { by } => write!(f, "a mistaken explanation by {by}"),
            Retraction::OpeningLeadBeforeDummyFaced { by } => {
                write!(f, "a mistaken explanation by {by}, before dummy faced a card")
            }
        }
    }
}
