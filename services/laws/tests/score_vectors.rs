//! The worked cases of `tests/vectors/*.json` (docs/worked-cases.md), every case run through
//! the laws crate.
//!
//! The files are kept in the repository, so the tests depend on nothing beside it.
//! `copies_match_the_shared_vectors` keeps one optional check: when an upstream copy of the
//! files sits beside the checkout (a `shared/vectors` directory next to the repository's root),
//! the files here must be identical to it, so that a case corrected upstream is not missed;
//! without one it does nothing.
//!
//! Each test runs every case and reports all failing cases by number, not just the first.

use std::path::PathBuf;

use laws::Side;
use laws::contract::Contract;
use laws::score::Tricks;
use laws::score::duplicate;
use laws::score::honors::{Honors, HonorsClaim};
use laws::score::imps::imps;
use laws::score::matchpoints::matchpoints;
use laws::score::rubber::{DealResult, PlayedDeal, Rubber, RubberOptions, RubberStatus};
use serde::Deserialize;

fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/vectors")
}

fn load<T: for<'de> Deserialize<'de>>(file: &str) -> Vec<T> {
    #[derive(Deserialize)]
    struct File<T> {
        cases: Vec<T>,
    }
    let path = vectors_dir().join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let parsed: File<T> = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(!parsed.cases.is_empty(), "{file} has no cases");
    parsed.cases
}

fn report(file: &str, cases: usize, failures: Vec<String>) {
    assert!(failures.is_empty(), "{} of {cases} cases of {file} failed:\n{}", failures.len(), failures.join("\n"));
}

fn contract(text: &str) -> Contract {
    text.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn tricks(n: u8) -> Tricks {
    Tricks::new(n).unwrap_or_else(|e| panic!("{e}"))
}

#[derive(Deserialize)]
struct DuplicateCase {
    contract: String,
    vulnerable: bool,
    tricks: u8,
    score: i32,
}

#[test]
fn law_77_every_duplicate_score_vector() {
    let cases: Vec<DuplicateCase> = load("duplicate_scores.json");
    let failures = cases
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let got = duplicate::score(contract(&c.contract), c.vulnerable, tricks(c.tricks));
            (got != c.score).then(|| {
                format!(
                    "case {i}: {} {} {} tricks: expected {}, got {got}",
                    c.contract,
                    if c.vulnerable { "vul" } else { "non-vul" },
                    c.tricks,
                    c.score
                )
            })
        })
        .collect();
    report("duplicate_scores.json", cases.len(), failures);
}

#[derive(Deserialize)]
struct ImpCase {
    difference: i32,
    imps: i32,
}

#[test]
fn law_78b_every_imp_vector() {
    let cases: Vec<ImpCase> = load("imps.json");
    let failures = cases
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let got = imps(c.difference);
            (got != c.imps).then(|| format!("case {i}: difference {}: expected {}, got {got}", c.difference, c.imps))
        })
        .collect();
    report("imps.json", cases.len(), failures);
}

#[derive(Deserialize)]
struct MatchpointCase {
    scores: Vec<i32>,
    matchpoints: Vec<u32>,
}

#[test]
fn law_78a_every_matchpoint_vector() {
    let cases: Vec<MatchpointCase> = load("matchpoints.json");
    let failures = cases
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let got = matchpoints(&c.scores);
            (got != c.matchpoints)
                .then(|| format!("case {i}: scores {:?}: expected {:?}, got {got:?}", c.scores, c.matchpoints))
        })
        .collect();
    report("matchpoints.json", cases.len(), failures);
}

#[derive(Deserialize)]
struct HonorsEntry {
    side: String,
    points: u32,
}

#[derive(Deserialize)]
struct RubberDeal {
    #[serde(default)]
    passed_out: bool,
    declarer: Option<String>,
    contract: Option<String>,
    tricks: Option<u8>,
    #[serde(default)]
    honors: Vec<HonorsEntry>,
}

#[derive(Deserialize)]
struct PerSide<T> {
    we: T,
    they: T,
}

#[derive(Deserialize)]
struct RubberCase {
    deals: Vec<RubberDeal>,
    finished: bool,
    games: PerSide<u8>,
    totals: PerSide<u32>,
}

/// "We" are North-South on our pad, "they" East-West.
fn side(name: &str) -> Result<Side, String> {
    match name {
        "we" => Ok(Side::NorthSouth),
        "they" => Ok(Side::EastWest),
        other => Err(format!("unknown side {other:?}")),
    }
}

fn deal_result(deal: &RubberDeal) -> Result<DealResult, String> {
    if deal.passed_out {
        if !deal.honors.is_empty() {
            return Err("honors on a passed-out deal (Law 81: only a played deal scores honors)".into());
        }
        return Ok(DealResult::PassedOut);
    }
    let declarer = side(deal.declarer.as_deref().ok_or("no declarer")?)?;
    let contract: Contract = deal.contract.as_deref().ok_or("no contract")?.parse().map_err(|e| format!("{e}"))?;
    let tricks = Tricks::new(deal.tricks.ok_or("no tricks")?).map_err(|e| e.to_string())?;
    let honors = match deal.honors.as_slice() {
        [] => None,
        [h] => Some(HonorsClaim {
            side: side(&h.side)?,
            honors: Honors::from_points(h.points, contract.denomination()).map_err(|e| e.to_string())?,
        }),
        _ => return Err("more than one honors claim: only one hand can hold honors (Law 81)".into()),
    };
    PlayedDeal::new(declarer, contract, tricks, honors).map(DealResult::Played).map_err(|e| e.to_string())
}

fn play_rubber(case: &RubberCase) -> Result<Rubber, String> {
    let mut rubber = Rubber::new(RubberOptions::default());
    for (d, deal) in case.deals.iter().enumerate() {
        let result = deal_result(deal).map_err(|e| format!("deal {}: {e}", d + 1))?;
        rubber = rubber.record(result).map_err(|e| format!("deal {}: {e}", d + 1))?;
    }
    if !case.finished {
        rubber = rubber.abandon().map_err(|e| format!("closing: {e}"))?;
    }
    Ok(rubber)
}

#[test]
fn laws_72_to_81_every_rubber_vector() {
    let cases: Vec<RubberCase> = load("rubbers.json");
    let mut failures = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let rubber = match play_rubber(case) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("case {i}: {e}"));
                continue;
            }
        };
        let finished = matches!(rubber.status(), RubberStatus::Won { .. });
        let games = (rubber.games_won(Side::NorthSouth), rubber.games_won(Side::EastWest));
        let totals = (rubber.total(Side::NorthSouth), rubber.total(Side::EastWest));
        let expected = (case.finished, (case.games.we, case.games.they), (case.totals.we, case.totals.they));
        if (finished, games, totals) != expected {
            failures.push(format!(
                "case {i}: expected finished/games/totals {expected:?}, got {:?}",
                (finished, games, totals)
            ));
        }
    }
    report("rubbers.json", cases.len(), failures);
}

#[test]
fn copies_match_the_shared_vectors() {
    // An upstream copy, when one sits beside the checkout: next to the repository's root, two
    // levels above services/laws.
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/vectors");
    if !shared.is_dir() {
        return; // a worktree elsewhere: the copies are what the tests above use
    }
    for file in ["duplicate_scores.json", "imps.json", "matchpoints.json", "rubbers.json"] {
        let ours = std::fs::read_to_string(vectors_dir().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let theirs = std::fs::read_to_string(shared.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(ours, theirs, "tests/vectors/{file} differs from shared/vectors/{file}: copy it again");
    }
}
