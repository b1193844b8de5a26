//! `bridgeclub.membership.v1.SignInService`: the contract's face of [`super::SignIn`].

use tonic::{Request, Response, Status};

use api::common::v1 as common;
use api::membership::v1 as pb;
use api::membership::v1::sign_in_service_server::SignInService;
use platform::ServiceError;
use platform::auth::{Principal, Role};

use super::{SignIn, Tokens};
use crate::state::timestamp;

/// The contract's role for a platform role.
pub fn role_to_proto(role: Role) -> common::Role {
    match role {
        Role::Player => common::Role::Player,
        Role::Desk => common::Role::Desk,
        Role::Arbiter => common::Role::Arbiter,
        Role::Committee => common::Role::Committee,
        Role::Admin => common::Role::Admin,
        Role::Service => common::Role::Service,
    }
}

/// The platform's roles of a request's `roles` field; an unknown or unspecified one names it.
fn roles_from_proto(roles: &[i32]) -> Result<Vec<Role>, ServiceError> {
    let mut out = Vec::with_capacity(roles.len());
    for (i, number) in roles.iter().enumerate() {
        let role = common::Role::try_from(*number)
            .ok()
            .and_then(Role::from_proto)
            .ok_or_else(|| ServiceError::invalid(&format!("roles[{i}]"), format!("{number} is not a role")))?;
        if !out.contains(&role) {
            out.push(role);
        }
    }
    Ok(out)
}

fn signed_in(tokens: Tokens) -> pb::SignedIn {
    pb::SignedIn {
        access_token: tokens.access_token,
        access_expires_at: Some(timestamp(tokens.access_expires_at_ms)),
        refresh_token: tokens.refresh_token,
        refresh_expires_at: Some(timestamp(tokens.session_expires_at_ms)),
        subject: tokens.subject,
        roles: tokens.roles.into_iter().map(|r| role_to_proto(r) as i32).collect(),
        session_id: tokens.session_id,
    }
}

fn answer<T>(result: Result<T, ServiceError>) -> Result<Response<T>, Status> {
    result.map(Response::new).map_err(Status::from)
}

#[tonic::async_trait]
impl SignInService for SignIn {
    async fn sign_in(&self, request: Request<pb::SignInRequest>) -> Result<Response<pb::SignInResponse>, Status> {
        let request = request.into_inner();
        answer(
            self.sign_in(&request.name, &request.password)
                .await
                .map(|tokens| pb::SignInResponse { signed_in: Some(signed_in(tokens)) }),
        )
    }

    async fn redeem_code(
        &self,
        request: Request<pb::RedeemCodeRequest>,
    ) -> Result<Response<pb::RedeemCodeResponse>, Status> {
        answer(
            self.redeem(&request.get_ref().code)
                .await
                .map(|tokens| pb::RedeemCodeResponse { signed_in: Some(signed_in(tokens)) }),
        )
    }

    async fn refresh(&self, request: Request<pb::RefreshRequest>) -> Result<Response<pb::RefreshResponse>, Status> {
        answer(
            self.refresh(&request.get_ref().refresh_token)
                .await
                .map(|tokens| pb::RefreshResponse { signed_in: Some(signed_in(tokens)) }),
        )
    }

    async fn issue_sign_in_code(
        &self,
        request: Request<pb::IssueSignInCodeRequest>,
    ) -> Result<Response<pb::IssueSignInCodeResponse>, Status> {
        let issued_by = Principal::of(&request)?.subject.clone();
        let request = request.into_inner();
        let issued = async {
            let delivery = pb::CodeDelivery::try_from(request.delivery).map_err(|_| {
                ServiceError::invalid(
                    "delivery",
                    format!(
                        "{} is not a CodeDelivery: CODE_DELIVERY_SHOW_TO_DESK or CODE_DELIVERY_EMAIL",
                        request.delivery
                    ),
                )
            })?;
            self.issue_code(&request.player_id, &issued_by, delivery).await
        };
        answer(issued.await)
    }

    async fn revoke_member_sessions(
        &self,
        request: Request<pb::RevokeMemberSessionsRequest>,
    ) -> Result<Response<pb::RevokeMemberSessionsResponse>, Status> {
        answer(
            self.revoke_member(&request.get_ref().player_id)
                .await
                .map(|sessions_revoked| pb::RevokeMemberSessionsResponse { sessions_revoked }),
        )
    }

    async fn create_account(
        &self,
        request: Request<pb::CreateAccountRequest>,
    ) -> Result<Response<pb::CreateAccountResponse>, Status> {
        let request = request.into_inner();
        let created = async {
            let roles = roles_from_proto(&request.roles)?;
            let (account, generated) = self.create_account(&request.name, &roles, &request.password).await?;
            Ok(pb::CreateAccountResponse { account: Some(account), generated_password: generated.unwrap_or_default() })
        };
        answer(created.await)
    }

    async fn list_accounts(
        &self,
        _request: Request<pb::ListAccountsRequest>,
    ) -> Result<Response<pb::ListAccountsResponse>, Status> {
        answer(self.accounts().await.map(|accounts| pb::ListAccountsResponse { accounts }))
    }

    async fn get_account(
        &self,
        request: Request<pb::GetAccountRequest>,
    ) -> Result<Response<pb::GetAccountResponse>, Status> {
        let name = request.into_inner().name;
        answer(self.account(&name).await.map(|account| pb::GetAccountResponse { account: Some(account) }))
    }

    async fn set_account_roles(
        &self,
        request: Request<pb::SetAccountRolesRequest>,
    ) -> Result<Response<pb::SetAccountRolesResponse>, Status> {
        let request = request.into_inner();
        let set = async {
            let roles = roles_from_proto(&request.roles)?;
            let account = self.set_roles(&request.name, &roles).await?;
            Ok(pb::SetAccountRolesResponse { account: Some(account) })
        };
        answer(set.await)
    }

    async fn reset_password(
        &self,
        request: Request<pb::ResetPasswordRequest>,
    ) -> Result<Response<pb::ResetPasswordResponse>, Status> {
        let request = request.into_inner();
        answer(
            self.reset_password(&request.name, &request.password)
                .await
                .map(|generated| pb::ResetPasswordResponse { generated_password: generated.unwrap_or_default() }),
        )
    }
}
