//! One game between two engine processes, refereed: the rules library judges the board after
//! every move; the runner judges the engines (illegal or malformed moves, the clock, hangs,
//! crashes, resignations) and, when asked, adjudicates by score.

use crate::tools::interrupt;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::board::{Color, Move, Position};
use crate::egtb::{Tablebase, Verdict};
use crate::movegen::MoveError;
use crate::rules::{GameRecord, GameResult, Reason};
use crate::search::Score;

use super::adjudication::{Adjudication, DrawRule, ResignRule, adjudicate};
use super::dialect::{InfoScore, Reply, parse_bestmove, parse_info, position_line};
use super::limit::Limit;
use super::process::{EngineProcess, Wait};
use crate::tools::clock::{Clock, TimeControl};

/// How long an engine past its deadline gets to answer `stop` before it counts as hung.
const RESYNC_GRACE: Duration = Duration::from_millis(1000);

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The rules library's verdict on the board.
    Rules(Reason),
    IllegalMove {
        by: Color,
        text: String,
    },
    MalformedMove {
        by: Color,
        text: String,
    },
    /// Answered, but after the clock and the margin ran out.
    TimeForfeit {
        by: Color,
    },
    /// No answer even after `stop` and a grace period: the engine is restarted.
    Unresponsive {
        by: Color,
    },
    /// Exited, closed its pipe or could not start a game: the engine is restarted.
    Crash {
        by: Color,
        detail: String,
    },
    /// `bestmove … resign`.
    Resign {
        by: Color,
    },
    /// `nobestmove` or `bestmove (none)` with legal moves on the board (ElephantEye, for one,
    /// says it when it thinks the game is drawn by its own rules).
    NoMove {
        by: Color,
    },
    AdjudicatedResign {
        by: Color,
    },
    AdjudicatedDraw,
    /// Settled by the endgame tables (`match --egtb`): a mate that fits the move limit, or a
    /// draw.
    AdjudicatedByTables,
    /// UCCI draw flags on two moves in a row: an offer and its acceptance.
    DrawAgreed,
    /// Cut off by a stop request (signal): no result, not counted.
    Interrupted,
}

impl Termination {
    /// Short label under which the final report counts terminations.
    pub fn category(&self) -> &'static str {
        match self {
            Termination::Rules(r) => match r {
                Reason::Checkmate => "checkmate",
                Reason::Stalemate => "stalemate",
                Reason::PerpetualCheck { .. } => "perpetual check",
                Reason::PerpetualChase { .. } => "perpetual chase",
                Reason::Repetition => "repetition",
                Reason::MoveLimit => "move limit",
                Reason::NoAttackingMaterial => "no attacking material",
            },
            Termination::IllegalMove { .. } => "illegal move",
            Termination::MalformedMove { .. } => "malformed move",
            Termination::TimeForfeit { .. } => "time forfeit",
            Termination::Unresponsive { .. } => "unresponsive",
            Termination::Crash { .. } => "crash",
            Termination::Resign { .. } => "resign",
            Termination::NoMove { .. } => "no move",
            Termination::AdjudicatedResign { .. } => "adjudicated resign",
            Termination::AdjudicatedDraw => "adjudicated draw",
            Termination::AdjudicatedByTables => "adjudicated by tables",
            Termination::DrawAgreed => "draw agreed",
            Termination::Interrupted => "interrupted",
        }
    }

    /// The category of a termination from its text (a PGN's `[Termination]` tag): the inverse
    /// of `category` after `Display`.
    pub fn category_of(text: &str) -> Option<&'static str> {
        const EXACT: [(&str, &str); 9] = [
            ("checkmate", "checkmate"),
            ("stalemate", "stalemate"),
            ("repetition", "repetition"),
            ("move limit", "move limit"),
            ("no attacking material", "no attacking material"),
            ("interrupted", "interrupted"),
            ("draw by adjudication", "adjudicated draw"),
            ("draw by agreement", "draw agreed"),
            ("adjudicated by endgame tables", "adjudicated by tables"),
        ];
        const BY_PREFIX: [(&str, &str); 4] = [
            ("perpetual check by ", "perpetual check"),
            ("perpetual chase by ", "perpetual chase"),
            ("illegal move ", "illegal move"),
            ("malformed move ", "malformed move"),
        ];
        const BY_SUFFIX: [(&str, &str); 5] = [
            (" loses on time", "time forfeit"),
            (" stopped responding", "unresponsive"),
            (" resigns by adjudication", "adjudicated resign"),
            (" resigns", "resign"),
            (" gave no move", "no move"),
        ];
        if let Some(&(_, c)) = EXACT.iter().find(|(e, _)| *e == text) {
            return Some(c);
        }
        let side = |rest: &str| matches!(rest, "Red" | "Black");
        BY_PREFIX
            .iter()
            .find(|(p, _)| text.starts_with(p))
            .map(|&(_, c)| c)
            .or_else(|| {
                BY_SUFFIX
                    .iter()
                    .find(|(s, _)| text.strip_suffix(s).is_some_and(side))
                    .map(|&(_, c)| c)
            })
            .or_else(|| {
                let (by, rest) = text.split_once(" crashed (")?;
                (side(by) && rest.ends_with(')')).then_some("crash")
            })
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::Rules(r) => write!(f, "{r}"),
            Termination::IllegalMove { by, text } => {
                write!(f, "illegal move {text} by {}", by.name())
            }
            Termination::MalformedMove { by, text } => {
                write!(f, "malformed move '{text}' by {}", by.name())
            }
            Termination::TimeForfeit { by } => write!(f, "{} loses on time", by.name()),
            Termination::Unresponsive { by } => write!(f, "{} stopped responding", by.name()),
            Termination::Crash { by, detail } => write!(f, "{} crashed ({detail})", by.name()),
            Termination::Resign { by } => write!(f, "{} resigns", by.name()),
            Termination::NoMove { by } => write!(f, "{} gave no move", by.name()),
            Termination::AdjudicatedResign { by } => {
                write!(f, "{} resigns by adjudication", by.name())
            }
            Termination::AdjudicatedDraw => write!(f, "draw by adjudication"),
            Termination::AdjudicatedByTables => write!(f, "adjudicated by endgame tables"),
            Termination::DrawAgreed => write!(f, "draw by agreement"),
            Termination::Interrupted => write!(f, "interrupted"),
        }
    }
}

/// A move as played, with what its engine said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    pub mv: Move,
    /// From the mover's point of view, from its last `info` line with a score.
    pub score: Option<Score>,
    pub depth: Option<u32>,
    /// From sending `go` to reading `bestmove`, as the runner measured it.
    pub time: Duration,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOutcome {
    pub result: GameResult,
    pub termination: Termination,
    pub moves: Vec<MoveRecord>,
    /// Per colour: the engine must be restarted before its next game.
    pub restart: [bool; 2],
}

/// How games are played: the same for every game of a match.
#[derive(Clone, Debug)]
pub struct GameRules {
    pub limit: Limit,
    /// Lag allowed past the flag (and past a fixed move time).
    pub margin: Duration,
    /// Plies without capture before a draw (0 = off).
    pub move_limit: u32,
    /// Longest wait for a `depth`/`nodes` search, which has no clock to flag.
    pub untimed_wait: Duration,
    /// Longest wait for `readyok` at the start of a game.
    pub ready_timeout: Duration,
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
    /// Endgame tables that settle the positions they cover.
    pub egtb: Option<Arc<Tablebase>>,
}

/// The result the tables give `pos`: a draw, or a mate that fits the plies the move limit
/// has left (a longer one the referee may yet draw).
fn by_tables(tables: &Tablebase, pos: &Position, move_limit: u32) -> Option<GameResult> {
    let v = tables.covers(pos)?;
    if !v.within(move_limit, u32::from(pos.halfmove_clock())) {
        return None;
    }
    let side = pos.side_to_move();
    Some(match v {
        Verdict::Draw => GameResult::Draw,
        Verdict::Win(_) => GameResult::win_for(side),
        Verdict::Loss(_) => GameResult::win_for(side.flip()),
    })
}

/// Why the engine to move produced no move.
enum Failure {
    Late { answered: bool },
    Closed(String),
}

/// A reply to `go`, with what came before it.
struct Answer {
    reply: Reply,
    elapsed: Duration,
    /// The last `info` line with a score.
    info: Option<InfoScore>,
    /// `stop` went out at the flag: an engine that had just answered may add a stray
    /// `nobestmove` (UCCI's answer to `stop` when idle).
    stop_sent: bool,
}

/// Reads until `bestmove`, sending `stop` at the flag.
fn await_reply(
    engine: &mut EngineProcess,
    started: Instant,
    flag: Option<Duration>,
    deadline: Duration,
) -> Result<Answer, Failure> {
    let mut info = None;
    let mut stop_sent = false;
    loop {
        let until = match flag {
            Some(f) if !stop_sent => started + f,
            _ => started + deadline,
        };
        match engine.recv(until) {
            Wait::Line(line) => {
                if let Some(reply) = parse_bestmove(&line) {
                    return Ok(Answer {
                        reply,
                        elapsed: started.elapsed(),
                        info,
                        stop_sent,
                    });
                }
                if let Some(i) = parse_info(&line) {
                    info = Some(i);
                }
            }
            Wait::Timeout if !stop_sent && flag.is_some() => {
                // The flag fell: ask for a move now, as the xqbase referee does.
                stop_sent = true;
                engine.send("stop").map_err(Failure::Closed)?;
            }
            Wait::Timeout => {
                if !stop_sent {
                    engine.send("stop").map_err(Failure::Closed)?;
                }
                let grace = Instant::now() + RESYNC_GRACE;
                loop {
                    match engine.recv(grace) {
                        Wait::Line(l) if parse_bestmove(&l).is_some() => {
                            return Err(Failure::Late { answered: true });
                        }
                        Wait::Line(_) => {}
                        Wait::Timeout | Wait::Closed => {
                            return Err(Failure::Late { answered: false });
                        }
                    }
                }
            }
            Wait::Closed => return Err(Failure::Closed("closed its output".into())),
        }
    }
}

/// After `side`'s move: an engine that ponders thinks on the opponent's time about the reply it
/// expects, when the game goes on under a clock and that reply is legal.
fn ponder(
    engine: &mut EngineProcess,
    record: &GameRecord,
    start_fen: &str,
    expected: Option<String>,
    rules: &GameRules,
    side: Color,
    clocks: &[Clock; 2],
) -> Result<(), String> {
    let timed = matches!(rules.limit, Limit::Clock(_) | Limit::MoveTime(_));
    if !engine.ponders() || !timed || record.verdict(rules.move_limit).is_some() {
        return Ok(());
    }
    let Some(reply) = expected.and_then(|t| record.position().parse_move(&t).ok()) else {
        return Ok(());
    };
    let mut line = record.moves().to_vec();
    line.push(reply);
    let go = engine.dialect().go(&rules.limit, side, clocks);
    engine.start_pondering(&position_line(start_fen, &line), &go, reply)
}

/// Plays one game from `start`, `engines[0]` with Red. Engines are told a new game starts.
pub fn play_game(
    engines: [&mut EngineProcess; 2],
    start: &Position,
    rules: &GameRules,
) -> GameOutcome {
    let mut moves: Vec<MoveRecord> = Vec::new();
    let mut restart = [false; 2];
    let end = |result: GameResult,
               termination: Termination,
               moves: Vec<MoveRecord>,
               restart: [bool; 2]| GameOutcome {
        result,
        termination,
        moves,
        restart,
    };
    let lose = |by: Color, termination: Termination, moves, restart| {
        end(GameResult::win_for(by.flip()), termination, moves, restart)
    };
    // A crashed engine loses and is restarted before its next game.
    let crash = |by: Color, detail, moves, mut restart: [bool; 2]| {
        restart[by.index()] = true;
        lose(by, Termination::Crash { by, detail }, moves, restart)
    };
    for color in Color::BOTH {
        if let Err(detail) = engines[color.index()].new_game(rules.ready_timeout) {
            return crash(color, detail, moves, restart);
        }
    }
    let start_fen = start.to_fen();
    let mut record = GameRecord::new(start.clone());
    let tc = match rules.limit {
        Limit::Clock(tc) => tc,
        _ => TimeControl {
            base_ms: 0,
            inc_ms: 0,
            moves: None,
        },
    };
    let mut clocks = [Clock::new(tc), Clock::new(tc)];
    // The side whose last move carried a UCCI draw offer.
    let mut draw_offer: Option<Color> = None;
    loop {
        if let Some(v) = record.verdict(rules.move_limit) {
            return end(v.result, Termination::Rules(v.reason), moves, restart);
        }
        if let Some(result) = rules
            .egtb
            .as_deref()
            .and_then(|t| by_tables(t, record.position(), rules.move_limit))
        {
            return end(result, Termination::AdjudicatedByTables, moves, restart);
        }
        if interrupt::requested() {
            return end(GameResult::Draw, Termination::Interrupted, moves, restart);
        }
        let side = record.position().side_to_move();
        let engine = &mut *engines[side.index()];
        let offered = draw_offer == Some(side.flip());
        // An engine thinking on this turn goes on after `ponderhit` when it guessed the move.
        let hit = match record.moves().last() {
            Some(&played) => {
                match engine.ponder_reply(played, offered, Instant::now() + RESYNC_GRACE) {
                    Ok(hit) => hit,
                    Err(detail) => return crash(side, detail, moves, restart),
                }
            }
            None => false,
        };
        let sent = if hit {
            Ok(())
        } else {
            let mut go = engine.dialect().go(&rules.limit, side, &clocks);
            if offered {
                go = engine.dialect().with_draw_offer(go);
            }
            engine
                .send(&position_line(&start_fen, record.moves()))
                .and_then(|()| engine.send(&go))
        };
        let started = Instant::now();
        let (flag, deadline) = match rules.limit {
            Limit::Clock(_) => {
                let f = Duration::from_millis(clocks[side.index()].remaining_ms());
                (Some(f), f + rules.margin)
            }
            Limit::MoveTime(ms) => {
                let f = Duration::from_millis(ms);
                (Some(f), f + rules.margin)
            }
            Limit::Depth(_) | Limit::Nodes(_) => (None, rules.untimed_wait),
        };
        let reply = sent
            .map_err(Failure::Closed)
            .and_then(|()| await_reply(engine, started, flag, deadline));
        if interrupt::requested() {
            return end(GameResult::Draw, Termination::Interrupted, moves, restart);
        }
        let Answer {
            reply,
            elapsed,
            info,
            stop_sent,
        } = match reply {
            Ok(a) => a,
            Err(Failure::Late { answered }) => {
                restart[side.index()] = !answered;
                let t = if answered {
                    Termination::TimeForfeit { by: side }
                } else {
                    Termination::Unresponsive { by: side }
                };
                return lose(side, t, moves, restart);
            }
            Err(Failure::Closed(detail)) => return crash(side, detail, moves, restart),
        };
        if elapsed > deadline {
            return lose(side, Termination::TimeForfeit { by: side }, moves, restart);
        }
        if stop_sent && let Err(detail) = engine.sync(Instant::now() + rules.ready_timeout) {
            return crash(side, detail, moves, restart);
        }
        let (text, offers_draw, expected) = match reply {
            Reply::NoMove => return lose(side, Termination::NoMove { by: side }, moves, restart),
            Reply::Move { resign: true, .. } => {
                return lose(side, Termination::Resign { by: side }, moves, restart);
            }
            Reply::Move {
                text, draw, ponder, ..
            } => (text, draw, ponder),
        };
        let mv = match record.position().parse_move(&text) {
            Ok(m) => m,
            Err(MoveError::Syntax(_)) => {
                return lose(
                    side,
                    Termination::MalformedMove { by: side, text },
                    moves,
                    restart,
                );
            }
            Err(MoveError::Illegal(_)) => {
                return lose(
                    side,
                    Termination::IllegalMove { by: side, text },
                    moves,
                    restart,
                );
            }
        };
        clocks[side.index()].punch(elapsed);
        record.push(mv);
        moves.push(MoveRecord {
            mv,
            score: info.map(|i| i.score),
            depth: info.and_then(|i| i.depth),
            time: elapsed,
        });
        let scores: Vec<Option<Score>> = moves.iter().map(|m| m.score).collect();
        match adjudicate(&scores, rules.resign, rules.draw) {
            Some(Adjudication::Resign) => {
                return lose(
                    side,
                    Termination::AdjudicatedResign { by: side },
                    moves,
                    restart,
                );
            }
            Some(Adjudication::Draw) => {
                return end(
                    GameResult::Draw,
                    Termination::AdjudicatedDraw,
                    moves,
                    restart,
                );
            }
            None => {}
        }
        let accepted = offers_draw && draw_offer == Some(side.flip());
        if accepted && record.verdict(rules.move_limit).is_none() {
            return end(GameResult::Draw, Termination::DrawAgreed, moves, restart);
        }
        draw_offer = offers_draw.then_some(side);
        if let Err(detail) = ponder(engine, &record, &start_fen, expected, rules, side, &clocks) {
            return crash(side, detail, moves, restart);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{PieceType, Square};

    #[test]
    fn every_termination_is_read_back_to_its_category() {
        let by = Color::Black;
        let rules = [
            Reason::Checkmate,
            Reason::Stalemate,
            Reason::PerpetualCheck { by },
            Reason::PerpetualChase {
                by,
                target: PieceType::Rook,
                square: Square::new(4, 7),
            },
            Reason::Repetition,
            Reason::MoveLimit,
            Reason::NoAttackingMaterial,
        ];
        let text = "h2e2".to_string();
        let others = [
            Termination::IllegalMove {
                by,
                text: text.clone(),
            },
            Termination::MalformedMove { by, text },
            Termination::TimeForfeit { by },
            Termination::Unresponsive { by: Color::Red },
            Termination::Crash {
                by,
                detail: "exit status: 1 (resigns)".into(),
            },
            Termination::Resign { by },
            Termination::NoMove { by },
            Termination::AdjudicatedResign { by },
            Termination::AdjudicatedDraw,
            Termination::DrawAgreed,
            Termination::Interrupted,
        ];
        for t in rules.into_iter().map(Termination::Rules).chain(others) {
            assert_eq!(
                Termination::category_of(&t.to_string()),
                Some(t.category()),
                "{t}"
            );
        }
        assert_eq!(Termination::category_of("Green resigns"), None);
        assert_eq!(Termination::category_of(""), None);
    }
}
