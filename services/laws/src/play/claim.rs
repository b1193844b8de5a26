//! Claims and concessions (Laws 68-71 of both codes; Club Laws 69-70).
//!
//! A claim is data: who claims, how many of the remaining tricks his side will win (the rest
//! are conceded), and his statement of the line of play, kept verbatim. After a claim play is
//! suspended; the opponents agree (play ends, the tricks as claimed) or dispute it. What
//! happens on a dispute depends on the code: under the Laws of Rubber Bridge play continues
//! with the claimer's hand face up (Law 69, 70B); under the Alternative Club Laws the Arbiter
//! adjudicates (Club Laws 69-70); in duplicate the Director adjudicates (Law 70) unless all
//! four players agree to play on (Law 68D2(b)). The official decides the number of tricks;
//! the engine records it and ends the play, and offers the mechanical helpers the Laws allow.

use crate::cards::CardSet;
use crate::irregularities::play::Seats;
use crate::law::{Code, Law};
use crate::seat::{Seat, Side};

use super::claim_play::ClaimConduct;
use super::solver;
use super::stated_line::StatedLine;
use super::{Play, PlayError, RevokeStatus};

/// A claim or concession of tricks (Law 68): `claimer`'s side will win `tricks` of the tricks
/// remaining and concedes the others (a claim of some tricks concedes the rest, duplicate Law
/// 68B1; a concession of all is a claim of none).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Claim {
    /// Declarer or a defender.
    pub claimer: Seat,
    /// Tricks of the remaining ones his side will win.
    pub tricks: u8,
    /// His statement of the line of play, including the order of the cards (Law 68C
    /// duplicate; Law 69-70 rubber), verbatim.
    pub statement: String,
    /// The statement as data the engine holds him to after a dispute (Law 69, 70B), if the
    /// table recorded it so; `None` leaves the play after a dispute to the players.
    pub line: Option<StatedLine>,
}

impl Claim {
    /// A claim of `tricks` of the remaining tricks, with the claimer's statement.
    pub fn new(claimer: Seat, tricks: u8, statement: impl Into<String>) -> Claim {
        Claim { claimer, tricks, statement: statement.into(), line: None }
    }

    /// The claim with its statement recorded as data too (see [`StatedLine`]).
    pub fn with_line(self, line: StatedLine) -> Claim {
        Claim { line: Some(line), ..self }
    }

    /// A concession of every remaining trick (abandoning the hand concedes them all,
    /// duplicate Law 68B1).
    pub fn concede_all(claimer: Seat, statement: impl Into<String>) -> Claim {
        Claim::new(claimer, 0, statement)
    }
}

/// Where a claim stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClaimStatus {
    /// Made; play is suspended for the opponents' answer.
    Pending,
    /// Disputed; the Director (Law 70) or Arbiter (Club Laws 69-70) adjudicates.
    Disputed,
    /// Agreed (Law 69): the deal is scored as though the tricks had been won or lost in play.
    Agreed,
    /// Adjudicated by the official.
    Adjudicated,
    /// Play continues: disputed under the Laws of Rubber Bridge (Law 69, 70B), or in
    /// duplicate by agreement of all four (Law 68D2(b), the claim is then void).
    PlayContinued,
    /// A defender's concession his partner immediately objected to: there was none (duplicate
    /// Law 68B2; rubber Law 71C).
    Withdrawn,
}

/// An answer to a claim or concession.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClaimResponse {
    /// An opponent agrees. Declarer's claim needs both defenders (Law 69); a defender's claim
    /// needs declarer (Law 70).
    Agree(Seat),
    /// A player doubts it: an opponent (rubber Law 69-70), or any player but the claimer,
    /// dummy included (duplicate Law 68D2).
    Dispute(Seat),
    /// The conceding defender's partner objects at once (duplicate Law 68B2, rubber Law 71C).
    PartnerObjects(Seat),
    /// A defender let his remaining cards be mixed with another player's: declarer's claim
    /// must be allowed (rubber Law 69).
    CardsMixed(Seat),
    /// At the non-claiming side's request, all four players agree to play on; the claim is void
    /// and the result of the play stands (duplicate Law 68D2(b)).
    PlayOn,
}

/// Why tricks of a settled claim are given back (Law 69B and 71 duplicate; Law 71 rubber).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RevisionGround {
    /// The side conceded a trick it had in fact won (Law 71A; duplicate 69B1).
    TrickAlreadyWon,
    /// The trick could not be lost by any normal play (duplicate Law 71B) or any probable
    /// sequence of play (rubber Law 71B).
    CouldNotBeLost,
    /// The side agreed to the loss of a trick it would likely have won had play continued
    /// (duplicate Law 69B2 only).
    WouldLikelyHaveWon,
}

/// Tricks of a settled claim given back to a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClaimRevision {
    /// The side given the tricks.
    pub side: Side,
    /// How many.
    pub tricks: u8,
    /// Why.
    pub ground: RevisionGround,
    /// The Law applied.
    pub law: Law,
}

/// A claim and what became of it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ClaimRecord {
    /// The claim as made.
    pub claim: Claim,
    /// Tricks remaining when it was made.
    pub remaining: u8,
    /// Where it stands.
    pub status: ClaimStatus,
    /// The players who agreed.
    pub agreed: Seats,
    /// The players who disputed it.
    pub disputed: Seats,
    /// The tricks the official awarded the claimer's side, if adjudicated.
    pub awarded: Option<u8>,
    /// Tricks given back since (Law 69B, 71).
    pub revisions: Vec<ClaimRevision>,
    /// The defenders who faced their hands for inspection by their partners while play
    /// continued after this claim was disputed (rubber Law 69).
    pub faced_for_inspection: Seats,
    /// Revokes the claim established (Law 63A3), undone if there was no claim (Law 68B2).
    established: Vec<usize>,
    /// What the Laws impose on the play after a dispute (Law 69B, 70B).
    pub(crate) conduct: ClaimConduct,
}

impl ClaimRecord {
    /// What the Laws impose on the play after the claim was disputed (Law 69B, 70B).
    pub const fn conduct(&self) -> ClaimConduct {
        self.conduct
    }

    /// The remaining tricks credited to the claimer's side and to the other side, once agreed
    /// or adjudicated, after any revisions.
    pub fn settled_tricks(&self) -> (u8, u8) {
        let base = self.awarded.unwrap_or(self.claim.tricks);
        let claimer = self.claim.claimer.side();
        let mut tricks = (base, self.remaining - base);
        for revision in &self.revisions {
            if revision.side == claimer {
                tricks = (tricks.0 + revision.tricks, tricks.1 - revision.tricks);
            } else {
                tricks = (tricks.0 - revision.tricks, tricks.1 + revision.tricks);
            }
        }
        tricks
    }
}

/// The outstanding-trump rule for a contested claim (duplicate Law 70C; Club Law 69B): the
/// opponents get a trick if all three hold. The second and third are the official's judgement
/// ([`Play::trump_could_win_a_trick`] answers whether any legal play at all could lose a trick
/// to it; if not, the third cannot hold).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OutstandingTrumpTest {
    /// The claimer's statement mentioned the outstanding trump.
    pub statement_mentions_trump: bool,
    /// It is at all likely that the claimer was unaware a trump remained.
    pub at_all_likely_unaware: bool,
    /// A trick could be lost to the trump by any normal play (careless or inferior play
    /// included; in the Club Laws, not irrational play).
    pub could_lose_by_normal_play: bool,
}

impl OutstandingTrumpTest {
    /// Whether the opponents get a trick for the outstanding trump.
    pub const fn awards_trick(&self) -> bool {
        !self.statement_mentions_trump && self.at_all_likely_unaware && self.could_lose_by_normal_play
    }

    /// The Law that applies the test in `code`, if any: duplicate Law 70C, Club Law 69B. Under
    /// the Laws of Rubber Bridge without an Arbiter play continues instead, and either defender
    /// may require declarer to draw or not draw the trump (Law 69B).
    pub const fn law(code: Code) -> Option<Law> {
        match code {
            Code::Duplicate => Some(Law::duplicate(70, "C")),
            Code::Club => Some(Law::club(69, "B")),
            _ => None,
        }
    }
}

impl Play {
    /// The Law that governs a step of `claimer`'s claim: in rubber bridge (the Club Laws keep
    /// the regular Laws 69 and 70 here) Law 69 or 68 for declarer's claim and Law 70 or one of
    /// its sections for a defender's; in duplicate one Law for both.
    fn claim_law(&self, rubber: RubberClaimLaws, duplicate: (u8, &'static str), claimer: Seat) -> Law {
        match self.code {
            Code::Duplicate => Law::duplicate(duplicate.0, duplicate.1),
            _ if claimer == self.declarer() => Law::rubber(rubber.declarer.0, rubber.declarer.1),
            _ => Law::rubber(70, rubber.defender),
        }
    }

    /// Declarer or a defender claims or concedes tricks (Law 68). Play is suspended and the
    /// claimer's hand faced (duplicate Law 68C-D; rubber Law 69-70); a claim establishes any
    /// revoke of the claimer's side (Law 63A3 duplicate, 63 rubber).
    pub fn claim(&self, claim: Claim) -> Result<Play, PlayError> {
        self.ensure_can_play()?;
        let claimer = claim.claimer;
        if claimer == self.dummy() {
            return Err(PlayError::ClaimResponseRefused {
                seat: claimer,
                action: "claim or concede: dummy takes no part in the play",
                law: self.cite(43, "", "A1(c)"),
            });
        }
        let remaining = self.remaining_tricks();
        let law = self.claim_law(RubberClaimLaws { declarer: (68, ""), defender: "" }, (68, ""), claimer);
        if claim.tricks > remaining {
            return Err(PlayError::TooManyTricks { tricks: claim.tricks, remaining, law });
        }
        if remaining == 1 && self.current_trick().is_some_and(|t| !t.is_empty()) {
            return Err(PlayError::CannotRecord {
                what: "a claim about only the trick in progress (play proceeds normally)",
                // Rubber Law 70A for a defender; declarer's claim is of "the remaining tricks"
                // (Law 68), read the same way.
                law: self.claim_law(RubberClaimLaws { declarer: (70, "A"), defender: "A" }, (68, ""), claimer),
            });
        }
        let mut next = self.successor();
        let established = next.establish_for_claim(claimer.side());
        next.faced = next.faced.with(claimer);
        next.claims.push(ClaimRecord {
            claim,
            remaining,
            status: ClaimStatus::Pending,
            agreed: Seats::EMPTY,
            disputed: Seats::EMPTY,
            awarded: None,
            revisions: Vec::new(),
            faced_for_inspection: Seats::EMPTY,
            established,
            conduct: ClaimConduct::default(),
        });
        Ok(next)
    }

    /// Establishes `side`'s unestablished revokes (a claim or concession by, or agreement of,
    /// the offending side, Law 63A3-4) and returns which.
    fn establish_for_claim(&mut self, side: Side) -> Vec<usize> {
        let mut established = Vec::new();
        for (i, revoke) in self.revokes.iter_mut().enumerate() {
            if revoke.status == RevokeStatus::Unestablished && revoke.offender.side() == side {
                revoke.status = RevokeStatus::Established;
                established.push(i);
            }
        }
        established
    }

    /// An answer to the claim being considered (see [`ClaimResponse`]).
    pub fn respond_to_claim(&self, response: ClaimResponse) -> Result<Play, PlayError> {
        let Some(record) =
            self.claims.last().filter(|c| matches!(c.status, ClaimStatus::Pending | ClaimStatus::Disputed))
        else {
            return Err(PlayError::NoClaim { law: self.cite(68, "", "D") });
        };
        let claimer = record.claim.claimer;
        let declarers_claim = claimer == self.declarer();
        let duplicate = self.code == Code::Duplicate;
        let refuse = |seat, action, law| Err(PlayError::ClaimResponseRefused { seat, action, law });
        let pending = record.status == ClaimStatus::Pending;
        let mut next = self.successor();
        let last = next.claims.len() - 1;
        match response {
            ClaimResponse::Agree(seat) => {
                let law = self.claim_law(RubberClaimLaws { declarer: (69, ""), defender: "B" }, (69, "A"), claimer);
                let may = pending && seat.is_opponent(claimer) && (declarers_claim || seat == self.declarer());
                if !may {
                    return refuse(seat, "agree to this claim", law);
                }
                next.claims[last].agreed = next.claims[last].agreed.with(seat);
                let needed = if declarers_claim { 2 } else { 1 };
                if next.claims[last].agreed.len() >= needed {
                    next.establish_for_claim(seat.side());
                    next.finish_claim(ClaimStatus::Agreed);
                }
            }
            ClaimResponse::Dispute(seat) => {
                let law = self.claim_law(RubberClaimLaws { declarer: (69, ""), defender: "B" }, (68, "D2"), claimer);
                let may = pending
                    && if duplicate {
                        seat != claimer
                    } else {
                        seat.is_opponent(claimer) && (declarers_claim || seat == self.declarer())
                    };
                if !may {
                    return refuse(seat, "dispute this claim", law);
                }
                next.claims[last].disputed = next.claims[last].disputed.with(seat);
                next.claims[last].status = match self.code {
                    // Law 69 and 70B: the claim is not allowed and play continues with the
                    // claimer's hand face up.
                    Code::Rubber => ClaimStatus::PlayContinued,
                    _ => ClaimStatus::Disputed,
                };
                // Law 69B: the defenders' choice about a trump the statement did not mention.
                next.after_dispute();
            }
            ClaimResponse::PartnerObjects(seat) => {
                let law = if duplicate { Law::duplicate(68, "B2") } else { Law::rubber(71, "C") };
                let concedes = record.claim.tricks < record.remaining;
                if !(pending && self.is_defender(claimer) && seat == claimer.partner() && concedes) {
                    return refuse(seat, "object to a concession by his partner", law);
                }
                next.claims[last].status = ClaimStatus::Withdrawn;
                if !next.faced_for_inspection(claimer) {
                    // A hand faced for inspection stays face up (rubber Law 69).
                    next.faced = next.faced.without(claimer);
                }
                // "... but Law 16 may apply": the conceding side may not use the objection.
                next.reserve(claimer.side(), law);
                if duplicate {
                    // Law 68B2: "neither a concession nor a claim has occurred".
                    for i in std::mem::take(&mut next.claims[last].established) {
                        next.revokes[i].status = RevokeStatus::Unestablished;
                    }
                }
            }
            ClaimResponse::CardsMixed(seat) => {
                let law = Law::rubber(69, "");
                if duplicate || !pending || !declarers_claim || !self.is_defender(seat) {
                    return refuse(seat, "have declarer's claim allowed because his cards were mixed", law);
                }
                next.finish_claim(ClaimStatus::Agreed);
            }
            ClaimResponse::PlayOn => {
                if !duplicate {
                    return refuse(claimer, "play on by agreement of all four", Law::rubber(69, ""));
                }
                next.claims[last].status = ClaimStatus::PlayContinued;
                next.faced = next.faced.without(claimer);
            }
        }
        next.settle();
        Ok(next)
    }

    fn finish_claim(&mut self, status: ClaimStatus) {
        if let Some(record) = self.claims.last_mut() {
            record.status = status;
        }
        self.pending = None;
        self.establish_all();
    }

    /// The official's adjudication of a disputed claim: `tricks` of the remaining tricks to the
    /// claimer's side (duplicate Law 70, doubtful points against the claimer; Club Law 69,
    /// doubtful points to the defenders; Club Law 70, every trick the defenders could lose by
    /// normal play to declarer). Ends the play. Refused when no claim is disputed, and under
    /// the Laws of Rubber Bridge without an Arbiter, where play continues instead (Law 69).
    pub fn adjudicate(&self, tricks: u8) -> Result<Play, PlayError> {
        let Some(record) = self.claims.last().filter(|c| c.status == ClaimStatus::Disputed) else {
            // Without an Arbiter a disputed claim leads to play on (rubber Law 69, 70B).
            let law = match self.code {
                Code::Duplicate => Law::duplicate(70, ""),
                Code::Club => Law::club(69, ""),
                _ => Law::rubber(69, ""),
            };
            return Err(PlayError::NothingToAdjudicate { law });
        };
        let law = adjudication_law(self.code, record.claim.claimer == self.declarer());
        if tricks > record.remaining {
            return Err(PlayError::TooManyTricks { tricks, remaining: record.remaining, law });
        }
        let mut next = self.successor();
        let last = next.claims.len() - 1;
        next.claims[last].awarded = Some(tricks);
        next.finish_claim(ClaimStatus::Adjudicated);
        Ok(next)
    }

    /// Gives `tricks` of a settled claim back to `side`: the conceding side's concession
    /// cancelled (Law 71A-B), or, in duplicate, the agreeing side's agreement withdrawn (Law
    /// 69B). Under the Laws of Rubber Bridge agreeing to declarer's claim is itself a
    /// concession (Law 70), so Law 71 covers both sides. The official (or, in rubber bridge,
    /// the players) decides the ground; the engine checks the number.
    pub fn revise_claim(&self, side: Side, tricks: u8, ground: RevisionGround) -> Result<Play, PlayError> {
        let Some(record) = self
            .claims
            .last()
            .filter(|c| matches!(c.status, ClaimStatus::Agreed | ClaimStatus::Adjudicated) && self.completed < 13)
        else {
            return Err(PlayError::NoClaim { law: self.cite(71, "", "") });
        };
        let claimer = record.claim.claimer.side();
        let duplicate = self.code == Code::Duplicate;
        let law = if side == claimer || !duplicate {
            match ground {
                RevisionGround::TrickAlreadyWon => self.cite(71, "A", "A"),
                RevisionGround::CouldNotBeLost => self.cite(71, "B", "B"),
                RevisionGround::WouldLikelyHaveWon => {
                    return Err(PlayError::CannotRecord {
                        what: "\"would likely have won\" as a ground to cancel a concession",
                        law: self.cite(71, "", ""),
                    });
                }
            }
        } else if ground == RevisionGround::TrickAlreadyWon {
            Law::duplicate(69, "B1")
        } else {
            Law::duplicate(69, "B2")
        };
        let (to_claimer, to_others) = record.settled_tricks();
        let most = if side == claimer { to_others } else { to_claimer };
        if tricks > most {
            return Err(PlayError::RevisionTooLarge { side, most, law });
        }
        let mut next = self.successor();
        let last = next.claims.len() - 1;
        next.claims[last].revisions.push(ClaimRevision { side, tricks, ground, law });
        Ok(next)
    }

    /// The trumps still held by the claimer's opponents (duplicate Law 70C, Club Law 69B,
    /// rubber Law 69B).
    pub fn outstanding_trumps(&self, claimer: Seat) -> CardSet {
        let Some(trumps) = self.trumps() else {
            return CardSet::EMPTY;
        };
        claimer
            .side()
            .opponents()
            .seats()
            .into_iter()
            .fold(CardSet::EMPTY, |acc, seat| acc.union(self.hands[seat.index()].suit(trumps)))
    }

    /// Of the tricks not yet played, the number `side` wins whatever anyone plays: the least
    /// it can win over every legal continuation of the play from here (following suit; the
    /// penalty-card and lead obligations are not applied, which can only lower the number).
    /// A trick counted here cannot be lost by any normal or probable play, so a concession of
    /// it must be cancelled (Law 71B), and a claim of no more than this many tricks cannot be
    /// defeated. `None` when more than [`SEARCH_LIMIT`] tricks remain: the official judges.
    pub fn tricks_certain(&self, side: Side) -> Option<u8> {
        let trick = self.current_trick()?;
        solver::fewest_tricks(self.hands, *trick, self.trumps(), side)
    }

    /// Whether any legal continuation of the play lets a trump held by the claimer's
    /// opponents win a trick: `Some(false)` means no trick can be lost to an outstanding trump
    /// by any play at all, so the outstanding-trump rule gives nothing (duplicate Law 70C3,
    /// Club Law 69B3); `Some(true)` leaves "normal" to the official. `None` when more than
    /// [`SEARCH_LIMIT`] tricks remain.
    pub fn trump_could_win_a_trick(&self, claimer: Seat) -> Option<bool> {
        let trick = self.current_trick()?;
        let trumps = self.trumps()?;
        solver::trump_can_win(self.hands, *trick, trumps, claimer.side().opponents())
    }
}

/// The Law under which an official adjudicates a disputed claim, when his ruling cites none of
/// its own: duplicate Law 70A ("the Director adjudicates the result of the board as equitably as
/// possible to both sides"); for declarer's claim Club Law 69 and for a defender's Club Law 70,
/// whose additions calling the Arbiter to adjudicate carry no letter. The sections an official
/// applies beyond that (the outstanding trump, Club Law 69B and duplicate Law 70C; an unstated
/// line, Club Law 69C and duplicate Law 70D-E) are his judgement, and his ruling cites them.
pub const fn adjudication_law(code: Code, declarers_claim: bool) -> Law {
    match code {
        Code::Duplicate => Law::duplicate(70, "A"),
        _ if declarers_claim => Law::club(69, ""),
        _ => Law::club(70, ""),
    }
}

/// The rubber Laws `Play::claim_law` cites for a step of a claim: the Law and section for
/// declarer's claim, and the section of Law 70 for a defender's.
struct RubberClaimLaws {
    declarer: (u8, &'static str),
    defender: &'static str,
}

/// The most tricks remaining for which [`Play::tricks_certain`] and
/// [`Play::trump_could_win_a_trick`] search every legal continuation.
pub const SEARCH_LIMIT: u8 = solver::LIMIT;
