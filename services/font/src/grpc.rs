//! The tonic server: proto ⇄ domain conversions; errors become statuses here, once.

use std::pin::Pin;
use std::sync::Arc;

use reelforge_kit::identity;
use reelforge_kit::status::to_status;
use reelforge_proto::common::Empty;
use reelforge_proto::font::{self as pb, font_service_server::FontService};
use tokio::io::AsyncReadExt;
use tokio_stream::Stream;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status};

use crate::domain::{self, Font, FontError};
use crate::store::FontStore;
use crate::system::SystemFonts;

/// Bytes per chunk of a served font file.
const CHUNK: usize = 256 * 1024;

/// The gRPC face of the font service.
pub struct FontGrpc {
    store: FontStore,
    system: Arc<SystemFonts>,
}

impl FontGrpc {
    /// Serves user fonts from `store` and the system fonts of `system`.
    pub fn new(store: FontStore, system: Arc<SystemFonts>) -> Self {
        Self { store, system }
    }
}

/// The verified tenant and user the call acts for.
fn owner<T>(req: &Request<T>) -> Result<(String, String), Status> {
    let caller = identity::caller(req)?;
    let (tenant, user) = caller.owner().map_err(to_status)?;
    Ok((tenant.to_owned(), user.to_owned()))
}

fn to_pb(f: Font) -> pb::Font {
    pb::Font { id: f.id, name: f.name, name_cn: f.name_cn, style: f.style, system: f.system, format: f.format.ext().to_owned() }
}

/// Reads `path` in chunks into `tx`; the first chunk carries the type and size.
async fn send_file(path: std::path::PathBuf, content_type: &'static str, tx: tokio::sync::mpsc::Sender<Result<pb::FontChunk, Status>>) {
    let fail = |e: std::io::Error| to_status(FontError::File(e.to_string()));
    let mut file = match tokio::fs::File::open(&path).await {
        Ok(f) => f,
        Err(e) => {
            let _ = tx.send(Err(fail(e))).await;
            return;
        }
    };
    let total = file.metadata().await.map(|m| m.len()).unwrap_or(0);
    let mut first = true;
    loop {
        let mut buf = vec![0u8; CHUNK];
        let n = match file.read(&mut buf).await {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) => {
                let _ = tx.send(Err(fail(e))).await;
                return;
            }
        };
        buf.truncate(n);
        let chunk = pb::FontChunk {
            content_type: if first { content_type.to_owned() } else { String::new() },
            data: buf,
            total_size: if first { total } else { 0 },
        };
        first = false;
        if tx.send(Ok(chunk)).await.is_err() {
            return;
        }
    }
}

/// Reads the blob under `key` in ranges into `tx`.
async fn send_blob(store: FontStore, key: String, content_type: &'static str, tx: tokio::sync::mpsc::Sender<Result<pb::FontChunk, Status>>) {
    let total = match store.blob().size(&key).await {
        Ok(t) => t,
        Err(e) => {
            let _ = tx.send(Err(to_status(FontError::Blob(e)))).await;
            return;
        }
    };
    let mut at = 0u64;
    while at < total {
        let end = (at + CHUNK as u64).min(total);
        match store.blob().read_range(&key, at..end).await {
            Ok(data) => {
                let chunk = pb::FontChunk {
                    content_type: if at == 0 { content_type.to_owned() } else { String::new() },
                    data: data.to_vec(),
                    total_size: if at == 0 { total } else { 0 },
                };
                if tx.send(Ok(chunk)).await.is_err() {
                    return;
                }
            }
            Err(e) => {
                let _ = tx.send(Err(to_status(FontError::Blob(e)))).await;
                return;
            }
        }
        at = end;
    }
}

/// The served file of a font.
pub type FileStream = Pin<Box<dyn Stream<Item = Result<pb::FontChunk, Status>> + Send>>;

#[tonic::async_trait]
impl FontService for FontGrpc {
    #[tracing::instrument(skip_all)]
    async fn defaults(&self, req: Request<Empty>) -> Result<Response<pb::Fonts>, Status> {
        identity::caller(&req)?;
        Ok(Response::new(pb::Fonts { fonts: self.system.list().into_iter().map(to_pb).collect() }))
    }

    #[tracing::instrument(skip_all)]
    async fn of_user_and_default(&self, req: Request<pb::OfUserRequest>) -> Result<Response<pb::Fonts>, Status> {
        let (tenant, user) = owner(&req)?;
        // The id in the path is the legacy client's own user id; naming anyone else finds nothing.
        let named = req.into_inner().user_id;
        if !named.is_empty() && named != user {
            return Err(Status::not_found("user not found"));
        }
        let mut fonts: Vec<pb::Font> = self.store.list(&tenant, &user).await.map_err(to_status)?.into_iter().map(to_pb).collect();
        fonts.extend(self.system.list().into_iter().map(to_pb));
        Ok(Response::new(pb::Fonts { fonts }))
    }

    #[tracing::instrument(skip_all)]
    async fn upload(&self, req: Request<pb::UploadFontRequest>) -> Result<Response<pb::Font>, Status> {
        let (tenant, user) = owner(&req)?;
        let req = req.into_inner();
        let parsed = domain::parse_upload(&req.data).map_err(to_status)?;
        let font = self.store.add(&tenant, &user, parsed, req.data).await.map_err(to_status)?;
        Ok(Response::new(to_pb(font)))
    }

    #[tracing::instrument(skip_all)]
    async fn delete(&self, req: Request<pb::FontIdRequest>) -> Result<Response<Empty>, Status> {
        let (tenant, user) = owner(&req)?;
        let id = req.into_inner().id;
        if self.system.get(&id).is_some() {
            return Err(to_status(FontError::Invalid(format!("id: {id} is a system font and cannot be deleted"))));
        }
        self.store.delete(&tenant, &user, &id).await.map_err(to_status)?;
        Ok(Response::new(Empty {}))
    }

    type FileStream = FileStream;

    #[tracing::instrument(skip_all)]
    async fn file(&self, req: Request<pb::FontIdRequest>) -> Result<Response<Self::FileStream>, Status> {
        let caller = identity::caller(&req)?;
        let id = req.into_inner().id;
        let (tx, rx) = tokio::sync::mpsc::channel(4);
        if let (Some(font), Some(path)) = (self.system.get(&id), self.system.file(&id)) {
            tokio::spawn(send_file(path.to_path_buf(), font.format.content_type(), tx));
        } else {
            let (tenant, user) = caller.owner().map_err(|_| to_status(FontError::NotFound(id.clone())))?;
            let stored = self.store.get(tenant, user, &id).await.map_err(to_status)?;
            tokio::spawn(send_blob(self.store.clone(), stored.key, stored.font.format.content_type(), tx));
        }
        Ok(Response::new(Box::pin(ReceiverStream::new(rx))))
    }

    #[tracing::instrument(skip_all)]
    async fn test(&self, req: Request<pb::TestFontRequest>) -> Result<Response<pb::TestFontReply>, Status> {
        let caller = identity::caller(&req)?;
        let req = req.into_inner();
        domain::check_text(&req.text).map_err(to_status)?;
        let missing = match self.system.missing(&req.font_id, &req.text).await {
            Some(r) => r.map_err(to_status)?,
            None => {
                let (tenant, user) = caller.owner().map_err(|_| to_status(FontError::NotFound(req.font_id.clone())))?;
                let stored = self.store.get(tenant, user, &req.font_id).await.map_err(to_status)?;
                let data = self.store.blob().get(&stored.key).await.map_err(|e| to_status(FontError::Blob(e)))?;
                let face = ttf_parser::Face::parse(&data, 0).map_err(|e| to_status(FontError::File(format!("font {}: {e}", stored.font.id))))?;
                domain::missing_glyphs(&face, &req.text)
            }
        };
        Ok(Response::new(pb::TestFontReply { ok: missing.is_empty(), missing }))
    }
}
