//! Paging, the one way every list of the platform pages: a page size the contract bounds (0 asks
//! for 50, more than 500 gets 500) and an opaque token that says where the next page starts.
//! Two kinds of token, one parser each:
//!
//! - [`Page`]: by offset (`o<offset>`), for lists in a stable order;
//! - [`Keyset`]: after a key (`k<key>`), for lists read newest first by a sequence number, where
//!   an offset would shift by one for every item added while a client pages.
//!
//! A token is whatever this module handed out; a client must not make one up. It is checked on
//! the way in: anything else, or an offset no list could reach (past `i64::MAX`, which the
//! database cannot take), is INVALID_ARGUMENT naming `page.page_token`, never a panic.

use api::common::v1::{PageRequest, PageResponse};

use crate::ServiceError;

/// The page size when a request asks for none.
pub const DEFAULT_SIZE: u64 = 50;

/// The largest page a request gets.
pub const MAX_SIZE: u64 = 500;

/// The largest offset a token may carry: the database takes offsets as signed 64-bit numbers
/// (and no list of a club comes near it).
const MAX_OFFSET: u64 = i64::MAX as u64;

/// Where a page starts and how long it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    /// Items before the page.
    pub offset: u64,
    /// Items in the page.
    pub size: u64,
}

impl Page {
    /// The page a request asks for.
    pub fn of(request: Option<&PageRequest>) -> Result<Page, ServiceError> {
        let (size, token) = size_and_token(request);
        // "o<offset>"; a bare offset is what some services handed out before, and still reads.
        let offset = match token {
            "" => 0,
            token => number(token.strip_prefix('o').unwrap_or(token))?,
        };
        Ok(Page { offset, size })
    }

    /// The response of a page for which `fetched` items were read, asking for one more than
    /// the page holds so as to know whether another page follows.
    pub fn response_to(&self, fetched: usize) -> PageResponse {
        let next = self.offset.saturating_add(self.size);
        let more = fetched as u64 > self.size && next <= MAX_OFFSET;
        PageResponse { next_page_token: if more { format!("o{next}") } else { String::new() } }
    }

    /// As [`Page::response_to`], dropping the extra item read from `items`.
    pub fn response<T>(&self, items: &mut Vec<T>) -> Option<PageResponse> {
        let response = self.response_to(items.len());
        items.truncate(usize::try_from(self.size).unwrap_or(usize::MAX));
        Some(response)
    }

    /// How many items to read: the page and one more.
    pub fn fetch(&self) -> u64 {
        self.size + 1
    }
}

/// Where a page read newest first by key starts, and how long it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keyset {
    /// The page holds items with keys below this one (the last key of the page before); `None`
    /// for the first page.
    pub before: Option<i64>,
    /// Items in the page.
    pub size: u64,
}

impl Keyset {
    /// The page a request asks for.
    pub fn of(request: Option<&PageRequest>) -> Result<Keyset, ServiceError> {
        let (size, token) = size_and_token(request);
        // "k<key>"; a bare key is what the appeals service handed out before, and still reads.
        let before = match token {
            "" => None,
            token => Some(number(token.strip_prefix('k').unwrap_or(token))? as i64),
        };
        Ok(Keyset { before, size })
    }

    /// How many items to read: the page and one more.
    pub fn fetch(&self) -> u64 {
        self.size + 1
    }

    /// The response of a page read newest first, `size + 1` asked for: drops the extra item and,
    /// if there was one, points the next page past the last key kept.
    pub fn response<T>(&self, items: &mut Vec<T>, key: impl Fn(&T) -> i64) -> Option<PageResponse> {
        let more = items.len() as u64 > self.size;
        items.truncate(usize::try_from(self.size).unwrap_or(usize::MAX));
        let next = items.last().filter(|_| more).map(|last| format!("k{}", key(last))).unwrap_or_default();
        Some(PageResponse { next_page_token: next })
    }
}

/// The bounded page size and the token of a request.
fn size_and_token(request: Option<&PageRequest>) -> (u64, &str) {
    let (size, token) = request.map_or((0, ""), |p| (p.page_size, p.page_token.as_str()));
    let size = match size {
        0 => DEFAULT_SIZE,
        n => u64::from(n).min(MAX_SIZE),
    };
    (size, token)
}

/// The number a token carries: digits only, no larger than the database takes.
fn number(digits: &str) -> Result<u64, ServiceError> {
    digits
        .parse::<u64>()
        .ok()
        .filter(|n| *n <= MAX_OFFSET && !digits.starts_with('+'))
        .ok_or_else(|| ServiceError::invalid("page.page_token", "not a token this server gave"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keyset(size: u32, token: &str) -> Result<Keyset, ServiceError> {
        Keyset::of(Some(&PageRequest { page_size: size, page_token: token.to_owned() }))
    }

    #[test]
    fn keyset_tokens_point_past_the_last_key_of_the_page() {
        let first = keyset(2, "").unwrap();
        assert_eq!(first, Keyset { before: None, size: 2 });
        let mut newest_first = vec![9, 7, 4];
        let next = first.response(&mut newest_first, |n| *n).unwrap().next_page_token;
        assert_eq!(newest_first, [9, 7]);
        assert_eq!(keyset(2, &next).unwrap().before, Some(7));
        assert_eq!(keyset(2, "12").unwrap().before, Some(12), "a bare key handed out before still reads");
        let mut last = vec![4];
        assert!(keyset(2, &next).unwrap().response(&mut last, |n| *n).unwrap().next_page_token.is_empty());
        for token in ["x", "-1", "+5", "k", "k-3", "o5x", "k9223372036854775808", "\0"] {
            let refused = keyset(10, token).unwrap_err();
            assert!(refused.to_string().starts_with("page.page_token"), "{token:?}: {refused}");
        }
    }

    fn page(size: u32, token: &str) -> Result<Page, ServiceError> {
        Page::of(Some(&PageRequest { page_size: size, page_token: token.to_owned() }))
    }

    #[test]
    fn sizes_are_bounded_and_tokens_say_where_the_next_page_starts() {
        assert_eq!(Page::of(None).unwrap(), Page { offset: 0, size: 50 });
        assert_eq!(page(9_999, "").unwrap().size, 500);
        let first = page(2, "").unwrap();
        let mut items = vec![1, 2, 3];
        let next = first.response(&mut items).unwrap().next_page_token;
        assert_eq!(items, [1, 2]);
        assert_eq!(page(2, &next).unwrap(), Page { offset: 2, size: 2 });
        assert_eq!(page(2, "40").unwrap().offset, 40, "a bare offset handed out before still reads");
        assert!(first.response_to(2).next_page_token.is_empty(), "no page after the last");
    }

    #[test]
    fn a_token_this_server_did_not_give_is_invalid_argument_never_a_panic() {
        let huge = (1u128 << 63).to_string();
        for token in ["x", "-1", "+5", "o", "o-3", "1.5", &huge, "18446744073709551615", "o9223372036854775808", "\0"] {
            let refused = page(10, token).unwrap_err();
            assert!(matches!(refused, ServiceError::InvalidArgument(_)), "{token:?}: {refused}");
            assert!(refused.to_string().starts_with("page.page_token"), "{token:?}: {refused}");
        }
        let last = page(500, &format!("o{MAX_OFFSET}")).unwrap();
        assert!(last.response_to(501).next_page_token.is_empty(), "no page past the largest offset, and no overflow");
    }
}
