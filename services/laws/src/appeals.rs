//! Who may appeal a ruling, until when, and what the committee may change: the Club Appeals
//! Committee of the Alternative Club Laws (rubber bridge and Chicago) and Laws 80B2(k), 92 and
//! 93 of duplicate. How a decision rescores a deal is [`crate::rulings`]'s; this module decides
//! whether an appeal is heard at all.
//!
//! - The club's published procedure ([`AppealPolicy`]): the Club Appeals Committee hears appeals
//!   only "if such a procedure has been agreed to or published in advance"; in duplicate the
//!   organiser makes the arrangements for appeals (Law 80B2(k)). The policy says whether appeals
//!   are heard, the time limits, and how many members sit.
//! - Who ([`check_appellant`]): in rubber bridge and Chicago any player of the deal ("any player
//!   may appeal any decision by the Arbiter"); in duplicate a contestant of the table or his
//!   captain (Law 92A), with the concurrence of a pair's partner or a team's captain (Law 92D).
//! - When ([`AppealPolicy::check_time_limit`]): in duplicate until 30 minutes after the official
//!   score is made available for inspection unless the organiser sets another period (Law 92B);
//!   in rubber bridge the club's published time limit after the ruling.
//! - What ([`check_appealable`], [`check_committee_may_change`]): a Law 91 disciplinary ruling
//!   is final, and a committee may not overrule the Director in charge on a point of law or
//!   regulation, only recommend a change (Law 93B3). The Club Appeals Committee "may overrule
//!   any of his decisions".
//! - By whom ([`AppealPolicy::check_committee`]): as many committee members as the policy
//!   says, the caller among them.

use std::fmt;
use std::time::Duration;

use crate::law::{CitesLaw, Law};

/// Which Laws govern an appeal: the Club Appeals Committee (rubber bridge and Chicago) or Laws
/// 92 and 93 of duplicate, with the form of contest that Law 92D turns on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppealForm {
    /// Rubber bridge under the Alternative Club Laws.
    Rubber,
    /// Chicago (Rubber Bridge Appendix 4) under the Alternative Club Laws.
    Chicago,
    /// Duplicate, by the form of contest (Law 92D).
    Duplicate(Contest),
}

impl AppealForm {
    /// Whether the Laws of Duplicate Bridge govern the appeal.
    pub const fn is_duplicate(self) -> bool {
        matches!(self, AppealForm::Duplicate(_))
    }

    /// The rule that makes the club's arrangements for appeals: the Club Appeals Committee for
    /// rubber bridge and Chicago, Law 80B2(k) for duplicate.
    pub const fn arrangements_law(self) -> Law {
        match self {
            AppealForm::Duplicate(_) => Law::duplicate(80, "B2(k)"),
            AppealForm::Rubber | AppealForm::Chicago => Law::club_appeals(),
        }
    }
}

/// The form of a duplicate contest, which decides whose concurrence an appeal needs (Law 92D).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Contest {
    /// A pairs event: both members of the partnership concur (Law 92D1).
    Pairs,
    /// A teams event: the team captain concurs (Law 92D2).
    Teams,
    /// An individual contest: the appellant needs nobody's concurrence (Law 92D1).
    Individuals,
}

/// What kind of ruling is appealed (duplicate Laws 84, 85, 91 and 93B).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RulingKind {
    /// A ruling on law or regulation on agreed facts (Law 84).
    Law,
    /// A ruling on disputed facts (Law 85).
    Fact,
    /// A judgement: an adjusted score, unauthorised information, misinformation, a disputed
    /// claim (Laws 12, 16, 70).
    Judgement,
    /// A disciplinary penalty (Law 91).
    Disciplinary,
}

/// One contestant at a duplicate table: the players registered for it and its captain, if it
/// has one (Law 92A, Law 92D).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contestant<'a> {
    /// The players of the contestant: a pair's two, a team's members, an individual.
    pub members: &'a [&'a str],
    /// A team's captain, who need not have played the board.
    pub captain: Option<&'a str>,
}

impl Contestant<'_> {
    fn includes(&self, player: &str) -> bool {
        self.members.contains(&player) || self.captain == Some(player)
    }
}

/// Who played a deal, as an appeal needs to know it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DealParties<'a> {
    /// Rubber bridge or Chicago: the four players at the table.
    Table {
        /// The players of the deal.
        players: &'a [&'a str],
    },
    /// Duplicate: the two contestants who played the board at this table (Law 92A).
    Contestants {
        /// The form of contest (Law 92D).
        contest: Contest,
        /// The contestant that sat North-South.
        north_south: Contestant<'a>,
        /// The contestant that sat East-West.
        east_west: Contestant<'a>,
    },
}

/// The club's published procedure for appeals (the Club Appeals Committee: "if such a procedure
/// has been agreed to or published in advance"; duplicate Law 80B2(k) and Law 92B).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AppealPolicy {
    appeals_allowed: bool,
    rubber_time_limit: Duration,
    duplicate_time_limit: Duration,
    committee_size: u32,
}

/// Law 92B: "30 minutes after the official score has been made available for inspection
/// unless the Tournament Organizer has specified a different time period".
pub const DUPLICATE_DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(30 * 60);

impl AppealPolicy {
    /// A policy. The committee has at least one member, and each time limit is longer than
    /// nothing: a limit of zero would let no appeal be filed while claiming to allow them.
    pub fn new(
        appeals_allowed: bool,
        rubber_time_limit: Duration,
        duplicate_time_limit: Duration,
        committee_size: u32,
    ) -> Result<AppealPolicy, PolicyError> {
        if committee_size == 0 {
            return Err(PolicyError::NoCommittee);
        }
        if rubber_time_limit.is_zero() {
            return Err(PolicyError::ZeroTimeLimit { form: "rubber and Chicago", law: Law::club_appeals() });
        }
        if duplicate_time_limit.is_zero() {
            return Err(PolicyError::ZeroTimeLimit { form: "duplicate", law: Law::duplicate(92, "B") });
        }
        Ok(AppealPolicy { appeals_allowed, rubber_time_limit, duplicate_time_limit, committee_size })
    }

    /// Whether the club hears appeals at all.
    pub const fn appeals_allowed(&self) -> bool {
        self.appeals_allowed
    }

    /// How long after a rubber or Chicago ruling an appeal may be filed.
    pub const fn rubber_time_limit(&self) -> Duration {
        self.rubber_time_limit
    }

    /// How long after the official score is made available an appeal may be filed (Law 92B).
    pub const fn duplicate_time_limit(&self) -> Duration {
        self.duplicate_time_limit
    }

    /// How many committee members hear and decide an appeal.
    pub const fn committee_size(&self) -> u32 {
        self.committee_size
    }

    /// The time limit that applies to `form`, and the Law that sets it.
    pub const fn time_limit(&self, form: AppealForm) -> (Duration, Law) {
        match form {
            AppealForm::Duplicate(_) => (self.duplicate_time_limit, Law::duplicate(92, "B")),
            AppealForm::Rubber | AppealForm::Chicago => (self.rubber_time_limit, Law::club_appeals()),
        }
    }

    /// Whether the club hears appeals on `form` under this policy: the Club Appeals Committee
    /// hears them only under a procedure "agreed to or published in advance"; in duplicate the
    /// organiser's arrangements for appeals (Law 80B2(k)) say whether a committee sits.
    pub fn check_allowed(&self, form: AppealForm) -> Result<(), AppealRefusal> {
        if self.appeals_allowed { Ok(()) } else { Err(AppealRefusal::NotAllowed { law: form.arrangements_law() }) }
    }

    /// Whether an appeal filed `elapsed` after its period began is in time. The period begins
    /// at the ruling in rubber bridge and Chicago (the club's published limit), and when the
    /// official score is made available in duplicate (Law 92B); `None` means it has not begun
    /// (the official score is not yet published), so the appeal is in time.
    pub fn check_time_limit(&self, form: AppealForm, elapsed: Option<Duration>) -> Result<(), AppealRefusal> {
        let (limit, law) = self.time_limit(form);
        match elapsed {
            Some(elapsed) if elapsed > limit => Err(AppealRefusal::Late { limit, elapsed, law }),
            _ => Ok(()),
        }
    }

    /// Whether `members` may hear or decide an appeal on `form`: exactly as many as the policy
    /// says, none named twice, and `caller` among them (the committee's own arrangements: the
    /// Club Appeals Committee; duplicate Law 80B2(k) and Law 93B).
    pub fn check_committee(&self, form: AppealForm, members: &[&str], caller: &str) -> Result<(), AppealRefusal> {
        let law = form.arrangements_law();
        if let Some((index, member)) = members.iter().enumerate().find(|(i, m)| members[..*i].contains(m)) {
            return Err(AppealRefusal::MemberTwice { member: (*member).to_owned(), index, law });
        }
        if members.len() != self.committee_size as usize {
            return Err(AppealRefusal::CommitteeSize { required: self.committee_size, given: members.len(), law });
        }
        if !members.contains(&caller) {
            return Err(AppealRefusal::CallerNotSitting { caller: caller.to_owned(), law });
        }
        Ok(())
    }
}

/// Why a person may not sit on the committee hearing an appeal: a committee judges between the
/// parties, and no one judges his own cause or reviews his own ruling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conflict {
    /// He played the deal the ruling concerns: the appellant, his partner or an opponent.
    PlayedTheDeal,
    /// He is a member or captain of a contestant the ruling concerns (duplicate, Law 92A: the
    /// contestant appeals, through its captain in teams).
    ContestantConcerned,
    /// He gave the ruling appealed (duplicate Law 93B1: the Director's ruling "may be appealed to
    /// the committee"; the Club Appeals Committee hears appeals from "any decision by the
    /// Arbiter").
    GaveTheRuling,
    /// He gave the ruling a review put in force in place of the one appealed (duplicate Law
    /// 93B1: the Chief Director's ruling on review "may be appealed to the committee", so the
    /// committee then reviews his ruling, and he may not sit on it).
    CorrectedTheRuling,
    /// The club declared him conflicted for a party to the appeal or for the appeal itself (a
    /// relative, a team-mate, a business partner): the club establishes its Appeals Committee
    /// (the Club Appeals Committee), and so says who on it may not judge whom
    /// ([`crate::committee::declared_conflicts`]).
    Declared(crate::committee::DeclaredFor),
}

impl std::fmt::Display for Conflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Conflict::PlayedTheDeal => "played the deal the ruling concerns",
            Conflict::ContestantConcerned => "is a member or captain of a contestant the ruling concerns",
            Conflict::GaveTheRuling => "gave the ruling appealed",
            Conflict::CorrectedTheRuling => "gave the ruling the director's review put in force",
            Conflict::Declared(what) => return write!(f, "is declared conflicted by the club {what}"),
        })
    }
}

/// Whether every member named for an appeal on `form` is free of conflict: none of `members` is
/// among `conflicted` (the parties to the deal, the contestants concerned, the one who ruled).
/// The committee is the club's arrangement for hearing appeals (the Club Appeals Committee;
/// duplicate Law 80B2(k), Law 93B), and an arrangement that let a party judge his own appeal
/// would hear none.
pub fn check_impartial(
    form: AppealForm,
    members: &[&str],
    conflicted: &[(&str, Conflict)],
) -> Result<(), AppealRefusal> {
    for member in members {
        if let Some((_, conflict)) = conflicted.iter().find(|(who, _)| who == member) {
            let law = form.arrangements_law();
            return Err(AppealRefusal::Conflicted { member: (*member).to_owned(), conflict: *conflict, law });
        }
    }
    Ok(())
}

/// Whether a decision of `members` with `dissenting` voting against it stands: each dissenter is
/// one of the members deciding, named once, and the members in favour outnumber the dissenters.
/// The Laws leave the committee's working to the club's arrangements (the Club Appeals Committee;
/// duplicate Law 80B2(k)); the club's reading is that a committee decides by a majority of its
/// members, and a dissent is recorded, not lost.
pub fn check_votes(form: AppealForm, members: &[&str], dissenting: &[&str]) -> Result<(), AppealRefusal> {
    let law = form.arrangements_law();
    for (index, dissenter) in dissenting.iter().enumerate() {
        if !members.contains(dissenter) || dissenting[..index].contains(dissenter) {
            return Err(AppealRefusal::DissenterNotDeciding { member: (*dissenter).to_owned(), law });
        }
    }
    let in_favour = members.len() - dissenting.len();
    if in_favour <= dissenting.len() {
        return Err(AppealRefusal::NoMajority { in_favour, against: dissenting.len(), law });
    }
    Ok(())
}

/// The policy of a club that has published none: no appeals (the Club Appeals Committee hears
/// appeals only under a procedure published in advance), 30 minutes for rubber and Chicago
/// (our choice; the Club Laws give no figure), 30 minutes in duplicate (Law 92B), and a
/// committee of three (the director's guide: "normally three of the more experienced club
/// players").
impl Default for AppealPolicy {
    fn default() -> Self {
        AppealPolicy {
            appeals_allowed: false,
            rubber_time_limit: Duration::from_secs(30 * 60),
            duplicate_time_limit: DUPLICATE_DEFAULT_TIME_LIMIT,
            committee_size: 3,
        }
    }
}

/// Why a policy cannot be published.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PolicyError {
    /// A committee of nobody.
    #[error("an appeals committee needs at least one member (Law 80B2(k) of the Laws of Duplicate Bridge)")]
    NoCommittee,
    /// A time limit of zero.
    #[error("a {form} time limit of zero would allow no appeal ({law})")]
    ZeroTimeLimit {
        /// Which limit.
        form: &'static str,
        /// The Law the limit applies.
        law: Law,
    },
}

impl CitesLaw for PolicyError {
    fn law(&self) -> Law {
        match self {
            PolicyError::NoCommittee => Law::duplicate(80, "B2(k)"),
            PolicyError::ZeroTimeLimit { law, .. } => *law,
        }
    }
}

/// Why an appeal is not heard, or a decision not made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AppealRefusal {
    /// The club's policy hears no appeals.
    #[error("the club's published policy hears no appeals ({law})")]
    NotAllowed {
        /// The rule that makes the arrangements.
        law: Law,
    },
    /// Filed after the time limit.
    #[error("the appeal is late: filed {} after the period began, the limit is {} ({law})", Minutes(*.elapsed), Minutes(*.limit))]
    Late {
        /// The limit.
        limit: Duration,
        /// How long after the period began it was filed.
        elapsed: Duration,
        /// The Law or club rule that sets the limit.
        law: Law,
    },
    /// The appellant did not play the deal.
    #[error("{appellant} did not play this deal: {who} may appeal ({law})")]
    NotAParty {
        /// The would-be appellant.
        appellant: String,
        /// Who may.
        who: &'static str,
        /// The Law that says who may.
        law: Law,
    },
    /// The concurrence Law 92D requires is missing.
    #[error(
        "the appeal is not heard without the concurrence of {needed} {player} (Law 92D{section} of the Laws of Duplicate Bridge)"
    )]
    NoConcurrence {
        /// "the partner" or "the team captain".
        needed: &'static str,
        /// The player whose concurrence is needed.
        player: String,
        /// "1" for pairs, "2" for teams.
        section: &'static str,
    },
    /// A Law 91 disciplinary ruling.
    #[error(
        "a disciplinary ruling under Law 91 is final and cannot be appealed (Law 93B3 of the Laws of Duplicate Bridge)"
    )]
    Disciplinary,
    /// A committee overruling the Director in charge on a point of law.
    #[error(
        "the committee may not overrule the Director in charge on a point of law or regulation; it may uphold the \
         ruling and recommend that he change it (Law 93B3 of the Laws of Duplicate Bridge)"
    )]
    PointOfLaw,
    /// A member named twice.
    #[error("committee member {member} is named twice (at {index}) ({law})")]
    MemberTwice {
        /// The member.
        member: String,
        /// Where the second mention is.
        index: usize,
        /// The arrangements.
        law: Law,
    },
    /// Not as many members as the policy says.
    #[error("the club's policy has {required} committee member(s) hear and decide an appeal; {given} named ({law})")]
    CommitteeSize {
        /// The policy's size.
        required: u32,
        /// How many were named.
        given: usize,
        /// The arrangements.
        law: Law,
    },
    /// The caller is not one of the members named.
    #[error("{caller} is not among the committee members named; a member records the committee's work ({law})")]
    CallerNotSitting {
        /// The caller.
        caller: String,
        /// The arrangements.
        law: Law,
    },
    /// A dissenter is not one of the members deciding, or is named twice.
    #[error("{member} is named as dissenting but not once among the members deciding ({law})")]
    DissenterNotDeciding {
        /// The member.
        member: String,
        /// The arrangements.
        law: Law,
    },
    /// The outcome does not have a majority of the members deciding.
    #[error(
        "a decision needs a majority of the committee: {in_favour} in favour and {against} against is none ({law})"
    )]
    NoMajority {
        /// Members in favour.
        in_favour: usize,
        /// Members against.
        against: usize,
        /// The arrangements.
        law: Law,
    },
    /// A member named may not sit on this appeal.
    #[error("{member} may not sit on this appeal's committee: he {conflict} ({law})")]
    Conflicted {
        /// The member.
        member: String,
        /// Why.
        conflict: Conflict,
        /// The arrangements.
        law: Law,
    },
}

impl CitesLaw for AppealRefusal {
    fn law(&self) -> Law {
        match self {
            AppealRefusal::NotAllowed { law }
            | AppealRefusal::Late { law, .. }
            | AppealRefusal::NotAParty { law, .. }
            | AppealRefusal::MemberTwice { law, .. }
            | AppealRefusal::CommitteeSize { law, .. }
            | AppealRefusal::CallerNotSitting { law, .. }
            | AppealRefusal::Conflicted { law, .. }
            | AppealRefusal::DissenterNotDeciding { law, .. }
            | AppealRefusal::NoMajority { law, .. } => *law,
            AppealRefusal::NoConcurrence { section, .. } => {
                Law::duplicate(92, if *section == "1" { "D1" } else { "D2" })
            }
            AppealRefusal::Disciplinary | AppealRefusal::PointOfLaw => Law::duplicate(93, "B3"),
        }
    }
}

/// A duration in whole minutes and seconds, as an error message shows it.
struct Minutes(Duration);

impl fmt::Display for Minutes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seconds = self.0.as_secs();
        match (seconds / 60, seconds % 60) {
            (0, seconds) => write!(f, "{seconds} s"),
            (minutes, 0) => write!(f, "{minutes} min"),
            (minutes, rest) => write!(f, "{minutes} min {rest} s"),
        }
    }
}

/// Whether a ruling of `kind` may be appealed under `form`: in duplicate, a Law 91 disciplinary
/// ruling is final (Law 93B3); the Club Appeals Committee hears "any decision by the Arbiter".
pub fn check_appealable(form: AppealForm, kind: RulingKind) -> Result<(), AppealRefusal> {
    match (form, kind) {
        (AppealForm::Duplicate(_), RulingKind::Disciplinary) => Err(AppealRefusal::Disciplinary),
        _ => Ok(()),
    }
}

/// Whether the committee may replace a ruling of `kind` under `form` with its own decision
/// (overrule or vary it). In duplicate it has all the Director's powers except that it may not
/// overrule the Director in charge on a point of law or regulation, or on Law 91 discipline; it
/// may recommend a change (Law 93B3). The Club Appeals Committee "may overrule any of his
/// decisions". Upholding a ruling is always open.
pub fn check_committee_may_change(form: AppealForm, kind: RulingKind) -> Result<(), AppealRefusal> {
    match (form, kind) {
        (AppealForm::Duplicate(_), RulingKind::Law) => Err(AppealRefusal::PointOfLaw),
        (AppealForm::Duplicate(_), RulingKind::Disciplinary) => Err(AppealRefusal::Disciplinary),
        _ => Ok(()),
    }
}

/// Whether `appellant` may appeal a ruling on a deal played by `parties`, with `concurring`
/// players concurring:
/// - rubber bridge and Chicago: "any player may appeal any decision by the Arbiter" under the
///   club's published procedure; a player of the deal (Club Appeals Committee);
/// - duplicate: "a contestant or his captain" of the table (Law 92A), and the appeal is not
///   heard unless, in a pairs event, both members of the partnership concur; in a team event,
///   the team captain concurs; in an individual contest, the appellant alone suffices
///   (Law 92D). A captain appealing concurs himself.
pub fn check_appellant(parties: &DealParties<'_>, appellant: &str, concurring: &[&str]) -> Result<(), AppealRefusal> {
    match parties {
        DealParties::Table { players } => {
            if players.contains(&appellant) {
                Ok(())
            } else {
                Err(AppealRefusal::NotAParty {
                    appellant: appellant.to_owned(),
                    who: "only the players of the deal",
                    law: Law::club_appeals(),
                })
            }
        }
        DealParties::Contestants { contest, north_south, east_west } => {
            let Some(own) = [north_south, east_west].into_iter().find(|c| c.includes(appellant)) else {
                return Err(AppealRefusal::NotAParty {
                    appellant: appellant.to_owned(),
                    who: "only a contestant of the table or his captain",
                    law: Law::duplicate(92, "A"),
                });
            };
            match contest {
                Contest::Individuals => Ok(()),
                Contest::Pairs => match own.members.iter().find(|m| **m != appellant) {
                    Some(partner) if !concurring.contains(partner) => Err(AppealRefusal::NoConcurrence {
                        needed: "the partner",
                        player: (*partner).to_owned(),
                        section: "1",
                    }),
                    _ => Ok(()),
                },
                Contest::Teams => match own.captain {
                    Some(captain) if captain != appellant && !concurring.contains(&captain) => {
                        Err(AppealRefusal::NoConcurrence {
                            needed: "the team captain",
                            player: captain.to_owned(),
                            section: "2",
                        })
                    }
                    _ => Ok(()),
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: u64 = 60;

    fn policy() -> AppealPolicy {
        AppealPolicy::new(true, Duration::from_secs(60 * MIN), DUPLICATE_DEFAULT_TIME_LIMIT, 3)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn law_92b_thirty_minutes_after_the_official_score_unless_the_organiser_says_otherwise() {
        // "The right to request or appeal a Director's ruling expires 30 minutes after the
        // official score has been made available for inspection".
        let form = AppealForm::Duplicate(Contest::Pairs);
        let p = AppealPolicy { appeals_allowed: true, ..AppealPolicy::default() };
        assert_eq!(p.check_time_limit(form, Some(Duration::from_secs(30 * MIN))), Ok(()));
        let late = p.check_time_limit(form, Some(Duration::from_secs(30 * MIN + 1))).unwrap_err();
        assert_eq!(late.law(), Law::duplicate(92, "B"));
        assert_eq!(
            late.to_string(),
            "the appeal is late: filed 30 min 1 s after the period began, the limit is 30 min \
             (Law 92B of the Laws of Duplicate Bridge)"
        );
        // Before the official score is made available the period has not begun.
        assert_eq!(p.check_time_limit(form, None), Ok(()));
        // "unless the Tournament Organizer has specified a different time period"
        let longer = AppealPolicy::new(true, Duration::from_secs(MIN), Duration::from_secs(45 * MIN), 1).unwrap();
        assert_eq!(longer.check_time_limit(form, Some(Duration::from_secs(40 * MIN))), Ok(()));
    }

    #[test]
    fn club_appeals_committee_no_party_and_not_the_arbiter_who_ruled_sits_on_the_appeal() {
        // "If such a procedure has been agreed to or published in advance, any player may appeal
        // any decision by the Arbiter": the committee judges between the players and the Arbiter's
        // decision, so neither a player of the deal nor the Arbiter sits on it.
        let conflicted = [("n", Conflict::PlayedTheDeal), ("arbiter", Conflict::GaveTheRuling)];
        assert_eq!(check_impartial(AppealForm::Rubber, &["ann", "bob", "cy"], &conflicted), Ok(()));
        let refused = check_impartial(AppealForm::Rubber, &["ann", "n", "cy"], &conflicted).unwrap_err();
        assert_eq!(refused.law(), Law::club_appeals());
        assert_eq!(
            refused.to_string(),
            "n may not sit on this appeal's committee: he played the deal the ruling concerns (the Club Appeals \
             Committee (Alternative Club Laws))"
        );
        // Law 93B1: "His ruling may be appealed to the committee": not heard by him.
        let pairs = AppealForm::Duplicate(Contest::Pairs);
        let refused = check_impartial(pairs, &["arbiter"], &conflicted).unwrap_err();
        assert_eq!(refused.law(), Law::duplicate(80, "B2(k)"));
        assert!(refused.to_string().starts_with("arbiter may not sit on this appeal's committee: he gave the ruling"));
    }

    #[test]
    fn club_appeals_committee_decides_by_a_majority_and_records_a_dissent() {
        // "The Appeals Committee exercises all powers assigned by these Laws to the Arbiter and may
        // overrule any of his decisions": as one body, by a majority of its members.
        let members = ["ann", "bob", "cy"];
        assert_eq!(check_votes(AppealForm::Rubber, &members, &[]), Ok(()));
        assert_eq!(check_votes(AppealForm::Rubber, &members, &["cy"]), Ok(()), "2-1 stands");
        let split = check_votes(AppealForm::Rubber, &["ann", "bob"], &["bob"]).unwrap_err();
        assert_eq!(
            split.to_string(),
            "a decision needs a majority of the committee: 1 in favour and 1 against is none (the Club Appeals \
             Committee (Alternative Club Laws))"
        );
        let stranger = check_votes(AppealForm::Rubber, &members, &["dan"]).unwrap_err();
        assert!(matches!(stranger, AppealRefusal::DissenterNotDeciding { ref member, .. } if member == "dan"));
        let twice = check_votes(AppealForm::Rubber, &["ann", "bob", "cy", "dan", "eve"], &["cy", "cy"]).unwrap_err();
        assert!(matches!(twice, AppealRefusal::DissenterNotDeciding { .. }));
    }

    #[test]
    fn club_appeals_committee_the_clubs_published_time_limit_runs_from_the_ruling() {
        let late = policy().check_time_limit(AppealForm::Rubber, Some(Duration::from_secs(61 * MIN))).unwrap_err();
        assert_eq!(late.law(), Law::club_appeals());
        assert_eq!(policy().check_time_limit(AppealForm::Chicago, Some(Duration::from_secs(59 * MIN))), Ok(()));
    }

    #[test]
    fn club_appeals_committee_only_under_a_procedure_published_in_advance() {
        // "If such a procedure has been agreed to or published in advance, any player may
        // appeal any decision by the Arbiter."
        let none = AppealPolicy::default();
        let refused = none.check_allowed(AppealForm::Rubber).unwrap_err();
        assert_eq!(refused.law(), Law::club_appeals());
        assert_eq!(
            refused.to_string(),
            "the club's published policy hears no appeals (the Club Appeals Committee (Alternative Club Laws))"
        );
        assert_eq!(
            none.check_allowed(AppealForm::Duplicate(Contest::Teams)).unwrap_err().law(),
            Law::duplicate(80, "B2(k)")
        );
        assert_eq!(policy().check_allowed(AppealForm::Chicago), Ok(()));
    }

    #[test]
    fn a_policy_needs_a_committee_and_time_to_appeal() {
        let err = AppealPolicy::new(true, Duration::from_secs(MIN), Duration::from_secs(MIN), 0).unwrap_err();
        assert_eq!(err, PolicyError::NoCommittee);
        let err = AppealPolicy::new(true, Duration::ZERO, Duration::from_secs(MIN), 1).unwrap_err();
        assert_eq!(err.law(), Law::club_appeals());
        let err = AppealPolicy::new(true, Duration::from_secs(MIN), Duration::ZERO, 1).unwrap_err();
        assert_eq!(err.law(), Law::duplicate(92, "B"));
    }

    #[test]
    fn club_appeals_committee_any_player_of_the_deal_may_appeal() {
        let parties = DealParties::Table { players: &["n", "e", "s", "w"] };
        assert_eq!(check_appellant(&parties, "e", &[]), Ok(()));
        let refused = check_appellant(&parties, "kibitzer", &[]).unwrap_err();
        assert_eq!(refused.law(), Law::club_appeals());
        assert_eq!(
            refused.to_string(),
            "kibitzer did not play this deal: only the players of the deal may appeal \
             (the Club Appeals Committee (Alternative Club Laws))"
        );
    }

    fn pairs<'a>(ns: &'a [&'a str], ew: &'a [&'a str], contest: Contest) -> DealParties<'a> {
        DealParties::Contestants {
            contest,
            north_south: Contestant { members: ns, captain: None },
            east_west: Contestant { members: ew, captain: None },
        }
    }

    #[test]
    fn law_92a_a_contestant_of_the_table_may_appeal() {
        // "A contestant or his captain may appeal for a review of any ruling made at his table"
        let parties = pairs(&["n", "s"], &["e", "w"], Contest::Individuals);
        assert_eq!(check_appellant(&parties, "w", &[]), Ok(()));
        let refused = check_appellant(&parties, "x", &["n"]).unwrap_err();
        assert_eq!(refused.law(), Law::duplicate(92, "A"));
    }

    #[test]
    fn law_92d1_in_a_pairs_event_both_members_of_the_partnership_concur() {
        // "An appeal shall not be heard unless: 1. in a pairs event both members of the
        // partnership concur in making the appeal (but in an individual contest an appellant
        // does not require his partner's concurrence)."
        let parties = pairs(&["n", "s"], &["e", "w"], Contest::Pairs);
        let refused = check_appellant(&parties, "n", &[]).unwrap_err();
        assert_eq!(refused.law(), Law::duplicate(92, "D1"));
        assert_eq!(
            refused.to_string(),
            "the appeal is not heard without the concurrence of the partner s (Law 92D1 of the Laws of Duplicate Bridge)"
        );
        // An opponent's concurrence is not the partner's.
        assert!(check_appellant(&parties, "n", &["e"]).is_err());
        assert_eq!(check_appellant(&parties, "n", &["s"]), Ok(()));
        // Individuals: the appellant alone.
        assert_eq!(check_appellant(&pairs(&["n"], &["e"], Contest::Individuals), "n", &[]), Ok(()));
    }

    #[test]
    fn law_92d2_in_a_team_event_the_team_captain_concurs() {
        // "2. in a team event the team captain concurs in making the appeal."
        let ns = ["a1", "a2", "a3", "a4"];
        let ew = ["b1", "b2", "b3", "b4"];
        let parties = DealParties::Contestants {
            contest: Contest::Teams,
            north_south: Contestant { members: &ns, captain: Some("a3") },
            east_west: Contestant { members: &ew, captain: Some("bc") },
        };
        let refused = check_appellant(&parties, "a1", &["a2"]).unwrap_err();
        assert_eq!(refused.law(), Law::duplicate(92, "D2"));
        assert_eq!(check_appellant(&parties, "a1", &["a3"]), Ok(()));
        // The captain appealing concurs himself; a captain who is not a member may appeal too
        // ("a contestant or his captain", Law 92A).
        assert_eq!(check_appellant(&parties, "a3", &[]), Ok(()));
        assert_eq!(check_appellant(&parties, "bc", &[]), Ok(()));
    }

    #[test]
    fn law_93b3_discipline_is_final_and_the_committee_only_recommends_on_law() {
        // "it may not overrule the Director in charge on a point of law or regulations, or on
        // exercise of his Law 91 disciplinary powers. (It may recommend to the Director in
        // charge that he change such a ruling.)"
        let duplicate = AppealForm::Duplicate(Contest::Pairs);
        assert_eq!(check_appealable(duplicate, RulingKind::Disciplinary), Err(AppealRefusal::Disciplinary));
        assert_eq!(check_appealable(duplicate, RulingKind::Law), Ok(()), "heard, and may be upheld");
        assert_eq!(check_committee_may_change(duplicate, RulingKind::Law), Err(AppealRefusal::PointOfLaw));
        assert_eq!(AppealRefusal::PointOfLaw.law(), Law::duplicate(93, "B3"));
        for kind in [RulingKind::Fact, RulingKind::Judgement] {
            assert_eq!(check_committee_may_change(duplicate, kind), Ok(()));
        }
        // The Club Appeals Committee "may overrule any of his decisions".
        for kind in [RulingKind::Law, RulingKind::Fact, RulingKind::Judgement, RulingKind::Disciplinary] {
            assert_eq!(check_appealable(AppealForm::Rubber, kind), Ok(()));
            assert_eq!(check_committee_may_change(AppealForm::Chicago, kind), Ok(()));
        }
    }

    #[test]
    fn the_committee_sits_as_the_policy_says_with_the_caller_among_them() {
        let p = policy();
        assert_eq!(p.check_committee(AppealForm::Rubber, &["a", "b", "c"], "b"), Ok(()));
        let short = p.check_committee(AppealForm::Rubber, &["a", "b"], "a").unwrap_err();
        assert_eq!(
            short.to_string(),
            "the club's policy has 3 committee member(s) hear and decide an appeal; 2 named \
             (the Club Appeals Committee (Alternative Club Laws))"
        );
        assert!(matches!(
            p.check_committee(AppealForm::Rubber, &["a", "b", "a"], "a"),
            Err(AppealRefusal::MemberTwice { index: 2, .. })
        ));
        let absent = p.check_committee(AppealForm::Duplicate(Contest::Pairs), &["a", "b", "c"], "d").unwrap_err();
        assert_eq!(absent.law(), Law::duplicate(80, "B2(k)"));
    }
}
