//! Positional terms beyond material and piece squares: mobility, king safety, pawn structure,
//! rook files and pins. Each term is a count per side; the weights turn counts into a score.
//! The counting is generic over a `Sink`, so the search sums packed scores while the tuner
//! records the same counts as a feature vector, and the two can never disagree.

use crate::board::{Bitboard, Color, PieceType, Position, Square, Squares, bit};
use crate::movegen::tables::{FILE_LINES, HORSE_STEPS, Line, RANK_LINES};

macro_rules! terms {
    ($($(#[doc = $doc:literal])* $name:ident),* $(,)?) => {
        /// One positional term; its weight is `weights::TERMS[term as usize]`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(usize)]
        pub enum Term {
            $($(#[doc = $doc])* $name),*
        }

        impl Term {
            pub const ALL: &[Term] = &[$(Term::$name),*];
            pub const COUNT: usize = Term::ALL.len();

            pub const fn name(self) -> &'static str {
                match self {
                    $(Term::$name => stringify!($name)),*
                }
            }
        }
    };
}

terms! {
    // Mobility: points each piece can move to (captures included).
    RookMobility,
    HorseMobility,
    /// Horse moves blocked by a piece on the leg (蹩马腿).
    HorseLegBlocked,
    CannonMobility,
    /// Enemy pieces a cannon can capture over a screen.
    CannonTarget,
    /// A horse on its own palace centre (窝心马) blocks its king.
    HorsePalaceCentre,
    /// A rook on a file with no pawns of either side.
    RookOpenFile,
    /// A rook on a file without own pawns but with enemy ones.
    RookHalfOpenFile,
    /// A rook holding an enemy piece pinned to its king or rook (牵制).
    RookPin,
    // Pawns.
    /// Crossed pawns side by side, guarding each other.
    ConnectedPawns,
    /// A pawn on the enemy back rank (老兵) can only move sideways.
    PawnTooDeep,
    // King safety, counted for the side whose king is threatened (weights are negative).
    KingZoneRook,
    KingZoneHorse,
    KingZoneCannon,
    KingZonePawn,
    /// Each missing advisor, per enemy rook.
    AdvisorMissingVsRook,
    /// Each missing advisor, per enemy horse.
    AdvisorMissingVsHorse,
    /// Each missing elephant, per enemy cannon.
    ElephantMissingVsCannon,
    /// Each missing elephant, per enemy rook.
    ElephantMissingVsRook,
    /// An enemy cannon on the king's file with nothing in between (空头炮).
    EmptyCannonFile,
    /// An enemy cannon on the king's file behind two screens (当头炮 pressure).
    CannonOnKingFile,
    /// No own piece shields the king's file, per enemy rook.
    KingOpenFileVsRook,
}

/// Receives the term counts, Red's positive and Black's negative.
pub trait Sink {
    fn add(&mut self, term: Term, n: i32);
}

/// Points around each side's palace where enemy pieces count as attackers.
static KING_ZONE: [Bitboard; 2] = [zone(Color::Red), zone(Color::Black)];

const fn zone(c: Color) -> Bitboard {
    let mut z = 0;
    let mut s = 0;
    while s < Square::COUNT {
        let sq = Square::from_index(s);
        let rel = match c {
            Color::Red => sq.rank(),
            Color::Black => 9 - sq.rank(),
        };
        if sq.file() >= 2 && sq.file() <= 6 && rel <= 3 {
            z |= 1 << s;
        }
        s += 1;
    }
    z
}

/// Rank counted from `c`'s own back rank.
#[inline(always)]
fn relative_rank(c: Color, s: Square) -> u8 {
    match c {
        Color::Red => s.rank(),
        Color::Black => 9 - s.rank(),
    }
}

/// The first and second occupied points in one direction.
type Ray = (Option<Square>, Option<Square>);

/// The empty points a slider on `s` sees along its rank and file, and the first and second
/// occupied points in each of the four directions.
#[inline(always)]
fn rays(pos: &Position, s: Square) -> (i32, [Ray; 4]) {
    let (f, r) = (s.file(), s.rank());
    let re = &RANK_LINES[f as usize][pos.rank_bits(r) as usize];
    let fe = &FILE_LINES[r as usize][pos.file_bits(f) as usize];
    let on_rank = |i: u8| (i != Line::NONE).then(|| Square::new(i, r));
    let on_file = |i: u8| (i != Line::NONE).then(|| Square::new(f, i));
    (
        (re.empty.count_ones() + fe.empty.count_ones()) as i32,
        [
            (on_rank(re.lo1), on_rank(re.lo2)),
            (on_rank(re.hi1), on_rank(re.hi2)),
            (on_file(fe.lo1), on_file(fe.lo2)),
            (on_file(fe.hi1), on_file(fe.hi2)),
        ],
    )
}

/// Bit per file holding at least one of `pawns`.
#[inline(always)]
fn pawn_files(pawns: Bitboard) -> u16 {
    let mut files = 0;
    for s in Squares(pawns) {
        files |= 1 << s.file();
    }
    files
}

/// Adds every positional term of `pos` to `sink`.
#[inline]
pub fn positional<S: Sink>(pos: &Position, sink: &mut S) {
    let red = pawn_files(pos.pieces(Color::Red, PieceType::Pawn));
    let black = pawn_files(pos.pieces(Color::Black, PieceType::Pawn));
    side_terms(pos, Color::Red, 1, [red, black], sink);
    side_terms(pos, Color::Black, -1, [black, red], sink);
}

/// The terms of `us`'s pieces and king; `pawn_files` are the files holding own and enemy pawns.
#[inline(always)]
fn side_terms<S: Sink>(pos: &Position, us: Color, sign: i32, pawn_files: [u16; 2], sink: &mut S) {
    let them = us.flip();
    let [own_pawn_files, enemy_pawn_files] = pawn_files;

    let (mut mob, mut open, mut half, mut pins) = (0, 0, 0, 0);
    for s in Squares(pos.pieces(us, PieceType::Rook)) {
        let (empty, lines) = rays(pos, s);
        mob += empty;
        for (first, second) in lines {
            let Some(first) = first else { continue };
            if pos.piece_at(first).color() != them {
                continue;
            }
            mob += 1;
            let held = pos.piece_at(first).kind();
            if held != PieceType::King
                && held != PieceType::Rook
                && second.is_some_and(|b| {
                    let p = pos.piece_at(b);
                    p.color() == them && matches!(p.kind(), PieceType::King | PieceType::Rook)
                })
            {
                pins += 1;
            }
        }
        let file = 1 << s.file();
        if own_pawn_files & file == 0 {
            if enemy_pawn_files & file == 0 {
                open += 1;
            } else {
                half += 1;
            }
        }
    }
    sink.add(Term::RookMobility, sign * mob);
    sink.add(Term::RookOpenFile, sign * open);
    sink.add(Term::RookHalfOpenFile, sign * half);
    sink.add(Term::RookPin, sign * pins);

    let (mut mob, mut blocked, mut centre) = (0, 0, 0);
    for s in Squares(pos.pieces(us, PieceType::Horse)) {
        for (to, leg) in HORSE_STEPS[s.index()].iter() {
            if pos.piece_at(leg).is_some() {
                blocked += 1;
            } else {
                let p = pos.piece_at(to);
                mob += i32::from(p.is_none() || p.color() == them);
            }
        }
        if s.file() == 4 && relative_rank(us, s) == 1 {
            centre += 1;
        }
    }
    sink.add(Term::HorseMobility, sign * mob);
    sink.add(Term::HorseLegBlocked, sign * blocked);
    sink.add(Term::HorsePalaceCentre, sign * centre);

    let (mut mob, mut targets) = (0, 0);
    for s in Squares(pos.pieces(us, PieceType::Cannon)) {
        let (empty, lines) = rays(pos, s);
        mob += empty;
        for (_, second) in lines {
            if second.is_some_and(|b| pos.piece_at(b).color() == them) {
                targets += 1;
            }
        }
    }
    sink.add(Term::CannonMobility, sign * mob);
    sink.add(Term::CannonTarget, sign * targets);

    let (mut connected, mut deep) = (0, 0);
    let pawns = pos.pieces(us, PieceType::Pawn);
    for s in Squares(pawns) {
        let rel = relative_rank(us, s);
        if rel == 9 {
            deep += 1;
        }
        if rel >= 5 && s.file() < 8 && pawns & bit(Square::new(s.file() + 1, s.rank())) != 0 {
            connected += 1;
        }
    }
    sink.add(Term::ConnectedPawns, sign * connected);
    sink.add(Term::PawnTooDeep, sign * deep);

    king_safety(pos, us, sign, sink);
}

/// Threats against `us`'s king: attackers near the palace, missing defenders, cannons and rooks
/// on the king's file.
#[inline(always)]
fn king_safety<S: Sink>(pos: &Position, us: Color, sign: i32, sink: &mut S) {
    let them = us.flip();
    let zone = KING_ZONE[us.index()];
    let near = |k: PieceType| sign * (pos.pieces(them, k) & zone).count_ones() as i32;
    sink.add(Term::KingZoneRook, near(PieceType::Rook));
    sink.add(Term::KingZoneHorse, near(PieceType::Horse));
    sink.add(Term::KingZoneCannon, near(PieceType::Cannon));
    sink.add(Term::KingZonePawn, near(PieceType::Pawn));

    let rooks = pos.count(them, PieceType::Rook) as i32;
    let horses = pos.count(them, PieceType::Horse) as i32;
    let cannons = pos.count(them, PieceType::Cannon) as i32;
    let no_advisors = 2 - pos.count(us, PieceType::Advisor) as i32;
    let no_elephants = 2 - pos.count(us, PieceType::Elephant) as i32;
    sink.add(Term::AdvisorMissingVsRook, sign * no_advisors * rooks);
    sink.add(Term::AdvisorMissingVsHorse, sign * no_advisors * horses);
    sink.add(Term::ElephantMissingVsCannon, sign * no_elephants * cannons);
    sink.add(Term::ElephantMissingVsRook, sign * no_elephants * rooks);

    // The pieces on the king's file, nearest first, towards the enemy.
    let k = pos.king_square(us);
    let file = u32::from(pos.file_bits(k.file()));
    let mut ahead = match us {
        Color::Red => file & !((2 << k.rank()) - 1),
        Color::Black => file & ((1 << k.rank()) - 1),
    };
    let (mut empty_cannon, mut central_cannon, mut open) = (0, 0, 0);
    let mut shielded = false;
    let mut screens = 0;
    while ahead != 0 && screens <= 2 {
        let rank = match us {
            Color::Red => ahead.trailing_zeros(),
            Color::Black => 31 - ahead.leading_zeros(),
        };
        ahead &= !(1 << rank);
        let rank = rank as u8;
        let p = pos.piece_at(Square::new(k.file(), rank));
        if screens == 0 && p.color() == us {
            shielded = true;
        }
        if p.color() == them && p.kind() == PieceType::Cannon {
            match screens {
                0 => empty_cannon = 1,
                2 => central_cannon = 1,
                _ => {}
            }
            break;
        }
        screens += 1;
    }
    if !shielded {
        open = rooks;
    }
    sink.add(Term::EmptyCannonFile, sign * empty_cannon);
    sink.add(Term::CannonOnKingFile, sign * central_cannon);
    sink.add(Term::KingOpenFileVsRook, sign * open);
}
