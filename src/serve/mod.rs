//! `chuhan serve`: a board in the browser for play and analysis. One page and a WebSocket API
//! (`messages`), served from the binary itself on loopback by default. HTTP and WebSocket are
//! axum's (hyper and tungstenite underneath) on a single-threaded tokio runtime: the page's
//! traffic is light, and the engines search on their own threads. Each open page gets a
//! `session` with its own engine; `slots` bound the open pages and the searches at once.

pub mod messages;
mod page;
pub mod session;
pub mod slots;

use std::io;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;

use axum::Router;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tokio::sync::{mpsc, oneshot};

use session::{Input, MAX_MESSAGE_BYTES, SessionConfig};
use slots::{Slot, Slots};

#[derive(clap::Args, Clone, Debug)]
pub struct ServeArgs {
    /// The address to listen on (loopback by default: the page is for this machine).
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// The port (0: any free one; the address is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Pages open at once; more are refused.
    #[arg(long, default_value_t = 8)]
    pub max_connections: usize,
    /// Searches running at once over all pages [default: the machine's cores].
    #[arg(long)]
    pub max_searches: Option<usize>,
    /// Hash table of each page's engine, in MB.
    #[arg(long, default_value_t = 32)]
    pub hash: usize,
}

/// A message over this is refused by the WebSocket layer itself (the connection closes);
/// below it, the session refuses messages over `MAX_MESSAGE_BYTES` with a message.
const FRAME_LIMIT_BYTES: usize = 16 * MAX_MESSAGE_BYTES;

struct App {
    connections: Arc<Slots>,
    session: SessionConfig,
}

/// A running server: it serves until dropped.
pub struct Server {
    addr: SocketAddr,
    app: Arc<App>,
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<io::Result<()>>>,
}

impl Server {
    /// Binds and starts serving on a thread of its own.
    pub fn start(args: &ServeArgs) -> io::Result<Server> {
        let listener = std::net::TcpListener::bind((args.bind, args.port))?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let app = Arc::new(App {
            connections: Slots::new(args.max_connections.max(1)),
            session: SessionConfig {
                searches: Slots::new(args.max_searches.unwrap_or(cores).max(1)),
                hash_mb: args.hash.max(1),
            },
        });
        let router = Router::new()
            .route("/ws", get(websocket))
            .fallback(file)
            .with_state(Arc::clone(&app));
        let (shutdown, stopped) = oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("serve".into())
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()?;
                runtime.block_on(async move {
                    let listener = tokio::net::TcpListener::from_std(listener)?;
                    axum::serve(listener, router)
                        .with_graceful_shutdown(async {
                            let _ = stopped.await;
                        })
                        .await
                })
            })?;
        Ok(Server {
            addr,
            app,
            shutdown: Some(shutdown),
            thread: Some(thread),
        })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The searches running at once, over all pages.
    pub fn searches(&self) -> &Slots {
        &self.app.session.searches
    }

    /// The pages open.
    pub fn connections(&self) -> &Slots {
        &self.app.connections
    }

    /// Serves until the server fails (or the process ends).
    pub fn join(mut self) -> io::Result<()> {
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(io::Error::other("the server thread panicked")),
            None => Ok(()),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(s) = self.shutdown.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// `chuhan serve`: prints the page's address and serves until stopped.
pub fn run(args: &ServeArgs) -> io::Result<()> {
    let server = Server::start(args)?;
    println!("chuhan serves its board at http://{}/", server.addr());
    server.join()
}

/// The page's files; anything else is not found.
async fn file(method: Method, uri: Uri) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return (StatusCode::METHOD_NOT_ALLOWED, "only GET\n").into_response();
    }
    match page::find(uri.path()) {
        Some((content_type, body)) => (
            [
                (header::CONTENT_TYPE, content_type),
                (header::CACHE_CONTROL, "no-cache"),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            ],
            body,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found\n").into_response(),
    }
}

/// Whether a browser's `Origin` names the host it connected to: another site's page may not
/// drive this server's engines.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin_host = origin
        .to_str()
        .ok()
        .and_then(|o| o.split_once("://"))
        .map(|(_, rest)| rest.trim_end_matches('/'));
    host.is_some() && origin_host == host
}

async fn websocket(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    if !same_origin(&headers) {
        return (StatusCode::FORBIDDEN, "another site's page\n").into_response();
    }
    let Some(slot) = app.connections.try_take() else {
        let max = app.connections.max();
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            format!("{max} pages are open, the limit; close one\n"),
        )
            .into_response();
    };
    upgrade
        .max_message_size(FRAME_LIMIT_BYTES)
        .max_frame_size(FRAME_LIMIT_BYTES)
        .on_upgrade(move |socket| connection(socket, app, slot))
}

/// Tells the session the page went away, however the connection ends.
struct CloseOnDrop(Sender<Input>);

impl Drop for CloseOnDrop {
    fn drop(&mut self) {
        let _ = self.0.send(Input::Closed);
    }
}

/// Carries one page's messages to its session and the session's back.
async fn connection(mut socket: WebSocket, app: Arc<App>, slot: Slot) {
    let (out_tx, mut out_rx) = mpsc::unbounded_channel::<String>();
    let (input, _thread) = session::spawn(app.session.clone(), slot, move |m| {
        let _ = out_tx.send(serde_json::to_string(&m).expect("messages serialise"));
    });
    let input = CloseOnDrop(input);
    loop {
        tokio::select! {
            received = socket.recv() => {
                let sent = match received {
                    Some(Ok(Message::Text(text))) => input.0.send(Input::Text(text.to_string())),
                    Some(Ok(Message::Binary(_))) => input.0.send(Input::Binary),
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => Ok(()),
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                };
                if sent.is_err() {
                    break;
                }
            }
            outgoing = out_rx.recv() => {
                let Some(text) = outgoing else { break };
                if socket.send(Message::Text(text.into())).await.is_err() {
                    break;
                }
            }
        }
    }
}
