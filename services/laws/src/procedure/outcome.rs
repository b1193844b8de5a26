//! What an event did ([`Outcome`]): what the membership service tells the players and the desk,
//! each naming the rule or Law it applies. Apart so that everything an event can report reads
//! in one place.

use crate::draw::{Partnerships, PlayerId};
use crate::law::Law;

use super::{DrawNeeded, TableId};

/// What an event did: what the membership service tells the players and the desk.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// A table was formed (rule C): its members in precedence order (at most six) and the four
    /// who play the first rubber if nobody cuts in before its draw starts (rule B: a member
    /// admitted before then is ranked with them).
    TableFormed {
        /// The table.
        table: TableId,
        /// The members, highest precedence first.
        members: Vec<PlayerId>,
        /// The four highest-ranking members, who play the first rubber unless someone who cuts
        /// in before its draw ranks above one of them.
        first_rubber: Vec<PlayerId>,
    },
    /// A player became a member of an existing table (rule D), at once or from the waiting
    /// list when a vacancy occurred.
    MemberJoined {
        /// The table.
        table: TableId,
        /// The new member.
        player: PlayerId,
        /// The existing table he left to join, if any (rule C: he ranks lowest; rule E: he
        /// draws for his first rubber).
        from_table: Option<TableId>,
    },
    /// An applicant is not (yet) a member: the table is complete (or he is playing a rubber
    /// elsewhere, see [`Outcome::ApplicationHeld`]), and he is told his place on its waiting list,
    /// counting from 1 (rules C and D).
    Waiting {
        /// The table.
        table: TableId,
        /// The applicant.
        player: PlayerId,
        /// His place in the waiting list.
        place: usize,
    },
    /// Why an applicant waits at a table that has room: he is playing a rubber at another table.
    /// Nobody is taken out of a rubber in progress by an application (rule F, as
    /// docs/laws-readings.md reads it in "One table at a time (rule F)"): his application stays
    /// on the waiting list, in its order, and takes effect once that rubber ends, at once if the
    /// table then has room, else at the next vacancy. Reported after his [`Outcome::Waiting`].
    ApplicationHeld {
        /// The table applied to.
        table: TableId,
        /// The applicant.
        player: PlayerId,
        /// The table where he is playing a rubber.
        playing_at: TableId,
    },
    /// An application was withdrawn (or dropped because the applicant left the room).
    ApplicationWithdrawn {
        /// The table.
        table: TableId,
        /// The applicant.
        player: PlayerId,
    },
    /// A member lost his membership of a table by becoming a member of another (rule F).
    MembershipLost {
        /// The table he lost.
        table: TableId,
        /// The player.
        player: PlayerId,
    },
    /// A member left a table.
    MemberLeft {
        /// The table.
        table: TableId,
        /// The player.
        player: PlayerId,
    },
    /// A member makes a fourth at another table, keeping his own membership (rule F).
    FillStarted {
        /// The player.
        player: PlayerId,
        /// His own table.
        home: TableId,
        /// The table he makes a fourth at.
        host: TableId,
    },
    /// His place at the other table can now be filled, so he may return (rule F).
    FillMayEnd {
        /// The player.
        player: PlayerId,
        /// His own table.
        home: TableId,
        /// The table he made a fourth at.
        host: TableId,
    },
    /// He has returned to his own table (rule F).
    FillEnded {
        /// The player.
        player: PlayerId,
        /// His own table.
        home: TableId,
        /// The table he made a fourth at.
        host: TableId,
    },
    /// A player broke up a game by leaving three players at a table: he may not compete
    /// against them for entry at another table until each has played a rubber (rule E).
    TableBroken {
        /// The table.
        table: TableId,
        /// The player who left.
        breaker: PlayerId,
        /// The three left behind.
        left_behind: Vec<PlayerId>,
    },
    /// One of the players left behind has played a rubber: the breaker may compete against him
    /// again (rule E).
    RestrictionCleared {
        /// The breaker.
        breaker: PlayerId,
        /// The player who has played a rubber.
        player: PlayerId,
    },
    /// All three have played a rubber: the restriction on the breaker is over (rule E).
    RestrictionLifted {
        /// The breaker.
        breaker: PlayerId,
    },
    /// The draw for the next rubber was called off because a member it counted on left or went
    /// to make a fourth elsewhere; a new draw starts over (rule B).
    DrawCancelled {
        /// The table.
        table: TableId,
    },
    /// A player in the rubber left: the rubber is not finished and is scored under Law 80.
    RubberAbandoned {
        /// The table.
        table: TableId,
    },
    /// The last member left; the table no longer exists.
    TableDissolved {
        /// The table.
        table: TableId,
    },
    /// A draw is needed before the procedure can go on.
    DrawNeeded(DrawNeeded),
    /// Who plays the next rubber and who sits out (rules B, C, E).
    LineUpFixed {
        /// The table.
        table: TableId,
        /// The four who play.
        playing: [PlayerId; 4],
        /// The members who sit out (eligible members only; later members wait regardless).
        sitting_out: Vec<PlayerId>,
    },
    /// The partnerships of the rubber (Law 3; Appendix 4 B, H3).
    PartnershipsSet {
        /// The table.
        table: TableId,
        /// The partnerships; after a draw, the first dealer's side first.
        partnerships: Partnerships,
        /// The first dealer, when the draw decided him (Law 3).
        first_dealer: Option<PlayerId>,
        /// Whether Appendix 4 H3 changed the partnerships the draw gave.
        no_consecutive_applied: bool,
    },
    /// A rubber ended.
    RubberEnded {
        /// The table.
        table: TableId,
        /// Whether it was finished (not abandoned).
        completed: bool,
    },
}

impl Outcome {
    /// The rule or Law the outcome applies.
    pub const fn law(&self) -> Law {
        match self {
            Outcome::TableFormed { .. } => Law::club_procedure('C'),
            Outcome::MemberJoined { .. } | Outcome::Waiting { .. } | Outcome::ApplicationWithdrawn { .. } => {
                Law::club_procedure('D')
            }
            Outcome::MembershipLost { .. }
            | Outcome::ApplicationHeld { .. }
            | Outcome::FillStarted { .. }
            | Outcome::FillMayEnd { .. }
            | Outcome::FillEnded { .. } => Law::club_procedure('F'),
            Outcome::MemberLeft { .. } | Outcome::TableDissolved { .. } => Law::club_procedure('A'),
            Outcome::TableBroken { .. }
            | Outcome::RestrictionCleared { .. }
            | Outcome::RestrictionLifted { .. }
            | Outcome::LineUpFixed { .. }
            | Outcome::RubberEnded { .. } => Law::club_procedure('E'),
            Outcome::DrawCancelled { .. } => Law::club_procedure('B'),
            Outcome::RubberAbandoned { .. } => Law::rubber(80, ""),
            Outcome::DrawNeeded(needed) => needed.purpose.law(),
            Outcome::PartnershipsSet { .. } => Law::rubber(3, ""),
        }
    }
}
