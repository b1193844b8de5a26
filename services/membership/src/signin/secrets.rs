//! The secrets of signing in, and how each is kept:
//!
//! - a staff password and a sign-in code's secret are low in entropy (a person chose the one; the
//!   other is short enough to type on a phone), so only their Argon2id hash is kept (the `argon2`
//!   crate's default parameters, with a random salt), and hashing runs off the async workers;
//! - a refresh token is 256 random bits, which no one guesses, so a SHA-256 of it is kept: fast,
//!   and it lets the token be looked up by its hash.

use std::sync::OnceLock;

use argon2::password_hash::SaltString;
use argon2::{Argon2, PasswordHash, PasswordHasher, PasswordVerifier};
use platform::ServiceError;

/// The letters of codes and generated passwords: Crockford's base 32, which has no I, L, O or U, so
/// nothing read off a slip of paper is mistaken for something else.
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// The characters of a code that find it (stored as they are).
pub const HANDLE_LEN: usize = 4;
/// The characters of a code that prove it (stored hashed): 40 bits, against a handful of tries.
pub const SECRET_LEN: usize = 8;
/// The shortest password an account may be given.
pub const MIN_PASSWORD_CHARS: usize = 10;

/// `n` random characters of [`ALPHABET`] (32 divides 256: every character is equally likely).
fn random_chars(n: usize) -> String {
    (0..n).map(|_| char::from(ALPHABET[usize::from(rand::random::<u8>() % 32)])).collect()
}

/// A new generated password: 20 characters, 100 bits.
pub fn generate_password() -> String {
    random_chars(20)
}

/// A new sign-in code: its handle and its secret. Shown to people as [`format_code`] writes it.
pub fn generate_code() -> (String, String) {
    (random_chars(HANDLE_LEN), random_chars(SECRET_LEN))
}

/// A code as the desk reads it out: `ABCD-EFGH-JKMN`.
pub fn format_code(handle: &str, secret: &str) -> String {
    let all = format!("{handle}{secret}");
    let groups: Vec<&str> = [&all[..4], &all[4..8], &all[8..]].into_iter().collect();
    groups.join("-")
}

/// A code as a member typed it, read back into its handle and secret: case, dashes and spaces do
/// not matter, and O, I and L are read as 0, 1 and 1 (the letters Crockford's alphabet leaves out).
pub fn parse_code(typed: &str) -> Result<(String, String), ServiceError> {
    let mut code = String::with_capacity(HANDLE_LEN + SECRET_LEN);
    for c in typed.chars().filter(|c| !matches!(c, '-' | ' ')) {
        let c = match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            other => other,
        };
        if !c.is_ascii() || !ALPHABET.contains(&(c as u8)) {
            return Err(ServiceError::invalid("code", format!("{c:?} is not a character of a sign-in code")));
        }
        code.push(c);
    }
    if code.len() != HANDLE_LEN + SECRET_LEN {
        return Err(ServiceError::invalid(
            "code",
            format!("a sign-in code has {} letters and digits, this has {}", HANDLE_LEN + SECRET_LEN, code.len()),
        ));
    }
    let secret = code.split_off(HANDLE_LEN);
    Ok((code, secret))
}

/// A new refresh token (256 random bits, hex) and the hash kept of it.
pub fn generate_refresh_token() -> (String, String) {
    let token = hex::encode(rand::random::<[u8; 32]>());
    let hash = refresh_token_hash(&token);
    (token, hash)
}

/// The hash kept of a refresh token.
pub fn refresh_token_hash(token: &str) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(token.as_bytes()))
}

fn hash_now(secret: &str) -> Result<String, ServiceError> {
    let salt = SaltString::encode_b64(&rand::random::<[u8; 16]>()).map_err(ServiceError::internal)?;
    Ok(Argon2::default().hash_password(secret.as_bytes(), &salt).map_err(ServiceError::internal)?.to_string())
}

fn verify_now(secret: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|parsed| Argon2::default().verify_password(secret.as_bytes(), &parsed).is_ok())
}

/// The Argon2id hash of `secret`, computed on a blocking thread (it takes tens of milliseconds on
/// purpose, which must not stall other calls).
pub async fn hash(secret: String) -> Result<String, ServiceError> {
    tokio::task::spawn_blocking(move || hash_now(&secret)).await.map_err(ServiceError::internal)?
}

/// Whether `secret` matches `hash`. With no hash (no such account) a stand-in hash is checked
/// instead, and the answer is no: a wrong name takes as long as a wrong password, so the time
/// taken does not tell whether the account exists.
pub async fn verify(secret: String, hash: Option<String>) -> bool {
    static STAND_IN: OnceLock<String> = OnceLock::new();
    tokio::task::spawn_blocking(move || match hash {
        Some(hash) => verify_now(&secret, &hash),
        None => {
            let stand_in = STAND_IN.get_or_init(|| hash_now(&generate_password()).unwrap_or_default());
            verify_now(&secret, stand_in);
            false
        }
    })
    .await
    .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hash_verifies_its_secret_only_and_is_salted() {
        let first = hash("correct horse".to_owned()).await.unwrap();
        let second = hash("correct horse".to_owned()).await.unwrap();
        assert!(first.starts_with("$argon2id$"), "{first}");
        assert_ne!(first, second, "each hash has its own salt");
        assert!(!first.contains("correct horse"));
        assert!(verify("correct horse".to_owned(), Some(first.clone())).await);
        assert!(!verify("correct horsE".to_owned(), Some(first)).await);
        assert!(!verify("anything".to_owned(), None).await, "no account: never a match");
        assert!(!verify("x".to_owned(), Some("not a hash".to_owned())).await);
    }

    #[test]
    fn a_code_reads_back_however_it_is_typed() {
        let (handle, secret) = generate_code();
        let printed = format_code(&handle, &secret);
        assert_eq!(printed.len(), 14);
        assert_eq!(parse_code(&printed).unwrap(), (handle.clone(), secret.clone()));
        let typed = printed.to_ascii_lowercase().replace('-', " ");
        assert_eq!(parse_code(&typed).unwrap(), (handle, secret));
        assert_eq!(parse_code("oooo-iiii-llll").unwrap(), ("0000".to_owned(), "11111111".to_owned()));
    }

    #[test]
    fn a_malformed_code_names_the_field() {
        for bad in ["", "ABCD-EFGH", "ABCD-EFGH-JKMN-P", "ABCD-EFGH-JKMU", "ÄBCD-EFGH-JKMN"] {
            match parse_code(bad) {
                Err(ServiceError::InvalidArgument(invalid)) => assert_eq!(invalid.field.as_deref(), Some("code")),
                other => panic!("{bad:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn refresh_tokens_are_random_and_kept_as_their_hash() {
        let (token, hash) = generate_refresh_token();
        let (other, _) = generate_refresh_token();
        assert_ne!(token, other);
        assert_eq!(token.len(), 64);
        assert_eq!(refresh_token_hash(&token), hash);
        assert_ne!(hash, token);
    }

    #[test]
    fn generated_passwords_are_long_enough() {
        let password = generate_password();
        assert!(password.len() >= MIN_PASSWORD_CHARS);
        assert_ne!(password, generate_password());
    }
}
