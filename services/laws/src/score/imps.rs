//! International matchpoints (Law 78B of the Laws of Duplicate Bridge): the point difference
//! between two scores converted with the Law's scale, and the two common ways of getting a
//! difference on a board of many results, cross-IMPs and Butler (IMPs against a datum).
//!
//! The scale is printed for differences in tens (20-40: 1 IMP, ..., 4000 and more: 24). It is
//! applied here as lower bounds, so that a difference that is not a multiple of ten (from a
//! datum or a weighted score) falls in the band below the next bound rather than in a gap.
//! A difference under 20 is worth nothing.

/// The lower bound of each band of the Law 78B scale: a difference of at least
/// `IMP_SCALE[k]` points is worth `k + 1` IMPs.
pub const IMP_SCALE: [u32; 24] = [
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000,
    3500, 4000,
];

/// The IMPs for a points difference (Law 78B), signed like the difference: `imps(-d)` is
/// `-imps(d)`.
pub fn imps(difference: i32) -> i32 {
    let magnitude = IMP_SCALE.partition_point(|bound| *bound <= difference.unsigned_abs()) as i32;
    if difference < 0 { -magnitude } else { magnitude }
}

/// The IMPs for a difference that need not be a whole number of points (a weighted score or
/// an unrounded datum), by the same lower bounds of the Law 78B scale.
pub fn imps_f64(difference: f64) -> i32 {
    let magnitude = IMP_SCALE.partition_point(|bound| f64::from(*bound) <= difference.abs()) as i32;
    if difference < 0.0 { -magnitude } else { magnitude }
}

/// Cross-IMPs: each score against every other score on the board, summed (Law 78B applied
/// to each pair of results). Returns each score's total, in order; divide by `n - 1` for the
/// average per comparison. The totals sum to zero.
pub fn cross_imps(scores: &[i32]) -> Vec<i32> {
    let mut out = vec![0; scores.len()];
    for (i, a) in scores.iter().enumerate() {
        for (j, b) in scores.iter().enumerate().skip(i + 1) {
            let won = imps(a - b);
            out[i] += won;
            out[j] -= won;
        }
    }
    out
}

/// How the Butler datum of a board is taken. The Laws give no datum (Law 78B only converts
/// a difference; Law 78D leaves other methods to the conditions of contest), so this is our
/// reading, configurable: the mean of the board's scores after dropping the `trim` highest
/// and `trim` lowest when there are at least `trim_from` scores, rounded to the nearest ten
/// (halves away from zero) when `round_to_ten`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DatumRule {
    /// How many scores to drop at each end.
    pub trim: usize,
    /// The fewest scores for which the ends are dropped.
    pub trim_from: usize,
    /// Round the mean to the nearest ten points.
    pub round_to_ten: bool,
}

impl Default for DatumRule {
    /// Our default: drop the single highest and lowest score when there are five or more,
    /// and round to the nearest ten.
    fn default() -> Self {
        DatumRule { trim: 1, trim_from: 5, round_to_ten: true }
    }
}

impl DatumRule {
    /// The datum of `scores` (in any order), or `None` for an empty board (our reading; Law
    /// 78D leaves the datum to the conditions of contest).
    pub fn datum(&self, scores: &[f64]) -> Option<f64> {
        if scores.is_empty() {
            return None;
        }
        let mut sorted = scores.to_vec();
        sorted.sort_unstable_by(f64::total_cmp);
        let kept = if sorted.len() >= self.trim_from && sorted.len() > 2 * self.trim {
            &sorted[self.trim..sorted.len() - self.trim]
        } else {
            &sorted[..]
        };
        let mean = kept.iter().sum::<f64>() / kept.len() as f64;
        Some(if self.round_to_ten { (mean / 10.0).round() * 10.0 } else { mean })
    }
}

/// Butler scoring of a board: each score's IMPs against the datum (Law 78B), with the datum.
pub fn butler(scores: &[i32], rule: DatumRule) -> Option<(f64, Vec<i32>)> {
    let as_f64: Vec<f64> = scores.iter().map(|s| f64::from(*s)).collect();
    let datum = rule.datum(&as_f64)?;
    Some((datum, as_f64.iter().map(|s| imps_f64(s - datum)).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn law_78b_scale_bounds() {
        // The scale's boundaries (docs/worked-cases.md): 40 -> 1, 50 -> 2, 3990 -> 23, 4000 -> 24.
        assert_eq!(imps(10), 0);
        assert_eq!(imps(20), 1);
        assert_eq!(imps(40), 1);
        assert_eq!(imps(50), 2);
        assert_eq!(imps(3990), 23);
        assert_eq!(imps(4000), 24);
        assert_eq!(imps(6320), 24, "+3160 vs -3160 is capped at 24");
        assert_eq!(imps(-1420), -16);
        assert_eq!(imps(i32::MIN), -24);
    }

    #[test]
    fn law_78b_non_multiples_of_ten_fall_in_the_band_below() {
        assert_eq!(imps(45), 1);
        assert_eq!(imps_f64(19.9), 0);
        assert_eq!(imps_f64(-89.5), -2);
        assert_eq!(imps_f64(4000.0), 24);
    }

    #[test]
    fn law_78b_cross_imps_sum_to_zero() {
        let totals = cross_imps(&[420, 420, -50, 170]);
        // 420 vs 420: 0; vs -50: 10; vs 170: 6 -> 16 each for the two 420s.
        assert_eq!(totals, vec![16, 16, -26, -6]);
        assert_eq!(totals.iter().sum::<i32>(), 0);
    }

    #[test]
    fn butler_datum_drops_the_extremes_and_rounds_to_ten() {
        let rule = DatumRule::default();
        // 1430 and -100 dropped; mean of 420, 450, 420 = 430.
        let (datum, imps) = butler(&[1430, 420, 450, 420, -100], rule).unwrap_or_else(|| panic!("empty board"));
        assert_eq!(datum, 430.0);
        assert_eq!(imps, vec![14, 0, 1, 0, -11]);
        // Fewer than five: no trimming; mean of 100 and 135 = 117.5 -> 120.
        assert_eq!(rule.datum(&[100.0, 135.0]), Some(120.0));
        assert_eq!(rule.datum(&[]), None);
    }
}
