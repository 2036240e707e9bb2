//! The board as the `d` command prints it: letters, or Chinese characters on request.

use crate::board::{Color, PieceType, Position};

/// `Position::pretty`, with the pieces of its ten board rows in Chinese characters if asked.
pub fn board_text(pos: &Position, chinese: bool) -> String {
    let text = pos.pretty();
    if !chinese {
        return text;
    }
    let mut out = String::new();
    for (i, line) in text.lines().enumerate() {
        if i < 10 {
            out.extend(line.chars().map(chinese_piece));
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// A letter of `Position::pretty` as the Chinese character the notation writes (the same glyphs
/// as `chuhan play` and move text).
fn chinese_piece(c: char) -> char {
    if c == '.' {
        return '．';
    }
    match PieceType::from_letter(c) {
        Some(kind) if c.is_ascii_alphabetic() => {
            let side = if c.is_ascii_uppercase() {
                Color::Red
            } else {
                Color::Black
            };
            kind.chinese(side)
        }
        _ => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_board_keeps_fen_and_key() {
        let p = Position::startpos();
        let text = board_text(&p, true);
        assert!(text.lines().next().unwrap().contains('车'));
        assert!(text.contains('帅') && text.contains('将') && text.contains('马'));
        assert!(text.contains(&p.to_fen()));
        assert_eq!(text.lines().count(), p.pretty().lines().count());
    }
}
