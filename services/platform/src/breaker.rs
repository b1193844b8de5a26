//! A circuit breaker, the one way every dependency (the database, Redis) fails fast.
//!
//! Without it, while a dependency is away every call waits for its own timeout, the waits pile
//! up behind one another, and a client sees seconds where it should see UNAVAILABLE at once.
//! With it, the first failure opens the breaker: for a cool-down every call is refused at once
//! ([`Open`]), without touching the dependency. When the cool-down is over one call is let
//! through as a probe (half-open); if it succeeds the breaker closes and calls flow again, if it
//! fails another cool-down starts. So the breaker recovers by itself, and never more than one
//! call at a time waits on a dependency that has just failed.
//!
//! Only failures that say the dependency is away count (a refused connection, a timeout); a
//! dependency that answers with an error is up, and that call counts as a success. The caller
//! decides which is which when it settles its [`Permit`].

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;

/// A circuit breaker (see the module docs). Clones share their state.
#[derive(Clone)]
pub struct Breaker {
    inner: Arc<Inner>,
}

struct Inner {
    name: &'static str,
    cool_down: Duration,
    state: Mutex<State>,
    /// True while closed: what health reporting follows.
    closed: watch::Sender<bool>,
    opened: opentelemetry::metrics::Counter<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Calls go through.
    Closed,
    /// Calls are refused until `until`; the first call after it is the probe.
    Open { until: Instant },
    /// One probe is out; other calls are refused until it settles.
    Probing,
}

/// A call refused because the breaker is open: the dependency failed moments ago.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{name} unavailable: it failed moments ago; failing fast for up to {} ms", retry_after.as_millis())]
pub struct Open {
    /// The dependency.
    pub name: &'static str,
    /// How long until the next probe may be made (zero while a probe is out).
    pub retry_after: Duration,
}

/// Leave to make one call. Settle it with [`Permit::succeeded`] or [`Permit::failed`]; a permit
/// dropped unsettled (its call was cancelled) leaves the breaker as it was, except that an
/// unsettled probe lets the next call probe instead.
#[derive(Debug)]
#[must_use = "settle the permit with the call's outcome"]
pub struct Permit {
    breaker: Breaker,
    probe: bool,
    settled: bool,
}

impl std::fmt::Debug for Breaker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Breaker")
            .field("name", &self.inner.name)
            .field("cool_down", &self.inner.cool_down)
            .field("state", &*self.state())
            .finish()
    }
}

impl Breaker {
    /// A closed breaker for the dependency `name`, open for `cool_down` after each failure.
    pub fn new(name: &'static str, cool_down: Duration) -> Breaker {
        let opened = opentelemetry::global::meter("bridge-club")
            .u64_counter("dependency.breaker.opened")
            .with_description("Times a dependency failed and calls to it were refused for a cool-down")
            .build();
        let breaker = Breaker {
            inner: Arc::new(Inner {
                name,
                cool_down,
                state: Mutex::new(State::Closed),
                closed: watch::Sender::new(true),
                opened,
            }),
        };
        breaker.report_on(&opentelemetry::global::meter("bridge-club"));
        breaker
    }

    /// Reports the breaker as the gauge `dependency.breaker.open` (1 while calls to the dependency
    /// are refused or one probe is out, 0 while they flow), labelled with the dependency, on
    /// `meter`, for as long as the breaker lives: what an operator alerts on when the database or
    /// Redis goes away.
    pub fn report_on(&self, meter: &opentelemetry::metrics::Meter) {
        let weak = Arc::downgrade(&self.inner);
        crate::telemetry::observe_gauge_on(
            meter,
            "dependency.breaker.open",
            "1 while calls to the dependency fail fast after a failure, 0 while they flow",
            vec![opentelemetry::KeyValue::new("dependency", self.inner.name)],
            move || {
                let inner = weak.upgrade()?;
                let state = *inner.state.lock().unwrap_or_else(|e| e.into_inner());
                Some(u64::from(state != State::Closed))
            },
        );
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.inner.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The dependency's name.
    pub fn name(&self) -> &'static str {
        self.inner.name
    }

    /// Leave to make a call, or [`Open`] while the dependency is known to be away.
    pub fn admit(&self) -> Result<Permit, Open> {
        let mut state = self.state();
        match *state {
            State::Closed => Ok(Permit { breaker: self.clone(), probe: false, settled: false }),
            State::Open { until } => {
                let now = Instant::now();
                if now < until {
                    return Err(Open { name: self.inner.name, retry_after: until - now });
                }
                *state = State::Probing;
                Ok(Permit { breaker: self.clone(), probe: true, settled: false })
            }
            State::Probing => Err(Open { name: self.inner.name, retry_after: Duration::ZERO }),
        }
    }

    /// Whether calls go through (no failure since the last success).
    pub fn is_closed(&self) -> bool {
        *self.state() == State::Closed
    }

    /// Follows [`Breaker::is_closed`]: the value changes as the breaker opens and closes.
    pub fn subscribe(&self) -> watch::Receiver<bool> {
        self.inner.closed.subscribe()
    }

    fn settle(&self, probe: bool, failed: bool) {
        let mut state = self.state();
        let before = *state;
        match (before, probe, failed) {
            // A probe decides; any other call only opens a closed breaker (a late answer to a call
            // made before the failure says nothing about now).
            (_, true, false) => *state = State::Closed,
            (_, true, true) | (State::Closed, false, true) => {
                *state = State::Open { until: Instant::now() + self.inner.cool_down };
            }
            _ => {}
        }
        let after = *state;
        drop(state);
        match (before, after) {
            (State::Closed, State::Open { .. }) => {
                self.inner.opened.add(1, &[opentelemetry::KeyValue::new("dependency", self.inner.name)]);
                tracing::warn!(
                    dependency = self.inner.name,
                    cool_down = ?self.inner.cool_down,
                    "dependency failed; calls to it fail fast until a probe succeeds"
                );
            }
            (State::Probing, State::Closed) => tracing::info!(dependency = self.inner.name, "dependency is back"),
            _ => {}
        }
        let closed = after == State::Closed;
        self.inner.closed.send_if_modified(|current| std::mem::replace(current, closed) != closed);
    }
}

impl Permit {
    /// The call succeeded, or the dependency answered (even with an error of its own).
    pub fn succeeded(mut self) {
        self.settled = true;
        self.breaker.settle(self.probe, false);
    }

    /// The dependency could not be reached, or did not answer in time.
    pub fn failed(mut self) {
        self.settled = true;
        self.breaker.settle(self.probe, true);
    }

    /// Settles the permit with `failed`'s verdict.
    pub fn settle(self, failed: bool) {
        if failed { self.failed() } else { self.succeeded() }
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        if self.probe && !self.settled {
            // The probe was cancelled before it learnt anything: the next call probes instead.
            let mut state = self.breaker.state();
            if *state == State::Probing {
                *state = State::Open { until: Instant::now() };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COOL_DOWN: Duration = Duration::from_millis(500);

    #[tokio::test(start_paused = true)]
    async fn a_failure_refuses_calls_at_once_for_the_cool_down() {
        let breaker = Breaker::new("test", COOL_DOWN);
        breaker.admit().unwrap().succeeded();
        assert!(breaker.is_closed());
        breaker.admit().unwrap().failed();
        let refused = breaker.admit().unwrap_err();
        assert_eq!(refused.name, "test");
        assert_eq!(refused.retry_after, COOL_DOWN);
        tokio::time::advance(COOL_DOWN / 2).await;
        assert_eq!(breaker.admit().unwrap_err().retry_after, COOL_DOWN / 2);
    }

    #[tokio::test(start_paused = true)]
    async fn after_the_cool_down_one_probe_goes_through_and_its_success_closes() {
        let breaker = Breaker::new("test", COOL_DOWN);
        breaker.admit().unwrap().failed();
        tokio::time::advance(COOL_DOWN).await;
        let probe = breaker.admit().unwrap();
        // Only one call waits on a dependency that just failed.
        assert_eq!(breaker.admit().unwrap_err().retry_after, Duration::ZERO);
        assert!(!breaker.is_closed());
        probe.succeeded();
        assert!(breaker.is_closed());
        breaker.admit().unwrap().succeeded();
    }

    #[tokio::test(start_paused = true)]
    async fn a_failed_probe_starts_another_cool_down() {
        let breaker = Breaker::new("test", COOL_DOWN);
        breaker.admit().unwrap().failed();
        tokio::time::advance(COOL_DOWN).await;
        breaker.admit().unwrap().failed();
        assert_eq!(breaker.admit().unwrap_err().retry_after, COOL_DOWN);
    }

    #[tokio::test(start_paused = true)]
    async fn a_cancelled_probe_lets_the_next_call_probe() {
        let breaker = Breaker::new("test", COOL_DOWN);
        breaker.admit().unwrap().failed();
        tokio::time::advance(COOL_DOWN).await;
        drop(breaker.admit().unwrap());
        breaker.admit().unwrap().succeeded();
        assert!(breaker.is_closed());
    }

    #[tokio::test(start_paused = true)]
    async fn late_answers_to_calls_made_before_the_failure_do_not_decide() {
        let breaker = Breaker::new("test", COOL_DOWN);
        let (early, late) = (breaker.admit().unwrap(), breaker.admit().unwrap());
        breaker.admit().unwrap().failed();
        early.succeeded();
        assert!(!breaker.is_closed(), "a success from before the failure does not close it");
        tokio::time::advance(COOL_DOWN / 2).await;
        late.failed();
        assert_eq!(breaker.admit().unwrap_err().retry_after, COOL_DOWN / 2, "nor does a late failure extend it");
    }

    #[tokio::test(start_paused = true)]
    async fn subscribers_see_it_open_and_close() {
        let breaker = Breaker::new("test", COOL_DOWN);
        let mut closed = breaker.subscribe();
        assert!(*closed.borrow_and_update());
        breaker.admit().unwrap().failed();
        assert!(closed.has_changed().unwrap());
        assert!(!*closed.borrow_and_update());
        tokio::time::advance(COOL_DOWN).await;
        breaker.admit().unwrap().succeeded();
        assert!(*closed.borrow_and_update());
        breaker.admit().unwrap().succeeded();
        assert!(!closed.has_changed().unwrap(), "no news while it stays closed");
    }
}
