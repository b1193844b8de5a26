//! The Rules for Club Procedure events of an entry, as stored, and their translation to and from
//! the laws crate's events (which have no serialisation of its own). Kept apart from the
//! commands: these are the laws' facts, the commands the service's data beside them.

use laws::cards::Card;
use laws::draw::{DrawnCard, PlayerId};
use laws::procedure::{PartnershipSource, ProcedureEvent, TableId, TableOptions, Timestamp};
use serde::{Deserialize, Serialize};

use platform::ServiceError;

use super::{DrawnCardRecord, Form, LawPurpose};

/// How the partnerships of a rubber were settled, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Partnerships {
    /// The four cards of the partnership draw (Law 3).
    Drawn {
        /// The cards.
        cards: Vec<DrawnCardRecord>,
    },
    /// The table's pivot rotation (Appendix 4 B).
    Pivot,
    /// Partnerships the four agreed (Law 3: "unless it is otherwise agreed").
    Agreed {
        /// The two partnerships.
        sides: [[u64; 2]; 2],
    },
}

/// A Rules for Club Procedure event, as stored (the time is the entry's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// `ProcedureEvent::Entered`.
    Entered {
        /// The player.
        player: u64,
    },
    /// `ProcedureEvent::EntryCorrected`.
    EntryCorrected {
        /// The player.
        player: u64,
        /// When he entered, as corrected (ms).
        entered_at: i64,
    },
    /// `ProcedureEvent::LeftRoom`.
    LeftRoom {
        /// The player.
        player: u64,
    },
    /// `ProcedureEvent::TableFormed`.
    TableFormed {
        /// The table.
        table: u64,
        /// Rubber or Chicago.
        form: Form,
        /// The options the Laws read.
        no_consecutive_partners: bool,
        /// Appendix 4 B.
        pivot: bool,
        /// Appendix 4 C.
        chicago_vulnerability_switched: bool,
        /// The applicants.
        applicants: Vec<u64>,
        /// Applicants making a fourth with an announced return.
        returning_fourths: Vec<u64>,
        /// The precedence draw.
        draw: Vec<DrawnCardRecord>,
    },
    /// `ProcedureEvent::Applied`.
    Applied {
        /// The table.
        table: u64,
        /// The applicants.
        players: Vec<u64>,
        /// The precedence draw.
        draw: Vec<DrawnCardRecord>,
    },
    /// `ProcedureEvent::ApplicationsJoined`.
    ApplicationsJoined {
        /// The table.
        table: u64,
        /// The applicants whose applications were made together.
        players: Vec<u64>,
        /// The draw that orders them.
        draw: Vec<DrawnCardRecord>,
    },
    /// `ProcedureEvent::Withdrew`.
    Withdrew {
        /// The player.
        player: u64,
        /// The table.
        table: u64,
    },
    /// `ProcedureEvent::MadeFourth`.
    MadeFourth {
        /// The player.
        player: u64,
        /// The table.
        table: u64,
        /// Whether a return was announced.
        announced_return: bool,
    },
    /// `ProcedureEvent::ReturnedHome`.
    ReturnedHome {
        /// The player.
        player: u64,
    },
    /// `ProcedureEvent::LeftTable`.
    LeftTable {
        /// The player.
        player: u64,
        /// The table.
        table: u64,
    },
    /// `ProcedureEvent::DrawStarted`.
    DrawStarted {
        /// The table.
        table: u64,
    },
    /// `ProcedureEvent::LineUpDrawn`.
    LineUpDrawn {
        /// The table.
        table: u64,
        /// Which draw.
        purpose: LawPurpose,
        /// The cards.
        draw: Vec<DrawnCardRecord>,
    },
    /// `ProcedureEvent::RubberStarted`.
    RubberStarted {
        /// The table.
        table: u64,
        /// How the partnerships were settled.
        partnerships: Partnerships,
    },
    /// `ProcedureEvent::RubberEnded`.
    RubberEnded {
        /// The table.
        table: u64,
        /// Whether the rubber was finished.
        completed: bool,
    },
    /// `ProcedureEvent::OptionsChanged`.
    OptionsChanged {
        /// The table.
        table: u64,
        /// Appendix 4 H3.
        no_consecutive_partners: bool,
        /// Appendix 4 B.
        pivot: bool,
        /// Appendix 4 C.
        chicago_vulnerability_switched: bool,
    },
    /// `ProcedureEvent::TableClosed`.
    TableClosed {
        /// The table.
        table: u64,
    },
}

fn cards_out(cards: &[DrawnCard]) -> Vec<DrawnCardRecord> {
    cards.iter().map(|c| DrawnCardRecord { player: c.player.0, card: c.card.to_string() }).collect()
}

fn cards_in(cards: &[DrawnCardRecord]) -> Result<Vec<DrawnCard>, ServiceError> {
    cards
        .iter()
        .map(|c| {
            let card = c.card.parse::<Card>().map_err(|e| ServiceError::internal(format!("journal: {e}")))?;
            Ok(DrawnCard { player: PlayerId(c.player), card })
        })
        .collect()
}

fn ids(players: &[PlayerId]) -> Vec<u64> {
    players.iter().map(|p| p.0).collect()
}

fn players(ids: &[u64]) -> Vec<PlayerId> {
    ids.iter().map(|p| PlayerId(*p)).collect()
}

impl From<&ProcedureEvent> for Event {
    fn from(event: &ProcedureEvent) -> Event {
        match event {
            ProcedureEvent::Entered { player, .. } => Event::Entered { player: player.0 },
            ProcedureEvent::EntryCorrected { player, entered_at, .. } => {
                Event::EntryCorrected { player: player.0, entered_at: entered_at.0 }
            }
            ProcedureEvent::LeftRoom { player, .. } => Event::LeftRoom { player: player.0 },
            ProcedureEvent::TableFormed { table, form, options, applicants, returning_fourths, draw, .. } => {
                Event::TableFormed {
                    table: table.0,
                    form: (*form).into(),
                    no_consecutive_partners: options.no_consecutive_partners,
                    pivot: options.pivot,
                    chicago_vulnerability_switched: options.chicago_vulnerability_switched,
                    applicants: ids(applicants),
                    returning_fourths: ids(returning_fourths),
                    draw: cards_out(draw),
                }
            }
            ProcedureEvent::Applied { table, players, draw, .. } => {
                Event::Applied { table: table.0, players: ids(players), draw: cards_out(draw) }
            }
            ProcedureEvent::ApplicationsJoined { table, players, draw, .. } => {
                Event::ApplicationsJoined { table: table.0, players: ids(players), draw: cards_out(draw) }
            }
            ProcedureEvent::Withdrew { player, table, .. } => Event::Withdrew { player: player.0, table: table.0 },
            ProcedureEvent::MadeFourth { player, table, announced_return, .. } => {
                Event::MadeFourth { player: player.0, table: table.0, announced_return: *announced_return }
            }
            ProcedureEvent::ReturnedHome { player, .. } => Event::ReturnedHome { player: player.0 },
            ProcedureEvent::LeftTable { player, table, .. } => Event::LeftTable { player: player.0, table: table.0 },
            ProcedureEvent::DrawStarted { table, .. } => Event::DrawStarted { table: table.0 },
            ProcedureEvent::LineUpDrawn { table, purpose, draw, .. } => {
                Event::LineUpDrawn { table: table.0, purpose: (*purpose).into(), draw: cards_out(draw) }
            }
            ProcedureEvent::RubberStarted { table, partnerships, .. } => Event::RubberStarted {
                table: table.0,
                partnerships: match partnerships {
                    PartnershipSource::Drawn(cards) => Partnerships::Drawn { cards: cards_out(cards) },
                    PartnershipSource::Agreed(agreed) => {
                        Partnerships::Agreed { sides: agreed.sides().map(|side| side.map(|p| p.0)) }
                    }
                    PartnershipSource::Pivot => Partnerships::Pivot,
                },
            },
            ProcedureEvent::RubberEnded { table, completed, .. } => {
                Event::RubberEnded { table: table.0, completed: *completed }
            }
            ProcedureEvent::OptionsChanged { table, options, .. } => Event::OptionsChanged {
                table: table.0,
                no_consecutive_partners: options.no_consecutive_partners,
                pivot: options.pivot,
                chicago_vulnerability_switched: options.chicago_vulnerability_switched,
            },
            ProcedureEvent::TableClosed { table, .. } => Event::TableClosed { table: table.0 },
        }
    }
}

impl Event {
    /// The procedure event, at `at`.
    pub fn to_laws(&self, at: Timestamp) -> Result<ProcedureEvent, ServiceError> {
        Ok(match self {
            Event::Entered { player } => ProcedureEvent::Entered { player: PlayerId(*player), at },
            Event::EntryCorrected { player, entered_at } => {
                ProcedureEvent::EntryCorrected { player: PlayerId(*player), entered_at: Timestamp(*entered_at), at }
            }
            Event::LeftRoom { player } => ProcedureEvent::LeftRoom { player: PlayerId(*player), at },
            Event::TableFormed {
                table,
                form,
                no_consecutive_partners,
                pivot,
                chicago_vulnerability_switched,
                applicants,
                returning_fourths,
                draw,
            } => ProcedureEvent::TableFormed {
                table: TableId(*table),
                form: (*form).into(),
                options: TableOptions {
                    no_consecutive_partners: *no_consecutive_partners,
                    pivot: *pivot,
                    chicago_vulnerability_switched: *chicago_vulnerability_switched,
                },
                applicants: players(applicants),
                returning_fourths: players(returning_fourths),
                draw: cards_in(draw)?,
                at,
            },
            Event::Applied { table, players: applicants, draw } => ProcedureEvent::Applied {
                table: TableId(*table),
                players: players(applicants),
                draw: cards_in(draw)?,
                at,
            },
            Event::ApplicationsJoined { table, players: joined, draw } => ProcedureEvent::ApplicationsJoined {
                table: TableId(*table),
                players: players(joined),
                draw: cards_in(draw)?,
                at,
            },
            Event::Withdrew { player, table } => {
                ProcedureEvent::Withdrew { player: PlayerId(*player), table: TableId(*table), at }
            }
            Event::MadeFourth { player, table, announced_return } => ProcedureEvent::MadeFourth {
                player: PlayerId(*player),
                table: TableId(*table),
                announced_return: *announced_return,
                at,
            },
            Event::ReturnedHome { player } => ProcedureEvent::ReturnedHome { player: PlayerId(*player), at },
            Event::LeftTable { player, table } => {
                ProcedureEvent::LeftTable { player: PlayerId(*player), table: TableId(*table), at }
            }
            Event::DrawStarted { table } => ProcedureEvent::DrawStarted { table: TableId(*table), at },
            Event::LineUpDrawn { table, purpose, draw } => ProcedureEvent::LineUpDrawn {
                table: TableId(*table),
                purpose: (*purpose).into(),
                draw: cards_in(draw)?,
                at,
            },
            Event::RubberStarted { table, partnerships } => ProcedureEvent::RubberStarted {
                table: TableId(*table),
                partnerships: match partnerships {
                    Partnerships::Drawn { cards } => {
                        let cards: [DrawnCard; 4] = cards_in(cards)?
                            .try_into()
                            .map_err(|_| ServiceError::internal("journal: a partnership draw without four cards"))?;
                        PartnershipSource::Drawn(cards)
                    }
                    Partnerships::Pivot => PartnershipSource::Pivot,
                    Partnerships::Agreed { sides: [a, b] } => PartnershipSource::Agreed(
                        laws::draw::Partnerships::new(a.map(PlayerId), b.map(PlayerId))
                            .map_err(|e| ServiceError::internal(format!("journal: agreed partnerships: {e}")))?,
                    ),
                },
                at,
            },
            Event::RubberEnded { table, completed } => {
                ProcedureEvent::RubberEnded { table: TableId(*table), completed: *completed, at }
            }
            Event::OptionsChanged { table, no_consecutive_partners, pivot, chicago_vulnerability_switched } => {
                ProcedureEvent::OptionsChanged {
                    table: TableId(*table),
                    options: TableOptions {
                        no_consecutive_partners: *no_consecutive_partners,
                        pivot: *pivot,
                        chicago_vulnerability_switched: *chicago_vulnerability_switched,
                    },
                    at,
                }
            }
            Event::TableClosed { table } => ProcedureEvent::TableClosed { table: TableId(*table), at },
        })
    }
}

#[cfg(test)]
mod tests;
