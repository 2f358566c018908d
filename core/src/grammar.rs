//! The grammar's terminals, read from the `.lark` files this crate is built with.
//!
//! The grammar (`grammars/*.lark`) is the one specification of every message form. The core's
//! patterns are put together from its terminals (`TACTIC_ID`, `NUMBER`, `KERNEL_NAME`, ...) so
//! that a terminal is written once. Lark's patterns are Python regular expressions; the few
//! constructs whose meaning differs in Rust's `regex` are translated so that the core's pattern
//! matches the same text or less (declining a line is always safe: the grammar then parses it).

const GRAMMARS: [&str; 10] = [
    include_str!("../../trtlog/grammars/common.lark"),
    include_str!("../../trtlog/grammars/autotuning.lark"),
    include_str!("../../trtlog/grammars/notes.lark"),
    include_str!("../../trtlog/grammars/onnx.lark"),
    include_str!("../../trtlog/grammars/graph.lark"),
    include_str!("../../trtlog/grammars/memory.lark"),
    include_str!("../../trtlog/grammars/phases.lark"),
    include_str!("../../trtlog/grammars/performance.lark"),
    include_str!("../../trtlog/grammars/envelope.lark"),
    include_str!("../../trtlog/grammars/options.lark"),
];

/// The pattern of terminal `name` (`NAME: /pattern/` or, with a priority, `NAME.-5: /pattern/`
/// in one of the grammar files), as written.
pub fn terminal(name: &str) -> Option<&'static str> {
    GRAMMARS
        .iter()
        .flat_map(|text| text.lines())
        .find_map(|line| {
            let rest = line.strip_prefix(name)?;
            let rest = match rest.strip_prefix('.') {
                Some(priority) => {
                    priority.trim_start_matches(|c: char| c == '-' || c.is_ascii_digit())
                }
                None => rest,
            };
            let pattern = rest.strip_prefix(": /")?;
            let end = pattern.rfind('/')?;
            Some(&pattern[..end])
        })
}

/// The literals of terminal `name` written as alternatives (`NAME: "a" | "b"`, continued on
/// lines that start with `|`), longest first: Lark joins them into one pattern in that order,
/// so where one is a prefix of another the longer is tried first. Panics when the grammar lacks
/// it or spells it otherwise: the crate is built with its grammar, and the tests name every one
/// used.
pub fn literals(name: &str) -> Vec<&'static str> {
    let head = format!("{name}: \"");
    let mut found = Vec::new();
    for text in GRAMMARS {
        let mut lines = text.lines();
        let Some(first) = lines.by_ref().find(|line| line.starts_with(&head)) else {
            continue;
        };
        let continued = lines.take_while(|line| line.trim_start().starts_with('|'));
        for line in std::iter::once(&first[name.len() + 1..]).chain(continued) {
            assert!(
                !line.contains('\\'),
                "terminal {name}: escapes are not read here"
            );
            // The quoted parts of `"a" | "b"`: every second piece between quotes.
            found.extend(line.split('"').skip(1).step_by(2));
        }
        // Stable: literals of one length keep the grammar's order (neither is a prefix of the
        // other, so their order does not matter).
        found.sort_by_key(|literal| std::cmp::Reverse(literal.len()));
        return found;
    }
    panic!("terminal {name} is not in the grammar as literals")
}

/// A piece of a terminal's definition: a literal, a pattern (Python's, as written), another
/// terminal's name, or a symbol of the definition (`|`, `(`, `)`, ...).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Piece {
    Literal(&'static str),
    Pattern(&'static str),
    Name(&'static str),
    Symbol(char),
}

/// The pieces of terminal `name`'s definition (`NAME: ...`, continued on lines that start with
/// `|`), in order. Panics when the grammar lacks it or writes what is not read here (escapes in
/// literals, flags after patterns): the crate is built with its grammar, and the tests name
/// every terminal read this way.
pub fn definition(name: &str) -> Vec<Piece> {
    let head = format!("{name}: ");
    for text in GRAMMARS {
        let mut lines = text.lines();
        let Some(first) = lines.by_ref().find(|line| line.starts_with(&head)) else {
            continue;
        };
        let continued = lines.take_while(|line| line.trim_start().starts_with('|'));
        return std::iter::once(&first[head.len()..])
            .chain(continued)
            .flat_map(|line| pieces(name, line))
            .collect();
    }
    panic!("terminal {name} is not in the grammar")
}

fn pieces(name: &str, line: &'static str) -> Vec<Piece> {
    let mut found = Vec::new();
    let mut rest = line.trim_start();
    while let Some(first) = rest.chars().next() {
        let (piece, length) = match first {
            '"' => {
                let end = 1 + rest[1..].find('"').expect("a closed literal");
                let literal = &rest[1..end];
                assert!(
                    !literal.contains('\\'),
                    "terminal {name}: escapes are not read here"
                );
                (Piece::Literal(literal), end + 1)
            }
            '/' => {
                // The pattern ends at the first slash not escaped.
                let mut escaped = false;
                let end = 1 + rest[1..]
                    .char_indices()
                    .find(|&(_, character)| {
                        let closes = character == '/' && !escaped;
                        escaped = character == '\\' && !escaped;
                        closes
                    })
                    .expect("a closed pattern")
                    .0;
                let flagged = rest[end + 1..].starts_with(|c: char| c.is_ascii_alphabetic());
                assert!(!flagged, "terminal {name}: flags are not read here");
                (Piece::Pattern(&rest[1..end]), end + 1)
            }
            c if c.is_ascii_alphanumeric() || c == '_' => {
                let end = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                (Piece::Name(&rest[..end]), end)
            }
            c => (Piece::Symbol(c), c.len_utf8()),
        };
        found.push(piece);
        rest = rest[length..].trim_start();
    }
    found
}

/// The text of one-line rule `name` (`name: ...`), as written.
pub fn rule_text(name: &str) -> Option<&'static str> {
    let head = format!("{name}: ");
    GRAMMARS
        .iter()
        .flat_map(|text| text.lines())
        .find_map(|line| line.strip_prefix(&head))
}

/// The alternatives of rule `name` (`name: ...`, `?name: ...`, continued on lines that start
/// with `|`), each as written without its alias (`-> alias`).
pub fn rule_alternatives(name: &str) -> Vec<&'static str> {
    for text in GRAMMARS {
        let mut lines = text.lines();
        let Some(first) = lines.by_ref().find_map(|line| {
            let line = line.strip_prefix(['?', '!']).unwrap_or(line);
            line.strip_prefix(name)?.strip_prefix(": ")
        }) else {
            continue;
        };
        let continued = lines.map_while(|line| line.trim_start().strip_prefix('|'));
        return std::iter::once(first)
            .chain(continued)
            .map(|alternative| match alternative.trim().rsplit_once(" -> ") {
                Some((items, alias))
                    if alias.chars().all(|c| c.is_ascii_lowercase() || c == '_') =>
                {
                    items.trim()
                }
                _ => alternative.trim(),
            })
            .collect();
    }
    Vec::new()
}

/// A Python pattern as a Rust one matching the same text or less: `\d` (Unicode digits in
/// Python) becomes ASCII digits, which Rust's number parsers read; `\s` and `[^\s]` take in the
/// four control characters (0x1C-0x1F) that Python counts as white space and Rust does not.
pub fn narrowed(pattern: &str) -> String {
    narrowed_keeping_groups(&non_capturing(pattern))
}

/// `narrowed`, the pattern's own groups left capturing (to read the pieces of a token).
pub fn narrowed_keeping_groups(pattern: &str) -> String {
    pattern
        .replace(r"[^\s]", r"[^\s\x1C-\x1F]")
        .replace(r"\S", r"[^\s\x1C-\x1F]")
        .replace(r"\s", r"[\s\x1C-\x1F]")
        .replace(r"\d", "[0-9]")
}

/// `pattern` with every group made non-capturing, so that a terminal put into a larger pattern
/// leaves that pattern's own group numbers alone.
fn non_capturing(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 8);
    for (index, character, syntax) in characters(pattern) {
        out.push(character);
        if syntax && character == '(' && !pattern[index + 1..].starts_with('?') {
            out.push_str("?:");
        }
    }
    out
}

/// Each character of a pattern with its place, and whether it is syntax: neither escaped nor
/// inside a character class (so a parenthesis there opens or closes a group).
fn characters(pattern: &str) -> impl Iterator<Item = (usize, char, bool)> + '_ {
    let mut escaped = false;
    let mut in_class = false;
    pattern.char_indices().map(move |(index, character)| {
        let syntax = !escaped && !in_class;
        if escaped {
            escaped = false;
        } else {
            match character {
                '\\' => escaped = true,
                '[' if !in_class => in_class = true,
                ']' if in_class => in_class = false,
                _ => {}
            }
        }
        (index, character, syntax && character != '[')
    })
}

/// Terminal `name` narrowed for Rust, as a non-capturing group. Panics when the grammar lacks
/// it: the crate is built with its grammar, and the tests below name every terminal used.
pub fn narrowed_terminal(name: &str) -> String {
    let pattern = terminal(name).unwrap_or_else(|| panic!("terminal {name} is not in the grammar"));
    format!("(?:{})", narrowed(pattern))
}

/// A pattern Python's `re` reads (a terminal of the grammar, sent from Python) as a Rust
/// pattern matching the same text or more, for the guards of `guards::Guards`: a guard that
/// matches more only makes the core decline more lines. A lookahead becomes a plain group (the
/// guard asks whether the terminal matches at all, not where it ends), "not followed by any
/// character" the end of the text, other negative lookaheads are dropped, and `\w` also takes
/// every letter and number (Python's `\w` and Rust's differ at the edges).
pub fn widened(pattern: &str) -> String {
    // Lark hands "\n" on either escaped or as the character itself.
    let pattern = pattern
        .replace(r"(?![^\n])", "$")
        .replace("(?![^\n])", "$")
        .replace("(?=", "(?:")
        .replace(r"\w", r"\w\p{L}\p{N}");
    let pattern = drop_negative_lookaheads(&pattern);
    // `\w\p{L}\p{N}` is only valid inside a class: wrap the occurrences outside one.
    wrap_outside_classes(&pattern, r"\w\p{L}\p{N}")
}

fn drop_negative_lookaheads(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut rest = pattern;
    while let Some(start) = rest.find("(?!") {
        out.push_str(&rest[..start]);
        match group_end(&rest[start..]) {
            Some(end) => rest = &rest[start + end..],
            None => {
                // Unbalanced: keep it, and let the compiler refuse the guard.
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// The length of the group `text` starts with (up to and including its closing parenthesis).
fn group_end(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (index, character, syntax) in characters(text) {
        match character {
            '(' if syntax => depth += 1,
            ')' if syntax => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(index + 1);
                }
            }
            _ => {}
        }
    }
    None
}

fn wrap_outside_classes(pattern: &str, item: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut in_class = false;
    let mut index = 0;
    let bytes = pattern.as_bytes();
    while index < pattern.len() {
        if pattern[index..].starts_with(item) {
            if in_class {
                out.push_str(item);
            } else {
                out.push('[');
                out.push_str(item);
                out.push(']');
            }
            index += item.len();
            continue;
        }
        let character = pattern[index..].chars().next().unwrap_or('\0');
        match bytes[index] {
            b'\\' => {
                // An escape and the character it escapes.
                let escaped = pattern[index + 1..]
                    .chars()
                    .next()
                    .map_or(0, char::len_utf8);
                out.push_str(&pattern[index..index + 1 + escaped]);
                index += 1 + escaped;
                continue;
            }
            b'[' if !in_class => in_class = true,
            b']' if in_class => in_class = false,
            _ => {}
        }
        out.push(character);
        index += character.len_utf8();
    }
    out
}

#[cfg(test)]
mod tests;
