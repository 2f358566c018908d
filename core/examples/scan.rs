//! Scans a log with the core alone and prints its pieces and lines (for profiling the core
//! without Python): `cargo run --release --example scan -- LOG`.

use std::time::Instant;

use trtlog_core::guards::Guards;
use trtlog_core::scan::{Piece, Scanner};

fn main() -> std::io::Result<()> {
    let path = std::env::args().nth(1).expect("usage: scan LOG");
    let data = std::fs::read(path)?;
    let start = Instant::now();
    let mut scanner = Scanner::new(1, Guards::none());
    let (mut blocks, mut texts) = (0usize, 0usize);
    for chunk in data.chunks(1 << 20) {
        for piece in scanner.feed(chunk).into_iter().chain(std::iter::empty()) {
            match piece {
                Piece::Lines { .. } => texts += 1,
                _ => blocks += 1,
            }
        }
    }
    blocks += scanner.finish().len();
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{} lines, {blocks} blocks, {texts} text pieces in {seconds:.3} s ({:.0} MB/s)",
        scanner.lines,
        data.len() as f64 / seconds / 1e6
    );
    Ok(())
}
