//! Writes the match opening book (`bench-positions/openings.epd`) to stdout.

use chuhan::tools::matches::opening_book::{MaterialMobility, book_epd};

fn main() {
    print!("{}", book_epd(&MaterialMobility::default()));
}
