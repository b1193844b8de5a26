//! A member's sign-in code by e-mail: the desk asks for it (`CODE_DELIVERY_EMAIL`) and the code goes
//! to his address on the register through the club's mail server (`[mail]`), never to the desk.
//!
//! The code is stored before the mail is sent, so that it works the moment the mail arrives. A
//! mail the server did not take (away, slower than its timeout, refusing it) withdraws the code:
//! nobody holds it, since only its hash is kept, but a server that took the mail without saying so
//! could still deliver it later, and a code that arrives after the desk was told "not sent" must not
//! work. Asking again is therefore always safe: the new code replaces any other.

use platform::ServiceError;
use platform::error::{REASON_MAIL_NOT_CONFIGURED, REASON_NO_EMAIL_ADDRESS};
use platform::mail::{Address, Mail, Mailer};
use sea_orm::EntityTrait;

use super::SignIn;
use crate::entity::{players, sign_in_codes};

impl SignIn {
    /// The club's mail server, or FAILED_PRECONDITION (MAIL_NOT_CONFIGURED) when it has none.
    pub(super) fn mailer(&self) -> Result<&Mailer, ServiceError> {
        self.mailer.as_ref().ok_or_else(|| ServiceError::Precondition {
            reason: REASON_MAIL_NOT_CONFIGURED,
            message: "this club has no mail server configured ([mail] in the configuration), so no code can be sent \
                      by e-mail: ask for the code to be shown (CODE_DELIVERY_SHOW_TO_DESK) and hand it over"
                .to_owned(),
        })
    }

    /// Mails `code` (its handle is `handle`) to `player` at `to`, and answers the address masked;
    /// when the mail was not taken, withdraws the code and answers UNAVAILABLE.
    pub(super) async fn mail_code(
        &self,
        mailer: &Mailer,
        player: &players::Model,
        to: Address,
        code: &str,
        handle: String,
        expires_at_ms: i64,
    ) -> Result<String, ServiceError> {
        let sent_to = platform::mail::masked(&to);
        let mail = code_mail(to, &player.name, mailer.club_name(), code, self.settings.code_secs, expires_at_ms);
        let (mailer, db, player_id) = (mailer.clone(), self.db.clone(), player.player_id.clone());
        // A task of its own, so that a desk hanging up while the mail is on its way (which drops
        // this call) still has the code withdrawn if the mail is not taken.
        let sending = tokio::spawn(async move {
            let sent = mailer.send(mail).await;
            if sent.is_err()
                && let Err(error) = sign_in_codes::Entity::delete_by_id(handle).exec(&db).await
            {
                // It then lapses at its expiry; nobody was given it.
                tracing::warn!(player = %player_id, %error, "a sign-in code whose mail was not sent could not be withdrawn");
            }
            sent
        });
        sending.await.map_err(|e| ServiceError::internal(format!("sending a sign-in code: {e}")))??;
        Ok(sent_to)
    }
}

/// The address on `player`'s register entry, or FAILED_PRECONDITION (NO_EMAIL_ADDRESS) when there
/// is none mail can be sent to (an entry from before addresses were checked may hold anything).
pub(super) fn recipient(player: &players::Model) -> Result<Address, ServiceError> {
    let email = player.email.trim();
    if email.is_empty() {
        return Err(ServiceError::Precondition {
            reason: REASON_NO_EMAIL_ADDRESS,
            message: format!(
                "player {} has no e-mail address on the register: the desk adds one (UpdatePlayer, contact.email) or \
                 asks for the code to be shown",
                player.player_id
            ),
        });
    }
    platform::mail::address(email).map_err(|problem| ServiceError::Precondition {
        reason: REASON_NO_EMAIL_ADDRESS,
        message: format!(
            "the e-mail address of player {} on the register cannot be mailed to ({problem}): the desk corrects it \
             (UpdatePlayer, contact.email) or asks for the code to be shown",
            player.player_id
        ),
    })
}

/// The mail holding `code` for the member `name` at `to`: what it is for, the code on a line of its
/// own (so that no line wrapping can split it), and how long it works.
pub(super) fn code_mail(
    to: Address,
    name: &str,
    club_name: Option<&str>,
    code: &str,
    valid_secs: u64,
    expires_at_ms: i64,
) -> Mail {
    let name: String = name.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let name = name.trim();
    let (subject, issuer) = match club_name {
        Some(club) => (format!("Your sign-in code for {club}"), format!("The desk of {club}")),
        None => ("Your sign-in code".to_owned(), "The club's desk".to_owned()),
    };
    let until = chrono::DateTime::from_timestamp_millis(expires_at_ms)
        .map(|t| format!(" (until {})", t.format("%H:%M UTC on %-d %B %Y")))
        .unwrap_or_default();
    let paragraphs = [
        format!("Dear {name},"),
        format!("{issuer} has issued you a one-time code to sign in on your phone:"),
        format!("    {code}"),
        format!("Type it into the club's app. It works once, for {}{until}.", duration_words(valid_secs)),
        "If you did not ask for it, ignore this mail: the code is of no use to anyone but you, and stops working by \
         itself."
            .to_owned(),
    ];
    let body = paragraphs.iter().map(|p| wrapped(p)).collect::<Vec<_>>().join("\n\n") + "\n";
    Mail { to, to_name: Some(name.to_owned()).filter(|n| !n.is_empty()), subject, body }
}

/// `paragraph` broken into lines of at most [`LINE`] characters, between words: a mail's lines are
/// kept short so that it travels as it is written (longer ones are re-encoded, and re-wrapped by
/// readers).
fn wrapped(paragraph: &str) -> String {
    let indent = &paragraph[..paragraph.len() - paragraph.trim_start_matches(' ').len()];
    let mut lines = Vec::new();
    let mut line = indent.to_owned();
    for word in paragraph.split_whitespace() {
        if line.trim().is_empty() {
            line.push_str(word);
        } else if line.chars().count() + 1 + word.chars().count() <= LINE {
            line.push(' ');
            line.push_str(word);
        } else {
            lines.push(std::mem::replace(&mut line, word.to_owned()));
        }
    }
    lines.push(line);
    lines.join("\n")
}

/// The longest line of a mail's text.
const LINE: usize = 72;

/// `secs` in words: "10 minutes", "1 hour", "90 seconds".
fn duration_words(secs: u64) -> String {
    let (count, unit) = match secs {
        s if s >= 3_600 && s % 3_600 == 0 => (s / 3_600, "hour"),
        s if s >= 60 && s % 60 == 0 => (s / 60, "minute"),
        s => (s, "second"),
    };
    format!("{count} {unit}{}", if count == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ann() -> Address {
        platform::mail::address("ann@club.example").unwrap()
    }

    #[test]
    fn the_mail_holds_the_code_the_name_the_club_and_how_long_it_works() {
        // 2026-12-07 20:15 UTC.
        let mail = code_mail(ann(), "Ann Smith", Some("Riverside BC"), "7K2D-QX9M-4HTA", 600, 1_796_674_500_000);
        assert_eq!(mail.subject, "Your sign-in code for Riverside BC");
        assert_eq!(mail.to_name.as_deref(), Some("Ann Smith"));
        assert!(mail.body.starts_with("Dear Ann Smith,\n"), "{}", mail.body);
        assert!(mail.body.contains("\n    7K2D-QX9M-4HTA\n"), "the code on a line of its own: {}", mail.body);
        assert!(mail.body.contains("The desk of Riverside BC"), "{}", mail.body);
        let words = mail.body.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(words.contains("for 10 minutes (until 20:15 UTC on 7 December 2026)"), "{}", mail.body);
        assert!(mail.body.lines().all(|line| line.chars().count() <= LINE), "short lines: {}", mail.body);
        let anonymous = code_mail(ann(), " \n", None, "7K2D-QX9M-4HTA", 3_600, 0);
        assert_eq!(anonymous.subject, "Your sign-in code");
        assert_eq!(anonymous.to_name, None);
        assert!(anonymous.body.contains("for 1 hour"), "{}", anonymous.body);
    }

    #[test]
    fn paragraphs_break_between_words() {
        assert_eq!(wrapped("    7K2D-QX9M-4HTA"), "    7K2D-QX9M-4HTA", "the code keeps its indent");
        let long = "word ".repeat(40);
        let text = wrapped(long.trim());
        assert!(text.lines().count() > 2, "{text}");
        assert!(text.lines().all(|l| l.chars().count() <= LINE && !l.starts_with(' ')), "{text}");
        assert_eq!(text.replace('\n', " "), long.trim());
    }

    #[test]
    fn durations_read_as_people_say_them() {
        assert_eq!(duration_words(600), "10 minutes");
        assert_eq!(duration_words(60), "1 minute");
        assert_eq!(duration_words(7_200), "2 hours");
        assert_eq!(duration_words(90), "90 seconds");
        assert_eq!(duration_words(1), "1 second");
    }

    fn player(email: &str) -> players::Model {
        players::Model {
            number: 1,
            player_id: "ann".into(),
            name: "Ann".into(),
            member_number: None,
            email: email.into(),
            phone: String::new(),
            active: true,
            registered_at: chrono::Utc::now().into(),
            version: 1,
        }
    }

    #[test]
    fn a_member_without_a_usable_address_is_refused_with_its_reason() {
        assert_eq!(recipient(&player(" ann@club.example ")).unwrap(), ann());
        for email in ["", "  ", "ann at club.example"] {
            let refused = recipient(&player(email)).unwrap_err();
            assert_eq!(refused.reason(), Some(REASON_NO_EMAIL_ADDRESS), "{email:?}");
            assert_eq!(refused.code(), tonic::Code::FailedPrecondition);
        }
    }
}
