//! What the user sees: a live progress bar on stderr while games run, and the final report.

use std::fmt::Write as _;

use indicatif::{ProgressBar, ProgressStyle};

use super::runner::{MatchResult, PairingStats};
use super::sprt::Sprt;
use super::stats::Estimate;

pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar over `games` games; drawn only when `show` and stderr is a terminal.
    pub fn new(show: bool, games: u64) -> Progress {
        let bar = if show {
            ProgressBar::new(games)
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(
            ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        Progress { bar }
    }

    pub fn update(&self, result: &MatchResult, sprt: Option<Sprt>) {
        self.bar
            .set_position((result.resumed + result.games.len()) as u64);
        if let [pairing] = result.pairings.as_slice() {
            let mut msg = score_line(pairing);
            if let (Some((llr, _)), Some(s)) = (result.sprt, sprt) {
                let (lo, hi) = s.bounds();
                write!(msg, "  LLR {llr:.2} ({lo:.2}, {hi:.2})").expect("string");
            }
            self.bar.set_message(msg);
        }
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// `W-D-L 10-5-3  63.9%  Elo +98.3 ± 45.2`, from the pairing's first engine's view.
fn score_line(p: &PairingStats) -> String {
    let w = &p.wdl;
    let mut s = format!("W-D-L {}-{}-{}", w.wins, w.draws, w.losses);
    if let Some(score) = w.score() {
        write!(s, "  {:.1}%", 100.0 * score).expect("string");
    }
    if let Some(e) = estimate(p) {
        let (lo, hi) = e.elo_interval();
        write!(
            s,
            "  Elo {} ± {}",
            signed(e.elo()),
            unsigned((hi - lo) / 2.0)
        )
        .expect("string");
    }
    s
}

/// An Elo figure with its sign; a clean sweep gives infinities, shown as such.
fn signed(elo: f64) -> String {
    if elo.is_finite() {
        format!("{elo:+.1}")
    } else if elo > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

/// A half-width, `inf` when either end of the interval is infinite.
fn unsigned(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1}")
    } else {
        "inf".into()
    }
}

/// Pentanomial estimate once a pair is complete, trinomial before.
fn estimate(p: &PairingStats) -> Option<Estimate> {
    if p.pentanomial.pairs() > 0 {
        Estimate::from_pentanomial(&p.pentanomial)
    } else {
        Estimate::from_wdl(&p.wdl)
    }
}

/// The report printed when the match is over.
pub fn format_report(result: &MatchResult, sprt: Option<Sprt>, limit: &str) -> String {
    let mut out = String::new();
    if result.resumed > 0 {
        writeln!(out, "{} games resumed from the PGN", result.resumed).expect("string");
    }
    for p in &result.pairings {
        let (a, b) = (&result.names[p.first], &result.names[p.second]);
        let w = &p.wdl;
        writeln!(out, "{a} vs {b} ({limit}): {} games", w.games()).expect("string");
        writeln!(
            out,
            "  wins {}, draws {}, losses {} for {a}: {} points",
            w.wins,
            w.draws,
            w.losses,
            f64::from(w.wins) + 0.5 * f64::from(w.draws)
        )
        .expect("string");
        if let Some(e) = estimate(p) {
            let (lo, hi) = e.elo_interval();
            writeln!(
                out,
                "  score {:.1}%, Elo {} ± {} (95%: {} to {}), LOS {:.1}%",
                100.0 * e.mean,
                signed(e.elo()),
                unsigned((hi - lo) / 2.0),
                signed(lo),
                signed(hi),
                100.0 * e.los()
            )
            .expect("string");
        }
        let q = p.pentanomial.0;
        writeln!(
            out,
            "  pentanomial [LL LD DD/WL WD WW]: [{} {} {} {} {}] over {} pairs",
            q[0],
            q[1],
            q[2],
            q[3],
            q[4],
            p.pentanomial.pairs()
        )
        .expect("string");
        // Every pair 1-1 leaves no spread, hence the ±0: most often two identical engines
        // (a few pairs can all split by chance, so only from 8 on).
        if p.pentanomial.pairs() >= 8 && q[2] == p.pentanomial.pairs() {
            writeln!(
                out,
                "  every pair scored 1-1, as two identical engines would: check the options the engines were sent"
            )
            .expect("string");
        }
    }
    if let (Some(s), Some((llr, decision))) = (sprt, result.sprt) {
        let (lo, hi) = s.bounds();
        writeln!(
            out,
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} ({lo:.2}, {hi:.2}): {decision}",
            s.elo0, s.elo1, s.alpha, s.beta
        )
        .expect("string");
    }
    let terms: Vec<String> = result
        .terminations
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    writeln!(out, "terminations: {}", terms.join(", ")).expect("string");
    out
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::tools::matches::sprt::SprtDecision;
    use crate::tools::matches::stats::{Pentanomial, Wdl};

    fn result(wdl: Wdl, penta: [u32; 5], sprt: Option<(f64, SprtDecision)>) -> MatchResult {
        MatchResult {
            names: vec!["new".into(), "base".into()],
            pairings: vec![PairingStats {
                first: 0,
                second: 1,
                wdl,
                pentanomial: Pentanomial(penta),
                ..PairingStats::default()
            }],
            terminations: BTreeMap::from([("checkmate", 30), ("repetition", 10)]),
            games: Vec::new(),
            resumed: 0,
            sprt,
            interrupted: false,
        }
    }

    #[test]
    fn report_shows_elo_los_pentanomial_sprt_and_terminations() {
        let wdl = Wdl {
            wins: 14,
            draws: 16,
            losses: 10,
        };
        let sprt: Sprt = "elo0=0,elo1=5".parse().unwrap();
        let r = result(wdl, [1, 2, 10, 5, 2], Some((0.15, SprtDecision::Continue)));
        let text = format_report(&r, Some(sprt), "10+0.1");
        for needle in [
            "new vs base (10+0.1): 40 games",
            "wins 14, draws 16, losses 10 for new: 22 points",
            "score 56.2%, Elo +43.7 ± 74.0 (95%: -28.4 to +119.7), LOS 88.2%",
            "pentanomial [LL LD DD/WL WD WW]: [1 2 10 5 2] over 20 pairs",
            "LLR 0.15 (-2.94, 2.94): undecided",
            "terminations: checkmate 30, repetition 10",
        ] {
            assert!(text.contains(needle), "{needle} missing in\n{text}");
        }
    }

    #[test]
    fn mirrored_pairs_are_flagged() {
        let wdl = Wdl {
            wins: 9,
            draws: 14,
            losses: 9,
        };
        let flag = "every pair scored 1-1";
        let text = format_report(&result(wdl, [0, 0, 16, 0, 0], None), None, "nodes 60000");
        assert!(text.contains(flag), "{text}");
        let text = format_report(&result(wdl, [0, 1, 14, 1, 0], None), None, "nodes 60000");
        assert!(!text.contains(flag), "{text}");
    }

    #[test]
    fn a_clean_sweep_reports_infinite_elo() {
        let wdl = Wdl {
            wins: 4,
            draws: 0,
            losses: 0,
        };
        let text = format_report(&result(wdl, [0, 0, 0, 0, 2], None), None, "depth 3");
        assert!(text.contains("Elo +inf ± inf"), "{text}");
    }
}
