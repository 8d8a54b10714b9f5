//! A RabbitMQ node of a test's own, for settings the shared broker must not change for everyone
//! (its consumer acknowledgement timeout, a global setting on RabbitMQ 3.10).

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Longest wait for a node to accept connections.
const START: Duration = Duration::from_secs(90);

/// A RabbitMQ node on loopback ports of its own, with its files in a temporary directory; stopped
/// and removed when dropped.
pub struct RabbitNode {
    script: Child,
    dir: PathBuf,
    port: u16,
}

fn free_port() -> std::io::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// The broker's start script: Debian's own (the `/usr/sbin` wrapper switches to the rabbitmq
/// user, dropping the environment that places this node), else the one on the path.
fn server_script() -> PathBuf {
    let debian = PathBuf::from("/usr/lib/rabbitmq/bin/rabbitmq-server");
    if debian.exists() { debian } else { PathBuf::from("rabbitmq-server") }
}

impl RabbitNode {
    /// Starts a node whose consumers must acknowledge a delivery within `consumer_timeout` (the
    /// channels look twice a second) and waits until it accepts connections.
    pub fn start_with_consumer_timeout(consumer_timeout: Duration) -> std::io::Result<Self> {
        let dir = std::env::temp_dir().join(super::unique("rabbit-node"));
        std::fs::create_dir_all(&dir)?;
        let (port, dist) = (free_port()?, free_port()?);
        std::fs::write(
            dir.join("rabbitmq.conf"),
            format!("listeners.tcp.default = 127.0.0.1:{port}\nconsumer_timeout = {}\n", consumer_timeout.as_millis()),
        )?;
        std::fs::write(dir.join("advanced.config"), "[{rabbit, [{channel_tick_interval, 500}]}].\n")?;
        std::fs::write(dir.join("enabled_plugins"), "[].\n")?;
        let script = Command::new(server_script())
            .current_dir(&dir)
            .env("HOME", &dir)
            .env("RABBITMQ_NODENAME", format!("{}@localhost", super::unique("rf")))
            .env("RABBITMQ_NODE_IP_ADDRESS", "127.0.0.1")
            .env("RABBITMQ_NODE_PORT", port.to_string())
            .env("RABBITMQ_DIST_PORT", dist.to_string())
            .env("RABBITMQ_MNESIA_BASE", dir.join("mnesia"))
            .env("RABBITMQ_LOG_BASE", dir.join("log"))
            .env("RABBITMQ_CONFIG_FILE", dir.join("rabbitmq"))
            .env("RABBITMQ_ADVANCED_CONFIG_FILE", dir.join("advanced.config"))
            .env("RABBITMQ_ENABLED_PLUGINS_FILE", dir.join("enabled_plugins"))
            .env("RABBITMQ_PID_FILE", dir.join("node.pid"))
            .stdout(std::fs::File::create(dir.join("out.log"))?)
            .stderr(Stdio::null())
            .spawn()?;
        let mut node = Self { script, dir, port };
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Some(status) = node.script.try_wait()? {
                let log = std::fs::read_to_string(node.dir.join("out.log")).unwrap_or_default();
                return Err(std::io::Error::other(format!("the node exited ({status}): {log}")));
            }
            if started.elapsed() > START {
                return Err(std::io::Error::other("the node did not accept connections within 90 s"));
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        Ok(node)
    }

    /// The node's AMQP URL.
    pub fn url(&self) -> String {
        format!("amqp://guest:guest@127.0.0.1:{}/%2f", self.port)
    }
}

impl Drop for RabbitNode {
    fn drop(&mut self) {
        // The Erlang VM runs under the script: stopped by the PID it wrote, then the script.
        if let Ok(pid) = std::fs::read_to_string(self.dir.join("node.pid")) {
            let pid = pid.trim().to_owned();
            let _ = Command::new("kill").args(["-TERM", &pid]).status();
            let stopping = Instant::now();
            // Gone once its process is no more or a zombie (the script, its parent, is reaped below).
            let running = || {
                std::fs::read_to_string(format!("/proc/{pid}/status"))
                    .is_ok_and(|s| !s.lines().any(|l| l.starts_with("State:") && l.contains('Z')))
            };
            while running() && stopping.elapsed() < Duration::from_secs(30) {
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        let _ = self.script.kill();
        let _ = self.script.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
