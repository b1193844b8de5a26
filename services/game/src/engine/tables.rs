//! The game's tables as the command runtime runs them ([`platform::runtime::Aggregate`]): a
//! table's state is its version, its last event and its current (or last) deal, replayed from the
//! commands the journal holds; its live copy in Redis is those commands ([`LiveTable`]).
//!
//! Each process keeps the replayed deals it has seen, so that reading a table replays nothing
//! unless another process moved it on.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use prost::Message;
use sea_orm::DatabaseTransaction;

use platform::ServiceError;
use platform::bulk::Rows;
use platform::db::Db;
use platform::runtime::{Aggregate, WriteError};

use super::{LiveTables, Loaded, LoadedDeal, channel, replay, table_key};
use crate::store::{self, Commit};
use crate::stored::{LiveTable, StoredAction};

/// How many replayed deals a process keeps before it starts again from none.
const CACHE_LIMIT: usize = 4096;

/// The game's tables (see the module docs).
#[derive(Debug, Default)]
pub struct Tables {
    /// Replayed deals by id.
    cache: Mutex<HashMap<String, Arc<LoadedDeal>>>,
    /// The tables with a deal in progress, as this process last saw them.
    pub live_tables: LiveTables,
}

impl Tables {
    fn cached(&self, deal_id: &str, steps: usize) -> Option<Arc<LoadedDeal>> {
        let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.get(deal_id).filter(|d| d.actions.len() == steps).cloned()
    }

    fn remember(&self, deal: &Arc<LoadedDeal>) {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= CACHE_LIMIT && !cache.contains_key(&deal.deal_id) {
            cache.clear();
        }
        cache.insert(deal.deal_id.clone(), deal.clone());
    }

    /// A deal from its commands, replayed unless this process already has that state.
    pub fn deal_from(&self, deal_id: &str, actions: Vec<StoredAction>) -> Result<Arc<LoadedDeal>, ServiceError> {
        if let Some(deal) = self.cached(deal_id, actions.len())
            && deal.actions.iter().zip(&actions).all(|(known, given)| **known == *given)
        {
            return Ok(deal);
        }
        let deal = Arc::new(replay(deal_id, actions)?);
        self.remember(&deal);
        Ok(deal)
    }
}

impl Aggregate for Tables {
    type State = Loaded;
    type Write = Commit;
    const NAME: &'static str = "table";

    fn version(state: &Loaded) -> u64 {
        state.version
    }

    fn live_key(&self, id: &str) -> String {
        table_key(id)
    }

    fn channel(&self, id: &str) -> String {
        channel(id)
    }

    fn to_live(&self, state: &Loaded) -> Bytes {
        Bytes::from(state.live().encode_to_vec())
    }

    /// A live copy that says another version than the one it is stored at was half written: it
    /// is not used, and the table is rebuilt from the journal.
    fn state_of_live(&self, id: &str, version: u64, live: &[u8]) -> Result<Option<Loaded>, ServiceError> {
        let live =
            LiveTable::decode(live).map_err(|e| ServiceError::internal(format!("live state of table {id}: {e}")))?;
        if live.version != version {
            return Ok(None);
        }
        let deal = if live.deal_id.is_empty() { None } else { Some(self.deal_from(&live.deal_id, live.actions)?) };
        Ok(Some(Loaded { table_id: id.to_owned(), version: live.version, last_sequence: live.last_sequence, deal }))
    }

    /// The journal's last deal, replayed (or taken from the deals this process has replayed).
    async fn read_journal(&self, db: &Db, id: &str, _known: Option<Loaded>) -> Result<Loaded, ServiceError> {
        let Some(tail) = store::tail(db, id).await? else {
            return Ok(Loaded { table_id: id.to_owned(), version: 0, last_sequence: 0, deal: None });
        };
        let (actions, _) = store::deal_actions(db, id, &tail.deal_id).await?;
        Ok(Loaded {
            table_id: id.to_owned(),
            version: tail.version,
            last_sequence: tail.sequence,
            deal: Some(self.deal_from(&tail.deal_id, actions)?),
        })
    }

    async fn journal_version(&self, db: &Db, id: &str) -> Result<u64, ServiceError> {
        Ok(store::tail(db, id).await?.map_or(0, |tail| tail.version))
    }

    fn write<'a>(
        &'a self,
        txn: &'a DatabaseTransaction,
        writes: Vec<&'a Commit>,
    ) -> impl Future<Output = Result<(), WriteError>> + Send + 'a {
        store::write(txn, writes)
    }

    fn one_statement(&self, write: &Commit) -> bool {
        write.one_statement()
    }

    fn rows(&self, writes: &[&Commit]) -> Vec<Rows> {
        store::rows(writes, store::now())
    }

    fn seen(&self, table: &Loaded) {
        if let Some(deal) = &table.deal {
            self.remember(deal);
        }
        self.live_tables.seen(table);
    }
}
