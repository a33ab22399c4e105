//! `menagerie serve` over real HTTP: the board API, bad input, and the traffic of the table
//! games' seats, which must carry nothing but that seat's observation, the public events and
//! its own question (checked against a replica game run with the same seed and actions).

use menagerie::kit;
use menagerie::table::{Actor, Table};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::Value as Json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A server on a free port, killed when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start() -> Server {
    start_with(&[])
}

fn start_with(extra: &[&str]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .args(["serve", "--port", "0"])
        .args(extra)
        .stdout(Stdio::piped())
        .spawn()
        .expect("menagerie starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("menagerie serve: open http://")
        .and_then(|a| a.strip_suffix('/'))
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_string();
    Server { child, addr }
}

/// Sends raw bytes; returns status and body.
fn raw(s: &Server, bytes: &[u8]) -> (u16, String) {
    let mut c = TcpStream::connect(&s.addr).unwrap();
    c.write_all(bytes).unwrap();
    let _ = c.shutdown(std::net::Shutdown::Write);
    let mut out = String::new();
    c.read_to_string(&mut out).unwrap();
    let status = out.split_whitespace().nth(1).and_then(|x| x.parse().ok()).unwrap_or(0);
    let body = out.split_once("\r\n\r\n").map_or("", |x| x.1).to_string();
    (status, body)
}

fn request(s: &Server, method: &str, path: &str, body: &str) -> (u16, Json) {
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        s.addr,
        body.len()
    );
    let (status, text) = raw(s, req.as_bytes());
    (
        status,
        serde_json::from_str::<Json>(&text).unwrap_or_else(|e| panic!("{path}: {e}: {text}")),
    )
}

fn get(s: &Server, path: &str) -> (u16, Json) {
    request(s, "GET", path, "")
}

fn post(s: &Server, path: &str, body: &str) -> (u16, Json) {
    request(s, "POST", path, body)
}

fn text(v: &Json, key: &str) -> String {
    v.get(key).and_then(Json::as_str).unwrap_or_default().to_string()
}

fn num(v: &Json, key: &str) -> f64 {
    v.get(key).and_then(Json::as_f64).unwrap_or(-1.0)
}

fn strings(v: Option<&Json>) -> Vec<String> {
    match v {
        Some(Json::Array(a)) => a.iter().filter_map(|x| x.as_str().map(String::from)).collect(),
        _ => Vec::new(),
    }
}

/// A new table's person-seat tokens in seat order: the creator's own, then each invitation
/// opened (once) as its player would.
fn seat_tokens(s: &Server, t: &Json) -> Vec<String> {
    let id = text(t, "id");
    let mut out = vec![(num(t, "seat") as usize, text(t, "token"))];
    let Some(Json::Array(inv)) = t.get("invitations") else {
        panic!("{t:?}")
    };
    for i in inv {
        let (st, r) = post(s, &format!("/api/tables/{id}/invite/{}", text(i, "code")), "{}");
        assert_eq!(st, 200, "{r:?}");
        assert_eq!(num(&r, "seat"), num(i, "seat"));
        out.push((num(i, "seat") as usize, text(&r, "token")));
    }
    out.sort();
    out.into_iter().map(|x| x.1).collect()
}

#[test]
fn a_board_game_against_the_engine_takes_moves_refuses_bad_ones_and_takes_back() {
    let s = start();
    let (st, b) = post(
        &s,
        "/api/boards",
        r#"{"variant":"chess","white":"person","black":"engine","engine_ms":50}"#,
    );
    assert_eq!(st, 200, "{b:?}");
    let id = text(&b, "id");
    let me = format!("/api/boards/{id}/{}", text(&b, "token"));
    let (_, v) = get(&s, &format!("/api/boards/{id}"));
    assert_eq!(strings(v.get("legal")).len(), 20);
    // An illegal move changes nothing.
    let (st, e) = post(&s, &format!("{me}/move"), r#"{"move":"e2e5"}"#);
    assert_eq!(st, 400);
    assert!(text(&e, "error").contains("e2e5"), "{e:?}");
    let (_, same) = get(&s, &format!("/api/boards/{id}"));
    assert_eq!(num(&same, "version"), num(&v, "version"));
    assert_eq!(text(&same, "fen"), text(&v, "fen"));
    // A legal move; the engine answers.
    let (st, _) = post(&s, &format!("{me}/move"), r#"{"move":"e2e4"}"#);
    assert_eq!(st, 200);
    let (_, after) = get(&s, &format!("/api/boards/{id}?since=2"));
    assert_eq!(strings(after.get("moves")).len(), 2, "{after:?}");
    assert_eq!(text(&after, "side"), "white");
    // The page's PGN: the players and the moves in SAN, read back to the same position.
    let pgn = text(&after, "pgn");
    assert!(
        pgn.contains("[White \"person\"]") && pgn.contains("[Black \"engine\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("\n1. e4 "), "{pgn}");
    let chess = menagerie::engine::new_session(menagerie::default_variants().get("chess").unwrap());
    let back = menagerie::engine::session_from_pgn(menagerie::default_variants(), &*chess, &pgn).unwrap();
    assert_eq!(back.fen(), text(&after, "fen"));
    // A broken FEN is refused and the game stays.
    let (st, _) = post(&s, &format!("{me}/fen"), r#"{"fen":"not a fen"}"#);
    assert_eq!(st, 400);
    let (_, still) = get(&s, &format!("/api/boards/{id}"));
    assert_eq!(strings(still.get("moves")).len(), 2);
    // Take-back returns to the person's turn at the start.
    let (st, back) = post(&s, &format!("{me}/undo"), r#"{"confirm":true}"#);
    assert_eq!(st, 200);
    assert!(strings(back.get("moves")).is_empty(), "{back:?}");
    assert!(text(&back, "fen").starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"));
    // A new game from a PGN: its moves become the game's (MMN), the position follows them.
    let pgn = r#"{"pgn":"[Event \"x\"]\n\n1. e4 {a comment} e5 2. Nf3 Nc6 *"}"#;
    let (st, g) = post(&s, &format!("{me}/pgn"), pgn);
    assert_eq!(st, 200, "{g:?}");
    assert_eq!(strings(g.get("moves")), ["e2e4", "e7e5", "g1f3", "b8c6"]);
    assert_eq!(
        text(&g, "fen"),
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    );
    // A PGN with an illegal move, or of another variant, changes nothing.
    for bad in [
        r#"{"pgn":"1. e4 e5 2. Ke3 *"}"#,
        r#"{"pgn":"[Variant \"losalamos\"]\n1. b3 *"}"#,
    ] {
        let (st, e) = post(&s, &format!("{me}/pgn"), bad);
        assert_eq!(st, 400, "{e:?}");
        assert!(text(&e, "error").starts_with("PGN"), "{e:?}");
    }
    let (_, still) = get(&s, &format!("/api/boards/{id}"));
    assert_eq!(strings(still.get("moves")).len(), 4);
}

#[test]
fn special_moves_reach_the_page_as_mmn() {
    let s = start();
    let (_, b) = post(&s, "/api/boards", r#"{"variant":"tensor"}"#);
    let id = text(&b, "id");
    let tensor_id = id.clone();
    let (_, v) = get(&s, &format!("/api/boards/{id}"));
    // The swap-like propel of the start position (protocol.md section 3).
    assert!(strings(v.get("legal")).contains(&"a1b1>a1".to_string()));
    let (st, after) = post(
        &s,
        &format!("/api/boards/{id}/{}/move", text(&b, "token")),
        r#"{"move":"a1b1>a1"}"#,
    );
    assert_eq!(st, 200, "{after:?}");
    // The swap: the beast on a1, the rook on b1 (protocol.md section 3), Black to move.
    let fen = text(&after, "fen");
    assert!(
        fen.starts_with("rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/TRNBQKBNTR b "),
        "{fen}"
    );
    let (_, b) = post(&s, "/api/boards", r#"{"variant":"chess911"}"#);
    let (_, v) = get(&s, &format!("/api/boards/{}", text(&b, "id")));
    assert!(strings(v.get("holes")).contains(&"b1".to_string()));
    assert_eq!(strings(v.get("marked")), vec!["f6".to_string()]);
    assert!(strings(v.get("legal")).contains(&"g2h2".to_string()), "the Rendezvous");
    // Remote Sensing's four bins, named by its rules module (rules/remote-sensing.md: owner,
    // then the colour of the capture square).
    let fen = "rnbfkebnr/2umdwv2/ppppppppp/9/9/9/PPPPPPPPP/2UMDWV2/RNBFKEBNR[N/R/-/p] w - - 0 1";
    let (st, b) = post(
        &s,
        "/api/boards",
        &format!(r#"{{"variant":"remotesensing","fen":"{fen}"}}"#),
    );
    assert_eq!(st, 200, "{b:?}");
    let (_, v) = get(&s, &format!("/api/boards/{}", text(&b, "id")));
    let Some(Json::Array(h)) = v.get("holdings") else {
        panic!("{v:?}")
    };
    let shown: Vec<(String, String, String)> = h
        .iter()
        .map(|x| (text(x, "label"), text(x, "owner"), text(x, "letters")))
        .collect();
    let want = [
        ("White, light", "white", "N"),
        ("White, dark", "white", "R"),
        ("Black, light", "black", ""),
        ("Black, dark", "black", "P"),
    ];
    let want: Vec<(String, String, String)> = want
        .iter()
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .collect();
    assert_eq!(shown, want);
    let (_, tensor) = get(&s, &format!("/api/boards/{tensor_id}"));
    assert_eq!(
        tensor.get("holdings"),
        Some(&Json::Array(Vec::new())),
        "Tensor holds nothing"
    );
}

#[test]
fn bad_requests_get_one_line_errors() {
    let s = start();
    let (st, _) = raw(&s, b"GARBAGE\r\n\r\n");
    assert_eq!(st, 400);
    let big = format!(
        "POST /api/boards HTTP/1.1\r\nContent-Length: 100000\r\n\r\n{}",
        "x".repeat(100)
    );
    assert_eq!(raw(&s, big.as_bytes()).0, 413);
    let long_head = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(20_000));
    assert_eq!(raw(&s, long_head.as_bytes()).0, 431);
    let (st, e) = post(&s, "/api/boards", r#"{"variant":"#);
    assert_eq!(st, 400);
    assert!(text(&e, "error").starts_with("the body is not JSON"));
    assert_eq!(post(&s, "/api/boards", r#"{"variant":"nope"}"#).0, 400);
    assert_eq!(get(&s, "/api/nothing").0, 404);
    assert_eq!(get(&s, "/api/boards/b999").0, 404);
    assert_eq!(request(&s, "DELETE", "/api/boards", "").0, 405);
    assert_eq!(
        post(&s, "/api/tables", r#"{"game":"telepathy","seats":["person"]}"#).0,
        400
    );
    assert_eq!(post(&s, "/api/playtests", r#"{"game":"parade","games":0}"#).0, 400);
    // Requests another web site could make from the user's browser: another Host, a POST
    // that is not JSON.
    let (st, _) = raw(&s, b"GET /api/catalog HTTP/1.1\r\nHost: evil.example:80\r\n\r\n");
    assert_eq!(st, 403);
    let port = s.addr.rsplit(':').next().unwrap();
    let evil = format!("GET /api/catalog HTTP/1.1\r\nHost: evil.example:{port}\r\n\r\n");
    assert_eq!(raw(&s, evil.as_bytes()).0, 403, "a rebound name");
    let local = format!("GET /api/catalog HTTP/1.1\r\nHost: localhost:{port}\r\n\r\n");
    assert_eq!(raw(&s, local.as_bytes()).0, 200);
    let form = format!(
        "POST /api/boards HTTP/1.1\r\nHost: {}\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{{}}",
        s.addr
    );
    assert_eq!(raw(&s, form.as_bytes()).0, 415);
    // The server is still there.
    assert_eq!(get(&s, "/api/catalog").0, 200);
    let home = format!("GET / HTTP/1.1\r\nHost: {}\r\n\r\n", s.addr);
    let (st, page) = raw(&s, home.as_bytes());
    assert_eq!(st, 200);
    assert!(page.contains("app.js"));
}

#[test]
fn games_in_memory_are_bounded_and_games_nobody_holds_make_room() {
    let s = start();
    let mut first = None;
    let mut ids = Vec::new();
    for i in 0..64 {
        let (st, b) = post(&s, "/api/boards", r#"{"variant":"losalamos"}"#);
        assert_eq!(st, 200, "game {i}: {b:?}");
        first.get_or_insert(format!("/api/boards/{}/{}", text(&b, "id"), text(&b, "token")));
        ids.push(text(&b, "id"));
    }
    // Every game is new (its players have a few seconds to open it): the next one is refused.
    let (st, e) = post(&s, "/api/boards", r#"{"variant":"losalamos"}"#);
    assert_eq!(st, 503);
    assert!(text(&e, "error").contains("64 games"), "{e:?}");
    assert_eq!(
        post(&s, "/api/tables", r#"{"game":"parade","seats":["person"]}"#).0,
        503
    );
    // The first game's player opens it; nobody opens the others, which then make room.
    // A wrong token, a junk invitation and the spectator's link hold nothing.
    let first = first.unwrap();
    assert_eq!(get(&s, &first).0, 200);
    let second = &ids[1];
    assert_eq!(get(&s, &format!("/api/boards/{second}/{}", "0".repeat(32))).0, 403);
    assert_eq!(post(&s, &format!("/api/boards/{second}/invite/junk"), "{}").0, 410);
    assert_eq!(get(&s, &format!("/api/boards/{second}")).0, 200);
    std::thread::sleep(Duration::from_millis(5500));
    assert_eq!(get(&s, &first).0, 200);
    for i in 0..63 {
        let (st, b) = post(&s, "/api/boards", r#"{"variant":"losalamos"}"#);
        assert_eq!(st, 200, "game {i}: {b:?}");
    }
    assert_eq!(get(&s, &first).0, 200, "a game someone holds stays");
    assert_eq!(get(&s, &format!("/api/boards/{second}")).0, 404, "nobody held it");
    assert_eq!(post(&s, "/api/boards", r#"{"variant":"losalamos"}"#).0, 503);
}

#[test]
fn a_seat_link_opens_only_its_seat_and_one_window_plays_it() {
    let s = start_with(&["--any-seed"]);
    let (_, t) = post(
        &s,
        "/api/tables",
        r#"{"game":"rbc","seats":["person","person"],"seed":5}"#,
    );
    let id = text(&t, "id");
    let tok = seat_tokens(&s, &t);
    assert_eq!(get(&s, &format!("/api/tables/{id}/seat/{}", "0".repeat(32))).0, 403);
    assert_eq!(get(&s, &format!("/api/tables/{id}/seat/")).0, 404);
    let wait_ask = || {
        let deadline = Instant::now() + Duration::from_secs(10);
        while get(&s, &format!("/api/tables/{id}/seat/{}", tok[0])).1.get("ask") == Some(&Json::Null) {
            assert!(Instant::now() < deadline, "White is never asked");
            std::thread::sleep(Duration::from_millis(5));
        }
    };
    wait_ask();
    let (_, v0) = get(&s, &format!("/api/tables/{id}/seat/{}", tok[0]));
    assert_eq!(num(&v0, "seat"), 0.0);
    let act = |client: &str, action: &str| {
        post(
            &s,
            &format!("/api/tables/{id}/seat/{}/act", tok[0]),
            &format!(r#"{{"action":"{action}","client":"{client}"}}"#),
        )
    };
    // Black cannot act for White; an illegal action is refused and claims nothing.
    let (st, _) = post(
        &s,
        &format!("/api/tables/{id}/seat/{}/act", tok[1]),
        r#"{"action":"sense e4","client":"b"}"#,
    );
    assert_eq!(st, 400);
    let (st, refused) = act("a", "e2e4");
    assert_eq!(st, 400);
    // The refusal says why, from the seat's own question.
    assert!(
        text(&refused, "error").starts_with("Error (illegal action: the question now is 'sense': sense a1, "),
        "{refused:?}"
    );
    // The window that acts holds the seat; a second window is told, and may take it over.
    let first = get(&s, &format!("/api/tables/{id}/seat/{}", tok[0])).1;
    let first_id = num(first.get("ask").unwrap(), "id");
    let (st, _) = act("z", "sense e4");
    assert_eq!(st, 200);
    wait_ask();
    // An answer to the question that has passed (a double click) is refused.
    let (st, e) = post(
        &s,
        &format!("/api/tables/{id}/seat/{}/act", tok[0]),
        &format!(r#"{{"action":"e2e4","client":"z","ask":{first_id}}}"#),
    );
    assert_eq!(st, 409, "{e:?}");
    assert!(text(&e, "error").contains("passed"));
    let (st, e) = act("a", "e2e4");
    assert_eq!(st, 409);
    assert!(text(&e, "error").contains("another window"));
    let (st, _) = post(
        &s,
        &format!("/api/tables/{id}/seat/{}/claim", tok[0]),
        r#"{"client":"a"}"#,
    );
    assert_eq!(st, 200);
    assert_eq!(act("z", "e2e4").0, 409);
    assert_eq!(act("a", "e2e4").0, 200);
}

#[test]
fn a_seed_is_taken_only_with_at_most_one_person_seat() {
    let s = start();
    let two = post(
        &s,
        "/api/tables",
        r#"{"game":"rbc","seats":["person","person"],"seed":5}"#,
    );
    assert_eq!(two.0, 400);
    assert!(text(&two.1, "error").contains("rebuild"), "{:?}", two.1);
    assert_eq!(
        post(
            &s,
            "/api/tables",
            r#"{"game":"rbc","seats":["person","person"],"seed":null}"#
        )
        .0,
        200
    );
    assert_eq!(
        post(
            &s,
            "/api/tables",
            r#"{"game":"rbc","seats":["person","engine"],"seed":5}"#
        )
        .0,
        200
    );
}

/// Keys a seat's view may have.
const VIEW_KEYS: &[&str] = &[
    "game",
    "seat",
    "seats",
    "roles",
    "players",
    "version",
    "observation",
    "fields",
    "events",
    "actor",
    "ask",
    "refused",
    "outcome",
    "hint",
];

/// Waits until the seat's view has an observation equal to `want` and, when `asking`, a
/// question (the referee thread applies actions on its own time).
fn view_when(s: &Server, path: &str, want: &str, asking: bool) -> Json {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (st, v) = get(s, path);
        assert_eq!(st, 200, "{v:?}");
        let ready = text(&v, "observation") == want && (!asking || !matches!(v.get("ask"), Some(Json::Null) | None));
        if ready || Instant::now() > deadline {
            return v;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Checks one seat's view against the replica: exactly its observation, the public events,
/// its own legal actions, nothing else.
fn check_view(v: &Json, replica: &dyn Table, seat: usize, events: &[String], game: &str) {
    let Json::Object(kv) = v else { panic!("not an object") };
    for (k, _) in kv {
        assert!(VIEW_KEYS.contains(&k.as_str()), "{game}: unexpected key {k}");
    }
    let obs = replica.observe(seat);
    assert_eq!(text(v, "observation"), obs, "{game} seat {seat}");
    let Some(Json::Array(fields)) = v.get("fields") else {
        panic!()
    };
    let joined: Vec<String> = fields.iter().map(|f| text(f, "text")).collect();
    assert_eq!(joined.join(" "), obs, "{game}: the fields are the observation");
    let shown = strings(v.get("events"));
    let tail = &events[events.len().saturating_sub(shown.len())..];
    assert_eq!(shown, tail, "{game}: public events");
    if let Some(ask) = v.get("ask").filter(|a| **a != Json::Null) {
        assert_eq!(
            replica.actor().to_string().split(' ').nth(1),
            Some(seat.to_string().as_str())
        );
        assert_eq!(
            strings(ask.get("actions")),
            replica.actions(),
            "{game}: its own actions"
        );
    }
    let truth = replica.state_text();
    if truth != obs {
        assert!(
            !v.to_string().contains(&truth),
            "{game}: the true state leaked to seat {seat}"
        );
    }
    for other in 0..replica.seats() {
        let theirs = replica.observe(other);
        if theirs != obs {
            assert!(
                !v.to_string().contains(&theirs),
                "{game}: seat {other}'s view leaked to seat {seat}"
            );
        }
    }
}

#[test]
fn every_seat_gets_its_observation_and_nothing_more() {
    let s = start_with(&["--any-seed"]);
    for game in kit::names() {
        let seed = 11;
        let mut replica = kit::new_table(game, &Vec::new()).unwrap();
        let n = replica.seats();
        let seats = vec!["\"person\""; n].join(",");
        let (st, t) = post(
            &s,
            "/api/tables",
            &format!(r#"{{"game":"{game}","seats":[{seats}],"seed":{seed},"hints":true}}"#),
        );
        assert_eq!(st, 200, "{game}: {t:?}");
        let id = text(&t, "id");
        let paths: Vec<String> = seat_tokens(&s, &t)
            .iter()
            .map(|tok| format!("/api/tables/{id}/seat/{tok}"))
            .collect();
        let mut rng = StdRng::seed_from_u64(seed);
        let mut events = Vec::new();
        for step in 0..40 {
            while replica.actor() == Actor::Chance {
                events.push(replica.draw_chance(&mut rng).unwrap().1);
            }
            let actor = match replica.actor() {
                Actor::Seat(i, _) => Some(i),
                _ => None,
            };
            for (seat, path) in paths.iter().enumerate() {
                let v = view_when(&s, path, &replica.observe(seat), actor == Some(seat));
                check_view(&v, replica.as_ref(), seat, &events, game);
            }
            let Some(i) = actor else { break };
            let actions = replica.actions();
            // The engine's hint, made from this seat's observations alone, is legal.
            let (st, h) = post(&s, &format!("{}/hint", paths[i]), "{}");
            assert_eq!(st, 200, "{game}: {h:?}");
            assert!(actions.contains(&text(&h, "action")), "{game}: hint {h:?}");
            let pick = actions[(step * 7 + 3) % actions.len()].clone();
            let (st, r) = post(
                &s,
                &format!("{}/act", paths[i]),
                &format!(r#"{{"action":"{pick}","client":"c{i}"}}"#),
            );
            assert_eq!(st, 200, "{game}: {pick}: {r:?}");
            events.push(replica.act(&pick).unwrap());
        }
    }
}

#[test]
fn a_playtest_runs_in_the_background_and_reports_each_game() {
    let s = start();
    let (st, p) = post(&s, "/api/playtests", r#"{"game":"parade","games":4,"seed":3}"#);
    assert_eq!(st, 200, "{p:?}");
    let id = text(&p, "id");
    assert_eq!(post(&s, "/api/playtests", r#"{"game":"parade","games":4}"#).0, 503);
    let deadline = Instant::now() + Duration::from_secs(60);
    let v = loop {
        let (_, v) = get(&s, &format!("/api/playtests/{id}"));
        if v.get("finished") == Some(&Json::Bool(true)) || Instant::now() > deadline {
            break v;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(num(&v, "done"), 4.0, "{v:?}");
    let Some(Json::Array(h)) = v.get("histograms") else {
        panic!()
    };
    let Some(Json::Array(values)) = h[0].get("values") else {
        panic!()
    };
    assert_eq!(values.len(), 4);
    // The design questions carry the figures with their 95 % intervals: the score's is its mean.
    let Some(Json::Array(qs)) = v.get("questions") else {
        panic!("{v:?}")
    };
    assert_eq!(text(&qs[0], "question"), "What does the player score?");
    let mean = values.iter().map(|x| x.as_f64().unwrap()).sum::<f64>() / 4.0;
    assert!((num(&qs[0], "value") - mean).abs() < 1e-9, "{qs:?}");
    assert!(num(&qs[0], "half") >= 0.0);
    // The same as a report page.
    let page = raw_reply(
        &s,
        &format!("GET /api/playtests/{id}/report HTTP/1.1\r\nHost: {}\r\n\r\n", s.addr),
    );
    assert!(page.starts_with("HTTP/1.1 200") && page.contains("text/html"), "{page}");
    assert!(page.contains("parade: design report") && page.contains("What does the player score?"));
    assert_eq!(get(&s, "/api/playtests/nosuch/report").0, 404);
    // The lobby's catalog lists each game's settings with their choices.
    let (_, cat) = get(&s, "/api/catalog");
    let Some(Json::Array(tables)) = cat.get("tables") else {
        panic!()
    };
    let parade = tables.iter().find(|t| text(t, "name") == "parade").unwrap();
    let Some(Json::Array(settings)) = parade.get("settings") else {
        panic!("{parade:?}")
    };
    assert_eq!(text(&settings[0], "key"), "open");
    assert_eq!(strings(settings[0].get("choices")), ["off", "on"]);
}

/// Sends a request and returns the whole reply: status line, headers and body.
fn raw_reply(s: &Server, req: &str) -> String {
    let mut c = TcpStream::connect(&s.addr).unwrap();
    c.write_all(req.as_bytes()).unwrap();
    let mut out = String::new();
    c.read_to_string(&mut out).unwrap();
    out
}

#[test]
fn the_creator_gets_one_seat_and_each_invitation_opens_its_seat_once() {
    let s = start();
    let (st, t) = post(&s, "/api/tables", r#"{"game":"rbc","seats":["person","person"]}"#);
    assert_eq!(st, 200, "{t:?}");
    let id = text(&t, "id");
    // The creator's own seat and one invitation: no other seat's token in the reply.
    assert_eq!(num(&t, "seat"), 0.0);
    assert!(t.get("links").is_none(), "{t:?}");
    let Some(Json::Array(inv)) = t.get("invitations") else {
        panic!("{t:?}")
    };
    assert_eq!(inv.len(), 1);
    assert_eq!(num(&inv[0], "seat"), 1.0);
    let code = text(&inv[0], "code");
    assert_eq!(
        get(&s, &format!("/api/tables/{id}/seat/{code}")).0,
        403,
        "a code is no token"
    );
    let mine = text(&t, "token");
    let (_, v) = get(&s, &format!("/api/tables/{id}/seat/{mine}"));
    assert_eq!(num(&v, "seat"), 0.0);
    // The invitation gives seat 1's token once; then it is spent.
    let (st, r) = post(&s, &format!("/api/tables/{id}/invite/{code}"), "{}");
    assert_eq!(st, 200, "{r:?}");
    let theirs = text(&r, "token");
    assert_ne!(theirs, mine);
    let (st, again) = post(&s, &format!("/api/tables/{id}/invite/{code}"), "{}");
    assert_eq!(st, 410, "{again:?}");
    assert!(text(&again, "error").contains("used"), "{again:?}");
    let (_, v) = get(&s, &format!("/api/tables/{id}/seat/{theirs}"));
    assert_eq!(num(&v, "seat"), 1.0);
    assert_eq!(
        post(&s, &format!("/api/tables/{id}/invite/{}", "0".repeat(32)), "{}").0,
        410
    );
    // With several people hints are off unless the creator turns them on.
    assert_eq!(v.get("hint"), Some(&Json::Bool(false)));
    let (st, e) = post(&s, &format!("/api/tables/{id}/seat/{mine}/hint"), "{}");
    assert_eq!(st, 400);
    assert!(text(&e, "error").contains("hints are off"), "{e:?}");
    let (_, t) = post(
        &s,
        "/api/tables",
        r#"{"game":"rbc","seats":["person","person"],"hints":true}"#,
    );
    let (_, v) = get(
        &s,
        &format!("/api/tables/{}/seat/{}", text(&t, "id"), text(&t, "token")),
    );
    assert_eq!(v.get("hint"), Some(&Json::Bool(true)));
    let (_, t) = post(&s, "/api/tables", r#"{"game":"rbc","seats":["person","engine"]}"#);
    let (_, v) = get(
        &s,
        &format!("/api/tables/{}/seat/{}", text(&t, "id"), text(&t, "token")),
    );
    assert_eq!(v.get("hint"), Some(&Json::Bool(true)), "one person: hints on");
}

#[test]
fn a_board_has_a_secret_link_per_side_and_a_spectators_link() {
    let s = start();
    let (_, b) = post(
        &s,
        "/api/boards",
        r#"{"variant":"chess","white":"person","black":"person"}"#,
    );
    let id = text(&b, "id");
    assert_eq!(text(&b, "side"), "white");
    assert!(
        id.len() == 17 && id.starts_with('b'),
        "an id not guessed from the last: {id}"
    );
    let white = format!("/api/boards/{id}/{}", text(&b, "token"));
    let Some(Json::Array(inv)) = b.get("invitations") else {
        panic!("{b:?}")
    };
    assert_eq!(text(&inv[0], "side"), "black");
    // The plain link watches: no moves, no take-back, no resign, no FEN.
    let (_, v) = get(&s, &format!("/api/boards/{id}"));
    assert_eq!(v.get("you"), Some(&Json::Null));
    for op in ["move", "undo", "resign", "fen"] {
        assert_eq!(
            post(&s, &format!("/api/boards/{id}/{op}"), r#"{"move":"e2e4"}"#).0,
            404,
            "{op}"
        );
    }
    assert_eq!(
        post(
            &s,
            &format!("/api/boards/{id}/{}/move", "0".repeat(32)),
            r#"{"move":"e2e4"}"#
        )
        .0,
        403
    );
    let (st, black) = post(&s, &format!("/api/boards/{id}/invite/{}", text(&inv[0], "code")), "{}");
    assert_eq!(st, 200);
    let black = format!("/api/boards/{id}/{}", text(&black, "token"));
    assert_eq!(get(&s, &black).1.get("you"), Some(&Json::String("black".into())));
    // Each side moves only itself.
    assert_eq!(post(&s, &format!("{black}/move"), r#"{"move":"e7e5"}"#).0, 400);
    assert_eq!(post(&s, &format!("{white}/move"), r#"{"move":"e2e4"}"#).0, 200);
    assert_eq!(post(&s, &format!("{white}/move"), r#"{"move":"d2d4"}"#).0, 400);
    assert_eq!(post(&s, &format!("{black}/move"), r#"{"move":"e7e5"}"#).0, 200);
    // A take-back is confirmed, asked of the other person, and done when they agree.
    assert_eq!(post(&s, &format!("{black}/undo"), "{}").0, 400);
    let (st, v) = post(&s, &format!("{black}/undo"), r#"{"confirm":true}"#);
    assert_eq!(st, 200);
    assert_eq!(v.get("takeback"), Some(&Json::String("black".into())));
    assert_eq!(strings(v.get("moves")).len(), 2, "not yet");
    let (st, v) = post(&s, &format!("{white}/undo"), r#"{"confirm":true}"#);
    assert_eq!(st, 200, "{v:?}");
    assert_eq!(strings(v.get("moves")), vec!["e2e4".to_string()]);
    // A new position with a person opposite is refused; so is resigning unconfirmed.
    assert_eq!(
        post(&s, &format!("{white}/fen"), r#"{"fen":"8/8/8/8/8/8/8/K6k w - - 0 1"}"#).0,
        400
    );
    assert_eq!(post(&s, &format!("{white}/resign"), "{}").0, 400);
    let (st, v) = post(&s, &format!("{white}/resign"), r#"{"confirm":true}"#);
    assert_eq!(st, 200);
    assert_eq!(text(v.get("result").unwrap(), "reason"), "White resigned");
    // After the end, no take-back.
    let (st, e) = post(&s, &format!("{black}/undo"), r#"{"confirm":true}"#);
    assert_eq!(st, 400);
    assert!(text(&e, "error").contains("no take-back"), "{e:?}");
}

#[test]
fn pages_cannot_be_framed_and_foreign_pages_cannot_post() {
    let s = start();
    let page = raw_reply(&s, &format!("GET / HTTP/1.1\r\nHost: {}\r\n\r\n", s.addr));
    assert!(
        page.contains("\r\nContent-Security-Policy: frame-ancestors 'none'\r\n"),
        "{page}"
    );
    assert!(page.contains("\r\nX-Frame-Options: DENY\r\n"), "{page}");
    let post_from = |origin: &str| {
        raw_reply(
            &s,
            &format!(
                "POST /api/boards HTTP/1.1\r\nHost: {}\r\nOrigin: {origin}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{{}}",
                s.addr
            ),
        )
    };
    let evil = post_from("http://evil.example");
    assert!(evil.starts_with("HTTP/1.1 403"), "{evil}");
    assert!(evil.contains("another origin"), "{evil}");
    let ours = post_from(&format!("http://{}", s.addr));
    assert!(ours.starts_with("HTTP/1.1 200"), "{ours}");
}

#[test]
fn slow_clients_do_not_keep_a_normal_one_out() {
    let s = start();
    // A hundred connections that send half a request head and then nothing.
    let mut slow = Vec::new();
    for _ in 0..100 {
        let mut c = TcpStream::connect(&s.addr).unwrap();
        let _ = c.write_all(b"GET /api/catalog HTTP/1.1\r\nHost: ");
        slow.push(c);
    }
    std::thread::sleep(Duration::from_millis(200));
    for round in 0..3 {
        let t = Instant::now();
        let (st, _) = get(&s, "/api/catalog");
        let took = t.elapsed();
        assert_eq!(st, 200, "round {round}");
        assert!(took < Duration::from_secs(1), "round {round}: {took:?}");
    }
    drop(slow);
}

#[test]
fn the_lobby_offers_strength_levels_and_a_board_plays_at_one() {
    let s = start();
    let (_, cat) = get(&s, "/api/catalog");
    let levels: Vec<f64> = match cat.get("levels") {
        Some(Json::Array(v)) => v.iter().filter_map(Json::as_f64).collect(),
        other => panic!("no levels: {other:?}"),
    };
    assert_eq!(levels.first(), Some(&f64::from(menagerie::search::MIN_ELO)));
    assert_eq!(levels.last(), Some(&f64::from(menagerie::search::MAX_ELO)));
    let (st, e) = post(
        &s,
        "/api/boards",
        r#"{"variant":"chess","white":"person","black":"engine","engine_level":5000}"#,
    );
    assert_eq!(st, 400);
    assert!(text(&e, "error").contains("engine_level"), "{e:?}");
    let (st, b) = post(
        &s,
        "/api/boards",
        r#"{"variant":"chess","white":"person","black":"engine","engine_level":1000}"#,
    );
    assert_eq!(st, 200, "{b:?}");
    let me = format!("/api/boards/{}/{}", text(&b, "id"), text(&b, "token"));
    let (_, view) = get(&s, &format!("/api/boards/{}", text(&b, "id")));
    assert_eq!(num(&view, "engine_level"), 1000.0);
    let (st, _) = post(&s, &format!("{me}/move"), r#"{"move":"e2e4"}"#);
    assert_eq!(st, 200);
    let (_, after) = get(&s, &format!("/api/boards/{}?since=2", text(&b, "id")));
    assert_eq!(strings(after.get("moves")).len(), 2, "{after:?}");
}

/// The move list the page browses (SAN with the FEN after each move, checked by replaying the
/// moves in a session of our own), the king in check, and clocks that start with the first move.
#[test]
fn a_board_reports_its_history_its_check_and_starts_its_clocks_at_the_first_move() {
    let s = start();
    let (st, b) = post(
        &s,
        "/api/boards",
        r#"{"variant":"chess","white":"person","black":"person","clock":{"minutes":1,"increment":0}}"#,
    );
    assert_eq!(st, 200, "{b:?}");
    let id = text(&b, "id");
    let white = format!("/api/boards/{id}/{}", text(&b, "token"));
    let Some(Json::Array(inv)) = b.get("invitations") else {
        panic!("{b:?}")
    };
    let (_, t) = post(&s, &format!("/api/boards/{id}/invite/{}", text(&inv[0], "code")), "{}");
    let black = format!("/api/boards/{id}/{}", text(&t, "token"));
    let clock = |v: &Json| {
        let c = v.get("clock").cloned().unwrap_or(Json::Null);
        (num(&c, "white_ms"), c.get("running").cloned().unwrap_or(Json::Null))
    };
    // Before the first move no clock runs, however long the players wait.
    std::thread::sleep(Duration::from_millis(1200));
    let (_, v) = get(&s, &format!("/api/boards/{id}"));
    assert_eq!(clock(&v), (60_000.0, Json::Null), "{v:?}");
    assert!(strings(v.get("check")).is_empty());
    let moves = ["e2e4", "f7f6", "d2d4", "g7g5", "d1h5"];
    for (i, m) in moves.iter().enumerate() {
        let me = if i % 2 == 0 { &white } else { &black };
        let (st, r) = post(&s, &format!("{me}/move"), &format!(r#"{{"move":"{m}"}}"#));
        assert_eq!(st, 200, "{m}: {r:?}");
        let side = if i % 2 == 0 { "black" } else { "white" };
        if i < 4 {
            assert_eq!(clock(&r).1, Json::String(side.into()), "after {m}: {r:?}");
        }
    }
    let (_, v) = get(&s, &format!("/api/boards/{id}"));
    // White's clock ran only while White thought after its first move: far from a minute gone;
    // once the game is over no clock runs.
    let (left, running) = clock(&v);
    assert!(left > 59_000.0 && left <= 60_000.0, "{v:?}");
    assert_eq!(running, Json::Null);
    assert_eq!(strings(v.get("check")), ["e8"]);
    assert_eq!(text(v.get("result").unwrap_or(&Json::Null), "result"), "1-0");
    let Some(Json::Array(history)) = v.get("history") else {
        panic!("{v:?}")
    };
    let sans: Vec<String> = history.iter().map(|h| text(h, "move")).collect();
    assert_eq!(sans, ["e4", "f6", "d4", "g5", "Qh5#"]);
    let mut replay = menagerie::engine::new_session(menagerie::default_variants().get("chess").unwrap());
    for (m, h) in moves.iter().zip(history) {
        replay.play_text(m, menagerie::engine::Notation::Mmn).unwrap();
        assert_eq!(text(h, "fen"), replay.fen());
    }
}

#[test]
fn a_table_seat_may_be_the_generic_mcts_player() {
    let s = start();
    let ok = post(
        &s,
        "/api/tables",
        r#"{"game":"splitbrain","seats":["person","mcts","engine","mcts"]}"#,
    );
    assert_eq!(ok.0, 200, "{:?}", ok.1);
    let bad = post(
        &s,
        "/api/tables",
        r#"{"game":"splitbrain","seats":["person","wizard","engine","mcts"]}"#,
    );
    assert_eq!(bad.0, 400);
    assert!(text(&bad.1, "error").contains("'mcts'"), "{:?}", bad.1);
}
