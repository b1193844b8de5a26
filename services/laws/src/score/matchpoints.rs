//! Matchpoints (Law 78A of the Laws of Duplicate Bridge): each score on a board earns two
//! units for each score it beats, one for each score it ties and none for each score that
//! beats it. With `n` scores the top is `2(n - 1)` units and the board's units sum to
//! `n(n - 1)`; a percentage is units over the top. The units are "matchpoints or half
//! matchpoints": a club may show them as 1 and 1/2 ([`HalfMatchpoints`]).

use std::fmt;

/// The matchpoint units (2 per score beaten, 1 per tie) of each score in `scores`, in the
/// same order (Law 78A). `O(n log n)`.
pub fn matchpoints(scores: &[i32]) -> Vec<u32> {
    let mut out = vec![0; scores.len()];
    matchpoints_into(scores, &mut out);
    out
}

/// [`matchpoints`] (Law 78A) into a caller's buffer, which must be as long as `scores`; one
/// scratch allocation for the sorted copy.
pub fn matchpoints_into(scores: &[i32], out: &mut [u32]) {
    let mut sorted = scores.to_vec();
    sorted.sort_unstable();
    for (score, units) in scores.iter().zip(out.iter_mut()) {
        let beaten = sorted.partition_point(|s| s < score);
        let not_above = sorted.partition_point(|s| s <= score);
        let tied = not_above - beaten - 1; // less the score itself
        *units = (2 * beaten + tied) as u32;
    }
}

/// The top on a board of `results` comparable scores: `2(n - 1)` units (Law 78A).
pub const fn top(results: usize) -> u32 {
    if results == 0 { 0 } else { 2 * (results as u32 - 1) }
}

/// `units` as a percentage of the top on a board of `results` scores (Law 78A). A lone
/// result has nothing to be compared with; it is shown as 50%.
pub fn percentage(units: f64, results: usize) -> f64 {
    let top = top(results);
    if top == 0 { 50.0 } else { 100.0 * units / f64::from(top) }
}

/// Units shown as matchpoints and half matchpoints, the club display option of Law 78A
/// ("two scoring units (matchpoints or half matchpoints)"): 7 units show as "3½".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HalfMatchpoints(pub u32);

impl fmt::Display for HalfMatchpoints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.0 / 2;
        match (whole, self.0 % 2) {
            (0, 1) => f.write_str("½"),
            (_, 1) => write!(f, "{whole}½"),
            _ => write!(f, "{whole}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn law_78a_two_per_score_beaten_one_per_tie() {
        // A worked case (docs/worked-cases.md, "Duplicate cases"): six NS scores on one board.
        let units = matchpoints(&[450, 420, 420, 170, -50, -100]);
        assert_eq!(units, vec![10, 7, 7, 4, 2, 0]);
        assert_eq!(units.iter().sum::<u32>(), 30);
        assert_eq!(top(6), 10);
        assert_eq!(percentage(7.0, 6), 70.0);
        // East-West get the complement.
        let ew: Vec<u32> = units.iter().map(|u| top(6) - u).collect();
        assert_eq!(ew, vec![0, 3, 3, 6, 8, 10]);
    }

    #[test]
    fn law_78a_four_identical_scores_get_three_each() {
        assert_eq!(matchpoints(&[620; 4]), vec![3; 4]);
    }

    #[test]
    fn law_78a_half_matchpoint_display() {
        assert_eq!(HalfMatchpoints(7).to_string(), "3½");
        assert_eq!(HalfMatchpoints(1).to_string(), "½");
        assert_eq!(HalfMatchpoints(10).to_string(), "5");
    }
}
