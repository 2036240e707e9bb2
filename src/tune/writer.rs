//! Writes tuned weights back into the weights file: the material lines and the term table are
//! replaced, everything else (piece-square tables, comments) is kept as it is.

use std::fmt::Write;

use super::features::{MATERIAL_KINDS, PARAMS, material_param, term_param};
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
}
