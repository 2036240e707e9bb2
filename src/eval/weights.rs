//! The evaluation's numbers, kept apart from its logic so that tuning rewrites only this file.
//! Centipawns, where 100 is about a pawn that has crossed the river. `chuhan tune fit` rewrites
//! this file; keep its layout.

use super::terms::Term;

/// Material by piece kind (king, advisor, elephant, horse, rook, cannon, pawn): middlegame.
pub const MATERIAL_MG: [i32; 7] = [0, 90, 90, 380, 850, 420, 30];
/// Material by piece kind: endgame (horses gain on an emptier board, cannons lose their screens).
pub const MATERIAL_EG: [i32; 7] = [0, 80, 80, 420, 900, 380, 45];

/// Bonus for the side to move.
pub const TEMPO: i32 = 10;

/// Phase weight of each kind (rook 4, horse and cannon 2); the full board sums to `PHASE_MAX`.
pub const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 2, 4, 2, 0];
pub const PHASE_MAX: i32 = 32;

/// Piece-square tables from Red's view, written as the board looks to Red: the first row is
/// rank 9 (Black's back rank), the last row rank 0 (Red's back rank). Black uses them mirrored.
/// Middlegame tables by kind.
#[rustfmt::skip]
pub const PST_MG: [[i32; 90]; 7] = [
    // King: stay home in the middlegame.
    [
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0, -24, -20, -24,   0,   0,   0,
       0,   0,   0, -10,  -8, -10,   0,   0,   0,
       0,   0,   0,   0,   6,   0,   0,   0,   0,
    ],
    // Advisor.
    [
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,  -2,   0,  -2,   0,   0,   0,
       0,   0,   0,   0,  10,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
    ],
    // Elephant.
    [
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,  -2,   0,   0,   0,  -2,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
      -4,   0,   0,   0,  10,   0,   0,   0,  -4,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
    ],
    // Horse: wants to advance to the centre and the enemy palace; poor on the edges.
    [
       0,  -8,   0,   0,  -8,   0,   0,  -8,   0,
       0,  10,  30,  20,  10,  20,  30,  10,   0,
      10,  20,  30,  40,  30,  40,  30,  20,  10,
      10,  30,  40,  50,  40,  50,  40,  30,  10,
       8,  24,  30,  40,  36,  40,  30,  24,   8,
       4,  16,  24,  28,  30,  28,  24,  16,   4,
       4,  10,  16,  16,  20,  16,  16,  10,   4,
       0,   6,  10,  12,   0,  12,  10,   6,   0,
     -10,   0,   4,   0, -20,   0,   4,   0, -10,
     -10, -10,   0, -10, -10, -10,   0, -10, -10,
    ],
    // Rook: open files, the enemy's rib files and its second rank.
    [
      -6,   5,  -2,  12,  12,  12,  -2,   5,  -6,
      10,  20,  14,  30,  40,  30,  14,  20,  10,
      -4,  10,   8,  24,  30,  24,   8,  10,  -4,
       6,  14,  10,  20,  24,  20,  10,  14,   6,
      10,  16,  14,  20,  24,  20,  14,  16,  10,
       8,  14,  12,  16,  20,  16,  12,  14,   8,
      -2,  10,   4,  12,  16,  12,   4,  10,  -2,
     -10,   6,   2,  10,   8,  10,   2,   6, -10,
     -20,   6,  -4,  10,   0,  10,  -4,   6, -20,
     -24,   8,   0,  10,   0,  10,   0,   8, -24,
    ],
    // Cannon: the central file, and the enemy's back rank from the corners.
    [
      20,  20,   0, -10, -20, -10,   0,  20,  20,
       8,   8,   0, -10, -14, -10,   0,   8,   8,
       4,   4,   0, -10,  -4, -10,   0,   4,   4,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,  10,   0,   0,   0,   0,
      -2,   0,   8,   0,  16,   0,   8,   0,  -2,
       0,   0,   0,   0,  10,   0,   0,   0,   0,
       4,   0,  16,  14,  20,  14,  16,   0,   4,
       0,   4,   6,   6,   6,   6,   6,   4,   0,
       0,   0,   4,  12,  12,  12,   4,   0,   0,
    ],
    // Pawn: worth little at home, much more across the river and near the enemy palace.
    [
      10,  10,  10,  20,  30,  20,  10,  10,  10,
      50,  70, 100, 130, 140, 130, 100,  70,  50,
      50,  70,  90, 110, 110, 110,  90,  70,  50,
      50,  60,  80,  90,  90,  90,  80,  60,  50,
      30,  50,  60,  80,  90,  80,  60,  50,  30,
       0,   0,  15,   0,  25,   0,  15,   0,   0,
      -5,   0,   0,   0,  10,   0,   0,   0,  -5,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
    ],
];

/// Endgame piece-square tables by kind.
#[rustfmt::skip]
pub const PST_EG: [[i32; 90]; 7] = [
    // King: may step up to support its pieces.
    [
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,  -8,  -6,  -8,   0,   0,   0,
       0,   0,   0,  -2,   2,  -2,   0,   0,   0,
       0,   0,   0,   0,   4,   0,   0,   0,   0,
    ],
    // Advisor.
    [
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,  -2,   0,  -2,   0,   0,   0,
       0,   0,   0,   0,  10,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
    ],
    // Elephant.
    [
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,  -2,   0,   0,   0,  -2,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
      -4,   0,   0,   0,  10,   0,   0,   0,  -4,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
    ],
    // Horse.
    [
       0,  -8,   0,   0,  -8,   0,   0,  -8,   0,
       0,  10,  30,  20,  10,  20,  30,  10,   0,
      10,  20,  30,  40,  30,  40,  30,  20,  10,
      10,  30,  40,  50,  40,  50,  40,  30,  10,
       8,  24,  30,  40,  36,  40,  30,  24,   8,
       4,  16,  24,  28,  30,  28,  24,  16,   4,
       4,  10,  16,  16,  20,  16,  16,  10,   4,
       0,   6,  10,  12,   0,  12,  10,   6,   0,
     -10,   0,   4,   0, -20,   0,   4,   0, -10,
     -10, -10,   0, -10, -10, -10,   0, -10, -10,
    ],
    // Rook.
    [
      -6,   5,  -2,  12,  12,  12,  -2,   5,  -6,
      10,  20,  14,  30,  40,  30,  14,  20,  10,
      -4,  10,   8,  24,  30,  24,   8,  10,  -4,
       6,  14,  10,  20,  24,  20,  10,  14,   6,
      10,  16,  14,  20,  24,  20,  14,  16,  10,
       8,  14,  12,  16,  20,  16,  12,  14,   8,
      -2,  10,   4,  12,  16,  12,   4,  10,  -2,
     -10,   6,   2,  10,   8,  10,   2,   6, -10,
     -20,   6,  -4,  10,   0,  10,  -4,   6, -20,
     -24,   8,   0,  10,   0,  10,   0,   8, -24,
    ],
    // Cannon.
    [
      20,  20,   0, -10, -20, -10,   0,  20,  20,
       8,   8,   0, -10, -14, -10,   0,   8,   8,
       4,   4,   0, -10,  -4, -10,   0,   4,   4,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,  10,   0,   0,   0,   0,
      -2,   0,   8,   0,  16,   0,   8,   0,  -2,
       0,   0,   0,   0,  10,   0,   0,   0,   0,
       4,   0,  16,  14,  20,  14,  16,   0,   4,
       0,   4,   6,   6,   6,   6,   6,   4,   0,
       0,   0,   4,  12,  12,  12,   4,   0,   0,
    ],
    // Pawn: its value grows as the board empties.
    [
      12,  12,  12,  25,  37,  25,  12,  12,  12,
      62,  87, 125, 162, 175, 162, 125,  87,  62,
      62,  87, 112, 137, 137, 137, 112,  87,  62,
      62,  75, 100, 112, 112, 112, 100,  75,  62,
      37,  62,  75, 100, 112, 100,  75,  62,  37,
       0,   0,  18,   0,  31,   0,  18,   0,   0,
      -6,   0,   0,   0,  12,   0,   0,   0,  -6,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
       0,   0,   0,   0,   0,   0,   0,   0,   0,
    ],
];

/// Piece values for static exchange evaluation (king, advisor, elephant, horse, rook, cannon,
/// pawn): a king "captured" ends the exchange.
pub const SEE_VALUE: [i32; 7] = [10_000, 100, 100, 400, 900, 450, 100];

/// Weights of the positional terms as (middlegame, endgame), in `Term` order.
#[rustfmt::skip]
pub const TERMS: [(i32, i32); Term::COUNT] = [
    (4, 5), // RookMobility
    (8, 10), // HorseMobility
    (-6, -4), // HorseLegBlocked
    (2, 1), // CannonMobility
    (8, 4), // CannonTarget
    (-40, -20), // HorsePalaceCentre
    (15, 10), // RookOpenFile
    (8, 5), // RookHalfOpenFile
    (20, 10), // RookPin
    (15, 25), // ConnectedPawns
    (-20, -30), // PawnTooDeep
    (-15, -5), // KingZoneRook
    (-20, -10), // KingZoneHorse
    (-10, -5), // KingZoneCannon
    (-10, -15), // KingZonePawn
    (-15, -20), // AdvisorMissingVsRook
    (-10, -15), // AdvisorMissingVsHorse
    (-15, -10), // ElephantMissingVsCannon
    (-5, -10), // ElephantMissingVsRook
    (-60, -30), // EmptyCannonFile
    (-20, -10), // CannonOnKingFile
    (-20, -15), // KingOpenFileVsRook
];
