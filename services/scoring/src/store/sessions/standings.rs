//! A pairs session's standings kept a row per contestant (`scoring_session_standings`): each
//! row its contestant's tally over the boards it played. A change to one board reads and
//! rewrites only the rows of the contestants on that board (and reads those of the boards whose
//! Law 12C2(c) artificial scores it values again), so its cost does not grow with the session.
//! Ranks depend on every contestant: they are derived when the standings are read
//! ([`Sessions::standings_now`]), never stored.
//!
//! Sessions stored before keep their standings in the session row ([`StoredStandings`]) until
//! their next change, which scores the session whole once and moves them here; teams sessions,
//! scored whole, keep them there.

use laws::score::board::{Awards, Exact, Standings, Tally};
use laws::score::session::{Method, PairId};
use sea_orm::sea_query::OnConflict;

use super::*;
use crate::entity::session_standing;

/// A pair's tally as stored (see [`laws::score::board::Tally`]). Every field is a scalar, so
/// that a tally decodes without allocating: a fixed-point sum is a varint when it fits 64 bits,
/// and its 16 little-endian bytes only when it does not.
#[derive(Clone, PartialEq, Message)]
pub(super) struct StoredTally {
    #[prost(uint32, tag = "1")]
    pair: u32,
    #[prost(uint32, tag = "2")]
    boards: u32,
    #[prost(uint32, tag = "3")]
    compared_boards: u32,
    #[prost(sint64, tag = "4")]
    compared: i64,
    #[prost(sint64, tag = "5")]
    compared_matchpoints: i64,
    #[prost(sint64, tag = "6")]
    points: i64,
    #[prost(uint64, tag = "7")]
    top: u64,
    /// Average plus, average, average minus: boards and the sum of their tops.
    #[prost(uint32, tag = "8")]
    plus: u32,
    #[prost(uint64, tag = "9")]
    plus_top: u64,
    #[prost(uint32, tag = "10")]
    average: u32,
    #[prost(uint64, tag = "11")]
    average_top: u64,
    #[prost(uint32, tag = "12")]
    minus: u32,
    #[prost(uint64, tag = "13")]
    minus_top: u64,
    /// The three sums in order, 16 bytes each, when one of them does not fit 64 bits.
    #[prost(bytes = "vec", tag = "14")]
    wide: Vec<u8>,
}

pub(super) fn store_tally(pair: PairId, t: &Tally) -> StoredTally {
    let sums = [t.compared, t.compared_matchpoints, t.points];
    let narrow: Option<Vec<i64>> = sums.iter().map(|e| i64::try_from(e.0).ok()).collect();
    let (narrow, wide) = match narrow {
        Some(n) => (n, Vec::new()),
        None => (vec![0; 3], sums.iter().flat_map(|e| e.0.to_le_bytes()).collect()),
    };
    StoredTally {
        pair: pair.0,
        boards: t.boards,
        compared_boards: t.compared_boards,
        compared: narrow[0],
        compared_matchpoints: narrow[1],
        points: narrow[2],
        top: t.top,
        plus: t.awards[0].count,
        plus_top: t.awards[0].top,
        average: t.awards[1].count,
        average_top: t.awards[1].top,
        minus: t.awards[2].count,
        minus_top: t.awards[2].top,
        wide,
    }
}

pub(super) fn load_tally(t: &StoredTally) -> Result<Tally, ServiceError> {
    let sums = if t.wide.is_empty() {
        [t.compared, t.compared_matchpoints, t.points].map(|n| Exact(i128::from(n)))
    } else {
        let wide: &[u8; 48] =
            t.wide.as_slice().try_into().map_err(|_| ServiceError::internal("stored tally sums are not 48 bytes"))?;
        let at = |i: usize| {
            let mut bytes = [0u8; 16];
            bytes.copy_from_slice(&wide[16 * i..16 * (i + 1)]);
            Exact(i128::from_le_bytes(bytes))
        };
        [at(0), at(1), at(2)]
    };
    let award = |count, top| Awards { count, top };
    Ok(Tally {
        boards: t.boards,
        compared_boards: t.compared_boards,
        compared: sums[0],
        compared_matchpoints: sums[1],
        points: sums[2],
        top: t.top,
        awards: [award(t.plus, t.plus_top), award(t.average, t.average_top), award(t.minus, t.minus_top)],
    })
}

/// What a change needs of the session's definition: its method and boards. Decoding only these
/// skips the contestants (a thousand of them in a big session) without allocating for them.
#[derive(Clone, PartialEq, Message)]
pub(super) struct Frame {
    #[prost(int32, tag = "4")]
    pub(super) scoring_method: i32,
    #[prost(message, repeated, tag = "5")]
    pub(super) boards: Vec<spb::Board>,
}

/// The rows a change read: each contestant's pair number, tally and stored bytes.
#[derive(Default)]
pub(super) struct Kept {
    rows: Vec<(PairId, String, Tally, Vec<u8>)>,
    by_id: HashMap<String, usize>,
    by_pair: HashMap<PairId, usize>,
}

impl Kept {
    /// Adds rows read.
    pub(super) fn extend(&mut self, rows: Vec<session_standing::Model>) -> Result<(), ServiceError> {
        for row in rows {
            if self.by_id.contains_key(&row.contestant_id) {
                continue;
            }
            let pair = PairId(u32::try_from(row.pair).map_err(ServiceError::internal)?);
            let tally = load_tally(&decode(&row.tally, "tally")?)?;
            self.by_id.insert(row.contestant_id.clone(), self.rows.len());
            self.by_pair.insert(pair, self.rows.len());
            self.rows.push((pair, row.contestant_id, tally, row.tally));
        }
        Ok(())
    }

    /// Adds the rows another read found.
    pub(super) fn absorb(&mut self, other: Kept) {
        for row in other.rows {
            if !self.by_id.contains_key(&row.1) {
                self.by_id.insert(row.1.clone(), self.rows.len());
                self.by_pair.insert(row.0, self.rows.len());
                self.rows.push(row);
            }
        }
    }

    /// A contestant's pair number, if its row was read.
    pub(super) fn pair(&self, contestant_id: &str) -> Option<PairId> {
        self.by_id.get(contestant_id).map(|i| self.rows[*i].0)
    }

    /// The contestant of a pair number read.
    pub(super) fn contestant(&self, pair: PairId) -> Option<&str> {
        self.by_pair.get(&pair).map(|i| self.rows[*i].1.as_str())
    }

    /// Whether a contestant's row was read.
    pub(super) fn has(&self, contestant_id: &str) -> bool {
        self.by_id.contains_key(contestant_id)
    }

    /// The tallies read, as the laws crate keeps them (a pair without a board has none).
    pub(super) fn standings(&self) -> Standings {
        Standings::from_tallies(self.rows.iter().filter(|r| r.2.boards > 0).map(|r| (r.0, r.2)))
    }

    /// The rows of `contestants` whose tally differs in `tallies`, to be written, and their
    /// standings (unranked: a rank depends on every contestant), best first.
    pub(super) fn changed(
        &self,
        session_id: &str,
        contestants: &[&str],
        method: Method,
        tallies: &Standings,
    ) -> (Vec<session_standing::Model>, Vec<spb::Standing>) {
        let mut rows = Vec::new();
        let mut moved = Vec::new();
        for id in contestants {
            let Some((pair, _, _, stored)) = self.by_id.get(*id).map(|i| &self.rows[*i]) else { continue };
            let tally = tallies.tally(*pair).copied().unwrap_or_default();
            let encoded = store_tally(*pair, &tally).encode_to_vec();
            if encoded == *stored {
                continue;
            }
            rows.push(session_standing::Model {
                session_id: session_id.to_owned(),
                pair: i32::try_from(pair.0).unwrap_or(i32::MAX),
                contestant_id: (*id).to_owned(),
                tally: encoded,
            });
            if tally.boards > 0 {
                moved.push(tally.result(*pair, method));
            }
        }
        moved.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.pair.cmp(&b.pair)));
        let standings = moved
            .iter()
            .map(|p| {
                let tally = tallies.tally(p.pair).copied().unwrap_or_default();
                domain::standing(self.contestant(p.pair).unwrap_or_default().to_owned(), method, &tally, p)
            })
            .collect();
        (rows, standings)
    }
}

/// Every contestant's row of `definition` with its tally in `tallies` (none: not played yet).
pub(super) fn rows_of(
    session_id: &str,
    definition: &spb::Session,
    tallies: &Standings,
) -> Vec<session_standing::Model> {
    definition
        .contestants
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let pair = PairId(u32::try_from(i + 1).unwrap_or(u32::MAX));
            let tally = tallies.tally(pair).copied().unwrap_or_default();
            session_standing::Model {
                session_id: session_id.to_owned(),
                pair: i32::try_from(pair.0).unwrap_or(i32::MAX),
                contestant_id: c.contestant_id.clone(),
                tally: store_tally(pair, &tally).encode_to_vec(),
            }
        })
        .collect()
}

/// Postgres takes at most 65,535 parameters a statement; a row has 4 columns.
const ROWS_PER_STATEMENT: usize = 5_000;

impl Sessions {
    /// The rows of `contestants` (those of the session) as stored.
    pub(super) async fn read_kept<C: ConnectionTrait>(
        db: &C,
        session_id: &str,
        contestants: &[&str],
    ) -> Result<Vec<session_standing::Model>, ServiceError> {
        if contestants.is_empty() {
            return Ok(Vec::new());
        }
        Ok(session_standing::Entity::find()
            .filter(session_standing::Column::SessionId.eq(session_id))
            .filter(session_standing::Column::ContestantId.is_in(contestants.iter().copied()))
            .all(db)
            .await?)
    }

    /// Writes contestants' rows, new or changed.
    pub(super) async fn write_kept<C: ConnectionTrait>(
        db: &C,
        rows: &[session_standing::Model],
    ) -> Result<(), sea_orm::DbErr> {
        for chunk in rows.chunks(ROWS_PER_STATEMENT) {
            let models = chunk.iter().map(|m| session_standing::ActiveModel::from(m.clone()));
            let upsert = OnConflict::columns([session_standing::Column::SessionId, session_standing::Column::Pair])
                .update_columns([session_standing::Column::ContestantId, session_standing::Column::Tally])
                .to_owned();
            session_standing::Entity::insert_many(models).on_conflict(upsert).exec_without_returning(db).await?;
        }
        Ok(())
    }

    /// The standings as they stand, best first: ranked from the contestants' rows, or as a
    /// session stored before (or a teams session) keeps them in its row.
    pub(super) async fn standings_now<C: ConnectionTrait>(
        &self,
        db: &C,
        row: &session::Model,
    ) -> Result<Vec<spb::Standing>, ServiceError> {
        match in_row(row)? {
            Some(standings) => Ok(standings),
            None => self.ranked(row, &Self::every_kept(db, &row.session_id).await?),
        }
    }

    /// Every contestant's row of a pairs session, in pair order.
    pub(super) async fn every_kept<C: ConnectionTrait>(
        db: &C,
        session_id: &str,
    ) -> Result<Vec<session_standing::Model>, ServiceError> {
        Ok(session_standing::Entity::find()
            .filter(session_standing::Column::SessionId.eq(session_id))
            .order_by_asc(session_standing::Column::Pair)
            .all(db)
            .await?)
    }

    /// The standings ranked from every contestant's row (`rows`, in pair order), best first.
    pub(super) fn ranked(
        &self,
        row: &session::Model,
        rows: &[session_standing::Model],
    ) -> Result<Vec<spb::Standing>, ServiceError> {
        let frame: Frame = decode(&row.definition, "session definition")?;
        let method = domain::method_of(frame.scoring_method, self.settings.datum)?;
        let mut ids: Vec<&str> = Vec::with_capacity(rows.len());
        let mut tallies = Vec::with_capacity(rows.len());
        for (i, r) in rows.iter().enumerate() {
            if usize::try_from(r.pair).ok() != Some(i + 1) {
                return Err(ServiceError::internal(format!(
                    "session {} has no standing row {}",
                    row.session_id,
                    i + 1
                )));
            }
            ids.push(r.contestant_id.as_str());
            let tally = load_tally(&decode(&r.tally, "tally")?)?;
            if tally.boards > 0 {
                tallies.push((PairId(u32::try_from(i + 1).unwrap_or(u32::MAX)), tally));
            }
        }
        Ok(domain::standings_of(&ids, method, &Standings::from_tallies(tallies)))
    }
}

/// The standings a session keeps in its row (a teams session, or one stored before they were
/// kept a row per contestant), or `None` when they are kept a row per contestant.
pub(super) fn in_row(row: &session::Model) -> Result<Option<Vec<spb::Standing>>, ServiceError> {
    let stored: StoredStandings = decode(&row.standings, "standings")?;
    Ok(if stored.in_rows { None } else { Some(stored.standings) })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tally comes back from storage as it went in, sums beyond 64 bits too.
    #[test]
    fn a_stored_tally_loads_as_it_was() {
        let narrow = Tally {
            boards: 3,
            compared_boards: 2,
            compared: Exact(-7 << 40),
            compared_matchpoints: Exact(5),
            points: Exact(1 << 50),
            top: 12,
            awards: [Awards { count: 1, top: 4 }, Awards::default(), Awards { count: 2, top: 8 }],
        };
        let wide = Tally { points: Exact(i128::from(i64::MIN) * 4), ..narrow };
        let stored = [store_tally(PairId(1), &narrow), store_tally(PairId(2), &wide)];
        assert!(stored[0].wide.is_empty() && stored[1].wide.len() == 48);
        assert_eq!(load_tally(&stored[0]).ok(), Some(narrow));
        assert_eq!(load_tally(&stored[1]).ok(), Some(wide));
    }
}
