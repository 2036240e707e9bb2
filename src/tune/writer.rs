//! Writes tuned weights back into the weights file: the material lines, the rows of the
//! piece-square tables and the term table are replaced, everything else (comments, layout) is
//! kept as it is.

use std::fmt::Write;

use super::features::{MATERIAL_KINDS, PARAMS, material_param, pst_cell, pst_param, term_param};
use crate::eval::terms::Term;
use crate::eval::weights::{MATERIAL_EG, MATERIAL_MG};

/// The weights file as compiled into this binary.
pub const WEIGHTS_RS: &str = include_str!("../eval/weights.rs");

/// Replaces the line starting with `prefix` by `line`.
fn replace_line(text: &str, prefix: &str, line: &str) -> String {
    text.lines()
        .map(|l| if l.starts_with(prefix) { line } else { l })
        .fold(String::new(), |mut out, l| {
            out.push_str(l);
            out.push('\n');
            out
        })
}

fn material_line(name: &str, values: [i32; 7]) -> String {
    let list: Vec<String> = values.iter().map(i32::to_string).collect();
    format!("pub const {name}: [i32; 7] = [{}];", list.join(", "))
}

/// `text` with the rows of the table `name` (seven kinds of ten rows of nine) rewritten from
/// `w`; `phase` is 0 for the middlegame weights, 1 for the endgame ones.
fn render_pst(text: &str, name: &str, w: &[f64], phase: usize) -> String {
    let head = format!("pub const {name}: [[i32; 90]; 7] = [\n");
    let start = text.find(&head).expect("weights file has the table") + head.len();
    let end = start + text[start..].find("\n];").expect("table ends");
    let is_row = |l: &str| {
        let l = l.trim();
        !l.is_empty()
            && l.split(',')
                .all(|v| v.trim().is_empty() || v.trim().parse::<i32>().is_ok())
    };
    let mut row = 0;
    let mut body = String::new();
    for l in text[start..end].lines() {
        if is_row(l) {
            let (kind, rank) = (row / 10, row % 10);
            body.push_str("    ");
            for file in 0..9 {
                let v = w[pst_param(kind, pst_cell(rank * 9 + file)) + phase].round() as i32;
                write!(body, "{v:4},").expect("write to string");
            }
            row += 1;
        } else {
            body.push_str(l);
        }
        body.push('\n');
    }
    assert_eq!(row, 70, "{name} has seven tables of ten rows");
    format!(
        "{}{}{}",
        &text[..start],
        body.trim_end_matches('\n'),
        &text[end..]
    )
}

/// `WEIGHTS_RS` with the weights `w` (in parameter order, rounded to whole centipawns).
pub fn render(w: &[f64]) -> String {
    assert_eq!(w.len(), PARAMS);
    let (mut mg, mut eg) = (MATERIAL_MG, MATERIAL_EG);
    for (i, k) in MATERIAL_KINDS.iter().enumerate() {
        mg[k.index()] = w[material_param(i)].round() as i32;
        eg[k.index()] = w[material_param(i) + 1].round() as i32;
    }
    let text = replace_line(
        WEIGHTS_RS,
        "pub const MATERIAL_MG",
        &material_line("MATERIAL_MG", mg),
    );
    let text = replace_line(
        &text,
        "pub const MATERIAL_EG",
        &material_line("MATERIAL_EG", eg),
    );
    let text = render_pst(&text, "PST_MG", w, 0);
    let text = render_pst(&text, "PST_EG", w, 1);
    let head = "pub const TERMS: [(i32, i32); Term::COUNT] = [\n";
    let start = text.find(head).expect("weights file has the term table") + head.len();
    let end = start + text[start..].find("];").expect("term table ends");
    let mut table = String::new();
    for (t, term) in Term::ALL.iter().enumerate() {
        let (a, b) = (
            w[term_param(t)].round() as i32,
            w[term_param(t) + 1].round() as i32,
        );
        writeln!(table, "    ({a}, {b}), // {}", term.name()).expect("write to string");
    }
    format!("{}{table}{}", &text[..start], &text[end..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::PieceType;
    use crate::tune::features::current_weights;

    #[test]
    fn current_weights_reproduce_the_file() {
        assert_eq!(render(&current_weights()), WEIGHTS_RS);
    }

    #[test]
    fn new_weights_land_in_their_lines() {
        let mut w = current_weights();
        w[term_param(Term::RookPin as usize)] = 77.0;
        let rook = MATERIAL_KINDS
            .iter()
            .position(|&k| k == PieceType::Rook)
            .unwrap();
        w[material_param(rook) + 1] = 999.0;
        let text = render(&w);
        assert!(text.contains("(77, "), "{text}");
        assert!(text.contains("// RookPin"));
        let mut eg = MATERIAL_EG;
        eg[PieceType::Rook.index()] = 999;
        assert!(text.contains(&material_line("MATERIAL_EG", eg)), "{text}");
    }

    #[test]
    fn piece_square_weights_land_on_both_mirrored_points() {
        use crate::eval::weights::PST_EG;
        let mut w = current_weights();
        // Horse, endgame table, second row, file b (and so file h).
        let horse = PieceType::Horse.index();
        w[pst_param(horse, pst_cell(9 + 1)) + 1] = 555.0;
        let text = render(&w);
        let eg_table = &text[text.find("pub const PST_EG").unwrap()..];
        let horse_rows = &eg_table[eg_table.find("// Horse").unwrap()..];
        let row = horse_rows.lines().nth(3).unwrap();
        let values: Vec<i32> = row
            .split(',')
            .filter_map(|v| v.trim().parse().ok())
            .collect();
        let mut expected = PST_EG[horse][9..18].to_vec();
        expected[1] = 555;
        expected[7] = 555;
        assert_eq!(values, expected);
        // Nowhere else: not in the middlegame table, not on another point.
        assert_eq!(text.matches("555").count(), 2, "{row}");
    }
}
