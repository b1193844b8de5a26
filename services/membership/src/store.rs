//! The durable record in Postgres (or SQLite): the register, the room's journal, the numbered event
//! streams and the room's records. A journal entry, its events and its records are written in one
//! transaction whose first statement inserts the entry at (room, sequence): that primary key is the
//! commit point, so of two writers that decided on the same room version exactly one commits.

use chrono::{DateTime, FixedOffset};
use prost::Message;
use sea_orm::sea_query::{Expr, ExprTrait, Func, LikeExpr, OnConflict};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set,
    SqlErr, TransactionTrait,
};

use api::membership::v1 as pb;
use platform::ServiceError;
use platform::db::Db;

use crate::entity::{
    applications, draws, idempotency, journal, players, room_events, rubbers, snapshots, table_events, tables,
};
use crate::journal::Entry;
use crate::state::Changes;

/// A time in milliseconds since the Unix epoch, as the database stores it.
pub fn datetime(ms: i64) -> DateTime<FixedOffset> {
    DateTime::from_timestamp_millis(ms).unwrap_or(DateTime::UNIX_EPOCH).fixed_offset()
}

fn millis(at: &DateTime<FixedOffset>) -> i64 {
    at.timestamp_millis()
}

/// A contract timestamp, as the database stores it.
fn stored(at: &prost_types::Timestamp) -> DateTime<FixedOffset> {
    datetime(at.seconds * 1000 + i64::from(at.nanos) / 1_000_000)
}

pub use platform::page::Page;

fn decode<M: Message + Default>(what: &str, bytes: &[u8]) -> Result<M, ServiceError> {
    M::decode(bytes).map_err(|e| ServiceError::internal(format!("{what}: {e}")))
}

/// The service's tables.
#[derive(Debug, Clone)]
pub struct Store {
    db: Db,
    room: String,
}

impl Store {
    /// The store of `room` in `db`.
    pub fn new(db: Db, room: &str) -> Store {
        Store { db, room: room.to_owned() }
    }

    /// The database.
    pub fn db(&self) -> &Db {
        &self.db
    }

    /// The journal entries after `sequence`, in order.
    pub async fn entries_after(&self, sequence: u64) -> Result<Vec<(u64, Entry)>, ServiceError> {
        let rows = journal::Entity::find()
            .filter(journal::Column::Room.eq(&self.room))
            .filter(journal::Column::Sequence.gt(sequence as i64))
            .order_by_asc(journal::Column::Sequence)
            .all(&self.db)
            .await?;
        rows.into_iter()
            .map(|row| {
                let entry: Entry = serde_json::from_str(&row.entry)
                    .map_err(|e| ServiceError::internal(format!("journal entry {}: {e}", row.sequence)))?;
                Ok((row.sequence as u64, entry))
            })
            .collect()
    }

    /// The latest snapshot of the room in `format`, if any: the journal entry it follows and the
    /// state.
    pub async fn latest_snapshot(&self, format: i32) -> Result<Option<(u64, Vec<u8>)>, ServiceError> {
        let row = snapshots::Entity::find()
            .filter(snapshots::Column::Room.eq(&self.room))
            .filter(snapshots::Column::Format.eq(format))
            .order_by_desc(snapshots::Column::Sequence)
            .one(&self.db)
            .await?;
        Ok(row.map(|row| (row.sequence.unsigned_abs(), row.state)))
    }

    /// Writes a snapshot of the room after entry `sequence` in `txn`, and drops those older than
    /// `keep_after` (the previous one is kept, should this one prove unreadable).
    pub async fn write_snapshot(
        &self,
        txn: &impl ConnectionTrait,
        (sequence, keep_after): (u64, u64),
        format: i32,
        state: &[u8],
    ) -> Result<(), DbErr> {
        snapshots::Entity::insert(snapshots::ActiveModel {
            room: Set(self.room.clone()),
            sequence: Set(sequence as i64),
            format: Set(format),
            state: Set(state.to_vec()),
            taken_at: Set(chrono::Utc::now().fixed_offset()),
        })
        .exec_without_returning(txn)
        .await?;
        snapshots::Entity::delete_many()
            .filter(snapshots::Column::Room.eq(&self.room))
            .filter(snapshots::Column::Sequence.lt(keep_after as i64))
            .exec(txn)
            .await?;
        Ok(())
    }

    /// The number of the last journal entry (0 if none).
    pub async fn head(&self) -> Result<u64, ServiceError> {
        let last: Option<i64> = journal::Entity::find()
            .select_only()
            .column_as(journal::Column::Sequence.max(), "head")
            .filter(journal::Column::Room.eq(&self.room))
            .into_tuple::<Option<i64>>()
            .one(&self.db)
            .await?
            .flatten();
        Ok(last.unwrap_or(0) as u64)
    }

    /// Writes journal entry `sequence` with everything it changed, in `txn` (the command
    /// runtime's transaction, which it may share with other entries and adds the first answer
    /// to). The entry's insert at (room, sequence) is the commit point.
    #[tracing::instrument(skip_all, fields(sequence, kind = entry.command.kind()))]
    pub async fn write(
        &self,
        txn: &impl ConnectionTrait,
        sequence: u64,
        entry: &Entry,
        changes: &Changes,
    ) -> Result<(), DbErr> {
        let text = serde_json::to_string(entry).map_err(|e| DbErr::Custom(format!("journal entry: {e}")))?;
        journal::ActiveModel {
            room: Set(self.room.clone()),
            sequence: Set(sequence as i64),
            kind: Set(entry.command.kind().to_owned()),
            actor: Set(entry.actor.clone()),
            recorded_at: Set(datetime(entry.at)),
            entry: Set(text),
        }
        .insert(txn)
        .await?;
        if !changes.room_events.is_empty() {
            room_events::Entity::insert_many(changes.room_events.iter().map(|event| room_events::ActiveModel {
                room: Set(self.room.clone()),
                sequence: Set(event.sequence as i64),
                journal_sequence: Set(sequence as i64),
                event: Set(event.encode_to_vec()),
            }))
            .exec_without_returning(txn)
            .await?;
        }
        if !changes.table_events.is_empty() {
            table_events::Entity::insert_many(changes.table_events.iter().map(|event| table_events::ActiveModel {
                table_id: Set(event.table_id.clone()),
                sequence: Set(event.sequence as i64),
                journal_sequence: Set(sequence as i64),
                event: Set(event.encode_to_vec()),
            }))
            .exec_without_returning(txn)
            .await?;
        }
        self.write_records(txn, entry.at, changes).await
    }

    async fn write_records(&self, txn: &impl ConnectionTrait, at: i64, changes: &Changes) -> Result<(), DbErr> {
        for table in &changes.tables {
            let status = pb::TableStatus::try_from(table.status).unwrap_or_default().as_str_name();
            let model = tables::ActiveModel {
                table_id: Set(table.table_id.clone()),
                room: Set(self.room.clone()),
                number: Set(table.table_id.trim_start_matches('t').parse().unwrap_or(0)),
                name: Set(table.name.clone()),
                status: Set(status.to_owned()),
                opened_at: Set(table.opened_at.as_ref().map_or(datetime(at), stored)),
                closed_at: Set(table.closed_at.as_ref().map(stored)),
                version: Set(table.version as i64),
                record: Set(table.encode_to_vec()),
            };
            tables::Entity::insert(model)
                .on_conflict(
                    OnConflict::column(tables::Column::TableId)
                        .update_columns([
                            tables::Column::Name,
                            tables::Column::Status,
                            tables::Column::ClosedAt,
                            tables::Column::Version,
                            tables::Column::Record,
                        ])
                        .to_owned(),
                )
                .exec_without_returning(txn)
                .await?;
        }
        for draw in &changes.draws {
            let model = draws::ActiveModel {
                draw_id: Set(draw.draw_id.clone()),
                table_id: Set(draw.table_id.clone()),
                purpose: Set(pb::DrawPurpose::try_from(draw.purpose).unwrap_or_default().as_str_name().to_owned()),
                status: Set(pb::DrawStatus::try_from(draw.status).unwrap_or_default().as_str_name().to_owned()),
                created_at: Set(datetime(at)),
                record: Set(draw.encode_to_vec()),
            };
            draws::Entity::insert(model)
                .on_conflict(
                    OnConflict::column(draws::Column::DrawId)
                        .update_columns([draws::Column::Status, draws::Column::Record])
                        .to_owned(),
                )
                .exec_without_returning(txn)
                .await?;
        }
        for (rubber, going_out) in &changes.rubbers {
            let model = rubbers::ActiveModel {
                rubber_id: Set(rubber.rubber_id.clone()),
                table_id: Set(rubber.table_id.clone()),
                number: Set(i64::from(rubber.number)),
                status: Set(pb::RubberStatus::try_from(rubber.status).unwrap_or_default().as_str_name().to_owned()),
                started_at: Set(rubber.started_at.as_ref().map_or(datetime(at), stored)),
                ended_at: Set(rubber.ended_at.as_ref().map(stored)),
                record: Set(rubber.encode_to_vec()),
                going_out: Set(going_out.as_ref().map(Message::encode_to_vec)),
            };
            rubbers::Entity::insert(model)
                .on_conflict(
                    OnConflict::column(rubbers::Column::RubberId)
                        .update_columns([
                            rubbers::Column::Status,
                            rubbers::Column::EndedAt,
                            rubbers::Column::Record,
                            rubbers::Column::GoingOut,
                        ])
                        .to_owned(),
                )
                .exec_without_returning(txn)
                .await?;
        }
        for application in &changes.applications {
            let model = applications::ActiveModel {
                application_id: Set(application.application_id.clone()),
                table_id: Set(application.table_id.clone()),
                player_id: Set(application.player_id.clone()),
                status: Set(pb::ApplicationStatus::try_from(application.status)
                    .unwrap_or_default()
                    .as_str_name()
                    .to_owned()),
                applied_at: Set(application.applied_at.as_ref().map_or(datetime(at), stored)),
                record: Set(application.encode_to_vec()),
            };
            applications::Entity::insert(model)
                .on_conflict(
                    OnConflict::column(applications::Column::ApplicationId)
                        .update_columns([applications::Column::Status, applications::Column::Record])
                        .to_owned(),
                )
                .exec_without_returning(txn)
                .await?;
        }
        Ok(())
    }

    /// Up to `limit` room events after `after`, in order.
    pub async fn room_events_after(&self, after: u64, limit: u64) -> Result<Vec<pb::RoomEvent>, ServiceError> {
        let rows = room_events::Entity::find()
            .filter(room_events::Column::Room.eq(&self.room))
            .filter(room_events::Column::Sequence.gt(after as i64))
            .order_by_asc(room_events::Column::Sequence)
            .limit(limit)
            .all(&self.db)
            .await?;
        rows.iter().map(|row| decode("room event", &row.event)).collect()
    }

    /// Up to `limit` events of `table_id` after `after`, in order.
    pub async fn table_events_after(
        &self,
        table_id: &str,
        after: u64,
        limit: u64,
    ) -> Result<Vec<pb::TableEvent>, ServiceError> {
        let rows = table_events::Entity::find()
            .filter(table_events::Column::TableId.eq(table_id))
            .filter(table_events::Column::Sequence.gt(after as i64))
            .order_by_asc(table_events::Column::Sequence)
            .limit(limit)
            .all(&self.db)
            .await?;
        rows.iter().map(|row| decode("table event", &row.event)).collect()
    }

    /// A table as it last stood (closed ones too).
    pub async fn table(&self, table_id: &str) -> Result<Option<pb::Table>, ServiceError> {
        let row = tables::Entity::find_by_id(table_id.to_owned()).one(&self.db).await?;
        row.map(|row| decode("table", &row.record)).transpose()
    }

    /// Tables by opening time.
    pub async fn tables(&self, include_closed: bool, page: Page) -> Result<Vec<pb::Table>, ServiceError> {
        let mut query = tables::Entity::find().filter(tables::Column::Room.eq(&self.room));
        if !include_closed {
            query = query.filter(tables::Column::Status.ne(pb::TableStatus::Closed.as_str_name()));
        }
        let rows = query
            .order_by_asc(tables::Column::OpenedAt)
            .order_by_asc(tables::Column::Number)
            .offset(page.offset)
            .limit(page.fetch())
            .all(&self.db)
            .await?;
        rows.iter().map(|row| decode("table", &row.record)).collect()
    }

    /// A draw.
    pub async fn draw(&self, draw_id: &str) -> Result<Option<pb::Draw>, ServiceError> {
        let row = draws::Entity::find_by_id(draw_id.to_owned()).one(&self.db).await?;
        row.map(|row| decode("draw", &row.record)).transpose()
    }

    /// A table's draws, newest first.
    pub async fn draws(&self, table_id: &str, page: Page) -> Result<Vec<pb::Draw>, ServiceError> {
        let rows = draws::Entity::find()
            .filter(draws::Column::TableId.eq(table_id))
            .order_by_desc(draws::Column::CreatedAt)
            .order_by_desc(draws::Column::DrawId)
            .offset(page.offset)
            .limit(page.fetch())
            .all(&self.db)
            .await?;
        rows.iter().map(|row| decode("draw", &row.record)).collect()
    }

    /// A rubber and the going out its end brought.
    pub async fn rubber(&self, rubber_id: &str) -> Result<Option<(pb::Rubber, Option<pb::GoingOut>)>, ServiceError> {
        let Some(row) = rubbers::Entity::find_by_id(rubber_id.to_owned()).one(&self.db).await? else {
            return Ok(None);
        };
        let going_out = row.going_out.as_deref().map(|bytes| decode("going out", bytes)).transpose()?;
        Ok(Some((decode("rubber", &row.record)?, going_out)))
    }

    /// A table's rubbers, newest first.
    pub async fn rubbers(&self, table_id: &str, page: Page) -> Result<Vec<pb::Rubber>, ServiceError> {
        let rows = rubbers::Entity::find()
            .filter(rubbers::Column::TableId.eq(table_id))
            .order_by_desc(rubbers::Column::Number)
            .offset(page.offset)
            .limit(page.fetch())
            .all(&self.db)
            .await?;
        rows.iter().map(|row| decode("rubber", &row.record)).collect()
    }

    /// An application as it last stood.
    pub async fn application(&self, application_id: &str) -> Result<Option<pb::Application>, ServiceError> {
        let row = applications::Entity::find_by_id(application_id.to_owned()).one(&self.db).await?;
        row.map(|row| decode("application", &row.record)).transpose()
    }

    /// A register entry by the room's number for it.
    pub async fn player_by_number(&self, number: u64) -> Result<Option<players::Model>, ServiceError> {
        Ok(players::Entity::find_by_id(number as i64).one(&self.db).await?)
    }

    /// A register entry by id.
    pub async fn player(&self, player_id: &str) -> Result<Option<players::Model>, ServiceError> {
        Ok(players::Entity::find().filter(players::Column::PlayerId.eq(player_id)).one(&self.db).await?)
    }

    /// Adds a player to the register and, with an idempotency key, stores the answer with it in
    /// the same transaction. A taken id or member number is ALREADY_EXISTS naming the field.
    pub async fn register(
        &self,
        player: players::ActiveModel,
        key: Option<&platform::runtime::Idempotency>,
    ) -> Result<pb::RegisterPlayerResponse, ServiceError> {
        let player_id = player.player_id.clone().take().unwrap_or_default();
        let member_number = player.member_number.clone().take().flatten();
        let unique = |e: DbErr| matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_)));
        let txn = self.db.begin().await?;
        let model = match player.insert(&txn).await {
            Ok(model) => model,
            Err(e) if unique(e.clone()) => {
                let _ = txn.rollback().await;
                return Err(self.taken(&player_id, member_number.as_deref()).await);
            }
            Err(e) => return Err(e.into()),
        };
        let response = pb::RegisterPlayerResponse { player: Some(player_view(&model)) };
        if let Some(key) = key {
            let stored = idempotency::ActiveModel {
                scope: Set(key.scope.clone()),
                key: Set(key.key.clone()),
                request_hash: Set(key.request_hash.clone()),
                response: Set(response.encode_to_vec()),
                created_at: Set(model.registered_at.with_timezone(&chrono::Utc)),
            };
            if let Err(e) = stored.insert(&txn).await {
                let _ = txn.rollback().await;
                return Err(if unique(e.clone()) {
                    ServiceError::Conflict(format!(
                        "idempotency_key: {} is being used by another request; retry",
                        key.key
                    ))
                } else {
                    e.into()
                });
            }
        }
        txn.commit().await?;
        Ok(response)
    }

    async fn taken(&self, player_id: &str, member_number: Option<&str>) -> ServiceError {
        match self.player(player_id).await {
            Ok(Some(_)) => ServiceError::AlreadyExists(format!("player_id: {player_id} is already on the register")),
            _ => ServiceError::AlreadyExists(format!(
                "member_number: {} is already another player's",
                member_number.unwrap_or_default()
            )),
        }
    }

    /// Replaces a register entry if its version is still `expected_version`.
    pub async fn update_player(
        &self,
        player_id: &str,
        expected_version: u64,
        update: players::ActiveModel,
    ) -> Result<players::Model, ServiceError> {
        let member_number = update.member_number.clone().take().flatten();
        let result = players::Entity::update_many()
            .set(update)
            .col_expr(players::Column::Version, Expr::col(players::Column::Version).add(1))
            .filter(players::Column::PlayerId.eq(player_id))
            .filter(players::Column::Version.eq(expected_version as i64))
            .exec(&self.db)
            .await;
        let result = match result {
            Ok(result) => result,
            Err(e) if matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => {
                return Err(ServiceError::AlreadyExists(format!(
                    "member_number: {} is already another player's",
                    member_number.unwrap_or_default()
                )));
            }
            Err(e) => return Err(e.into()),
        };
        let current =
            self.player(player_id).await?.ok_or_else(|| ServiceError::not_found(format!("player {player_id}")))?;
        if result.rows_affected == 0 {
            return Err(ServiceError::Conflict(format!(
                "player {player_id} is at version {}, not {expected_version}: read it again",
                current.version
            )));
        }
        Ok(current)
    }

    /// The register by name, then id.
    pub async fn players(
        &self,
        name_contains: &str,
        include_inactive: bool,
        page: Page,
    ) -> Result<Vec<players::Model>, ServiceError> {
        let mut query = players::Entity::find();
        if !include_inactive {
            query = query.filter(players::Column::Active.eq(true));
        }
        if !name_contains.is_empty() {
            let escaped: String = name_contains
                .to_lowercase()
                .chars()
                .flat_map(|c| if matches!(c, '%' | '_' | '\\') { vec!['\\', c] } else { vec![c] })
                .collect();
            let pattern = LikeExpr::new(format!("%{escaped}%")).escape('\\');
            query = query.filter(Expr::expr(Func::lower(Expr::col(players::Column::Name))).like(pattern));
        }
        Ok(query
            .order_by_asc(players::Column::Name)
            .order_by_asc(players::Column::PlayerId)
            .offset(page.offset)
            .limit(page.fetch())
            .all(&self.db)
            .await?)
    }
}

/// The contract's view of a register entry.
pub fn player_view(model: &players::Model) -> pb::Player {
    pb::Player {
        player_id: model.player_id.clone(),
        name: model.name.clone(),
        member_number: model.member_number.clone().unwrap_or_default(),
        contact: Some(pb::Contact { email: model.email.clone(), phone: model.phone.clone() }),
        active: model.active,
        registered_at: Some(crate::state::timestamp(millis(&model.registered_at))),
        version: model.version as u64,
    }
}
