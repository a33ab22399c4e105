//! A command's arguments as the command line gives them: options and free words, read by
//! `lexopt`, with errors in our words (one line each).

/// An error for the user: printed as one line, exit code 2.
#[derive(Debug)]
pub struct CliError(pub String);

/// One word of a command's arguments, as [`Args`] reads it.
#[derive(Debug, PartialEq)]
pub enum Arg {
    /// An option, written with its dashes (`--games`), from `--games 5` or `--games=5`.
    Opt(String),
    /// A free word (a variant, a depth, a `key=value` setting).
    Word(String),
}

/// A command's arguments read by `lexopt`: long options with a value (`--seed 3`,
/// `--seed=3`) or without, and free words; the errors are ours, one line each.
pub struct Args {
    parser: lexopt::Parser,
    cmd: &'static str,
}

impl Args {
    /// Reads `args` for the command `cmd` (named in errors).
    pub fn new(cmd: &'static str, args: &[String]) -> Args {
        Args {
            parser: lexopt::Parser::from_args(args.iter().cloned()),
            cmd,
        }
    }

    /// The next word, or `None` at the end.
    pub fn next_arg(&mut self) -> Result<Option<Arg>, CliError> {
        let unexpected = |a: String| CliError(format!("{}: unexpected argument '{a}'", self.cmd));
        match self.parser.next() {
            Ok(None) => Ok(None),
            Ok(Some(lexopt::Arg::Long(name))) => Ok(Some(Arg::Opt(format!("--{name}")))),
            Ok(Some(lexopt::Arg::Short(c))) => Err(unexpected(format!("-{c}"))),
            Ok(Some(lexopt::Arg::Value(v))) => v
                .into_string()
                .map(|w| Some(Arg::Word(w)))
                .map_err(|v| unexpected(v.to_string_lossy().into_owned())),
            // `--flag=value` for a flag that takes none.
            Err(e) => Err(CliError(format!("{}: {e}", self.cmd))),
        }
    }

    /// The next option, for a command that takes no free word here (one is an error).
    pub fn next_flag(&mut self) -> Result<Option<String>, CliError> {
        match self.next_arg()? {
            None => Ok(None),
            Some(Arg::Opt(flag)) => Ok(Some(flag)),
            Some(Arg::Word(w)) => Err(self.unknown(&w)),
        }
    }

    /// The value of the option `flag` just read.
    pub fn value(&mut self, flag: &str) -> Result<String, CliError> {
        let v = self
            .parser
            .value()
            .map_err(|_| CliError(format!("{flag} needs a value")))?;
        v.into_string()
            .map_err(|_| CliError(format!("{flag}: the value is not UTF-8")))
    }

    /// The option's value read as a number.
    pub fn number<T: std::str::FromStr>(&mut self, flag: &str) -> Result<T, CliError> {
        let v = self.value(flag)?;
        v.parse().map_err(|_| CliError(format!("{flag} '{v}' is not a number")))
    }

    /// The values of `flag` up to the next option (`--data A B C`); at least one.
    pub fn values(&mut self, flag: &str) -> Result<Vec<String>, CliError> {
        let vs = self
            .parser
            .values()
            .map_err(|_| CliError(format!("{flag} needs a value")))?;
        vs.map(|v| {
            v.into_string()
                .map_err(|_| CliError(format!("{flag}: a value is not UTF-8")))
        })
        .collect()
    }

    /// The error for an option this command does not take.
    pub fn unknown(&self, flag: &str) -> CliError {
        CliError(format!("{}: unexpected argument '{flag}'", self.cmd))
    }
}
