//! Texel-style tuning of the evaluation weights from chuhan's own games.
//!
//! 1. `datagen` plays fast self-play games and writes their quiet positions with the game
//!    result (`chuhan tune gen`).
//! 2. `features` turns each position into the evaluation's feature vector: the evaluation is
//!    linear in the material, piece-square and positional-term weights, given the phase and the
//!    endgame scale.
//! 3. `texel` fits the logistic scale K, then minimises the mean squared error between the
//!    results and the sigmoid of the evaluation, plus an L2 pull toward the old weights, by
//!    gradient descent (`chuhan tune fit`).
//! 4. `writer` writes the fitted weights back into `src/eval/weights.rs`.
//!
//! `spsa` tunes the search's parameters (`search::params`) by games instead (`chuhan tune
//! spsa`).

pub mod datagen;
pub mod features;
pub mod spsa;
pub mod texel;
pub mod writer;

use std::io::{self, BufRead};

use crate::board::{PieceType, Position};
use crate::eval::terms::Term;
use features::{
    MATERIAL_KINDS, PARAMS, Sample, current_weights, material_param, sample, term_param,
};

/// Reads `<FEN> ; <result>` lines into samples, skipping lines that do not parse.
pub fn read_samples(input: impl BufRead) -> io::Result<Vec<Sample>> {
    let mut out = Vec::new();
    for line in input.lines() {
        let line = line?;
        let Some((fen, result)) = line.split_once(';') else {
            continue;
        };
        let (Ok(pos), Ok(result)) = (Position::from_fen(fen.trim()), result.trim().parse()) else {
            continue;
        };
        out.push(sample(&pos, result));
    }
    Ok(out)
}

/// What one fitting run found.
#[derive(Clone, Debug)]
pub struct FitReport {
    pub k: f64,
    pub train: usize,
    pub test: usize,
    /// Errors before and after, on the training and the held-out positions.
    pub train_before: f64,
    pub train_after: f64,
    pub test_before: f64,
    pub test_after: f64,
    pub weights: Vec<f64>,
}

/// Which weights the fit may move: the middlegame and endgame weights of the terms in `only`
/// if it names any (to fit a new term against the rest as they stand), else all but the
/// advisor and elephant values, which the missing-defender terms already price (tuning both
/// lets them drift apart without bound).
pub fn free_params(only: &[Term]) -> Vec<bool> {
    if !only.is_empty() {
        let mut free = vec![false; PARAMS];
        for &t in only {
            free[term_param(t as usize)] = true;
            free[term_param(t as usize) + 1] = true;
        }
        return free;
    }
    let mut free = vec![true; PARAMS];
    for (i, k) in MATERIAL_KINDS.iter().enumerate() {
        if matches!(k, PieceType::Advisor | PieceType::Elephant) {
            free[material_param(i)] = false;
            free[material_param(i) + 1] = false;
        }
    }
    free
}

/// Fits the weights to `samples`, holding the last tenth out to check the fit. The data lists
/// each game's positions together, so the held-out positions come from games the fit never saw.
pub fn fit(samples: &[Sample], run: texel::Descent, only: &[Term]) -> FitReport {
    let (train, test) = samples.split_at(samples.len() - samples.len() / 10);
    let w0 = current_weights();
    let k = texel::fit_k(train, &w0);
    let w = texel::descend(train, &w0, &free_params(only), k, run);
    FitReport {
        k,
        train: train.len(),
        test: test.len(),
        train_before: texel::error(train, &w0, k),
        train_after: texel::error(train, &w, k),
        test_before: texel::error(test, &w0, k),
        test_after: texel::error(test, &w, k),
        weights: w,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_named_terms_are_free() {
        let free = free_params(&[Term::RookPin, Term::EmptyCannonFile]);
        let moved: Vec<usize> = (0..PARAMS).filter(|&i| free[i]).collect();
        let (pin, cannon) = (
            term_param(Term::RookPin as usize),
            term_param(Term::EmptyCannonFile as usize),
        );
        assert_eq!(moved, [pin, pin + 1, cannon, cannon + 1]);
        // Without names everything is free but the advisor and elephant values.
        let all = free_params(&[]);
        assert_eq!(all.iter().filter(|&&f| !f).count(), 4);
        assert!(all[pin] && all[cannon + 1]);
    }
}
