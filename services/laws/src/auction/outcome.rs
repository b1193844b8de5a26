//! How the auction ended (Law 22): passed out, or the contract with what its irregularities
//! carry into the play (Law 26 lead penalties, Law 24 penalty cards, adjustments reserved).
//! Apart because it reads the whole record once, when the auction hands over to the play.

use crate::cards::{Suit, SuitSet};
use crate::contract::{Call, Contract, DeclaredContract, Doubling};
use crate::irregularities::auction::ReservedAdjustment;
use crate::penalty::{LeadPenalty, PenaltyCard, PenaltyCardKind, PendingLeadPenalty};
use crate::seat::Seat;

use super::{Auction, DueLeadPenalty, ExposedCards};

/// How an auction ended (Law 22).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuctionOutcome {
    /// Nobody bid: the hands are abandoned (rubber Law 22A) or returned to the board without a
    /// redeal (duplicate Law 22B).
    PassedOut,
    /// The final bid became the contract (rubber Law 22B, duplicate Law 22A).
    Contract(ContractOutcome),
}

/// A contract and what the auction's irregularities carry into the play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContractOutcome {
    /// The contract and declarer (Definitions: the player of the contracting side who first
    /// named the denomination).
    pub contract: DeclaredContract,
    /// Lead penalties against a defender whose partner offended (Law 26): only those whose
    /// offender's partner is a defender.
    pub lead_penalties: Vec<PendingLeadPenalty>,
    /// Cards exposed during the auction by a player who became a defender (Law 24, duplicate
    /// Law 24E); a declaring-side offender's cards go back to his hand (duplicate Law 24D).
    pub penalty_cards: Vec<PenaltyCard>,
    /// Adjustments the official (or the players) may make at the end of play.
    pub reserved_adjustments: Vec<ReservedAdjustment>,
}

impl Auction {
    /// How the auction ended, once it is closed and nothing awaits rectification: passed out,
    /// or the contract with the obligations its irregularities carry into the play.
    pub fn outcome(&self) -> Option<AuctionOutcome> {
        if !self.is_closed() || self.pending.is_some() {
            return None;
        }
        let Some((bid_entry, bidder, bid)) = self.last_bid_entry() else {
            return Some(AuctionOutcome::PassedOut);
        };
        let side = bidder.side();
        let declarer = self
            .standing()
            .find_map(|(_, seat, call)| match call {
                Call::Bid(b) if seat.side() == side && b.denomination() == bid.denomination() => Some(seat),
                _ => None,
            })
            .unwrap_or(bidder);
        let doubling =
            self.standing().filter(|(i, ..)| *i > bid_entry).fold(Doubling::Undoubled, |d, (_, _, c)| match c {
                Call::Double => Doubling::Doubled,
                Call::Redouble => Doubling::Redoubled,
                _ => d,
            });
        let contract = DeclaredContract { contract: Contract::new(bid, doubling), declarer };
        let defends = |offender: Seat| offender.side() != side;

        let mut lead_penalties: Vec<PendingLeadPenalty> = Vec::new();
        for due in self.lead_penalties.iter().cloned().chain(self.unresolved_lead_penalties()) {
            if !defends(due.offender) {
                continue;
            }
            if let Some(penalty) = self.lead_penalty_for(&due) {
                let pending = PendingLeadPenalty { player: due.offender.partner(), penalty, law: due.law };
                if !lead_penalties.contains(&pending) {
                    lead_penalties.push(pending);
                }
            }
        }

        let mut penalty_cards: Vec<PenaltyCard> = Vec::new();
        for seat in Seat::ALL.into_iter().filter(|s| defends(*s)) {
            let exposed: Vec<&ExposedCards> = self.penalty_cards.iter().filter(|e| e.seat == seat).collect();
            let count: usize = exposed.iter().map(|e| e.cards.len()).sum();
            for exposure in exposed {
                for &card in &exposure.cards {
                    // Law 50: an honor, a card led (deliberate play), or one of two or more
                    // penalty cards is major; a single low card exposed inadvertently is minor.
                    let major = card.rank.is_honor() || exposure.led || count > 1;
                    let kind = if major { PenaltyCardKind::Major } else { PenaltyCardKind::Minor };
                    penalty_cards.push(PenaltyCard { card, owner: seat, kind, law: self.cite(24, "", "E") });
                }
            }
        }

        Some(AuctionOutcome::Contract(ContractOutcome {
            contract,
            lead_penalties,
            penalty_cards,
            reserved_adjustments: self.adjustments.clone(),
        }))
    }

    /// The lead penalty a due penalty gives at the end of the auction (duplicate Law 26B turns
    /// on the suits the offender specified in the legal auction).
    fn lead_penalty_for(&self, due: &DueLeadPenalty) -> Option<LeadPenalty> {
        match &due.penalty {
            Some(penalty) => Some(penalty.clone()),
            None => {
                // "any suit which has not been specified in the legal auction by the offender":
                // an artificial call specifies the suits it relates to, not the one it names.
                let specified: SuitSet = self
                    .standing()
                    .filter(|(_, seat, _)| *seat == due.offender)
                    .fold(SuitSet::EMPTY, |suits, (i, ..)| suits.union(self.entries[i].suits_specified()));
                let open: Vec<Suit> = SuitSet::ALL.difference(specified).to_vec();
                (!open.is_empty()).then_some(LeadPenalty::ForbidOneOf(open))
            }
        }
    }
}
