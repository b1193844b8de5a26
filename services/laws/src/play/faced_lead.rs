//! An opening lead out of turn whose choice is taken from declarer (rubber Law 54B; duplicate
//! Law 54A and 54C): he could have seen dummy's cards, so he must accept the lead; or he began
//! to spread his own hand as though he were dummy, so he is deemed to have accepted it that way.
//! Apart from the other rectifications because these are facts about declarer that narrow his
//! choice, not choices of his own.

use crate::irregularities::play::{PlayOption, Situation};

use super::{Play, PlayError};

impl Play {
    /// Declarer could have seen one or more of dummy's cards (other than cards dummy exposed
    /// during the auction, Law 24) while the opening lead out of turn awaits his decision. Rubber
    /// Law 54B: "declarer must accept the irregular lead if he could have seen any of dummy's
    /// cards"; duplicate Law 54C: "he must accept the lead and the presumed declarer then becomes
    /// declarer". From now on the decision offers only acceptance (Law 53): no refusal (Law 54D)
    /// and no spreading his hand to become dummy (rubber 54C, duplicate 54A).
    ///
    /// Refused when no opening lead out of turn awaits declarer's decision.
    pub fn declarer_saw_dummy(&self) -> Result<Play, PlayError> {
        self.ensure_faced_lead_pending()?;
        let mut next = self.successor();
        next.declarer_saw_dummy = true;
        Ok(next)
    }

    /// Declarer began to spread his hand as though he were dummy and exposed one or more cards
    /// while the opening lead out of turn awaited his decision. Rubber Law 54B: "He is deemed to
    /// have accepted the lead out of turn ... declarer must spread his entire hand, and dummy
    /// becomes declarer"; duplicate Law 54A: "he must spread his entire hand. Dummy becomes
    /// declarer." But if he could also have seen dummy's cards ([`Play::declarer_saw_dummy`]),
    /// the player who was to be declarer stays declarer and the lead is simply accepted (rubber
    /// footnote 23: "If cards are so exposed from both declarer's and dummy's hands, the player
    /// who was regularly to become declarer remains declarer"; duplicate Law 54C).
    ///
    /// Refused when no opening lead out of turn awaits declarer's decision.
    pub fn declarer_began_to_spread(&self) -> Result<Play, PlayError> {
        self.ensure_faced_lead_pending()?;
        let accepted =
            if self.declarer_saw_dummy { PlayOption::AcceptLead } else { PlayOption::AcceptLeadAndBecomeDummy };
        self.rectify(accepted)
    }

    /// Whether declarer could have seen dummy's cards while an opening lead out of turn awaits
    /// his decision (rubber Law 54B, duplicate Law 54C): he must then accept it.
    pub const fn must_accept_faced_lead(&self) -> bool {
        self.declarer_saw_dummy && matches!(self.pending, Some(Situation::OpeningLeadOutOfTurn { .. }))
    }

    fn ensure_faced_lead_pending(&self) -> Result<(), PlayError> {
        match self.pending {
            Some(Situation::OpeningLeadOutOfTurn { .. }) => Ok(()),
            _ => Err(PlayError::NoDecisionPending { law: self.cite(54, "B", "C") }),
        }
    }
}
