//! The ai service through its generated server trait, and refused without a verified caller.

use reelforge_kit::config::SigningKeyConfig;
use reelforge_kit::identity::Keyring;
use reelforge_proto::ai::{GetAbilityRequest, ListAbilitiesRequest, ai_service_server::AiService};

#[tokio::test]
async fn lists_the_catalogue_to_a_verified_caller_only() -> Result<(), Box<dyn std::error::Error>> {
    let svc = reelforge_ai::AiGrpc::new(reelforge_kit::config::AiConfig::default());
    let keys = Keyring::new(&[SigningKeyConfig { id: "k1".into(), secret: "0123456789abcdef0123456789abcdef".into() }])?;
    let mut req = tonic::Request::new(ListAbilitiesRequest {});
    req.extensions_mut().insert(keys.verify(&keys.service_token("qs", None, 60)?)?);
    let items = svc.list_abilities(req).await?.into_inner().items;
    assert_eq!(items.iter().filter(|a| a.group == "create").count(), 25);
    assert_eq!(items.iter().filter(|a| a.group == "analyze").count(), 5);
    assert_eq!(items.iter().filter(|a| a.group == "other").count(), 1);
    let tg = items.iter().find(|a| a.key == "text-generation").ok_or("no text-generation")?;
    assert!(tg.has_page && !tg.available && tg.reason_code == "not-configured" && tg.reason.contains("provider = \"http\""));
    let offered: Vec<_> = items.iter().filter(|a| a.available).map(|a| a.key.as_str()).collect();
    assert_eq!(
        offered,
        [
            "title-generation",
            "dialogue-summary",
            "video-highlight-extraction",
            "cover-generation",
            "music-climax-cut",
            "audio-noise-reduction",
            "echo-cancellation",
            "gain-control",
            "speech-content-analysis",
            "text-to-speech",
            "keyword-extraction"
        ],
        "the defaults offer what runs locally (espeak-ng installed; webrtcdsp for the audio filters; pocketsphinx and its English model)"
    );
    let mut one = tonic::Request::new(GetAbilityRequest { key: "text-to-speech".into() });
    one.extensions_mut().insert(keys.verify(&keys.service_token("qs", None, 60)?)?);
    let tts = svc.get_ability(one).await?.into_inner();
    assert_eq!((tts.available, tts.provider.as_str(), tts.group.as_str()), (true, "local", "analyze"));
    let mut unknown = tonic::Request::new(GetAbilityRequest { key: "mind-reading".into() });
    unknown.extensions_mut().insert(keys.verify(&keys.service_token("qs", None, 60)?)?);
    assert_eq!(svc.get_ability(unknown).await.err().map(|s| s.code()), Some(tonic::Code::NotFound));
    let unverified = svc.list_abilities(tonic::Request::new(ListAbilitiesRequest {})).await;
    assert_eq!(unverified.err().map(|s| s.code()), Some(tonic::Code::Unauthenticated));
    let _server = reelforge_ai::grpc_service(&reelforge_kit::config::AiConfig::default(), &keys);
    Ok(())
}

#[tokio::test]
async fn speech_recognition_is_offered_only_where_its_program_and_model_are() {
    use reelforge_ai::Providers;
    use reelforge_kit::config::AiConfig;
    let here = Providers::new(AiConfig::default());
    assert_eq!(here.status("qs", reelforge_ai::asr::ABILITY).await, Ok("local"));
    let no_model = Providers::new(AiConfig { asr_model_dir: "/nonexistent/model".into(), ..AiConfig::default() });
    let why = no_model.status("qs", reelforge_ai::asr::ABILITY).await.err();
    assert!(why.as_ref().is_some_and(|u| u.code == "not-configured" && u.words.contains("pocketsphinx-en-us")), "{why:?}");
    let no_program = Providers::new(AiConfig { asr_program: "/nonexistent/pocketsphinx_continuous".into(), ..AiConfig::default() });
    let why = no_program.status("qs", reelforge_ai::asr::ABILITY).await.err();
    assert!(why.as_ref().is_some_and(|u| u.code == "not-configured" && u.words.contains("cannot run")), "{why:?}");
}
