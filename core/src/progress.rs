//! The progress monitor's bars of Python builds (`progress_update`, `grammars/notes.lark`):
//! "[=====-----] Building engine 3/6", one bar per phase under way, indented by its depth, all
//! redrawn with cursor moves ("\x1b[2A\x1b[0G\x1b[2K") at every step, up to nearly every line of
//! such a build's log.
//!
//! A bar's line has no envelope. The Python reader removes its escape sequences; the record
//! parser then reads it as a line of the record above, which the grammar may take into that
//! record's message (a diagnostic takes indented lines, trtexec's layer listing any line), or
//! else parses on its own with the `message` rule. So the core hands on the line's text as the
//! reader makes it and, where that text is the rule in full, the rule's tokens, which are used
//! only where the grammar leaves the line to be parsed on its own (`trtlog.parse.assembly`).

use regex::Regex;
use std::borrow::Cow;
use std::sync::OnceLock;

use crate::envelope::may_embed_stamp;
use crate::grammar::narrowed_terminal;
use crate::runs::RunRecord;

/// PROGRESS_BAR and the space after it, at the start of the text.
fn bar_pattern() -> &'static Regex {
    static PATTERN: OnceLock<Regex> = OnceLock::new();
    PATTERN.get_or_init(|| {
        let bar = narrowed_terminal("PROGRESS_BAR");
        Regex::new(&format!(r"\A({bar}) ")).expect("PROGRESS_BAR pattern")
    })
}

/// The length of the escape sequence `bytes` starts with, where it is one the core removes as
/// the Python reader does: "\x1b[", digits and semicolons, and a final byte from "@" to "~"
/// (cursor moves, line erases, colours). The reader's pattern takes these whole, and no more.
fn escape_len(bytes: &[u8]) -> Option<usize> {
    let rest = bytes.strip_prefix(b"\x1b[")?;
    let parameters = rest
        .iter()
        .take_while(|byte| byte.is_ascii_digit() || **byte == b';')
        .count();
    let last = *rest.get(parameters)?;
    (b'@'..=b'~').contains(&last).then_some(2 + parameters + 1)
}

/// The line as the Python reader cleans it, where every escape in it is one the core removes
/// (else None).
pub fn cleaned(line: &str) -> Option<Cow<'_, str>> {
    if !line.contains('\x1b') {
        return Some(Cow::Borrowed(line));
    }
    let bytes = line.as_bytes();
    let mut text = String::with_capacity(line.len());
    let mut start = 0;
    while let Some(found) = memchr::memchr(0x1b, &bytes[start..]) {
        let at = start + found;
        text.push_str(&line[start..at]);
        start = at + escape_len(&bytes[at..])?;
    }
    text.push_str(&line[start..]);
    Some(Cow::Owned(text))
}

/// Whether a line may be a bar, by its first bytes after escape sequences and spaces: "[=" or
/// "[-" (and no carriage return, which makes a line several segments).
pub fn may_be_bar(line: &str) -> bool {
    let bytes = line.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b' ' {
            at += 1;
        } else if let Some(length) = escape_len(&bytes[at..]) {
            at += length;
        } else {
            break;
        }
    }
    let rest = &bytes[at..];
    (rest.starts_with(b"[=") || rest.starts_with(b"[-")) && memchr::memchr(b'\r', bytes).is_none()
}

/// The line as a bar, if its text is the rule in full: PROGRESS_BAR " " PROGRESS_PHASE " "
/// UINT "/" UINT, the phase the shortest text that " <done>/<total>" ends the line after (so
/// the text up to the last space), the counts in ASCII digits within 64 signed bits.
pub fn progress(line: &str) -> Option<RunRecord> {
    if line.contains('\r') {
        return None;
    }
    let text = cleaned(line)?;
    // A second timestamp makes the reader split the line.
    if may_embed_stamp(&text) {
        return None;
    }
    let found = bar_pattern().captures(&text)?;
    let bar = found.get(1)?.as_str();
    let rest = &text[found.get(0)?.end()..];
    let space = rest.rfind(' ')?;
    let (phase, counts) = (&rest[..space], &rest[space + 1..]);
    let (done, total) = counts.split_once('/')?;
    let digits = |count: &str| !count.is_empty() && count.bytes().all(|b| b.is_ascii_digit());
    if phase.is_empty() || !digits(done) || !digits(total) {
        return None;
    }
    Some(RunRecord::Progress {
        bar: bar.to_string(),
        phase: phase.to_string(),
        done: done.parse().ok()?,
        total: total.parse().ok()?,
        text: text.into_owned(),
    })
}

#[cfg(test)]
mod tests;
