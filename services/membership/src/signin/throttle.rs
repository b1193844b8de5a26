//! Throttling wrong sign-in tries, per account name.
//!
//! The first [`FREE_TRIES`] wrong passwords for a name cost nothing; after that each one blocks
//! the name for twice as long as the last (1 s, 2 s, 4 s, ... at most [`MAX_BLOCK`]), during which
//! every try for it is refused with RESOURCE_EXHAUSTED and the time to wait. A right password
//! clears the count, and so does [`FORGET_AFTER`] without a wrong one. It counts names, whether an
//! account has them or not, so a throttled name does not tell that the account exists.
//!
//! The counts are kept in each process, not in the database: a wrong password costs no write, and
//! with several replicas of the membership service an attacker gets at most that many times the
//! tries. Codes need none of this: a code is burnt after a few wrong tries (see the service).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Wrong tries for a name before it is blocked.
pub const FREE_TRIES: u32 = 5;
/// The longest a name is blocked after one wrong try.
pub const MAX_BLOCK: Duration = Duration::from_secs(300);
/// How long after its last wrong try a name's count is forgotten.
pub const FORGET_AFTER: Duration = Duration::from_secs(900);
/// The most names counted at once; past it the counts older than [`FORGET_AFTER`] go first, then
/// all of them (flooding the table with names is limited by the edge's rate limit per address).
const MAX_NAMES: usize = 10_000;

#[derive(Debug, Clone, Copy)]
struct Count {
    failures: u32,
    last: Instant,
    blocked_until: Instant,
}

/// Wrong tries per name (see the module docs).
#[derive(Debug, Default)]
pub struct Throttle {
    counts: Mutex<HashMap<String, Count>>,
}

impl Throttle {
    /// `Err(wait)` while `name` is blocked.
    pub fn check(&self, name: &str, now: Instant) -> Result<(), Duration> {
        let counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        match counts.get(&name.to_lowercase()) {
            Some(count) if count.blocked_until > now => Err(count.blocked_until - now),
            _ => Ok(()),
        }
    }

    /// A wrong try for `name`.
    pub fn failed(&self, name: &str, now: Instant) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if counts.len() >= MAX_NAMES {
            counts.retain(|_, count| now.duration_since(count.last) < FORGET_AFTER);
            if counts.len() >= MAX_NAMES {
                counts.clear();
            }
        }
        let count = counts.entry(name.to_lowercase()).or_insert(Count { failures: 0, last: now, blocked_until: now });
        if now.duration_since(count.last) >= FORGET_AFTER {
            count.failures = 0;
        }
        count.failures += 1;
        count.last = now;
        if count.failures >= FREE_TRIES {
            let doublings = (count.failures - FREE_TRIES).min(16);
            count.blocked_until = now + Duration::from_secs(1u64 << doublings).min(MAX_BLOCK);
        }
    }

    /// A right password for `name`.
    pub fn succeeded(&self, name: &str) {
        self.counts.lock().unwrap_or_else(|e| e.into_inner()).remove(&name.to_lowercase());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_few_wrong_tries_are_free_then_each_blocks_for_longer() {
        let throttle = Throttle::default();
        let start = Instant::now();
        for _ in 1..FREE_TRIES {
            throttle.failed("Desk", start);
            assert!(throttle.check("desk", start).is_ok());
        }
        throttle.failed("desk", start);
        assert_eq!(throttle.check("DESK", start), Err(Duration::from_secs(1)));
        assert!(throttle.check("desk", start + Duration::from_secs(1)).is_ok());
        throttle.failed("desk", start + Duration::from_secs(1));
        assert_eq!(throttle.check("desk", start + Duration::from_secs(1)), Err(Duration::from_secs(2)));
        assert!(throttle.check("other", start).is_ok(), "per name");
        for i in 0..40 {
            throttle.failed("desk", start + Duration::from_secs(2 + i));
        }
        let wait = throttle.check("desk", start + Duration::from_secs(41)).unwrap_err();
        assert!(wait <= MAX_BLOCK, "{wait:?}");
        throttle.succeeded("desk");
        assert!(throttle.check("desk", start + Duration::from_secs(41)).is_ok());
    }

    #[test]
    fn a_count_is_forgotten_after_a_quiet_while() {
        let throttle = Throttle::default();
        let start = Instant::now();
        for _ in 0..FREE_TRIES - 1 {
            throttle.failed("arbiter", start);
        }
        let later = start + FORGET_AFTER;
        throttle.failed("arbiter", later);
        assert!(throttle.check("arbiter", later).is_ok(), "the old tries no longer count");
    }
}
