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

/// Red chases every move, Black checks once per cycle: checks mixed in make it a draw.
const CHECK_AND_CHASE: Cycle = Cycle {
    // Black horse g2 checks the f0 king (leg g1 empty). h1g1 blocks the leg and attacks the
    // horse; it jumps to h4; g1h1 attacks it up the h-file; h4g2 checks again.
    fen: "4k4/9/9/9/9/9/9/6n2/7R1/5K3 w - - 0 1",
    moves: "h1g1 g2h4 g1h1 h4g2",
    verdict: "1/2-1/2 repetition",
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

/// Horses going out and back from the start: a plain repetition.
const QUIET: Cycle = Cycle {
    fen: crate::board::START_FEN,
    moves: "b0c2 b9c7 c2b0 c7b9",
    verdict: "1/2-1/2 repetition",
};

const CYCLES: [Cycle; 20] = [
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

#[test]
fn cycles_are_judged_at_the_third_occurrence() {
    for c in &CYCLES {
        let pos = start(c.fen);
        let cycle = parse_line(&pos, c.moves);
        let mut rec = GameRecord::new(pos.clone());
        for (i, &m) in cycle.iter().chain(&cycle).enumerate() {
            assert_eq!(rec.verdict(120), None, "{} ongoing before ply {i}", c.fen);
            rec.play(m).unwrap();
        }
        assert_eq!(
            rec.position().key(),
            pos.key(),
            "{}: the cycle returns",
            c.fen
        );
        assert_eq!(verdict_text(rec.verdict(120)), c.verdict, "{}", c.fen);
    }
}

/// The score `judge` should give the side to move at `pos` for a cycle with this verdict.
fn expected_score(c: &Cycle, pos: &Position) -> RuleScore {
    let red_to_move = pos.side_to_move() == Color::Red;
    match (c.verdict.split(' ').next(), red_to_move) {
        (Some("1/2-1/2"), _) => RuleScore::Draw,
        (Some("1-0"), true) | (Some("0-1"), false) => RuleScore::Win,
        _ => RuleScore::Loss,
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
    for c in &CYCLES {
        let mut pos = start(c.fen);
        let cycle = parse_line(&pos, c.moves);
        let mut history = SearchHistory::from_record(&GameRecord::new(pos.clone()));
        // Back at the root: only its second occurrence, the game goes on.
        let n = cycle.len();
        let first = walk(&mut history, &mut pos, &cycle);
        assert!(first.iter().all(Option::is_none), "{}: {first:?}", c.fen);
        // One more move repeats the position after the first move, which lies inside the tree.
        let again = walk(&mut history, &mut pos, &cycle[..1]);
        assert_eq!(again, [Some(expected_score(c, &pos))], "{}", c.fen);
        assert_eq!(history.path_len(), n + 1);
    }
}

#[test]
fn search_scores_a_cycle_with_the_game_history_at_its_third_occurrence() {
    for c in &CYCLES {
        let pos = start(c.fen);
        let cycle = parse_line(&pos, c.moves);
        let rec =
            GameRecord::from_moves(pos.clone(), &c.moves.split_whitespace().collect::<Vec<_>>())
                .unwrap();
        let mut history = SearchHistory::from_record(&rec);
        let mut pos = rec.position().clone();
        let judged = walk(&mut history, &mut pos, &cycle);
        let (last, before) = judged.split_last().unwrap();
        assert!(before.iter().all(Option::is_none), "{}: {judged:?}", c.fen);
        assert_eq!(*last, Some(expected_score(c, &pos)), "{}", c.fen);
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
fn only_the_checks_keep_check_and_chase_a_draw() {
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
            assert_eq!(chase::new_chases(&before, &p), horse, "{m}");
        }
    }
}
