//! `chuhan serve` end to end: a server on a free loopback port, pages played through its
//! WebSocket API with a real WebSocket client, files fetched over plain HTTP.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use chuhan::Position;
use chuhan::serve::messages::{Ending, Mode, ScoreView, ServerMessage, Settings, Side};
use chuhan::serve::session::MAX_MESSAGE_BYTES;
use chuhan::serve::{ServeArgs, Server};
use chuhan::tools::pgn::reader::read_games;
use tungstenite::client::IntoClientRequest;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// Long enough for any reply; only a hung server reaches it.
const HANG: Duration = Duration::from_secs(120);

fn server(max_connections: usize, max_searches: usize) -> Server {
    Server::start(&ServeArgs {
        bind: "127.0.0.1".parse().unwrap(),
        port: 0,
        max_connections,
        max_searches: Some(max_searches),
        hash: 4,
    })
    .expect("the server starts")
}

/// A GET (or another method) over HTTP/1.1: the status code and the body.
fn http(server: &Server, method: &str, path: &str) -> (u16, String) {
    let mut s = TcpStream::connect(server.addr()).unwrap();
    s.set_read_timeout(Some(HANG)).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.addr()
    )
    .unwrap();
    let mut reply = String::new();
    s.read_to_string(&mut reply).unwrap();
    let status = reply[9..12].parse().unwrap();
    let body = reply.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, body.to_string())
}

struct Page(WebSocket<MaybeTlsStream<TcpStream>>);

#[derive(Debug)]
struct State {
    fen: String,
    moves: Vec<String>,
    legal: Vec<String>,
    ending: Option<Ending>,
    settings: Settings,
    thinking: bool,
}

impl Page {
    fn try_open(server: &Server) -> Result<Page, tungstenite::Error> {
        let (ws, _) = tungstenite::connect(format!("ws://{}/ws", server.addr()))?;
        Ok(Page::timed(ws))
    }

    fn timed(ws: WebSocket<MaybeTlsStream<TcpStream>>) -> Page {
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(HANG)).unwrap();
        }
        Page(ws)
    }

    /// Opens a page and reads the state every new page is sent.
    fn open(server: &Server) -> (Page, State) {
        let mut page = Page::try_open(server).expect("connects");
        let state = page.state();
        (page, state)
    }

    fn send(&mut self, json: &str) {
        self.0.send(Message::text(json)).unwrap();
    }

    fn next(&mut self) -> ServerMessage {
        loop {
            match self.0.read().expect("a message before the hang limit") {
                Message::Text(t) => return serde_json::from_str(t.as_str()).expect("valid JSON"),
                Message::Close(_) => panic!("the server closed the page"),
                _ => {}
            }
        }
    }

    /// Reads until a message `pick` accepts.
    fn until<T>(&mut self, mut pick: impl FnMut(ServerMessage) -> Option<T>) -> T {
        loop {
            if let Some(t) = pick(self.next()) {
                return t;
            }
        }
    }

    fn state(&mut self) -> State {
        self.until(as_state)
    }

    fn error(&mut self) -> String {
        self.until(|m| match m {
            ServerMessage::Error { message } => Some(message),
            m @ ServerMessage::State { .. } => panic!("a state instead of an error: {m:?}"),
            _ => None,
        })
    }

    fn settings(&mut self, mode: &str, movetime_ms: u64, multipv: usize) -> State {
        self.send(&format!(
            r#"{{"type":"settings","mode":"{mode}","side":"red","elo":null,"movetime_ms":{movetime_ms},"multipv":{multipv}}}"#
        ));
        self.state()
    }

    /// Reads states until one where the engine rests.
    fn settled(&mut self) -> State {
        loop {
            let s = self.state();
            if !s.thinking {
                return s;
            }
        }
    }
}

fn as_state(m: ServerMessage) -> Option<State> {
    match m {
        ServerMessage::State {
            fen,
            moves,
            legal,
            ending,
            settings,
            thinking,
            ..
        } => Some(State {
            fen,
            moves: moves.into_iter().map(|m| m.iccs).collect(),
            legal,
            ending,
            settings,
            thinking,
        }),
        _ => None,
    }
}

#[test]
fn the_page_and_only_its_files_are_served() {
    let s = server(2, 1);
    let (status, body) = http(&s, "GET", "/");
    assert_eq!(status, 200);
    assert!(body.contains(r#"<svg id="board""#), "{body}");
    let (status, body) = http(&s, "GET", "/app.js");
    assert_eq!(status, 200);
    assert!(body.contains("new WebSocket"));
    assert_eq!(http(&s, "GET", "/style.css").0, 200);
    for path in [
        "/nope",
        "/../Cargo.toml",
        "/src/serve/page/app.js",
        "/index.htm",
    ] {
        assert_eq!(http(&s, "GET", path).0, 404, "{path}");
    }
    assert_eq!(http(&s, "POST", "/").0, 405);
}

#[test]
fn a_new_page_gets_the_opening_position() {
    let s = server(2, 1);
    let (_page, state) = Page::open(&s);
    assert_eq!(state.fen, Position::startpos().to_fen());
    assert!(state.moves.is_empty());
    assert_eq!(state.legal.len(), 44);
    assert_eq!(state.settings.mode, Mode::Play);
    assert_eq!(state.settings.side, Side::Red);
    assert!(!state.thinking);
}

#[test]
fn a_move_by_the_person_gets_the_engines_reply() {
    let s = server(2, 1);
    let (mut page, _) = Page::open(&s);
    page.settings("play", 100, 1);
    page.send(r#"{"type":"move","move":"炮二平五"}"#);
    let after = page.state();
    assert_eq!(after.moves, ["h2e2"]);
    assert!(after.thinking, "chuhan thinks on its turn");
    let reply = page.until(|m| match m {
        ServerMessage::EngineMove { iccs, .. } => Some(iccs),
        _ => None,
    });
    let state = page.settled();
    assert_eq!(state.moves, ["h2e2".to_string(), reply.clone()]);
    let mut pos = Position::startpos();
    pos.do_move(pos.parse_move("h2e2").unwrap());
    assert!(pos.parse_move(&reply).is_ok(), "{reply} is legal");
    assert_eq!(state.legal.len(), {
        pos.do_move(pos.parse_move(&reply).unwrap());
        pos.legal_moves().len()
    });
}

#[test]
fn refused_input_leaves_the_game_as_it_was() {
    let s = server(2, 1);
    let (mut page, before) = Page::open(&s);
    let oversized = format!(
        r#"{{"type":"pgn","pgn":"{}"}}"#,
        "x".repeat(MAX_MESSAGE_BYTES)
    );
    let refused = [
        (r#"{"type":"move","move":"a0a5"}"#, "not legal"),
        (r#"{"type":"move","move":"z9z9"}"#, "z9z9"),
        (r#"{"type":"new","fen":"rnbakabnr/9/9 w"}"#, "bad FEN"),
        (r#"{"type":"pgn","pgn":"1. h2e2 h9h1"}"#, "bad PGN"),
        (r#"{"type":"pgn","pgn":"just words"}"#, "PGN"),
        ("{", "not a message"),
        (r#"{"type":"castle"}"#, "not a message"),
        (r#"{"type":"undo"}"#, "no move"),
        (
            r#"{"type":"settings","mode":"play","side":"red","elo":5,"movetime_ms":100,"multipv":1}"#,
            "Elo 5",
        ),
        (
            r#"{"type":"settings","mode":"play","side":"red","elo":null,"movetime_ms":1,"multipv":1}"#,
            "time per move",
        ),
        (
            r#"{"type":"settings","mode":"analyze","side":"red","elo":null,"movetime_ms":100,"multipv":99}"#,
            "lines",
        ),
        (&oversized, "over the limit"),
    ];
    for (text, said) in refused {
        page.send(text);
        let e = page.error();
        assert!(e.contains(said), "{text:.60}: {e}");
    }
    page.0.send(Message::binary(vec![1, 2, 3])).unwrap();
    assert!(page.error().contains("binary"));
    page.send(r#"{"type":"state"}"#);
    let after = page.state();
    assert_eq!(after.fen, before.fen);
    assert_eq!(after.moves, before.moves);
    assert_eq!(after.settings, before.settings);
}

#[test]
fn analysis_reports_each_line_as_it_deepens() {
    let s = server(2, 1);
    let (mut page, _) = Page::open(&s);
    assert!(page.settings("analyze", 100, 3).thinking);
    let mut best_at_depth: Vec<Vec<String>> = vec![Vec::new(); 3];
    let depth = page.until(|m| match m {
        ServerMessage::Info {
            depth,
            multipv,
            pv,
            pv_chinese,
            score,
            ..
        } => {
            assert!(!pv.is_empty() && pv_chinese.len() == pv.len(), "{pv:?}");
            if let ScoreView::Cp(cp) = score {
                assert!(cp.abs() < 1000, "the opening is about level: {cp}");
            }
            best_at_depth[multipv as usize - 1] = pv;
            let full = best_at_depth.iter().all(|l| !l.is_empty());
            (depth >= 6 && multipv == 3 && full).then_some(depth)
        }
        _ => None,
    });
    let first: Vec<&str> = best_at_depth.iter().map(|l| l[0].as_str()).collect();
    assert!(
        first[0] != first[1] && first[1] != first[2] && first[0] != first[2],
        "three different first moves at depth {depth}: {first:?}"
    );
    page.send(r#"{"type":"stop"}"#);
    assert!(!page.settled().thinking);
    assert!(s.searches().wait_at_most(0, HANG));
}

#[test]
fn undo_takes_back_the_engines_move_and_yours() {
    let s = server(2, 1);
    let (mut page, start) = Page::open(&s);
    page.settings("play", 50, 1);
    page.send(r#"{"type":"move","move":"h2e2"}"#);
    let state = page.until(|m| as_state(m).filter(|s| s.moves.len() == 2 && !s.thinking));
    assert_eq!(state.moves[0], "h2e2");
    page.send(r#"{"type":"undo"}"#);
    let back = page.state();
    assert!(back.moves.is_empty());
    assert_eq!(back.fen, start.fen);
    assert!(!back.thinking, "the person is to move again");
}

#[test]
fn a_game_goes_out_as_pgn_and_comes_back() {
    let s = server(2, 1);
    let (mut page, _) = Page::open(&s);
    page.settings("play", 50, 1);
    page.send(r#"{"type":"pgn","pgn":"[Game \"Chinese Chess\"]\n\n1. 炮二平五 马8进7 2. 马二进三 车9平8 *\n"}"#);
    let loaded = page.state();
    assert_eq!(loaded.moves, ["h2e2", "h9g7", "h0g2", "i9h9"]);
    page.send(r#"{"type":"export_pgn"}"#);
    let pgn = page.until(|m| match m {
        ServerMessage::Pgn { pgn } => Some(pgn),
        _ => None,
    });
    let (games, problems) = read_games(&pgn);
    assert!(problems.is_empty(), "{problems:?}");
    let moves: Vec<String> = games[0].moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(moves, loaded.moves, "{pgn}");
    assert!(pgn.contains("炮二平五"));
}

#[test]
fn the_referee_ends_the_game() {
    let s = server(2, 1);
    let (mut page, _) = Page::open(&s);
    page.settings("play", 50, 1);
    page.send(r#"{"type":"new","fen":"3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1"}"#);
    assert!(!page.state().legal.is_empty());
    page.send(r#"{"type":"move","move":"b0b9"}"#);
    let over = page.state();
    let ending = over.ending.expect("the game is over");
    assert_eq!(ending.result, "1-0");
    assert_eq!(ending.reason, "checkmate");
    assert!(over.legal.is_empty() && !over.thinking);
    page.send(r#"{"type":"move","move":"a8a7"}"#);
    assert!(page.error().contains("over"));
    page.send(r#"{"type":"export_pgn"}"#);
    let pgn = page.until(|m| match m {
        ServerMessage::Pgn { pgn } => Some(pgn),
        _ => None,
    });
    assert!(
        pgn.contains("[Result \"1-0\"]") && pgn.contains("checkmate"),
        "{pgn}"
    );
}

#[test]
fn pages_beyond_the_limit_are_refused_until_one_closes() {
    let s = server(1, 1);
    let (mut first, _) = Page::open(&s);
    match Page::try_open(&s) {
        Err(tungstenite::Error::Http(r)) => assert_eq!(r.status(), 503),
        other => panic!("a second page was let in: {:?}", other.map(|_| ())),
    }
    first.0.close(None).unwrap();
    assert!(s.connections().wait_at_most(0, HANG));
    Page::open(&s);
}

#[test]
fn another_sites_page_is_refused() {
    let s = server(2, 1);
    let mut request = format!("ws://{}/ws", s.addr())
        .into_client_request()
        .unwrap();
    request
        .headers_mut()
        .insert("Origin", "http://example.com".parse().unwrap());
    match tungstenite::connect(request) {
        Err(tungstenite::Error::Http(r)) => assert_eq!(r.status(), 403),
        other => panic!("another site's page was let in: {:?}", other.map(|_| ())),
    }
    let mut own = format!("ws://{}/ws", s.addr())
        .into_client_request()
        .unwrap();
    own.headers_mut()
        .insert("Origin", format!("http://{}", s.addr()).parse().unwrap());
    let (ws, _) = tungstenite::connect(own).expect("the page's own origin is let in");
    Page::timed(ws).state();
}

#[test]
fn searches_are_limited_and_a_closed_page_stops_its_search() {
    let s = server(3, 1);
    let (mut a, _) = Page::open(&s);
    let (mut b, _) = Page::open(&s);
    assert!(a.settings("analyze", 100, 1).thinking);
    b.send(r#"{"type":"settings","mode":"analyze","side":"red","elo":null,"movetime_ms":100,"multipv":1}"#);
    assert!(b.error().contains("busy"));
    assert!(!b.state().thinking);
    assert_eq!(s.searches().used(), 1);
    a.0.close(None).unwrap();
    assert!(
        s.searches().wait_at_most(0, HANG),
        "the closed page's search stopped"
    );
    b.send(r#"{"type":"go"}"#);
    assert!(b.state().thinking);
}
