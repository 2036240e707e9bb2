//! Score conventions: mate scores carry their distance from the root, and are stored in the
//! transposition table relative to the node so that they stay right wherever they are read.

use crate::egtb::Verdict;
use crate::rules::RuleScore;
use crate::search::Score;

use super::MAX_PLY;

/// Larger than any score.
pub const INFINITE: i32 = 32_000;
/// Mate at the root; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// The longest mate an endgame table holds, in plies (`egtb::verdict`).
const TABLE_PLIES: i32 = 256;
/// Scores at or above this are mates: found by the search, or by a table at any ply.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - TABLE_PLIES;
/// Scores at or above this are decisive (mates): no pruning margins apply.
pub const DECISIVE: i32 = MATE_BOUND;
/// Marks a missing static evaluation (in check).
pub const NO_EVAL: i32 = -INFINITE;

/// The side to move is mated here, `ply` plies from the root.
#[inline(always)]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// The side to move mates in `ply` plies from the root.
#[inline(always)]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// Value of a repetition verdict for the side to move at `ply`: a loss by rule scores like
/// being mated there, a win like mating.
#[inline(always)]
pub const fn rule_value(r: RuleScore, ply: usize) -> i32 {
    match r {
        RuleScore::Draw => 0,
        RuleScore::Win => mate_in(ply),
        RuleScore::Loss => mated_in(ply),
    }
}

/// Value of an endgame table's verdict for the side to move at `ply`: its mates are exact
/// (distance to mate under best play), so the search prefers the shorter win.
#[inline(always)]
pub const fn table_value(v: Verdict, ply: usize) -> i32 {
    match v {
        Verdict::Draw => 0,
        Verdict::Win(n) => mate_in(ply + n as usize),
        Verdict::Loss(n) => mated_in(ply + n as usize),
    }
}

/// Mate scores from root-relative to node-relative, for storing.
#[inline(always)]
pub const fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Mate scores from node-relative to root-relative, after probing.
#[inline(always)]
pub const fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A search score as the protocols report it (mate in moves, not plies).
pub fn report(score: i32) -> Score {
    if score >= MATE_BOUND {
        Score::Mate((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Score::Mate(-(MATE + score) / 2)
    } else {
        Score::Cp(score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_round_trip_through_the_table() {
        for ply in [0, 3, 17] {
            for s in [mate_in(ply + 5), mated_in(ply + 4), 123, -4_000] {
                assert_eq!(from_tt(to_tt(s, ply), ply), s);
            }
        }
        // Stored relative to the node: mate in 2 plies from a node at ply 3.
        assert_eq!(to_tt(mate_in(5), 3), mate_in(2));
    }

    #[test]
    fn rule_verdicts_score_like_mates() {
        assert_eq!(rule_value(RuleScore::Draw, 7), 0);
        assert_eq!(rule_value(RuleScore::Loss, 7), mated_in(7));
        assert_eq!(rule_value(RuleScore::Win, 7), mate_in(7));
    }

    #[test]
    fn the_longest_table_mate_at_the_deepest_ply_is_still_a_mate() {
        let longest = Verdict::Win(253);
        assert!(table_value(longest, MAX_PLY) >= MATE_BOUND);
        assert!(table_value(Verdict::Loss(250), MAX_PLY) <= -MATE_BOUND);
        assert!(table_value(Verdict::Win(3), 4) > table_value(Verdict::Win(5), 4));
        assert_eq!(report(table_value(Verdict::Win(23), 0)), Score::Mate(12));
    }

    #[test]
    fn reported_mates_count_moves() {
        assert_eq!(report(mate_in(1)), Score::Mate(1));
        assert_eq!(report(mate_in(3)), Score::Mate(2));
        assert_eq!(report(mated_in(2)), Score::Mate(-1));
        assert_eq!(report(mated_in(0)), Score::Mate(0));
        assert_eq!(report(-55), Score::Cp(-55));
    }
}
