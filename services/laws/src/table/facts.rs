//! Irregularities as a table tells them ([`Fact`], [`FactKind`]) and as the deal records them
//! ([`IrregularityRecord`]): the vocabulary of the service contract, apart from the code that
//! judges each kind.

use std::fmt;

use crate::cards::{Card, SuitSet};
use crate::contract::Call;
use crate::irregularities::play::Designation;
use crate::law::Law;
use crate::seat::Seat;

use super::{Step, TableError};

/// The kinds of irregularity a table records as fact (the contract's `IrregularityKind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FactKind {
    /// A card exposed or led during the auction (Law 24).
    ExposedCardDuringAuction,
    /// A call changed (Law 25).
    ChangeOfCall,
    /// An insufficient bid (Law 27).
    InsufficientBid,
    /// A call out of rotation (Laws 28-32).
    CallOutOfRotation,
    /// Simultaneous calls (Law 33): the other player's call, deemed made after the call in
    /// turn.
    SimultaneousCalls,
    /// An inadmissible call (Laws 35-39).
    InadmissibleCall,
    /// An opening lead out of turn (Law 54).
    OpeningLeadOutOfTurn,
    /// A lead out of turn after the opening lead (Laws 53, 55, 56).
    LeadOutOfTurn,
    /// A premature lead or play by a defender (Law 57).
    PrematurePlay,
    /// A defender's card exposed during the play (Laws 49-50).
    ExposedCard,
    /// Declarer's or dummy's card exposed (Law 48).
    DeclarerExposedCard,
    /// Attention drawn to a revoke (Laws 61-64).
    Revoke,
    /// A defective trick (Law 67), the trick (1-13) given. At a table recording its play it is
    /// found late and put right (Law 67B, see
    /// [`Play::defective_trick`](crate::play::Play::defective_trick)): without a card, the
    /// offender, next to play, played no card to the trick in progress (several missing: one
    /// fact each, in the order of play); with the card, he played it to that trick besides the
    /// card recorded as his (found in time, Law 67A2 as [`FactKind::ExtraCardToTrick`]); with
    /// the card recorded as his there, duplicate Law 67B3. A digital table records it as a
    /// matter of judgement.
    DefectiveTrick,
    /// Unauthorised information (Law 16).
    UnauthorizedInformation,
    /// Misinformation (Laws 21, 40).
    Misinformation,
    /// Dummy exceeding his rights (Laws 42-43).
    DummyIrregularity,
    /// Anything else.
    Other,
    /// A played card's unintended designation changed: declarer's designation of a card from
    /// dummy (duplicate Law 45C4(b), 47C), any player's (rubber Law 45D, 47B). The card is the
    /// one designated instead; the card changed is the one its hand played to the trick.
    ChangeOfDesignation,
    /// Dummy placed in the played position a card declarer did not name (duplicate Law 45D;
    /// rubber Law 46). The card is the one declarer named.
    UndesignatedDummyCard,
    /// An incomplete or invalid designation of a card from dummy (Law 46). The designation is
    /// what declarer said.
    IncompleteDesignation,
    /// A lead or play out of turn because an opponent, the offender, mistakenly said it was
    /// the player's turn: retracted (duplicate Law 47E1; rubber Law 47D). The card is the one
    /// retracted.
    MisinformedOfTurn,
    /// A card retracted because of an opponent's mistaken explanation, the opponent being the
    /// offender (duplicate Law 47E2(a); rubber Law 47D). The card is the one retracted.
    RetractionAfterMisexplanation,
    /// Two or more cards led or played at once from one hand, their faces visible, and the
    /// player's designation made after an opponent played to the trick (duplicate Law 58B2-3;
    /// rubber Law 58). The card is the one designated; the other visible cards are in
    /// [`Fact::also_visible`]. The hand is the card's holder; the offender is the player who
    /// designates (declarer for dummy's cards).
    SimultaneousCards,
    /// The opening lead retracted because of an opponent's mistaken explanation, the opponent
    /// being the offender, before dummy faced any card (duplicate Law 47E2(a); rubber Law 47D).
    /// The card is the one retracted. Recorded play only: a digital table shows dummy with the
    /// lead.
    OpeningLeadRetractedBeforeDummyFaced,
    /// A double or redouble Law 19 does not permit, made in turn, that nobody noticed: it
    /// stands in the auction as made until attention is drawn to it (duplicate Law 36; rubber
    /// Laws 35A and 36). The call is the double or redouble. Recorded play only.
    UnnoticedInadmissibleCall,
    /// Attention drawn to an unnoticed inadmissible double or redouble, the offender's call
    /// (the last such call of his). During the auction period, Law 36 (36A once a later call
    /// stands: it and every later call are cancelled); after the opening lead was faced, the
    /// contract is scored as if it had not been made (duplicate Law 36C).
    AttentionToUnnoticedCall,
    /// A card contributed to a trick the player had already played to: a fifth card, or a
    /// second card of his (duplicate Law 45E with 67A2; rubber Law 67A2). The card is the extra
    /// card, the trick (1-13) the trick it went to. A defender's becomes a penalty card,
    /// declarer's or dummy's goes back. A card the official deems led is a lead instead.
    ExtraCardToTrick,
    /// A call changed because of misinformation from an opponent (duplicate Law 21B; rubber and
    /// Club Law 21). The offender is the opponent who gave the misinformation; the misinformed
    /// player is [`Fact::misinformed`], and the call changed is his last call (his partner must
    /// not have called since); the call is the new call. The official (the players in rubber
    /// bridge) then judges whether the call was influenced by the misinformation, and the
    /// misinformed player's left-hand opponent may change a call he made over the changed one
    /// (Law 21B2). Until the end of the auction period in duplicate (the Clarification
    /// Period included: the auction reopens); until the auction is closed under the rubber
    /// codes. Digital tables record it too: explanations are human there as well, and the
    /// change is the remedy the Laws give, not an irregular call the server could refuse.
    CallChangedAfterMisinformation,
    /// While an opening lead out of turn awaited his decision, declarer could have seen one or
    /// more of dummy's cards (other than cards exposed during the auction): he must accept the
    /// lead and stays declarer (rubber Law 54B; duplicate Law 54C). The offender is declarer.
    /// Recorded play only.
    DeclarerSawDummy,
    /// While an opening lead out of turn awaited his decision, declarer began to spread his hand
    /// as though he were dummy and exposed one or more cards: he is deemed to have accepted the
    /// lead, spreads his whole hand, and dummy becomes declarer (rubber Law 54B; duplicate Law
    /// 54A), unless he could also have seen dummy's cards, when he stays declarer (rubber
    /// footnote 23; duplicate Law 54C). The offender is declarer. Recorded play only.
    DeclarerBeganToSpread,
    /// A defender's statement or showing of cards that pertains only to the uncompleted trick in
    /// progress: not a claim; play proceeds normally, and cards he exposed or revealed in making
    /// it do not become penalty cards, but Law 16 may apply to his partner (rubber Law 70A;
    /// duplicate Law 68, where Law 57A may apply too). The card, if given, is one he showed.
    /// Record this instead of an exposed card. Digital tables record it too.
    CurrentTrickStatement,
    /// A surplus card: a card that was not part of the offender's hand, picked up from a
    /// previous trick, from dummy, from the other deck or elsewhere (rubber Law 12B; the Club
    /// Laws keep it; duplicate Law 13C). The offender is the hand it was found in or played
    /// from (dummy's seat for dummy's hand). Without a trick it was found in his hand: it goes
    /// back to its proper place without penalty (rubber 12B1). With the trick (1-13) and the
    /// card, it was led or played to that trick: it is taken out, and the offender puts a card
    /// of his in its place (see [`Play::surplus_card`](crate::play::Play::surplus_card)). On a
    /// trick a later lead has closed, [`Fact::also_visible`] holds that card (see
    /// [`Play::surplus_card_on_older_trick`](crate::play::Play::surplus_card_on_older_trick)).
    /// Recorded play only.
    SurplusCard,
    /// An opening lead made face down that went back to the hand before it was faced: a lead
    /// out of turn, by the leader's partner (duplicate Law 41A: the Director has it returned;
    /// rubber Appendix 3: "the leader returns the card to his hand without penalty") or by a
    /// player of the declaring side (duplicate Law 54E), or the proper leader's face-down lead
    /// retracted while his partner's faced lead out of turn awaits declarer's decision
    /// (duplicate Law 54). No penalty card, no choice for declarer. The offender is the player
    /// whose card went back, the card his card. A desk records it by telling the face-down lead
    /// ([`Action::FaceDownLead`](super::Action::FaceDownLead)) or as this fact. Recorded play
    /// only.
    FaceDownLeadReturned,
}

impl FactKind {
    /// Whether the kind is a matter of judgement the engine records without rectifying
    /// (these are the only kinds a digital table records).
    pub const fn is_judgement(self) -> bool {
        matches!(
            self,
            FactKind::DefectiveTrick
                | FactKind::UnauthorizedInformation
                | FactKind::Misinformation
                | FactKind::DummyIrregularity
                | FactKind::Other
                | FactKind::CurrentTrickStatement
        )
    }
}

impl fmt::Display for FactKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FactKind::ExposedCardDuringAuction => "a card exposed during the auction",
            FactKind::ChangeOfCall => "a change of call",
            FactKind::InsufficientBid => "an insufficient bid",
            FactKind::CallOutOfRotation => "a call out of rotation",
            FactKind::SimultaneousCalls => "a simultaneous call",
            FactKind::InadmissibleCall => "an inadmissible call",
            FactKind::OpeningLeadOutOfTurn => "an opening lead out of turn",
            FactKind::LeadOutOfTurn => "a lead out of turn",
            FactKind::PrematurePlay => "a premature lead or play",
            FactKind::ExposedCard => "an exposed card",
            FactKind::DeclarerExposedCard => "a card of declarer's exposed",
            FactKind::Revoke => "a revoke",
            FactKind::DefectiveTrick => "a defective trick",
            FactKind::UnauthorizedInformation => "unauthorised information",
            FactKind::Misinformation => "misinformation",
            FactKind::DummyIrregularity => "dummy exceeding his rights",
            FactKind::Other => "an irregularity",
            FactKind::ChangeOfDesignation => "a change of designation",
            FactKind::UndesignatedDummyCard => "a card dummy played that declarer did not name",
            FactKind::IncompleteDesignation => "an incomplete designation from dummy",
            FactKind::MisinformedOfTurn => "a player misinformed that it was his turn",
            FactKind::RetractionAfterMisexplanation => "a card retracted after a mistaken explanation",
            FactKind::SimultaneousCards => "cards played together",
            FactKind::OpeningLeadRetractedBeforeDummyFaced => "an opening lead retracted before dummy was faced",
            FactKind::UnnoticedInadmissibleCall => "an inadmissible double or redouble nobody noticed",
            FactKind::AttentionToUnnoticedCall => "attention drawn to an unnoticed inadmissible call",
            FactKind::ExtraCardToTrick => "an extra card played to a trick",
            FactKind::CallChangedAfterMisinformation => "a call changed because of misinformation",
            FactKind::DeclarerSawDummy => "declarer could have seen dummy's cards before accepting a lead out of turn",
            FactKind::DeclarerBeganToSpread => "declarer began to spread his hand after a lead out of turn",
            FactKind::CurrentTrickStatement => "a defender's statement about the trick in progress only",
            FactKind::SurplusCard => "a surplus card",
            FactKind::FaceDownLeadReturned => "a face-down opening lead returned to the hand",
        })
    }
}

/// An irregularity as the table tells it. Which details are needed depends on the kind: a
/// call for the auction kinds, a card for the lead, play and exposure kinds, a trick (1-13)
/// for a revoke.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fact {
    /// What happened.
    pub kind: FactKind,
    /// Who committed it.
    pub offender: Seat,
    /// The call, for the auction kinds.
    pub call: Option<Call>,
    /// The card, for the lead, play and exposure kinds.
    pub card: Option<Card>,
    /// The trick, 1 to 13, for a revoke or a defective trick.
    pub trick: Option<u8>,
    /// For an exposed card: exposed deliberately (Law 50B: then a major penalty card whatever
    /// its rank).
    pub deliberate: bool,
    /// For an incomplete designation: what declarer said (Law 46).
    pub designation: Option<Designation>,
    /// For cards played together: the other cards whose faces were visible (Law 58B).
    pub also_visible: Vec<Card>,
    /// For the auction kinds, when the call made is artificial: the suits it relates to
    /// (possibly none), as in [`Action::Call`](super::Action::Call).
    pub relates_to: Option<SuitSet>,
    /// For a call changed because of misinformation ([`FactKind::CallChangedAfterMisinformation`]):
    /// the misinformed player, an opponent of the offender, whose last call is the one changed
    /// (Law 21B1(a): "provided that his partner has not subsequently called"). For
    /// [`FactKind::Misinformation`]: the player misinformed when it is too late to change his
    /// call, which reserves an adjustment against the offender's side (Law 21B3).
    pub misinformed: Option<Seat>,
    /// In words, as the table tells it.
    pub description: String,
}

/// An irregularity as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IrregularityRecord {
    /// Its number in the deal, from 1.
    pub id: u32,
    /// What happened (the kind as the Laws judge it).
    pub fact: Fact,
    /// The player who drew attention to it, if a player did.
    pub pointed_out_by: Option<Seat>,
    /// The Law that governs it.
    pub law: Law,
    /// The decisions it brought, in order.
    pub decisions: Vec<u32>,
    /// The irregular call's position in [`Auction::calls`](crate::auction::Auction::calls), for the auction kinds.
    pub call_index: Option<usize>,
    /// The action that recorded it.
    pub step: Step,
}

impl Fact {
    /// The refusal for a detail this kind of fact needs that the table did not give.
    pub(super) fn missing(&self, detail: &'static str) -> TableError {
        TableError::MissingDetail { kind: self.kind, detail }
    }
}
