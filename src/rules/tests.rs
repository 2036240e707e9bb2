//! Repetition scenarios judged by both the game record and the search history, plus the other
//! verdicts. Every position was set up on a board by hand; the comment on each says what
//! happens. Squares: files a–i from Red's left, ranks 0–9 from Red's side.

use super::*;
use crate::board::{Color, Move, PieceType, Position};

/// A repetition scenario: a start position (which the cycle returns to) and one cycle of moves.
struct Cycle {
    fen: &'static str,
    moves: &'static str,
    /// The verdict once the start position stands for the third time.
    verdict: &'static str,
}

fn parse_line(pos: &Position, moves: &str) -> Vec<Move> {
    let mut p = pos.clone();
    moves
        .split_whitespace()
        .map(|t| {
            let m = p
                .parse_move(t)
                .unwrap_or_else(|e| panic!("{} after {t}: {e}", p.to_fen()));
            p.do_move(m);
            m
        })
        .collect()
}

fn start(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Perpetual check with one rook: the rook follows the king up and down the palace.
const CHECK_ROOK: Cycle = Cycle {
    // Red rook a8, Black king e9. a8a9 checks along rank 9, the king steps to e8, a9a8 checks
    // along rank 8, the king steps back to e9.
    fen: "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1",
    moves: "a8a9 e9e8 a9a8 e8e9",
    verdict: "0-1 perpetual check by Red",
};

/// Perpetual check with a horse jumping between d7 and f6.
const CHECK_HORSE: Cycle = Cycle {
    // f6d7 checks e9 (leg d8 empty), the king goes to e8 (not covered from d7); d7f6 checks e8
    // (leg f7 empty), the king returns to e9 (not covered from f6).
    fen: "4k4/9/9/5N3/9/9/9/9/9/3K5 w - - 0 1",
    moves: "f6d7 e9e8 d7f6 e8e9",
    verdict: "0-1 perpetual check by Red",
};

/// Perpetual check by a rook and a cannon taking turns.
const CHECK_ALTERNATING: Cycle = Cycle {
    // Red rook d5, cannon e1; Black king e9, advisor d7. Rook d5e5 checks up the e-file, king to
    // d9; cannon e1d1 checks d9 over the d7 advisor; the advisor goes to e8 (breaking the screen,
    // shielding e9); rook e5d5 checks d9, king back to e9; cannon d1e1 checks over the e8
    // advisor; the advisor returns to d7.
    fen: "4k4/9/3a5/9/3R5/9/9/9/4C4/3K5 w - - 0 1",
    moves: "d5e5 e9d9 e1d1 d7e8 e5d5 d9e9 d1e1 e8d7",
    verdict: "0-1 perpetual check by Red",
};

/// Black checks perpetually: Red wins.
const CHECK_BY_BLACK: Cycle = Cycle {
    // Black rook a1 checks along rank 0 from a0, the Red king steps to e1, the rook checks along
    // rank 1 from a1, the king steps back.
    fen: "3k5/9/9/9/9/9/9/9/r8/4K4 b - - 0 1",
    moves: "a1a0 e0e1 a0a1 e1e0",
    verdict: "1-0 perpetual check by Black",
};

/// Both sides check with every move: a draw.
const CHECK_MUTUAL: Cycle = Cycle {
    // Red king d0, rook d5, cannon e0; Black king e9, rook d8, cannon d6. d5e5 checks up the
    // e-file and unblocks the d-file, so d6e6 (blocking) uncovers the d8 rook's check on d0;
    // e5d5 blocks it and lets the e0 cannon check over the e6 cannon; e6d6 blocks that and
    // checks d0 over the d5 rook.
    fen: "4k4/3r5/9/3c5/3R5/9/9/9/9/3KC4 w - - 0 1",
    moves: "d5e5 d6e6 e5d5 e6d6",
    verdict: "1/2-1/2 repetition",
};

/// A rook chases an unprotected horse around: a loss for Red.
const CHASE_ROOK_HORSE: Cycle = Cycle {
    // Black horse g7, Red rook h3. h3g3 attacks the horse up the g-file, it jumps to h9; g3h3
    // attacks it up the h-file, it jumps back to g7. No Black piece could take back on g7 or
    // h9, and the horse never attacks the rook.
    fen: "4k4/9/6n2/9/9/9/7R1/9/9/3K5 w - - 0 1",
    moves: "h3g3 g7h9 g3h3 h9g7",
    verdict: "0-1 perpetual chase by Red (horse on g7)",
};

/// The same chase by Black, mirrored: a loss for Black.
const CHASE_BY_BLACK: Cycle = Cycle {
    // Red horse g2, Black rook h6: h6g6 attacks the horse, it jumps to h0; g6h6 attacks it, it
    // jumps back.
    fen: "3k5/9/9/7r1/9/9/9/6N2/9/4K4 b - - 0 1",
    moves: "h6g6 g2h0 g6h6 h0g2",
    verdict: "1-0 perpetual chase by Black (horse on g2)",
};

/// A horse attacking a rook chases it even when the rook is protected.
const CHASE_HORSE_ROOK: Cycle = Cycle {
    // Black rook d8 (guarded by the king on d9), d7 (guarded by the b8 horse). Red horse e5f7
    // attacks d8 (leg e7 empty), the rook drops to d7; f7e5 attacks d7 (leg e6 empty), the
    // rook returns to d8. On d7 the rook attacks the f7 horse, but the f2 rook guards it, so
    // Black chases nothing.
    fen: "3k5/1n1r5/9/9/4N4/9/9/5R3/9/5K3 w - - 0 1",
    moves: "e5f7 d8d7 f7e5 d7d8",
    verdict: "0-1 perpetual chase by Red (rook on d8)",
};

/// A pinned defender does not protect: the chase of CHASE_ROOK_HORSE stands although a Black
/// horse on e8 could jump to g7.
const CHASE_PINNED_DEFENDER: Cycle = Cycle {
    // The e8 horse is pinned against the e9 king by the Red rook on e1, so it cannot retake on
    // g7; h9 is unprotected anyway.
    fen: "4k4/4n4/6n2/9/9/9/7R1/9/4R4/3K5 w - - 0 1",
    moves: "h3g3 g7h9 g3h3 h9g7",
    verdict: "0-1 perpetual chase by Red (horse on g7)",
};

/// The same with the defender free (the Red rook on a1 instead of e1): g7 is protected, so
/// attacking it is no chase.
const FREE_DEFENDER: Cycle = Cycle {
    fen: "4k4/4n4/6n2/9/9/9/7R1/9/R8/3K5 w - - 0 1",
    moves: "h3g3 g7h9 g3h3 h9g7",
    verdict: "1/2-1/2 repetition",
};

/// A rook attacking a protected horse is not chasing it.
const PROTECTED_HORSE: Cycle = Cycle {
    // As CHASE_ROOK_HORSE, but the Black rook on i9 guards h9.
    fen: "4k3r/9/6n2/9/9/9/7R1/9/9/3K5 w - - 0 1",
    moves: "h3g3 g7h9 g3h3 h9g7",
    verdict: "1/2-1/2 repetition",
};

/// A cannon chasing an unprotected horse through changing screens.
const CHASE_CANNON_SCREENS: Cycle = Cycle {
    // Red cannon c1 looks up the c-file at the Black horse on c6. The elephant e2c4 becomes its
    // screen (attack); the a4 horse jumps in to c5 (two screens, no attack); the elephant leaves
    // (c4e2), so c5 is the only screen (attack again); the horse leaves (c5a4).
    fen: "4k4/9/9/2n6/9/n8/9/4B4/2C6/3K5 w - - 0 1",
    moves: "e2c4 a4c5 c4e2 c5a4",
    verdict: "0-1 perpetual chase by Red (horse on c6)",
};

/// CHASE_CANNON_SCREENS with a pawn that has not crossed the river in the horse's place: the
/// same attacks, but such a pawn is never chased.
const UNCROSSED_PAWN: Cycle = Cycle {
    fen: "4k4/9/9/2p6/9/n8/9/4B4/2C6/3K5 w - - 0 1",
    moves: "e2c4 a4c5 c4e2 c5a4",
    verdict: "1/2-1/2 repetition",
};

/// Each side chases perpetually: a draw.
const CHASE_MUTUAL: Cycle = Cycle {
    // Red cannon g9, horse g5; Black rooks g8 and g3. g5h7 leaves g8 as the cannon's only
    // screen: it attacks the g3 rook. g8h8 attacks the h7 horse, and opens the g-file so the
    // g3 rook attacks the unprotected cannon. h7g5 makes the horse the screen again (attack on
    // g3). h8g8 attacks the cannon from next to it.
    fen: "4k1C2/6r2/9/9/6N2/9/6r2/9/9/3K5 w - - 0 1",
    moves: "g5h7 g8h8 h7g5 h8g8",
    verdict: "1/2-1/2 repetition",
};

/// Red chases every move, Black checks once per cycle: one check and one idle move break no
/// rule, and they do not excuse Red's perpetual chase.
const CHECK_AND_CHASE: Cycle = Cycle {
    // Black horse g2 checks the f0 king (leg g1 empty). h1g1 blocks the leg and attacks the
    // horse; it jumps to h4; g1h1 attacks it up the h-file; h4g2 checks again.
    fen: "4k4/9/9/9/9/9/9/6n2/7R1/5K3 w - - 0 1",
    moves: "h1g1 g2h4 g1h1 h4g2",
    verdict: "0-1 perpetual chase by Red (horse on g2)",
};

/// Rooks offering an exchange: a rook attacking a rook that can take back is no chase.
const EXCHANGE_ROOKS: Cycle = Cycle {
    // h3g3 attacks the g7 rook (which attacks back), it steps to h7; g3h3 attacks it again, it
    // steps back.
    fen: "4k4/9/6r2/9/9/9/7R1/9/9/3K5 w - - 0 1",
    moves: "h3g3 g7h7 g3h3 h7g7",
    verdict: "1/2-1/2 repetition",
};

/// A pawn never chases: the crossed c5 pawn hunts an unprotected rook along rank 6.
const PAWN_CHASER: Cycle = Cycle {
    // c5b5 attacks the b6 rook, it steps to c6; b5c5 attacks it, it steps back.
    fen: "4k4/9/9/1r7/2P6/9/9/9/9/3K5 w - - 0 1",
    moves: "c5b5 b6c6 b5c5 c6b6",
    verdict: "1/2-1/2 repetition",
};

/// A king never chases: the Red king hunts an unprotected cannon in its palace.
const KING_CHASER: Cycle = Cycle {
    // e1d1 attacks the d2 cannon, it steps to e2; d1e1 attacks it, it steps back. The e8
    // advisor keeps the kings from facing.
    fen: "4k4/4a4/9/9/9/9/9/3c5/4K4/9 w - - 0 1",
    moves: "e1d1 d2e2 d1e1 e2d2",
    verdict: "1/2-1/2 repetition",
};

/// Two rooks relay on one target: each move uncovers or brings a rook the horse did not face
/// before, although the horse is attacked all along.
const CHASE_RELAY: Cycle = Cycle {
    // Red rooks d3 and d1, Black horse d7 (unprotected). d3c3 uncovers the d1 rook; c3d3 brings
    // the moved rook back in front. Black shuffles its king.
    fen: "4k4/9/3n5/9/9/9/3R5/9/3R5/5K3 w - - 0 1",
    moves: "d3c3 e9e8 c3d3 e8e9",
    verdict: "0-1 perpetual chase by Red (horse on d7)",
};

/// A king move that uncovers a rook is an uncovering move like any other.
const CHASE_UNCOVERED_BY_KING: Cycle = Cycle {
    // Red rooks d0 and e0 behind the king, which shuttles between e1 and d1; the Black cannon
    // steps each time onto the file the king has just closed, and the king's step opens the
    // other rook's file onto it.
    fen: "5k3/9/9/9/4c4/9/9/9/4K4/3RR4 w - - 0 1",
    moves: "e1d1 e5d5 d1e1 d5e5",
    verdict: "0-1 perpetual chase by Red (cannon on e5)",
};

/// The same with a pawn across the river uncovering the rooks.
const CHASE_UNCOVERED_BY_PAWN: Cycle = Cycle {
    // Red pawn d5/e5 closes one of the rook files d0, e0; the Black advisor goes d9/e8 onto the
    // closed file, the pawn's step opens the other. The f2 advisor keeps the kings apart.
    fen: "3a1k3/9/9/9/3P5/9/9/5A3/5K3/3RR4 w - - 0 1",
    moves: "d5e5 d9e8 e5d5 e8d9",
    verdict: "0-1 perpetual chase by Red (advisor on d9)",
};

/// WXF (Asian rules) diagram 67, the cycle of its moves on a board set up to play them: the
/// king may chase perpetually (rule 28). Black to move: c5=6 K5=4 c6=5 K4=5.
const WXF_67_KING: Cycle = Cycle {
    fen: "3k5/9/9/9/9/9/9/4c4/4K4/9 b - - 0 1",
    moves: "e2f2 e1f1 f2e2 f1e1",
    verdict: "1/2-1/2 repetition",
};

/// WXF diagram 80: two rooks take turns on two cannons (R1=2 c8=9 R8=9 c1=2 R2=1 c9=8 R9=8
/// c2=1); chasing two pieces alternately is no perpetual chase (rule 32).
const WXF_80_TWO_ON_TWO: Cycle = Cycle {
    fen: "4k4/9/c6c1/9/9/9/9/1R6R/9/3K5 w - - 0 1",
    moves: "i2h2 h7i7 b2a2 a7b7 h2i2 i7h7 a2b2 b7a7",
    verdict: "1/2-1/2 repetition",
};

/// WXF diagram 91: every Red move chases the cannon and offers the rooks' exchange at once
/// (R8=9 c1=2 R9=8 c2=1); still a perpetual chase (rule 36).
const WXF_91_CHASE_AND_OFFER: Cycle = Cycle {
    fen: "5k3/9/c8/9/9/9/9/1R2r4/9/3K5 w - - 0 1",
    moves: "b2a2 a7b7 a2b2 b7a7",
    verdict: "0-1 perpetual chase by Red (cannon on a7)",
};

/// Horses going out and back from the start: a plain repetition.
const QUIET: Cycle = Cycle {
    fen: crate::board::START_FEN,
    moves: "b0c2 b9c7 c2b0 c7b9",
    verdict: "1/2-1/2 repetition",
};

const CYCLES: [Cycle; 26] = [
    WXF_67_KING,
    WXF_80_TWO_ON_TWO,
    WXF_91_CHASE_AND_OFFER,
    CHASE_RELAY,
    CHASE_UNCOVERED_BY_KING,
    CHASE_UNCOVERED_BY_PAWN,
    CHECK_ROOK,
    CHECK_HORSE,
    CHECK_ALTERNATING,
    CHECK_BY_BLACK,
    CHECK_MUTUAL,
    CHASE_ROOK_HORSE,
    CHASE_BY_BLACK,
    CHASE_HORSE_ROOK,
    CHASE_PINNED_DEFENDER,
    FREE_DEFENDER,
    PROTECTED_HORSE,
    CHASE_CANNON_SCREENS,
    UNCROSSED_PAWN,
    CHASE_MUTUAL,
    CHECK_AND_CHASE,
    EXCHANGE_ROOKS,
    PAWN_CHASER,
    KING_CHASER,
    QUIET,
    Cycle {
        // A longer cycle: two rooks taking turns to check the king around four palace points.
        fen: "4k4/R8/9/9/9/9/9/5R3/9/3K5 w - - 0 1",
        moves: "f2e2 e9f9 a8a9 f9f8 e2f2 f8e8 a9a8 e8e9",
        verdict: "0-1 perpetual check by Red",
    },
];

fn verdict_text(v: Option<Verdict>) -> String {
    v.map_or("ongoing".to_string(), |v| v.to_string())
}

/// A change of the board the rules must not see: mirroring left-right, swapping the colours
/// (turning the board round), or both.
#[derive(Clone, Copy, Debug)]
struct Symmetry {
    mirror: bool,
    swap: bool,
}

impl Symmetry {
    const ALL: [Symmetry; 4] = [
        Symmetry {
            mirror: false,
            swap: false,
        },
        Symmetry {
            mirror: true,
            swap: false,
        },
        Symmetry {
            mirror: false,
            swap: true,
        },
        Symmetry {
            mirror: true,
            swap: true,
        },
    ];

    /// A square in ICCS (file letter, rank digit).
    fn square(self, file: u8, rank: u8) -> String {
        let f = if self.mirror {
            b'i' - (file - b'a')
        } else {
            file
        };
        let r = if self.swap {
            b'9' - (rank - b'0')
        } else {
            rank
        };
        format!("{}{}", f as char, r as char)
    }

    fn fen(self, fen: &str) -> String {
        let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
        let mut rows: Vec<String> = fields[0]
            .split('/')
            .map(|row| {
                let mut cells = String::new();
                for ch in row.chars() {
                    match ch.to_digit(10) {
                        Some(n) => cells.extend(std::iter::repeat_n('.', n as usize)),
                        None if self.swap && ch.is_ascii_uppercase() => {
                            cells.push(ch.to_ascii_lowercase())
                        }
                        None if self.swap => cells.push(ch.to_ascii_uppercase()),
                        None => cells.push(ch),
                    }
                }
                if self.mirror {
                    cells = cells.chars().rev().collect();
                }
                cells
            })
            .collect();
        if self.swap {
            rows.reverse();
            fields[1] = if fields[1] == "w" { "b" } else { "w" }.to_string();
        }
        fields[0] = rows
            .iter()
            .map(|cells| {
                let mut row = String::new();
                let mut empty = 0;
                for ch in cells.chars() {
                    if ch == '.' {
                        empty += 1;
                        continue;
                    }
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(ch);
                }
                if empty > 0 {
                    row.push_str(&empty.to_string());
                }
                row
            })
            .collect::<Vec<_>>()
            .join("/");
        fields.join(" ")
    }

    fn moves(self, moves: &str) -> String {
        moves
            .split_whitespace()
            .map(|m| {
                let b = m.as_bytes();
                self.square(b[0], b[1]) + &self.square(b[2], b[3])
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A verdict as `Verdict` writes it ("0-1 perpetual chase by Red (horse on g7)").
    fn verdict(self, verdict: &str) -> String {
        let mut v = verdict.to_string();
        if self.swap {
            let (result, reason) = v.split_once(' ').unwrap_or((&v, ""));
            let result = match result {
                "1-0" => "0-1",
                "0-1" => "1-0",
                other => other,
            };
            let reason = if reason.contains("by Red") {
                reason.replace("by Red", "by Black")
            } else {
                reason.replace("by Black", "by Red")
            };
            v = format!("{result} {reason}").trim_end().to_string();
        }
        if let Some(at) = v.find(" on ") {
            let b = v.as_bytes();
            let sq = self.square(b[at + 4], b[at + 5]);
            v.replace_range(at + 4..at + 6, &sq);
        }
        v
    }
}

/// The score `judge` should give the side to move at `pos` for a cycle with this verdict.
fn expected_score(verdict: &str, pos: &Position) -> RuleScore {
    let red_to_move = pos.side_to_move() == Color::Red;
    match (verdict.split(' ').next(), red_to_move) {
        (Some("1/2-1/2"), _) => RuleScore::Draw,
        (Some("1-0"), true) | (Some("0-1"), false) => RuleScore::Win,
        _ => RuleScore::Loss,
    }
}

/// Every cycle in every symmetry: (start, cycle moves, verdict, what it came from).
fn all_cycles() -> Vec<(Position, Vec<Move>, String, String)> {
    let mut out = Vec::new();
    for c in &CYCLES {
        for sym in Symmetry::ALL {
            let pos = start(&sym.fen(c.fen));
            let cycle = parse_line(&pos, &sym.moves(c.moves));
            out.push((
                pos,
                cycle,
                sym.verdict(c.verdict),
                format!("{} {sym:?}", c.fen),
            ));
        }
    }
    out
}

#[test]
fn cycles_are_judged_at_the_third_occurrence() {
    for (pos, cycle, verdict, name) in all_cycles() {
        let mut rec = GameRecord::new(pos.clone());
        for (i, &m) in cycle.iter().chain(&cycle).enumerate() {
            assert_eq!(rec.verdict(120), None, "{name} ongoing before ply {i}");
            rec.play(m).unwrap();
        }
        assert_eq!(rec.position().key(), pos.key(), "{name}: the cycle returns");
        assert_eq!(verdict_text(rec.verdict(120)), verdict, "{name}");
    }
}

/// Plays `moves` on the search path, judging each node; returns the judgements.
fn walk(history: &mut SearchHistory, pos: &mut Position, moves: &[Move]) -> Vec<Option<RuleScore>> {
    moves
        .iter()
        .map(|&m| {
            let check = pos.gives_check(m);
            let undo = pos.do_move(m);
            history.push(pos, m, undo, check);
            history.judge(pos)
        })
        .collect()
}

#[test]
fn search_scores_a_cycle_on_the_path_at_its_second_occurrence() {
    for (mut pos, cycle, verdict, name) in all_cycles() {
        let mut history = SearchHistory::from_record(&GameRecord::new(pos.clone()));
        // Back at the root: only its second occurrence, the game goes on.
        let n = cycle.len();
        let first = walk(&mut history, &mut pos, &cycle);
        assert!(first.iter().all(Option::is_none), "{name}: {first:?}");
        // One more move repeats the position after the first move, which lies inside the tree.
        let again = walk(&mut history, &mut pos, &cycle[..1]);
        assert_eq!(again, [Some(expected_score(&verdict, &pos))], "{name}");
        assert_eq!(history.path_len(), n + 1);
    }
}

#[test]
fn search_scores_a_cycle_with_the_game_history_at_its_third_occurrence() {
    for (pos, cycle, verdict, name) in all_cycles() {
        let mut rec = GameRecord::new(pos);
        for &m in &cycle {
            rec.push(m);
        }
        let mut history = SearchHistory::from_record(&rec);
        let mut pos = rec.position().clone();
        let judged = walk(&mut history, &mut pos, &cycle);
        let (last, before) = judged.split_last().unwrap();
        assert!(before.iter().all(Option::is_none), "{name}: {judged:?}");
        assert_eq!(*last, Some(expected_score(&verdict, &pos)), "{name}");
    }
}

/// Fairy-Stockfish's chasing tests (`tests/data/repetition-fairy-stockfish.txt`): the referee
/// gives each its result when a position first stands for the third time (one case plays on
/// past that point; the result is the same), and the search, walking
/// the same moves from the start, scores the first repetition inside its tree the same way; in
/// every symmetry.
#[test]
fn fairy_stockfish_cases_in_every_symmetry() {
    let data = include_str!("../../tests/data/repetition-fairy-stockfish.txt");
    let cases: Vec<Vec<&str>> = data
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split(" | ").collect())
        .collect();
    assert_eq!(cases.len(), 33);
    for case in &cases {
        let [name, fen, moves, result] = case[..] else {
            panic!("{case:?}: four fields");
        };
        for sym in Symmetry::ALL {
            let name = format!("{name} {sym:?}");
            let pos = start(&sym.fen(fen));
            let line = parse_line(&pos, &sym.moves(moves));
            let mut rec = GameRecord::new(pos.clone());
            for &m in &line {
                if rec.verdict(120).is_some() {
                    break;
                }
                rec.play(m).unwrap();
            }
            let verdict = verdict_text(rec.verdict(120));
            let mut history = SearchHistory::from_record(&GameRecord::new(pos.clone()));
            let mut p = pos.clone();
            let mut judged = walk(&mut history, &mut p, &line).into_iter().flatten();
            let first = judged.next();
            if result == "?" {
                assert_eq!(verdict, "1/2-1/2 repetition", "{name}");
                assert_eq!(first, Some(RuleScore::Draw), "{name}");
                continue;
            }
            let result = if result == "1/2-1/2" {
                result.to_string()
            } else {
                sym.verdict(result)
            };
            assert!(
                verdict.starts_with(&result),
                "{name}: {verdict}, want {result}"
            );
            // The first repetition on the path is one cycle in: judge it where it happened.
            let mut p = pos.clone();
            let mut h = SearchHistory::from_record(&GameRecord::new(pos.clone()));
            let at = walk(&mut h, &mut p, &line)
                .iter()
                .position(Option::is_some)
                .unwrap_or_else(|| panic!("{name}: the search sees the repetition"));
            let mut q = pos.clone();
            for &m in &line[..=at] {
                q.do_move(m);
            }
            assert_eq!(first, Some(expected_score(&result, &q)), "{name}");
        }
    }
}

#[test]
fn search_history_looks_no_further_than_a_null_move() {
    let mut pos = start(CHECK_ROOK.fen);
    let mut history = SearchHistory::from_record(&GameRecord::new(pos.clone()));
    let cycle = parse_line(&pos, CHECK_ROOK.moves);
    assert!(
        walk(&mut history, &mut pos, &cycle)
            .iter()
            .all(Option::is_none)
    );
    // Both sides pass: the position stands for the third time, but across null moves.
    for _ in 0..2 {
        let undo = pos.do_null_move();
        history.push(&pos, Move::NULL, undo, false);
        assert_eq!(history.judge(&pos), None);
    }
    // The position after the passes repeats inside the tree: Red, to move, checked perpetually.
    let judged = walk(&mut history, &mut pos, &cycle);
    assert_eq!(judged, [None, None, None, Some(RuleScore::Loss)]);
}

/// Plays each game (FEN, moves, move limit) and compares the verdict.
fn assert_verdicts(games: &[(&str, &str, u32, &str)]) {
    for &(fen, moves, limit, verdict) in games {
        let pos = start(fen);
        let mut rec = GameRecord::new(pos.clone());
        for m in parse_line(&pos, moves) {
            rec.play(m).unwrap();
        }
        assert_eq!(verdict_text(rec.verdict(limit)), verdict, "{fen} {moves}");
    }
}

#[test]
fn checkmate_and_stalemate_lose() {
    assert_verdicts(&[
        // Rook ladder: the a8 rook holds rank 8, b1b9 checks d9 along rank 9; e9 is covered by
        // the rook and by the facing Red king.
        (
            "3k5/R8/9/9/9/9/9/9/1R7/4K4 w - - 0 1",
            "b1b9",
            120,
            "1-0 checkmate",
        ),
        // The same by Black: the a1 rook holds rank 1, b7b0 checks d0 along rank 0.
        (
            "4k4/9/1r7/9/9/9/9/9/r8/3K5 b - - 0 1",
            "b7b0",
            120,
            "0-1 checkmate",
        ),
        // a5f5 checks f9 up the f-file; f8 is on the file, e9 faces the Red king.
        (
            "5k3/9/9/9/R8/9/9/9/9/4K4 w - - 0 1",
            "a5f5",
            120,
            "1-0 checkmate",
        ),
        // Before the mating move, the game goes on.
        ("5k3/9/9/9/R8/9/9/9/9/4K4 w - - 0 1", "", 120, "ongoing"),
        // a7a8 takes d8 from the d9 king; e9 faces the Red king. Not in check: stalemate.
        (
            "3k5/9/R8/9/9/9/9/9/9/4K4 w - - 0 1",
            "a7a8",
            120,
            "1-0 stalemate",
        ),
        // The same against Red: a2a1 takes d1, e0 faces the Black king.
        (
            "4k4/9/9/9/9/9/9/r8/9/3K5 b - - 0 1",
            "a2a1",
            120,
            "0-1 stalemate",
        ),
        // King in the palace corner d7: a9a8 takes d8, e7 faces the Red king.
        (
            "R8/9/3k5/9/9/9/9/9/9/4K4 w - - 0 1",
            "a9a8",
            120,
            "1-0 stalemate",
        ),
    ]);
}

#[test]
fn move_limit_counts_plies_since_capture_and_a_mate_on_the_last_ply_stands() {
    // Red rook a5, Black king f9 (which can always step to f8 unless checked up the f-file).
    let last_ply = "5k3/9/9/9/R8/9/9/9/9/4K4 w - - 119 60";
    let black = "4k4/9/9/9/9/r8/9/9/9/5K3 b - - 119 60";
    let quiet = "4k4/9/9/9/9/9/9/R8/9/3K5 w - - 116 59";
    let ten = "5k3/9/9/9/R8/9/9/9/9/4K4 w - - 9 5";
    let capture = "3k5/9/9/9/9/p8/P8/9/9/4K4 w - - 119 60";
    let pawn_move = "3k5/9/9/p8/9/9/P8/9/9/4K4 w - - 119 60";
    assert_verdicts(&[
        // The 120th ply without capture mates (a5f5, as above): the mate stands.
        (last_ply, "a5f5", 120, "1-0 checkmate"),
        // The same ply without mate: the limit draws.
        (last_ply, "a5a6", 120, "1/2-1/2 move limit"),
        // Black mates on the 120th ply: a4f4 checks f0 up the f-file, e0 faces the Black king.
        (black, "a4f4", 120, "0-1 checkmate"),
        (black, "a4a3", 120, "1/2-1/2 move limit"),
        // Plies counted from 116: four more reach the limit, three do not.
        (quiet, "a2a3 e9e8 a3a2", 120, "ongoing"),
        (quiet, "a2a3 e9e8 a3a2 e8e9", 120, "1/2-1/2 move limit"),
        // A capture resets the count (a3a4 takes the a4 pawn); a pawn move does not.
        (capture, "a3a4", 120, "ongoing"),
        (pawn_move, "a3a4", 120, "1/2-1/2 move limit"),
        // Other limits, and none.
        (last_ply, "a5a6", 0, "ongoing"),
        (ten, "a5a6", 10, "1/2-1/2 move limit"),
        (ten, "a5a6", 11, "ongoing"),
        (ten, "a5f5", 10, "1-0 checkmate"),
    ]);
}

#[test]
fn no_attacking_material_draws() {
    // The f0 advisor can take Black's last pawn.
    let last_pawn = "4k4/9/9/9/9/9/9/9/4p4/3K1A3 w - - 0 1";
    let kings = "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1";
    // Advisors and elephants never cross the river.
    let guards = "2bakab2/9/9/9/9/9/9/9/4A4/2BK1AB2 w - - 0 1";
    let dead = "1/2-1/2 no attacking material";
    assert_verdicts(&[
        (kings, "", 120, dead),
        (guards, "", 120, dead),
        (last_pawn, "", 120, "ongoing"),
        (last_pawn, "f0e1", 120, dead),
    ]);
}

#[test]
fn every_red_move_of_check_and_chase_chases_the_horse() {
    // Every Red move of CHECK_AND_CHASE newly chases the Black horse.
    let pos = start(CHECK_AND_CHASE.fen);
    let mut p = pos.clone();
    for (i, m) in parse_line(&pos, CHECK_AND_CHASE.moves)
        .into_iter()
        .enumerate()
    {
        let before = p.clone();
        p.do_move(m);
        if i % 2 == 0 {
            let horse = p.pieces(Color::Black, PieceType::Horse);
            assert_eq!(chase::new_chases(&before, m, &p), horse, "{m}");
        }
    }
}
