//! The size limits of a request, checked on its wire bytes before it is decoded.
//!
//! A request's strings end up in the database and in error messages, so a string with a NUL
//! character (which Postgres cannot store) or of a megabyte (which no id or name is, and which,
//! echoed in an error, overflows the HTTP/2 header limits) is the client's mistake and must be
//! refused as such, with INVALID_ARGUMENT, before any service sees it. The limits come from the
//! contract: every string or bytes field holds at most 256 bytes unless its
//! `bridgeclub.common.v1.max_bytes` option says otherwise (free text such as a ruling's facts), and
//! a whole request at most [`MAX_REQUEST_BYTES`]. `build.rs` turns the options into [`MESSAGES`].
//!
//! The check walks the protobuf wire format with that table, so it needs no second decoding and
//! sees every string, in nested messages, repeated fields and oneofs alike.
//!
//! ```
//! use prost::Message;
//! use api::game::v1::GetTableStateRequest;
//!
//! let fine = GetTableStateRequest { table_id: "t-1".into(), ..Default::default() }.encode_to_vec();
//! assert!(api::limits::check_request("bridgeclub.game.v1.GetTableStateRequest", &fine).is_ok());
//!
//! let nul = GetTableStateRequest { table_id: "t\0".into(), ..Default::default() }.encode_to_vec();
//! let refused = api::limits::check_request("bridgeclub.game.v1.GetTableStateRequest", &nul).unwrap_err();
//! assert_eq!(refused.to_string(), "table_id: holds a NUL character, which no text may");
//!
//! let long = GetTableStateRequest { table_id: "t".repeat(1 << 20), ..Default::default() }.encode_to_vec();
//! let refused = api::limits::check_request("bridgeclub.game.v1.GetTableStateRequest", &long).unwrap_err();
//! assert!(refused.to_string().starts_with("the request is 1048"), "{refused}");
//! ```

/// The most bytes one request message may have.
pub const MAX_REQUEST_BYTES: usize = 64 * 1024;

/// How deep messages may nest in a request (prost's own recursion limit is 100).
const MAX_DEPTH: usize = 32;

/// A message a request can hold, with the fields the check looks at.
#[derive(Debug)]
pub(crate) struct MessageLimits {
    /// The full proto name.
    pub(crate) name: &'static str,
    /// Whether some RPC takes it as its request.
    pub(crate) request: bool,
    /// Its string, bytes and message fields, by number.
    pub(crate) fields: &'static [Field],
}

/// One field the check looks at.
#[derive(Debug)]
pub(crate) struct Field {
    pub(crate) number: u32,
    pub(crate) name: &'static str,
    pub(crate) kind: Kind,
}

/// What a field holds.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Kind {
    /// UTF-8 text of at most `max` bytes, without NUL.
    Text { max: u32 },
    /// Bytes, at most `max`.
    #[allow(dead_code, reason = "no request holds a bytes field today; the table has them when one does")]
    Bytes { max: u32 },
    /// Another message: its index in [`MESSAGES`].
    Message(usize),
}

include!(concat!(env!("OUT_DIR"), "/field_limits.rs"));

/// Why a request was refused: the field at fault (dotted, from the request) and the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The field, such as `setup.deal_pbn`; empty for the request as a whole.
    pub field: String,
    /// What is wrong with it.
    pub problem: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.field.is_empty() { f.write_str(&self.problem) } else { write!(f, "{}: {}", self.field, self.problem) }
    }
}

impl std::error::Error for Violation {}

fn whole(problem: String) -> Violation {
    Violation { field: String::new(), problem }
}

/// Checks the encoded request `bytes` of the message named `full_name` against the contract's
/// limits. A message that is not some RPC's request (a response, decoded by a client) passes:
/// limits bound what clients send, not what the services answer.
pub fn check_request(full_name: &str, bytes: &[u8]) -> Result<(), Violation> {
    let Some(message) = find(full_name).filter(|m| m.request) else { return Ok(()) };
    if bytes.len() > MAX_REQUEST_BYTES {
        return Err(whole(format!("the request is {} bytes; at most {MAX_REQUEST_BYTES} are accepted", bytes.len())));
    }
    walk(message, bytes, "", 0)
}

/// Whether `full_name` is some RPC's request.
pub fn is_request(full_name: &str) -> bool {
    find(full_name).is_some_and(|m| m.request)
}

fn find(full_name: &str) -> Option<&'static MessageLimits> {
    MESSAGES.binary_search_by(|m| m.name.cmp(full_name)).ok().and_then(|i| MESSAGES.get(i))
}

fn malformed(message: &MessageLimits) -> Violation {
    whole(format!("the request is not a valid {} message", message.name))
}

fn walk(message: &MessageLimits, mut bytes: &[u8], path: &str, depth: usize) -> Result<(), Violation> {
    if depth > MAX_DEPTH {
        return Err(whole(format!("the request nests messages more than {MAX_DEPTH} deep")));
    }
    while !bytes.is_empty() {
        let tag = varint(&mut bytes).ok_or_else(|| malformed(message))?;
        let number = u32::try_from(tag >> 3).map_err(|_| malformed(message))?;
        if number == 0 {
            return Err(malformed(message));
        }
        let payload = match tag & 7 {
            0 => {
                varint(&mut bytes).ok_or_else(|| malformed(message))?;
                continue;
            }
            1 => {
                bytes = bytes.get(8..).ok_or_else(|| malformed(message))?;
                continue;
            }
            5 => {
                bytes = bytes.get(4..).ok_or_else(|| malformed(message))?;
                continue;
            }
            2 => {
                let len = usize::try_from(varint(&mut bytes).ok_or_else(|| malformed(message))?)
                    .map_err(|_| malformed(message))?;
                let payload = bytes.get(..len).ok_or_else(|| malformed(message))?;
                bytes = &bytes[len..];
                payload
            }
            // Groups (3, 4) are not part of the contract, and no other wire type exists.
            _ => return Err(malformed(message)),
        };
        let Some(field) = message.fields.binary_search_by_key(&number, |f| f.number).ok().map(|i| &message.fields[i])
        else {
            continue;
        };
        let name = if path.is_empty() { field.name.to_owned() } else { format!("{path}.{}", field.name) };
        match field.kind {
            Kind::Text { max } => {
                if payload.len() > max as usize {
                    return Err(Violation {
                        field: name,
                        problem: format!("{} bytes long; at most {max} are accepted", payload.len()),
                    });
                }
                if payload.contains(&0) {
                    return Err(Violation { field: name, problem: "holds a NUL character, which no text may".into() });
                }
            }
            Kind::Bytes { max } => {
                if payload.len() > max as usize {
                    return Err(Violation {
                        field: name,
                        problem: format!("{} bytes long; at most {max} are accepted", payload.len()),
                    });
                }
            }
            Kind::Message(index) => {
                let inner = MESSAGES.get(index).ok_or_else(|| malformed(message))?;
                walk(inner, payload, &name, depth + 1)?;
            }
        }
    }
    Ok(())
}

/// Reads a base-128 varint (at most ten bytes), advancing `bytes`.
fn varint(bytes: &mut &[u8]) -> Option<u64> {
    let mut value: u64 = 0;
    for (i, byte) in bytes.iter().enumerate().take(10) {
        value |= u64::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            *bytes = &bytes[i + 1..];
            return Some(value);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use prost::Message;

    use super::*;
    use crate::appeals::v1 as appeals;
    use crate::game::v1 as game;

    fn check<M: Message + prost::Name>(message: &M) -> Result<(), Violation> {
        check_request(&M::full_name(), &message.encode_to_vec())
    }

    #[test]
    fn the_table_is_sorted_and_its_indexes_point_inside_it() {
        assert!(MESSAGES.windows(2).all(|w| w[0].name < w[1].name));
        for message in MESSAGES {
            assert!(message.fields.windows(2).all(|w| w[0].number < w[1].number), "{}", message.name);
            for field in message.fields {
                if let Kind::Message(index) = field.kind {
                    assert!(index < MESSAGES.len(), "{}.{}", message.name, field.name);
                }
            }
        }
        assert!(is_request("bridgeclub.game.v1.MakeCallRequest"));
        assert!(!is_request("bridgeclub.game.v1.MakeCallResponse"));
    }

    #[test]
    fn nested_and_repeated_strings_are_checked_with_their_path() {
        let request = game::StartDealRequest {
            table_id: "t".into(),
            hands: Some(game::start_deal_request::Hands::DealPbn("N:\0".into())),
            ..Default::default()
        };
        assert_eq!(check(&request).unwrap_err().field, "deal_pbn");
        let request = appeals::RecordRulingRequest {
            deal: Some(appeals::DealReference { deal_id: "d\0".into(), ..Default::default() }),
            ..Default::default()
        };
        assert_eq!(check(&request).unwrap_err().field, "deal.deal_id");
    }

    #[test]
    fn free_text_takes_its_larger_limit_and_ids_do_not() {
        let facts = "The dummy called the attention to the revoke. ".repeat(60);
        assert!(facts.len() > 256);
        let request = appeals::RecordRulingRequest { facts: facts.clone(), ..Default::default() };
        assert_eq!(check(&request), Ok(()));
        let request = appeals::RecordRulingRequest { irregularity_id: facts, ..Default::default() };
        assert_eq!(check(&request).unwrap_err().field, "irregularity_id");
    }

    #[test]
    fn a_response_is_not_held_to_request_limits() {
        let response = game::ExportDealPbnResponse { pbn: "x".repeat(10_000) };
        assert_eq!(check(&response), Ok(()));
    }

    #[test]
    fn truncated_and_impossible_wire_data_is_refused_not_panicked_on() {
        let name = "bridgeclub.game.v1.MakeCallRequest";
        for garbage in [&[0x0a, 0xff][..], &[0x0a], &[0x00, 0x01], &[0x0b], &[0xff; 11], &[0x09, 1, 2]] {
            assert!(check_request(name, garbage).is_err(), "{garbage:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn any_bytes_are_answered_without_panicking(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..512)) {
            for message in MESSAGES.iter().filter(|m| m.request).take(40) {
                let _ = check_request(message.name, &bytes);
            }
        }
    }
}
