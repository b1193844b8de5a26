//! The obligations in force at the table, in one form whichever engine imposed them: the
//! auction's restrictions on calls, the lead penalties it leaves for the play (Law 26), and
//! the play's lead and play restrictions. Apart because it only reads the engines, for the
//! players' screens.

use crate::cards::Suit;
use crate::irregularities::auction::{PassDuration, Restriction as AuctionRestriction};
use crate::irregularities::play::PlayRequirement;
use crate::law::Law;
use crate::penalty::LeadPenalty;
use crate::play::{Play, TrumpIntent};
use crate::seat::Seat;

use super::DealInProgress;

/// What a restriction in force requires or forbids (the contract's `RestrictionKind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ObligationKind {
    /// Must pass at the next turn to call (Law 24B, 30A ...).
    PassNextTurn,
    /// Must pass whenever it is his turn to call (Law 27C, 30B, 31, 32 ...).
    PassRestOfAuction,
    /// May not double or redouble (rubber Laws 30B, 32A).
    NoDoubleOrRedouble,
    /// Must repeat his call out of rotation (rubber Laws 31B1, 32B1; duplicate 31A1, 32A1).
    MustRepeatCall,
    /// Declarer may require or forbid the named suits at this player's first lead (Law 26A).
    LeadRequireOrForbid,
    /// Declarer may forbid one suit at this player's first lead (Law 26B).
    LeadForbidAnyOneSuit,
    /// Must lead the named suit (Law 26, 50D2, 51B exercised).
    LeadRequired,
    /// May not lead the named suits while he retains the lead.
    LeadForbidden,
    /// Must play his highest card of the suit led (Law 57A).
    PlayHighest,
    /// Must play his lowest card of the suit led (Law 57A).
    PlayLowest,
    /// Must play a card of the named suit (duplicate Law 57A3).
    PlaySuitRequired,
    /// May not play a card of the named suit (Law 57).
    PlaySuitForbidden,
    /// Must play one card named by declarer (rubber Law 62, twelfth trick; Law 50D1 designation).
    PlayCardRequired,
    /// After his disputed claim declarer plays on bound by his statement (rubber Law 69: "may
    /// not make any play inconsistent with the statement").
    ClaimLine,
    /// After his disputed claim declarer's side may not finesse in the named suits, in which his
    /// statement stated no finesse and no opponent has failed to follow (rubber Law 69A).
    ClaimNoFinesse,
    /// After his disputed claim declarer's side leads the named suits, whose order of play his
    /// statement did not include, from the top down (rubber Law 69D).
    ClaimTopDown,
    /// After his disputed claim declarer must draw the outstanding trumps (rubber Law 69, 69B).
    ClaimDrawTrumps,
    /// After his disputed claim declarer may not draw the outstanding trumps (rubber Law 69, 69B).
    ClaimLeaveTrumps,
}

/// An obligation a rectification left in force.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Obligation {
    /// The player it binds.
    pub seat: Seat,
    /// What it requires or forbids.
    pub kind: ObligationKind,
    /// The suits it names.
    pub suits: Vec<Suit>,
    /// The Law that imposed it.
    pub law: Law,
    /// In words.
    pub description: String,
}

impl DealInProgress {
    /// The obligations in force: the auction's restrictions on calls, the lead penalties the
    /// auction left for the play (Law 26), and the play's lead and play restrictions.
    pub fn obligations(&self) -> Vec<Obligation> {
        let mut out = Vec::new();
        match &self.play {
            None => {
                for restriction in self.auction.restrictions() {
                    let (kind, law) = match restriction {
                        AuctionRestriction::MustPass { duration: PassDuration::NextTurn, law, .. } => {
                            (ObligationKind::PassNextTurn, *law)
                        }
                        AuctionRestriction::MustPass { duration: PassDuration::RestOfAuction, law, .. } => {
                            (ObligationKind::PassRestOfAuction, *law)
                        }
                        AuctionRestriction::NoDoubleOrRedoubleNextTurn { law, .. }
                        | AuctionRestriction::MayNotDoubleOrRedoubleBid { law, .. } => {
                            (ObligationKind::NoDoubleOrRedouble, *law)
                        }
                        AuctionRestriction::MustRepeat { law, .. } => (ObligationKind::MustRepeatCall, *law),
                    };
                    out.push(Obligation {
                        seat: restriction.seat(),
                        kind,
                        suits: Vec::new(),
                        law,
                        description: restriction.to_string(),
                    });
                }
            }
            Some(play) => {
                for penalty in play.lead_penalties() {
                    let (kind, suits) = match &penalty.penalty {
                        LeadPenalty::RequireOrForbid(suits) => (ObligationKind::LeadRequireOrForbid, suits.clone()),
                        LeadPenalty::ForbidAnyOneSuit => (ObligationKind::LeadForbidAnyOneSuit, Vec::new()),
                        LeadPenalty::ForbidOneOf(suits) => (ObligationKind::LeadForbidAnyOneSuit, suits.clone()),
                    };
                    let description = match kind {
                        ObligationKind::LeadRequireOrForbid => format!(
                            "declarer may require or forbid {}'s lead of {} the first time he has the lead ({})",
                            penalty.player,
                            suit_list(&suits, "or"),
                            penalty.law
                        ),
                        _ if suits.is_empty() => format!(
                            "declarer may forbid {}'s lead of any one suit the first time he has the lead ({})",
                            penalty.player, penalty.law
                        ),
                        _ => format!(
                            "declarer may forbid {}'s lead of one of {} the first time he has the lead ({})",
                            penalty.player,
                            suit_list(&suits, "or"),
                            penalty.law
                        ),
                    };
                    out.push(Obligation { seat: penalty.player, kind, suits, law: penalty.law, description });
                }
                if let Some(restriction) = play.lead_restriction() {
                    if let Some((suit, law)) = restriction.required {
                        out.push(Obligation {
                            seat: restriction.player,
                            kind: ObligationKind::LeadRequired,
                            suits: vec![suit],
                            law,
                            description: format!("{} must lead {suit} if he can ({law})", restriction.player),
                        });
                    }
                    if let Some((suits, law)) = restriction.forbidden {
                        out.push(Obligation {
                            seat: restriction.player,
                            kind: ObligationKind::LeadForbidden,
                            suits: suits.iter().collect(),
                            law,
                            description: format!(
                                "{} may not lead {suits} while he retains the lead ({law})",
                                restriction.player
                            ),
                        });
                    }
                }
                if let Some(restriction) = play.play_restriction() {
                    let (kind, suits) = match restriction.requirement {
                        PlayRequirement::Highest => (ObligationKind::PlayHighest, Vec::new()),
                        PlayRequirement::Lowest => (ObligationKind::PlayLowest, Vec::new()),
                        PlayRequirement::Suit(suit) => (ObligationKind::PlaySuitRequired, vec![suit]),
                        PlayRequirement::NotSuit(suit) => (ObligationKind::PlaySuitForbidden, vec![suit]),
                        PlayRequirement::Card(_) | PlayRequirement::OneOfTwo { .. } => {
                            (ObligationKind::PlayCardRequired, Vec::new())
                        }
                    };
                    let description = match restriction.requirement {
                        // The card itself may be in a hidden hand: name only what the Law
                        // requires (a twelfth-trick requirement names it without showing it).
                        PlayRequirement::Card(_) => {
                            format!("{} must play the card declarer named ({})", restriction.player, restriction.law)
                        }
                        requirement => format!("{} must {requirement} ({})", restriction.player, restriction.law),
                    };
                    out.push(Obligation { seat: restriction.player, kind, suits, law: restriction.law, description });
                }
                out.extend(claim_obligations(play));
                if let Some(card) = play.designated_penalty_card() {
                    let owner = play.penalty_cards().find(|pc| pc.card == card).map(|pc| pc.owner);
                    if let Some(owner) = owner {
                        let law = play
                            .penalty_cards()
                            .find(|pc| pc.card == card)
                            .map_or(self.cite(50, "", "D1"), |pc| pc.law);
                        out.push(Obligation {
                            seat: owner,
                            kind: ObligationKind::PlayCardRequired,
                            suits: vec![card.suit],
                            law,
                            description: format!(
                                "{owner} must play the penalty card {card} declarer designated ({law})"
                            ),
                        });
                    }
                }
            }
        }
        out
    }
}

/// What a disputed claim played on under the Laws of Rubber Bridge imposes: on declarer, his
/// stated line and the trumps (Law 69, 69A-D, 69B); on a defender claimer's partner, declarer's
/// prohibition for his turn (Law 70B).
fn claim_obligations(play: &Play) -> Vec<Obligation> {
    let mut out = Vec::new();
    let (Some(conduct), Some(record)) = (play.claim_conduct(), play.claims().last()) else {
        return out;
    };
    let claimer = record.claim.claimer;
    if claimer == play.declarer() {
        let line = record.claim.line.clone().unwrap_or_default();
        let law = Law::rubber(69, "");
        out.push(Obligation {
            seat: claimer,
            kind: ObligationKind::ClaimLine,
            suits: Vec::new(),
            law,
            description: format!("{claimer} plays on as his claim stated: {line} ({law})"),
        });
        let barred: Vec<Suit> = play.finesses_barred().iter().collect();
        if !barred.is_empty() {
            let law = Law::rubber(69, "A");
            out.push(Obligation {
                seat: claimer,
                kind: ObligationKind::ClaimNoFinesse,
                description: format!(
                    "{claimer}'s side may not finesse in {} unless an opponent fails to follow in it ({law})",
                    suit_list(&barred, "or")
                ),
                suits: barred,
                law,
            });
        }
        let top_down: Vec<Suit> = play.top_down_suits().iter().collect();
        if !top_down.is_empty() {
            let law = Law::rubber(69, "D");
            out.push(Obligation {
                seat: claimer,
                kind: ObligationKind::ClaimTopDown,
                description: format!(
                    "{claimer}'s side leads {} from the top down ({law})",
                    suit_list(&top_down, "and")
                ),
                suits: top_down,
                law,
            });
        }
        let required = conduct.trumps_required.filter(|t| *t != TrumpIntent::Unstated);
        let (intent, law) = match required {
            Some(intent) => (intent, Law::rubber(69, "B")),
            None => (line.trumps, law),
        };
        let kind = match intent {
            TrumpIntent::Draw => Some(ObligationKind::ClaimDrawTrumps),
            TrumpIntent::Leave => Some(ObligationKind::ClaimLeaveTrumps),
            TrumpIntent::Unstated => None,
        };
        if let (Some(kind), Some(trumps)) = (kind, play.trumps())
            && !play.outstanding_trumps(claimer).is_empty()
        {
            out.push(Obligation {
                seat: claimer,
                kind,
                suits: vec![trumps],
                law,
                description: format!("{claimer} must {intent} ({law})"),
            });
        }
    } else if let Some((trick, requirement)) = conduct.prohibition
        && trick == play.completed_tricks()
    {
        let partner = claimer.partner();
        let law = Law::rubber(70, "B");
        let (kind, suits) = match requirement {
            PlayRequirement::Highest => (ObligationKind::PlayHighest, Vec::new()),
            PlayRequirement::Lowest => (ObligationKind::PlayLowest, Vec::new()),
            PlayRequirement::NotSuit(suit) => (ObligationKind::PlaySuitForbidden, vec![suit]),
            PlayRequirement::Suit(suit) => (ObligationKind::PlaySuitRequired, vec![suit]),
            PlayRequirement::Card(_) | PlayRequirement::OneOfTwo { .. } => {
                (ObligationKind::PlayCardRequired, Vec::new())
            }
        };
        out.push(Obligation {
            seat: partner,
            kind,
            suits,
            law,
            description: format!("{partner} must {requirement}: declarer prohibits any other play ({law})"),
        });
    }
    out
}

/// The suits in words, as a description names them: "hearts or spades", "hearts and spades".
fn suit_list(suits: &[Suit], joined_by: &str) -> String {
    let names: Vec<String> = suits.iter().map(ToString::to_string).collect();
    names.join(&format!(" {joined_by} "))
}
