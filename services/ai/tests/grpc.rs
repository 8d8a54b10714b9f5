//! The ai service through its generated server trait.

use reelforge_proto::ai::{ListAbilitiesRequest, ai_service_server::AiService};
use reelforge_proto::common::Caller;

#[tokio::test]
async fn lists_the_catalogue() -> Result<(), tonic::Status> {
    let svc = reelforge_ai::AiGrpc::new();
    let caller = Some(Caller { tenant: "qs".into(), user_id: "a@x.cn".into(), role: "CREATE_VIDEO".into() });
    let items = svc.list_abilities(tonic::Request::new(ListAbilitiesRequest { caller })).await?.into_inner().items;
    assert_eq!(items.iter().filter(|a| a.group == "create").count(), 25);
    assert_eq!(items.iter().filter(|a| a.group == "analyze").count(), 5);
    assert_eq!(items.iter().filter(|a| a.group == "other").count(), 1);
    assert!(items.iter().any(|a| a.key == "text-generation" && a.has_page && !a.available));
    let _server = reelforge_ai::grpc_service();
    Ok(())
}
