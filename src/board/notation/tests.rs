use super::*;

/// Positions with doubled and tandem pieces of every kind, Red to move.
const TANDEM_FENS: [&str; 7] = [
    // three pawns on one file, rooks doubled on a file, advisors on one file
    "3k5/4P4/4P4/4P4/9/9/R8/3A5/R8/3AK4 w",
    // four pawns on one file, cannons and horses doubled
    "3k5/4P4/4P4/4P4/4P4/9/1C5H1/9/1C5H1/4K4 w",
    // five pawns on one file
    "P2k5/P8/P8/P8/P8/9/9/9/9/4K4 w",
    // pawns on two files, three and two
    "3k5/9/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w",
    // pawns on two files, two each, elephants on one file
    "3k5/9/9/1P5P1/1P5P1/2B6/9/9/9/2B1K4 w",
    // two pawns on a file and one alone
    "3k5/9/9/4P4/4P1P2/9/9/9/9/4K4 w",
    // doubled rooks and cannons on the king's file
    "3k5/9/9/9/4R4/4C4/9/4R4/4C4/5K3 w",
];

/// The same position turned half round with colours swapped, so Black has what Red had.
fn rotated(fen: &str) -> String {
    let (board, _) = fen.split_once(' ').unwrap();
    let ranks: Vec<String> = board
        .split('/')
        .rev()
        .map(|r| {
            r.chars()
                .rev()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    format!("{} b", ranks.join("/"))
}

fn rotate_move(m: Move) -> Move {
    let r = |s: Square| Square::new(8 - s.file(), 9 - s.rank());
    Move::new(r(m.from()), r(m.to()))
}

fn all_positions() -> Vec<Position> {
    let mut fens: Vec<String> = include_str!("../../../tests/data/perft.epd")
        .lines()
        .filter_map(|l| l.split(';').next())
        .map(|f| f.trim().to_string())
        .filter(|f| !f.is_empty())
        .collect();
    for f in TANDEM_FENS {
        fens.push(f.to_string());
        fens.push(rotated(f));
    }
    fens.iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect()
}

fn mv(s: &str) -> Move {
    Move::parse_coords(s).unwrap()
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

#[test]
fn every_legal_move_survives_formatting_then_parsing() {
    let mut checked = 0;
    for p in all_positions() {
        for notation in [Notation::Iccs, Notation::Chinese, Notation::Wxf] {
            let mut seen = std::collections::HashSet::new();
            for &m in p.legal_moves().iter() {
                let text = format_move(&p, m, notation);
                assert!(seen.insert(text.clone()), "{text} written twice in {p:?}");
                assert_eq!(detect(&text), notation, "{text}");
                assert_eq!(parse_move(&p, &text), Ok(m), "{text} in {p:?}");
                checked += 1;
            }
        }
    }
    assert!(checked > 2000, "only {checked} moves checked");
}

#[test]
fn chinese_and_wxf_convert_into_each_other() {
    for p in all_positions() {
        for &m in p.legal_moves().iter() {
            let chinese = format_move(&p, m, Notation::Chinese);
            let wxf = format_move(&p, m, Notation::Wxf);
            let from_chinese = parse_move(&p, &chinese).unwrap();
            assert_eq!(format_move(&p, from_chinese, Notation::Wxf), wxf);
            let from_wxf = parse_move(&p, &wxf).unwrap();
            assert_eq!(format_move(&p, from_wxf, Notation::Chinese), chinese);
        }
    }
}

#[test]
fn black_writes_what_red_writes_in_the_rotated_position() {
    for fen in TANDEM_FENS {
        let (red, black) = (pos(fen), pos(&rotated(fen)));
        for &m in red.legal_moves().iter() {
            let b = rotate_move(m);
            assert_eq!(
                format_move(&red, m, Notation::Wxf),
                format_move(&black, b, Notation::Wxf)
            );
            let as_red: String = format_move(&black, b, Notation::Chinese)
                .chars()
                .map(|c| match c {
                    '1'..='9' => CHINESE_DIGITS[c as usize - '1' as usize],
                    '将' => '帅',
                    '士' => '仕',
                    '象' => '相',
                    '卒' => '兵',
                    c => c,
                })
                .collect();
            assert_eq!(format_move(&red, m, Notation::Chinese), as_red);
        }
    }
}

fn check(p: &Position, iccs: &str, chinese: &str, wxf: &str) {
    let m = mv(iccs);
    assert_eq!(format_move(p, m, Notation::Chinese), chinese, "{iccs}");
    assert_eq!(format_move(p, m, Notation::Wxf), wxf, "{iccs}");
    assert_eq!(format_move(p, m, Notation::Iccs), iccs);
    assert_eq!(parse_move(p, chinese), Ok(m));
    assert_eq!(parse_move(p, wxf), Ok(m));
}

/// Opening moves as books write them: (moves played first, ICCS, Chinese, WXF).
const OPENING_EXAMPLES: [(&[&str], &str, &str, &str); 16] = [
    (&[], "h2e2", "炮二平五", "C2.5"),
    (&[], "h0g2", "马二进三", "H2+3"),
    (&[], "b0c2", "马八进七", "H8+7"),
    (&[], "a0a1", "车九进一", "R9+1"),
    (&[], "f0e1", "仕四进五", "A4+5"),
    (&[], "g0e2", "相三进五", "E3+5"),
    (&[], "e0e1", "帅五进一", "K5+1"),
    (&[], "g3g4", "兵三进一", "P3+1"),
    (&[], "h2h9", "炮二进七", "C2+7"),
    (&["h2e2"], "h9g7", "马8进7", "H8+7"),
    (&["h2e2"], "b7e7", "炮2平5", "C2.5"),
    (&["h2e2"], "c6c5", "卒3进1", "P3+1"),
    (&["h2e2"], "d9e8", "士4进5", "A4+5"),
    (&["h2e2"], "i9i7", "车9进2", "R9+2"),
    (&["h2e2", "h9g7"], "e2e6", "炮五进四", "C5+4"),
    (&["h2e2", "h9g7", "e2e6"], "g7e6", "马7进5", "H7+5"),
];

#[test]
fn known_opening_moves() {
    for (before, iccs, chinese, wxf) in OPENING_EXAMPLES {
        let mut p = Position::startpos();
        for m in before {
            p.do_move(mv(m));
        }
        check(&p, iccs, chinese, wxf);
    }
}

/// Standard forms of tandem pieces: (position, ICCS, Chinese, WXF); positions index
/// `TANDEM_FENS`, plus 10 for the rotated one (Black to move).
const TANDEM_EXAMPLES: [(usize, &str, &str, &str); 31] = [
    // doubled rooks, cannons, horses: 前/后, +/-
    (0, "a3a5", "前车进二", "R++2"),
    (0, "a1b1", "后车平八", "R-.8"),
    (0, "a1a2", "后车进一", "R-+1"),
    (1, "b3e3", "前炮平五", "C+.5"),
    (1, "b1b0", "后炮退一", "C--1"),
    (1, "h3g5", "前马进三", "H++3"),
    (1, "h1g3", "后马进三", "H-+3"),
    (10, "i6i4", "前车进2", "R++2"),
    (10, "i8h8", "后车平8", "R-.8"),
    // advisors and elephants keep their file: the direction tells them apart
    (0, "d0e1", "仕六进五", "A6+5"),
    (0, "d2e1", "仕六退五", "A6-5"),
    (4, "c0e2", "相七进五", "E7+5"),
    (4, "c4e2", "相七退五", "E7-5"),
    // pawns: three on a file
    (0, "e8f8", "前兵平四", "P+.4"),
    (0, "e7d7", "中兵平六", "P5.6"),
    (0, "e6d6", "后兵平六", "P-.6"),
    (0, "e8e9", "前兵进一", "P++1"),
    // four on a file
    (1, "e8f8", "一兵平四", "++.4"),
    (1, "e7f7", "二兵平四", "P+.4"),
    (1, "e6f6", "三兵平四", "P-.4"),
    (1, "e5f5", "四兵平四", "--.4"),
    // five on a file
    (2, "a9b9", "一兵平八", "++.8"),
    (2, "a7b7", "三兵平八", "P9.8"),
    (2, "a5b5", "五兵平八", "--.8"),
    // two on a file, one alone
    (5, "e5d5", "后兵平六", "P-.6"),
    (5, "g5g6", "兵三进一", "P3+1"),
    // three and two on two files: right file first, front to back
    (3, "g6f6", "一兵平四", "3+.4"),
    (3, "c7c8", "三兵进一", "7++1"),
    (3, "c6d6", "四兵平六", "77.6"),
    (3, "c5d5", "五兵平六", "7-.6"),
    (13, "g3f3", "四卒平6", "77.6"),
];

#[test]
fn tandem_pieces_take_their_standard_names() {
    for (i, iccs, chinese, wxf) in TANDEM_EXAMPLES {
        let fen = if i < 10 {
            TANDEM_FENS[i].to_string()
        } else {
            rotated(TANDEM_FENS[i - 10])
        };
        check(&pos(&fen), iccs, chinese, wxf);
    }
}

#[test]
fn pawns_on_two_files_need_the_file_with_front_and_rear() {
    let p = pos(TANDEM_FENS[3]);
    assert!(matches!(
        parse_move(&p, "前兵进一"),
        Err(NotationError::Ambiguous { .. })
    ));
    assert_eq!(parse_move(&p, "前七进一"), Ok(mv("c7c8")));
}

#[test]
fn common_variants_are_read() {
    let p = Position::startpos();
    let h2e2 = mv("h2e2");
    for text in [
        "H2-E2",
        "h2e2",
        "炮2平5",
        "砲二平五",
        "包二平五",
        "C2=5",
        "c2.5",
        "C25",
    ] {
        assert_eq!(parse_move(&p, text), Ok(h2e2), "{text}");
    }
    assert_eq!(parse_move(&p, "俥九進一"), Ok(mv("a0a1")));
    assert_eq!(parse_move(&p, "傌二进三"), Ok(mv("h0g2")));
    assert_eq!(parse_move(&p, "N2+3"), Ok(mv("h0g2")));
    let p = pos(TANDEM_FENS[0]);
    assert_eq!(parse_move(&p, "+R+2"), Ok(mv("a3a5")));
    assert_eq!(parse_move(&p, "後車平八"), Ok(mv("a1b1")));
    // older manuals name a doubled piece by its file when only one of them can move so
    assert_eq!(parse_move(&p, "车九进二"), Ok(mv("a3a5")));
    // and 前/后 for a doubled advisor is understood though not needed
    assert_eq!(parse_move(&p, "前仕退五"), Ok(mv("d2e1")));
}

#[test]
fn errors_explain_in_one_line_with_the_alternatives() {
    let p = Position::startpos();
    let e = parse_move(&p, "炮二进九").unwrap_err();
    let NotationError::Illegal { alternatives, .. } = &e else {
        panic!("{e}")
    };
    assert!(alternatives.contains(&"炮二平五".to_string()));
    assert!(alternatives.iter().all(|a| a.starts_with("炮二")));
    assert!(!e.to_string().contains('\n'));
    let e = parse_move(&p, "h2h8").unwrap_err();
    let NotationError::Illegal { alternatives, .. } = &e else {
        panic!("{e}")
    };
    assert!(alternatives.contains(&"h2h9".to_string()));
    assert!(alternatives.iter().all(|a| a.starts_with("h2")));
    assert!(matches!(
        parse_move(&p, "hello"),
        Err(NotationError::Unreadable(_))
    ));
    let doubled = pos(TANDEM_FENS[0]);
    let e = parse_move(&doubled, "车九进一").unwrap_err();
    let NotationError::Ambiguous { candidates, .. } = &e else {
        panic!("{e}")
    };
    let mut candidates = candidates.clone();
    candidates.sort();
    assert_eq!(candidates, ["前车进一", "后车进一"]);
    assert!(
        e.to_string()
            .starts_with("'车九进一' is ambiguous; did you mean ")
    );
}

#[test]
fn lines_are_written_move_after_move() {
    let p = Position::startpos();
    let line = [mv("h2e2"), mv("h9g7"), mv("h0g2"), mv("a0a0")];
    assert_eq!(
        format_line(&p, &line, Notation::Chinese),
        ["炮二平五", "马8进7", "马二进三"]
    );
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config::with_cases(12))]

    /// Random games that favour pawn moves pile pawns on files; every legal move on the way
    /// must still be written uniquely and read back in all three notations.
    #[test]
    fn random_games_round_trip(choices in proptest::collection::vec(proptest::num::u16::ANY, 100)) {
        let mut p = Position::startpos();
        for c in choices {
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            for notation in [Notation::Iccs, Notation::Chinese, Notation::Wxf] {
                for &m in legal.iter() {
                    let text = format_move(&p, m, notation);
                    proptest::prop_assert_eq!(parse_move(&p, &text), Ok(m), "{} in {:?}", text, p);
                }
            }
            let pawn_moves: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| p.piece_at(m.from()).kind() == PieceType::Pawn)
                .collect();
            let pool = if c % 4 != 0 && !pawn_moves.is_empty() { &pawn_moves[..] } else { &legal[..] };
            p.do_move(pool[usize::from(c / 4) % pool.len()]);
        }
    }
}
