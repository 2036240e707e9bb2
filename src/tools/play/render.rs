//! The board as text for a terminal: lines, river and palaces, Chinese characters or FEN letters,
//! optional ANSI colour. A pure function of the position and the options, so it can be tested.

use crate::board::{Color, Move, Piece, Position, Square};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RenderOptions {
    /// Black at the bottom.
    pub flipped: bool,
    /// ANSI colours for pieces and highlights.
    pub color: bool,
    /// FEN letters and ASCII lines instead of Chinese characters and box drawing.
    pub ascii: bool,
}

/// Columns from one point to the next.
const STEP: usize = 4;

const RESET: &str = "\x1b[0m";
const RED_PIECE: &str = "\x1b[1;31;47m";
const BLACK_PIECE: &str = "\x1b[1;30;47m";
const RED_MOVED: &str = "\x1b[1;31;43m";
const BLACK_MOVED: &str = "\x1b[1;30;43m";
const CHECKED: &str = "\x1b[1;97;41m";
const ORIGIN: &str = "\x1b[1;33m";

/// Draws the board with `pos`'s side to move; `last` (the move that led here) is marked as
/// `*` on its origin and `(..)` around the piece that moved; a king in check is shown `[..]`.
pub fn render_board(pos: &Position, last: Option<Move>, opts: RenderOptions) -> String {
    let at = |row: usize, col: usize| -> Square {
        let (file, rank) = if opts.flipped {
            (8 - col, row)
        } else {
            (col, 9 - row)
        };
        Square::new(file as u8, rank as u8)
    };
    let checked = pos.in_check().then(|| pos.king_square(pos.side_to_move()));
    let files: String = (0..9)
        .map(|c| format!("{:<STEP$}", char::from(b'a' + at(0, c).file())))
        .collect();
    let edge = format!("   {}\n", files.trim_end());
    let mut out = edge.clone();
    for row in 0..10 {
        let rank = at(row, 0).rank();
        out.push_str(&format!("{rank} "));
        // Marker slots: the character before and after each point.
        let mut before = [' '; 9];
        let mut after = [' '; 9];
        let mark = |s: Square, open: char, close: char, b: &mut [char; 9], a: &mut [char; 9]| {
            if let Some(c) = (0..9).find(|&c| at(row, c) == s) {
                b[c] = open;
                a[c] = close;
            }
        };
        if let Some(m) = last {
            mark(m.to(), '(', ')', &mut before, &mut after);
        }
        if let Some(k) = checked {
            mark(k, '[', ']', &mut before, &mut after);
        }
        out.push(before[0]);
        for col in 0..9 {
            let s = at(row, col);
            let piece = pos.piece_at(s);
            let (text, width) = if piece.is_some() {
                let style = if Some(s) == checked {
                    CHECKED
                } else {
                    match (piece.color(), last.is_some_and(|m| m.to() == s)) {
                        (Color::Red, false) => RED_PIECE,
                        (Color::Black, false) => BLACK_PIECE,
                        (Color::Red, true) => RED_MOVED,
                        (Color::Black, true) => BLACK_MOVED,
                    }
                };
                let glyph = piece_glyph(piece, opts.ascii);
                (
                    paint(&glyph.to_string(), style, opts.color),
                    glyph_width(opts.ascii),
                )
            } else if last.is_some_and(|m| m.from() == s) {
                (paint("*", ORIGIN, opts.color), 1)
            } else {
                (junction(row, col, opts.ascii).to_string(), 1)
            };
            out.push_str(&text);
            if col < 8 {
                let line = if opts.ascii { '-' } else { '─' };
                let mut gap: Vec<char> = vec![line; STEP - width];
                if after[col] != ' ' {
                    gap[0] = after[col];
                }
                if before[col + 1] != ' ' {
                    *gap.last_mut().expect("gap is never empty") = before[col + 1];
                }
                out.extend(gap);
            } else {
                out.push(after[8]);
                // Keep the rank labels in one column whatever stands on the last file.
                out.push_str(&" ".repeat(glyph_width(opts.ascii) - width));
            }
        }
        out.push_str(&format!(" {rank}\n"));
        if row == 4 {
            out.push_str(&river(opts.ascii));
        } else if row < 9 {
            out.push_str(&between_rows(row, opts.ascii, &at));
        }
    }
    out.push_str(&edge);
    out
}

fn paint(text: &str, style: &str, color: bool) -> String {
    if color {
        format!("{style}{text}{RESET}")
    } else {
        text.to_string()
    }
}

fn glyph_width(ascii: bool) -> usize {
    if ascii { 1 } else { 2 }
}

/// The piece as a FEN letter (upper case Red) or its Chinese character.
pub fn piece_glyph(piece: Piece, ascii: bool) -> char {
    if ascii {
        piece.letter()
    } else {
        piece.kind().chinese(piece.color())
    }
}

/// The empty point's line crossing: corners and edges at the border, tees at the river.
fn junction(row: usize, col: usize, ascii: bool) -> char {
    if ascii {
        return '+';
    }
    let edge_file = col == 0 || col == 8;
    let up = row > 0 && (row != 5 || edge_file);
    let down = row < 9 && (row != 4 || edge_file);
    let (left, right) = (col > 0, col < 8);
    match (up, down, left, right) {
        (false, true, false, true) => '┌',
        (false, true, true, false) => '┐',
        (true, false, false, true) => '└',
        (true, false, true, false) => '┘',
        (true, true, false, true) => '├',
        (true, true, true, false) => '┤',
        (false, true, true, true) => '┬',
        (true, false, true, true) => '┴',
        _ => '┼',
    }
}

/// The vertical lines between two rows of points, with the palace diagonals.
fn between_rows(row: usize, ascii: bool, at: &dyn Fn(usize, usize) -> Square) -> String {
    let (vertical, down_right, down_left) = if ascii {
        ('|', '\\', '/')
    } else {
        ('│', '╲', '╱')
    };
    let mut s = String::from("   ");
    for col in 0..9 {
        s.push(vertical);
        if col < 8 {
            let diagonal = if palace_diagonal(at(row, col), at(row + 1, col + 1)) {
                down_right
            } else if palace_diagonal(at(row, col + 1), at(row + 1, col)) {
                down_left
            } else {
                ' '
            };
            s.push_str(&format!(" {diagonal} "));
        }
    }
    s.push('\n');
    s
}

/// Whether the two points are joined by one of the palace's diagonal lines.
fn palace_diagonal(a: Square, b: Square) -> bool {
    let centre = |s: Square| s.file() == 4 && (s.rank() == 1 || s.rank() == 8);
    let in_a_palace = |s: Square| s.in_palace(Color::Red) || s.in_palace(Color::Black);
    a.file().abs_diff(b.file()) == 1
        && a.rank().abs_diff(b.rank()) == 1
        && in_a_palace(a)
        && in_a_palace(b)
        && (centre(a) || centre(b))
}

/// The river between the two halves, with its names.
fn river(ascii: bool) -> String {
    let (edge, chu, han) = if ascii {
        ('|', "Chu He", "Han Jie")
    } else {
        ('│', "楚 河", "汉 界")
    };
    // Both sides' names are 5 or 6/7 columns wide; the gaps make the row as wide as the board.
    let inner = 8 * STEP - 1;
    let used = if ascii { 13 } else { 10 };
    let middle = inner - used - 8;
    format!("   {edge}    {chu}{}{han}    {edge}\n", " ".repeat(middle))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(ascii: bool, flipped: bool) -> RenderOptions {
        RenderOptions {
            flipped,
            color: false,
            ascii,
        }
    }

    /// Black mated by the rook that just moved to i9.
    fn rook_mate() -> (Position, Move) {
        let mut pos = Position::from_fen("5k3/R8/9/9/9/9/9/9/9/3K4R w").unwrap();
        let m = Move::parse_coords("i0i9").unwrap();
        pos.do_move(m);
        (pos, m)
    }

    #[test]
    fn start_position_in_chinese() {
        let board = render_board(&Position::startpos(), None, plain(false, false));
        let expected = "
   a   b   c   d   e   f   g   h   i
9  车──马──象──士──将──士──象──马──车  9
   │   │   │   │ ╲ │ ╱ │   │   │   │
8  ├───┼───┼───┼───┼───┼───┼───┼───┤   8
   │   │   │   │ ╱ │ ╲ │   │   │   │
7  ├───炮──┼───┼───┼───┼───┼───炮──┤   7
   │   │   │   │   │   │   │   │   │
6  卒──┼───卒──┼───卒──┼───卒──┼───卒  6
   │   │   │   │   │   │   │   │   │
5  ├───┴───┴───┴───┴───┴───┴───┴───┤   5
   │    楚 河             汉 界    │
4  ├───┬───┬───┬───┬───┬───┬───┬───┤   4
   │   │   │   │   │   │   │   │   │
3  兵──┼───兵──┼───兵──┼───兵──┼───兵  3
   │   │   │   │   │   │   │   │   │
2  ├───炮──┼───┼───┼───┼───┼───炮──┤   2
   │   │   │   │ ╲ │ ╱ │   │   │   │
1  ├───┼───┼───┼───┼───┼───┼───┼───┤   1
   │   │   │   │ ╱ │ ╲ │   │   │   │
0  车──马──相──仕──帅──仕──相──马──车  0
   a   b   c   d   e   f   g   h   i
";
        assert_eq!(board, &expected[1..]);
    }

    #[test]
    fn last_move_and_check_are_marked_in_ascii() {
        let (pos, m) = rook_mate();
        let board = render_board(&pos, Some(m), plain(true, false));
        let expected = r"
   a   b   c   d   e   f   g   h   i
9  +---+---+---+---+--[k]--+---+--(R) 9
   |   |   |   | \ | / |   |   |   |
8  R---+---+---+---+---+---+---+---+  8
   |   |   |   | / | \ |   |   |   |
7  +---+---+---+---+---+---+---+---+  7
   |   |   |   |   |   |   |   |   |
6  +---+---+---+---+---+---+---+---+  6
   |   |   |   |   |   |   |   |   |
5  +---+---+---+---+---+---+---+---+  5
   |    Chu He          Han Jie    |
4  +---+---+---+---+---+---+---+---+  4
   |   |   |   |   |   |   |   |   |
3  +---+---+---+---+---+---+---+---+  3
   |   |   |   |   |   |   |   |   |
2  +---+---+---+---+---+---+---+---+  2
   |   |   |   | \ | / |   |   |   |
1  +---+---+---+---+---+---+---+---+  1
   |   |   |   | / | \ |   |   |   |
0  +---+---+---K---+---+---+---+---*  0
   a   b   c   d   e   f   g   h   i
";
        assert_eq!(board, &expected[1..]);
    }

    #[test]
    fn flipped_board_puts_black_at_the_bottom() {
        let mut pos = Position::startpos();
        let m = Move::parse_coords("b0c2").unwrap();
        pos.do_move(m);
        let board = render_board(&pos, Some(m), plain(true, true));
        let expected = r"
   i   h   g   f   e   d   c   b   a
0  R---N---B---A---K---A---B---*---R  0
   |   |   |   | \ | / |   |   |   |
1  +---+---+---+---+---+---+---+---+  1
   |   |   |   | / | \ |   |   |   |
2  +---C---+---+---+---+--(N)--C---+  2
   |   |   |   |   |   |   |   |   |
3  P---+---P---+---P---+---P---+---P  3
   |   |   |   |   |   |   |   |   |
4  +---+---+---+---+---+---+---+---+  4
   |    Chu He          Han Jie    |
5  +---+---+---+---+---+---+---+---+  5
   |   |   |   |   |   |   |   |   |
6  p---+---p---+---p---+---p---+---p  6
   |   |   |   |   |   |   |   |   |
7  +---c---+---+---+---+---+---c---+  7
   |   |   |   | \ | / |   |   |   |
8  +---+---+---+---+---+---+---+---+  8
   |   |   |   | / | \ |   |   |   |
9  r---n---b---a---k---a---b---n---r  9
   i   h   g   f   e   d   c   b   a
";
        assert_eq!(board, &expected[1..]);
    }

    #[test]
    fn colours_paint_pieces_and_highlights() {
        let (pos, m) = rook_mate();
        let opts = RenderOptions {
            color: true,
            ..RenderOptions::default()
        };
        let board = render_board(&pos, Some(m), opts);
        assert!(board.contains(&format!("[{CHECKED}将{RESET}]")));
        assert!(board.contains(&format!("({RED_MOVED}车{RESET})")));
        assert!(board.contains(&format!("{RED_PIECE}车{RESET}")));
        assert!(board.contains(&format!("{ORIGIN}*{RESET}")));
        let uncoloured = render_board(&pos, Some(m), RenderOptions::default());
        assert!(!uncoloured.contains('\x1b'));
        assert_eq!(strip_ansi(&board), uncoloured);
    }

    fn strip_ansi(s: &str) -> String {
        let mut out = String::new();
        let mut chars = s.chars();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                chars.by_ref().find(|&c| c == 'm');
            } else {
                out.push(c);
            }
        }
        out
    }
}
