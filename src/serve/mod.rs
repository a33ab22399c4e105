//! `menagerie serve`: every game in a browser. One page compiled into the binary, a JSON API
//! (`docs/serve.md`), a bounded set of games in memory. Connection threads only read and
//! change game state; searches run on the engine thread, table games on their referee
//! threads.

mod boards;
mod engine;
mod http;
mod playtests;
mod tables;

use crate::games::Catalog;
use crate::kit;
use boards::Board;
use engine::Engine;
use http::{Reply, Request};
use playtests::Playtest;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};
use tables::Room;

/// Most games (boards and tables) held in memory.
pub const MAX_GAMES: usize = 64;
/// A game is held while a page with one of its secret tokens asks for it; this long after the
/// last such request nobody holds it, and it may make room for a new one.
pub const HOLD: Duration = Duration::from_secs(60);
/// A new game is held this long before any page has opened it.
pub const GRACE: Duration = Duration::from_secs(5);
/// Connections still sending their request, from one address, before the oldest of them is
/// cut: a client that sends slowly cannot keep others out.
pub const MAX_SLOW_PER_ADDRESS: usize = 8;
/// Most connections served at once. Past half of it, polls answer at once instead of waiting,
/// so that open pages cannot crowd out moves.
pub const MAX_CONNECTIONS: usize = 64;
/// Longest wait of a polling request.
const POLL: Duration = Duration::from_secs(20);

const INDEX: &str = include_str!("page/index.html");
/// The page's script: its parts in order, one classic script.
const SCRIPT: &str = concat!(
    include_str!("page/common.js"),
    include_str!("page/lobby.js"),
    include_str!("page/board.js"),
    include_str!("page/table.js"),
    include_str!("page/playtest.js"),
    include_str!("page/main.js"),
);
const STYLE: &str = include_str!("page/style.css");

enum Game {
    Board(Arc<Mutex<Board>>),
    Table(Arc<Mutex<Room>>),
}

struct Entry {
    game: Game,
    /// Until when someone holds it (see [`HOLD`]).
    held: Instant,
}

/// Everything the server holds.
struct Server {
    catalog: Catalog,
    games: Mutex<HashMap<String, Entry>>,
    playtest: Mutex<Option<(String, Arc<Mutex<Playtest>>)>>,
    engine: Engine,
    /// Notified on every change, so that polling requests wake.
    pulse: Arc<(Mutex<u64>, Condvar)>,
    /// Connections being served.
    open: Arc<AtomicUsize>,
    /// The port and the host name the server was started with: requests must name them.
    port: u16,
    host: String,
    /// Table games take a seed from the page even with several person seats (tests).
    any_seed: bool,
    /// Connections still reading their request: their address, since when, and a handle to
    /// cut them.
    reading: Mutex<Vec<Reading>>,
    next_conn: AtomicUsize,
}

/// A connection still reading its request.
struct Reading {
    id: usize,
    addr: std::net::IpAddr,
    since: Instant,
    stream: TcpStream,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Wakes every polling request.
fn wake(pulse: &(Mutex<u64>, Condvar)) {
    *lock(&pulse.0) += 1;
    pulse.1.notify_all();
}

/// `menagerie serve [--port N] [--host ADDR] [--any-seed]`.
pub fn run(catalog: &Catalog, args: &[String]) -> Result<(), String> {
    let (host, port, any_seed) = options(args)?;
    let listener =
        TcpListener::bind((host.as_str(), port)).map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    println!("menagerie serve: open http://{addr}/");
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let open = Arc::new(AtomicUsize::new(0));
    let server = Arc::new(Server {
        catalog: catalog.clone(),
        games: Mutex::new(HashMap::new()),
        playtest: Mutex::new(None),
        engine: Engine::start(),
        pulse: Arc::new((Mutex::new(0), Condvar::new())),
        open: Arc::clone(&open),
        port: addr.port(),
        host: host.clone(),
        any_seed,
        reading: Mutex::new(Vec::new()),
        next_conn: AtomicUsize::new(1),
    });
    for stream in listener.incoming().flatten() {
        accept(&server, &open, stream);
    }
    Ok(())
}

/// `serve`'s options: the host, the port and whether any seed is allowed.
fn options(args: &[String]) -> Result<(String, u16, bool), String> {
    let mut host = "127.0.0.1".to_string();
    let mut port = 8080u16;
    let mut any_seed = false;
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--any-seed" {
            any_seed = true;
            i += 1;
            continue;
        }
        let value = args.get(i + 1).ok_or(format!("{} needs a value", args[i]))?;
        match args[i].as_str() {
            "--port" => {
                port = value
                    .parse()
                    .map_err(|_| format!("--port: not a port number: {value}"))?
            }
            "--host" => host = value.clone(),
            other => {
                return Err(format!(
                    "serve: unknown option '{other}' (known: --port N, --host ADDR, --any-seed)"
                ));
            }
        }
        i += 2;
    }
    Ok((host, port, any_seed))
}

/// Serves a new connection on its own thread, unless the server stays full.
fn accept(server: &Arc<Server>, open: &Arc<AtomicUsize>, mut stream: TcpStream) {
    let addr = stream
        .peer_addr()
        .map_or(std::net::IpAddr::from([0, 0, 0, 0]), |a| a.ip());
    make_room(server, addr);
    // Connections just cut end within moments: give them that before refusing.
    let full_since = Instant::now();
    while open.load(Ordering::SeqCst) >= MAX_CONNECTIONS && full_since.elapsed() < Duration::from_millis(200) {
        std::thread::sleep(Duration::from_millis(5));
    }
    if open.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
        http::refuse(&mut stream, &Reply::error(503, "too many connections; try again"));
        return;
    }
    // Noted as reading here, before its thread starts, so that the next connection's
    // `make_room` counts it.
    let id = server.next_conn.fetch_add(1, Ordering::SeqCst);
    if let Ok(handle) = stream.try_clone() {
        lock(&server.reading).push(Reading {
            id,
            addr,
            since: Instant::now(),
            stream: handle,
        });
    }
    open.fetch_add(1, Ordering::SeqCst);
    let server2 = Arc::clone(server);
    let open2 = Arc::clone(open);
    let spawned = std::thread::Builder::new().name("http".into()).spawn(move || {
        serve_one(&server2, stream, id);
        open2.fetch_sub(1, Ordering::SeqCst);
    });
    if spawned.is_err() {
        lock(&server.reading).retain(|r| r.id != id);
        open.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Before a new connection from `addr`: cuts the oldest connection of that address still
/// sending its request when it has [`MAX_SLOW_PER_ADDRESS`] of them, and when the server is full
/// the oldest one of anyone's that has been at it for a second. A request sent whole takes a
/// few milliseconds, so only slow senders are cut.
fn make_room(server: &Server, addr: std::net::IpAddr) {
    let mut reading = lock(&server.reading);
    let cut = |pick: Option<usize>, reading: &mut Vec<Reading>| {
        if let Some(i) = pick {
            let r = reading.swap_remove(i);
            let _ = r.stream.shutdown(std::net::Shutdown::Both);
        }
    };
    let oldest_of = |reading: &Vec<Reading>, f: &dyn Fn(&Reading) -> bool| {
        reading
            .iter()
            .enumerate()
            .filter(|(_, r)| f(r))
            .min_by_key(|(_, r)| r.since)
            .map(|(i, _)| i)
    };
    if reading.iter().filter(|r| r.addr == addr).count() >= MAX_SLOW_PER_ADDRESS {
        let i = oldest_of(&reading, &|r| r.addr == addr);
        cut(i, &mut reading);
    }
    if server.open.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
        let i = oldest_of(&reading, &|r| r.since.elapsed() >= Duration::from_secs(1));
        cut(i, &mut reading);
    }
}

/// Serves connection `id` (noted as reading by the acceptor): reads its request, answers it.
fn serve_one(server: &Arc<Server>, mut stream: TcpStream, id: usize) {
    let request = http::read_request(&stream);
    lock(&server.reading).retain(|r| r.id != id);
    let reply = match request {
        Ok(req) => {
            // A panic in a handler is a bug; the page gets an error, the server goes on.
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| route(server, &req)))
                .unwrap_or_else(|_| Reply::error(500, "internal error"))
        }
        Err(reply) => reply,
    };
    http::send(&mut stream, &reply);
}

/// Refuses requests another web site could make from the user's browser: a page served from
/// elsewhere (or a name rebound to 127.0.0.1) sends another Host, and a POST it can send
/// without asking first cannot be `application/json`.
fn foreign(server: &Server, req: &Request) -> Option<Reply> {
    let host = req.header("host").unwrap_or("");
    let (name, port) = match host.rsplit_once(':') {
        Some((n, p)) if !n.is_empty() && !p.contains(']') => (n, p.parse::<u16>().ok()),
        _ => (host, Some(80)),
    };
    // A rebound DNS name is the attack; an address written as such, `localhost` or the name
    // the server was started with is this server.
    let ours = port == Some(server.port)
        && (name
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<std::net::IpAddr>()
            .is_ok()
            || name.eq_ignore_ascii_case("localhost")
            || name.eq_ignore_ascii_case(&server.host));
    if !ours {
        return Some(Reply::error(
            403,
            "this server answers requests for its own address only",
        ));
    }
    if req.method == "POST"
        && !req
            .header("content-type")
            .is_some_and(|t| t.to_ascii_lowercase().starts_with("application/json"))
    {
        return Some(Reply::error(415, "POST bodies must be Content-Type: application/json"));
    }
    // A browser names the page that sends a POST: only this server's own pages may.
    if req.method == "POST"
        && let Some(origin) = req.header("origin")
        && !origin.eq_ignore_ascii_case(&format!("http://{host}"))
    {
        return Some(Reply::error(403, "a POST from another origin is refused"));
    }
    None
}

fn route(server: &Arc<Server>, req: &Request) -> Reply {
    let parts: Vec<&str> = req.path.split('/').filter(|p| !p.is_empty()).collect();
    let get = req.method == "GET";
    let post = req.method == "POST";
    if !get && !post {
        return Reply::error(405, "GET or POST only");
    }
    if let Some(refusal) = foreign(server, req) {
        return refusal;
    }
    let result = match (get, parts.as_slice()) {
        (true, []) | (true, ["index.html"]) => Ok(Reply::file("text/html", INDEX)),
        (true, ["app.js"]) => Ok(Reply::file("text/javascript", SCRIPT)),
        (true, ["style.css"]) => Ok(Reply::file("text/css", STYLE)),
        (true, ["api", "catalog"]) => Ok(catalog(server)),
        (true, ["api", "table-info"]) => table_info(req),
        (false, ["api", "boards"]) => new_board(server, req),
        (true, ["api", "boards", id]) => board_view(server, id, None, req),
        (true, ["api", "boards", id, token]) => board_view(server, id, Some(token), req),
        (false, ["api", "boards" | "tables", id, "invite", code]) => redeem(server, id, code),
        (false, ["api", "boards", id, token, op]) => board_op(server, id, token, op, req),
        (false, ["api", "tables"]) => new_table(server, req),
        (true, ["api", "tables", id, "seat", token]) => seat_view(server, id, token, req),
        (false, ["api", "tables", id, "seat", token, op]) => seat_op(server, id, token, op, req),
        (false, ["api", "playtests"]) => new_playtest(server, req),
        (true, ["api", "playtests", id]) => playtest_view(server, id),
        (true, ["api", "playtests", id, "report"]) => playtest_report(server, id),
        (false, ["api", "playtests", id, "stop"]) => playtest_stop(server, id),
        _ => Err(Reply::error(404, "no such page or API call")),
    };
    result.unwrap_or_else(|e| e)
}

fn catalog(server: &Server) -> Reply {
    let variants: Vec<Value> = server
        .catalog
        .variants
        .iter()
        .map(|v| {
            json!({
                "name": v.name,
                "files": v.geometry.files(),
                "ranks": v.geometry.ranks(),
                "hidden": hides_board(v),
            })
        })
        .collect();
    let tables: Vec<Value> = kit::infos()
        .iter()
        .map(|info| {
            let settings: Vec<Value> = info
                .settings
                .iter()
                .map(|s| json!({ "key": s.key, "choices": s.choices, "default": s.default, "about": s.about }))
                .collect();
            json!({
                "name": info.name,
                "title": info.title,
                "about": format!("{} ({})", info.title, info.about),
                "seats": info.seats[0],
                "settings": settings,
            })
        })
        .collect();
    // The engine's strength levels (UCI_Elo) the lobby offers, every 200 Elo.
    let levels: Vec<u32> = (crate::search::MIN_ELO..=crate::search::MAX_ELO).step_by(200).collect();
    Reply::json(&json!({ "variants": variants, "tables": tables, "levels": levels }))
}

/// A game's settings from the page's `key=value` words.
fn settings_of(text: &str) -> Result<crate::table::Settings, String> {
    let words: Vec<String> = text.split_whitespace().map(String::from).collect();
    crate::table::parse_settings(&words)
}

/// The request's `seed`: `None` when absent or null, an error unless a whole number.
fn seed_of(req: &Value) -> Result<Option<u64>, String> {
    match req.get("seed") {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_f64() {
            Some(s) if s >= 0.0 && s.fract() == 0.0 && s < 9e15 => Ok(Some(s as u64)),
            _ => Err("seed: a whole number from 0".into()),
        },
    }
}

/// True for a variant of hidden information: it is played as a table game.
fn hides_board(game: &crate::games::AnyGame) -> bool {
    game.caps().contains(crate::Capabilities::HIDDEN_INFORMATION)
}

fn table_info(req: &Request) -> Result<Reply, Reply> {
    let game = req.param("game").ok_or_else(|| Reply::error(400, "game= is missing"))?;
    let settings = settings_of(req.param("settings").unwrap_or("")).map_err(|e| Reply::error(400, &e))?;
    let t = kit::new_table(game, &settings).map_err(|e| Reply::error(400, &e))?;
    let roles: Vec<Vec<&str>> = (0..t.seats()).map(|i| t.roles(i)).collect();
    Ok(Reply::json(&json!({ "seats": t.seats(), "roles": roles })))
}

/// Makes room for one more game: when full, the game nobody has held longest goes (no page with
/// one of its tokens has asked for it within [`HOLD`]); refused when every game is held.
fn admit(games: &mut HashMap<String, Entry>) -> Result<(), Reply> {
    if games.len() < MAX_GAMES {
        return Ok(());
    }
    let now = Instant::now();
    let loose = games
        .iter()
        .filter(|(_, e)| e.held <= now)
        .min_by_key(|(_, e)| e.held)
        .map(|(k, _)| k.clone());
    match loose {
        Some(k) => {
            games.remove(&k);
            Ok(())
        }
        None => Err(Reply::error(
            503,
            &format!(
                "{MAX_GAMES} games are being played; try again when one is left for {} s",
                HOLD.as_secs()
            ),
        )),
    }
}

/// A game's id: its kind's letter and 64 random bits (ids are not guessed one from another).
fn new_id(prefix: &str) -> String {
    format!("{prefix}{}", &tables::token()[..16])
}

/// The reply to a new game: its id, the creator's own place and token, and one invitation
/// per other person place.
fn created_reply(id: &str, own: Option<(Value, String)>, invitations: Vec<(Value, String)>, key: &str) -> Reply {
    let (place, token) = match own {
        Some((place, token)) => (place, Some(token)),
        None => (Value::Null, None),
    };
    let invitations: Vec<Value> = invitations
        .into_iter()
        .map(|(place, code)| {
            let mut m = serde_json::Map::new();
            m.insert(key.into(), place);
            m.insert("code".into(), json!(code));
            Value::Object(m)
        })
        .collect();
    let mut reply = serde_json::Map::new();
    reply.insert("id".into(), json!(id));
    reply.insert(key.into(), place);
    reply.insert("token".into(), json!(token));
    reply.insert("invitations".into(), json!(invitations));
    Reply::json(&reply)
}

fn new_board(server: &Arc<Server>, req: &Request) -> Result<Reply, Reply> {
    let body = req.json()?;
    let name = body.get("variant").and_then(Value::as_str).unwrap_or("chess");
    let game = server
        .catalog
        .get(name)
        .ok_or_else(|| Reply::error(400, &format!("unknown variant '{name}'")))?;
    if hides_board(game) {
        return Err(Reply::error(
            400,
            &format!("{name} hides the board: start it as a table game"),
        ));
    }
    let mut board = Board::new(game, &body).map_err(|e| Reply::error(400, &e))?;
    let (own, invitations) = board.hand_out();
    let id = new_id("b");
    let board = Arc::new(Mutex::new(board));
    {
        let mut games = lock(&server.games);
        admit(&mut games)?;
        games.insert(
            id.clone(),
            Entry {
                game: Game::Board(Arc::clone(&board)),
                held: Instant::now() + GRACE,
            },
        );
    }
    start_engine(server, &board);
    let side = |c: crate::Color| json!(c.name().to_lowercase());
    Ok(created_reply(
        &id,
        own.map(|(c, t)| (side(c), t)),
        invitations.into_iter().map(|(c, code)| (side(c), code)).collect(),
        "side",
    ))
}

fn start_engine(server: &Arc<Server>, board: &Arc<Mutex<Board>>) {
    let s = Arc::clone(server);
    let b = Arc::clone(board);
    Board::engine_job(board, &server.engine, move || {
        wake(&s.pulse);
        // The engine may be to move again (both sides the engine).
        start_engine(&s, &b);
    });
}

/// The game `id`; `hold` marks it held (a page with one of its tokens asked).
fn find_game(server: &Server, id: &str, hold: bool) -> Result<Game, Reply> {
    let mut games = lock(&server.games);
    match games.get_mut(id) {
        Some(e) => {
            if hold {
                e.held = e.held.max(Instant::now() + HOLD);
            }
            Ok(match &e.game {
                Game::Board(b) => Game::Board(Arc::clone(b)),
                Game::Table(t) => Game::Table(Arc::clone(t)),
            })
        }
        None => Err(Reply::error(404, "no such game (it may have ended and been cleared)")),
    }
}

fn find_board(server: &Server, id: &str, hold: bool) -> Result<Arc<Mutex<Board>>, Reply> {
    match find_game(server, id, hold)? {
        Game::Board(b) => Ok(b),
        Game::Table(_) => Err(Reply::error(404, "no such board")),
    }
}

/// Waits until `version()` is past `since` or the poll time is up.
fn wait_for(server: &Server, since: Option<u64>, version: impl Fn() -> u64) {
    let Some(since) = since else { return };
    if server.open.load(Ordering::SeqCst) > MAX_CONNECTIONS / 2 {
        return;
    }
    let deadline = Instant::now() + POLL;
    let mut pulse = lock(&server.pulse.0);
    while version() <= since {
        let now = Instant::now();
        if now >= deadline {
            break;
        }
        pulse = server
            .pulse
            .1
            .wait_timeout(pulse, (deadline - now).min(Duration::from_millis(500)))
            .unwrap_or_else(|e| e.into_inner())
            .0;
    }
}

fn since(req: &Request) -> Result<Option<u64>, Reply> {
    req.param("since")
        .map(|s| {
            s.parse()
                .map_err(|_| Reply::error(400, "since= must be a version number"))
        })
        .transpose()
}

/// A board as a spectator (`token` `None`) or one side's player sees it.
fn board_view(server: &Arc<Server>, id: &str, token: Option<&str>, req: &Request) -> Result<Reply, Reply> {
    let board = find_board(server, id, false)?;
    let side = match token {
        Some(t) => {
            let side = lock(&board).side_of(t).ok_or_else(boards::wrong_token)?;
            // Only a player's own link holds the game.
            find_game(server, id, true)?;
            Some(side)
        }
        None => None,
    };
    wait_for(server, since(req)?, || lock(&board).poll_version());
    let v = lock(&board).view(id, side);
    Ok(Reply::json(&v))
}

fn board_op(server: &Arc<Server>, id: &str, token: &str, op: &str, req: &Request) -> Result<Reply, Reply> {
    let board = find_board(server, id, false)?;
    lock(&board).side_of(token).ok_or_else(boards::wrong_token)?;
    find_game(server, id, true)?;
    let body = req.json()?;
    let text = |k: &str| body.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let confirmed = body.get("confirm") == Some(&Value::Bool(true));
    let done = {
        let mut b = lock(&board);
        let side = b.side_of(token).ok_or_else(boards::wrong_token)?;
        match op {
            "move" => b.person_move(side, &text("move")),
            "undo" => b.take_back(side, confirmed),
            "resign" => b.resign(side, confirmed),
            "fen" => b.new_fen(side, &text("fen")),
            "pgn" => b.new_pgn(side, &text("pgn")),
            _ => return Err(Reply::error(404, "board operations: move, undo, resign, fen, pgn")),
        }
        .map(|_| side)
    };
    let side = done.map_err(boards::refused)?;
    wake(&server.pulse);
    start_engine(server, &board);
    let v = lock(&board).view(id, Some(side));
    Ok(Reply::json(&v))
}

/// Opens an invitation to a board or a table: the first time, the place's secret token; then
/// it is spent.
fn redeem(server: &Arc<Server>, id: &str, code: &str) -> Result<Reply, Reply> {
    let game = find_game(server, id, false)?;
    let (key, place, token) = match game {
        Game::Board(b) => {
            let (side, token) = lock(&b).redeem(code)?;
            ("side", json!(side.name().to_lowercase()), token)
        }
        Game::Table(t) => {
            let (seat, token) = lock(&t).redeem(code)?;
            ("seat", json!(seat), token)
        }
    };
    find_game(server, id, true)?;
    wake(&server.pulse);
    let mut reply = serde_json::Map::new();
    reply.insert(key.into(), place);
    reply.insert("token".into(), json!(token));
    Ok(Reply::json(&reply))
}

fn new_table(server: &Arc<Server>, req: &Request) -> Result<Reply, Reply> {
    let body = req.json()?;
    let pulse = Arc::clone(&server.pulse);
    let (room, own, invitations) =
        tables::create(&body, server.any_seed, Arc::new(move || wake(&pulse))).map_err(|e| Reply::error(400, &e))?;
    let id = new_id("t");
    let mut games = lock(&server.games);
    admit(&mut games)?;
    games.insert(
        id.clone(),
        Entry {
            game: Game::Table(room),
            held: Instant::now() + GRACE,
        },
    );
    drop(games);
    let seat = |i: usize| json!(i);
    Ok(created_reply(
        &id,
        own.map(|(i, t)| (seat(i), t)),
        invitations.into_iter().map(|(i, c)| (seat(i), c)).collect(),
        "seat",
    ))
}

/// The room and the seat a token opens; a wrong token reveals nothing about the game.
fn find_seat(server: &Server, id: &str, token: &str) -> Result<(Arc<Mutex<Room>>, usize), Reply> {
    let wrong = || Reply::error(403, "wrong seat link: ask the game's creator for an invitation");
    let room = match find_game(server, id, false)? {
        Game::Table(r) => r,
        Game::Board(_) => return Err(Reply::error(404, "no such game (it may have ended and been cleared)")),
    };
    let seat = lock(&room).seat_of(token).ok_or_else(wrong)?;
    find_game(server, id, true)?;
    Ok((room, seat))
}

fn seat_view(server: &Arc<Server>, id: &str, token: &str, req: &Request) -> Result<Reply, Reply> {
    let (room, seat) = find_seat(server, id, token)?;
    wait_for(server, since(req)?, || lock(&room).version(seat));
    let reply = Reply::json(&lock(&room).view(seat));
    Ok(reply)
}

fn seat_op(server: &Arc<Server>, id: &str, token: &str, op: &str, req: &Request) -> Result<Reply, Reply> {
    let (room, seat) = find_seat(server, id, token)?;
    let body = req.json()?;
    let text = |k: &str| body.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let ok = json!({ "ok": true });
    match op {
        "act" => {
            let ask = body.get("ask").and_then(Value::as_f64).map(|a| a as u64);
            let r = lock(&room).act(seat, &text("action"), &text("client"), ask);
            wake(&server.pulse);
            r.map(|_| Reply::json(&ok))
        }
        "claim" => {
            lock(&room).claim(seat, &text("client"))?;
            wake(&server.pulse);
            Ok(Reply::json(&ok))
        }
        "hint" => {
            let hint = {
                let mut r = lock(&room);
                if !r.hints() {
                    return Err(Reply::error(
                        400,
                        "hints are off at this table (its creator may turn them on for several people)",
                    ));
                }
                let hint = r
                    .hint_input(seat)
                    .ok_or_else(|| Reply::error(400, "a hint is for the seat that must act now"))?;
                r.set_hinting(seat, true)?;
                hint
            };
            let (tx, rx) = std::sync::mpsc::channel();
            let done = Arc::downgrade(&room);
            let cancelled = Arc::new(std::sync::atomic::AtomicBool::new(false));
            let cancel = Arc::clone(&cancelled);
            server.engine.run(
                String::new(),
                Box::new(move |_: &mut crate::search::Searcher| {
                    let r = if cancel.load(Ordering::SeqCst) {
                        Err("cancelled".into())
                    } else {
                        let run = std::panic::AssertUnwindSafe(|| hint.run());
                        std::panic::catch_unwind(run).unwrap_or_else(|_| Err("the engine failed".into()))
                    };
                    if let Some(room) = done.upgrade() {
                        let _ = lock(&room).set_hinting(seat, false);
                    }
                    let _ = tx.send(r);
                }),
            );
            match rx.recv_timeout(Duration::from_secs(60)) {
                Ok(Ok(a)) => Ok(Reply::json(&json!({ "action": a }))),
                Ok(Err(e)) => Err(Reply::error(400, &format!("no hint: {e}"))),
                Err(_) => {
                    // The job, when its turn comes, gives up at once and frees the seat's hint.
                    cancelled.store(true, Ordering::SeqCst);
                    Err(Reply::error(503, "the engine is busy; try again"))
                }
            }
        }
        _ => Err(Reply::error(404, "seat operations: act, claim, hint")),
    }
}

fn new_playtest(server: &Arc<Server>, req: &Request) -> Result<Reply, Reply> {
    let body = req.json()?;
    let mut current = lock(&server.playtest);
    if let Some((_, pt)) = &*current
        && !lock(pt).finished()
    {
        return Err(Reply::error(503, "a playtest is running; stop it or wait for it"));
    }
    let pt = playtests::start(&body).map_err(|e| Reply::error(400, &e))?;
    let id = new_id("p");
    *current = Some((id.clone(), pt));
    Ok(Reply::json(&json!({ "id": id })))
}

fn find_playtest(server: &Server, id: &str) -> Result<Arc<Mutex<Playtest>>, Reply> {
    match &*lock(&server.playtest) {
        Some((pid, pt)) if pid == id => Ok(Arc::clone(pt)),
        _ => Err(Reply::error(404, "no such playtest (only the last one is kept)")),
    }
}

fn playtest_view(server: &Arc<Server>, id: &str) -> Result<Reply, Reply> {
    let pt = find_playtest(server, id)?;
    let v = lock(&pt).view(id);
    Ok(Reply::json(&v))
}

/// The playtest's design report as a self-contained HTML page.
fn playtest_report(server: &Arc<Server>, id: &str) -> Result<Reply, Reply> {
    let pt = find_playtest(server, id)?;
    let page = lock(&pt).report();
    Ok(Reply {
        status: 200,
        kind: "text/html; charset=utf-8",
        body: page.into_bytes(),
    })
}

fn playtest_stop(server: &Arc<Server>, id: &str) -> Result<Reply, Reply> {
    let pt = find_playtest(server, id)?;
    lock(&pt).stop.store(true, Ordering::Relaxed);
    Ok(Reply::json(&json!({ "ok": true })))
}
