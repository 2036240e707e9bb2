//! Chess clocks for games the tools referee (matches, terminal play): a time control (base +
//! increment, optionally moves per period) and the clock each side plays against.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// `[moves/]base[+increment]`, times in seconds, e.g. `10+0.1` or `40/60`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base_ms: u64,
    pub inc_ms: u64,
    /// Moves per period; the base is added again when a period is complete.
    pub moves: Option<u32>,
}

fn seconds_to_ms(text: &str) -> Result<u64, String> {
    let s: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !(s >= 0.0 && s.is_finite()) {
        return Err(format!("'{text}' is not a valid time"));
    }
    Ok((s * 1000.0).round() as u64)
}

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(s: &str) -> Result<TimeControl, String> {
        let (moves, rest) = match s.split_once('/') {
            Some((m, r)) => (
                Some(
                    m.trim()
                        .parse::<u32>()
                        .ok()
                        .filter(|&m| m > 0)
                        .ok_or_else(|| format!("'{m}' is not a move count"))?,
                ),
                r,
            ),
            None => (None, s),
        };
        let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        let tc = TimeControl {
            base_ms: seconds_to_ms(base)?,
            inc_ms: seconds_to_ms(inc)?,
            moves,
        };
        if tc.base_ms == 0 && tc.inc_ms == 0 {
            return Err("a time control needs some time".into());
        }
        Ok(tc)
    }
}

impl TimeControl {
    /// `minutes[+seconds]`, minutes may be fractional (terminal play's form): `5+3`, `0.5+1`,
    /// `10`.
    pub fn parse_minutes(s: &str) -> Result<TimeControl, String> {
        let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
        let bad = || format!("'{s}' is not a time control like 5+3 (minutes+seconds)");
        let minutes: f64 = base.trim().parse().map_err(|_| bad())?;
        let seconds: f64 = inc.trim().parse().map_err(|_| bad())?;
        if !(minutes > 0.0 && minutes.is_finite() && seconds >= 0.0 && seconds.is_finite()) {
            return Err(bad());
        }
        Ok(TimeControl {
            base_ms: (minutes * 60_000.0) as u64,
            inc_ms: (seconds * 1000.0) as u64,
            moves: None,
        })
    }
}

impl fmt::Display for TimeControl {
    /// The PGN `TimeControl` form: `[moves/]base[+inc]` in seconds.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", self.base_ms as f64 / 1000.0)?;
        if self.inc_ms > 0 {
            write!(f, "+{}", self.inc_ms as f64 / 1000.0)?;
        }
        Ok(())
    }
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    tc: TimeControl,
    remaining_ms: u64,
    /// Moves left in the current period (when the control has periods).
    moves_left: Option<u32>,
}

impl Clock {
    pub fn new(tc: TimeControl) -> Clock {
        Clock {
            tc,
            remaining_ms: tc.base_ms,
            moves_left: tc.moves,
        }
    }

    pub fn remaining_ms(&self) -> u64 {
        self.remaining_ms
    }

    pub fn inc_ms(&self) -> u64 {
        self.tc.inc_ms
    }

    pub fn moves_to_go(&self) -> Option<u32> {
        self.moves_left
    }

    /// Charges a move: the time used (never below zero), then the increment and, at the end
    /// of a period, the next period's base time.
    pub fn punch(&mut self, elapsed: Duration) {
        let used = u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX);
        self.remaining_ms = self.remaining_ms.saturating_sub(used) + self.tc.inc_ms;
        if let Some(left) = self.moves_left.as_mut() {
            *left -= 1;
            if *left == 0 {
                *left = self.tc.moves.unwrap_or(1);
                self.remaining_ms += self.tc.base_ms;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_time_controls() {
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!((tc.base_ms, tc.inc_ms, tc.moves), (10_000, 100, None));
        let tc: TimeControl = "40/60".parse().unwrap();
        assert_eq!((tc.base_ms, tc.inc_ms, tc.moves), (60_000, 0, Some(40)));
        assert_eq!(tc.to_string(), "40/60");
        assert_eq!(
            "8+0.08".parse::<TimeControl>().unwrap().to_string(),
            "8+0.08"
        );
        assert!("0+0".parse::<TimeControl>().is_err());
        assert!("x+1".parse::<TimeControl>().is_err());
        assert!("0/10".parse::<TimeControl>().is_err());
        let play = TimeControl::parse_minutes("5+3").unwrap();
        assert_eq!(
            (play.base_ms, play.inc_ms, play.moves),
            (300_000, 3000, None)
        );
        assert_eq!(
            TimeControl::parse_minutes("0.5").map(|t| t.base_ms),
            Ok(30_000)
        );
        assert!(TimeControl::parse_minutes("fast").is_err());
        assert!(TimeControl::parse_minutes("0+3").is_err());
    }

    #[test]
    fn clock_charges_time_and_adds_increment() {
        let mut c = Clock::new("1+0.5".parse().unwrap());
        c.punch(Duration::from_millis(300));
        assert_eq!(c.remaining_ms(), 1200);
        // A move accepted inside the margin leaves only the increment.
        c.punch(Duration::from_millis(1250));
        assert_eq!(c.remaining_ms(), 500);
    }

    #[test]
    fn periods_refill_the_clock() {
        let mut c = Clock::new("2/10".parse().unwrap());
        assert_eq!(c.moves_to_go(), Some(2));
        c.punch(Duration::from_millis(4000));
        assert_eq!((c.remaining_ms(), c.moves_to_go()), (6000, Some(1)));
        c.punch(Duration::from_millis(1000));
        assert_eq!((c.remaining_ms(), c.moves_to_go()), (15_000, Some(2)));
    }
}
