//! The board as the `d` command prints it: letters, or Chinese characters on request.

use crate::board::Position;

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

fn chinese_piece(c: char) -> char {
    match c {
        'K' => '帥',
        'A' => '仕',
        'B' => '相',
        'N' => '傌',
        'R' => '俥',
        'C' => '炮',
        'P' => '兵',
        'k' => '將',
        'a' => '士',
        'b' => '象',
        'n' => '馬',
        'r' => '車',
        'c' => '砲',
        'p' => '卒',
        '.' => '．',
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_board_keeps_fen_and_key() {
        let p = Position::startpos();
        let text = board_text(&p, true);
        assert!(text.lines().next().unwrap().contains('車'));
        assert!(text.contains("帥"));
        assert!(text.contains(&p.to_fen()));
        assert_eq!(text.lines().count(), p.pretty().lines().count());
    }
}
