//! Every option a GUI can set, declared once: its UCI and UCCI names, type, default, range and
//! what it sets. Both handshakes, both `setoption` parsers, the session and the README's option
//! table are read from [`OPTIONS`].

use crate::engine::EngineOptions;
use crate::search::params::Params;
use crate::search::strength::{MAX_ELO, MIN_ELO};

use super::Dialect;
use super::command::{Notes, parse_bool, parse_clamped};
use super::output::quote;

/// What the `EvalFile` option shows, and may be set back to, for the net built into the binary.
pub const EMBEDDED_NET: &str = "<embedded>";
/// How GUIs write an empty string value.
const EMPTY: &str = "<empty>";

/// Everything the options set: the engine's options and the session's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub engine: EngineOptions,
    /// UCCI: times in milliseconds instead of seconds.
    pub millisec: bool,
    /// UCCI batch mode: the next line is read only when the search is over.
    pub batch: bool,
    /// UCI: `wdl W D L` after each score.
    pub show_wdl: bool,
}

impl Default for Settings {
    /// Every option at its declared default.
    fn default() -> Settings {
        let mut s = Settings {
            engine: EngineOptions {
                hash_mb: 0,
                threads: 0,
                multipv: 0,
                move_overhead_ms: 0,
                move_limit: 0,
                use_nnue: false,
                limit_strength: false,
                elo: 0,
                own_book: false,
                best_book_move: false,
                params: Params::default(),
            },
            millisec: false,
            batch: false,
            show_wdl: false,
        };
        for spec in OPTIONS {
            match spec.kind {
                Kind::Check { default, set } => set(&mut s, default),
                Kind::Spin { default, set, .. } => set(&mut s, default),
                Kind::Text { .. } | Kind::Button(_) => {}
            }
        }
        s
    }
}

/// What UCCI's 0 means for a spin whose UCI range starts above it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zero {
    /// The option's default.
    Default,
    /// Every core of the machine.
    AllCores,
}

/// What setting a text option or pressing a button does: work beyond a stored value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    ClearHash,
    NewGame,
    /// Load the named net file (empty or `<embedded>`: the built-in net).
    LoadNet,
    /// Append every line in and out to the named file (empty: stop).
    DebugLog,
    /// Load the book files of a `;`-separated list (empty: no book).
    LoadBook,
    /// Open the endgame tables of the named folder (empty: none).
    LoadTables,
}

#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Check {
        default: bool,
        set: fn(&mut Settings, bool),
    },
    Spin {
        default: u64,
        min: u64,
        max: u64,
        set: fn(&mut Settings, u64),
        /// UCCI also accepts 0, meaning this.
        ucci_zero: Option<Zero>,
    },
    Text {
        default: &'static str,
        action: Action,
    },
    Button(Action),
}

/// One option.
#[derive(Debug)]
pub struct OptionSpec {
    /// The UCI name (`None`: UCCI only).
    pub uci: Option<&'static str>,
    /// The UCCI name (`None`: UCI only).
    pub ucci: Option<&'static str>,
    pub kind: Kind,
    /// What it does, for the README.
    pub help: &'static str,
}

/// Every option, in the order the handshakes list them.
pub static OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        uci: Some("Hash"),
        ucci: Some("hashsize"),
        kind: Kind::Spin {
            default: 64,
            min: 1,
            max: 65536,
            set: |s, v| s.engine.hash_mb = v as usize,
            ucci_zero: Some(Zero::Default),
        },
        help: "hash table size in MB (UCCI: 0 = the default)",
    },
    OptionSpec {
        uci: Some("Threads"),
        ucci: Some("threads"),
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 256,
            set: |s, v| s.engine.threads = v as usize,
            ucci_zero: Some(Zero::AllCores),
        },
        help: "search threads (UCCI: 0 = every core)",
    },
    OptionSpec {
        uci: Some("MultiPV"),
        ucci: None,
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 128,
            set: |s, v| s.engine.multipv = v as usize,
            ucci_zero: None,
        },
        help: "best lines reported",
    },
    OptionSpec {
        uci: Some("Ponder"),
        ucci: Some("ponder"),
        kind: Kind::Check {
            default: false,
            // Nothing to store: pondering is what `go ponder` asks for.
            set: |_, _| {},
        },
        help: "the GUI may let the engine think on the opponent's time",
    },
    OptionSpec {
        uci: Some("Move Overhead"),
        ucci: None,
        kind: Kind::Spin {
            default: 30,
            min: 0,
            max: 5000,
            set: |s, v| s.engine.move_overhead_ms = v,
            ucci_zero: None,
        },
        help: "ms kept back on each move for the GUI and the link",
    },
    OptionSpec {
        uci: Some("Clear Hash"),
        ucci: None,
        kind: Kind::Button(Action::ClearHash),
        help: "empties the hash table",
    },
    OptionSpec {
        uci: Some("Move Limit"),
        ucci: None,
        kind: Kind::Spin {
            default: crate::rules::DEFAULT_MOVE_LIMIT as u64,
            min: 0,
            max: 1000,
            set: |s, v| s.engine.move_limit = v as u32,
            ucci_zero: None,
        },
        help: "plies without capture before a draw, 0 = off; a lead that makes no capture is \
               valued less as the limit nears, so set it to the rule the game is played under",
    },
    OptionSpec {
        uci: Some("Use NNUE"),
        ucci: Some("usennue"),
        kind: Kind::Check {
            default: true,
            set: |s, v| s.engine.use_nnue = v,
        },
        help: "evaluate with the net (false: the hand-written evaluation)",
    },
    OptionSpec {
        uci: Some("UCI_LimitStrength"),
        ucci: Some("limitstrength"),
        kind: Kind::Check {
            default: false,
            set: |s, v| s.engine.limit_strength = v,
        },
        help: "play at the strength `UCI_Elo` says: fewer nodes and a noisier evaluation, \
               calibrated by games (STRENGTH.md, \"Strength limiting\")",
    },
    OptionSpec {
        uci: Some("UCI_Elo"),
        ucci: Some("elo"),
        kind: Kind::Spin {
            default: 1500,
            min: MIN_ELO,
            max: MAX_ELO,
            set: |s, v| s.engine.elo = v,
            ucci_zero: None,
        },
        help: "the strength `UCI_LimitStrength` plays at, on a scale where ElephantEye \
               (book off) at 10+0.1 is 2000",
    },
    OptionSpec {
        uci: Some("EvalFile"),
        ucci: Some("evalfile"),
        kind: Kind::Text {
            default: EMBEDDED_NET,
            action: Action::LoadNet,
        },
        help: "a net file to load instead of the built-in one, `<embedded>` to go back; a \
               missing or bad file gets one message and the current net stays",
    },
    OptionSpec {
        uci: Some("Debug Log File"),
        ucci: Some("debuglogfile"),
        kind: Kind::Text {
            default: EMPTY,
            action: Action::DebugLog,
        },
        help: "appends every line in and out to the file, with a millisecond timestamp and `<<` \
               for input, `>>` for output; `<empty>` stops it (attach it to a problem report)",
    },
    OptionSpec {
        uci: Some("OwnBook"),
        ucci: Some("usebook"),
        kind: Kind::Check {
            default: true,
            set: |s, v| s.engine.own_book = v,
        },
        help: "play from the opening book while it has a move (only when a `Book File` is \
               loaded)",
    },
    OptionSpec {
        uci: Some("Book File"),
        ucci: Some("bookfiles"),
        kind: Kind::Text {
            default: EMPTY,
            action: Action::LoadBook,
        },
        help: "opening books in ElephantEye's BOOK.DAT format, several separated by `;` \
               (`chuhan book build` makes one from PGN games); a bad file gets one message and \
               the current book stays",
    },
    OptionSpec {
        uci: Some("Best Book Move"),
        ucci: Some("bestbookmove"),
        kind: Kind::Check {
            default: false,
            set: |s, v| s.engine.best_book_move = v,
        },
        help: "always the book's heaviest move; off: a random one in proportion to the weights, \
               drawn afresh each game",
    },
    OptionSpec {
        uci: Some("EGTB Path"),
        ucci: Some("egtbpath"),
        kind: Kind::Text {
            default: EMPTY,
            action: Action::LoadTables,
        },
        help: "a folder of chuhan's endgame tables (`chuhan egtb build`): where they cover the \
               position the engine plays their move at once with its mate score, and the search \
               scores covered positions exactly (a mate only where it fits the move limit); a \
               bad file gets one message and is left out",
    },
    OptionSpec {
        uci: Some("UCI_ShowWDL"),
        ucci: None,
        kind: Kind::Check {
            default: false,
            set: |s, v| s.show_wdl = v,
        },
        help: "each score also as `wdl W D L`: win, draw and loss chances per mille, from a \
               model fitted to chuhan's self-play games (STRENGTH.md has its calibration)",
    },
    OptionSpec {
        uci: None,
        ucci: Some("usemillisec"),
        kind: Kind::Check {
            default: false,
            set: |s, v| s.millisec = v,
        },
        help: "`go` times in milliseconds instead of seconds",
    },
    OptionSpec {
        uci: None,
        ucci: Some("batch"),
        kind: Kind::Check {
            default: false,
            set: |s, v| s.batch = v,
        },
        help: "read the next line only when the search is over",
    },
    OptionSpec {
        uci: None,
        ucci: Some("debug"),
        kind: Kind::Check {
            default: false,
            // Debug output goes to the log, whose level is set from the environment.
            set: |_, _| {},
        },
        help: "accepted; debug output is set by `RUST_LOG` and goes to stderr",
    },
    OptionSpec {
        uci: None,
        ucci: Some("newgame"),
        kind: Kind::Button(Action::NewGame),
        help: "a new game: forgets the hash table and histories",
    },
];

/// A value for an option, converted and clamped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Bool(bool),
    Int(u64),
    /// `<empty>` already made empty.
    Text(String),
    Press,
}

/// One `setoption`, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionChange {
    pub spec: &'static OptionSpec,
    pub value: Value,
}

impl PartialEq for OptionSpec {
    fn eq(&self, other: &OptionSpec) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for OptionSpec {}

impl OptionSpec {
    /// The name in `dialect`, if the option exists there.
    pub fn name(&self, dialect: Dialect) -> Option<&'static str> {
        match dialect {
            Dialect::Uci => self.uci,
            Dialect::Ucci => self.ucci,
        }
    }

    /// The option named `name` (any case) in `dialect`.
    pub fn find(dialect: Dialect, name: &str) -> Option<&'static OptionSpec> {
        OPTIONS.iter().find(|o| {
            o.name(dialect)
                .is_some_and(|n| n.eq_ignore_ascii_case(name))
        })
    }

    /// The handshake line, if the option exists in `dialect`.
    pub fn declaration(&self, dialect: Dialect) -> Option<String> {
        let name = self.name(dialect)?;
        let head = match dialect {
            Dialect::Uci => format!("option name {name}"),
            Dialect::Ucci => format!("option {name}"),
        };
        Some(match self.kind {
            Kind::Check { default, .. } => format!("{head} type check default {default}"),
            Kind::Spin {
                default,
                min,
                max,
                ucci_zero,
                ..
            } => match dialect {
                Dialect::Uci => format!("{head} type spin default {default} min {min} max {max}"),
                Dialect::Ucci => {
                    let min = lowest(min, ucci_zero, dialect);
                    format!("{head} type spin min {min} max {max} default {default}")
                }
            },
            Kind::Text { default, .. } => format!("{head} type string default {default}"),
            Kind::Button(_) => format!("{head} type button"),
        })
    }

    /// Converts the value text a GUI sent (`""` when it sent none).
    pub fn parse_value(
        &'static self,
        dialect: Dialect,
        text: &str,
        notes: &mut Notes,
    ) -> Result<OptionChange, String> {
        let name = self.name(dialect).unwrap_or_default();
        let text = text.trim();
        let given = || {
            if text.is_empty() {
                Err(format!("setoption {}: missing value", quote(name)))
            } else {
                Ok(text)
            }
        };
        let value = match self.kind {
            Kind::Check { .. } => Value::Bool(parse_bool(given()?, name)?),
            Kind::Spin {
                default,
                min,
                max,
                ucci_zero,
                ..
            } => {
                let zero = ucci_zero.filter(|_| dialect == Dialect::Ucci);
                let lo = lowest(min, ucci_zero, dialect);
                match (parse_clamped(given()?, name, lo, max, notes)?, zero) {
                    (0, Some(Zero::Default)) => Value::Int(default),
                    (0, Some(Zero::AllCores)) => Value::Int(
                        std::thread::available_parallelism().map_or(1, |n| n.get()) as u64,
                    ),
                    (v, _) => Value::Int(v),
                }
            }
            Kind::Text { .. } => Value::Text(text.replace(EMPTY, "")),
            Kind::Button(_) => Value::Press,
        };
        Ok(OptionChange { spec: self, value })
    }
}

/// A spin's least value in `dialect`: UCCI also takes 0 where it has a meaning.
fn lowest(min: u64, ucci_zero: Option<Zero>, dialect: Dialect) -> u64 {
    match (dialect, ucci_zero) {
        (Dialect::Ucci, Some(_)) => 0,
        _ => min,
    }
}

impl OptionChange {
    /// Stores a check or spin value in `settings`; returns the action a text or button asks for.
    pub fn apply(&self, settings: &mut Settings) -> Option<(Action, &str)> {
        match (self.spec.kind, &self.value) {
            (Kind::Check { set, .. }, Value::Bool(v)) => set(settings, *v),
            (Kind::Spin { set, .. }, Value::Int(v)) => set(settings, *v),
            (Kind::Text { action, .. }, Value::Text(t)) => return Some((action, t)),
            (Kind::Button(action), _) => return Some((action, "")),
            (kind, value) => unreachable!("{value:?} parsed for {kind:?}"),
        }
        None
    }
}

/// The handshake's option lines for `dialect`.
pub fn declarations(dialect: Dialect) -> impl Iterator<Item = String> {
    OPTIONS.iter().filter_map(move |o| o.declaration(dialect))
}

/// The README's option table, generated from [`OPTIONS`].
pub fn markdown_table() -> String {
    let mut out = String::from("| UCI | UCCI | type | default | range | what it does |\n");
    out.push_str("|---|---|---|---|---|---|\n");
    let cell = |n: Option<&str>| n.map_or("–".to_string(), |n| format!("`{n}`"));
    for o in OPTIONS {
        let (kind, default, range) = match o.kind {
            Kind::Check { default, .. } => ("check", default.to_string(), String::new()),
            Kind::Spin {
                default, min, max, ..
            } => ("spin", default.to_string(), format!("{min}–{max}")),
            Kind::Text { default, .. } => ("string", format!("`{default}`"), String::new()),
            Kind::Button(_) => ("button", String::new(), String::new()),
        };
        out.push_str(&format!(
            "| {} | {} | {kind} | {default} | {range} | {} |\n",
            cell(o.uci),
            cell(o.ucci),
            o.help
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(dialect: Dialect, name: &str, value: &str) -> Result<OptionChange, String> {
        OptionSpec::find(dialect, name)
            .expect("known option")
            .parse_value(dialect, value, &mut Notes::new())
    }

    #[test]
    fn names_are_unique_in_each_dialect() {
        for dialect in [Dialect::Uci, Dialect::Ucci] {
            let mut names: Vec<String> = OPTIONS
                .iter()
                .filter_map(|o| o.name(dialect))
                .map(str::to_ascii_lowercase)
                .collect();
            let n = names.len();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), n, "{dialect:?}");
        }
        assert!(OPTIONS.iter().all(|o| o.uci.is_some() || o.ucci.is_some()));
    }

    #[test]
    fn defaults_lie_in_their_ranges_and_fill_the_settings() {
        for o in OPTIONS {
            if let Kind::Spin {
                default, min, max, ..
            } = o.kind
            {
                assert!((min..=max).contains(&default), "{o:?}");
            }
        }
        let s = Settings::default();
        assert_eq!(s.engine.hash_mb, 64);
        assert_eq!(s.engine.move_limit, crate::rules::DEFAULT_MOVE_LIMIT);
        assert!(s.engine.use_nnue && !s.millisec);
    }

    #[test]
    fn values_are_converted_clamped_and_applied() {
        let mut s = Settings::default();
        let c = change(Dialect::Uci, "multipv", "3").unwrap();
        assert_eq!(c.apply(&mut s), None);
        assert_eq!(s.engine.multipv, 3);
        let mut notes = Notes::new();
        let c = OptionSpec::find(Dialect::Uci, "Hash")
            .unwrap()
            .parse_value(Dialect::Uci, "999999", &mut notes)
            .unwrap();
        assert_eq!(c.value, Value::Int(65536));
        assert_eq!(notes.len(), 1);
        assert!(change(Dialect::Uci, "Hash", "").is_err());
        assert!(change(Dialect::Uci, "Ponder", "maybe").is_err());
        let c = change(Dialect::Uci, "Debug Log File", "<empty>").unwrap();
        assert_eq!(c.apply(&mut s), Some((Action::DebugLog, "")));
    }

    #[test]
    fn ucci_zero_means_the_default_or_every_core() {
        let c = change(Dialect::Ucci, "hashsize", "0").unwrap();
        assert_eq!(c.value, Value::Int(64));
        assert!(matches!(
            change(Dialect::Ucci, "threads", "0").unwrap().value,
            Value::Int(n) if n >= 1
        ));
        let mut notes = Notes::new();
        let c = OptionSpec::find(Dialect::Uci, "Hash")
            .unwrap()
            .parse_value(Dialect::Uci, "0", &mut notes)
            .unwrap();
        assert_eq!((c.value, notes.len()), (Value::Int(1), 1));
    }

    #[test]
    fn each_dialect_declares_only_its_own_options() {
        let uci: Vec<String> = declarations(Dialect::Uci).collect();
        let ucci: Vec<String> = declarations(Dialect::Ucci).collect();
        assert!(uci.contains(&"option name Hash type spin default 64 min 1 max 65536".into()));
        assert!(ucci.contains(&"option hashsize type spin min 0 max 65536 default 64".into()));
        assert!(uci.contains(&"option name Clear Hash type button".into()));
        assert!(!ucci.iter().any(|l| l.contains("MultiPV")));
        assert!(!uci.iter().any(|l| l.contains("usemillisec")));
        assert!(OptionSpec::find(Dialect::Uci, "usemillisec").is_none());
        assert!(OptionSpec::find(Dialect::Ucci, "move overhead").is_none());
    }

    #[test]
    fn the_readme_lists_every_option_as_declared() {
        let readme = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"));
        let table = markdown_table();
        assert!(
            readme.contains(&table),
            "README.md's option table differs from the declarations; it should read:\n{table}"
        );
    }
}
