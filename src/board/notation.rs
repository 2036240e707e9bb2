//! Move notation the way xiangqi players write it: ICCS coordinates (`h2e2`, `H2-E2`), Chinese
//! (`炮二平五`, `马8进7`, `前车进一`) and WXF (`C2.5`, `H8+7`, `R+.3`). Formats legal moves and
//! parses any of the three back into a legal move of the position.
//!
//! Conventions (Chinese national rules, xqbase, WXF official notation):
//! - Files count from the mover's right: Red 一..九, Black 1..9. 进/退/平 = `+`/`-`/`.`.
//!   Straight movers (king, rook, cannon, pawn) give the steps when moving on the file, the target
//!   file otherwise; advisors, elephants and horses always give the target file.
//! - Two rooks, horses or cannons on one file: 前/后 (`+`/`-`) replace the file. Advisors and
//!   elephants keep their file, since the direction alone tells the two apart.
//! - Pawns: 2 on a file 前/后, 3 前/中/后, 4–5 一..五 from the front. Several on two files:
//!   numbered 一..五 right file first, front to back. WXF: `P+ P-`; with 3 the middle one keeps
//!   its file (`P3.4`); with 4–5 `++ P+ (P3) P- --`; on two files the file replaces the letter
//!   (`3+.4`, `33.4`, `3-.4`).

use std::fmt;

use super::{Color, Move, PieceType, Position, Square, Squares};

/// One of the three ways to write a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    Iccs,
    Chinese,
    Wxf,
}

/// Why text could not be read as one legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// Not a move in any of the three notations.
    Unreadable(String),
    /// A move, but not a legal one here; the legal moves closest to what was meant.
    Illegal {
        input: String,
        alternatives: Vec<String>,
    },
    /// Fits several legal moves; how to write each of them.
    Ambiguous {
        input: String,
        candidates: Vec<String>,
    },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Unreadable(s) => write!(
                f,
                "cannot read '{s}' as a move; write it like h2e2, 炮二平五 or C2.5"
            ),
            NotationError::Illegal {
                input,
                alternatives,
            } if alternatives.is_empty() => {
                write!(f, "'{input}' is not legal here, and there is no legal move")
            }
            NotationError::Illegal {
                input,
                alternatives,
            } => write!(
                f,
                "'{input}' is not legal here; legal: {}",
                alternatives.join(" ")
            ),
            NotationError::Ambiguous { input, candidates } => write!(
                f,
                "'{input}' is ambiguous; did you mean {}?",
                candidates.join(" or ")
            ),
        }
    }
}

impl std::error::Error for NotationError {}

/// Writes a legal move of `pos` in the given notation.
pub fn format_move(pos: &Position, m: Move, notation: Notation) -> String {
    match notation {
        Notation::Iccs => m.to_string(),
        Notation::Chinese => Shape::of(pos, m).chinese_forms().swap_remove(0),
        Notation::Wxf => Shape::of(pos, m).wxf_forms().swap_remove(0),
    }
}

/// Writes a line of moves played one after another from `pos` (a principal variation); stops
/// at the first move that is not legal where it stands.
pub fn format_line(pos: &Position, moves: &[Move], notation: Notation) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        if !p.is_legal(m) {
            break;
        }
        out.push(format_move(&p, m, notation));
        p.do_move(m);
    }
    out
}

/// Which notation the text is written in: anything non-ASCII is Chinese, coordinates are ICCS,
/// the rest is taken as WXF.
pub fn detect(text: &str) -> Notation {
    if !text.is_ascii() {
        Notation::Chinese
    } else if Move::parse_coords(text).is_some() {
        Notation::Iccs
    } else {
        Notation::Wxf
    }
}

/// Reads a legal move of `pos` written in any of the three notations.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let text = text.trim();
    match detect(text) {
        Notation::Iccs => parse_iccs(pos, text),
        notation => parse_relative(pos, text, notation),
    }
}

fn parse_iccs(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let m = Move::parse_coords(text).ok_or_else(|| NotationError::Unreadable(text.into()))?;
    if pos.is_legal(m) {
        return Ok(m);
    }
    let shown = closest(&pos.legal_moves(), &[&|l: &Move| l.from() == m.from()]);
    Err(NotationError::Illegal {
        input: text.into(),
        alternatives: shown.iter().map(Move::to_string).collect(),
    })
}

/// The legal moves the first filter that keeps any keeps, else all of them.
fn closest(legal: &[Move], filters: &[&dyn Fn(&Move) -> bool]) -> Vec<Move> {
    filters
        .iter()
        .map(|keep| {
            legal
                .iter()
                .copied()
                .filter(|m| keep(m))
                .collect::<Vec<_>>()
        })
        .find(|v| !v.is_empty())
        .unwrap_or_else(|| legal.to_vec())
}

/// A legal move's standard form and whether the input names it by that form (`exact`) or by
/// any accepted one (`loose`).
struct Spelled {
    m: Move,
    standard: String,
    exact: bool,
    loose: bool,
}

/// Chinese or WXF: every legal move lists how it may be written (its standard form first, then
/// the forms players also use); the input must name exactly one move. Standard forms win over
/// lenient ones, so `P3.4` is the middle of three pawns and not "any pawn on file 3".
fn parse_relative(pos: &Position, text: &str, notation: Notation) -> Result<Move, NotationError> {
    let normalize = match notation {
        Notation::Chinese => normalize_chinese,
        _ => normalize_wxf,
    };
    let key = normalize(text).ok_or_else(|| NotationError::Unreadable(text.into()))?;
    let legal = pos.legal_moves();
    let spelled: Vec<Spelled> = legal
        .iter()
        .map(|&m| {
            let shape = Shape::of(pos, m);
            let forms = match notation {
                Notation::Chinese => shape.chinese_forms(),
                _ => shape.wxf_forms(),
            };
            let matches: Vec<bool> = forms
                .iter()
                .map(|f| normalize(f).as_ref() == Some(&key))
                .collect();
            Spelled {
                m,
                standard: forms[0].clone(),
                exact: matches[0],
                loose: matches.contains(&true),
            }
        })
        .collect();
    let mut hits: Vec<&Spelled> = spelled.iter().filter(|s| s.exact).collect();
    if hits.is_empty() {
        hits = spelled.iter().filter(|s| s.loose).collect();
    }
    let standard = |m: &Move| {
        spelled
            .iter()
            .find(|s| s.m == *m)
            .map_or_else(String::new, |s| s.standard.clone())
    };
    match hits.as_slice() {
        [one] => Ok(one.m),
        [] => {
            // The legal moves of the named piece kind on the named file, else of that kind.
            let kind = key.chars().find(|c| "KAEHRCP".contains(*c));
            let file = key
                .chars()
                .zip(key.chars().skip(1))
                .find(|(c, _)| Some(*c) == kind)
                .and_then(|(_, d)| d.to_digit(10));
            let of_kind = |m: &Move| Some(Shape::of(pos, *m).kind.letter_wxf()) == kind;
            let on_file = |m: &Move| of_kind(m) && Some(u32::from(Shape::of(pos, *m).file)) == file;
            let shown = closest(&legal, &[&on_file, &of_kind]);
            Err(NotationError::Illegal {
                input: text.into(),
                alternatives: shown.iter().map(standard).collect(),
            })
        }
        several => Err(NotationError::Ambiguous {
            input: text.into(),
            candidates: several.iter().map(|s| s.standard.clone()).collect(),
        }),
    }
}

/// Chinese text as a key comparable across spellings: pieces as WXF letters, every digit form
/// as an ASCII digit, 前/中/后 as `f`/`m`/`r`, 进/退/平 as `+`/`-`/`.`.
fn normalize_chinese(text: &str) -> Option<String> {
    let mut out = String::new();
    for c in text.chars().filter(|c| !c.is_whitespace()) {
        let n = match c {
            '帅' | '帥' | '将' | '將' => 'K',
            '仕' | '士' => 'A',
            '相' | '象' => 'E',
            '马' | '馬' | '傌' => 'H',
            '车' | '車' | '俥' => 'R',
            '炮' | '砲' | '包' => 'C',
            '兵' | '卒' => 'P',
            '前' => 'f',
            '中' => 'm',
            '后' | '後' => 'r',
            '进' | '進' => '+',
            '退' => '-',
            '平' => '.',
            '1'..='9' => c,
            '１'..='９' => char::from(b'1' + (c as u32 - '１' as u32) as u8),
            _ => char::from(b'1' + CHINESE_DIGITS.iter().position(|&d| d == c)? as u8),
        };
        out.push(n);
    }
    (out.chars().count() == 4).then_some(out)
}

/// WXF text as a key: upper case, `=` as `.`, a front/rear sign written before the letter
/// (`+R.3`) moved after it, the traverse dot restored where it was left out (`C25`), and
/// `N`/`B`/`G` read as horse, elephant and king.
fn normalize_wxf(text: &str) -> Option<String> {
    let mut b: Vec<u8> = text
        .bytes()
        .filter(|c| !c.is_ascii_whitespace())
        .map(|c| match c.to_ascii_uppercase() {
            b'=' => b'.',
            b'N' => b'H',
            b'B' => b'E',
            b'G' => b'K',
            u => u,
        })
        .collect();
    if b.len() == 3 && b.iter().skip(1).all(u8::is_ascii_digit) {
        b.insert(2, b'.');
    }
    if b.len() == 4 && matches!(b[0], b'+' | b'-') && b[1].is_ascii_alphabetic() {
        b.swap(0, 1);
    }
    let valid = b.len() == 4
        && (b"KAEHRCP".contains(&b[0]) || b"+-".contains(&b[0]) || b[0].is_ascii_digit())
        && (b"+-".contains(&b[1]) || (b'1'..=b'9').contains(&b[1]))
        && b"+-.".contains(&b[2])
        && (b'1'..=b'9').contains(&b[3]);
    valid.then(|| String::from_utf8(b).expect("ASCII"))
}

const CHINESE_DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

impl PieceType {
    /// Letter of the WXF notation (which differs from FEN for elephant and horse).
    pub const fn letter_wxf(self) -> char {
        match self {
            PieceType::Elephant => 'E',
            PieceType::Horse => 'H',
            k => k.letter(),
        }
    }

    /// Chinese name as each side's pieces are written.
    pub const fn chinese(self, c: Color) -> char {
        match (self, c) {
            (PieceType::King, Color::Red) => '帅',
            (PieceType::King, Color::Black) => '将',
            (PieceType::Advisor, Color::Red) => '仕',
            (PieceType::Advisor, Color::Black) => '士',
            (PieceType::Elephant, Color::Red) => '相',
            (PieceType::Elephant, Color::Black) => '象',
            (PieceType::Horse, _) => '马',
            (PieceType::Rook, _) => '车',
            (PieceType::Cannon, _) => '炮',
            (PieceType::Pawn, Color::Red) => '兵',
            (PieceType::Pawn, Color::Black) => '卒',
        }
    }
}

/// A file or step count as `c` writes it: Red in Chinese numerals, Black in Arabic digits.
fn number(n: u8, c: Color) -> char {
    match c {
        Color::Red => CHINESE_DIGITS[n as usize - 1],
        Color::Black => char::from(b'0' + n),
    }
}

/// File number from `c`'s right, 1..9.
fn file_number(s: Square, c: Color) -> u8 {
    match c {
        Color::Red => 9 - s.file(),
        Color::Black => s.file() + 1,
    }
}

/// How far forward for `c` (larger is closer to the enemy).
fn advance(s: Square, c: Color) -> u8 {
    match c {
        Color::Red => s.rank(),
        Color::Black => 9 - s.rank(),
    }
}

/// Everything the relative notations say about a move.
struct Shape {
    kind: PieceType,
    color: Color,
    /// File of the origin from the mover's right.
    file: u8,
    /// `+`, `-` or `.`.
    action: char,
    /// Steps, or the target file.
    number: u8,
    /// Index from the front among same-kind pieces on the origin file, and their count.
    index: usize,
    count: usize,
    /// For a pawn of a multi-pawn file: the files holding two or more pawns (right first) and
    /// its index, front first, across all of them.
    pawn_files: usize,
    group_index: usize,
}

impl Shape {
    fn of(pos: &Position, m: Move) -> Shape {
        let (from, to) = (m.from(), m.to());
        let piece = pos.piece_at(from);
        let (kind, color) = (piece.kind(), piece.color());
        let on_file = |f: u8| {
            let mut v: Vec<Square> = Squares(pos.pieces(color, kind))
                .filter(|s| s.file() == f)
                .collect();
            v.sort_by_key(|&s| std::cmp::Reverse(advance(s, color)));
            v
        };
        let same = on_file(from.file());
        let index = same
            .iter()
            .position(|&s| s == from)
            .expect("piece on its file");
        let (mut pawn_files, mut group_index) = (0, 0);
        if kind == PieceType::Pawn {
            let mut files: Vec<u8> = (0..9).filter(|&f| on_file(f).len() >= 2).collect();
            files.sort_by_key(|&f| file_number(Square::new(f, 0), color));
            let group: Vec<Square> = files.iter().flat_map(|&f| on_file(f)).collect();
            pawn_files = files.len();
            group_index = group.iter().position(|&s| s == from).unwrap_or(0);
        }
        let forward = i16::from(advance(to, color)) - i16::from(advance(from, color));
        let action = match forward {
            1.. => '+',
            0 => '.',
            _ => '-',
        };
        let diagonal = matches!(
            kind,
            PieceType::Advisor | PieceType::Elephant | PieceType::Horse
        );
        let number = if diagonal || forward == 0 {
            file_number(to, color)
        } else {
            forward.unsigned_abs() as u8
        };
        Shape {
            kind,
            color,
            file: file_number(from, color),
            action,
            number,
            index,
            count: same.len(),
            pawn_files,
            group_index,
        }
    }

    /// Whether 前/后 (`+`/`-`) are the standard way to tell this piece from its file-mate.
    fn tandem_named(&self) -> bool {
        self.count >= 2 && !matches!(self.kind, PieceType::Advisor | PieceType::Elephant)
    }

    fn is_front(&self) -> bool {
        self.index == 0
    }

    fn is_rear(&self) -> bool {
        self.index + 1 == self.count
    }

    /// Chinese spellings: the standard one first, then accepted variants.
    fn chinese_forms(&self) -> Vec<String> {
        let name = self.kind.chinese(self.color);
        let file = number(self.file, self.color);
        let tail = format!(
            "{}{}",
            match self.action {
                '+' => '进',
                '-' => '退',
                _ => '平',
            },
            number(self.number, self.color)
        );
        let position = |i: usize, n: usize| match (i, n) {
            (0, _) => '前',
            (i, n) if i + 1 == n => '后',
            _ => '中',
        };
        let plain = format!("{name}{file}{tail}");
        let standard = if !self.tandem_named() {
            plain.clone()
        } else if self.kind != PieceType::Pawn || (self.pawn_files == 1 && self.count <= 3) {
            format!("{}{name}{tail}", position(self.index, self.count))
        } else {
            format!("{}{name}{tail}", CHINESE_DIGITS[self.group_index])
        };
        let mut forms = vec![standard, plain];
        if self.count >= 2 && (self.is_front() || self.is_rear() || self.count == 3) {
            let p = position(self.index, self.count);
            forms.push(format!("{p}{name}{tail}"));
            if self.kind == PieceType::Pawn {
                forms.push(format!("{p}{file}{tail}"));
            }
        }
        forms
    }

    /// WXF spellings: the standard one first, then accepted variants.
    fn wxf_forms(&self) -> Vec<String> {
        let letter = self.kind.letter_wxf();
        let tail = format!("{}{}", self.action, self.number);
        let plain = format!("{letter}{}{tail}", self.file);
        let sign = |front: bool| if front { '+' } else { '-' };
        let standard = if !self.tandem_named() {
            plain.clone()
        } else if self.pawn_files == 2 {
            let mid = if self.is_front() || self.is_rear() {
                sign(self.is_front())
            } else {
                char::from(b'0' + self.file)
            };
            format!("{}{mid}{tail}", self.file)
        } else if self.kind != PieceType::Pawn || self.count == 2 {
            format!("{letter}{}{tail}", sign(self.is_front()))
        } else {
            // One file with 3–5 pawns: the middle one by its file, then +/- inwards, ++/-- outside.
            let from_edge = self.index.min(self.count - 1 - self.index);
            let front_half = self.index < self.count / 2;
            let inner = self.count <= 3 || from_edge == 1;
            match (2 * self.index + 1 == self.count, inner) {
                (true, _) => plain.clone(),
                (false, true) => format!("{letter}{}{tail}", sign(front_half)),
                (false, false) => format!("{0}{0}{tail}", sign(front_half)),
            }
        };
        let mut forms = vec![standard, plain];
        if self.count >= 2 && self.count <= 3 && (self.is_front() || self.is_rear()) {
            forms.push(format!("{letter}{}{tail}", sign(self.is_front())));
        }
        forms
    }
}

#[cfg(test)]
mod tests;
