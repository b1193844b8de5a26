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

use std::fmt;

use crate::cards::{Card, Rank, Suit};
use crate::irregularities::Chooser;
use crate::law::{Code, Law};
use crate::penalty::{LeadPenalty, PenaltyCardKind};
use crate::seat::{Seat, Side};

/// A set of suits, such as the suits declarer forbids under Law 51B2(b) ("one or more of such
/// suits") or the suits in which a defender has penalty cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Suits(u8);

impl Suits {
    /// No suit.
    pub const EMPTY: Suits = Suits(0);

    /// The set holding only `suit`.
    pub const fn single(suit: Suit) -> Suits {
        Suits(1 << suit.index())
    }

    /// The set with `suit` added.
    #[must_use]
    pub const fn with(self, suit: Suit) -> Suits {
        Suits(self.0 | 1 << suit.index())
    }

    /// Whether the set holds `suit`.
    pub const fn contains(self, suit: Suit) -> bool {
        self.0 & (1 << suit.index()) != 0
    }

    /// Number of suits in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every suit of `self` is in `other`.
    pub const fn is_subset(self, other: Suits) -> bool {
        self.0 & !other.0 == 0
    }

    /// The suits from spades down to clubs (the order of Law 2, as people list them).
    pub fn iter(self) -> impl Iterator<Item = Suit> {
        Suit::ALL.into_iter().rev().filter(move |suit| self.contains(*suit))
    }

    /// Every non-empty subset of this set, in a fixed order (for Law 51B2(b) offers).
    pub fn non_empty_subsets(self) -> impl Iterator<Item = Suits> {
        let bits = self.0;
        (1..=bits).rev().filter(move |sub| sub & !bits == 0).map(Suits)
    }
}

impl FromIterator<Suit> for Suits {
    fn from_iter<I: IntoIterator<Item = Suit>>(iter: I) -> Self {
        iter.into_iter().fold(Suits::EMPTY, Suits::with)
    }
}

impl fmt::Display for Suits {
    /// "spades", "spades and hearts", "spades, hearts and clubs".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.len();
        if n == 0 {
            return f.write_str("no suit");
        }
        for (i, suit) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(if i + 1 == n { " and " } else { ", " })?;
            }
            write!(f, "{suit}")?;
        }
        Ok(())
    }
}

/// A set of seats: the players who may answer a decision, the hands that are face up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Seats(u8);

impl Seats {
    /// No seat.
    pub const EMPTY: Seats = Seats(0);

    /// The set holding only `seat`.
    pub const fn single(seat: Seat) -> Seats {
        Seats(1 << seat.index())
    }

    /// The set with `seat` added.
    #[must_use]
    pub const fn with(self, seat: Seat) -> Seats {
        Seats(self.0 | 1 << seat.index())
    }

    /// The set with `seat` removed.
    #[must_use]
    pub const fn without(self, seat: Seat) -> Seats {
        Seats(self.0 & !(1 << seat.index()))
    }

    /// Whether the set holds `seat`.
    pub const fn contains(self, seat: Seat) -> bool {
        self.0 & (1 << seat.index()) != 0
    }

    /// Number of seats in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The seats in clockwise order from North.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        Seat::ALL.into_iter().filter(move |seat| self.contains(*seat))
    }

    /// Every subset of this set, the empty set included (for Law 62C1 offers).
    pub fn subsets(self) -> impl Iterator<Item = Seats> {
        let bits = self.0;
        (0..=bits).filter(move |sub| sub & !bits == 0).map(Seats)
    }
}

impl FromIterator<Seat> for Seats {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> Self {
        iter.into_iter().fold(Seats::EMPTY, Seats::with)
    }
}

impl fmt::Display for Seats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("nobody");
        }
        for (i, seat) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" and ")?;
            }
            write!(f, "{seat}")?;
        }
        Ok(())
    }
}

/// What declarer does about a lead when he has the choice (Law 26, Law 50D2, Law 51B).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LeadChoice {
    /// Require the lead of a suit (Law 26A rubber, Law 50D2(a), Law 51B1(a) and B2(a)); a player
    /// unable to comply leads any card (Law 59).
    Require(Suit),
    /// Forbid the lead of these suits for as long as the player retains the lead (Law 26,
    /// Law 50D2(a), Law 51B1(b) and B2(b)).
    Forbid(Suits),
    /// Neither require nor forbid: the player leads any card and the penalty cards stay on the
    /// table (Law 50D2(b), Law 51B2(c)), or declarer waives a Law 26 lead penalty.
    NoRestriction,
}

impl fmt::Display for LeadChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LeadChoice::Require(suit) => write!(f, "require the lead of {suit}"),
            LeadChoice::Forbid(suits) => {
                write!(f, "forbid the lead of {suits} while the proper leader retains the lead")
            }
            LeadChoice::NoRestriction => f.write_str("neither require nor forbid a lead"),
        }
    }
}

/// What declarer may require of a defender's play to the current trick (Law 57A, and the
/// rubber Law 62 penalty on the twelfth trick).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlayRequirement {
    /// Play his highest card of the suit led (Law 57A1 duplicate, 57A rubber).
    Highest,
    /// Play his lowest card of the suit led (Law 57A2 duplicate, 57B rubber).
    Lowest,
    /// Play a card of this other suit (Law 57A3 duplicate; not in rubber bridge).
    Suit(Suit),
    /// Play no card of this other suit (Law 57A4 duplicate, 57C rubber).
    NotSuit(Suit),
    /// Play this card: a penalty card declarer designated (Law 50D1(a), Law 51A), which lies
    /// face up.
    Card(Card),
    /// Play `card`, one of the two cards he could legally have played to the twelfth trick
    /// (rubber Law 62, after his partner's revoke on that trick). The card is in a hand nobody
    /// else sees, so it is described by `which` and shown only to the official
    /// ([`PlayOption::concealed_card`]).
    OneOfTwo {
        /// The card.
        card: Card,
        /// How the option names it without showing it.
        which: TwelfthTrickCard,
    },
}

/// Which of his two cards declarer requires of the revoker's partner on the twelfth trick
/// (rubber Law 62: "either of the two cards he could legally have played"), named so that the
/// option tells nobody what the cards are. The partner holds cards of two suits and none of
/// the suit led, or the Law gives no choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TwelfthTrickCard {
    /// The card he already played to the trick (it lies face up).
    AlreadyPlayed,
    /// The card he still holds besides the one he played.
    Other,
    /// His card of the higher-ranking of his two suits (Law 2: spades, hearts, diamonds, clubs).
    HigherSuit,
    /// His card of the lower-ranking of his two suits.
    LowerSuit,
}

impl fmt::Display for TwelfthTrickCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TwelfthTrickCard::AlreadyPlayed => "the card he already played to the trick",
            TwelfthTrickCard::Other => "his other card",
            TwelfthTrickCard::HigherSuit => "his card of the higher-ranking of his two suits",
            TwelfthTrickCard::LowerSuit => "his card of the lower-ranking of his two suits",
        })
    }
}

impl fmt::Display for PlayRequirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayRequirement::Highest => f.write_str("play his highest card of the suit led"),
            PlayRequirement::Lowest => f.write_str("play his lowest card of the suit led"),
            PlayRequirement::Suit(suit) => write!(f, "play a card of {suit}"),
            PlayRequirement::NotSuit(suit) => write!(f, "play no card of {suit}"),
            PlayRequirement::Card(card) => write!(f, "play the {card}"),
            PlayRequirement::OneOfTwo { which, .. } => write!(f, "play {which}"),
        }
    }
}

/// An option the Laws give after an irregularity, or at a point where an earlier irregularity
/// lets declarer choose. Plain data: the service lists the offers of a [`Decision`] and a
/// client sends one of these back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlayOption {
    /// Accept the lead out of turn as a correct lead (Law 53; Law 54B duplicate / 54A rubber,
    /// Law 55A, Law 56A).
    AcceptLead,
    /// Accept the opening lead out of turn by spreading declarer's hand: he becomes dummy and
    /// his partner declarer (Law 54A duplicate, 54C rubber).
    AcceptLeadAndBecomeDummy,
    /// Refuse a defender's lead out of turn: the card becomes a major penalty card (Law 54D,
    /// Law 56B). When the proper leader is the offender's partner, declarer states at once his
    /// choice under Law 50D2/51B for that lead (`lead`); otherwise `lead` is `None`.
    RejectLead {
        /// Declarer's lead choice for the proper leader, when the Law gives him one.
        lead: Option<LeadChoice>,
    },
    /// Require declarer to retract his lead out of turn (Law 55B).
    RetractLead,
    /// Declarer's choice about a lead (Law 26, Law 50D2, Law 51B).
    Lead(LeadChoice),
    /// Declarer's requirement on the offender's partner (Law 57A; rubber Law 62 on trick 12).
    PartnerPlays(PlayRequirement),
    /// Accept a card played instead of a penalty card (Law 52B1 duplicate, 52A rubber).
    AcceptPlay,
    /// Require the penalty card to be played instead of the card illegally played (Law 52B2
    /// duplicate, 52B rubber).
    SubstitutePenaltyCard(Card),
    /// Designate which of two or more penalty cards the defender plays (Law 50D1(a), Law 51A).
    DesignatePenaltyCard(Card),
    /// After a revoke is corrected, the non-offenders named withdraw the cards they played
    /// after the revoke; an empty set keeps every card (Law 62C1).
    WithdrawAfterRevoke(Seats),
    /// After a non-offender withdrew his card, the offending side's next player withdraws his
    /// card too (Law 62C2).
    WithdrawCard,
    /// Keep the card played (Law 62C2: the offending side's right is optional).
    KeepCard,
    /// Do not exercise an optional right (rubber Law 62 on the twelfth trick: declarer "may").
    Waive,
    /// After a card was changed or withdrawn, the players named withdraw the cards they played
    /// to the trick after it, to substitute others without further rectification; an empty set
    /// keeps every card (duplicate Law 45C4(b), 45D1 and 47D; rubber Law 45D, 46 and 47C).
    WithdrawAfterChange(Seats),
    /// This card of dummy's is played: declarer completes an incomplete or invalid designation,
    /// or a defender designates dummy's card after "play anything" (Law 46).
    DesignateFromDummy(Card),
}

impl PlayOption {
    /// The card this option names that lies in a hand not every player may see, if any: only
    /// the official may be shown it. The option's description never names it (rubber Law 62's
    /// twelfth-trick options name the card as [`TwelfthTrickCard`] does). Every other card an
    /// option names has been played, exposed as a penalty card (Law 50A) or lies in dummy's
    /// faced hand (Law 41D), so every player sees it anyway.
    pub const fn concealed_card(&self) -> Option<Card> {
        match self {
            PlayOption::PartnerPlays(PlayRequirement::OneOfTwo { which: TwelfthTrickCard::AlreadyPlayed, .. }) => None,
            PlayOption::PartnerPlays(PlayRequirement::OneOfTwo { card, .. }) => Some(*card),
            _ => None,
        }
    }
}

impl fmt::Display for PlayOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayOption::AcceptLead => f.write_str("accept the lead out of turn"),
            PlayOption::AcceptLeadAndBecomeDummy => {
                f.write_str("accept the lead out of turn by spreading declarer's hand as dummy")
            }
            PlayOption::RejectLead { lead: None } => {
                f.write_str("refuse the lead: the card becomes a major penalty card")
            }
            PlayOption::RejectLead { lead: Some(choice) } => {
                write!(f, "refuse the lead: the card becomes a major penalty card, and {choice}")
            }
            PlayOption::RetractLead => f.write_str("require declarer to retract his lead"),
            PlayOption::Lead(choice) => choice.fmt(f),
            PlayOption::PartnerPlays(requirement) => write!(f, "require the offender's partner to {requirement}"),
            PlayOption::AcceptPlay => f.write_str("accept the card played instead of the penalty card"),
            PlayOption::SubstitutePenaltyCard(card) => {
                write!(f, "require the penalty card {card} to be played instead")
            }
            PlayOption::DesignatePenaltyCard(card) => write!(f, "designate the penalty card {card} to be played"),
            PlayOption::WithdrawAfterRevoke(seats) if seats.is_empty() => {
                f.write_str("keep every card played after the revoke")
            }
            PlayOption::WithdrawAfterRevoke(seats) => {
                write!(f, "{seats} withdraw the card played after the revoke")
            }
            PlayOption::WithdrawCard => f.write_str("withdraw the card played"),
            PlayOption::KeepCard => f.write_str("keep the card played"),
            PlayOption::Waive => f.write_str("make no requirement"),
            PlayOption::WithdrawAfterChange(seats) if seats.is_empty() => {
                f.write_str("keep every card played after the change")
            }
            PlayOption::WithdrawAfterChange(seats) => write!(f, "{seats} withdraw the card played after the change"),
            PlayOption::DesignateFromDummy(card) => write!(f, "designate dummy's {card}"),
        }
    }
}

/// One effect of choosing an option, as data (so the service can show exactly what will
/// happen, and log what did).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Effect {
    /// The card stands as a correct lead (Law 53A).
    LeadStands {
        /// The hand the card was led from.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// Declarer spreads his hand as dummy; his partner becomes declarer (Law 54).
    DeclarerBecomesDummy {
        /// The new declarer.
        declarer: Seat,
    },
    /// The card goes back to its hand with no further rectification.
    CardReturned {
        /// The hand.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// The card becomes a penalty card (Law 50).
    PenaltyCard {
        /// The defender who owns it.
        owner: Seat,
        /// The card.
        card: Card,
        /// Major or minor (Law 50B).
        kind: PenaltyCardKind,
    },
    /// The owner's penalty cards in these suits are picked up and are no longer penalty cards
    /// (Law 50D2(a), Law 51B).
    PenaltyCardsPickedUp {
        /// The defender who owned them.
        owner: Seat,
        /// The suits picked up.
        suits: Suits,
    },
    /// The player must lead this suit if he can (Law 59 otherwise).
    LeadRequired {
        /// The leader.
        player: Seat,
        /// The suit.
        suit: Suit,
    },
    /// The player may not lead these suits while he retains the lead.
    LeadForbidden {
        /// The leader.
        player: Seat,
        /// The suits.
        suits: Suits,
    },
    /// The player may lead any card.
    LeadFree {
        /// The leader.
        player: Seat,
    },
    /// Declarer must lead, from this hand (Law 55B).
    MustLeadFrom {
        /// The hand (declarer's or dummy's).
        seat: Seat,
    },
    /// The player must comply with this requirement at his turn to the current trick (Law 57,
    /// Law 59 if he cannot).
    PlayRequired {
        /// The player.
        player: Seat,
        /// What he must do.
        requirement: PlayRequirement,
    },
    /// The card played stands (Law 52B1).
    PlayStands {
        /// The hand.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// The card is played to the current trick in place of the one withdrawn (Law 52B2,
    /// Law 50D1(a)).
    CardPlayed {
        /// The hand.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// The offender must substitute a legal card for the revoke card (Law 62B).
    SubstituteLegalCard {
        /// The offender.
        seat: Seat,
    },
    /// The player substitutes another card for the one he withdrew, without further
    /// rectification (duplicate Law 47D, rubber Law 47C).
    SubstituteCard {
        /// The player.
        seat: Seat,
    },
    /// The offending side may not use what the withdrawn cards showed (rubber Law 47 footnote;
    /// duplicate Law 16C2; Club Law 47: the Arbiter may adjust the score if it gave substantial
    /// information).
    InformationUnauthorized {
        /// The side for which the information is unauthorised.
        side: Side,
    },
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Effect::LeadStands { seat, card } => write!(f, "{seat}'s {card} stands as the lead"),
            Effect::DeclarerBecomesDummy { declarer } => write!(f, "{declarer} becomes declarer"),
            Effect::CardReturned { seat, card } => write!(f, "the {card} returns to {seat}'s hand"),
            Effect::PenaltyCard { owner, card, kind } => {
                let kind = match kind {
                    PenaltyCardKind::Major => "major",
                    PenaltyCardKind::Minor => "minor",
                };
                write!(f, "{owner}'s {card} becomes a {kind} penalty card")
            }
            Effect::PenaltyCardsPickedUp { owner, suits } => write!(f, "{owner} picks up his penalty cards in {suits}"),
            Effect::LeadRequired { player, suit } => write!(f, "{player} must lead {suit} if he can"),
            Effect::LeadForbidden { player, suits } => {
                write!(f, "{player} may not lead {suits} while he retains the lead")
            }
            Effect::LeadFree { player } => write!(f, "{player} may lead any card"),
            Effect::MustLeadFrom { seat } => write!(f, "declarer must lead from {seat}'s hand"),
            Effect::PlayRequired { player, requirement } => write!(f, "{player} must {requirement}"),
            Effect::PlayStands { seat, card } => write!(f, "{seat}'s {card} stands"),
            Effect::CardPlayed { seat, card } => write!(f, "{seat}'s {card} is played"),
            Effect::SubstituteLegalCard { seat } => write!(f, "{seat} substitutes a legal card"),
            Effect::SubstituteCard { seat } => write!(f, "{seat} plays another card"),
            Effect::InformationUnauthorized { side } => {
                write!(f, "{side} may not use what the withdrawn cards showed")
            }
        }
    }
}

/// What a pending decision is about: an irregularity, or a point where an earlier
/// irregularity gives declarer a choice.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Situation {
    /// A defender faced the opening lead out of turn (Law 54).
    OpeningLeadOutOfTurn {
        /// The defender who led.
        offender: Seat,
        /// The card he faced.
        card: Card,
    },
    /// Declarer led out of turn from his hand or dummy's (Law 55).
    DeclarerLeadOutOfTurn {
        /// The hand the card came from.
        from: Seat,
        /// The card.
        card: Card,
        /// The hand whose turn it was to lead.
        proper_leader: Seat,
    },
    /// A defender led out of turn after the opening lead (Law 56).
    DefenderLeadOutOfTurn {
        /// The defender who led.
        offender: Seat,
        /// The card.
        card: Card,
        /// The hand whose turn it was to lead.
        proper_leader: Seat,
    },
    /// A defender led to the next trick, or played out of turn, before his partner had played
    /// to the current trick (Law 57A).
    PrematurePlay {
        /// The defender.
        offender: Seat,
        /// The card he led or played.
        card: Card,
        /// Whether it was a lead to the next trick (rather than a play to the current one).
        to_next_trick: bool,
    },
    /// The offender's partner has the lead for the first time and an auction irregularity left
    /// declarer a lead penalty (Law 26).
    AuctionLeadPenalty {
        /// The player whose lead declarer may restrict.
        leader: Seat,
        /// What declarer may do.
        penalty: LeadPenalty,
        /// The Law that imposed it.
        law: Law,
    },
    /// A defender has the lead while his partner has a major penalty card (Law 50D2, Law 51B).
    PenaltyCardLead {
        /// The defender on lead.
        leader: Seat,
    },
    /// A defender must play one of two or more penalty cards and declarer designates which
    /// (Law 50D1(a), Law 51A).
    DesignatePenaltyCard {
        /// The defender.
        owner: Seat,
    },
    /// A defender led or played another card when he had to play a penalty card, and attention
    /// was drawn to it (Law 52).
    PenaltyCardNotPlayed {
        /// The defender.
        offender: Seat,
        /// The card he led or played instead.
        card: Card,
        /// The trick (0-12).
        trick: u8,
    },
    /// A revoke is being corrected (Law 62C1): the non-offenders may withdraw the cards they
    /// played after it.
    RevokeCorrection {
        /// The revoking player.
        offender: Seat,
        /// The trick (0-12).
        trick: u8,
        /// The non-offenders who played a card to the revoke trick after the revoke.
        later: Seats,
        /// Both sides revoked on the trick and both revokes are being corrected (duplicate Law
        /// 62C3): "Every card withdrawn by the defending side becomes a penalty card".
        both_sides: bool,
    },
    /// A non-offender withdrew his card after a revoke; the offending side's next player may
    /// withdraw his too (Law 62C2).
    OffendingSideMayWithdraw {
        /// The player.
        seat: Seat,
        /// The card he played.
        card: Card,
    },
    /// A defender revoked on the twelfth trick before his partner played; declarer may require
    /// the partner to play either card he could legally have played (rubber Law 62).
    TwelfthTrickRevoke {
        /// The revoking defender.
        offender: Seat,
        /// His partner.
        partner: Seat,
    },
    /// A played card was changed or withdrawn ([`Retraction`]); the opponents of its player
    /// who played to the trick after it may withdraw their cards and substitute others
    /// (duplicate Law 45C4(b), 45D1 and 47D; rubber Law 45D, 46 and 47C). When one does, the
    /// other side's players who played after him get the same right, and so on.
    ChangeOfPlay {
        /// The player whose card was changed or withdrawn (or, later, the opponent who withdrew
        /// his card after it).
        changed: Seat,
        /// The trick (0-12).
        trick: u8,
        /// The players who may withdraw their card.
        later: Seats,
        /// The side whose irregularity started it (for Law 16C2 / rubber Law 47 footnote).
        offending: Side,
        /// The Law that gives the right.
        law: Law,
    },
    /// Declarer designated dummy's card incompletely or invalidly and the Law does not deem a
    /// card: declarer completes the designation, or after "play anything" either defender
    /// designates the card (Law 46).
    IncompleteDesignation {
        /// What declarer said.
        designation: Designation,
    },
}

impl fmt::Display for Situation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Situation::OpeningLeadOutOfTurn { offender, card } => {
                write!(f, "{offender} faced the opening lead {card} out of turn")
            }
            Situation::DeclarerLeadOutOfTurn { from, card, proper_leader } => {
                write!(f, "declarer led the {card} from {from}'s hand out of turn; the lead was {proper_leader}'s")
            }
            Situation::DefenderLeadOutOfTurn { offender, card, proper_leader } => {
                write!(f, "{offender} led the {card} out of turn; the lead was {proper_leader}'s")
            }
            Situation::PrematurePlay { offender, card, to_next_trick: true } => {
                write!(f, "{offender} led the {card} to the next trick before his partner played")
            }
            Situation::PrematurePlay { offender, card, to_next_trick: false } => {
                write!(f, "{offender} played the {card} before his partner played")
            }
            Situation::AuctionLeadPenalty { leader, .. } => {
                write!(f, "{leader} has the lead for the first time under a lead penalty from the auction")
            }
            Situation::PenaltyCardLead { leader } => {
                write!(f, "{leader} has the lead while his partner has a major penalty card")
            }
            Situation::DesignatePenaltyCard { owner } => {
                write!(f, "{owner} must play one of two or more penalty cards")
            }
            Situation::PenaltyCardNotPlayed { offender, card, .. } => {
                write!(f, "{offender} played the {card} instead of a penalty card")
            }
            Situation::RevokeCorrection { offender, trick, .. } => {
                write!(f, "{offender}'s revoke on trick {} is corrected", trick + 1)
            }
            Situation::OffendingSideMayWithdraw { seat, card } => {
                write!(f, "{seat} may withdraw the {card} after an opponent withdrew his card")
            }
            Situation::TwelfthTrickRevoke { offender, .. } => {
                write!(f, "{offender} revoked on the twelfth trick before his partner played")
            }
            Situation::ChangeOfPlay { changed, trick, .. } => {
                write!(
                    f,
                    "{changed}'s card on trick {} was changed or withdrawn; the cards played after it may be withdrawn",
                    trick + 1
                )
            }
            // A card called that dummy does not hold is in a hand some players may not see:
            // the text does not name it.
            Situation::IncompleteDesignation { designation: Designation::Card(_) } => {
                f.write_str("declarer called for a card dummy does not hold")
            }
            Situation::IncompleteDesignation { designation } => {
                write!(f, "declarer's call of {designation} from dummy does not designate one card")
            }
        }
    }
}

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

/// How declarer called for a card from dummy (Law 46). The proper form names suit and rank
/// (duplicate Law 46A); the others are incomplete or invalid designations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Designation {
    /// "High", or words of like meaning (duplicate Law 46B1(a)).
    High,
    /// "Win" the trick (duplicate Law 46B1(b)).
    Win,
    /// "Low", or words of like meaning (duplicate Law 46B1(c)).
    Low,
    /// A suit but not a rank (duplicate Law 46B2).
    Suit(Suit),
    /// A rank but not a suit (duplicate Law 46B3).
    Rank(Rank),
    /// A card; when it is not in dummy the call is invalid (duplicate Law 46B4).
    Card(Card),
    /// Neither suit nor rank, as "play anything" (duplicate Law 46B5).
    Anything,
}

impl fmt::Display for Designation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Designation::High => f.write_str("\"high\""),
            Designation::Win => f.write_str("\"win\""),
            Designation::Low => f.write_str("\"low\""),
            Designation::Suit(suit) => write!(f, "{suit} without a rank"),
            Designation::Rank(rank) => write!(f, "the rank {rank} without a suit"),
            Designation::Card(card) => write!(f, "the {card}"),
            Designation::Anything => f.write_str("\"play anything\""),
        }
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suit_sets_list_as_people_say_them() {
        let both = Suits::single(Suit::Clubs).with(Suit::Spades);
        assert_eq!(both.to_string(), "spades and clubs");
        assert_eq!(both.non_empty_subsets().count(), 3, "Law 51B2(b): one or more of such suits");
        let three: Suits = [Suit::Hearts, Suit::Clubs, Suit::Diamonds].into_iter().collect();
        assert_eq!(three.to_string(), "hearts, diamonds and clubs");
        assert!(Suits::single(Suit::Hearts).is_subset(three));
    }

    #[test]
    fn seat_subsets_include_keeping_everything() {
        let seats = Seats::single(Seat::North).with(Seat::South);
        assert_eq!(seats.subsets().count(), 4, "Law 62C1: each non-offender may or may not withdraw");
        assert_eq!(seats.to_string(), "North and South");
    }
}
