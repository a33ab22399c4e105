//! Input lines read as bytes, with a bound: every line-based entry point (the protocol loop, the
//! rules console, the RBC referee, seat programs and people at a terminal) reads through here,
//! so a byte that is not UTF-8 or a line without end is an error line for that one line, never
//! the end of the program or unbounded memory.

use std::io::{self, BufRead};

/// One line of input, without its `\n` (and a `\r` before it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line of text.
    Text(String),
    /// Not UTF-8; the text with invalid bytes replaced, for the error line.
    NotUtf8(String),
    /// Longer than the bound: read to its end and dropped; its length in bytes.
    TooLong(usize),
}

impl Line {
    /// The line's text, or a one-line reason why it is refused (`not UTF-8`, `line of N
    /// bytes, longer than M`).
    pub fn text(self, max: usize) -> Result<String, (String, String)> {
        match self {
            Line::Text(t) => Ok(t),
            Line::NotUtf8(lossy) => Err(("not UTF-8".into(), lossy)),
            Line::TooLong(n) => Err((format!("line of {n} bytes, longer than {max}"), String::new())),
        }
    }
}

/// Longest line the protocol loop, the consoles and a person's terminal take (a UCI `position`
/// line of a thousand moves is about 6 KB).
pub const MAX_LINE: usize = 1 << 20;

/// Reads the next line of `input`; `Ok(None)` at the end of input. At most `max` bytes of it are
/// kept: a longer line is consumed to its end and reported as [`Line::TooLong`].
pub fn read_line(input: &mut impl BufRead, max: usize) -> io::Result<Option<Line>> {
    read_bounded(input, max, false)
}

/// As [`read_line`], but a line longer than `max` is reported as soon as the bound is passed,
/// the rest of it left unread (for a peer that may never end its line).
pub fn read_line_or_give_up(input: &mut impl BufRead, max: usize) -> io::Result<Option<Line>> {
    read_bounded(input, max, true)
}

fn read_bounded(input: &mut impl BufRead, max: usize, early: bool) -> io::Result<Option<Line>> {
    let mut buf: Vec<u8> = Vec::new();
    let mut len = 0usize;
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            if !any {
                return Ok(None);
            }
            break;
        }
        any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], true),
            None => (chunk, false),
        };
        if len + part.len() <= max {
            buf.extend_from_slice(part);
        }
        len += part.len();
        let used = part.len() + usize::from(done);
        input.consume(used);
        if done {
            break;
        }
        if early && len > max {
            return Ok(Some(Line::TooLong(len)));
        }
    }
    if len > max {
        return Ok(Some(Line::TooLong(len)));
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(Some(match String::from_utf8(buf) {
        Ok(s) => Line::Text(s),
        Err(e) => Line::NotUtf8(String::from_utf8_lossy(e.as_bytes()).into_owned()),
    }))
}

/// The lines of `input` until its end or a read error, each bounded by `max`.
pub fn lines(mut input: impl BufRead, max: usize) -> impl Iterator<Item = Line> {
    std::iter::from_fn(move || read_line(&mut input, max).ok().flatten())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_lines_and_bounds() {
        let input: &[u8] = b"uci\r\n\xff\xfe\nisready\n0123456789\nlast";
        let got: Vec<Line> = lines(input, 8).collect();
        assert_eq!(
            got,
            [
                Line::Text("uci".into()),
                Line::NotUtf8("\u{fffd}\u{fffd}".into()),
                Line::Text("isready".into()),
                Line::TooLong(10),
                Line::Text("last".into()),
            ]
        );
        let mut endless: &[u8] = b"0123456789abcdef";
        assert_eq!(read_line_or_give_up(&mut endless, 4).unwrap(), Some(Line::TooLong(16)));
    }
}
