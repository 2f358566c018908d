//! Scans a log with the core alone and prints its pieces and lines (for profiling the core
//! without Python): `cargo run --release --example scan -- LOG [GUARDS]`. GUARDS: a file of
//! the guards the Python side sends (`core_guards`), a line per rule: the rule and its
//! patterns, separated by tabs, with backslash, tab and newline escaped as `\\`, `\t`, `\n`;
//! without it, no rule is guarded.

use std::time::Instant;

use trtlog_core::guards::Guards;
use trtlog_core::scan::{Piece, Scanner};

fn main() -> std::io::Result<()> {
    let path = std::env::args().nth(1).expect("usage: scan LOG");
    let data = std::fs::read(path)?;
    let guards = match std::env::args().nth(2) {
        Some(file) => Guards::new(&read_guards(&std::fs::read_to_string(file)?)),
        None => Guards::none(),
    };
    let start = Instant::now();
    let mut scanner = Scanner::new(1, guards);
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

fn read_guards(text: &str) -> Vec<(String, Vec<String>)> {
    text.lines()
        .filter_map(|line| {
            let mut fields = line.split('\t').map(unescaped);
            Some((fields.next()?, fields.collect()))
        })
        .collect()
}

fn unescaped(field: &str) -> String {
    let mut text = String::with_capacity(field.len());
    let mut characters = field.chars();
    while let Some(character) = characters.next() {
        if character != '\\' {
            text.push(character);
            continue;
        }
        match characters.next() {
            Some('n') => text.push('\n'),
            Some('t') => text.push('\t'),
            Some(other) => text.push(other),
            None => text.push('\\'),
        }
    }
    text
}
