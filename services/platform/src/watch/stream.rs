//! The one watch loop every service's streams run (`WatchTable` of membership and game,
//! `WatchRoom`, `WatchScorepad`, `WatchSession`, `WatchAppeals`).
//!
//! A service says what its stream is ([`WatchSource`]): how to read its record after a sequence
//! number, how to find its events in what the live store publishes, what a heartbeat looks like,
//! and which event ends it. [`spawn`] does the rest, the same way for all:
//!
//! 1. The watcher has subscribed ([`LiveFeed`]) before the record was read for its first items,
//!    so nothing committed after that read can fall between the record and the feed.
//! 2. It reads the record after the last sequence it reflects, a page at a time.
//! 3. It forwards live events in sequence order. An event it has seen is skipped; an event past
//!    the next number means some were not published, or not yet received, and the record (where
//!    they were committed before being published) is read again. So is an unreadable message, a
//!    subscription that fell behind or was lost and made again, and, every few seconds, a
//!    record the source says may be ahead ([`WatchSource::behind`]): a publish lost while the
//!    live store was away is found within [`RESYNC`].
//! 4. An event the watcher may not see is counted as seen and not sent, so a client resumes
//!    after it without being shown it.
//! 5. A quiet stream sends a heartbeat naming the sequence to resume after; a live feed that
//!    cannot be made again ends the stream UNAVAILABLE naming the same ([`resume_status`]).

use std::time::Duration;

use async_trait::async_trait;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::Status;

use super::{LiveFeed, Next, resume_status};
use crate::ServiceError;

/// How often a watcher asks whether the record is ahead of what was published.
pub const RESYNC: Duration = Duration::from_secs(5);

/// How many items a watcher may hold for a slow client before it waits for it.
const BUFFER: usize = 64;

/// An event as one watcher receives it: its sequence number in the stream, and what is sent
/// (`None` when this watcher may not see it).
pub type Seen<T> = (u64, Option<T>);

/// A page of the record: events in sequence order, and whether more may follow.
#[derive(Debug)]
pub struct RecordPage<T> {
    /// The events, in sequence order.
    pub events: Vec<Seen<T>>,
    /// Whether the page was full, so the record may hold more after its last event.
    pub more: bool,
}

impl<T> RecordPage<T> {
    /// The last page: everything the record holds after the sequence asked for.
    pub fn all(events: Vec<Seen<T>>) -> RecordPage<T> {
        RecordPage { events, more: false }
    }

    /// A page read with a `limit`: full pages may be followed by more.
    pub fn limited(events: Vec<Seen<T>>, limit: u64) -> RecordPage<T> {
        let more = events.len() as u64 >= limit;
        RecordPage { events, more }
    }
}

/// What one watch stream is: its record, its events in the live feed, its heartbeat and its end
/// (see the module docs).
#[async_trait]
pub trait WatchSource: Send + 'static {
    /// What the client receives.
    type Item: Send + 'static;

    /// The record's events after `after`, in order: a page, or all of them.
    async fn record_after(&mut self, after: u64) -> Result<RecordPage<Self::Item>, ServiceError>;

    /// This stream's events in one message published on its channel, in order; `None` if the
    /// message cannot be read, and the record is read instead.
    fn published(&mut self, payload: &[u8]) -> Option<Vec<Seen<Self::Item>>>;

    /// The heartbeat of a quiet stream, naming the sequence to resume after.
    fn heartbeat(&self, last: u64) -> Self::Item;

    /// Whether `item` is the stream's last (a table that closed).
    fn ends(&self, _item: &Self::Item) -> bool {
        false
    }

    /// Whether the record may hold events after `last` that were never published; asked every
    /// [`RESYNC`]. Reading the record is the safe answer, and the
    /// default; a source with a cheaper way to tell (a published head) says so here.
    async fn behind(&mut self, _last: u64) -> bool {
        true
    }
}

/// Starts a watcher: sends `first` (a snapshot, or nothing when resuming), which reflects the
/// stream up to `last`, then everything after it (see the module docs). `feed` must have been
/// subscribed before `first` was read. The stream ends when the client goes away, when an event
/// ends it, or with the status that stopped it.
pub fn spawn<S: WatchSource>(
    source: S,
    feed: LiveFeed,
    first: Vec<S::Item>,
    last: u64,
) -> ReceiverStream<Result<S::Item, Status>> {
    spawn_resyncing(source, feed, first, last, RESYNC)
}

/// [`spawn`], asking [`WatchSource::behind`] every `resync`.
pub fn spawn_resyncing<S: WatchSource>(
    source: S,
    feed: LiveFeed,
    first: Vec<S::Item>,
    last: u64,
    resync: Duration,
) -> ReceiverStream<Result<S::Item, Status>> {
    let (sender, receiver) = mpsc::channel(BUFFER);
    let open = OpenStream::new();
    tokio::spawn(async move {
        let _open = open;
        let mut watcher = Watcher { source, feed, sender, last };
        if let Err(Stop::Failed(status)) = watcher.run(first, resync).await {
            let _ = watcher.sender.send(Err(status)).await;
        }
    });
    ReceiverStream::new(receiver)
}

/// Watch streams open in this process, as the gauge `rpc.server.open_streams`: each one holds a
/// task and a live subscription, so a climb that does not come down is a leak, and the number
/// tells how many phones and screens are following the club.
static OPEN_STREAMS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The watch streams open in this process now.
pub fn open_streams() -> u64 {
    OPEN_STREAMS.load(std::sync::atomic::Ordering::Relaxed)
}

/// Counts one open stream from its start until its watcher ends, however it ends (the client
/// went away, the stream failed, the task was cancelled).
struct OpenStream(&'static std::sync::atomic::AtomicU64);

impl OpenStream {
    fn new() -> OpenStream {
        static GAUGE: std::sync::Once = std::sync::Once::new();
        GAUGE.call_once(|| {
            crate::telemetry::observe_gauge("rpc.server.open_streams", "watch streams open in this process", || {
                Some(open_streams())
            })
        });
        OpenStream::on(&OPEN_STREAMS)
    }

    fn on(counter: &'static std::sync::atomic::AtomicU64) -> OpenStream {
        counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        OpenStream(counter)
    }
}

impl Drop for OpenStream {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Why a watcher stopped.
enum Stop {
    /// The client went away, or the stream's last event was sent.
    Done,
    /// The stream ends with this status.
    Failed(Status),
}

impl From<ServiceError> for Stop {
    fn from(error: ServiceError) -> Self {
        Stop::Failed(error.into())
    }
}

struct Watcher<S: WatchSource> {
    source: S,
    feed: LiveFeed,
    sender: mpsc::Sender<Result<S::Item, Status>>,
    /// The last sequence seen, sent or withheld.
    last: u64,
}

impl<S: WatchSource> Watcher<S> {
    async fn run(&mut self, first: Vec<S::Item>, resync: Duration) -> Result<(), Stop> {
        for item in first {
            self.send(item).await?;
        }
        self.catch_up().await?;
        let mut resync = tokio::time::interval(resync);
        resync.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        resync.tick().await;
        loop {
            tokio::select! {
                () = self.sender.closed() => return Err(Stop::Done),
                next = self.feed.next() => match next {
                    // The live feed was lost and could not be made again.
                    Err(error) => return Err(Stop::Failed(resume_status(&error, self.last))),
                    Ok(Next::Heartbeat) => {
                        let beat = self.source.heartbeat(self.last);
                        self.sender.send(Ok(beat)).await.map_err(|_| Stop::Done)?;
                    }
                    Ok(Next::CatchUp) => self.catch_up().await?,
                    Ok(Next::Message(payload)) => match self.source.published(&payload) {
                        Some(events) => self.forward(events).await?,
                        None => {
                            tracing::warn!("unreadable live message; reading the record");
                            self.catch_up().await?;
                        }
                    },
                },
                _ = resync.tick() => {
                    if self.source.behind(self.last).await {
                        self.catch_up().await?;
                    }
                }
            }
        }
    }

    /// Forwards live events in order, reading the record first when one skips ahead.
    async fn forward(&mut self, events: Vec<Seen<S::Item>>) -> Result<(), Stop> {
        for (sequence, item) in events {
            if sequence <= self.last {
                continue;
            }
            if sequence > self.last + 1 {
                // A gap: the record has what the live feed skipped, this event included.
                self.catch_up().await?;
                if sequence <= self.last {
                    continue;
                }
            }
            self.deliver(sequence, item).await?;
        }
        Ok(())
    }

    /// Sends what the record holds after the last sequence seen.
    async fn catch_up(&mut self) -> Result<(), Stop> {
        loop {
            let page = self.source.record_after(self.last).await?;
            let mut moved = false;
            for (sequence, item) in page.events {
                if sequence > self.last {
                    moved = true;
                    self.deliver(sequence, item).await?;
                }
            }
            // A full page that moved nothing would be read again for ever.
            if !page.more || !moved {
                return Ok(());
            }
        }
    }

    async fn deliver(&mut self, sequence: u64, item: Option<S::Item>) -> Result<(), Stop> {
        self.last = sequence;
        match item {
            Some(item) => self.send(item).await,
            None => Ok(()),
        }
    }

    async fn send(&mut self, item: S::Item) -> Result<(), Stop> {
        let ends = self.source.ends(&item);
        self.sender.send(Ok(item)).await.map_err(|_| Stop::Done)?;
        self.feed.sent();
        if ends { Err(Stop::Done) } else { Ok(()) }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use bytes::Bytes;
    use futures::StreamExt;

    use super::*;
    use crate::live::{MemoryStore, SharedLiveStore};

    const CHANNEL: &str = "events:{t}";

    /// A stream whose record is a shared list of (sequence, text, visible) and whose published
    /// messages are comma-separated sequence numbers ("x" is unreadable); text "end" ends it.
    #[derive(Clone, Default)]
    struct Source {
        record: Arc<Mutex<Vec<(u64, String, bool)>>>,
        reads: Arc<Mutex<u32>>,
    }

    impl Source {
        fn commit(&self, sequence: u64, text: &str, visible: bool) {
            self.record.lock().unwrap().push((sequence, text.to_owned(), visible));
        }

        fn item(&self, sequence: u64) -> Seen<String> {
            let record = self.record.lock().unwrap();
            let (_, text, visible) = record.iter().find(|(s, ..)| *s == sequence).expect("committed first");
            (sequence, visible.then(|| text.clone()))
        }
    }

    #[async_trait]
    impl WatchSource for Source {
        type Item = String;

        async fn record_after(&mut self, after: u64) -> Result<RecordPage<String>, ServiceError> {
            *self.reads.lock().unwrap() += 1;
            let record = self.record.lock().unwrap();
            let events: Vec<_> = record
                .iter()
                .filter(|(s, ..)| *s > after)
                .take(2)
                .map(|(s, text, visible)| (*s, visible.then(|| text.clone())))
                .collect();
            Ok(RecordPage::limited(events, 2))
        }

        fn published(&mut self, payload: &[u8]) -> Option<Vec<Seen<String>>> {
            let text = std::str::from_utf8(payload).ok()?;
            text.split(',').map(|s| s.parse().ok().map(|s| self.item(s))).collect()
        }

        fn heartbeat(&self, last: u64) -> String {
            format!("beat {last}")
        }

        fn ends(&self, item: &String) -> bool {
            item == "end"
        }

        async fn behind(&mut self, last: u64) -> bool {
            self.record.lock().unwrap().last().is_some_and(|(s, ..)| *s > last)
        }
    }

    async fn started(source: &Source, last: u64) -> (SharedLiveStore, ReceiverStream<Result<String, Status>>) {
        let live: SharedLiveStore = Arc::new(MemoryStore::new());
        let feed = LiveFeed::subscribe(live.clone(), CHANNEL, Duration::from_secs(3600)).await.unwrap();
        let stream = spawn(source.clone(), feed, vec!["snapshot".to_owned()], last);
        (live, stream)
    }

    async fn next(stream: &mut ReceiverStream<Result<String, Status>>) -> String {
        stream.next().await.expect("the stream goes on").expect("no error")
    }

    #[tokio::test]
    async fn the_record_then_live_events_in_order_without_repeats_or_withheld_ones() {
        let source = Source::default();
        for (s, text, visible) in [(1, "a", true), (2, "b", true), (3, "hidden", false), (4, "c", true)] {
            source.commit(s, text, visible);
        }
        let (live, mut stream) = started(&source, 1).await;
        assert_eq!(next(&mut stream).await, "snapshot");
        // Pages of two are read until the record is exhausted; 3 is withheld.
        assert_eq!(next(&mut stream).await, "b");
        assert_eq!(next(&mut stream).await, "c");
        // 4 again (published after the read) is skipped; 5 is next.
        source.commit(5, "d", true);
        live.publish(CHANNEL, Bytes::from_static(b"4,5")).await.unwrap();
        assert_eq!(next(&mut stream).await, "d");
    }

    #[tokio::test]
    async fn a_gap_or_an_unreadable_message_reads_the_record() {
        let source = Source::default();
        let (live, mut stream) = started(&source, 0).await;
        assert_eq!(next(&mut stream).await, "snapshot");
        // 1 and 2 were committed but only 3 was published.
        for (s, text) in [(1, "a"), (2, "b"), (3, "c")] {
            source.commit(s, text, true);
        }
        live.publish(CHANNEL, Bytes::from_static(b"3")).await.unwrap();
        assert_eq!([next(&mut stream).await, next(&mut stream).await, next(&mut stream).await], ["a", "b", "c"]);
        source.commit(4, "d", true);
        live.publish(CHANNEL, Bytes::from_static(b"x")).await.unwrap();
        assert_eq!(next(&mut stream).await, "d");
    }

    #[tokio::test(start_paused = true)]
    async fn a_lost_publish_is_found_while_the_stream_is_quiet() {
        let source = Source::default();
        let (_live, mut stream) = started(&source, 0).await;
        assert_eq!(next(&mut stream).await, "snapshot");
        // The watcher has read the (empty) record once.
        while *source.reads.lock().unwrap() == 0 {
            tokio::task::yield_now().await;
        }
        // Committed while the live store was away: nothing was published.
        source.commit(1, "a", true);
        assert_eq!(next(&mut stream).await, "a");
        assert!(*source.reads.lock().unwrap() >= 2, "found by reading the record again");
    }

    #[tokio::test]
    async fn an_ending_event_ends_the_stream() {
        let source = Source::default();
        source.commit(1, "end", true);
        source.commit(2, "after", true);
        let (_live, mut stream) = started(&source, 0).await;
        assert_eq!(next(&mut stream).await, "snapshot");
        assert_eq!(next(&mut stream).await, "end");
        assert!(stream.next().await.is_none(), "nothing after the last event");
    }

    #[tokio::test(start_paused = true)]
    async fn a_quiet_stream_beats_naming_the_last_sequence_seen_even_withheld() {
        let source = Source::default();
        source.commit(1, "a", true);
        source.commit(2, "hidden", false);
        let live: SharedLiveStore = Arc::new(MemoryStore::new());
        let feed = LiveFeed::subscribe(live.clone(), CHANNEL, Duration::from_secs(1)).await.unwrap();
        let mut stream = spawn_resyncing(source.clone(), feed, Vec::new(), 0, Duration::from_secs(3600));
        assert_eq!(next(&mut stream).await, "a");
        assert_eq!(next(&mut stream).await, "beat 2");
    }
}

#[cfg(test)]
mod open_stream_tests {
    use std::sync::atomic::{AtomicU64, Ordering};

    use super::OpenStream;

    #[tokio::test]
    async fn a_stream_is_counted_while_its_watcher_runs_however_the_watcher_ends() {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let finished = OpenStream::on(&COUNTER);
        let cancelled = OpenStream::on(&COUNTER);
        assert_eq!(COUNTER.load(Ordering::Relaxed), 2);
        tokio::spawn(async move { drop(finished) }).await.unwrap();
        assert_eq!(COUNTER.load(Ordering::Relaxed), 1);
        let task = tokio::spawn(async move {
            let _held = cancelled;
            std::future::pending::<()>().await;
        });
        task.abort();
        assert!(task.await.unwrap_err().is_cancelled());
        assert_eq!(COUNTER.load(Ordering::Relaxed), 0, "a cancelled watcher is no longer counted");
    }
}
