//! `WatchAppeals`: notices in order, without gaps or repeats, resumable by sequence number.
//!
//! A watcher subscribes to the live channel first, then reads from the database every notice
//! after the sequence it resumes from, then forwards live notices, skipping those it has already
//! sent. Notices commit in sequence order (see [`crate::book`]) and are published after
//! they commit, so when a live notice skips a number (one published late, or lost), or the
//! channel reports that the watcher lagged, it reads the database again from the last number it
//! saw; it also rereads every few seconds, so that a notice whose publication was lost is
//! delivered even if no other notice follows it. A player's stream carries only notices about
//! deals they played, so its sequence numbers skip the others.
//!
//! When the live store drops the subscription the watcher subscribes again and rereads the
//! database; if it cannot, the stream ends UNAVAILABLE, naming the sequence to resume after. A
//! quiet stream carries heartbeats. All of this is the platform's one watch loop
//! ([`platform::watch::stream`]); this module says where notices are and who sees which.

use std::sync::Arc;

use async_trait::async_trait;
use prost::Message;
use tokio_stream::wrappers::ReceiverStream;

use api::appeals::v1 as pb;
use platform::ServiceError;
use platform::auth::Principal;
use platform::watch::{LiveFeed, RecordPage, Seen, WatchSource, heartbeat};

use crate::service::{Appeals, sees_everything};
use crate::store::{self, LiveNotice};

/// What the gRPC layer streams.
pub type NoticeStream = ReceiverStream<Result<pb::WatchAppealsResponse, tonic::Status>>;

/// Notices read from the database per query.
const BATCH: u64 = 500;

/// Starts a watch for `principal` after `after_sequence` (or from now).
pub async fn watch(
    appeals: Arc<Appeals>,
    principal: Principal,
    after_sequence: Option<u64>,
) -> Result<NoticeStream, ServiceError> {
    let feed = LiveFeed::subscribe(appeals.live.clone(), store::CHANNEL, appeals.heartbeat).await?;
    let start = match after_sequence {
        Some(after) => after,
        None => store::last_sequence(&appeals.db).await?,
    };
    let player = (!sees_everything(&principal)).then(|| principal.subject.clone());
    Ok(platform::watch::stream::spawn(Notices { appeals, player }, feed, Vec::new(), start))
}

/// The notices, as one principal sees them.
struct Notices {
    appeals: Arc<Appeals>,
    /// The player whose notices these are; `None` for staff and the committee, who see all.
    player: Option<String>,
}

fn response(event: pb::AppealEvent) -> pb::WatchAppealsResponse {
    pb::WatchAppealsResponse { event: Some(event), heartbeat: None }
}

#[async_trait]
impl WatchSource for Notices {
    type Item = pb::WatchAppealsResponse;

    async fn record_after(&mut self, after: u64) -> Result<RecordPage<Self::Item>, ServiceError> {
        let batch = store::events_after(&self.appeals.db, after, BATCH, self.player.as_deref()).await?;
        let seen = batch.into_iter().map(|(event, visible)| (event.sequence, visible.then(|| response(event))));
        Ok(RecordPage::limited(seen.collect(), BATCH))
    }

    fn published(&mut self, payload: &[u8]) -> Option<Vec<Seen<Self::Item>>> {
        let LiveNotice { event: Some(event), audience } = LiveNotice::decode(payload).ok()? else {
            return None;
        };
        let visible = self.player.as_ref().is_none_or(|player| audience.contains(player));
        Some(vec![(event.sequence, visible.then(|| response(event)))])
    }

    fn heartbeat(&self, last: u64) -> Self::Item {
        pb::WatchAppealsResponse { event: None, heartbeat: Some(heartbeat(last)) }
    }
}
