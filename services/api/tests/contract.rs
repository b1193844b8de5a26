//! The contract as the platform will use it: every RPC states the roles it allows (the
//! architecture's rule, "each RPC states the roles it allows"), the role table agrees with the
//! descriptors served by reflection and with the routes the generated servers answer, and a few
//! entries are what the issues ask for.

use std::collections::BTreeMap;

use api::common::v1::Role;
use prost_reflect::{DescriptorPool, Value};

const ALL_ROLES: [Role; 5] = [Role::Player, Role::Desk, Role::Arbiter, Role::Committee, Role::Admin];

/// Every RPC of the club's services in the embedded descriptor set, with the roles its
/// `allowed_roles` option lists, read independently of the build script's table.
fn roles_in_descriptors() -> BTreeMap<String, Vec<Role>> {
    roles_and_anonymity_in_descriptors()
        .into_iter()
        .filter(|(_, (_, anonymous))| !anonymous)
        .map(|(p, (r, _))| (p, r))
        .collect()
}

/// Every RPC with its roles and whether its `anonymous` option is set.
fn roles_and_anonymity_in_descriptors() -> BTreeMap<String, (Vec<Role>, bool)> {
    let pool = DescriptorPool::decode(api::FILE_DESCRIPTOR_SET).expect("the embedded descriptor set decodes");
    let option = pool.get_extension_by_name("bridgeclub.common.v1.allowed_roles").expect("the option is defined");
    let anonymous = pool.get_extension_by_name("bridgeclub.common.v1.anonymous").expect("the option is defined");
    let mut rpcs = BTreeMap::new();
    for service in pool.services().filter(|s| s.full_name().starts_with("bridgeclub.")) {
        for method in service.methods() {
            let options = method.options();
            let listed = options.get_extension(&option);
            let roles = match listed.as_ref() {
                Value::List(values) => values
                    .iter()
                    .map(|v| {
                        let number = v.as_enum_number().expect("roles are enum values");
                        Role::try_from(number).expect("a defined role")
                    })
                    .collect(),
                other => panic!("{}: allowed_roles is {other:?}", method.full_name()),
            };
            let open = options.get_extension(&anonymous).as_bool().expect("anonymous is a bool");
            rpcs.insert(format!("/{}/{}", service.full_name(), method.name()), (roles, open));
        }
    }
    rpcs
}

#[test]
fn every_rpc_of_every_service_states_the_roles_it_allows() {
    let rpcs = roles_and_anonymity_in_descriptors();
    let services: std::collections::BTreeSet<&str> = rpcs.keys().filter_map(|path| path.split('/').nth(1)).collect();
    assert_eq!(
        services.into_iter().collect::<Vec<_>>(),
        [
            "bridgeclub.appeals.v1.AppealsService",
            "bridgeclub.game.v1.GameService",
            "bridgeclub.membership.v1.MembershipService",
            "bridgeclub.membership.v1.SignInService",
            "bridgeclub.scoring.v1.ScoringService",
        ]
    );
    for (path, (roles, anonymous)) in &rpcs {
        // Exactly one of the two: the build refuses the contract otherwise.
        assert_eq!(roles.is_empty(), *anonymous, "{path} must state its roles or be anonymous, not both");
        assert_eq!(api::is_anonymous(path), *anonymous, "{path}");
        assert!(!roles.contains(&Role::Unspecified), "{path} lists ROLE_UNSPECIFIED");
        let mut distinct = roles.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), roles.len(), "{path} lists a role twice");
    }
}

#[test]
fn the_role_table_is_exactly_the_descriptors_options() {
    let table: BTreeMap<String, Vec<Role>> =
        api::ALLOWED_ROLES.iter().map(|(path, roles)| ((*path).to_owned(), roles.to_vec())).collect();
    assert_eq!(table, roles_in_descriptors());
    assert!(api::ALLOWED_ROLES.windows(2).all(|pair| pair[0].0 < pair[1].0), "sorted and unique, for binary search");
    for (path, roles) in api::ALLOWED_ROLES {
        assert_eq!(api::allowed_roles(path), Some(*roles));
    }
}

#[test]
fn every_route_the_generated_servers_answer_has_roles() {
    let generated = [
        include_str!(concat!(env!("OUT_DIR"), "/bridgeclub.membership.v1.rs")),
        include_str!(concat!(env!("OUT_DIR"), "/bridgeclub.game.v1.rs")),
        include_str!(concat!(env!("OUT_DIR"), "/bridgeclub.scoring.v1.rs")),
        include_str!(concat!(env!("OUT_DIR"), "/bridgeclub.appeals.v1.rs")),
    ];
    // The servers match the request path against string literals "/package.Service/Method".
    let routes: std::collections::BTreeSet<&str> = generated
        .iter()
        .flat_map(|source| source.split('"'))
        .filter(|literal| literal.starts_with("/bridgeclub.") && literal.matches('/').count() == 2)
        .collect();
    assert_eq!(routes.len(), api::ALLOWED_ROLES.len() + api::ANONYMOUS.len());
    for route in routes {
        assert!(
            api::allowed_roles(route).is_some() != api::is_anonymous(route),
            "{route} is served but has no roles and is not anonymous"
        );
    }
}

#[test]
fn the_table_says_what_the_issues_ask_for() {
    use api::{appeals, game, membership, scoring};

    let path = |service: &str, method: &str| format!("/{service}/{method}");
    let roles = |service: &str, method: &str| api::allowed_roles(&path(service, method));

    // Issue 7: an appeal decided by a principal without the committee role is refused; issue 16:
    // except by a member of the committee a rubber's players agreed, who calls as a player (the
    // appeals service refuses any other player, PERMISSION_DENIED).
    let committee_or_game = Some(&[Role::Committee, Role::Player][..]);
    assert_eq!(roles(appeals::v1::appeals_service_server::SERVICE_NAME, "DecideAppeal"), committee_or_game);
    assert_eq!(roles(appeals::v1::appeals_service_server::SERVICE_NAME, "HearAppeal"), committee_or_game);
    // Issue 16: the administrator alone keeps the committee roster.
    assert_eq!(roles(appeals::v1::appeals_service_server::SERVICE_NAME, "AddRosterEntry"), Some(&[Role::Admin][..]));
    // Issue 4: the desk and admin manage tables; a player may apply, withdraw, and see rosters.
    let membership = membership::v1::membership_service_server::SERVICE_NAME;
    assert_eq!(roles(membership, "OpenTable"), Some(&[Role::Desk, Role::Admin][..]));
    assert_eq!(roles(membership, "ApplyToTable"), Some(&[Role::Player, Role::Desk, Role::Admin][..]));
    assert_eq!(roles(membership, "WatchTable"), Some(&ALL_ROLES[..]));
    // Issue 5: players call and play; only the arbiter adjudicates a disputed claim.
    let game = game::v1::game_service_server::SERVICE_NAME;
    assert_eq!(roles(game, "PlayCard"), Some(&[Role::Player, Role::Desk][..]));
    assert_eq!(roles(game, "AdjudicateClaim"), Some(&[Role::Arbiter][..]));
    // Issue 6: calculators are open to every principal; adjustments come only from rulings and
    // appeals on record, through the appeals service.
    let scoring = scoring::v1::scoring_service_server::SERVICE_NAME;
    assert_eq!(roles(scoring, "ScoreDuplicateContract"), Some(&ALL_ROLES[..]));
    assert_eq!(roles(scoring, "ApplyAdjustment"), Some(&[Role::Service][..]));
    // Issue 11: a result reaches a pad from its table (the game service's identity) or is
    // entered by the desk or the arbiter; no player writes on a pad.
    assert_eq!(roles(scoring, "RecordDealResult"), Some(&[Role::Desk, Role::Arbiter, Role::Admin, Role::Service][..]));
    assert_eq!(roles(game, "StartDeal"), Some(&[Role::Player, Role::Desk, Role::Arbiter, Role::Admin][..]));
    // Law 87B: the Director divides a fouled board's scores into groups.
    assert_eq!(roles(scoring, "MarkFouledBoard"), Some(&[Role::Arbiter, Role::Admin][..]));

    // Issue 17: signing in, redeeming a code and refreshing need no token; the desk issues codes
    // and revokes members; the administrator alone manages staff accounts.
    let signin = membership::v1::sign_in_service_server::SERVICE_NAME;
    for method in ["SignIn", "RedeemCode", "Refresh"] {
        assert!(api::is_anonymous(&path(signin, method)), "{method}");
        assert_eq!(roles(signin, method), None, "{method}");
    }
    assert_eq!(api::ANONYMOUS.len(), 3, "nothing else is open without a token");
    assert_eq!(roles(signin, "IssueSignInCode"), Some(&[Role::Desk, Role::Admin][..]));
    assert_eq!(roles(signin, "RevokeMemberSessions"), Some(&[Role::Desk, Role::Admin][..]));
    for method in ["CreateAccount", "ListAccounts", "SetAccountRoles", "ResetPassword"] {
        assert_eq!(roles(signin, method), Some(&[Role::Admin][..]), "{method}");
    }

    assert_eq!(roles(game, "NoSuchMethod"), None);
    assert_eq!(api::allowed_roles("bridgeclub.game.v1.GameService/PlayCard"), None, "a path starts with '/'");
}

#[test]
fn reflection_sees_the_imports_and_the_comments() {
    let pool = DescriptorPool::decode(api::FILE_DESCRIPTOR_SET).expect("the embedded descriptor set decodes");
    for import in ["google/protobuf/timestamp.proto", "google/protobuf/descriptor.proto"] {
        assert!(pool.get_file_by_name(import).is_some(), "{import} is served for reflection clients");
    }
    let game_file = pool.get_file_by_name("bridgeclub/game/v1/game_service.proto").expect("the game service's file");
    let info = game_file.file_descriptor_proto().source_code_info.as_ref().expect("source info is kept");
    assert!(
        info.location.iter().any(|l| l.leading_comments().starts_with(" Plays a card (Laws 41 to 47).")),
        "the RPCs' comments reach reflection clients"
    );
}
