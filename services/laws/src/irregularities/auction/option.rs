//! The options the Laws give ([`AuctionOption`]), by stable name ([`OptionKind`]) with the call
//! a choice of each must carry ([`CallRequirement`]), and the choice made ([`AuctionChoice`]).
//! Apart from the effects they list because the option names are part of the service contract.

use std::fmt;

use crate::cards::SuitSet;
use crate::contract::Call;
use crate::irregularities::Chooser;
use crate::law::Law;
use crate::seat::Seat;

use super::Effect;

/// A stable name for a rectification option: what the client sends back in an
/// [`AuctionChoice`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OptionKind {
    /// Apply the rectification the Law prescribes (where the Law leaves no choice, the
    /// non-offending side in rubber bridge, or the official, confirms it).
    Enforce,
    /// Rubber Law 15A: both members of the non-offending side waive the penalty.
    Waive,
    /// The offender's left-hand opponent accepts the irregular call by calling over it (Laws
    /// 27A, 29A; duplicate Law 25B1). The choice carries his call.
    AcceptByCalling,
    /// Law 28B: the player whose turn it was calls, cancelling an opponent's call out of
    /// rotation without rectification. The choice carries his call.
    CallInTurn,
    /// Law 27: the left-hand opponent does not accept the insufficient bid.
    RejectInsufficientBid,
    /// Rubber Law 27A / duplicate Law 27B1(a): replaced by the lowest sufficient bid in the same
    /// denomination.
    LowestSufficientBid,
    /// Rubber Law 27B: replaced by a call with the same or a more precise meaning.
    SameOrMorePreciseMeaning,
    /// Duplicate Law 27B1(b): replaced by a comparable call (Law 23A).
    ComparableCall,
    /// Rubber Law 27C / duplicate Law 27B2: replaced by any other sufficient bid or a pass.
    OtherSufficientBidOrPass,
    /// Rubber Law 27D / duplicate Law 27B3: the offender attempts a double or redouble.
    DoubleOrRedouble,
    /// Duplicate Law 27B4: the offender replaces it with another insufficient bid.
    AnotherInsufficientBid,
    /// Law 29B: the call out of rotation is cancelled.
    CancelCall,
    /// Duplicate Law 30C: the pass out of rotation was artificial (or passed an artificial
    /// call) and is cancelled under Law 31, not Law 30.
    CancelAsArtificialPass,
    /// Law 25A: the first call was unintended; the intended call replaces it.
    UnintendedCall,
    /// Rubber Law 25B(1): the offender lets his first call stand.
    FirstCallStands,
    /// Rubber Law 25B(2): the offender makes any other legal call. The choice carries it.
    OtherLegalCall,
    /// Duplicate Law 25B2: the substitution is cancelled and the original call stands.
    SubstitutionCancelled,
    /// Duplicate Law 25A6 (or Law 21B2, rubber Law 21): the left-hand opponent keeps the call
    /// he made over the first call.
    KeepCall,
    /// Duplicate Law 25A6: the left-hand opponent withdraws the call he made over the first
    /// call; Law 21B2 (rubber Law 21): he changes it, without penalty, and calls again in turn.
    WithdrawCall,
    /// Duplicate Law 23A: the director rules the call comparable.
    Comparable,
    /// Duplicate Law 23A: the director rules the call not comparable.
    NotComparable,
    /// Law 21B1(a) (rubber and Club Law 21): the call could well have been influenced by the
    /// opponent's misinformation (the Director presumes a mistaken explanation rather than a
    /// mistaken call absent evidence, Law 21B1(b)), so the change stands without penalty.
    ChangeAfterMisinformation,
    /// Law 21A: the player acted on his own misunderstanding (the explanation was right, or
    /// the call did not rest on it): no redress, the change is cancelled and his call stands.
    NoMisinformation,
}

impl OptionKind {
    /// Every option kind.
    pub const ALL: [OptionKind; 23] = [
        OptionKind::Enforce,
        OptionKind::Waive,
        OptionKind::AcceptByCalling,
        OptionKind::CallInTurn,
        OptionKind::RejectInsufficientBid,
        OptionKind::LowestSufficientBid,
        OptionKind::SameOrMorePreciseMeaning,
        OptionKind::ComparableCall,
        OptionKind::OtherSufficientBidOrPass,
        OptionKind::DoubleOrRedouble,
        OptionKind::AnotherInsufficientBid,
        OptionKind::CancelCall,
        OptionKind::CancelAsArtificialPass,
        OptionKind::UnintendedCall,
        OptionKind::FirstCallStands,
        OptionKind::OtherLegalCall,
        OptionKind::SubstitutionCancelled,
        OptionKind::KeepCall,
        OptionKind::WithdrawCall,
        OptionKind::Comparable,
        OptionKind::NotComparable,
        OptionKind::ChangeAfterMisinformation,
        OptionKind::NoMisinformation,
    ];

    /// The option's stable machine-readable name, which the contract promises clients may switch
    /// on (`accept_by_calling`). Written out, so that renaming a variant cannot change it.
    pub const fn name(self) -> &'static str {
        match self {
            OptionKind::Enforce => "enforce",
            OptionKind::Waive => "waive",
            OptionKind::AcceptByCalling => "accept_by_calling",
            OptionKind::CallInTurn => "call_in_turn",
            OptionKind::RejectInsufficientBid => "reject_insufficient_bid",
            OptionKind::LowestSufficientBid => "lowest_sufficient_bid",
            OptionKind::SameOrMorePreciseMeaning => "same_or_more_precise_meaning",
            OptionKind::ComparableCall => "comparable_call",
            OptionKind::OtherSufficientBidOrPass => "other_sufficient_bid_or_pass",
            OptionKind::DoubleOrRedouble => "double_or_redouble",
            OptionKind::AnotherInsufficientBid => "another_insufficient_bid",
            OptionKind::CancelCall => "cancel_call",
            OptionKind::CancelAsArtificialPass => "cancel_as_artificial_pass",
            OptionKind::UnintendedCall => "unintended_call",
            OptionKind::FirstCallStands => "first_call_stands",
            OptionKind::OtherLegalCall => "other_legal_call",
            OptionKind::SubstitutionCancelled => "substitution_cancelled",
            OptionKind::KeepCall => "keep_call",
            OptionKind::WithdrawCall => "withdraw_call",
            OptionKind::Comparable => "comparable",
            OptionKind::NotComparable => "not_comparable",
            OptionKind::ChangeAfterMisinformation => "change_after_misinformation",
            OptionKind::NoMisinformation => "no_misinformation",
        }
    }
}

impl fmt::Display for OptionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OptionKind::Enforce => "apply the rectification",
            OptionKind::Waive => "waive the penalty",
            OptionKind::AcceptByCalling => "accept the call by calling over it",
            OptionKind::CallInTurn => "call in turn, cancelling the call out of rotation",
            OptionKind::RejectInsufficientBid => "do not accept the insufficient bid",
            OptionKind::LowestSufficientBid => "replace it by the lowest sufficient bid in the same denomination",
            OptionKind::SameOrMorePreciseMeaning => "replace it by a call with the same or a more precise meaning",
            OptionKind::ComparableCall => "replace it by a comparable call",
            OptionKind::OtherSufficientBidOrPass => "replace it by another sufficient bid or a pass",
            OptionKind::DoubleOrRedouble => "attempt to replace it by a double or redouble",
            OptionKind::AnotherInsufficientBid => "replace it by another insufficient bid",
            OptionKind::CancelCall => "cancel the call out of rotation",
            OptionKind::CancelAsArtificialPass => "cancel the artificial pass out of rotation",
            OptionKind::UnintendedCall => "the first call was unintended: the intended call replaces it",
            OptionKind::FirstCallStands => "let the first call stand",
            OptionKind::OtherLegalCall => "make any other legal call",
            OptionKind::SubstitutionCancelled => "cancel the substitution: the original call stands",
            OptionKind::KeepCall => "keep the call made over the replaced call",
            OptionKind::WithdrawCall => "withdraw the call made over the replaced call",
            OptionKind::Comparable => "the call is comparable",
            OptionKind::NotComparable => "the call is not comparable",
            OptionKind::ChangeAfterMisinformation => {
                "the call was made because of the misinformation: the change stands without penalty"
            }
            OptionKind::NoMisinformation => "no misinformation: the change is cancelled and the call stands",
        })
    }
}

/// Which call, if any, an [`AuctionChoice`] for an option must carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CallRequirement {
    /// No call.
    None,
    /// Any call the player makes; it is judged like any other call (it may itself be
    /// irregular). Used where calling is the option (Laws 27A, 28B, 29A).
    AnyCall,
    /// Exactly this call.
    Exactly(Call),
    /// Any legal call at this point of the auction.
    AnyLegal,
    /// Any legal call other than this one (rubber Law 25B: "any other legal call").
    AnyLegalExcept(Call),
    /// A sufficient bid or a pass (Law 27).
    SufficientBidOrPass,
    /// A double or a redouble (rubber Law 27D, duplicate Law 27B3).
    DoubleOrRedouble,
    /// A bid that is insufficient (duplicate Law 27B4).
    InsufficientBid,
    /// Duplicate Law 27B1(a) after an artificial insufficient bid: a sufficient bid that
    /// specifies the same suits as the withdrawn call (an artificial replacement is recorded
    /// with [`crate::auction::Auction::rectify_artificial`]). Whether it is the lowest such bid
    /// in the partnership's methods is the director's ruling.
    SufficientBidSpecifying(SuitSet),
}

impl fmt::Display for CallRequirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallRequirement::None => f.write_str("no call"),
            CallRequirement::AnyCall => f.write_str("any call"),
            CallRequirement::Exactly(call) => write!(f, "exactly {call}"),
            CallRequirement::AnyLegal => f.write_str("any legal call"),
            CallRequirement::AnyLegalExcept(call) => write!(f, "any legal call other than {call}"),
            CallRequirement::SufficientBidOrPass => f.write_str("a sufficient bid or a pass"),
            CallRequirement::DoubleOrRedouble => f.write_str("a double or a redouble"),
            CallRequirement::InsufficientBid => f.write_str("an insufficient bid"),
            CallRequirement::SufficientBidSpecifying(suits) => write!(f, "a sufficient bid specifying {suits}"),
        }
    }
}

/// One rectification option the Laws give after an irregularity.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AuctionOption {
    /// Its stable name.
    pub kind: OptionKind,
    /// Who chooses it.
    pub chooser: Chooser,
    /// The seat of the chooser, where the chooser is a player the Law names (the offender, his
    /// left-hand opponent, the player in turn); `None` for the official or "the
    /// non-offending side".
    pub chooser_seat: Option<Seat>,
    /// The Law that gives it.
    pub law: Law,
    /// The call the choice must carry.
    pub call: CallRequirement,
    /// What it does, in order.
    pub effects: Vec<Effect>,
}

impl fmt::Display for AuctionOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.chooser_seat {
            Some(seat) => write!(f, "{seat} ({}) may {}", self.chooser, self.kind)?,
            None => write!(f, "{} may {}", self.chooser, self.kind)?,
        }
        if self.call != CallRequirement::None {
            write!(f, " [{}]", self.call)?;
        }
        write!(f, " ({})", self.law)?;
        for (i, effect) in self.effects.iter().enumerate() {
            f.write_str(if i == 0 { ": " } else { "; " })?;
            effect.fmt(f)?;
        }
        Ok(())
    }
}

/// The choice a player or official makes among the options of a pending irregularity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AuctionChoice {
    /// The option chosen.
    pub option: OptionKind,
    /// The call it carries, where the option's [`CallRequirement`] needs one.
    pub call: Option<Call>,
}

impl AuctionChoice {
    /// A choice that carries no call.
    pub const fn new(option: OptionKind) -> AuctionChoice {
        AuctionChoice { option, call: None }
    }

    /// A choice that carries a call.
    pub const fn with_call(option: OptionKind, call: Call) -> AuctionChoice {
        AuctionChoice { option, call: Some(call) }
    }
}

#[cfg(test)]
mod tests {
    use super::OptionKind;

    /// The names are part of the contract (`RectificationOption.kind`): unique, snake case, and
    /// fixed. A renamed variant must keep its name; this list changes only when a kind is added.
    #[test]
    fn option_names_are_unique_stable_snake_case() {
        let names: Vec<&str> = OptionKind::ALL.iter().map(|k| k.name()).collect();
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), names.len());
        assert!(names.iter().all(|n| n.chars().all(|c| c.is_ascii_lowercase() || c == '_')));
        assert_eq!(OptionKind::AcceptByCalling.name(), "accept_by_calling");
        assert_eq!(OptionKind::RejectInsufficientBid.name(), "reject_insufficient_bid");
        assert_eq!(OptionKind::ChangeAfterMisinformation.name(), "change_after_misinformation");
    }
}
