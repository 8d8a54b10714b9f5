//! Compiles every contract under `reelforge/` with tonic's prost build crate.
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let protos = [
        "reelforge/common/v1/common.proto",
        "reelforge/auth/v1/auth.proto",
        "reelforge/material/v1/material.proto",
        "reelforge/category/v1/category.proto",
        "reelforge/favourite/v1/favourite.proto",
        "reelforge/font/v1/font.proto",
        "reelforge/task/v1/task.proto",
        "reelforge/ai/v1/ai.proto",
        "reelforge/ring/v1/ring.proto",
        "reelforge/render/v1/render_job.proto",
    ];
    tonic_prost_build::configure().compile_protos(&protos, &["."])?;
    for p in protos {
        println!("cargo:rerun-if-changed={p}");
    }
    Ok(())
}
