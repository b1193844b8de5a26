//! The play of a deal (Laws 41-71 of both codes): the opening lead, dummy, tricks, irregular
//! leads and plays, penalty cards, revokes, and claims.
//!
//! A [`Play`] is an immutable value: every action (`card`, `record`, `rectify`, `claim`, ...)
//! takes `&self` and returns the next state or a typed error naming the Law, and never
//! changes anything on error. The game service stores each accepted action and rebuilds the
//! state by replaying them; replaying the same actions gives an equal `Play`.
//!
//! Two ways to play a card:
//! - [`Play::card`] is digital play: the card is played for whoever is next (declarer plays
//!   dummy's cards), and anything the Laws forbid is refused with the Law that forbids it. A
//!   revoke is simply refused.
//! - [`Play::record`] records what really happened at a table with physical cards: a lead or
//!   play out of turn, a revoke (accepted as a fact; the Laws act on it only when attention is
//!   drawn, [`Play::draw_attention_to_revoke`]), exposed cards ([`Play::expose`]). Irregularities
//!   become a pending [`Decision`] whose options name their Law and chooser;
//!   [`Play::rectify`] applies the chosen one and the engine enforces its effects afterwards.
//!   A played card is taken back only as Law 47 allows ([`Play::retract`]: a changed
//!   designation, dummy's card declarer did not name, misinformation), and declarer's
//!   incomplete designations from dummy are read as Law 46 says ([`Play::designate_from_dummy`]).
//!   A surplus card led or played is taken out of its trick and replaced ([`Play::surplus_card`],
//!   rubber Law 12B2, duplicate Law 13C); a trick found defective late is put right
//!   ([`Play::defective_trick`], Law 67B).
//!
//! Claims and concessions ([`Play::claim`], [`Play::respond_to_claim`], [`Play::adjudicate`],
//! [`Play::revise_claim`]) follow each code's procedure (Laws 68-71, Club Laws 69-70); after
//! declarer's disputed rubber claim a defender may face his hand ([`Play::face_for_inspection`],
//! rubber Law 69). The
//! automatic revoke transfer of Law 64 is a pure function, [`revoke_transfer`].
//!
//! For per-seat views the game service uses [`Play::visible_to`] (own hand and every card face
//! up), [`Play::dummy_visible`], [`Play::tricks`] and [`Play::penalty_cards`]; a revoke not yet
//! pointed out ([`Play::revokes`], [`PlayEvent::Revoke`]) is hidden information. A decision's
//! texts (situation, options, effects) name only cards every player sees: played, face up or
//! in dummy; a card of a hidden hand that an option needs (rubber Law 62's twelfth-trick
//! options) is described without being named and given by
//! [`PlayOption::concealed_card`](crate::irregularities::play::PlayOption::concealed_card),
//! for the official alone.
//!
//! ```
//! use laws::play::Play;
//! use laws::{Code, Contract, DeclaredContract, Deal, Seat, Side};
//!
//! let deal: Deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765".parse()?;
//! let contract: Contract = "4S".parse()?;
//! let play = Play::new(deal, DeclaredContract { contract, declarer: Seat::South }, Code::Duplicate, vec![], vec![])?;
//!
//! // West makes the opening lead (Law 41); dummy is spread only once it is faced.
//! assert_eq!(play.next_to_play(), Some(Seat::West));
//! assert!(!play.dummy_visible());
//! let play = play.card("HA".parse()?)?;
//! assert!(play.dummy_visible());
//!
//! // Declarer plays dummy's card (Law 41D); dummy must follow suit (Law 44C).
//! assert_eq!(play.next_to_play(), Some(Seat::North));
//! let err = play.card("SA".parse()?).unwrap_err();
//! assert_eq!(err.to_string(), "North must follow suit to hearts: the SA would be a revoke (Law 44C of the Laws of Duplicate Bridge)");
//! let play = play.card("H8".parse()?)?.card("H5".parse()?)?.card("H2".parse()?)?;
//!
//! // West's ace won the trick, so West leads again (Law 44G).
//! assert_eq!(play.tricks()[0].winner(), Some(Seat::West));
//! assert_eq!(play.tricks_won(Side::EastWest), 1);
//! assert_eq!(play.next_to_play(), Some(Seat::West));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod claim;
mod claim_play;
mod defective;
mod designate;
mod equity;
mod error;
mod face_down;
mod faced_lead;
mod inspection;
mod legal;
mod penalty_cards;
mod record;
mod rectify;
mod retract;
mod revoke;
mod solver;
mod stated_line;
mod surplus;
mod surplus_older;
mod trick;
mod trusted;

pub use claim::{
    Claim, ClaimRecord, ClaimResponse, ClaimRevision, ClaimStatus, OutstandingTrumpTest, RevisionGround, SEARCH_LIMIT,
    adjudication_law,
};
pub use claim_play::{ClaimBreach, ClaimConduct, ClaimDuty};
pub use designate::{DesignationOutcome, DesignationRuling};
pub use error::PlayError;
pub use record::{DrawnBy, Exposure, PlayEvent, Recorded};
pub use revoke::{
    Attention, Exemption, Failure, Revoke, RevokeFacts, RevokeRuling, RevokeStatus, RevokeTransfer, revoke_transfer,
};
pub use stated_line::{StatedLine, TrumpIntent};
pub use trick::{Trick, winner};

use crate::cards::{Card, CardSet, Deal, Suit};
use crate::contract::{DeclaredContract, Denomination};
use crate::irregularities::auction::ReservedAdjustment;
use crate::irregularities::play::{Decision, PlayRequirement, Seats, Situation, Suits};
use crate::law::{Code, Law};
use crate::penalty::{PenaltyCard, PenaltyCardKind, PendingLeadPenalty};
use crate::seat::{Seat, Side};

use record::Events;
use retract::LastRecord;

/// A restriction on one player's leads: a suit he must lead at his next lead, and suits he may
/// not lead while he retains the lead (Law 26, Law 50D2, Law 51B; Law 59 when he cannot
/// comply).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LeadRestriction {
    /// The player restricted.
    pub player: Seat,
    /// The suit he must lead at his next lead, and the Law that requires it.
    pub required: Option<(Suit, Law)>,
    /// The suits he may not lead while he retains the lead, and the Law that forbids them.
    pub forbidden: Option<(Suits, Law)>,
}

/// A requirement on one player's play to the current trick (Law 57A; rubber Law 62 on the
/// twelfth trick; Law 59 when he cannot comply).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PlayRestriction {
    /// The player restricted.
    pub player: Seat,
    /// What he must do.
    pub requirement: PlayRequirement,
    /// The Law that imposed it.
    pub law: Law,
}

/// The tricks each side ended with: won in play, and credited by an agreed or adjudicated
/// claim (Law 69A: scored as though won or lost in play), before any revoke transfer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PlayResult {
    /// Tricks won in play, by [`Side::index`].
    pub won_in_play: [u8; 2],
    /// Tricks credited by a claim or concession, by [`Side::index`].
    pub by_claim: [u8; 2],
}

impl PlayResult {
    /// Tricks credited to `side` (in play and by claim).
    pub const fn tricks(&self, side: Side) -> u8 {
        self.won_in_play[side.index()] + self.by_claim[side.index()]
    }
}

/// The play of one deal under a code of Laws (see the [module documentation](self)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Play {
    code: Code,
    deal: Deal,
    contract: DeclaredContract,
    /// Cards not yet played, penalty cards included (a penalty card is face up but still the
    /// defender's card, Law 50A).
    hands: [CardSet; 4],
    tricks: [Trick; 13],
    completed: u8,
    opening_lead_faced: bool,
    /// Every penalty card ever created; one is on the table while its card is still in its
    /// owner's hand, so a card returned to the hand by a withdrawal is a penalty card again.
    penalty_records: Vec<PenaltyCard>,
    lead_penalties: Vec<PendingLeadPenalty>,
    lead_restriction: Option<LeadRestriction>,
    play_restriction: Option<PlayRestriction>,
    designated: Option<Card>,
    /// The trick whose lead declarer already settled under Law 50D2 / 51B.
    lead_options_settled: Option<u8>,
    /// After declarer was required to retract a lead from the wrong hand (Law 55B2) and until
    /// he leads from the correct one (Law 60B).
    must_lead_from: Option<Seat>,
    revokes: Vec<Revoke>,
    pending: Option<Situation>,
    /// A decision to raise once the current one is settled (the rubber twelfth-trick option
    /// after the withdrawals of Law 62C).
    queued: Option<Situation>,
    /// Hands faced besides dummy's: a claimer's (Law 68C, Law 69-70 rubber), a defender's
    /// faced for inspection after declarer's disputed claim (rubber Law 69).
    faced: Seats,
    claims: Vec<ClaimRecord>,
    /// While an opening lead out of turn awaits declarer's decision: he could have seen dummy's
    /// cards, so he must accept it (rubber Law 54B, duplicate Law 54C).
    declarer_saw_dummy: bool,
    /// Adjustments the official (or the players) may make at the end of play because a side
    /// used, or could use, information the Laws make unauthorized during the play: a withdrawn
    /// card (Law 47, 62C), a lead declarer had to retract (Law 55), a concession withdrawn on
    /// partner's objection (rubber 71C, duplicate 68B2), a statement about the trick in progress
    /// (rubber 70A, duplicate 68); and a surplus card found on a quitted trick (duplicate 13C).
    reserved: Vec<ReservedAdjustment>,
    /// A surplus card taken out of a trick, while its consequences last (rubber Law 12B2).
    surplus: Option<surplus::Surplus>,
    /// A trick found defective late while the offender has still to add his card (Law 67B1).
    defective: Option<defective::Defective>,
    /// The opening lead lying face down, not yet faced (duplicate Law 41A; rubber Appendix 3).
    face_down: Option<(Seat, Card)>,
    /// Tricks transferred to restore equity to each side after an established revoke, by
    /// [`Side::index`], once entered (Law 64).
    equity: [Option<u8>; 2],
    /// The card recorded by the last action and the play before it, while nothing else has
    /// happened since: a lead or play out of turn made because an opponent said it was the
    /// player's turn is retracted as though never made (duplicate Law 47E1; rubber Law 47D).
    last_record: Option<Box<LastRecord>>,
}

impl Play {
    /// Starts the play of `deal` for `contract` under `code`, with the obligations an auction
    /// irregularity left for the play.
    ///
    /// - `code` is [`Code::Rubber`] (also for [`Code::Chicago`], which is played under the
    ///   Laws of Rubber Bridge), [`Code::Club`] (rubber bridge with the Alternative Club Laws
    ///   and an Arbiter) or [`Code::Duplicate`]; the Rules for Club Procedure govern no play.
    /// - `carried` lead penalties (Law 26) bind only a player who becomes a defender; the
    ///   others are dropped.
    /// - `penalty_cards` exposed during the auction (Law 24) become penalty cards only for a
    ///   defender (duplicate Law 24D-E; rubber Law 24, Law 48); each must be in its owner's
    ///   hand. When one defender has two or more, all are major (Law 50B).
    pub fn new(
        deal: Deal,
        contract: DeclaredContract,
        code: Code,
        carried: Vec<PendingLeadPenalty>,
        penalty_cards: Vec<PenaltyCard>,
    ) -> Result<Play, PlayError> {
        let code = match code {
            Code::Rubber | Code::Chicago => Code::Rubber,
            Code::Club => Code::Club,
            Code::Duplicate => Code::Duplicate,
            Code::ClubProcedure => return Err(PlayError::UnsupportedCode { code, law: Law::rubber(41, "") }),
        };
        let defenders = contract.declaring_side().opponents();
        let mut play = Play {
            code,
            deal,
            contract,
            hands: deal.hands(),
            tricks: [Trick::new(contract.opening_leader()); 13],
            completed: 0,
            opening_lead_faced: false,
            penalty_records: Vec::new(),
            lead_penalties: carried.into_iter().filter(|p| p.player.side() == defenders).collect(),
            lead_restriction: None,
            play_restriction: None,
            designated: None,
            lead_options_settled: None,
            must_lead_from: None,
            revokes: Vec::new(),
            pending: None,
            queued: None,
            faced: Seats::EMPTY,
            claims: Vec::new(),
            declarer_saw_dummy: false,
            reserved: Vec::new(),
            surplus: None,
            defective: None,
            face_down: None,
            equity: [None; 2],
            last_record: None,
        };
        for card in penalty_cards.into_iter().filter(|pc| pc.owner.side() == defenders) {
            if !deal.hand(card.owner).contains(card.card) {
                return Err(PlayError::PenaltyCardNotHeld {
                    owner: card.owner,
                    card: card.card,
                    law: play.cite(24, "", "E"),
                });
            }
            play.add_penalty_card(card, &mut Events::discard());
        }
        play.settle();
        Ok(play)
    }

    /// The code of Laws applied: [`Code::Rubber`], [`Code::Club`] or [`Code::Duplicate`].
    pub const fn code(&self) -> Code {
        self.code
    }

    /// The deal as dealt.
    pub const fn deal(&self) -> &Deal {
        &self.deal
    }

    /// The contract and its declarer. The declarer changes if he accepts an opening lead out of
    /// turn by spreading his hand (Law 54).
    pub const fn contract(&self) -> DeclaredContract {
        self.contract
    }

    /// Declarer.
    pub const fn declarer(&self) -> Seat {
        self.contract.declarer
    }

    /// Dummy, declarer's partner.
    pub const fn dummy(&self) -> Seat {
        self.contract.dummy()
    }

    /// Whether `seat` is a defender.
    pub fn is_defender(&self, seat: Seat) -> bool {
        seat.side() != self.contract.declaring_side()
    }

    /// The trump suit, or `None` at notrump.
    pub const fn trumps(&self) -> Option<Suit> {
        match self.contract.contract.denomination() {
            Denomination::Clubs => Some(Suit::Clubs),
            Denomination::Diamonds => Some(Suit::Diamonds),
            Denomination::Hearts => Some(Suit::Hearts),
            Denomination::Spades => Some(Suit::Spades),
            Denomination::NoTrump => None,
        }
    }

    /// The cards `seat` still holds, penalty cards on the table included.
    pub const fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat.index()]
    }

    /// Whether dummy's hand is on the table: only once the opening lead is faced and accepted
    /// (Law 41 rubber, 41C-D duplicate; Law 54 while an opening lead out of turn is being
    /// decided). The game service shows dummy to the other players only when this is true.
    pub const fn dummy_visible(&self) -> bool {
        self.opening_lead_faced
    }

    /// The hands lying face up on the table: dummy's once the opening lead is faced, a
    /// claimer's (Law 68C duplicate; Law 69 and 70B rubber), and a defender's faced for
    /// inspection after declarer's disputed claim (rubber Law 69).
    pub fn faced_hands(&self) -> Seats {
        if self.opening_lead_faced { self.faced.with(self.dummy()) } else { self.faced }
    }

    /// Every card every player may see besides his own hand: faced hands, penalty cards on the
    /// table (Law 50A), and a lead out of turn awaiting a decision.
    pub fn face_up_cards(&self) -> CardSet {
        let mut cards: CardSet = self.penalty_cards().map(|pc| pc.card).collect();
        for seat in self.faced_hands().iter() {
            cards = cards.union(self.hands[seat.index()]);
        }
        if let Some(
            Situation::OpeningLeadOutOfTurn { card, .. }
            | Situation::DeclarerLeadOutOfTurn { card, .. }
            | Situation::DefenderLeadOutOfTurn { card, .. },
        ) = &self.pending
        {
            cards.insert(*card);
        }
        cards
    }

    /// The unplayed cards `viewer` may see, by seat: his own hand and everything face up.
    /// Played cards are public through [`Play::tricks`].
    pub fn visible_to(&self, viewer: Seat) -> [CardSet; 4] {
        let face_up = self.face_up_cards();
        let mut view = [CardSet::EMPTY; 4];
        for seat in Seat::ALL {
            let hand = self.hands[seat.index()];
            view[seat.index()] = if seat == viewer { hand } else { hand.intersection(face_up) };
        }
        view
    }

    /// The tricks played so far, in order, with the trick in progress last if a card has been
    /// played to it.
    pub fn tricks(&self) -> &[Trick] {
        let started = match self.current_trick() {
            Some(trick) if !trick.is_empty() => self.completed as usize + 1,
            _ => self.completed as usize,
        };
        &self.tricks[..started]
    }

    /// The number of tricks completed.
    pub const fn completed_tricks(&self) -> u8 {
        self.completed
    }

    /// The trick in progress (possibly still empty), or `None` once thirteen are complete.
    pub fn current_trick(&self) -> Option<&Trick> {
        self.tricks.get(self.completed as usize)
    }

    /// Tricks won in play by `side` (claims are in [`Play::result`]).
    pub fn tricks_won(&self, side: Side) -> u8 {
        self.tricks[..self.completed as usize].iter().filter(|t| t.winner().map(Seat::side) == Some(side)).count() as u8
    }

    /// Tricks not yet played or settled.
    pub fn remaining_tricks(&self) -> u8 {
        if self.is_complete() { 0 } else { 13 - self.completed }
    }

    /// The hand due to play next (dummy's seat when a card of dummy's is due; see
    /// [`Play::actor`]), or `None` once the play is over.
    pub fn next_to_play(&self) -> Option<Seat> {
        if self.is_complete() {
            return None;
        }
        self.current_trick().and_then(Trick::next_in_rotation)
    }

    /// The player who acts next: declarer when a card of dummy's is due (Law 41D, Law 45B).
    pub fn actor(&self) -> Option<Seat> {
        self.next_to_play().map(|seat| if seat == self.dummy() { self.declarer() } else { seat })
    }

    /// The cards the next hand may play now, with every obligation applied in the order of the
    /// Laws: following suit first (Law 44C), then lead and play restrictions (Law 26, 50D2,
    /// 51B, 57), then penalty cards (Law 50D1, 50C), each waived when the player cannot comply
    /// (Law 59). Empty while a decision is pending, while a claim is considered, and once the
    /// play is over.
    pub fn legal_cards(&self) -> CardSet {
        match (self.ensure_can_play(), self.next_to_play()) {
            (Ok(()), Some(seat)) => self.claim_steps(seat, self.obligations(seat, None).allowed, None).0,
            _ => CardSet::EMPTY,
        }
    }

    /// The penalty cards on the table (Law 50A), face up for everyone.
    pub fn penalty_cards(&self) -> impl Iterator<Item = &PenaltyCard> + '_ {
        self.penalty_records.iter().filter(|pc| self.hands[pc.owner.index()].contains(pc.card))
    }

    /// Lead penalties from the auction not yet applied (Law 26: declarer decides when the
    /// offender's partner first has the lead).
    pub fn lead_penalties(&self) -> &[PendingLeadPenalty] {
        &self.lead_penalties
    }

    /// The lead restriction in force, if any.
    pub const fn lead_restriction(&self) -> Option<LeadRestriction> {
        self.lead_restriction
    }

    /// The play restriction in force for the current trick, if any.
    pub const fn play_restriction(&self) -> Option<PlayRestriction> {
        self.play_restriction
    }

    /// The penalty card declarer designated for the defender's next play (Law 50D1(a), 51A).
    pub const fn designated_penalty_card(&self) -> Option<Card> {
        self.designated
    }

    /// Every revoke committed so far, with its status (Laws 61-63). Revokes the players have
    /// not noticed are hidden information: show them only to the official, or after play.
    pub fn revokes(&self) -> &[Revoke] {
        &self.revokes
    }

    /// The claims and concessions made, the last one possibly still being considered.
    pub fn claims(&self) -> &[ClaimRecord] {
        &self.claims
    }

    /// Whether play is suspended while a claim or concession is considered (Law 68D
    /// duplicate; Law 69-70 rubber; Club Laws 69-70).
    pub fn is_suspended(&self) -> bool {
        self.claims.last().is_some_and(|c| matches!(c.status, ClaimStatus::Pending | ClaimStatus::Disputed))
    }

    /// Whether the play is over: thirteen tricks played (Law 44), or a claim or concession
    /// agreed (Law 69) or adjudicated (Law 70; Club Laws 69-70).
    pub fn is_complete(&self) -> bool {
        self.completed == 13
            || self.claims.last().is_some_and(|c| matches!(c.status, ClaimStatus::Agreed | ClaimStatus::Adjudicated))
    }

    /// The tricks each side ended with, once the play is over (revoke transfers are separate:
    /// [`Play::revoke_transfer`]).
    pub fn result(&self) -> Option<PlayResult> {
        if !self.is_complete() {
            return None;
        }
        let mut result = PlayResult::default();
        for side in Side::ALL {
            result.won_in_play[side.index()] = self.tricks_won(side);
        }
        if let Some(claim) = self.claims.last().filter(|_| self.completed < 13) {
            let claimer = claim.claim.claimer.side();
            let (to_claimer, to_others) = claim.settled_tricks();
            result.by_claim[claimer.index()] = to_claimer;
            result.by_claim[claimer.opponents().index()] = to_others;
        }
        Some(result)
    }

    /// The tricks declarer's side made, after the automatic revoke transfers of Law 64
    /// (transferred to the non-offending side after play; rubber Law 77: reckoned for all
    /// scoring purposes as though won in play). `None` until the play is over.
    pub fn declarer_tricks(&self) -> Option<u8> {
        let result = self.result()?;
        let side = self.contract.declaring_side();
        let transfer = self.revoke_transfer();
        // A transfer moves only tricks the offending side won, so this never underflows.
        Some((result.tricks(side) + transfer.to[side.index()]).saturating_sub(transfer.to[side.opponents().index()]))
    }

    /// The Law of `number` in the code played, with its section as printed in the rubber and
    /// the duplicate text (they letter many Laws differently).
    pub(crate) const fn cite(&self, number: u8, rubber: &'static str, duplicate: &'static str) -> Law {
        match self.code {
            Code::Duplicate => Law::duplicate(number, duplicate),
            _ => Law::rubber(number, rubber),
        }
    }

    /// The Law that stops play while something is pending: Law 9B2 duplicate, Law 13 rubber.
    fn pending_law(&self) -> Law {
        match self.code {
            Code::Duplicate => Law::duplicate(9, "B2"),
            Code::Club => Law::club(13, ""),
            _ => Law::rubber(13, ""),
        }
    }

    /// The Law that suspends play after a claim: Law 68D duplicate; rubber Law 69 for
    /// declarer's claim and Law 70B for a defender's ("play is temporarily suspended").
    pub(crate) fn suspended_law(&self) -> Law {
        match self.code {
            Code::Duplicate => Law::duplicate(68, "D"),
            _ if self.claims.last().is_some_and(|c| self.is_defender(c.claim.claimer)) => Law::rubber(70, "B"),
            _ => Law::rubber(69, ""),
        }
    }

    fn over_law(&self) -> Law {
        if self.completed == 13 { self.cite(44, "", "B") } else { self.cite(69, "", "A") }
    }

    /// Refuses any play while the deal is over, a claim is considered or a decision pending.
    fn ensure_can_play(&self) -> Result<(), PlayError> {
        if self.is_complete() {
            return Err(PlayError::PlayOver { law: self.over_law() });
        }
        if self.is_suspended() {
            return Err(PlayError::PlaySuspended { law: self.suspended_law() });
        }
        if let Some(situation) = &self.pending {
            return Err(PlayError::DecisionPending { situation: Box::new(situation.clone()), law: self.pending_law() });
        }
        Ok(())
    }

    /// Whether `seat`'s hand lies face up (dummy's, or a claimer's).
    fn hand_faced(&self, seat: Seat) -> bool {
        self.faced_hands().contains(seat)
    }

    fn cur(&self) -> usize {
        self.completed as usize
    }

    /// The next state: the last card recorded is no longer the last thing that happened (47E1).
    fn successor(&self) -> Play {
        let mut next = self.clone();
        next.last_record = None;
        next
    }

    /// Digital play: plays `card` for the hand due to play (declarer names dummy's cards).
    /// Refused, with the Law, if the card is in another hand (Law 44; leads and plays out of
    /// turn are Laws 53-57), already played (Law 45), a revoke (Law 44C, Law 61), against a
    /// lead or play restriction (Law 26, 50D2, 51, 56, 57), or when a penalty card must be
    /// played instead (Law 50D1, 50C, 52).
    pub fn card(&self, card: Card) -> Result<Play, PlayError> {
        self.ensure_can_play()?;
        let Some(seat) = self.next_to_play() else {
            return Err(PlayError::PlayOver { law: self.over_law() });
        };
        self.ensure_holds(seat, card)?;
        self.check_face_down_lead(seat, card)?;
        let obligations = self.obligations(seat, Some(card));
        if let Some(failure) = obligations.failure {
            return Err(failure.refusal(seat, card));
        }
        if let (_, Some(breach)) = self.claim_steps(seat, obligations.allowed, Some(card)) {
            return Err(PlayError::ClaimObligation { seat, card, duty: breach.duty, law: breach.law });
        }
        let mut next = self.successor();
        next.play_with_check(seat, card, &mut Events::discard());
        next.remember_last_record(self, seat, card);
        Ok(next)
    }

    /// Plays `card` from `seat`'s hand as a fact: a card that fails an obligation is recorded
    /// as a revoke (Law 61A) and stands until attention is drawn to it.
    fn play_with_check(&mut self, seat: Seat, card: Card, events: &mut Events) {
        let trick = self.completed;
        self.note_revoke(seat, card, events);
        self.establish(seat, trick, events);
        self.put_card(seat, card, events);
    }

    /// Records a revoke (Law 61A) if `card` from `seat` fails an obligation on the trick in
    /// progress.
    fn note_revoke(&mut self, seat: Seat, card: Card, events: &mut Events) {
        let trick = self.completed;
        if let Some(failure) = self.obligations(seat, Some(card)).failure {
            self.revokes.push(Revoke {
                offender: seat,
                trick,
                card,
                failure,
                status: RevokeStatus::Unestablished,
                attention: None,
                from_faced_hand: self.hand_faced(seat),
                asked_by_dummy_out_of_rights: false,
            });
            events.push(PlayEvent::Revoke { seat, trick });
        }
    }

    /// Law 63A1 (duplicate) / Law 63 (rubber): a revoke becomes established when the offender
    /// or his partner leads or plays, legally or not, to a later trick.
    fn establish(&mut self, seat: Seat, trick: u8, events: &mut Events) {
        for revoke in &mut self.revokes {
            if revoke.status == RevokeStatus::Unestablished
                && revoke.offender.side() == seat.side()
                && revoke.trick < trick
            {
                revoke.status = RevokeStatus::Established;
                events.push(PlayEvent::RevokeEstablished { seat: revoke.offender, trick: revoke.trick });
            }
        }
    }

    /// Every unestablished revoke becomes established when a claim ends the play (Law 63B).
    fn establish_all(&mut self) {
        for revoke in &mut self.revokes {
            if revoke.status == RevokeStatus::Unestablished {
                revoke.status = RevokeStatus::Established;
            }
        }
    }

    /// Puts `card` from `seat`'s hand into the trick in progress, completing the trick when it
    /// is the fourth card (Law 44).
    fn put_card(&mut self, seat: Seat, card: Card, events: &mut Events) {
        let cur = self.cur();
        self.face_down_lead_settled(seat, events);
        self.hands[seat.index()].remove(card);
        self.place_card(seat, card);
        if self.designated == Some(card) {
            self.designated = None;
        }
        if self.tricks[cur].leader() == seat {
            self.must_lead_from = None;
        }
        events.push(PlayEvent::CardPlayed { seat, card, trick: self.completed });
        if cur == 0 && !self.opening_lead_faced {
            self.opening_lead_faced = true;
            events.push(PlayEvent::DummyFaced { dummy: self.dummy() });
        }
        if self.tricks[cur].is_complete() {
            self.complete_trick(events);
        }
        self.settle();
    }

    fn complete_trick(&mut self, events: &mut Events) {
        let cur = self.cur();
        let Some(winner) = self.tricks[cur].settle(self.trumps()) else {
            return;
        };
        let winner = self.surplus_winner(cur, winner);
        let winner = self.defective_winner(cur, winner, events);
        let leader = self.tricks[cur].leader();
        events.push(PlayEvent::TrickWon { trick: self.completed, winner });
        self.completed += 1;
        self.play_restriction = None;
        self.designated = None;
        if let Some(restriction) = &mut self.lead_restriction {
            if restriction.player == leader {
                restriction.required = None;
            }
            if restriction.player != winner {
                // Law 26, 50D2(a), 51B: the prohibition lasts while he retains the lead.
                restriction.forbidden = None;
            }
            if restriction.required.is_none() && restriction.forbidden.is_none() {
                self.lead_restriction = None;
            }
        }
        if self.completed < 13 {
            self.tricks[self.cur()] = Trick::new(winner);
        } else {
            events.push(PlayEvent::PlayEnded);
        }
    }

    /// Takes every card played to tricks after `trick` back into the hands and reopens `trick`
    /// (for a correction under Law 52 or 62 that changes a trick already complete).
    fn reopen(&mut self, trick: usize) {
        for later in (trick + 1..13).rev() {
            let mut cards = self.tricks[later];
            for seat in Seat::ALL {
                if let Some(card) = cards.take(seat) {
                    self.hands[seat.index()].insert(card);
                }
            }
            self.tricks[later] = Trick::new(cards.leader());
        }
        if self.cur() > trick {
            self.completed = trick as u8;
        }
        self.tricks[trick].reopen();
    }

    /// Raises the decisions that arise by themselves when a player comes to play: declarer's
    /// Law 26 lead penalty, his Law 50D2 / 51B lead options, and his designation among two or
    /// more penalty cards (Law 50D1(a), 51A).
    fn settle(&mut self) {
        if self.pending.is_some() || self.is_complete() || self.is_suspended() {
            return;
        }
        let Some(seat) = self.next_to_play() else {
            return;
        };
        let cur = self.completed;
        if self.tricks[self.cur()].is_empty() {
            if let Some(i) = self.lead_penalties.iter().position(|p| p.player == seat) {
                let penalty = self.lead_penalties.remove(i);
                self.pending =
                    Some(Situation::AuctionLeadPenalty { leader: seat, penalty: penalty.penalty, law: penalty.law });
                return;
            }
            if self.is_defender(seat)
                && self.lead_options_settled != Some(cur)
                && !self.majors(seat.partner()).is_empty()
            {
                self.pending = Some(Situation::PenaltyCardLead { leader: seat });
                return;
            }
        }
        if self.designated.is_none() && self.is_defender(seat) {
            let open = self.obligations(seat, None).before_penalty_cards;
            if self.majors(seat).intersection(open).len() >= 2 {
                self.pending = Some(Situation::DesignatePenaltyCard { owner: seat });
                return;
            }
        }
        self.raise_prohibition(seat);
    }

    /// The pending decision, with its options, their Laws and effects, and who chooses.
    pub fn decision(&self) -> Option<Decision> {
        self.pending.as_ref().map(|situation| self.decision_for(situation)).or_else(|| self.equity_decision())
    }

    /// Adjustments reserved during the play for unauthorized information, in order (see field).
    pub fn reserved_adjustments(&self) -> &[ReservedAdjustment] {
        &self.reserved
    }

    /// The play with an adjustment reserved against `side` under `law` (Law 16 through the Law
    /// that makes the information unauthorized), for facts the play does not see (rubber 70A, dup. 68).
    pub fn with_reserved_adjustment(&self, side: Side, law: Law) -> Play {
        let mut next = self.clone();
        next.reserve(side, law);
        next
    }

    fn reserve(&mut self, offending_side: Side, law: Law) {
        let adjustment = ReservedAdjustment { offending_side, law };
        if !self.reserved.contains(&adjustment) {
            self.reserved.push(adjustment);
        }
    }
}
