//! Random playouts: the incremental Zobrist key equals the recomputed one, make/unmake restores
//! the position exactly, and the fast legality filter agrees with a plain trial move.

use chuhan::board::Position;
use chuhan::movegen::{GenKind, MoveList};
use proptest::prelude::*;

fn start_positions() -> Vec<Position> {
    include_str!("data/perft.epd")
        .lines()
        .map(|l| Position::from_fen(l.split(';').next().unwrap()).unwrap())
        .collect()
}

/// Legal by the definition: after the move, the mover's king is not attacked.
fn legal_by_trial(pos: &Position, m: chuhan::Move) -> bool {
    let mut p = pos.clone();
    let us = p.side_to_move();
    p.do_move(m);
    !p.is_attacked_king(us)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn playouts_keep_every_invariant(start in 0usize..22, choices in prop::collection::vec(any::<u16>(), 1..120)) {
        let mut pos = start_positions()[start].clone();
        let mut played = Vec::new();
        for c in choices {
            let mut pseudo = MoveList::new();
            pos.generate_pseudo(GenKind::All, &mut pseudo);
            let legal = pos.legal_moves();
            let by_trial: Vec<_> = pseudo.iter().copied().filter(|&m| legal_by_trial(&pos, m)).collect();
            prop_assert_eq!(legal.to_vec(), by_trial, "{}", pos.to_fen());
            prop_assert_eq!(pos.in_check(), pos.legality().in_check);
            if legal.is_empty() {
                break;
            }
            let m = legal[c as usize % legal.len()];
            prop_assert_eq!(pos.gives_check(m), {
                let mut p = pos.clone();
                p.do_move(m);
                p.in_check()
            });
            let before = pos.clone();
            let key_after = pos.key_after(m);
            let undo = pos.do_move(m);
            prop_assert_eq!(pos.key(), pos.compute_key());
            prop_assert_eq!(pos.key(), key_after);
            prop_assert_eq!(Position::from_fen(&pos.to_fen()).map(|p| p.key()), Ok(pos.key()));
            let mut back = pos.clone();
            back.undo_move(m, undo);
            prop_assert_eq!(&back, &before);
            played.push((m, undo));
        }
        // Unwinding the whole line restores the start exactly.
        for (m, undo) in played.into_iter().rev() {
            pos.undo_move(m, undo);
        }
        prop_assert_eq!(pos, start_positions()[start].clone());
    }
}

#[test]
fn null_move_round_trips() {
    for mut pos in start_positions() {
        let before = pos.clone();
        let undo = pos.do_null_move();
        assert_eq!(pos.key(), pos.compute_key());
        assert_ne!(pos.side_to_move(), before.side_to_move());
        pos.undo_null_move(undo);
        assert_eq!(pos, before);
    }
}
