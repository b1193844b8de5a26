//! Signing in (docs/architecture.md, "Identity and roles"): staff accounts with passwords, members'
//! one-time codes, sessions with rotating refresh tokens, and ending sessions early.
//!
//! It lives in the membership service because members are on its register: a code is issued only
//! for an active player it holds, and a member's token speaks for his player id. Staff accounts sit
//! beside them, so one service hands out every token a person holds (and alone needs the signing
//! key, `auth.rs256_private_key_file` in production).
//!
//! A session is one sign-in and the refreshes after it. Each refresh spends the refresh token it
//! was given and hands out a new one; a spent token presented again means two parties hold the
//! session, so the session is ended (rotation with reuse detection). Ending a session writes it to
//! the platform's `auth_revoked_sessions` in the same transaction, and every service refuses its
//! access tokens from then on ([`platform::revocation`]).

pub mod grpc;
mod mail;
pub mod secrets;
pub mod throttle;

use std::sync::Arc;
use std::time::{Duration, Instant};

use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, QueryFilter, QueryOrder, Set,
    TransactionTrait,
};
use serde::{Deserialize, Serialize};

use api::membership::v1 as pb;
use platform::ServiceError;
use platform::auth::{Role, TokenIssuer};
use platform::db::Db;
use platform::mail::Mailer;
use platform::revocation::Revocations;

use crate::entity::{players, refresh_tokens, sessions, sign_in_codes, staff_accounts};
use crate::state::timestamp;

/// How long tokens, sessions and codes last (the `[membership.sign_in]` table).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SignInSettings {
    /// Seconds an access token is valid: short, since every service accepts it on its own.
    pub access_token_secs: u64,
    /// Seconds a member's session lasts from redeeming his code: refreshes keep him signed in on
    /// his phone until then.
    pub member_session_secs: u64,
    /// Seconds a staff member's session lasts from signing in: about an evening.
    pub staff_session_secs: u64,
    /// Seconds a sign-in code works after the desk issues it.
    pub code_secs: u64,
    /// Wrong tries after which a code stops working.
    pub code_tries: u32,
}

impl Default for SignInSettings {
    fn default() -> Self {
        SignInSettings {
            access_token_secs: 600,
            member_session_secs: 30 * 86_400,
            staff_session_secs: 12 * 3_600,
            code_secs: 600,
            code_tries: 5,
        }
    }
}

/// The name of the administrator made on first start.
pub const FIRST_ADMINISTRATOR: &str = "admin";
/// The roles a staff account may hold.
pub const STAFF_ROLES: [Role; 4] = [Role::Desk, Role::Arbiter, Role::Committee, Role::Admin];
/// A verifier's leeway and a clock's drift: a revoked session is refused this much past the
/// expiry of its last access token.
const REVOCATION_MARGIN_MS: i64 = 10_000;

const MEMBER: &str = "member";
const STAFF: &str = "staff";

/// The subject of a staff account's tokens.
pub fn staff_subject(name: &str) -> String {
    format!("staff:{name}")
}

/// The administrator made on first start, to be told to whoever started the club.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FirstAdministrator {
    /// The account name.
    pub name: String,
    /// Its generated password.
    pub password: String,
}

/// What signing in hands out.
#[derive(Debug, Clone)]
pub struct Tokens {
    /// The access token.
    pub access_token: String,
    /// Its expiry, ms since the epoch.
    pub access_expires_at_ms: i64,
    /// The refresh token.
    pub refresh_token: String,
    /// The session's end, ms since the epoch.
    pub session_expires_at_ms: i64,
    /// Whom they speak for.
    pub subject: String,
    /// What they grant.
    pub roles: Vec<Role>,
    /// The session.
    pub session_id: String,
}

/// Everything signing in does (see the module docs).
#[derive(Debug, Clone)]
pub struct SignIn {
    db: Db,
    issuer: Option<TokenIssuer>,
    revocations: Revocations,
    settings: SignInSettings,
    throttle: Arc<throttle::Throttle>,
    /// The club's mail server, through which the desk may send a member his code.
    mailer: Option<Mailer>,
}

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

fn secs_ms(secs: u64) -> i64 {
    i64::try_from(secs.saturating_mul(1000)).unwrap_or(i64::MAX / 4)
}

/// Roles as stored: lowercase names, comma-separated.
fn roles_text(roles: &[Role]) -> String {
    roles.iter().map(|r| r.as_str()).collect::<Vec<_>>().join(",")
}

fn roles_of(text: &str) -> Vec<Role> {
    text.split(',').filter_map(|r| r.parse().ok()).collect()
}

const CODE_REFUSED: &str = "this sign-in code is wrong, used or expired; ask the desk for a new one";

impl SignIn {
    /// Signing in over `db`, handing out tokens signed by `issuer` (none: this deployment has no
    /// signing key, and signing in answers UNAVAILABLE), noting ended sessions in `revocations`.
    pub fn new(db: Db, issuer: Option<TokenIssuer>, revocations: Revocations, settings: SignInSettings) -> SignIn {
        SignIn { db, issuer, revocations, settings, throttle: Arc::default(), mailer: None }
    }

    /// Sends members their codes by e-mail through `mailer` when the desk asks (none: the desk
    /// is refused, and hands codes over itself).
    pub fn with_mailer(mut self, mailer: Option<Mailer>) -> SignIn {
        self.mailer = mailer;
        self
    }

    fn issuer(&self) -> Result<&TokenIssuer, ServiceError> {
        self.issuer.as_ref().ok_or_else(|| {
            ServiceError::Unavailable(
                "this server holds no signing key, so it cannot sign anyone in: give the membership service \
                 auth.rs256_private_key_file (BRIDGE_AUTH__RS256_PRIVATE_KEY_FILE)"
                    .to_owned(),
            )
        })
    }

    /// Opens a session in `txn` and hands out its first tokens.
    async fn open_session(
        &self,
        txn: &DatabaseTransaction,
        subject: &str,
        kind: &str,
        roles: &[Role],
        lifetime_secs: u64,
    ) -> Result<Tokens, ServiceError> {
        let issuer = self.issuer()?;
        let now = now_ms();
        let session_id = uuid::Uuid::new_v4().to_string();
        let expires = now.saturating_add(secs_ms(lifetime_secs));
        sessions::ActiveModel {
            session_id: Set(session_id.clone()),
            subject: Set(subject.to_owned()),
            kind: Set(kind.to_owned()),
            roles: Set(roles_text(roles)),
            created_at_ms: Set(now),
            expires_at_ms: Set(expires),
            ended_at_ms: Set(None),
        }
        .insert(txn)
        .await?;
        let refresh_token = self.give_refresh_token(txn, &session_id, now).await?;
        self.tokens(issuer, &session_id, subject, roles, expires, refresh_token)
    }

    async fn give_refresh_token(
        &self,
        txn: &DatabaseTransaction,
        session_id: &str,
        now: i64,
    ) -> Result<String, ServiceError> {
        let (token, hash) = secrets::generate_refresh_token();
        refresh_tokens::ActiveModel {
            token_hash: Set(hash),
            session_id: Set(session_id.to_owned()),
            created_at_ms: Set(now),
            spent_at_ms: Set(None),
        }
        .insert(txn)
        .await?;
        Ok(token)
    }

    fn tokens(
        &self,
        issuer: &TokenIssuer,
        session_id: &str,
        subject: &str,
        roles: &[Role],
        session_expires: i64,
        refresh_token: String,
    ) -> Result<Tokens, ServiceError> {
        let access_expires = now_ms().saturating_add(secs_ms(self.settings.access_token_secs)).min(session_expires);
        let access_token = issuer
            .issue_in_session(subject, roles, session_id, access_expires.div_euclid(1000))
            .map_err(ServiceError::internal)?;
        Ok(Tokens {
            access_token,
            access_expires_at_ms: access_expires.div_euclid(1000) * 1000,
            refresh_token,
            session_expires_at_ms: session_expires,
            subject: subject.to_owned(),
            roles: roles.to_vec(),
            session_id: session_id.to_owned(),
        })
    }

    /// Ends the open sessions of `subject` in `txn`, returning them; the caller notes them in this
    /// process once `txn` commits ([`SignIn::note_ended`]).
    async fn end_sessions(
        &self,
        txn: &DatabaseTransaction,
        subject: &str,
        only: Option<&str>,
    ) -> Result<Vec<(String, i64)>, ServiceError> {
        let now = now_ms();
        let mut query = sessions::Entity::find()
            .filter(sessions::Column::Subject.eq(subject))
            .filter(sessions::Column::EndedAtMs.is_null())
            .filter(sessions::Column::ExpiresAtMs.gt(now));
        if let Some(session_id) = only {
            query = query.filter(sessions::Column::SessionId.eq(session_id));
        }
        let open = query.all(txn).await?;
        let refuse_until = now + secs_ms(self.settings.access_token_secs) + REVOCATION_MARGIN_MS;
        let mut ended = Vec::with_capacity(open.len());
        for session in open {
            sessions::Entity::update_many()
                .col_expr(sessions::Column::EndedAtMs, Expr::value(now))
                .filter(sessions::Column::SessionId.eq(&session.session_id))
                .exec(txn)
                .await?;
            platform::revocation::revoke(txn, &session.session_id, refuse_until).await?;
            ended.push((session.session_id, refuse_until));
        }
        Ok(ended)
    }

    fn note_ended(&self, ended: &[(String, i64)]) {
        for (session_id, refuse_until) in ended {
            self.revocations.note(session_id, *refuse_until);
        }
    }

    /// A staff member signs in with his account name and password.
    pub async fn sign_in(&self, name: &str, password: &str) -> Result<Tokens, ServiceError> {
        if name.trim().is_empty() {
            return Err(ServiceError::invalid("name", "required: the account name"));
        }
        if password.is_empty() {
            return Err(ServiceError::invalid("password", "required"));
        }
        self.issuer()?;
        if let Err(wait) = self.throttle.check(name, Instant::now()) {
            return Err(ServiceError::Throttled {
                message: format!(
                    "too many wrong passwords for {name:?}: try again in {} s, or ask the administrator to reset it",
                    wait.as_secs().max(1)
                ),
                retry_after: wait.max(Duration::from_secs(1)),
            });
        }
        let account = staff_accounts::Entity::find_by_id(name.to_owned()).one(&self.db).await?;
        let hash = account.as_ref().map(|a| a.password_hash.clone());
        if !secrets::verify(password.to_owned(), hash).await {
            self.throttle.failed(name, Instant::now());
            return Err(ServiceError::Unauthenticated("wrong account name or password".to_owned()));
        }
        self.throttle.succeeded(name);
        let account = account.ok_or_else(|| ServiceError::internal("a password matched no account"))?;
        let txn = self.db.begin().await?;
        let tokens = self
            .open_session(
                &txn,
                &staff_subject(&account.name),
                STAFF,
                &roles_of(&account.roles),
                self.settings.staff_session_secs,
            )
            .await?;
        txn.commit().await?;
        Ok(tokens)
    }

    /// A member signs in with the code the desk issued for him. The code is used up in the
    /// transaction that opens his session, so two redemptions of one code cannot both succeed.
    pub async fn redeem(&self, typed: &str) -> Result<Tokens, ServiceError> {
        let (handle, secret) = secrets::parse_code(typed)?;
        self.issuer()?;
        let code = sign_in_codes::Entity::find_by_id(handle.clone()).one(&self.db).await?;
        let live = code.filter(|code| code.expires_at_ms > now_ms());
        let matched = secrets::verify(secret, live.as_ref().map(|code| code.secret_hash.clone())).await;
        let Some(code) = live else {
            return Err(ServiceError::Unauthenticated(CODE_REFUSED.to_owned()));
        };
        if !matched {
            let failures = code.failures + 1;
            if failures >= i32::try_from(self.settings.code_tries).unwrap_or(i32::MAX) {
                sign_in_codes::Entity::delete_by_id(handle).exec(&self.db).await?;
            } else {
                sign_in_codes::Entity::update_many()
                    .col_expr(
                        sign_in_codes::Column::Failures,
                        sea_orm::sea_query::ExprTrait::add(Expr::col(sign_in_codes::Column::Failures), 1),
                    )
                    .filter(sign_in_codes::Column::Handle.eq(&handle))
                    .exec(&self.db)
                    .await?;
            }
            return Err(ServiceError::Unauthenticated(CODE_REFUSED.to_owned()));
        }
        let txn = self.db.begin().await?;
        let used = sign_in_codes::Entity::delete_by_id(handle).exec(&txn).await?;
        if used.rows_affected != 1 {
            return Err(ServiceError::Unauthenticated(CODE_REFUSED.to_owned()));
        }
        let tokens = self
            .open_session(&txn, &code.player_id, MEMBER, &[Role::Player], self.settings.member_session_secs)
            .await?;
        txn.commit().await?;
        Ok(tokens)
    }

    /// Exchanges a refresh token for new tokens (see the module docs for reuse).
    pub async fn refresh(&self, refresh_token: &str) -> Result<Tokens, ServiceError> {
        let refresh_token = refresh_token.trim();
        if refresh_token.is_empty() {
            return Err(ServiceError::invalid("refresh_token", "required"));
        }
        let issuer = self.issuer()?;
        let hash = secrets::refresh_token_hash(refresh_token);
        let now = now_ms();
        let txn = self.db.begin().await?;
        let Some(token) = refresh_tokens::Entity::find_by_id(hash.clone()).one(&txn).await? else {
            return Err(ServiceError::Unauthenticated("refresh token not recognised; sign in again".to_owned()));
        };
        let session = sessions::Entity::find_by_id(token.session_id.clone()).one(&txn).await?;
        let Some(session) = session.filter(|s| s.ended_at_ms.is_none() && s.expires_at_ms > now) else {
            return Err(ServiceError::Unauthenticated("this session has ended; sign in again".to_owned()));
        };
        let spent = refresh_tokens::Entity::update_many()
            .col_expr(refresh_tokens::Column::SpentAtMs, Expr::value(now))
            .filter(refresh_tokens::Column::TokenHash.eq(&hash))
            .filter(refresh_tokens::Column::SpentAtMs.is_null())
            .exec(&txn)
            .await?;
        if token.spent_at_ms.is_some() || spent.rows_affected != 1 {
            // Spent before: whoever presents it now, or whoever presented it first, is not the
            // session's one holder. Neither keeps it.
            let ended = self.end_sessions(&txn, &session.subject, Some(&session.session_id)).await?;
            txn.commit().await?;
            self.note_ended(&ended);
            tracing::warn!(session = %session.session_id, subject = %session.subject, "a spent refresh token was used again; session ended");
            return Err(ServiceError::Unauthenticated(
                "this refresh token was used before, so the session is ended in case someone else holds it; sign in \
                 again"
                    .to_owned(),
            ));
        }
        let new_token = self.give_refresh_token(&txn, &session.session_id, now).await?;
        txn.commit().await?;
        self.tokens(
            issuer,
            &session.session_id,
            &session.subject,
            &roles_of(&session.roles),
            session.expires_at_ms,
            new_token,
        )
    }

    /// The desk issues a code for a member on the register, replacing his unused ones, and has it
    /// shown or mailed to him as `delivery` says.
    pub async fn issue_code(
        &self,
        player_id: &str,
        issued_by: &str,
        delivery: pb::CodeDelivery,
    ) -> Result<pb::IssueSignInCodeResponse, ServiceError> {
        let player_id = player_id.trim();
        if player_id.is_empty() {
            return Err(ServiceError::invalid("player_id", "required: the member's player id"));
        }
        let mailer = match delivery {
            pb::CodeDelivery::Email => Some(self.mailer()?),
            pb::CodeDelivery::Unspecified | pb::CodeDelivery::ShowToDesk => None,
        };
        let player = players::Entity::find()
            .filter(players::Column::PlayerId.eq(player_id))
            .one(&self.db)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("player {player_id} is not on the register")))?;
        if !player.active {
            return Err(ServiceError::FailedPrecondition(format!(
                "player {player_id} is not an active member; the desk makes him active first (player update)"
            )));
        }
        // Checked before a code is made: a refusal leaves his current code as it was.
        let recipient = mailer.map(|_| mail::recipient(&player)).transpose()?;
        let (handle, secret, expires) = self.store_code(player_id, issued_by).await?;
        let code = secrets::format_code(&handle, &secret);
        let mut response = pb::IssueSignInCodeResponse {
            code: String::new(),
            player_id: player_id.to_owned(),
            expires_at: Some(timestamp(expires)),
            delivery: pb::CodeDelivery::ShowToDesk as i32,
            sent_to: String::new(),
        };
        match mailer.zip(recipient) {
            Some((mailer, to)) => {
                response.sent_to = self.mail_code(mailer, &player, to, &code, handle, expires).await?;
                response.delivery = pb::CodeDelivery::Email as i32;
            }
            None => response.code = code,
        }
        Ok(response)
    }

    /// Stores a new code for `player_id`, replacing his unused ones: its handle, its secret and
    /// its expiry.
    async fn store_code(&self, player_id: &str, issued_by: &str) -> Result<(String, String, i64), ServiceError> {
        let expires = now_ms().saturating_add(secs_ms(self.settings.code_secs));
        // A handle is 20 bits and only live codes are kept, so a taken one is rare; try again then.
        for _ in 0..3 {
            let (handle, secret) = secrets::generate_code();
            let secret_hash = secrets::hash(secret.clone()).await?;
            let txn = self.db.begin().await?;
            sign_in_codes::Entity::delete_many()
                .filter(
                    sea_orm::Condition::any()
                        .add(sign_in_codes::Column::PlayerId.eq(player_id))
                        .add(sign_in_codes::Column::ExpiresAtMs.lte(now_ms())),
                )
                .exec(&txn)
                .await?;
            if sign_in_codes::Entity::find_by_id(handle.clone()).one(&txn).await?.is_some() {
                continue;
            }
            sign_in_codes::ActiveModel {
                handle: Set(handle.clone()),
                player_id: Set(player_id.to_owned()),
                secret_hash: Set(secret_hash),
                issued_by: Set(issued_by.to_owned()),
                expires_at_ms: Set(expires),
                failures: Set(0),
            }
            .insert(&txn)
            .await?;
            txn.commit().await?;
            return Ok((handle, secret, expires));
        }
        Err(ServiceError::Unavailable("no free sign-in code was found; try again".to_owned()))
    }

    /// The desk ends every session of a member and spends his unused codes.
    pub async fn revoke_member(&self, player_id: &str) -> Result<u32, ServiceError> {
        let player_id = player_id.trim();
        if player_id.is_empty() {
            return Err(ServiceError::invalid("player_id", "required: the member's player id"));
        }
        let txn = self.db.begin().await?;
        let ended = self.end_sessions(&txn, player_id, None).await?;
        sign_in_codes::Entity::delete_many().filter(sign_in_codes::Column::PlayerId.eq(player_id)).exec(&txn).await?;
        txn.commit().await?;
        self.note_ended(&ended);
        Ok(u32::try_from(ended.len()).unwrap_or(u32::MAX))
    }

    /// The staff accounts, by name.
    pub async fn accounts(&self) -> Result<Vec<pb::Account>, ServiceError> {
        let rows = staff_accounts::Entity::find().order_by_asc(staff_accounts::Column::Name).all(&self.db).await?;
        Ok(rows.iter().map(account_message).collect())
    }

    /// One staff account, NOT_FOUND if there is none by that name.
    pub async fn account(&self, name: &str) -> Result<pb::Account, ServiceError> {
        Ok(account_message(&find_account(&self.db, name).await?))
    }

    /// Creates a staff account; with no password given, one is generated and returned.
    pub async fn create_account(
        &self,
        name: &str,
        roles: &[Role],
        password: &str,
    ) -> Result<(pb::Account, Option<String>), ServiceError> {
        check_name(name)?;
        check_roles(roles)?;
        let (password, generated) = password_or_generated(password)?;
        let hash = secrets::hash(password).await?;
        let now = chrono::Utc::now();
        let row = staff_accounts::ActiveModel {
            name: Set(name.to_owned()),
            password_hash: Set(hash),
            roles: Set(roles_text(roles)),
            created_at: Set(now),
            password_set_at: Set(now),
        };
        let row = match row.insert(&self.db).await {
            Ok(row) => row,
            Err(e) if matches!(e.sql_err(), Some(sea_orm::SqlErr::UniqueConstraintViolation(_))) => {
                return Err(ServiceError::AlreadyExists(format!("there is already an account named {name:?}")));
            }
            Err(e) => return Err(e.into()),
        };
        Ok((account_message(&row), generated))
    }

    /// Replaces an account's roles and ends its sessions. The last administrator keeps his role.
    pub async fn set_roles(&self, name: &str, roles: &[Role]) -> Result<pb::Account, ServiceError> {
        check_roles(roles)?;
        let txn = self.db.begin().await?;
        let account = find_account(&txn, name).await?;
        if !roles.contains(&Role::Admin) && roles_of(&account.roles).contains(&Role::Admin) {
            let admins = staff_accounts::Entity::find()
                .all(&txn)
                .await?
                .into_iter()
                .filter(|a| roles_of(&a.roles).contains(&Role::Admin))
                .count();
            if admins <= 1 {
                return Err(ServiceError::FailedPrecondition(format!(
                    "{name} is the club's only administrator: make another first, or the club would have none"
                )));
            }
        }
        let mut row: staff_accounts::ActiveModel = account.into();
        row.roles = Set(roles_text(roles));
        let row = row.update(&txn).await?;
        let ended = self.end_sessions(&txn, &staff_subject(name), None).await?;
        txn.commit().await?;
        self.note_ended(&ended);
        Ok(account_message(&row))
    }

    /// Sets a new password (generated unless given), ends the account's sessions and lifts its
    /// throttle; a generated password is returned.
    pub async fn reset_password(&self, name: &str, password: &str) -> Result<Option<String>, ServiceError> {
        let (password, generated) = password_or_generated(password)?;
        let hash = secrets::hash(password).await?;
        let txn = self.db.begin().await?;
        let mut row: staff_accounts::ActiveModel = find_account(&txn, name).await?.into();
        row.password_hash = Set(hash);
        row.password_set_at = Set(chrono::Utc::now());
        row.update(&txn).await?;
        let ended = self.end_sessions(&txn, &staff_subject(name), None).await?;
        txn.commit().await?;
        self.note_ended(&ended);
        self.throttle.succeeded(name);
        Ok(generated)
    }

    /// On a club's first start, when no account holds the administrator's role: makes the
    /// administrator `admin` with a generated password, to be told to whoever started it. `None`
    /// when there is one already (or another replica made it just now).
    pub async fn first_administrator(&self) -> Result<Option<FirstAdministrator>, ServiceError> {
        let accounts = staff_accounts::Entity::find().all(&self.db).await?;
        if accounts.iter().any(|a| roles_of(&a.roles).contains(&Role::Admin)) {
            return Ok(None);
        }
        let name = if accounts.iter().any(|a| a.name == FIRST_ADMINISTRATOR) {
            format!("{FIRST_ADMINISTRATOR}-{}", &uuid::Uuid::new_v4().simple().to_string()[..6])
        } else {
            FIRST_ADMINISTRATOR.to_owned()
        };
        match self.create_account(&name, &[Role::Admin], "").await {
            Ok((_, password)) => Ok(password.map(|password| FirstAdministrator { name, password })),
            Err(ServiceError::AlreadyExists(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

async fn find_account(db: &impl ConnectionTrait, name: &str) -> Result<staff_accounts::Model, ServiceError> {
    if name.trim().is_empty() {
        return Err(ServiceError::invalid("name", "required: the account name"));
    }
    staff_accounts::Entity::find_by_id(name.to_owned())
        .one(db)
        .await?
        .ok_or_else(|| ServiceError::NotFound(format!("no account named {name:?}")))
}

fn check_name(name: &str) -> Result<(), ServiceError> {
    let fits = (1..=64).contains(&name.len())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if fits { Ok(()) } else { Err(ServiceError::invalid("name", "1 to 64 letters, digits, '.', '_' or '-'")) }
}

fn check_roles(roles: &[Role]) -> Result<(), ServiceError> {
    if roles.is_empty() {
        return Err(ServiceError::invalid("roles", "at least one of desk, arbiter, committee, admin"));
    }
    if let Some(role) = roles.iter().find(|r| !STAFF_ROLES.contains(r)) {
        return Err(ServiceError::invalid(
            "roles",
            format!("{role} is not a staff role: a staff account holds desk, arbiter, committee or admin"),
        ));
    }
    Ok(())
}

fn password_or_generated(password: &str) -> Result<(String, Option<String>), ServiceError> {
    if password.is_empty() {
        let generated = secrets::generate_password();
        return Ok((generated.clone(), Some(generated)));
    }
    if password.chars().count() < secrets::MIN_PASSWORD_CHARS {
        return Err(ServiceError::invalid(
            "password",
            format!("at least {} characters (or empty, to have one generated)", secrets::MIN_PASSWORD_CHARS),
        ));
    }
    Ok((password.to_owned(), None))
}

fn account_message(row: &staff_accounts::Model) -> pb::Account {
    pb::Account {
        name: row.name.clone(),
        roles: roles_of(&row.roles).into_iter().map(|r| grpc::role_to_proto(r) as i32).collect(),
        created_at: Some(timestamp(row.created_at.timestamp_millis())),
        password_set_at: Some(timestamp(row.password_set_at.timestamp_millis())),
    }
}
