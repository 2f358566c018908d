//! The envelopes the frequent message forms are printed in, recognised without the grammar.
//!
//! Tactic timings and Myelin trace lines come in two envelopes, both VERBOSE and stamped to the
//! second: trtexec's `[08/30/2026-04:08:32] [V] [TRT] ` (8.x to 10.x) and a Python logger's
//! `[08/30/2026-04:08:32] [TRT] [V] `. The grammar (`grammars/envelope.lark`) knows many more;
//! a line in any other envelope is left to it.

use std::sync::OnceLock;

use crate::grammar::narrowed_terminal;
use crate::reach::{Reach, Terminals};

/// `[MM/DD/YYYY-HH:MM:SS]`: the stamp's length in bytes.
const STAMP_LEN: usize = 21;

/// Whether `line` starts with a `[MM/DD/YYYY-HH:MM:SS]` stamp (ASCII digits only).
pub fn starts_with_stamp(line: &[u8]) -> bool {
    if line.len() < STAMP_LEN {
        return false;
    }
    let shape = b"[dd/dd/dddd-dd:dd:dd]";
    line[..STAMP_LEN]
        .iter()
        .zip(shape)
        .all(|(byte, want)| match want {
            b'd' => byte.is_ascii_digit(),
            other => byte == other,
        })
}

/// The length of a verbose timing envelope `line` starts with (stamp, space, `[V] [TRT] ` or
/// `[TRT] [V] `), if it starts with one.
pub fn verbose_prefix_len(line: &[u8]) -> Option<usize> {
    if !starts_with_stamp(line) {
        return None;
    }
    let rest = &line[STAMP_LEN..];
    for tags in [&b" [V] [TRT] "[..], &b" [TRT] [V] "[..]] {
        if rest.starts_with(tags) {
            return Some(STAMP_LEN + tags.len());
        }
    }
    None
}

/// trtexec's own envelope at INFO, stamp, space, `[I] ` (as printed since 7.x): its length, if
/// `line` starts with it. The grammar reads a LIBRARY_TAG after it as the library's envelope: a
/// body that LIBRARY_TAG may take is not known here.
pub fn trtexec_info_prefix_len(line: &str) -> Option<usize> {
    const TAG: &str = " [I] ";
    let length = STAMP_LEN + TAG.len();
    let tagged = starts_with_stamp(line.as_bytes()) && line[STAMP_LEN..].starts_with(TAG);
    (tagged && terminals().library_tag.reach(&line[length..]) == Reach::Nothing).then_some(length)
}

/// Whether a `[MM/DD/YYYY-HH:MM:SS]` stamp may start after the first character of `line` (the
/// Python reader then splits the line there). Python's `\d` takes every Unicode digit: any
/// character beyond ASCII counts as one here, so this says yes at least where Python splits.
pub fn may_embed_stamp(line: &str) -> bool {
    let shape = "[dd/dd/dddd-dd:dd:dd]";
    memchr::memchr_iter(b'[', line.as_bytes())
        .filter(|&start| start >= 1)
        .any(|start| {
            let mut characters = line[start..].chars();
            shape.chars().all(|want| match (want, characters.next()) {
                ('d', Some(found)) => found.is_ascii_digit() || !found.is_ascii(),
                (want, Some(found)) => found == want,
                (_, None) => false,
            })
        })
}

/// Whether `line` opens a record of its own: TIMESTAMP, then LEVEL_TAG or LIBRARY_TAG. The
/// grammar gives every such line an envelope, so no bare line under a record starts this way;
/// it knows more envelopes, so "no" only means "not known here".
pub fn opens_record(line: &str) -> bool {
    terminals().record_opener.reach(line) == Reach::Match
}

/// The envelope terminals read here, each compiled once.
struct EnvelopeTerminals {
    library_tag: Terminals,
    record_opener: Terminals,
}

fn terminals() -> &'static EnvelopeTerminals {
    static TERMINALS: OnceLock<EnvelopeTerminals> = OnceLock::new();
    TERMINALS.get_or_init(|| {
        let [stamp, level, library] =
            ["TIMESTAMP", "LEVEL_TAG", "LIBRARY_TAG"].map(narrowed_terminal);
        EnvelopeTerminals {
            library_tag: Terminals::new(std::slice::from_ref(&library)),
            record_opener: Terminals::new(&[format!("{stamp}(?:{level}|{library})")]),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trtexec_and_python_logger_prefixes() {
        // TensorRT 10.16 trtexec --verbose.
        let trtexec =
            b"[07/07/2026-02:11:09] [V] [TRT] Tactic Name: sm80_xmma Tactic: 0x1 Time: 0.1";
        assert_eq!(verbose_prefix_len(trtexec), Some(32));
        // A Python logger that prints "[TRT] [V]" after the stamp (8.6 samples).
        let python = b"[03/14/2023-10:00:01] [TRT] [V] Tactic: 0x2 Time: 0.2";
        assert_eq!(verbose_prefix_len(python), Some(32));
        assert_eq!(
            verbose_prefix_len(b"[07/07/2026-02:11:09] [I] [TRT] x"),
            None
        );
        assert_eq!(verbose_prefix_len(b"[TRT] [V] Tactic: 0x2 Time: 0.2"), None);
        assert_eq!(
            verbose_prefix_len(b"[07/07/2026-02:1a:09] [V] [TRT] x"),
            None
        );
    }

    #[test]
    fn trtexec_info_prefix() {
        // TensorRT 8.6 trtexec inference (hackathon corpus log).
        let line = "[03/25/2023-07:13:26] [I] Average on 10 runs - GPU latency: 0.0433136 ms";
        assert_eq!(trtexec_info_prefix_len(line), Some(26));
        // The length TIMESTAMP and LEVEL_TAG take, and a level tag of INFO's letter.
        let envelope = format!(
            "^{}({})",
            narrowed_terminal("TIMESTAMP"),
            narrowed_terminal("LEVEL_TAG")
        );
        let found = regex::Regex::new(&envelope)
            .unwrap()
            .captures(line)
            .unwrap();
        assert_eq!((found[0].len(), &found[1]), (26, "[I] "));
        // A body LIBRARY_TAG does not take is the body, even where it starts with a bracket.
        assert_eq!(
            trtexec_info_prefix_len("[03/25/2023-07:13:26] [I] [TRT-LLM] x"),
            None
        );
        assert_eq!(
            trtexec_info_prefix_len("[03/25/2023-07:13:26] [I] [TR"),
            Some(26)
        );
        assert_eq!(
            trtexec_info_prefix_len("[03/25/2023-07:13:26] [I] [=====-----] 10%"),
            Some(26)
        );
        // The library's messages at INFO, and trtexec's other levels, are not this envelope.
        assert_eq!(
            trtexec_info_prefix_len("[03/25/2023-07:13:26] [I] [TRT] Loaded engine"),
            None
        );
        assert_eq!(
            trtexec_info_prefix_len("[03/25/2023-07:13:26] [W] Average on 10 runs"),
            None
        );
        assert_eq!(
            trtexec_info_prefix_len("[03/25/2023-07:13:26][I] Average on 10 runs"),
            None
        );
    }

    #[test]
    fn embedded_stamps() {
        // ONNX node names are full of slashes (TREx's yolo INT8 log): not a stamp.
        assert!(!may_embed_stamp(
            "[10/31/2023-17:53:34] [V] [TRT] Parsing node: /backbone/conv1/Constant [Constant]"
        ));
        // Two lines run together (a child's output without a newline).
        assert!(may_embed_stamp(
            "[10/31/2023-17:53:34] [V] [TRT] abc[10/31/2023-17:53:35] [I] x"
        ));
        // Python's \d takes Arabic-Indic digits too.
        assert!(may_embed_stamp("x[\u{663}1/31/2023-17:53:35] y"));
        assert!(!may_embed_stamp("[10/31/2023-17:53:35] only at the start"));
    }

    #[test]
    fn record_openers() {
        assert!(opens_record("[07/07/2026-02:11:09] [I] Starting inference"));
        assert!(opens_record("[07/07/2026-02:11:09][W] no space"));
        assert!(opens_record(
            "[07/07/2026-02:11:09] [TRT-LLM] [I] Total time"
        ));
        assert!(!opens_record("    Layer(CaskConvolution): conv1"));
        assert!(!opens_record("[07/07/2026-02:11:09] plain text"));
        assert!(!opens_record(""));
        // Each printable ASCII character as a level letter: a record opens where LEVEL_TAG
        // takes it.
        let level_tag = regex::Regex::new(&format!("^{}", narrowed_terminal("LEVEL_TAG"))).unwrap();
        for letter in (0x20u8..0x7f).map(char::from) {
            let tag = format!("[{letter}] ");
            let line = format!("[07/07/2026-02:11:09] {tag}x");
            assert_eq!(opens_record(&line), level_tag.is_match(&tag), "{line:?}");
        }
    }
}
