//! Ended sessions, refused by every service without asking the database on each call.
//!
//! A token handed out by signing in carries its session (`sid`). When a session ends before its
//! access tokens expire (the desk revokes a member, the administrator changes an account, a spent
//! refresh token comes back), the issuer writes the session to `auth_revoked_sessions`
//! ([`revoke`]) in the transaction that ends it, and notes it in its own process at once
//! ([`Revocations::note`]). Every process keeps the set of ended sessions in memory, where the auth
//! layer looks each token's session up, and re-reads the table every `auth.revocation_poll_ms`
//! ([`Revocations::follow`]): one small indexed query a second per process, never one per call.
//!
//! The bound: a revoked access token is refused by the process that revoked it at once, and by
//! every other process within one poll interval (1 s by default) plus the query's time, as long as
//! the database is reachable. While it is away the set stays as last read (revocations made
//! meanwhile cannot have committed either). A row is needed only until the last access token of
//! its session expires (`refuse_until_ms`); older rows are neither read nor kept.

use std::collections::HashMap;
use std::sync::{Arc, RwLock, Weak};
use std::time::Duration;

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};

use crate::db::Db;
use crate::store::revoked_sessions;

/// The ended sessions this process knows of, each with the time (ms since the epoch) until which
/// its tokens must be refused. Clones share the set.
#[derive(Debug, Clone, Default)]
pub struct Revocations {
    ended: Arc<RwLock<HashMap<Arc<str>, i64>>>,
}

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

impl Revocations {
    /// Whether `session` has ended.
    pub fn contains(&self, session: &str) -> bool {
        let ended = self.ended.read().unwrap_or_else(|e| e.into_inner());
        ended.get(session).is_some_and(|until| now_ms() < *until)
    }

    /// Notes that `session` has ended, its tokens to be refused until `refuse_until_ms`: the
    /// process that ended it refuses them at once, before its next read of the table.
    pub fn note(&self, session: &str, refuse_until_ms: i64) {
        let mut ended = self.ended.write().unwrap_or_else(|e| e.into_inner());
        ended.insert(Arc::from(session), refuse_until_ms);
    }

    /// Reads the ended sessions whose tokens may still be valid, adding them to the set, and forgets
    /// those whose tokens have all expired. Adds, never replaces: a session noted while the query
    /// ran is kept.
    pub async fn reload(&self, db: &impl ConnectionTrait) -> Result<(), sea_orm::DbErr> {
        let now = now_ms();
        let rows =
            revoked_sessions::Entity::find().filter(revoked_sessions::Column::RefuseUntilMs.gt(now)).all(db).await?;
        let mut ended = self.ended.write().unwrap_or_else(|e| e.into_inner());
        ended.retain(|_, until| *until > now);
        for row in rows {
            ended.insert(Arc::from(row.session_id), row.refuse_until_ms);
        }
        Ok(())
    }

    /// Follows the table: reads it now and every `every`, for as long as any clone of this set is
    /// alive (the server's auth layer holds one).
    pub fn follow(&self, db: Db, every: Duration) -> tokio::task::JoinHandle<()> {
        let weak: Weak<RwLock<HashMap<Arc<str>, i64>>> = Arc::downgrade(&self.ended);
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(every);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                ticks.tick().await;
                let Some(ended) = weak.upgrade() else { return };
                if let Err(error) = (Revocations { ended }).reload(&db).await {
                    // The set stays as last read; the breaker and health report the outage.
                    tracing::debug!(%error, "ended sessions not re-read");
                }
            }
        })
    }
}

/// Records in `db` (the transaction that ends the session) that `session` has ended, its tokens
/// to be refused until `refuse_until_ms`, and forgets rows no token can need any more.
pub async fn revoke(db: &impl ConnectionTrait, session: &str, refuse_until_ms: i64) -> Result<(), sea_orm::DbErr> {
    let now = now_ms();
    revoked_sessions::Entity::insert(revoked_sessions::ActiveModel {
        session_id: Set(session.to_owned()),
        refuse_until_ms: Set(refuse_until_ms),
        revoked_at_ms: Set(now),
    })
    .on_conflict_do_nothing()
    .exec(db)
    .await?;
    revoked_sessions::Entity::delete_many().filter(revoked_sessions::Column::RefuseUntilMs.lt(now)).exec(db).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_noted_session_is_ended_until_its_tokens_would_have_expired() {
        let revocations = Revocations::default();
        assert!(!revocations.contains("s"));
        revocations.note("s", now_ms() + 60_000);
        assert!(revocations.clone().contains("s"), "clones share the set");
        revocations.note("old", now_ms() - 1);
        assert!(!revocations.contains("old"), "its tokens have expired anyway");
    }
}
