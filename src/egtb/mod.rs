//! Endgame tables: chuhan's own xiangqi databases, built by retrograde analysis
//! (`chuhan egtb build`), one file per material, probed by position (`chuhan egtb probe`).
//!
//! Each position of a table, with either side to move, holds win, draw or loss and the
//! distance to mate in plies (DTM) under best play: the soonest mate for the winner, the
//! latest for the loser. Mate and stalemate both lose. A capture leaves the table for a
//! smaller one, built first. Cycles count as draws: the Asian rules on perpetual check and
//! chase are not modelled, so a table draw may be a loss for a side that can only hold by
//! repeating checks or chases, and a game's verdict is always the referee's.
//!
//! Why distance to mate and not to conversion (a capture): it is what players ask ("mate in
//! 23") and what the search's mate scores are, and a capture's table is in hand anyway. The
//! 60-move rule (120 plies without a capture) is not in the tables: a DTM win with a long
//! capture-free stretch may be a draw under it, so a user of a verdict who plays under the
//! rule must leave room for it (the plies to mate against the plies the rule has left).

pub mod build;
pub mod file;
pub mod index;
pub mod material;
pub mod retro;
pub mod tablebase;
pub mod verdict;

pub use material::Material;
pub use tablebase::Tablebase;
pub use verdict::Verdict;

/// The tables `materials` need, each after every table its captures lead to; materials with
/// no attacking piece (draws by the rules' own verdict) have none.
pub fn plan(materials: &[Material]) -> Vec<Material> {
    fn visit(m: Material, order: &mut Vec<Material>) {
        if m.is_dead_draw() || order.contains(&m) {
            return;
        }
        for c in m.captures() {
            visit(c, order);
        }
        order.push(m);
    }
    let mut order = Vec::new();
    for &m in materials {
        visit(m, &mut order);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_builds_what_captures_lead_to_first() {
        let m = |s| Material::parse(s).unwrap();
        let order: Vec<String> = plan(&[m("KRKA")]).iter().map(|m| m.to_string()).collect();
        assert_eq!(order, ["KRK", "KRKA"]);
        let order = plan(&[m("KHKP"), m("KHK")]);
        let at = |s| order.iter().position(|&x| x == m(s)).unwrap();
        assert!(at("KHK") < at("KHKP") && at("KPK") < at("KHKP"));
        assert_eq!(order.len(), 3);
    }
}
