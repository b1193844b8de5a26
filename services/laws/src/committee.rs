//! Who may sit on an appeals committee, as the Club Appeals Committee text has the club and its
//! games arrange it: "Whenever possible, a club should establish an Appeals Committee to review
//! decisions of the Arbiter, and any game may designate a committee to which appeals may be
//! taken." (docs/laws-readings.md, "Appeals committee readings").
//!
//! - The club's standing committee is a roster the club keeps ([`Term`], [`check_on_roster`],
//!   [`check_one_chair`]): a member sits on a hearing held within his term.
//! - The club declares conflicts of its members ([`DeclaredFor`], [`declared_conflicts`]): a
//!   member declared conflicted for a player, a partnership or a table of the appeal, or for the
//!   appeal itself, does not sit on it ([`crate::appeals::check_impartial`] refuses him).
//! - A game's own committee ([`check_designation`], [`check_confirmation`], [`is_agreed`],
//!   [`check_game_panel`], [`game_bench`]): the four players of a rubber agree on it
//!   before its first deal, each confirming; once agreed, it, and not the club's, hears that
//!   game's appeals, all its members sitting, even where the club published no procedure.
//!
//! Times are whole seconds since the Unix epoch: the crate keeps no clock.

use std::fmt;

use crate::law::{CitesLaw, Law};

/// A member's term on the club's committee: from an instant, until an instant (exclusive) or
/// open-ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Term {
    from: i64,
    until: Option<i64>,
}

impl Term {
    /// A term from `from` until `until` (the first instant it no longer covers), or open-ended.
    /// A term that ends before it begins, or as it begins, covers nothing and is refused.
    pub fn new(from: i64, until: Option<i64>) -> Result<Term, CommitteeRefusal> {
        match until {
            Some(until) if until <= from => Err(CommitteeRefusal::EmptyTerm),
            _ => Ok(Term { from, until }),
        }
    }

    /// When the term begins.
    pub const fn from(&self) -> i64 {
        self.from
    }

    /// When it ends, if it does.
    pub const fn until(&self) -> Option<i64> {
        self.until
    }

    /// Whether the term covers the instant `at`.
    pub fn covers(&self, at: i64) -> bool {
        self.from <= at && self.until.is_none_or(|until| at < until)
    }

    /// Whether two terms share an instant.
    pub fn overlaps(&self, other: &Term) -> bool {
        self.until.is_none_or(|until| other.from < until) && other.until.is_none_or(|until| self.from < until)
    }
}

/// One entry of the club's committee roster.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RosterEntry<'a> {
    /// The member (a player on the club's register).
    pub member: &'a str,
    /// Whether he chairs the committee during his term.
    pub chair: bool,
    /// His term.
    pub term: Term,
}

/// Whether every one of `members` is on the club's committee `roster` for a hearing at `at`: the
/// club "should establish an Appeals Committee", and those it appointed, for the time it
/// appointed them, are its committee (the Club Appeals Committee).
pub fn check_on_roster(members: &[&str], roster: &[RosterEntry<'_>], at: i64) -> Result<(), CommitteeRefusal> {
    for member in members {
        let entries: Vec<&RosterEntry<'_>> = roster.iter().filter(|e| e.member == *member).collect();
        if entries.is_empty() {
            return Err(CommitteeRefusal::NotOnRoster { member: (*member).to_owned() });
        }
        if !entries.iter().any(|e| e.term.covers(at)) {
            return Err(CommitteeRefusal::OutOfTerm { member: (*member).to_owned() });
        }
    }
    Ok(())
}

/// Whether a chair with `term` may be appointed beside the chairs already on the roster
/// (`chairs`, each term of another entry): the committee has one chair at a time, so their terms
/// do not overlap.
pub fn check_one_chair(chairs: &[(&str, Term)], term: Term) -> Result<(), CommitteeRefusal> {
    match chairs.iter().find(|(_, other)| other.overlaps(&term)) {
        Some((member, _)) => Err(CommitteeRefusal::TwoChairs { chair: (*member).to_owned() }),
        None => Ok(()),
    }
}

/// What the club declared a member conflicted for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeclaredFor {
    /// A player: whenever he is a party to the appeal.
    Player,
    /// A partnership: whenever both its players are parties to the appeal.
    Partnership,
    /// A table: every appeal on a deal played there.
    Table,
    /// One appeal.
    Appeal,
}

impl fmt::Display for DeclaredFor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DeclaredFor::Player => "for a player party to the appeal",
            DeclaredFor::Partnership => "for a partnership party to the appeal",
            DeclaredFor::Table => "for the table the deal was played at",
            DeclaredFor::Appeal => "for this appeal",
        })
    }
}

/// A conflict the club declared: `member` may not judge `subject`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Declared<'a> {
    /// A player.
    Player(&'a str),
    /// A partnership of two players, in either order.
    Partnership(&'a str, &'a str),
    /// A table.
    Table(&'a str),
    /// An appeal.
    Appeal(&'a str),
}

/// What an appeal is about, as declared conflicts are matched against it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AppealConcerns<'a> {
    /// Everyone the ruling concerns: the players of the deal, the members and captains of the
    /// contestants.
    pub parties: &'a [&'a str],
    /// The table the deal was played at, if known.
    pub table: Option<&'a str>,
    /// The appeal.
    pub appeal: &'a str,
}

/// The conflicts among `declared` (member, what he is conflicted for) that bear on an appeal
/// about `concerns`, as [`crate::appeals::check_impartial`] takes them: the club establishes its
/// committee (the Club Appeals Committee), and a member it declared conflicted for a party, the
/// table or the appeal does not judge it. A partnership bears on the appeal when both its players
/// are parties.
pub fn declared_conflicts<'a>(
    declared: &[(&'a str, Declared<'_>)],
    concerns: &AppealConcerns<'_>,
) -> Vec<(&'a str, crate::appeals::Conflict)> {
    let party = |p: &str| concerns.parties.contains(&p);
    declared
        .iter()
        .filter_map(|(member, what)| {
            let kind = match *what {
                Declared::Player(p) if party(p) => DeclaredFor::Player,
                Declared::Partnership(a, b) if party(a) && party(b) => DeclaredFor::Partnership,
                Declared::Table(t) if concerns.table == Some(t) => DeclaredFor::Table,
                Declared::Appeal(a) if a == concerns.appeal => DeclaredFor::Appeal,
                _ => return None,
            };
            Some((*member, crate::appeals::Conflict::Declared(kind)))
        })
        .collect()
}

/// Whether `proposer` may designate `members` as the committee of a game played by `players`:
/// "any game may designate a committee to which appeals may be taken", and "if such a procedure
/// has been agreed to ... in advance": so a player of the game proposes it before its first deal
/// (`deals_started` false), it has at least one member, none named twice, and none of the game's
/// own players, who play every deal of it and so could sit on no appeal of it.
pub fn check_designation(
    players: &[&str],
    proposer: &str,
    members: &[&str],
    deals_started: bool,
) -> Result<(), CommitteeRefusal> {
    if !players.contains(&proposer) {
        return Err(CommitteeRefusal::NotAPlayerOfTheGame { player: proposer.to_owned() });
    }
    if deals_started {
        return Err(CommitteeRefusal::GameStarted);
    }
    if members.is_empty() {
        return Err(CommitteeRefusal::NoMembers);
    }
    if let Some(twice) = members.iter().enumerate().find(|(i, m)| members[..*i].contains(m)).map(|(_, m)| m) {
        return Err(CommitteeRefusal::NamedTwice { member: (*twice).to_owned() });
    }
    if let Some(player) = members.iter().find(|m| players.contains(m)) {
        return Err(CommitteeRefusal::PlayerOfTheGame { member: (*player).to_owned() });
    }
    Ok(())
}

/// Whether `player` may confirm the committee designated for a game played by `players`: one of
/// its players, before its first deal (the agreement is made "in advance").
pub fn check_confirmation(players: &[&str], player: &str, deals_started: bool) -> Result<(), CommitteeRefusal> {
    if !players.contains(&player) {
        return Err(CommitteeRefusal::NotAPlayerOfTheGame { player: player.to_owned() });
    }
    if deals_started {
        return Err(CommitteeRefusal::GameStarted);
    }
    Ok(())
}

/// Whether the game's committee is agreed: every player of the game has confirmed it. Until then
/// no procedure of the game's is "agreed to", and the club's committee hears its appeals.
pub fn is_agreed(players: &[&str], confirmed: &[&str]) -> bool {
    !players.is_empty() && players.iter().all(|p| confirmed.contains(p))
}

/// Who hears an appeal of a game whose players agreed their own committee
/// (`game_committee_agreed`): "If such a procedure has been agreed to or published in advance, any
/// player may appeal any decision by the Arbiter". The agreement is a procedure agreed in advance,
/// so the appeal is heard, by that committee, even where the club published no procedure; `None`
/// when the game agreed none and the club's published arrangements decide.
pub const fn game_bench(game_committee_agreed: bool) -> Option<crate::appeal_procedure::Bench> {
    if game_committee_agreed { Some(crate::appeal_procedure::Bench::Committee) } else { None }
}

/// Whether `named` may hear or decide an appeal of a game whose agreed committee is `designated`:
/// the game's committee hears it, not the club's, and as the players agreed it, every member
/// sitting and nobody else; `caller` is among them.
pub fn check_game_panel(designated: &[&str], named: &[&str], caller: &str) -> Result<(), CommitteeRefusal> {
    if let Some(stranger) = named.iter().find(|m| !designated.contains(m)) {
        return Err(CommitteeRefusal::NotOfTheGamesCommittee { member: (*stranger).to_owned() });
    }
    if let Some(missing) = designated.iter().find(|m| !named.contains(m)) {
        return Err(CommitteeRefusal::GamesCommitteeIncomplete { member: (*missing).to_owned() });
    }
    if !named.contains(&caller) {
        return Err(CommitteeRefusal::NotOfTheGamesCommittee { member: caller.to_owned() });
    }
    Ok(())
}

/// Why a committee is not formed as asked. Every refusal cites the Club Appeals Committee.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommitteeRefusal {
    /// A term that covers nothing.
    #[error("a committee term ends after it begins (the Club Appeals Committee (Alternative Club Laws))")]
    EmptyTerm,
    /// Named for a hearing without being on the club's roster.
    #[error(
        "{member} is not on the club's appeals committee roster (the Club Appeals Committee (Alternative Club Laws): \
         the club establishes its Appeals Committee)"
    )]
    NotOnRoster {
        /// The member.
        member: String,
    },
    /// On the roster, but no term of his covers the hearing.
    #[error(
        "{member}'s term on the club's appeals committee does not cover the hearing (the Club Appeals Committee \
         (Alternative Club Laws))"
    )]
    OutOfTerm {
        /// The member.
        member: String,
    },
    /// A second chair for a time that already has one.
    #[error(
        "{chair} chairs the committee for part of that term; the committee has one chair at a time (the Club Appeals \
         Committee (Alternative Club Laws))"
    )]
    TwoChairs {
        /// The chair already appointed.
        chair: String,
    },
    /// Someone who does not play the game acts for it.
    #[error(
        "{player} is not a player of this game; its players designate its committee (the Club Appeals Committee \
         (Alternative Club Laws): any game may designate a committee)"
    )]
    NotAPlayerOfTheGame {
        /// Who tried.
        player: String,
    },
    /// The game's first deal has started.
    #[error(
        "the game's first deal has started; a game's committee is agreed in advance, before its first deal (the Club \
         Appeals Committee (Alternative Club Laws))"
    )]
    GameStarted,
    /// A committee of nobody.
    #[error("a game's committee needs at least one member (the Club Appeals Committee (Alternative Club Laws))")]
    NoMembers,
    /// A member named twice.
    #[error("{member} is named twice for the game's committee (the Club Appeals Committee (Alternative Club Laws))")]
    NamedTwice {
        /// The member.
        member: String,
    },
    /// A player of the game named for its committee.
    #[error(
        "{member} plays in this game and so could judge none of its appeals; he may not sit on its committee (the \
         Club Appeals Committee (Alternative Club Laws))"
    )]
    PlayerOfTheGame {
        /// The member.
        member: String,
    },
    /// Someone outside the game's committee named for its appeal.
    #[error(
        "{member} is not on the committee this game's players agreed; that committee hears the game's appeals (the \
         Club Appeals Committee (Alternative Club Laws): any game may designate a committee to which appeals may be \
         taken)"
    )]
    NotOfTheGamesCommittee {
        /// The member.
        member: String,
    },
    /// A member of the game's committee left out.
    #[error(
        "{member} is on the committee this game's players agreed and sits on its appeals (the Club Appeals Committee \
         (Alternative Club Laws))"
    )]
    GamesCommitteeIncomplete {
        /// The member left out.
        member: String,
    },
}

impl CitesLaw for CommitteeRefusal {
    fn law(&self) -> Law {
        Law::club_appeals()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_term_covers_from_its_start_until_its_end() {
        let term = Term::new(10, Some(20)).unwrap_or_else(|e| panic!("{e}"));
        assert!(!term.covers(9) && term.covers(10) && term.covers(19) && !term.covers(20));
        assert!(Term::new(10, None).is_ok_and(|t| t.covers(i64::MAX)));
        assert_eq!(Term::new(10, Some(10)), Err(CommitteeRefusal::EmptyTerm));
        let later = Term::new(20, None).unwrap_or_else(|e| panic!("{e}"));
        assert!(!term.overlaps(&later) && !later.overlaps(&term));
        assert!(Term::new(19, Some(21)).is_ok_and(|t| t.overlaps(&term) && t.overlaps(&later)));
    }
}
