//! Delivery of verification codes: over SMTP (lettre; plain, STARTTLS or TLS by URL) when
//! `mail.smtp_url` is set, else to the log and the dev outbox `<data_dir>/mail-outbox.log`.

use std::path::PathBuf;

use lettre::message::Mailbox;
use lettre::message::header::ContentType;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use reelforge_kit::config::{MailConfig, TimeoutConfig};
use tokio::io::AsyncWriteExt;

use crate::domain::{AuthError, Mail};

/// The name of the dev outbox file.
pub const OUTBOX_FILE: &str = "mail-outbox.log";

/// Where codes go.
#[derive(Clone)]
pub enum Mailer {
    /// A line per code in the dev outbox (the embedded default).
    Outbox(PathBuf),
    /// An SMTP server.
    Smtp {
        /// The connection (boxed: it is much larger than the outbox's path).
        transport: Box<AsyncSmtpTransport<Tokio1Executor>>,
        /// The sender.
        from: Mailbox,
        /// The longest a whole delivery may take.
        deadline: std::time::Duration,
    },
}

/// The text of the message.
fn body(code: &str) -> String {
    format!("your Reelforge verification code is {code}")
}

impl Mailer {
    /// SMTP when `config.smtp_url` is set (`tls=starttls` requires STARTTLS), else the outbox in `dir`.
    /// The connection and each answer wait at most `timeouts.connect_seconds`, the whole delivery
    /// `timeouts.mail_seconds`: a server that accepts and then says nothing fails the code's send.
    pub fn from_config(config: &MailConfig, timeouts: &TimeoutConfig, dir: PathBuf) -> Result<Self, AuthError> {
        if config.smtp_url.is_empty() {
            return Ok(Self::Outbox(dir));
        }
        let url = config.smtp_url.replace("tls=starttls", "tls=required");
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(&url)
            .map_err(|e| AuthError::Invalid(format!("mail.smtp_url: {e}")))?
            .timeout(Some(TimeoutConfig::of(timeouts.connect_seconds)))
            .build();
        let transport = Box::new(transport);
        let from = config.from.parse().map_err(|e| AuthError::Invalid(format!("mail.from: {e}")))?;
        Ok(Self::Smtp { transport, from, deadline: TimeoutConfig::of(timeouts.mail_seconds) })
    }

    /// Sends `code` to `mail` of `tenant`.
    pub async fn send(&self, tenant: &str, mail: &Mail, code: &str) -> Result<(), AuthError> {
        match self {
            Self::Outbox(dir) => {
                let io = |e: std::io::Error| AuthError::Mail(format!("outbox {}: {e}", dir.display()));
                tokio::fs::create_dir_all(dir).await.map_err(io)?;
                let line = format!("{}\t{tenant}\t{}\t{}\n", chrono::Utc::now().to_rfc3339(), mail.as_str(), body(code));
                let mut file =
                    tokio::fs::OpenOptions::new().create(true).append(true).open(dir.join(OUTBOX_FILE)).await.map_err(io)?;
                file.write_all(line.as_bytes()).await.map_err(io)?;
                file.flush().await.map_err(io)?;
                tracing::info!(tenant, outbox = %dir.display(), "verification code written to the dev mail outbox");
                Ok(())
            }
            Self::Smtp { transport, from, deadline } => {
                let to = mail.as_str().parse().map_err(|e| AuthError::Invalid(format!("mail: {e}")))?;
                let message = Message::builder()
                    .from(from.clone())
                    .to(to)
                    .subject("Reelforge verification code")
                    .header(ContentType::TEXT_PLAIN)
                    .body(body(code))
                    .map_err(|e| AuthError::Mail(e.to_string()))?;
                tokio::time::timeout(*deadline, transport.send(message))
                    .await
                    .map_err(|_| AuthError::Mail(format!("the mail server did not finish within {} s", deadline.as_secs())))?
                    .map_err(|e| AuthError::Mail(e.to_string()))?;
                tracing::info!(tenant, "verification code mailed");
                Ok(())
            }
        }
    }
}
