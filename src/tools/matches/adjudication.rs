//! Ending games early by the engines' own scores (both off unless asked for): resign when a
//! side keeps reporting a lost score, draw when both keep reporting a dead-level one.

use std::str::FromStr;

use crate::search::Score;

/// Scores at or beyond this count as mate in comparisons.
const MATE_CP: i32 = 100_000;

/// `movecount=N,score=CP`: a side whose last N scores are all at or below −CP loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub move_count: u32,
    pub score: i32,
}

/// `movenumber=M,movecount=N,score=CP`: from move M on, when the last N scores of both sides
/// all lie within ±CP, the game is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub move_number: u32,
    pub move_count: u32,
    pub score: i32,
}

fn parse_fields(s: &str, known: &[&str]) -> Result<Vec<i64>, String> {
    let mut values: Vec<Option<i64>> = vec![None; known.len()];
    for part in s.split(',').filter(|p| !p.trim().is_empty()) {
        let (key, value) = part
            .split_once('=')
            .ok_or_else(|| format!("'{part}' is not key=value"))?;
        let i = known
            .iter()
            .position(|k| *k == key.trim())
            .ok_or_else(|| format!("unknown setting '{key}' (expected {})", known.join(", ")))?;
        let v: i64 = value
            .trim()
            .parse()
            .ok()
            .filter(|&v| v >= 0)
            .ok_or_else(|| format!("'{value}' is not a non-negative integer"))?;
        values[i] = Some(v);
    }
    known
        .iter()
        .zip(values)
        .map(|(k, v)| v.ok_or_else(|| format!("missing {k}=")))
        .collect()
}

impl FromStr for ResignRule {
    type Err = String;
    fn from_str(s: &str) -> Result<ResignRule, String> {
        let v = parse_fields(s, &["movecount", "score"])?;
        Ok(ResignRule {
            move_count: v[0].clamp(1, 1000) as u32,
            score: v[1].min(i64::from(MATE_CP)) as i32,
        })
    }
}

impl FromStr for DrawRule {
    type Err = String;
    fn from_str(s: &str) -> Result<DrawRule, String> {
        let v = parse_fields(s, &["movenumber", "movecount", "score"])?;
        Ok(DrawRule {
            move_number: v[0].min(10_000) as u32,
            move_count: v[1].clamp(1, 1000) as u32,
            score: v[2].min(i64::from(MATE_CP)) as i32,
        })
    }
}

fn centipawns(s: Score) -> i32 {
    match s {
        Score::Cp(cp) => cp,
        Score::Mate(m) if m > 0 => MATE_CP,
        Score::Mate(_) => -MATE_CP,
    }
}

/// Verdict of the score rules after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adjudication {
    /// The side that just moved resigns.
    Resign,
    Draw,
}

/// Judges the game from the scores of all moves so far (each from its mover's view, `None`
/// when the engine reported none); the last entry is the move just played.
pub fn adjudicate(
    scores: &[Option<Score>],
    resign: Option<ResignRule>,
    draw: Option<DrawRule>,
) -> Option<Adjudication> {
    if let Some(r) = resign {
        let own = scores.iter().rev().step_by(2).take(r.move_count as usize);
        if own.len() == r.move_count as usize
            && own
                .clone()
                .all(|s| s.is_some_and(|s| centipawns(s) <= -r.score))
        {
            return Some(Adjudication::Resign);
        }
    }
    if let Some(d) = draw {
        let recent = 2 * d.move_count as usize;
        if scores.len() >= 2 * d.move_number as usize
            && scores.len() >= recent
            && scores[scores.len() - recent..]
                .iter()
                .all(|s| s.is_some_and(|s| centipawns(s).abs() <= d.score))
        {
            return Some(Adjudication::Draw);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rules() {
        let r: ResignRule = "movecount=3,score=600".parse().unwrap();
        assert_eq!((r.move_count, r.score), (3, 600));
        let d: DrawRule = "movenumber=40,movecount=8,score=10".parse().unwrap();
        assert_eq!((d.move_number, d.move_count, d.score), (40, 8, 10));
        assert!("movecount=3".parse::<ResignRule>().is_err());
        assert!("movecount=3,score=x".parse::<ResignRule>().is_err());
    }

    #[test]
    fn resigns_after_a_run_of_lost_scores_by_the_mover() {
        let rule = Some(ResignRule {
            move_count: 2,
            score: 500,
        });
        let s = |cp| Some(Score::Cp(cp));
        // Mover's scores are every other entry from the end: -600, -700.
        let scores = [s(-700), s(900), s(-600), s(900)];
        assert_eq!(
            adjudicate(&scores[..3], rule, None),
            Some(Adjudication::Resign)
        );
        // The opponent's big positive scores alone never resign anyone.
        assert_eq!(adjudicate(&scores, rule, None), None);
        // A missing score breaks the run.
        assert_eq!(adjudicate(&[None, s(0), s(-600)], rule, None), None);
        assert_eq!(
            adjudicate(
                &[Some(Score::Mate(-3))],
                Some(ResignRule {
                    move_count: 1,
                    score: 500
                }),
                None
            ),
            Some(Adjudication::Resign)
        );
    }

    #[test]
    fn draws_after_the_move_number_when_both_are_level() {
        let rule = Some(DrawRule {
            move_number: 2,
            move_count: 1,
            score: 10,
        });
        let s = |cp| Some(Score::Cp(cp));
        assert_eq!(adjudicate(&[s(0), s(0), s(5)], None, rule), None);
        assert_eq!(
            adjudicate(&[s(0), s(0), s(5), s(-8)], None, rule),
            Some(Adjudication::Draw)
        );
        assert_eq!(adjudicate(&[s(0), s(0), s(50), s(-8)], None, rule), None);
    }
}
