//! Just enough HTTP/1.1 for one page and its JSON API: a request read with hard bounds, a
//! reply written whole, one request per connection.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// Longest request line plus headers.
pub const MAX_HEAD: usize = 8 * 1024;
/// Longest request body.
pub const MAX_BODY: usize = 16 * 1024;
/// How long a client may take to send its whole request.
pub const READ_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a reply may take to be taken by the client.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// A parsed request.
#[derive(Debug)]
pub struct Request {
    /// `GET` or `POST`.
    pub method: String,
    /// The path without the query (`/api/boards/b1`).
    pub path: String,
    /// The query's `key=value` pairs, percent-decoded.
    pub query: Vec<(String, String)>,
    /// The headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body (empty for GET).
    pub body: Vec<u8>,
}

impl Request {
    /// A header's value (the name in lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// A query value.
    pub fn param(&self, key: &str) -> Option<&str> {
        self.query.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The body as a JSON object (an empty body is `{}`).
    pub fn json(&self) -> Result<Value, Reply> {
        if self.body.iter().all(u8::is_ascii_whitespace) {
            return Ok(json!({}));
        }
        let text = std::str::from_utf8(&self.body).map_err(|_| Reply::error(400, "the body is not UTF-8"))?;
        match serde_json::from_str::<Value>(text) {
            Ok(v @ Value::Object(_)) => Ok(v),
            Ok(_) => Err(Reply::error(400, "the body must be a JSON object")),
            Err(e) => Err(Reply::error(400, &format!("the body is not JSON: {e}"))),
        }
    }
}

/// A reply: status, content type and body.
#[derive(Debug)]
pub struct Reply {
    /// HTTP status code.
    pub status: u16,
    /// `Content-Type`.
    pub kind: &'static str,
    /// The body.
    pub body: Vec<u8>,
}

impl Reply {
    /// A JSON reply with status 200.
    pub fn json(v: &impl serde::Serialize) -> Reply {
        Reply {
            status: 200,
            kind: "application/json",
            // Values of our own types and JSON values always serialize.
            body: serde_json::to_vec(v).unwrap_or_else(|e| unreachable!("a reply serializes: {e}")),
        }
    }

    /// `{"error": message}` with `status`.
    pub fn error(status: u16, message: &str) -> Reply {
        Reply {
            status,
            kind: "application/json",
            body: json!({ "error": message }).to_string().into_bytes(),
        }
    }

    /// A static file.
    pub fn file(kind: &'static str, body: &'static str) -> Reply {
        Reply {
            status: 200,
            kind,
            body: body.as_bytes().to_vec(),
        }
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        413 => "Payload Too Large",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

/// Writes `reply` and closes the exchange.
pub fn send(stream: &mut TcpStream, reply: &Reply) {
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    write_reply(stream, reply);
    // Reads what the client still sends (a body refused unread) before closing, so that the
    // close does not reset the connection and lose the reply; at most 200 ms and 1 MiB.
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let mut rest = Deadline {
        stream,
        until: Instant::now() + Duration::from_millis(200),
    };
    let _ = std::io::copy(&mut (&mut rest).take(1 << 20), &mut std::io::sink());
}

/// Writes `reply` and closes at once (the accept loop's refusal: it must not wait).
pub fn refuse(stream: &mut TcpStream, reply: &Reply) {
    let _ = stream.set_write_timeout(Some(Duration::from_millis(200)));
    write_reply(stream, reply);
    // Takes what has already arrived, without waiting, so that the close does not reset the
    // connection before the client reads the refusal.
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let _ = stream.set_nonblocking(true);
    let mut buf = [0u8; 4096];
    let _ = stream.read(&mut buf);
}

fn write_reply(stream: &mut TcpStream, reply: &Reply) {
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}; charset=utf-8\r\nContent-Length: {}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nContent-Security-Policy: frame-ancestors 'none'\r\nX-Frame-Options: DENY\r\nConnection: close\r\n\r\n",
        reply.status,
        reason(reply.status),
        reply.kind,
        reply.body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(&reply.body);
    let _ = stream.flush();
}

/// A socket read that gives up at a fixed time, however slowly the bytes come.
struct Deadline<'a> {
    stream: &'a TcpStream,
    until: Instant,
}

impl Read for Deadline<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(std::io::ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        (&mut &*self.stream).read(buf)
    }
}

/// Percent-decoding of a query part (`+` is a space); `None` for a broken escape or bytes
/// that are not UTF-8.
pub fn decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = s.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// A query string's decoded pairs, in order.
fn parse_query(text: &str) -> Result<Vec<(String, String)>, Reply> {
    let mut query = Vec::new();
    for pair in text.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        match (decode(k), decode(v)) {
            (Some(k), Some(v)) => query.push((k, v)),
            _ => return Err(Reply::error(400, "malformed query")),
        }
    }
    Ok(query)
}

/// The reply to a failed read: a timeout (408), or 400 with `otherwise`.
fn read_error(e: &std::io::Error, otherwise: &str) -> Reply {
    match e.kind() {
        std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock => {
            Reply::error(408, "the request did not arrive whole within 10 s")
        }
        _ => Reply::error(400, otherwise),
    }
}

/// Reads one request, within [`MAX_HEAD`] and [`MAX_BODY`]; `Err` is the reply to send.
pub fn read_request(stream: &TcpStream) -> Result<Request, Reply> {
    let timed = Deadline {
        stream,
        until: Instant::now() + READ_TIMEOUT,
    };
    let mut reader = BufReader::new(timed.take((MAX_HEAD + MAX_BODY) as u64 + 1));
    let mut head_len = 0;
    let mut line = String::new();
    let mut read_line = |line: &mut String| -> Result<(), Reply> {
        line.clear();
        let n = reader
            .by_ref()
            .take((MAX_HEAD - head_len.min(MAX_HEAD)) as u64 + 1)
            .read_line(line)
            .map_err(|e| read_error(&e, "the request head is not UTF-8 text"))?;
        head_len += n;
        if head_len > MAX_HEAD {
            return Err(Reply::error(431, "request head too large"));
        }
        if n == 0 {
            return Err(Reply::error(400, "the request ended early"));
        }
        Ok(())
    };
    read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let (Some(method), Some(target), Some(version)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(Reply::error(400, "malformed request line"));
    };
    if !version.starts_with("HTTP/1.") {
        return Err(Reply::error(400, "HTTP/1.x only"));
    }
    let method = method.to_string();
    let (path, query_text) = target.split_once('?').unwrap_or((target, ""));
    let path = path.to_string();
    let query = parse_query(query_text)?;
    let mut length = 0usize;
    let mut headers = Vec::new();
    loop {
        read_line(&mut line)?;
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        let Some((name, value)) = l.split_once(':') else {
            return Err(Reply::error(400, "malformed header"));
        };
        if name.eq_ignore_ascii_case("content-length") {
            length = value
                .trim()
                .parse()
                .map_err(|_| Reply::error(400, "malformed Content-Length"))?;
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            return Err(Reply::error(
                400,
                "chunked bodies are not accepted; send Content-Length",
            ));
        }
        if headers.len() < 64 {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
    }
    if length > MAX_BODY {
        return Err(Reply::error(413, &format!("request body over {MAX_BODY} bytes")));
    }
    let mut body = vec![0; length];
    reader
        .read_exact(&mut body)
        .map_err(|e| read_error(&e, "the body is shorter than Content-Length"))?;
    Ok(Request {
        method,
        path,
        query,
        headers,
        body,
    })
}
