//! Equity after an established revoke: the tricks beyond Law 64's automatic adjustment that the
//! side damaged may still be owed. Rubber Law 64 ends: "When any established revoke, including
//! one not subject to penalty, causes damage to the non-offending side insufficiently compensated
//! by the Law, the offending side should transfer additional tricks so as to restore equity"
//! (and the Proprieties: "The players should adjudicate this result"). Club Law 64: "the Arbiter
//! deems that equity has not been restored ... he should assign an adjusted score". Duplicate Law
//! 64C1: "the Director deems that the non-offending side is insufficiently compensated by this
//! Law for the damage caused, he shall assign an adjusted score." Apart from the revoke Laws
//! because it is a judgement on the result, asked for once the play is over.

use crate::irregularities::Chooser;
use crate::irregularities::play::{Decision, Offer, PlayOption, Seats, Situation};
use crate::law::Code;
use crate::seat::Side;

use super::{Play, PlayError, RevokeStatus, RevokeTransfer};

impl Play {
    /// The decision on equity, due once the play is over after an established revoke pointed
    /// out, until it is made: more tricks to the side damaged, or none. When both sides made
    /// established revokes, one decision for each side damaged, North-South's first.
    ///
    /// - Who: rubber, the offending side's players (Law 64: "the offending side should transfer
    ///   additional tricks"); Club and duplicate, the official (Club Law 64, duplicate Law 64C1).
    /// - Bounded: at most the tricks the offending side holds after the automatic adjustment.
    ///   Expressed as tricks, the official's adjusted score is the result it assigns (duplicate
    ///   Law 12C1(b), an assigned adjusted score).
    pub(crate) fn equity_decision(&self) -> Option<Decision> {
        if self.pending.is_some() || !self.is_complete() {
            return None;
        }
        let automatic = self.automatic_revoke_transfer();
        let law = automatic.equity?;
        let result = self.result()?;
        let to =
            Side::ALL.into_iter().find(|side| self.equity[side.index()].is_none() && self.damaged_by_revoke(*side))?;
        let offending = to.opponents();
        let holds =
            (result.tricks(offending) + automatic.to[offending.index()]).saturating_sub(automatic.to[to.index()]);
        let offers = (0..=holds)
            .map(|tricks| Offer { option: PlayOption::RestoreEquity { to, tricks }, law, effects: Vec::new() })
            .collect();
        let (chooser, seats) = match self.code {
            Code::Duplicate | Code::Club => (Chooser::Official, Seats::EMPTY),
            _ => (Chooser::Offender, offending.seats().into_iter().collect()),
        };
        let transferred = automatic.to.iter().sum();
        Some(Decision { situation: Situation::RevokeEquity { transferred }, chooser, seats, law, offers })
    }

    /// Whether an established revoke by `side`'s opponents has been pointed out.
    fn damaged_by_revoke(&self, side: Side) -> bool {
        self.revokes
            .iter()
            .any(|r| r.offender.side() != side && r.status == RevokeStatus::Established && r.attention.is_some())
    }

    /// Enters the decision on equity ([`PlayOption::RestoreEquity`]); refused, naming Law 64,
    /// when none is due or the option is not one of its offers.
    pub(crate) fn restore_equity(&self, option: PlayOption) -> Result<Play, PlayError> {
        let Some(decision) = self.equity_decision() else {
            return Err(PlayError::NoDecisionPending { law: self.cite(64, "", "C1") });
        };
        let PlayOption::RestoreEquity { to, tricks } = option else {
            return Err(PlayError::OptionNotOffered { option, law: decision.law });
        };
        if !decision.offers(&option) {
            return Err(PlayError::OptionNotOffered { option, law: decision.law });
        }
        let mut next = self.successor();
        next.equity[to.index()] = Some(tricks);
        Ok(next)
    }

    /// The tricks transferred to restore equity after an established revoke, and to whom, once
    /// entered: the side given the most (none is `(side, 0)`); `None` before any entry.
    pub fn equity_restored(&self) -> Option<(Side, u8)> {
        Side::ALL
            .into_iter()
            .filter_map(|side| self.equity[side.index()].map(|tricks| (side, tricks)))
            .max_by_key(|(_, tricks)| *tricks)
    }

    /// The play as a table under rules version 1 knew it, which asked nobody about equity after
    /// a revoke: a deal begun then still ends as it did when it is replayed.
    pub fn without_equity_entry(&self) -> Play {
        let mut next = self.clone();
        for entry in &mut next.equity {
            entry.get_or_insert(0);
        }
        next
    }

    /// Adds the tricks entered to restore equity to Law 64's automatic adjustment.
    pub(crate) fn add_equity_transfer(&self, transfer: &mut RevokeTransfer) {
        for side in Side::ALL {
            let tricks = self.equity[side.index()].unwrap_or(0);
            transfer.to[side.index()] += tricks;
            transfer.restored[side.index()] += tricks;
        }
    }
}
