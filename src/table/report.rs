//! A playtest's design report: one self-contained HTML page (inline SVG, no script, no network)
//! that answers a game's design questions ([`GameInfo::questions`]) with each figure's
//! 95 % interval, one column per set of settings, then every figure and the spreads.

use super::GameInfo;
use super::playtest::{Summary, quantile};
use std::fmt::Write;

/// One column of the report: a playtest with one set of settings.
pub struct Column {
    /// The settings as words (`default` for none).
    pub label: String,
    /// Its games' tallies.
    pub summary: Summary,
}

/// A column's label for `settings`: their `key=value` words, or the rule book's when none.
pub fn settings_label(settings: &super::Settings) -> String {
    if settings.is_empty() {
        return "rule book (default settings)".into();
    }
    settings_words(settings)
}

/// Settings as `key=value` words, space-separated (empty when none).
pub fn settings_words(settings: &super::Settings) -> String {
    settings
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A figure (a tally key's mean per game, or a ratio's label) with its 95 % interval
/// half-width, or `None` when the run did not measure it.
pub fn figure(s: &Summary, key: &str, ratios: &[(&str, &str, &str)]) -> Option<(f64, f64)> {
    if let Some((_, num, den)) = ratios.iter().find(|r| r.0 == key) {
        return s.ratio(num, den).map(|(r, se, _)| (r, 1.96 * se));
    }
    let counted = ["result: ", "end: ", "ended: "].iter().any(|p| key.starts_with(p));
    if !counted && !s.keys().iter().any(|k| k == key) {
        return None;
    }
    let (m, se) = s.mean(key);
    Some((m, 1.96 * se))
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A horizontal bar for each column's value with its interval as a whisker, on one scale.
fn bars(values: &[Option<(f64, f64)>]) -> String {
    let known: Vec<(f64, f64)> = values.iter().flatten().copied().collect();
    let lo = known.iter().map(|(m, h)| m - h).fold(0.0_f64, f64::min);
    let hi = known.iter().map(|(m, h)| m + h).fold(0.0_f64, f64::max);
    let span = if hi > lo { hi - lo } else { 1.0 };
    let (w, row) = (320.0, 18.0);
    let x = |v: f64| 10.0 + (v - lo) / span * (w - 20.0);
    let mut svg = format!(
        r#"<svg width="{w}" height="{}" role="img">"#,
        row * values.len() as f64 + 4.0
    );
    let _ = write!(
        svg,
        r##"<line x1="{0}" y1="0" x2="{0}" y2="{1}" stroke="#888" stroke-width="1"/>"##,
        x(0.0),
        row * values.len() as f64 + 4.0
    );
    for (i, v) in values.iter().enumerate() {
        let Some((m, h)) = v else { continue };
        let y = 2.0 + row * i as f64;
        let (a, b) = (x(0.0).min(x(*m)), x(0.0).max(x(*m)));
        let _ = write!(
            svg,
            r##"<rect x="{a:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{}"/>"##,
            y + 3.0,
            (b - a).max(1.0),
            row - 8.0,
            COLOURS[i % COLOURS.len()]
        );
        let (l, r, c) = (x(m - h), x(m + h), y + row / 2.0 - 1.0);
        let _ = write!(
            svg,
            r##"<line x1="{l:.1}" y1="{c:.1}" x2="{r:.1}" y2="{c:.1}" stroke="#000"/><line x1="{l:.1}" y1="{:.1}" x2="{l:.1}" y2="{:.1}" stroke="#000"/><line x1="{r:.1}" y1="{:.1}" x2="{r:.1}" y2="{:.1}" stroke="#000"/>"##,
            c - 4.0,
            c + 4.0,
            c - 4.0,
            c + 4.0
        );
    }
    svg + "</svg>"
}

const COLOURS: [&str; 6] = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1"];

fn number(v: f64) -> String {
    if v.abs() >= 100.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.3}")
    }
}

/// A histogram of one key's values per column, as SVG bars (whole values, one bar each).
fn histogram(columns: &[Column], key: &str) -> String {
    let all: Vec<Vec<f64>> = columns.iter().map(|c| c.summary.values(key)).collect();
    let flat: Vec<f64> = all.iter().flatten().map(|v| v.floor()).collect();
    if flat.is_empty() {
        return String::new();
    }
    let lo = flat.iter().copied().fold(f64::INFINITY, f64::min) as i64;
    let hi = flat.iter().copied().fold(f64::NEG_INFINITY, f64::max) as i64;
    if hi - lo > 120 {
        return String::new();
    }
    let bins = (hi - lo + 1) as usize;
    let shares: Vec<Vec<f64>> = all
        .iter()
        .map(|vals| {
            let mut c = vec![0.0; bins];
            for v in vals {
                c[(v.floor() as i64 - lo) as usize] += 1.0;
            }
            let n = vals.len().max(1) as f64;
            c.into_iter().map(|x| x / n).collect()
        })
        .collect();
    let top = shares.iter().flatten().copied().fold(0.0, f64::max).max(1e-9);
    let (w, h) = (560.0, 120.0);
    let bw = w / bins as f64 / columns.len() as f64;
    let mut svg = format!(r#"<svg width="{w}" height="{}" role="img">"#, h + 16.0);
    for (ci, s) in shares.iter().enumerate() {
        for (b, share) in s.iter().enumerate() {
            let bh = share / top * h;
            let x = (b * columns.len() + ci) as f64 * bw;
            let _ = write!(
                svg,
                r#"<rect x="{x:.1}" y="{:.1}" width="{:.1}" height="{bh:.1}" fill="{}"><title>{} {}: {:.1} %</title></rect>"#,
                h - bh,
                (bw - 0.5).max(0.5),
                COLOURS[ci % COLOURS.len()],
                escape(&columns[ci].label),
                lo + b as i64,
                share * 100.0
            );
        }
    }
    let _ = write!(
        svg,
        r#"<text x="0" y="{}" font-size="11">{lo}</text><text x="{}" y="{}" font-size="11" text-anchor="end">{hi}</text></svg>"#,
        h + 13.0,
        w,
        h + 13.0
    );
    svg
}

/// The page's head and title, how it was made, and the key of the columns' colours.
fn page_head(game: &str, command: &str, columns: &[Column]) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{0}: design report</title>\
         <style>body{{font-family:sans-serif;max-width:980px;margin:1em auto;padding:0 1em}}\
         table{{border-collapse:collapse;margin:.5em 0}}td,th{{border:1px solid #ccc;padding:2px 6px;text-align:right}}\
         td:first-child,th:first-child{{text-align:left}}.na{{color:#888}}code{{background:#f4f4f4}}\
         .key span{{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px}}</style></head><body>\n\
         <h1>{0}: design report</h1>\n<p>Made by <code>{1}</code>. Each figure is a mean per game (a share for \
         results and ends) with its 95 % interval (1.96 standard errors over the games); the same seeds and \
         seats play every column.</p>\n<p class=\"key\">",
        escape(game),
        escape(command)
    );
    for (i, c) in columns.iter().enumerate() {
        let _ = write!(
            out,
            "<span style=\"background:{}\"></span>{} ({} games)",
            COLOURS[i % COLOURS.len()],
            escape(&c.label),
            c.summary.len()
        );
    }
    out
}

/// One section per spread: each column's quartiles and the histogram of all columns.
fn write_spreads(out: &mut String, columns: &[Column], spreads: &[&str]) {
    for &key in spreads {
        let svg = histogram(columns, key);
        if svg.is_empty() {
            continue;
        }
        let _ = writeln!(out, "<h2>{}</h2>", escape(key));
        for c in columns {
            let mut v = c.summary.values(key);
            v.sort_by(f64::total_cmp);
            if v.is_empty() {
                continue;
            }
            let _ = writeln!(
                out,
                "<p>{}: quartiles {} / {} / {}, from {} to {}</p>",
                escape(&c.label),
                number(quantile(&v, 0.25)),
                number(quantile(&v, 0.5)),
                number(quantile(&v, 0.75)),
                number(v[0]),
                number(v[v.len() - 1])
            );
        }
        *out += &svg;
        *out += "\n";
    }
}

/// The report page of `info`'s game. `command` is how it was made; the game's questions come
/// first, then every figure, then the histograms of its spreads and of `more_spreads`.
pub fn html(info: &GameInfo, command: &str, columns: &[Column], more_spreads: &[&str]) -> String {
    let (game, questions, ratios) = (info.name, info.questions, info.ratios);
    let spreads: Vec<&str> = info.histograms.iter().chain(more_spreads).copied().collect();
    let mut out = page_head(game, command, columns);
    out += "</p>\n<h2>The questions</h2>\n";
    let header: String = columns
        .iter()
        .map(|c| format!("<th>{}</th>", escape(&c.label)))
        .collect();
    let row = |key: &str| -> (String, Vec<Option<(f64, f64)>>) {
        let vals: Vec<Option<(f64, f64)>> = columns.iter().map(|c| figure(&c.summary, key, ratios)).collect();
        let cells: String = vals
            .iter()
            .map(|v| match v {
                Some((m, h)) => format!("<td>{} ± {}</td>", number(*m), number(*h)),
                None => "<td class=\"na\">not measured</td>".to_string(),
            })
            .collect();
        (cells, vals)
    };
    if questions.is_empty() {
        out += "<p>This game names no questions: every figure follows.</p>\n";
    } else {
        let _ = writeln!(
            out,
            "<table><tr><th>question</th><th>figure</th>{header}<th>95 % intervals</th></tr>"
        );
        for (q, key) in questions {
            let (cells, vals) = row(key);
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}</td>{cells}<td>{}</td></tr>",
                escape(q),
                escape(key),
                bars(&vals)
            );
        }
        out += "</table>\n";
    }
    out += "<h2>Every figure</h2>\n";
    let _ = writeln!(out, "<table><tr><th>figure</th>{header}</tr>");
    let mut keys: Vec<String> = Vec::new();
    for c in columns {
        for k in c.summary.keys() {
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
    }
    keys.extend(ratios.iter().map(|r| r.0.to_string()));
    for k in &keys {
        let _ = writeln!(out, "<tr><td>{}</td>{}</tr>", escape(k), row(k).0);
    }
    out += "</table>\n";
    write_spreads(&mut out, columns, &spreads);
    out += "</body></html>\n";
    out
}
