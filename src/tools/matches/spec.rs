//! An engine as the user describes it on the command line:
//! `cmd=PATH name=NAME [proto=uci|ucci|auto] [dir=DIR] [arg=ARG]... [stderr=FILE]
//! [ponder=on|off] [option.NAME=VALUE | NAME=VALUE]...`; a value in double quotes may hold spaces and commas.

use std::path::PathBuf;
use std::str::FromStr;

/// The protocol to speak to an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    Ucci,
    /// Try `uci`, then `ucci`; the first acknowledgement wins.
    Auto,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub name: String,
    pub cmd: PathBuf,
    pub args: Vec<String>,
    /// Working directory; a relative `cmd` is found from here.
    pub dir: Option<PathBuf>,
    pub protocol: Protocol,
    /// Options sent after the handshake, in the order given (`option.Hash=64` gives `Hash`).
    pub options: Vec<(String, String)>,
    /// Where the engine's stderr goes (appended); `None` discards it.
    pub stderr: Option<PathBuf>,
    /// Think on the opponent's time: `go ponder` on the move the engine expects, `ponderhit`
    /// when it comes (timed games only).
    pub ponder: bool,
}

/// Splits at spaces and commas outside double quotes; the quotes are dropped.
fn words(s: &str) -> Vec<String> {
    let (mut out, mut word, mut quoted) = (Vec::new(), String::new(), false);
    for c in s.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' | ',' if !quoted => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

impl FromStr for EngineSpec {
    type Err = String;

    /// Settings separated by spaces or commas; any key other than the known ones is an option,
    /// so both `option.Hash=64` (UCI style) and `hashsize=64` (UCCI style) work. Words before a
    /// `=` join with spaces, for UCI names such as `option.Move Overhead=30`.
    fn from_str(s: &str) -> Result<EngineSpec, String> {
        let mut cmd = None;
        let mut name = None;
        let mut spec = EngineSpec {
            name: String::new(),
            cmd: PathBuf::new(),
            args: Vec::new(),
            dir: None,
            protocol: Protocol::Auto,
            options: Vec::new(),
            stderr: None,
            ponder: false,
        };
        let mut pending = String::new();
        for word in words(s) {
            if !pending.is_empty() {
                pending.push(' ');
            }
            pending.push_str(&word);
            if !word.contains('=') {
                continue;
            }
            let setting = std::mem::take(&mut pending);
            let (key, value) = setting.split_once('=').expect("checked above");
            match key {
                "cmd" => cmd = Some(PathBuf::from(value)),
                "name" => name = Some(value.to_string()),
                "dir" => spec.dir = Some(PathBuf::from(value)),
                "arg" => spec.args.push(value.to_string()),
                "stderr" => spec.stderr = Some(PathBuf::from(value)),
                "ponder" => {
                    spec.ponder = match value {
                        "on" => true,
                        "off" => false,
                        _ => return Err(format!("ponder={value}: say on or off")),
                    }
                }
                "proto" => {
                    spec.protocol = match value {
                        "uci" => Protocol::Uci,
                        "ucci" => Protocol::Ucci,
                        "auto" => Protocol::Auto,
                        _ => return Err(format!("unknown protocol '{value}' (uci, ucci, auto)")),
                    }
                }
                _ => {
                    let option = key.strip_prefix("option.").unwrap_or(key);
                    spec.options.push((option.to_string(), value.to_string()));
                }
            }
        }
        if !pending.is_empty() {
            return Err(format!("engine setting '{pending}' is not key=value"));
        }
        spec.cmd = cmd.ok_or("engine needs cmd=PATH")?;
        spec.name = name.unwrap_or_else(|| {
            spec.cmd
                .file_name()
                .map_or_else(|| "engine".into(), |n| n.to_string_lossy().into_owned())
        });
        Ok(spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_setting() {
        let s: EngineSpec =
            "cmd=../base/chuhan name=base proto=ucci dir=/tmp arg=-q ponder=on option.Hash=64,hashsize=16 option.Move Overhead=30"
                .parse()
                .unwrap();
        assert_eq!(s.cmd, PathBuf::from("../base/chuhan"));
        assert_eq!(s.name, "base");
        assert_eq!(s.protocol, Protocol::Ucci);
        assert_eq!(s.dir, Some(PathBuf::from("/tmp")));
        assert_eq!(s.args, vec!["-q".to_string()]);
        assert!(s.ponder);
        assert_eq!(
            s.options,
            vec![
                ("Hash".to_string(), "64".to_string()),
                ("hashsize".to_string(), "16".to_string()),
                ("Move Overhead".to_string(), "30".to_string())
            ]
        );
    }

    #[test]
    fn quoted_values_keep_spaces_and_commas() {
        let s: EngineSpec =
            r#"cmd="/opt/my engines/ee, 3.3" name=ee stderr="/tmp/ee log.txt" arg="a b""#
                .parse()
                .unwrap();
        assert_eq!(s.cmd, PathBuf::from("/opt/my engines/ee, 3.3"));
        assert_eq!(s.stderr, Some(PathBuf::from("/tmp/ee log.txt")));
        assert_eq!(s.args, vec!["a b".to_string()]);
        assert_eq!(s.name, "ee");
    }

    #[test]
    fn name_defaults_to_the_file_name() {
        let s: EngineSpec = "cmd=target/release/chuhan".parse().unwrap();
        assert_eq!((s.name.as_str(), s.protocol), ("chuhan", Protocol::Auto));
        assert!("name=x".parse::<EngineSpec>().is_err());
        assert!("cmd=x proto=xboard".parse::<EngineSpec>().is_err());
        assert!("cmd=x bogus".parse::<EngineSpec>().is_err());
        assert!("cmd=x ponder=yes".parse::<EngineSpec>().is_err());
        assert!(!"cmd=x ponder=off".parse::<EngineSpec>().unwrap().ponder);
    }
}
